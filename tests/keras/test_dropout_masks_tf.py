"""Stateless uniform draws and Keras Dropout masks on simdist vs TF 2.21 + Keras 3, bit for bit.

simdist computes TF's Philox4x32-10 words (runtime/ops/philox.py), so `tf.random.stateless_uniform`
(every float and integer dtype), `tf.nn.experimental.stateless_dropout` and Keras's seeded
Dropout (a SeedGenerator's [seed, counter] cast to int32 by floormod) give TF's values exactly:
direct calls, calls in tf.function, fit under the default strategy and under MirroredStrategy(2)
(each replica advances its own copy of the generator state), and a Checkpoint round trip (TF's
Checkpoint does not save the generator state: the restored model starts its masks again).
Clauses ops.stateless-random, nn.dropout-seeding, keras.layer.dropout.
"""

from __future__ import annotations

import os
import sys
import tempfile
from typing import Any

import numpy as np
import pytest

import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

CASES = ("stateless_uniform", "stateless_dropout", "layer_calls", "fit_default", "fit_mirrored2", "checkpoint")


def _np(v: Any) -> np.ndarray:
    a = np.asarray(v.numpy() if hasattr(v, "numpy") else v)
    return a.astype(np.float32) if a.dtype.name == "bfloat16" else a


def _stateless_uniform(tf: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    seeds = {"small": [1, 2], "negative": [-3, 2**31 - 5], "int64": tf.constant([2**40 + 3, -(2**35)], tf.int64)}
    for sname, seed in seeds.items():
        for dt in ("float16", "bfloat16", "float32", "float64"):
            out[f"{sname}/{dt}"] = _np(tf.random.stateless_uniform([3, 5], seed=seed, dtype=getattr(tf, dt)))
        out[f"{sname}/f32_range"] = _np(tf.random.stateless_uniform([7], seed=seed, minval=-2.5, maxval=0.75))
        out[f"{sname}/scalar"] = _np(tf.random.stateless_uniform([], seed=seed))
        out[f"{sname}/int32"] = _np(tf.random.stateless_uniform([9], seed=seed, minval=-7, maxval=1000, dtype=tf.int32))
        out[f"{sname}/int64"] = _np(tf.random.stateless_uniform([5], seed=seed, minval=-5, maxval=2**40,
                                                                dtype=tf.int64))
        for dt in ("int32", "int64"):
            out[f"{sname}/full_{dt}"] = _np(tf.random.stateless_uniform([6], seed=seed, minval=None, maxval=None,
                                                                        dtype=getattr(tf, dt)))
    out["traced"] = _np(tf.function(lambda: tf.random.stateless_uniform([2, 3], seed=[9, 9]))())
    return out


def _stateless_dropout(tf: Any) -> dict[str, Any]:
    x = tf.reshape(tf.range(1.0, 25.0), [4, 6])
    sd = tf.nn.experimental.stateless_dropout
    return {"half": _np(sd(x, 0.5, seed=[7, 3])), "rate_0.3_noise": _np(sd(x, 0.3, seed=[7, 3], noise_shape=[1, 6])),
            "float16": _np(sd(tf.cast(x, tf.float16), 0.25, seed=[0, 11])),
            "float64": _np(sd(tf.cast(x, tf.float64), 0.6, seed=[5, -1]))}


def _layer_calls(tf: Any) -> dict[str, Any]:
    """A seeded Dropout called eagerly, then in a tf.function (each call advances the generator);
    keras.random.dropout with an int seed (the same mask every call)."""
    x = tf.ones([3, 8])
    layer = tf.keras.layers.Dropout(0.4, seed=11)
    out = {f"eager/{i}": _np(layer(x, training=True)) for i in range(2)}
    f = tf.function(lambda v: layer(v, training=True))
    out.update({f"traced/{i}": _np(f(x)) for i in range(2)})
    out["state"] = _np(layer.seed_generator.state)
    out["keras_random"] = _np(tf.keras.random.dropout(x, 0.5, seed=3))
    out["keras_uniform"] = _np(tf.keras.random.uniform([2, 3], seed=4))
    out["noise_shape"] = _np(tf.keras.layers.Dropout(0.5, noise_shape=(None, 1), seed=2)(x, training=True))
    return out


def _model(tf: Any) -> Any:
    inp = tf.keras.Input((4,))
    h = tf.keras.layers.Dense(6, activation="relu")(inp)
    h = tf.keras.layers.Dropout(0.5, seed=7)(h)
    model = tf.keras.Model(inp, tf.keras.layers.Dense(2)(h))
    r = np.random.default_rng(5)
    for v in model.weights:
        v.assign(r.uniform(-0.6, 0.6, tuple(v.shape)).astype(np.float32))
    model.compile(tf.keras.optimizers.SGD(0.1), "mse")
    return model


def _data() -> tuple[np.ndarray, np.ndarray]:
    r = np.random.default_rng(8)
    return r.uniform(-1, 1, (12, 4)).astype(np.float32), r.uniform(-1, 1, (12, 2)).astype(np.float32)


def _fit(tf: Any, strategy: Any) -> dict[str, Any]:
    x, y = _data()
    with strategy.scope():
        model = _model(tf)
    hist = model.fit(x, y, batch_size=4, epochs=2, shuffle=False, verbose=0)
    return {"loss": np.asarray(hist.history["loss"], np.float64),
            "weights": [np.asarray(w) for w in model.get_weights()]}


def _checkpoint(tf: Any) -> dict[str, Any]:
    x, y = _data()
    model = _model(tf)
    model.fit(x, y, batch_size=4, epochs=1, shuffle=False, verbose=0)
    path = tf.train.Checkpoint(model=model).save(os.path.join(tempfile.mkdtemp(), "ck"))
    model2 = _model(tf)
    tf.train.Checkpoint(model=model2).restore(path)
    state = _np(model2.layers[2].seed_generator.state)
    model2.fit(x, y, batch_size=4, epochs=1, shuffle=False, verbose=0)
    return {"restored_state": state, "continued": [np.asarray(w) for w in model2.get_weights()]}


def program(tf: Any, name: str) -> dict[str, Any]:
    tf.keras.backend.clear_session()
    if name == "stateless_uniform":
        return _stateless_uniform(tf)
    if name == "stateless_dropout":
        return _stateless_dropout(tf)
    if name == "layer_calls":
        return _layer_calls(tf)
    if name == "fit_default":
        return _fit(tf, tf.distribute.get_strategy())
    if name == "fit_mirrored2":
        return _fit(tf, tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"]))
    return _checkpoint(tf)


def _tf_worker(indices: list[int]) -> dict[int, Any]:
    import tensorflow as tf
    cpu = tf.config.list_physical_devices("CPU")[0]
    tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 2)
    return {i: program(tf, CASES[i]) for i in indices}


def _simdist(name: str) -> dict[str, Any]:
    import simdist
    from simdist import tf
    simdist.reset()
    cpu = tf.config.list_physical_devices("CPU")[0]
    tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 2)
    return program(tf, name)


