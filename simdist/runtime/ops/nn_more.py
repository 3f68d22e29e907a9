"""tf.nn functions beyond nn.py: crelu, normalize_moments, sufficient_statistics, weighted_moments,
max_pool1d, avg_pool1d and log_poisson_loss, composed of other ops as TF 2.21's nn_ops.py and
nn_impl.py compose them (so their values, dtypes and gradients are those ops'); and
local_response_normalization (lrn: the LRN op, with TF's LRNGrad as its gradient).
"""

from __future__ import annotations

import math as _pymath
from typing import Any

import numpy as np

from simdist.runtime import dtypes, errors, graph_names, symbolic
from simdist.runtime.ops import args, attr_rules, dispatch, trace_errors
from simdist.runtime.ops import static_shapes as _static_shapes
from simdist.runtime.ops.args import t as _t
from simdist.runtime.ops.counting import no_tf_gradient
from simdist.runtime.ops.registry import RegisterGradient, lanes, register
from simdist.runtime.tensor import Tensor, convert_to_tensor

__all__ = ["crelu", "normalize_moments", "sufficient_statistics", "weighted_moments", "max_pool1d", "avg_pool1d",
           "log_poisson_loss", "local_response_normalization", "lrn"]


def crelu(features: Any, axis: int = -1, name: str | None = None) -> Tensor:
    """`tf.nn.crelu`: relu(concat([x, -x], axis))."""
    from simdist.runtime.ops.activations import relu
    from simdist.runtime.ops.array import concat
    x = _t(features)
    return relu(concat([x, -x], axis))


def normalize_moments(counts: Any, mean_ss: Any, variance_ss: Any, shift: Any, name: str | None = None) -> tuple:
    """`tf.nn.normalize_moments`: (mean, variance) from sufficient statistics: mean_ss / counts
    (+ shift), variance_ss / counts - (mean_ss / counts)^2."""
    from simdist.runtime.ops import math
    from simdist.runtime.ops.unary import reciprocal, square
    divisor = reciprocal(counts)
    shifted_mean = math.multiply(mean_ss, divisor)
    mean = math.add(shifted_mean, shift) if shift is not None else shifted_mean
    variance = math.subtract(math.multiply(variance_ss, divisor), square(shifted_mean))
    return mean, variance


@graph_names.scoped("sufficient_statistics")   # (nn_impl's name_scope; fz65)
def sufficient_statistics(x: Any, axes: Any, shift: Any = None, keepdims: bool = False, name: str | None = None) -> tuple:
    """`tf.nn.sufficient_statistics`: (count, sum(x - shift), sum((x - shift)^2), shift) over
    axes; the count is a constant of x's dtype."""
    from simdist.runtime.ops import math
    from simdist.runtime.ops.unary import square
    xt = _t(x)
    # (nn_impl iterates `axes` as given: an int is Python's TypeError "'int' object is not
    # iterable"; fz14 seed 14 #105; a graph tensor in a tf.function is Tensor.__iter__'s
    # OperatorNotAllowedInGraphError, before a scalar's TypeError: seed 1420262402 #238)
    from simdist.runtime import symbolic
    if symbolic.is_graph(axes):
        raise symbolic._error("iter", "SymbolicTensor")
    if isinstance(axes, Tensor) and axes.ndim >= 1 or \
            isinstance(axes, (list, tuple)) and any(isinstance(a, Tensor) for a in axes):
        if any(True for _ in axes):   # (`set(axes)` hashes each element: an eager tensor is unhashable)
            raise TypeError("Tensor is unhashable. Instead, use tensor.ref() as the key.")
    ax = sorted(set(int(a) for a in axes))
    shp = xt.shape.as_list()
    count = 1
    for d in ax:
        count *= shp[d]
    counts = convert_to_tensor(count, dtype=xt.dtype)
    if shift is not None:
        shift = _t(shift)
        m_ss = math.subtract(xt, shift)
        v_ss = math.squared_difference(xt, shift)
    else:
        m_ss, v_ss = xt, square(xt)
    return counts, math.reduce_sum(m_ss, ax, keepdims=keepdims), math.reduce_sum(v_ss, ax, keepdims=keepdims), shift


