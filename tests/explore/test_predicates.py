"""Metric predicates of [explore] invariants: parsing, evaluation, and rejecting the ones that cannot fail."""

from __future__ import annotations

import pytest

from simdist.scenario.predicates import PredicateError, parse
from simdist.scenario.metrics import SUMMARY_METRICS

KNOWN = list(SUMMARY_METRICS)


def test_evaluates_against_the_run_and_the_baseline():
    p = parse("simulated_time_s <= 1.2 * baseline", KNOWN)
    assert p.metrics == ("simulated_time_s",) and p.baseline_metrics == ("simulated_time_s",)
    assert p.evaluate({"simulated_time_s": 119.0}, {"simulated_time_s": 100.0}) == \
        (True, "simulated_time_s = 119, baseline simulated_time_s = 100")
    ok, shown = p.evaluate({"simulated_time_s": 121.5}, {"simulated_time_s": 100.0})
    assert not ok and shown == "simulated_time_s = 121.5, baseline simulated_time_s = 100"
    q = parse("retries <= 2 and not (preemptions > 3 or lost_work_s >= baseline.lost_work_s + 10)", KNOWN)
    run = {"retries": 2, "preemptions": 3, "lost_work_s": 5.0}
    assert q.evaluate(run, {"lost_work_s": 0.0})[0] is True
    assert q.evaluate(dict(run, lost_work_s=10.0), {"lost_work_s": 0.0})[0] is False
    assert parse("1 < retries < 5", KNOWN).evaluate({"retries": 5}, {})[0] is False


def test_a_missing_metric_or_a_zero_division_is_a_violation_not_a_crash():
    p = parse("redone_closures / retries < 2", KNOWN)
    assert p.evaluate({"redone_closures": 3, "retries": 0}, {}) == \
        (False, "division by zero; redone_closures = 3, retries = 0")
    assert p.evaluate({"retries": 1}, {}) == (False, "the run has no metric redone_closures")


def test_unknown_metric_is_an_error_with_did_you_mean():
    with pytest.raises(PredicateError, match=r"no metric 'retires'.*did you mean 'retries'\?"):
        parse("retires <= 50", KNOWN)
    with pytest.raises(PredicateError, match=r"no metric 'final_acuracy'"):
        parse("final_acuracy >= 0.9", KNOWN)
    with pytest.raises(PredicateError, match=r"did you mean 'lost_work_s'"):
        parse("retries <= baseline.lost_work", KNOWN)


@pytest.mark.parametrize("text, why", [
    ("retries >= 0", "cannot fail"),                 # a count is never negative
    ("0 <= lost_work_s", "cannot fail"),
    ("device_busy_mean <= 1", "cannot fail"),         # a fraction is at most 1
    ("idle_fraction < 1.5 or retries > 3", "cannot fail"),
    ("retries + preemptions >= 0", "cannot fail"),
    ("1 < 2", "cannot fail"),                         # no metric at all
    ("retries <= retries", "cannot fail"),
    ("retries < 0", "can never hold"),
    ("compute_fraction > 1", "can never hold"),
    ("retries != retries", "can never hold"),
])
def test_an_invariant_that_cannot_fail_or_cannot_hold_is_rejected(text, why):
    with pytest.raises(PredicateError, match=why):
        parse(text, KNOWN)


@pytest.mark.parametrize("text", ["retries <= 0", "device_busy_mean < 1", "idle_fraction <= 0.999",
                                  "retries - preemptions >= 0", "simulated_time_s <= 1.2 * baseline",
                                  "examples_per_s >= baseline / 2"])
def test_predicates_that_can_fail_are_accepted(text):
    assert parse(text, KNOWN).text == text


@pytest.mark.parametrize("text, msg", [
    ("retries", "not a comparison"),
    ("retries <= ", "not an expression"),
    ("retries ** 2 < 4", "not allowed"),
    ("__import__('os').system('x') == 0", "not allowed"),
    ("retries <= 'x'", "not a number"),
    ("retries + preemptions <= 2 * baseline", "'baseline' is ambiguous"),
    ("retries in [1]", "not allowed"),
])
def test_bad_predicates_say_what_is_wrong(text, msg):
    with pytest.raises(PredicateError, match=msg):
        parse(text, KNOWN)
