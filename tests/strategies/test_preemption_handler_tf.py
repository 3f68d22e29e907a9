"""Differential tests of `tf.distribute.experimental.PreemptionCheckpointHandler` and
`TerminationConfig` on one worker (the handler's local mode): simdist vs TF 2.21.

Each case is one program, the same on both backends: a custom training loop (a Keras model and
optimizer with momentum under a strategy, `strategy.run` in the step) driven through
`handler.run` or `handler.save_checkpoint_if_preempted`, with a `termination_watcher_fn` that
turns True after a given step (TF polls it from a thread once a second, so on TF the program
waits 1.5 s after turning it on; simdist reads it at the next call), and an `exit_fn` that
records the run count and stops the loop as `sys.exit` would. Then the job "restarts": a new
model, optimizer, checkpoint and handler restore from the directory and train to the end. What
is compared: the run counts, which steps trained, the losses, where exit_fn was called, the
checkpoint state file's newest name, the restored run count and step, and the final weights.
TF runs in a subprocess (tf_workers.spawn; this module is its worker). rtol 1e-4, atol 1e-6.
Live-only (no golden): which step TF saves at depends on its watcher thread having polled within
the 1.5 s the program waits, so its answers could vary on a loaded machine.
"""

from __future__ import annotations

import importlib.util
import os
import time
from typing import Any

import numpy as np
import pytest

import tf_programs
import tf_workers

pytestmark = [pytest.mark.tf, pytest.mark.skipif(importlib.util.find_spec("tensorflow") is None,
                                                 reason="real TensorFlow is not installed (pip install -e .[tf])")]

RTOL, ATOL = 1e-4, 1e-6
N, D, H, C, B = 64, 6, 8, 3, 16
STEPS = 8

BASE = dict(strategy="default", signal_after=3, grace=None, manager=False, api="run", save_fn=False, restart=True,
            build=False)
CASES: dict[str, dict] = {}


def case(name: str, **kw: Any) -> None:
    CASES[name] = {**BASE, **kw}


case("default-run")
case("one_device-run-manager", strategy="one_device", manager=True, signal_after=4)
# (under MirroredStrategy the optimizer is built before the first step: TF 2.21 fails an SGD with
# momentum first built inside the tf.function there, "You must feed a value for placeholder tensor
# 'cond/else/_1/cond/Placeholder'", which simdist does not reproduce)
case("mirrored2-run", strategy="mirrored2", signal_after=2, build=True)
case("mirrored2-run-manager", strategy="mirrored2", manager=True, build=True)
case("default-save-if-preempted", api="save_if_preempted", manager=True)
case("default-save-fn", save_fn=True)
# a grace period far longer than the run: one save at the agreed step, then training goes on
case("default-grace", grace=10000.0, restart=False)
case("mirrored2-no-signal", strategy="mirrored2", signal_after=None, build=True)
case("default-build-before-step", build=True, signal_after=5)
case("error-checkpoint-without-dir", api="no_dir")
case("error-ps-cluster", api="ps")


def _data() -> dict[str, Any]:
    rng = np.random.default_rng(5)
    x = rng.standard_normal((N, D)).astype(np.float32)
    y = rng.integers(0, C, N).astype(np.int32)
    w = [rng.standard_normal((D, H)).astype(np.float32) * 0.5, np.zeros(H, np.float32),
         rng.standard_normal((H, C)).astype(np.float32) * 0.5, np.zeros(C, np.float32)]
    return {"x": x, "y": y, "w": w}


def _strategy(tf: Any, kind: str) -> Any:
    if kind == "default":
        return tf.distribute.get_strategy()
    if kind == "one_device":
        return tf.distribute.OneDeviceStrategy("/cpu:1")
    return tf.distribute.MirroredStrategy([f"/cpu:{i}" for i in range(int(kind[-1]))])


class Exit(Exception):
    """What the program's exit_fn raises (a real job's would sys.exit)."""


