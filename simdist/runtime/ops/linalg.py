"""Matrix products (TF's linalg / MatMul, BatchMatMulV2), with their gradients."""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import context, dtypes, errors, graph_names, host_cpu, name_scopes, symbolic
from simdist.runtime.ops import args, attr_rules, dispatch, graph_inputs
from simdist.runtime.ops import trace_errors
from simdist.runtime.ops.args import t as _t
from simdist.runtime.ops.raw_args import RawArgs
from simdist.runtime.ops.registry import BATCH_MATMUL_ROWS, MATMUL_ROWS, RegisterGradient, lanes, register, set_raw_args
from simdist.runtime.ops.cpu_kernels import kernel_first, lookup
from simdist.runtime.tensor import Tensor, convert_to_tensor

__all__ = ["matmul", "batch_matmul", "matvec", "matrix_transpose", "trace", "tensordot", "norm"]


def _matmul(a: np.ndarray, b: np.ndarray, transpose_a: bool = False, transpose_b: bool = False) -> np.ndarray:
    x = np.swapaxes(a, -1, -2) if transpose_a else a
    y = np.swapaxes(b, -1, -2) if transpose_b else b
    if x.dtype.itemsize == 2 and x.dtype.kind == "f" or x.dtype.name == "bfloat16":
        # float16/bfloat16: TF 2.21's CPU kernels accumulate in float32 and round once (measured
        # bit-exact); NumPy has no BLAS for them (its float16 loop is ~100x slower), so float32 BLAS.
        if x.dtype == np.float16 and x.ndim >= 2 and y.ndim >= 2:
            return _half_matmul_f32(x, y, transpose_a)
        if x.ndim >= 2 and y.ndim >= 2 and host_cpu.current().onednn_supports("bfloat16") and not context.in_xla():
            from simdist.runtime.ops.onednn_half_matmul import bfloat16_sum   # (oneDNN's bfloat16 kernels)
            return _nan_payloads_kept(bfloat16_sum(x.astype(np.float32), y.astype(np.float32), transpose_a), x.dtype)
        from simdist.runtime.ops.contraction_order import matmul
        return half_result(matmul(x.astype(np.float32), y.astype(np.float32)), x.dtype)
    from simdist.runtime.ops.contraction_order import (complex_gebp, matmul, needs_order, ordered_matmul, row_in_order,
                                                       takes_gebp)
    if takes_gebp(x, y):   # (complex: Eigen's GEBP, its four real sums and alpha's complex product)
        return complex_gebp(x, y)
    from simdist.runtime.ops.contraction_order import complex_lazy, takes_complex_lazy
    if takes_complex_lazy(x, y, transpose_a or transpose_b):   # (small batched complex: Eigen's lazy product,
        return complex_lazy(x, y, transpose_a, transpose_b)     # clause ops.complex-gebp-order)
    from simdist.runtime.ops.contraction_order import complex_gemv
    cgemv = complex_gemv(x, y, transpose_a, transpose_b)
    if cgemv is not None:   # (complex, one row or column of a row-major matrix: Eigen's GEMV, ops.complex-gebp-order)
        return cgemv
    from simdist.runtime.ops.contraction_order import eigen_batched_in_order, eigen_in_order, eigen_pairs, paired_matmul
    if eigen_in_order(x, y, transpose_b) or eigen_batched_in_order(x, y, transpose_b):
        # (a host without oneDNN: Eigen's order, rounded products)
        return ordered_matmul(x, y, fused=False)
    if eigen_pairs(x, y):   # (a host without oneDNN: Eigen's two accumulators of a small product)
        return paired_matmul(x, y)
    from simdist.runtime.ops import onednn_matmul
    if onednn_matmul.applies_one_row(x, y, transpose_a, transpose_b):   # (oneDNN's kernel of one row, kopen57)
        return onednn_matmul.one_row_transposed_b(x, y)
    if onednn_matmul.applies_matvec(x, y, transpose_a, transpose_b):   # (oneDNN's one column: one-row dot products)
        return onednn_matmul.matvec(x, y)
    if onednn_matmul.applies_matvec_transposed(x, y, transpose_a, transpose_b):   # (x^T @ column: k in order)
        return onednn_matmul.split_gemv(x, y)   # (in parts where oneDNN's threads split k)
    if onednn_matmul.applies_row_split(x, y, transpose_a, transpose_b):   # (one row whose k oneDNN's threads split)
        return onednn_matmul.split_gemv(x, y)
    if onednn_matmul.applies(x, y, transpose_a, transpose_b):   # (oneDNN's dot-product kernel of a few rows)
        return onednn_matmul.matmul_transposed_b(x, y)
    if onednn_matmul.in_order(x, y, transpose_a, transpose_b):
        # (oneDNN's plain product: k in blocks in order, fused multiply-adds; infinities and NaNs too)
        return onednn_matmul.plain(x, y, transpose_a, transpose_b)
    from simdist.runtime.ops.contraction_order import float64_gebp, takes_float64_gebp
    if takes_float64_gebp(x, y):   # (float64: Eigen's GEBP kernel's accumulators, clause ops.float64-gebp-order)
        return float64_gebp(x, y)
    from simdist.runtime.ops.contraction_order import float64_gemv
    gemv64 = float64_gemv(x, y, transpose_a, transpose_b)
    if gemv64 is not None:   # (float64, one row or one column: Eigen's GEMV kernels, clause ops.float64-gebp-order)
        return gemv64
    if x.ndim >= 2 and y.ndim >= 2:
        if needs_order(x, y):   # infinities and overflows in TF's order (contraction_order.py)
            return ordered_matmul(x, y, fused=not (transpose_b and not transpose_a))
        if not transpose_b and row_in_order(x, y):   # one row: TF's order, to the last bit
            return ordered_matmul(x, y)
    # float64 and complex in order, without BLAS (whose order depends on the CPU: ops.host-cpu);
    # float32 on BLAS for speed (contraction_order.matmul)
    return matmul(x, y)


def _parts_flushed(a: np.ndarray) -> np.ndarray:
    """A complex array with each subnormal part a zero of its sign (another dtype: as it is)."""
    if a.dtype.kind != "c" or a.size == 0:
        return a
    tiny = np.finfo(a.real.dtype).tiny
    re, im = a.real, a.imag
    sub_re, sub_im = (np.abs(re) < tiny) & (re != 0), (np.abs(im) < tiny) & (im != 0)
    if not (sub_re.any() or sub_im.any()):
        return a
    out = np.array(a, copy=True)
    out.real = np.where(sub_re, re * re.dtype.type(0), re)
    out.imag = np.where(sub_im, im * im.dtype.type(0), im)
    return out


def _complex_daz(forward: Any) -> Any:
    """A MatMul/BatchMatMulV2 forward that, for complex operands, reads subnormal parts as zeros and flushes the
    result's (DAZ and FTZ: TF 2.21's kernel threads run under port::ScopedFlushDenormal, as its complex Mul,
    complex_mul.py; dispatch's subnormal rule covers the real dtypes only). `[[1e-40 - 7.25j, 3]] @ [[-infj],
    [1e10 + 3j]]` is -inf + NaNj (0 * -inf in the imaginary part), not -inf - infj; a product of 1e-20 parts is 0j
    (fz49, third generator --ext8 seed 4703 #100; observed on TF 2.21 for GEMV, GEBP, k = 1 and batched shapes,
    complex64 and complex128)."""
    def run(a: np.ndarray, b: np.ndarray, *args: Any, **kw: Any) -> np.ndarray:
        if a.dtype.kind != "c":
            return forward(a, b, *args, **kw)
        return _parts_flushed(forward(_parts_flushed(a), _parts_flushed(b), *args, **kw))
    run.__name__, run.__doc__ = forward.__name__, forward.__doc__
    return run


def _matmul_op(a: np.ndarray, b: np.ndarray, transpose_a: bool = False, transpose_b: bool = False,
               a_is_sparse: bool = False, b_is_sparse: bool = False) -> np.ndarray:
    """MatMul's forward: `_matmul`, and a small matrix-vector product in the order of TF's kernel
    (contraction_order.gemv_in_order); SparseMatMul's (a sparse flag) where that is not finite."""
    from simdist.runtime.ops.contraction_order import gemv_in_order, lazy_transposed, lazy_transposed_matmul, \
        ordered_matmul
    x = np.swapaxes(a, -1, -2) if transpose_a else a
    y = np.swapaxes(b, -1, -2) if transpose_b else b
    if not (a_is_sparse or b_is_sparse) and lazy_transposed(x, y, transpose_a, transpose_b):
        # (TF 2.21's MatMul is the batch kernel with one batch: a transposed product with m, k or n of 1 takes
        # Eigen's lazy product; 309 of 309 seeded products, fz46b: pinv of a column's -0.0, fz44_gen seed 44008)
        return lazy_transposed_matmul(x, y, transpose_a, transpose_b)
    gemv = None if a_is_sparse or b_is_sparse else _eigen_matvec(a, b, transpose_a, transpose_b)
    if gemv is not None:   # (TF's own kernel's matrix-vector order: contraction_order.eigen_gemv)
        out = gemv
    elif not transpose_a and not transpose_b and gemv_in_order(a, b):
        if host_cpu.current().onednn_supports("float32"):
            # (oneDNN's matrix-vector kernel, whose pieces of 2 and 1 sum k <= 3 to the in-order values; its NaNs: the
            # column's NaN first in a product, p2 + (p0 + p1) keeps p2's, then p0's; msweep63's m-f32-one-column and
            # /work/wt/msweep63_logs/p_k3.py, 88 pairs of tagged NaNs, m 2..17, k 1..3, on TF 2.21 on the Xeon; its
            # products and sums flushed as TF's FTZ flushes them, an exact subnormal sum too: fix63m, p_sub.py)
            from simdist.runtime.ops import onednn_matmul
            out = onednn_matmul.matvec(a, b)
        else:
            out = ordered_matmul(a, b, fused=False)
    else:
        out = _matmul(a, b, transpose_a, transpose_b)
    if a_is_sparse or b_is_sparse:
        out = _sparse_products(a, b, transpose_a, transpose_b, a_is_sparse, b_is_sparse, out)
    return out


