"""MkDocs hook of the sites that publish the showcase (``hooks:`` in ``mkdocs.yml``).

The showcase log keeps two problems on purpose, so that a visitor sees their banners: a
CURRENT view that is stale (``ADR011``) and a review-by date that has passed (``ADR017``).
Both are warnings, and ``mkdocs build --strict`` fails on any warning; mkdocs-adr has no
option that changes a problem's severity (``fail_on`` only decides what fails outside
``--strict``). This hook logs exactly these two problems, at exactly these files, at info
level with the note "expected in the showcase"; every other warning, from the showcase or
from any other page, still fails the strict build. ``mkdocs-adr check`` is not affected: it
still reports both and fails on the stale view.

This is the site's configuration, not a feature of mkdocs-adr.
"""

from __future__ import annotations

import logging
import re

from mkdocs_adr.plugin import log as plugin_log

#: The name of the logger the plugin reports problems through (``mkdocs.plugins.
#: mkdocs_adr.plugin`` under MkDocs), taken from the plugin so that any host's is found.
LOGGER = plugin_log.logger.name

#: (file, code) of each problem the showcase shows on purpose. The plugin names a file
#: relative to the folder of the mkdocs.yml it runs under: ``site_src/showcase/docs/...``
#: in the project's site, ``docs/...`` in the showcase's own.
EXPECTED = (
    ("docs/parcelwise/CURRENT.md", "ADR011"),
    ("docs/parcelwise/platform/0010-stay-in-one-region.md", "ADR017"),
)

_PROBLEM = re.compile(r"^(?:mkdocs_adr: )?(?P<path>[^\s:]+)(?::\d+)?: (?P<code>ADR\d{3}) ")
NOTE = "(expected in the showcase) "


class ExpectedInShowcase(logging.Filter):
    """Logs the showcase's expected warnings at info level; passes everything else."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno != logging.WARNING:
            return True
        found = _PROBLEM.match(record.getMessage())
        if found is None:
            return True
        path, code = found["path"], found["code"]
        if any(
            code == want and (path == end or path.endswith("site_src/showcase/" + end))
            for end, want in EXPECTED
        ):
            record.levelno, record.levelname = logging.INFO, "INFO"
            record.msg, record.args = NOTE + record.getMessage(), ()
        return True


_logger = plugin_log.logger
if not any(isinstance(f, ExpectedInShowcase) for f in _logger.filters):
    _logger.addFilter(ExpectedInShowcase())
