"""Disagreement classes of the fourteenth fuzzer still open: counted by the campaign and the
tests, not failed. A key is (snippet label prefix, kind, TF's sign) as in tests/fuzz4/fz4_known.py:
the label (`fz14_progs`: "call:<op>", "operator:<op>", ...; a key ending in ":" or "." matches every
label it begins), the kind (fz4_run.kind_of) and a text TF's outcome contains. Each entry says what
TF 2.21 does and what simdist does."""

from __future__ import annotations

from typing import Any

KNOWN_OPEN: dict[tuple[str, str, str], str] = {}


def _matches(key: tuple[str, str, str], label: str, kind: str, want: Any) -> bool:
    name, k, sign = key
    return k == kind and (label == name or (name.endswith((":", ".")) and label.startswith(name))) and \
        sign in repr(want)


def known_key(prog: Any, t: int, got: Any, want: Any) -> tuple[str, str, str] | None:
    """The open class a disagreement of snippet t belongs to, or None."""
    if t < 0:
        return None
    from fz14_run import kind_of
    label, kind = prog.labels[t], kind_of(got, want)
    return next((key for key in KNOWN_OPEN if _matches(key, label, kind, want)), None)