def _sparse_products(a: np.ndarray, b: np.ndarray, transpose_a: bool, transpose_b: bool, a_is_sparse: bool,
                     b_is_sparse: bool, out: np.ndarray) -> np.ndarray:
    """SparseMatMul skips the zero entries of its sparse operand(s): no 0 * inf there, so
    `matmul([[1, 0], [0, 2]], [[inf, 1], [nan, 3]], a_is_sparse=True)` is [[inf, 1], [nan, 6]]
    (fz35b, third generator --ext8 seed 3503 #245; measured on TF 2.21). Where the dense product is
    finite the skipped terms are zeros and change nothing; elsewhere the sum of the kept products,
    added in order in float32."""
    bad = ~np.isfinite(out)
    if not bad.any():
        return out
    x = (a.T if transpose_a else a).astype(np.float32)
    y = (b.T if transpose_b else b).astype(np.float32)
    acc = np.zeros(out.shape, np.float32)
    with np.errstate(all="ignore"):
        for k in range(x.shape[1]):
            keep = np.ones(out.shape, bool)
            if a_is_sparse:
                keep &= (x[:, k:k + 1] != 0)
            if b_is_sparse:
                keep &= (y[k:k + 1, :] != 0)
            acc += np.where(keep, x[:, k:k + 1] * y[k:k + 1, :], np.float32(0))
    return np.where(bad, acc.astype(out.dtype), out)


def _truncated_bfloat16(out: np.ndarray, dtype: Any) -> np.ndarray:
    """A float32 product as TF 2.21's own (Eigen) bfloat16 MatMul/BatchMatMulV2 kernel returns it where oneDNN does
    not take bfloat16 (an AVX2-only CPU): the float32 sum truncated to bfloat16 (its low 16 bits dropped), not
    rounded. Observed bit for bit on the AMD EPYC host (kfuzz47: 15x10x4, 3x4x2, 64x64x64, 200x300x50, 1x7x5 and
    7x1x3 products and a batch of three, 0 of 14,240 elements apart; rounded to nearest, 28-50% of them one ulp
    apart); bfloat16 Conv2D, Mul and Add round to nearest there. A Dense under mixed_bfloat16 drifted by it
    (training fuzzer seed 4720261201)."""
    bits = np.ascontiguousarray(out, dtype=np.float32).view(np.uint32) & np.uint32(0xFFFF0000)
    return bits.view(np.float32).astype(dtype)   # (exact: the dropped bits are zeros)


def half_result(out: np.ndarray, dtype: Any) -> np.ndarray:
    """A float16/bfloat16 MatMul's float32 sum as TF 2.21's CPU kernel returns it: rounded to float16; truncated to
    bfloat16 where oneDNN does not take bfloat16 (`_truncated_bfloat16`), else rounded."""
    if np.dtype(dtype).name == "bfloat16" and not host_cpu.current().onednn_supports("bfloat16") \
            and not context.in_xla():
        return _truncated_bfloat16(out, dtype)
    return out.astype(dtype)


def _nan_payloads_kept(out: np.ndarray, dtype: Any) -> np.ndarray:
    """oneDNN's bfloat16 product's float32 sum `out` rounded to bfloat16 (half_result), a NaN keeping its sign and
    the payload's upper bits (vcvtneps2bf16 truncates a NaN; ml_dtypes' cast returns the default NaN): msweep63's
    m-bf16-matmul, tagged NaNs 0x7fd2 and 0xfff2 come back from TF 2.21's MatMul as they went in."""
    rounded = half_result(out, dtype)
    nan = np.isnan(out)
    if not nan.any():
        return rounded
    top = (np.ascontiguousarray(out, dtype=np.float32).view(np.uint32) >> np.uint32(16)).astype(np.uint16)
    bits = np.where(nan, top | np.uint16(0x40), np.asarray(rounded).view(np.uint16))
    return bits.view(rounded.dtype)


def _half_matmul_f32(x: np.ndarray, y: np.ndarray, transpose_a: bool = False) -> np.ndarray:
    """float16 MatMul/BatchMatMulV2 as TF 2.21's CPU kernel computes it: in float32 (the products
    of float16 values are exact), k added one after another from +0, rounded to float16 once; where oneDNN takes
    float16 (an AVX512-FP16 host, outside XLA) k in blocks, each summed so, the blocks' sums added in order
    (onednn_half_matmul.float16_blocks)."""
    from simdist.runtime.ops import onednn_half_matmul
    xf, yf = x.astype(np.float32), y.astype(np.float32)
    if host_cpu.current().onednn_supports("float16") and not context.in_xla():
        return onednn_half_matmul.float16_blocks(xf, yf, transpose_a).astype(np.float16)
    with np.errstate(over="ignore", invalid="ignore"):
        return onednn_half_matmul.in_order_f32(xf, yf).astype(np.float16)


def _matmul_flops(arrays: Any, out: np.ndarray, attrs: Any) -> float:
    a = arrays[0]
    k = a.shape[-2] if attrs and attrs.get("transpose_a") else a.shape[-1]
    return 2.0 * out.size * k


_MATMUL_T = "bfloat16, half, float, double, int32, int64, uint8, uint16, uint32, uint64, complex64, complex128"


def _rows_contracted(attrs: dict, lane_shapes: list) -> bool:
    """x^T·g of two matrices (transpose_a only) contracts over the batch rows."""
    return bool(attrs.get("transpose_a")) and not attrs.get("transpose_b") and len(lane_shapes[0]) == 2 \
        and len(lane_shapes[1]) == 2


def _matmul_rule(name: str, ints: tuple[str, ...]) -> Any:
    """MatMul's op def takes the floats, int32, int64 and the unsigned types (BatchMatMulV2 int16
    too), but TF's CPU kernels no unsigned type: NotFoundError; int8 and bool: InvalidArgumentError."""
    base = args.allowed(name, "fiuc", _MATMUL_T if name == "MatMul" else _MATMUL_T + ", int16")

    def rule(dts: Any, attrs: Any) -> Any:
        d = base(dts, attrs)
        if d.kind == "i" and d.name not in ints:
            raise trace_errors.not_allowed(errors.InvalidArgumentError(
                None, None, f"Value for attr 'T' of {args.tf_name(d)} is not in the list of allowed values: {_MATMUL_T} "
                f"[Op:{name}]"), name, d, _MATMUL_T)
        if d.kind == "u":
            raise errors.NotFoundError(None, None, f"Could not find device for node: {{{{node {name}}}}} = "
                                       f"{name}[T=DT_{d.name.upper()}] [Op:{name}]")
        return d
    return rule


MATMUL = register("MatMul", _complex_daz(_matmul_op), _matmul_rule("MatMul", ("int32", "int64")), _matmul_flops,
                  kind="contraction", fusion=MATMUL_ROWS, sums=_rows_contracted, bare=_complex_daz(_matmul_op))
# (bare: a replay calls the forward itself, without dispatch's wrapper; a shortcut of its own once skipped the
# host's paired order, so a fit's traced step and an eager loop differed in the last bit on an AVX2-only host)


def _eigen_matvec(a: np.ndarray, b: np.ndarray, transpose_a: bool, transpose_b: bool) -> np.ndarray | None:
    """A float32 product with one column (y [..., k, 1], y given as [..., 1, k] with transpose_b) as TF 2.21's own
    kernel computes each matrix where oneDNN does not run float32, else None: SequentialMatMulKernel's Eigen
    product for each batch member (batch_matmul: the smallest dimension 1 takes it whatever the batch), the
    row-major GEMV (`contraction_order.eigen_gemv`; y^T of a row is a contiguous column) or, with transpose_a, the
    column-major one (`eigen_gemv_transposed`). Measured on the AMD EPYC host: 48 of 48 seeded batches of three of
    each (m in 2..100, k in 3..256), and 44 of 48 with transpose_b (the 4 others are the coefficient-based region
    `lazy_transposed` keeps). Not with both transposed (not measured)."""
    from simdist.runtime.ops.contraction_order import eigen_gemv, eigen_gemv_transposed
    if transpose_a and transpose_b:
        return None
    if a.dtype.name != "float32" or b.dtype.name != "float32" or a.ndim < 2 or b.ndim < 2:
        return None
    if (b.shape[-2] if transpose_b else b.shape[-1]) != 1:
        return None
    batch = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    aa = np.broadcast_to(a, batch + a.shape[-2:])
    bb = np.broadcast_to(b, batch + b.shape[-2:])
    outs = []
    for idx in np.ndindex(*batch):
        xa, yb = aa[idx], bb[idx]
        y = np.ascontiguousarray(yb.T) if transpose_b else yb
        got = eigen_gemv_transposed(xa, y) if transpose_a else eigen_gemv(np.ascontiguousarray(xa), y)
        if got is None:
            return None
        outs.append(got)
    if not outs:
        return None
    m = outs[0].shape[0]
    return np.stack(outs).reshape(batch + (m, 1))


