"""float32/float64 matrix products in TF 2.21's order where the order shows: when a product can
overflow or meets an infinity, +inf and -inf terms (NaN) or an intermediate overflow depend on
which sums are formed.

TF 2.21's CPU MatMul/BatchMatMulV2 (and einsum, which contracts through BatchMatMulV2) run
float32 through oneDNN, whose kernels accumulate each output over k in order with fused
multiply-adds (acc = fma(a, b, acc): no rounding, so no overflow, between the product and the
sum), and float64 through Eigen's contraction, compiled without FMA for the wheel's AVX (acc =
acc + round(a·b)). A float32 MatMul with transpose_b (and not transpose_a) runs another oneDNN
kernel, whose order was not found: its products are rounded (the nearest model: 29 of 50 seeded
cases off, against 48 with FMA or BLAS). So `[-FLT_MAX]*3 · [-0.0, -1, 1.5]` is -FLT_MAX/2 in
a plain product (FLT_MAX, then fma(-FLT_MAX, 1.5, FLT_MAX)) and -inf with transpose_b (a
rounded -1.5·FLT_MAX), and `[7.25, -FLT_MAX, -FLT_MAX] · [-FLT_MAX, x, -FLT_MAX]` is -inf in a
plain product (fma of a finite product and -inf) and NaN with transpose_b (-inf + inf). BLAS
(NumPy) blocks and vectorizes differently; its results stand where none of this can matter
(finite operands whose products and sums cannot reach the dtype's largest value). Observed on
TF 2.21 (clause ops.packet-paths). Limits: a float32 matrix times a one-column matrix (oneDNN's
matrix-vector kernel, order not found) keeps BLAS's order; float64 products with k from 16 on
sometimes split k (Eigen's contraction sharding).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import dtypes

__all__ = ["complex_gemv", "dot", "float64_gebp", "float64_gemv", "takes_float64_gebp", "eigen_batched_in_order", "eigen_gemv", "eigen_gemv_transposed", "lazy_transposed", "lazy_transposed_matmul", "redux_sum", "rowmajor_gemv", "eigen_in_order", "eigen_pairs", "gemv_in_order", "in_order", "matmul", "needs_order", "ordered_fma_pure", "ordered_matmul",
           "paired_matmul", "row_in_order"]


def needs_order(x: np.ndarray, y: np.ndarray) -> bool:
    """Whether a float32/float64 product of x [..., m, k] and y [..., k, n] may differ from
    BLAS's in its infinities or NaNs: a non-finite operand, or products that could overflow."""
    if x.dtype.name not in ("float32", "float64") or not x.size or not y.size:
        return False
    if x.dtype == np.float32 and y.shape[-1] == 1 and x.shape[-2] > 1:
        return False   # oneDNN's matrix-vector kernel: another order, not modelled (BLAS's is closer)
    bound = _largest_magnitude(x) * _largest_magnitude(y) * x.shape[-1]
    return not bound < float(dtypes.finfo(x.dtype).max) / 4


def _largest_magnitude(a: np.ndarray) -> float:
    """max |a| (NaN when a holds one, inf when it holds one): the larger of max a and -min a, two reductions without
    the temporary np.abs(a) (every MatMul asks `needs_order`: an 800 KB temporary per step's input product)."""
    hi, lo = float(a.max()), float(a.min())   # (both NaN when a holds a NaN)
    return hi if hi >= -lo else -lo


def row_in_order(x: np.ndarray, y: np.ndarray) -> bool:
    """Whether x [..., 1, k] @ y [..., k, n] (one row; y not transposed) is computed in order:
    TF 2.21 accumulates such a product over k in order, float32 with fused multiply-adds and
    float64 with rounded products (measured bit-exact on 20 seeded cases of each of k = 3..200,
    n = 1..16, with and without transpose_a, batched or not), where BLAS's blocked sums differ in
    the last bit (`rgb_to_grayscale` of one pixel, a tensordot [1, 3]·[3, 1]: fuzz14 seed
    1420261202 #600). One vector per k, so it costs little."""
    return x.dtype.name in ("float32", "float64") and x.shape[-2] == 1 and x.size > 0 and y.size > 0


def eigen_in_order(x: np.ndarray, y: np.ndarray, transpose_b: bool = False) -> bool:
    """Whether a float32 product x [..., m, k] @ y [..., k, n] is accumulated over k in order without
    fused multiply-adds (rounded products, rounded sums) on a host where oneDNN does not run float32
    (host_cpu: an AVX2-only CPU, TF's own Eigen kernels): one row with k <= 100 (y not transposed), and
    the smallest products, m <= 3 with m·k <= 6 (transposed too). Measured on TF 2.21 on the AMD EPYC
    host (oneDNN off) for MatMul and BatchMatMulV2, 2-D and batched: all of 4-5 seeded cases each of
    k = 2..100, n = 1..16, with and without transpose_a; k = 128 and, for two or more rows, larger
    m·k take other orders (not modelled: NumPy's BLAS). `rgb_to_yiq` of one or two pixels, a tensordot
    [m, 3]·[3, 3], is such a product (fz44b, fz43_gen seed 43004). The reference host (oneDNN on)
    keeps `row_in_order`'s fused order."""
    if x.dtype.name != "float32" or not x.size or not y.size or x.ndim < 2 or y.ndim < 2:
        return False
    from simdist.runtime import host_cpu
    if host_cpu.current().onednn_supports("float32"):
        return False
    m, k = x.shape[-2], x.shape[-1]
    return (m == 1 and k <= 100 and not transpose_b) or (m <= 3 and m * k <= 6)


def eigen_pairs(x: np.ndarray, y: np.ndarray) -> bool:
    """Whether a float32 product x [..., m, k] @ y [..., k, n] is computed by `paired_matmul` on a host where
    oneDNN does not run float32 (TF 2.21's own Eigen kernel): one product (no batch, or a batch of one: MatMul,
    BatchMatMulV2, einsum and tensordot alike, any transposes), 2 <= m <= 32 rows, 2 <= n <= 8 columns and
    2 <= k <= 100. Measured on the AMD EPYC host (oneDNN off), bit for bit: every one of 1,200 seeded products of
    m in 2..32, k in 2..100, n in 2..8, plain and with transpose_a, transpose_b or both, and 270 more as a batch of
    one, einsum ('ij,jk->ik', 'bij,bjk->bik', 'bij,jk->bik') and tensordot (fz45b, fz45_gen seed 45001: matmul,
    einsum and tensordot of such sizes were off in the last bit). Not modelled (NumPy's BLAS): 16 columns and
    more, a batch of two or more (other orders), one column (`gemv_in_order`), larger m or k."""
    if x.dtype.name != "float32" or y.dtype.name != "float32" or x.ndim < 2 or y.ndim < 2 or not x.size or not y.size:
        return False
    if int(np.prod(np.broadcast_shapes(x.shape[:-2], y.shape[:-2]), dtype=np.int64)) != 1:
        return False
    m, k, n = x.shape[-2], x.shape[-1], y.shape[-1]
    if not (2 <= m <= 32 and 2 <= n <= 8 and 2 <= k <= 100):
        return False
    from simdist.runtime import host_cpu
    return not host_cpu.current().onednn_supports("float32")


