"""`tf.einsum`: the Einsum op (one or two operands) and its gradient (TF's _EinsumGrad).

The public function parses the equation as TF does (ellipsis, implicit output), checks ranks and
dimensions with TF's messages, broadcasts ellipsis dimensions of size 1 with BroadcastTo ops (so
the op itself never broadcasts and its gradient never needs to un-broadcast: BroadcastTo's
gradient sums), and contracts three or more operands pairwise, left to right (TF contracts
them pairwise too, in opt_einsum's order: the same values up to float rounding).

The op's equation has no ellipsis and may repeat a label in its output (`i->ii` puts values
on a diagonal), which TF's gradient of a diagonal or trace (`ii->i`, `ii->`) needs.
"""

from __future__ import annotations

import string
from typing import Any, Sequence

import numpy as np

from simdist.runtime import context, errors, host_cpu
from simdist.runtime import subnormals as _subnormals
from simdist.runtime.ops.nan_operands import first_nan
from simdist.runtime.ops import args, dispatch, static_shapes, trace_errors
from simdist.runtime.ops import half_matmul as _half
from simdist.runtime.ops.args import t as _t
from simdist.runtime.ops.registry import RegisterGradient, lanes, register
from simdist.runtime.tensor import Tensor

__all__ = ["einsum"]

_EINSUM_TYPES = ("fic", "bfloat16, half, float, double, int32, int64, complex64, complex128")


def _sizes(ins: Sequence[str], arrays: Sequence[np.ndarray]) -> dict[str, int]:
    out: dict[str, int] = {}
    for subs, a in zip(ins, arrays):
        for c, d in zip(subs, a.shape):
            out[c] = d
    return out


def _sizes_broadcast(ins: Sequence[str], shapes: Sequence[Sequence[int]]) -> dict[str, int]:
    """Each label's size, a size 1 giving way to another (an ellipsis's broadcast dimensions)."""
    size: dict[str, int] = {}
    for s, shp in zip(ins, shapes):
        for c, d in zip(s, shp):
            if size.get(c, 1) == 1:
                size[c] = d
    return size


def _einsum(*arrays: np.ndarray, equation: str) -> np.ndarray:
    if "..." in equation:   # a raw call's ellipsis: written out, its dimensions of size 1 broadcast
        ins, out = _parse(equation, [a.ndim for a in arrays])
        size = _sizes_broadcast(ins, [a.shape for a in arrays])
        arrays = tuple(np.broadcast_to(a, [size[c] for c in s]) for a, s in zip(arrays, ins))
        equation = f"{','.join(ins)}->{out}"
    lhs, out = equation.split("->")
    ins = lhs.split(",")
    sizes = _sizes(ins, arrays)
    uniq = "".join(dict.fromkeys(out))
    if arrays and arrays[0].dtype.name in ("bfloat16", "float16"):
        # float16 contractions on CPUs without oneDNN's float16 (ops.host-cpu): Eigen's
        # half-precision matrix product (half_matmul.py). oneDNN's _MklEinsum (bfloat16, float16
        # where the CPU supports it) and the float16 equations that product does not cover:
        # float32 accumulation, rounded once.
        half = _half_contraction(ins, uniq, arrays) if len(arrays) == 2 else None
        if half is None:   # (the float32 einsum writes a repeated output label's diagonal itself: 'i->ii', the
            # gradient of 'ii->i', raised ValueError here for float16/bfloat16; esweep57's e-einsum-float16)
            return _einsum(*(a.astype(np.float32) for a in arrays), equation=equation).astype(arrays[0].dtype)
        if uniq == out:
            return half
        r = half
        res = np.zeros([sizes[c] for c in out], dtype=r.dtype)
        grid = np.indices(r.shape, sparse=True)
        res[tuple(grid[uniq.index(c)] for c in out)] = r
        return res
    if len(arrays) == 2 and arrays[0].dtype.kind == "f" and all(len(set(x)) == len(x) and set(x) <= set(uniq)
                                                                for x in ins):
        # (no label summed: TF's EinsumOp multiplies the broadcast operands, so a zero keeps the product's sign,
        # -0.0 where BatchMatMulV2's sum from +0 gives +0.0: 'i,j->ij' of 2 and -0.0 is -0.0, float32 and
        # float64; TF 2.21 observed, fz45b, fz45_gen seed 45004 #45, #61)
        views = []
        for x, a in zip(ins, arrays):
            v = np.transpose(a, sorted(range(len(x)), key=lambda i: uniq.index(x[i])))
            views.append(v.reshape([a.shape[x.index(c)] if c in x else 1 for c in uniq]))
        with np.errstate(over="ignore", invalid="ignore"):
            r = views[0] * views[1]
        if r.dtype == np.float32 and host_cpu.current().onednn("float32", _ONEDNN_EINSUM):
            # (where oneDNN runs TF's float32 einsum, _MklEinsum, and bfloat16's through these float32 values: its
            # matmul accumulates each product onto +0, so a zero product is +0.0 in every such equation: 'i,j->ij',
            # 'bi,bi->bi', 'bi,i->bi', 'bi,bj->bij' of -0.0 are +0.0 on the AVX-512 oneDNN Xeon, TF 2.21 observed,
            # esweep57's e-einsum-float32; float16's oneDNN path is _onednn_half_matmul's)
            r = r + np.float32(0.0)
            # (and each product's NaN is the chain's: the second operand's before the first's, quieted — msweep63's
            # `chain_nan` at one step; 'i,j->ij' of two NaNs keeps y's; TF 2.21, nansweep67)
            r = first_nan(r, views[1], views[0])
        if uniq == out:
            return r
        res = np.zeros([sizes[c] for c in out], dtype=r.dtype)
        grid = np.indices(r.shape, sparse=True)
        res[tuple(grid[uniq.index(c)] for c in out)] = r
        return res
    r = _ordered(ins, uniq, arrays) if len(arrays) == 2 else _ordered_total(ins[0], uniq, arrays[0])
    if r is None:
        # without BLAS (np.einsum's optimize=True contracts through it, whose order depends on the
        # CPU: ops.host-cpu): a two-operand contraction as the BatchMatMulV2 TF runs, in order
        # (contraction_order.matmul), anything else NumPy's own einsum loop
        r = _in_order(ins, uniq, arrays) if len(arrays) == 2 else None
        if r is None:
            r = np.einsum(f"{lhs}->{uniq}", *arrays, optimize=False)
    if uniq == out:
        return r
    res = np.zeros([sizes[c] for c in out], dtype=r.dtype)   # a repeated output label: its diagonal
    grid = np.indices(r.shape, sparse=True)
    res[tuple(grid[uniq.index(c)] for c in out)] = r
    return res