def _batch_matmul(a: np.ndarray, b: np.ndarray, transpose_a: bool = False, transpose_b: bool = False) -> np.ndarray:
    """BatchMatMulV2's forward: `_matmul`, except oneDNN's batched float32 product (onednn_matmul.batched) and
    Eigen's coefficient-based product of the kernel's outer-parallel
    path with an operand transposed (contraction_order.lazy_transposed: the sum from the first product)."""
    from simdist.runtime.ops.contraction_order import lazy_transposed, lazy_transposed_matmul
    x = np.swapaxes(a, -1, -2) if transpose_a else a
    y = np.swapaxes(b, -1, -2) if transpose_b else b
    from simdist.runtime.ops import onednn_matmul
    if onednn_matmul.batched_in_order(x, y):   # (oneDNN's batched float32 product: k in blocks of 512 in order)
        return onednn_matmul.batched(x, y)
    if lazy_transposed(x, y, transpose_a, transpose_b):
        return lazy_transposed_matmul(x, y, transpose_a, transpose_b)
    gemv = _eigen_matvec(a, b, transpose_a, transpose_b)   # (one column: TF's own kernel's GEMV orders)
    if gemv is not None:
        return gemv
    return _matmul(a, b, transpose_a, transpose_b)


BATCH_MATMUL = register("BatchMatMulV2", _complex_daz(_batch_matmul), _matmul_rule("BatchMatMulV2", ("int16", "int32", "int64")), _matmul_flops,
                        kind="contraction", fusion=BATCH_MATMUL_ROWS)
MATMUL.dtype = kernel_first("MatMul", MATMUL.dtype)
BATCH_MATMUL.dtype = kernel_first("BatchMatMulV2", BATCH_MATMUL.dtype)


def _v3_bfloat16(a: np.ndarray, b: np.ndarray, transpose_a: bool = False, transpose_b: bool = False) -> np.ndarray:
    """BatchMatMulV3 of bfloat16 operands into bfloat16 (Ta = Tb = Tout): TF 2.21's kernel sums each element's
    products over k in order, in float32 with fused multiply-adds from +0, and truncates the sum to bfloat16 (its
    FloatToBFloat16; a NaN stays NaN), where BatchMatMulV2 rounds oneDNN's product (onednn59's measurement,
    /work/wt/onednn59_logs/fit_v3bf.py, fit_v3bf2.py: every element of 12 products, k 3..5,000, adjoint flags, batch
    1-4, but 1 of 2,640; fz61)."""
    from simdist.runtime.ops.contraction_order import ordered_matmul
    x = np.swapaxes(a, -1, -2) if transpose_a else a
    y = np.swapaxes(b, -1, -2) if transpose_b else b
    out = ordered_matmul(np.ascontiguousarray(x.astype(np.float32)), np.ascontiguousarray(y.astype(np.float32)))
    cut = (np.asarray(out, np.float32).view(np.uint32) & np.uint32(0xFFFF0000)).view(np.float32)
    return np.where(np.isnan(out), out, cut).astype(a.dtype)


BATCH_MATMUL_V3_BF16 = register("BatchMatMulV3", _v3_bfloat16, args.first, _matmul_flops, kind="contraction",
                                fusion=lanes("a raw op's product, rare: each replica's call on its own"))


def _raw_v3(**kw: Any) -> Any:
    """tf.raw_ops.BatchMatMulV3 (raw_legacy's form: its checks, the cast to Tout, this op for bfloat16)."""
    from simdist.runtime.ops import raw_legacy
    return raw_legacy._batch_matmul_v3(**kw)


set_raw_args("BatchMatMulV3", RawArgs(via=_raw_v3))


def batch_matmul(a: Any, b: Any, adjoint_a: bool = False, adjoint_b: bool = False) -> Tensor:
    """BatchMatMulV2 at every rank (tf.raw_ops' form: its int16 kernel multiplies matrices too; fuzz20 seed
    2920261201 #168)."""
    return _matmul_call(a, b, False, False, adjoint_a, adjoint_b, False, False, None, False, False, _batched=True)


def _kernel_first(op: Any, dt: dtypes.DType) -> errors.NotFoundError | None:
    """The op's dtype rule before its shapes, as eager TF looks the kernel up before it runs: a
    refused type raises here; a type without a CPU kernel (unsigned) is returned, to be raised
    before the kernel's shape errors eagerly and after the shape function's inside a tf.function
    (a graph places its nodes after building them)."""
    try:
        op.dtype((dt, dt), None)
    except errors.NotFoundError as e:
        return e
    return None


def matmul(a: Any, b: Any, transpose_a: bool = False, transpose_b: bool = False, adjoint_a: bool = False,
           adjoint_b: bool = False, a_is_sparse: bool = False, b_is_sparse: bool = False, output_type: Any = None,
           grad_a: bool = False, grad_b: bool = False, name: str | None = None) -> Tensor:
    """`tf.matmul` (rank 2: MatMul; higher ranks: BatchMatMulV2 with broadcast batch dims);
    counts 2*m*n*k FLOPs. Inside a tf.function its node is named by math_ops.matmul's scope, `MatMul` or `name`
    (runtime/graph_names.py)."""
    args = (a, b, transpose_a, transpose_b, adjoint_a, adjoint_b, a_is_sparse, b_is_sparse, output_type, grad_a, grad_b)
    if not context._function_depth:
        return _matmul_call(*args)
    with graph_names.op_scope(name or "MatMul", "MatMul", "BatchMatMulV2"):
        return _matmul_call(*args)


def _flags_taken(ta: Tensor, tb: Tensor, transpose_a: Any, transpose_b: Any, adjoint_a: Any, adjoint_b: Any,
                 a_is_sparse: Any, b_is_sparse: Any) -> None:
    """The truths math_ops.matmul takes of its flags once a and b are tensors: `(not a_is_sparse and not
    b_is_sparse) and (a rank > 2 or b rank > 2 or unknown)` picks the batch path, which takes `if transpose_a`,
    `if transpose_b`; the other path `if adjoint_a`, `if adjoint_b`. A graph tensor there is
    OperatorNotAllowedInGraphError inside a tf.function (symbolic.flag; fz65)."""
    from simdist.runtime.ops import static_shapes
    ka, kb = static_shapes.known_shape(ta), static_shapes.known_shape(tb)
    batch = (not symbolic.flag(a_is_sparse) and not symbolic.flag(b_is_sparse)) and \
        (ka is None or kb is None or len(ka) > 2 or len(kb) > 2)
    for f in ((transpose_a, transpose_b) if batch else (adjoint_a, adjoint_b)):
        symbolic.flag(f)


