"""Subnormal floats as TF 2.21's CPU kernels treat them: flush-to-zero and denormals-are-zero.

TF runs every CPU kernel with the FTZ and DAZ bits of the x86 MXCSR set (port::ScopedFlushDenormal in
the executor's and the eager kernel runner's threads, and in every thread of its Eigen thread pools):
a kernel's arithmetic reads a subnormal float32/float64 operand as a zero of its sign (DAZ) and
writes a zero of its sign for a subnormal result (FTZ). Kernels that only move bits (reshape, gather,
concat, where, neg, abs, bitcast...) keep them. float16 computes in float32, where float16's
subnormals are normal numbers: they survive; bfloat16 computes in float32 too, with float32's range:
it flushes like float32. Each op declares its rule (`OpDef.subnormals`, clause `ops.subnormals`):

- FLUSH: DAZ on the float inputs, FTZ on the float outputs (the default of computing kinds);
- KEEP: neither (the default of data-movement kinds; bit ops);
- a function `(in_dtypes, attrs) -> FLUSH | KEEP` for ops whose kernel depends on its dtypes (Cast).

What it costs. A check of every output for subnormals costs about 1.5 additions on a large array
and several on a small one, so dispatch avoids it: a subnormal result of an inexact operation raises
the FPU's underflow flag, which NumPy already reads after every ufunc (and BLAS call); with NumPy's
underflow mode set to "call" (`install`, at import) its callback notes it, and dispatch checks the
output only when the note is set. Subnormal inputs can only come from values made outside an op
(constants, NumPy values, variables assigned them) and from KEEP ops on those: such tensors carry a
mark (`Tensor._sub`), set once where they are made, and a FLUSH op reads marked inputs flushed.

Not modelled (docs/spec.md `ops.subnormals`): an exact subnormal result of normal operands (a sum of
normal numbers that cancels to below 2^-126 is exact, so raises no flag: TF flushes it, simdist
keeps it), and transcendental NumPy kernels that do not raise the flag on their subnormal results
are checked in full instead (`CHECKED`).
"""

from __future__ import annotations

import threading
from typing import Any

import ml_dtypes
import numpy as np

__all__ = ["FLUSH", "KEEP", "MAKES", "CHECK", "install", "noting", "noted", "fired", "reset", "holds", "flushed",
           "mark_made", "rule_for", "RULES", "replay_mode", "replay_flushed", "NOTED", "ALWAYS"]

FLUSH = "flush"
KEEP = "keep"
# KEEP, and the result marked when it holds subnormals: an op that makes them from normal operands
# by stepping through the bits (NextAfter: nextafter(0, 1) is 1e-45), so the FLUSH ops it feeds read
# them as zeros (fz23b: fz14 SEEN seed 1420262001 #201, nextafter(0, 4) // -0.0 is NaN in TF 2.21)
MAKES = "makes"

# The float types whose subnormals TF's kernels flush, as NumPy dtypes: their smallest normal number.
_TINY: dict[Any, float] = {np.dtype(np.float32): float(np.finfo(np.float32).tiny),
                           np.dtype(np.float64): float(np.finfo(np.float64).tiny),
                           np.dtype(ml_dtypes.bfloat16): float(ml_dtypes.finfo(ml_dtypes.bfloat16).tiny)}
FLUSHED_TYPES = frozenset(_TINY)
BF16 = np.dtype(ml_dtypes.bfloat16)

# Set by NumPy's floating-point error callback when an operation underflowed (see `install`).
_fired = [False]


def _on_error(kind: str, flag: int) -> None:
    # NumPy calls this for each error category whose mode is "call": only "under" is set so.
    if kind == "underflow":
        _fired[0] = True


def install() -> None:
    """Let NumPy note underflows (mode "call" for underflow only; the others keep their modes) in
    the current thread's context (NumPy's error state is per thread)."""
    np.seterrcall(_on_error)
    np.seterr(under="call")


try:   # (NumPy 2: the error state is a context variable, so a caller's np.errstate is seen by identity)
    from numpy._core.umath import _extobj_contextvar as _EXTOBJ
except ImportError:  # pragma: no cover - NumPy 1.x
    _EXTOBJ = None
_NOTING: list[Any] = [None]   # (the error state last seen noting underflows)


def noting() -> bool:
    """Whether NumPy's error state notes underflows through `_on_error`, as `install` set it. A
    caller's `with np.errstate(all="ignore")` around simdist's ops does not (the fuzzers' runners
    do so): dispatch then runs the kernel under `noted`, so a subnormal result is still flushed
    (fz34b, fz14 seed 1420343001 #196: `float32 [-1] / -3.4e38` under a tape, 0 in TF 2.21). An
    identity test of the state last seen noting; a NumPy query when it changed."""
    ext = _EXTOBJ.get() if _EXTOBJ is not None else None
    if ext is not None and ext is _NOTING[0]:
        return True
    if np.geterr()["under"] == "call" and np.geterrcall() is _on_error:
        _NOTING[0] = ext
        return True
    return False


def noted() -> Any:
    """NumPy's error state for a kernel when the caller's hides underflows (`noting`): underflows
    noted, the caller's other modes kept."""
    return np.errstate(under="call", call=_on_error)


def fired() -> bool:
    """Whether an underflow was noted since the last `reset`."""
    return _fired[0]


def reset() -> None:
    _fired[0] = False


# The bit test of `_none`: float32/float64 as unsigned (magnitude mask, largest subnormal's bits).
_MAGNITUDE = {np.dtype(np.float32): (np.uint32, 0x7FFFFFFF, 0x007FFFFF),
              np.dtype(np.float64): (np.uint64, 0x7FFFFFFFFFFFFFFF, 0x000FFFFFFFFFFFFF),
              BF16: (np.uint16, 0x7FFF, 0x007F)}
# Per-thread scratch for it: a fresh temporary of a large array costs an mmap and its page
# faults (np.abs of 800 KB took as long as summing four of them), so it is reused.
_scratch = threading.local()
_SCRATCH_MIN = 1 << 18


