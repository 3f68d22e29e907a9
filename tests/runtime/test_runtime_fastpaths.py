"""The facade's hot-path shortcuts give what the general code paths give: values, dtypes,
devices, errors (simdist/runtime: ones/zeros, _shape_arg, _t, reduce_sum, _bin/_operand,
current_device, Transaction.written, ResourceVariable reads and nbytes)."""

from __future__ import annotations

import threading

import numpy as np
import pytest

from simdist import tf
from simdist.runtime import context, dtypes, errors, ops, variables
from simdist.runtime.tensor import Tensor, convert_to_tensor

NUMERIC = [d for d in dtypes.ALL if d is not dtypes.string]


@pytest.mark.parametrize("dt", NUMERIC + [dtypes.string], ids=lambda d: d.name)
def test_ones_zeros_match_numpy(dt):
    if dt is dtypes.string:   # (TF 2.21: ones of a string dtype is constant(1)'s TypeError; zeros is b'')
        with pytest.raises(TypeError, match="Cannot convert 1 to EagerTensor of dtype string"):
            ops.ones([2], dt)
    for shape in ([2, 3], (4,), [], 5, np.int64(3), [np.int32(2), 1], tf.constant([3, 2])):
        want = tuple(np.asarray(shape._v if isinstance(shape, Tensor) else shape).reshape(-1).tolist())
        for fn, ref in ((ops.ones, np.ones), (ops.zeros, np.zeros)):
            if dt is dtypes.string and fn is ops.ones:
                continue
            for dtype in (dt, dt.name):   # a DType and a name
                t = fn(shape, dtype)
                r = ref(want, dtype=dt.np)
                assert t.dtype is dt, f"{fn.__name__}({shape!r}, {dtype!r}).dtype = {t.dtype}, expected {dt}"
                assert t._v.dtype == r.dtype and t._v.shape == r.shape, \
                    f"{fn.__name__}({shape!r}, {dtype!r}): {t._v.dtype}{t._v.shape} != numpy {r.dtype}{r.shape}"
                expect = r.tolist() if dt is not dtypes.string else np.full(want, b"", dtype=object).tolist()
                assert t._v.tolist() == expect, f"{fn.__name__}({shape!r}, {dtype!r}) values differ from numpy"
                assert t._v.flags.c_contiguous and t._v.flags.writeable and t._v.base is None, \
                    f"{fn.__name__}({shape!r}) must give a fresh, writable, C-contiguous array"
                assert t.device == context.current_device(), t.device


def test_ones_errors_match_tf():
    # (TF 2.21, observed: `tf.ones([2, -1])` is Fill's InvalidArgumentError "Dimension -1 must be >= 0
    # [Op:Fill]"; simdist let NumPy's ValueError through until tnp29)
    from simdist.runtime import errors
    with pytest.raises(errors.InvalidArgumentError) as ours:
        ops.ones([2, -1])
    assert "Dimension -1 must be >= 0 [Op:Fill]" in str(ours.value), \
        f"ones([2, -1]) raised {str(ours.value)!r}, but should be Fill's 'Dimension -1 must be >= 0 [Op:Fill]'"
    with pytest.raises(TypeError, match="Cannot convert"):
        ops.ones([2], dtype="float7")   # (no such dtype)
    # (TF 2.21, observed: `tf.ones([2], dtype="qint8")` is [1, 1] of qint8, which simdist has since names41)
    q = ops.ones([2], dtype="qint8")
    assert (q.dtype.name, q.numpy().tolist()) == ("qint8", [1, 1]), \
        f"ones([2], qint8) gave {q.dtype.name} {q.numpy().tolist()}, but TF 2.21 gives qint8 [1, 1]"


def test_shape_arg_list_fast_path_equals_general_path():
    for shape in ([2, 3], (2, 3), [np.int64(2), 3], [True, 2], (), [2.0, 3.9]):
        general = tuple(int(d) for d in shape)
        assert ops._shape_arg(shape) == general, f"_shape_arg({shape!r}) = {ops._shape_arg(shape)}, want {general}"
        assert all(type(d) is int for d in ops._shape_arg(shape)), ops._shape_arg(shape)
    with pytest.raises(TypeError):
        ops._shape_arg([2, None])