def _matmul_call(a: Any, b: Any, transpose_a: bool = False, transpose_b: bool = False, adjoint_a: bool = False,
                 adjoint_b: bool = False, a_is_sparse: bool = False, b_is_sparse: bool = False, output_type: Any = None,
                 grad_a: bool = False, grad_b: bool = False, *, _batched: bool = False) -> Tensor:
    for x, adj, which in ((transpose_a, adjoint_a, "a"), (transpose_b, adjoint_b, "b")):
        if symbolic.flag(x) and symbolic.flag(adj):   # (math_ops.matmul, before converting anything)
            raise ValueError(f"Only one of `transpose_{which}` and `adjoint_{which}` can be True. Received "
                             f"`transpose_{which}`={x}, `adjoint_{which}`={adj}.")
    ta = _t(a)
    # (TF converts b with a's dtype as its hint: a Python list or NumPy array beside a float16 a is float16)
    tb = _t(b) if isinstance(b, Tensor) or hasattr(b, "_as_tensor") else convert_to_tensor(b, dtype_hint=ta.dtype)
    _flags_taken(ta, tb, transpose_a, transpose_b, adjoint_a, adjoint_b, a_is_sparse, b_is_sparse)
    _conjugated(ta, tb, transpose_a, transpose_b, adjoint_a, adjoint_b, a_is_sparse, b_is_sparse)
    sparse = _check_attrs(ta, tb, transpose_a, transpose_b, adjoint_a, adjoint_b, a_is_sparse, b_is_sparse, grad_a,
                          grad_b)
    if sparse and ta.dtype != tb.dtype and not output_type:
        # (SparseMatMul of float32 and bfloat16: both read as float32, a float32 product; fz35b)
        from simdist.runtime.ops.math import cast
        return matmul(cast(ta, dtypes.float32), cast(tb, dtypes.float32), transpose_a=bool(transpose_a or adjoint_a),
                      transpose_b=bool(transpose_b or adjoint_b), a_is_sparse=a_is_sparse, b_is_sparse=b_is_sparse)
    if output_type and _batch_matmul_v3(ta, tb, output_type, a_is_sparse, b_is_sparse):
        # (the adj attrs as math_ops.matmul passes them, checked by make_bool before anything else: on the
        # batch path `True` for a truthy transpose, else the adjoint as given; on the other `adjoint or
        # transpose`, so `adjoint_b=np.bool_(True)` is TypeError "Expected bool for argument 'adj_y' not
        # np.True_."; fz35b, fourteenth generator seed 1420353003 #52)
        from simdist.runtime.ops import static_shapes
        ka, kb = static_shapes.known_shape(ta), static_shapes.known_shape(tb)
        if (ka is None or kb is None or len(ka) > 2 or len(kb) > 2) and not (a_is_sparse or b_is_sparse):
            adj_x, adj_y = (True if transpose_a else adjoint_a), (True if transpose_b else adjoint_b)
        else:
            adj_x, adj_y = (adjoint_a or transpose_a), (adjoint_b or transpose_b)
        attr_rules.check("BatchMatMulV3", adj_x=adj_x, adj_y=adj_y, grad_x=grad_a, grad_y=grad_b)
        return _matmul_v3(ta, tb, dtypes.as_dtype(output_type), bool(transpose_a or adjoint_a),
                          bool(transpose_b or adjoint_b), grad_a, grad_b)
    if (adjoint_a or adjoint_b) and ta.dtype.kind == "c" and tb.dtype == ta.dtype:   # the adjoint: conjugated too
        from simdist.runtime.ops.complex_math import conj
        ta, tb = (conj(ta) if adjoint_a else ta), (conj(tb) if adjoint_b else tb)
    transpose_a = bool(transpose_a or adjoint_a)
    transpose_b = bool(transpose_b or adjoint_b)
    sa, sb = ta.shape.as_list(), tb.shape.as_list()
    # (eagerly the kernel lookup for a's type precedes the comparison of b's: cpu_kernels)
    lookup("BatchMatMulV2" if (_batched or len(sa) > 2 or len(sb) > 2) and not (a_is_sparse or b_is_sparse) else "MatMul", ta.dtype)
    if tb.dtype is not ta.dtype and tb.dtype != ta.dtype:
        err = args.dtype_error("MatMul", 1, ta.dtype, tb.dtype)
        op = "BatchMatMulV2" if _batched or len(sa) > 2 or len(sb) > 2 else "MatMul"
        raise trace_errors.dtype_mismatch(err, op, 1, ta.dtype, tb.dtype)
    batched = _batched or len(sa) > 2 or len(sb) > 2
    if (a_is_sparse or b_is_sparse) and batched:
        # math_ops.matmul takes its batch path only without the sparse flags: MatMul (or
        # SparseMatMul) then refuses a rank above 2 (third fuzzer, seed 54 #16)
        which = 0 if len(sa) > 2 else 1
        bad = sa if which == 0 else sb
        raise trace_errors.shape_error(f"In[{which}] is not a matrix. Instead it has shape {args.dims(bad)} [Op:MatMul]",
                                       f"Shape must be rank 2 but is rank {len(bad)}", "MatMul", (sa, sb))
    no_kernel = _kernel_first(BATCH_MATMUL if batched else MATMUL, ta.dtype)
    from simdist.runtime.ops import static_shapes
    ka, kb = static_shapes.known_shape(ta), static_shapes.known_shape(tb)   # (None: a rank the graph does not know)
    if (ka is None or kb is None) and not (a_is_sparse or b_is_sparse):
        batched = True   # (math_ops.matmul: an operand of unknown rank takes BatchMatMulV2, of unknown rank out)
    low = len(sa) if len(sa) < 2 else len(sb)
    if (len(sa) < 2 or len(sb) < 2) and (ka is None or kb is None):
        # a graph input of unknown rank: math_ops.matmul builds BatchMatMulV2, whose shape function
        # checks the operand whose rank it knows (`x @ 2`: fz4 seed 21 #30); when that one is not
        # the low one, the kernel refuses the pair as the graph runs (seed 54 #113)
        known_low = next((len(k) for k in (ka, kb) if k is not None and len(k) < 2), None)
        if known_low is None:
            raise no_kernel or errors.InvalidArgumentError(
                None, None, f"In[0] and In[1] has different ndims: {args.dims(sa)} vs. {args.dims(sb)} [Op:MatMul]")
        low, batched = known_low, True
    if len(sa) < 2 or len(sb) < 2:   # traced: MatMul's (BatchMatMulV2's) shape function
        if no_kernel:   # (eagerly the missing kernel; traced, the shape function runs first)
            raise trace_errors.mark_shape(no_kernel, f"Shape must be {'at least ' if batched else ''}rank 2 but is "
                                                     f"rank {low}", "BatchMatMulV2" if batched else "MatMul", (sa, sb))
        raise trace_errors.shape_error(
            f"In[0] and In[1] has different ndims: {args.dims(sa)} vs. {args.dims(sb)} [Op:MatMul]",
            f"Shape must be {'at least ' if batched else ''}rank 2 but is rank {low}",
            "BatchMatMulV2" if batched else "MatMul", (sa, sb))
    xa = sa[:-2] + (sa[-2:][::-1] if transpose_a else sa[-2:])
    xb = sb[:-2] + (sb[-2:][::-1] if transpose_b else sb[-2:])
    if xa[-1] != xb[-2]:
        traced = f"Dimensions must be equal, but are {xa[-1]} and {xb[-2]}"
        inner_a = None if ka is None else (ka[-2] if transpose_a else ka[-1])
        inner_b = None if kb is None else (kb[-1] if transpose_b else kb[-2])
        if no_kernel is None and (inner_a is None or inner_b is None):
            # a dimension the graph does not know: the kernel's error, when the graph runs (a dry run
            # goes on with the shape function's [..., m, n]: rgb_to_yuv's tensordot, then `^`; fz27b)
            err = errors.InvalidArgumentError(
                None, None, f"Matrix size-incompatible: In[0]: {args.dims(sa)}, In[1]: {args.dims(sb)} "
                f"[Op:{'BatchMatMulV2' if batched else 'MatMul'}]")
            try:
                batch = list(np.broadcast_shapes(tuple(sa[:-2]), tuple(sb[:-2])))
            except ValueError:
                raise err from None
            standin = dispatch.refused(err, ta.dtype, batch + [xa[-2], xb[-1]], pruned=True)
            return static_shapes.standin("BatchMatMulV2" if batched else "MatMul", (ta, tb), standin,
                                         {"transpose_a": transpose_a, "transpose_b": transpose_b})
        if no_kernel is not None:
            if inner_a is None or inner_b is None:
                # (the shape function passes a dimension the graph does not know: the missing kernel, when the
                # graph runs; fz38b, fz14 seed 1420383001 #48: a uint16 TensorSpec(None) @ a list)
                raise no_kernel
            raise trace_errors.mark_shape(no_kernel, traced, "BatchMatMulV2" if batched else "MatMul", (sa, sb))
        if batched:
            raise trace_errors.shape_error(
                f"Matrix size-incompatible: In[0]: {args.dims(sa)}, In[1]: {args.dims(sb)} "
                f"{int(transpose_a)} {int(transpose_b)} [Op:BatchMatMulV2]", traced, "BatchMatMulV2", (sa, sb))
        raise trace_errors.shape_error(f"Matrix size-incompatible: In[0]: {args.dims(sa)}, In[1]: {args.dims(sb)} "
                                       "[Op:MatMul]", traced, "MatMul", (sa, sb))
    attrs = {"transpose_a": transpose_a, "transpose_b": transpose_b} if transpose_a or transpose_b else None
    if sparse and (a_is_sparse or b_is_sparse) and not batched:   # (SparseMatMul's zero skipping: `_sparse_products`)
        attrs = dict(attrs or {}, a_is_sparse=bool(a_is_sparse), b_is_sparse=bool(b_is_sparse))
    if no_kernel is not None:
        raise no_kernel
    if batched:
        try:
            np.broadcast_shapes(tuple(sa[:-2]), tuple(sb[:-2]))
        except ValueError:
            eager = (f"In[0] and In[1] must have compatible batch dimensions: {args.dims(sa)} vs. {args.dims(sb)} "
                     "[Op:BatchMatMulV2]")
            if not _known_batches_clash(ka, kb):
                # a batch dimension the graph does not know: BatchMatMulV2Shape's broadcast passes it,
                # and the kernel refuses the pair as the graph runs (fuzz20 seed 20202612013 #4, sig)
                raise errors.InvalidArgumentError(None, None, eager) from None
            raise trace_errors.shape_error(eager, trace_errors.broadcast_text(sa[:-2], sb[:-2]), "BatchMatMulV2",
                                           (sa, sb)) from None
        return dispatch.execute(BATCH_MATMUL, (ta, tb), attrs)
    return dispatch.execute(MATMUL, (ta, tb), attrs)


def raw_matmul_check(args_: dict) -> None:
    """A raw MatMul's kernel checks (TF 2.21's CPU MatMul, observed: the batch-matmul kernel's order and
    texts), which simdist's public matmul makes itself: the two ranks equal, then 2, then the inner
    dimensions (fuzz20 tape seed 2420261203 #92: a [4, 1, 3] by [1, 3] product was computed)."""
    sa, sb = args_["a"].shape.as_list(), args_["b"].shape.as_list()
    if len(sa) != len(sb):
        raise errors.InvalidArgumentError(None, None, f"In[0] and In[1] has different ndims: {args.dims(sa)} vs. "
                                                      f"{args.dims(sb)} [Op:MatMul]")
    if len(sa) != 2:
        raise errors.InvalidArgumentError(None, None, f"In[0] and In[1] ndims must be == 2: {len(sa)} [Op:MatMul]")
    inner_a = sa[0] if args_["transpose_a"] else sa[1]
    inner_b = sb[1] if args_["transpose_b"] else sb[0]
    if inner_a != inner_b:
        raise errors.InvalidArgumentError(None, None, f"Matrix size-incompatible: In[0]: {args.dims(sa)}, In[1]: "
                                                      f"{args.dims(sb)} [Op:MatMul]")


def _known_batches_clash(ka: list | None, kb: list | None) -> bool:
    """Whether BatchMatMulV2Shape's broadcast of the batch dimensions the graph knows fails (two
    known dimensions that differ, neither 1: BroadcastBinaryOpOutputShapeFnHelper)."""
    if ka is None or kb is None:
        return False
    from simdist.runtime.ops import infer_ctx
    try:
        infer_ctx.Ctx("BatchMatMulV2", {}, {}, {}).broadcast(ka[:-2], kb[:-2])
    except infer_ctx.ShapeFnError:
        return True
    return False


_SPARSE_TYPES = ("bfloat16", "float32")
# BatchMatMulV3's CPU kernels of mixed types in TF 2.21 (batch_matmul_op_real.cc; listed by TF's
# NotFoundError): (Ta, Tb) -> Tout
_V3_MIXED = {("uint8", "uint8"): "int32", ("int8", "uint8"): "int32", ("uint8", "int8"): "int32",
             ("int8", "int8"): "int32", ("uint8", "bfloat16"): "bfloat16", ("int8", "bfloat16"): "bfloat16",
             ("bfloat16", "uint8"): "bfloat16", ("bfloat16", "int8"): "bfloat16"}


# BatchMatMulV3's OpDef: Ta and Tb (_V3_IN), Tout (_V3_TOUT)
_V3_IN = ("bfloat16", "float16", "float32", "float64", "uint8", "int8", "int16", "int32", "int64", "complex64",
          "complex128")
