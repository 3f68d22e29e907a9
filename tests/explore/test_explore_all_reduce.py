"""simdist explore and the default all-reduce (docs/scenarios.md "Cost model and collectives"):
plans that may degrade links run the link-level ring in the baseline and every plan, so a link
fault changes the collective it degrades, and the baseline is the same algorithm as the plans."""

from __future__ import annotations

from scenario_helpers import TINY

from simdist.explore.driver import _link_level_all_reduce
from simdist.scenario import loads

RING = (("strategy.all_reduce", "ring"),)


def test_default_nccl_with_link_plans_pins_the_ring():
    sc = loads(TINY, "t.toml")
    assert sc.plan["all_reduce"] == "nccl"
    got = _link_level_all_reduce(sc)
    assert got == RING, f"base overrides {got}, but should be {RING} (plans may degrade links)"


def test_a_named_all_reduce_or_no_link_plans_keep_the_file():
    named = TINY.replace('kind = "mirrored"', 'kind = "mirrored"\nall_reduce = "nccl"')
    no_links = TINY + "\n[explore]\nlinks = { rate = 0.0 }\n"
    for what, text, ov in (("named in the file", named, []), ("named by --param", TINY, [("strategy.all_reduce", "nccl")]),
                           ("no link plans", no_links, [])):
        got = _link_level_all_reduce(loads(text, "t.toml", ov))
        assert got == (), f"{what}: base overrides {got}, but should be ()"