def _contraction(ins: Sequence[str], out: str, arrays: Sequence[np.ndarray]) -> tuple | None:
    """TF's EinsumOp view of a two-operand equation: (x [batch, M, K], y [batch, K, N], the
    result's shape as [batch..., free0..., free1...] and the permutation to `out`), or None for
    equations with an ellipsis, repeated labels or labels summed in one operand only."""
    a, b = arrays
    s0, s1 = ins
    if a.dtype != b.dtype or "." in s0 + s1:
        return None
    if len(set(s0)) != len(s0) or len(set(s1)) != len(s1) or any(c not in s1 and c not in out for c in s0) \
            or any(c not in s0 and c not in out for c in s1):
        return None
    batch = [c for c in s0 if c in s1 and c in out]
    summed = [c for c in s0 if c in s1 and c not in out]
    free0 = [c for c in s0 if c not in s1]
    free1 = [c for c in s1 if c not in s0]
    sizes = dict(zip(s0, a.shape)) | dict(zip(s1, b.shape))
    n = [int(np.prod([sizes[c] for c in g], dtype=np.int64)) for g in (batch, free0, summed, free1)]
    x = np.transpose(a, [s0.index(c) for c in batch + free0 + summed]).reshape(n[0], n[1], n[2])
    y = np.transpose(b, [s1.index(c) for c in batch + summed + free1]).reshape(n[0], n[2], n[3])
    labels = batch + free0 + free1
    return x, y, [sizes[c] for c in labels], [labels.index(c) for c in out]


def _trans_flags(ins: Sequence[str], out: str) -> tuple[bool, bool]:
    """EinsumOp's (trans_x, trans_y) for a two-operand contraction `_contraction` takes: an operand whose labels
    already run [batch, contracted, free] (each kind by the labels' first appearance in the equation:
    ShouldSwapFreeAndContractLabels) is not transposed and passes swap = True; trans_x = swap_x, trans_y =
    not swap_y (einsum_op_impl.h ContractOperands)."""
    s0, s1 = ins
    order = {c: i for i, c in enumerate(dict.fromkeys(s0 + s1 + out))}

    def swapped(labels: str, other: str) -> bool:
        rank = [(0 if c in other and c in out else 1 if c in other else 2, order[c]) for c in labels]
        return rank == sorted(rank)
    return swapped(s0, s1), not swapped(s1, s0)


def _lazy(ins: Sequence[str], out: str, x: np.ndarray, y: np.ndarray, shape: list, perm: list) -> np.ndarray | None:
    """The contraction as BatchMatMulV2's lazy product with EinsumOp's transposes (contraction_order.lazy_transposed;
    'ij,ij->i' of zeros by negatives is -0.0: fz46b, fz45_gen seed 45002 #37), else None."""
    from simdist.runtime.ops.contraction_order import lazy_transposed, lazy_transposed_matmul
    tx, ty = _trans_flags(ins, out)
    if not lazy_transposed(x, y, tx, ty):
        return None
    return np.transpose(lazy_transposed_matmul(x, y, tx, ty).reshape(shape), perm)


