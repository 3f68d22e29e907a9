"""Where TF 2.21 + Keras 3 fail a training program simdist must fail too, measured on real TF.

- fit with steps_per_execution > 1 under MirroredStrategy with two or more replicas raises
  InvalidArgumentError (an unfed placeholder in Keras's multi-step while loop); run_eagerly,
  steps_per_execution 1, evaluate, predict, OneDeviceStrategy and the default strategy run
  (clause keras.fit.spe-mirrored).
- LSTM on an empty replica batch of known size (MirroredStrategy(3), a batch of 4 split
  [2, 2, 0]): Keras's ops.add takes the [0, 4u] recurrent term for a bias, tf.nn.bias_add rejects
  it: InvalidArgumentError eagerly, ValueError in a tf.function and in predict's first call;
  predict retraced with a relaxed batch dimension runs (clauses keras.rnn.empty-batch,
  keras.fit.traced-shapes).
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np
import pytest

import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

# name -> (strategy, what); cases of one strategy kind share a TF process (one MirroredStrategy per context)
# (The failing cases last: a failed multi-step execution leaves TF's collectives broken for later MirroredStrategy
# steps of the process: "different members of the collective op ... Restart your program".)
CASES: dict[str, tuple[str, str]] = {
    "mirrored2-fit-spe1": ("mirrored2", "fit_spe1"),
    "mirrored2-fit-spe2-eager": ("mirrored2", "fit_spe2_eager"),
    "mirrored2-evaluate-spe2": ("mirrored2", "evaluate_spe2"),
    "mirrored2-predict-spe2": ("mirrored2", "predict_spe2"),
    "one_device-fit-spe2": ("one_device", "fit_spe2"),
    "default-fit-spe2": ("default", "fit_spe2"),
    "mirrored2-fit-spe2": ("mirrored2", "fit_spe2"),
    "mirrored2-fit-spe3": ("mirrored2", "fit_spe3"),
    "mirrored3-lstm-ctl-eager": ("mirrored3", "lstm_ctl_eager"),
    "mirrored3-lstm-ctl-function": ("mirrored3", "lstm_ctl_function"),
    "mirrored3-lstm-predict-first": ("mirrored3", "lstm_predict_first"),
    "mirrored3-lstm-predict-retraced": ("mirrored3", "lstm_predict_retraced"),
    "mirrored3-lstm-fit-partial": ("mirrored3", "lstm_fit_partial"),
}
NAMES = list(CASES)


_TF_MIRRORED: dict[str, Any] = {}


def _strategy(tf: Any, kind: str) -> Any:
    if kind == "default":
        return tf.distribute.get_strategy()
    if kind == "one_device":
        return tf.distribute.OneDeviceStrategy("/cpu:0")
    if "simdist" in tf.__name__:   # (a new one per case: simdist.reset() ends the old machine)
        return tf.distribute.MirroredStrategy([f"/cpu:{i}" for i in range(int(kind[-1]))])
    # TF: one MirroredStrategy per process, as the conformance backend does (a second one collides on collective keys)
    if kind not in _TF_MIRRORED:
        _TF_MIRRORED[kind] = tf.distribute.MirroredStrategy([f"/cpu:{i}" for i in range(int(kind[-1]))])
    return _TF_MIRRORED[kind]


def _data(n: int, shape: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    r = np.random.default_rng(29)
    return r.uniform(-1, 1, (n, *shape)).astype(np.float32), r.uniform(-1, 1, (n, 2)).astype(np.float32)


def _build(tf: Any, lstm: bool) -> Any:
    inp = tf.keras.Input((3, 2) if lstm else (4,))
    h = tf.keras.layers.LSTM(3)(inp) if lstm else tf.keras.layers.Dense(3)(inp)
    model = tf.keras.Model(inp, tf.keras.layers.Dense(2)(h))
    r = np.random.default_rng(5)
    for v in model.weights:
        v.assign(r.uniform(-0.6, 0.6, tuple(v.shape)).astype(np.float32))
    return model


def _run(tf: Any, strategy: Any, what: str) -> dict[str, Any]:
    lstm = what.startswith("lstm")
    x, y = _data(18 if not lstm else 8, (3, 2) if lstm else (4,))
    with strategy.scope():
        model = _build(tf, lstm)
        spe = int(what.split("spe")[1][0]) if "spe" in what else 1
        model.compile(tf.keras.optimizers.SGD(0.1), "mse", steps_per_execution=spe, run_eagerly=what.endswith("eager"))
    if what.startswith("fit"):
        hist = model.fit(x, y, batch_size=6, epochs=1, shuffle=False, verbose=0)
        return {"loss": np.asarray(hist.history["loss"]), "weights": [np.asarray(w) for w in model.get_weights()]}
    if what.startswith("evaluate"):
        return {"loss": np.float64(model.evaluate(x, y, batch_size=6, verbose=0))}
    if what.startswith("predict"):
        return {"predict": np.asarray(model.predict(x, batch_size=6, verbose=0))}
    if what == "lstm_fit_partial":   # batches [2, 2, 2] then [1, 1, 0]: fit's step has an unknown batch size
        hist = model.fit(x[:8], y[:8], batch_size=6, epochs=1, shuffle=False, verbose=0)
        return {"loss": np.asarray(hist.history["loss"])}
    if what == "lstm_predict_first":   # one batch of 4: [2, 2, 0] on the first (concrete) trace
        return {"predict": np.asarray(model.predict(x[:4], verbose=0))}
    if what == "lstm_predict_retraced":   # [1, 1, 1], then [1, 1, 0] on a relaxed retrace
        return {"predict": np.asarray(model.predict(x[:5], batch_size=3, verbose=0))}
    dist = strategy.experimental_distribute_dataset(tf.data.Dataset.from_tensor_slices(x).batch(4))
    step = lambda xb: strategy.run(lambda a: model(a, training=True), args=(xb,))   # noqa: E731
    if what == "lstm_ctl_function":
        step = tf.function(step)
    for xb in dist:
        step(xb)
    return {}


def program(tf: Any, name: str) -> dict[str, Any]:
    kind, what = CASES[name]
    tf.keras.backend.clear_session()
    try:
        return {"outcome": "ok", **_run(tf, _strategy(tf, kind), what)}
    except Exception as e:  # noqa: BLE001 - the error class is the observable
        return {"outcome": type(e).__name__, "message": str(e)[-300:]}


def _tf_worker(indices: list[int]) -> dict[int, Any]:
    import tensorflow as tf
    cpu = tf.config.list_physical_devices("CPU")[0]
    tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 3)
    return {i: program(tf, NAMES[i]) for i in indices}


def _simdist(name: str) -> dict[str, Any]:
    import simdist
    from simdist import tf
    simdist.reset()
    cpu = tf.config.list_physical_devices("CPU")[0]
    tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 3)
    return program(tf, name)


@pytest.fixture(scope="module")
def tf_answers() -> dict[int, Any]:
    out: dict[int, Any] = {}
    for kind in ("mirrored2", "mirrored3"):   # (one MirroredStrategy per TF process)
        idx = [i for i, n in enumerate(NAMES) if CASES[n][0] == kind or (kind == "mirrored2" and CASES[n][0] in
                                                                          ("one_device", "default"))]
        out.update(tf_workers.spawn(__file__, idx))
    return out


def _compare(name: str, tf_answers: dict[int, Any]) -> None:
    want, got = tf_answers[NAMES.index(name)], _simdist(name)
    assert got["outcome"] == want["outcome"], \
        f"{name}: {got['outcome']} ({got.get('message', '')[-200:]}), but TF 2.21 gives {want['outcome']} " \
        f"({want.get('message', '')[-200:]})"
    for key in sorted(set(want) - {"outcome", "message"}):
        w, g = want[key], got[key]
        for i, (a, b) in enumerate(zip(np.atleast_1d(g) if key != "weights" else g,
                                       np.atleast_1d(w) if key != "weights" else w)):
            assert np.shape(a) == np.shape(b) and np.allclose(a, b, rtol=1e-5, atol=1e-6), \
                f"{name} {key}[{i}]: {np.ravel(a)[:6]}, but should be {np.ravel(b)[:6]} (TF 2.21)"


@pytest.mark.clause("keras.fit.spe-mirrored")
@pytest.mark.parametrize("name", [n for n in NAMES if not CASES[n][1].startswith("lstm")])
def test_steps_per_execution_under_strategies_as_tf(tf_answers: dict[int, Any], name: str) -> None:
    _compare(name, tf_answers)


@pytest.mark.clause("keras.rnn.empty-batch")
@pytest.mark.parametrize("name", [n for n in NAMES if CASES[n][1].startswith("lstm")])
def test_lstm_on_an_empty_replica_batch_as_tf(tf_answers: dict[int, Any], name: str) -> None:
    _compare(name, tf_answers)


if __name__ == "__main__":
    sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parent.parent))
    tf_workers.serve(_tf_worker)