def test_t_returns_the_same_tensor_convert_to_tensor_returns():
    t = tf.constant([1.0, 2.0])
    assert ops._t(t) is convert_to_tensor(t) is t
    v = tf.Variable([1.0, 2.0])
    assert ops._t(v).numpy().tolist() == convert_to_tensor(v).numpy().tolist() == [1.0, 2.0]
    assert ops._t(3).dtype is convert_to_tensor(3).dtype is dtypes.int32


def test_reduce_sum_refuses_bool_as_tf():
    with pytest.raises(errors.InvalidArgumentError, match=r"Value for attr 'T' of bool is not in the list of allowed "
                                                           r"values: float, double, int32, .* \[Op:Sum\]"):
        ops.reduce_sum(tf.constant([True, False]))


@pytest.mark.parametrize("dt", [d for d in NUMERIC if d is not dtypes.bool_], ids=lambda d: d.name)
def test_reduce_sum_matches_ndarray_sum(dt):
    arr = (np.arange(24).reshape(2, 3, 4) % 3).astype(dt.np)
    t = Tensor(arr, dt)
    for axis in (None, 0, 1, -1, [0, 2], tf.constant(1)):
        for keepdims in (False, True):
            ax = None if axis is None else tuple(a % 3 for a in np.atleast_1d(np.asarray(
                axis._v if isinstance(axis, Tensor) else axis)).tolist())
            want = np.asarray(arr.sum(axis=ax, dtype=dt.np if dt is not dtypes.bool_ else None,
                                      keepdims=keepdims), dtype=dt.np)
            got = ops.reduce_sum(t, axis=axis, keepdims=keepdims)
            assert got.dtype is dt and got._v.dtype == want.dtype and got._v.shape == want.shape, \
                f"reduce_sum({dt.name}, axis={axis!r}, keepdims={keepdims}): {got._v.dtype}{got._v.shape}"
            assert np.array_equal(got._v, want), f"reduce_sum({dt.name}, axis={axis!r}) = {got._v}, want {want}"
    with pytest.raises(errors.InvalidArgumentError, match=r"Invalid reduction dimension \(3 for input with 3"):
        ops.reduce_sum(t, axis=3)


def test_binary_ops_dtypes_and_errors():
    i8 = tf.constant([1, 2], dtype=tf.int8)
    assert (i8 + 1).dtype is dtypes.int8 and (1 + i8)._v.dtype == np.int8, "python int keeps the tensor's dtype"
    assert (2 - i8).numpy().tolist() == [1, 0], "reflected operands keep their order"
    f = tf.constant(2.0)
    out = f * 0.5
    assert type(out._v) is np.ndarray and out._v.shape == () and out.dtype is dtypes.float32, repr(out)
    v = tf.Variable([1.0, 2.0])
    assert (tf.constant([1.0, 1.0]) + v).numpy().tolist() == [2.0, 3.0], "a variable operand is read"
    with pytest.raises(errors.InvalidArgumentError,
                       match=r"cannot compute AddV2 as input #1\(zero-based\) was expected to be a float tensor "
                             r"but is a int32 tensor \[Op:AddV2\]"):
        tf.constant([1.0]) + tf.Variable([1])
    with pytest.raises(errors.InvalidArgumentError, match=r"Incompatible shapes: \[2\] vs. \[3\] \[Op:Sub\]"):
        [1.0, 2.0] - tf.constant([1.0, 2.0, 3.0])
    s = tf.constant(["a"]) + tf.constant(["b"])
    assert s.dtype is dtypes.string and s._v.tolist() == [b"ab"], repr(s)


