"""Activation functions (TF's Relu, Relu6, Elu, Selu, LeakyRelu, Sigmoid, Tanh, Softplus,
Softsign, Softmax, LogSoftmax, Erfc), their gradient ops, and the composite activations TF
writes in Python (gelu, silu/swish).

Each op follows TF 2.21's kernel: its formula, its dtype list (Relu and Relu6 take integers,
the others floats only) and its gradient from nn_grad.py / math_grad.py (Relu's, Relu6's, Elu's
and Selu's gradients use the op's output, LeakyRelu's and Softsign's its input). The gradient
ops have gradients too (TF's ReluGrad, EluGrad, ... gradients), so second derivatives work.
FLOPs: one per output element, as every element-wise op (Softmax/LogSoftmax: five per element:
max, subtract, exp, sum, divide or log).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import dtypes, errors, graph_names, host_cpu, symbolic
from simdist.runtime.ops import (array, complex_unary, dispatch, math, onednn_softmax, packet_math, packet_tanh,
                                 softmax_eigen, trace_errors, unary)
from simdist.runtime.ops.args import t as _t
from simdist.runtime.ops.counting import no_tf_gradient
from simdist.runtime.ops.nn_rules import FLOATS, FLOATS_COMPLEX, REAL_NUMBERS, tf_repr, typed
from simdist.runtime.ops.registry import LAST_AXIS, RegisterGradient, register
from simdist.runtime.ops.simd import packet_mask
from simdist.runtime.ops.registry import binary as binary_op, unary as unary_op
from simdist.runtime.tensor import Tensor

__all__ = ["relu", "relu6", "elu", "selu", "leaky_relu", "sigmoid", "tanh", "softplus", "softsign", "erfc",
           "softmax", "log_softmax", "gelu", "silu", "swish", "relu_grad"]

SELU_SCALE = 1.0507009873554804934193349852946
SELU_ALPHA = 1.6732632423543772848170429916717
SELU_SCALE_ALPHA = 1.7580993408473768599402175208123   # relu_op_functor.h's scale_alpha (SELU_SCALE * SELU_ALPHA
                                                         # in float64 is 1.7580993408473766)

_special: Any = None


def _scipy_special() -> Any:
    """scipy.special, imported on first use (it is only needed by Sigmoid and Erfc)."""
    global _special
    if _special is None:
        import scipy.special
        _special = scipy.special
    return _special


def _zero(a: np.ndarray) -> Any:
    return a.dtype.type(0)


# --- forwards ---------------------------------------------------------------------------------------
def _signed_zeros(a: np.ndarray, out: np.ndarray) -> np.ndarray:
    """relu(-0.0): Eigen's scalar max(x, 0) keeps -0.0, its packets give +0.0 (simd.py)."""
    if (a.dtype.kind != "f" and a.dtype.name != "bfloat16") or not a.size:
        return out
    neg_zero = (a == 0) & np.signbit(a)
    if not neg_zero.any():
        return out
    from simdist.runtime.ops.simd import RELU_LANES, packet_mask
    packet = packet_mask(a.shape, a.dtype, RELU_LANES)
    keep = neg_zero if packet is None else neg_zero & ~packet
    return np.where(keep, a, np.where(neg_zero, _zero(a), out))


