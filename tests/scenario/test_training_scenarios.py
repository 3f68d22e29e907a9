"""Training scenarios (issue 14 items 2 and 3): a real Keras model trained on real data under the
scenario's strategy, cluster and fault plan; loss, accuracy and staleness against simulated time
in metrics.json, the summary, loss.png, sweeps and the gate."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from scenario_helpers import ROOT, cli, write
from simdist.scenario.loader import ScenarioError, load, loads
from simdist.scenario.metrics import SUMMARY_METRICS, validate_metrics
from simdist.scenario.runner import determinism_probe, run

SYNC = """
[scenario]
name = "train-sync"
seed = 3

[cluster]
preset = "gpu_host"
gpus = 2

[strategy]
kind = "mirrored"

[model]
zoo = "mlp"
hidden = [32]

[data]
dataset = "digits"
batch_size = 64

[training]
steps = 60
learning_rate = 0.2
eval_every = 20
target_accuracy = 0.5
"""

PS = """
[scenario]
name = "train-ps"
seed = 1

[cluster]
preset = "cpu_cluster"
jobs = { chief = 1, worker = 4, ps = 2 }

[strategy]
kind = "parameter_server"
partitioner = { kind = "min_size", min_shard_bytes = "16KiB", max_shards = 2 }

[model]
zoo = "wide_deep"
hidden = [32]

[data]
dataset = "digits"
batch_size = 64
categorical_buckets = 1024

