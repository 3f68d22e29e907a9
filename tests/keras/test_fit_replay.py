"""`fit`/`evaluate`/`predict` record their step once per input signature and replay it (clause
keras.fit.step-replay): what a user observes is the eager step's, bit for bit.

Each program trains a scenario-zoo model (the MLP, the CNN, the transformer) on the first 70
digits (batches of 32, 32 and a partial 6) for two epochs with Adam, then evaluates and
predicts, under a strategy; it runs three ways in one process: with recorded graphs off
(every step's Python runs: the eager step), replayed replica by replica, and replayed with the
replicas' lanes fused (simdist.runtime.lanes, the default). Replayed replica by replica, every
value (history, the logs each batch's callback sees, weights, optimizer slots, evaluate,
predict), the simulated time, the simulator's metrics and the Chrome trace are the eager run's
bytes; fused, the time, metrics and trace are, and values differ by the rounding of the fused
gradient sums only. Values against TF 2.21 are tests/keras/test_fit_tf.py's.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest


@pytest.fixture(autouse=True)
def _without_grappler_rewrites():
    """These tests check that a replay computes what the Python computes eagerly: Grappler's
    value-changing rewrites (simdist.runtime.ops.grappler, checked against TF 2.21 in
    tests/ops/test_fuzz2_values_tf.py) are off while they record."""
    from simdist.runtime.ops import grappler
    old = grappler.set_enabled(False)
    yield
    grappler.set_enabled(old)


N, BATCH, EPOCHS = 70, 32, 2
STRATEGIES = ("default", "mirrored2", "mirrored4", "central_storage2")


def _strategy(tf: Any, kind: str) -> Any:
    if kind == "default":
        return tf.distribute.get_strategy()
    n = int(kind[-1])
    devices = [f"/cpu:{i}" for i in range(n)]
    if kind.startswith("mirrored"):
        return tf.distribute.MirroredStrategy(devices)
    return tf.distribute.experimental.CentralStorageStrategy(devices)


def _data(kind: str) -> tuple[np.ndarray, np.ndarray, tuple[int, ...]]:
    from simdist.datasets import load
    x, y = load("digits")
    shape = (8, 8, 1) if kind == "cnn" else (64,)
    x = (x[:N].astype("float32") / 16.0).reshape((N,) + shape)
    return x, y[:N].astype("int64"), shape


def _bytes(v: Any) -> bytes:
    return np.asarray(v.numpy() if hasattr(v, "numpy") else v).tobytes()


def _run(kind: str, strategy_kind: str, mode: str, trace: Path, model_class: Any = None) -> dict[str, Any]:
    """The program with recorded graphs off ("eager"), on with lanes unfused ("replay") or on
    with lanes fused ("fused"): what a user can observe."""
    import simdist
    from simdist import tf
    from simdist.runtime import graph, lanes
    from simdist.scenario.train import zoo
    old = graph.enabled, lanes.enabled
    graph.enabled, lanes.enabled = mode != "eager", mode == "fused"
    try:
        simdist.configure(trace=str(trace))
        cpu = tf.config.list_physical_devices("CPU")[0]
        tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 4)
        keras = tf.keras
        x, y, shape = _data(kind)
        strategy = _strategy(tf, strategy_kind)
        with strategy.scope():
            model = zoo.build(tf, {"zoo": kind}, shape, 10, 0) if model_class is None else model_class(tf, shape)
            rng = np.random.default_rng(0)
            model.set_weights([(rng.standard_normal(w.shape) * 0.1).astype(w.dtype) for w in model.get_weights()])
            model.compile(optimizer=keras.optimizers.Adam(0.01),
                          loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True), metrics=["accuracy"])
        batches: list[dict[str, float]] = []

        class BatchLogs(keras.callbacks.Callback):
            def on_train_batch_end(self, batch: int, logs: Any = None) -> None:
                batches.append({k: float(v) for k, v in (logs or {}).items()})

        history = model.fit(x, y, batch_size=BATCH, epochs=EPOCHS, verbose=0, shuffle=False, callbacks=[BatchLogs()])
        out = {"history": history.history, "batches": batches,
               "weights": [_bytes(w) for w in model.get_weights()],
               "optimizer": [_bytes(v) for v in model.optimizer.variables],
               "evaluate": model.evaluate(x, y, batch_size=BATCH, verbose=0, return_dict=True),
               "predict": _bytes(model.predict(x, batch_size=BATCH, verbose=0)),
               "now": simdist.now(), "metrics": simdist.session.simulator().metrics(),
               "explain": {name: graph.explain(getattr(model, f"{name}_function"))
                           for name in ("train", "test", "predict")}}
        simdist.reset()    # (closes the trace)
        return out
    finally:
        graph.enabled, lanes.enabled = old


def _same(replayed: dict[str, Any], eager: dict[str, Any], where: str, keys: tuple[str, ...]) -> None:
    for key in keys:
        assert replayed[key] == eager[key], f"{where}: {key} replayed {replayed[key]!r:.300} but eager " \
                                            f"{eager[key]!r:.300}"


VALUES = ("history", "batches", "weights", "optimizer", "evaluate", "predict")
OBSERVED = ("now", "metrics")

# (model, strategy): every zoo model under every strategy the trainer supports; the default run
# keeps one case per model and per strategy (the rest is @slow).
CASES = [(m, s) for m in ("mlp", "cnn", "transformer") for s in STRATEGIES]
DEFAULT = {("mlp", "default"), ("mlp", "mirrored4"), ("cnn", "mirrored2"), ("transformer", "central_storage2")}


@pytest.mark.clause("keras.fit.step-replay")
@pytest.mark.parametrize("kind,strategy", [pytest.param(*c, marks=() if c in DEFAULT else pytest.mark.slow,
                                                         id=f"{c[0]}-{c[1]}") for c in CASES])
def test_replayed_fit_is_the_eager_fit(kind: str, strategy: str, tmp_path: Path) -> None:
    """Replayed replica by replica: values, simulated time, metrics and trace bit for bit."""
    eager = _run(kind, strategy, "eager", tmp_path / "eager.json")
    replay = _run(kind, strategy, "replay", tmp_path / "replay.json")
    where = f"{kind} under {strategy}"
    for name, text in replay["explain"].items():
        # full batches and the partial last one: two recorded signatures, both replayed
        assert text.count("replays a recorded graph") == 2, \
            f"{where}: {name}_function should replay two recorded graphs (full and partial batch), got: {text}"
    assert all(t.startswith("runs eagerly every time: SIMDIST_TRACE_FUNCTIONS=0") for t in eager["explain"].values()), \
        f"{where}: with recorded graphs off every step should run eagerly, got {eager['explain']}"
    _same(replay, eager, where, VALUES + OBSERVED)
    a, b = (tmp_path / "replay.json").read_bytes(), (tmp_path / "eager.json").read_bytes()
    assert a == b, f"{where}: the Chrome trace differs: {len(a)} bytes replayed vs {len(b)} eager"


@pytest.mark.clause("keras.fit.step-replay")
@pytest.mark.parametrize("kind,strategy", [("mlp", "mirrored4"),
                                           pytest.param("transformer", "mirrored2", marks=pytest.mark.slow)])
def test_fused_fit_changes_only_the_rounding_of_gradient_sums(kind: str, strategy: str, tmp_path: Path) -> None:
    """With the replicas' lanes fused (the default): simulated time, metrics and trace exact,
    values within float rounding of the eager run (tests/keras/test_fit_tf.py: of TF's)."""
    eager = _run(kind, strategy, "eager", tmp_path / "eager.json")
    fused = _run(kind, strategy, "fused", tmp_path / "fused.json")
    where = f"{kind} under {strategy}, fused"
    assert fused["explain"]["train"].count("with its replicas fused") >= 1, \
        f"{where}: the full batches' step should replay fused, got: {fused['explain']['train']}"
    _same(fused, eager, where, OBSERVED)
    a, b = (tmp_path / "fused.json").read_bytes(), (tmp_path / "eager.json").read_bytes()
    assert a == b, f"{where}: the Chrome trace differs: {len(a)} bytes fused vs {len(b)} eager"
    for key in ("history", "evaluate"):
        for name, want in eager[key].items():
            got = fused[key][name]
            assert np.allclose(got, want, rtol=1e-5, atol=1e-7), f"{where}: {key}[{name!r}] {got} vs eager {want}"
    for i, (g, w) in enumerate(zip(fused["weights"], eager["weights"])):
        g, w = np.frombuffer(g, np.float32), np.frombuffer(w, np.float32)
        assert np.allclose(g, w, rtol=1e-4, atol=1e-6), \
            f"{where}: weight {i} differs from eager by {np.max(np.abs(g - w)):.3g} (max), beyond rounding"
    assert len(fused["batches"]) == len(eager["batches"]), f"{where}: {len(fused['batches'])} batch logs vs eager"
    for i, (g, w) in enumerate(zip(fused["batches"], eager["batches"])):
        for name in w:
            assert np.isclose(g[name], w[name], rtol=1e-5, atol=1e-7), \
                f"{where}: batch {i} logs[{name!r}] {g[name]} vs eager {w[name]}"


def _reads_a_value(tf: Any, shape: tuple[int, ...]) -> Any:
    """A functional model whose train_step reads the loss in Python (the recorder cannot
    replay that: the step stays eager)."""
    keras = tf.keras

    class Watched(keras.Model):
        def train_step(self, data: Any) -> Any:
            logs = super().train_step(data)
            if float(logs["loss"]) > 1e9:      # a value read in Python
                self.stop_training = True
            return logs

    inp = keras.Input(shape)
    return Watched(inp, keras.layers.Dense(10)(keras.layers.Dense(16, activation="relu")(inp)))


@pytest.mark.clause("keras.fit.step-replay")
@pytest.mark.parametrize("strategy", ["default", "mirrored2"])
def test_a_step_that_reads_a_value_falls_back_to_eager(strategy: str, tmp_path: Path) -> None:
    """A step the recorder cannot follow runs eagerly every time; explain says why, and the run
    is the eager one."""
    eager = _run("mlp", strategy, "eager", tmp_path / "eager.json", model_class=_reads_a_value)
    traced = _run("mlp", strategy, "fused", tmp_path / "traced.json", model_class=_reads_a_value)
    text = traced["explain"]["train"]
    assert text.startswith("runs eagerly every time: it reads a tensor's value") and \
        "replays" not in text, f"under {strategy}: the step should stay eager and say why, got: {text}"
    assert traced["explain"]["test"].count("replays a recorded graph") == 2, traced["explain"]["test"]
    _same(traced, eager, f"a value-reading step under {strategy}", VALUES + OBSERVED)
    a, b = (tmp_path / "traced.json").read_bytes(), (tmp_path / "eager.json").read_bytes()
    assert a == b, f"under {strategy}: the Chrome trace differs: {len(a)} bytes vs {len(b)} eager"


@pytest.mark.clause("keras.fit.step-replay")
def test_run_eagerly_and_python_side_effects() -> None:
    """compile(run_eagerly=True) runs the step's Python every batch; otherwise it runs once per
    recorded signature (as TF runs it when it traces), and the first call of a step that
    creates variables (the default strategy builds Adam's slots in it) runs eagerly first."""
    import simdist
    from simdist import tf
    from simdist.runtime import graph
    keras = tf.keras
    calls: list[str] = []

    class Counted(keras.Model):
        def train_step(self, data: Any) -> Any:
            calls.append("train")
            return super().train_step(data)

        def predict_step(self, data: Any) -> Any:
            calls.append("predict")
            return super().predict_step(data)

    x, y, shape = _data("mlp")
    counts = {}
    for eagerly in (True, False):
        simdist.reset()
        calls.clear()
        inp = keras.Input(shape)
        model = Counted(inp, keras.layers.Dense(10)(inp))
        model.compile(optimizer=keras.optimizers.Adam(0.01), run_eagerly=eagerly,
                      loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True))
        model.fit(x, y, batch_size=BATCH, epochs=EPOCHS, verbose=0, shuffle=False)
        model.predict(x, batch_size=BATCH, verbose=0)
        counts[eagerly] = {k: calls.count(k) for k in ("train", "predict")}
        if eagerly:
            text = graph.explain(model.train_function)
            assert text.startswith("runs eagerly every time: not a tf.function"), text
    steps = -(-N // BATCH)
    assert counts[True] == {"train": EPOCHS * steps, "predict": steps}, \
        f"run_eagerly=True should run every step's Python: {counts[True]}, expected {EPOCHS * steps} and {steps}"
    # train: the first call creates Adam's slots (eager), then the full and the partial batch
    # record once each; predict: full and partial
    assert counts[False] == {"train": 3, "predict": 2}, \
        f"the steps' Python should run once per recorded signature (+1 for the call creating variables): " \
        f"{counts[False]}, expected train 3, predict 2"
