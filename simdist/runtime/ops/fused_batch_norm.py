"""TF's fused batch normalization: the raw ops FusedBatchNorm, FusedBatchNormV2 and FusedBatchNormV3,
their backprop kernels FusedBatchNormGrad/V2/V3, their registered gradient, and
`tf.compat.v1.nn.fused_batch_norm` (clause ops.fused-batch-norm).

Computed as TF 2.21's CPU kernels compute them (core/kernels/fused_batch_norm_op.cc, read at the
release; observed on TF 2.21): x of 4 or 5 dimensions is viewed as [rest, depth] over its channel
axis (data_format NHWC/NDHWC, or NCHW/NCDHW transposed to channels-last), every statistic in U
(float32) whatever T is. Training: the batch mean and the biased batch variance (sums over the
rows times the float32 reciprocal of their count), y = (x - mean) * (rsqrt(var + epsilon) * scale)
+ offset cast to T; outputs batch_mean and batch_variance are the running statistics, the
variance Bessel-corrected (times rest / (rest - 1), rest 1 taken as 2 - 1), mixed with the inputs'
mean and variance as (1 - f) * old + f * new where exponential_avg_factor f is not 1;
reserve_space_1/2 are the batch mean and the biased variance; V3's reserve_space_3 is a float32
scalar 0 (an empty vector where oneDNN runs the op: `_onednn`). Inference (is_training=False): y from the given mean and variance, which the two
statistics outputs return. An empty x gives NaN statistics (its reserve spaces are TF's
uninitialised memory: zeros here). The float32 rsqrt is Eigen's packet form (rcp.rsqrt).

The gradient is TF's `_BaseFusedBatchNormGrad` (nn_grad.py): FusedBatchNormGrad/V2/V3 of the
forward's saved statistics in training, of the given mean and variance otherwise (NCHW/NCDHW
transposed to channels-last around it, as TF's Python does); mean and variance get no gradient.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import dtypes, errors, host_cpu
from simdist.runtime.ops import dispatch, onednn_batch_norm, rcp
from simdist.runtime.ops.args import dims as _dims
from simdist.runtime.ops.nn_rules import attr_error
from simdist.runtime.ops.raw_compositions import _invalid   # (the raw forms' shared texts)
from simdist.runtime.ops.raw_args import RawArgs
from simdist.runtime.ops.registry import RegisterGradient, lanes, register
from simdist.runtime.tensor import Tensor

__all__ = ["fused_batch_norm_v1"]

_F = np.float32
_FORMATS = ("NHWC", "NCHW", "NDHWC", "NCDHW")
# T's allowed values by op (the OpDefs'), U's for V2/V3
_T_ALLOWED = {"FusedBatchNorm": "float", "FusedBatchNormV2": "half, bfloat16, float",
              "FusedBatchNormV3": "half, bfloat16, float", "FusedBatchNormGrad": "float",
              "FusedBatchNormGradV2": "half, bfloat16, float", "FusedBatchNormGradV3": "half, bfloat16, float"}
_T_NAMES = {"float": "float32", "half": "float16", "bfloat16": "bfloat16"}


def _channels_last(x: np.ndarray, data_format: str) -> np.ndarray:
    """x with its channel axis last (NCHW and NCDHW moved; the kernel's DoTranspose)."""
    if data_format in ("NCHW", "NCDHW"):
        return np.moveaxis(x, 1, -1)
    return x


def _channels_back(y: np.ndarray, data_format: str) -> np.ndarray:
    if data_format in ("NCHW", "NCDHW"):
        return np.ascontiguousarray(np.moveaxis(y, -1, 1))
    return y


def _channel_count(x: np.ndarray, data_format: str) -> int:
    """GetTensorDim(x, format, 'C'): the format's channel position, for 4- and 5-dimensional x alike
    (a 5-dimensional x with a 4-dimensional format keeps NHWC's/NCHW's position)."""
    return int(x.shape[1] if data_format in ("NCHW", "NCDHW") else x.shape[-1])


def _column_sums(m: np.ndarray) -> np.ndarray:
    """Sums over the rows of a [rest, depth] float32 matrix, added row after row (the kernel's
    reduction over the outer dimension)."""
    return np.add.reduce(m, axis=0, dtype=_F)


def _eigen_column_sums(m: np.ndarray) -> np.ndarray:
    """The same sums in Eigen's TensorReduction order (the training kernel's `.sum(reduce_dims)`)."""
    from simdist.runtime.ops.prod_order import eigen_sum
    return eigen_sum(m, (0,), False, _column_sums(m))


# The dtypes TF 2.21's x86 build rewrites FusedBatchNorm* to oneDNN's kernels for, where the CPU takes them
# (host_cpu). Their placeholder outputs differ from TF's own kernels': V3's reserve_space_3 is [0] (a
# scalar in TF's), the Grads' reserve_space_4/5 scalars ([0] in TF's); observed on an AVX512-FP16 Xeon and
# an AVX2 EPYC. Their float32 NHWC values are oneDNN's (onednn_batch_norm.py); other layouts and the half types keep
# TF's own kernels' model (oneDNN's differ there in the last bits: docs/spec.md).
_ONEDNN_DTYPES = ("float32", "bfloat16", "float16")


def _onednn(x: np.ndarray) -> bool:
    return host_cpu.current().onednn(np.dtype(x.dtype).name, _ONEDNN_DTYPES)


def _forward(op: str, v3: bool) -> Any:
    def kernel(x: np.ndarray, scale: np.ndarray, offset: np.ndarray, mean: np.ndarray, variance: np.ndarray,
               epsilon: float = 1e-4, exponential_avg_factor: float = 1.0, data_format: str = "NHWC",
               is_training: bool = True) -> tuple:
        for a, what in ((x, None), (scale, "scale"), (offset, "offset"), (mean, "estimated_mean"),
                        (variance, "estimated_variance")):
            if what is None and a.ndim not in (4, 5):
                raise _invalid(op, f"input must be 4 or 5-dimensional{_dims(a.shape)}")
            if what is not None and a.ndim != 1:
                raise _invalid(op, f"{what} must be 1-dimensional{_dims(a.shape)}")
        depth = _channel_count(x, data_format)
        for a, what in ((scale, "scale"), (offset, "offset")):
            if a.size != depth:
                raise _invalid(op, f"{what} must have the same number of elements as the channels of x, got "
                                   f"{a.size} and {depth}")
        eps, f = _F(epsilon), _F(exponential_avg_factor)
        if not is_training or f != _F(1):
            prefix = "When exponential_avg_factor != 1" if is_training else "When is_training=false"
            for a, what in ((mean, "mean"), (variance, "variance")):
                if a.size != depth:
                    raise _invalid(op, f"{prefix}, {what} must have the same number of elements as the channels of "
                                       f"x, got {a.size} and {depth}")
        tail = ((np.zeros(0, _F) if _onednn(x) else np.zeros((), _F)),) if v3 else ()
        if x.size == 0:
            # (both kernels set the two statistics outputs to NaN and return: the inference kernel before it
            # copies the estimates)
            nan = np.full(depth, np.nan, _F)
            return (x.copy(), nan, nan.copy(), np.zeros(depth, _F), np.zeros(depth, _F), *tail)
        xl = _channels_last(x, data_format)
        rows = np.ascontiguousarray(xl.reshape(-1, depth)).astype(_F)
        rest = rows.shape[0]
        dnn = onednn_batch_norm.applies(x, data_format, _onednn(x), forward=True)
        with np.errstate(all="ignore"):
            if dnn:
                x3, jit = onednn_batch_norm.view(rows, x.shape[0], data_format, x.dtype.name)
                batch_mean, batch_var = onednn_batch_norm.statistics(x3, jit) if is_training else (None, None)
                m_use, v_use = (batch_mean, batch_var) if is_training else (mean.astype(_F), variance.astype(_F))
                y = onednn_batch_norm.normalize(x3, m_use, v_use, scale.astype(_F), offset.astype(_F), eps, jit)
                y = y.reshape(rows.shape).astype(x.dtype)
            elif is_training:
                inv = _F(_F(1.0) / _F(rest))
                batch_mean = _eigen_column_sums(rows) * inv
                centered = rows - batch_mean
                batch_var = _eigen_column_sums(centered * centered) * inv
                m_use, v_use = batch_mean, batch_var
            else:
                m_use, v_use = mean.astype(_F), variance.astype(_F)
                centered = rows - m_use
            if not dnn:
                factor = rcp.rsqrt(v_use + eps) * scale.astype(_F)
                y = (centered * factor + offset.astype(_F)).astype(x.dtype)
            if is_training:
                adjust = _F(_F(rest) / _F(rest - 1 if rest > 1 else 1))
                if f == _F(1):
                    out_mean, out_var = batch_mean, batch_var * adjust
                else:
                    one_minus = _F(1) - f
                    out_mean = one_minus * mean.astype(_F) + f * batch_mean
                    out_var = one_minus * variance.astype(_F) + (f * adjust) * batch_var
                saved = (batch_mean.copy(), batch_var.copy())
            else:
                out_mean, out_var = mean.astype(_F).copy(), variance.astype(_F).copy()
                # oneDNN's kernel (MklFusedBatchNormOp) copies the estimates into the reserve spaces too (observed:
                # every dtype and layout, bsweep60); TF's own kernel leaves them uninitialised (zeros here)
                saved = ((out_mean.copy(), out_var.copy()) if _onednn(x)
                         else (np.zeros(depth, _F), np.zeros(depth, _F)))
        y = _channels_back(y.reshape(xl.shape), data_format)
        return (y, out_mean, out_var, *saved, *tail)
    return kernel


def _backward(op: str) -> Any:
    def kernel(y_backprop: np.ndarray, x: np.ndarray, scale: np.ndarray, reserve_space_1: np.ndarray,
               reserve_space_2: np.ndarray, *reserve_space_3: np.ndarray, epsilon: float = 1e-4,
               data_format: str = "NHWC", is_training: bool = True) -> tuple:
        for a in (y_backprop, x):
            if a.ndim not in (4, 5):
                raise _invalid(op, f"input must be 4 or 5-dimensional{_dims(a.shape)}")
        for a, what in ((scale, "scale"), (reserve_space_1, "saved mean"), (reserve_space_2, "saved variance")):
            if a.ndim != 1:
                raise _invalid(op, f"{what} must be 1-dimensional{_dims(a.shape)}")
        if x.shape != y_backprop.shape:
            raise _invalid(op, f"x and y_backprop must have same shape, but x has shape {_dims(x.shape)} and "
                               f"y_backprop has shape {_dims(y_backprop.shape)}")
        depth = _channel_count(x, data_format)
        for a, what in ((scale, "scale"), (reserve_space_1, "reserve_space_1"), (reserve_space_2, "reserve_space_2")):
            if a.size != depth:
                raise _invalid(op, f"{what} must have the same number of elements as the channels of x, got "
                                   f"{a.size} and {depth}")
        empty = (np.zeros((), _F), np.zeros((), _F)) if _onednn(x) else (np.zeros(0, _F), np.zeros(0, _F))
        if x.size == 0:
            return (np.zeros(x.shape, x.dtype), np.zeros(depth, _F), np.zeros(depth, _F), *empty)
        if not is_training and data_format not in ("NHWC", "NDHWC"):
            raise _invalid(op, "The implementation of FusedBatchNormGrad with is_training=False only support NHWC "
                               "tensor format for now.")
        eps = _F(epsilon)
        xl = _channels_last(x, data_format)
        rows = np.ascontiguousarray(xl.reshape(-1, depth)).astype(_F)
        g = np.ascontiguousarray(_channels_last(y_backprop, data_format).reshape(-1, depth)).astype(_F)
        rest = rows.shape[0]
        mean, var, sc = reserve_space_1.astype(_F), reserve_space_2.astype(_F), scale.astype(_F)
        if onednn_batch_norm.applies(x, data_format, _onednn(x)):
            x3, jit = onednn_batch_norm.view(rows, x.shape[0], data_format, x.dtype.name)
            dx, scale_bp, offset_bp = onednn_batch_norm.backward(x3, g.reshape(x3.shape), mean, var, sc, eps,
                                                                 bool(is_training), jit)
            return (_channels_back(dx.reshape(xl.shape), data_format).astype(x.dtype), scale_bp, offset_bp, *empty)
        with np.errstate(all="ignore"):
            coef0 = rcp.rsqrt(var + eps)
            centered = rows - mean
            offset_bp = _column_sums(g)
            if is_training:
                scale_bp = _column_sums(g * (centered * coef0))
                g_mean = offset_bp * _F(_F(1.0) / _F(rest))
                gc_mean = _column_sums(g * centered) / _F(rest)
                coef1 = sc * coef0
                coef2 = (coef0 * coef0) * gc_mean
                dx = coef1 * ((g - g_mean) - centered * coef2)
            else:   # (FusedBatchNormFreezeGrad)
                scale_bp = _column_sums(g * centered) * coef0
                dx = g * (coef0 * sc)
        dx = _channels_back(dx.astype(x.dtype).reshape(xl.shape), data_format)
        return (dx, scale_bp, offset_bp, *empty)
    return kernel


def _dtype(op: str, n_out: int, statistics: tuple) -> Any:
    """T (input 0's dtype, which the inputs at `same` share) one of the OpDef's; U (the statistics'
    dtype, V2/V3) float32 or bfloat16, and float32 for the CPU kernel."""
    allowed = _T_ALLOWED[op]
    names = {_T_NAMES[n.strip()] for n in allowed.split(",")}

    def rule(dts: Any, attrs: Any) -> tuple:
        t = dts[0]
        if op.startswith("FusedBatchNormGrad") and dts[1] != t:
            from simdist.runtime.ops.args import dtype_error
            raise dtype_error(op, 1, t, dts[1])
        if t.name not in names:
            raise attr_error(op, t, allowed)
        u = dts[statistics[0]]
        for i in statistics:
            if dts[i] != u:
                from simdist.runtime.ops.args import dtype_error
                raise dtype_error(op, i, u, dts[i])
        if op in ("FusedBatchNorm", "FusedBatchNormGrad"):
            if u != t:
                from simdist.runtime.ops.args import dtype_error
                raise dtype_error(op, statistics[0], t, u)
        elif u.name not in ("float32", "bfloat16"):
            raise attr_error(op, u, "bfloat16, float", attr="U")
        if u.name != "float32":
            raise errors.NotFoundError(None, None, f"Could not find device for node: {{{{node {op}}}}} = {op}"
                                       f"[T=DT_{t.name.upper()}, U=DT_BFLOAT16, data_format=\"NHWC\", "
                                       f"is_training=true] [Op:{op}]")
        return (t, *([dtypes.float32] * (n_out - 1)))
    return rule


def _flops(arrays: Any, out: Any, attrs: Any) -> float:
    return 10.0 * float(np.size(arrays[0]))


def _shape_fn(grad: bool) -> Any:
    """FusedBatchNormShape / FusedBatchNormGradShape (common_shape_fns.cc), on the shapes the traced
    graph knows: x (and y_backprop) of rank 5 for NDHWC/NCDHW and 4 otherwise, then each vector input
    of rank 1 with its length merged into the channel dimension (the forward's mean and variance only
    when is_training is False or exponential_avg_factor is not 1)."""
    from simdist.runtime.ops.shape_checks import dim

    def check(shapes: list, attrs: dict | None) -> str | None:
        attrs = attrs or {}
        fmt = attrs.get("data_format", "NHWC")
        rank = 5 if fmt in ("NDHWC", "NCDHW") else 4
        lead = (0, 1) if grad else (0,)
        for i in lead:
            s = shapes[i]
            if s is not None and len(s) != rank:
                return f"Shape must be rank {rank} but is rank {len(s)}"
        axis = 1 if fmt in ("NCHW", "NCDHW") else rank - 1
        channels = dim(shapes[0], axis)
        if grad:
            d = dim(shapes[1], axis)
            if channels is not None and d is not None and d != channels:
                return f"Dimensions must be equal, but are {channels} and {d}"
            channels = channels if channels is not None else d
            vectors = (2, 3, 4)
        else:
            full = not attrs.get("is_training", True) or _F(attrs.get("exponential_avg_factor", 1.0)) != _F(1)
            vectors = (1, 2, 3, 4) if full else (1, 2)
        for i in vectors:
            s = shapes[i]
            if s is None:
                continue
            if len(s) != 1:
                return f"Shape must be rank 1 but is rank {len(s)}"
            if channels is not None and s[0] is not None and s[0] != channels:
                return f"Dimensions must be equal, but are {channels} and {s[0]}"
            channels = channels if channels is not None else s[0]
        return None
    return check


def _register(op: str, forward: Any, n_out: int, statistics: tuple) -> Any:
    d = register(op, forward, _dtype(op, n_out, statistics), _flops, num_outputs=n_out, kind="nn",
                 none_grad_ok=tuple(range(1, n_out)),
                 fusion=lanes("its statistics reduce over one lane's batch: no stacked form written"))
    d.trace_shape = _shape_fn(op.startswith("FusedBatchNormGrad"))
    d.raw_args = RawArgs(attrs={"epsilon": "epsilon", "data_format": "data_format", "is_training": "is_training",
                                **({"exponential_avg_factor": "exponential_avg_factor"}
                                   if not op.startswith("FusedBatchNormGrad") else {})})
    return d


FUSED_BATCH_NORM = _register("FusedBatchNorm", _forward("FusedBatchNorm", False), 5, (1, 2, 3, 4))
FUSED_BATCH_NORM_V2 = _register("FusedBatchNormV2", _forward("FusedBatchNormV2", False), 5, (1, 2, 3, 4))
FUSED_BATCH_NORM_V3 = _register("FusedBatchNormV3", _forward("FusedBatchNormV3", True), 6, (1, 2, 3, 4))
FUSED_BATCH_NORM_GRAD = _register("FusedBatchNormGrad", _backward("FusedBatchNormGrad"), 5, (2, 3, 4))
FUSED_BATCH_NORM_GRAD_V2 = _register("FusedBatchNormGradV2", _backward("FusedBatchNormGradV2"), 5, (2, 3, 4))
FUSED_BATCH_NORM_GRAD_V3 = _register("FusedBatchNormGradV3", _backward("FusedBatchNormGradV3"), 5, (2, 3, 4, 5))

_GRAD_OF = {"FusedBatchNorm": FUSED_BATCH_NORM_GRAD, "FusedBatchNormV2": FUSED_BATCH_NORM_GRAD_V2,
            "FusedBatchNormV3": FUSED_BATCH_NORM_GRAD_V3}


def _fused_grad(op: Any, *grads: Any) -> list:
    """nn_grad._BaseFusedBatchNormGrad: dx, dscale, doffset from the backprop kernel; None for mean and
    variance."""
    from simdist.runtime.ops import array
    x, scale = op.inputs[0], op.inputs[1]
    grad_y = grads[0]
    if grad_y is None:
        grad_y = array.zeros_like(op.outputs[0])
    data_format = op.get_attr("data_format")
    data_format = data_format.decode() if isinstance(data_format, bytes) else data_format
    is_training = op.get_attr("is_training")
    epsilon = op.get_attr("epsilon")
    kernel = _GRAD_OF[op.type]
    v3 = op.type == "FusedBatchNormV3"
    if is_training:
        ins = (grad_y, x, scale, op.outputs[3], op.outputs[4], *((op.outputs[5],) if v3 else ()))
        dx, dscale, doffset, _, _ = dispatch.execute(kernel, ins, {"epsilon": epsilon, "data_format": data_format,
                                                                    "is_training": True})
        return [dx, dscale, doffset, None, None]
    perm = {"NCHW": [0, 2, 3, 1], "NCDHW": [0, 2, 3, 4, 1]}.get(data_format)
    if perm is not None:
        x, grad_y = array.transpose(x, perm), array.transpose(grad_y, perm)
    target = "NHWC" if data_format in ("NCHW", "NHWC") else "NDHWC"
    ins = (grad_y, x, scale, op.inputs[3], op.inputs[4], *((op.outputs[5],) if v3 else ()))
    dx, dscale, doffset, _, _ = dispatch.execute(kernel, ins, {"epsilon": epsilon, "data_format": target,
                                                                "is_training": False})
    if perm is not None:
        back = [0, 3, 1, 2] if data_format == "NCHW" else [0, 4, 1, 2, 3]
        dx = array.transpose(dx, back)
    return [dx, dscale, doffset, None, None]


for _name in _GRAD_OF:
    RegisterGradient(_name)(_fused_grad)


def _grad_of_grad(op: Any, *grads: Any) -> list:
    """TF registers `_FusedBatchNormGradGrad` for the backprop kernels (a second derivative of batch
    normalization); simdist does not model it, and says so rather than give other values."""
    raise NotImplementedError(f"simdist does not implement the gradient of {op.type} (TF's _FusedBatchNormGradGrad): "
                              "a second derivative through tf.raw_ops.FusedBatchNorm* (clause ops.fused-batch-norm)")


for _name in ("FusedBatchNormGrad", "FusedBatchNormGradV2", "FusedBatchNormGradV3"):
    RegisterGradient(_name)(_grad_of_grad)


def fused_batch_norm_v1(x: Any, scale: Any, offset: Any, mean: Any = None, variance: Any = None,
                        epsilon: float = 0.001, data_format: str = "NHWC", is_training: bool = True,
                        name: str | None = None, exponential_avg_factor: float = 1.0) -> tuple[Tensor, Tensor, Tensor]:
    """`tf.compat.v1.nn.fused_batch_norm` (nn_impl.fused_batch_norm): FusedBatchNormV3's y and running
    statistics; mean and variance may be omitted only in training with exponential_avg_factor 1."""
    from simdist.runtime.ops import raw_ops
    from simdist.runtime.tensor import convert_to_tensor
    from simdist.runtime import symbolic
    # (`not is_training`: a graph tensor's truth is OperatorNotAllowedInGraphError; fz65)
    if (not symbolic.flag(is_training) or exponential_avg_factor != 1.0) and (mean is None or variance is None):
        raise ValueError("Both `mean` and `variance` must be a 1D tensor when `is_training` is False or "
                         f"`exponential_avg_factor` != 1.0. Received: `mean` {mean!r} and `variance` {variance!r}")
    x, scale, offset = convert_to_tensor(x), convert_to_tensor(scale), convert_to_tensor(offset)
    if mean is None:
        mean = convert_to_tensor([], dtype=dtypes.float32)
    if variance is None:
        variance = convert_to_tensor([], dtype=dtypes.float32)
    out = raw_ops.function("FusedBatchNormV3")(x=x, scale=scale, offset=offset, mean=mean, variance=variance,
                                               epsilon=epsilon, exponential_avg_factor=exponential_avg_factor,
                                               data_format=data_format, is_training=is_training, name=name)
    return out[0], out[1], out[2]
