"""Division rounded toward zero and the casts that saturate (tf.truncatediv, tf.truncatemod,
tf.realdiv, tf.dtypes.saturate_cast), as TF 2.21's kernels and math_ops.py compute them.

- TruncateDiv: integers divide as C does (toward zero; INT_MIN / -1 wraps), floats give
  trunc(x / y); an integer zero divisor is TF's InternalError ("only integer div and mod
  should have errors"). Its gradient is [None, None], as TF registers it.
- TruncateMod: C's % and fmod (the remainder has the dividend's sign); int32, int64, float and
  double only (int8 is refused by the op def, half by the CPU kernels). TF registers no gradient:
  a tape reaching it raises LookupError.
- RealDiv: x / y for floats; integers have no CPU kernel (NotFoundError).
- saturate_cast: clip to the output dtype's range nudged toward zero until it is representable
  in the input dtype (math_ops.saturate_cast, line for line), then cast; NaN is not clipped
  and casts as tf.cast casts it.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import context, dtypes, errors
from simdist.runtime.ops import args
from simdist.runtime.ops.registry import NotDifferentiable, RegisterGradient, binary
from simdist.runtime.tensor import Tensor, convert_to_tensor

__all__ = ["truncatediv", "truncatemod", "realdiv", "saturate_cast"]

_TRUNCDIV_TYPES = ("bfloat16, half, float, double, uint8, int8, uint16, int16, int32, uint32, uint64, int64, "
                   "complex64, complex128")
_TRUNCMOD_TYPES = "int32, int64, bfloat16, half, float, double"


def _zero_divisor(name: str) -> errors.InternalError:
    return errors.InternalError(None, None, "Unexpected error in binary operator (only integer div and mod should "
                                f"have errors) [Op:{name}]")


def _empty(a: np.ndarray, b: np.ndarray) -> bool:
    """No output element: TF's kernel divides nothing and checks no divisor."""
    return 0 in np.broadcast_shapes(a.shape, b.shape)


