"""The boundary around explore's user checks (issue 28 item 2): a check that exits, interrupts,
sleeps or mutates the metrics it is given is reported against its own name; the exploration
ends within its time limits and its results and digests are those of the runs."""

from __future__ import annotations

import json
import time

import pytest
from scenario_helpers import TINY, cli, write

CHECKS = '''
import sys
import time


def exits(metrics, variables):
    sys.exit(0)


def interrupts(metrics, variables):
    raise KeyboardInterrupt


def sleeps(metrics, variables):
    time.sleep(3600)


def mutates(metrics, variables):
    metrics["digest"] = "0" * 64
    metrics["summary"]["steps_completed"] = -1
    metrics["summary"].clear()
    return None


def fine(metrics, variables):
    return None
'''


def _explore(tmp_path, check: str, extra: str = "") -> tuple[int, str, str, dict]:
    (tmp_path / "usr_checks.py").write_text(CHECKS, encoding="utf-8")
    f = write(tmp_path, TINY + f'\n[explore]\nplans = 2\ndeterminism_sample = 0\nchecks = ["usr_checks:{check}"]\n'
              + extra)
    code, out, err = cli("explore", str(f), "--executor", "serial", "--out", str(tmp_path / "o"), "--no-progress",
                         "--no-plot", "--metric", "step_time_mean_s")
    manifest = json.loads((tmp_path / "o" / "explore.json").read_text()) if (tmp_path / "o" / "explore.json").exists() \
        else {}
    return code, out, err, manifest


@pytest.mark.parametrize("check, says", [("exits", "called sys.exit(0)"),
                                         ("interrupts", "raised KeyboardInterrupt")])
def test_a_check_that_exits_or_interrupts_is_a_broken_check_not_the_end_of_explore(tmp_path, check, says):
    code, out, err, m = _explore(tmp_path, check)
    assert code == 1, f"the check fails every plan: exit 1 and a report; got {code}\n{out}\n{err}"
    fails = {f["invariant"]: f for f in m["failures"]}
    assert f"check: usr_checks:{check}" in fails, m.get("failures")
    assert says in out + json.dumps(m), f"expected {says!r} in the report:\n{out}"
    assert "usr_checks.py:" in out + json.dumps(m), "the report names the check's file and line"


def test_a_sleeping_check_cannot_hold_explore_past_max_wall_time(tmp_path):
    t0 = time.monotonic()
    code, out, err, m = _explore(tmp_path, "sleeps", 'max_wall_time = "1s"\n')
    took = time.monotonic() - t0
    assert took < 60, f"explore took {took:.1f} s with a check that sleeps an hour (max_wall_time 1 s)"
    assert code == 1, (code, out, err)
    assert any(f["invariant"] in ("check: usr_checks:sleeps", "ends") for f in m["failures"]), m["failures"]


def test_a_check_that_mutates_the_metrics_changes_nothing(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    _, _, _, clean = _explore(tmp_path / "a", "fine")
    _, _, _, dirty = _explore(tmp_path / "b", "mutates")
    assert clean["failures"] == dirty["failures"] == [], dirty.get("failures")
    rows_a = [json.loads(x) for x in (tmp_path / "a" / "o" / "plans.jsonl").read_text().splitlines()]
    rows_b = [json.loads(x) for x in (tmp_path / "b" / "o" / "plans.jsonl").read_text().splitlines()]
    assert [r["digest"] for r in rows_a] == [r["digest"] for r in rows_b], "a check's mutation changed the digests"
    csv_a = (tmp_path / "a" / "o" / "results.csv").read_text()
    csv_b = (tmp_path / "b" / "o" / "results.csv").read_text()
    assert csv_a == csv_b, f"a check's mutation changed the results table:\n{csv_a}\n---\n{csv_b}"