def _relu(a: np.ndarray) -> np.ndarray:
    """max(x, 0); float32/float64 subnormals as TF 2.21's Eigen kernel treats them (its subnormal rule
    is KEEP): a packet reads a subnormal as zero and gives +0.0; the scalar tail past the whole packets
    (all of a tensor smaller than one) is the compiler's loop: when its length is odd, its first element
    is a true scalar max that returns x itself (bits and sign: relu(1e-45) is 1e-45, relu(-1e-45) is
    -1e-45), and the rest go two at a time, reading a subnormal as a zero of its sign (relu([1e-45,
    -1e-45]) is [0, -0.0]). Observed on TF 2.21 (eagerly and in tf.function; ops.subnormals, fz63:
    fz62's open F, tests/ops/test_fz63_relu_subnormals_tf.py)."""
    if a.dtype == np.float32 or a.dtype == np.float64:
        sub = (a != 0) & (np.abs(a) < np.finfo(a.dtype).tiny)
        if sub.any():
            from simdist.runtime.ops.simd import RELU_LANES
            p = RELU_LANES[a.dtype.name]
            n = a.size
            start = (n // p) * p
            pos = np.arange(n).reshape(a.shape)
            scalar = pos == start if (n - start) % 2 else np.zeros(a.shape, dtype=bool)
            zero = np.where(pos < start, _zero(a), np.copysign(_zero(a), a))
            return np.where(sub & scalar, a, np.where(sub, zero, _signed_zeros(a, np.maximum(a, _zero(a)))))
    return _signed_zeros(a, np.maximum(a, _zero(a)))


def _relu6(a: np.ndarray) -> np.ndarray:
    """min(max(x, 0), 6); float32/float64 subnormals as TF 2.21's kernel treats them (its subnormal
    rule is KEEP): the scalar tail's max(x, 0) compares under DAZ (x reads as zero, so x itself is
    returned, bits and sign kept: relu6([5e-324, -5e-324]) is the input), a packet gives +0.0
    (ops.subnormals; fz5 seed 62 #191)."""
    out = _signed_zeros(a, np.minimum(np.maximum(a, _zero(a)), a.dtype.type(6)))
    if a.dtype == np.float32 or a.dtype == np.float64:
        sub = (a != 0) & (np.abs(a) < np.finfo(a.dtype).tiny)
        if sub.any():
            from simdist.runtime.ops.simd import RELU_LANES, packet_mask
            packet = packet_mask(a.shape, a.dtype, RELU_LANES)
            tail = sub if packet is None else sub & ~packet
            out = np.where(tail, a, np.where(sub, _zero(a), out))
    return out


def _elu(a: np.ndarray) -> np.ndarray:
    """TF's kernel (relu_op_functor.h): (x < 0).select(x.exp() - 1, x), exp(x) - 1 and not expm1
    (a tiny negative x gives 0), the exp Eigen's over the whole tensor: the Exp kernel's
    (unary.eigen_exp; NumPy's exp is dispatched per CPU: ops.host-cpu)."""
    with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
        return np.where(a < 0, unary.eigen_exp(a) - a.dtype.type(1), a)


def _selu(a: np.ndarray) -> np.ndarray:
    """(x < 0).select(scale_alpha * (x.exp() - 1), scale * x), scale_alpha TF's own constant
    rounded to the dtype (not scale · alpha: in float64 that is an ulp lower)."""
    s = a.dtype.type(SELU_SCALE)
    with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
        return np.where(a < 0, a.dtype.type(SELU_SCALE_ALPHA) * (unary.eigen_exp(a) - a.dtype.type(1)), s * a)


def _leaky_relu(a: np.ndarray, alpha: float) -> np.ndarray:
    """TF's select, also for alpha > 1; alpha is the op's `float` attr, 32 bits also for a float64
    input (a raw call's default 0.2 is 0.2000000029...; fuzz20 seed 2520261204 #62). bfloat16: a NaN in the
    packets (the first (n // 8) · 8 elements, flat) is the operand's own 16 bits, a signalling NaN's too (the select
    takes x), the tail's x · alpha rounded back with its sign (TF 2.21, bsweep65)."""
    out = np.where(a > 0, a, a * a.dtype.type(np.float32(alpha)))
    if a.dtype.name == "bfloat16" and a.size >= 8:
        flat, src = out.reshape(-1), np.ascontiguousarray(a).reshape(-1)
        head = (src.size // 8) * 8
        nan = np.isnan(src[:head].astype(np.float32))
        flat[:head][nan] = src[:head][nan]
    return out


def _sigmoid(a: np.ndarray) -> np.ndarray:
    """float32/float64: Eigen's logistic functor, bit for bit (packet_math.sigmoid,
    ops.eigen-kernels); other dtypes SciPy's expit."""
    from simdist.runtime.ops import packet_math
    if a.dtype.kind == "c":   # Eigen's scalar_logistic_op of a complex: 1 / (1 + exp(-x))
        with np.errstate(all="ignore"):
            return (1 / (1 + np.exp(-a))).astype(a.dtype)
    out = packet_math.sigmoid(a)
    return _scipy_special().expit(a) if out is None else out


def _softplus(a: np.ndarray) -> np.ndarray:
    """TF's kernel: x above -threshold, exp(x) below threshold, log1p(exp(x)) between
    (threshold = log(eps) + 2); float32/float64 with Eigen's exp and log1p in packets
    (packet_math.softplus, ops.eigen-kernels)."""
    from simdist.runtime.ops import packet_math
    out = packet_math.softplus(a)
    if out is not None:
        return out
    threshold = np.log(dtypes.finfo(a.dtype).eps) + 2
    with np.errstate(over="ignore", invalid="ignore"):
        e = np.exp(a)
        return np.where(a > -threshold, a, np.where(a < threshold, e, np.log1p(e))).astype(a.dtype, copy=False)


def _softsign(a: np.ndarray) -> np.ndarray:
    return a / (1 + np.abs(a))


def _erfc(a: np.ndarray) -> np.ndarray:
    """float32/float64: Eigen's generic_fast_erfc, packets and tail (packet_erf.py,
    ops.eigen-kernels); float16/bfloat16: SciPy's, rounded (TF's equal on every input measured), a NaN operand's
    result packet_math.half_operand_nans's (bfloat16 without packets: TF 2.21 keeps a NaN's sign everywhere)."""
    from simdist.runtime.ops import packet_erf, packet_math
    out = packet_erf.erfc(a)
    return packet_math.half_operand_nans(a, _scipy_special().erfc(a), bf16_packets=False) if out is None else out


# The dtypes whose Softmax TF 2.21's x86 build registers a oneDNN kernel for; it runs it where the
# CPU supports the dtype (host_cpu: float16 needs AVX512-FP16, AMX-FP16 or AVX-NE-CONVERT).
_ONEDNN_SOFTMAX = ("float32", "float16", "bfloat16")


def _onednn_softmax(a: np.ndarray) -> bool:
    return host_cpu.current().onednn(a.dtype.name, _ONEDNN_SOFTMAX)


def _check_rank(a: np.ndarray, op: str) -> None:
    """Softmax's rank rules on TF 2.21's x86 build: oneDNN's Softmax (float32, bfloat16, and
    float16 where the CPU has it) rejects rank 0 and rank > 5 (AbortedError); the Eigen kernels
    need rank >= 1. Rank 0 is the shape function's ValueError inside a tf.function
    (WithRankAtLeast(logits, 1))."""
    if op == "Softmax" and _onednn_softmax(a) and not 1 <= a.ndim <= 5:
        err: Exception = errors.AbortedError(None, None, "Input dims must be <= 5 and >=1 [Op:Softmax]")
        raise trace_errors.mark_shape(err, "Shape must be at least rank 1 but is rank 0", op, [[]]) if a.ndim == 0 \
            else err
    if a.ndim == 0:
        raise trace_errors.shape_error(f"logits must have >= 1 dimension, got [] [Op:{op}]",
                                       "Shape must be at least rank 1 but is rank 0", op, [[]])


def _softmax(a: np.ndarray, lanes: int = 1, eigen: bool = False) -> np.ndarray:
    """Softmax: oneDNN's kernel where TF 2.21 runs it (host_cpu), else Eigen's; `eigen` (the
    Grappler rule for a constant input, grappler._softmax_folded: constant folding runs the plain
    CPU kernel) Eigen's whatever the host."""
    _check_rank(a, "Softmax")
    if a.size == 0:
        return a.copy()
    onednn = _onednn_softmax(a) and not eigen
    if a.dtype.itemsize == 2:
        if not onednn:   # float16 on a CPU without oneDNN's float16: Eigen's kernel, in float16
            return _eigen_half_softmax(a, log=False)
        return _softmax(a.astype(np.float32)).astype(a.dtype)   # oneDNN: computes in float32, rounds once
    if onednn:   # float32: oneDNN's jit kernel, bit for bit (nn.softmax-nonfinite, its finite rows)
        width = 16 if host_cpu.current().has("avx512f") else 8
        out = onednn_softmax.softmax(a.reshape(-1, a.shape[-1]), width).reshape(a.shape)
        return _onednn_nonfinite_rows(a, out)
    # float32 where oneDNN is off, float64: Eigen's kernel, bit for bit (nn.softmax-eigen)
    return softmax_eigen.softmax(a.reshape(-1, a.shape[-1]), lanes).reshape(a.shape)


def _bfloat16_reducer_sum(e: np.ndarray) -> np.ndarray:
    """Eigen's SumReducer<bfloat16> over the last axis (kept): 8-lane packets, every addition
    rounded to bfloat16 but the lanes' tree (float32, rounded once); sum_order.py."""
    from simdist.runtime.ops.sum_order import eigen_order_sum
    if e.shape[-1] == 1:
        return e.copy()
    ordered = eigen_order_sum(e, (e.ndim - 1,), True)
    return np.add.reduce(e, axis=-1, keepdims=True) if ordered is None else ordered


def _eigen_half_softmax(a: np.ndarray, log: bool) -> np.ndarray:
    """TF 2.21's Eigen Softmax/LogSoftmax of float16 or bfloat16 (SoftmaxEigenImpl,
    softmax_op_functor.h): every step rounds to the dtype, as Eigen's half arithmetic does:
    shifted = x - max; exp(shifted); their sum (Eigen's float16 sum: math.py `_sum`); then
    exp · (1 / sum), or shifted - log(sum). A row holding NaN or +inf comes out NaN throughout.
    (bit-equal to TF 2.21 on 350 seeded float16 rows of 1-100 entries, clause nn.softmax-nonfinite)"""
    dt, f32 = a.dtype, np.float32
    with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
        shifted = (a.astype(f32) - np.max(a, axis=-1, keepdims=True).astype(f32)).astype(dt)
        # Eigen's half exp: float32's pexp on packets of 8 and expf on the tail, rounded; over the
        # whole tensor (Softmax) or inside the row reduction (LogSoftmax's exp().sum(), per row)
        rows, flat = softmax_eigen.exps(shifted.astype(f32).reshape(-1, a.shape[-1]), flat=not log)
        e = (rows if log else flat).reshape(a.shape).astype(dt)
        if dt == np.float16:
            total = math._sum(e, (a.ndim - 1,), True).astype(f32)
        else:   # bfloat16: Eigen's own tensor sum, SumReducer<bfloat16> (not the Sum op's float32 cast)
            total = _bfloat16_reducer_sum(e).astype(f32)
        if log:
            # the sums' log over the [batch] vector: Eigen's half log (plog_float / logf, rounded)
            log_total = packet_math.log(total.astype(dt)).astype(f32)
            return (shifted.astype(f32) - log_total).astype(dt)
        return (e.astype(f32) * (f32(1) / total).astype(dt).astype(f32)).astype(dt)


def _onednn_nonfinite_rows(a: np.ndarray, out: np.ndarray) -> np.ndarray:
    """TF 2.21's float32/float16 Softmax is oneDNN's: in a row holding NaN or +inf, those entries
    are NaN and every other entry 0 (-inf included), where the formula gives NaN throughout
    (float64 runs Eigen's kernel: all NaN, as NumPy). Clause nn.softmax-nonfinite."""
    bad = np.isnan(a) | np.isposinf(a)
    rows = bad.any(axis=-1, keepdims=True)
    if not rows.any():
        return out
    # x86's default NaN (sign set, 0xffc00000), whatever the input NaN's bits: the kernel makes its NaNs
    nan = np.array(-np.nan, out.dtype)
    return np.where(rows, np.where(bad | _max_pass_nans(a), nan, np.zeros((), out.dtype)), out)


def _vmax(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """x86's vmaxps(a, b): b where either is NaN, else the larger."""
    return np.where(np.isnan(a) | np.isnan(b), b, np.maximum(a, b))


def _lane_max(flat: np.ndarray) -> np.ndarray:
    """The 16 lanes of the max oneDNN's jit softmax computes for each row of flat [R, n] (float32), before the
    row's entries subtract it (entry j takes lane j mod 16). Its accumulate_vmax: the n // 16 whole vectors go to
    four accumulators in turn (v0 → acc0, v1 → acc1, ..., v4 → acc0) while a run of four remains, the rest of
    them to acc0, acc1, acc2; the partial vector last to acc0 (its lanes only); each accumulator starts at
    -FLT_MAX and takes `vmaxps(acc, v)`, which returns v where either is NaN; the accumulators join as
    vmax(vmax(acc0, acc1), vmax(acc2, acc3)) (two or three of them: vmax(acc0, acc1), vmax(vmax(acc0, acc1),
    acc2)); then the horizontal max pairs lanes l and l^8, l^4, l^2, l^1 in turn, `vmaxps(v[l], v[p])`."""
    rows, n = flat.shape
    full, part = divmod(n, 16)
    runs = full // 4
    used = 4 if runs else max(full, 1)
    acc = [np.full((rows, 16), -np.finfo(np.float32).max, np.float32) for _ in range(used)]
    with np.errstate(invalid="ignore"):
        for v in range(full):
            k = v % 4 if v < 4 * runs else v - 4 * runs
            acc[k] = _vmax(acc[k], flat[:, 16 * v:16 * v + 16])
        if part:
            acc[0][:, :part] = _vmax(acc[0][:, :part], flat[:, 16 * full:])
        if used == 4:
            m = _vmax(_vmax(acc[0], acc[1]), _vmax(acc[2], acc[3]))
        else:
            m = acc[0]
            for k in range(1, used):
                m = _vmax(m, acc[k])
        idx = np.arange(16)
        for step in (8, 4, 2, 1):
            m = _vmax(m, m[:, idx ^ step])
    return m


def _max_pass_nans(a: np.ndarray) -> np.ndarray:
    """The entries besides the NaNs and +infs themselves that oneDNN's softmax makes NaN in a row holding NaN, from the
    max it gives each entry's lane (`_lane_max`): (1) where that max is NaN, x - max is NaN (a NaN survives the max
    pass only from the last vector that pass takes normally, and the horizontal max moves lane l's to lane 15 - l:
    `softmax([0, 0, nan] * 3)` is NaN at 2, 5, 8 and at 7; the fuzzer's seed 20261130 #12311); (2) where exp(x -
    max) overflows: an accumulator or lane that met a NaN keeps the value after it, not its max, so an entry far above
    it is exp = inf, inf · (1 / sum) = NaN (TF 2.21 observed: softmax of 17 entries, NaN at 9 and 100 at 1 is NaN at 1,
    6 and 9; 5 at 1 only 6 and 9; fz65, the rare-shape fz54b seed 65502 #5; rows of 33 and more through the four
    accumulators: fix65n, the same seed's float16 [3, 9, 33] softmax)."""
    n = a.shape[-1]
    flat = a.reshape(-1, n).astype(np.float32)
    with np.errstate(invalid="ignore", over="ignore"):
        m = _lane_max(flat)[:, np.arange(n) % 16]
        out = np.isnan(m) | (np.isfinite(flat) & np.isfinite(m) & (flat - m > np.float32(88.72283935546875)))
    return out.reshape(a.shape)


def _log_softmax(a: np.ndarray, lanes: int = 1) -> np.ndarray:
    _check_rank(a, "LogSoftmax")
    if a.size == 0:
        return a.copy()
    if a.dtype.name in ("float16", "bfloat16"):   # LogSoftmax is Eigen's kernel for every dtype and CPU
        return _eigen_half_softmax(a, log=True)
    if a.dtype.name in softmax_eigen.DTYPES:   # bit for bit (nn.softmax-eigen)
        return softmax_eigen.log_softmax(a.reshape(-1, a.shape[-1]), lanes).reshape(a.shape)
    shifted = a - np.max(a, axis=-1, keepdims=True)
    return shifted - np.log(np.sum(np.exp(shifted), axis=-1, keepdims=True))


def _five_per_element(arrays: Any, out: Any, attrs: Any) -> float:
    return 5.0 * out.size


RELU = unary_op("Relu", _relu, typed("Relu", REAL_NUMBERS + ", qint8"))
RELU6 = unary_op("Relu6", _relu6, typed("Relu6", REAL_NUMBERS))
ELU = unary_op("Elu", _elu, typed("Elu", FLOATS))
SELU = unary_op("Selu", packet_math.bf16_packets(_selu), typed("Selu", FLOATS))
LEAKY_RELU = unary_op("LeakyRelu", _leaky_relu, typed("LeakyRelu", FLOATS))
SIGMOID = unary_op("Sigmoid", packet_math.bf16_packets(complex_unary.kernel("Sigmoid", _sigmoid)), typed("Sigmoid", FLOATS_COMPLEX))
TANH = unary_op("Tanh", packet_math.bf16_packets(complex_unary.kernel("Tanh", packet_tanh.tanh)), typed("Tanh", FLOATS_COMPLEX))   # float32: Eigen's ptanh_float
SOFTPLUS = unary_op("Softplus", _softplus, typed("Softplus", FLOATS))
SOFTSIGN = unary_op("Softsign", packet_math.bf16_packets(_softsign), typed("Softsign", FLOATS))
ERFC = unary_op("Erfc", _erfc, typed("Erfc", "bfloat16, half, float, double"))
SOFTMAX = register("Softmax", _softmax, typed("Softmax", FLOATS), _five_per_element, kind="nn", fusion=LAST_AXIS)
LOG_SOFTMAX = register("LogSoftmax", _log_softmax, typed("LogSoftmax", FLOATS), _five_per_element, kind="nn",
                       fusion=LAST_AXIS)
# Eigen's flat steps (softmax_eigen.py) see the whole tensor: stacked replica lanes are computed
# each as its own tensor (lanes/forms.py passes lanes=R)
SOFTMAX.lane_forward = _softmax
# (Softmax's and LogSoftmax's shape functions, WithRankAtLeast(logits, 1), see a rank only when the graph
# knows it: an input_signature of unknown rank called with a scalar is the kernel's error when the graph
# runs; fz22, fuzz20 seed 2220261202 #65)
SOFTMAX.shape_fn = LOG_SOFTMAX.shape_fn = lambda shapes, attrs: shapes[0] is not None
LOG_SOFTMAX.lane_forward = _log_softmax

# --- the gradient kernels (TF's ReluGrad(gradients, features) & co.) ------------------------------------
# TF's CPU kernels multiply by the mask (so an inf upstream gradient at a masked element is NaN)
RELU_GRAD = binary_op("ReluGrad", lambda g, y: g * (y > 0), typed("ReluGrad", REAL_NUMBERS))
RELU6_GRAD = binary_op("Relu6Grad", lambda g, y: g * ((y > 0) & (y < 6)), typed("Relu6Grad", REAL_NUMBERS))
ELU_GRAD = binary_op("EluGrad", lambda g, y: np.where(y < 0, g * (y + 1), g), typed("EluGrad", FLOATS))
SELU_GRAD = binary_op("SeluGrad", lambda g, y: np.where(y < 0, g * (y + y.dtype.type(SELU_SCALE_ALPHA)),
                                                       g * y.dtype.type(SELU_SCALE)), typed("SeluGrad", FLOATS))
LEAKY_RELU_GRAD = binary_op("LeakyReluGrad", lambda g, x, alpha: np.where(x > 0, g, g * x.dtype.type(np.float32(alpha))),
                           typed("LeakyReluGrad", FLOATS))
def _sigmoid_grad(y: np.ndarray, dy: np.ndarray) -> np.ndarray:
    """TF's scalar_sigmoid_gradient_op: dy * (y * (1 - y)) in packets, (dy * y) * (1 - y) in the
    scalar tail (simd.py's packet lanes; ops.eigen-kernels)."""
    if y.dtype.kind == "c":
        return _sigmoid_grad_complex(y, dy)
    packets = dy * (y * (1 - y))
    mask = packet_mask(packets.shape, packets.dtype, _GRAD_LANES)
    if mask is not None and mask.all():
        return packets
    tail = (dy * y) * (1 - y)
    return tail if mask is None else np.where(mask, packets, tail)


def _sigmoid_grad_complex(y: np.ndarray, dy: np.ndarray) -> np.ndarray:
    """Complex: 1 - y part by part (DAZ/FTZ), then Eigen's complex products (complex_mul.multiply:
    textbook in packets, Annex G in the scalar tail) in each path's order, dy * (y * (1 - y)) in
    packets and (dy * y) * (1 - y) in the tail (fuzz20 seed 2420261202 #45: NaN - inf j times
    4 - 0.5j is inf - inf j in the tail)."""
    from simdist.runtime.ops.complex_mul import _ftz, multiply
    part = y.real.dtype.type
    one_minus = np.empty(y.shape, y.dtype)
    with np.errstate(all="ignore"):
        one_minus.real, one_minus.imag = _ftz(part(1) - _ftz(y.real)), _ftz(part(0) - _ftz(y.imag))
    packets = multiply(dy, multiply(y, one_minus))
    tail = multiply(multiply(dy, y), one_minus)
    mask = packet_mask(packets.shape, packets.dtype, {"complex64": 4, "complex128": 2})
    return tail if mask is None else np.where(mask, packets, tail)


_GRAD_LANES = {"float32": 8, "float64": 4, "float16": 8, "bfloat16": 8}
SIGMOID_GRAD = binary_op("SigmoidGrad", _sigmoid_grad, typed("SigmoidGrad", FLOATS_COMPLEX))
def _tanh_grad(y: np.ndarray, dy: np.ndarray) -> np.ndarray:
    """TF's scalar_tanh_gradient_op: dy * (1 - y * y); complex in Eigen's complex products (textbook
    in packets, Annex G in the scalar tail, parts under DAZ/FTZ: complex_mul.multiply) and the
    subtraction from T(1) part by part (fz7 ext seeds 72, 82 #171)."""
    if y.dtype.kind != "c":
        return dy * (1 - y * y)
    from simdist.runtime.ops.complex_mul import _ftz, multiply
    yy = multiply(y, y)
    t = np.empty(yy.shape, yy.dtype)
    part = yy.real.dtype.type
    with np.errstate(all="ignore"):
        t.real, t.imag = _ftz(part(1) - yy.real), _ftz(part(0) - yy.imag)
    return multiply(np.broadcast_to(dy, t.shape), t)


TANH_GRAD = binary_op("TanhGrad", _tanh_grad, typed("TanhGrad", FLOATS_COMPLEX))
SOFTSIGN_GRAD = binary_op("SoftsignGrad", lambda g, x: g / np.square(1 + np.abs(x)), typed("SoftsignGrad", FLOATS))


def _softplus_grad_kernel(g: np.ndarray, x: np.ndarray) -> np.ndarray:
    """relu_op_functor.h SoftplusGrad: gradients / ((-features).exp() + T(1)), with Eigen's exp."""
    from simdist.runtime.ops.unary import eigen_exp
    with np.errstate(all="ignore"):
        return (g / (eigen_exp(-x) + x.dtype.type(1))).astype(x.dtype, copy=False)


SOFTPLUS_GRAD = binary_op("SoftplusGrad", _softplus_grad_kernel, typed("SoftplusGrad", FLOATS))


def _op1(op: Any, x: Any, attrs: dict | None = None) -> Tensor:
    return dispatch.execute(op, (_t(x),), attrs)


def relu(features: Any, name: str | None = None) -> Tensor:
    """`tf.nn.relu`: max(x, 0); integer dtypes too."""
    return _op1(RELU, features)


def relu6(features: Any, name: str | None = None) -> Tensor:
    """`tf.nn.relu6`: min(max(x, 0), 6)."""
    return _op1(RELU6, features)


def elu(features: Any, name: str | None = None) -> Tensor:
    """`tf.nn.elu`: x if x > 0 else exp(x) - 1."""
    return _op1(ELU, features)


def selu(features: Any, name: str | None = None) -> Tensor:
    """`tf.nn.selu`: scale * (x if x > 0 else alpha * (exp(x) - 1))."""
    return _op1(SELU, features)


def leaky_relu(features: Any, alpha: float = 0.2, name: str | None = None) -> Tensor:
    """`tf.nn.leaky_relu`: x if x > 0 else alpha * x; integer inputs are cast to float32 first, as TF."""
    x = _t(features)
    if x.dtype.is_integer:
        x = math.cast(x, "float32")
    if isinstance(alpha, np.ndarray):
        alpha = alpha.item()
    if isinstance(alpha, Tensor) or not isinstance(alpha, (int, float, np.floating, np.integer)):
        raise TypeError(f"Expected float for argument 'alpha' not {alpha!r}.")
    # alpha is a `float` attr of the LeakyRelu op: 32 bits, so 0.1 is 0.10000000149... in a float64 program
    return dispatch.execute(LEAKY_RELU, (x,), {"alpha": float(np.float32(alpha))})


def sigmoid(x: Any, name: str | None = None) -> Tensor:
    """`tf.math.sigmoid` (= `tf.nn.sigmoid`, `tf.sigmoid`): 1 / (1 + exp(-x))."""
    return _op1(SIGMOID, x)


def tanh(x: Any, name: str | None = None) -> Tensor:
    """`tf.math.tanh` (= `tf.nn.tanh`, `tf.tanh`)."""
    return _op1(TANH, x)


def softplus(features: Any, name: str | None = None) -> Tensor:
    """`tf.math.softplus` (= `tf.nn.softplus`): log(exp(x) + 1), computed stably."""
    return _op1(SOFTPLUS, features)


def softsign(features: Any, name: str | None = None) -> Tensor:
    """`tf.nn.softsign`: x / (abs(x) + 1)."""
    return _op1(SOFTSIGN, features)


def erfc(x: Any, name: str | None = None) -> Tensor:
    """The complementary error function (TF's Erfc; tf.nn.gelu uses it)."""
    return _op1(ERFC, x)


def relu_grad(gradients: Any, features: Any) -> Tensor:
    return dispatch.execute(RELU_GRAD, (_t(gradients), _t(features)))


def _move_axis_last(x: Tensor, axis: int) -> tuple[int, ...]:
    """TF's _wrap_2d_function swap: dims `axis` and last exchanged (its own inverse)."""
    perm = list(range(x.ndim))
    perm[axis], perm[-1] = perm[-1], perm[axis]
    return tuple(perm)


def _axis_dtype(dt: Any, numpy: bool, nonnegative: bool) -> None:
    """_wrap_2d_function's arithmetic on an integer axis other than the last (clause ops.index-dtypes; TF 2.21
    observed, vsweep62): a tensor axis is `where(less(dim, 0), dim + ndims, dim)` with ndims the int32 rank, so an
    eager one of any dtype but int32 is AddV2's input-type error; a NumPy axis reaches `math_ops.range(dim % ndims)`,
    whose dtype inference asserts its start's dtype is one it ranks (int32, int64, floats): a non-negative np.uint8,
    np.int16, np.int8 is its AssertionError, eagerly and traced (a negative one is first `dim += ndims`, an int32
    tensor)."""
    if dt is None:
        return
    if numpy:
        if dt.kind in "iu" and dt.name not in ("int32", "int64") and nonnegative:
            raise AssertionError()
        return
    if dt.is_integer and dt != dtypes.int32:
        from simdist.runtime.ops import args
        raise errors.InvalidArgumentError(None, None, f"cannot compute AddV2 as input #1(zero-based) was expected to "
                                                      f"be a {args.tf_name(dt)} tensor but is a int32 tensor [Op:AddV2]")


def _along_axis(op: Any, logits: Any, axis: Any, name: str | None = None) -> Tensor:
    """Softmax/LogSoftmax on `axis`: the op runs on the last axis; any other axis is swapped to
    the end and back (TF's _wrap_2d_function), with TF's range check."""
    x = _t(logits)
    axis = -1 if axis is None else axis
    # (the dtype of an integer axis given as a tensor or a NumPy value: _wrap_2d_function computes with it; ops.index-dtypes)
    axis_dt = axis.dtype if isinstance(axis, (Tensor, np.ndarray, np.generic)) else None
    if isinstance(axis, Tensor) or hasattr(axis, "_as_tensor"):
        # (_wrap_2d_function's `(dim == -1) or ...` takes the truth of a tensor: a graph one's is
        # OperatorNotAllowedInGraphError, an eager one of several elements NumPy's ValueError;
        # fz11, fz4 seed 41 #125)
        from simdist.runtime import symbolic
        symbolic.check_truth_taken(axis)
        axis = int(np.asarray(axis))
    nd = x.ndim
    if axis != -1:
        from simdist.runtime.ops import static_shapes
        if static_shapes.rank_unknown(x):
            # (traced with an unknown rank: _wrap_2d_function computes `shape.ndims - 1` of None in Python)
            raise TypeError("unsupported operand type(s) for -: 'NoneType' and 'int'")
    if axis == -1 or axis == nd - 1:
        return dispatch.execute(op, (x,))
    if not -nd <= axis < nd:
        err = errors.InvalidArgumentError(
            None, None, f"`dim` must be in the range [{-nd}, {nd}) where {nd} is the number of dimensions in the "
            f"input. Received: dim={axis}")
        # (nn_ops._wrap_2d_function checks it in Python against the static rank: traced too)
        raise trace_errors.at_build(err)
    _axis_dtype(axis_dt, isinstance(axis_dt, np.dtype), int(axis) >= 0 if axis_dt is not None else True)
    if isinstance(axis, float):
        # (_swap_axis builds the permutation from `dim % ndims` with math_ops.range: a float dim makes
        # `range(dim + 1, ndims - 1)` a float Range, whose start above its limit is the kernel's error (the
        # shape function's on these constants in a graph), else a float perm Transpose refuses; fz32b, fresh
        # fourteenth generator seed 1420323003 #199: `softmax(int list, axis=1.5)`, measured on TF 2.21)
        if axis < 0:   # (`dim += ndims`, the int32 rank tensor: the float converts to int32 first)
            raise TypeError(f"Cannot convert {axis!r} to EagerTensor of dtype int32")
        start, limit = axis % nd + 1, nd - 1
        if start > limit:
            text = f"Requires start <= limit when delta > 0: {start:g}/{limit:g}"
            raise trace_errors.static(errors.InvalidArgumentError(None, None, f"{text} [Op:Range]"), ValueError, text)
        raise trace_errors.static(errors.InvalidArgumentError(
            None, None, "Value for attr 'Tperm' of float is not in the list of allowed values: int32, int64 "
            "[Op:Transpose]"), TypeError, "Value passed to parameter 'perm' has DataType float32 not in list of "
            "allowed values: int32, int64")
    perm = _move_axis_last(x, axis % nd)
    # (inside a tf.function, the nodes _wrap_2d_function's Python makes, which simdist computes without: rank's
    # Const `Rank`, for a negative axis `dim + ndims` (`add`), the second `Rank`, `dim % ndims` (`mod`); each swap
    # subtract(input_rank, 1)'s `Sub`, `range`, for a negative axis `dim_index + 1` (`add`), `range`, `concat`, then
    # its transpose; the last transpose takes `name`. Observed on TF 2.21: fz57, fz54b seed 57105 #6)
    from simdist.runtime import graph_names
    neg = axis < 0
    graph_names.reserve("Rank", *(("add",) if neg else ()), "Rank", *(("mod",) if neg else ()))
    swap = ("Sub", "range", *(("add",) if neg else ()), "range", "concat")
    graph_names.reserve(*swap)
    inner = dispatch.execute(op, (array.transpose(x, perm),))
    graph_names.reserve(*swap)
    return array.transpose(inner, perm, name=name)


def softmax(logits: Any, axis: Any = None, name: str | None = None) -> Tensor:
    """`tf.nn.softmax` (= `tf.math.softmax`): exp(x) / sum(exp(x)) along `axis` (default -1)."""
    return _along_axis(SOFTMAX, logits, axis, name)


def log_softmax(logits: Any, axis: Any = None, name: str | None = None) -> Tensor:
    """`tf.nn.log_softmax` (= `tf.math.log_softmax`): x - log(sum(exp(x))) along `axis`."""
    return _along_axis(LOG_SOFTMAX, logits, axis, name)


def gelu(features: Any, approximate: bool = False, name: str | None = None) -> Tensor:
    """`tf.nn.gelu`, composed of ops as TF 2.21 writes it: 0.5 x erfc(-x / sqrt(2)), or with
    `approximate=True` 0.5 x (1 + tanh(0.7978845608028654 (x + 0.044715 x^3)))."""
    x = _t(features)
    if not x.dtype.is_floating:
        raise ValueError(f"`features.dtype` must be a floating point tensor.Received:features.dtype={tf_repr(x.dtype)}")
    if symbolic.flag(approximate):   # (a graph tensor's truth: OperatorNotAllowedInGraphError; fz65)
        coeff = math.cast(0.044715, x.dtype)
        # (one expression, evaluated as TF's: `0.5 * x` is the function graph's node `mul`, made first)
        return 0.5 * x * (1.0 + tanh(0.7978845608028654 * (x + coeff * math.pow_(x, 3))))
    return 0.5 * x * erfc(-x * math.cast(0.7071067811865476, x.dtype))


def silu(features: Any, beta: Any = 1.0) -> Tensor:
    """`tf.nn.silu` (= `tf.nn.swish`): x * sigmoid(beta * x), with TF's custom gradient (which
    recomputes the sigmoid and also differentiates beta)."""
    from simdist.runtime import graph_names
    from simdist.runtime.autodiff import custom_gradient
    x = _t(features)
    if not isinstance(beta, Tensor):
        graph_names.reserve("beta")   # (nn_impl.swish: ops.convert_to_tensor(beta, name="beta"), a Const node)
    b = math.cast(_t(beta), x.dtype)

    @custom_gradient
    def swish_impl(features: Tensor, beta: Tensor) -> Any:
        def grad(dy: Tensor) -> Any:
            s = sigmoid(beta * features)
            activation_grad = s * (1.0 + (beta * features) * (1.0 - s))
            beta_grad = math.reduce_sum(dy * unary.square(features) * s * (1.0 - s))
            return dy * activation_grad, beta_grad
        return features * sigmoid(beta * features), grad

    return swish_impl(x, b)


swish = silu


# --- gradients (nn_grad.py, math_grad.py) ----------------------------------------------------------------
@RegisterGradient("Relu")
def _relu_grad(op: Any, grad: Any) -> list:
    return [relu_grad(grad, op.outputs[0])]


@RegisterGradient("ReluGrad")
def _relu_grad_grad(op: Any, grad: Any) -> list:
    x = op.inputs[1]
    return [relu_grad(grad, x), array.zeros_like(x)]


@RegisterGradient("Relu6")
def _relu6_grad(op: Any, grad: Any) -> list:
    return [dispatch.execute(RELU6_GRAD, (grad, op.outputs[0]))]


@RegisterGradient("Relu6Grad")
def _relu6_grad_grad(op: Any, grad: Any) -> list:
    x = op.inputs[1]
    return [dispatch.execute(RELU6_GRAD, (grad, x)), array.zeros_like(x)]


@RegisterGradient("Elu")
def _elu_grad(op: Any, grad: Any) -> list:
    return [dispatch.execute(ELU_GRAD, (grad, op.outputs[0]))]


@RegisterGradient("EluGrad")
def _elu_grad_grad(op: Any, grad: Any) -> list:
    elu_x = op.inputs[1]
    return [dispatch.execute(ELU_GRAD, (grad, elu_x)),
            math.where(elu_x < 0, grad * op.inputs[0], array.zeros_like(elu_x))]


@RegisterGradient("Selu")
def _selu_grad(op: Any, grad: Any) -> list:
    return [dispatch.execute(SELU_GRAD, (grad, op.outputs[0]))]


@RegisterGradient("SeluGrad")
def _selu_grad_grad(op: Any, grad: Any) -> list:
    selu_x = op.inputs[1]
    return [dispatch.execute(SELU_GRAD, (grad, selu_x)),
            math.where(selu_x < 0.0, grad * op.inputs[0], array.zeros_like(selu_x))]


@RegisterGradient("LeakyRelu")
def _leaky_relu_grad(op: Any, grad: Any) -> list:
    return [dispatch.execute(LEAKY_RELU_GRAD, (grad, op.inputs[0]), {"alpha": op.get_attr("alpha")})]


@RegisterGradient("LeakyReluGrad")
def _leaky_relu_grad_grad(op: Any, grad: Any) -> list:
    x = op.inputs[1]
    return [dispatch.execute(LEAKY_RELU_GRAD, (grad, x), {"alpha": op.get_attr("alpha")}), array.zeros_like(x)]


@RegisterGradient("Sigmoid")
def _sigmoid_grad(op: Any, grad: Any) -> list:
    from simdist.runtime.ops.unary import _conj
    return [dispatch.execute(SIGMOID_GRAD, (_conj(op.outputs[0]), grad))]


@RegisterGradient("SigmoidGrad")
def _sigmoid_grad_grad(op: Any, grad: Any) -> list:
    """math_grad._SigmoidGradGrad: the inputs conjugated (complex: fuzz20 seed 2020261202 #174)."""
    from simdist.runtime.ops.complex_math import conj_of
    a, b = conj_of(op.inputs[0]), conj_of(op.inputs[1])
    gb = grad * b
    return [gb - 2.0 * gb * a, dispatch.execute(SIGMOID_GRAD, (a, grad))]


@RegisterGradient("Tanh")
def _tanh_grad(op: Any, grad: Any) -> list:
    from simdist.runtime.ops.unary import _conj
    return [dispatch.execute(TANH_GRAD, (_conj(op.outputs[0]), grad))]


@RegisterGradient("TanhGrad")
def _tanh_grad_grad(op: Any, grad: Any) -> list:
    """math_grad._TanhGradGrad: the inputs conjugated, as SigmoidGrad's (a complex tanh's second-order
    gradient had the imaginary part's sign flipped; fz3 --ext8 seed 2402 #277)."""
    from simdist.runtime.ops.complex_math import conj_of
    a, b = conj_of(op.inputs[0]), conj_of(op.inputs[1])
    return [grad * -2.0 * b * a, dispatch.execute(TANH_GRAD, (a, grad))]


@RegisterGradient("Softplus")
def _softplus_grad(op: Any, grad: Any) -> list:
    """nn_grad._SoftplusGrad: grad * sigmoid(features) (not the SoftplusGrad kernel, whose values differ in the
    last bits: TF 2.21's own registration, read in nn_grad.py)."""
    return [grad * sigmoid(op.inputs[0])]


@RegisterGradient("SoftplusGrad")
def _softplus_grad_grad(op: Any, grad: Any) -> list:
    """nn_grad._SoftplusGradGrad: (softplus_grad(grad, x), grad * dy / (exp(-x) + 2 + exp(x))), so an infinite
    feature's second derivative is 0, not the NaN of differentiating the kernel's formula (grad_edges)."""
    from simdist.runtime.ops import unary
    dy, x = op.inputs
    two = math.cast(2.0, x.dtype)
    d2x = grad * dy / (unary.exp(-x) + two + unary.exp(x))
    return [dispatch.execute(SOFTPLUS_GRAD, (grad, x)), d2x]


@RegisterGradient("Softsign")
def _softsign_grad(op: Any, grad: Any) -> list:
    return [dispatch.execute(SOFTSIGN_GRAD, (grad, op.inputs[0]))]


# TF 2.21 registers no gradient for SoftsignGrad: a second derivative of softsign is LookupError there
# (fuzz20 tape seed 2520261202 #68; simdist differentiated it before)
no_tf_gradient("SoftsignGrad")


@RegisterGradient("Erfc")
def _erfc_grad(op: Any, grad: Any) -> list:
    x = op.inputs[0]
    # (a Const of grad's dtype as math_grad.py makes it: a Cast of a float32 literal would round the float64
    # constant to float32 and name the node Cast, which Grappler's canonical order reads)
    minus_two_over_root_pi = graph_names.named_constant(array.constant(-2 / np.sqrt(np.pi), dtype=grad.dtype))
    return [grad * minus_two_over_root_pi * unary.exp(-unary.square(x))]


@RegisterGradient("Softmax")
def _softmax_grad(op: Any, grad_softmax: Any) -> list:
    s = op.outputs[0]
    sum_channels = math.reduce_sum(grad_softmax * s, -1, keepdims=True)
    return [(grad_softmax - sum_channels) * s]


@RegisterGradient("LogSoftmax")
def _log_softmax_grad(op: Any, grad: Any) -> list:
    s = unary.exp(op.outputs[0])
    return [grad - math.reduce_sum(grad, -1, keepdims=True) * s]