def eigen_batched_in_order(x: np.ndarray, y: np.ndarray, transpose_b: bool = False) -> bool:
    """Whether a float32 batch of two or more small products x [..., m, k] @ y [..., k, n] is accumulated over k in
    order without fused multiply-adds (rounded products and sums) on a host where oneDNN does not run float32:
    y not transposed, m <= 8, n <= 8, k <= 8 with k <= 5 or m <= 3. Measured on the AMD EPYC host: 3,399 of 3,400
    seeded BatchMatMulV2 products of batches (2,), (3,), (2, 2), (5,), plain, with transpose_a, one operand
    broadcast either way, and einsum '...ij,...jk->...ik' (one transpose_a product of batch (2, 2), 4x2x3, off),
    and 336 of 336 more (matmul, einsum 'bij,bjk->bik', `@`, a broadcast operand); with transpose_b 42 of 816 were
    off (k = 8 mostly), so it is left to BLAS; larger products take a paired order in part, and so do some of 9 to
    15 columns (8x5x9: every batch off; not modelled) (fz45b, fz45_gen seed 45001: einsum 'bij,bjk->bik' and
    broadcast matmuls)."""
    if transpose_b or x.dtype.name != "float32" or y.dtype.name != "float32" or x.ndim < 2 or y.ndim < 2 \
            or not x.size or not y.size:
        return False
    if int(np.prod(np.broadcast_shapes(x.shape[:-2], y.shape[:-2]), dtype=np.int64)) < 2:
        return False
    m, k, n = x.shape[-2], x.shape[-1], y.shape[-1]
    if not (m <= 8 and n <= 8 and k <= 8 and (k <= 5 or m <= 3)):
        return False
    from simdist.runtime import host_cpu
    return not host_cpu.current().onednn_supports("float32")


def lazy_transposed(x: np.ndarray, y: np.ndarray, transpose_a: bool, transpose_b: bool) -> bool:
    """Whether a BatchMatMulV2 of x [..., m, k] and y [..., k, n] with x or y given transposed is TF 2.21's
    SequentialMatMulKernel with Eigen's coefficient-based ("lazy") product, `lazy_transposed_matmul`: float32 (on a
    host without oneDNN for float32) or float64, the kernel's outer-parallel path (a batch of two or more, or one
    of m, k, n equal to 1: batch_matmul_op_impl.h LaunchBatchMatMul) and m + k + n < 20 (Eigen's
    EIGEN_GEMM_TO_COEFFBASED_THRESHOLD); einsum's BatchMatMul takes the same flags (EinsumOp's trans_x, trans_y).
    Measured on the AMD EPYC host (fz46b, fz45_gen seed 45001 #54: a batched `matmul(zeros, v, transpose_b=True)`
    is -0.0 in TF; seed 45002 #37: einsum 'ij,ij->i' of zeros): all of 560 seeded products with transpose_b and
    654 with transpose_a only in that region, float32 and float64; larger ones take Eigen's GEMM (not modelled),
    and neither transposed another order (`eigen_batched_in_order`, from +0)."""
    if not (transpose_a or transpose_b) or x.dtype != y.dtype \
            or x.dtype.name not in ("float32", "float64", "float16", "bfloat16") \
            or x.ndim < 2 or y.ndim < 2 or not x.size or not y.size:
        return False
    m, k, n = x.shape[-2], x.shape[-1], y.shape[-1]
    if m + k + n >= 20:
        return False
    batch = int(np.prod(np.broadcast_shapes(x.shape[:-2], y.shape[:-2]), dtype=np.int64))
    if batch < 2 and min(m, k, n) > 1:
        return False
    if x.dtype != np.float64:   # (float16 and bfloat16: the float32 kernel on their float32 values)
        from simdist.runtime import host_cpu
        return not host_cpu.current().onednn_supports("float32")
    return True


def lazy_transposed_matmul(x: np.ndarray, y: np.ndarray, transpose_a: bool, transpose_b: bool) -> np.ndarray:
    """x [..., m, k] @ y [..., k, n] as Eigen's lazy product of TF's row-major matrices computes each entry where x
    or y was given transposed: the sum of (`lazy_transposed`), a redux (Redux.h) over the rounded
    products that starts from the first product (so products that are all -0.0 sum to -0.0, where a sum from +0
    gives +0.0). With transpose_a, x's row is strided and the sum runs in order; with transpose_b alone both rows
    are contiguous and k >= P (P = 8 float32, 4 float64: the wheel's AVX packets) takes LinearVectorizedTraversal:
    packets of P products, two accumulators over each 2P, their sum, a last full packet, the lanes summed as predux
    does (the two halves, then pairs), then the rest in order. float16 and bfloat16 operands: TF 2.21's CPU kernel
    runs the float32 product on their float32 values (the same -0.0 sums: 300 of 300 seeded products' signs as
    float32's), then rounds to float16, or truncates to bfloat16 as its Eigen bfloat16 MatMul does (fz50b: the
    gradient of a float16 `matvec(w, v, transpose_a=True)` is an outer product keeping -0.0, fz50b_gen seed 50001
    #1)."""
    dt = x.dtype
    if dt.itemsize == 2:
        from simdist.runtime.ops.linalg import half_result
        return half_result(lazy_transposed_matmul(x.astype(np.float32), y.astype(np.float32), transpose_a,
                                                  transpose_b), dt)
    prods = x[..., :, None, :] * np.swapaxes(y, -1, -2)[..., None, :, :]   # [..., m, n, k], rounded
    return redux_sum(prods, vectorized=not transpose_a).astype(dt.type)


def redux_sum(terms: np.ndarray, vectorized: bool = True) -> np.ndarray:
    """The sum over the last axis of float32/float64 terms as Eigen's Redux.h adds a contiguous expression: fewer
    than P terms (P = 8 float32, 4 float64: the wheel's AVX packets), or not `vectorized` (a strided one), in order
    from the first; else LinearVectorizedTraversal: packets of P terms, two accumulators over each 2P, their sum,
    a last full packet, the lanes summed as predux does (the two halves, then pairs), then the rest in order."""
    return _redux(terms, 8 if terms.dtype == np.float32 else 4, vectorized)


