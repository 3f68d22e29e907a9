"""`tf.random.stateless_parameterized_truncated_normal` (TF 2.21's StatelessParameterizedTruncatedNormal
op): `shape` draws of a normal(means, stddevs) truncated to [minvals, maxvals], a pure function of
the seed pair. The parameters are converted as TF's wrapper converts them (Python floats to
float32; all four one dtype of half, float, double) and broadcast together. The seed must have
shape [2] (the kernel's InvalidArgumentError eagerly, the shape function's ValueError inside a
tf.function); `shape` must end with their broadcast shape (the kernel's InvalidArgumentError
otherwise, also inside a tf.function).
The values are the kernel's sampling loop (param_truncated_kernel.py). Gradient: TF's
_StatelessParameterizedTruncatedNormalGrad (random_grad.py, implicit reparameterisation) for the
four parameters, none for shape and seed. FLOPs: one per output element (as the other random ops).
Clause ops.parameterized-truncated-normal.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import dtypes, errors
from simdist.runtime.ops import dispatch, philox, trace_errors
from simdist.runtime.ops.args import dims, mismatch_error, tf_name
from simdist.runtime.ops.param_truncated_kernel import sample
from simdist.runtime.ops.registry import RegisterGradient, register
from simdist.runtime.tensor import Tensor, convert_to_tensor

__all__ = ["stateless_parameterized_truncated_normal"]

_OP = "StatelessParameterizedTruncatedNormal"
_FLOATS = (dtypes.float16, dtypes.float32, dtypes.float64)


def _error(text: str) -> errors.InvalidArgumentError:
    return errors.InvalidArgumentError(None, None, f"{text} [Op:{_OP}]")


def _forward(means: np.ndarray, stddevs: np.ndarray, minvals: np.ndarray, maxvals: np.ndarray, seed: np.ndarray,
             shape: tuple[int, ...]) -> np.ndarray:
    """The kernel's checks in its order (the seed's shape, the parameters' broadcast, the output
    shape), then its samples."""
    if seed.shape != (2,):   # (the shape function's check too: a ValueError while tracing)
        from simdist.runtime.ops.random import seed_shape_error  # noqa: PLC0415 - random imports this module's peers
        raise seed_shape_error(list(seed.shape), _OP)
    ps = [a.shape for a in (means, stddevs, minvals, maxvals)]
    try:
        bshape = np.broadcast_shapes(*ps)
    except ValueError:
        raise _error("means, stddevs, minvals, maxvals must have compatible batch dimensions: " +
                     " vs. ".join(dims(s) for s in ps)) from None
    for d in shape:
        if d < 0:
            raise _error(f"Dimension {d} must be >= 0")
    if len(bshape) > len(shape) or (bshape and tuple(shape[len(shape) - len(bshape):]) != tuple(bshape)):
        raise _error("Shape passed in must end with broadcasted shape.")
    s = seed.reshape(-1)
    return sample(tuple(shape), philox.stateless(int(s[0]), int(s[1])), means, stddevs, minvals, maxvals)


def _rule(dts: Any, attrs: Any) -> dtypes.DType:
    """The op's type attrs: dtype (the four parameters, one of half, float, double; a later one
    of another dtype: the eager dtype error, a TypeError while tracing) and Tseed (int32, int64)."""
    d0 = dts[0]
    for i in range(1, 4):
        if dts[i] != d0:
            raise mismatch_error(_OP, i + 2, d0, dts[i], dts[:4])
    if d0 not in _FLOATS:
        raise trace_errors.static(
            _error(f"Value for attr 'dtype' of {tf_name(d0)} is not in the list of allowed values: half, float, "
                   "double"), TypeError, f"Value passed to parameter 'means' has DataType {d0.name} not in list of "
                   "allowed values: float16, float32, float64")
    if dts[4] not in (dtypes.int32, dtypes.int64):
        raise trace_errors.static(
            _error(f"Value for attr 'Tseed' of {tf_name(dts[4])} is not in the list of allowed values: int32, int64"),
            TypeError, f"Value passed to parameter 'seed' has DataType {dts[4].name} not in list of allowed values: "
                       "int32, int64")
    return d0


PARAMETERIZED_TRUNCATED_NORMAL = register(_OP, _forward, _rule, kind="random")


def _ndtr(x: Tensor) -> Tensor:
    """random_grad._Ndtr: the normal CDF from erf near 0 and erfc in the tails (TF's operators:
    Python numbers take the tensor's dtype)."""
    from simdist.runtime.ops import math, special, unary
    from simdist.runtime.ops.activations import erfc
    half_sqrt_2 = convert_to_tensor(np.asarray(0.5 * np.sqrt(2.0), x.dtype._np))
    w = x * half_sqrt_2
    z = unary.abs_(w)
    y = math.where(z < half_sqrt_2, 1.0 + special.erf(w), math.where(w > 0.0, 2.0 - erfc(z), erfc(z)))
    return 0.5 * y


@RegisterGradient(_OP)
def _grad(op: Any, grad: Any) -> list:
    """random_grad._StatelessParameterizedTruncatedNormalGrad, its operations in its order."""
    from simdist.runtime.ops import array, clip, math, unary
    mean, stddev, minval, maxval = op.inputs[:4]
    smp = op.outputs[0]
    minval_std = (minval - mean) / stddev
    maxval_std = (maxval - mean) / stddev
    sample_std = (smp - mean) / stddev
    cdf = (_ndtr(sample_std) - _ndtr(minval_std)) / (_ndtr(maxval_std) - _ndtr(minval_std))
    fi = np.finfo(mean.dtype._np)
    cdf = clip.clip_by_value(cdf, fi.tiny, 1 - fi.eps)
    dmax = unary.exp(0.5 * (sample_std ** 2 - maxval_std ** 2) + unary.log(cdf))
    dmin = unary.exp(0.5 * (sample_std ** 2 - minval_std ** 2) + unary.log1p(-cdf))
    dmean = array.ones_like(sample_std)
    shapes = [p.shape.as_list() for p in (mean, stddev, minval, maxval)]
    bshape = list(np.broadcast_shapes(*[tuple(s) for s in shapes]))
    extra = list(range(len(op.get_attr("shape")) - len(bshape)))
    out = []
    for d, shp in zip((dmean, sample_std, dmin, dmax), shapes):
        out.append(math.unbroadcast(math.reduce_sum(grad * d, axis=extra), shp))
    return out + [None]


def _params(values: Any) -> list[Tensor]:
    return [v if isinstance(v, Tensor) else convert_to_tensor(v) for v in values]


def stateless_parameterized_truncated_normal(shape: Any, seed: Any, means: Any = 0.0, stddevs: Any = 1.0,
                                             minvals: Any = -2.0, maxvals: Any = 2.0,
                                             name: str | None = None) -> Tensor:
    """`tf.random.stateless_parameterized_truncated_normal`: `shape` samples (the shape ends with
    the parameters' broadcast shape; the leading dimensions are samples of each batch member)."""
    s = shape if isinstance(shape, Tensor) else convert_to_tensor(shape, dtype_hint=dtypes.int32)
    if s.dtype not in (dtypes.int32, dtypes.int64):
        raise trace_errors.static(
            _error(f"Value for attr 'S' of {tf_name(s.dtype)} is not in the list of allowed values: int32, int64"),
            TypeError, f"Value passed to parameter 'shape' has DataType {s.dtype.name} not in list of allowed values: "
                       "int32, int64")
    if s.ndim != 1:
        raise _error(f"Input shape should be a vector, got shape: {dims(s.shape.as_list())}")
    shp = tuple(int(v) for v in np.asarray(s._v).reshape(-1).tolist())
    m, sd, lo, hi = _params((means, stddevs, minvals, maxvals))
    from simdist.runtime.ops.random import seed_tensor
    sdt = seed_tensor(seed)   # (a NumPy uint seed array converts to int64: nsweep62)
    return dispatch.execute(PARAMETERIZED_TRUNCATED_NORMAL, (m, sd, lo, hi, sdt), {"shape": shp})
