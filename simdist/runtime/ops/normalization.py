"""Normalization (TF's nn_impl): moments, batch_normalization, l2_normalize, composed of ops
exactly as TF 2.21 writes them, so their values and gradients are TF's (the mean's gradient
through the variance is stopped, as in TF; float16 moments are computed in float32).
"""

from __future__ import annotations

from typing import Any

from simdist.runtime import dtypes, graph_names, symbolic
from simdist.runtime.ops import array, math, unary
from simdist.runtime.ops.args import raw_attribute, t as _t
from simdist.runtime.tensor import Tensor, convert_to_tensor

__all__ = ["moments", "batch_normalization", "l2_normalize"]


def _axes(axes: Any, op: str = "Mean") -> Any:
    # (a tensor of another dtype than an integer goes to reduce_mean as it is: its reduction_indices' TypeError
    # comes before the rank of the indices is read; fz43b. An integer one Tidx does not take (int8, uint8, ...) is
    # the reduction's refusal too, and a 0-d NumPy axis its int: clause ops.index-dtypes)
    from simdist.runtime.ops import index_dtypes
    index_dtypes.check(op, "reduction_indices", axes)
    axes = index_dtypes.scalar(axes)
    if isinstance(axes, Tensor) and axes.dtype.is_integer:
        axes = axes._v.tolist()
    return axes


@graph_names.scoped("moments")   # (nn_impl's name_scope: its nodes are `moments/mean` ...; fz65)
def moments(x: Any, axes: Any, shift: Any = None, keepdims: bool = False, name: str | None = None) -> tuple:
    """`tf.nn.moments`: (mean, variance) over `axes`; the variance is the mean of squared
    differences from the (gradient-stopped) mean. TF's nn_impl.moments reads `x.dtype` before
    converting x, so a Python list or number is its AttributeError (clause ops.argument-errors)."""
    if not hasattr(x, "dtype"):
        raise AttributeError(f"'{type(x).__name__}' object has no attribute 'dtype'")
    x = _t(x)
    given, axes = axes, _axes(axes)
    y = math.cast(x, dtypes.float32) if x.dtype == dtypes.float16 else x
    mean = math.reduce_mean(y, axes, keepdims=True)
    variance = math.reduce_mean(math.squared_difference(y, array.stop_gradient(mean)), axes, keepdims=True)
    if not symbolic.flag(keepdims):   # (nn_impl: `array_ops.squeeze(mean, axes)` of axes as given: None squeezes every
        # dimension, a tensor is squeeze's list-attr error; fz14 seed 1420262403 #20, #25)
        mean = array.squeeze(mean, given)
        variance = array.squeeze(variance, given)
    if x.dtype == dtypes.float16:
        return math.cast(mean, dtypes.float16), math.cast(variance, dtypes.float16)
    return mean, variance


def batch_normalization(x: Any, mean: Any, variance: Any, offset: Any, scale: Any, variance_epsilon: float,
                        name: str | None = None) -> Tensor:
    """`tf.nn.batch_normalization`: x * inv + (offset - mean * inv), inv = scale / sqrt(variance + eps),
    as nn_impl writes it: Python's operators on the arguments as given (`variance + variance_epsilon`
    of two Python or NumPy numbers is computed by them), x.dtype read on x unconverted (a Python
    number is AttributeError), in the expression's order."""
    inv = unary.rsqrt(variance + variance_epsilon)
    if scale is not None:
        inv = inv * scale
    a = math.cast(inv, raw_attribute(x, "dtype"))
    xa = x * a
    b = math.cast((offset - mean * inv) if offset is not None else -mean * inv, raw_attribute(x, "dtype"))
    return xa + b


def l2_normalize(x: Any, axis: Any = None, epsilon: float = 1e-12, name: str | None = None, dim: Any = None) -> Tensor:
    """`tf.math.l2_normalize` (= `tf.nn.l2_normalize`): x / sqrt(max(sum(x ** 2, axis), epsilon))."""
    if dim is not None:
        if axis is not None:
            raise ValueError("Cannot specify both 'axis' and 'dim'")
        axis = dim
    x = _t(x)
    if x.dtype.is_complex:   # nn_impl.l2_normalize: each part scaled by the modulus' norm
        from simdist.runtime.ops import complex_math as cm
        re, im = cm.real(x), cm.imag(x)
        square_sum = math.reduce_sum(unary.square(re) + unary.square(im), _axes(axis, "Sum"), keepdims=True)
        x_inv_norm = unary.rsqrt(math.maximum(square_sum, epsilon))
        return cm.complex_(math.multiply(re, x_inv_norm), math.multiply(im, x_inv_norm))
    square_sum = math.reduce_sum(unary.square(x), _axes(axis, "Sum"), keepdims=True)
    x_inv_norm = unary.rsqrt(math.maximum(square_sum, epsilon))
    return math.multiply(x, x_inv_norm)
