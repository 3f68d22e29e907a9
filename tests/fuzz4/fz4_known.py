"""Disagreement classes of the fourth fuzzer still open, keyed by (snippet class, kind) as
fz4_campaign.py counts them (the class: `fz4_progs.label_of`), or by a class prefix ending in
":" for every callable of a template: such a disagreement is counted by the profiles, not failed.
Each entry says what TF 2.21 does and what simdist does."""

from __future__ import annotations

from typing import Any

KNOWN_OPEN: dict[tuple[str, str], str] = {
}


def known_key(prog: Any, t: int, got: Any, want: Any) -> tuple[str, str] | None:
    """The open class a disagreement of snippet t belongs to, or None."""
    if t < 0:
        return None
    from fz4_run import kind_of
    key = (prog.labels[t], kind_of(got, want))
    return key if key in KNOWN_OPEN else None
