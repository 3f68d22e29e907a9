"""Planted checks for scenarios/planted/ps_planted_violation.toml (simdist explore's self-test).

A check is called as ``fn(metrics, variables)`` with the run's metrics.json document and its
variables; it returns None or True when the run is fine, False or a message when it is not.
"""

from __future__ import annotations

from typing import Any


def ps_failure_while_worker_down(metrics: dict[str, Any], variables: dict[str, Any]) -> str | None:
    """Planted: a parameter server must not fail while a worker is down (the `faults` windows of the
    run overlap). Nothing in simdist breaks here; the check stands in for a bug that needs two
    faults at the same time, so exploring must shrink a failing plan to those two events."""
    faults = metrics["faults"]
    for ps in (f for f in faults if f["kind"] == "ps_failure"):
        for down in (f for f in faults if f["kind"] == "preemption"):
            if down["start"] < ps["end"] and ps["start"] < down["end"]:
                return (f"{ps['target']} failed at {ps['start']:.6g} s while {down['target']} was down "
                        f"({down['start']:.6g} s to {down['end']:.6g} s)")
    return None