def program(tf: Any, c: dict, workdir: str, settle: Any) -> dict[str, Any]:
    """Train with the handler until exit_fn, restart from the checkpoint, train to STEPS."""
    keras = tf.keras
    d = _data()
    strategy = _strategy(tf, c["strategy"])
    ckpt_dir = os.path.join(workdir, "ckpt")
    out: dict[str, Any] = {"exits": [], "saves": []}
    flag = {"on": False}
    try:
        if c["api"] == "no_dir":
            tf.distribute.experimental.PreemptionCheckpointHandler(None, tf.train.Checkpoint(v=tf.Variable(1.0)))
            return out
        if c["api"] == "ps":
            spec = tf.train.ClusterSpec({"worker": ["localhost:1"], "ps": ["localhost:2"]})
            resolver = tf.distribute.cluster_resolver.SimpleClusterResolver(spec, task_type="worker", task_id=0)
            tf.distribute.experimental.PreemptionCheckpointHandler(resolver, tf.train.Checkpoint(), ckpt_dir)
            return out

        def job(attempt: int) -> list:
            with strategy.scope():
                model = keras.Sequential([keras.Input((D,)), keras.layers.Dense(H, activation="relu"),
                                          keras.layers.Dense(C)])
                opt = keras.optimizers.SGD(0.1, momentum=0.9)
                step_var = tf.Variable(0, dtype=tf.int64, name="step")
            model.set_weights([w + 0.1 * attempt for w in d["w"]])   # a restart starts from other weights
            checkpoint = tf.train.Checkpoint(model=model, optimizer=opt, step=step_var)
            manager = tf.train.CheckpointManager(checkpoint, ckpt_dir, max_to_keep=3) if c["manager"] else None

            def exit_fn() -> None:
                out["exits"].append((attempt, int(handler.total_run_calls)))
                if c["grace"] is None:
                    raise Exit()

            def save_fn(*args: Any, **kwargs: Any) -> None:
                out["saves"].append((attempt, int(handler.total_run_calls), args, sorted(kwargs)))
                checkpoint.save(os.path.join(ckpt_dir, "ckpt"))

            config = tf.distribute.experimental.TerminationConfig(
                termination_watcher_fn=(lambda: flag["on"]) if attempt == 0 else None, exit_fn=exit_fn,
                grace_period=c["grace"], save_fn=save_fn if c["save_fn"] else None)
            with strategy.scope():
                handler = tf.distribute.experimental.PreemptionCheckpointHandler(
                    None, manager if manager is not None else checkpoint,
                    None if manager is not None else ckpt_dir, config)
            if c["build"]:   # (after the restore: its momentum values wait for the slots, as on TF)
                with strategy.scope():
                    opt.build(model.trainable_variables)
            out[f"restored{attempt}"] = (int(handler.total_run_calls), int(step_var.numpy()))
            loss_fn = keras.losses.SparseCategoricalCrossentropy(from_logits=True,
                                                                 reduction="none")
            dataset = tf.data.Dataset.from_tensor_slices((d["x"], d["y"])).repeat().batch(B)
            iterator = iter(strategy.experimental_distribute_dataset(dataset))
            for _ in range(int(step_var.numpy())):
                next(iterator)   # the data position of the restored step

            @tf.function
            def train_step(it: Any) -> Any:
                def replica_fn(inputs: Any) -> Any:
                    x, y = inputs
                    with tf.GradientTape() as tape:
                        loss = tf.nn.compute_average_loss(loss_fn(y, model(x, training=True)), global_batch_size=B)
                    grads = tape.gradient(loss, model.trainable_variables)
                    opt.apply_gradients(zip(grads, model.trainable_variables))
                    return loss
                return strategy.reduce(tf.distribute.ReduceOp.SUM, strategy.run(replica_fn, args=(next(it),)),
                                       axis=None)

            trained = []
            try:
                while int(step_var.numpy()) < STEPS:
                    if c["api"] == "run":
                        loss = handler.run(train_step, iterator)
                    else:
                        loss = train_step(iterator)
                    step_var.assign_add(1)
                    trained.append((attempt, int(step_var.numpy()), int(handler.total_run_calls), float(loss)))
                    if c["api"] == "save_if_preempted":
                        handler.save_checkpoint_if_preempted(checkpoint_number=int(step_var.numpy()))
                    if attempt == 0 and c["signal_after"] is not None and int(step_var.numpy()) == c["signal_after"]:
                        flag["on"] = True
                        settle()
            except Exit:
                pass
            out[f"weights{attempt}"] = [np.asarray(w, np.float64).tolist() for w in model.get_weights()]
            return trained

        out["trained"] = job(0)
        state = os.path.join(ckpt_dir, "checkpoint")
        out["latest"] = (open(state).read().split("\n")[0] if os.path.exists(state) else None)
        if c["restart"]:
            out["trained"] += job(1)
    except Exception as e:  # noqa: BLE001 - the error is part of the result
        out["error"] = (type(e).__name__, str(e).split("\n")[0][:300])
    return out


