"""`tf.experimental.numpy` — clause ops.experimental-numpy (TF 2.21's numpy_ops/np_*.py, read and
run): tnp infers dtypes as NumPy does (NumPy's result_type: a Python float alone is float64, a
Python number beside a tensor is weak), so every expected value and dtype here is NumPy's own on
the same inputs."""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_dtype, assert_equal

clause = pytest.mark.clause

_A = np.array([[1.5, -2.0, 3.25], [4.0, 0.5, -6.0]], np.float32)
_I = np.array([[1, 2, 3], [4, 5, 6]], np.int32)
_N = np.array([1.0, np.nan, 2.0], np.float32)
_W = np.array([1, 2, 3], np.int32)


@clause("ops.experimental-numpy", ref="tf221")
def test_dtype_inference_is_numpys(tf):
    """Python floats are float64, a Python number beside a tensor keeps the tensor's kind
    (NumPy 2's weak scalars), mixed tensors promote as NumPy's result_type."""
    tnp = tf.experimental.numpy
    cases = [
        ("asarray(1.5)", tnp.asarray(1.5), np.asarray(1.5)),
        ("asarray([1, 2])", tnp.asarray([1, 2]), np.asarray([1, 2])),
        ("add(int32, 1.5)", tnp.add(tf.constant(_I), 1.5), np.add(_I, 1.5)),
        ("add(float32, 1.5)", tnp.add(tf.constant(_A), 1.5), np.add(_A, 1.5)),
        ("add(int8, uint8)", tnp.add(tf.constant([1], tf.int8), tf.constant([2], tf.uint8)),
         np.add(np.int8([1]), np.uint8([2]))),
        ("true_divide(int32, int32)", tnp.true_divide(tf.constant(_I), tf.constant(_I)), np.true_divide(_I, _I)),
        ("zeros(2)", tnp.zeros(2), np.zeros(2)),
        ("arange(5)", tnp.arange(5), np.arange(5)),
        ("arange(0.5, 2)", tnp.arange(0.5, 2), np.arange(0.5, 2)),
        ("sum(int32)", tnp.sum(tf.constant(_I)), np.sum(_I)),
        ("mean(int32)", tnp.mean(tf.constant(_I)), np.mean(_I)),
        ("cumsum(int32)", tnp.cumsum(tf.constant(_I)), np.cumsum(_I)),
        ("argsort(float32)", tnp.argsort(tf.constant([3.0, 1.0, 2.0])), np.argsort([3.0, 1.0, 2.0])),
    ]
    for call, got, want in cases:
        assert_dtype(got, want.dtype, call=f"tnp.{call}")
        assert_close(got, want, call=f"tnp.{call}")
    assert_equal(tnp.result_type(tf.constant(1, tf.int8), tf.constant(1, tf.uint8)).name,
                 np.result_type(np.int8, np.uint8).name, call="tnp.result_type(int8, uint8)")
    assert_equal(tnp.float32 is np.float32, True, call="tnp.float32 is np.float32")