def _none(a: np.ndarray) -> bool:
    """Whether a C-contiguous float32/float64 array certainly holds no subnormal: its magnitude
    bits m satisfy 1 <= m <= the largest subnormal's exactly when (m - 1), wrapped as unsigned,
    is below that (zeros wrap to the top); three passes over reused scratch, no allocation.
    False for every other array (the caller then looks the slow way)."""
    spec = _MAGNITUDE.get(a.dtype)
    if spec is None or not a.flags.c_contiguous:
        return False
    ut, mask, top = spec
    buf = getattr(_scratch, "buf", None)
    if buf is None or buf.nbytes < a.nbytes:
        buf = _scratch.buf = np.empty(max(a.nbytes, _SCRATCH_MIN), np.uint8)
    m = buf[:a.nbytes].view(ut)
    np.bitwise_and(a.reshape(-1).view(ut), ut(mask), out=m)
    np.subtract(m, ut(1), out=m)
    return bool(m.min() >= ut(top))


def holds(a: np.ndarray) -> bool:
    """Whether array `a` (of any dtype) holds a subnormal float32/float64/bfloat16 number."""
    tiny = _TINY.get(a.dtype)
    if tiny is None or a.size == 0 or _none(a):
        return False
    m = np.abs(a.astype(np.float32) if a.dtype == BF16 else a)
    if m.min() >= tiny:   # (the common case, in two passes: no zero, no subnormal)
        return False
    return bool(np.any((m < tiny) & (m > 0)))


def flushed(a: np.ndarray) -> np.ndarray:
    """`a` with each subnormal replaced by a zero of its sign (a new array when any is)."""
    tiny = _TINY.get(a.dtype)
    if tiny is None or a.size == 0 or _none(a):
        return a
    m = np.abs(a.astype(np.float32) if a.dtype == BF16 else a)
    if m.min() >= tiny:   # (the common case, in two passes: no zero, no subnormal)
        return a
    sub = (m < tiny) & (m > 0)
    if not sub.any():
        return a
    out = np.array(a, copy=True)
    out[sub] = np.copysign(np.zeros((), a.dtype), a[sub]) if a.dtype != ml_dtypes.bfloat16 \
        else np.where(np.signbit(a[sub].astype(np.float32)), -0.0, 0.0).astype(a.dtype)
    return out


def flushed_parts(a: np.ndarray) -> np.ndarray:
    """A complex64/complex128 array with each subnormal real or imaginary part replaced by a zero of its sign (as
    TF's kernel threads read and write them under DAZ/FTZ); any other array as it is."""
    if a.dtype.kind != "c" or a.size == 0:
        return a
    re, im = np.ascontiguousarray(a.real), np.ascontiguousarray(a.imag)
    fr, fi = flushed(re), flushed(im)
    if fr is re and fi is im:
        return a
    out = np.empty_like(a)
    out.real, out.imag = fr, fi
    return out


def complex_daz(fn: Any) -> Any:
    """A kernel `fn(*arrays, **attrs)` that adds complex numbers as TF's Eigen kernels do under the thread's DAZ/FTZ:
    on complex inputs it reads and writes each part as a float addition does, a subnormal part a zero of its sign
    (dispatch's flush covers float dtypes only; the complex elementwise kernels flush their parts themselves).
    Clause ops.subnormals; fz55b seed 55206 #106 (tf.signal.overlap_and_add's Sum)."""
    def forward(*arrays: Any, **attrs: Any) -> Any:
        if not any(type(a) is np.ndarray and a.dtype.kind == "c" for a in arrays):
            return fn(*arrays, **attrs)
        return flushed_parts(fn(*[flushed_parts(a) if type(a) is np.ndarray else a for a in arrays], **attrs))
    forward.__name__ = getattr(fn, "__name__", "forward")
    forward.__doc__ = fn.__doc__
    return forward


def mark_made(t: Any) -> Any:
    """Tensor `t`, made from a value outside an op (a constant, a NumPy array, a variable's value),
    marked when it holds subnormals, so that FLUSH ops read them as zeros. Returns t."""
    v = t._v
    if (v.dtype in FLUSHED_TYPES and holds(v)) or (v.dtype.kind == "c" and v.size and (
            holds(np.ascontiguousarray(v.real)) or holds(np.ascontiguousarray(v.imag)))):
        t._sub = True   # (complex: its parts, which Real/Imag and the casts pass on; fz10)
    return t


class Fixed:
    """A rule that computes the op on its inputs flushed (DAZ), then mends the result from the
    original inputs with `fix(original arrays, flushed arrays, result, attrs) -> result`: kernels
    that order or select by comparisons that read subnormals as zeros but return input bits."""

    __slots__ = ("fix", "name")

    def __init__(self, name: str, fix: Any) -> None:
        self.name = name
        self.fix = fix

    def __call__(self, arrays: Any, attrs: dict | None) -> "Fixed":
        return self   # (a rule of its own for any dtype)

    def __repr__(self) -> str:
        return f"Fixed({self.name})"


def _top_k_fix(arrays: Any, flushed: Any, out: Any, attrs: Any) -> Any:
    # TopKV2 orders by comparisons (subnormals tie with zeros, in index order) and returns the
    # input's values at the indices it found: sort and argsort, built on it, do the same
    values, idx = out
    return np.take_along_axis(arrays[0], idx.astype(np.intp), axis=-1), idx


TOP_K = Fixed("top_k", _top_k_fix)


def _floormod_fix(arrays: Any, flushed_in: Any, out: Any, attrs: Any) -> Any:
    """FloorMod of float32/float64 (Eigen's google_floor_fmod under DAZ/FTZ): trunc = std::fmod(x,
    y), which glibc computes on the bits (fmod(5e-324, -0.001) is 5e-324, fmod(1.5e-38, 1.4e-38)
    the subnormal 1e-39) except that its wrapper's `y == 0` test reads a subnormal y as zero and
    returns NaN; then `trunc != 0 && (y < 0) != (trunc < 0) ? trunc + y : trunc`, the comparisons
    and the addition reading subnormals as zeros (TF 2.21; third fuzzer, seed 52 #70: flushing the
    inputs gave 0 for floormod(5e-324, -0.001))."""
    a, b = arrays
    if a.dtype not in _MAGNITUDE or b.dtype != a.dtype:
        return out
    with np.errstate(divide="ignore", invalid="ignore", under="ignore", over="ignore"):
        fb = flushed(b)
        trunc = np.where(fb == 0, np.asarray(np.nan, a.dtype), np.fmod(a, b))
        ft = flushed(trunc)
        fix = (ft != 0) & ((fb < 0) != (ft < 0))
        out = np.where(fix, flushed(np.asarray(ft + fb)), trunc).astype(a.dtype, copy=False)
    from simdist.runtime.ops.nan_operands import fmod_nans   # (its NaN: glibc's, bsweep65)
    if a.dtype.name == "bfloat16":   # (through float, rounded back keeping a NaN's sign)
        from simdist.runtime.ops.packet_math import scalar_bf16
        f32 = np.float32
        return scalar_bf16(fmod_nans(out.astype(f32), a.astype(f32), b.astype(f32)))
    return fmod_nans(out, a, b)