@graph_names.scoped("weighted_moments")   # (nn_impl's name_scope: its Sums are `weighted_moments/Sum`; fz65)
def weighted_moments(x: Any, axes: Any, frequency_weights: Any, keepdims: bool = False,
                     name: str | None = None) -> tuple:
    """`tf.nn.weighted_moments`: the frequency-weighted mean and variance over axes (div_no_nan by
    the summed weights; float16 computed in float32 and cast back)."""
    from simdist.runtime.ops import math
    from simdist.runtime.ops.array import squeeze, zeros_like
    xt, w = _t(x), _t(frequency_weights)
    needs_cast = xt.dtype == dtypes.float16
    if needs_cast:
        xt = math.cast(xt, dtypes.float32)
    if w.dtype != xt.dtype:
        w = math.cast(w, xt.dtype)
    weighted_input_sum = math.reduce_sum(w * xt, axes, keepdims=True)
    broadcasted_weights = w + zeros_like(xt)
    sum_of_weights = math.reduce_sum(broadcasted_weights, axes, keepdims=True)
    weighted_mean = math.divide_no_nan(weighted_input_sum, sum_of_weights)
    weighted_distsq = math.reduce_sum(w * math.squared_difference(xt, weighted_mean), axes, keepdims=True)
    weighted_variance = math.divide_no_nan(weighted_distsq, sum_of_weights)
    if not symbolic.flag(keepdims):
        weighted_mean = squeeze(weighted_mean, axis=axes)
        weighted_variance = squeeze(weighted_variance, axis=axes)
    if needs_cast:
        weighted_mean = math.cast(weighted_mean, dtypes.float16)
        weighted_variance = math.cast(weighted_variance, dtypes.float16)
    return weighted_mean, weighted_variance


def _pool1d(pool2d: Any, input: Any, ksize: Any, strides: Any, padding: Any, data_format: Any,  # noqa: A002
            is_max: bool) -> Tensor:
    """nn_ops.max_pool1d / avg_pool1d as TF builds them: the channel index from
    `data_format.startswith("NC")`, ksize and strides through _get_sequence (then a leading 1),
    max_pool1d's convert_padding, the input expanded at axis 1 for "NWC" and at axis 2 for any
    other format, which the 2-D op then reads as NHWC or NCHW ("NHWC" given here is an NCHW
    pool, which TF's default CPU kernels refuse), and squeezed back."""
    from simdist.runtime.ops import array
    from simdist.runtime.ops.conv import normalize_padding, spatial_sequence
    fmt = "NWC" if data_format is None else data_format
    nc = fmt.startswith("NC")
    k = [1] + list(spatial_sequence(ksize, 1, "ksize", nc))
    s = [1] + list(spatial_sequence(strides, 1, "strides", nc))
    if is_max and isinstance(padding, (list, tuple)):
        if len(padding) != 3:
            raise ValueError(f"When padding is a list, it must be of size 3. Received: padding={padding} of size "
                             f"{len(padding)}")
        padding = [[0, 0]] + [list(p) for p in padding]
        normalize_padding(padding, "MaxPool", True)
    expanding = 1 if fmt == "NWC" else 2
    x = array.expand_dims(input, expanding)
    return array.squeeze(pool2d(x, k, s, padding, "NHWC" if fmt == "NWC" else "NCHW"), [expanding])


def max_pool1d(input: Any, ksize: Any, strides: Any, padding: Any, data_format: str = "NWC",  # noqa: A002
               name: str | None = None) -> Tensor:
    """`tf.nn.max_pool1d` (NWC): MaxPool over the input with a unit height inserted, as TF."""
    from simdist.runtime.ops.pooling import max_pool2d
    return _pool1d(max_pool2d, input, ksize, strides, padding, data_format, True)


def avg_pool1d(input: Any, ksize: Any, strides: Any, padding: Any, data_format: str = "NWC",  # noqa: A002
               name: str | None = None) -> Tensor:
    """`tf.nn.avg_pool1d` (NWC): AvgPool over the input with a unit height inserted, as TF."""
    from simdist.runtime.ops.pooling import avg_pool2d
    return _pool1d(avg_pool2d, input, ksize, strides, padding, data_format, False)


