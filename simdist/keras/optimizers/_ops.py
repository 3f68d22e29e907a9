"""The Keras ops the optimizers use, with Keras 3's TensorFlow-backend semantics, on `simdist.tf`.

Keras's TF backend (keras/src/backend/tensorflow/numpy.py and sparse.py) gives Python numbers
the other operand's dtype (weak typing) and handles `tf.IndexedSlices` operands by rules that
decide which optimizer updates stay sparse:
- zero-preserving unary ops (square, sqrt) map the slices' values;
- add/subtract/maximum with a dense operand densify the slices (the result is dense);
- multiply keeps the slices, gathering a dense operand's rows at the slices' indices;
- divide keeps the slices for a scalar or dense divisor; if a dense divisor has zero or NaN rows,
  those rows join the result (their quotients are inf/NaN, as dense division gives them) through
  Keras's union of indices, which sums a repeated index's positions (see `_union_rows`).
So `m.assign_add((g - m) * c)` is dense, `v.assign_add(square(g))` is a scatter_add of the
squared rows (repeated rows square then add), `var.assign_sub(g * lr)` a scatter_sub.
"""

from __future__ import annotations

from typing import Any, Callable

from simdist import tf
from simdist.keras import dtype_promotion

IndexedSlices = tf.IndexedSlices


def _is_py(x: Any) -> bool:
    return isinstance(x, (bool, int, float)) and not hasattr(x, "dtype")


def convert_to_tensor(x: Any, dtype: Any = None) -> Any:
    """A tensor (slices become dense: their rows added into zeros of their dense shape)."""
    if dtype is None:
        return tf.convert_to_tensor(x)
    dtype = tf.as_dtype(dtype)
    if _is_py(x):
        return tf.constant(x, dtype=dtype)
    t = tf.convert_to_tensor(x)
    return t if t.dtype == dtype else tf.cast(t, dtype)


def cast(x: Any, dtype: Any) -> Any:
    """`ops.cast`: slices keep their indices (tf.cast casts their values). A Python number goes
    through `tf.cast` as in Keras's TF backend: a float becomes float32 first, so
    `cast(0.9, "float64")` is 0.8999999761581421, as on TF."""
    dtype = tf.as_dtype(dtype)
    if isinstance(x, IndexedSlices):
        return IndexedSlices(cast(x.values, dtype), x.indices, x.dense_shape)
    if _is_py(x):
        return tf.cast(x, dtype)
    x = tf.convert_to_tensor(x)
    return x if x.dtype == dtype else tf.cast(x, dtype)


def _result_dtype(a: Any, b: Any) -> Any:
    """Keras's result_type for two tensors (simdist/keras/dtype_promotion.py)."""
    if a.dtype == b.dtype:
        return a.dtype
    return tf.as_dtype(dtype_promotion.result_type(a.dtype, b.dtype))


def _pair(x1: Any, x2: Any) -> tuple[Any, Any]:
    """Both operands as tensors of one dtype (Keras's promotion)."""
    if _is_py(x1) and _is_py(x2):
        x1 = tf.convert_to_tensor(x1)
    if _is_py(x1):
        t2 = tf.convert_to_tensor(x2)
        if isinstance(x1, float) and not t2.dtype.is_floating:
            t2 = tf.cast(t2, tf.float32)
        return tf.constant(x1, dtype=t2.dtype), t2
    t1 = tf.convert_to_tensor(x1)
    if _is_py(x2):
        if isinstance(x2, float) and not t1.dtype.is_floating:
            t1 = tf.cast(t1, tf.float32)
        return t1, tf.constant(x2, dtype=t1.dtype)
    t2 = tf.convert_to_tensor(x2)
    dt = _result_dtype(t1, t2)
    return (t1 if t1.dtype == dt else tf.cast(t1, dt)), (t2 if t2.dtype == dt else tf.cast(t2, dt))


def _dense_binary(fn: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any]:
    def op(x1: Any, x2: Any) -> Any:
        a, b = _pair(x1, x2)
        return fn(a, b)
    return op


_add, _sub, _mul, _div = (_dense_binary(tf.add), _dense_binary(tf.subtract), _dense_binary(tf.multiply),
                          _dense_binary(tf.divide))
_max, _min, _pow = _dense_binary(tf.maximum), _dense_binary(tf.minimum), _dense_binary(tf.pow)


def _is_scalar(x: Any) -> bool:
    return _is_py(x) or len(getattr(x, "shape", ())) == 0


