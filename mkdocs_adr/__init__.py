"""mkdocs-adr: publish Architecture Decision Records and keep their views honest."""

from __future__ import annotations

__version__ = "0.1.0"

from .config import Config, RootConfig
from .log import Log, ParseCache, load
from .model import Problem, Record, Relation, Severity, Unit

__all__ = [
    "Config",
    "Log",
    "ParseCache",
    "Problem",
    "Record",
    "Relation",
    "RootConfig",
    "Severity",
    "Unit",
    "__version__",
    "load",
]
