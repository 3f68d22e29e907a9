"""tnp's products (TF 2.21's np_math_ops dot/matmul/tensordot/inner/outer/cross/vdot/kron/
einsum): operands promoted to their NumPy result type, then tf.tensordot/tf.matmul/tf.einsum.
matmul's InvalidArgumentError comes back as ValueError with the same text.
"""

from __future__ import annotations

from typing import Any

from simdist.runtime import dtypes, errors
from simdist.runtime.ops import tnp_arrays as _arr
from simdist.runtime.ops.array import concat, range_, reshape, shape, stack, transpose, zeros
from simdist.runtime.ops.linalg import matmul as _matmul, tensordot as _tensordot
from simdist.runtime.ops.tnp_math import bin_op
from simdist.runtime.tensor import Tensor


def dot(a: Any, b: Any) -> Tensor:
    """`tnp.dot`: a * b with a scalar, else a tensordot over a's last axis and b's last (1-D b)
    or second-to-last axis."""
    def f(x: Tensor, y: Tensor) -> Tensor:
        if x.shape.rank == 0 or y.shape.rank == 0:
            return x * y
        return _tensordot(x, y, axes=[[-1], [-1]] if y.shape.rank == 1 else [[-1], [-2]])
    return bin_op(f, a, b)


def matmul(x1: Any, x2: Any) -> Tensor:
    """`tnp.matmul`: MatMul of two matrices, a tensordot with a 1-D operand, else tf.matmul."""
    from simdist.runtime.ops import raw_ops

    def f(a: Tensor, b: Tensor) -> Tensor:
        try:
            if _arr.graph_shape(a).rank == 2 and _arr.graph_shape(b).rank == 2:
                return raw_ops.function("MatMul")(a=a, b=b)
            if _arr.tf_rank(b) == 1:
                return _tensordot(a, b, axes=1)
            if _arr.tf_rank(a) == 1:
                return _tensordot(a, b, axes=[[0], [-2]])
            return _matmul(a, b)
        except errors.InvalidArgumentError as err:
            raise ValueError(str(err)) from None
    return bin_op(f, x1, x2)


def tensordot(a: Any, b: Any, axes: Any = 2) -> Tensor:
    """`tnp.tensordot`: tf.tensordot at the promoted dtype."""
    return bin_op(lambda x, y: _tensordot(x, y, axes=axes), a, b)


def inner(a: Any, b: Any) -> Tensor:
    """`tnp.inner`: a * b with a scalar, else a tensordot over both last axes."""
    def f(x: Tensor, y: Tensor) -> Tensor:
        if x.shape.rank == 0 or y.shape.rank == 0:
            return x * y
        return _tensordot(x, y, axes=[[-1], [-1]])
    return bin_op(f, a, b)


def outer(a: Any, b: Any) -> Tensor:
    """`tnp.outer`: a flattened as a column times b flattened."""
    return bin_op(lambda x, y: reshape(x, [-1, 1]) * reshape(y, [-1]), a, b)


def vdot(a: Any, b: Any) -> Tensor:
    """`tnp.vdot`: dot of both flattened, a conjugated when complex."""
    from simdist.runtime.ops.tnp_math import conj
    a, b = _arr.promote_dtype(a, b)
    a, b = reshape(a, [-1]), reshape(b, [-1])
    if a.dtype in (dtypes.complex128, dtypes.complex64):
        a = conj(a)
    return dot(a, b)


def cross(a: Any, b: Any, axisa: int = -1, axisb: int = -1, axisc: int = -1, axis: Any = None) -> Tensor:
    """`tnp.cross`: tf.linalg.cross of the vectors along axisa/axisb (2-vectors padded with a
    zero z; two 2-vectors give the z component), the result's vectors along axisc."""
    from simdist.runtime.ops.linalg_more import cross as _cross
    from simdist.runtime.ops.slicing import pad
    from simdist.runtime.ops.tnp_shape import tf_broadcast

    def f(x: Tensor, y: Tensor) -> Tensor:
        axis_a, axis_b, axis_c = (axisa, axisb, axisc) if axis is None else (axis, axis, axis)
        if axis_a < 0:
            axis_a += x.shape.rank
        if axis_b < 0:
            axis_b += y.shape.rank

        def to_last(t: Tensor, ax: int) -> Tensor:
            r = t.shape.rank
            if ax == r - 1:
                return t
            return transpose(t, concat([range_(ax), range_(ax + 1, r), [ax]], axis=0))
        x, y = to_last(x, axis_a), to_last(y, axis_b)
        x_dim, y_dim = x.shape[-1], y.shape[-1]

        def pad_0(t: Tensor, n: Any) -> Tensor:
            if n != 2:
                return t
            return pad(t, concat([zeros([t.shape.rank - 1, 2], dtypes.int32),
                                  stack([[0, 1]])], axis=0))
        x, y = pad_0(x, x_dim), pad_0(y, y_dim)
        c = _cross(*tf_broadcast(x, y))
        if axis_c < 0:
            axis_c += c.shape.rank
        if x_dim == 2 and y_dim == 2:
            return c[..., 2]
        r = c.shape.rank
        if axis_c == r - 1:
            return c
        return transpose(c, concat([range_(axis_c), [r - 1], range_(axis_c, r - 1)], axis=0))
    return bin_op(f, a, b)


def kron(a: Any, b: Any) -> Tensor:
    """`tnp.kron`: both at one rank (ones prepended), interleaved as [d, 1] x [1, e] and
    multiplied, reshaped to the product of the shapes."""
    from simdist.runtime.ops.array import ones_like
    from simdist.runtime.ops.tnp_shape import _pad_left_to, reshape as tnp_reshape
    a, b = _arr.promote_dtype(a, b)
    sa, sb = _arr.graph_shape(a), _arr.graph_shape(b)
    t_a = tnp_reshape(a, _pad_left_to(sb.rank, sa)) if sa.rank < sb.rank else a
    t_b = tnp_reshape(b, _pad_left_to(sa.rank, sb)) if sb.rank < sa.rank else b

    def make_shape(sh: Tensor, prepend: bool) -> Tensor:
        ones = ones_like(sh)
        return reshape(stack([ones, sh] if prepend else [sh, ones], axis=1), [-1])
    a_shape, b_shape = shape(t_a), shape(t_b)
    a_r = tnp_reshape(t_a, make_shape(a_shape, False))
    b_r = tnp_reshape(t_b, make_shape(b_shape, True))
    return tnp_reshape(a_r * b_r, a_shape * b_shape)


def einsum(subscripts: str, *operands: Any, **kwargs: Any) -> Tensor:
    """`tnp.einsum`: tf.einsum of the operands promoted (casting='safe') or as they are ('no');
    optimize False/True/'greedy' is greedy, 'optimal' optimal."""
    from simdist.runtime.ops.einsum import einsum as _einsum
    casting = kwargs.get("casting", "safe")
    optimize = kwargs.get("optimize", False)
    if casting == "safe":
        operands = _arr.promote_dtype(*operands)
    elif casting == "no":
        operands = [_arr.asarray(x) for x in operands]
    else:
        raise ValueError('Invalid value for argument `casting`. Expected casting="safe" or casting="no". '
                         f"Received: casting={casting}")
    if not optimize or optimize is True or optimize == "greedy":
        tf_optimize = "greedy"
    elif optimize == "optimal":
        tf_optimize = "optimal"
    else:
        raise ValueError('Invalid value for argument `optimize`. Expected one of {True, "greedy", "optimal"}. '
                         f"Received: optimize={optimize}")
    return _einsum(subscripts, *operands, optimize=tf_optimize)