def log_poisson_loss(targets: Any, log_input: Any, compute_full_loss: bool = False, name: str | None = None) -> Tensor:
    """`tf.nn.log_poisson_loss`: exp(log_input) - log_input * targets, plus Stirling's
    approximation of log(targets!) where targets > 1 when compute_full_loss."""
    from simdist.runtime.ops import math
    from simdist.runtime.ops.array import constant, ones_like, zeros_like
    from simdist.runtime.ops.unary import exp, log
    li, tg = _t(log_input), _t(targets)
    # (nn_impl's `targets.get_shape().assert_is_compatible_with(log_input.get_shape())`: the shapes a traced graph
    # knows, so [None, None] targets beside [None, 3] log_input pass and broadcast, or fail when the graph runs;
    # clause nn.loss-formulas, blind92)
    ls, ts = _static_shapes.static_shape(li), _static_shapes.static_shape(tg)
    if not ts.is_compatible_with(ls):
        raise ValueError(f"`log_input` and `targets` must have the same shape, received ({ls} vs {ts}).")
    result = exp(li) - li * tg
    if symbolic.flag(compute_full_loss):   # (a graph tensor's truth: OperatorNotAllowedInGraphError; fz65)
        point_five = constant(0.5, dtype=tg.dtype)
        two_pi = constant(2 * _pymath.pi, dtype=tg.dtype)
        stirling = (tg * log(tg)) - tg + (point_five * log(two_pi * tg))
        zeros, ones = zeros_like(tg, dtype=tg.dtype), ones_like(tg, dtype=tg.dtype)
        cond = math.logical_and(tg >= zeros, tg <= ones)
        result += math.where(cond, zeros, stirling)
    return result


# --- LRN and LRNGrad --------------------------------------------------------------------------------------------
def _window_sum(sq: np.ndarray, r: int) -> np.ndarray:
    """sum of sq over [d - r, d + r] along the last axis (clipped at the edges)."""
    c = np.concatenate([np.zeros(sq.shape[:-1] + (1,), sq.dtype), np.cumsum(sq, axis=-1)], axis=-1)
    n = sq.shape[-1]
    hi = np.minimum(np.arange(n) + r + 1, n)
    lo = np.maximum(np.arange(n) - r, 0)
    return c[..., hi] - c[..., lo]


def _band_nan(sq: np.ndarray, r: int) -> np.ndarray:
    """Where TF's LRN window sum is NaN from outside the window: LaunchLRN<CPUDevice> (lrn_op.cc) sums the
    squares by a contraction with a depth x depth band matrix of ones and zeros, so a square that is inf or
    NaN anywhere in the row meets a 0 for every channel whose window it is outside (inf * 0 = NaN; observed on
    TF 2.21, float32 and float16: [4, 0.5, -inf] normalises to NaN throughout; fz35a, eager seed 3520261204
    #44). True there. (Depths above 384 with beta 0.5 or 1 take a sliding single-threaded sum: not modelled.)"""
    bad = ~np.isfinite(sq.astype(np.float32))
    n = sq.shape[-1]
    cnt = np.concatenate([np.zeros(bad.shape[:-1] + (1,), np.int64), np.cumsum(bad, axis=-1)], axis=-1)
    hi = np.minimum(np.arange(n) + r + 1, n)
    lo = np.maximum(np.arange(n) - r, 0)
    return (cnt[..., -1:] - (cnt[..., hi] - cnt[..., lo])) > 0


def _pow32(norm: np.ndarray, e: float) -> np.ndarray:
    """norm ** e in float32 by the C library's powf on each element: the value NumPy's power gives
    on a CPU without AVX-512, where its loop is glibc's (with AVX-512 it is SVML's: ops.host-cpu).
    (TF's own LRN computes exp(log(norm) · -beta), or 1/norm, rsqrt(norm): not modelled.)"""
    from simdist.runtime.ops import libm
    with np.errstate(all="ignore"):
        return libm.elementwise("powf", norm.astype(np.float32), np.full(np.shape(norm), e, np.float32))


