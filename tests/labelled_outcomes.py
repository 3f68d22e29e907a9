"""A differential program's labelled outcomes — lists of [label, observation] — compared with TF 2.21's: the labels
one to one first (a program that took another path shows there), then each observation not left open, the message
naming every differing label with both values (the first 12)."""

from __future__ import annotations

from typing import Any, Container


def assert_as_tf(name: str, got: list, want: list, left_open: Container[str] = (), width: int = 0) -> None:
    """`got` (simdist's) equals `want` (TF 2.21's) but for the labels in `left_open`; `width` > 0 cuts each shown
    value's repr to that many characters."""
    assert [g[0] for g in got] == [w[0] for w in want], \
        f"{name}: labels differ: simdist {[g[0] for g in got]}, TF 2.21 {[w[0] for w in want]}"

    def show(v: Any) -> str:
        r = repr(v)
        return r[:width] if width > 0 else r
    bad = [f"{w[0]}: TF {show(w[1])}, simdist {show(g[1])}" for g, w in zip(got, want)
           if g[1] != w[1] and w[0] not in left_open]
    assert not bad, f"{name}: {len(bad)} of {len(want)} outcomes differ from TF 2.21:\n" + "\n".join(bad[:12])
