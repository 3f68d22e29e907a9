"""Shape functions of sparse-tensor and set raw ops (tensorflow/core/ops/sparse_ops.cc, set_ops.cc
and common_shape_fns.cc's SparseReduceShapeFn, TF 2.21), on infer_ctx's InferenceContext (clause
function.trace-time-errors; fz23a)."""

from __future__ import annotations

import numpy as np

from simdist.runtime.ops.infer_ctx import Ctx, register

__all__: list[str] = ["validate_sparse"]


@register("SparseSoftmax")
def _sparse_softmax(c: Ctx) -> None:
    """sp_indices a matrix, sp_values and sp_shape vectors (ranks only; the rows are the kernel's)."""
    c.with_rank(c.input("sp_indices"), 2)
    c.with_rank(c.input("sp_values"), 1)
    c.with_rank(c.input("sp_shape"), 1)


@register("SparseReshape")
def _sparse_reshape(c: Ctx) -> None:
    """input_indices a matrix, input_shape and new_shape vectors (ranks only)."""
    c.with_rank(c.input("input_indices"), 2)
    c.with_rank(c.input("input_shape"), 1)
    c.with_rank(c.input("new_shape"), 1)


def _cpp_mod(a: int, n: int) -> int:
    """C++'s `a % n` (the remainder takes the dividend's sign)."""
    r = abs(a) % n
    return r if a >= 0 else -r


@register("SparseReduceMax", "SparseReduceSum")
def _sparse_reduce(c: Ctx) -> None:
    """SparseReduceShapeFn: nothing unless input_shape's and reduction_axes' values are known; then
    an empty input_shape is refused, each axis taken as (axis + ndims) % ndims (C++'s remainder, so
    an axis below -ndims matches no dimension), and each kept dimension made from its value (one
    below -1 is TensorShape's "Dimension -2 must be >= 0"; a reduced one kept is 1)."""
    shape, axes = c.value("input_shape"), c.value("reduction_axes")
    if shape is None or axes is None:
        return
    dims = np.asarray(shape).reshape(-1).tolist()
    n = len(dims)
    if n == 0:
        c.fail("Number of dims in shape tensor must not be 0")
    reduced = {_cpp_mod(int(a) + n, n) for a in np.asarray(axes).reshape(-1).tolist()}
    for d in range(n):   # (a reduced dimension is 1 with keep_dims, absent without: never refused)
        if d not in reduced and dims[d] < -1:
            c.fail(f"Dimension {dims[d]} must be >= 0")


def validate_sparse(c: Ctx, ind: str, val: str, shp: str) -> list:
    """shape_inference::ValidateSparseTensor: indices a matrix, values and shape vectors; the known
    counts of index rows and values equal, of index columns and shape entries equal. Returns the
    shape vector's shape."""
    i = c.with_rank(c.input(ind), 2)
    v = c.with_rank(c.input(val), 1)
    s = c.with_rank(c.input(shp), 1)
    if i[0] is not None and v[0] is not None and i[0] != v[0]:
        c.fail(f"Number of elements in index ({i[0]}) and values ({v[0]}) do not match.")
    if i[1] is not None and s[0] is not None and i[1] != s[0]:
        c.fail(f"Index rank ({i[1]}) and shape rank ({s[0]}) do not match.")
    return s


@register("DenseToDenseSetOperation")
def _dense_dense_set(c: Ctx) -> None:
    """set1 of rank >= 2; where its rank is known set2 of that rank and their leading dimensions
    merged, else set2 of rank >= 2."""
    s0 = c.with_rank_at_least(c.input("set1"), 2)
    if s0 is not None:
        s1 = c.with_rank(c.input("set2"), len(s0))
        c.merge(c.subshape(s0, 0, len(s1) - 1), c.subshape(s1, 0, len(s1) - 1))
    else:
        c.with_rank_at_least(c.input("set2"), 2)


@register("DenseToSparseSetOperation")
def _dense_sparse_set(c: Ctx) -> None:
    """set2 a valid sparse tensor (ValidateSparseTensor), set1 of rank >= 2, whose known rank the
    known length of set2_shape must equal (WithValue)."""
    s = validate_sparse(c, "set2_indices", "set2_values", "set2_shape")
    s0 = c.with_rank_at_least(c.input("set1"), 2)
    if s0 is not None:
        c.with_value(s[0], len(s0))


@register("SparseTensorDenseMatMul")
def _sparse_tensor_dense_mat_mul(c: Ctx) -> None:
    """sparse_ops.cc: a_indices a matrix, a_values a vector, a_shape's value of rank 2 (its known
    values: MakeShapeFromShapeTensor), b a matrix, then the inner dimensions merged under the
    adjoints (fuzz20 sig seed 2520261203 #44)."""
    c.with_rank(c.input("a_indices"), 2)
    c.with_rank(c.input("a_values"), 1)
    a = c.with_rank(c.shape_from_tensor("a_shape"), 2)
    b = c.with_rank(c.input("b"), 2)
    c.merge_dim(a[0 if c.attr("adjoint_a") else 1], b[1 if c.attr("adjoint_b") else 0])