def _lrn_half(x: np.ndarray, r: int, bias: float, alpha: float, beta: float) -> np.ndarray:
    """TF's float16 LRN (LaunchLRN on Eigen tensors of half, every operation rounded to half): the
    squares (65504**2 is inf, so every output of that window is 0: fz14 seed 1420261219 #209), their
    sum over the window in order, times alpha plus bias (both half), then x times its inverse, rsqrt
    or exp(log(.) * -beta), each rounded."""
    h, f = np.float16, np.float32
    with np.errstate(all="ignore"):
        x32 = x.astype(f)
        sq = (x32 * x32).astype(h)
        n = x.shape[-1]
        acc = np.zeros(x.shape, h)
        for d in range(n):
            part = np.zeros(x.shape[:-1], h)
            for i in range(max(d - r, 0), min(d + r + 1, n)):
                part = (part.astype(f) + sq[..., i].astype(f)).astype(h)
            acc[..., d] = part
        acc[_band_nan(sq, r)] = h(np.nan)
        tmp = ((acc.astype(f) * f(h(alpha))).astype(h).astype(f) + f(h(bias))).astype(h).astype(f)
        if h(beta) == h(1):
            scale = (f(1) / tmp).astype(h)
        elif h(beta) == h(0.5):
            scale = (f(1) / np.sqrt(tmp)).astype(h)
        else:
            scale = np.exp((np.log(tmp).astype(h).astype(f) * -f(h(beta))).astype(h).astype(f)).astype(h)
        return (x32 * scale.astype(f)).astype(h)


def _lrn_eigen(x: np.ndarray, r: int, bias: float, alpha: float, beta: float) -> np.ndarray:
    """TF's own float32 LRN (LaunchLRN<CPUDevice>, lrn_op.cc), which a host without oneDNN runs
    (host_cpu): the squares' window sums by a contraction with the band matrix (summed in order, each
    add rounded: Eigen's order for depths up to 3, measured; deeper windows take other orders, not
    modelled), times alpha, plus bias (each rounded), then x times Eigen's rsqrt packet of it for beta
    0.5, its reciprocal packet for beta 1 (rcp.py: the CPU's vrsqrtps/vrcpps tables). Observed on TF
    2.21 on the AMD EPYC host, all of 64 outputs of depths 1 and 3 (fz44b, fz44_gen seed 44001)."""
    from simdist.runtime.ops import rcp
    f = np.float32
    sq = x * x
    n = x.shape[-1]
    acc = np.zeros(x.shape, f)
    with np.errstate(all="ignore"):
        for d in range(n):
            part = np.zeros(x.shape[:-1], f)
            for i in range(max(d - r, 0), min(d + r + 1, n)):
                part = part + sq[..., i]
            acc[..., d] = part
        acc[_band_nan(sq, r)] = np.nan
        tmp = acc * f(alpha) + f(bias)
        return x * (rcp.rsqrt(tmp) if f(beta) == f(0.5) else rcp.reciprocal(tmp))


def _lrn(x: np.ndarray, depth_radius: int, bias: float, alpha: float, beta: float) -> np.ndarray:
    if x.dtype == np.float16:
        return _lrn_half(x, depth_radius, bias, alpha, beta)
    from simdist.runtime import host_cpu
    if x.dtype == np.float32 and np.float32(beta) in (np.float32(0.5), np.float32(1)) and \
            not host_cpu.current().onednn_supports("float32") and x.shape[-1] <= 384:
        return _lrn_eigen(x, depth_radius, bias, alpha, beta)
    x32 = x.astype(np.float32) if x.dtype != np.float32 else x
    sq = x32 * x32
    with np.errstate(invalid="ignore"):
        norm = bias + alpha * _window_sum(sq, depth_radius)
    norm[_band_nan(sq, depth_radius)] = np.nan
    return (x32 * _pow32(norm, -beta)).astype(x.dtype)