@clause("ops.experimental-numpy", ref="tf221")
def test_elementwise_and_reductions_match_numpy(tf):
    tnp = tf.experimental.numpy
    a, i = tf.constant(_A), tf.constant(_I)
    cases = [
        ("exp", tnp.exp(a), np.exp(_A)),
        ("sqrt(abs)", tnp.sqrt(tnp.abs(a)), np.sqrt(np.abs(_A))),
        ("floor_divide", tnp.floor_divide(i, 4), np.floor_divide(_I, 4)),
        ("mod", tnp.mod(i - 3, 4), np.mod(_I - 3, 4)),
        ("power", tnp.power(i, 2), np.power(_I, 2)),
        ("maximum", tnp.maximum(a, 0.75), np.maximum(_A, 0.75)),
        ("clip", tnp.clip(a, -1.0, 2.0), np.clip(_A, -1.0, 2.0)),
        ("sum(axis=1, keepdims)", tnp.sum(a, axis=1, keepdims=True), np.sum(_A, axis=1, keepdims=True)),
        ("prod(axis=0)", tnp.prod(i, axis=0), np.prod(_I, axis=0)),
        ("mean(axis=0)", tnp.mean(i, axis=0), np.mean(_I, axis=0)),
        ("var", tnp.var(a), np.var(_A)),
        ("std(axis=1)", tnp.std(a, axis=1), np.std(_A, axis=1)),
        ("amax(axis=0)", tnp.amax(i, axis=0), np.amax(_I, axis=0)),
        ("ptp", tnp.ptp(i), np.ptp(_I)),
        ("argmax(axis=1)", tnp.argmax(a, axis=1), np.argmax(_A, axis=1)),
        ("cumprod(axis=1)", tnp.cumprod(i, axis=1), np.cumprod(_I, axis=1)),
        ("diff", tnp.diff(i, axis=0), np.diff(_I, axis=0)),
        ("nansum", tnp.nansum(tf.constant(_N)), np.nansum(_N)),
        ("isclose", tnp.isclose(a, a + 1e-9), np.isclose(_A, _A + np.float32(1e-9))),
        ("logical_xor", tnp.logical_xor(i > 2, i < 5), np.logical_xor(_I > 2, _I < 5)),
        ("gcd", tnp.gcd(i, 4), np.gcd(_I, 4)),
    ]
    for call, got, want in cases:
        assert_dtype(got, want.dtype, call=f"tnp.{call}")
        assert_close(got, want, call=f"tnp.{call}")


@clause("ops.experimental-numpy", ref="tf221")
def test_creation_and_shapes_match_numpy(tf):
    tnp = tf.experimental.numpy
    i = tf.constant(_I)
    cases = [
        ("linspace(0, 1, 5)", tnp.linspace(0, 1, 5), np.linspace(0, 1, 5)),
        ("eye(3, 4, k=1)", tnp.eye(3, 4, k=1), np.eye(3, 4, k=1)),
        ("tri(3, k=-1)", tnp.tri(3, k=-1), np.tri(3, k=-1)),
        ("triu(k=1)", tnp.triu(i, k=1), np.triu(_I, k=1)),
        ("full([2, 2], 7)", tnp.full([2, 2], 7), np.full([2, 2], 7)),
        ("diag(int32)", tnp.diag(i, k=1), np.diag(_I, k=1)),
        ("reshape order F", tnp.reshape(i, (3, 2), order="F"), np.reshape(_I, (3, 2), order="F")),
        ("moveaxis", tnp.moveaxis(tnp.reshape(tnp.arange(24), [2, 3, 4]), 0, -1),
         np.moveaxis(np.arange(24).reshape(2, 3, 4), 0, -1)),
        ("concatenate int and float", tnp.concatenate([i, [[0.5, 1.0, 2.0]]]),
         np.concatenate([_I, [[0.5, 1.0, 2.0]]])),
        ("hstack", tnp.hstack([i, i]), np.hstack([_I, _I])),
        ("atleast_3d", tnp.atleast_3d([1, 2]), np.atleast_3d([1, 2])),
        ("flip(axis=1)", tnp.flip(i, 1), np.flip(_I, 1)),
        ("rot90", tnp.rot90(i), np.rot90(_I)),
        ("roll", tnp.roll(i, 2), np.roll(_I, 2)),
        ("tile", tnp.tile(i, [2, 1]), np.tile(_I, [2, 1])),
        ("repeat(axis=0)", tnp.repeat(i, [1, 2], axis=0), np.repeat(_I, [1, 2], axis=0)),
        ("pad reflect", tnp.pad(i, [[1, 0], [0, 2]], "reflect"), np.pad(_I, [[1, 0], [0, 2]], "reflect")),
    ]
    for call, got, want in cases:
        assert_dtype(got, want.dtype, call=f"tnp.{call}")
        assert_equal(got, want, call=f"tnp.{call}")
    parts = tnp.split(tnp.arange(6), [1, 4])
    for k, (got, want) in enumerate(zip(parts, np.split(np.arange(6), [1, 4]))):
        assert_equal(got, want, call="tnp.split(arange(6), [1, 4])", what=f"out[{k}]")


