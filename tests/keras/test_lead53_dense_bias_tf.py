"""A one-unit Dense's bias, and BiasAddGrad of one channel, bit for bit against TF 2.21 (the fifty-third session,
found by blind53b's probes; clauses keras.layer.forward-and-gradients and ops.sum-order).

Keras 3.15's `ops.add(x, bias)` (keras/src/backend/tensorflow/numpy.py) squeezes the bias's 1s away and takes
tf.nn.bias_add only when exactly one dimension is left: the bias of a one-unit Dense, shape (1,), is added by tf.add
(AddV2), whose gradient sums the batch as the Sum op does. simdist took BiasAdd for it, and its BiasAddGrad of one
channel summed the contiguous column in NumPy's pairwise order, where Eigen reduces the outer axis row by row: the
bias gradient of every regression head was a few ulp off TF's from 8 rows on, and training moved it further. Each
case: a list of [label, [dtype, shape, the values' bits]].
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import tf_programs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _bits(x: Any) -> Any:
    a = np.asarray(x)
    return [str(a.dtype), list(a.shape), a.view(f"u{a.dtype.itemsize}").ravel().tolist()]


def _data(seed: int, shape: tuple, dtype: str = "float32") -> np.ndarray:
    return np.random.default_rng(seed).standard_normal(shape).astype(dtype)


def program(tf: Any, case: dict, workdir: str) -> Any:
    out: list[Any] = []
    if case["name"] == "bias_add_grad_one_channel":
        for k, (shape, dtype) in enumerate([((8, 1), "float32"), ((16, 1), "float32"), ((13, 1), "float32"),
                                            ((40, 1), "float32"), ((9, 1), "float64"), ((24, 1), "float16"),
                                            ((2, 3, 4, 1), "float32"), ((8, 3), "float32")]):
            up = tf.constant(_data(k, shape, dtype))
            h = tf.constant(_data(100 + k, shape, dtype))
            b = tf.Variable(np.zeros(shape[-1], dtype))
            with tf.GradientTape() as t:
                y = tf.reduce_sum(tf.nn.bias_add(h, b) * up)
            out.append([f"bias_add {dtype}{list(shape)}", _bits(t.gradient(y, b))])
    elif case["name"] == "dense_one_unit":
        for n in (8, 16, 33):
            x = tf.constant(_data(n, (n, 3)))
            up = tf.constant(_data(50 + n, (n, 1)))
            d = tf.keras.layers.Dense(1, kernel_initializer="ones", bias_initializer="zeros")
            d.build((None, 3))

            def grads(x: Any = x, up: Any = up, d: Any = d) -> Any:
                with tf.GradientTape() as t:
                    y = tf.reduce_sum(d(x) * up)
                return t.gradient(y, d.bias)

            out.append([f"Dense(1) bias gradient, {n} rows", _bits(grads())])
            out.append([f"Dense(1) bias gradient, {n} rows, tf.function", _bits(tf.function(grads)())])
    return out


NAMES = ["bias_add_grad_one_channel", "dense_one_unit"]
CASES: dict[str, dict] = {n: {"strategy": "default", "name": n} for n in NAMES}


@pytest.fixture(scope="module")
def tf_results(request: Any) -> dict[int, Any]:
    return tf_programs.spawn(__file__, CASES, tf_programs.selected(request, __file__))


@pytest.mark.clause("keras.layer.forward-and-gradients")
@pytest.mark.clause("ops.sum-order")
@pytest.mark.parametrize("index", range(len(NAMES)), ids=NAMES)
def test_dense_bias_as_tf(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    name = NAMES[index]
    got, want = tf_programs.on_simdist(program, CASES[name], str(tmp_path)), tf_results[index]
    assert [g[0] for g in got] == [w[0] for w in want], f"{name}: labels differ"
    for g, w in zip(got, want):
        assert g == w, f"{name}: {w[0]}: simdist gives {g[1]}, TF 2.21 gives {w[1]}"


if __name__ == "__main__":  # TF worker
    tf_workers.serve(tf_programs.worker(CASES, program))