_V3_TOUT = ("bfloat16", "float16", "float32", "float64", "int16", "int32", "int64", "complex64", "complex128")


def _batch_matmul_v3(ta: Tensor, tb: Tensor, output_type: Any, a_is_sparse: Any, b_is_sparse: Any) -> bool:
    """Whether math_ops.matmul builds BatchMatMulV3 (Ta, Tb, Tout): an output_type unlike a's or b's
    dtype, unless a rank-2 product takes SparseMatMul first (a sparse flag with both operands
    bfloat16 or float32, or bfloat16 beside another dtype but int8/uint8)."""
    tout = dtypes.as_dtype(output_type)
    if tout == ta.dtype and tout == tb.dtype:
        return False
    if (ta.ndim > 2 or tb.ndim > 2) and not (a_is_sparse or b_is_sparse):
        return True
    # (a sparse flag beside an operand above rank 2 takes matmul's second path too: SparseMatMul only for its
    # types, else BatchMatMulV3; fz40, fourteenth generator seed 1420403002 #53)
    sparse = bool(a_is_sparse or b_is_sparse) and ta.dtype.name in _SPARSE_TYPES and tb.dtype.name in _SPARSE_TYPES
    mixed_bf16 = ta.dtype != tb.dtype and (
        (ta.dtype.name == "bfloat16" and tb.dtype.name not in ("int8", "uint8")) or
        (tb.dtype.name == "bfloat16" and ta.dtype.name not in ("int8", "uint8")))
    return not (sparse or mixed_bf16)


def _matmul_v3(ta: Tensor, tb: Tensor, tout: Any, adj_a: bool, adj_b: bool, grad_a: Any, grad_b: Any) -> Tensor:
    """`tf.matmul(..., output_type=T)` through BatchMatMulV3 (clause ops.attr-types, fz20): its
    CPU kernel exists for (T, T, T) and the mixed types of _V3_MIXED only (else NotFoundError, before
    any shape check); the kernel casts each operand to Tout and multiplies them in Tout, which
    simdist does with Cast and MatMul/BatchMatMulV2 (the values and their cost are those ops'; int8
    and uint8 products summed in int32 are exact, wrapping as int32 does)."""
    from simdist.runtime import context
    from simdist.runtime.ops.math import cast
    for attr, dt in (("Ta", ta.dtype), ("Tb", tb.dtype), ("Tout", tout)):
        allowed = _V3_TOUT if attr == "Tout" else _V3_IN
        if dtypes.as_dtype(dt).name not in allowed:
            # (the OpDef's allowed lists before the shape function or the kernel lookup: eagerly
            # the attr validation's InvalidArgumentError, in a graph op_def_library's TypeError)
            c = ", ".join({"float16": "half", "float32": "float", "float64": "double"}.get(n, n) for n in allowed)
            raise trace_errors.attr_not_allowed("BatchMatMulV3", attr, dtypes.as_dtype(dt), c)
    shapes = (ta.shape.as_list(), tb.shape.as_list())
    low = next((k for k, t in enumerate((ta, tb)) if t.ndim < 2), None)
    if low is not None and context.in_function():
        # (a graph builds the op first: BatchMatMulV3's shape function refuses a rank below 2 at trace;
        # the kernel lookup waits for the run; fz14 seed 1420261219 #277)
        raise trace_errors.shape_error(f"In[{low}] ndims must be >= 2: {len(shapes[low])} [Op:BatchMatMulV3]",
                                       f"Shape must be at least rank 2 but is rank {len(shapes[low])}",
                                       "BatchMatMulV3", shapes)
    same = ta.dtype == tb.dtype == tout
    if not same and _V3_MIXED.get((ta.dtype.name, tb.dtype.name)) != tout.name:
        def enum(d: Any) -> str:
            return "DT_" + {"float32": "FLOAT", "float64": "DOUBLE", "float16": "HALF"}.get(d.name, d.name.upper())
        raise errors.NotFoundError(
            None, None, f"Could not find device for node: {{{{node BatchMatMulV3}}}} = BatchMatMulV3[Ta={enum(ta.dtype)}, "
            f"Tb={enum(tb.dtype)}, Tout={enum(tout)}, adj_x={str(adj_a).lower()}, adj_y={str(adj_b).lower()}, "
            f"grad_x={str(bool(grad_a)).lower()}, grad_y={str(bool(grad_b)).lower()}]")
    for k, t in enumerate((ta, tb)):
        if t.ndim < 2:
            raise errors.InvalidArgumentError(None, None, f"In[{k}] ndims must be >= 2: {t.ndim} [Op:BatchMatMulV3]")
    return matmul(cast(ta, tout), cast(tb, tout), adjoint_a=adj_a, adjoint_b=adj_b)


def v3_shapes_fit(ta: Tensor, tb: Tensor, adj_a: bool, adj_b: bool) -> bool:
    """Whether the operands' shapes are known and multiply (contraction sizes equal, batch dimensions broadcasting):
    then `_v3_bfloat16` computes the product; otherwise the product is left to BatchMatMulV2's checks and errors."""
    sa, sb = ta.shape.as_list(), tb.shape.as_list()
    if len(sa) < 2 or len(sb) < 2 or None in sa or None in sb:
        return False
    if (sa[-2] if adj_a else sa[-1]) != (sb[-1] if adj_b else sb[-2]):
        return False
    try:
        np.broadcast_shapes(tuple(sa[:-2]), tuple(sb[:-2]))
    except ValueError:
        return False
    return True


def _conjugated(ta: Tensor, tb: Tensor, transpose_a: Any, transpose_b: Any, adjoint_a: Any, adjoint_b: Any,
                a_is_sparse: Any, b_is_sparse: Any) -> None:
    """math_ops.matmul's conj() before it builds the op: on the batch path (an operand above rank 2
    or of a rank the graph does not know, no sparse flag) of each truthy transpose_a/b, else of each
    truthy adjoint_a/b; conj of a bool or string tensor is TypeError "Expected numeric or variant
    tensor, got dtype tf.bool." (tf.linalg.lstsq's Gramian, matmul(a, a, adjoint_a=True); fz26b,
    fz14 seed 1420262601 #137). The values are conjugated below."""
    from simdist.runtime.ops import static_shapes
    from simdist.runtime.ops.complex_math import conj
    ka, kb = static_shapes.known_shape(ta), static_shapes.known_shape(tb)
    batch = not a_is_sparse and not b_is_sparse and (ka is None or kb is None or len(ka) > 2 or len(kb) > 2)
    for t, flag in ((ta, transpose_a if batch else adjoint_a), (tb, transpose_b if batch else adjoint_b)):
        if flag and t.dtype.kind not in "fiuc":
            conj(t)


def _check_attrs(ta: Tensor, tb: Tensor, transpose_a: Any, transpose_b: Any, adjoint_a: Any, adjoint_b: Any,
                 a_is_sparse: Any, b_is_sparse: Any, grad_a: Any, grad_b: Any) -> bool:
    """Whether math_ops.matmul chooses SparseMatMul, after checking the attributes it passes to the
    op it chooses, as the user gave them (clause
    ops.attr-types): BatchMatMulV2 (either operand above rank 2, or of a rank the graph does not
    know, and no sparse flag) gets adj_x = transpose_a or adjoint_a (True when transpose_a is
    truthy, else adjoint_a as given), grad_x = grad_a; else a truthy adjoint makes transpose True,
    and SparseMatMul (a sparse flag with both operands bfloat16 or float32, or bfloat16 beside
    another type but int8/uint8) gets transpose_a/b and the sparse flags, MatMul transpose_a/b and
    grad_a/b."""
    from simdist.runtime.ops import static_shapes
    ka, kb = static_shapes.known_shape(ta), static_shapes.known_shape(tb)
    if not a_is_sparse and not b_is_sparse and (ka is None or kb is None or len(ka) > 2 or len(kb) > 2):
        attr_rules.check("BatchMatMulV2", adj_x=True if transpose_a else adjoint_a,
                         adj_y=True if transpose_b else adjoint_b, grad_x=grad_a, grad_y=grad_b)
        return False
    transpose_a = True if adjoint_a else transpose_a
    transpose_b = True if adjoint_b else transpose_b
    da, db = ta.dtype.name, tb.dtype.name
    sparse = bool(a_is_sparse or b_is_sparse) and da in _SPARSE_TYPES and db in _SPARSE_TYPES
    if da != db and ((da == "bfloat16" and db not in ("int8", "uint8")) or
                     (db == "bfloat16" and da not in ("int8", "uint8"))):
        sparse = True
    if sparse:
        attr_rules.check("SparseMatMul", transpose_a=transpose_a, transpose_b=transpose_b, a_is_sparse=a_is_sparse,
                         b_is_sparse=b_is_sparse)
        for attr, t in (("Ta", ta), ("Tb", tb)):
            # (SparseMatMul's Ta and Tb are float or bfloat16: `uint32 @ bfloat16` is the attr's
            # InvalidArgumentError, TypeError in a graph; fz35b, fourteenth generator seed 1420353001 #118)
            if t.dtype.name not in _SPARSE_TYPES:
                raise trace_errors.attr_not_allowed("SparseMatMul", attr, t.dtype, "float, bfloat16")
    else:
        attr_rules.check("MatMul", transpose_a=transpose_a, transpose_b=transpose_b, grad_a=grad_a, grad_b=grad_b)
    return sparse


def _mm(x: Any, y: Any, ta: bool = False, tb: bool = False) -> Tensor:
    return matmul(x, y, transpose_a=ta, transpose_b=tb)