def _lrn_grad_loop(g: np.ndarray, x: np.ndarray, y: np.ndarray, r: int, bias: float, alpha: float,
                   beta: float) -> np.ndarray:
    """TF's CPU LRNGrad (lrn_op.cc LaunchLRNGrad<CPUDevice, T>) for T float32 or float16 (every step
    rounded to T): per position j with a non-zero upstream gradient g_j (a zero one is skipped, so
    NaN or inf elsewhere in its window does not reach the output), norm = Σ x_k·x_k over the window
    in order, alpha·norm + bias, pre = pow(norm, -beta) (powf), act = alpha_beta_2·y_j with the
    launcher's alpha_beta_2 = -2·alpha·beta, and for each k of the window dy = x_k·act / norm (plus
    pre at k = j), times g_j, added to out_k; bias, alpha and beta as T. It reads output_image y as
    given (a raw call's y need not be LRN's output: fuzz20 tape seed 2420261203 #95). float32 bit for
    bit with TF 2.21 on 30 random attribute sets (fz24a); float16 as fz20's probe."""
    from simdist.runtime.ops import libm
    t = np.float16 if x.dtype == np.float16 else np.float32
    f = np.float32

    def rnd(v: Any) -> Any:
        return np.asarray(v, f).astype(t).astype(f)
    a_, b_, c_ = f(t(alpha)), f(t(beta)), f(t(bias))
    with np.errstate(all="ignore"):
        x32, y32, g32 = x.astype(f), y.astype(f), g.astype(f)
        ab2 = rnd(rnd(f(-2) * a_) * b_)   # (alpha_beta_2_, the launcher's constant)
        n = x.shape[-1]
        out = np.zeros(x.shape, f)
        for j in range(n):
            lo, hi = max(0, j - r), min(n, j + r + 1)
            norm = np.zeros(x.shape[:-1], f)
            for k in range(lo, hi):
                norm = rnd(norm + rnd(x32[..., k] * x32[..., k]))
            norm = rnd(rnd(a_ * norm) + c_)
            pw = rnd(libm.elementwise("powf", norm, np.full(norm.shape, -b_, f)))
            act = rnd(ab2 * y32[..., j])
            live = g32[..., j] != 0
            for k in range(lo, hi):
                dy = rnd(rnd(x32[..., k] * act) / norm)
                if k == j:
                    dy = rnd(dy + pw)
                dy = rnd(dy * g32[..., j])
                out[..., k] = np.where(live, rnd(out[..., k] + dy), out[..., k])
        return out.astype(x.dtype)


def _lrn_grad(g: np.ndarray, x: np.ndarray, y: np.ndarray, depth_radius: int, bias: float, alpha: float,
              beta: float) -> np.ndarray:
    """LRNGradOp: its checks, then the launcher's loop (_lrn_grad_loop). LRNGradOp's checks come
    first, which a raw call reaches (lrn_op.cc; fuzz20 seed 2420261202 #59, #129): the constructor's
    depth_radius bound, input_grads and input_image 4-D, then all three of one shape."""
    if not 0 <= int(depth_radius) < 2 ** 31 - 1:
        raise errors.InvalidArgumentError(None, None, f"depth_radius = {int(depth_radius)} larger than int max "
                                                      "[Op:LRNGrad]")
    if g.ndim != 4 or x.ndim != 4:
        raise errors.InvalidArgumentError(None, None, "inputs must be 4-dimensional [Op:LRNGrad]")
    if x.shape != g.shape or y.shape != g.shape:
        raise errors.InvalidArgumentError(None, None, "input_grads, input_image, and out_image should have the same "
                                                      "shape [Op:LRNGrad]")
    return _lrn_grad_loop(g, x, y, int(depth_radius), bias, alpha, beta)


def _lrn_rule(name: str) -> Any:
    base = args.allowed(name, "f", "half, bfloat16, float")

    def rule(dts: Any, attrs: Any) -> dtypes.DType:
        d = base(dts, attrs)
        if d.name == "float64":
            raise errors.InvalidArgumentError(None, None, f"Value for attr 'T' of double is not in the list of allowed "
                                              f"values: half, bfloat16, float [Op:{name}]")
        if d.name == "bfloat16":   # (the op def lists it; TF's CPU kernels are float and half)
            raise errors.NotFoundError(None, None, f"Could not find device for node: {{{{node {name}}}}} = "
                                       f"{name}[T=DT_BFLOAT16] [Op:{name}]")
        return d
    return rule


def _lrn_flops(arrays: Any, out: Any, attrs: Any) -> float:
    return out.size * (2 * attrs["depth_radius"] + 5)


LRN = register("LRN", _lrn, _lrn_rule("LRN"), _lrn_flops, kind="nn",
               fusion=lanes("no stacked form written (its window runs along the depth of each lane's rows)"))
LRN_GRAD = register("LRNGrad", _lrn_grad, _lrn_rule("LRNGrad"), _lrn_flops, kind="nn",
                    fusion=lanes("no stacked form written (a gradient)"))
no_tf_gradient("LRNGrad")


