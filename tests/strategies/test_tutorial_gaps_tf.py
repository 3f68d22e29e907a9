"""Differential tests of behaviours the TF tutorials (docs/examples/tutorial_*.py) rely on beyond
the Keras layers: simdist vs TF 2.21 + Keras 3.15.1.

* checkpoint.latest: `Checkpoint.save` records the checkpoint in the directory's `checkpoint`
  state file, `tf.train.latest_checkpoint` finds it, `restore(None)` restores nothing and its
  assertions fail (the custom-training tutorial restores `latest_checkpoint(dir)`);
* optim.floatx: under `keras.backend.set_floatx("float64")` an optimizer's learning rate and
  its slots are float64, and Python hyperparameters are cast through float32 as Keras's TF
  backend casts them (Adam's beta_1 = 0.8999999761581421), so float64 training is TF's to
  within float64 rounding;
* autodiff.concat-slices: the gradient of a gather from a concatenation stays IndexedSlices per
  input (TF's _ConcatGradHelper), as for the shards of a ShardedVariable.

Each case is a program run on both backends (TF in one subprocess). Compared: float32 within
rtol 1e-5, float64 within rtol 1e-12 (both with an absolute floor scaled by the array's
magnitude); everything else exactly.
"""

from __future__ import annotations

import os
import re
import sys
import tempfile
from typing import Any, Callable

import numpy as np
import pytest

import tf_workers
from diff_helpers import compare_with_tf

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _try(fn: Callable[[], Any]) -> Any:
    try:
        return ("ok", fn())
    except Exception as e:  # noqa: BLE001 - the error is the result
        return ("raised", type(e).__name__, re.sub(r"/tmp/\S+", "<tmp>", str(e)))


def prog_checkpoint_latest(tf: Any) -> Any:
    d = tempfile.mkdtemp()
    out: dict[str, Any] = {"empty dir": tf.train.latest_checkpoint(d)}
    v = tf.Variable([1.0, 2.0])
    ckpt = tf.train.Checkpoint(v=v)
    prefix = os.path.join(d, "ckpt")
    first = ckpt.save(prefix)
    v.assign([3.0, 4.0])
    second = ckpt.save(prefix)
    out["saved"] = [os.path.basename(first), os.path.basename(second)]
    latest = tf.train.latest_checkpoint(d)
    out["latest"] = os.path.relpath(latest, d) if latest else None
    with open(os.path.join(d, "checkpoint"), encoding="utf-8") as f:
        out["state file paths"] = [line for line in f.read().splitlines() if "checkpoint_path" in line]
    v.assign([0.0, 0.0])
    tf.train.Checkpoint(v=v).restore(latest).assert_consumed()
    out["restored"] = np.asarray(v.numpy())
    status = tf.train.Checkpoint(v=v).restore(None)
    out["restore(None) assert_consumed"] = _try(status.assert_consumed)
    out["restore(None) assert_existing_objects_matched"] = _try(status.assert_existing_objects_matched)
    out["after restore(None)"] = np.asarray(v.numpy())
    sub = os.path.join(d, "sub")
    ckpt2 = tf.train.Checkpoint(v=v)
    ckpt2.save(os.path.join(sub, "model"))
    out["other dir"] = os.path.relpath(tf.train.latest_checkpoint(sub), d)
    out["first dir unchanged"] = os.path.relpath(tf.train.latest_checkpoint(d), d)
    return out


def prog_adam_float64(tf: Any) -> Any:
    keras = tf.keras
    keras.backend.clear_session()
    keras.backend.set_floatx("float64")
    try:
        model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(4, activation="tanh"), keras.layers.Dense(1)])
        rng = np.random.default_rng(3)
        model.set_weights([rng.standard_normal(w.shape) * 0.5 for w in model.get_weights()])
        out: dict[str, Any] = {}
        for name, opt in (("adam", keras.optimizers.Adam(0.01)), ("sgd", keras.optimizers.SGD(0.1, momentum=0.9)),
                          ("rmsprop", keras.optimizers.RMSprop(0.01))):
            opt.build(model.trainable_variables)
            out[f"{name} variables"] = [(v.path, v.dtype) for v in opt.variables]
            x = rng.standard_normal((5, 3))
            for _ in range(3):
                with tf.GradientTape() as tape:
                    loss = tf.reduce_mean(tf.square(model(x)))
                grads = tape.gradient(loss, model.trainable_variables)
                opt.apply_gradients(zip(grads, model.trainable_variables))
            out[f"{name} weights"] = [np.asarray(w) for w in model.get_weights()]
        keras.backend.set_floatx("float32")
        out["layer dtype after set_floatx(float32)"] = keras.layers.Dense(1).dtype_policy.name   # cached policy
        keras.backend.clear_session()
        out["layer dtype after clear_session"] = keras.layers.Dense(1).dtype_policy.name
        return out
    finally:
        keras.backend.set_floatx("float32")
        keras.backend.clear_session()   # (forgets the float64 global dtype policy the layers cached)


