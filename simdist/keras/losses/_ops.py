"""The Keras ops the losses and metrics use, with Keras 3.15's TensorFlow-backend semantics
(keras/src/backend/tensorflow/{core,numpy}.py) on `simdist.tf`: dtype handling as Keras's
`convert_to_tensor` (a tensor of another dtype is cast; a Python value of an int or bool dtype
is converted, then cast), reductions that promote small ints, `argmax` that ranks -0.0 below 0.0.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist import tf
from simdist.keras import config, dtype_promotion


def nn_ops() -> Any:
    """keras.ops' neural-network functions (Keras's losses call its crossentropies: shape checks, the logits
    shortcut, clipping). Imported on first use: keras.ops imports this module."""
    from simdist.keras.ops import op_nn  # noqa: PLC0415 - an import cycle, see above
    return op_nn


def dtype_name(dt: Any) -> str:
    """A dtype as Keras's string ("float32")."""
    if isinstance(dt, str):
        return tf.as_dtype(dt).name
    return tf.as_dtype(dt).name


def is_tensor(x: Any) -> bool:
    return isinstance(x, tf.Tensor)


def convert_to_tensor(x: Any, dtype: Any = None) -> Any:
    """Keras's `ops.convert_to_tensor`: a tensor of the right dtype is returned as is (its
    attributes, e.g. `_keras_logits`, kept); otherwise converted or cast to `dtype`."""
    if dtype is not None:
        dtype = tf.as_dtype(dtype)
    if not is_tensor(x):
        if hasattr(x, "_as_tensor"):       # variables (Keras's and tf's) read their value
            x = tf.convert_to_tensor(x)
        elif dtype is not None and (dtype == tf.bool or dtype.is_integer):
            return tf.cast(tf.convert_to_tensor(x), dtype)
        else:
            return tf.convert_to_tensor(x, dtype=dtype)
    if dtype is not None and x.dtype != dtype:
        return tf.cast(x, dtype)
    return x


def cast(x: Any, dtype: Any) -> Any:
    """Keras's `ops.cast`: x as a tensor of `dtype` (the same tensor if it already is)."""
    dtype = tf.as_dtype(dtype)
    x = convert_to_tensor(x)
    return x if x.dtype == dtype else tf.cast(x, dtype)


def shape(x: Any) -> tuple:
    return tuple(convert_to_tensor(x).shape.as_list())


def ndim(x: Any) -> int:
    return len(convert_to_tensor(x).shape)


def squeeze(x: Any, axis: int) -> Any:
    x = convert_to_tensor(x)
    dims = x.shape.as_list()
    if dims[axis] != 1:
        raise ValueError(f"Cannot squeeze axis={axis}, because the dimension is not 1.")
    return tf.squeeze(x, axis=axis)


def expand_dims(x: Any, axis: int) -> Any:
    return tf.expand_dims(convert_to_tensor(x), axis)


def sum(x: Any, axis: Any = None, keepdims: bool = False) -> Any:  # noqa: A001 - Keras's name
    """`ops.sum`: bool/int8/int16 sum as int32 (JAX's rule, as Keras's TF backend)."""
    x = convert_to_tensor(x)
    if x.dtype in (tf.bool, tf.int8, tf.int16):
        x = tf.cast(x, tf.int32)
    elif x.dtype in (tf.uint8, tf.uint16):
        x = tf.cast(x, tf.uint32)
    return tf.reduce_sum(x, axis=axis, keepdims=keepdims)


def mean(x: Any, axis: Any = None, keepdims: bool = False) -> Any:
    """`ops.mean`: ints and bools average as float32 (float16 through float32)."""
    x = convert_to_tensor(x)
    if x.dtype == tf.bool or x.dtype.is_integer:
        x = tf.cast(x, tf.float32)
    if x.dtype.name in ("float16", "bfloat16"):
        return tf.cast(tf.reduce_mean(tf.cast(x, tf.float32), axis=axis, keepdims=keepdims), x.dtype)
    return tf.reduce_mean(x, axis=axis, keepdims=keepdims)


