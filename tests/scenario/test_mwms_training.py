"""multi_worker_mirrored scenarios with a training model (simdist/scenario/train/mwms.py): the
values engine equals the facade's MultiWorkerMirroredStrategy under `simdist.launch`, restores
bring back exactly the saved state, the lost-work accounting holds, and the shipped scenario
scenarios/train_mwms_zoo.toml runs deterministically across processes."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest
from scenario_helpers import ROOT

from simdist.scenario import load, loads
from simdist.scenario.errors import ScenarioError
from simdist.scenario.metrics import validate_metrics
from simdist.scenario.runner import run

SHIPPED = ROOT / "scenarios" / "train_mwms_zoo.toml"

# ------------------------------------------------------------------ value identity with the facade MWMS
N, D, C, GB, STEPS, WORKERS, GPUS = 96, 6, 3, 16, 4, 2, 2


def _data() -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(11)
    return rng.normal(size=(N, D)).astype(np.float32), rng.integers(0, C, size=N).astype(np.int32)


def _initial(tf) -> list[np.ndarray]:
    rng = np.random.default_rng(5)
    return [rng.normal(scale=0.4, size=s).astype(np.float32) for s in ((D, 8), (8,), (8, C), (C,))]


def _train(tf, strategy, iterator_of) -> dict:
    """The scenario's step (train.step.replica_step) for STEPS steps under ``strategy``."""
    from simdist.scenario.train import step as S
    from simdist.scenario.train.zoo import build
    x, y = _data()
    tf.keras.backend.clear_session()
    with strategy.scope():
        model = build(tf, {"zoo": "mlp", "hidden": [8]}, (D,), C, 0)
        opt = tf.keras.optimizers.Adam(learning_rate=0.05)
        variables = S.train_variables(model)
        opt.build(variables)
    model.set_weights(_initial(tf))
    ds = tf.data.Dataset.from_tensor_slices((x, y)).shuffle(N, seed=7).repeat().batch(GB, drop_remainder=True)
    it = iterator_of(strategy, ds)

    def replica(inputs, labels):
        return S.replica_step(tf, model, opt, variables, inputs, labels, GB)

    losses = []
    for _ in range(STEPS):
        loss, _c = strategy.run(replica, args=next(it))
        losses.append(float(strategy.reduce("SUM", loss, axis=None).numpy()))
    return {"losses": losses, "weights": [np.array(v.numpy()) for v in S.all_variables(model, opt)]}


def test_values_engine_equals_the_facade_mwms_under_launch():
    """The run's MirroredStrategy over every host's GPUs (values_strategy + distributed_iterator)
    gives the same losses and the same final weights and optimizer state, bit for bit, as
    MultiWorkerMirroredStrategy with WORKERS launched clients x GPUS GPUs on the same program."""
    import simdist
    from simdist import tf
    from simdist.launch import launch
    from simdist.scenario.train.mwms import distributed_iterator, values_strategy

    def program():
        from simdist import tf as tfw
        return _train(tfw, tfw.distribute.MultiWorkerMirroredStrategy(),
                      lambda s, ds: iter(s.experimental_distribute_dataset(ds)))

    try:
        r = launch(program, workers=WORKERS, gpus_per_worker=GPUS)
        assert r.ok, f"the MWMS launch failed: {r.errors}"
        mw = r.results[("worker", 0)]
        other = r.results[("worker", 1)]
    finally:
        simdist.reset()
    try:
        simdist.configure(cpus=1, gpus=WORKERS * GPUS)
        devs = [f"/job:localhost/replica:0/task:0/device:GPU:{i}" for i in range(WORKERS * GPUS)]
        mine = _train(tf, values_strategy(tf, devs), lambda s, ds: distributed_iterator(s, ds, WORKERS))
    finally:
        simdist.reset()
    assert mine["losses"] == mw["losses"], f"losses {mine['losses']}, but MWMS gives {mw['losses']}"
    assert len(mine["weights"]) == len(mw["weights"])
    for i, (a, b, c) in enumerate(zip(mine["weights"], mw["weights"], other["weights"])):
        assert np.array_equal(b, c), f"variable {i}: MWMS workers 0 and 1 disagree"
        assert a.dtype == b.dtype and np.array_equal(a, b), \
            f"variable {i}: {a.ravel()[:4]}, but MWMS gives {b.ravel()[:4]} (max diff {np.max(np.abs(a - b))})"


# ------------------------------------------------------------------ runs: restore, accounting, determinism
SMALL = """
[scenario]
name = "mwt"
seed = 2
[cluster]
preset = "gpu_cluster"
hosts = 2
gpus_per_host = 2
gpu = "A100"
[strategy]
kind = "multi_worker_mirrored"
restart = { delay = "1ms", workers = "all" }
[model]
zoo = "mlp"
hidden = [16]
[data]
dataset = "digits"
batch_size = 64
[training]
steps = 40
optimizer = "adam"
learning_rate = 0.01
eval_every = 5
checkpoint_every = 10
checkpoint_bandwidth = "200MB/s"
"""