def _slices(tf: Any, g: Any) -> Any:
    if type(g).__name__ == "IndexedSlices":
        return ("IndexedSlices", np.asarray(g.indices.numpy()), np.asarray(g.values.numpy()),
                np.asarray(tf.convert_to_tensor(g.dense_shape).numpy()))
    return ("Tensor", np.asarray(g.numpy()))


def prog_concat_slices(tf: Any) -> Any:
    a = tf.Variable(np.arange(6.0, dtype=np.float32).reshape(3, 2))
    b = tf.Variable(np.arange(8.0, dtype=np.float32).reshape(4, 2) + 10)
    c = tf.Variable(np.arange(3.0, dtype=np.float32).reshape(3, 1) + 20)
    out = {}
    for name, idx in (("rows", [0, 4, 6, 4]), ("one input", [1, 1]), ("int64", np.array([5, 2], np.int64))):
        with tf.GradientTape() as tape:
            y = tf.gather(tf.concat([a, b], 0), idx)
            loss = tf.reduce_sum(y * tf.constant([1.0, 3.0]))
        out[f"axis 0 {name}"] = [_slices(tf, g) for g in tape.gradient(loss, [a, b])]
    with tf.GradientTape() as tape:
        y = tf.gather(tf.concat([a, c], 1), [2, 0, 2])
        loss = tf.reduce_sum(y * tf.constant([1.0, 2.0, 5.0]))
    out["axis 1"] = [_slices(tf, g) for g in tape.gradient(loss, [a, c])]
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.gather(tf.concat([a, b, a], 0), [9, 0, 3]))
    out["three inputs, one repeated"] = [_slices(tf, g) for g in tape.gradient(loss, [a, b])]
    return out


PROGRAMS: dict[str, Callable[[Any], Any]] = {"checkpoint_latest": prog_checkpoint_latest,
                                             "adam_float64": prog_adam_float64, "concat_slices": prog_concat_slices}
NAMES = list(PROGRAMS)
clause = pytest.mark.clause


def _tf_worker(indices: list[int]) -> dict[int, Any]:
    import tensorflow as tf
    out = {}
    for i in indices:
        try:
            out[i] = PROGRAMS[NAMES[i]](tf)
        except Exception as e:  # noqa: BLE001 - reported by the test
            out[i] = {"worker_error": f"{type(e).__name__}: {e}"}
    return out


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return tf_workers.spawn(__file__, list(range(len(NAMES))))


def _compare(got: Any, want: Any, where: str) -> None:
    compare_with_tf(got, want, where, rtol=1e-5, atol_scale=0.1, rtol64=1e-12)


def test_every_program_is_a_case() -> None:
    (mark,) = [m for m in test_matches_tf.pytestmark if m.name == "parametrize"]
    assert [p.values[0] for p in mark.args[1]] == NAMES


@pytest.mark.parametrize("name", [
    pytest.param("checkpoint_latest", marks=clause("checkpoint.latest")),
    pytest.param("adam_float64", marks=clause("optim.floatx")),
    pytest.param("concat_slices", marks=clause("autodiff.concat-slices")),
])
def test_matches_tf(name: str, tf_results: dict[int, Any]) -> None:
    import simdist
    from simdist import tf
    want = tf_results[NAMES.index(name)]
    assert not (isinstance(want, dict) and "worker_error" in want), f"{name}: the TF program failed: {want}"
    simdist.reset()
    try:
        got = PROGRAMS[name](tf)
    finally:
        simdist.reset()
    _compare(got, want, name)


if __name__ == "__main__":
    tf_workers.serve(_tf_worker)