def _same_bits(got: dict[str, Any], want: dict[str, Any], what: str) -> None:
    assert sorted(got) == sorted(want), f"{what}: observables {sorted(got)}, but should be {sorted(want)}"
    for k in want:
        g, w = np.asarray(got[k]), np.asarray(want[k])
        assert (g.dtype, g.shape) == (w.dtype, w.shape), f"{what} {k}: {g.dtype}{g.shape}, but should be {w.dtype}{w.shape}"
        assert np.array_equal(g, w), f"{what} {k}: {g.ravel()[:8]}, but should be {w.ravel()[:8]} (TF 2.21)"


@pytest.fixture(scope="module")
def tf_answers() -> dict[int, Any]:
    return tf_workers.spawn(__file__, list(range(len(CASES))))


@pytest.mark.clause("ops.stateless-random")
def test_stateless_uniform_is_tfs_philox(tf_answers: dict[int, Any]) -> None:
    _same_bits(_simdist("stateless_uniform"), tf_answers[0], "stateless_uniform")


@pytest.mark.clause("nn.dropout-seeding")
def test_stateless_dropout_is_tfs(tf_answers: dict[int, Any]) -> None:
    _same_bits(_simdist("stateless_dropout"), tf_answers[1], "stateless_dropout")


@pytest.mark.clause("keras.layer.dropout")
def test_dropout_layer_masks_are_tfs(tf_answers: dict[int, Any]) -> None:
    _same_bits(_simdist("layer_calls"), tf_answers[2], "Dropout(seed=11) calls")


def _close(got: Any, want: Any, what: str) -> None:
    """Trained values: the masks are bit-exact, the matmuls' sums may round differently (rtol 1e-5)."""
    for i, (g, w) in enumerate(zip(got, want)):
        assert np.allclose(g, w, rtol=1e-5, atol=1e-6), f"{what}[{i}]: {np.ravel(g)[:6]}, but should be " \
                                                        f"{np.ravel(w)[:6]} (TF 2.21)"


@pytest.mark.clause("keras.layer.dropout")
@pytest.mark.parametrize("case", ["fit_default", "fit_mirrored2"])
def test_dropout_training_matches_tf(tf_answers: dict[int, Any], case: str) -> None:
    got, want = _simdist(case), tf_answers[CASES.index(case)]
    _close([got["loss"]], [want["loss"]], f"{case} History loss")
    _close(got["weights"], want["weights"], f"{case} weights after 2 epochs")


@pytest.mark.clause("keras.layer.dropout")
def test_checkpoint_does_not_restore_the_seed_generator(tf_answers: dict[int, Any]) -> None:
    got, want = _simdist("checkpoint"), tf_answers[CASES.index("checkpoint")]
    assert np.array_equal(got["restored_state"], want["restored_state"]), \
        f"seed generator state after restore {got['restored_state']}, but should be {want['restored_state']} (TF 2.21)"
    _close(got["continued"], want["continued"], "restored model's weights after one more epoch")


if __name__ == "__main__":
    sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parent.parent))
    tf_workers.serve(_tf_worker)
