"""The review card prompt shared by every plan kind (SPEC 7).

Only an explicit answer at a terminal is consent: no answer, EOF, Ctrl-C or
a closed terminal is "cancel". Without a terminal, nothing is asked and only
``mkdocs-adr plan --confirm PLAN_ID`` applies.
"""

from __future__ import annotations

import click

ANSWERS = {
    "p": "apply",
    "publish": "apply",
    "a": "apply",
    "accept": "apply",
    "s": "draft",
    "save": "draft",
    "n": "changes",
    "needs changes": "changes",
    "c": "cancel",
    "cancel": "cancel",
}


def ask(card: str, *, can_apply: bool, apply_label: str = "publish") -> str:
    """Show ``card`` and ask; returns apply | draft | changes | cancel."""
    click.echo(card)
    options = ([f"[p] {apply_label}"] if can_apply else []) + [
        "[s] save draft only",
        "[n] needs changes",
        "[c] cancel",
    ]
    if not can_apply:
        click.echo("Applying is disabled: the plan has blocking problems.")
    try:
        raw = click.prompt("  ".join(options), default="", show_default=False)
    except (click.exceptions.Abort, EOFError, KeyboardInterrupt):
        return "cancel"
    answer = ANSWERS.get(str(raw).strip().lower(), "cancel")
    if answer == "apply" and not can_apply:
        return "cancel"
    return answer