[training]
steps = 120
learning_rate = 0.1
eval_every = 30
"""


def _err(text: str, *overrides: str) -> str:
    with pytest.raises(ScenarioError) as e:
        loads(text, "t.toml", list(overrides))
    return str(e.value)


# -- schema and validation ------------------------------------------------------------------------
@pytest.mark.parametrize("override, where, says", [
    ('model.zoo="mpl"', "model.zoo", "did you mean 'mlp'"),
    ('model.function="not a path"', "model.function", "is not \"module:function\""),
    ('model.function="no_such_module_xyz:build"', "model.function", "module 'no_such_module_xyz' cannot be found"),
    ("model.global_batch=64", "model.global_batch", "the batch size is data.batch_size"),
    ('model.flops_per_example="1GFLOP"', "model.flops_per_example", "describes a FLOP-only model"),
    ("model.filters=[8]", "model.filters", "an option of the zoo model cnn"),
    ('data.path="x.npz"', "data", "exactly one of data.dataset or data.path"),
    ('data.dataset="mnist"', "data.dataset", '"mnist" is not one of "digits"'),
    ("data.batch_size=63", "data.batch_size", "does not split evenly over 2 replicas"),
    ("data.test_fraction=0.95", "data.test_fraction", "above the maximum"),
    ("training.compute_jitter=0.1", "training.compute_jitter", "jitter is for FLOP-only models"),
    ('training.optimizer="rmsprop"', "training.optimizer", '"rmsprop" is not one of "sgd", "adam"'),
    ("training.target_accuracy=1.5", "training.target_accuracy", "above the maximum"),
    ("data.categorical_buckets=9", "data.categorical_buckets", "the mlp model takes x only"),
])
def test_bad_model_and_data_values_are_clear_errors(override: str, where: str, says: str) -> None:
    msg = _err(SYNC, override)
    assert f"{where}: " in msg and says in msg, f"{override}: expected an error at {where} saying {says!r}, got:\n{msg}"
    assert msg.count("\n") == 1 or "2 problems" not in msg or "missing data" not in msg, \
        f"one mistake, one message:\n{msg}"


def test_cnn_takes_the_digits_as_images() -> None:
    sc = loads(SYNC.replace("hidden = [32]", "filters = [4]"), "t.toml", ['model.zoo="cnn"'])
    assert sc.plan["training"]["x_shape"] == [8, 8]


def test_a_training_model_needs_data_and_no_flop_keys_are_required() -> None:
    msg = _err(SYNC.split("[data]")[0] + "[training]\nsteps = 5\n")
    assert "data: missing (rule: a training model needs a [data] table" in msg, msg
    assert "model.flops_per_example" not in msg and "model.variables" not in msg, \
        f"a training model must not need the FLOP-only keys:\n{msg}"
    flop = _err(SYNC.replace('zoo = "mlp"\nhidden = [32]', 'example_bytes = "1KiB"'))
    assert "model.flops_per_example: missing required key" in flop and "or name a training model" in flop, flop
    assert "data: [data] is for training models" in flop, flop


def test_cnn_needs_image_data_and_wide_deep_a_categorical_feature(tmp_path: Path) -> None:
    np.savez(tmp_path / "flat.npz", x=np.random.default_rng(0).random((40, 6)).astype("float32"),
             y=np.arange(40) % 3)
    text = SYNC.replace('dataset = "digits"', 'path = "flat.npz"').replace("hidden = [32]", "")
    path = write(tmp_path, text)
    with pytest.raises(ScenarioError) as e:
        load(path, ['model.zoo="cnn"', "data.batch_size=8"])
    assert "model.zoo: cnn needs images" in str(e.value) and "(40, 6)" in str(e.value), str(e.value)
    with pytest.raises(ScenarioError) as e:
        load(path, ['model.zoo="wide_deep"', "data.categorical_buckets=0", "data.batch_size=8"])
    assert "data.categorical_buckets: wide_deep learns from a categorical feature" in str(e.value), str(e.value)
    sc = load(path, ['model.zoo="wide_deep"', "data.batch_size=8"])
    assert sc.config["data"]["categorical_buckets"] == 4096, sc.config["data"]


@pytest.mark.parametrize("arrays, says", [
    ({"x": np.zeros((10, 4), "float32")}, "no array 'y'"),
    ({"x": np.zeros((10, 4), "float32"), "y": np.zeros(10, "float32")}, "y has dtype float32 (rule: y holds integer"),
    ({"x": np.zeros((10, 4), "float32"), "y": np.zeros(9, "int64")}, "x has 10 examples but y has 9 labels"),
    ({"x": np.zeros((10, 4), "float32"), "y": np.zeros((10, 2), "int64")}, "y has shape (10, 2)"),
    ({"x": np.array(["a"] * 10), "y": np.zeros(10, "int64")}, "x has dtype <U1 (rule: x holds numbers"),
    ({"x": np.full((10, 4), np.nan, "float32"), "y": np.zeros(10, "int64")}, "NaN or infinite"),
    ({"x": np.zeros((10, 4), "float32"), "y": np.zeros(10, "int64")}, "every label is 0 (rule: at least 2 classes)"),
    ({"x": np.zeros((10, 0), "float32"), "y": np.arange(10) % 2}, "x has shape (10, 0): an example without features"),
])
def test_a_bad_npz_file_names_the_key_path_and_the_rule(tmp_path: Path, arrays: dict, says: str) -> None:
    np.savez(tmp_path / "d.npz", **arrays)
    path = write(tmp_path, SYNC.replace('dataset = "digits"', 'path = "d.npz"').replace("batch_size = 64",
                                                                                         "batch_size = 2"))
    with pytest.raises(ScenarioError) as e:
        load(path)
    msg = str(e.value)
    assert "data.path: " in msg and says in msg, f"expected data.path: ... {says!r}, got:\n{msg}"


def _npz_scenario(tmp_path: Path, name: str) -> Path:
    return write(tmp_path, SYNC.replace('dataset = "digits"', f'path = "{name}"').replace("batch_size = 64",
                                                                                         "batch_size = 2"))


def test_an_npy_file_is_not_taken_for_an_npz(tmp_path: Path) -> None:
    np.save(tmp_path / "d.npy", np.zeros((10, 4), "float32"))
    with pytest.raises(ScenarioError) as e:
        load(_npz_scenario(tmp_path, "d.npy"))
    msg = str(e.value)
    assert "data.path: " in msg and "an .npy file" in msg and "np.savez" in msg, msg


def test_a_fifo_as_data_path_is_refused_without_blocking(tmp_path: Path) -> None:
    import os
    import threading
    os.mkfifo(tmp_path / "d.npz")
    box: dict = {}

    def attempt() -> None:
        try:
            load(_npz_scenario(tmp_path, "d.npz"))
        except ScenarioError as e:
            box["msg"] = str(e)

    t = threading.Thread(target=attempt, daemon=True)
    t.start()
    t.join(30)
    if t.is_alive():   # unblock the reader so that the test process can end
        fd = os.open(tmp_path / "d.npz", os.O_WRONLY | os.O_NONBLOCK)
        os.close(fd)
    assert not t.is_alive() and "not a regular file" in box.get("msg", ""), \
        f"a FIFO must be refused at data.path at once; got {box.get('msg')!r} (still waiting: {t.is_alive()})"


def test_a_batch_larger_than_the_training_split_is_refused(tmp_path: Path) -> None:
    msg = _err(SYNC, "data.batch_size=2000")
    assert "data.batch_size: " in msg and "2,000 is larger than the 1,438 training examples" in msg, msg
    msg = _err(PS, "data.batch_size=8000")
    assert "data.batch_size: " in msg and "2,000 per worker" in msg, msg


def test_explore_straggler_slowdown_has_the_limit_of_a_straggler_fault() -> None:
    from scenario_helpers import TINY
    msg = _err(TINY + "\n[explore]\nstragglers = { slowdown = [2.0, 1e9] }\n")
    assert "explore.stragglers.slowdown[1]: " in msg and "above the maximum" in msg, msg


def test_an_npz_path_is_relative_to_the_scenario_file(tmp_path: Path) -> None:
    sub = tmp_path / "sub"
    sub.mkdir()
    rng = np.random.default_rng(0)
    np.savez(sub / "mine.npz", x=rng.random((50, 5)).astype("float32"), y=(np.arange(50) % 2).astype("int64"))
    sc = load(write(sub, SYNC.replace('dataset = "digits"', 'path = "mine.npz"').replace("batch_size = 64",
                                                                                        "batch_size = 10")))
    facts = sc.plan["training"]
    assert (facts["examples"], facts["classes"], facts["x_shape"]) == (50, 2, [5]), facts
    m = run(sc.with_overrides([("training.steps", 5)])).metrics
    assert m["status"] == "ok", m["error"]
    assert m["training"]["data"]["train"] + m["training"]["data"]["test"] == 50


# -- the shipped data ---------------------------------------------------------------------------------
def test_the_shipped_digits_are_scikit_learns_1797_images() -> None:
    from simdist import datasets
    x, y = datasets.load("digits")
    name, digest, xs, ys = datasets.DATASETS["digits"]
    assert (x.shape, y.shape, x.dtype.name, y.dtype.name) == (xs, ys, "uint8", "uint8"), (x.shape, y.shape)
    assert datasets.content_digest(x, y) == digest, "digits.npz changed: rerun scripts/make_digits.py and record " \
                                                    "the new content digest in simdist/datasets/__init__.py"
    assert int(x.max()) == 16 and int(x.min()) == 0 and sorted(np.unique(y).tolist()) == list(range(10))
    assert np.bincount(y).min() >= 170, f"classes of the digits: {np.bincount(y).tolist()} (about 180 each)"
    from simdist.scenario.schema import SHIPPED_DATASETS, ZOO
    from simdist.scenario.train.zoo import ZOO as ZOO_IMPL
    assert tuple(datasets.DATASETS) == SHIPPED_DATASETS and ZOO == ZOO_IMPL


def test_the_categorical_feature_uses_the_training_splits_thresholds() -> None:
    from simdist.scenario.train.data import categorical_ids
    rng = np.random.default_rng(0)
    x = rng.random((200, 64)).astype("float32")
    ids, thr = categorical_ids(x[:150], None, 1000)
    again, _ = categorical_ids(x[:150], thr, 1000)
    test, _ = categorical_ids(x[150:], thr, 1000)
    assert (ids == again).all() and ids.min() >= 0 and ids.max() < 1000 and test.max() < 1000
    assert len(np.unique(ids)) > 50, f"{len(np.unique(ids))} distinct ids of 150 random examples: the hash collapses"


# -- runs ------------------------------------------------------------------------------------------
def _loss_fell(m: dict) -> None:
    ev, st = m["training"]["evals"], m["training"]["steps"]
    first, last = np.mean(st["loss"][:10]), np.mean(st["loss"][-10:])
    assert ev["loss"][-1] < 0.7 * ev["loss"][0], f"held-out loss {ev['loss'][0]:.3f} -> {ev['loss'][-1]:.3f}"
    assert last < 0.7 * first, f"training loss (mean of 10 steps) {first:.3f} -> {last:.3f}"
    assert ev["accuracy"][-1] > 0.5, f"held-out accuracy {ev['accuracy'][-1]:.3f} after training"


@pytest.mark.parametrize("kind", ["one_device", "mirrored", "central_storage"])
def test_a_training_scenario_reduces_the_loss_under_each_synchronous_strategy(kind: str) -> None:
    ov = [f"strategy.kind={kind}"] + (['strategy.devices=["GPU:0"]'] if kind == "one_device" else [])
    m = run(loads(SYNC, "t.toml", ov)).metrics
    assert m["status"] == "ok", m["error"]
    assert validate_metrics(m) == [], validate_metrics(m)
    _loss_fell(m)
    s = m["summary"]
    assert s["steps_completed"] == 60 and len(m["training"]["steps"]["loss"]) == 60
    assert m["steps"]["count"] == 60, "every training step is a sim.step"
    times = m["training"]["steps"]["time_s"]
    assert times == sorted(times) and times[-1] == pytest.approx(s["simulated_time_s"]), \
        "step times are simulated times, ending at the end of the run"
    assert s["final_loss"] == m["training"]["evals"]["loss"][-1] and s["final_accuracy"] > 0.5
    assert s["time_to_accuracy_s"] == next(t for t, a in zip(m["training"]["evals"]["time_s"],
                                                           m["training"]["evals"]["accuracy"]) if a >= 0.5)
    assert "staleness_mean" not in s


def test_the_strategies_learn_the_same_and_differ_in_time() -> None:
    """Same data order and updates: the same losses (to float32 rounding); the time differs."""
    a = run(loads(SYNC, "t.toml", ["strategy.kind=mirrored"])).metrics
    b = run(loads(SYNC, "t.toml", ["strategy.kind=central_storage"])).metrics
    assert np.allclose(a["training"]["steps"]["loss"], b["training"]["steps"]["loss"], rtol=1e-5), \
        "Mirrored and CentralStorage should take the same steps"
    assert a["summary"]["simulated_time_s"] != b["summary"]["simulated_time_s"]


def test_parameter_server_training_converges_and_reports_staleness() -> None:
    m = run(loads(PS, "t.toml")).metrics
    assert m["status"] == "ok", m["error"]
    assert validate_metrics(m) == [], validate_metrics(m)
    _loss_fell(m)
    st = m["training"]["steps"]
    assert st["step"] == list(range(1, 121)), "every scheduled step committed once, in commit order"
    assert min(st["staleness"]) >= 0 and max(st["staleness"]) <= 8, st["staleness"]
    assert m["summary"]["staleness_mean"] > 1.0, "4 asynchronous workers: most steps read stale values"
    one = run(loads(PS, "t.toml", ["cluster.jobs={chief = 1, worker = 1, ps = 2}"])).metrics
    assert set(one["training"]["steps"]["staleness"]) == {0}, "one worker: no update can be stale"


def test_parameter_server_training_with_preemptions_still_converges() -> None:
    text = PS + '\n[faults.preemption_process]\nmtbf = "3ms"\ndowntime = "3ms"\nworker_fraction = 0.5\n'
    m = run(loads(text, "t.toml")).metrics
    assert m["status"] == "ok", m["error"]
    s = m["summary"]
    assert s["preemptions"] > 0 and s["retries"] > 0, f"no preemption hit a step: {s}"
    assert {f["target"] for f in m["faults"] if f["kind"] == "preemption"} <= \
        {"/job:worker/replica:0/task:0", "/job:worker/replica:0/task:1"}, "worker_fraction 0.5 of 4: workers 0 and 1"
    assert len(m["training"]["steps"]["loss"]) == 120, "a preempted step is retried: every step commits once"
    assert "staleness_mean" in s
    _loss_fell(m)


def test_a_ps_failure_restores_the_checkpointed_model_and_training_recovers() -> None:
    # the failure falls after the fault-free run's evaluation between its two checkpoints and
    # before the second checkpoint, wherever they are
    base = run(loads(PS + "\ncheckpoint_every = 60\n", "t.toml")).metrics
    ck1, ck2 = [f for f in base["faults"] if f["kind"] == "checkpoint"]
    between = [t for t in base["training"]["evals"]["time_s"] if ck1["end"] < t < ck2["start"]]
    assert between, f"no evaluation between the checkpoints at {ck1['end']} and {ck2['start']}"
    at_ms = 1e3 * (between[-1] + ck2["start"]) / 2
    text = PS + f"""