_ONEDNN_EINSUM = ("float32", "bfloat16", "float16")   # _MklEinsum's registered dtypes (TF 2.21's wheel)


def _half_contraction(ins: Sequence[str], out: str, arrays: Sequence[np.ndarray]) -> np.ndarray | None:
    """A two-operand float16 or bfloat16 contraction in Eigen's 16-bit product (half_matmul.py), or
    None where that is not TF's computation: on CPUs where TF runs oneDNN's Einsum for the dtype
    (ops.host-cpu: float32 accumulation, rounded once), other equations, empty operands. bfloat16
    takes the same paths, each operation rounded to bfloat16, where oneDNN does not take bfloat16
    (fz50b: `einsum('...i,ij->...j')` of bfloat16 operands on the AMD EPYC; the float32 product rounded
    once, used before, differed in 1 of 3 elements there)."""
    dt = arrays[0].dtype
    if dt != np.float16 and dt.name != "bfloat16":
        return None
    onednn_bf16 = dt.name == "bfloat16" and host_cpu.current().onednn("bfloat16", _ONEDNN_EINSUM)
    view = _contraction(ins, out, arrays)
    if view is None:
        return None
    x, y, shape, perm = view
    if x.size == 0 or y.size == 0:
        return None
    if onednn_bf16:   # (oneDNN's bfloat16 batch product: onednn_half_matmul, onednn58)
        from simdist.runtime.ops.onednn_half_matmul import bfloat16_sum
        return np.transpose(bfloat16_sum(x.astype(np.float32), y.astype(np.float32), False).astype(dt).reshape(shape),
                            perm)
    if dt == np.float16 and host_cpu.current().onednn("float16", _ONEDNN_EINSUM):
        return np.transpose(_onednn_half_matmul(x, y).reshape(shape), perm)
    return np.transpose(_half.eigen_half_matmul(x, y).reshape(shape), perm)