def prod_of_shape(x: Any, dtype: Any) -> Any:
    """`ops.cast(ops.prod(ops.convert_to_tensor(ops.shape(x), "int32")), dtype)`: the element count. Keras's TF
    backend `shape` gives each dimension the graph does not know as `tf.shape(x)[i]` (a batch dimension inside
    fit's traced step), so the count is computed from the batch on each run, not taken from the batch the step
    was recorded on (open47)."""
    x = convert_to_tensor(x)
    known = tf._simdist_known_shape(x)   # (simdist's own code reads concrete shapes from `x.shape`)
    dims: list[Any] = list(x.shape.as_list()) if known is None else list(known)
    if None in dims:
        dynamic = tf.shape(x)
        dims = [dynamic[i] if d is None else d for i, d in enumerate(dims)]
        return tf.cast(tf.reduce_prod(tf.convert_to_tensor(dims, dtype=tf.int32)), dtype)
    return tf.cast(tf.reduce_prod(tf.constant(dims, dtype=tf.int32)), dtype)


def _float_result(a: Any, b: Any) -> Any:
    """Keras's result_type(a, b, float) for two tensors or Python numbers (weakly typed)."""
    return tf.as_dtype(dtype_promotion.result_type(dtype_promotion.dtype_of(a), dtype_promotion.dtype_of(b), float))


def divide_no_nan(x1: Any, x2: Any) -> Any:
    """`ops.divide_no_nan`: both operands in their float result type, then tf.math.divide_no_nan."""
    if not isinstance(x1, (int, float)):
        x1 = convert_to_tensor(x1)
    if not isinstance(x2, (int, float)):
        x2 = convert_to_tensor(x2)
    dt = _float_result(x1, x2)
    return tf.math.divide_no_nan(convert_to_tensor(x1, dt), convert_to_tensor(x2, dt))


def argmax(x: Any, axis: int = -1) -> Any:
    """`ops.argmax` (int32): for floats, -0.0 counts as smaller than 0.0 (Keras's FTZ fix)."""
    x = convert_to_tensor(x)
    if not x.dtype.is_floating or len(x.shape) == 0:
        return tf.argmax(x, axis=axis, output_type=tf.int32)
    if x.dtype.name in ("float16", "bfloat16"):
        x = tf.cast(x, tf.float32)
    # signbit of a zero: 1/-0.0 is -inf (no Python read of the values, so recorded graphs replay it)
    is_negative_zero = tf.logical_and(tf.equal(x, 0.0), tf.less(tf.math.reciprocal(x), 0.0))
    x = tf.where(is_negative_zero, tf.constant(-np.finfo(x.dtype.as_numpy_dtype).tiny, dtype=x.dtype), x)
    return tf.argmax(x, axis=axis, output_type=tf.int32)


def broadcast_to(x: Any, shape_: Any) -> Any:
    return tf.broadcast_to(convert_to_tensor(x), shape_)


def maximum(x1: Any, x2: Any) -> Any:
    """`ops.maximum`: both operands in Keras's result type (Python numbers weak), then tf.maximum."""
    (a, b), _ = dtype_promotion.promote(x1, x2)
    return tf.maximum(a, b)


def minimum(x1: Any, x2: Any) -> Any:
    """`ops.minimum`: both operands in Keras's result type (Python numbers weak), then tf.minimum."""
    (a, b), _ = dtype_promotion.promote(x1, x2)
    return tf.minimum(a, b)


def clip(x: Any, x_min: Any, x_max: Any) -> Any:
    """`ops.clip`: tf.clip_by_value (bools clipped as int32)."""
    x = convert_to_tensor(x)
    if x.dtype == tf.bool:
        x = tf.cast(x, tf.int32)
    return tf.clip_by_value(x, x_min, x_max)


def power(x1: Any, x2: Any) -> Any:
    """`ops.power`: both operands in Keras's result type, then tf.pow."""
    (a, b), _ = dtype_promotion.promote(x1, x2)
    return tf.pow(a, b)


def l2_normalize(x: Any, axis: int = -1) -> Any:
    """Keras's `normalize(x, axis, order=2)` on tensors: x * minimum(rsqrt(sum(x**2)), 1/epsilon)."""
    x = convert_to_tensor(x)
    if len(x.shape) == 0:
        x = tf.expand_dims(x, 0)
    inv_norm = tf.math.rsqrt(tf.reduce_sum(tf.square(x), axis=axis, keepdims=True))
    return x * minimum(inv_norm, 1.0 / config.epsilon())


def divide(x1: Any, x2: Any) -> Any:
    """`ops.divide`: both operands in their float result type (`result_type(a, b, float)`), then tf.divide."""
    (a, b), _ = dtype_promotion.promote(x1, x2, weak_float=True)
    return tf.divide(a, b)