def _union(fn: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any]:
    """sparse.elementwise_binary_union: slices with the same indices stay slices; with a dense
    operand they are densified."""
    def op(x1: Any, x2: Any) -> Any:
        if isinstance(x1, IndexedSlices) and isinstance(x2, IndexedSlices) and x1.indices is x2.indices:
            return IndexedSlices(fn(x1.values, x2.values), x1.indices, x1.dense_shape)
        if isinstance(x1, IndexedSlices):
            x1 = tf.convert_to_tensor(x1)
        if isinstance(x2, IndexedSlices):
            x2 = tf.convert_to_tensor(x2)
        return fn(x1, x2)
    return op


add, subtract, maximum = _union(_add), _union(_sub), _union(_max)


def minimum(x1: Any, x2: Any) -> Any:
    return _min(convert_to_tensor(x1) if isinstance(x1, IndexedSlices) else x1,
                convert_to_tensor(x2) if isinstance(x2, IndexedSlices) else x2)


def multiply(x1: Any, x2: Any) -> Any:
    """sparse.elementwise_binary_intersection: slices times a scalar or a dense tensor stay slices."""
    if isinstance(x1, IndexedSlices) and isinstance(x2, IndexedSlices) and x1.indices is x2.indices:
        return IndexedSlices(_mul(x1.values, x2.values), x1.indices, x1.dense_shape)
    if isinstance(x1, IndexedSlices) and not isinstance(x2, IndexedSlices):
        other = x2 if _is_scalar(x2) else tf.gather(x2, x1.indices)
        return IndexedSlices(_mul(x1.values, other), x1.indices, x1.dense_shape)
    if isinstance(x2, IndexedSlices) and not isinstance(x1, IndexedSlices):
        other = x1 if _is_scalar(x1) else tf.gather(x1, x2.indices)
        return IndexedSlices(_mul(other, x2.values), x2.indices, x2.dense_shape)
    return _mul(convert_to_tensor(x1) if isinstance(x1, IndexedSlices) else x1,
                convert_to_tensor(x2) if isinstance(x2, IndexedSlices) else x2)


def divide(x1: Any, x2: Any) -> Any:
    """sparse.elementwise_division: a dense divisor's zero or NaN rows join the slices' indices (Keras 3.15's
    tf.cond on any such row). Both of the cond's results are computed by TF ops and the taken one kept by a mask
    (`_taken`), so a recorded train step replays them on the replay's values: a cond in a strategy's update is not
    recorded, and reading the divisor in Python stopped the step's recording (kfuzz53's attempt, kfuzz54: with the
    recorder's aliases carrying their source's graph-constant mark, keras.fit.step-replay)."""
    if isinstance(x2, IndexedSlices):
        x1 = convert_to_tensor(x1) if isinstance(x1, IndexedSlices) else x1
        return _div(x1, tf.convert_to_tensor(x2))
    if not isinstance(x1, IndexedSlices):
        return _div(x1, x2)
    if _is_scalar(x2):
        return IndexedSlices(_div(x1.values, x2), x1.indices, x1.dense_shape)
    d = tf.convert_to_tensor(x2)
    bad = tf.equal(d, tf.zeros_like(d))
    if d.dtype.is_floating:
        bad = tf.math.logical_or(bad, tf.math.is_nan(d))
    if d.shape.rank > 1:
        bad = tf.reduce_any(bad, axis=tuple(range(1, d.shape.rank)))
    any_bad = tf.reduce_any(bad)
    union, union_values = _union_rows(x1, tf.squeeze(tf.where(bad), axis=-1), any_bad)
    indices = _taken(any_bad, union, tf.cast(x1.indices, tf.int64))
    values = _taken(any_bad, union_values, x1.values)
    if x1.indices.dtype != tf.int64:
        indices = tf.cast(indices, x1.indices.dtype)
    return IndexedSlices(_div(values, tf.gather(d, indices)), indices, x1.dense_shape)


def _taken(pred: Any, if_true: Any, if_false: Any) -> Any:
    """tf.cond(pred, if_true, if_false) of two computed results whose first dimensions may differ: the rows of the
    taken one, by a boolean mask over both (a recorded call replays it on the replay's predicate)."""
    mask = tf.concat([tf.math.logical_and(_rows_true(if_true), pred),
                      tf.math.logical_and(_rows_true(if_false), tf.math.logical_not(pred))], axis=0)
    return tf.boolean_mask(tf.concat([if_true, tf.cast(if_false, if_true.dtype)], axis=0), mask)


def _rows_true(t: Any) -> Any:
    """A bool vector of True per row of t (by ones_like: no shape tensor read in Python)."""
    ones = tf.ones_like(t, dtype=tf.bool)
    return tf.reduce_all(ones, axis=list(range(1, t.shape.rank))) if t.shape.rank > 1 else ones