def _grad_a(a: Any, b: Any, grad: Any, t_a: bool, t_b: bool) -> Tensor:
    if not t_a and not t_b:
        return _mm(grad, b, tb=True)
    if not t_a and t_b:
        return _mm(grad, b)
    if t_a and not t_b:
        return _mm(b, grad, tb=True)
    return _mm(b, grad, ta=True, tb=True)


def _grad_b(a: Any, b: Any, grad: Any, t_a: bool, t_b: bool) -> Tensor:
    if not t_a and not t_b:
        return _mm(a, grad, ta=True)
    if not t_a and t_b:
        return _mm(grad, a, ta=True)
    if t_a and not t_b:
        return _mm(a, grad)
    return _mm(grad, a, ta=True, tb=True)


def _matmul_grads(op: Any, grad: Any) -> tuple[Any, Any]:
    """TF's _MatMulGrad, for each combination of transposes; an input no tape needs (its
    skip_input_indices) gets None instead of a matmul, as TF's _MatMulGradAgainst*Only."""
    a, b = op.inputs
    if a.dtype.kind == "c":   # (TF conjugates both inputs first)
        from simdist.runtime.ops.complex_math import conj_of
        a, b = conj_of(a), conj_of(b)
    t_a = bool(op.attrs.get("transpose_a"))
    t_b = bool(op.attrs.get("transpose_b"))
    skip = op.skip_input_indices or ()
    if 1 in skip:
        return _grad_a(a, b, grad, t_a, t_b), None
    if 0 in skip:
        return None, _grad_b(a, b, grad, t_a, t_b)
    return _grad_a(a, b, grad, t_a, t_b), _grad_b(a, b, grad, t_a, t_b)


@RegisterGradient("MatMul")
def _matmul_grad(op: Any, grad: Any) -> list:
    return list(_matmul_grads(op, grad))


@RegisterGradient("BatchMatMulV2")
def _batch_matmul_grad(op: Any, grad: Any) -> list:
    """As MatMul's, each summed over the batch dimensions its input was broadcast along."""
    from simdist.runtime.ops.math import unbroadcast
    ga, gb = _matmul_grads(op, grad)
    return [unbroadcast(ga, op.inputs[0].shape.as_list()), unbroadcast(gb, op.inputs[1].shape.as_list())]


RegisterGradient("BatchMatMulV3")(_batch_matmul_grad)   # (math_grad.py registers one function for both)


def _install_operators() -> None:
    Tensor.__matmul__ = _matmul_operator    # type: ignore[assignment]
    Tensor.__rmatmul__ = _rmatmul   # type: ignore[assignment]


def _matmul_operator(self: Tensor, o: Any) -> Any:
    """`tensor @ o`: matmul, or o's reflected operator when it refuses the pair (ops/reflected.py)."""
    try:
        if not context._function_depth:
            return matmul(self, o)
        with name_scopes.name_scope("matmul") as scope:   # (binary_op_wrapper's scope names the node: `matmul_1`)
            return matmul(self, o, name=scope)
    except Exception as e:  # noqa: BLE001 - binary_op_wrapper's retry decides
        from simdist.runtime.ops import reflected
        return reflected.retry(e, self, o, "matmul")


def _rmatmul(self: Tensor, o: Any) -> Tensor:
    """`o @ tensor`: TF's r_binary_op_wrapper converts o with the tensor's dtype first (so a Python
    zero enters the eager scalar cache under (0.0, float32), ops.scalar-cache; fz4 seed 31 #91)."""
    if not isinstance(o, Tensor) and not hasattr(o, "_as_tensor"):
        o = convert_to_tensor(o, dtype=self.dtype)
    return matmul(o, self)


_install_operators()


# --- composites of tf.linalg (built of registered ops, as TF builds them) ---------------------------------------
def matvec(a: Any, b: Any, transpose_a: bool = False, adjoint_a: bool = False, a_is_sparse: bool = False,
           b_is_sparse: bool = False, name: str | None = None) -> Tensor:
    """`tf.linalg.matvec`: squeeze(matmul(a, expand_dims(b, -1)), -1)."""
    from simdist.runtime.ops import array
    return array.squeeze(matmul(a, array.expand_dims(b, -1), transpose_a=transpose_a, adjoint_a=adjoint_a,
                                a_is_sparse=a_is_sparse, b_is_sparse=b_is_sparse), axis=[-1])


def matrix_transpose(a: Any, name: str = "matrix_transpose", conjugate: bool = False) -> Tensor:
    """`tf.linalg.matrix_transpose`: the last two axes swapped."""
    from simdist.runtime.ops import array
    from simdist.runtime.ops import static_shapes
    t = _t(a)
    if t.ndim < 2 and static_shapes.rank_unknown(t):
        # a graph that does not know the rank builds perm from rank(a) (fz7 ext seed 83 #191): the
        # trace succeeds and range(rank - 2) refuses a negative limit when it runs
        err = errors.InvalidArgumentError(None, None, f"Requires start <= limit when delta > 0: 0/{t.ndim - 2} "
                                                      "[Op:Range]")
        trace_errors.unmark(err)
        raise err
    if t.ndim < 2:
        raise ValueError(f"Argument `a` should be a (batch) matrix with rank >= 2.  Received `a` = {t} with shape: "
                         f"{t.shape}")
    perm = list(range(t.ndim - 2)) + [t.ndim - 1, t.ndim - 2]
    return array.transpose(t, perm, conjugate=conjugate)


def trace(x: Any, name: str | None = None) -> Tensor:
    """`tf.linalg.trace`: the sum of each innermost matrix's diagonal, as TF computes it
    (linalg_ops.trace: reduce_sum(matrix_diag_part(x), -1)), so non-square matrices take their
    leading diagonal and MatrixDiagPart's rank check applies (an einsum '...ii->...' refused
    non-square matrices: fuzz2 seed 5 #103, clause ops.matrix-diag). x is converted first, so a
    Python bool is a bool tensor whose padding array_ops makes False (fz14 seed 1420262201 #149)."""
    from simdist.runtime.ops.diag import diag_part
    from simdist.runtime.ops.math import reduce_sum
    return reduce_sum(diag_part(_t(x)), -1)


def tensordot(a: Any, b: Any, axes: Any, name: str | None = None) -> Tensor:
    """`tf.tensordot` (`_tensordot`), with math_ops.tensordot's static shape: a's free dimensions then b's as the
    graph knows them (the Reshape's set_shape of _tensordot_reshape's free_dims_static), of unknown rank when
    either operand's rank is unknown (ssweep64)."""
    from simdist.runtime.ops import static_shapes
    ta, tb = _t(a), _t(b)
    out = _tensordot(ta, tb, axes, name)
    if not context.in_function():
        return out
    if static_shapes.rank_unknown(ta) or static_shapes.rank_unknown(tb):
        return static_shapes.mark_rank_unknown(out)
    n = out.ndim
    ka, kb = static_shapes.known_shape(ta), static_shapes.known_shape(tb)
    free = _tensordot_free(axes, ta.ndim, tb.ndim)
    if free is None or ka is None or kb is None or len(free[0]) + len(free[1]) != n:
        return out
    return static_shapes.mark(out, [ka[k] is None for k in free[0]] + [kb[k] is None for k in free[1]])


def _tensordot_free(axes: Any, ra: int, rb: int) -> tuple[list[int], list[int]] | None:
    """a's and b's free axes for tensordot's `axes` (an int or a pair of axis lists), None for another form."""
    if isinstance(axes, (int, np.integer)):
        xa, xb = list(range(ra - int(axes), ra)), list(range(int(axes)))
    elif isinstance(axes, (list, tuple)) and len(axes) == 2:
        xa = [int(axes[0])] if isinstance(axes[0], (int, np.integer)) else [int(i) for i in axes[0]]
        xb = [int(axes[1])] if isinstance(axes[1], (int, np.integer)) else [int(i) for i in axes[1]]
    else:
        return None
    xa, xb = [i % ra for i in xa] if ra else xa, [i % rb for i in xb] if rb else xb
    return [k for k in range(ra) if k not in xa], [k for k in range(rb) if k not in xb]


