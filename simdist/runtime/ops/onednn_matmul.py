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
from simdist.runtime.ops.nan_operands import chain_nan, first_nan
from simdist.runtime.ops.onednn_softmax import fma32

__all__ = ["applies", "applies_matvec", "applies_matvec_transposed", "applies_one_row", "applies_row_split",
           "batched", "batched_in_order", "copy_based", "copy_k_blocks", "gemv_k_bounds", "in_order", "k_blocks",
           "matmul_transposed_b", "matvec", "one_row_transposed_b", "plain", "single_threaded", "split_gemv",
           "transposed_b_pure"]

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
    """Whether x [m, k] @ y [k, n] (neither transposed, or x alone) is oneDNN's product accumulated over k in order
    with fused multiply-adds (contraction_order.ordered_matmul; `plain`): n >= 2 columns and k <= 384 (768 in two
    halves from two rows on). Observed on the same Xeon: every
    element of 22 seeded products of m in 1..256, k in 3..384, n in 2..256 (NumPy's BLAS was off in 5 of them);
    from k = 385 oneDNN splits k (2x385x3: 4 of 6 elements off in order), and one column (n = 1) is its
    matrix-vector kernel: neither modelled (NumPy's order kept). With transpose_b, 16 rows and more take the same
    order under the same bounds (fifty-fifth session, onednn55: every element of 11 seeded products of m 16..256,
    k 1..384, n 2..200; k = 385 and more, and one column, are off in most elements, as without transpose_b). Nor is a
    product of more than ORDERED_BUDGET multiply-adds computed so (its cost: NumPy's BLAS kept). With transpose_a
    alone (x^T @ dy, a Dense layer's kernel gradient) the same (fifty-eighth session, /work/wt/lead58_logs/p_ta.py,
    p_ta2.py: every element of seeded products of k 2..768 (halves from 385), m 1..32, n 2..17; NumPy's BLAS matched
    only where its kernel happened to, depending on OpenBLAS's dispatch). Beyond k = 768 (two rows or more) k is
    split as `k_blocks` gives (onednn59); one row beyond k = 384 is another kernel (contraction_order.row_in_order).
    Both transposed, two rows or more, the same (onednn59, /work/wt/onednn59_logs/p_tt.py: every element of 24
    seeded products of m 2..40, k 100..1,000, n 3..50; the old model, NumPy's BLAS, was off in 18)."""
    return ((not transpose_b or x.shape[0] >= (2 if transpose_a else 16)) and x.dtype == np.float32
            and x.ndim == 2 and y.ndim == 2
            and x.shape[0] >= 1 and 1 <= x.shape[1] and (x.shape[1] <= PLAIN_K or x.shape[0] >= 2)
            and y.shape[1] >= 2
            and x.shape[0] * x.shape[1] * y.shape[1] <= ORDERED_BUDGET
            and host_cpu.current().onednn_supports("float32"))


#: the longest k oneDNN's plain float32 MatMul sums in one pass; up to twice that, it sums two halves
PLAIN_K = 384


def plain(x: np.ndarray, y: np.ndarray, transpose_a: bool = False, transpose_b: bool = False) -> np.ndarray:
    """x [m, k] @ y [k, n] as oneDNN's plain float32 MatMul (`in_order`): each of `k_blocks`'s blocks of k summed in
    order with fused multiply-adds from +0, the blocks' sums added in order (`_blocked`). One block up to k = 384,
    two halves to 768 (fifty-eighth session, /work/wt/lead58_logs/p_mm2d.py, p_mm2e.py: every element of 11 seeded
    products of k 385..768, m 2..64, n 2..300, with transpose_b from 16 rows), blocks of 384 for a multiple of 384
    (onednn58: 34 seeded products of k 1,152..4,608; /work/wt/onednn58_logs/p_mm4.py), and every other k beyond 768
    so (onednn59: blocks of 384 while 768 or more remain, then the rest in two halves; every element of 60 seeded
    products of k 769..3,000 (/work/wt/onednn58_logs/mm3_tf.txt) and 53 of two rows or more, k 784..12,000, m 2..100,
    n 2..128 (/work/wt/onednn59_logs/p_k.py, fit_k.py), plain, transpose_a, transpose_b from 16 rows): oneDNN's
    no-copy sgemm (jit_avx512_common_gemm_f32.cpp, its k loop). Where oneDNN takes its copy-based sgemm instead
    (`copy_based`) the blocks are `copy_k_blocks`'s."""
    m, k = x.shape
    if copy_based(m, k, y.shape[1], transpose_a, transpose_b):
        return _blocked(x, y, copy_k_blocks(k), nans=True)
    return _blocked(x, y, k_blocks(k), nans=True)


