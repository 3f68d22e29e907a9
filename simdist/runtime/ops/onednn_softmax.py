"""oneDNN's float32 softmax as TF 2.21's x86-64 wheel runs it (clause nn.softmax-onednn).

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

_F32 = np.float32
_LN_FLT_MIN = np.uint32(0xC2AEAC50).view(_F32)
_LN_FLT_MAX = np.uint32(0x42B17218).view(_F32)
_LOG2EF = np.uint32(0x3FB8AA3B).view(_F32)
_LN2F = np.uint32(0x3F317218).view(_F32)
# p1..p5 (p0 = 1): exp_polynomial's table, Horner from p5 down
_POL = tuple(np.uint32(b).view(_F32) for b in (0x3F7FFFFB, 0x3EFFFEE3, 0x3E2AAD40, 0x3D2B9D0D, 0x3C07CFCE))
_TINY = np.finfo(_F32).tiny


def _ftz(a: np.ndarray) -> np.ndarray:
    """Subnormal results flushed to a zero of their sign (MXCSR.FTZ; inputs read under DAZ)."""
    return np.where(np.abs(a) < _TINY, np.copysign(_F32(0), a), a).astype(_F32)


def fma32(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """float32 a·b + c rounded once (vfmadd): a·b is exact in float64, the float64 sum is rounded
    to odd (its error from a two-sum) so that rounding it to float32 rounds the exact sum."""
    a64, b64, c64 = (np.asarray(v, _F32).astype(np.float64) for v in (a, b, c))
    p = a64 * b64
    with np.errstate(over="ignore", invalid="ignore"):
        s = p + c64
        bp = s - c64
        err = (p - (s - bp)) + (c64 - bp)
    bits = s.view(np.uint64)
    inexact = (err != 0) & np.isfinite(s) & ((bits & np.uint64(1)) == 0)
    s = np.where(inexact, np.nextafter(s, np.where(err > 0, np.inf, -np.inf)), s)
    with np.errstate(over="ignore"):
        return _ftz(s.astype(_F32))


def exp(x: np.ndarray) -> np.ndarray:
    """The eltwise injector's float32 exp (FTZ), elementwise."""
    x = np.asarray(x, _F32)
    below = x < _LN_FLT_MIN
    with np.errstate(invalid="ignore", over="ignore"):
        xc = np.maximum(np.minimum(x, _LN_FLT_MAX), _LN_FLT_MIN).astype(_F32)
        fx = np.floor(_ftz((xc * _LOG2EF).astype(_F32) + _F32(0.5))).astype(_F32)
        r = fma32(-fx, _LN2F, xc)
        n1 = (fx - _F32(1)).astype(np.int32)
        scale = ((n1 + np.int32(127)) << 23).astype(np.int32).view(_F32)
        scale = np.where(below, _F32(0), scale).astype(_F32)
        y = np.full(x.shape, _POL[4], _F32)
        for c in (_POL[3], _POL[2], _POL[1], _POL[0], _F32(1)):
            y = fma32(y, r, c)
        y = _ftz((_ftz(scale) * y).astype(_F32))
        return _ftz((y * _F32(2)).astype(_F32))


def _lanes_sum(v: np.ndarray, width: int) -> np.ndarray:
    """get_horizontal_op(sum) of rows of `width` lanes: the total each lane ends with (all equal)."""
    v = v.astype(_F32)
    idx = np.arange(width)
    steps = ([idx ^ 8, idx ^ 4] if width == 16 else [idx ^ 4]) + [idx ^ 2, idx ^ 1]
    for perm in steps:
        v = _ftz((v + v[:, perm]).astype(_F32))
    return v[:, 0]


def row_sums(e: np.ndarray, width: int) -> np.ndarray:
    """The dense kernel's sum of each row of `e` (float32, 2-D), in its accumulators' order."""
    rows, n = e.shape
    full, tail = divmod(n, width)
    n_loops, loop_tail = divmod(full, 4)
    max_unroll = 4 if n_loops else (loop_tail or 1)
    acc = np.zeros((max_unroll, rows, width), _F32)
    vec = 0
    for _ in range(n_loops):
        for i in range(4):
            acc[i] = _ftz((acc[i] + e[:, vec * width:(vec + 1) * width]).astype(_F32))
            vec += 1
    for i in range(loop_tail):
        acc[i] = _ftz((acc[i] + e[:, vec * width:(vec + 1) * width]).astype(_F32))
        vec += 1
    if tail:
        part = e[:, vec * width:]
        acc[0, :, :tail] = _ftz((acc[0, :, :tail] + part).astype(_F32))
    if max_unroll == 4:
        total = _ftz(_ftz(acc[0] + acc[1]) + _ftz(acc[2] + acc[3]))
    elif max_unroll == 3:
        total = _ftz(_ftz(acc[0] + acc[1]) + acc[2])
    elif max_unroll == 2:
        total = _ftz(acc[0] + acc[1])
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
