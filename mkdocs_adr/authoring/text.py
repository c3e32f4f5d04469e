"""Editable record text: moved to :mod:`mkdocs_adr.parsing.editable`.

The format writers in :mod:`mkdocs_adr.parsing.formats` need these helpers and
must not import ``authoring``, so they live there now. This module only keeps
the old import path working for code written against it.
"""

from __future__ import annotations

from ..parsing.editable import Editable, UnsafeEdit, heading_key, yaml_scalar

__all__ = ["Editable", "UnsafeEdit", "heading_key", "yaml_scalar"]