FLOORMOD = Fixed("floormod", _floormod_fix)


def _truncatemod_fix(arrays: Any, flushed_in: Any, out: Any, attrs: Any) -> Any:
    """TruncateMod of float32/float64: std::fmod on the bits, NaN for a subnormal divisor (glibc's
    wrapper reads it as zero), as FloorMod's first step: truncatemod(1e-40, 0.1) is 1e-40 (TF 2.21;
    third fuzzer, seed 54 #296)."""
    a, b = arrays
    if a.dtype not in _MAGNITUDE or b.dtype != a.dtype:
        return out
    with np.errstate(divide="ignore", invalid="ignore", under="ignore"):
        out = np.where(flushed(b) == 0, np.asarray(np.nan, a.dtype), np.fmod(a, b)).astype(a.dtype, copy=False)
    from simdist.runtime.ops.nan_operands import fmod_nans   # (its NaN: glibc's, bsweep65)
    return fmod_nans(out, a, b)


TRUNCATEMOD = Fixed("truncatemod", _truncatemod_fix)

# float32/float64 packet lanes of TF 2.21's AVX2 Sign kernel (simdist/runtime/ops/simd.py's RELU_LANES);
# bfloat16's packets are float32's (Eigen's Packet8bf widens to Packet8f)
_SIGN_LANES = {"float32": 8, "float64": 4, "bfloat16": 8}