def test_current_device_follows_the_context_stack():
    import strategies_helpers
    strategies_helpers.cpus(2)   # (CPU:1 must exist: a device the machine lacks is soft-placed on CPU:0)
    default = context.current_device()
    assert default == context._default_device, default
    with tf.device("/device:CPU:1"):
        inner = context.current_device()
        assert inner.endswith("device:CPU:1"), inner
        assert tf.ones([1]).device == inner and (tf.ones([1]) + 1.0).device == inner
        with tf.device(None):
            assert context.current_device() == default, "tf.device(None) goes back to the default"
        assert context.current_device() == inner, "leaving a nested scope restores the outer device"
    assert context.current_device() == default
    saved = context.snapshot()
    context.adopt(saved + [context.Frame(None, None, "/job:x/device:CPU:0")])
    assert context.current_device() == "/job:x/device:CPU:0", "adopt installs the adopted top frame's device"
    context.adopt(saved)
    assert context.current_device() == default
    context.adopt([])
    assert context.current_device() == default, "an empty stack means the default device"
    context.adopt(saved)
    seen = []
    with tf.device("/device:CPU:1"):
        th = threading.Thread(target=lambda: seen.append(context.current_device()))
        th.start()
        th.join()
    assert seen == [default], f"a new thread starts with the default device, got {seen}"


def test_transaction_written_and_reads():
    a, b = tf.Variable([1.0, 2.0]), tf.Variable(3.0)
    assert isinstance(a.nbytes, int) and a.nbytes == 8 and b.nbytes == 4, (a.nbytes, b.nbytes)
    with variables.transaction() as txn:
        assert a.numpy().tolist() == [1.0, 2.0], "a variable the transaction has not written reads its value"
        b.assign_add(1.0)
        a.assign([5.0, 6.0])
        b.assign_sub(0.5)
        a.assign_add([1.0, 1.0])
        assert txn.written() == [b, a], f"written() lists each variable once, first write first: {txn.written()}"
        assert a.numpy().tolist() == [6.0, 7.0] and float(b.numpy()) == 3.5, "reads see the buffered writes"
        assert (tf.constant(1.0) + b).numpy() == 4.5, "an operand read sees the buffered writes"
    assert float(b.numpy()) == 3.0 and a.numpy().tolist() == [1.0, 2.0], "nothing applied before commit"
    txn.commit()
    assert float(b.numpy()) == 3.5 and a.numpy().tolist() == [6.0, 7.0], "commit applies the writes"
    assert txn.written() == [], txn.written()


@pytest.mark.parametrize("drop", [False, True])
@pytest.mark.parametrize("n,size", [(10, 4), (8, 4), (3, 5), (0, 2)])
def test_batched_slices_equal_stacked_rows(n, size, drop):
    """Batches of from_tensor_slices are row slices: the arrays stacking the rows gives."""
    from simdist.runtime import data
    x = np.arange(n * 6, dtype=np.float32).reshape(n, 2, 3)[:, :, ::2]   # (strided rows)
    y = np.array([f"s{i}" for i in range(n)], dtype=object)
    z = np.arange(n, dtype=np.int64)
    ds = tf.data.Dataset.from_tensor_slices((x, y, z)).batch(size, drop_remainder=drop)
    got = list(ds._iter_flat())
    rows = list(tf.data.Dataset.from_tensor_slices((x, y, z))._iter_flat())
    want = [data._stack(rows[i:i + size]) for i in range(0, len(rows), size)
            if len(rows[i:i + size]) == size or not drop]
    assert len(got) == len(want), f"{len(got)} batches, stacking gives {len(want)} (n={n}, size={size}, drop={drop})"
    for b, (g, w) in enumerate(zip(got, want)):
        for k, (a, r) in enumerate(zip(g, w)):
            assert a.dtype == r.dtype and a.shape == r.shape and a.tolist() == r.tolist(), \
                f"batch {b}, component {k}: {a.dtype}{a.shape} {a.tolist()} != stacked {r.dtype}{r.shape} {r.tolist()}"
            assert a.flags.c_contiguous and a.base is None and not np.shares_memory(a, x), \
                f"batch {b}, component {k}: not a fresh C-contiguous copy"
