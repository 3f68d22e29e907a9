"""What the user reads: did-you-mean hints, one error prefix, no Python reprs, progress in logs,
the cluster that --dry-run prints, and the conformance command's own input errors."""

from __future__ import annotations

import io
import re

import pytest
from scenario_helpers import ROOT, TINY, cli, write

from simdist.suggest import closest, did_you_mean, edit_distance

MIRRORED = str(ROOT / "scenarios/mirrored_allreduce.toml")


def test_every_equally_close_candidate_is_offered():
    assert edit_distance("gpuz", "gpu") == edit_distance("gpuz", "gpus") == 1
    assert closest("gpuz", ["cpus", "gpus", "gpu", "preset"]) == ["gpus", "gpu"]
    assert did_you_mean("gpuz", ["gpus", "gpu"]) == "; did you mean 'gpus' or 'gpu'?"
    assert did_you_mean("rign", ["ring", "reduce_to_one"]) == "; did you mean 'ring'?"   # a swap is one edit
    assert did_you_mean("steps", ["name", "seed"]) == ""


@pytest.mark.parametrize("param,expect", [
    ("cluster.gpuz=3", "did you mean 'gpus' or 'gpu'?"),
    ("model.steps=3", "did you mean 'training.steps' (another table)?"),
    ("strategy.all_reduce=rign", "did you mean 'ring'?"),
    ("model.global_batch=3", "e.g. 8)"),
])
def test_scenario_hints(param, expect):
    code, _, err = cli("run", MIRRORED, "--dry-run", "--param", param)
    assert code == 2 and expect in err, err


def test_no_python_reprs_in_scenario_errors(tmp_path):
    f = write(tmp_path, TINY + "\n[scenario]\nseed = 2\n")          # a table declared twice
    code, _, err = cli("run", str(f), "--dry-run")
    assert code == 2 and "Cannot declare scenario twice" in err and "('" not in err, err
    code, _, err = cli("run", MIRRORED, "--dry-run", "--param", 'model.example_bytes="\uff15KiB"')
    assert code == 2 and '"\uff15KiB"' in err and "\\uff15" not in err, err


def test_a_bad_swept_key_is_reported_once():
    code, _, err = cli("sweep", MIRRORED, "--param", "training.stepz=1,2,3", "--no-progress")
    assert code == 2
    assert err.count("training.stepz: unknown key") == 1, err


@pytest.mark.parametrize("argv,expect", [
    (["gate", MIRRORED, "--baseline", MIRRORED, "--tolerance", "examples_per_sec=3%"], "did you mean 'examples_per_s'?"),
    (["gate", MIRRORED, "--baseline", MIRRORED, "--metrics", "simulated_time"], "did you mean 'simulated_time_s'?"),
    (["sweep", MIRRORED, "--param", "strategy.all_reduce=ring", "--plot", "examples_per_sec"],
     "did you mean 'examples_per_s'?"),
])
def test_metric_names_get_hints(argv, expect):
    code, _, err = cli(*argv)
    assert code == 2 and expect in err and err.startswith(f"simdist {argv[0]}: error: "), err


def test_conformance_input_errors_have_the_command_prefix(tmp_path):
    code, _, err = cli("conformance", "--backend", "tensorflw")
    assert code == 2 and err.startswith("simdist conformance: error: ") and "did you mean 'tensorflow'?" in err, err
    code, _, err = cli("conformance", "--backend", "json:loads")
    assert code == 2 and "creating the backend failed: TypeError" in err and "INTERNALERROR" not in err, err
    code, _, err = cli("conformance", "--backend", "simdist", "--xfails", str(tmp_path / "none.txt"))
    assert code == 2 and "--xfails" in err and "no such file" in err, err
    code, out, err = cli("conformance", "--backend", "simdist", "-k", "no_test_is_called_this", "-q")
    assert code == 2 and "selected no test" in err and err.strip().splitlines()[-1].startswith(
        "simdist conformance: error: "), err


def test_dry_run_prints_the_cluster_with_link_names():
    code, out, _ = cli("run", MIRRORED, "--dry-run")
    assert code == 0
    assert re.search(r"host /job:localhost/replica:0/task:0: 1 CPU .*8 GPU", out), out
    links = re.findall(r"^\s+(/job:\S+): ", out, re.M)
    assert len(links) == 17 and "/job:localhost/replica:0/task:0/nvlink:GPU:3" in links, links
    code, out, _ = cli("run", str(ROOT / "scenarios/ps_spot_preemption.toml"), "--dry-run")
    assert code == 0 and "/job:ps/replica:0/task:1/nic: " in out


def test_progress_in_a_log_is_a_line_every_few_seconds():
    from simdist.scenario.outputs import LineProgress
    t = [0.0]
    buf = io.StringIO()
    p = LineProgress(400, "run", "sweep x", 5.0, clock=lambda: t[0], stream=buf)
    for _ in range(400):
        t[0] += 0.045          # 18 s for 400 runs
        p.update(1)
    p.close()
    lines = buf.getvalue().splitlines()
    assert len(lines) == 4, lines          # at ~5, 10, 15 s, and when done
    assert lines[0].startswith("sweep x: 112/400 runs (28%), 5 s"), lines
    assert lines[-1].startswith("sweep x: 400/400 runs (100%)"), lines
    quiet = LineProgress(10, "step", "x", 5.0, clock=lambda: 0.0, stream=buf)
    quiet.update(10)
    quiet.close()
    assert quiet.lines == 0, "a short job prints nothing"


def test_a_terminal_with_zero_columns_gets_a_bar(monkeypatch):
    from simdist.scenario import outputs
    monkeypatch.setattr(outputs, "_columns", lambda: 0)
    bar = outputs.progress_bar(10, "step", "x", enabled=True)
    try:
        assert bar.ncols == 80 and not bar.dynamic_ncols
    finally:
        bar.close()
