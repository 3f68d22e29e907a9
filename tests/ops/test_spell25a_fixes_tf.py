"""Two rules the spelling sweep 25 (spell25a) found simdist breaking, against real TensorFlow 2.21:

- tf.random.truncated_normal with a tensor or NumPy-array mean/stddev is random_ops' `rnd * stddev + mean`
  (broadcast against the draw, and differentiable in both), as tf.random.normal's: simdist converted them
  with float() (TypeError for an array, no gradient for a tensor);
- a tf.function binds the defaults of the parameters a call leaves out into its arguments (FunctionType
  canonicalization), so a NumPy default reaches the Python as a tensor of its dtype, like a NumPy argument
  passed explicitly: simdist passed the NumPy value itself (a float64 default used as a float32 op's bound is
  TF's ValueError; a Python default stays a Python value);
- a non-persistent tape's jacobian or batch_jacobian asked inside its `with` block stops its recording, as
  `gradient` does (TF's jacobian calls gradient): simdist left the released tape on the thread's tape stack,
  so every later op was recorded and a later tf.function's branches ran their Python on every call.

Values, dtypes, shapes and error classes compared case by case (case_results.Table). Needs the `tf` extra.
"""

from __future__ import annotations

import os
import re
from typing import Any

import numpy as np
import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

_M = np.array([1.0, -3.0, 0.5], np.float32)
_S = np.array([0.5, 2.0, 1.5], np.float32)


def _truncated(mean: Any, stddev: Any) -> Any:
    def case(tf: Any) -> Any:
        tf.random.set_seed(3)
        m = mean(tf) if callable(mean) else mean
        s = stddev(tf) if callable(stddev) else stddev
        return tf.random.truncated_normal([2, 3], mean=m, stddev=s, seed=2)
    return case


def _truncated_gradient(shape: tuple) -> Any:
    def case(tf: Any) -> Any:
        tf.random.set_seed(3)
        m = tf.constant(np.resize(_M, shape))
        s = tf.constant(np.resize(_S, shape))
        with tf.GradientTape() as tape:
            tape.watch([m, s])
            y = tf.random.truncated_normal([2, 3], mean=m, stddev=s, seed=2)
            loss = tf.reduce_sum(y * tf.constant([[1.0, -2.0, 0.5], [3.0, 0.25, -1.0]]))
        return [y, *tape.gradient(loss, [m, s])]
    return case


def _default_types(tf: Any) -> Any:
    @tf.function
    def f(x=np.float64(2.0), y=np.array([3.0, 4.0], np.float32), z=2.5, w=(np.int32(3), 1.5)):
        return [x * 2, tf.constant(x.dtype.name), y + 1, tf.constant(isinstance(z, tf.Tensor)), w[0] + 1,
                tf.constant(isinstance(w[1], tf.Tensor))]
    return [f(), f(np.float32(1.0)), f(z=np.float32(0.5))]


def _default_as_float32_bound(tf: Any) -> Any:
    @tf.function
    def f(lo=np.array(-2.0)):
        return tf.random.uniform([2], minval=lo, maxval=5.0, seed=1)
    try:
        return f()
    except Exception as e:  # noqa: BLE001 - the class is the result (AutoGraph's message frames differ)
        return type(e).__name__


def _default_keyword_only(tf: Any) -> Any:
    @tf.function
    def f(x, *, scale=np.float64(3.0)):
        return x * tf.cast(scale, tf.float32), tf.constant(isinstance(scale, tf.Tensor))
    return [f(tf.constant([1.0, 2.0])), f(tf.constant([1.0, 2.0]), scale=2.0)]


def _jacobian_inside(kind: str) -> Any:
    def case(tf: Any) -> Any:
        runs = []

        @tf.function
        def f(t):
            def yes():
                runs.append("true")
                return t * 2.0

            def no():
                runs.append("false")
                return t
            return tf.cond(tf.reduce_sum(t) > 0, yes, no)

        x = tf.constant([[1.0, 2.0], [3.0, -1.0]])
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = x * x
            jac = tape.jacobian(y, x) if kind == "jacobian" else tape.batch_jacobian(y, x)
            after = x * 3.0     # (not recorded: the tape stopped)
        out = [jac, f(x), f(x + 1.0), f(x - 1.0)]
        try:
            tape.gradient(after, x)
        except RuntimeError as e:
            out.append(type(e).__name__)
        with tf.GradientTape() as t2:
            t2.watch(x)
            z = tf.reduce_sum(x * x * x)
        return out + [t2.gradient(z, x), runs]
    return case


CASES = {
    "truncated_normal/mean ndarray (3,), stddev ndarray (3,)": _truncated(_M, _S),
    "truncated_normal/mean tensor (3,), stddev float": _truncated(lambda tf: tf.constant(_M), 2.0),
    "truncated_normal/mean 0-d tensor, stddev 0-d tensor": _truncated(lambda tf: tf.constant(1.5),
                                                                      lambda tf: tf.constant(0.5)),
    "truncated_normal/mean float, stddev ndarray (2, 1)": _truncated(0.5, np.array([[1.0], [3.0]], np.float32)),
    "truncated_normal/gradient in 0-d tensors": _truncated_gradient(()),
    "truncated_normal/gradient in (3,) tensors": _truncated_gradient((3,)),
    "function/NumPy defaults are tensors, Python defaults stay": _default_types,
    "function/a float64 NumPy default as a float32 bound": _default_as_float32_bound,
    "function/a keyword-only NumPy default": _default_keyword_only,
    "tape/jacobian inside a non-persistent tape's block": _jacobian_inside("jacobian"),
    "tape/batch_jacobian inside a non-persistent tape's block": _jacobian_inside("batch_jacobian"),
}

TABLE = case_results.Table(__file__, CASES, re.compile(r"(?!)()"))


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("ops.random-ranges")
def test_truncated_normal_tensor_and_array_moments_match_tf(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: lab.startswith("truncated_normal/"))


@pytest.mark.clause("function.symbolic-tensors")
def test_function_numpy_defaults_are_tensors_as_on_tf(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: lab.startswith("function/"))


@pytest.mark.clause("autodiff.jacobian")
def test_jacobian_inside_a_non_persistent_tape_stops_its_recording(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: lab.startswith("tape/"))


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)