checkpoint_every = 60

[[faults.ps_failures]]
ps = 1
at_time = "{at_ms:.6f}ms"
downtime = "2ms"

[faults.recovery]
on_ps_failure = "restore_checkpoint"
"""
    m = run(loads(text, "t.toml")).metrics
    assert m["status"] == "ok", m["error"]
    rec = m["recovery"]["events"]
    assert len(rec) == 1 and rec[0]["lost_closures"] > 0, m["recovery"]
    ev = m["training"]["evals"]
    after = ev["time_s"].index(rec[0]["resumed_at"])
    saved = [i for i, t in enumerate(ev["time_s"]) if t < rec[0]["failed_at"]]
    ck = [f["end"] for f in m["faults"] if f["kind"] == "checkpoint" and f["end"] < rec[0]["failed_at"]][-1]
    at_ck = ev["time_s"].index(ck)
    assert ev["loss"][after] == ev["loss"][at_ck], "after the restore the model is the checkpoint's: the same " \
                                                   f"held-out loss ({ev['loss'][at_ck]} at the save, " \
                                                   f"{ev['loss'][after]} after the restore)"
    assert ev["loss"][after] > ev["loss"][saved[-1]], "the loss steps back to the checkpoint's"
    assert ev["loss"][-1] < ev["loss"][after], "and training recovers"
    assert m["summary"]["steps_completed"] == 120 and m["summary"]["redone_closures"] == rec[0]["lost_closures"]


def test_the_same_seed_gives_byte_identical_metrics_and_another_seed_does_not() -> None:
    from simdist.sim import check_determinism
    text = PS.replace("steps = 120", "steps = 40") + \
        '\n[faults.preemption_process]\nmtbf = "3ms"\ndowntime = "2ms"\nworker_fraction = 0.5\n'
    check_determinism(determinism_probe, text, "t.toml", [], 1, fresh_process=True)
    a = determinism_probe(text, "t.toml", [], 1)
    b = determinism_probe(text, "t.toml", [], 2)
    assert a != b, "another seed draws other preemptions, split, shuffle and initial weights"


# -- outputs -------------------------------------------------------------------------------------
def test_run_prints_loss_and_accuracy_next_to_time_and_draws_loss_png(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    path = write(tmp_path, SYNC.replace("steps = 60", "steps = 20").replace("eval_every = 20", "eval_every = 5"))
    code, out, err = cli("run", str(path), "--out", str(tmp_path / "o"), "--plot", "--no-progress")
    assert code == 0, err
    assert "final_loss" in out and "final_accuracy" in out and "time_to_accuracy_s" in out, out
    head = next(line for line in out.splitlines() if "test acc" in line)
    assert head.split()[:6] == ["time", "step", "loss", "accuracy", "test", "loss"], head
    assert (tmp_path / "o" / "loss.png").stat().st_size > 10_000 and "loss:" in out


def test_loss_png_shades_the_fault_windows_and_breaks_at_a_restore() -> None:
    pytest.importorskip("matplotlib")
    from simdist.scenario.plot_loss import draw_loss, run_label
    m = run(load(ROOT / "scenarios/train_ps_failure.toml", quick=True)).metrics
    fig = draw_loss([m])
    gids = [a.get_gid() for ax in fig.axes for a in ax.get_children() if a.get_gid()]
    assert "fault:ps_failure" in gids and "fault:restore" in gids, sorted(set(gids))
    label = run_label(m)
    assert gids.count(f"loss:{label}") == 2, "the training-loss curve is in two pieces: before and after the restore"


def test_sweep_and_gate_take_the_training_metrics(tmp_path: Path) -> None:
    path = write(tmp_path, SYNC.replace("steps = 60", "steps = 20"))
    code, out, err = cli("sweep", str(path), "--param", "training.learning_rate=0.05,0.2", "--seeds", "0",
                         "--out", str(tmp_path / "sw"), "--no-progress", "--no-parquet")
    assert code == 0, err
    from simdist.scenario.table import read_table
    rows = read_table(tmp_path / "sw" / "results.csv")
    for col in ("final_loss", "final_accuracy"):
        assert all(isinstance(r[col], float) for r in rows), (col, rows)
    slow, fast = sorted(rows, key=lambda r: r["training.learning_rate"])
    assert fast["final_loss"] < slow["final_loss"], "lr 0.2 learns more in 20 steps than lr 0.05"
    code, out, err = cli("gate", str(tmp_path / "sw"), "--baseline", str(tmp_path / "sw"), "--junit", "-")
    assert code == 0 and "final_loss" in out, (code, out, err)
    run_dir = tmp_path / "r"
    assert cli("run", str(path), "--out", str(run_dir), "--no-progress", "--quiet")[0] == 0
    worse = json.loads((run_dir / "metrics.json").read_text())
    worse["summary"]["final_loss"] *= 1.5
    del worse["summary"]["time_to_accuracy_s"]
    (tmp_path / "worse.json").write_text(json.dumps(worse))
    code, out, err = cli("gate", str(tmp_path / "worse.json"), "--baseline", str(run_dir / "metrics.json"),
                         "--junit", str(tmp_path / "gate.xml"))
    assert code == 1, (code, out, err)
    lines = {ln.split()[0]: ln for ln in out.splitlines() if ln.strip() and ln.split()[0] in SUMMARY_METRICS}
    assert "REGRESSION" in lines["final_loss"] and "MISSING" in lines["time_to_accuracy_s"], out
    assert 'name="final_loss"' in (tmp_path / "gate.xml").read_text(), "the JUnit report names the metric"


def test_the_ready_training_studies_validate() -> None:
    for name in ("train_ps_preemption", "train_mirrored_vs_cs", "train_ps_failure"):
        sc = load(ROOT / "scenarios" / f"{name}.toml")
        assert sc.config["training"].get("target_accuracy"), name


def test_each_parameter_server_worker_reads_its_own_stream() -> None:
    # Under ParameterServerStrategy every worker's dataset_fn gets InputContext(1, 0, n), as in TF:
    # sharding by it does nothing. A real job's workers shuffle with their own seeds; here each
    # worker's seed is the stream data/shuffle/worker{i} of the root seed.
    m = run(loads(PS, "t.toml")).metrics
    st = m["training"]["steps"]
    first = [(loss, s) for loss, s in zip(st["loss"][:4], st["staleness"][:4])]
    losses = [loss for loss, _ in first]
    assert len(set(losses)) == 4, f"the 4 workers' first steps read the initial weights; with their own batches " \
                                   f"their losses differ, got {losses}"
    again = run(loads(PS, "t.toml")).metrics
    assert again["training"]["steps"]["loss"] == st["loss"], "the same seed gives the same per-worker streams"
