"""The arithmetic kernels of tf.sparse (clause ops.sparse): SparseAdd, SparseTensorDenseAdd,
SparseDenseCwiseMul/Div/Add, SparseSparseMaximum/Minimum, SparseSoftmax, SparseReduceSum/Max
(dense or sparse output) and SparseTensorDenseMatMul, as TF's CPU kernels compute them, with the
gradients of sparse_grad.py.

SparseAdd and SparseSparseMaximum/Minimum merge the two index lists as ordered lists (TF assumes
them ordered and does not check); SparseAdd drops a sum whose |value| < thresh (only sums of
entries present in both). The reductions group the entries by their kept dimensions (sorted) and
reduce only the stored values (an empty group's dense output is 0). SparseSoftmax computes each
row's softmax of its stored values in sorted order and writes the values in that order (with the
input's indices: TF's output values of an unordered input are the sorted entries').
SparseTensorDenseMatMul adds a_value * b[k] into out[m] entry by entry.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import dtypes, errors
from simdist.runtime.ops import array, dispatch, infer_ctx, linalg, math, scatter, slicing, trace_errors, unary
from simdist.runtime.ops.args import tf_name
from simdist.runtime.ops.counting import no_tf_gradient
from simdist.runtime.ops.prod_order import _inner_rows
from simdist.runtime.ops.registry import NotDifferentiable, RegisterGradient, get, lanes, register
from simdist.runtime.ops.sparse_core import check_sparse, invalid, lex_order
from simdist.runtime.tensor import Tensor, convert_to_tensor

__all__ = ["SPARSE_ADD", "SPARSE_DENSE_ADD", "CWISE", "SPARSE_MAXIMUM", "SPARSE_MINIMUM", "SPARSE_SOFTMAX",
           "REDUCE", "REDUCE_SPARSE", "SPARSE_MATMUL", "cwise"]

_PER_LANE = lanes("its indices come per lane")
_REAL = (dtypes.float32, dtypes.float64, dtypes.int32, dtypes.int64, dtypes.int16, dtypes.int8, dtypes.float16,
         dtypes.bfloat16, dtypes.uint8, dtypes.uint16, dtypes.uint32, dtypes.uint64)
_NUMBER = _REAL + (dtypes.complex64, dtypes.complex128)


def _no_kernel(op: str, dt: dtypes.DType) -> errors.NotFoundError:
    return errors.NotFoundError(None, None, f"Could not find device for node: {{{{node {op}}}}} = {op}[T="
                                f"DT_{dt.name.upper()}] [Op:{op}]")


def _attr_error(op: str, dt: dtypes.DType, allowed: tuple) -> errors.InvalidArgumentError:
    return errors.InvalidArgumentError(None, None, f"Value for attr 'T' of {tf_name(dt)} is not in the list of allowed "
                                       f"values: {', '.join(tf_name(d) for d in allowed)} [Op:{op}]")


def _cmp(a: np.ndarray, b: np.ndarray) -> int:
    for x, y in zip(a.tolist(), b.tolist()):
        if x != y:
            return -1 if x < y else 1
    return 0


def _union(ai: np.ndarray, bi: np.ndarray) -> list[tuple[int, int]]:
    """The merge of two index lists taken as ordered (TF's DimComparator walk): pairs (i, j), -1 for absent."""
    out, i, j = [], 0, 0
    while i < ai.shape[0] and j < bi.shape[0]:
        c = _cmp(ai[i], bi[j])
        if c < 0:
            out.append((i, -1))
            i += 1
        elif c > 0:
            out.append((-1, j))
            j += 1
        else:
            out.append((i, j))
            i += 1
            j += 1
    out += [(k, -1) for k in range(i, ai.shape[0])] + [(-1, k) for k in range(j, bi.shape[0])]
    return out


def _same_shapes(a_shape: np.ndarray, b_shape: np.ndarray, op: str) -> None:
    if a_shape.shape != b_shape.shape:
        raise invalid(f"Operands do not have the same ranks; got shapes: {a_shape.tolist()} and {b_shape.tolist()}", op)
    for d in range(a_shape.shape[0]):
        if a_shape[d] != b_shape[d]:
            raise invalid(f"Operands' shapes do not match: got {a_shape[d]} and {b_shape[d]} for dimension {d}", op)


# --- SparseAdd -----------------------------------------------------------------------------------------------------

def _sparse_add(ai: np.ndarray, av: np.ndarray, ash: np.ndarray, bi: np.ndarray, bv: np.ndarray, bsh: np.ndarray,
                thresh: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    op = "SparseAdd"
    if ai.ndim != 2 or bi.ndim != 2:
        raise invalid(f"Input indices should be matrices but received shapes: {list(ai.shape)} and "
                      f"{list(bi.shape)}", op)
    if av.ndim != 1 or bv.ndim != 1:
        raise invalid(f"Input values should be vectors but received shapes: {list(av.shape)} and {list(bv.shape)}", op)
    if av.shape[0] != ai.shape[0] or bv.shape[0] != bi.shape[0]:
        raise invalid(f"Expected {ai.shape[0]} and {bi.shape[0]} non-empty input values, got {av.shape[0]} and "
                      f"{bv.shape[0]}", op)
    _same_shapes(ash, bsh, op)
    if thresh.ndim != 0:
        raise invalid(f"The magnitude threshold must be a scalar: got shape {list(thresh.shape)}", op)
    rows, vals = [], []
    for i, j in _union(ai, bi):
        if i >= 0 and j >= 0:
            s = (av[i] + bv[j]).astype(av.dtype)
            if thresh <= np.abs(s):
                rows.append(ai[i])
                vals.append(s)
        elif i >= 0:
            rows.append(ai[i])
            vals.append(av[i])
        else:
            rows.append(bi[j])
            vals.append(bv[j])
    ind = np.array(rows, np.int64).reshape(len(rows), ash.shape[0])
    return ind, np.array(vals, av.dtype).reshape(len(vals)), ash.astype(np.int64)


_ADD_TYPES = (dtypes.float32, dtypes.float64, dtypes.int64, dtypes.int32, dtypes.int16, dtypes.int8,
              dtypes.complex64, dtypes.complex128)


def _sparse_add_rule(dts: Any, attrs: Any) -> tuple:
    # (TF 2.21 looks the kernel of a_values' dtype up before the kernel checks b_values': a float16 SparseTensor
    # plus an int32 one is NotFoundError, as float16 plus float16; fz55b seed 55209 #15)
    t = dts[1]
    if t not in _ADD_TYPES:
        if t in _NUMBER:
            raise _no_kernel("SparseAdd", t)
        raise _attr_error("SparseAdd", t, _NUMBER)
    if dts[4] != t:
        raise invalid(f"cannot compute SparseAdd as input #4(zero-based) was expected to be a {tf_name(t)} tensor but "
                      f"is a {tf_name(dts[4])} tensor", "SparseAdd")
    return (dtypes.int64, t, dtypes.int64)


SPARSE_ADD = register("SparseAdd", _sparse_add, _sparse_add_rule, lambda a, out, at: float(out[1].size),
                      num_outputs=3, kind="gather/scatter", fusion=_PER_LANE, none_grad_ok=(0, 2))


def _sparse_add_grad_kernel(grad: np.ndarray, ai: np.ndarray, bi: np.ndarray,
                            si: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """SparseAddGrad: each sum entry's gradient back to the a and b entries at its index (merge walk),
    after the kernel's checks in sparse_add_grad_op.cc's order (fuzz20 sig seed 3020261205 #81)."""
    def dims(a: np.ndarray) -> str:
        return "[" + ",".join(str(d) for d in a.shape) + "]"
    if ai.ndim != 2 or bi.ndim != 2 or si.ndim != 2:
        raise errors.InvalidArgumentError(None, None, "Input indices should be matrices but received shapes: "
                                          f"{dims(ai)} and {dims(bi)} and {dims(si)} [Op:SparseAddGrad]")
    if grad.ndim != 1:
        raise errors.InvalidArgumentError(None, None, "Input backprop_val_grad should be a vector but received "
                                          f"shape: {dims(grad)} [Op:SparseAddGrad]")
    if not ai.shape[1] == bi.shape[1] == si.shape[1]:
        raise errors.InvalidArgumentError(None, None, "The densified operands should have the same ndims; for A, "
                                          f"B, sum got: {ai.shape[1]}, {bi.shape[1]}, {si.shape[1]} [Op:SparseAddGrad]")
    if grad.size != si.shape[0]:
        raise errors.InvalidArgumentError(None, None, "# elements of backprop_val_grad and # rows of sum_indices "
                                          f"should match (#nnz of sum): got {grad.size} and {si.shape[0]} "
                                          "[Op:SparseAddGrad]")
    ga, gb = np.zeros(ai.shape[0], grad.dtype), np.zeros(bi.shape[0], grad.dtype)
    i = j = 0
    for k in range(si.shape[0]):
        while i < ai.shape[0] and _cmp(ai[i], si[k]) < 0:
            i += 1
        while j < bi.shape[0] and _cmp(bi[j], si[k]) < 0:
            j += 1
        if i < ai.shape[0] and _cmp(ai[i], si[k]) == 0:
            ga[i] = grad[k]
            i += 1
        if j < bi.shape[0] and _cmp(bi[j], si[k]) == 0:
            gb[j] = grad[k]
            j += 1
    return ga, gb


SPARSE_ADD_GRAD = register("SparseAddGrad", _sparse_add_grad_kernel, lambda dts, at: (dts[0], dts[0]),
                           lambda a, out, at: 0.0, num_outputs=2, kind="gather/scatter", fusion=_PER_LANE)
NotDifferentiable("SparseAddGrad")


@RegisterGradient("SparseAdd")
def _sparse_add_grad(op: Any, _ind: Any, val_grad: Any, _shape: Any) -> list:
    if val_grad is None:
        val_grad = array.zeros_like(op.outputs[1])
    ga, gb = dispatch.execute(SPARSE_ADD_GRAD, (val_grad, op.inputs[0], op.inputs[3], op.outputs[0]))
    return [None, ga, None, None, gb, None, None]


# --- SparseTensorDenseAdd ------------------------------------------------------------------------------------------

def _dense_add(ai: np.ndarray, av: np.ndarray, ash: np.ndarray, b: np.ndarray) -> np.ndarray:
    op = "SparseTensorDenseAdd"
    if ai.ndim != 2:
        raise invalid(f"Input a_indices should be a matrix but received shape: {list(ai.shape)}", op)
    if av.ndim != 1 or ash.ndim != 1:
        raise invalid(f"Inputs a_values and a_shape should be vectors but received shapes: {list(av.shape)} and "
                      f"{list(ash.shape)}", op)
    if ash.shape[0] != b.ndim or tuple(ash.tolist()) != b.shape:
        raise invalid(f"Dimension mismatch: a_shape {ash.tolist()} vs. b's shape {list(b.shape)}", op)
    if av.shape[0] != ai.shape[0] or ai.shape[1] != ash.shape[0]:
        raise invalid(f"Dimensions mismatch: a_indices {list(ai.shape)}, a_values {list(av.shape)}", op)
    out = b.copy()
    for n in range(ai.shape[0]):
        idx = tuple(int(x) for x in ai[n])
        if any(not 0 <= x < d for x, d in zip(idx, b.shape)):
            raise invalid(f"Index tuple ({','.join(map(str, idx))}) is out of bounds", op)
        out[idx] = out[idx] + av[n]
    return out


def _dense_add_rule(dts: Any, attrs: Any) -> dtypes.DType:
    if dts[3] != dts[1]:
        raise invalid(f"cannot compute SparseTensorDenseAdd as input #3(zero-based) was expected to be a "
                      f"{tf_name(dts[1])} tensor but is a {tf_name(dts[3])} tensor", "SparseTensorDenseAdd")
    if dts[1] not in _NUMBER:
        raise _attr_error("SparseTensorDenseAdd", dts[1], _NUMBER)
    return dts[1]


SPARSE_DENSE_ADD = register("SparseTensorDenseAdd", _dense_add, _dense_add_rule, lambda a, out, at: float(a[1].size),
                            kind="gather/scatter", fusion=_PER_LANE)


@RegisterGradient("SparseTensorDenseAdd")
def _dense_add_grad(op: Any, grad: Tensor) -> list:
    return [None, scatter.gather_nd(grad, op.inputs[0]), None, grad]


# --- SparseDenseCwise{Mul,Div,Add} ---------------------------------------------------------------------------------

def _dense_at(ind: np.ndarray, shape: np.ndarray, dense: np.ndarray, op: str) -> np.ndarray:
    """The dense operand broadcast to the sparse shape (only the dense side broadcasts), at the indices."""
    lhs = tuple(int(d) for d in shape)
    try:
        if np.broadcast_shapes(dense.shape, lhs) != lhs:
            raise ValueError
    except ValueError:
        raise invalid("SparseDenseBinaryOpShared broadcasts dense to sparse only; got incompatible shapes: "
                      f"[{','.join(map(str, lhs))}] vs. [{','.join(map(str, dense.shape))}]", op) from None
    full = np.broadcast_to(dense, lhs)
    if ind.shape[0] and (((ind < 0) | (ind >= np.asarray(lhs, np.int64))).any()):
        raise invalid("Provided indices are out-of-bounds w.r.t. dense side with broadcasted shape", op)
    return full[tuple(ind.T)] if ind.shape[0] else np.zeros(0, dense.dtype)


def _cwise_forward(kind: str) -> Any:
    def forward(ind: np.ndarray, val: np.ndarray, shape: np.ndarray, dense: np.ndarray) -> np.ndarray:
        op = f"SparseDenseCwise{kind}"
        check_sparse(ind, val, shape, op)
        d = _dense_at(ind, shape, dense, op)
        if kind == "Div" and (d == 0).any():
            raise invalid("SparseDenseCwiseDiv cannot divide by zero,but input dense tensor contains zero ", op)
        with np.errstate(all="ignore"):
            if kind == "Mul":
                return (val * d).astype(val.dtype)
            if kind == "Add":
                return (val + d).astype(val.dtype)
            if val.dtype.kind in "iu":
                if (d == 0).any():
                    raise invalid("Integer division by zero", op)
                return _int_div(val, d)
            return (val / d).astype(val.dtype)
    return forward


def _int_div(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """C++'s integer division (truncated toward zero)."""
    q = np.abs(a) // np.abs(b)
    return np.where((a < 0) != (b < 0), -q, q).astype(a.dtype)


def _cwise_rule(kind: str) -> Any:
    def rule(dts: Any, attrs: Any) -> dtypes.DType:
        op = f"SparseDenseCwise{kind}"
        if dts[3] != dts[1]:
            raise invalid(f"cannot compute {op} as input #3(zero-based) was expected to be a {tf_name(dts[1])} tensor "
                          f"but is a {tf_name(dts[3])} tensor", op)
        if dts[1] not in _NUMBER:
            raise _attr_error(op, dts[1], _NUMBER)
        if dts[1] not in _REAL:   # (the CPU kernels are registered for real types)
            raise _no_kernel(op, dts[1])
        return dts[1]
    return rule


CWISE = {k: register(f"SparseDenseCwise{k}", _cwise_forward(k), _cwise_rule(k), lambda a, out, at: float(out.size),
                     kind="gather/scatter", fusion=_PER_LANE) for k in ("Mul", "Div", "Add")}


def _scaled_indices(op: Any) -> tuple[Tensor, Tensor]:
    """sparse_grad.py's indices of the dense operand's entries each sparse entry read."""
    x_ind, x_shape, y = op.inputs[0], op.inputs[2], op.inputs[3]
    y_shape = math.cast(array.shape(y), dtypes.int64)
    added = array.expand_dims(math.subtract(array.size(x_shape), array.size(y_shape)), 0)
    augmented = array.concat([array.ones(added, dtypes.int64), y_shape], 0)
    scaled = math.floordiv(x_ind, math.floordiv(x_shape, augmented))
    return slicing.slice_(scaled, array.concat([[0], added], 0), [-1, -1]), y_shape


def _cwise_grad(is_mul: bool) -> Any:
    def grad_fn(op: Any, grad: Tensor) -> list:
        y = op.inputs[3]
        scaled, y_shape = _scaled_indices(op)
        dense_vals = scatter.gather_nd(y, scaled)
        if is_mul:
            dx = math.multiply(grad, dense_vals)
            dy_val = math.multiply(grad, op.inputs[1])
        else:
            dx = math.truediv(grad, dense_vals)
            dy_val = math.multiply(grad, math.truediv(math.negative(op.inputs[1]), unary.square(dense_vals)))
        zeros = array.zeros_like(y)
        dy = dispatch.execute(SPARSE_DENSE_ADD, (scaled, dy_val, y_shape, zeros))
        return [None, dx, None, dy]
    return grad_fn


RegisterGradient("SparseDenseCwiseMul")(_cwise_grad(True))
RegisterGradient("SparseDenseCwiseDiv")(_cwise_grad(False))


@RegisterGradient("SparseDenseCwiseAdd")
def _cwise_add_grad(op: Any, grad: Any) -> list:
    raise NotImplementedError("Gradient for SparseDenseCwiseAdd is not implemented.")


_TRUEDIV = {dtypes.uint8: dtypes.float32, dtypes.int8: dtypes.float32, dtypes.uint16: dtypes.float32,
            dtypes.int16: dtypes.float32, dtypes.uint32: dtypes.float64, dtypes.int32: dtypes.float64,
            dtypes.uint64: dtypes.float64, dtypes.int64: dtypes.float64}


def cwise(sp: Any, other: Any, kind: str) -> Any:
    """`sp * y`, `sp / y` (truediv: integers cast to float first) and `div`: SparseDenseCwise{Mul,Div}
    of the values with y converted to the values' dtype (TF's operator overrides)."""
    from simdist.runtime.sparse_tensor import SparseTensor
    y = other if isinstance(other, Tensor) else convert_to_tensor(other, dtype=sp.dtype)
    values = sp.values
    if kind == "truediv":
        if values.dtype != y.dtype:
            raise TypeError(f"`x` and `y` must have the same dtype, got tf.{values.dtype.name!s} != "
                            f"tf.{y.dtype.name!s}.")
        if values.dtype not in _TRUEDIV and values.dtype not in (dtypes.bfloat16, dtypes.float16, dtypes.float32,
                                                                 dtypes.float64, dtypes.complex64,
                                                                 dtypes.complex128):
            raise TypeError(f"Invalid dtype tf.{values.dtype.name} in __truediv__.")
        to = _TRUEDIV.get(values.dtype)
        if to is not None:
            values, y = math.cast(values, to), math.cast(y, to)
    elif y.dtype != values.dtype:
        y = convert_to_tensor(y, dtype=values.dtype)
    op = CWISE["Mul" if kind == "mul" else "Div"]
    return SparseTensor(sp.indices, dispatch.execute(op, (sp.indices, values, sp.dense_shape, y)), sp.dense_shape)


# --- SparseSparseMaximum / Minimum ---------------------------------------------------------------------------------

def _minmax(pick: Any, op: str) -> Any:
    def forward(ai: np.ndarray, av: np.ndarray, ash: np.ndarray, bi: np.ndarray, bv: np.ndarray,
                bsh: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        check_sparse(ai, av, ash, op)
        check_sparse(bi, bv, bsh, op)
        _same_shapes(ash, bsh, op)
        rows, vals = [], []
        zero = av.dtype.type(0)
        for i, j in _union(ai, bi):
            rows.append(ai[i] if i >= 0 else bi[j])
            vals.append(pick(av[i] if i >= 0 else zero, bv[j] if j >= 0 else zero))
        return np.array(rows, np.int64).reshape(len(rows), ash.shape[0]), np.array(vals, av.dtype).reshape(len(vals))
    return forward


def _minmax_rule(op: str) -> Any:
    def rule(dts: Any, attrs: Any) -> tuple:
        if dts[4] != dts[1]:
            raise invalid(f"cannot compute {op} as input #4(zero-based) was expected to be a {tf_name(dts[1])} tensor "
                          f"but is a {tf_name(dts[4])} tensor", op)
        if dts[1] not in _REAL:
            raise _attr_error(op, dts[1], _REAL)
        return (dtypes.int64, dts[1])
    return rule


def _nan_max(a: Any, b: Any) -> Any:
    """A NaN of either side, else the larger; a tie is a's (TF 2.21: `sparse.maximum` of -0.0 and an implicit 0.0 is
    -0.0, of an implicit 0.0 and -0.0 is 0.0; fz62, fourth generator seed 62401 #0)."""
    return a if (a >= b or a != a) else b


def _nan_min(a: Any, b: Any) -> Any:
    return a if (a <= b or a != a) else b


SPARSE_MAXIMUM = register("SparseSparseMaximum", _minmax(_nan_max, "SparseSparseMaximum"),
                          _minmax_rule("SparseSparseMaximum"), lambda a, out, at: float(out[1].size), num_outputs=2,
                          kind="gather/scatter", fusion=_PER_LANE)
SPARSE_MINIMUM = register("SparseSparseMinimum", _minmax(_nan_min, "SparseSparseMinimum"),
                          _minmax_rule("SparseSparseMinimum"), lambda a, out, at: float(out[1].size), num_outputs=2,
                          kind="gather/scatter", fusion=_PER_LANE)


def _two_argument_grad(name: str) -> Any:
    """TF registers `fn(unused_op, unused_grad)` for a two-output op: the tape calls it with three
    arguments, a TypeError (before its NotImplementedError)."""
    def grad_fn(op: Any, *grads: Any) -> list:
        raise TypeError(f"{name}() takes 2 positional arguments but {1 + len(grads)} were given")
    return grad_fn


RegisterGradient("SparseSparseMaximum")(_two_argument_grad("_SparseSparseMaximumGrad"))
RegisterGradient("SparseSparseMinimum")(_two_argument_grad("_SparseSparseMinimumGrad"))


# --- SparseSoftmax -------------------------------------------------------------------------------------------------

def _groups(keys: np.ndarray, rest: np.ndarray) -> list[np.ndarray]:
    """The entries of each run of equal `keys` rows, the entries sorted by (keys, rest) as TF's
    kernels reorder them first."""
    order = lex_order(np.concatenate([keys, rest], axis=1))
    out: list[np.ndarray] = []
    start = 0
    for k in range(1, order.size + 1):
        if k == order.size or (keys[order[k]] != keys[order[start]]).any():
            out.append(order[start:k])
            start = k
    return out


def _eigen_sum(v: np.ndarray) -> Any:
    lanes_ = {"float32": 8, "float64": 4, "float16": 8}.get(v.dtype.name)
    if lanes_ is None:
        acc = v.dtype.type(0)
        for x in v:
            acc = v.dtype.type(acc + x)
        return acc
    return _inner_rows(v[None, :], lanes_, np.add)[0]


def _softmax(ind: np.ndarray, val: np.ndarray, shape: np.ndarray) -> np.ndarray:
    op = "SparseSoftmax"
    if ind.ndim != 2:
        raise invalid(f"Input should be a matrix but received shape {list(ind.shape)}", op)
    if val.ndim != 1:
        raise invalid(f"Input should be a vector but received shape {list(val.shape)}", op)
    if shape.ndim != 1:
        raise invalid(f"Input should be a vector but received shape {list(shape.shape)}", op)
    if shape.shape[0] < 2:
        raise invalid(f"Input should have rank >= 2, but received shape: {shape.tolist()}", op)
    if val.shape[0] != ind.shape[0]:
        raise invalid(f"Number of values ({val.shape[0]}) must match number of indices ({ind.shape[0]})", op)
    exp = get("Exp").forward
    out = np.empty_like(val)
    k = 0
    for g in _groups(ind[:, :-1], ind[:, -1:]):
        v = val[g]
        with np.errstate(all="ignore"):
            e = exp((v - v.max()).astype(val.dtype))
            s = _eigen_sum(e)
            inv = (val.dtype.type(1) / val.dtype.type(s)).astype(val.dtype)
            out[k:k + g.size] = (e * inv).astype(val.dtype)
        k += g.size
    return out


def _softmax_rule(dts: Any, attrs: Any) -> dtypes.DType:
    allowed = (dtypes.float16, dtypes.float32, dtypes.float64)
    if dts[1] not in allowed:
        raise _attr_error("SparseSoftmax", dts[1], allowed)
    return dts[1]


SPARSE_SOFTMAX = register("SparseSoftmax", _softmax, _softmax_rule, lambda a, out, at: 4.0 * out.size,
                          kind="nn", fusion=_PER_LANE)


@RegisterGradient("SparseSoftmax")
def _softmax_grad(op: Any, grad: Tensor) -> list:
    ind, shape = op.inputs[0], op.inputs[2]
    out = op.outputs[0]
    product = math.multiply(out, grad)
    reduced = math.negative(_reduce(ind, product, shape, [-1], True, "sum"))
    summed = dispatch.execute(CWISE["Add"], (ind, grad, shape, reduced))
    return [None, math.multiply(summed, out), None]


# --- SparseReduceSum / SparseReduceMax (dense and sparse outputs) --------------------------------------------------

def _axes(axes: np.ndarray, rank: int, op: str) -> list[int]:
    out = []
    for a in np.asarray(axes).reshape(-1).tolist():
        if not -rank <= a < rank:
            raise invalid(f"Invalid reduction dimension {a}, for input with {rank} dimensions.", op)
        a %= rank
        if a in out:
            raise invalid(f"Invalid reduction arguments: Axes contains duplicate dimension: {a}", op)
        out.append(a)
    return sorted(out)


def _eigen_max(v: np.ndarray) -> Any:
    """Eigen's MaxReducer over a small group: acc = (x < acc) ? acc : x from the lowest value
    (-inf for floats), so a NaN is kept until a later number replaces it."""
    acc = v.dtype.type(-np.inf) if v.dtype.kind in "fV" else (
        v.dtype.type(False) if v.dtype.kind == "b" else np.iinfo(v.dtype).min)
    for x in v:
        acc = acc if x < acc else x
    return acc


def _reduce_groups(ind: np.ndarray, val: np.ndarray, shape: np.ndarray, axes: np.ndarray, kind: str,
                   op: str) -> tuple[list[int], list[tuple[np.ndarray, Any]]]:
    rank = shape.shape[0]   # (sparse_reduce_op.cc's order: ValidateInputs' axis range, the shape's
    # dimensions (BuildTensorShape), then SparseTensor::Create; fz23a)
    for a in np.asarray(axes).reshape(-1).tolist():
        if not -rank <= a < rank:
            raise invalid(f"Invalid reduction dimension {a}, for input with {rank} dimensions.", op)
    for d in np.asarray(shape).reshape(-1).tolist():
        if d < 0:
            raise invalid(f"Expected shape dimensions to be non-negative, got {d}", op)
    check_sparse(ind, val, shape, op)
    red = _axes(axes, rank, op)
    kept = [d for d in range(rank) if d not in red]
    keys = ind[:, kept]
    out = []
    for g in _groups(keys, ind[:, red]):
        v = val[g]
        if kind == "sum":
            r = _eigen_sum(v) if v.dtype.kind in "fc" or v.dtype.name == "bfloat16" else v.sum(dtype=v.dtype)
        else:
            r = _eigen_max(v)
        out.append((keys[g[0]], r))
    return kept, out


def _reduce_dense(ind: np.ndarray, val: np.ndarray, shape: np.ndarray, axes: np.ndarray, keep_dims: bool = False,
                  kind: str = "sum") -> np.ndarray:
    op = f"SparseReduce{kind.capitalize()}"
    kept, groups = _reduce_groups(ind, val, shape, axes, kind, op)
    out_shape = [int(shape[d]) for d in kept]
    out = np.zeros(out_shape, val.dtype)
    # (SparseReduceOp writes each group at its flat offset, the kept coordinates times the output's
    # strides, without checking each coordinate against its dimension: an index beyond one lands
    # in a later row, [1, 1, 2] of a [3, 4, 1] output at [1, 3, 0] (observed on TF 2.21; fuzz20 tape
    # seed 2620261202 #180); one beyond the output is TF's write past its buffer, left out here)
    flat = out.reshape(-1)
    strides = [int(np.prod(out_shape[i + 1:], dtype=np.int64)) for i in range(len(out_shape))]
    for key, r in groups:
        at = sum(int(k) * st for k, st in zip(key, strides))
        if 0 <= at < flat.size:
            flat[at] = r
    if keep_dims:
        full = [1 if d not in kept else int(shape[d]) for d in range(shape.shape[0])]
        out = out.reshape(full)
    return out


def _reduce_sparse(ind: np.ndarray, val: np.ndarray, shape: np.ndarray, axes: np.ndarray, keep_dims: bool = False,
                   kind: str = "sum") -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    op = f"SparseReduce{kind.capitalize()}Sparse"
    kept, groups = _reduce_groups(ind, val, shape, axes, kind, op)
    rank = shape.shape[0]
    if keep_dims:
        rows = [[int(key[kept.index(d)]) if d in kept else 0 for d in range(rank)] for key, _ in groups]
        out_shape = [int(shape[d]) if d in kept else 1 for d in range(rank)]
    else:
        rows = [[int(k) for k in key] for key, _ in groups]
        out_shape = [int(shape[d]) for d in kept]
    width = rank if keep_dims else len(kept)
    return (np.array(rows, np.int64).reshape(len(rows), width), np.array([r for _, r in groups], val.dtype),
            np.array(out_shape, np.int64))


def _reduce_rule(op: str, kind: str, sparse: bool) -> Any:
    def rule(dts: Any, attrs: Any) -> Any:
        allowed = _NUMBER if kind == "sum" else _REAL
        if dts[1] not in allowed:
            raise _attr_error(op, dts[1], allowed)
        return (dtypes.int64, dts[1], dtypes.int64) if sparse else dts[1]
    return rule


REDUCE = {k: register(f"SparseReduce{k.capitalize()}", _reduce_dense, _reduce_rule(f"SparseReduce{k.capitalize()}",
                                                                                     k, False),
                      lambda a, out, at: float(a[1].size), kind="reduction", fusion=_PER_LANE)
          for k in ("sum", "max")}
REDUCE_SPARSE = {k: register(f"SparseReduce{k.capitalize()}Sparse", _reduce_sparse,
                             _reduce_rule(f"SparseReduce{k.capitalize()}Sparse", k, True),
                             lambda a, out, at: float(a[1].size), num_outputs=3, kind="reduction", fusion=_PER_LANE)
                 for k in ("sum", "max")}
no_tf_gradient("SparseReduceMax")          # (TF 2.21 registers no gradient for them: LookupError)
no_tf_gradient("SparseReduceSumSparse")
no_tf_gradient("SparseReduceMaxSparse")


def _reduce(ind: Tensor, val: Tensor, shape: Tensor, axes: Any, keep_dims: bool, kind: str) -> Tensor:
    ax = axes if isinstance(axes, Tensor) else convert_to_tensor(np.asarray(axes, np.int32))
    return dispatch.execute(REDUCE[kind], (ind, val, shape, ax), {"keep_dims": bool(keep_dims), "kind": kind})


@RegisterGradient("SparseReduceSum")
def _reduce_sum_grad(op: Any, grad: Tensor) -> list:
    ind, shape = op.inputs[0], op.inputs[2]
    rank = int(dispatch.static_value(shape).shape[0])
    red = _axes(dispatch.static_value(op.inputs[3]), rank, "SparseReduceSum")
    kept_shape = math.cast(array.stack([array.constant(1, dtypes.int64) if d in red else shape[d]
                                        for d in range(rank)]), dtypes.int64) if rank else shape
    g = array.reshape(grad, math.cast(kept_shape, dtypes.int32))
    scale = math.floordiv(shape, kept_shape)
    return [None, scatter.gather_nd(g, math.floordiv(ind, scale)), None, None]


# --- SparseTensorDenseMatMul ---------------------------------------------------------------------------------------

def _matmul(ai: np.ndarray, av: np.ndarray, ash: np.ndarray, b: np.ndarray, adjoint_a: bool = False,
            adjoint_b: bool = False) -> np.ndarray:
    op = "SparseTensorDenseMatMul"
    # (in a graph the shape function reads a_shape's value and b's rank, WithRank(2): ValueError "Shape must be
    # rank 2 but is rank 3" at trace; TF 2.21 observed, fz44b, fz44_gen seeds 44002, 44003)
    shapes = [list(ai.shape), list(av.shape), list(ash.shape), list(b.shape)]
    if ash.ndim != 1 or ash.shape[0] != 2:
        err = invalid(f"Tensor 'a_shape' is not a vector of length 2: got shape {list(ash.shape)}", op)
        if ash.ndim == 1:
            raise trace_errors.mark_shape(err, f"Shape must be rank 2 but is rank {ash.shape[0]}", op, shapes)
        raise err
    if b.ndim != 2:
        raise trace_errors.mark_shape(invalid(f"Tensor 'b' is not a matrix: got shape {list(b.shape)}", op),
                                      f"Shape must be rank 2 but is rank {b.ndim}", op, shapes)
    if ai.ndim != 2 or ai.shape[1] != 2:
        raise invalid(f"Tensor 'a_indices' is not a matrix with 2 columns: got shape {list(ai.shape)}", op)
    if av.ndim != 1 or av.shape[0] != ai.shape[0]:
        raise invalid(f"Number of rows of a_indices does not match number of entries in a_values: "
                      f"{ai.shape[0]} vs. {av.shape[0]}", op)
    m_a, k_a = (int(ash[1]), int(ash[0])) if adjoint_a else (int(ash[0]), int(ash[1]))
    bm = np.conj(b.T) if adjoint_b and b.dtype.kind == "c" else (b.T if adjoint_b else b)
    if k_a != bm.shape[0]:
        raise invalid(f"Cannot multiply A and B because inner dimension does not match: {k_a} vs. {bm.shape[0]}.  "
                      f"Did you forget a transpose?  Dimensions of A: [{int(ash[0])}, {int(ash[1])}).  "
                      f"Dimensions of B: {list(b.shape)}", op)
    out = np.zeros((m_a, bm.shape[1]), b.dtype)
    av_ = np.conj(av) if adjoint_a and av.dtype.kind == "c" else av
    for i in range(ai.shape[0]):
        m, k = (int(ai[i, 1]), int(ai[i, 0])) if adjoint_a else (int(ai[i, 0]), int(ai[i, 1]))
        if not 0 <= k < k_a:
            raise invalid(f"k ({k}) from index[{i},{0 if adjoint_a else 1}] out of bounds (>={k_a})", op)
        if not 0 <= m < m_a:
            raise invalid(f"m ({m}) from index[{i},{1 if adjoint_a else 0}] out of bounds (>={m_a})", op)
        with np.errstate(all="ignore"):
            out[m] = (out[m] + (av_[i] * bm[k]).astype(b.dtype)).astype(b.dtype)
    return out


_MATMUL_TYPES = (dtypes.float16, dtypes.float32, dtypes.float64, dtypes.int32, dtypes.complex64, dtypes.complex128,
                 dtypes.bfloat16)   # (the CPU kernels'; other dtypes: NotFoundError)


def _matmul_rule(dts: Any, attrs: Any) -> dtypes.DType:
    op = "SparseTensorDenseMatMul"
    if dts[3] != dts[1]:
        raise invalid(f"cannot compute {op} as input #3(zero-based) was expected to be a {tf_name(dts[1])} tensor but "
                      f"is a {tf_name(dts[3])} tensor", op)
    if dts[1] not in _MATMUL_TYPES:
        raise _no_kernel(op, dts[1])
    return dts[1]


SPARSE_MATMUL = register("SparseTensorDenseMatMul", _matmul, _matmul_rule,
                         lambda a, out, at: 2.0 * a[1].size * out.shape[1], kind="contraction", fusion=_PER_LANE)
# (in a graph its shape function reads a_shape's value where the graph knows it, from_dense's shape among them:
# the inner dimensions merged, "Dimensions must be equal, but are 3 and 2" ValueError at trace; fz45b, fz44_gen
# seeds 44007-44009)
SPARSE_MATMUL.trace_shape = infer_ctx.trace_shape("SparseTensorDenseMatMul", reads_values=True)


@RegisterGradient("SparseTensorDenseMatMul")
def _matmul_grad(op: Any, grad: Tensor) -> list:
    ai, av, ash = op.inputs[:3]
    b = op.inputs[3]
    adj_a, adj_b = op.get_attr("adjoint_a"), op.get_attr("adjoint_b")
    b_grad = dispatch.execute(SPARSE_MATMUL, (ai, av, ash, grad), {"adjoint_a": not adj_a, "adjoint_b": False})
    if adj_b:
        b_grad = linalg.matrix_transpose(b_grad, conjugate=True)
    rows, cols = ai[:, 0], ai[:, 1]
    parts_a = array.gather(grad, cols if adj_a else rows)
    parts_b = array.gather(array.transpose(b) if adj_b else b, rows if adj_a else cols)
    if not adj_a and not adj_b:
        g = linalg.matmul(array.expand_dims(parts_a, -2), array.expand_dims(parts_b, -2), adjoint_b=True)
    elif adj_a and not adj_b:
        g = linalg.matmul(array.expand_dims(parts_a, -1), array.expand_dims(parts_b, -1), adjoint_a=True)
    elif not adj_a and adj_b:
        g = linalg.matmul(array.expand_dims(parts_a, -2), array.expand_dims(parts_b, -1))
    else:
        g = linalg.matmul(array.expand_dims(parts_a, -1), array.expand_dims(parts_b, -2), adjoint_a=True,
                          adjoint_b=True)
    return [None, array.squeeze(g, axis=[-2, -1]), None, b_grad]