def _truncdiv(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    if a.dtype.kind in "iu":
        if not _empty(a, b) and not np.all(b):
            raise _zero_divisor("TruncateDiv")
        with np.errstate(over="ignore"):
            q = np.floor_divide(a, b)
            fix = (np.remainder(a, b) != 0) & ((a < 0) != (b < 0))
            return np.where(fix, q + np.ones((), a.dtype), q).astype(a.dtype, copy=False)
    with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
        q = np.trunc(np.true_divide(a, b))
    if q.dtype.name == "bfloat16" and q.size:   # (through float32 in packets of 8: 0x7fc0 there; nansweep67)
        from simdist.runtime.ops.packet_math import bf16_packet_nans
        q = bf16_packet_nans(np.array(q, copy=True))
    return q


def _truncmod(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    if a.dtype.kind in "iu":
        if not _empty(a, b) and not np.all(b):
            raise _zero_divisor("TruncateMod")
        with np.errstate(over="ignore"):
            r = np.fmod(a, np.where(b == -1, np.ones((), b.dtype), b))   # INT_MIN % -1 is 0 (x86 would trap)
            return r.astype(a.dtype, copy=False)
    with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
        return np.fmod(a, b)


def _truncmod_rule(dts: Any, attrs: Any) -> dtypes.DType:
    # the kernel is looked up by the first input's dtype before the second input is checked against
    # it: truncatemod(float16, float32) is NotFoundError, not a dtype mismatch
    # (eagerly; in a graph op_def_library compares the inputs' types first, TypeError "Input 'y' of
    # 'TruncateMod' Op has type complex64 that does not match type bfloat16 of argument 'x'.", and the
    # kernel is looked up when the graph runs: fz31b, fz14 seed 1420313009 #8)
    from simdist.runtime import context
    eager_half = dts and dts[0].name in ("float16", "bfloat16") and \
        (not context.in_function() or all(t == dts[0] for t in dts))
    d = dts[0] if eager_half else args.allowed("TruncateMod", "fi", _TRUNCMOD_TYPES)(dts, attrs)
    if d.kind == "i" and d not in (dtypes.int32, dtypes.int64):
        raise errors.InvalidArgumentError(None, None, f"Value for attr 'T' of {args.tf_name(d)} is not in the list of "
                                          f"allowed values: {_TRUNCMOD_TYPES} [Op:TruncateMod]")
    if d.name in ("float16", "bfloat16"):
        raise errors.NotFoundError(None, None, f"Could not find device for node: {{{{node TruncateMod}}}} = "
                                   f"TruncateMod[T=DT_{'HALF' if d.name == 'float16' else 'BFLOAT16'}] [Op:TruncateMod]")
    return d


def _realdiv_rule(dts: Any, attrs: Any) -> dtypes.DType:
    """RealDiv's op def takes integers, TF's CPU kernels do not: NotFoundError."""
    from simdist.runtime.ops import math
    # the first input's dtype selects the kernel before the second is checked against it:
    # realdiv(int64, int32) is NotFoundError, not a dtype mismatch; a graph build checks the inputs' T first
    # (op_def_library's TypeError; fz34b, fourth generator seed 3401 #85: realdiv(int32 spec, float32 spec))
    if context.in_function() and len(dts) == 2 and dts[0] != dts[1]:
        math._numeric("RealDiv")(dts, attrs)
    d = dts[0] if dts and dts[0].kind in "iu" else math._numeric("RealDiv")(dts, attrs)
    if d.kind in "iu":
        raise errors.NotFoundError(None, None, "Could not find device for node: {{node RealDiv}} = "
                                   f"RealDiv[T=DT_{d.name.upper()}] [Op:RealDiv]")
    return d


TRUNCATE_DIV = binary("TruncateDiv", _truncdiv, args.listed_no_complex_kernel("TruncateDiv", "fiu", _TRUNCDIV_TYPES))
TRUNCATE_MOD = binary("TruncateMod", _truncmod, _truncmod_rule)
NotDifferentiable("TruncateDiv")   # TF's gradient: [None, None]


def _register_truncate_mod_gradient() -> None:
    from simdist.runtime.ops.counting import no_tf_gradient
    no_tf_gradient("TruncateMod")    # TF registers none: LookupError at backprop


_register_truncate_mod_gradient()


def _call(op: Any, x: Any, y: Any) -> Tensor:
    from simdist.runtime.ops import math
    return math._checked_binary(op, x, y)


def truncatediv(x: Any, y: Any, name: str | None = None) -> Tensor:
    """`tf.truncatediv`: x / y rounded toward zero."""
    return _call(TRUNCATE_DIV, x, y)


def truncatemod(x: Any, y: Any, name: str | None = None) -> Tensor:
    """`tf.truncatemod`: the remainder of truncatediv (the dividend's sign), as C's % and fmod."""
    return _call(TRUNCATE_MOD, x, y)


def realdiv(x: Any, y: Any, name: str | None = None) -> Tensor:
    """`tf.realdiv`: x / y of one float dtype (integers: TF's NotFoundError)."""
    from simdist.runtime.ops import math
    math.check_distributed_variables((x, y))   # (a generated op: its eager fallback; fz14 seed 14 #555)
    xt, yt = math.gen_operands(math.REALDIV, x, y)
    try:
        _realdiv_rule((xt.dtype, yt.dtype), None)
    except errors.NotFoundError as e:
        # (a dry run of a tf.function's Python goes on past the missing integer kernel, which the graph looks up
        # only when it runs, so a later op's graph-build error is the trace's: an unused `realdiv(int64 spec, 0)`
        # then embedding_lookup_sparse's TypeError; fz34b, fz14 seed 1420333003 #217)
        from simdist.runtime.ops import dispatch
        try:
            shape = np.broadcast_shapes(tuple(xt.shape.as_list()), tuple(yt.shape.as_list()))
        except (TypeError, ValueError):
            raise e from None
        return dispatch.refused(e, xt.dtype, shape)
    return math.binary(math.REALDIV, xt, yt)


def _limits(d: dtypes.DType) -> tuple[Any, Any]:
    """DType.min and .max, as math_ops.saturate_cast reads them: bool and string are their TypeError "Cannot find
    minimum value of <dtype: 'string'> with type <dtype: 'string'>." (a string source or target; fz66, fz62gen seed
    66409 #4)."""
    return d.min, d.max


def _clip(x: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    if x.dtype.kind == "c":   # TF clips a complex value's real and imaginary parts each (observed on TF 2.21),
        # each part under DAZ/FTZ as the float kernels (a complex kernel flushes its parts itself: complex64's
        # subnormal float32 parts read and come out as zeros, observed eagerly and in a graph; fuzz20 seed
        # 2220261202 #109)
        from simdist.runtime import subnormals

        def part(a: np.ndarray) -> np.ndarray:
            return subnormals.flushed(np.ascontiguousarray(a))
        out = np.empty(np.broadcast_shapes(x.shape, lo.shape, hi.shape), x.dtype)
        out.real = part(_clip(part(x.real), part(lo.real), part(hi.real)))
        out.imag = part(_clip(part(x.imag), part(lo.imag), part(hi.imag)))
        return out
    # cwise_op_clip.cc: std::max(std::min(x, hi), lo) (Eigen's cwiseMin/cwiseMax the same): min(a, b)
    # is b only where b < a, max(a, b) b only where a < b, so a NaN x passes, a NaN bound is ignored and
    # of two zeros the first one's sign stays (clip(-0, lo=0, hi=-0) is -0; rawfz21, seed 2020261202 #119)
    with np.errstate(invalid="ignore"):
        m = np.where(hi < x, hi, x)
        return np.where(m < lo, lo, m).astype(x.dtype, copy=False)


# ClipByValue (gen_math_ops._clip_by_value, which saturate_cast uses): NaN passes through
CLIP_BY_VALUE = binary("ClipByValue", _clip, args.same_dtype("ClipByValue"))


def _clip_bf16_fix(arrays: Any, flushed: Any, out: Any, attrs: Any) -> Any:
    """bfloat16 ClipByValue with a subnormal operand: std::max(std::min(x, hi), lo), each comparison
    on float32 values under DAZ (a subnormal compares as zero), each selection returning the chosen
    operand's bits at every position (no packet flushes them, unlike bfloat16 Maximum/Minimum):
    `saturate_cast(bfloat16 [2.5, 9.2e-41, 1e10], bfloat16)` keeps 9.2e-41, ten of them too, where
    float32's ClipByValue flushes them (fz30b, fz3 ext8 seed 3003 #74; observed on TF 2.21)."""
    x, lo, hi = arrays
    fx, flo, fhi = (np.asarray(a).astype(np.float32) for a in flushed)
    shape = np.broadcast_shapes(x.shape, lo.shape, hi.shape)
    with np.errstate(invalid="ignore"):
        take_hi = fhi < fx
        m = np.where(take_hi, np.broadcast_to(hi, shape), np.broadcast_to(x, shape))
        fm = np.where(take_hi, np.broadcast_to(fhi, shape), np.broadcast_to(fx, shape))
        return np.where(fm < flo, np.broadcast_to(lo, shape), m).astype(out.dtype, copy=False)


def _clip_subnormals(arrays: Any, attrs: Any) -> Any:
    """ClipByValue's subnormal rule: `_clip_bf16_fix` for bfloat16 operands holding a subnormal,
    else the default (DAZ on the operands, FTZ on the result: float32's packets flush)."""
    from simdist.runtime import subnormals
    if arrays[0].dtype == subnormals.BF16 and any(subnormals.holds(a) for a in arrays):
        return _CLIP_BF16
    return _DEFAULT_CLIP_RULE(arrays, attrs) if callable(_DEFAULT_CLIP_RULE) else _DEFAULT_CLIP_RULE


def _clip_bf16_rule() -> Any:
    from simdist.runtime import subnormals
    return subnormals.Fixed("bfloat16 clip", _clip_bf16_fix)


_CLIP_BF16 = _clip_bf16_rule()
_DEFAULT_CLIP_RULE = CLIP_BY_VALUE.subnormals
CLIP_BY_VALUE.subnormals = _clip_subnormals


@RegisterGradient("ClipByValue")
def _clip_by_value_grad(op: Any, grad: Any) -> list:
    """clip_ops._clip_by_value_grad: x gets the incoming gradient where it is neither below the minimum nor
    above the maximum (so a NaN x passes it, where clip_by_value's Minimum/Maximum give 0; fuzz2 seed 20261130
    #1737); the minimum gets it where x < min, the maximum where x > max, each summed over the axes it was
    broadcast along (before grad_edges, simdist gave the bounds no gradient)."""
    from simdist.runtime.ops import array, math
    x, lo, hi = op.inputs
    zeros = array.zeros_like(grad)
    below, above = math.less(x, lo), math.greater(x, hi)
    out = math.where(math.logical_or(below, above), zeros, grad)
    return [out, math.unbroadcast(math.where(below, grad, zeros), lo.shape.as_list()),
            math.unbroadcast(math.where(above, grad, zeros), hi.shape.as_list())]


def saturate_cast(value: Any, dtype: Any, name: str | None = None) -> Tensor:
    """`tf.dtypes.saturate_cast`: clip to the output dtype's range (nudged toward zero where the
    limit is not representable in the input dtype, as math_ops.saturate_cast), then cast."""
    from simdist.runtime.ops import math
    value = convert_to_tensor(value)
    out = dtypes.as_dtype(dtype)
    in_dt = value.dtype
    if in_dt.kind == "c":   # math_ops.saturate_cast: complex to complex clamps each part, to real takes the real part
        if out.kind == "c":
            lo, hi = dtypes.finfo(out.real_dtype._np), dtypes.finfo(out.real_dtype._np)
            if in_dt.real_dtype.size > out.real_dtype.size:
                from simdist.runtime.ops import dispatch
                value = dispatch.execute(CLIP_BY_VALUE, (value, convert_to_tensor(complex(lo.min, lo.min), dtype=in_dt),
                                                         convert_to_tensor(complex(hi.max, hi.max), dtype=in_dt)))
            return math.cast(value, out)
        from simdist.runtime.ops.complex_math import real
        value = real(value)
        import logging
        logging.getLogger("tensorflow").warning("Casting complex to real discards imaginary part.")
        in_dt = value.dtype
    out_part = out.real_dtype
    in_min, in_max = _limits(in_dt)   # (the dtypes' limits come first: bool is TypeError before any op; fz10 seed 93 #15)
    out_min, out_max = _limits(out_part)
    deferred = False
    if in_dt in (dtypes.uint32, dtypes.uint64):   # TF clamps with the ClipByValue op: no CPU kernel for these
        err = errors.NotFoundError(None, None, f"Could not find device for node: {{{{node ClipByValue}}}} = "
                                               f"ClipByValue[T=DT_{in_dt.name.upper()}] [Op:ClipByValue]")
        # (a dry run of a tf.function's Python goes on past the missing kernel, which the graph looks
        # up only when it runs: a later op's shape function is the trace's error, MatMul's rank of
        # the saturate_cast; fz30b, fz14 seed 1420303001 #192)
        from simdist.runtime.ops import dispatch
        if not dispatch.deferred_kernel(err):
            raise err
        deferred = True
    np_dtype = in_dt._np.type
    try:
        promoted = np.promote_types(in_dt._np, out_part._np)
    except TypeError:
        promoted = np.dtype(float)
    with np.errstate(over="ignore", invalid="ignore"):   # (int64 max through a float wraps, as in TF's NumPy code)
        min_limit = np_dtype(np.maximum(in_min, out_min))
        if np.array([min_limit, out_min], dtype=promoted)[0] < np.array([min_limit, out_min], dtype=promoted)[1]:
            min_limit = np.nextafter(min_limit, np_dtype(0), dtype=np_dtype)
        max_limit = np_dtype(np.minimum(float(in_max), float(out_max)))
        if np.array([max_limit, out_max], dtype=promoted)[0] > np.array([max_limit, out_max], dtype=promoted)[1]:
            max_limit = np.nextafter(max_limit, np_dtype(0), dtype=np_dtype)
    from simdist.runtime.ops import dispatch
    value = dispatch.execute(CLIP_BY_VALUE, (value, convert_to_tensor(min_limit, dtype=in_dt),
                                             convert_to_tensor(max_limit, dtype=in_dt)))
    if deferred:
        from simdist.runtime.ops import graph_constants
        value = graph_constants.vary(value)   # (a stand-in: its values are unknown to the graph)
    return math.cast(value, out)
