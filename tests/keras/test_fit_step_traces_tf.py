"""How often the Python of `train_step`/`test_step`/`predict_step` runs in fit, evaluate and
predict: simdist vs TF 2.21 + Keras 3.15.1 (clause keras.fit.step-replay).

Keras runs each step as a `tf.function`, so the step's Python runs when TF traces it, not per
batch; simdist records the step once per batch shape and replays it. Each case counts the calls
of a Model subclass's steps through fit (3 epochs), evaluate and predict, and records the
losses: the counts agree with TF's when every batch is full, and exceed them by one per replica
in fit and evaluate when the last batch is partial (TF traces those steps with the batch size
unknown; simdist records the partial batch apart), as docs/spec.md records; the losses agree to
rtol 1e-4 either way. TF runs the same program in a subprocess (tf_workers.spawn; this module
is its worker).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

# (strategy, examples): 48 = three full batches of 16; 50 = a partial last batch of 2
CASES = [("default", 48), ("mirrored2", 48), ("default", 50), ("mirrored2", 50)]


def program(tf: Any, strategy_kind: str, n: int) -> dict[str, Any]:
    keras = tf.keras
    calls: list[str] = []

    class Counted(keras.Model):
        def train_step(self, data: Any) -> Any:
            calls.append("train")
            return super().train_step(data)

        def test_step(self, data: Any) -> Any:
            calls.append("test")
            return super().test_step(data)

        def predict_step(self, data: Any) -> Any:
            calls.append("predict")
            return super().predict_step(data)

    rng = np.random.default_rng(7)
    x = rng.standard_normal((n, 8)).astype("float32")
    y = rng.integers(0, 3, n).astype("int32")
    weights = [(rng.standard_normal((8, 16)) * 0.4).astype("float32"), np.zeros(16, "float32"),
               (rng.standard_normal((16, 3)) * 0.4).astype("float32"), np.zeros(3, "float32")]
    strategy = tf.distribute.get_strategy() if strategy_kind == "default" else \
        tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
    with strategy.scope():
        inp = keras.Input((8,))
        model = Counted(inp, keras.layers.Dense(3)(keras.layers.Dense(16, activation="relu")(inp)))
        model.set_weights(weights)
        model.compile(optimizer=keras.optimizers.Adam(0.01),
                      loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    history = model.fit(x, y, batch_size=16, epochs=3, verbose=0, shuffle=False)
    evaluated = model.evaluate(x, y, batch_size=16, verbose=0)
    predicted = model.predict(x, batch_size=16, verbose=0)
    return {"counts": {k: calls.count(k) for k in ("train", "test", "predict")},
            "loss": [float(v) for v in history.history["loss"]], "evaluate": float(evaluated),
            "predict": np.asarray(predicted)}


def _tf_worker(indices: list[int]) -> dict[int, Any]:
    import tensorflow as tf
    cpu = tf.config.list_physical_devices("CPU")[0]
    tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 2)
    out = {}
    for i in indices:
        tf.keras.backend.clear_session()
        out[i] = program(tf, *CASES[i])
    return out


def _simdist(strategy_kind: str, n: int) -> dict[str, Any]:
    import simdist
    from simdist import tf
    simdist.reset()
    cpu = tf.config.list_physical_devices("CPU")[0]
    tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 2)
    return program(tf, strategy_kind, n)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return tf_workers.spawn(__file__, list(range(len(CASES))))


@pytest.mark.clause("keras.fit.step-replay")
@pytest.mark.parametrize("index", range(len(CASES)), ids=[f"{s}-{n}" for s, n in CASES])
def test_step_python_runs_once_per_trace(index: int, tf_results: dict[int, Any]) -> None:
    strategy_kind, n = CASES[index]
    got, want = _simdist(strategy_kind, n), tf_results[index]
    where = f"{strategy_kind}, {n} examples in batches of 16"
    replicas = 1 if strategy_kind == "default" else 2
    extra = replicas if n % 16 else 0     # the partial batch's own recording (fit and evaluate)
    expected = {"train": want["counts"]["train"] + extra, "test": want["counts"]["test"] + extra,
                "predict": want["counts"]["predict"]}
    assert got["counts"] == expected, \
        f"{where}: the steps' Python ran {got['counts']} times, but should {expected} (TF 2.21: {want['counts']})"
    assert np.allclose(got["loss"], want["loss"], rtol=1e-4, atol=1e-6), \
        f"{where}: epoch losses {got['loss']}, but TF 2.21 {want['loss']}"
    assert np.isclose(got["evaluate"], want["evaluate"], rtol=1e-4, atol=1e-6), \
        f"{where}: evaluate {got['evaluate']}, but TF 2.21 {want['evaluate']}"
    assert np.allclose(got["predict"], want["predict"], rtol=1e-4, atol=1e-5), \
        f"{where}: predict differs from TF 2.21's by {np.max(np.abs(got['predict'] - want['predict'])):.3g}"


if __name__ == "__main__":
    tf_workers.serve(_tf_worker)
