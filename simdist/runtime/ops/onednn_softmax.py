"""oneDNN's float32 softmax as TF 2.21's x86-64 wheel runs it (clause nn.softmax-nonfinite, its paragraph
"The finite rows, bit for bit").

Where TF rewrites Softmax to oneDNN (host_cpu: float32 wherever oneDNN is on, bfloat16 and float16 where
the CPU supports them), the kernel is oneDNN v3.7.3's `jit_softmax_dense_kernel_t` (src/cpu/x64/
jit_uni_softmax.cpp; `ONEDNN_VERBOSE=1` names it `jit:avx10_1_512 ... alg:softmax_accurate` on an
AVX-512 host), over each row of the last axis in vectors of W lanes (16 with AVX-512, 8 with AVX2):

- **max**: exact whatever the order, from -FLT_MAX up (so a row of -inf is 0 · inf, NaN); rows with NaN
  or +inf are activations' `_onednn_nonfinite_rows`;
- **exp** of x - max: the eltwise injector's `exp_compute_vector_fwd` (src/cpu/x64/injectors/
  jit_uni_eltwise_injector.cpp): x clamped to [ln FLT_MIN, ln FLT_MAX], n = floor(x log2e + 1/2),
  r = fma(-n, ln2, x), a degree-5 polynomial in Horner form of fused multiply-adds, times 2^(n-1) built
  from the exponent bits (0 where x < ln FLT_MIN), times 2;
- **sum**: vector j of the row goes to accumulator j mod 4 within each run of four whole vectors
  (`unroll_regs_`), the last run of fewer than four to accumulators 0.., the partial vector (masked lanes)
  to accumulator 0; the accumulators are added (a0 + a1) + (a2 + a3) (fewer: (a0 + a1) + a2, a0 + a1),
  then the lanes by `get_horizontal_op`'s shuffles: 256-bit halves, 128-bit quarters (AVX-512 only),
  then within 128 bits (j, j ^ 2), (j, j ^ 1);
- **out** = e · (1 / sum), the reciprocal a division.

TF runs its kernels with flush-to-zero and denormals-are-zero set (subnormals.py), so every step
flushes a subnormal result.
"""

from __future__ import annotations

import numpy as np

from simdist.runtime.ops import ftz_steps
from simdist.runtime.ops.nan_operands import first_nan
from simdist.runtime.subnormals import flushed

_F32 = np.float32
_LN_FLT_MIN = np.uint32(0xC2AEAC50).view(_F32)
_LN_FLT_MAX = np.uint32(0x42B17218).view(_F32)
_LOG2EF = np.uint32(0x3FB8AA3B).view(_F32)
_LN2F = np.uint32(0x3F317218).view(_F32)
# p1..p5 (p0 = 1): exp_polynomial's table, Horner from p5 down
_POL = tuple(np.uint32(b).view(_F32) for b in (0x3F7FFFFB, 0x3EFFFEE3, 0x3E2AAD40, 0x3D2B9D0D, 0x3C07CFCE))


def _ftz(a: np.ndarray) -> np.ndarray:
    """Subnormal results flushed to a zero of their sign (MXCSR.FTZ; inputs read under DAZ)."""
    return flushed(np.asarray(a, _F32))


