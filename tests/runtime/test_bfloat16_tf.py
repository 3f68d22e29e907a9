"""tf.bfloat16 against real TensorFlow 2.21: the same program on bfloat16 tensors (constants,
casts, arithmetic, transcendental functions, matmul, reductions, variables, a gradient) gives the
same dtype and the same bfloat16 values, bit for bit, except where TF's bfloat16 kernels round an
intermediate step (sigmoid, softmax: within one bfloat16 step). Needs the `tf` extra."""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import tf_workers

pytestmark = [pytest.mark.tf, pytest.mark.clause("ops.bfloat16", ref="tf221"),
              tf_workers.tf_or_golden(__file__)]

A = np.array([[1.5, -2.25, 3.0], [0.1, 1e3, -7.7]], np.float32)
B = np.array([[0.3, 2.0, -1.0], [5.0, 0.25, 3.3]], np.float32)


def _grad(tf: Any, x: Any, y: Any) -> Any:
    with tf.GradientTape() as t:
        t.watch(x)
        z = tf.reduce_sum(tf.tanh(x) * y)
    return t.gradient(z, x)


PROGRAMS: list[tuple[str, Callable[[Any, Any, Any], Any]]] = [
    ("add", lambda tf, x, y: x + y), ("sub", lambda tf, x, y: x - y), ("mul", lambda tf, x, y: x * y),
    ("div", lambda tf, x, y: x / y), ("neg", lambda tf, x, y: -x), ("abs", lambda tf, x, y: tf.abs(x)),
    ("exp", lambda tf, x, y: tf.exp(y)), ("log", lambda tf, x, y: tf.math.log(tf.abs(y))),
    ("sqrt", lambda tf, x, y: tf.sqrt(tf.abs(x))), ("square", lambda tf, x, y: tf.square(x)),
    ("tanh", lambda tf, x, y: tf.tanh(x)), ("relu", lambda tf, x, y: tf.nn.relu(x)), ("sin", lambda tf, x, y: tf.sin(x)),
    ("erf", lambda tf, x, y: tf.math.erf(x)), ("pow", lambda tf, x, y: tf.pow(tf.abs(x), y)),
    ("matmul", lambda tf, x, y: tf.matmul(x, y, transpose_b=True)), ("sum", lambda tf, x, y: tf.reduce_sum(x, 1)),
    ("mean", lambda tf, x, y: tf.reduce_mean(x)), ("max", lambda tf, x, y: tf.reduce_max(x, 0)),
    ("cumsum", lambda tf, x, y: tf.cumsum(x, 1)), ("maximum", lambda tf, x, y: tf.maximum(x, y)),
    ("floor", lambda tf, x, y: tf.floor(x)), ("round", lambda tf, x, y: tf.round(x)),
    ("less", lambda tf, x, y: x < y), ("argmax", lambda tf, x, y: tf.argmax(x, 1)),
    ("cast-int32", lambda tf, x, y: tf.cast(x, tf.int32)), ("cast-float16", lambda tf, x, y: tf.cast(x, tf.float16)),
    ("python-scalar", lambda tf, x, y: x + 1.5), ("constant", lambda tf, x, y: tf.constant([1.0, 2.7, 1e-3], tf.bfloat16)),
    ("variable", lambda tf, x, y: tf.Variable(x).read_value()), ("zeros", lambda tf, x, y: tf.zeros([2], tf.bfloat16)),
    ("concat", lambda tf, x, y: tf.concat([x, y], 0)), ("gradient", _grad),
    ("sigmoid", lambda tf, x, y: tf.sigmoid(x)), ("softmax", lambda tf, x, y: tf.nn.softmax(x)),
]
# TF's bfloat16 kernels for these round an intermediate step; simdist rounds the float32 result once.
ONE_STEP = ("sigmoid", "softmax")


def _run(tf: Any, k: int) -> Any:
    x, y = tf.constant(A, tf.bfloat16), tf.cast(tf.constant(B), tf.bfloat16)
    out = PROGRAMS[k][1](tf, x, y)
    return out.dtype.name, np.asarray(out.numpy()).astype(np.float32)


def _tf_worker(indices: list[int]) -> dict[int, Any]:
    import tensorflow as tf
    return {k: _run(tf, k) for k in indices}


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return tf_workers.spawn(__file__, list(range(len(PROGRAMS))))


@pytest.mark.parametrize("k", range(len(PROGRAMS)), ids=[p[0] for p in PROGRAMS])
def test_bfloat16_as_tensorflow(k: int, tf_results: dict[int, Any]) -> None:
    from simdist import tf
    name = PROGRAMS[k][0]
    want_dtype, want = tf_results[k]
    got_dtype, got = _run(tf, k)
    assert got_dtype == want_dtype, f"{name}: dtype {got_dtype}, but TF 2.21 gives {want_dtype}"
    assert got.shape == want.shape, f"{name}: shape {got.shape}, but TF 2.21 gives {want.shape}"
    if name in ONE_STEP:
        step = np.abs(want) * 2.0 ** -7 + 1e-30       # one bfloat16 step (7 mantissa bits)
        assert np.all(np.abs(got - want) <= step), f"{name}: {got.tolist()}, TF 2.21 {want.tolist()} (> one step)"
    else:
        assert np.array_equal(got, want, equal_nan=True), f"{name}: {got.tolist()}, but TF 2.21 gives {want.tolist()}"


def test_bfloat16_dtype_properties() -> None:
    from simdist import tf
    d = tf.bfloat16
    assert (d.name, d.size, d.is_floating, d.is_integer) == ("bfloat16", 2, True, False), \
        f"tf.bfloat16: {(d.name, d.size, d.is_floating, d.is_integer)}, TF: ('bfloat16', 2, True, False)"
    assert float(d.max) == 3.3895313892515355e38 and float(d.min) == -3.3895313892515355e38, (d.min, d.max)
    assert tf.as_dtype("bfloat16") is d and tf.constant([1.0], d).dtype is d


if __name__ == "__main__":  # TF worker: python test_bfloat16_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(_tf_worker)