@clause("ops.experimental-numpy", ref="tf221")
def test_indexing_and_products_match_numpy(tf):
    tnp = tf.experimental.numpy
    a, i = tf.constant(_A), tf.constant(_I)
    idx = np.array([[2, 0], [1, 1]])
    cases = [
        ("take(axis=1)", tnp.take(i, [2, 0], axis=1), np.take(_I, [2, 0], axis=1)),
        ("take_along_axis", tnp.take_along_axis(i, idx, 1), np.take_along_axis(_I, idx, 1)),
        ("where", tnp.where(i > 2, i, 0.5), np.where(_I > 2, _I, 0.5)),
        ("sort(axis=0)", tnp.sort(a, axis=0), np.sort(_A, axis=0)),
        ("argsort stable", tnp.argsort([3, 1, 1, 2], kind="stable"), np.argsort([3, 1, 1, 2], kind="stable")),
        ("dot", tnp.dot(i, tf.constant(_W)), np.dot(_I, _W)),
        ("matmul", tnp.matmul(a, tnp.transpose(a)), np.matmul(_A, _A.T)),
        ("tensordot", tnp.tensordot(a, i, 2), np.tensordot(_A, _I, 2)),
        ("outer", tnp.outer([1, 2], [3, 4, 5]), np.outer([1, 2], [3, 4, 5])),
        ("kron", tnp.kron([1, 2], [[1, 10], [100, 1000]]), np.kron([1, 2], [[1, 10], [100, 1000]])),
        ("cross", tnp.cross([1, 2, 3], [4, 5, 6]), np.cross([1, 2, 3], [4, 5, 6])),
        ("einsum", tnp.einsum("ij,kj->ik", a, a), np.einsum("ij,kj->ik", _A, _A)),
        ("vdot", tnp.vdot(i, i), np.vdot(_I, _I)),
    ]
    for call, got, want in cases:
        assert_dtype(got, want.dtype, call=f"tnp.{call}")
        assert_close(got, want, call=f"tnp.{call}")
    rows, cols = tnp.nonzero(i > 3)
    want_r, want_c = np.nonzero(_I > 3)
    assert_equal(rows, want_r, call="tnp.nonzero(i > 3)", what="out[0]")
    assert_equal(cols, want_c, call="tnp.nonzero(i > 3)", what="out[1]")


@clause("ops.experimental-numpy", ref="tf221")
def test_random_shapes_dtypes_and_ranges(tf):
    """tnp.random draws float64 (int64 for randint) of the asked shape within the asked range."""
    tnp = tf.experimental.numpy
    tnp.random.seed(7)
    for call, got, shape, dtype, lo, hi in [
        ("rand(2, 3)", tnp.random.rand(2, 3), (2, 3), np.float64, 0.0, 1.0),
        ("uniform(-2, 5, (4,))", tnp.random.uniform(-2.0, 5.0, (4,)), (4,), np.float64, -2.0, 5.0),
        ("randint(3, 9, 6)", tnp.random.randint(3, 9, 6), (6,), np.int64, 3, 9),
    ]:
        assert_dtype(got, dtype, call=f"tnp.random.{call}")
        assert_equal(np.asarray(got).shape, shape, call=f"tnp.random.{call}", what="out.shape")
        arr = np.asarray(got)
        assert_equal(bool(np.all((arr >= lo) & (arr < hi))), True, call=f"tnp.random.{call}",
                     what=f"all(out in [{lo}, {hi}))")
    assert_dtype(tnp.random.randn(3), np.float64, call="tnp.random.randn(3)")