def fma32(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """float32 a·b + c rounded once (vfmadd, `round_fused`'s rounding) under TF's FTZ: a result tiny after rounding
    is a zero of its sign (ftz_steps.fused; fix63m). A NaN result is the first NaN operand's of a, b, c, and the
    default NaN only where none is one: an invalid a·b (inf · 0) does not hide a NaN c (TF 2.21's oneDNN one-row
    MatMul; clause ops.packet-paths, tests/ops/test_fma_nan58_tf.py)."""
    a64, b64, c64 = (np.asarray(v, _F32).astype(np.float64) for v in (a, b, c))
    p = a64 * b64
    with np.errstate(over="ignore", invalid="ignore"):
        s = p + c64
    s = first_nan(s, a64, b64, c64)
    return ftz_steps.fused(round_fused(s, p, c64, tiny_products(a64, b64)))


_LOW29, _HALF29 = np.uint64(0x1FFFFFFF), np.uint64(0x10000000)
_MAG64, _ONE = np.uint64(0x7FFFFFFFFFFFFFFF), np.uint64(1)
_BELOW_NORMAL32 = np.uint64(0x3810000000000000 - 1)   # (float64 bits of 2^-126, float32's smallest normal) - 1
_SAFE_PRODUCT = 2.0 ** -101


def tiny_products(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether some product of a nonzero element of `a` and one of `b` (float32 values) may lie below 2^-101, the
    only products after which a float64 sum below float32's smallest normal can be inexact (`round_fused`): a
    nonzero product p has at most 48 significant bits, so from 2^-101 up it is a multiple of 2^-148, and c + p
    (c a float32) a multiple of 2^-149, exact in float64 wherever it is below 2^-126."""
    def least(v: np.ndarray) -> float:
        mag = np.abs(v[np.isfinite(v) & (v != 0)])
        return float(mag.min()) if mag.size else np.inf
    return least(np.asarray(a)) * least(np.asarray(b)) < _SAFE_PRODUCT


def round_fused(s: np.ndarray, p: np.ndarray, c64: np.ndarray, tiny: bool = True) -> np.ndarray:
    """The float32 fused multiply-add a·b + c, as float64 `s` to cast to float32: p = a·b (exact in float64) and
    s = p + c64 (float64, rounded once; updated in place and returned). s rounds to float32 as the exact sum does
    (one rounding, to nearest even) unless the float64 rounding landed on a float32 midpoint: its low 29 bits 1
    followed by zeros where the result is normal, and, only if `tiny` (`tiny_products`), possibly any value below
    float32's smallest normal (its coarser grid); there the sum's error, from a two-sum, says which way, by moving
    s one float64 step toward the exact sum (which cannot cross a float32 rounding boundary unless s sat on one).
    Only those elements pay for it (a hot path). The pure-Python reference of _fma.c's fmaf (fma_native: identical
    bits, tests/ops/test_fma_native.py)."""
    s = np.asarray(s)   # (a 0-d product of 0-d operands is a NumPy scalar)
    u = s.view(np.uint64)
    tie = (u & _LOW29) == _HALF29
    if tiny:
        tie |= ((u & _MAG64) - _ONE) < _BELOW_NORMAL32   # (0 < |s| < 2^-126; zeros wrap to the top)
    if tie.any():
        p, c64, st = np.broadcast_to(p, s.shape)[tie], np.broadcast_to(c64, s.shape)[tie], s[tie]
        with np.errstate(over="ignore", invalid="ignore"):
            bp = st - c64   # (Knuth's two-sum of c64 + p: bp the part of p in st, st - bp the part of c64)
            err = (c64 - (st - bp)) + (p - bp)
        s[tie] = np.where(err == 0, st, np.nextafter(st, np.where(err > 0, np.inf, -np.inf)))
    return s


def exp(x: np.ndarray) -> np.ndarray:
    """The eltwise injector's float32 exp (FTZ), elementwise."""
    x = np.asarray(x, _F32)
    below = x < _LN_FLT_MIN
    with np.errstate(invalid="ignore", over="ignore"):
        xc = np.maximum(np.minimum(x, _LN_FLT_MAX), _LN_FLT_MIN).astype(_F32)
        # (x log2e + 1/2 and r are never subnormal: multiples of 2^-25 where not 0, or r = x, read under DAZ)
        fx = np.floor(xc * _LOG2EF + _F32(0.5)).astype(_F32)
        # r = fma(-fx, ln2, xc): exact in float64 (fx an integer below 2^8, both terms multiples of 2^-25 below 2^7
        # once fx is not 0), so one rounding to float32 is the fused result
        r = (xc.astype(np.float64) - fx.astype(np.float64) * np.float64(_LN2F)).astype(_F32)
        scale = ((fx.astype(np.int32) - np.int32(1) + np.int32(127)) << 23).astype(np.int32).view(_F32)
        scale = np.where(below, _F32(0), scale)
        y = _horner(r)
        return _ftz(scale * y) * _F32(2)   # (doubling a normal or a 0 stays one)


def _horner(r: np.ndarray) -> np.ndarray:
    """1 + r(p1 + r(p2 + r(p3 + r(p4 + r p5)))) in float32 fused multiply-adds, as fma32 rounds them, in place
    in float64 (|r| < 0.35 and every coefficient >= 0.008: no step is subnormal)."""
    r64 = r.astype(np.float64)
    y32 = np.full(r.shape, _POL[4], _F32)
    y = y32.astype(np.float64)
    for c in (_POL[3], _POL[2], _POL[1], _POL[0], _F32(1)):
        np.multiply(y, r64, out=y)
        np.add(y, np.float64(c), out=y)
        tie = (y.view(np.uint64) & np.uint64(0x1FFFFFFF)) == np.uint64(0x10000000)
        if tie.any():
            y[tie] = fma32(y32[tie], r[tie], np.full(int(tie.sum()), c, _F32))
        y32 = y.astype(_F32)
        y[...] = y32
    return y32


def _lanes_sum(v: np.ndarray, width: int) -> np.ndarray:
    """get_horizontal_op(sum) of rows of `width` lanes: the total each lane ends with (all equal)."""
    v = v.astype(_F32)
    idx = np.arange(width)
    steps = ([idx ^ 8, idx ^ 4] if width == 16 else [idx ^ 4]) + [idx ^ 2, idx ^ 1]
    for perm in steps:
        v = _ftz((v + v[:, perm]).astype(_F32))
    return v[:, 0]


def row_sums(e: np.ndarray, width: int) -> np.ndarray:
    """The dense kernel's sum of each row of `e` (float32, 2-D, entries 0 or normal: no partial sum is
    subnormal), in its accumulators' order: cumsum adds in order along the runs of four vectors."""
    rows, n = e.shape
    full, tail = divmod(n, width)
    n_loops, loop_tail = divmod(full, 4)
    max_unroll = 4 if n_loops else (loop_tail or 1)
    acc = np.zeros((max_unroll, rows, width), _F32)
    done = n_loops * 4 * width
    if n_loops:
        runs = e[:, :done].reshape(rows, n_loops, 4, width)
        acc[:4] = (np.cumsum(runs, axis=1, dtype=_F32)[:, -1] if n_loops > 1 else runs[:, 0]).transpose(1, 0, 2)
    for i in range(loop_tail):
        acc[i] = acc[i] + e[:, done + i * width:done + (i + 1) * width]
    if tail:
        acc[0, :, :tail] = acc[0, :, :tail] + e[:, full * width:]
    if max_unroll == 4:
        total = (acc[0] + acc[1]) + (acc[2] + acc[3])
    elif max_unroll == 3:
        total = (acc[0] + acc[1]) + acc[2]
    elif max_unroll == 2:
        total = acc[0] + acc[1]
    else:
        total = acc[0]
    return _lanes_sum(total, width)


def softmax(a: np.ndarray, width: int) -> np.ndarray:
    """oneDNN's softmax of a 2-D float32 array of finite rows along its last axis."""
    a = _ftz(np.asarray(a, _F32))
    # the running max starts at -FLT_MAX: a row of -inf is shifted by -FLT_MAX, not by -inf (0 / 0 then)
    top = np.maximum(a.max(axis=1, keepdims=True), -np.finfo(_F32).max)
    with np.errstate(invalid="ignore", over="ignore"):
        e = exp(_ftz((a - top).astype(_F32)))
    with np.errstate(divide="ignore"):
        inv = _ftz((_F32(1) / row_sums(e, width)).astype(_F32))
    return _ftz((e * inv[:, None]).astype(_F32))
