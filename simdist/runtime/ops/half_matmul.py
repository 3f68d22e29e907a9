"""TF 2.21's float16 Einsum contraction on CPUs without oneDNN's float16: Eigen's half-precision
matrix product, bit for bit.

TF's x86 wheel registers `_MklEinsum` for float32, bfloat16 and float16, but rewrites a float16
Einsum to it only on CPUs where `IsDataTypeSupportedByOneDNNOnThisCPU` accepts float16 (AVX512-FP16,
AMX-FP16 or AVX-NE-CONVERT: ops.host-cpu; there it accumulates in float32 and rounds once, which
einsum.py keeps). Elsewhere (an AMD EPYC, Intel CPUs before Sapphire Rapids) it runs TF's Eigen
EinsumOp: the operands reshaped to [batch, M, K] and [batch, K, N] (M: operand 0's free labels, N:
operand 1's, K: the contracted ones) and LaunchBatchMatMul's Eigen product per batch. Eigen computes
in Eigen::half (the wheel's AVX packets: Packet8h), every operation widened to float32 and rounded
back, so the result depends on which of Eigen's code paths computes each output element (its
column n of N, its row m of M), all accumulators starting at +0 and k running upwards:

- GEMM (M ≥ 2, N ≥ 2, M + N + K ≥ 20; general_matrix_matrix_product's gebp kernel, output
  columns in packets along N):
  - columns in whole panels of 16 (two packets): acc = h(acc + h(a·b)) (pmul then padd, each
    rounded: the AVX build has no fused multiply-add);
  - the next panel of 8 columns (one packet), rows in whole groups of 4: two accumulators, C for
    even k and D for odd k over the first 8·(K // 8) k, then C = h(C + D), then the remaining k
    into C; its other rows: one accumulator as the 16-column panels;
  - the last N mod 8 columns (scalar path): acc = h(acc + a·b), the product exact in float32
    and rounded once with the sum (pmadd of Eigen::half);
- GEMV, M = 1 (N ≥ 2): columns in whole packets of 8 as the scalar path above (h(acc + a·b)),
  the rest as the 16-column panels (h(acc + h(a·b)));
- N = 1, M ≥ 2 (a dot product per row): 8 lanes over k in whole packets, each h(lane + a·b), the
  lanes added in float32 as a halving tree and rounded once, then the tail k: h(acc + h(a·b));
  M = N = 1: h(acc + a·b);
- M + N + K < 20 (Eigen's coefficient-based lazy product, before all the above; not for a batch
  of one product with M, K, N ≥ 2, which LaunchBatchMatMul gives Eigen's TensorContraction, whose
  kernel is always gebp): each output row
  computes whole packets of 8 from its first element aligned to 16 bytes in the output buffer (flat
  index (b·M + m)·N + n a multiple of 8), h(acc + a·b); its other elements h(acc + h(a·b)).

Measured on TF 2.21 on an AMD EPYC (tests/ops/test_f16tr_tf.py; probes of 900 random shapes, batch
1-3, M 1-19, K 1-69, N 1-59, 150 lazy products, and 25 of M, N 16-400 and K 100-256): bit for bit. Not modelled:
Eigen's cache blocking, which splits the depth of larger products into blocks whose sums are added
to the result (its sizes depend on the product's three dimensions, the CPU's caches and, for one
unbatched product, TF's thread count): seen from K = 512 (batched 64x512x64) or 700 (64x700x40),
and in one of N = 2000 columns; such products keep this order, off in the last bits.
"""

from __future__ import annotations

from typing import Callable

import numpy as np

__all__ = ["eigen_half_matmul"]

_F16, _F32 = np.float16, np.float32
_SMALL = 20   # EIGEN_GEMM_TO_COEFFBASED_THRESHOLD: rows + cols + depth below it: the lazy product


def _h(v: np.ndarray) -> np.ndarray:
    """float32 values rounded to float16 and widened back (an Eigen::half result)."""
    return v.astype(_F16).astype(_F32)


def _rounder(dtype: np.dtype) -> Callable[[np.ndarray], np.ndarray]:
    """The rounding of every Eigen operation's float32 result to the operands' 16-bit type: float16 (Eigen::half)
    or bfloat16 (Eigen::bfloat16, to nearest even), widened back."""
    if dtype == _F16:
        return _h
    return lambda v: v.astype(dtype).astype(_F32)