def _tensordot(a: Any, b: Any, axes: Any, name: str | None = None) -> Tensor:
    """`tf.tensordot`: axes = N (the last N of a with the first N of b) or a pair of axis lists.
    TF transposes, reshapes and calls MatMul; simdist computes one Einsum where that gives the
    same values, and TF's composition for float16 and bfloat16, whose Einsum kernels round differently from
    their MatMul (half_matmul.py)."""
    from simdist.runtime.ops import static_shapes
    from simdist.runtime.ops.einsum import einsum
    ta, tb = _t(a), _t(b)
    ra, rb = ta.ndim, tb.ndim
    if isinstance(axes, (int, np.integer)):
        n = int(axes)
        if n < 0:
            raise ValueError(f"`axes` must be at least 0. Received: {axes}.")
        xa, xb = list(range(ra - n, ra)), list(range(n))
        if static_shapes.rank_unknown(ta):   # (a graph that does not know a's rank: range tensors)
            _tensordot_gathers(xa, ra)
            _tensordot_gathers(xb, rb)
        if n > ra and not static_shapes.rank_unknown(ta):   # (math_ops._tensordot_axes checks a's rank only)
            raise ValueError(f"`axes` must not be larger than the number of dimensions of tensor {a}.  Received "
                             f"{n}, vs tensor dimensions {ra}.")
        if n > rb and not static_shapes.rank_unknown(tb):
            # (b's axes range(n) index its static shape in _tensordot_reshape: Python's IndexError;
            # fz20: fz14 seed 1420261219 #335)
            raise IndexError("list index out of range")
        if static_shapes.rank_unknown(tb):
            _tensordot_gathers(xb, rb)
    else:
        if not isinstance(axes, (list, tuple)):   # (math_ops._tensordot_axes: convert_to_tensor(axes, int32),
            # None is its ValueError; fz16d: fz14 seed 14202612013 #6)
            at = axes if isinstance(axes, Tensor) else convert_to_tensor(axes, dtype=dtypes.int32)
            # (then `axes[0], axes[1]`: StridedSlice of a scalar or of a vector shorter than 2;
            # fz14 seed 1420261218 #172)
            # (in a graph that knows axes' shape, StridedSlice's shape function at trace: ValueError;
            # fz26b, fz14 seed 1420262602 #171)
            from simdist.runtime.ops import static_shapes
            known = static_shapes.known_shape(at)
            text = "Attempting to slice scalar input." if at.ndim == 0 else \
                "slice index 1 of dimension 0 out of bounds." if at.shape.as_list()[0] < 2 else None
            if text is not None:
                err = errors.InvalidArgumentError(None, None, f"{text} [Op:StridedSlice]")
                if known is not None and (at.ndim == 0 or known[0] is not None):
                    raise trace_errors.static(err, ValueError, f"{text} for '{{{{node Tensordot/strided_slice}}}}'")
                raise err
            axes = at._v.tolist()
        xa, xb = axes
        xa = [int(xa)] if isinstance(xa, (int, np.integer)) else [int(i) for i in xa]
        xb = [int(xb)] if isinstance(xb, (int, np.integer)) else [int(i) for i in xb]
        if len(xa) != len(xb):
            raise ValueError(f"Different number of contraction axes `a` and `b`, {len(xa)} != {len(xb)}.")
        # (TF's _tensordot_reshape adds the rank to a negative axis and indexes the static shape
        # with it: Python's IndexError past the end, and a still negative axis reaches Transpose;
        # an operand of a rank the graph does not know is reshaped by Shape/Gather ops instead)
        for axs, r, t in ((xa, ra, ta), (xb, rb, tb)):
            if static_shapes.rank_unknown(t):
                _tensordot_gathers(axs, r)
            elif any(not -r <= (i + r if i < 0 else i) < r for i in axs):
                raise IndexError("list index out of range")
        if any(i < -ra for i in xa) or any(i < -rb for i in xb):
            raise errors.InvalidArgumentError(None, None, "transpose expects a vector of size "
                                              f"{max(ra, rb)}. But input(1) is a vector of size {max(ra, rb)} "
                                              "[Op:Transpose]")
        xa, xb = [i % ra for i in xa], [i % rb for i in xb]
    letters = iter("abcdefghijklmnopqrstuvwxyz")
    sa = [next(letters) for _ in range(ra)]
    sb = [next(letters) for _ in range(rb)]
    for i, j in zip(xa, xb):
        sb[j] = sa[i]
    out = [c for k, c in enumerate(sa) if k not in xa] + [c for k, c in enumerate(sb) if k not in xb]
    da, db = ta.shape.as_list(), tb.shape.as_list()
    sizes_differ = [da[i] for i in xa] != [db[j] for j in xb]
    if ta.dtype == tb.dtype and not (sizes_differ and context.in_function()):
        # TF's tensordot is a MatMul: its dtype rule (bool, int8, int16 refused); a graph's MatMul shape function
        # comes before the kernel lookup (uint16 of sizes 3 and 4: ValueError at trace; fz34b)
        MATMUL.dtype((ta.dtype, tb.dtype), {})
    elif ta.dtype == tb.dtype:   # (a graph: op_def_library's allowed types still before the shape function, bool's
        # TypeError; fz38b, second generator seed 3806 #186)
        graph_inputs.check("MatMul", (ta, tb))
    elif ta.dtype != tb.dtype and dtypes.bfloat16 in (ta.dtype, tb.dtype):
        # (math_ops.matmul sends a bfloat16 operand beside another dtype to SparseMatMul, a float32 product:
        # `tensordot(float32 a, bfloat16 b, axes=[[0], [0]])` is float32 eagerly too; fz47b, fz44_gen seed 44012)
        return _tensordot_matmul(ta, tb, xa, xb)
    elif ta.dtype != tb.dtype and context.executing_eagerly():
        # (eagerly MatMul's T is a's: its attr check and kernel lookup, then the comparison of b's
        # dtype; `tensordot(uint32, np.uint16(1), axes=0)` is NotFoundError; fz36b, fz14 seed 1420363002 #256)
        MATMUL.dtype((ta.dtype, ta.dtype), {})
        raise args.dtype_error("MatMul", 1, ta.dtype, tb.dtype)
    if sizes_differ:
        # (TF reshapes each operand to a matrix, free dimensions by contracted ones, and calls MatMul:
        # equal products compute, others are MatMul's error, its shape function's ValueError where
        # the graph knows the dimensions; fz2 seed 63 #18)
        from simdist.runtime import errors as op_errors
        from simdist.runtime.ops import array
        fa, fb = [k for k in range(ra) if k not in xa], [k for k in range(rb) if k not in xb]
        m, ka = int(np.prod([da[k] for k in fa])), int(np.prod([da[i] for i in xa]))
        kb, n = int(np.prod([db[j] for j in xb])), int(np.prod([db[k] for k in fb]))
        if ka != kb:
            if ta.dtype != tb.dtype:   # (MatMul's inputs' T before its shape function and kernel's sizes, eagerly
                # and in a graph: op_def_library's TypeError; fz34b, fz14 seed 1420343002 #178)
                MATMUL.dtype((ta.dtype, tb.dtype), {})
            known = static_shapes.unknown(ta) is None and static_shapes.unknown(tb) is None and \
                not static_shapes.rank_unknown(ta) and not static_shapes.rank_unknown(tb)
            err = op_errors.InvalidArgumentError(None, None, f"Matrix size-incompatible: In[0]: [{m},{ka}], In[1]: "
                                                          f"[{kb},{n}] [Op:MatMul]")
            if not known:   # (the MatMul kernel's, when the graph runs; a dry run goes on with the
                # product's free dimensions: rgb_to_yuv of a [None, 2] argument, then `^`; fz27b)
                return dispatch.refused(err, ta.dtype, [da[k] for k in fa] + [db[k] for k in fb], pruned=True)
            raise trace_errors.mark_shape(err, f"Dimensions must be equal, but are {ka} and {kb}", "MatMul",
                                          ([m, ka], [kb, n]))
        return _tensordot_matmul(ta, tb, xa, xb)
    if ta.dtype in (dtypes.float16, dtypes.bfloat16, dtypes.float64):
        # (TF's 16-bit Einsum and MatMul kernels round differently; bfloat16 MatMul truncates its float32 sum where
        # oneDNN does not take bfloat16: fz50b, fz50b_gen seed 50002 #15; float64: the gradient of TF's composition
        # is a^T·g transposed, one Einsum's g^T·a, whose GEBP sums differ: ops.float64-gebp-order, xsweep58)
        return _tensordot_matmul(ta, tb, xa, xb)
    if not xa and ta.dtype.is_floating:   # (no axis contracted: TF's MatMul with k = 1 sums from +0.0, where an
        # einsum without a summed label multiplies, -0.0 kept; fz45b, fz44_gen seed 44010)
        return _tensordot_matmul(ta, tb, xa, xb)
    if ta.dtype in (dtypes.float32, dtypes.float64) and int(np.prod([da[k] for k in range(ra) if k not in xa])) == 1:
        return _tensordot_matmul(ta, tb, xa, xb)   # one row: MatMul's order (contraction_order.row_in_order)
    if ta.dtype == dtypes.float32 and int(np.prod([db[k] for k in range(rb) if k not in xb])) == 1 and \
            int(np.prod([da[k] for k in xa])) <= 3:
        return _tensordot_matmul(ta, tb, xa, xb)   # one column: MatMul's order (contraction_order.gemv_in_order)
    if ta.dtype == dtypes.float32:   # (the smallest products on a host without oneDNN: contraction_order.eigen_in_order)
        from simdist.runtime.ops.contraction_order import eigen_in_order
        rows, inner = int(np.prod([da[k] for k in range(ra) if k not in xa])), int(np.prod([da[k] for k in xa]))
        if rows * inner and eigen_in_order(np.zeros((rows, inner), np.float32), np.zeros((inner, 1), np.float32)):
            return _tensordot_matmul(ta, tb, xa, xb)
        # (and every other float32 product: TF's composition's gradient is MatMul's, g·bᵀ and aᵀ·g as oneDNN orders
        # them, where one Einsum's gradient sums in another order — a 3-D Dense's input gradient; ysweep59)
        return _tensordot_matmul(ta, tb, xa, xb)
    return einsum(f"{''.join(sa)},{''.join(sb)}->{''.join(out)}", ta, tb)


def _tensordot_gathers(axes: list[int], rank: int) -> None:
    """math_ops._tensordot_reshape of an operand whose rank the graph does not know: the axes as an
    int32 tensor, `where(axes >= 0, axes, axes + rank)`, then gather(shape(a), axes): an axis out of
    range is GatherV2's InvalidArgumentError when the graph runs (fourth generator seed 2201 #88:
    tensordot of a scalar through an input_signature of unknown rank)."""
    adjusted = [i if i >= 0 else i + rank for i in axes]
    for k, v in enumerate(adjusted):
        if not 0 <= v < rank:
            raise errors.InvalidArgumentError(None, None, f"indices[{k}] = {v} is not in [0, {rank}) "
                                                          "[Op:GatherV2]")
    perm = len([i for i in range(rank) if i not in adjusted]) + len(adjusted)
    if perm != rank:   # (an axis named twice: Transpose of free + axes refuses the permutation)
        raise errors.InvalidArgumentError(None, None, f"transpose expects a vector of size {rank}. But input(1) is a "
                                                      f"vector of size {perm} [Op:Transpose]")