def _run(extra: str = "", overrides: list | None = None) -> dict:
    m = run(loads(SMALL + extra, "mwt.toml", overrides or [])).metrics
    assert validate_metrics(m) == [], validate_metrics(m)
    return m


def _preempted(at_step: float, m_clean: dict) -> dict:
    """A run with host 1 preempted while step ``at_step`` runs (from the clean run's step ends)."""
    steps = m_clean["training"]["steps"]
    t = steps["time_s"][int(at_step) - 1] + 0.5 * (steps["time_s"][1] - steps["time_s"][0])
    return _run(f"[faults]\npreemptions = [{{ worker = 1, at_time = {t!r}, downtime = \"2ms\" }}]\n")


def test_a_preemption_restores_the_checkpoint_exactly_and_the_accounting_holds():
    clean = _run()
    m = _preempted(16, clean)
    s, tr, c = m["summary"], m["training"], clean["training"]
    assert (s["restarts"], s["preemptions"], s["restore_mismatches"]) == (1, 1, 0), \
        f"restarts/preemptions/restore_mismatches = {s['restarts']}/{s['preemptions']}/{s['restore_mismatches']}, " \
        "but should be 1/1/0"
    assert s["steps_redone"] == 6, f"steps_redone={s['steps_redone']}, but should be 6 (steps 11..16 after the " \
                                   "step-10 checkpoint)"
    assert s["steps_applied"] == s["steps_completed"] + s["steps_redone"] == 46
    # before the preemption the run is the clean run's, value for value
    k = tr["steps"]["step"].index(16)
    assert tr["steps"]["loss"][:k] == c["steps"]["loss"][:k], "the steps before the preemption differ from the clean run"
    # the evaluation right after the restore sees exactly the step-10 model: the same loss and accuracy
    ev = tr["evals"]
    at10 = [(loss, acc) for st, loss, acc in zip(ev["step"], ev["loss"], ev["accuracy"]) if st == 10]
    assert len(at10) == 2 and at10[0] == at10[1], \
        f"evaluations of the step-10 model {at10}, but should be two equal ones (saved, then restored)"
    # the iterator is not restored (TF 2.21 cannot checkpoint it): step 11 is redone on the first batch
    # again, so the redone steps differ from the first time
    redo = [i for i, st in enumerate(tr["steps"]["step"]) if st == 11]
    assert len(redo) == 2 and tr["steps"]["loss"][redo[0]] != tr["steps"]["loss"][redo[1]], \
        f"step 11's losses {[tr['steps']['loss'][i] for i in redo]}: the redone step should read batch 1 again"
    assert tr["steps"]["loss"][redo[1]] != clean["training"]["steps"]["loss"][0]   # (other weights than step 0's)
    assert s["simulated_time_s"] == pytest.approx(40 * s["step_time_p50_s"] + s["time_checkpointing_s"]
                                                  + s["time_lost_restart_s"], rel=1e-3), \
        "simulated time != kept steps + saves + time lost to restarts"


def test_a_wrong_restore_is_counted_and_breaks_explores_accounting(monkeypatch):
    """The restore is checked, not assumed: a restore that leaves the weights as they were (the
    lost steps' updates kept) is a restore_mismatch, and explore's accounting invariant says so."""
    from simdist.explore.invariants import accounting
    from simdist.scenario.train import mwms
    clean = _run()
    good = _preempted(16, clean)
    assert accounting(good, 40) == [], accounting(good, 40)

    def restore_without_values(self, step, snap):
        yield from mwms._FlopJob.restore(self, step, snap[0])
    monkeypatch.setattr(mwms._TrainJob, "restore", restore_without_values)
    bad = _preempted(16, clean)
    assert bad["summary"]["restore_mismatches"] == 1, bad["summary"]
    assert any("restore" in p for p in accounting(bad, 40)), accounting(bad, 40)


def test_grace_period_save_loses_no_step():
    clean = _run()
    steps = clean["training"]["steps"]
    t = steps["time_s"][15] - 0.5 * (steps["time_s"][1] - steps["time_s"][0])
    m = _run(f"[faults]\npreemptions = [{{ worker = 1, at_time = {t!r}, downtime = \"2ms\" }}]\n",
             ["training.grace_period=1ms"])
    s = m["summary"]
    assert (s["restarts"], s["preemption_checkpoints"], s["steps_redone"], s["restore_mismatches"]) == (1, 1, 0, 0), \
        f"restarts/preemption_checkpoints/steps_redone/restore_mismatches = {s['restarts']}/" \
        f"{s['preemption_checkpoints']}/{s['steps_redone']}/{s['restore_mismatches']}, but should be 1/1/0/0"


def _digests(overrides: list[str]) -> list[str]:
    code = ("import sys, hashlib; from simdist.scenario.runner import determinism_probe; "
            f"t = open({str(SHIPPED)!r}).read(); "
            f"sys.stdout.write(hashlib.sha256(determinism_probe(t, {str(SHIPPED)!r}, {overrides!r}, 0)).hexdigest())")
    outs = [subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=600,
                           env=dict(os.environ, PYTHONHASHSEED=str(h))) for h in (1, 2)]
    for o in outs:
        assert o.returncode == 0, o.stderr[-2000:]
    return [o.stdout for o in outs]