def _chain(x: np.ndarray, y: np.ndarray, fused: bool, h: Callable = _h) -> np.ndarray:
    """One accumulator per element, k upwards: h(acc + a·b) if fused, else h(acc + h(a·b))."""
    acc = np.zeros((x.shape[0], x.shape[1], y.shape[2]), _F32)
    for k in range(x.shape[2]):
        p = x[:, :, k, None] * y[:, None, k, :]
        acc = h(acc + (p if fused else h(p)))
    return acc


def _two_accumulators(x: np.ndarray, y: np.ndarray, h: Callable = _h) -> np.ndarray:
    """gebp's one-packet panel: even and odd k of the peeled depth apart, added, then the rest."""
    depth = x.shape[2]
    peeled = (depth // 8) * 8
    c = np.zeros((x.shape[0], x.shape[1], y.shape[2]), _F32)
    d = c.copy()
    for k in range(peeled):
        p = h(x[:, :, k, None] * y[:, None, k, :])
        if k % 2 == 0:
            c = h(c + p)
        else:
            d = h(d + p)
    if peeled:
        c = h(c + d)
    for k in range(peeled, depth):
        c = h(c + h(x[:, :, k, None] * y[:, None, k, :]))
    return c


def _dot(x: np.ndarray, y: np.ndarray, h: Callable = _h) -> np.ndarray:
    """N = 1: 8 fused lanes over whole packets of k, a float32 halving tree, then the tail k."""
    depth = x.shape[2]
    whole = (depth // 8) * 8
    lanes = np.zeros((x.shape[0], x.shape[1], 8), _F32)
    for k0 in range(0, whole, 8):
        lanes = h(lanes + x[:, :, k0:k0 + 8] * y[:, None, k0:k0 + 8, 0])
    while lanes.shape[2] > 1:
        half = lanes.shape[2] // 2
        lanes = lanes[:, :, :half] + lanes[:, :, half:]
    acc = h(lanes[:, :, 0])
    for k in range(whole, depth):
        acc = h(acc + h(x[:, :, k] * y[:, None, k, 0]))
    return acc[:, :, None]


def _lazy(x: np.ndarray, y: np.ndarray, h: Callable = _h) -> np.ndarray:
    """The coefficient-based product: per output row, packets from its first 16-byte-aligned
    element (fused), the other elements one at a time (rounded products)."""
    out = _chain(x, y, False, h)
    fused = _chain(x, y, True, h)
    batch, m, n = out.shape
    for b in range(batch):
        for i in range(m):
            start = min(-((b * m + i) * n) % 8, n)
            end = start + ((n - start) // 8) * 8
            out[b, i, start:end] = fused[b, i, start:end]
    return out


def eigen_half_matmul(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """a [batch, M, K] @ b [batch, K, N], float16 or bfloat16, as TF 2.21's Eigen kernel computes it (bfloat16: the
    same code paths, each operation rounded to bfloat16; fz50b, 54 of 54 seeded einsums of 1-2 x 1-33 x 1-40 x 1-40
    bit for bit on the AMD EPYC)."""
    dt = a.dtype
    h = _rounder(dt)
    x, y = a.astype(_F32), b.astype(_F32)
    m, depth, n = a.shape[1], a.shape[2], b.shape[2]
    with np.errstate(over="ignore", invalid="ignore"):
        # (one product of no dimension 1 runs Eigen's TensorContraction, always through gebp; the
        # others run Eigen's matrix product per batch: LaunchBatchMatMul's ParallelMatMulKernel)
        if m + n + depth < _SMALL and not (a.shape[0] == 1 and min(m, depth, n) > 1):
            return _lazy(x, y, h).astype(dt)
        if n == 1:
            return (_chain(x, y, True, h) if m == 1 else _dot(x, y, h)).astype(dt)
        out = np.zeros((a.shape[0], m, n), _F32)
        if m == 1:
            packets = (n // 8) * 8
            out[:, :, :packets] = _chain(x, y[:, :, :packets], True, h)
            out[:, :, packets:] = _chain(x, y[:, :, packets:], False, h)
            return out.astype(dt)
        n16 = (n // 16) * 16
        n8 = n16 + ((n - n16) // 8) * 8
        m4 = (m // 4) * 4
        out[:, :, :n16] = _chain(x, y[:, :, :n16], False, h)
        if n8 > n16:
            out[:, :m4, n16:n8] = _two_accumulators(x[:, :m4], y[:, :, n16:n8], h)
            out[:, m4:, n16:n8] = _chain(x[:, m4:], y[:, :, n16:n8], False, h)
        out[:, :, n8:] = _chain(x, y[:, :, n8:], True, h)
        return out.astype(dt)
