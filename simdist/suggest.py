"""'Did you mean' hints for names the user typed: every candidate that is equally close, not
just the first one (``gpuz`` is one edit from ``gpu`` and one from ``gpus``).

Closeness is the optimal-string-alignment edit distance (insert, delete, substitute, swap two
neighbours: one edit each), case-insensitive; a candidate counts when it is within about a third
of the word's length.
"""

from __future__ import annotations

from typing import Iterable

__all__ = ["edit_distance", "closest", "did_you_mean"]


def edit_distance(a: str, b: str) -> int:
    """Optimal string alignment distance between ``a`` and ``b``."""
    a, b = a.lower(), b.lower()
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        cur = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                cur[j] = min(cur[j], prev2[j - 2] + 1)
        prev2, prev = prev, cur
    return prev[len(b)]


def closest(word: str, candidates: Iterable[str], max_distance: int | None = None) -> list[str]:
    """The candidates nearest to ``word`` (all of those tied for the smallest distance, in the
    order given), or [] when none is within ``max_distance`` (default: max(1, len(word) // 3))."""
    limit = max(1, len(word) // 3) if max_distance is None else max_distance
    best, out = limit + 1, []
    for c in dict.fromkeys(candidates):   # unique, order kept
        if abs(len(c) - len(word)) > limit:
            continue
        d = edit_distance(word, c)
        if d < best:
            best, out = d, [c]
        elif d == best:
            out.append(c)
    return out


def did_you_mean(word: str, candidates: Iterable[str], max_distance: int | None = None) -> str:
    """``"; did you mean 'gpu' or 'gpus'?"`` (empty when nothing is close)."""
    near = closest(word, candidates, max_distance)
    if not near:
        return ""
    quoted = [f"'{c}'" for c in near]
    text = quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " or " + quoted[-1]
    return f"; did you mean {text}?"