def copy_based(m: int, k: int, n: int, transpose_a: bool, transpose_b: bool) -> bool:
    """Whether oneDNN's float32 sgemm runs x [m, k] @ y [k, n] on its copy-based kernel (gemm_driver.cpp
    nocopy_checker_avx512, the product as TF's row-major call hands it over: m and n swapped, transposes swapped):
    transpose_b alone, 16 rows or more (2..15 are its small-n kernel, `applies`), on one thread (`single_threaded`),
    more than 100 columns and either fewer than 1,200 columns, fewer than 200 rows and k < 1,200, or k a multiple of
    256 (both leading dimensions k then "bad"). Its other copy-based cases need m and n beyond 510 or k beyond 500
    with 100 rows and 1,024 columns: past ORDERED_BUDGET. Observed on TF 2.21 on the Xeon (onednn59,
    /work/wt/onednn59_logs/p_thr.py, p_thr2.py): 16 x 800 x 101 copy-based and 16 x 800 x 100 not, 199 and 200
    rows, k 1,199 and 1,200, k 1,280, 1,792, 2,048 (copy-based) and 1,300 (not)."""
    return (transpose_b and not transpose_a and m >= 16 and n > 100
            and ((n < 1200 and m < 200 and k < 1200) or k % 256 == 0) and single_threaded(m, k, n))


