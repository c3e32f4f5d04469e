"""log4brains: MADR 2 bullets written with ``-``, in date-slug files without numbers.

A variant of :mod:`.madr2`: a ``-`` status bullet in a file named
``20200101-use-x.md``, or next to a ``Tags`` bullet, is log4brains. Such a
record's id is its file stem, so ``mkdocs-adr new`` names a new one by date
and slug instead of by number. Written as MADR 2 is.
"""

from __future__ import annotations

import re

from .base import Context, Format, Hit
from .madr2 import BulletWriter

#: A log4brains file name starts with its date: ``20200101-``.
DATE_SLUG = re.compile(r"^\d{8}-")


def claims(ctx: Context, hit: Hit) -> bool:
    return hit.marker == "-" and bool(DATE_SLUG.match(ctx.name) or "tags" in hit.fields)


class Log4brainsWriter(BulletWriter):
    style = "log4brains"


TEMPLATE = """\
# TITLE

- Status: STATUS
- Date: DATE

## Context and Problem Statement

What is the problem, and why does it need a decision now?

## Considered Options

- Option 1
- Option 2

## Decision Outcome

Chosen option: "Option 1", because ...
"""

FORMAT = Format(
    "log4brains",
    "log4brains: '- Status:' bullets, date-slug file names, the file stem as id",
    variant_of="madr2",
    claims=claims,
    forced=("madr2",),
    writer=Log4brainsWriter(),
    template=TEMPLATE,
    keeps_wording=True,
    numbered=False,
)
