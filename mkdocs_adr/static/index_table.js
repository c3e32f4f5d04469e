/* mkdocs-adr: filters and sorting for the INDEX tables of this page.
   The tables are complete without this script; it only adds controls. No request leaves
   the page. The rows carry data-status, data-domain, data-tags (a JSON list) and
   data-order (INDEX order); a cell's data-sort, when present, is what it sorts by. */
(function () {
  "use strict";
  var blocks = Array.prototype.slice.call(
    document.querySelectorAll(".adr-index-table:not([data-adr-ready])")
  );
  if (!blocks.length) return;
  // the words of the controls: data-adr-labels (JSON) on the first table, else English
  var words = {
    form: "Filter the decision records",
    all: "All",
    placeholder: "id, title, decider\u2026",
    filter: "Filter",
    status: "Status",
    domain: "Domain",
    tag: "Tag",
    count: "{shown} of {total} records",
    sort: "Sort by {column}",
  };
  try {
    var given = JSON.parse(blocks[0].getAttribute("data-adr-labels") || "{}");
    Object.keys(words).forEach(function (k) {
      if (typeof given[k] === "string") words[k] = given[k];
    });
  } catch (e) {
    /* keep the English words */
  }
  var rows = [];
  blocks.forEach(function (block) {
    block.setAttribute("data-adr-ready", "");
    block.classList.add("adr-js");
    Array.prototype.forEach.call(block.querySelectorAll("tbody tr"), function (row) {
      var tags = [];
      try {
        tags = JSON.parse(row.getAttribute("data-tags") || "[]");
      } catch (e) {
        tags = [];
      }
      rows.push({
        el: row,
        status: row.getAttribute("data-status") || "",
        domain: row.getAttribute("data-domain") || "",
        tags: Array.isArray(tags) ? tags : [],
        text: row.textContent.toLowerCase(),
      });
    });
  });

  function distinct(pick) {
    var seen = {};
    var out = [];
    rows.forEach(function (r) {
      [].concat(pick(r)).forEach(function (v) {
        if (v && !Object.prototype.hasOwnProperty.call(seen, v)) {
          seen[v] = true;
          out.push(v);
        }
      });
    });
    return out;
  }

  var bar = document.createElement("form");
  bar.className = "adr-filters";
  bar.setAttribute("role", "search");
  bar.setAttribute("aria-label", words.form);
  bar.addEventListener("submit", function (event) {
    event.preventDefault();
  });

  function field(labelText, control) {
    var label = document.createElement("label");
    var span = document.createElement("span");
    span.textContent = labelText;
    label.appendChild(span);
    label.appendChild(control);
    bar.appendChild(label);
    return control;
  }

  function select(labelText, name, values, labels) {
    var control = document.createElement("select");
    control.name = name;
    var all = document.createElement("option");
    all.value = "";
    all.textContent = words.all;
    control.appendChild(all);
    values.forEach(function (v) {
      var option = document.createElement("option");
      option.value = v;
      option.textContent = (labels && labels[v]) || v;
      control.appendChild(option);
    });
    control.addEventListener("change", apply);
    return field(labelText, control);
  }

  var text = document.createElement("input");
  text.type = "search";
  text.name = "q";
  text.placeholder = words.placeholder;
  text.addEventListener("input", apply);
  field(words.filter, text);

  var statusLabels = {};
  rows.forEach(function (r) {
    var badge = r.el.querySelector(".adr-status");
    if (badge && !statusLabels[r.status]) statusLabels[r.status] = badge.textContent.trim();
  });
  var byStatus = select(words.status, "status", distinct(function (r) { return r.status; }).sort(), statusLabels);
  var domains = distinct(function (r) { return r.domain; }).sort();
  var byDomain = domains.length ? select(words.domain, "domain", domains) : null;
  var tagList = distinct(function (r) { return r.tags; }).sort();
  var byTag = tagList.length ? select(words.tag, "tag", tagList) : null;

  var count = document.createElement("output");
  count.className = "adr-count";
  count.setAttribute("aria-live", "polite");
  bar.appendChild(count);
  var first = heading(blocks[0]) || blocks[0];
  first.parentNode.insertBefore(bar, first);

  function heading(block) {
    var before = block.previousElementSibling;
    return before && /^H[2-6]$/.test(before.tagName) ? before : null;
  }

  function apply() {
    var terms = text.value.toLowerCase().split(/\s+/).filter(Boolean);
    var shown = 0;
    rows.forEach(function (r) {
      var ok =
        (!byStatus.value || r.status === byStatus.value) &&
        (!byDomain || !byDomain.value || r.domain === byDomain.value) &&
        (!byTag || !byTag.value || r.tags.indexOf(byTag.value) >= 0) &&
        terms.every(function (t) { return r.text.indexOf(t) >= 0; });
      r.el.hidden = !ok;
      if (ok) shown += 1;
    });
    blocks.forEach(function (block) {
      var any = block.querySelector("tbody tr:not([hidden])") !== null;
      block.hidden = !any;
      var h = heading(block);
      if (h) h.hidden = !any;
    });
    count.textContent = words.count.replace("{shown}", shown).replace("{total}", rows.length);
  }

  var sortKey = null;
  var direction = 1;

  function cellValue(row, index) {
    var cell = row.cells[index];
    if (!cell) return "";
    var given = cell.getAttribute("data-sort");
    return (given !== null ? given : cell.textContent).trim();
  }

  function sortBy(key) {
    direction = sortKey === key ? -direction : 1;
    sortKey = key;
    blocks.forEach(function (block) {
      var index = -1;
      Array.prototype.forEach.call(block.querySelectorAll("thead th"), function (th, i) {
        var mine = th.getAttribute("data-key") === key;
        if (mine) index = i;
        th.setAttribute("aria-sort", mine ? (direction > 0 ? "ascending" : "descending") : "none");
      });
      if (index < 0) return;
      var body = block.querySelector("tbody");
      var list = Array.prototype.slice.call(body.rows);
      list.sort(function (a, b) {
        var x = cellValue(a, index);
        var y = cellValue(b, index);
        if (!x !== !y) return x ? -1 : 1; // empty cells last, either way
        var c = x.localeCompare(y, undefined, { numeric: true, sensitivity: "base" });
        if (c) return c * direction;
        return Number(a.getAttribute("data-order")) - Number(b.getAttribute("data-order"));
      });
      list.forEach(function (row) { body.appendChild(row); });
    });
  }

  blocks.forEach(function (block) {
    Array.prototype.forEach.call(block.querySelectorAll("thead th"), function (th) {
      var key = th.getAttribute("data-key");
      if (!key) return;
      var button = document.createElement("button");
      button.type = "button";
      button.className = "adr-sort";
      button.textContent = th.textContent;
      button.title = words.sort.replace("{column}", th.textContent);
      button.addEventListener("click", function () { sortBy(key); });
      th.textContent = "";
      th.appendChild(button);
    });
  });
  apply();
})();