def copy_k_blocks(k: int, block: int = PLAIN_K) -> list[int]:
    """The bounds of the blocks oneDNN's copy-based float32 sgemm splits k into (gemm_driver.cpp get_k_padd and its
    k loop): one block up to `block`, two halves (the first ceil(k / 2)) below two blocks, else blocks of `block` and
    the rest last: k = 784 is 384 + 384 + 16 (the no-copy kernel's `k_blocks`: 384 + 200 + 200)."""
    size = k if k <= block else -(-k // 2) if k < 2 * block else block
    return list(range(0, k, size)) + [k]


def single_threaded(m: int, k: int, n: int) -> bool:
    """TF 2.21's ExecuteSingleThreadedGemm (mkl_matmul_ops_common.h): its oneDNN MatMul runs on one thread when
    4 (m n + k (m + n)) bytes (C int arithmetic, then float) are fewer than 1.01 times the L2 cache of a core
    (host_cpu `l2_bytes`, float), on the op's thread pool otherwise. Observed on the Xeon (2 MiB, onednn59): one row
    of 4,130 x 127 (2,115,068 bytes) in one pass and 4,140 x 127 (2,120,188) split between the two threads."""
    def wrap(v: int) -> int:
        return (v + 2 ** 31) % 2 ** 32 - 2 ** 31
    size = wrap(4 * wrap(wrap(m * n) + wrap(k * wrap(m + n))))
    return bool(np.float32(size) < np.float32(host_cpu.current().l2_bytes) * np.float32(1.01))


def gemv_k_bounds(outputs: int, m: int, k: int, n: int) -> list[int] | None:
    """The bounds [0, ..., k] of the parts oneDNN's float32 matrix-vector product without transpose (one row times a
    matrix, or a matrix given transposed times a column: `outputs` of them, each a dot product over k) splits k into
    among its threads, None where it does not split: TF runs the [m, k] @ [k, n] MatMul on its thread pool
    (not `single_threaded`), and oneDNN's gemv_threading_driver finds it short and fat (outputs <= 500 per thread,
    k >= 128 per thread), so each thread sums its part of k (part_1d: the first k mod threads parts one longer) in
    order from +0 and the parts are added in thread order. Threads: host_cpu `parallelism` (the 2 cores measured).
    Observed on TF 2.21 on the Xeon (onednn59, /work/wt/onednn59_logs/p_row.py, p_thr.py, p_thr2.py): one row of k
    4,140..30,001 by 20..300 columns in two halves (the first ceil(k / 2)), 1 x 2,001 x 1,100 and 1 x 2,000 x 1,001
    in order (more than 1,000 outputs: the threads split the outputs); a column x^T @ y of 600..1,000 rows likewise,
    1,001 rows in order."""
    threads = host_cpu.current().parallelism
    if threads < 2 or outputs > 500 * threads or k < 128 * threads or single_threaded(m, k, n):
        return None
    width, extra = divmod(k, threads)
    bounds = [0]
    for t in range(threads):
        bounds.append(bounds[-1] + width + (t < extra))
    return bounds


def applies_row_split(x: np.ndarray, y: np.ndarray, transpose_a: bool, transpose_b: bool) -> bool:
    """Whether x [1, k] @ y [k, n] (not transpose_b; x given transposed or not) is oneDNN's matrix-vector product
    without transpose (`split_gemv`: k in order, in parts where its threads split k, `gemv_k_bounds`; its NaNs the
    kernel's). Where oneDNN does not run float32, contraction_order.row_in_order sums one row in order."""
    return (not transpose_b and x.dtype == np.float32 and y.dtype == np.float32 and x.ndim == 2 and y.ndim == 2
            and x.shape[0] == 1 and x.shape[1] >= 1 and y.shape[1] >= 2
            and host_cpu.current().onednn_supports("float32"))


def split_gemv(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """x [m, k] @ y [k, n] of one row or one column as oneDNN's matrix-vector product without transpose sums it: k in
    order with fused multiply-adds from +0, in `gemv_k_bounds`'s parts where its threads split k."""
    m, k = x.shape
    n = y.shape[1]
    bounds = gemv_k_bounds(n if m == 1 else m, m, k, n)
    # (its NaNs as `_blocked`'s, the vector's (x's of one row, y's of one column) first at a step: onednn59,
    # /work/wt/onednn59_logs/p_nan2.py, fit_nan3.py)
    return _blocked(x, y, bounds if bounds is not None else [0, k], nans=True, x_first=m == 1)


def k_blocks(k: int, block: int = PLAIN_K) -> list[int]:
    """The bounds [0, ..., k] of the blocks oneDNN's float32 GEMM driver splits k into (its k loop: a block of `block`
    while two or more blocks' worth remain, else the rest, in two halves (the first ceil(rest / 2)) when it is more
    than one block): k = 784 is 384 + 200 + 200, 1,000 is 384 + 308 + 308, 1,536 four blocks of 384."""
    bounds = [0]
    while bounds[-1] < k:
        rest = k - bounds[-1]
        bounds.append(bounds[-1] + (block if rest >= 2 * block else -(-rest // 2) if rest > block else rest))
    return bounds


#: oneDNN's batched float32 product (BatchMatMulV2) sums k in blocks of this many
BATCH_K_BLOCK = 512


def batched_in_order(x: np.ndarray, y: np.ndarray) -> bool:
    """Whether BatchMatMulV2's x [..., m, k] @ y [..., k, n] (transposes already applied) is oneDNN's batched float32
    product `batched` computes: k in 1..1024 (two blocks at most; more are split otherwise, not modelled), within
    ORDERED_BUDGET multiply-adds (larger keep NumPy's BLAS, for its cost), where oneDNN runs float32."""
    if x.dtype != np.float32 or y.dtype != np.float32 or x.ndim < 2 or y.ndim < 2 or not x.size or not y.size:
        return False
    k = x.shape[-1]
    if not 1 <= k <= 2 * BATCH_K_BLOCK:
        return False
    batch = int(np.prod(np.broadcast_shapes(x.shape[:-2], y.shape[:-2]), dtype=np.int64))
    return (batch * x.shape[-2] * k * y.shape[-1] <= ORDERED_BUDGET
            and host_cpu.current().onednn_supports("float32"))


def batched(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """x [..., m, k] @ y [..., k, n] as TF 2.21's oneDNN BatchMatMulV2 computes float32 (any rank, either operand
    given transposed, one row or one column alike): each block of BATCH_K_BLOCK along k accumulated in order with
    fused multiply-adds from +0, the blocks' sums added in order. Observed on TF 2.21 on the Intel Xeon (fifty-eighth
    session, /work/wt/lead58_logs/p_bmm*.py): every element of 48 seeded products of batch 1-3, m 1..20, k 1..40,
    n 1..17 with transposes (simdist's 2-D kernels' rules were off in 10 of them), of 24 larger ones (k up to 1,024,
    m and n up to 256, rank 4, broadcast batches, rank-3 by rank-2 as Keras' Dense on a sequence, einsum's
    BatchMatMul) and of raw rank-2 BatchMatMulV2; k = 513..519 take two blocks (one block is off in 2 of 6), and
    k = 1,025 / 1,536 / 2,048 neither."""
    k = x.shape[-1]
    # (its NaNs the chain's, y's before x's at one step, a later block's first: msweep63, every NaN of its m-f32-batched
    # BatchMatMulV2, einsum and tensordot products of k 1..513 with tagged NaNs)
    return _blocked(x, y, list(range(0, k, BATCH_K_BLOCK)) + [k], nans=True, x_first=False)


def _blocked(x: np.ndarray, y: np.ndarray, bounds: list[int], nans: bool = False, x_first: bool = True) -> np.ndarray:
    """x [..., m, k] @ y [..., k, n] as oneDNN's float32 kernels split k at `bounds` ([0, ..., k]): each block over k
    in order with fused multiply-adds from +0 (contraction_order.ordered_matmul), the blocks' sums added in order.
    With `nans` (the sgemm's, and BatchMatMulV2's with x_first False: msweep63) its NaNs are the kernel's: each block's as its chain ends
    (nan_operands.chain_nan), a block's sum the first operand of its addition to the earlier blocks' (onednn59,
    /work/wt/onednn59_logs/fit_nan.py: every NaN of 40 plain, transpose_a and transpose_b products of k 3..800 with
    tagged NaNs; x's NaN before y's at one step unless not `x_first`); without, whichever NaN the compiled kernel
    gives."""
    from simdist.runtime.ops.contraction_order import ordered_matmul

    def block(start: int, stop: int) -> np.ndarray:
        p = ordered_matmul(x[..., start:stop], y[..., start:stop, :])
        return chain_nan(p, x[..., start:stop], y[..., start:stop, :], x_first) if nans else p

    out = block(0, bounds[1])
    with np.errstate(over="ignore", invalid="ignore"):
        for start, stop in zip(bounds[1:-1], bounds[2:]):
            p = block(start, stop)
            out = first_nan((p + out).astype(_F), p, out) if nans else (out + p).astype(_F)
    return out


def matmul_transposed_b(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """x [m, k] @ y [k, n] in the kernel's order (float32): compiled (_fma.c's lanes16) where built, else
    `transposed_b_pure` (identical bits: tests/ops/test_fma_native.py)."""
    from simdist.runtime.ops import fma_native
    out = fma_native.matmul_transposed_b(x, y)
    if out is None or np.isnan(out).any():
        # (its NaNs the kernel's: `transposed_b_pure`'s steps choose them as the kernel's instructions do)
        return transposed_b_pure(x, y)
    return out


def transposed_b_pure(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """matmul_transposed_b in NumPy: one fma32 pass over [m, n, 16] lanes per 16 elements of k. Its NaNs are the
    kernel's: a step's NaN is its last NaN operand's, b's element before x's (fma32(b, x, acc)), and a lane sum's
    NaN the lower lane's (onednn59: every NaN of 40 products of 2..15 rows with NaNs whose payloads name their
    operand, /work/wt/onednn59_logs/p_nan.py, p_nan2.py, fit_nan.py; n = 7 and 9 columns 3 of 170 elements off)."""
    m, k = x.shape
    n = y.shape[1]
    b = np.ascontiguousarray(y.T)                  # [n, k]: the rows the kernel reads
    swapped = _x_first(m, n)[:, :, None]
    acc = np.zeros((m, n, _LANES), _F)
    for start in range(0, k, _LANES):
        stop = min(start + _LANES, k)
        w = stop - start
        xs, bs = x[:, None, start:stop], b[None, :, start:stop]
        step = fma32(bs, xs, acc[:, :, :w])
        if swapped.any():
            step = np.where(swapped, fma32(xs, bs, acc[:, :, :w]), step)
        acc[:, :, :w] = step
    width = _LANES
    while width > 1:
        width //= 2
        acc = _add(acc[:, :, :width], acc[:, :, width:2 * width])
    return acc[:, :, 0]


#: oneDNN's small-n kernel's split of 1..15 rows into kernel calls of 1, 2 or 3 rows (sgemm_smalln_tn's partitions)
_SMALLN_PARTS = ((0, 1), (0, 2), (0, 3), (0, 2, 4), (0, 3, 5), (0, 3, 6), (0, 2, 4, 7), (0, 3, 6, 8), (0, 3, 6, 9),
                 (0, 2, 4, 7, 10), (0, 3, 6, 9, 11), (0, 3, 6, 9, 12), (0, 2, 4, 7, 10, 13), (0, 3, 6, 9, 12, 14),
                 (0, 3, 6, 9, 12, 15))


def _x_first(m: int, n: int) -> np.ndarray:
    """[m, n] bool: the outputs whose products the 2..15-row kernel multiplies as x · b (else b · x): in its calls of
    three rows, the columns 5, 6, 7 of each 8 (its vfmadd231ps with the row's broadcast first, jit_avx512_core_gemm_
    smalln_tn_f32_kern.cpp, MROW > 5): which NaN the product keeps (onednn59, /work/wt/onednn59_logs/p_nan2.py)."""
    out = np.zeros((m, n), bool)
    if not 1 <= m <= 15:
        return out
    parts = _SMALLN_PARTS[m - 1]
    cols = (np.arange(n) % 8) >= 5
    for lo, hi in zip(parts[:-1], parts[1:]):
        if hi - lo == 3:
            out[lo:hi] = cols
    return out


def applies_one_row(x: np.ndarray, y: np.ndarray, transpose_a: bool, transpose_b: bool) -> bool:
    """Whether x [1, k] @ y [k, n] (y = b [n, k] transposed) is oneDNN's one-row kernel (`one_row_transposed_b`):
    x given transposed too (its matrix-vector product with transpose reads a column of stride 1 as a row;
    onednn59, /work/wt/onednn59_logs/p_tt.py: 1 x 100 x 5 and 1 x 1,000 x 3)."""
    return (transpose_b and x.dtype == np.float32 and y.dtype == np.float32 and x.ndim == 2
            and y.ndim == 2 and x.shape[0] == 1 and x.shape[1] > 0 and y.shape[1] > 0
            and host_cpu.current().onednn_supports("float32"))


def _add(u: np.ndarray, v: np.ndarray) -> np.ndarray:
    """float32 u + v, a NaN the first NaN operand's (vaddps; NumPy's choice depends on its loop)."""
    with np.errstate(invalid="ignore", over="ignore"):
        return first_nan((u + v).astype(_F), u, v)


def _mul(u: np.ndarray, v: np.ndarray) -> np.ndarray:
    """float32 u · v, a NaN the first NaN operand's (vmulps)."""
    with np.errstate(invalid="ignore", over="ignore"):
        return first_nan((u * v).astype(_F), u, v)


def _tree(p: np.ndarray) -> np.ndarray:
    """The sum over the last axis (width 1, 2, 4 or 8) as the kernel reduces a vector: pairs of neighbours first,
    the two 4-lane halves' pair sums added lane by lane, then the last pair: ((p0 + p1) + (p4 + p5)) + ((p2 + p3) +
    (p6 + p7)); (p0 + p1) + (p2 + p3) of four."""
    w = p.shape[-1]
    if w == 1:
        return p[..., 0]
    pairs = _add(p[..., 0::2], p[..., 1::2])
    if w == 8:
        pairs = _add(pairs[..., :2], pairs[..., 2:])   # ((p0 + p1) + (p4 + p5)), ((p2 + p3) + (p6 + p7))
    return _tree(pairs) if pairs.shape[-1] > 1 else pairs[..., 0]


def one_row_transposed_b(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """x [1, k] @ y [k, n] (b = y transposed, [n, k]) as TF 2.21's oneDNN float32 MatMul computes a product of one row
    with transpose_b on an AVX-512 CPU: each output a dot product of x's row with b's row j. The first k - k mod 16
    elements accumulate in 8 lanes (element i in lane i mod 8) with fused multiply-adds from +0, the lanes reduced
    as `_tree` does; the rest of k in pieces of 8, 4, 2 and 1 elements (the largest
    that fits first), each piece's products reduced by `_tree` and added to the sum in turn (the piece the first
    operand, which decides of two NaNs whose sign is kept: `nan_operands`). Observed on TF 2.21 on
    the Intel Xeon (kopen57): every element of 322 seeded products, k in 1..39, 47, 64, 100, 129, 200, 385 and 500,
    n in 1..33 (/work/wt/kopen57_logs/m1.py, m1j.py); the rule for 2..15 rows (`matmul_transposed_b`) was off in
    289 of them, NumPy's order in 275. A Dense layer's input gradient of a one-row batch is this product."""
    return _dots(x, np.ascontiguousarray(y.T))[None, :]


def applies_matvec(x: np.ndarray, y: np.ndarray, transpose_a: bool, transpose_b: bool) -> bool:
    """Whether x [m, k] @ y [k, 1] (one column; y given as [1, k] with transpose_b) is oneDNN's matrix-vector
    product `matvec`: not transpose_a; without transpose_b two rows or more (one row by one column is another order:
    `row_in_order`), with it one row or 16 and more (2..15 rows are `applies`)."""
    return (not transpose_a and x.dtype == np.float32 and y.dtype == np.float32 and x.ndim == 2 and y.ndim == 2
            and y.shape[1] == 1 and x.shape[1] > 0 and x.shape[0] > 0
            and (x.shape[0] >= 16 or (x.shape[0] >= 2) != transpose_b)
            and host_cpu.current().onednn_supports("float32"))


def applies_matvec_transposed(x: np.ndarray, y: np.ndarray, transpose_a: bool, transpose_b: bool) -> bool:
    """Whether x [m, k] @ y [k, 1] with x given transposed ([k, m]: a Dense(1) layer's kernel gradient x^T @ dy) is
    oneDNN's product over k in order with fused multiply-adds from +0 (contraction_order.ordered_matmul): every
    element of 20 seeded products of m 1..64, k 1..1,000 on TF 2.21 on the Xeon (fifty-eighth session,
    /work/wt/lead58_logs/fit_mvta.py), but one row with transpose_b too (1 x 2 took two halves: not modelled);
    within ORDERED_BUDGET. It is oneDNN's matrix-vector product without transpose, as one row times a matrix is:
    beyond k = 1,024 too (the same kernel sums one row over k = 20,000 in order), and where its threads split k
    (`gemv_k_bounds`) in parts (onednn59): computed by `split_gemv`."""
    return (transpose_a and x.dtype == np.float32 and y.dtype == np.float32 and x.ndim == 2 and y.ndim == 2
            and y.shape[1] == 1 and x.shape[0] > 0 and 1 <= x.shape[1]
            and not (x.shape[0] == 1 and transpose_b) and x.shape[0] * x.shape[1] <= ORDERED_BUDGET
            and host_cpu.current().onednn_supports("float32"))


def matvec(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """x [m, k] @ y [k, 1] as TF 2.21's oneDNN float32 MatMul computes one column: each row's dot product with the
    column as `one_row_transposed_b` computes one (fifty-eighth session, /work/wt/lead58_logs/p_mv.py, fit_mv.py:
    every element of 20 seeded products of m 1..64, k 1..1,000, plain and with transpose_b; NumPy's BLAS was off in
    most. With transpose_a it is another order, not modelled)."""
    # (the column is the kernel's vector, the first operand of each product as one row's is: which NaN it keeps,
    # onednn59, /work/wt/lead58_logs/p_nanmm.py)
    return _dots(np.ascontiguousarray(y.T), x)[:, None]


def _lane_sums(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The 8 lanes [r, 8] of a's and b's rows ([ra, k] and [rb, k], one of ra, rb 1; k a multiple of 16): lane l
    the fused multiply-adds of elements j = l (mod 8) in order from +0 (so a lane of -0.0 products is +0.0, as on TF
    2.21: a product of 32 zeros by -1 is +0.0). Operands without a NaN take the compiled in-order kernel
    (fma_native: the lanes as a batch of 8 products; a 32 x 784 Dense(1) product 9.5 -> 0.4 ms), whose NaNs are then
    default NaNs, as fma32's rule gives; otherwise fma32 step by step (the reference)."""
    k = a.shape[1]
    if not (np.isnan(a).any() or np.isnan(b).any()):
        from simdist.runtime.ops import fma_native
        ra, rb = a.shape[0], b.shape[0]
        xs = np.ascontiguousarray(a.reshape(ra, k // 8, 8).transpose(2, 0, 1))   # [8, ra, k/8]
        ys = np.ascontiguousarray(b.reshape(rb, k // 8, 8).transpose(2, 1, 0))   # [8, k/8, rb]
        out = fma_native.ordered_matmul(xs, ys)
        if out is not None:
            return out.reshape(8, -1).T                                           # [r, 8]
    acc = np.zeros(np.broadcast_shapes(a.shape[:1], b.shape[:1]) + (8,), _F)
    for start in range(0, k, 8):
        acc = fma32(a[:, start:start + 8], b[:, start:start + 8], acc)
    return acc


def _dots(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The dot products of a's and b's rows ([r, k] and [r, k], either [1, k] broadcast) as oneDNN's one-row kernel
    sums one (`one_row_transposed_b`), a's elements the first operands of the products."""
    k = a.shape[1]
    main = k - k % 16
    s: np.ndarray | None = None
    if main:
        s = _tree(_lane_sums(a[:, :main], b[:, :main]))
    i, w = main, 8
    while i < k:
        while w > k - i:
            w //= 2
        piece = _tree(_mul(a[:, i:i + w], b[:, i:i + w]))
        # (without a 16-wide part the pieces add onto +0, as oneDNN's matmul does: a k = 1 product of -0.0 is +0.0 on
        # TF 2.21, esweep57's e-matmul-float32 '(1, 17)(17, 1)' g0; a piece is the first operand: of two NaNs its
        # own is kept, /work/wt/lead58_logs/fit_rows.py)
        s = _add(piece, _F(0) if s is None else s)
        i += w
    assert s is not None
    return s.astype(_F)
