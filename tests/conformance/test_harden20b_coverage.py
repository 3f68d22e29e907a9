"""harden20b's pairwise grids: the covering array holds every valid pair of values, drops forbidden
ones, is the same for the same seed; every optimizer class harden16 enumerates has a grid."""

from __future__ import annotations

import itertools

from simdist.conformance.suite import harden16_reference, harden20b_pairwise, harden20b_tables

FACTORS = [("a", [0, 1]), ("b", ["x", "y", "z"]), ("c", [None, 2.5]), ("d", [True, False]), ("e", [1, 2, 3, 4])]


def test_covering_holds_every_pair_and_is_deterministic():
    cases = harden20b_pairwise.covering(FACTORS, "t")
    missing = harden20b_pairwise.covers(cases, FACTORS)
    assert missing == [], f"pairs missing from the covering array: {missing[:5]}, but should be none"
    assert cases == harden20b_pairwise.covering(FACTORS, "t"), "the same seed gave another array, but should not"
    full = len(list(itertools.product(*[v for _, v in FACTORS])))
    assert 12 <= len(cases) < full, f"{len(cases)} cases, but should be at least 4*3 and fewer than all {full}"


def test_covering_drops_forbidden_pairs_and_cases():
    def valid(case):
        return not (case.get("a") == 1 and case.get("b") == "z")
    cases = harden20b_pairwise.covering(FACTORS, "t", valid)
    bad = [c for c in cases if not valid(c)]
    assert bad == [], f"forbidden cases {bad}, but should be none"
    missing = harden20b_pairwise.covers(cases, FACTORS, valid)
    assert missing == [], f"valid pairs missing: {missing[:5]}, but should be none"


def test_every_enumerated_optimizer_has_a_grid():
    enumerated = sorted({c["class"] for c in harden16_reference.load()["configs"] if c["namespace"] == "optimizers"})
    missing = [n for n in enumerated if n not in harden20b_tables.OPTIMIZERS]
    assert missing == [], f"optimizers without a pairwise grid: {missing}, but should be none"
