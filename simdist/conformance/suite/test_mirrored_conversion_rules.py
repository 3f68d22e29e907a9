"""A MirroredVariable given to a generated op in a replica — clause ops.conversion (TF 2.21 only).

A distributed variable is not an eager tensor, so TF's fast path gives up and the op's eager
fallback converts it with the dtype the op wants (values.py `_dense_var_to_tensor`): the dtype an
earlier operand fixed (args_to_matching_eager), or the input's fixed dtype (bool for the logical
ops and Any/All). Another dtype is ValueError "Incompatible type conversion requested to type ...";
a plain Variable takes the fast path and meets the kernel's InvalidArgumentError instead.
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import raises

clause = pytest.mark.clause


def _cases(tf, vi, vf, vb):
    return [
        ("logical_and(int64 var, bool var)", lambda: tf.logical_and(vi, vb)),
        ("logical_not(int64 var)", lambda: tf.logical_not(vi)),
        ("reduce_any(float32 var)", lambda: tf.reduce_any(vf)),
        ("maximum(int64 var, float32 var)", lambda: tf.maximum(vi, vf)),
        ("concat([float32 var, int64 var])", lambda: tf.concat([vf, vi], 0)),
        ("equal(float32 var, int64 var)", lambda: tf.equal(vf, vi)),
    ]


@clause("ops.conversion", ref="tf221")
def test_mirrored_variable_of_another_dtype_is_value_error_in_a_replica(backend, tf):
    s = backend.make_strategy("mirrored", 2)
    with s.scope():
        vi = tf.Variable(np.array([1, -2], np.int64))
        vf = tf.Variable([1.0, 2.0])
        vb = tf.Variable([True, False])
    # (realdiv too, fz16d: a plain int64 variable there is the missing kernel's NotFoundError instead)
    realdiv = ("realdiv(int64 var, uint8 tensor)", lambda: tf.realdiv(vi, tf.constant([0, 1], tf.uint8)))
    for call, fn in _cases(tf, vi, vf, vb) + [realdiv]:
        with raises(ValueError, call=f"strategy.run({call})", match="Incompatible type conversion requested"):
            s.run(fn)


@clause("ops.conversion", ref="tf221")
def test_plain_variable_of_another_dtype_is_the_kernels_error(tf):
    vi = tf.Variable(np.array([1, -2], np.int64))
    vf = tf.Variable([1.0, 2.0])
    vb = tf.Variable([True, False])
    for call, fn in _cases(tf, vi, vf, vb):
        with raises(tf.errors.InvalidArgumentError, call=call):
            fn()
