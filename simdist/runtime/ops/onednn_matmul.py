"""oneDNN's float32 MatMul as TF 2.21's x86-64 wheel runs it on an AVX-512 CPU (clause ops.packet-paths, its
paragraph "oneDNN's float32 MatMul"; host_cpu: oneDNN on for float32): a product with transpose_b (below), and a
plain product accumulated in order (`in_order`).

x [m, k] times b [n, k] transposed, for 2 <= m <= 15 rows (not transpose_a): each output is a dot product of two
contiguous rows over k in 16 lanes, k's element i in lane i mod 16 (the last partial vector masked into the same
lanes), each lane accumulated with fused multiply-adds from +0, then the lanes added by halves: lane l + lane l + 8,
then + 4, + 2, + 1. Observed on TF 2.21 on an Intel Xeon (AVX-512, AVX512-FP16, AMX), fifty-fifth session: every
element of 38 seeded products of m in 2..15, k in 1..1000, n in 1..200 bit for bit; m = 1 and m >= 16 (and
products with transpose_a) run other kernels (NumPy's order kept: m = 16..100 were off in most elements with this
rule, and in none or most with BLAS's). Only the 2-D MatMul was measured (BatchMatMulV2 with adj_y keeps its
model)."""

from __future__ import annotations

import numpy as np

from simdist.runtime import host_cpu
from simdist.runtime.ops.onednn_softmax import fma32

__all__ = ["applies", "in_order", "matmul_transposed_b", "transposed_b_pure"]

_F = np.float32
_LANES = 16


def applies(x: np.ndarray, y: np.ndarray, transpose_a: bool, transpose_b: bool) -> bool:
    """Whether x [m, k] @ y [k, n] (y = b transposed) is this kernel's product."""
    return (transpose_b and not transpose_a and x.dtype == np.float32 and x.ndim == 2 and y.ndim == 2
            and 2 <= x.shape[0] <= 15 and x.shape[1] > 0 and y.shape[1] > 0
            and host_cpu.current().onednn_supports("float32"))


#: the largest plain product (m x k x n multiply-adds) computed in oneDNN's order: the order costs a NumPy pass over the
#: [m, n] output per k (a [512, 256] x [256, 256] product took 0.3 s, BLAS 1 ms: every Dense layer of a scenario, which
#: runs the reference model, paid it), so larger products keep NumPy's BLAS, off in the last bits (as conv.py's
#: `_ORDERED_BUDGET` for Conv2D; docs/spec.md ops.packet-paths)
ORDERED_BUDGET = 4_000_000


def in_order(x: np.ndarray, y: np.ndarray, transpose_a: bool, transpose_b: bool) -> bool:
    """Whether x [m, k] @ y [k, n] (neither transposed) is oneDNN's product accumulated over k in order with fused
    multiply-adds (contraction_order.ordered_matmul): n >= 2 columns and k <= 384. Observed on the same Xeon: every
    element of 22 seeded products of m in 1..256, k in 3..384, n in 2..256 (NumPy's BLAS was off in 5 of them);
    from k = 385 oneDNN splits k (2x385x3: 4 of 6 elements off in order), and one column (n = 1) is its
    matrix-vector kernel: neither modelled (NumPy's order kept). With transpose_b, 16 rows and more take the same
    order under the same bounds (fifty-fifth session, onednn55: every element of 11 seeded products of m 16..256,
    k 1..384, n 2..200; k = 385 and more, and one column, are off in most elements, as without transpose_b). Nor is a
    product of more than ORDERED_BUDGET multiply-adds computed so (its cost: NumPy's BLAS kept)."""
    return (not transpose_a and (not transpose_b or x.shape[0] >= 16) and x.dtype == np.float32 and x.ndim == 2
            and y.ndim == 2
            and x.shape[0] >= 1 and 1 <= x.shape[1] <= 384 and y.shape[1] >= 2
            and x.shape[0] * x.shape[1] * y.shape[1] <= ORDERED_BUDGET
            and host_cpu.current().onednn_supports("float32"))


def matmul_transposed_b(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """x [m, k] @ y [k, n] in the kernel's order (float32): compiled (_fma.c's lanes16) where built, else
    `transposed_b_pure` (identical bits: tests/ops/test_fma_native.py)."""
    from simdist.runtime.ops import fma_native
    out = fma_native.matmul_transposed_b(x, y)
    return out if out is not None else transposed_b_pure(x, y)


def transposed_b_pure(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """matmul_transposed_b in NumPy: one fma32 pass over [m, n, 16] lanes per 16 elements of k."""
    m, k = x.shape
    n = y.shape[1]
    b = np.ascontiguousarray(y.T)                  # [n, k]: the rows the kernel reads
    acc = np.zeros((m, n, _LANES), _F)
    for start in range(0, k, _LANES):
        stop = min(start + _LANES, k)
        w = stop - start
        acc[:, :, :w] = fma32(x[:, None, start:stop], b[None, :, start:stop], acc[:, :, :w])
    width = _LANES
    while width > 1:
        width //= 2
        acc = (acc[:, :, :width] + acc[:, :, width:2 * width]).astype(_F)
    return acc[:, :, 0]
