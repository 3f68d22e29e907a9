"""`simdist explore` end to end: a planted violation is found, shrunk to at most 3 events and
reproduced byte for byte by the printed commands; the results do not depend on the executor."""

from __future__ import annotations

import json
import shlex

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib  # type: ignore[no-redef]

import pytest
from scenario_helpers import ROOT, TINY, cli, write

PLANTED = ROOT / "scenarios/planted/ps_planted_violation.toml"
ARGS = ("--quick", "--plans", "60", "--no-progress")


@pytest.fixture(scope="module")
def serial(tmp_path_factory):
    out = tmp_path_factory.mktemp("explore") / "serial"
    code, stdout, err = cli("explore", str(PLANTED), *ARGS, "--executor", "serial", "--out", str(out))
    return code, stdout, err, out


def test_planted_violations_are_found_shrunk_and_reported(serial):
    code, stdout, err, out = serial
    assert code == 1, (stdout, err)
    manifest = json.loads((out / "explore.json").read_text())
    fails = {f["invariant"]: f for f in manifest["failures"]}
    assert list(fails) == ["predicate: retries <= 1", "check: planted_checks:ps_failure_while_worker_down"]
    assert manifest["broken"]["accounting"] == manifest["broken"]["remote_values"] == 0
    assert manifest["broken"]["determinism"] == manifest["broken"]["ends"] == 0
    assert manifest["plans_run"] == 60 and manifest["status"]["ok"] == 61
    for f in fails.values():
        assert 1 <= len(f["minimal"]) <= 3, f
        assert f["plans"] >= 1 and f["shrink_complete"]
    # the planted check needs a ps failure while a worker is down: exactly those two events remain
    assert sorted(e["kind"] for e in fails["check: planted_checks:ps_failure_while_worker_down"]["minimal"]) == \
        ["preemptions", "ps_failures"]
    assert [e["kind"] for e in fails["predicate: retries <= 1"]["minimal"]] == ["preemptions", "preemptions"]
    assert "FAILED predicate: retries <= 1" in stdout and "explore: FAILED: 2 invariant(s) broken" in stdout
    junit = (out / "junit.xml").read_text()
    assert 'tests="6" failures="2"' in junit and junit.count("<failure ") == 2
    rows = [json.loads(line) for line in (out / "plans.jsonl").read_text().splitlines()]
    assert [r["plan"] for r in rows] == list(range(61)) and rows[0]["events"] == []
    assert (out / "histogram.png").stat().st_size > 10_000
    csv_head = (out / "results.csv").read_text().splitlines()[0]
    assert csv_head.startswith("plan,events,status,error,digest,violations,simulated_time_s")


def test_the_printed_commands_reproduce_each_failure_byte_for_byte(serial, tmp_path):
    _, stdout, _, out = serial
    manifest = json.loads((out / "explore.json").read_text())
    for i, f in enumerate(manifest["failures"]):
        d = out / "failures" / f["id"]
        assert f"reproduce (byte for byte): {f['replay']}" in stdout
        replay = shlex.split(f["replay"])
        assert replay[:2] == ["simdist", "replay"] and replay[-2] == "--digest"
        code, rout, rerr = cli(*replay[1:], "--out", str(tmp_path / f"replay{i}"))
        assert code == 0 and f"hash: ok (sha256 {f['digest']})" in rout, (rout, rerr)
        assert (tmp_path / f"replay{i}" / "metrics.json").read_bytes() == (d / "metrics.json").read_bytes()
        run = shlex.split(f["run"])
        code, rout, rerr = cli(*run[1:], "--out", str(tmp_path / f"run{i}"), "--quiet", "--no-progress")
        assert code == 0, (rout, rerr)
        assert (tmp_path / f"run{i}" / "metrics.json").read_bytes() == (d / "metrics.json").read_bytes()
        frag = tomllib.loads((d / "plan.toml").read_text())
        assert [{"kind": k, **e} for k, es in frag["faults"].items() for e in es] == \
            sorted(f["minimal"], key=lambda e: ["preemptions", "ps_failures", "stragglers", "links"].index(e["kind"]))
        for name in ("trace.json", "timeline.png", "summary.txt", "reproduce.sh"):
            assert (d / name).stat().st_size > 0, name


def test_process_executor_gives_the_same_results(serial, tmp_path):
    _, _, _, out = serial
    code, stdout, err = cli("explore", str(PLANTED), *ARGS, "--executor", "process", "--workers", "2",
                            "--out", str(tmp_path / "p"), "--no-plot")
    assert code == 1, (stdout, err)
    for name in ("explore.json", "plans.jsonl", "results.csv", "junit.xml"):
        assert (tmp_path / "p" / name).read_bytes() == (out / name).read_bytes(), name