def _redux(terms: np.ndarray, size: int, vectorized: bool) -> np.ndarray:
    """Redux.h's order over the last axis for packets of `size` terms (`redux_sum`, `complex_redux`)."""
    k = terms.shape[-1]
    with np.errstate(over="ignore", invalid="ignore"):
        if not vectorized or k < size:
            acc = terms[..., 0]
            for j in range(1, k):
                acc = acc + terms[..., j]
            return acc
        full, full2 = (k // size) * size, (k // (2 * size)) * 2 * size
        r0 = terms[..., :size]
        if full > size:
            r1 = terms[..., size:2 * size]
            for i in range(2 * size, full2, 2 * size):
                r0 = r0 + terms[..., i:i + size]
                r1 = r1 + terms[..., i + size:i + 2 * size]
            r0 = r0 + r1
            if full > full2:
                r0 = r0 + terms[..., full2:full2 + size]
        while r0.shape[-1] > 1:   # predux: the halves added down to one lane (256 bits to 128, 128 to 64, ...)
            h = r0.shape[-1] // 2
            r0 = r0[..., :h] + r0[..., h:]
        acc = r0[..., 0]
        for j in range(full, k):
            acc = acc + terms[..., j]
    return acc


def rowmajor_gemv(a: np.ndarray, v: np.ndarray) -> np.ndarray:
    """a [..., r, k] @ v [..., k] as Eigen's general_matrix_vector_product<RowMajor> (rows of TF's row-major matrices
    times a contiguous vector) sums each row, unfused (Eigen's own code in the wheel has no FMA): rows in blocks of
    8, 4 and 2 take full packets of P lanes (P = 8 float32, 4 float64) from zero, their predux, then the rest in
    order; each single row left takes the full packets, then a half packet of P/2 lanes whose predux is added, then
    the rest in order. Eigen's LLT (A21 -= A20 * A10^T) with it and its squared norms by `redux_sum`: 288 of 300
    seeded Cholesky factors bit-exact on TF 2.21 (200 before; fz46b: logdet of a 6x6 matrix, fz46b_gen seed 46001);
    small float32 ones are off in 3 of 87 (a half packet's use not settled). Complex (`complex_gemv`): packets of
    P = 4 complex64 or 2 complex128, each product rounded part by part (`_complex_products`)."""
    r, k = a.shape[-2], a.shape[-1]
    size = {"float32": 8, "float64": 4, "complex64": 4, "complex128": 2}[a.dtype.name]
    out = np.empty(a.shape[:-1], a.dtype)
    single = np.zeros(r, bool)
    i = 0
    for step in (8, 4, 2):
        while i + step <= r:
            i += step
    single[i:] = True
    with np.errstate(over="ignore", invalid="ignore"):
        for row in range(r):
            prods = a[..., row, :] * v if a.dtype.kind == "f" else _complex_products(a[..., row, :], v)
            full = (k // size) * size
            lanes = np.zeros(prods.shape[:-1] + (size,), a.dtype)
            for j in range(0, full, size):
                lanes = lanes + prods[..., j:j + size]
            while lanes.shape[-1] > 1:
                h = lanes.shape[-1] // 2
                lanes = lanes[..., :h] + lanes[..., h:]
            cc = lanes[..., 0]
            j = full
            if single[row] and k - j >= size // 2:
                half = np.zeros(prods.shape[:-1] + (size // 2,), a.dtype)
                while j + size // 2 <= k:
                    half = half + prods[..., j:j + size // 2]
                    j += size // 2
                while half.shape[-1] > 1:
                    h = half.shape[-1] // 2
                    half = half[..., :h] + half[..., h:]
                cc = cc + half[..., 0]
            for t in range(j, k):
                cc = cc + prods[..., t]
            out[..., row] = cc
    return out


def paired_matmul(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """x [..., m, k] @ y [..., k, n] as TF 2.21's Eigen kernel computes a small float32 product (`eigen_pairs`):
    two accumulators per output, k's even terms into the first and its odd terms into the second over the first
    2·(k // 2), their sum rounded, then an odd k's last term added. Rows come in blocks of six; the rows of a
    last block of one or two (m % 6 in (1, 2): m = 2, 7, 8, 13, 14, ...) take rounded products and sums, the
    others fused multiply-adds (the product exact, one rounding per step)."""
    m, k = x.shape[-2], x.shape[-1]
    n = y.shape[-1]
    batch = np.broadcast_shapes(x.shape[:-2], y.shape[:-2])
    tail = m % 6 if m % 6 in (1, 2) else 0
    out = np.empty(batch + (m, n), np.float32)
    y64 = y.astype(np.float64)
    with np.errstate(over="ignore", invalid="ignore"):
        for lo, hi, fused in ((0, m - tail, True), (m - tail, m, False)):
            if lo == hi:
                continue
            xs = x[..., lo:hi, :]
            xs64 = xs.astype(np.float64)

            def add(acc: np.ndarray, i: int) -> np.ndarray:
                if fused:
                    return (acc.astype(np.float64) + xs64[..., :, i, None] * y64[..., None, i, :]).astype(np.float32)
                return acc + xs[..., :, i, None] * y[..., None, i, :]
            acc = [np.zeros(batch + (hi - lo, n), np.float32), np.zeros(batch + (hi - lo, n), np.float32)]
            for i in range(k - k % 2):
                acc[i % 2] = add(acc[i % 2], i)
            r = acc[0] + acc[1]
            if k % 2:
                r = add(r, k - 1)
            out[..., lo:hi, :] = r
    return out


def gemv_in_order(x: np.ndarray, y: np.ndarray) -> bool:
    """Whether MatMul's x [m, k] @ y [k, 1] (m >= 2 rows, one column, k <= 3, float32, neither
    transposed) is computed in order without fused multiply-adds: TF 2.21's matrix-vector kernel
    adds the rounded products one after another for k <= 3 (measured bit-exact on 20-30 seeded
    cases each of k = 2, 3 and m = 2..64; its packets of four for larger k are not modelled; a
    product of two or more columns, m >= 2, is the fused order NumPy's BLAS gives for such small
    k; BatchMatMulV2, transpose_a and transpose_b take other kernels). `rgb_to_grayscale` of a batch
    is such a product, a tensordot [n, 3]·[3, 1] (fz27b's third generator seed 2702 #228, fz28b).
    NumPy's BLAS rounds k = 3 otherwise from m = 3 on. One vector per k, so it costs little."""
    if not (x.dtype.name == "float32" and x.ndim == 2 and y.ndim == 2 and y.shape[1] == 1 and x.shape[0] >= 2):
        return False
    m, k = x.shape
    if 1 <= k <= 3:
        return True
    # (on a host where oneDNN does not run float32, TF's own Eigen kernel: the small products beyond, k <= 14 with
    # m * k <= 64, add in order too, measured bit-exact on the AMD EPYC host on 12 seeded cases of each k = 4..14
    # and m in 2, 3, 4, 5, 8, 9, 16 within that bound, and 618 of 618 more; k = 15 from m = 4 and k = 16 from m = 3
    # are not (fz53, g50b seed 53002 #59: [3, 4] @ [4, 1], one ulp from NumPy's BLAS). fz28b measured k = 4 and 5
    # as pairs of packets elsewhere: not this host's kernel)
    if not (k <= 14 and m * k <= 64):
        return False
    from simdist.runtime import host_cpu
    return not host_cpu.current().onednn_supports("float32")


def eigen_gemv(x: np.ndarray, y: np.ndarray) -> np.ndarray | None:
    """MatMul's x [m, k] @ y [k, 1] (float32, m >= 2, neither transposed, one product) as TF 2.21's own kernel
    computes it on a host where oneDNN does not run float32, else None. LaunchBatchMatMul<CPUDevice> (TF's
    matmul_op_impl.h) takes, for a product whose smallest dimension is 1 and m·k <= 128·128,
    SequentialMatMulKernel: `z.noalias() = x * y` of row-major Eigen::Matrix maps. Eigen (GeneralMatrixMatrix.h
    generic_product_impl<GemmProduct>::evalTo) evaluates a product with rhs.rows() + dst.rows() + dst.cols() <
    EIGEN_GEMM_TO_COEFFBASED_THRESHOLD (20) coefficient by coefficient, which adds the rounded products in order
    (k + m + 1 < 20); else, one destination column, general_matrix_vector_product<RowMajor> (`rowmajor_gemv`).
    Measured on the AMD EPYC host (oneDNN off): 918 seeded products of m in 2..256, k in 1..300, 915 bit for bit
    (fz54_logs/gemv_meas.py; 113 with the order before). Not modelled: m·k > 128·128, where
    SingleBatchParallelMatMulKernel splits the rows into blocks of multiples of 64 by the pool's thread count and a
    block of one row is a dot product (Redux): 3 of those 918 (m = 65, k >= 255) differ."""
    if not (x.dtype.name == "float32" and x.ndim == 2 and y.ndim == 2 and y.shape[1] == 1 and x.shape[0] >= 2
            and x.shape[1] >= 1 and y.dtype.name == "float32"):
        return None
    from simdist.runtime import host_cpu
    if host_cpu.current().onednn_supports("float32"):
        return None
    m, k = x.shape
    if k + m + 1 < 20:
        return ordered_matmul(x, y, fused=False)
    return rowmajor_gemv(x, y[:, 0])[:, None]


def eigen_gemv_transposed(a: np.ndarray, y: np.ndarray) -> np.ndarray | None:
    """MatMul's a [k, m] given with transpose_a, times y [k, 1] (float32, m >= 2, one product) as TF 2.21's own kernel
    computes it on a host where oneDNN does not run float32, else None: SequentialMatMulKernel's
    `z = x.transpose() * y` is Eigen's general_matrix_vector_product<ColMajor> (GeneralMatrixVector.h) on the
    transposed row-major matrix (a column-major m x k, leading dimension m): for each block of columns (all k when
    k < 128, else 16, or 4 where m·4 >= 32000 bytes) every output adds the block's rounded products in order from
    zero (no FMA in the wheel's Eigen code), and the block's sum is added to the result. The gradient of a one-unit
    Dense's kernel, x^T·dy, is such a product. Measured on the AMD EPYC host (oneDNN off): 504 of 504 seeded products
    of m in 2..200, k in 1..300 bit for bit (fz54_logs/gemvt_meas.py; 92 with NumPy's BLAS before). The products
    with m + k + 1 < 20 keep `lazy_transposed` (Eigen's coefficient-based product: its -0.0 sums)."""
    if not (a.dtype.name == "float32" and y.dtype.name == "float32" and a.ndim == 2 and y.ndim == 2
            and y.shape[1] == 1 and a.shape[1] >= 2 and a.shape[0] >= 1):
        return None
    from simdist.runtime import host_cpu
    if host_cpu.current().onednn_supports("float32"):
        return None
    k, m = a.shape
    block = k if k < 128 else (16 if m * 4 < 32000 else 4)
    res = np.zeros(m, np.float32)
    with np.errstate(over="ignore", invalid="ignore"):
        for j0 in range(0, k, block):
            c = np.zeros(m, np.float32)
            for j in range(j0, min(k, j0 + block)):
                c = c + a[j] * y[j, 0]
            res = res + c
    return res[:, None]


def ordered_matmul(x: np.ndarray, y: np.ndarray, fused: bool = True) -> np.ndarray:
    """x [..., m, k] @ y [..., k, n] accumulated over k in order: float32 with fused
    multiply-adds (computed in float64, exact for the product, then rounded) unless `fused` is
    False, float64 (and unfused float32) with a rounded product and a rounded sum."""
    dt = x.dtype
    if dt == np.float32 and fused:
        # The hot path of a training step under a oneDNN model (MatMul, Conv2D, einsum): the compiled kernel
        # (_fma.c: fmaf over k in order; 256x10x256 0.05 ms against 1.6 ms for the NumPy pass per k below; issue 13's
        # MLP step 9.5-11.6 -> 4.8-6.9 ms of CPU: docs/benchmarks.md "Training step", fifty-sixth session); the loop
        # below, bit-identical, where it is not built or SIMDIST_PURE_KERNELS is set (fma_native).
        from simdist.runtime.ops import fma_native
        out = fma_native.ordered_matmul(x, y)
        if out is not None:
            return out
        return ordered_fma_pure(x, y)
    batch = np.broadcast_shapes(x.shape[:-2], y.shape[:-2])
    out_shape = batch + (x.shape[-2], y.shape[-1])
    with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
        acc = np.zeros(out_shape, dt)
        for j in range(x.shape[-1]):
            acc = acc + x[..., :, j, None] * y[..., None, j, :]
        return acc


def ordered_fma_pure(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """float32 x [..., m, k] @ y [..., k, n] over k in order with fused multiply-adds from +0, in NumPy: one pass
    over the output per k, each step a float64 sum rounded once to float32 as fmaf rounds it
    (onednn_softmax.round_fused), a step tiny after rounding a zero of its sign (TF's FTZ: ftz_steps.fused, fix63m).
    The reference of the compiled kernel (fma_native.ordered_matmul, which declines products a step of may flush)."""
    from simdist.runtime.ops import ftz_steps
    from simdist.runtime.ops.onednn_softmax import round_fused, tiny_products
    batch = np.broadcast_shapes(x.shape[:-2], y.shape[:-2])
    shape = batch + (x.shape[-2], y.shape[-1])
    x64, y64 = x.astype(np.float64), y.astype(np.float64)
    tiny = tiny_products(x64, y64)
    acc64, p, s = np.zeros(shape), np.empty(shape), np.empty(shape)
    acc = np.zeros(shape, np.float32)
    with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
        for j in range(x.shape[-1]):
            np.multiply(x64[..., :, j, None], y64[..., None, j, :], out=p)
            np.add(acc64, p, out=s)
            np.copyto(acc, ftz_steps.fused(round_fused(s, p, acc64, tiny)), casting="unsafe")
            np.copyto(acc64, acc)
    return acc


def complex_gebp(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """A complex x [..., m, k] @ y [..., k, n] as TF 2.21's Eigen GEBP kernel computes it (`takes_gebp`). Each entry
    is four real sums over k (Σ ar·br, Σ ar·bi, Σ ai·br, Σ ai·bi: DoublePacket's accumulators), each product and
    sum rounded, the real part Σ ar·br - Σ ai·bi and the imaginary Σ ar·bi + Σ ai·br, then alpha = 1 applied as a
    complex product (re·1 - im·0, re·0 + im·1: an infinite or NaN part poisons the other, fz37b) and added to a
    zero (no -0.0). The sums follow the kernels' accumulators as `float64_gebp`'s do, TF's columns being Eigen's
    rows: complex64 (AVX packets of 4 complex) as float64 (columns below 8·(n // 8) in order; the next 4- and
    2-column packets two accumulators, even and odd terms, over 8·(k // 8) terms; a last odd column four
    accumulators over 4·(k // 4)); complex128 (packets of 2) columns below 4·(n // 4) in order, the rest two
    accumulators. Rows from 4·(m // 4) on add in order, except complex64's corner (those rows of a last odd
    column): Eigen's scalar loop, complex products (ar·br - ai·bi, ar·bi + ai·br) added in order (`_scalar_madd`).
    Measured on TF 2.21 (this AVX-512 Xeon): 24,288 of 24,288 seeded products of m, n in 2..13, k in 2..33,
    plain, transposed, adjoint and batched (cplx58_logs/cgemm_tf.py, ctest.py); the four in-order sums before
    were off in 12,904 of them (complex64 8,374, complex128 4,530)."""
    m, k, n = x.shape[-2], x.shape[-1], y.shape[-1]
    ft = x.real.dtype.type
    batch = np.broadcast_shapes(x.shape[:-2], y.shape[:-2])
    out = np.empty(batch + (m, n), x.dtype)
    if x.dtype == np.complex64:
        mc2, mc1 = (n // 8) * 8, (n // 4) * 4
        mch, last = mc1 + ((n - mc1) // 2) * 2, "quad"
    else:
        mc2 = mch = (n // 4) * 4
        last = "pair"
    r4 = (m // 4) * 4
    yt = np.swapaxes(y, -1, -2)
    ar, ai = x.real[..., :, None, :], x.imag[..., :, None, :]
    with np.errstate(over="ignore", invalid="ignore"):
        for lo, hi, order in ((0, mc2, "seq"), (mc2, mch, "pair"), (mch, n, last)):
            if lo == hi:
                continue
            br, bi = yt.real[..., None, lo:hi, :], yt.imag[..., None, lo:hi, :]
            prods = (ar * br, ar * bi, ai * br, ai * bi)
            for rows, o in ((slice(r4, None), "seq"), (slice(0, r4), order)):
                s = [_gebp_sum(p[..., rows, :, :], o) for p in prods]
                block = _alpha_landed(s[0] - s[3], s[1] + s[2], x.dtype)
                if np.isnan(block.real).any() or np.isnan(block.imag).any():   # (the kernel's NaN signs)
                    from simdist.runtime.ops.complex_gebp_nan import nan_signed_entries
                    re, im = nan_signed_entries(ar[..., rows, :, :], ai[..., rows, :, :], br, bi, o)
                    block.real = np.where(np.isnan(block.real), re, block.real)
                    block.imag = np.where(np.isnan(block.imag), im, block.imag)
                out[..., rows, lo:hi] = block
        if x.dtype == np.complex64 and n % 2 and r4 < m:
            re, im = _scalar_madd(x[..., r4:, :], y[..., :, n - 1:], annex_g=True)
            one, zero = np.ones_like(re), np.zeros_like(re)
            re, im = annex_g_mul(one, zero, re, im)   # (res += alpha * C0: std::complex's product)
            out.real[..., r4:, n - 1:], out.imag[..., r4:, n - 1:] = re + ft(0), im + ft(0)
    return out


def annex_g_mul(a: np.ndarray, b: np.ndarray, c: np.ndarray, d: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(a + bi)(c + di) as GCC's std::complex multiply computes it (C99 Annex G, libgcc __mulsc3): ac - bd, ad + bc
    each rounded; where both come out NaN, infinite operands are recovered: an infinite operand's parts become ±1/±0
    of their signs, the other's NaN parts ±0 (also when a partial product overflowed), and the result is inf times
    the recomputed parts — so (inf + NaN·i)·1 is inf + NaN·i, not NaN + NaN·i. Element-wise, real arrays."""
    with np.errstate(over="ignore", invalid="ignore"):
        ac, bd, ad, bc = a * c, b * d, a * d, b * c
        x, y = ac - bd, ad + bc
        both = np.isnan(x) & np.isnan(y)
        if not both.any():
            return x, y
        a, b, c, d = (np.where(both, v, 0).astype(v.dtype) for v in (a, b, c, d))
        ft = x.dtype.type
        inf_ab = np.isinf(a) | np.isinf(b)
        inf_cd = np.isinf(c) | np.isinf(d)

        def box(v: np.ndarray, on: np.ndarray) -> np.ndarray:
            return np.where(on, np.copysign(np.where(np.isinf(v), ft(1), ft(0)), v), v)

        def zero_nan(v: np.ndarray, on: np.ndarray) -> np.ndarray:
            return np.where(on & np.isnan(v), np.copysign(ft(0), v), v)
        a, b = box(a, inf_ab), box(b, inf_ab)
        c, d = zero_nan(c, inf_ab), zero_nan(d, inf_ab)
        c, d = box(c, inf_cd), box(d, inf_cd)
        a, b = zero_nan(a, inf_cd), zero_nan(b, inf_cd)
        over = ~(inf_ab | inf_cd) & (np.isinf(ac) | np.isinf(bd) | np.isinf(ad) | np.isinf(bc))
        a, b, c, d = (zero_nan(v, over) for v in (a, b, c, d))
        recalc = both & (inf_ab | inf_cd | over)
        inf = ft(np.inf)
        x = np.where(recalc, inf * (a * c - b * d), x)
        y = np.where(recalc, inf * (a * d + b * c), y)
    return x, y


def _alpha_landed(re: np.ndarray, im: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """re + i·im times alpha = 1 as a complex product, added to a zero destination (`complex_gebp`)."""
    ft = re.dtype.type
    out = np.empty(re.shape, dtype)
    out.real = (re * ft(1) - im * ft(0)) + ft(0)
    out.imag = (re * ft(0) + im * ft(1)) + ft(0)
    return out


def _scalar_madd(x: np.ndarray, y: np.ndarray, annex_g: bool = False,
                 from_first: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """x [..., m, k] @ y [..., k, n] as complex multiply-adds in order: the real and imaginary parts of
    acc += x·y, each complex product ar·br - ai·bi, ar·bi + ai·br rounded part by part (written out: NumPy's
    complex multiply may fuse by CPU); `annex_g`: each product as std::complex's (`annex_g_mul`); `from_first`: the
    sum starts from the first product, not from +0 (Eigen's redux: a -0.0 part of a lone product stays -0.0)."""
    shape = np.broadcast_shapes(x.shape[:-2], y.shape[:-2]) + (x.shape[-2], y.shape[-1])
    ft = x.real.dtype.type
    re, im = np.zeros(shape, ft), np.zeros(shape, ft)
    with np.errstate(over="ignore", invalid="ignore"):
        for j in range(x.shape[-1]):
            a_r, a_i = x.real[..., :, j, None], x.imag[..., :, j, None]
            b_r, b_i = y.real[..., None, j, :], y.imag[..., None, j, :]
            if annex_g:
                pr, pi = annex_g_mul(*np.broadcast_arrays(a_r, a_i, b_r, b_i))
            else:
                pr, pi = a_r * b_r - a_i * b_i, a_r * b_i + a_i * b_r
            if from_first and j == 0:
                re, im = np.broadcast_to(pr, shape).astype(ft), np.broadcast_to(pi, shape).astype(ft)
            else:
                re, im = re + pr, im + pi
    return re, im


def takes_float64_gebp(x: np.ndarray, y: np.ndarray) -> bool:
    """Whether a float64 x [..., m, k] @ y [..., k, n] runs TF 2.21's Eigen GEBP kernel (`float64_gebp`): m and n at
    least 2 (one row or one column is a GEMV), m, n <= 64 and 1 <= k <= 300 (measured; larger products may be
    blocked or split between threads otherwise), and not Eigen's coefficient-based product (m + k + n < 20 in
    SequentialMatMulKernel: a batch of two or more, or k = 1; batch_matmul_op_impl.h LaunchBatchMatMul). A single
    product with m, n >= 2 is ParallelMatMulKernel (Eigen's tensor contraction: GEBP at every size)."""
    if x.dtype.name != "float64" or y.dtype != x.dtype or x.ndim < 2 or y.ndim < 2 or not x.size or not y.size:
        return False
    m, k, n = x.shape[-2], x.shape[-1], y.shape[-1]
    if not (2 <= m <= 64 and 2 <= n <= 64 and 1 <= k <= 300):
        return False
    batch = int(np.prod(np.broadcast_shapes(x.shape[:-2], y.shape[:-2]), dtype=np.int64))
    return not (m + k + n < 20 and (batch >= 2 or k == 1))


def float64_gebp(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """A float64 x [..., m, k] @ y [..., k, n] as TF 2.21's Eigen GEBP kernel (GeneralBlockPanelKernel.h, the wheel's
    AVX packets of 4 doubles, no FMA: products and sums rounded, mr = 8, nr = 4) sums each entry. TF's row-major
    product is Eigen's column-major dst^T = y^T x^T: the kernel's rows are TF's columns, its columns TF's rows.
    Columns c < 8·(n // 8) (the two-packet kernel) add over k in order; the next four-column packets (the one-packet
    kernel) and a pair of columns of the remainder (the half-packet kernel) add the even terms into one
    accumulator and the odd into another over the first 8·(k // 8) terms, their sum, then the rest in order; a last
    single column (n % 4 odd) takes the swapped kernel: four accumulators (term j into j % 4) over 4·(k // 4)
    terms, (C0 + C1) + (C2 + C3), then the rest. Rows from 4·(m // 4) on (the kernel's columns past its panels of
    nr = 4) add in order in every kernel. Every sum then lands on +0 (dst set to zero, dst += alpha·C), so no entry
    is -0.0. Measured on TF 2.21 (this AVX-512 Xeon; the wheel's Eigen code is AVX): 8,406 of 8,406 seeded products
    of m, n in 2..13, k in 1..33, and 1,008 of 1,008 of m, n in 2..64, k in 40..300, plain, transposed and batched
    (xsweep58_logs/gemm_tf.py, gemm_tf2.py, mtest2.py); the in-order sums before were off in 40% of them."""
    m, k, n = x.shape[-2], x.shape[-1], y.shape[-1]
    batch = np.broadcast_shapes(x.shape[:-2], y.shape[:-2])
    out = np.empty(batch + (m, n), np.float64)
    mc2, mc1 = (n // 8) * 8, (n // 4) * 4
    mch = mc1 + ((n - mc1) // 2) * 2
    r4 = (m // 4) * 4
    yt = np.swapaxes(y, -1, -2)
    with np.errstate(over="ignore", invalid="ignore"):
        for lo, hi, order in ((0, mc2, "seq"), (mc2, mch, "pair"), (mch, n, "quad")):
            if lo == hi:
                continue
            p = x[..., :, None, :] * yt[..., None, lo:hi, :]   # [..., m, cols, k], rounded
            out[..., r4:, lo:hi] = _gebp_sum(p[..., r4:, :, :], "seq")
            out[..., :r4, lo:hi] = _gebp_sum(p[..., :r4, :, :], order)
        return out + 0.0


def float64_gemv(x: np.ndarray, y: np.ndarray, transpose_a: bool, transpose_b: bool) -> np.ndarray | None:
    """A float64 x [..., m, k] @ y [..., k, n] with one row or one column (not both) and m + k + n >= 20 as TF 2.21's
    Eigen GEMV kernels compute it (the GEMM path's runtime-vector fallback, GeneralProduct.h), else None. One column:
    x times the vector y; one row: the product's transpose, y^T times the vector x. The matrix is row-major where TF
    holds it so (x without transpose_a; y^T when y came with transpose_b): general_matrix_vector_product<RowMajor>
    (`rowmajor_gemv`, packets of 4 doubles); else column-major (GeneralMatrixVector.h<ColMajor>): for each block of
    columns (all k when k < 128, else 16) each output adds the block's rounded products in order from zero and the
    block's sum to the result, which lands on +0. Measured on TF 2.21 (this AVX-512 Xeon): 848 of 848 seeded products
    of the other dimension in 2..13, k in 8..33, and 672 of 672 of it in 2..100, k in 20..200, all four transpose
    pairs, batched or not (xsweep58_logs/gemv.py, gemv_tf2.py, gemv2chk.py). Not modelled: a one-by-one product (a dot product: 4 of 16
    at k = 24 and 33 are neither in order nor Redux's order)."""
    if x.dtype.name != "float64" or y.dtype != x.dtype or x.ndim < 2 or y.ndim < 2 or not x.size or not y.size:
        return None
    m, k, n = x.shape[-2], x.shape[-1], y.shape[-1]
    if (m == 1) == (n == 1) or m + k + n < 20 or k > _GEMV_K or max(m, n) > _GEMV_MN:
        return None
    batch = np.broadcast_shapes(x.shape[:-2], y.shape[:-2])
    x = np.broadcast_to(x, batch + x.shape[-2:])
    y = np.broadcast_to(y, batch + y.shape[-2:])
    if n == 1:
        a, v, rowmajor = x, y[..., :, 0], not transpose_a
    else:
        a, v, rowmajor = np.swapaxes(y, -1, -2), x[..., 0, :], transpose_b
    with np.errstate(over="ignore", invalid="ignore"):
        if rowmajor:
            out = rowmajor_gemv(np.ascontiguousarray(a), np.ascontiguousarray(v))
        else:
            out = _colmajor_gemv(a, v, np.multiply)
        out = out + 0.0
    return out[..., :, None] if n == 1 else out[..., None, :]


_GEMV_K, _GEMV_MN = 200, 100   # (the measured range)


def _colmajor_gemv(a: np.ndarray, v: np.ndarray, mul: Any) -> np.ndarray:
    """Eigen's column-major GEMV kernel: a's columns times v's entries added in order, k in one block below 128 and
    in blocks of 16 from 128 on, each block's sum added to the result (`mul`: the dtype's product)."""
    k = a.shape[-1]
    out = np.zeros(a.shape[:-1], a.dtype)
    block = k if k < 128 else 16
    for j0 in range(0, k, block):
        c = np.zeros(a.shape[:-1], a.dtype)
        for j in range(j0, min(k, j0 + block)):
            c = c + mul(a[..., :, j], v[..., None, j])
        out = out + c
    return out


def _complex_products(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """a·b element-wise as Eigen's complex packets multiply (ar·br - ai·bi, ar·bi + ai·br, each part rounded;
    written out: NumPy's complex multiply may fuse by CPU)."""
    with np.errstate(over="ignore", invalid="ignore"):
        re = a.real * b.real - a.imag * b.imag
        im = a.real * b.imag + a.imag * b.real
    out = np.empty(re.shape, np.result_type(a, b))
    out.real, out.imag = re, im
    return out


def complex_gemv(x: np.ndarray, y: np.ndarray, transpose_a: bool, transpose_b: bool) -> np.ndarray | None:
    """A complex x [..., m, k] @ y [..., k, n] (transposes and conjugates applied) with one row or one column (not
    both) and m + k + n >= 20 as TF 2.21's Eigen GEMV kernels sum it, else None. Where TF
    holds the matrix row-major, general_matrix_vector_product<RowMajor> (`rowmajor_gemv` with complex packets). One column:
    x (not transpose_a) times the vector y; one row: y^T (y given with transpose_b) times the vector x; the sum lands
    on +0. Else the matrix is column-major (GeneralMatrixVector.h<ColMajor>, as `float64_gemv`): for each block of
    columns (all k when k < 128, else 16) each output adds the block's products in order from zero, then the block's
    sum to the result.
    Measured on TF 2.21 (this AVX-512 Xeon, cplx59): 1,272 of 1,272 row-major products of cplx58's probe
    (cplx58_logs/cgemm_tf.npz: other dimension 2..13, k <= 33) and 1,344 of 1,344 of the other dimension in 2..100,
    k in 20..300, plain, transposed and adjoint, batched or not (cplx59_logs/gemv_tf.py, gemv_cmp.py); through the
    facade 2,240 of 2,240 of that probe, row- and column-major (cother59.py; before: all row-major and the column-major
    ones with k >= 128 among them: 1,790 off), and of cplx58's 8,952 one-row, one-column and k = 1 products all but 15
    one-by-one products (before: 1,286 off)."""
    if x.dtype.kind != "c" or y.dtype != x.dtype or x.ndim < 2 or y.ndim < 2 or not x.size or not y.size:
        return None
    m, k, n = x.shape[-2], x.shape[-1], y.shape[-1]
    if (m == 1) == (n == 1) or m + k + n < 20 or k > 300 or max(m, n) > _GEMV_MN:
        return None
    batch = np.broadcast_shapes(x.shape[:-2], y.shape[:-2])
    x = np.broadcast_to(x, batch + x.shape[-2:])
    y = np.broadcast_to(y, batch + y.shape[-2:])
    a, v = (x, y[..., :, 0]) if n == 1 else (np.swapaxes(y, -1, -2), x[..., 0, :])
    with np.errstate(over="ignore", invalid="ignore"):
        if transpose_b if m == 1 else not transpose_a:
            out = rowmajor_gemv(np.ascontiguousarray(a), np.ascontiguousarray(v))
        else:
            out = _colmajor_gemv(a, v, _complex_products)
        out = out + x.real.dtype.type(0)
    return out[..., :, None] if n == 1 else out[..., None, :]


def _gebp_sum(p: np.ndarray, order: str) -> np.ndarray:
    """The sum over p's last axis from +0 in one of GEBP's accumulator orders (`float64_gebp`)."""
    k = p.shape[-1]
    zero = np.zeros(p.shape[:-1], p.dtype)
    if order == "seq":
        acc, full = zero, 0
    elif order == "pair":
        full = (k // 8) * 8
        c, d = zero, zero
        for j in range(0, full, 2):
            c, d = c + p[..., j], d + p[..., j + 1]
        acc = c + d
    else:
        full = (k // 4) * 4
        cs = [zero] * 4
        for j in range(full):
            cs[j % 4] = cs[j % 4] + p[..., j]
        acc = (cs[0] + cs[1]) + (cs[2] + cs[3])
    for j in range(full, k):
        acc = acc + p[..., j]
    return acc


def takes_gebp(x: np.ndarray, y: np.ndarray) -> bool:
    """Whether a complex product runs TF's GEBP kernel (`complex_gebp`): m, n and k at least 2, m, n <= 64 and
    k <= 300 (measured), and not Eigen's coefficient-based product (m + k + n < 20 in a batch of two or more:
    `complex_lazy`)."""
    if not (x.dtype.kind == "c" and x.ndim >= 2 and y.ndim >= 2 and x.dtype == y.dtype and x.size and y.size):
        return False
    m, k, n = x.shape[-2], x.shape[-1], y.shape[-1]
    if not (2 <= m <= 64 and 2 <= n <= 64 and 2 <= k <= 300):
        return False
    batch = int(np.prod(np.broadcast_shapes(x.shape[:-2], y.shape[:-2]), dtype=np.int64))
    return not (m + k + n < 20 and batch >= 2)


def takes_complex_lazy(x: np.ndarray, y: np.ndarray, transposed: bool = False) -> bool:
    """Whether a complex product is Eigen's coefficient-based (lazy) product in TF 2.21 (`complex_lazy`): m + k + n
    < 20 in a batch of two or more (batch_matmul_op_impl.h SequentialMatMulKernel) or with one row or one column
    (measured: cplx58_logs/cother.py), or with k = 1 where an operand is given transposed (`transposed`: the
    real dtypes' `lazy_transposed` region; an outer product, einsum 'i,j->ij' whose EinsumOp passes trans_x, keeps
    each product's -0.0 part, where the untransposed one sums from +0: fz67, fz54b --rare seed 67502 #0)."""
    if not (x.dtype.kind == "c" and x.ndim >= 2 and y.ndim >= 2 and x.dtype == y.dtype and x.size and y.size):
        return False
    m, k, n = x.shape[-2], x.shape[-1], y.shape[-1]
    batch = int(np.prod(np.broadcast_shapes(x.shape[:-2], y.shape[:-2]), dtype=np.int64))
    return m + k + n < 20 and (batch >= 2 or min(m, n) == 1 or (transposed and k == 1))


def complex_lazy(x: np.ndarray, y: np.ndarray, transpose_a: bool, transpose_b: bool) -> np.ndarray:
    """A small batched complex product as Eigen's lazy product sums it (`takes_complex_lazy`): each complex product
    rounded part by part (ar·br - ai·bi, ar·bi + ai·br) and added in order; where both operands run contiguous
    along k (y transposed, x not) Redux's vectorized order over packets of 4 (complex64) or 2 (complex128)
    complex terms (`complex_redux`). Measured on TF 2.21: 4,512 of 4,512 seeded products (cplx58_logs/ctest2.py);
    the GEBP order before was off in all of them."""
    if transpose_b and not transpose_a:
        ft = x.real.dtype.type
        a, b = x[..., :, None, :], np.swapaxes(y, -1, -2)[..., None, :, :]
        with np.errstate(over="ignore", invalid="ignore"):
            re = a.real * b.real - a.imag * b.imag
            im = a.real * b.imag + a.imag * b.real
        terms = np.empty(re.shape, x.dtype)
        terms.real, terms.imag = re, im
        return complex_redux(terms, 4 if ft == np.float32 else 2)
    re, im = _scalar_madd(x, y, from_first=transpose_a)   # (x given transposed: the sum starts at its first product)
    out = np.empty(re.shape, x.dtype)
    out.real, out.imag = re, im
    return out


def complex_redux(terms: np.ndarray, size: int) -> np.ndarray:
    """The sum over the last axis of complex terms as Eigen's Redux.h adds a contiguous expression of packets of
    `size` complex values (`redux_sum`'s order: fewer than `size` terms in order; else two packet accumulators over
    each 2·size terms, their sum, a last full packet, the lanes halved down to one, then the rest in order).
    Complex sums add part by part (np.add on complex: no rounding beyond each part's)."""
    return _redux(terms, size, True)


_NO_BLAS = ("float32", "float64", "complex64", "complex128")


def matmul(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """x [..., m, k] @ y [..., k, n] (NumPy broadcasting) without BLAS: OpenBLAS picks its kernels,
    and so a product's summation order, by CPU at load time (Haswell, SkylakeX, ...), so np.matmul's
    last bits depend on the machine (ops.host-cpu).

    float64: each entry summed over k in order, each product and sum rounded, as TF 2.21's Eigen
    contraction (no FMA in the wheel): NumPy's einsum (optimize=False) runs its own loop, compiled
    for the x86-64 wheels' baseline (no run-time dispatch, no FMA), which accumulates out[i, :] +=
    x[i, j] * y[j, :] for j in order (tests/ops/test_contraction_order.py checks it against the
    order written out); a one-column product is computed as its transpose (y^T x^T: the same
    products and sums), a one-by-one product by ordered_matmul.
    float32: BLAS (np.matmul) for speed, so its last bits depend on the CPU family (the one such
    product left; docs/spec.md ops.host-cpu; `in_order` for the solvers' small products). Complex products by the same loop in their dtype (each
    complex product and sum rounded, as Eigen's unfused complex arithmetic). Other dtypes are exact (integers) or not BLAS's
    (float16): np.matmul. Cost: einsum's loop is about 10x single-threaded BLAS on large products
    (256x256x256: ~10-20 ms)."""
    if not _no_blas(x, y):
        return np.matmul(x, y)
    if x.dtype == np.float32:
        # float32 stays on BLAS, its last bits following OpenBLAS's kernel (so the CPU family): the
        # in-order alternatives (fused k-loop, float64 einsum rounded once) made a Keras MLP's training
        # step 5.4x slower (benchmarks/bench_train.py: 167.6 -> 31.0 steps/s, 2026-12-01) and conv fits
        # ~3x. Callers put TF's order where it shows (needs_order) or costs nothing (row_in_order).
        # Open: a fast CPU-independent float32 product.
        return np.matmul(x, y)
    return _in_order(x, y)


def in_order(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """x [..., m, k] @ y [..., k, n] summed over k in order, each product and sum rounded, in every
    float and complex dtype, float32 too (Eigen's own unfused code in the wheel): the solvers' small
    products (eigen_lu, the LLT, dot), where matmul's float32 is BLAS's."""
    return _in_order(x, y) if _no_blas(x, y) else np.matmul(x, y)


def _no_blas(x: np.ndarray, y: np.ndarray) -> bool:
    return (x.dtype.name in _NO_BLAS and x.dtype == y.dtype and x.ndim >= 2 and y.ndim >= 2
            and bool(x.size) and bool(y.size))


def _in_order(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """The einsum loop's in-order sums (a one-column product as its transpose)."""
    if y.shape[-1] == 1 and x.dtype.kind == "f":
        if x.shape[-2] == 1:   # a dot: np.add.accumulate adds in order, one rounding a step (+ 0: from +0)
            prods = x[..., 0, :] * y[..., :, 0]
            return (np.add.accumulate(prods, axis=-1)[..., -1:] + x.dtype.type(0))[..., None]
        return np.swapaxes(_in_order(np.swapaxes(y, -1, -2), np.swapaxes(x, -1, -2)), -1, -2)
    return np.einsum("...ij,...jk->...ik", np.ascontiguousarray(x), np.ascontiguousarray(y), optimize=False)


def dot(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """`a @ b` of 1-d or 2-d operands (NumPy's rules) by in_order: in order, products rounded
    (Eigen's own vector code in the wheel has no FMA), without BLAS's gemv/dot."""
    a2 = a[None, :] if a.ndim == 1 else a
    b2 = b[:, None] if b.ndim == 1 else b
    out = in_order(a2, b2)
    if b.ndim == 1:
        out = out[..., 0]
    if a.ndim == 1:
        out = out[0] if out.ndim else out
    return out