def _check_shipped(s: dict, preemptions: int) -> None:
    assert (s["preemptions"], s["restarts"], s["restore_mismatches"]) == (preemptions, preemptions, 0), \
        f"preemptions/restarts/restore_mismatches = {s['preemptions']}/{s['restarts']}/{s['restore_mismatches']}, " \
        f"but should be {preemptions}/{preemptions}/0"
    assert s["steps_redone"] > 0 and s["steps_applied"] == s["steps_completed"] + s["steps_redone"], s
    assert s["time_lost_restart_s"] > 0, s


def test_shipped_scenario_quick_slice_restarts_once():
    """The [quick] variant of scenarios/train_mwms_zoo.toml (60 steps) sees its first preemption and
    restart (test_scenario_runs checks it byte for byte in a fresh process)."""
    _check_shipped(run(load(str(SHIPPED), quick=True)).metrics["summary"], 1)


@pytest.mark.slow
def test_shipped_scenario_runs_deterministically_across_processes():
    """scenarios/train_mwms_zoo.toml as shipped: two preemptions, restarts from the last checkpoint,
    the target accuracy reached; byte-identical across two fresh interpreters."""
    a, b = _digests([])
    assert a == b, f"digests {a} and {b} differ across processes"
    s = run(load(str(SHIPPED), [])).metrics["summary"]
    _check_shipped(s, 2)
    assert "time_to_accuracy_s" in s, "the shipped scenario should reach its target accuracy"


def test_time_to_target_loss_is_the_first_evaluation_at_or_below_it():
    m = _run("", ["training.target_loss=0.9", "training.target_accuracy=0.85"])
    ev, s = m["training"]["evals"], m["summary"]
    want_l = next(t for t, loss in zip(ev["time_s"], ev["loss"]) if loss <= 0.9)
    want_a = next(t for t, acc in zip(ev["time_s"], ev["accuracy"]) if acc >= 0.85)
    assert s["time_to_loss_s"] == want_l == m["training"]["time_to_loss_s"], \
        f"time_to_loss_s={s['time_to_loss_s']}, but the first evaluation at or below 0.9 is at {want_l}"
    assert s["time_to_accuracy_s"] == want_a, f"time_to_accuracy_s={s['time_to_accuracy_s']}, but should be {want_a}"
    assert m["training"]["target_loss"] == 0.9
    never = _run("", ["training.target_loss=1e-6"])
    assert "time_to_loss_s" not in never["summary"] and never["training"]["time_to_loss_s"] is None


def test_training_scenario_errors_name_the_key():
    with pytest.raises(ScenarioError) as e:
        loads(SMALL.replace("batch_size = 64", "batch_size = 66"), "mwt.toml", [])
    got = [(i.path, i.message) for i in e.value.issues]
    assert any(p == "data.batch_size" and "4 replicas" in msg for p, msg in got), \
        f"issues {got}, but should say data.batch_size does not split over the 4 replicas"


SHIPPED_16X8 = ROOT / "scenarios" / "train_mwms_16x8.toml"


@pytest.mark.slow
def test_the_16x8_training_scenario_is_deterministic_across_processes():
    """scenarios/train_mwms_16x8.toml as shipped (128 replicas, real MLP values on digits, spot
    preemptions with grace-period saves): byte-identical metrics in two fresh interpreters (other
    PYTHONHASHSEEDs), exact restores, the target reached. Its [quick] slice (4 steps, one
    scheduled preemption, still 128 replicas) runs in the default run: test_scenario_runs."""
    probe = ("import sys, hashlib; from simdist.scenario.runner import determinism_probe; "
             f"t = open({str(SHIPPED_16X8)!r}).read(); "
             f"sys.stdout.write(hashlib.sha256(determinism_probe(t, {str(SHIPPED_16X8)!r}, [], 0)).hexdigest())")
    outs = [subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT, timeout=900,
                           env=dict(os.environ, PYTHONHASHSEED=str(h))) for h in (1, 2)]
    for o in outs:
        assert o.returncode == 0, o.stderr[-2000:]
    assert outs[0].stdout == outs[1].stdout, f"digests {outs[0].stdout} and {outs[1].stdout} differ across processes"
    m = run(load(str(SHIPPED_16X8), [])).metrics
    s = m["summary"]
    gpus = [d for d in m["devices"] if "/device:GPU:" in d]
    assert len(gpus) == 128 and all(m["devices"][d]["busy_s"] > 0 for d in gpus), \
        f"{len(gpus)} GPUs, or some idle: every one of the 128 replicas should compute"
    assert s["preemptions"] >= 2 and s["restarts"] >= 1 and s["restore_mismatches"] == 0, s
    assert s["steps_applied"] == s["steps_completed"] + s["steps_redone"] == 60 + s["steps_redone"], s
    assert s["preemption_checkpoints"] >= 1 and "time_to_accuracy_s" in s, s