def _union_rows(x: Any, rows: Any, taken: Any) -> tuple[Any, Any]:
    """sparse.indexed_slices_union_indices_and_values with no values for the second operand, as
    Keras 3.15's TF backend computes it (clause optim.sparse-updates): the union of x's indices and
    `rows` (ascending, from a one-hot OR); when it has as many entries as x has indices (repeated
    indices included) x's values are kept as they are; otherwise each union row takes x's value at
    position p - 1, p the scatter_nd *sum* of the 1-based positions of that row in x's indices (0:
    a zero row). A repeated index therefore sums its positions: the gather then reads another
    row's value, or fails with InvalidArgumentError when the sum passes the number of values
    (only where `taken`: the result of a branch TF does not run reads row 0)."""
    dim0 = tf.reshape(tf.cast(tf.convert_to_tensor(x.dense_shape)[0], tf.int64), [1])
    idx = tf.expand_dims(tf.cast(x.indices, tf.int64), axis=1)
    rows = tf.expand_dims(tf.cast(rows, tf.int64), axis=1)
    n_idx = tf.shape(idx)[0]
    hot_x = tf.scatter_nd(idx, _rows_true(idx), dim0)
    hot_r = tf.scatter_nd(rows, _rows_true(rows), dim0)
    union = tf.squeeze(tf.where(tf.math.logical_or(hot_x, hot_r)), axis=-1)
    positions = tf.gather(tf.scatter_nd(idx, tf.range(1, n_idx + 1), dim0), union)
    keep = tf.equal(n_idx, tf.shape(union)[0])
    positions = tf.where(tf.math.logical_and(taken, tf.math.logical_not(keep)), positions, tf.zeros_like(positions))
    padded = tf.concat([tf.zeros_like(x.values[0:1]), x.values], axis=0)
    return union, _taken(keep, x.values, tf.gather(padded, positions))


def _unary(fn: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """sparse.elementwise_unary: zero-preserving ops map the slices' values."""
    def op(x: Any) -> Any:
        if isinstance(x, IndexedSlices):
            return IndexedSlices(fn(x.values), x.indices, x.dense_shape)
        return fn(tf.convert_to_tensor(x))
    return op


square = _unary(tf.square)
sqrt = _unary(tf.sqrt)
abs = _unary(tf.abs)  # noqa: A001 - Keras's name
negative = _unary(tf.negative)
sign = _unary(tf.sign)
cos = _unary(tf.cos)
log = _unary(tf.math.log)
ceil = _unary(tf.math.ceil)


def greater(x1: Any, x2: Any) -> Any:
    a, b = _pair(x1, x2)
    return tf.greater(a, b)


def equal(x1: Any, x2: Any) -> Any:
    a, b = _pair(x1, x2)
    return tf.equal(a, b)


def where(condition: Any, x1: Any, x2: Any) -> Any:
    """Keras's ops.where: both branches in their result dtype (a Python number takes the other's)."""
    a, b = _pair(x1, x2)
    return tf.where(tf.cast(condition, tf.bool), a, b)


def mean(x: Any, axis: Any = None, keepdims: bool = False) -> Any:
    return tf.reduce_mean(convert_to_tensor(x), axis=axis, keepdims=keepdims)


def expand_dims(x: Any, axis: int) -> Any:
    return tf.expand_dims(convert_to_tensor(x), axis)


def power(x1: Any, x2: Any) -> Any:
    return _pow(x1, x2)


def floor(x: Any) -> Any:
    return tf.floor(tf.convert_to_tensor(x))


def sum(x: Any, axis: Any = None, keepdims: bool = False) -> Any:  # noqa: A001 - Keras's name
    return tf.reduce_sum(convert_to_tensor(x), axis=axis, keepdims=keepdims)


def stack(xs: list[Any], axis: int = 0) -> Any:
    return tf.stack([convert_to_tensor(x) for x in xs], axis=axis)


def clip(x: Any, lo: Any, hi: Any) -> Any:
    """Keras's ops.clip: tf.clip_by_value (slices clip their values)."""
    return tf.clip_by_value(x, lo, hi)


def clip_by_norm(x: Any, clip_norm: float) -> Any:
    """The TF backend's _clip_by_norm: tf.clip_by_norm (slices are scaled by their values' norm)."""
    return tf.clip_by_norm(x, clip_norm)


def scale(x: Any, factor: Any) -> Any:
    """`v * scale` of keras's clip_by_global_norm: TF's `*` densifies slices."""
    return convert_to_tensor(x) * factor