def _close(got: Any, want: Any, where: str) -> None:
    tf_programs.close(got, want, where, RTOL, ATOL)


def compare(got: dict, want: dict, name: str) -> None:
    assert ("error" in got) == ("error" in want), f"{name}: simdist {got.get('error')}, TF 2.21 {want.get('error')}"
    if "error" in want:
        assert got["error"][0] == want["error"][0] and got["error"][1].startswith(want["error"][1]), \
            f"{name}: simdist raises {got['error']}, TF 2.21 {want['error']}"
        return
    for key in ("exits", "saves", "latest", "restored0", "restored1"):
        assert got.get(key) == want.get(key), f"{name}: {key}: simdist {got.get(key)}, TF 2.21 {want.get(key)}"
    g = [t[:3] for t in got.get("trained", [])]
    w = [t[:3] for t in want.get("trained", [])]
    assert g == w, f"{name}: (attempt, step, total_run_calls) trained {g}, TF 2.21 {w}"
    _close([t[3] for t in got.get("trained", [])], [t[3] for t in want.get("trained", [])], f"{name}: losses")
    for key in ("weights0", "weights1"):
        assert (key in got) == (key in want), f"{name}: {key} recorded: simdist {key in got}, TF {key in want}"
        for i, (gw, ww) in enumerate(zip(got.get(key, []), want.get(key, []))):
            _close(gw, ww, f"{name}: {key}[{i}]")


# The default run keeps a slice of the cases (one per kind of behaviour); the rest are slow.
SLOW = ['one_device-run-manager', 'mirrored2-run-manager', 'default-save-fn', 'mirrored2-no-signal', 'default-build-before-step']


def _param(i: int, name: str) -> Any:
    return pytest.param(i, id=name, marks=[pytest.mark.slow] if name in SLOW else [])


@pytest.fixture(scope="module")
def tf_results(request: Any) -> dict[int, Any]:
    """TF's results of the selected cases (tf_programs.spawn: a TF process per strategy size)."""
    return tf_programs.spawn(__file__, CASES, tf_programs.selected(request, __file__))


def _params(errors: bool) -> list[Any]:
    return [_param(i, n) for i, (n, c) in enumerate(CASES.items()) if (c["api"] in ("no_dir", "ps")) == errors]


@pytest.mark.clause("pch.local-save-step")
@pytest.mark.clause("pch.deferred-restore")
@pytest.mark.parametrize("index", _params(errors=False))
def test_preemption_checkpoint_handler(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    name = list(CASES)[index]
    compare(tf_programs.on_simdist(program, CASES[name], str(tmp_path), lambda: None), tf_results[index], name)


@pytest.mark.clause("pch.errors")
@pytest.mark.parametrize("index", _params(errors=True))
def test_preemption_checkpoint_handler_errors(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    name = list(CASES)[index]
    compare(tf_programs.on_simdist(program, CASES[name], str(tmp_path), lambda: None), tf_results[index], name)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(tf_programs.worker(CASES, program, lambda: time.sleep(1.5)))
    os._exit(0)
