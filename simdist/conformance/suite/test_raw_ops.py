"""`tf.raw_ops` — clause ops.raw-ops (TF 2.21 only).

Each test runs on the backend's `tf` alone: a raw op called with its OpDef's keyword arguments
computes what the public function that builds the same op computes (values, dtypes, the op's
gradient, inside a tf.function), returns multi-output ops as a namedtuple of the OpDef's output
names and list outputs as lists, and refuses positional arguments, missing or unknown keywords and
attrs of the wrong type with TypeError. Every raw op simdist implements is compared with TF 2.21's
in tests/ops/test_raw_ops_tf.py.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal, assert_true, raises, to_numpy

clause = pytest.mark.clause

_A = np.array([[1.0, -2.0, 3.0], [0.5, 4.0, -1.5]], np.float32)
_B = np.array([[2.0, 1.0], [-1.0, 0.5], [3.0, -2.0]], np.float32)


@clause("ops.raw-ops", ref="tf221")
def test_raw_ops_compute_the_public_ops(tf):
    a, b = tf.constant(_A), tf.constant(_B)
    pairs = [
        ("MatMul(transpose_a, transpose_b)", tf.raw_ops.MatMul(a=b, b=a, transpose_a=True, transpose_b=True),
         tf.matmul(b, a, transpose_a=True, transpose_b=True)),
        ("Cumsum(exclusive, reverse)", tf.raw_ops.Cumsum(x=a, axis=1, exclusive=True, reverse=True),
         tf.math.cumsum(a, axis=1, exclusive=True, reverse=True)),
        ("Sum(keep_dims)", tf.raw_ops.Sum(input=a, axis=[1], keep_dims=True), tf.reduce_sum(a, axis=1, keepdims=True)),
        ("Max(axis=-1)", tf.raw_ops.Max(input=a, axis=-1), tf.reduce_max(a, axis=-1)),
        ("ConcatV2", tf.raw_ops.ConcatV2(values=[a, a], axis=0), tf.concat([a, a], 0)),
        ("Transpose", tf.raw_ops.Transpose(x=a, perm=[1, 0]), tf.transpose(a)),
        ("Relu", tf.raw_ops.Relu(features=a), tf.nn.relu(a)),
        ("Cast(DstT=int32)", tf.raw_ops.Cast(x=a, DstT=tf.int32), tf.cast(a, tf.int32)),
        ("AddV2(Python inputs)", tf.raw_ops.AddV2(x=[1.0, 2.0], y=0.5), tf.constant([1.5, 2.5])),
    ]
    for call, got, want in pairs:
        assert_equal(got.dtype.name, want.dtype.name, call=call, what="out.dtype")
        assert_close(to_numpy(got), to_numpy(want), call=call)
    u = tf.raw_ops.Unique(x=[3, 1, 3, 2])
    assert_equal(tuple(type(u)._fields), ("y", "idx"), call="Unique", what="type(out)._fields")
    assert_equal(to_numpy(u.y), np.array([3, 1, 2], np.int32), call="Unique", what="out.y")
    assert_equal(to_numpy(u.idx), np.array([0, 1, 0, 2], np.int32), call="Unique", what="out.idx")
    parts = tf.raw_ops.Unpack(value=a, num=3, axis=1)
    assert_true(isinstance(parts, list) and len(parts) == 3, f"Unpack(num=3) gave {type(parts).__name__} of "
                f"{len(parts)}, but should give a list of 3", call="Unpack(num=3, axis=1)")
    assert_equal(to_numpy(parts[2]), _A[:, 2], call="Unpack(num=3, axis=1)", what="out[2]")


@clause("ops.raw-ops", ref="tf221")
def test_raw_ops_take_keyword_arguments_only(tf):
    a = tf.constant(_A)
    with raises(TypeError, match=r"mat_mul only takes keyword args", call="MatMul(a, b) positionally"):
        tf.raw_ops.MatMul(a, a)
    with raises(TypeError, match=re.escape("mat_mul() missing 1 required positional argument: 'b'"),
                call="MatMul(a=a)"):
        tf.raw_ops.MatMul(a=a)
    with raises(TypeError, match=re.escape("mat_mul() got an unexpected keyword argument 'c'"),
                call="MatMul(a=a, b=a, c=1)"):
        tf.raw_ops.MatMul(a=a, b=a, c=1)
    with raises(TypeError, match=re.escape("Expected bool for argument 'transpose_a' not 1."),
                call="MatMul(transpose_a=1)"):
        tf.raw_ops.MatMul(a=a, b=a, transpose_a=1)
    with raises(TypeError, match=re.escape("Expected DataType for argument 'DstT' not 'int3'."),
                call="Cast(DstT='int3')"):
        tf.raw_ops.Cast(x=a, DstT="int3")
    with raises(AttributeError, call="tf.raw_ops.NoSuchOp"):
        tf.raw_ops.NoSuchOp  # noqa: B018 - the lookup is the call under test


@clause("ops.raw-ops", ref="tf221")
def test_raw_ops_differentiate_and_trace_as_their_ops(tf):
    a, b = tf.constant(_A), tf.constant(_B)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(a)
        raw = tf.reduce_sum(tf.raw_ops.MatMul(a=a, b=b) ** 2)
        public = tf.reduce_sum(tf.matmul(a, b) ** 2)
    assert_close(to_numpy(tape.gradient(raw, a)), to_numpy(tape.gradient(public, a)),
                 call="d sum(MatMul(a, b)^2) / da", what="gradient")
    traced = tf.function(lambda x: tf.raw_ops.Cumsum(x=x, axis=0, exclusive=True), autograph=False)
    assert_close(to_numpy(traced(a)), to_numpy(tf.math.cumsum(a, axis=0, exclusive=True)),
                 call="tf.function(Cumsum(exclusive=True))")


@clause("ops.fuzz-raw", ref="tf221")
def test_raw_ops_check_their_opdef_and_kernel_rules(tf):
    """A raw op called outside its OpDef's rules fails as TF's kernel does, not by NumPy's
    broadcasting or a Python error: AddN of two shapes, Abs of a bool (a type outside T's allowed
    values) are InvalidArgumentError; ZerosLike of strings is empty strings (the twentieth
    fuzzer's rules, simdist/runtime/ops/raw_rules.py)."""
    with raises(tf.errors.InvalidArgumentError, call="tf.raw_ops.AddN(inputs=[ones([2]), ones([3])])"):
        tf.raw_ops.AddN(inputs=[tf.ones([2]), tf.ones([3])])
    with raises(tf.errors.InvalidArgumentError, call="tf.raw_ops.Abs(x=constant([True]))"):
        tf.raw_ops.Abs(x=tf.constant([True]))
    z = tf.raw_ops.ZerosLike(x=tf.constant(["a", "bc"]))
    assert_equal(z.dtype.name, "string", call="ZerosLike(strings).dtype")
    assert_equal(to_numpy(z).tolist(), [b"", b""], call="ZerosLike(x=[\"a\", \"bc\"])")