def test_another_seed_draws_other_plans(serial, tmp_path):
    _, _, _, out = serial
    cli("explore", str(PLANTED), *ARGS, "--executor", "serial", "--seed", "1", "--out", str(tmp_path / "s1"),
        "--no-plot")
    mine = [json.loads(x)["events"] for x in (tmp_path / "s1" / "plans.jsonl").read_text().splitlines()]
    theirs = [json.loads(x)["events"] for x in (out / "plans.jsonl").read_text().splitlines()]
    assert mine[0] == theirs[0] == [] and sum(a != b for a, b in zip(mine[1:], theirs[1:])) > 50


def test_a_scenario_that_keeps_every_invariant_exits_0(tmp_path):
    f = write(tmp_path, TINY + '\n[explore]\nplans = 12\ninvariants = ["steps_completed >= 3"]\n'
                               'determinism_sample = 1\n')
    code, stdout, err = cli("explore", str(f), "--executor", "serial", "--out", str(tmp_path / "o"), "--no-progress",
                            "--metric", "step_time_mean_s")
    assert code == 0, (stdout, err)
    assert "explore: ok: every invariant kept" in stdout
    m = json.loads((tmp_path / "o" / "explore.json").read_text())
    assert m["failures"] == [] and m["plans_run"] == 12 and m["settings"]["rates"]["stragglers"] == 1.0
    assert m["determinism"]["sample"] and m["determinism"]["mismatches"] == []
    assert 'failures="0"' in (tmp_path / "o" / "junit.xml").read_text()
    code, _, err = cli("explore", str(f), "--out", str(tmp_path / "o"), "--no-progress")
    assert code == 2 and "--force" in err                    # never overwritten without --force


def test_budget_cuts_the_exploration_short_and_says_so(tmp_path):
    code, stdout, err = cli("explore", str(PLANTED), "--quick", "--plans", "400", "--executor", "serial",
                            "--batch-size", "5", "--budget", "0.3s", "--no-plot", "--no-progress",
                            "--out", str(tmp_path / "b"))
    m = json.loads((tmp_path / "b" / "explore.json").read_text())
    assert m["budget_hit"] and m["plans_run"] < 400 and m["plans_run"] % 5 == 0, (stdout, err)
    assert f"the budget stopped it after {m['plans_run']} of 400" in stdout


def test_without_matplotlib_explore_writes_its_report_and_says_how_to_get_the_pictures(tmp_path, monkeypatch):
    # the base install (no `plot` extra): `import matplotlib` fails
    import sys
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    f = write(tmp_path, TINY + '\n[explore]\nplans = 3\ndeterminism_sample = 0\n')
    code, stdout, err = cli("explore", str(f), "--executor", "serial", "--out", str(tmp_path / "o"), "--no-progress",
                            "--metric", "step_time_mean_s")
    assert code == 0, f"explore must run without matplotlib; got {code}\n{stdout}\n{err}"
    assert (tmp_path / "o" / "explore.json").is_file() and (tmp_path / "o" / "results.csv").is_file()
    assert not (tmp_path / "o" / "histogram.png").exists()
    assert "pip install 'simdist[plot]'" in stdout, stdout


def test_a_billion_plans_with_a_budget_draws_only_what_the_budget_runs(tmp_path):
    import time
    import tracemalloc
    f = write(tmp_path, TINY + '\n[explore]\ndeterminism_sample = 0\n')
    tracemalloc.start()
    t0 = time.monotonic()
    code, stdout, err = cli("explore", str(f), "--plans", str(10 ** 9), "--budget", "3s", "--executor", "serial",
                            "--no-plot", "--no-progress", "--out", str(tmp_path / "o"), "--metric", "step_time_mean_s")
    took = time.monotonic() - t0
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert code == 0, (code, stdout, err)
    assert took < 30, f"--budget 3s: explore took {took:.1f} s"
    assert peak < 200 << 20, f"explore drew plans it never ran: {peak / 2 ** 20:.0f} MiB traced"
    m = json.loads((tmp_path / "o" / "explore.json").read_text())
    assert m["budget_hit"] and 0 < m["plans_run"] < 10 ** 6, m["plans_run"]
    assert f"the budget stopped it after {m['plans_run']} of 1000000000" in stdout, stdout
