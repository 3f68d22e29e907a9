"""Fault plans (drawn per seed, valid for the cluster, the same overrides as the command line) and
shrinking (ddmin, then simpler numbers; deterministic)."""

from __future__ import annotations

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib  # type: ignore[no-redef]

from scenario_helpers import ROOT

from simdist.explore import config, plans
from simdist.explore.plans import Event
from simdist.explore.shrink import ddmin, shrink
from simdist.scenario import load
from simdist.scenario.loader import parse_override

PSF = ROOT / "scenarios/ps_failure_checkpoint.toml"


def _settings(seed: int = 0, **kw):
    sc = load(PSF)
    return sc, config.settings(sc, 300.0, plans=50, seed=seed, **kw)


def test_plans_are_drawn_per_index_and_seed_and_fit_the_cluster():
    sc, s = _settings()
    drawn = [plans.draw(s, i) for i in range(1, 51)]
    assert drawn == [plans.draw(s, i) for i in range(1, 51)]                      # same seed, same plans
    assert drawn[9] == plans.draw(config.settings(sc, 300.0, plans=10), 10)        # plan i does not depend on N
    assert drawn != [plans.draw(_settings(seed=1)[1], i) for i in range(1, 51)]   # another seed, other plans
    kinds = [e.kind for p in drawn for e in p]
    assert all(len(p) <= s.max_events for p in drawn)
    assert all(sum(e.kind == "ps_failures" for e in p) <= 1 for p in drawn)      # ps_failures = { max = 1 }
    assert {"preemptions", "ps_failures", "stragglers", "links"} <= set(kinds)
    base = plans.base_events(sc.config)
    for p in drawn:
        run_sc = sc.with_overrides(plans.overrides(base, "drop", p))              # every drawn plan validates
        f = run_sc.config["faults"]
        assert [plans.event_from(k, e) for k in ("ps_failures", "preemptions") for e in f.get(k) or []] == \
            [e for k in ("ps_failures", "preemptions") for e in p if e.kind == k]
        for e in p:
            d = e.as_dict()
            assert 0 <= d.get("at_time", d.get("start", 0.0)) <= 300.0
            assert d.get("worker", 0) < 4 and d.get("ps", 0) < 2


def test_overrides_are_what_the_command_line_parses_and_the_fragment_is_the_same_toml():
    sc, s = _settings()
    base = plans.base_events(sc.config)
    p = next(p for p in (plans.draw(s, i) for i in range(1, 50)) if len({e.kind for e in p}) >= 2)
    args = plans.param_args(base, "keep", p)
    assert plans.overrides(base, "keep", p) == [parse_override(a) for a in args]
    # keep: the file's own ps failure stays first; drop: an emptied list is still overridden
    ps_list = dict(plans.overrides(base, "keep", p)).get("faults.ps_failures")
    assert ps_list is None or ps_list[0] == {"ps": 1, "at_time": 150.0, "downtime": 30.0}
    assert dict(plans.overrides(base, "drop", ()))["faults.ps_failures"] == []
    frag = tomllib.loads(plans.toml_fragment(base, "drop", p, "a header\nof two lines"))
    assert {k: v for k, v in frag["faults"].items()} == \
        {k.split(".")[1]: v for k, v in plans.overrides(base, "drop", p) if v}
    run_cmd, replay_cmd = plans.commands("s.toml", 3, True, args, "ab" * 32)
    assert replay_cmd.startswith("simdist replay s.toml --seed 3 --quick --param 'faults.") and \
        replay_cmd.endswith("--digest " + "ab" * 32)
    assert run_cmd.startswith("simdist run s.toml --seed 3 --quick --param") and run_cmd.endswith("--trace --plot")


def _ev(i: int, t: float = 1.0) -> Event:
    return Event("preemptions", (("worker", i), ("at_time", t), ("downtime", 1.0)))


def test_ddmin_finds_the_one_minimal_culprits():
    items = tuple(_ev(i) for i in range(8))
    calls: list[tuple] = []

    def fails(p):
        calls.append(p)
        ws = {e.as_dict()["worker"] for e in p}
        return {2, 5} <= ws
    got = ddmin(items, fails)
    assert [e.as_dict()["worker"] for e in got] == [2, 5]
    assert len(calls) < 2 ** len(items) / 4                  # far fewer tests than subsets
    assert ddmin(items, lambda p: True) == ()                  # fails without any event: the empty plan
    assert ddmin(items[:1], lambda p: len(p) == 1) == items[:1]


def test_shrinking_is_deterministic_and_rounds_numbers_while_the_plan_still_fails():
    plan = (Event("ps_failures", (("ps", 1), ("at_time", 197.53), ("downtime", 34.47))),
            _ev(0, 12.345), _ev(3, 250.1),
            Event("stragglers", (("worker", 2), ("slowdown", 2.718), ("start", 100.2), ("end", 150.7))))

    def fails(p):   # breaks when ps 1 fails between 190 and 199 s, whatever else happens
        return any(e.kind == "ps_failures" and 190 <= e.as_dict()["at_time"] < 199 for e in p)
    a, b = shrink(plan, fails), shrink(plan, fails)
    assert a == b and a.complete
    # 197.53 -> 200 (1 and 2 significant digits) leaves the window, 198 (3 digits) stays in it
    assert a.events == (Event("ps_failures", (("ps", 1), ("at_time", 198.0), ("downtime", 30.0))),)
    budgeted = shrink(plan, fails, max_tests=2)
    assert not budgeted.complete and fails(budgeted.events) and len(budgeted.events) <= len(plan)


def test_rounding_never_makes_an_invalid_event():
    e = Event("stragglers", (("worker", 0), ("slowdown", 1.04), ("start", 10.4), ("end", 10.6)))
    got = shrink((e,), lambda p: True if p else False)
    d = got.events[0].as_dict()
    assert d["slowdown"] >= 1 and d["end"] > d["start"]
