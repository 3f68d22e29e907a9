"""softmax_cross_entropy_with_logits of the half types (clause nn.loss-formulas): TF 2.21's nn_ops casts float16 AND
bfloat16 logits to float32 (`convert_to_float32`), runs the float32 kernel and casts the cost back, while the sparse
form converts float16 only (bfloat16 runs its own kernel). simdist converted float16 only, so a bfloat16 loss and its
gradient were the bfloat16 kernel's: 31 of 40 seeded cases differed (/work/wt/lead58_logs/p_xent.py; fz54b seeds
57103 #3 and 57104 #7). Cases: losses and logits/labels gradients eagerly, inside a tf.function, along axis 0, and
the sparse form, in bfloat16 and float16, as float32 bit patterns. Its golden (tests/goldens/) is stamped with this
file."""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import numpy as np
import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _bits(t: Any, tf: Any) -> list:
    return np.asarray(tf.cast(t, tf.float32).numpy(), np.float32).view(np.uint32).ravel().tolist()


def _inputs(seed: int, rows: int, classes: int) -> tuple[np.ndarray, np.ndarray]:
    r = np.random.RandomState(seed)
    logits = (r.randn(rows, classes) * r.choice([1.0, 10.0, 100.0])).astype(np.float32)
    labels = r.rand(rows, classes).astype(np.float32)
    return logits, labels / labels.sum(1, keepdims=True) if seed % 2 else labels


def _dense(seed: int, rows: int, classes: int, dtype: str, mode: str) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        lg, lb = _inputs(seed, rows, classes)
        axis = 0 if mode == "axis0" else -1
        if axis == 0:
            lg, lb = lg.T.copy(), lb.T.copy()
        logits, labels = tf.constant(lg, dtype), tf.constant(lb, dtype)

        def loss_and_grads(logits: Any, labels: Any) -> Any:
            with tf.GradientTape() as tape:
                tape.watch([logits, labels])
                z = tf.nn.softmax_cross_entropy_with_logits(labels=labels, logits=logits, axis=axis)
            return (z,) + tuple(tape.gradient(z, [logits, labels]))
        f = tf.function(loss_and_grads) if mode == "traced" else loss_and_grads
        return [z.dtype.name] + [_bits(v, tf) for v in f(logits, labels)]
    return run


def _sparse(seed: int, rows: int, classes: int, dtype: str) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        lg, _ = _inputs(seed, rows, classes)
        ids = np.random.RandomState(seed + 100).randint(0, classes, rows).astype(np.int32)
        logits = tf.constant(lg, dtype)
        with tf.GradientTape() as tape:
            tape.watch(logits)
            z = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=tf.constant(ids), logits=logits)
        return [z.dtype.name, _bits(z, tf), _bits(tape.gradient(z, logits), tf)]
    return run


def _cases() -> dict[str, Callable[[Any], Any]]:
    c: dict[str, Callable[[Any], Any]] = {}
    for dtype in ("bfloat16", "float16"):
        for seed, rows, classes in ((0, 3, 2), (1, 2, 5), (2, 1, 9), (3, 4, 17), (4, 2, 3)):
            for mode in ("eager", "traced", "axis0"):
                c[f"dense/{dtype}/s{seed}-{rows}x{classes}/{mode}"] = _dense(seed, rows, classes, dtype, mode)
            c[f"sparse/{dtype}/s{seed}-{rows}x{classes}"] = _sparse(seed, rows, classes, dtype)
    return c


TABLE = case_results.Table(__file__, _cases(), re.compile(r"(xent_half58_auto_)\d+"))   # (no auto-named objects)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("nn.loss-formulas")
def test_half_cross_entropy_as_tf(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: True)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)