def _sign_fix(arrays: Any, flushed_in: Any, out: Any, attrs: Any) -> Any:
    """Sign of subnormals (DAZ): Eigen's packet psign selects |x| where neither 0 < x nor x < 0
    holds, so a subnormal in a packet lane comes back as its magnitude (sign(-1e-40) is 1e-40);
    the scalar tail (the last n mod 8 float32, n mod 4 float64 elements) gives 0.0 (TF 2.21;
    third fuzzer, seed 53 #145)."""
    a = arrays[0]
    if a.dtype not in _MAGNITUDE or not a.size:
        return out
    sub = (a != 0) & (flushed(a) == 0)
    if a.dtype == BF16:   # (compared through float32: ml_dtypes' comparisons do not read bits)
        sub = (a.astype(np.float32) != 0) & (flushed(a).astype(np.float32) == 0)
    if not sub.any():
        return out
    lanes = _SIGN_LANES.get(a.dtype.name, 0)
    n = a.size
    packet = (np.arange(n) < (n // lanes) * lanes).reshape(a.shape) if lanes and n >= lanes else np.zeros(a.shape, bool)
    return np.where(sub, np.where(packet, np.abs(a), np.zeros((), a.dtype)), out).astype(a.dtype, copy=False)


SIGN = Fixed("sign", _sign_fix)

# Eigen's packets of float32 / bfloat16 (computed through float32) in TF 2.21's AVX2 build: see
# simdist/runtime/ops/simd.py. Elements of the scalar tail run scalar code.
_LANES = {"float32": 8, "bfloat16": 8, "float64": 4}


def _tail(shape: tuple, dtype: Any) -> np.ndarray:
    """True where an element runs in the scalar tail of Eigen's packet loop."""
    n = int(np.prod(shape, dtype=np.int64)) if shape else 1
    p = _LANES.get(np.dtype(dtype).name, 1)
    return (np.arange(n) >= (n // p) * p).reshape(shape)


# float32 log of a positive subnormal in the scalar tail: log(2**-150) (glibc's logf scales a
# subnormal by 2**23, which DAZ reads as zero, then takes the exponent from the bits); in packets
# -inf (the input read as zero); observed on TF 2.21
_LOG_TAIL = np.float32(-103.97207708399179)


def _log_fix(arrays: Any, flushed: Any, out: Any, attrs: Any) -> Any:
    a = arrays[0]
    m = np.abs(a.astype(np.float32)) if a.dtype == BF16 else np.abs(a)
    sub = (m < _TINY[a.dtype]) & (m > 0) & _tail(a.shape, a.dtype)
    if not sub.any():
        return out
    out = np.array(out, copy=True)
    # glibc's logf: a negative input is NaN before its subnormal branch
    neg = np.signbit(a.astype(np.float32) if a.dtype == BF16 else a)
    # (a negative one: glibc's default NaN, negative: 0xffc00000, bfloat16 0xffc0; TF 2.21, bsweep65)
    out[sub] = np.where(neg[sub], -np.float32(np.nan), _LOG_TAIL).astype(out.dtype)
    return out


LOG = Fixed("log", _log_fix)


def _tail_log_y(arrays: Any, flushed_in: Any, out: Any) -> Any:
    """Xlogy's result where y, broadcast to the output, is a nonzero subnormal in the scalar tail of
    the output's flat order (float32, and bfloat16 computed through float32): glibc's logf as for Log
    (log(2**-150) for a positive y, NaN for a negative one) times x read under DAZ; the packets read y
    as zero (-inf), as FLUSH computes. xlogy(-0.001, 1e-40) is 0.10397 in TF 2.21 (fz5 seed 63 #291);
    broadcast operands take the tail of the output too, and bfloat16 the same value rounded
    (xlogy(0.25, 1e-40) is -26: fz36a, seed 3620261201 #106)."""
    x, y = arrays
    if y.dtype not in (np.float32, BF16) or not out.size:
        return out
    yb = np.broadcast_to(y, out.shape).astype(np.float32)
    sub = (yb != 0) & (np.abs(yb) < _TINY[np.dtype(np.float32)]) & _tail(out.shape, y.dtype)
    if not sub.any():
        return out
    fx = np.broadcast_to(flushed_in[0], out.shape).astype(np.float32)
    # the zero test reads x as the kernel does: float32 under DAZ, bfloat16 widened by a bit shift
    zero = (fx if y.dtype == np.float32 else np.broadcast_to(x, out.shape).astype(np.float32)) == 0
    with np.errstate(invalid="ignore"):
        val = fx * np.where(np.signbit(yb), -np.float32(np.nan), _LOG_TAIL)
    return np.where(sub, np.where(zero, np.float32(0), val).astype(out.dtype), out).astype(out.dtype, copy=False)


def _xlogy_fix(arrays: Any, flushed: Any, out: Any, attrs: Any) -> Any:
    """float32 Xlogy (x * log(y), 0 where x == 0) of a subnormal y in the scalar tail (_tail_log_y)."""
    return _tail_log_y(arrays, flushed, out)


XLOGY = Fixed("xlogy", _xlogy_fix)


def _tensor_scatter_fix(arrays: Any, flushed_in: Any, out: Any, attrs: Any) -> Any:
    """TensorScatterAdd/Sub/Max/Min (scatter_nd_op.cc): the output starts as a copy of the tensor, its bits kept,
    and only the slices the indices address compute, reading subnormals as zeros and flushing results: an
    untouched 5e-324 stays 5e-324 where an addressed 1.0 + 1e-310 is 1.0 (observed on TF 2.21, float32 and
    float64; fz36a, eager seed 3620261223 #99, ScatterNdNonAliasingAdd through TensorScatterAdd)."""
    t, idx = arrays[0], arrays[1]
    out = flushed(np.asarray(out))
    if idx.ndim == 0 or out.shape != t.shape or out.dtype != t.dtype:
        return out
    depth = idx.shape[-1]
    if depth == 0 or depth > t.ndim:
        return out
    flat = idx.reshape(-1, depth).astype(np.int64)
    ok = np.all((flat >= 0) & (flat < np.asarray(t.shape[:depth], np.int64)), axis=1)
    mask = np.zeros(t.shape[:depth], bool)
    mask[tuple(flat[ok].T)] = True
    return np.where(mask.reshape(mask.shape + (1,) * (t.ndim - depth)), out, t)


TENSOR_SCATTER = Fixed("tensor_scatter", _tensor_scatter_fix)


def _bf16_x_times(f: Any) -> Fixed:
    """bfloat16 Xlogy/Xlog1py/Xdivy (0 where x == 0, else x * f(y), x / y): in the scalar tail of the
    output's flat order the kernel tests x == 0 on the value widened by a bit shift, so a subnormal x is
    not zero there, and then multiplies under DAZ, reading it as ±0: ±0 * f(y), NaN where f(y) is
    infinite or NaN (xlogy(1e-40, 0) is NaN, xlog1py(-1e-40, 0) is -0.0; TF 2.21 eagerly and traced, fz3
    seed 91 #107); f None (Xdivy): FLUSH's result there. In the packets of 8 (Packet8bf through float32)
    `pselect(pcmp_eq(x, 0), x, ...)` compares under DAZ and returns x itself: a subnormal x keeps its
    bits (xlog1py of 1e-40 in a packet is 9.18e-41; fz38a, tape seed 3820261203 #73). Other dtypes:
    FLUSH's result."""
    def fix(arrays: Any, flushed_in: Any, out: Any, attrs: Any) -> Any:
        from simdist.runtime.ops.nan_operands import first_nan
        x = arrays[0]
        out = flushed(np.asarray(out))
        fx = flushed_in[0].astype(np.float32)
        sub = np.broadcast_to((x.astype(np.float32) != 0) & (fx == 0), out.shape)
        if not sub.any():
            return out
        tail = _tail(out.shape, BF16)
        if f is not None:
            fy = flushed_in[1].astype(np.float32)
            with np.errstate(all="ignore"):   # (glibc's logf/log1pf return a NaN y quieted, sign and payload kept,
                # where NumPy's log gives 0x7fc00000: xlogy(bfloat16 9.2e-41, 0xffc5) is 0xffc0 on TF 2.21,
                # bsweep65, fix65n)
                val = fx * first_nan(f(fy), fy)
            out = np.where(sub & tail, np.broadcast_to(val, out.shape).astype(out.dtype), out)
        return np.where(sub & ~tail, np.broadcast_to(x, out.shape), out).astype(out.dtype, copy=False)
    return Fixed(f.__name__ if f is not None else "xdivy", fix)


_XLOGY_BF16_X = _bf16_x_times(np.log)
# bfloat16 Xlogy: the subnormal x's ±0 product, then a subnormal y's log in the tail (_tail_log_y)
_XLOGY_BF16 = Fixed("xlogy_bf16", lambda a, f, out, at: _tail_log_y(a, f, _XLOGY_BF16_X.fix(a, f, out, at)))
_XLOG1PY_BF16 = _bf16_x_times(np.log1p)
_XDIVY_BF16 = _bf16_x_times(None)


def _xlogy_rule(arrays: Any, attrs: dict | None) -> Any:
    return _XLOGY_BF16 if arrays[0].dtype == BF16 else XLOGY


def _xlog1py_rule(arrays: Any, attrs: dict | None) -> Any:
    return _XLOG1PY_BF16 if arrays[0].dtype == BF16 else FLUSH


def _xdivy_rule(arrays: Any, attrs: dict | None) -> Any:
    return _XDIVY_BF16 if arrays[0].dtype == BF16 else FLUSH


# Lgamma calls glibc's lgamma/lgammaf element by element (no packets), which for a tiny x returns
# -log|x|, and its log under DAZ takes a subnormal as 2**-150 (float32) or 2**-1075 (float64):
# every nonzero subnormal, either sign, gives the same value; observed on TF 2.21 (fz3fix)
_LGAMMA_SUB = {np.dtype(np.float32): np.float32(103.97207708399179), np.dtype(np.float64): np.float64(745.1332191019412)}
# Expint (float32): Ei(x) ~ euler_gamma + log(x) for a tiny x, the log as above (a negative
# subnormal's log is NaN); float64's reads it as zero (-inf)
_EXPINT_SUB = np.float32(0.5772156649015329 - 103.97207708399179)


def _subnormal_fix(value_of: Any) -> Any:
    """A fix setting each nonzero subnormal input's result to value_of(dtype, negative)."""
    def fix(arrays: Any, flushed: Any, out: Any, attrs: Any) -> Any:
        a = arrays[0]
        if a.dtype not in _LGAMMA_SUB:
            return out
        m = np.abs(a)
        sub = (m < _TINY[a.dtype]) & (m > 0)
        if not sub.any():
            return out
        out = np.array(out, copy=True)
        neg = np.signbit(a)
        out[sub] = np.where(neg[sub], value_of(a.dtype, True), value_of(a.dtype, False)).astype(out.dtype)
        return out
    return fix


LGAMMA = Fixed("lgamma", _subnormal_fix(lambda dt, neg: _LGAMMA_SUB[dt]))
EXPINT = Fixed("expint", _subnormal_fix(lambda dt, neg: np.float32(np.nan) if neg else _EXPINT_SUB))


def _expint_rule(arrays: Any, attrs: dict | None) -> Any:
    return EXPINT if arrays[0].dtype == np.float32 else FLUSH


def _select_fix(pick_b: Any) -> Any:
    """bfloat16 Maximum/Minimum: both paths compare the operands as float32 with DAZ and return
    the first on a tie; packets return the chosen operand flushed, the scalar tail its bits."""
    def fix(arrays: Any, flushed: Any, out: Any, attrs: Any) -> Any:
        a, b = arrays
        fa, fb = flushed
        shape = np.broadcast_shapes(a.shape, b.shape)
        take_b = pick_b(fa.astype(np.float32), fb.astype(np.float32))
        packets = np.where(take_b, np.broadcast_to(fb, shape), np.broadcast_to(fa, shape))
        tail = np.where(take_b, np.broadcast_to(b, shape), np.broadcast_to(a, shape))
        return np.where(_tail(shape, a.dtype), tail, packets).astype(out.dtype, copy=False)
    return fix


def _relu_fix(arrays: Any, flushed: Any, out: Any, attrs: Any) -> Any:
    # bfloat16 Relu: x < 0 ? 0 : x, the comparison reading subnormals as zeros; packets return x
    # flushed (relu(-s) is -0.0), the scalar tail x's bits (relu(-s) is -s)
    a, fa = arrays[0], flushed[0]
    neg = fa.astype(np.float32) < 0
    zero = np.zeros((), a.dtype)
    return np.where(_tail(a.shape, a.dtype), np.where(neg, zero, a), np.where(neg, zero, fa)).astype(out.dtype, copy=False)


_RELU_BF16 = Fixed("relu", _relu_fix)
# (Eigen's PropagateNaN: a NaN operand is the result, the first one when both are: fuzz20 seed 2420261202 #117)
_MAX_BF16 = Fixed("maximum", _select_fix(lambda x, y: (x < y) | (np.isnan(y) & ~np.isnan(x))))
_MIN_BF16 = Fixed("minimum", _select_fix(lambda x, y: (y < x) | (np.isnan(y) & ~np.isnan(x))))


def _segment_extreme_fix_for(sorted_ids: bool) -> Any:
    """bfloat16 (Unsorted)SegmentMax/Min: the running extreme compares as float32 under DAZ. The scalar path (the
    columns of a row past its whole packets of 8: all of a row narrower than 8) takes the later element on a tie,
    copied with its bits: a zero result is the last element of its segment that reads as zero, a subnormal kept
    (`segment_max([0.0, 9.2e-41])` is 9.2e-41, `[0.0, -9.2e-41]` -9.2e-41; observed on TF 2.21, fz28a: fuzz20 seed
    2820261206 #30). The packet columns return what they compared, flushed: UnsortedSegmentMax/Min's per-row
    `cwiseMax(data, output)` takes the later row on a tie (the last zero's sign), SegmentMax/Min's reduction over a
    segment's rows keeps its accumulator (the first zero's sign); a sorted segment of one row is a copy, bits kept
    (fz63: fz54b seed 63105 #1, fz62's open B; observed on TF 2.21, /work/wt/fz63_logs/q/q_seg.py). Segment ids out
    of range are skipped, as the op skips them."""
    def fix(arrays: Any, flushed: Any, out: Any, attrs: Any) -> Any:
        data, ids = arrays[0], np.asarray(arrays[1]).reshape(-1)
        if not data.size or not out.size:
            return out
        rows = data.reshape(ids.size, -1)
        frows_bits = np.asarray(flushed[0]).reshape(ids.size, -1)
        frows = frows_bits.astype(np.float32)
        ncol = rows.shape[1]
        packet = np.arange(ncol) < (ncol // 8) * 8
        res = np.array(out, copy=True).reshape(out.shape[0], -1)
        zero = res.astype(np.float32) == 0
        nseg = res.shape[0]
        valid = [sid for sid in ids.tolist() if 0 <= sid < nseg]
        counts = np.bincount(np.asarray(valid, np.int64), minlength=nseg) if valid else np.zeros(nseg, np.int64)
        taken = np.zeros(res.shape, bool)   # (a sorted segment's packet columns: its first zero decided)
        for i, sid in enumerate(ids.tolist()):
            if not 0 <= sid < nseg:
                continue
            m = zero[sid] & (frows[i] == 0)
            if sorted_ids and counts[sid] == 1:
                res[sid][m] = rows[i][m]
                continue
            res[sid][m & ~packet] = rows[i][m & ~packet]
            pk = m & packet
            if sorted_ids:
                pk &= ~taken[sid]
                taken[sid] |= pk
            res[sid][pk] = frows_bits[i][pk]
        return res.reshape(out.shape)
    return fix


_SORTED_EXTREME_BF16 = Fixed("sorted_segment_extreme", _segment_extreme_fix_for(True))
_SEGMENT_EXTREME_BF16 = Fixed("segment_extreme", _segment_extreme_fix_for(False))


def _extreme_scalar_path(shape: tuple, axes: tuple) -> Any:
    """For a Max/Min reduction of `shape` over `axes`: a [outputs, reduced elements] mask, True where Eigen's
    bfloat16 reducer reads the element in its scalar path (packets of 8, Packet8bf widened to float32; clause
    ops.subnormals), by ReductionHelper's collapsed shape: a reduction along the innermost elements (one reduced run,
    or rows of kept then reduced runs, or more than three runs, which TF transposes to such rows first) packs whole
    packets of each slice and leaves its tail scalar; one that keeps the innermost run ([reduced, kept], [kept,
    reduced, kept]) computes whole packets of outputs along it (not crossing a row), the rest scalar; [reduced, kept,
    reduced] is Eigen's generic reducer, all scalar."""
    from simdist.runtime.ops.minmax_zeros import _collapse
    keep = [d for d in range(len(shape)) if d not in axes]
    k = int(np.prod([shape[d] for d in keep], dtype=np.int64)) if keep else 1
    n = int(np.prod([shape[d] for d in axes], dtype=np.int64)) if axes else 1
    sizes, flags = _collapse(shape, axes)
    if flags in ([True], [False, True]) or len(flags) > 3:
        # (all reduced, rows reduced, or more than three runs, which TF transposes to [kept, reduced] rows first)
        return np.broadcast_to(np.arange(n) >= (n // 8) * 8, (k, n))
    if flags in ([True, False], [False, True, False]):
        c = sizes[-1]
        return np.broadcast_to((np.arange(k) % c >= (c // 8) * 8)[:, None], (k, n))
    return np.ones((k, n), bool)


def _extreme_bf16_fix(arrays: Any, flushed: Any, out: Any, attrs: Any) -> Any:
    """bfloat16 Max/Min reductions: every step compares as float32 under DAZ, so a subnormal reads as a zero of its
    sign; packets return what they compared (flushed), the scalar path the element's bits, a tie taking the later
    element, and the scalar accumulator winning its tie with the packets' result (/work/wt/fz59_logs/q_bfmin2.py):
    `reduce_min` of a slice of fewer than 8 elements whose least is -9.2e-41 is -9.2e-41, of 8 or 16 -0.0, of 9
    with it last -9.2e-41 (observed on TF 2.21, fz59: fz54b seed 59202 #0, q_bfmin.py). Only results that read as
    zero change."""
    a, fa = np.asarray(arrays[0]), np.asarray(flushed[0])
    res = np.asarray(out)
    if a.dtype != BF16 or not a.size or not res.size:
        return out
    axis = (attrs or {}).get("axis")
    axes = tuple(range(a.ndim)) if axis is None else tuple(sorted({int(x) % a.ndim for x in (
        (axis,) if isinstance(axis, (int, np.integer)) else axis)}))
    keep = [d for d in range(a.ndim) if d not in axes]
    from simdist.runtime.ops.minmax_zeros import _collapse
    flags = _collapse(a.shape, axes)[1]
    # ([reduced, kept, reduced]: Eigen's generic reducer loops over the later reduced run outermost, the first varies
    # fastest; observed, the test's m5x2x10 and m3x2x4 cases)
    order = keep + (list(axes)[::-1] if flags == [True, False, True] else list(axes))
    rows = np.transpose(a, order).reshape(res.size, -1)
    frows = np.transpose(fa, order).reshape(res.size, -1).astype(np.float32)
    scalar = _extreme_scalar_path(a.shape, axes)
    flat = np.array(res, copy=True).reshape(-1)
    zero = flat.astype(np.float32) == 0
    sub = (frows == 0) & (rows.astype(np.float32) != 0)   # (subnormals)
    for i in np.nonzero(zero & np.any(sub & scalar, axis=1))[0].tolist():
        cand = np.nonzero(scalar[i] & (frows[i] == 0))[0]
        flat[i] = rows[i][cand[-1]]
    return flat.reshape(res.shape)


_EXTREME_BF16 = Fixed("extreme_bf16", _extreme_bf16_fix)


def _extreme_rule(arrays: Any, attrs: dict | None) -> Any:
    rule = _reduction_rule(arrays, attrs)
    return _EXTREME_BF16 if rule == FLUSH and arrays[0].dtype == BF16 else rule


def _bf16_select(fixed: Fixed) -> Any:
    def rule(arrays: Any, attrs: dict | None) -> Any:
        return fixed if arrays[0].dtype == BF16 else FLUSH
    return rule


def _log_rule(arrays: Any, attrs: dict | None) -> Any:
    # float64's Log reads a subnormal as zero (-inf); float32's and bfloat16's depend on the lane
    return FLUSH if arrays[0].dtype == np.float64 else LOG


def _atan_rule(arrays: Any, attrs: dict | None) -> Any:
    # float32/float64 Atan: the kernel (packet_trig.py) reads a subnormal as zero in its packets and
    # keeps it in the C library's tail (atan(1e-39) is 1e-39 there)
    return KEEP if arrays[0].dtype in (np.float32, np.float64) else FLUSH


def _relu_rule(arrays: Any, attrs: dict | None) -> Any:
    # float32/float64 Relu: the kernel (activations.py `_relu`) reads a subnormal as zero in its packets and
    # in the scalar tail's pairs, and keeps it in the odd tail's first element (fz63); bfloat16 its Fixed rule
    dt = arrays[0].dtype
    return KEEP if dt in (np.float32, np.float64) else (_RELU_BF16 if dt == BF16 else FLUSH)


def _max_pool_rule(arrays: Any, attrs: dict | None) -> Any:
    # float32 MaxPool where oneDNN runs it (host_cpu): oneDNN's pooling kernel keeps a subnormal maximum
    # (max_pool2d of [2**-130, -5.6, -0.59, -2**-130] is 2**-130, NHWC and NCHW); TF's own (Eigen) kernel, and
    # oneDNN's bfloat16, flush it (observed on TF 2.21: an AVX-512 Xeon with AMX, an AVX2 EPYC; fifty-fifth session)
    if arrays[0].dtype != np.float32:
        return FLUSH
    from simdist.runtime import host_cpu
    return KEEP if host_cpu.current().onednn("float32", ("float32",)) else FLUSH


def _atan2_rule(arrays: Any, attrs: dict | None) -> Any:
    # Atan2: float32/float64 as Atan (packet_atan2.py); bfloat16 too, whose kernel is glibc's atan2f on every
    # element's float32 value (its bit tests see a subnormal bfloat16, its arithmetic reads it as zero: fz49)
    return KEEP if arrays[0].dtype in (np.float32, np.float64, BF16) else FLUSH


# Odd functions with f(x) = x + O(x**3) whose TF 2.21 kernels return a subnormal x with its bits (glibc's
# scalar functions return x for a tiny |x| before any arithmetic; Eigen's generic expm1 selects x where
# exp(x) == 1 under DAZ; Elu selects x where x < 0 is false), per dtype and path: "tail" (the scalar
# tail of Eigen's packet loop: the last n mod 8 float32/bfloat16, n mod 4 float64 elements), "packet"
# (the rest), or both; elsewhere the input is read as zero and the result is ±0. Observed on TF 2.21
# eagerly at 1, 3, 9, 11 and 17 elements (tests/ops/test_fresh16_rules.py; fz3 seed 91 #23).
_TINY_IDENTITY: dict[str, dict[str, tuple[str, ...]]] = {
    "Log1p": {"float32": ("tail",), "float64": ("tail",), "bfloat16": ("tail",)},
    "Expm1": {"float32": ("packet",), "float64": ("packet",), "bfloat16": ("packet",)},
    "Tan": {"float32": ("tail", "packet"), "float64": ("tail", "packet"), "bfloat16": ("tail", "packet")},
    "Asin": {"float32": ("tail",), "float64": ("tail", "packet"), "bfloat16": ("tail", "packet")},
    "Asinh": {"float32": ("tail", "packet"), "float64": ("tail", "packet"), "bfloat16": ("tail", "packet")},
    # (sinhf/sinh on every element, no packets: fz3 seed 1219 #53, bfloat16 9.2e-41)
    "Sinh": {"float32": ("tail", "packet"), "float64": ("tail", "packet"), "bfloat16": ("tail", "packet")},
    "Atanh": {"float32": ("tail",), "float64": ("tail",), "bfloat16": ("tail", "packet")},
    "Elu": {"float32": ("tail", "packet"), "float64": ("tail", "packet"), "bfloat16": ("tail", "packet")},
    "Atan": {"bfloat16": ("tail", "packet")},
    "Relu6": {"bfloat16": ("tail",)},
}


def _tiny_identity(name: str) -> Any:
    """The rule of op `name` in _TINY_IDENTITY: the result computed on flushed inputs and flushed
    (FTZ), then a subnormal input's bits where its element's path returns x."""
    paths = _TINY_IDENTITY[name]

    def fix(arrays: Any, flushed_in: Any, out: Any, attrs: Any) -> Any:
        a = arrays[0]
        out = flushed(np.asarray(out))
        keep = paths.get(a.dtype.name)
        if not keep or not a.size or out.shape != a.shape:
            return out
        wide = a.astype(np.float32) if a.dtype == BF16 else a
        m = np.abs(wide)
        sub = (m > 0) & (m < _TINY[a.dtype])
        if not sub.any():
            return out
        tail = _tail(a.shape, a.dtype)
        where = sub & ((tail if "tail" in keep else False) | (~tail if "packet" in keep else False))
        return np.where(where, a, out).astype(out.dtype, copy=False)
    fixed = Fixed(name.lower(), fix)
    dtypes_kept = frozenset(np.dtype(BF16 if d == "bfloat16" else d) for d in paths)

    def rule(arrays: Any, attrs: dict | None) -> Any:
        if arrays[0].dtype in dtypes_kept:
            return fixed
        other = DEFAULT_OF.get(name, FLUSH)
        return other(arrays, attrs) if callable(other) else other
    return rule


def _pow_rule(arrays: Any, attrs: dict | None) -> Any:
    # float32/float64 Pow: the kernel (packet_pow.py) reads subnormals as zeros in its packets and by
    # their bits in the C library's tail (pow(0, 1e-40) is 0 there), and flushes its result itself
    a = arrays[0]
    return KEEP if a.dtype in (np.float32, np.float64) and arrays[1].dtype == a.dtype else CHECK


def flush_parts(a: np.ndarray) -> np.ndarray:
    """`a` with subnormal parts flushed: a complex array part by part, any other as `flushed`."""
    if a.dtype.kind != "c":
        return flushed(a)
    re, im = flushed(np.ascontiguousarray(a.real)), flushed(np.ascontiguousarray(a.imag))
    if re is a.real and im is a.imag:
        return a
    out = np.empty(a.shape, a.dtype)
    out.real, out.imag = re, im
    return out


def part_dtype(dt: Any) -> Any:
    """The dtype of a complex type's parts (the dtype itself for the others)."""
    return {np.dtype(np.complex64): np.dtype(np.float32), np.dtype(np.complex128): np.dtype(np.float64)}.get(
        np.dtype(dt), np.dtype(dt))


def cast_rule(arrays: Any, attrs: dict | None) -> Any:
    """Cast: to the same dtype it is the input itself; float32 to bfloat16 rounds the bits
    (Eigen's float_to_bfloat16_rtne) and bfloat16 to float32 or bool reads them (a shift, a bit
    test), keeping a subnormal; every other cast computes (a subnormal float64 to float32 result
    is flushed, a subnormal float32 read as float64 or bool is zero). With a complex side: parts of
    one precision keep their bits, other casts read the parts under DAZ and write them under FTZ
    (cvtps2pd/cvtpd2ps: complex64 -> complex128 of 1e-40 + 0j is 0j, complex128 -> complex64 of
    1e-40 + 1j is 1j); bfloat16 to complex64 widens the bits as to float32."""
    src = arrays[0].dtype
    dst = (attrs or {}).get("DstT")
    dst = src if dst is None else dst._np
    if dst == src or (src == np.float32 and dst == BF16) or (src == BF16 and dst in (np.float32, np.bool_)):
        return KEEP
    if src == BF16 and dst == np.complex64:   # (bfloat16 widened into the real part by a shift: 0x0001 is
        return KEEP                          # 0x00010000; TF 2.21, bsweep65)
    if src.kind == "c" or np.dtype(dst).kind == "c":
        # parts of one precision move as bits (float32 <-> complex64, float64 <-> complex128 keep a
        # subnormal part); any other cast with a complex side converts them (issue 29's fz10)
        # (the converting casts flush the parts themselves: math.py `_cast_array`)
        return KEEP if part_dtype(src) == part_dtype(dst) else FLUSH
    return FLUSH


# Ops whose forwards are NumPy kernels that compute a subnormal result without raising the
# underflow flag (NumPy's SIMD exp, the sigmoid built on it...): their outputs are checked in full.
CHECKED: frozenset[str] = frozenset({"Exp", "Sigmoid", "Softplus", "Erfc", "Pow", "Softmax", "LogSoftmax", "Expm1"})


CHECK = "check"


def _reduction_rule(arrays: Any, attrs: dict | None) -> str:
    # TF's reduction kernels copy their input when every reduced axis has size 1 (or none is
    # reduced): reduce_sum([1e-39]) is 1e-39 (reduction_ops_common.h, ReductionHelper)
    a = arrays[0]
    axis = (attrs or {}).get("axis")
    if axis is None:
        return KEEP if a.size == 1 else FLUSH
    axes = (axis,) if isinstance(axis, (int, np.integer)) else tuple(axis)
    for ax in axes:
        if a.ndim and a.shape[int(ax)] != 1:
            return FLUSH
    return KEEP


# Ops whose kernels treat subnormals otherwise than their kind's default (measured on TF 2.21,
# tests/ops/test_subnormals_tf.py): bit ops and selections keep them; reductions copy when they
# reduce nothing; segment and scatter ops that add compute; the NumPy kernels of CHECKED ops are
# checked in full.
RULES: dict[str, Any] = {
    "Neg": KEEP, "Abs": KEEP, "SelectV2": KEEP, "Sin": KEEP, "Atan": _atan_rule, "Cast": cast_rule, "Log": _log_rule,
    "Lgamma": LGAMMA, "Expint": _expint_rule,
    "TopKV2": TOP_K, "Maximum": _bf16_select(_MAX_BF16), "Minimum": _bf16_select(_MIN_BF16),
    "Relu": _relu_rule,
    "Sum": _reduction_rule, "Mean": _reduction_rule, "Max": _extreme_rule, "Min": _extreme_rule,
    "Prod": _reduction_rule,
    "UnsortedSegmentSum": FLUSH, "SegmentSum": FLUSH, "SegmentMax": _bf16_select(_SORTED_EXTREME_BF16), "SegmentMin": _bf16_select(_SORTED_EXTREME_BF16),
    "SegmentProd": FLUSH, "SegmentMean": FLUSH, "UnsortedSegmentMax": _bf16_select(_SEGMENT_EXTREME_BF16),
    "UnsortedSegmentMin": _bf16_select(_SEGMENT_EXTREME_BF16),
    "UnsortedSegmentProd": FLUSH, "ScatterNd": FLUSH, "TensorScatterAdd": TENSOR_SCATTER,
    "TensorScatterSub": TENSOR_SCATTER, "TensorScatterMax": TENSOR_SCATTER, "TensorScatterMin": TENSOR_SCATTER, "DenseBincount": FLUSH, "InTopKV2": FLUSH,
    "LowerBound": FLUSH, "UpperBound": FLUSH,
    # Where(condition) tests `x != 0` under DAZ; NextAfter steps through the bits (std::nextafter)
    "Where": FLUSH, "NextAfter": MAKES, "FloorMod": FLOORMOD, "TruncateMod": TRUNCATEMOD,
    "Sign": SIGN,
    # float32/float64 Atan2 and Relu6: the kernels (packet_atan2.py, activations.py) apply DAZ/FTZ
    # themselves, packets and scalar tail apart
    "Atan2": _atan2_rule, "Relu6": _atan_rule, "Xlogy": _xlogy_rule, "Xlog1py": _xlog1py_rule, "Xdivy": _xdivy_rule,
    "Pow": _pow_rule,
    # Complex packs the two parts' bits (tf.complex(5e-324, 1e-310) keeps both; fz5 ext seed 61 #57, #173)
    "Complex": KEEP, "Real": KEEP, "Imag": KEEP, "Conj": KEEP,
    "MaxPool": _max_pool_rule,
}
for _name in CHECKED:
    RULES.setdefault(_name, CHECK)
RULES.update({"Elu": CHECK, "Selu": CHECK, "SoftmaxCrossEntropyWithLogits": CHECK,
              "SparseSoftmaxCrossEntropyWithLogits": CHECK, "CumulativeLogsumexp": CHECK})
# (the rule each _TINY_IDENTITY op keeps for the dtypes the table does not list)
DEFAULT_OF: dict[str, Any] = {n: RULES.get(n, FLUSH) for n in _TINY_IDENTITY}
for _name in _TINY_IDENTITY:
    RULES[_name] = _tiny_identity(_name)

_KIND_DEFAULT = {"elementwise": FLUSH, "reduction": FLUSH, "scan": FLUSH, "contraction": FLUSH, "nn": FLUSH,
                 "window": FLUSH}


def rule_for(name: str, kind: str) -> Any:
    """An op's rule unless its registration states one: RULES, else its kind's default."""
    r = RULES.get(name)
    return r if r is not None else _KIND_DEFAULT.get(kind, KEEP)


# How a replay of a recorded graph flushes one op's result (runtime/graph/codegen.py): the eager rule of
# dispatch (`_flush_result`) for the op's dtypes and attributes, fixed when the op is recorded.
NOTED = "noted"     # flushed when an underflow was noted since the last flush (a FLUSH op)
ALWAYS = "always"   # checked in full (a CHECK op, whose NumPy kernel notes nothing; a bfloat16 result)


def replay_mode(op: Any, arrays: Any, out_dtypes: Any, attrs: dict | None) -> str | None:
    """How a replay treats a subnormal result of `op` recorded on `arrays` giving `out_dtypes` (NumPy
    dtypes): None (kept: a KEEP or MAKES rule, a Fixed rule, no float32/float64/bfloat16 result), NOTED
    or ALWAYS, as dispatch treats the op's result eagerly. A recording holds no subnormal value (it stays
    eager when it meets one), so a replay's subnormals come from its own arithmetic: results only."""
    rule = op.subnormals
    if rule is KEEP or rule is MAKES:
        return None
    if type(rule) is not str:
        try:
            rule = rule(arrays, attrs)
        except Exception:  # noqa: BLE001 - a rule that cannot read these arrays: the kind's default
            rule = FLUSH
    if type(rule) is not str or rule == KEEP or not any(d in _TINY for d in out_dtypes):
        return None
    return ALWAYS if rule == CHECK or any(d == BF16 for d in out_dtypes) else NOTED


def replay_flushed(v: Any) -> Any:
    """One op's result in a replay (an array, a NumPy scalar of the uniform rewrite, or a tuple of
    them) with its subnormals flushed to zeros of their sign (FTZ), and the underflow note reset, as
    dispatch's `_flush_result` does eagerly."""
    _fired[0] = False
    if type(v) is tuple:
        return tuple(_flushed_value(x) for x in v)
    return _flushed_value(v)


def _flushed_value(a: Any) -> Any:
    if isinstance(a, np.ndarray):
        return flushed(a) if a.dtype in _TINY else a
    if isinstance(a, np.generic) and a.dtype in _TINY:
        arr = np.asarray(a)
        r = flushed(arr)
        return a if r is arr else r[()]
    return a
