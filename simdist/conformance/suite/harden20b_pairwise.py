"""A small deterministic pairwise covering array (harden20b): every pair of option values appears
together in at least one case.

Greedy, AETG-style: while a pair is uncovered, build CANDIDATES candidate cases, each starting from
the first uncovered pair and filling the other factors one at a time (in a seeded random order) with
the value that covers the most still-uncovered pairs with the factors already set (ties: a seeded
choice); keep the candidate covering the most. A `valid` predicate on partial assignments removes
forbidden pairs from what must be covered (mutually exclusive options) and forbidden candidates.
The same factors and seed give the same cases (no sets, no wall clock). Nothing here imports TF.
"""

from __future__ import annotations

import zlib
from typing import Any, Callable

import numpy as np

#: Candidates built per case (AETG's M); more gives fewer cases at more cost.
CANDIDATES = 16

Factors = list[tuple[str, list[Any]]]
Valid = Callable[[dict[str, Any]], bool]


def _always(_: dict[str, Any]) -> bool:
    return True


def covering(factors: Factors, seed: str | int, valid: Valid = _always) -> list[dict[str, Any]]:
    """Cases (factor name -> value) covering every valid pair of values of two factors."""
    names = [n for n, _ in factors]
    values = dict(factors)
    if len(factors) < 2:
        return [{names[0]: v} for v in values[names[0]]] if factors else [{}]
    rng = np.random.default_rng(zlib.crc32(str(seed).encode()))
    uncovered: dict[tuple[int, int, int, int], bool] = {}
    for a in range(len(names)):
        for b in range(a + 1, len(names)):
            for i, va in enumerate(values[names[a]]):
                for j, vb in enumerate(values[names[b]]):
                    if valid({names[a]: va, names[b]: vb}):
                        uncovered[(a, i, b, j)] = True
    cases: list[dict[str, Any]] = []
    while uncovered:
        first = next(iter(uncovered))
        best: tuple[int, dict[int, int]] | None = None
        for _ in range(CANDIDATES):
            cand = _candidate(first, names, values, uncovered, rng, valid)
            if cand is None:
                continue
            gain = sum(1 for k in _pairs(cand) if k in uncovered)
            if best is None or gain > best[0]:
                best = (gain, cand)
        if best is None:   # no valid completion of this pair: it cannot be covered
            del uncovered[first]
            continue
        for k in _pairs(best[1]):
            uncovered.pop(k, None)
        cases.append({names[f]: values[names[f]][i] for f, i in sorted(best[1].items())})
    return cases


def _pairs(cand: dict[int, int]) -> list[tuple[int, int, int, int]]:
    fs = sorted(cand)
    return [(a, cand[a], b, cand[b]) for x, a in enumerate(fs) for b in fs[x + 1:]]


def _candidate(first: tuple[int, int, int, int], names: list[str], values: dict[str, list[Any]],
               uncovered: dict[tuple[int, int, int, int], bool], rng: np.random.Generator,
               valid: Valid) -> dict[int, int] | None:
    a, i, b, j = first
    cand = {a: i, b: j}
    rest = [f for f in range(len(names)) if f not in cand]
    for f in [rest[k] for k in rng.permutation(len(rest))]:
        scores = []
        for v in range(len(values[names[f]])):
            trial = {**cand, f: v}
            if not valid({names[g]: values[names[g]][x] for g, x in trial.items()}):
                scores.append(-1)
                continue
            scores.append(sum(1 for g, x in cand.items()
                              if ((min(g, f), x if g < f else v, max(g, f), v if g < f else x) in uncovered)))
        top = max(scores)
        if top < 0:
            return None
        choices = [v for v, s in enumerate(scores) if s == top]
        cand[f] = choices[int(rng.integers(len(choices)))]
    return cand


def covers(cases: list[dict[str, Any]], factors: Factors, valid: Valid = _always) -> list[str]:
    """The valid pairs no case holds (empty when `cases` is a pairwise covering set), as text."""
    missing = []
    for x, (na, va_s) in enumerate(factors):
        for nb, vb_s in factors[x + 1:]:
            for va in va_s:
                for vb in vb_s:
                    if valid({na: va, nb: vb}) and not any(c.get(na) == va and c.get(nb) == vb for c in cases):
                        missing.append(f"{na}={va!r} with {nb}={vb!r}")
    return missing
