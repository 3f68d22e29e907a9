"""Guard rails (issue 28 item 4): the --dry-run estimate counts a training model's parameters,
activations, optimizer slots, batch and data; a run whose estimate exceeds the memory budget is
refused before it runs, with the estimate and the flag that overrides it; running out of memory
is a clear error, not an internal error."""

from __future__ import annotations

from pathlib import Path

import pytest

from scenario_helpers import ROOT, TINY, cli, write
from simdist.scenario.build import build_cluster
from simdist.scenario.estimate import estimate
from simdist.scenario.loader import load, loads

PS_FAILURE = ROOT / "scenarios/train_ps_failure.toml"
MIRRORED = ROOT / "scenarios/train_mirrored_vs_cs.toml"


def _estimate(path: Path, *params: str) -> dict:
    sc = load(path, list(params))
    return estimate(sc, build_cluster(sc))


def test_the_estimate_counts_the_models_parameters_and_their_copies() -> None:
    e = _estimate(MIRRORED, "model.hidden=[2048, 2048]")
    # Dense(64 -> 2048 -> 2048 -> 10): counted from the layers, as Keras builds them
    assert e["training"]["parameters"] == 64 * 2048 + 2048 + 2048 * 2048 + 2048 + 2048 * 10 + 10
    small = _estimate(MIRRORED)
    # measured: this model mirrored over 4 GPUs peaks at 229.6 MiB RSS (40 MiB of it the interpreter)
    assert 200 << 20 < e["memory_bytes"] < 400 << 20, e["memory_bytes"] / 2 ** 20
    assert e["memory_bytes"] - small["memory_bytes"] > 150 << 20, "the model's size must count"
    adam = _estimate(MIRRORED, "model.hidden=[2048, 2048]", 'training.optimizer="adam"')
    assert adam["training"]["model_bytes"] > e["training"]["model_bytes"], "Adam's slots must count"


def test_the_estimate_counts_the_embedding_tables_batch_and_data() -> None:
    base = _estimate(PS_FAILURE)
    big = _estimate(PS_FAILURE, "data.categorical_buckets=16777216")
    assert big["training"]["parameters"] == 2 ** 24 * (8 + 10) + (64 + 8) * 64 + 64 + 64 * 10 + 10
    assert big["memory_bytes"] > 4 << 30, big["memory_bytes"] / 2 ** 30
    wide = _estimate(MIRRORED, "data.batch_size=1024")
    assert wide["training"]["activation_bytes"] > 1.9 * _estimate(MIRRORED)["training"]["activation_bytes"]
    assert base["training"]["data_bytes"] >= 1797 * 64 * 4


def test_a_run_over_the_memory_budget_is_refused_before_it_runs(tmp_path: Path) -> None:
    out = tmp_path / "o"
    code, stdout, err = cli("run", str(PS_FAILURE), "--param", "data.categorical_buckets=16777216", "--out", str(out),
                            "--memory-limit", "1GiB", "--no-progress")
    assert code == 2, f"expected a refusal (exit 2), got {code}\n{stdout}\n{err}"
    assert "301,995,210 parameters" in err and "--memory-limit" in err and "more than the --memory-limit of 1" in err, err
    assert not out.exists(), "refused before anything is written"


def test_a_billion_steps_are_refused_by_the_estimate(tmp_path: Path) -> None:
    f = write(tmp_path, TINY.replace("steps = 3", "steps = 1000000000"))
    code, stdout, err = cli("run", str(f), "--out", str(tmp_path / "o"), "--memory-limit", "64GiB", "--no-progress")
    assert code == 2 and "the run needs ~" in err and "--memory-limit 0 to run anyway" in err, (code, err)


def test_dry_run_shows_the_models_share_of_the_estimate(tmp_path: Path) -> None:
    code, stdout, err = cli("run", str(MIRRORED), "--dry-run")
    assert code == 0, err
    assert "model 85,002 parameters" in stdout and "activations" in stdout and "data" in stdout, stdout


def test_a_memory_error_is_a_clear_error_not_an_internal_one(tmp_path: Path, monkeypatch) -> None:
    import simdist.scenario.runner as runner

    def no_memory(*a, **k):
        raise MemoryError()

    monkeypatch.setattr(runner, "run", no_memory)
    f = write(tmp_path, TINY)
    code, stdout, err = cli("run", str(f), "--out", str(tmp_path / "o"), "--no-progress")
    assert code == 1, (code, err)
    assert "out of memory" in err and "internal error" not in err and "--dry-run" in err, err


def test_bad_memory_limits_are_usage_errors(tmp_path: Path) -> None:
    f = write(tmp_path, TINY)
    code, _, err = cli("run", str(f), "--memory-limit", "lots", "--dry-run")
    assert code == 2 and "--memory-limit" in err, err


def test_the_time_estimate_counts_the_models_arithmetic() -> None:
    small = _estimate(MIRRORED, "training.steps=20")
    big = _estimate(MIRRORED, "training.steps=20", "model.hidden=[2048, 2048]")
    # measured: 20 steps of this 4.35M-parameter MLP take 9.9 s of wall time; the default MLP ~1 s
    assert big["wall_s"][0] <= 9.9 * 1.5 and big["wall_s"][1] >= 9.9 / 1.5, big["wall_s"]
    assert big["wall_s"][0] > 3 * small["wall_s"][0], (small["wall_s"], big["wall_s"])


def test_a_run_estimated_at_hours_is_refused_with_the_flag_that_allows_it(tmp_path: Path) -> None:
    f = write(tmp_path, """
[scenario]
name = "cnn-huge"
seed = 0

[cluster]
preset = "gpu_host"
gpus = 4

[strategy]
kind = "mirrored"

[model]
zoo = "cnn"
filters = [4096, 4096, 4096]

[data]
dataset = "digits"
batch_size = 256

[training]
steps = 300
""")
    code, out, err = cli("run", str(f), "--out", str(tmp_path / "o"), "--no-progress", "--memory-limit", "0")
    assert code == 2 and "more than the --time-limit of" in err and "--time-limit 0 for no limit" in err, (code, err)
    assert not (tmp_path / "o").exists()
    code, out, err = cli("run", str(f), "--dry-run")
    assert code == 0 and "302,080,010 parameters" in out, (code, out, err)
    code, _, err = cli("run", str(f), "--time-limit", "soon", "--dry-run")
    assert code == 2 and "--time-limit" in err, err


def test_the_time_estimate_of_a_huge_analytic_all_reduce_grows_with_the_cluster(tmp_path: Path) -> None:
    # measured (3 steps, analytic ring): 10,000 GPUs 6.2 s, 20,000 GPUs 18.1 s of CPU
    def est(hosts: int) -> tuple[float, float]:
        text = TINY.replace('preset = "gpu_host"\ngpus = 2', f'preset = "gpu_cluster"\nhosts = {hosts}\ngpus_per_host = 8')
        text = text.replace("global_batch = 8", f"global_batch = {hosts * 64}")
        sc = loads(text, "t.toml", [("strategy.all_reduce", "ring")])
        return estimate(sc, build_cluster(sc))["wall_s"]
    for hosts, measured in ((1250, 6.2), (2500, 18.1)):
        lo, hi = est(hosts)
        assert lo <= measured <= hi * 1.5, f"{hosts * 8} GPUs: estimate {lo:.1f} to {hi:.1f} s, measured {measured} s"
