"""The `simdist run | gate | replay` commands: outputs, exit codes, one-line errors."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest
from scenario_helpers import ROOT, TINY, cli, write

from simdist.scenario.metrics import validate_metrics

MIRRORED = str(ROOT / "scenarios/mirrored_allreduce.toml")
DEGRADED = str(ROOT / "scenarios/degraded_link.toml")


def test_run_writes_metrics_trace_and_pictures(tmp_path):
    out = tmp_path / "run"
    code, so, se = cli("run", MIRRORED, "--quick", "--out", str(out), "--trace", "--plot", "--seed", "3")
    assert code == 0, se
    assert "examples_per_s" in so and "timeline:" in so and str(out / "timeline.png") in so
    m = json.loads((out / "metrics.json").read_text())
    assert validate_metrics(m) == [] and m["seed"] == 3
    trace = json.loads((out / "trace.json").read_text())
    assert any(e.get("cat") == "compute" for e in trace["traceEvents"])
    for pic in ("timeline.png", "utilisation.png"):
        assert (out / pic).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert (out / "scenario.toml").read_text() == (ROOT / "scenarios/mirrored_allreduce.toml").read_text()


def test_run_never_overwrites_without_force(tmp_path):
    out = tmp_path / "run"
    assert cli("run", MIRRORED, "--quick", "--out", str(out), "--quiet")[0] == 0
    code, so, se = cli("run", MIRRORED, "--quick", "--out", str(out))
    assert code == 2 and "--force" in se and "Traceback" not in se and len(se.strip().splitlines()) == 1
    assert cli("run", MIRRORED, "--quick", "--out", str(out), "--force", "--quiet")[0] == 0
    foreign = tmp_path / "mine"
    foreign.mkdir()
    (foreign / "notes.txt").write_text("precious")
    code, _, se = cli("run", MIRRORED, "--quick", "--out", str(foreign), "--force")
    assert code == 2 and "not a simdist output directory" in se
    assert (foreign / "notes.txt").read_text() == "precious"


def test_bad_scenario_lists_every_error_without_traceback(tmp_path):
    bad = write(tmp_path, TINY.replace("steps = 3", "steps = -1").replace("gpus = 2", "gpus = 2\ncolour = 1"))
    code, so, se = cli("run", str(bad), "--out", str(tmp_path / "o"))
    assert code == 2 and "Traceback" not in se
    assert "2 problems" in se and "training.steps" in se and "cluster.colour" in se and str(bad) in se
    assert not (tmp_path / "o").exists()
    code, _, se = cli("run", str(tmp_path / "missing.toml"))
    assert code == 2 and "no such file" in se
    code, _, se = cli("run", MIRRORED, "--param", "training.steps")
    assert code == 2 and "key.path=value" in se


@pytest.mark.parametrize("where", ["before", "after"])
def test_debug_shows_the_traceback_and_keeps_the_exit_code(tmp_path, where):
    bad = write(tmp_path, TINY.replace("steps = 3", "steps = -1"))
    argv = ["--debug", "run", str(bad)] if where == "before" else ["run", str(bad), "--debug"]
    code, _, se = cli(*argv)
    assert code == 2, f"--debug {where} the subcommand changed the exit code of a bad scenario to {code}"
    assert "Traceback (most recent call last)" in se, f"--debug printed no traceback: {se!r}"
    assert se.rstrip().splitlines()[-1].startswith("simdist run: error: "), se


def test_failed_simulation_exits_1_and_still_writes_metrics(tmp_path):
    s = write(tmp_path, TINY)
    code, so, se = cli("run", str(s), "--out", str(tmp_path / "o"), "--param", 'cluster.gpu_memory="1MiB"')
    assert code == 1 and "ResourceExhaustedError" in se
    assert json.loads((tmp_path / "o" / "metrics.json").read_text())["status"] == "failed"


def test_check_determinism_and_dry_run(tmp_path):
    s = write(tmp_path, TINY)
    code, so, se = cli("run", str(s), "--out", str(tmp_path / "o"), "--check-determinism", "--quiet")
    assert code == 0 and "determinism: ok" in so, se
    code, so, _ = cli("run", MIRRORED, "--dry-run")
    assert code == 0 and "valid" in so and "8 replicas" in so


def test_help_for_every_subcommand(capsys):
    for sub in ("run", "sweep", "gate", "replay"):
        with pytest.raises(SystemExit) as ei:
            cli(sub, "--help")
        assert ei.value.code == 0


# --- gate -------------------------------------------------------------------------------------------
def _run(tmp_path, name, *params):
    out = tmp_path / name
    code, _, se = cli("run", DEGRADED, "--quick", "--out", str(out), "--quiet", *sum((["--param", p] for p in params), []))
    assert code == 0, se
    return out


def test_gate_catches_a_slower_link_and_passes_a_non_regression(tmp_path):
    base = _run(tmp_path, "base", "faults.links[0].bandwidth_factor=1.0")
    same = _run(tmp_path, "same", "faults.links[0].bandwidth_factor=1.0")
    slow = _run(tmp_path, "slow", "faults.links[0].bandwidth_factor=0.1")
    junit = tmp_path / "gate.xml"
    # a slower link stands in for a code change that slowed the run: the scenarios differ in that value
    code, so, se = cli("gate", str(slow), "--baseline", str(base), "--junit", str(junit))
    assert code == 2 and "the same scenario with other values" in se and "--allow-different-scenario" in se, se
    code, so, se = cli("gate", str(slow), "--baseline", str(base), "--junit", str(junit), "--allow-different-scenario")
    assert code == 1, so + se
    assert "REGRESSION" in so and "examples_per_s" in so and "simulated_time_s" in so
    root = ET.parse(junit).getroot()
    assert int(root.get("failures")) >= 2
    failed = {tc.get("name") for tc in root.iter("testcase") if tc.find("failure") is not None}
    assert {"simulated_time_s", "examples_per_s"} <= failed
    code, so, _ = cli("gate", str(same), "--baseline", str(base), "--junit", str(junit))
    assert code == 0 and "passed" in so
    assert ET.parse(junit).getroot().get("failures") == "0"
    # the healthy run compared with the slow one as baseline is an improvement, not a failure
    code, so, _ = cli("gate", str(base), "--baseline", str(slow), "--junit", "-", "--allow-different-scenario")
    assert code == 0 and "improved" in so


def test_gate_tolerances(tmp_path):
    base = _run(tmp_path, "base", "faults.links[0].bandwidth_factor=1.0")
    cur = _run(tmp_path, "cur", "faults.links[0].bandwidth_factor=0.9")
    code, so, _ = cli("gate", str(cur), "--baseline", str(base), "--junit", "-", "--metrics", "simulated_time_s",
                      "--allow-different-scenario")
    slow_pct = float(so.split("+")[1].split("%")[0])
    assert 0 < slow_pct
    loose = f"simulated_time_s={slow_pct + 1:.2f}%"
    tight = f"simulated_time_s={max(slow_pct - 1, 0):.2f}%"
    assert cli("gate", str(cur), "--baseline", str(base), "--junit", "-", "--metrics", "simulated_time_s",
               "--tolerance", loose, "--allow-different-scenario")[0] == 0
    assert cli("gate", str(cur), "--baseline", str(base), "--junit", "-", "--metrics", "simulated_time_s",
               "--tolerance", tight, "--allow-different-scenario")[0] == 1


def test_gate_refuses_another_scenario(tmp_path):
    other = tmp_path / "other"
    assert cli("run", MIRRORED, "--quick", "--out", str(other), "--quiet")[0] == 0
    base = _run(tmp_path, "base")
    code, so, se = cli("gate", str(other), "--baseline", str(base), "--junit", "-")
    assert code == 2, f"gate compared mirrored-allreduce with degraded-link (exit {code}): {so}"
    assert "scenario mirrored-allreduce" in se and "scenario degraded-link" in se and "a different scenario" in se, se
    code, so, se = cli("gate", str(other), "--baseline", str(base), "--junit", "-", "--allow-different-scenario")
    assert code in (0, 1) and "gate: note:" in so and "a different scenario" in so, (code, so, se)


def test_gate_bad_input(tmp_path):
    base = _run(tmp_path, "base")
    for args, msg in (((str(tmp_path / "nope"), "--baseline", str(base)), "no such file"),
                      ((str(base), "--baseline", str(base), "--tolerance", "bogus=5%"), "unknown metric"),
                      ((str(base), "--baseline", str(base), "--tolerance", "simulated_time_s=fast"), "percentage")):
        code, _, se = cli("gate", *args, "--junit", "-")
        assert code == 2 and msg in se and "Traceback" not in se


# --- replay -----------------------------------------------------------------------------------------
def test_replay_reproduces_a_sweep_run_with_hash_check(tmp_path):
    sweep = tmp_path / "sweep"
    code, so, se = cli("sweep", MIRRORED, "--quick", "--seeds", "0..3", "--out", str(sweep), "--no-progress")
    assert code == 0, se
    code, so, se = cli("replay", MIRRORED, "--quick", "--seed", "2", "--param", "strategy.all_reduce=reduce_to_one",
                       "--sweep", str(sweep), "--out", str(tmp_path / "r"), "--trace", "--plot")
    assert code == 0 and "hash: ok" in so, so + se
    assert (tmp_path / "r" / "trace.json").exists()
    lines = so.splitlines()
    assert lines[0].startswith("replay mirrored-allreduce seed 2"), lines[:3]
    assert any(ln.startswith("examples_per_s") for ln in lines), "replay prints the run's summary table"
    first_pic = min(i for i, ln in enumerate(lines) if ln.startswith(("timeline:", "chart:")))
    assert first_pic > lines.index(next(ln for ln in lines if ln.startswith("metrics:"))), lines
    assert lines[-1].startswith("hash: ok")
    code, so, se = cli("replay", MIRRORED, "--quick", "--seed", "2", "--sweep", str(sweep))
    assert code == 2 and "2 runs have seed 2" in se
    code, so, _ = cli("replay", MIRRORED, "--quick", "--seed", "2", "--digest", "0" * 64,
                      "--param", "strategy.all_reduce=ring", "--out", str(tmp_path / "r2"))
    assert code == 1 and "MISMATCH" in so