def _tensordot_matmul(ta: Tensor, tb: Tensor, xa: list[int], xb: list[int]) -> Tensor:
    """TF's tensordot: each operand transposed (free axes, then contracted ones) and reshaped to
    a matrix, one MatMul, its result reshaped to the free dimensions (math_ops.tensordot)."""
    from simdist.runtime.ops import array
    ra, rb = ta.ndim, tb.ndim
    da, db = ta.shape.as_list(), tb.shape.as_list()
    fa, fb = [k for k in range(ra) if k not in xa], [k for k in range(rb) if k not in xb]
    m, ka = int(np.prod([da[k] for k in fa])), int(np.prod([da[i] for i in xa]))
    kb, n = int(np.prod([db[j] for j in xb])), int(np.prod([db[k] for k in fb]))
    # (in a graph, a matrix operand whose tensordot perm swaps its two axes: its Reshape keeps its shape, which
    # Grappler's ArithmeticOptimizer removes, and the Transpose then folds into the MatMul as transpose_a/transpose_b
    # (FoldTransposeIntoMatMul): `tensordot(a, b, axes=([1], [1]))` traced is `matmul(a, b, transpose_b=True)`'s
    # bits, eagerly b transposed then a plain MatMul; TF 2.21 observed, clause ops.packet-paths, fix63q). Not under a
    # tape: TF's gradient graph is built from the unfolded ops and folded after (a transposed operand's gradient is
    # the Transpose of its matrix's), which simdist's gradient of the folded MatMul does not give: left open)
    from simdist.runtime import execution
    from simdist.runtime.ops import static_shapes
    fold = context.in_function() and not execution.current().tapes and all(static_shapes.unknown(t) is None and not static_shapes.rank_unknown(t)
                                         for t in (ta, tb))
    # (one free and one contracted axis: a perm [1, 0] contracting both axes reshapes the matrix to a vector,
    # which no transpose flag gives; ssweep64: `tensordot(a, b, [[0, 1], [1, 0]])` of 3 x 3 matrices)
    trans_a = fold and ra == 2 and fa + xa == [1, 0] and len(fa) == 1
    trans_b = fold and rb == 2 and xb + fb == [1, 0] and len(fb) == 1
    ma = ta if trans_a else array.reshape(array.transpose(ta, fa + xa), [m, ka])
    mb = tb if trans_b else array.reshape(array.transpose(tb, xb + fb), [kb, n])
    return array.reshape(matmul(ma, mb, transpose_a=trans_a, transpose_b=trans_b), [da[k] for k in fa] + [db[k] for k in fb])


def _check_perm_after(t: Tensor, before: list, axis: tuple, keepdims: bool) -> Tensor | None:
    """linalg_ops.norm's matrix 2-norm builds perm_after with map_fn over range(rank): each element
    squeeze(where(perm_before == i)), a scalar where i occurs once, a [2] vector where the two axes name the same
    dimension (`axis=[-2, 0]` of a matrix: `axis[0] == axis[1]` is False on the ints). Eagerly map_fn's
    TensorArray refuses the first element of another shape than element 0's: ValueError "Incompatible shape for
    value (()), expected ((2,))"; in a graph its TensorListStack fails when the graph runs (InvalidArgumentError
    "PartialTensorShape: Incompatible ranks during merge: 0 vs. 1"), as does the Transpose by a perm_before of
    another length than the rank, whose length the graph does not know (ListDiff's output; simdist's static
    check was the trace's ValueError). The graph, which knows the rank and not the perm's values, builds the rest
    first, whose trace-time errors come before: Svd's dtype list (TypeError for bfloat16), its rank of at least 2,
    the final Squeeze's axes in [-rank, rank) (ValueError). Observed on TF 2.21 (fz49, third generator seed 4703
    #153). Returns a dry run's stand-in for the result (dispatch.refused), else None: the norm goes on."""
    rank = t.ndim
    shapes = [() if before.count(i) == 1 else (before.count(i),) for i in range(rank)]
    bad = next((s for s in shapes if s != shapes[0]), None)
    err: Exception | None = None
    if bad is not None and not context.in_function():
        raise ValueError(f"Incompatible shape for value ({bad}), expected ({shapes[0]})")
    if bad is not None:
        err = errors.InvalidArgumentError(None, None, f"PartialTensorShape: Incompatible ranks during merge: "
                                          f"{len(shapes[0])} vs. {len(bad)}")
    elif len(before) != rank and context.in_function():
        err = errors.InvalidArgumentError(None, None, f"transpose expects a vector of size {rank}. But input(1) is "
                                          f"a vector of size {len(before)} [Op:Transpose]")
    if err is None:
        return None
    allowed = ("float64", "float32", "float16", "complex64", "complex128")
    if t.dtype.name not in allowed:
        raise TypeError(f"Value passed to parameter 'input' has DataType {t.dtype.name} not in list of allowed values: "
                        + ", ".join(allowed))
    if rank < 2:
        raise ValueError(f"Shape must be at least rank 2 but is rank {rank} for '{{{{node norm/Svd}}}}' with input "
                         f"shapes: [{','.join('?' * rank)}].")
    for k, a in enumerate(() if keepdims else axis):
        if not -rank <= a < rank:
            raise ValueError(f"squeeze_dims[{k}] not in [{-rank},{rank}). for '{{{{node norm/Squeeze}}}}'")
    return dispatch.refused(err, t.dtype.real_dtype, [1] * max(rank - (0 if keepdims else 2), 0), pruned=True)


def _matrix_2_norm(t: Tensor, axis: tuple, keepdims: bool) -> Tensor:
    """linalg_ops.norm's matrix 2-norm: the two axes (made non-negative) moved last (the others kept in
    order: ListDiff then ConcatV2), Svd's singular values (compute_uv=False), their largest absolute
    value kept as a [..., 1, 1] matrix, transposed back, squeezed unless keepdims. A real result for a
    complex input. Clause ops.linalg-more."""
    from simdist.runtime.ops import array, math, static_shapes, unary
    from simdist.runtime.ops.linalg_decomp import svd
    rank = t.ndim
    positive = [a if a >= 0 else a + rank for a in axis]
    before = [i for i in range(rank) if i not in positive] + positive
    standin = _check_perm_after(t, before, axis, keepdims)
    if standin is not None:
        return standin
    after = [before.index(i) if i in before else i for i in range(rank)]
    s = svd(array.transpose(t, before), compute_uv=False)
    result = array.transpose(array.expand_dims(math.reduce_max(unary.abs_(s), axis=-1, keepdims=True), -1), after)
    # (perm_after is map_fn's output: the graph knows its length, the rank, and none of its values, so
    # TransposeShapeFn gives every dimension unknown, a keepdims result of a fully known input too; the final Squeeze
    # drops the two axes and keeps the others unknown. TF 2.21 observed, usweep66)
    result = static_shapes.mark(result, [True] * rank)
    return result if symbolic.flag(keepdims) else array.squeeze(result, list(axis))


_VECTOR_ORDS = ("euclidean", 1, 2, np.inf)
_MATRIX_ORDS = ("euclidean", "fro", 1, 2, np.inf)


def norm(tensor: Any, ord: Any = "euclidean", axis: Any = None, keepdims: Any = None,  # noqa: A002 - TF's name
         name: str | None = None) -> Tensor:
    """`tf.norm` (TF's composite): euclidean/fro = sqrt(sum(x*x)), 1 = sum|x| (matrix: max
    column sum), inf = max|x| (matrix: max row sum), p = sum(|x|^p)^(1/p), the matrix 2-norm the
    largest singular value (`_matrix_2_norm`)."""
    from simdist.runtime.ops import array, math, unary
    keepdims = False if keepdims is None else keepdims   # (its truth taken at the end, `if not keepdims`: fz65)
    is_matrix = isinstance(axis, (tuple, list)) and len(axis) == 2
    if is_matrix:
        axis = tuple(axis)
        # (linalg_ops.norm's isinstance(..., int): a NumPy integer is refused, a bool taken; fz16d)
        if not isinstance(axis[0], int) or not isinstance(axis[1], int) or axis[0] == axis[1]:
            raise ValueError(f"'axis' must be None, an integer, or a tuple of 2 unique integers, got {axis}")
        if ord not in _MATRIX_ORDS:
            raise ValueError(f"'ord' must be a supported matrix norm in ['euclidean', 'fro', 1, 2, inf], got {ord}")
    else:
        # (a 1-element tuple or list is refused too: linalg_ops.norm takes an int, or 2 unique ints: ops.fuzz3)
        if not (axis is None or isinstance(axis, int)):   # (a NumPy integer too: fz14 seed 1420261202 #779)
            raise ValueError(f"'axis' must be None, an integer, or a tuple of 2 unique integers, got {axis}")
        if (isinstance(ord, str) or not np.isreal(ord) or ord <= 0) and ord not in _VECTOR_ORDS:
            raise ValueError(f"'ord' must be a supported vector norm, got {ord}")
        if axis is not None:
            axis = (int(axis),)
    t = _t(tensor)
    if ord in ("fro", "euclidean", 2, 2.0):
        if is_matrix and ord in (2, 2.0):
            return _matrix_2_norm(t, axis, keepdims)
        from simdist.runtime.ops.complex_math import conj
        result = unary.sqrt(math.reduce_sum(math.multiply(t, conj(t)), axis, keepdims=True))
    else:
        result = unary.abs_(t)
        if ord == 1:
            result = math.reduce_sum(result, None if axis is None else axis[0], keepdims=True)
            if is_matrix:
                result = math.reduce_max(result, axis[-1], keepdims=True)
        elif ord == np.inf:
            if is_matrix:
                result = math.reduce_sum(result, axis[1], keepdims=True)
            result = math.reduce_max(result, None if axis is None else axis[0], keepdims=True)
        else:
            result = math.pow_(math.reduce_sum(math.pow_(result, ord), axis, keepdims=True), 1.0 / ord)
    if not symbolic.flag(keepdims):
        result = array.squeeze(result, None if axis is None else list(axis))
    return result