def _onednn_half_matmul(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """oneDNN's float16 batch product (_MklEinsum on an AVX512-FP16 CPU): the float32 sum of the products (a float16
    product is exact in float32), k in oneDNN's blocks (onednn_half_matmul.float16_blocks: 512, each in order from +0;
    onednn58), rounded once to float16. Measured against TF 2.21 on a Xeon with AVX512-FP16
    (tests/ops/test_f16tr_tf.py, tests/ops/test_onednn58_half_matmul_tf.py's einsum cases)."""
    from simdist.runtime.ops.onednn_half_matmul import float16_blocks
    return float16_blocks(x.astype(np.float32), y.astype(np.float32), False).astype(np.float16)


def _ordered(ins: Sequence[str], out: str, arrays: Sequence[np.ndarray]) -> np.ndarray | None:
    """A two-operand float32/float64 einsum as TF 2.21 computes it, a BatchMatMulV2 of
    [batch, free0, contracted] by [batch, contracted, free1], accumulated in TF's order
    (contraction_order.py) when infinities or overflows could show it; None otherwise (or for
    equations with repeated or one-sided summed labels, left to NumPy)."""
    from simdist.runtime.ops.contraction_order import needs_order, ordered_matmul
    if arrays[0].dtype.name not in ("float32", "float64"):
        return None
    view = _contraction(ins, out, arrays)
    if view is None:
        return None
    x, y, shape, perm = view
    lazy = _lazy(ins, out, x, y, shape, perm)
    if lazy is not None:
        return lazy
    from simdist.runtime.ops.contraction_order import complex_lazy, takes_complex_lazy
    if takes_complex_lazy(x, y, any(_trans_flags(ins, out))):   # (small batched complex: Eigen's lazy product,
        # clause ops.complex-gebp-order)
        return np.transpose(complex_lazy(x, y, *_trans_flags(ins, out)).reshape(shape), perm)
    from simdist.runtime.ops.contraction_order import eigen_batched_in_order, eigen_pairs, paired_matmul
    if eigen_pairs(x, y):   # (a host without oneDNN: Eigen's orders first, infinities and all; fz45b, seed 45001 #69)
        return np.transpose(paired_matmul(x, y).reshape(shape), perm)
    if eigen_batched_in_order(x, y):
        return np.transpose(ordered_matmul(x, y, fused=False).reshape(shape), perm)
    from simdist.runtime.ops import onednn_matmul
    if onednn_matmul.batched_in_order(x, y):   # (oneDNN's _MklEinsum: its batched product, k in blocks of 512)
        return np.transpose(onednn_matmul.batched(x, y).reshape(shape), perm)
    if not needs_order(x, y):
        return None
    return np.transpose(ordered_matmul(x, y).reshape(shape), perm)


def _in_order(ins: Sequence[str], out: str, arrays: Sequence[np.ndarray]) -> np.ndarray | None:
    """A two-operand float or complex einsum as the BatchMatMulV2 of [batch, free0, contracted]
    by [batch, contracted, free1] TF runs, by contraction_order.matmul; None when the equation is
    not such a contraction (repeated or one-sided summed labels)."""
    from simdist.runtime.ops.contraction_order import matmul
    if arrays[0].dtype.name not in ("float32", "float64", "complex64", "complex128"):
        return None
    view = _contraction(ins, out, arrays)
    if view is None:
        return None
    x, y, shape, perm = view
    lazy = _lazy(ins, out, x, y, shape, perm)
    if lazy is not None:
        return lazy
    from simdist.runtime.ops.contraction_order import complex_lazy, takes_complex_lazy
    if takes_complex_lazy(x, y, any(_trans_flags(ins, out))):   # (small batched complex: Eigen's lazy product,
        # clause ops.complex-gebp-order)
        return np.transpose(complex_lazy(x, y, *_trans_flags(ins, out)).reshape(shape), perm)
    from simdist.runtime.ops.contraction_order import eigen_batched_in_order, eigen_pairs, ordered_matmul, paired_matmul
    if eigen_pairs(x, y):   # (a host without oneDNN: BatchMatMulV2's Eigen order of a small product; fz45b)
        return np.transpose(paired_matmul(x, y).reshape(shape), perm)
    if eigen_batched_in_order(x, y):   # (and of a batch of small products)
        return np.transpose(ordered_matmul(x, y, fused=False).reshape(shape), perm)
    from simdist.runtime.ops.contraction_order import float64_gebp, takes_float64_gebp
    if takes_float64_gebp(x, y):   # (float64: Eigen's GEBP accumulators, clause ops.float64-gebp-order)
        return np.transpose(float64_gebp(x, y).reshape(shape), perm)
    from simdist.runtime.ops.contraction_order import complex_gebp, takes_gebp
    if takes_gebp(x, y):   # (complex: Eigen's GEBP accumulators, clause ops.complex-gebp-order)
        return np.transpose(complex_gebp(x, y).reshape(shape), perm)
    from simdist.runtime.ops.contraction_order import complex_gemv
    gemv = complex_gemv(x, y, *_trans_flags(ins, out))
    if gemv is not None:   # (complex, one row or column: Eigen's GEMV kernels with EinsumOp's transposes)
        return np.transpose(gemv.reshape(shape), perm)
    return np.transpose(matmul(x, y).reshape(shape), perm)


def _ordered_total(s0: str, out: str, a: np.ndarray) -> np.ndarray | None:
    """A one-operand float32/float64 einsum that sums labels ('ij->', 'ijk->j') as TF 2.21's EinsumOp reduces it:
    the operand transposed to [kept labels, summed labels] and reshaped to [out, reduce] (ReduceOperand), each row
    summed one value at a time from +0 in the summed labels' order, however long. Observed on TF 2.21 for 18 shapes
    and equations x 30 draws, float32 and float64, every one in order (fz57: fz54b seed 57102 #2, `einsum('ij->')` of
    [[-1.5, -0.9], [0, 0], [3, -0.1]] is 0.5000000000000001 where reduce_sum's full reduction gives 0.5); NumPy's
    pairwise einsum differed. Rows longer than 1,024 values too (onednn59, /work/wt/onednn59_logs/p_ein1.py,
    p_ein2.py, fit_ein1.py, fit_ein2.py: every output of 42 'ij->i'/'ji->i' reductions of rows of 1,025..20,000 and
    34 more of 'ij->i', 'ij->', 'ij->j', 'ijk->j', 'ijk->ik' up to 200 x 5,000, 2 x 100,000 and 1,000 x 1,100, float32
    and float64; no halving tree, lanes or thread split shows: simdist, which summed them as NumPy or Eigen's full
    reduction does, was off in 28 of the 42). Equations with a repeated label are left to NumPy."""
    if a.dtype.name not in ("float32", "float64") or len(set(s0)) != len(s0) or "." in s0 or \
            any(c not in s0 for c in out) or len(out) == len(s0):
        return None
    kept = [s0.index(c) for c in out]
    red = [i for i in range(len(s0)) if i not in kept]
    rows = np.transpose(a, kept + red).reshape(int(np.prod([a.shape[i] for i in kept], dtype=np.int64)),
                                               int(np.prod([a.shape[i] for i in red], dtype=np.int64)))
    if rows.shape[1] == 0:
        acc = np.zeros(rows.shape[0], rows.dtype)
    else:
        with np.errstate(over="ignore", invalid="ignore"):
            # (add.accumulate adds in order, one value at a time; + 0.0 is the sum's start from +0: -0.0 only when
            # every value is -0.0, which +0 + -0.0 makes +0.0)
            acc = np.add.accumulate(rows, axis=1, dtype=rows.dtype)[:, -1] + rows.dtype.type(0)
    return acc.reshape([a.shape[i] for i in kept]).astype(a.dtype)


def _einsum_flops(arrays: Any, out: Any, attrs: Any) -> float:
    lhs, rhs = attrs["equation"].split("->")
    ins = lhs.split(",")
    sizes = _sizes(ins, arrays)
    total = float(np.prod([sizes[c] for c in sizes], dtype=np.float64)) if sizes else 1.0
    if len(ins) == 1:
        return total
    contracted = any(c not in rhs for c in sizes)
    return 2.0 * total if contracted else total


def _einsum_rule(dts: Any, attrs: Any) -> Any:
    """Einsum's op def takes every type; TF's CPU kernels only those of _EINSUM_TYPES: NotFoundError."""
    d = args.same_dtype("Einsum")(dts, attrs)
    if d.kind not in _EINSUM_TYPES[0] or d.name in ("int8", "int16"):
        raise errors.NotFoundError(None, None, f"Could not find device for node: {{{{node Einsum}}}} = "
                                   f"Einsum[N={len(dts)}, T=DT_{d.name.upper()}] [Op:Einsum]")
    return d


EINSUM = register("Einsum", _einsum, _einsum_rule, _einsum_flops, kind="contraction",
                  fusion=lanes("its equation names one lane's axes: no stacked form written"))
_EINSUM_FLUSH = EINSUM.subnormals


def _moves_only(equation: str) -> bool:
    """Whether a one-operand equation sums no label (a transpose, a diagonal): TF's EinsumOp moves the values,
    subnormals kept ('ij->ji' of 1e-45 is 1e-45; fz45b, fz45_gen seed 45004 #40)."""
    lhs, out = equation.split("->")
    if "," in lhs:
        return False
    return set(lhs.replace(".", "")) <= set(out.replace(".", ""))


EINSUM.subnormals = lambda arrays, attrs: _subnormals.KEEP if _moves_only(attrs["equation"]) else (
    _EINSUM_FLUSH(arrays, attrs) if callable(_EINSUM_FLUSH) else _EINSUM_FLUSH)


def _rank_error(eager: str, text: str, i: int, equation: str, ranks: Sequence[int],
                known: Sequence[bool] | None) -> errors.InvalidArgumentError:
    err = errors.InvalidArgumentError(None, None, f"{eager} [Op:Einsum]")
    if known is not None and not known[i]:
        return err
    return trace_errors.mark_shape(err, f"{text} \t for {i}th input and equation: {equation}", "Einsum",
                                   [[1] * r for r in ranks])


def _parse(equation: str, ranks: Sequence[int], known: Sequence[bool] | None = None) -> tuple[list[str], str]:
    """The equation's operand and output subscripts with every ellipsis written out as letters
    (the implicit output: the ellipsis, then each label seen once, in alphabetical order). An
    operand of the wrong rank is the kernel's error; traced, Einsum's shape function finds it
    where the graph `known`s the operand's rank (ValueError)."""
    eq = equation.replace(" ", "")
    lhs, arrow, rhs = eq.partition("->")
    ins = lhs.split(",")
    if len(ins) != len(ranks):
        raise ValueError(f'Got {len(ranks)} inputs for equation "{equation}", expecting {len(ins)}')
    used = set(c for c in eq if c.isalpha())
    spare = [c for c in string.ascii_uppercase + string.ascii_lowercase if c not in used]
    ell_rank = max([r - (len(s) - 3) for s, r in zip(ins, ranks) if "..." in s] + [0])
    ell = "".join(spare[:ell_rank])
    out_ins = []
    for i, (s, r) in enumerate(zip(ins, ranks)):
        if "..." in s:
            n = r - (len(s) - 3)
            if n < 0:
                raise _rank_error(f"Expected input {i} to have rank at least {len(s) - 3} but got: {r}",
                                  f"Shape must be at least rank {len(s) - 3} but is rank {r}", i, equation, ranks,
                                  known)
            s = s.replace("...", ell[ell_rank - n:] if n else "")
        elif len(s) != r:
            raise _rank_error(f"Expected input {i} to have rank {len(s)} but got: {r}",
                              f"Shape must be rank {len(s)} but is rank {r}", i, equation, ranks, known)
        out_ins.append(s)
    if arrow and ell_rank > 0 and "..." not in rhs:
        # (EinsumHelper::ProcessDimensions: an operand's ellipsis dimensions, of any size, need an ellipsis in the
        # output; traced, the shape function's ValueError; TF 2.21, suite/test_asweep58.py 'a...,...b->ab')
        first = next(i for i, (s, r) in enumerate(zip(ins, ranks)) if "..." in s and r - (len(s) - 3) > 0)
        raise _rank_error(f"Output contains {ell_rank} broadcasting dimension(s) but no ellipsis (...) was found "
                          "in the output subscripts.", "Output contains broadcasting dimensions but no ellipsis "
                          "(...) was found in the output subscripts", first, equation, ranks, known)
    if arrow:
        out = rhs.replace("...", ell)
    else:
        counts: dict[str, int] = {}
        for s in ins:
            for c in s.replace("...", ""):
                counts[c] = counts.get(c, 0) + 1
        out = ell + "".join(sorted(c for c, n in counts.items() if n == 1))
    return out_ins, out


def _check_and_broadcast(ts: list[Tensor], ins: list[str], equation: str, out_labels: str = "") -> list[Tensor]:
    """TF's dimension checks; ellipsis dims of size 1 broadcast (as BroadcastTo ops). An ellipsis's letters are
    _parse's spare letters, those not in the equation: a label the equation names, upper or lower case, never
    broadcasts (TF 2.21: tf.einsum("BTNH,BSNH->BNTS") of N=2 and N=1 is InvalidArgumentError "Expected dimension 2
    at axis 2 ...", which keras.ops.dot_product_attention of one key/value head meets; cov48: an upper-case label
    was taken for an ellipsis letter and broadcast)."""
    from simdist.runtime.ops import array
    size = _sizes_broadcast(ins, [t.shape.as_list() for t in ts])
    # (EinsumHelper::ProcessDimensions takes a recorded size 0 for unset, so a label of size 0 in the first operand
    # and 1 in the second passes it; where that label is one of the output's (a batch label, 0 against 1: the output
    # is empty) TF 2.21 returns the empty result in float32 and float64; a contracted one the float32 kernel refuses
    # (float64's zeros: fz61 below). Eager only: traced, the shape function's ValueError. fz60, /work/wt/fz60_logs/q_ein3.py and
    # fz59's q_ein2.py: 'ij,jk->kij' of [2, 0] and [1, 3] is an empty [3, 2, 0])
    # (fz61: the empty output holds in every dtype (float16, bfloat16, complex128, int64 as float32 and float64), and
    # where that label is contracted TF's own EinsumOp -- every dtype oneDNN's _MklEinsum does not run: float64, the
    # complex and integer types, and float32/float16/bfloat16 with oneDNN off -- gives zeros whatever the second
    # operand's size ('ij,jk->ik' of [3, 0] and [5, 3]: zeros [3, 3]; 'i,i->' of [0] and [4]: 0), the contraction
    # being over the first operand's zero elements; _MklEinsum refuses; /work/wt/fz61_logs/q_ein64.py)
    zero_first: set = set()
    zero_contracted: set = set()
    if len(ts) == 2 and context.executing_eagerly():
        first = list(zip(ins[0], ts[0].shape.as_list()))
        zero_first = {c for c, d in first if d == 0 and c in out_labels}
        if not host_cpu.current().onednn(ts[0].dtype.name, ("float32", "bfloat16", "float16")):
            zero_contracted = {c for c, d in first if d == 0 and c not in out_labels and c in ins[1]}
    out = []
    for i, (t, s) in enumerate(zip(ts, ins)):
        shp = t.shape.as_list()
        want = [size[c] for c in s]
        if i == 1 and any(c in zero_contracted and d != 0 for c, d in zip(s, shp)):
            from simdist.runtime.ops import slicing
            t = slicing.slice_(t, [0] * len(shp), [0 if c in zero_contracted else -1 for c in s])
            shp = t.shape.as_list()
        for ax, (c, d) in enumerate(zip(s, shp)):
            if i == 1 and d == 1 and size[c] == 0 and c in zero_first:
                continue
            if d != size[c] and not (d == 1 and c not in equation):
                if not _graph_knows_clash(ts, ins, c, c not in equation):
                    # (a dimension the graph does not know: EinsumShape merges it, the kernel refuses the sizes
                    # when the graph runs; a dry run goes on with a stand-in: ssweep64)
                    raise _UnknownClash(errors.InvalidArgumentError(
                        None, None, f"Expected dimension {size[c]} at axis {ax} of the input shaped "
                        f"[{','.join(map(str, shp))}] but got dimension {d} [Op:Einsum]"), size)
                # (a traced graph's Einsum shape function: ValueError "Dimensions must be equal"; tnp29)
                raise trace_errors.shape_error(
                    f"Expected dimension {size[c]} at axis {ax} of the input shaped "
                    f"[{','.join(map(str, shp))}] but got dimension {d} [Op:Einsum]",
                    f"Dimensions must be equal, but are {size[c]} and {d}", "Einsum",
                    [x.shape.as_list() for x in ts])
        out.append(t if want == shp else array.broadcast_to(t, want))
    return out


class _UnknownClash(Exception):
    """Two sizes of a label that the graph does not both know differ (the kernel's error, `err`; `size` the probe's
    sizes per label, for a dry run's stand-in)."""

    def __init__(self, err: BaseException, size: dict[str, int]) -> None:
        super().__init__(str(err))
        self.err, self.size = err, size


def _graph_knows_clash(ts: list[Tensor], ins: list[str], label: str, broadcasts: bool) -> bool:
    """Whether EinsumShape finds `label`'s sizes different: two dimensions of it the graph knows differ (neither a
    broadcast 1 of an ellipsis letter)."""
    seen: set[int] = set()
    for t, s in zip(ts, ins):
        k = static_shapes.known_shape(t)
        if k is None or len(k) != len(s):
            continue
        seen.update(d for c, d in zip(s, k) if c == label and d is not None)
    return len(seen - {1}) > 1 if broadcasts else len(seen) > 1


def _ellipsis_as_batch(ts: list[Tensor], ins: list[str], out: str, equation: str) -> tuple[list[Tensor], list[str]]:
    """TF's EinsumOp takes an ellipsis's dimensions as batch dimensions, broadcast against an operand without them:
    `einsum('...i,ij->...j', a [3, 4], b [4, 5])` is a batch of three one-row products (b broadcast), not one
    [3, 4] x [4, 5] product, which for float16 and bfloat16 rounds in another order and can give a zero the other sign
    (fz50b, fz50b_gen seed 50003 #13, #29; TF 2.21: equal bit for bit to the batched equation with b broadcast). An
    operand lacking ellipsis letters of the output gets them, size 1 broadcast (its gradient sums them back)."""
    from simdist.runtime.ops import array
    ell = [c for c in out if c not in equation]
    if not ell:
        return ts, ins
    size = _sizes_broadcast(ins, [t.shape.as_list() for t in ts])
    ts, ins = list(ts), list(ins)
    for i in (0, 1):
        missing = "".join(c for c in ell if c in ins[1 - i] and c not in ins[i])
        if not missing or None in [size.get(c) for c in missing] or None in ts[i].shape.as_list():
            continue
        shp = ts[i].shape.as_list()
        ts[i] = array.broadcast_to(array.reshape(ts[i], [1] * len(missing) + shp), [size[c] for c in missing] + shp)
        ins[i] = missing + ins[i]
    return ts, ins


def einsum(equation: str, *inputs: Any, **kwargs: Any) -> Tensor:
    """`tf.einsum(equation, *inputs)`: matmul ('ij,jk->ik'), batch matmul, outer products,
    transposes, reductions ('ij->j'), traces and diagonals ('ii->', 'ii->i'), ellipsis
    broadcasting, and any number of operands (contracted pairwise)."""
    kwargs.pop("name", None)
    kwargs.pop("optimize", None)
    if kwargs:
        raise TypeError(f"Invalid keyword arguments for this function: {', '.join(sorted(kwargs))}")
    for x in inputs:   # TF's _einsum_v2 reads each operand's .shape first: None is AttributeError
        if not hasattr(x, "shape"):
            raise AttributeError(f"'{type(x).__name__}' object has no attribute 'shape'")
    if len(inputs) > 1:   # (gen_linalg_ops.einsum's list input in a replica: a MirroredVariable sends the call to the
        # eager fallback, which converts every operand to the first tensor's dtype: ValueError; fz52, fz50b_gen
        # seed 52002 #46, `einsum('...i,ij->...j', float32, float16 mirrored variable)`)
        from simdist.runtime.ops import math
        math.check_distributed_variables(inputs)
    ts = [_t(x) for x in inputs]
    if isinstance(equation, str) and len(equation.replace(" ", "").partition("->")[0].split(",")) != len(ts):
        # (_einsum_v2_parse_and_resolve_equation counts the operands before the op sees their dtypes: 'ij->ji'
        # of a float32 and a float64 operand is its ValueError; TF 2.21 observed, fz44b, fz44_gen seed 44001)
        _parse(equation, [t.ndim for t in ts])
    for i in range(1, len(ts)):
        if ts[i].dtype != ts[0].dtype:
            if context.executing_eagerly():   # (T's own checks first: uint32 has no kernel, NotFoundError; fz36b)
                EINSUM.dtype(tuple(ts[0].dtype for _ in ts), {"equation": equation})
            raise args.dtype_error("Einsum", i, ts[0].dtype, ts[i].dtype)
    ins, out = _parse(equation, [t.ndim for t in ts], [not static_shapes.rank_unknown(t) for t in ts])
    # (EinsumShape reads the operands as the graph knows them; the broadcasts and stand-ins below see the dry run's
    # sizes, so the result's unknown dimensions are those of the operands as given: ssweep64)
    given, resolved = list(ts), {"equation": f"{','.join(ins)}->{out}"}
    try:
        ts = _check_and_broadcast(ts, ins, equation, out)
    except _UnknownClash as e:
        known: dict[str, int] = {}
        for t, sub in zip(given, ins):
            k = static_shapes.known_shape(t)
            known.update({c: d for c, d in zip(sub, k or ()) if d is not None and known.get(c, 1) == 1})
        standin = dispatch.refused(e.err, ts[0].dtype, [known.get(c, e.size[c]) for c in out], pruned=True)
        return static_shapes.standin("Einsum", given, standin, resolved)
    if len(ts) == 2:
        ts, ins = _ellipsis_as_batch(ts, ins, out, equation)
    lhs = equation.replace(" ", "").partition("->")[0].split(",")
    if any(static_shapes.rank_unknown(t) and "..." in sub for t, sub in zip(given, lhs)):
        # (an ellipsis of an operand of unknown rank: an output of unknown rank)
        return static_shapes.mark_rank_unknown(_contract(ts, ins, out))
    return static_shapes.standin("Einsum", given, _contract(ts, ins, out), resolved)


def _contract(ts: list[Tensor], ins: list[str], out: str) -> Tensor:
    """The Einsum ops of operands `ts` with resolved subscripts `ins` (more than two: pairwise, in order)."""
    while len(ts) > 2:   # contract the first two, keeping the labels still needed
        later = "".join(ins[2:]) + out
        keep = "".join(c for c in dict.fromkeys(ins[0] + ins[1]) if c in later)
        ts = [dispatch.execute(EINSUM, ts[:2], {"equation": f"{ins[0]},{ins[1]}->{keep}"})] + ts[2:]
        ins = [keep] + ins[2:]
    return dispatch.execute(EINSUM, ts, {"equation": f"{','.join(ins)}->{out}"})


def _grad_wrt(grad: Any, out: str, x: Tensor, xs: str, other: Any = None, os: str = "") -> Tensor:
    """d/dx of einsum(xs[,os]->out): einsum(reduced+out[,os]->xs) of the gradient, with the
    labels summed away in the forward (in x only) broadcast back first (TF's _GetGradReduced /
    _GetGradWrt)."""
    from simdist.runtime.ops import array
    shp = x.shape.as_list()
    reduced = "".join(c for c in dict.fromkeys(xs) if c not in out and c not in os)
    if reduced:
        rdims = [shp[xs.index(c)] for c in reduced]
        gshape = grad.shape.as_list()
        grad = array.broadcast_to(array.reshape(grad, [1] * len(reduced) + gshape), rdims + gshape)
    lhs = reduced + out + ("," + os if other is not None else "")
    operands = (grad,) if other is None else (grad, other)
    return dispatch.execute(EINSUM, operands, {"equation": f"{lhs}->{xs}"})


@RegisterGradient("Einsum")
def _einsum_grad(op: Any, grad: Any) -> list:
    equation = op.get_attr("equation")
    if "..." in equation:   # a raw call's ellipsis (TF's _EinsumGrad sums the broadcast dimensions back)
        return _ellipsis_grad(op, grad, equation)
    lhs, out = equation.split("->")
    ins = lhs.split(",")
    if len(ins) == 1:
        return [_grad_wrt(grad, out, op.inputs[0], ins[0])]
    a, b = op.inputs
    if a.dtype.kind == "c":   # (TF's _EinsumGrad contracts with the other input's conjugate)
        from simdist.runtime.ops.complex_math import conj
        ca, cb = conj(a), conj(b)
        return [_grad_wrt(grad, out, a, ins[0], cb, ins[1]), _grad_wrt(grad, out, b, ins[1], ca, ins[0])]
    return [_grad_wrt(grad, out, a, ins[0], b, ins[1]), _grad_wrt(grad, out, b, ins[1], a, ins[0])]


def _ellipsis_grad(op: Any, grad: Any, equation: str) -> list:
    """The gradient of a raw Einsum whose equation has an ellipsis: the written-out equation's gradient with
    respect to each operand broadcast to the full sizes, then summed over the dimensions it broadcast."""
    from simdist.runtime.ops import array, math
    xs = list(op.inputs)
    shapes = [x.shape.as_list() for x in xs]
    ins, out = _parse(equation, [len(s) for s in shapes])
    size = _sizes_broadcast(ins, shapes)
    full = [x if shp == [size[c] for c in s] else array.broadcast_to(x, [size[c] for c in s])
            for x, s, shp in zip(xs, ins, shapes)]
    if len(xs) == 1:
        grads = [_grad_wrt(grad, out, full[0], ins[0])]
    else:
        a, b = full
        if a.dtype.kind == "c":
            from simdist.runtime.ops.complex_math import conj
            a_o, b_o = conj(a), conj(b)
        else:
            a_o, b_o = a, b
        grads = [_grad_wrt(grad, out, a, ins[0], b_o, ins[1]), _grad_wrt(grad, out, b, ins[1], a_o, ins[0])]
    result = []
    for g, s, shp in zip(grads, ins, shapes):
        axes = [i for i, (c, d) in enumerate(zip(s, shp)) if d != size[c]]
        result.append(math.reduce_sum(g, axes, keepdims=True) if axes else g)
    return result
