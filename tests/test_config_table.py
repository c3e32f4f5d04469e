"""One option table: the plugin's config class, the CLI's reading, the engine's defaults
and the configuration guide list the same options with the same defaults."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from mkdocs_adr import config as engine_config
from mkdocs_adr.config import KNOWN_OPTIONS, OPTION, OPTIONS, Config, from_options
from mkdocs_adr.errors import ConfigError
from mkdocs_adr.plugin import AdrConfig

GUIDE = Path(__file__).resolve().parent.parent / "docs" / "guide" / "configuration.md"
NAMES = [o.name for o in OPTIONS]


def guide_options() -> dict[str, Any]:
    """Each option row of the guide's tables: name -> default, read as YAML (a string
    option's default as written: YAML would read ``off`` as false)."""
    rows = re.findall(r"^\| `([a-z_]+)` \| `([^`]*)` \|", GUIDE.read_text("utf-8"), re.M)
    assert rows, "the guide has option tables"
    names = [name for name, _ in rows]
    assert len(names) == len(set(names)), "an option is listed twice"
    return {
        name: default if name in OPTION and OPTION[name].type is str else yaml.safe_load(default)
        for name, default in rows
    }


def test_the_table_is_not_empty_and_names_are_unique() -> None:
    assert len(NAMES) >= 17 and len(set(NAMES)) == len(NAMES)
    assert all(o.doc for o in OPTIONS)


def test_plugin_config_class_is_the_table() -> None:
    schema = dict(AdrConfig._schema)
    assert list(schema) == NAMES  # same names, in the table's order
    assert {name: option.default for name, option in schema.items()} == {
        o.name: o.fresh_default() for o in OPTIONS
    }
    doc = AdrConfig.__doc__ or ""
    assert all(f"{o.name}: {o.doc}" in doc for o in OPTIONS)


def test_plugin_defaults_validate_and_read_as_the_cli_defaults(tmp_path: Path) -> None:
    plugin = AdrConfig()
    plugin.load_dict({})
    errors, warnings = plugin.validate()
    assert errors == [] and warnings == []
    as_plugin = from_options(
        dict(plugin.items()), project_dir=tmp_path, docs_dir=tmp_path, config_file=None
    )
    as_cli = from_options({}, project_dir=tmp_path, docs_dir=tmp_path, config_file=None)
    assert as_plugin == as_cli


def test_cli_knows_the_same_options() -> None:
    assert {*NAMES, "enabled"} == KNOWN_OPTIONS  # enabled: MkDocs adds it to every plugin
    with pytest.raises(ConfigError) as err:
        from_options({"nav_limt": 3}, project_dir=Path("/p"), docs_dir=Path("/p"), config_file=None)
    assert f"known options: {', '.join(sorted(NAMES))}" in err.value.format()


def test_engine_config_has_one_field_per_option_with_its_default(tmp_path: Path) -> None:
    fields = {f.name for f in dataclasses.fields(Config)}
    assert set(NAMES) <= fields
    assert fields - set(NAMES) == {"project_dir", "docs_dir", "max_file_bytes", "config_file"}
    bare = Config(project_dir=tmp_path, docs_dir=tmp_path / "docs")
    read = from_options({}, project_dir=tmp_path, docs_dir=tmp_path / "docs", config_file=None)
    for name in NAMES:
        if name == "work_dir":  # unset means the option's default folder
            assert bare.work_dir is None and bare.work_path == read.work_path
            assert read.work_path == tmp_path / OPTION["work_dir"].default
            continue
        assert getattr(bare, name) == getattr(read, name) == OPTION[name].read({}), name


def test_guide_lists_every_option_with_its_default() -> None:
    assert guide_options() == {o.name: o.fresh_default() for o in OPTIONS}


@pytest.mark.parametrize("opt", [o for o in OPTIONS if o.choices], ids=lambda o: o.name)
def test_plugin_and_cli_accept_the_same_choices(opt: engine_config.Option, tmp_path: Path) -> None:
    for value, ok in [*((c, True) for c in opt.choices), ("sometimes", False)]:
        plugin = AdrConfig()
        plugin.load_dict({opt.name: value})
        errors, _ = plugin.validate()
        assert (errors == []) == ok, (value, errors)
        if not ok:
            assert all(c in str(errors[0][1]) for c in opt.choices)
        try:
            from_options(
                {opt.name: value}, project_dir=tmp_path, docs_dir=tmp_path, config_file=None
            )
        except ConfigError as exc:
            assert not ok and all(c in exc.format() for c in opt.choices)
        else:
            assert ok


def test_an_unquoted_off_reads_as_off_in_the_plugin_and_the_cli(tmp_path: Path) -> None:
    # YAML 1.1 reads `read_guard: off` as false; the guide writes it unquoted.
    loaded = yaml.safe_load("read_guard: off\npreview: off\n")
    assert loaded == {"read_guard": False, "preview": False}
    plugin = AdrConfig()
    plugin.load_dict(loaded)
    errors, _ = plugin.validate()
    assert errors == []
    assert plugin["read_guard"] == "off" and plugin["preview"] == "off"
    cfg = from_options(loaded, project_dir=tmp_path, docs_dir=tmp_path, config_file=None)
    assert (cfg.read_guard, cfg.preview) == ("off", "off")
    # other booleans stay errors where a word is expected
    plugin = AdrConfig()
    plugin.load_dict({"fail_on": False})
    assert plugin.validate()[0]


def test_a_real_build_takes_an_unquoted_off(tmp_path: Path) -> None:
    import subprocess
    import sys

    (tmp_path / "docs" / "adr").mkdir(parents=True)
    (tmp_path / "docs" / "index.md").write_text("# Home\n", encoding="utf-8")
    (tmp_path / "docs" / "adr" / "0001-use-adrs.md").write_text(
        "# 1. Use ADRs\n\n## Status\n\nAccepted\n\n## Context\n\nWe decide.\n", encoding="utf-8"
    )
    (tmp_path / "mkdocs.yml").write_text(
        "site_name: t\nplugins:\n  - adr:\n      read_guard: off\n      preview: off\n",
        encoding="utf-8",
    )
    run = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    plan = subprocess.run(
        [sys.executable, "-m", "mkdocs_adr", "plan"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert plan.returncode == 0, plan.stdout + plan.stderr