def _default_float(value: Any) -> Tensor:
    """LRN's input as TF converts it: a tensor or variable as it is; anything else (a Python
    number or list, a NumPy array or scalar of any dtype outside T's list, complex and bool too) with
    the type attr's default dtype, float32, NumPy values cast to it (a float16/bfloat16 one keeps its dtype) (observed eagerly and in a tf.function:
    tf.nn.lrn(np.ones([1, 1, 1, 2], np.int64)) computes in float32)."""
    if isinstance(value, Tensor) or hasattr(value, "_as_tensor"):
        return _t(value)
    if isinstance(value, (np.ndarray, np.generic)) and value.dtype.name in ("float16", "bfloat16"):
        return convert_to_tensor(value)   # (a NumPy dtype in T's list keeps it: fz14 seed 1420261219 #209)
    from simdist.runtime import context
    if context.in_function() or isinstance(value, (np.ndarray, np.generic)):
        t = convert_to_tensor(value, dtype_hint=dtypes.float32)
    else:   # (eagerly the fast path's conversion of a Python value: a finite float beyond float32's
        # range is ValueError, as an inferred float32; fz14 seed 1420262201 #180)
        t = convert_to_tensor(value)
    if t.dtype != dtypes.float32 and t.dtype != dtypes.string:
        with np.errstate(all="ignore"):
            import warnings
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                t = convert_to_tensor(np.asarray(t._v).astype(np.float32))
    return t


def local_response_normalization(input: Any, depth_radius: int = 5, bias: float = 1, alpha: float = 1,  # noqa: A002
                                 beta: float = 0.5, name: str | None = None) -> Tensor:
    """`tf.nn.local_response_normalization` (also `tf.nn.lrn`): x / (bias + alpha * sum of x^2 over
    the depth window [d - r, d + r])^beta, on a 4-D input (half, bfloat16, float)."""
    x = _default_float(input)
    # (the wrapper's make_*: ops.attr-types)
    attr_rules.check("LRN", depth_radius=depth_radius, bias=bias, alpha=alpha, beta=beta)
    try:
        LRN.dtype((x.dtype,), None)
    except errors.OpError as e:
        # (a graph: the shape function's rank check at trace before the missing kernel (bfloat16), which
        # only the run meets; fz36b, fz14 seed 1420363004 #114. A dtype outside T's list is op_def_library's
        # TypeError before the shape function: float64 of rank 1 is TypeError traced; fz37b, seed 1420373001 #130)
        from simdist.runtime import context
        if isinstance(e, errors.NotFoundError) and context.in_function() and x.ndim != 4 and not _static_shapes.rank_unknown(x):
            raise trace_errors.shape_error("in must be 4-dimensional [Op:LRN]", f"Shape must be rank 4 but is rank "
                                           f"{x.ndim}", "LRN", [x.shape.as_list()]) from None
        raise
    if not 0 <= int(depth_radius) < 2 ** 31 - 1:
        # lrn_op.cc's constructor, before Compute's rank check: FastBoundsCheck(depth_radius, INT_MAX)
        # (a graph's shape function still refuses a rank other than 4 at trace first; rawfz21)
        err = errors.InvalidArgumentError(None, None, f"depth_radius = {int(depth_radius)} larger than int max "
                                                      "[Op:LRN]")
        if x.ndim != 4 and not _static_shapes.rank_unknown(x):
            raise trace_errors.mark_shape(err, f"Shape must be rank 4 but is rank {x.ndim}", "LRN", [x.shape.as_list()])
        raise err
    if x.ndim != 4:   # (the kernel; in a tf.function LRN's shape function, ValueError at trace, where the graph
        # knows the rank: an input_signature's None leaves it to the kernel, fz34a, sig seed 3420261211 #25)
        if _static_shapes.rank_unknown(x):
            raise errors.InvalidArgumentError(None, None, "in must be 4-dimensional [Op:LRN]")
        raise trace_errors.shape_error("in must be 4-dimensional [Op:LRN]",
                                       f"Shape must be rank 4 but is rank {x.ndim}", "LRN", [x.shape.as_list()])
    return dispatch.execute(LRN, (x,), {"depth_radius": int(depth_radius), "bias": float(bias),
                                        "alpha": float(alpha), "beta": float(beta)})


lrn = local_response_normalization


@RegisterGradient("LRN")
def _lrn_grad_fn(op: Any, grad: Any) -> list:
    return [dispatch.execute(LRN_GRAD, (grad, op.inputs[0], op.outputs[0]), dict(op.attrs))]
