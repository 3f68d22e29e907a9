"""`tf.linalg.LinearOperator` and its core subclasses (clause ops.linalg-more; the forty-third session): the base
class, LinearOperatorFullMatrix, LinearOperatorDiag, LinearOperatorLowerTriangular, and the operators the
base class builds, LinearOperatorAdjoint, LinearOperatorInversion and LinearOperatorComposition.

Transcribed from TF 2.21's tensorflow/python/ops/linalg/linear_operator.py, linear_operator_full_matrix.py,
linear_operator_diag.py, linear_operator_lower_triangular.py, linear_operator_adjoint.py,
linear_operator_inversion.py, linear_operator_composition.py, linear_operator_util.py and
property_hint_util.py, over simdist's public tf ops (so gradients and costs come with them). Not modelled:
name scopes (no observable op names), the CompositeTensor side (an operator is not a tf.function argument),
TF's "(possibly slow) default implementation" log warnings, dynamic (unknown) shapes.
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["LinearOperator", "LinearOperatorFullMatrix", "LinearOperatorDiag", "LinearOperatorLowerTriangular",
           "LinearOperatorAdjoint", "LinearOperatorInversion", "LinearOperatorComposition", "LinearOperatorIdentity",
           "LinearOperatorScaledIdentity", "LinearOperatorPermutation", "LinearOperatorHouseholder",
           "LinearOperatorZeros", "LinearOperatorTridiag", "LinearOperatorKronecker", "LinearOperatorLowRankUpdate",
           "LinearOperatorBlockDiag", "LinearOperatorCirculant", "LinearOperatorCirculant2D", "LinearOperatorCirculant3D",
           "LinearOperatorToeplitz", "LinearOperatorBlockLowerTriangular"]


def _tf() -> Any:
    from simdist import tf
    return tf


def _convert_nonref_to_tensor(value: Any, name: str) -> Any:
    """A variable is kept (TF's is_ref), anything else converted to a tensor."""
    tf = _tf()
    if isinstance(value, tf.Variable):
        return value
    return tf.convert_to_tensor(value, name=name)


def _dimension_at_index(shape: Any, index: int) -> Any:
    from simdist.runtime.dimension import Dimension
    if shape.rank is None:
        return Dimension(None)
    return shape.dims[index]


def _use_operator_or_provided_hint_unless_contradicting(operator: Any, hint_attr_name: str, provided: Any,
                                                        message: str) -> bool | None:
    op_hint = getattr(operator, hint_attr_name)
    if op_hint is False and provided:
        raise ValueError(message)
    if op_hint and provided is False:
        raise ValueError(message)
    if op_hint or provided:
        return True
    if op_hint is False or provided is False:
        return False
    return None


def _is_adjoint_pair(x: Any, y: Any) -> bool:
    if x is y:
        if x.is_self_adjoint is False:
            return False
        if x.is_self_adjoint:
            return True
    return x.H is y or y.H is x


def _is_aat_form(operators: list) -> bool:
    operators = list(operators)
    if not operators:
        raise ValueError("AAT form is undefined for empty operators")
    if len(operators) % 2:
        return False
    return all(_is_adjoint_pair(operators[i], operators[-1 - i]) for i in range(len(operators) // 2))


def _hint_is_square(a: Any, b: Any) -> bool | None:
    if a.is_square and b.is_square:
        return True
    if a.is_square is False and b.is_square is False:
        m, n = a.range_dimension, b.domain_dimension
        if m is not None and n is not None:
            return m == n
    if a.is_square != b.is_square and a.is_square is not None and b.is_square is not None:
        return False
    return None


def _combined_non_singular_hint(a: Any, b: Any) -> bool | None:
    if a.is_non_singular is False or b.is_non_singular is False:
        return False
    return a.is_non_singular and b.is_non_singular


def _combined_commuting_self_adjoint_hint(a: Any, b: Any) -> bool | None:
    if a.is_self_adjoint and b.is_self_adjoint:
        return True
    if (a.is_self_adjoint is True and b.is_self_adjoint is False
            or a.is_self_adjoint is False and b.is_self_adjoint is True):
        return False
    return None


def _combined_commuting_positive_definite_hint(a: Any, b: Any) -> bool | None:
    if (a.is_positive_definite is True and a.is_self_adjoint is True and b.is_positive_definite is True
            and b.is_self_adjoint is True):
        return True
    return None


def _matrix_solve_with_broadcast(matrix: Any, rhs: Any, adjoint: bool = False) -> Any:
    """linear_operator_util.matrix_solve_with_broadcast (its reshape for efficiency included)."""
    tf = _tf()
    matrix = tf.convert_to_tensor(matrix, name="matrix")
    rhs = tf.convert_to_tensor(rhs, name="rhs", dtype=matrix.dtype)
    matrix, rhs, reshape_inv, still_need_to_transpose = _reshape_for_efficiency(matrix, rhs, adjoint_a=adjoint)
    matrix, rhs = _broadcast_matrix_batch_dims([matrix, rhs])
    solution = tf.linalg.solve(matrix, rhs, adjoint=adjoint and still_need_to_transpose)
    return reshape_inv(solution)


def _broadcast_matrix_batch_dims(batch_matrices: list) -> list:
    tf = _tf()
    batch_matrices = [tf.convert_to_tensor(m) for m in batch_matrices]
    if len(batch_matrices) < 2:
        return batch_matrices
    bcast = batch_matrices[0].shape[:-2]
    for mat in batch_matrices[1:]:
        bcast = tf.broadcast_static_shape(bcast, mat.shape[:-2])
    for i, mat in enumerate(batch_matrices):
        if mat.shape[:-2] != bcast:
            batch_matrices[i] = tf.broadcast_to(mat, tf.concat([bcast.as_list(), tf.shape(mat)[-2:]], axis=0))
    return batch_matrices


def _reshape_for_efficiency(a: Any, b: Any, adjoint_a: bool = False) -> tuple:
    tf = _tf()

    def identity(x: Any) -> Any:
        return x
    if a.shape.ndims >= b.shape.ndims:
        return a, b, identity, True
    b_extra_ndims = b.shape.ndims - a.shape.ndims
    a_domain_sz_ = a.shape[-2 if adjoint_a else -1]
    b_eq_sz_ = b.shape[-1]
    b_extra_sz_ = int(np.prod(b.shape[:b_extra_ndims].as_list()))
    if b_extra_sz_ < 2 or a_domain_sz_ <= b_eq_sz_:
        return a, b, identity, True
    if adjoint_a:
        a = tf.linalg.matrix_transpose(a, conjugate=True)
    b_extra_sh = tf.shape(b)[:b_extra_ndims]
    b_main_sh = tf.shape(b)[b_extra_ndims:]
    perm = np.concatenate((np.arange(b_extra_ndims, b.shape.ndims), np.arange(0, b_extra_ndims)), 0)
    b_extra_on_end = tf.transpose(b, perm=perm)
    b_squashed_end = tf.reshape(b_extra_on_end, tf.concat((b_main_sh[:-1], [-1]), 0))

    def reshape_inv(y: Any) -> Any:
        y_extra_shape = tf.concat((tf.shape(y)[:-1], [b_main_sh[-1]], b_extra_sh), 0)
        y_extra_on_end = tf.reshape(y, y_extra_shape)
        return tf.transpose(y_extra_on_end, perm=np.argsort(perm))
    return a, b_squashed_end, reshape_inv, False



def _determinant_product(operators: Any) -> Any:
    """The product of the operators' determinants, left to right (TF's composition and block operators)."""
    result = operators[0].determinant()
    for operator in operators[1:]:
        result *= operator.determinant()
    return result


def _log_abs_determinant_sum(operators: Any) -> Any:
    """The sum of the operators' log |determinant|s, left to right."""
    result = operators[0].log_abs_determinant()
    for operator in operators[1:]:
        result += operator.log_abs_determinant()
    return result

class LinearOperator:
    """Base class defining a [batch of] linear operator[s] (TF 2.21's linear_operator.LinearOperator)."""

    def __init__(self, dtype: Any, graph_parents: Any = None, is_non_singular: Any = None,
                 is_self_adjoint: Any = None, is_positive_definite: Any = None, is_square: Any = None,
                 name: Any = None, parameters: Any = None) -> None:
        tf = _tf()
        if is_positive_definite:
            if is_non_singular is False:
                raise ValueError("A positive definite matrix is always non-singular.")
            is_non_singular = True
        if is_non_singular:
            if is_square is False:
                raise ValueError("A non-singular matrix is always square.")
            is_square = True
        if is_self_adjoint:
            if is_square is False:
                raise ValueError("A self-adjoint matrix is always square.")
            is_square = True
        self._is_square_set_or_implied_by_hints = is_square
        self._graph_parents = [] if graph_parents is None else list(graph_parents)
        self._dtype = tf.as_dtype(dtype).base_dtype if dtype else dtype
        self._is_non_singular = is_non_singular
        self._is_self_adjoint = is_self_adjoint
        self._is_positive_definite = is_positive_definite
        self._parameters = parameters
        self._name = name or type(self).__name__

    @property
    def parameters(self) -> dict:
        return dict(self._parameters)

    @property
    def dtype(self) -> Any:
        return self._dtype

    @property
    def name(self) -> str:
        return self._name

    @property
    def graph_parents(self) -> list:
        return self._graph_parents

    @property
    def is_non_singular(self) -> Any:
        return self._is_non_singular

    @property
    def is_self_adjoint(self) -> Any:
        return self._is_self_adjoint

    @property
    def is_positive_definite(self) -> Any:
        return self._is_positive_definite

    @property
    def is_square(self) -> Any:
        auto_square_check = self.domain_dimension == self.range_dimension
        if self._is_square_set_or_implied_by_hints is False and auto_square_check:
            raise ValueError("User set is_square hint to False, but the operator was square.")
        if self._is_square_set_or_implied_by_hints is None:
            return auto_square_check
        return self._is_square_set_or_implied_by_hints

    def _shape(self) -> Any:
        raise NotImplementedError("_shape is not implemented.")

    @property
    def shape(self) -> Any:
        return self._shape()

    def shape_tensor(self, name: str = "shape_tensor") -> Any:
        return _tf().constant(self.shape.as_list(), dtype=_tf().int32)

    @property
    def batch_shape(self) -> Any:
        return self.shape[:-2]

    def batch_shape_tensor(self, name: str = "batch_shape_tensor") -> Any:
        return _tf().constant(self.batch_shape.as_list(), dtype=_tf().int32)

    @property
    def tensor_rank(self) -> Any:
        return self.shape.ndims

    def tensor_rank_tensor(self, name: str = "tensor_rank_tensor") -> Any:
        return _tf().convert_to_tensor(self.tensor_rank)

    @property
    def domain_dimension(self) -> Any:
        return _dimension_at_index(self.shape, -1)

    def domain_dimension_tensor(self, name: str = "domain_dimension_tensor") -> Any:
        return _tf().convert_to_tensor(self.domain_dimension.value)

    @property
    def range_dimension(self) -> Any:
        from simdist.runtime.dimension import Dimension
        if self.shape.dims:
            return self.shape.dims[-2]
        return Dimension(None)

    def range_dimension_tensor(self, name: str = "range_dimension_tensor") -> Any:
        return _tf().convert_to_tensor(self.range_dimension.value)

    def _check_input_dtype(self, arg: Any) -> None:
        if arg.dtype.base_dtype != self.dtype:
            raise TypeError("Expected argument to have dtype %s.  Found: %s in tensor %s" % (self.dtype, arg.dtype, arg))

    def _matmul(self, x: Any, adjoint: bool = False, adjoint_arg: bool = False) -> Any:
        raise NotImplementedError("_matmul is not implemented.")

    def matmul(self, x: Any, adjoint: bool = False, adjoint_arg: bool = False, name: str = "matmul") -> Any:
        if isinstance(x, LinearOperator):
            left_operator = self.adjoint() if adjoint else self
            right_operator = x.adjoint() if adjoint_arg else x
            if (right_operator.range_dimension is not None and left_operator.domain_dimension is not None
                    and right_operator.range_dimension != left_operator.domain_dimension):
                raise ValueError("Operators are incompatible. Expected `x` to have dimension {} but got {}.".format(
                    left_operator.domain_dimension, right_operator.range_dimension))
            return self._linop_matmul(left_operator, right_operator)
        x = _tf().convert_to_tensor(x, name="x")
        self._check_input_dtype(x)
        self_dim = -2 if adjoint else -1
        arg_dim = -1 if adjoint_arg else -2
        _dimension_at_index(self.shape, self_dim).assert_is_compatible_with(x.shape[arg_dim])
        return self._matmul(x, adjoint=adjoint, adjoint_arg=adjoint_arg)

    def _linop_matmul(self, left_operator: "LinearOperator", right_operator: "LinearOperator") -> "LinearOperator":
        if hasattr(right_operator, "_ones_diag") and not hasattr(right_operator, "multiplier"):
            return left_operator
        if hasattr(right_operator, "_zeros_diag"):
            if not right_operator.is_square or not left_operator.is_square:
                raise ValueError("Matmul with non-square `LinearOperator`s or non-square `LinearOperatorZeros` not "
                                 "supported at this time.")
            return right_operator
        is_square = _hint_is_square(left_operator, right_operator)
        is_non_singular = is_self_adjoint = is_positive_definite = None
        if is_square:
            is_non_singular = _combined_non_singular_hint(left_operator, right_operator)
        elif is_square is False:
            is_non_singular = is_self_adjoint = is_positive_definite = False
        return LinearOperatorComposition(operators=[left_operator, right_operator], is_non_singular=is_non_singular,
                                         is_self_adjoint=is_self_adjoint, is_positive_definite=is_positive_definite,
                                         is_square=is_square)

    def __matmul__(self, other: Any) -> Any:
        return self.matmul(other)

    def _matvec(self, x: Any, adjoint: bool = False) -> Any:
        tf = _tf()
        y_mat = self.matmul(tf.expand_dims(x, axis=-1), adjoint=adjoint)
        return tf.squeeze(y_mat, axis=-1)

    def matvec(self, x: Any, adjoint: bool = False, name: str = "matvec") -> Any:
        x = _tf().convert_to_tensor(x, name="x")
        self._check_input_dtype(x)
        self_dim = -2 if adjoint else -1
        _dimension_at_index(self.shape, self_dim).assert_is_compatible_with(x.shape[-1])
        return self._matvec(x, adjoint=adjoint)

    def _can_use_cholesky(self) -> Any:
        return self.is_self_adjoint and self.is_positive_definite

    def _determinant(self) -> Any:
        tf = _tf()
        if self._can_use_cholesky():
            return tf.exp(self.log_abs_determinant())
        return tf.linalg.det(self.to_dense())

    def determinant(self, name: str = "det") -> Any:
        if self.is_square is False:
            raise NotImplementedError("Determinant not implemented for an operator that is expected to not be square.")
        return self._determinant()

    def _log_abs_determinant(self) -> Any:
        tf = _tf()
        if self._can_use_cholesky():
            diag = tf.linalg.diag_part(tf.linalg.cholesky(self.to_dense()))
            return 2 * tf.reduce_sum(tf.math.log(diag), axis=[-1])
        _, log_abs_det = tf.linalg.slogdet(self.to_dense())
        return log_abs_det

    def log_abs_determinant(self, name: str = "log_abs_det") -> Any:
        if self.is_square is False:
            raise NotImplementedError("Determinant not implemented for an operator that is expected to not be square.")
        return self._log_abs_determinant()

    def _dense_solve(self, rhs: Any, adjoint: bool = False, adjoint_arg: bool = False) -> Any:
        tf = _tf()
        if self.is_square is False:
            raise NotImplementedError("Solve is not yet implemented for non-square operators.")
        rhs = tf.linalg.adjoint(rhs) if adjoint_arg else rhs
        if self._can_use_cholesky():
            return tf.linalg.cholesky_solve(tf.linalg.cholesky(self.to_dense()), rhs)
        return _matrix_solve_with_broadcast(self.to_dense(), rhs, adjoint=adjoint)

    def _solve(self, rhs: Any, adjoint: bool = False, adjoint_arg: bool = False) -> Any:
        return self._dense_solve(rhs, adjoint=adjoint, adjoint_arg=adjoint_arg)

    def solve(self, rhs: Any, adjoint: bool = False, adjoint_arg: bool = False, name: str = "solve") -> Any:
        if self.is_non_singular is False:
            raise NotImplementedError("Exact solve not implemented for an operator that is expected to be singular.")
        if self.is_square is False:
            raise NotImplementedError("Exact solve not implemented for an operator that is expected to not be square.")
        if isinstance(rhs, LinearOperator):
            left_operator = self.adjoint() if adjoint else self
            right_operator = rhs.adjoint() if adjoint_arg else rhs
            if (right_operator.range_dimension is not None and left_operator.domain_dimension is not None
                    and right_operator.range_dimension != left_operator.domain_dimension):
                raise ValueError("Operators are incompatible. Expected `rhs` to have dimension {} but got {}.".format(
                    left_operator.domain_dimension, right_operator.range_dimension))
            return self._linop_solve(left_operator, right_operator)
        rhs = _tf().convert_to_tensor(rhs, name="rhs")
        self._check_input_dtype(rhs)
        self_dim = -1 if adjoint else -2
        arg_dim = -1 if adjoint_arg else -2
        _dimension_at_index(self.shape, self_dim).assert_is_compatible_with(rhs.shape[arg_dim])
        return self._solve(rhs, adjoint=adjoint, adjoint_arg=adjoint_arg)

    def _linop_solve(self, left_operator: "LinearOperator", right_operator: "LinearOperator") -> "LinearOperator":
        if hasattr(right_operator, "_ones_diag") and not hasattr(right_operator, "multiplier"):
            return left_operator.inverse()
        is_square = _hint_is_square(left_operator, right_operator)
        is_non_singular = is_self_adjoint = is_positive_definite = None
        if is_square:
            is_non_singular = _combined_non_singular_hint(left_operator, right_operator)
        elif is_square is False:
            is_non_singular = is_self_adjoint = is_positive_definite = False
        return LinearOperatorComposition(operators=[LinearOperatorInversion(left_operator), right_operator],
                                         is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                                         is_positive_definite=is_positive_definite, is_square=is_square)

    def _solvevec(self, rhs: Any, adjoint: bool = False) -> Any:
        tf = _tf()
        solution_mat = self.solve(tf.expand_dims(rhs, axis=-1), adjoint=adjoint)
        return tf.squeeze(solution_mat, axis=-1)

    def solvevec(self, rhs: Any, adjoint: bool = False, name: str = "solve") -> Any:
        rhs = _tf().convert_to_tensor(rhs, name="rhs")
        self._check_input_dtype(rhs)
        self_dim = -1 if adjoint else -2
        _dimension_at_index(self.shape, self_dim).assert_is_compatible_with(rhs.shape[-1])
        return self._solvevec(rhs, adjoint=adjoint)

    def adjoint(self, name: str = "adjoint") -> "LinearOperator":
        if self.is_self_adjoint is True:
            return self
        return self._linop_adjoint()

    H = property(adjoint, None)

    def _linop_adjoint(self) -> "LinearOperator":
        return LinearOperatorAdjoint(self, is_non_singular=self.is_non_singular, is_self_adjoint=self.is_self_adjoint,
                                     is_positive_definite=self.is_positive_definite, is_square=self.is_square)

    def inverse(self, name: str = "inverse") -> "LinearOperator":
        if self.is_square is False:
            raise ValueError("Cannot take the Inverse: This operator represents a non square matrix.")
        if self.is_non_singular is False:
            raise ValueError("Cannot take the Inverse: This operator represents a singular matrix.")
        return self._linop_inverse()

    def _linop_inverse(self) -> "LinearOperator":
        return LinearOperatorInversion(self, is_non_singular=self.is_non_singular,
                                       is_self_adjoint=self.is_self_adjoint,
                                       is_positive_definite=self.is_positive_definite, is_square=self.is_square)

    def cholesky(self, name: str = "cholesky") -> "LinearOperator":
        if not self._can_use_cholesky():
            raise ValueError("Cannot take the Cholesky decomposition: Not a positive definite self adjoint matrix.")
        return self._linop_cholesky()

    def _linop_cholesky(self) -> "LinearOperator":
        return LinearOperatorLowerTriangular(_tf().linalg.cholesky(self.to_dense()), is_non_singular=True,
                                             is_self_adjoint=False, is_square=True)

    def _to_dense(self) -> Any:
        tf = _tf()
        eye = tf.eye(num_rows=self.domain_dimension.value, batch_shape=self.batch_shape.as_list(), dtype=self.dtype)
        return self.matmul(eye)

    def to_dense(self, name: str = "to_dense") -> Any:
        return self._to_dense()

    def _diag_part(self) -> Any:
        return _tf().linalg.diag_part(self.to_dense())

    def diag_part(self, name: str = "diag_part") -> Any:
        return self._diag_part()

    def _trace(self) -> Any:
        return _tf().reduce_sum(self.diag_part(), axis=-1)

    def trace(self, name: str = "trace") -> Any:
        return self._trace()

    def _add_to_tensor(self, x: Any) -> Any:
        return self.to_dense() + x

    def add_to_tensor(self, x: Any, name: str = "add_to_tensor") -> Any:
        x = _tf().convert_to_tensor(x, name="x")
        self._check_input_dtype(x)
        return self._add_to_tensor(x)

    def _eigvals(self) -> Any:
        return _tf().linalg.eigvalsh(self.to_dense())

    def eigvals(self, name: str = "eigvals") -> Any:
        if not self.is_self_adjoint:
            raise NotImplementedError("Only self-adjoint matrices are supported.")
        return self._eigvals()

    def _cond(self) -> Any:
        tf = _tf()
        if not self.is_self_adjoint:
            vals = tf.linalg.svd(self.to_dense(), compute_uv=False)
        else:
            vals = tf.abs(self._eigvals())
        return tf.reduce_max(vals, axis=-1) / tf.reduce_min(vals, axis=-1)

    def cond(self, name: str = "cond") -> Any:
        return self._cond()


class LinearOperatorFullMatrix(LinearOperator):
    """`LinearOperator` that wraps a [batch] matrix."""

    def __init__(self, matrix: Any, is_non_singular: Any = None, is_self_adjoint: Any = None,
                 is_positive_definite: Any = None, is_square: Any = None, name: str = "LinearOperatorFullMatrix") -> None:
        parameters = dict(matrix=matrix, is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                          is_positive_definite=is_positive_definite, is_square=is_square, name=name)
        self._matrix = _convert_nonref_to_tensor(matrix, name="matrix")
        self._check_matrix(self._matrix)
        super().__init__(dtype=self._matrix.dtype, is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=is_square, parameters=parameters,
                         name=name)

    def _check_matrix(self, matrix: Any) -> None:
        tf = _tf()
        allowed_dtypes = [tf.float16, tf.float32, tf.float64, tf.complex64, tf.complex128]
        matrix = tf.convert_to_tensor(matrix, name="matrix")
        dtype = matrix.dtype
        if dtype not in allowed_dtypes:
            raise TypeError(f"Argument `matrix` must have dtype in {allowed_dtypes}. Received: {dtype}.")
        if matrix.shape.ndims is not None and matrix.shape.ndims < 2:
            raise ValueError(f"Argument `matrix` must have at least 2 dimensions. Received: {matrix}.")

    @property
    def matrix(self) -> Any:
        return self._matrix

    def _shape(self) -> Any:
        return self._matrix.shape

    def _matmul(self, x: Any, adjoint: bool = False, adjoint_arg: bool = False) -> Any:
        return _tf().matmul(self._matrix, x, adjoint_a=adjoint, adjoint_b=adjoint_arg)

    def _solve(self, rhs: Any, adjoint: bool = False, adjoint_arg: bool = False) -> Any:
        return self._dense_solve(rhs, adjoint=adjoint, adjoint_arg=adjoint_arg)

    def _to_dense(self) -> Any:
        return self._matrix


class LinearOperatorDiag(LinearOperator):
    """`LinearOperator` acting like a [batch] square diagonal matrix."""

    def __init__(self, diag: Any, is_non_singular: Any = None, is_self_adjoint: Any = None,
                 is_positive_definite: Any = None, is_square: Any = None, name: str = "LinearOperatorDiag") -> None:
        parameters = dict(diag=diag, is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                          is_positive_definite=is_positive_definite, is_square=is_square, name=name)
        self._diag = _convert_nonref_to_tensor(diag, name="diag")
        self._check_diag(self._diag)
        if not self._diag.dtype.is_complex:
            if is_self_adjoint is False:
                raise ValueError("A real diagonal operator is always self adjoint.")
            is_self_adjoint = True
        if is_square is False:
            raise ValueError("Only square diagonal operators currently supported.")
        is_square = True
        super().__init__(dtype=self._diag.dtype, is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=is_square, parameters=parameters,
                         name=name)

    def _check_diag(self, diag: Any) -> None:
        if diag.shape.ndims is not None and diag.shape.ndims < 1:
            raise ValueError("Argument diag must have at least 1 dimension.  Found: %s" % diag)

    def _shape(self) -> Any:
        d_shape = self._diag.shape
        return d_shape.concatenate(d_shape[-1:])

    @property
    def diag(self) -> Any:
        return self._diag

    def _linop_inverse(self) -> "LinearOperatorDiag":
        return LinearOperatorDiag(1.0 / self.diag, is_non_singular=self.is_non_singular,
                                  is_self_adjoint=self.is_self_adjoint, is_positive_definite=self.is_positive_definite,
                                  is_square=True)

    def _linop_matmul(self, left_operator: Any, right_operator: Any) -> Any:
        is_non_singular = _combined_non_singular_hint(left_operator, right_operator)
        is_self_adjoint = _combined_commuting_self_adjoint_hint(left_operator, right_operator)
        is_positive_definite = _combined_commuting_positive_definite_hint(left_operator, right_operator)
        if isinstance(right_operator, LinearOperatorDiag):
            return LinearOperatorDiag(diag=left_operator.diag * right_operator.diag, is_non_singular=is_non_singular,
                                      is_self_adjoint=is_self_adjoint, is_positive_definite=is_positive_definite,
                                      is_square=True)
        if hasattr(right_operator, "_ones_diag") and hasattr(right_operator, "multiplier"):
            return LinearOperatorDiag(diag=left_operator.diag * right_operator.multiplier,
                                      is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                                      is_positive_definite=is_positive_definite, is_square=True)
        if isinstance(right_operator, LinearOperatorLowerTriangular):
            return LinearOperatorLowerTriangular(tril=left_operator.diag[..., None] * right_operator.to_dense(),
                                                 is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                                                 is_positive_definite=None, is_square=True)
        return super()._linop_matmul(left_operator, right_operator)

    def _linop_solve(self, left_operator: Any, right_operator: Any) -> Any:
        is_non_singular = _combined_non_singular_hint(left_operator, right_operator)
        is_self_adjoint = _combined_commuting_self_adjoint_hint(left_operator, right_operator)
        is_positive_definite = _combined_commuting_positive_definite_hint(left_operator, right_operator)
        if isinstance(right_operator, LinearOperatorDiag):
            return LinearOperatorDiag(diag=right_operator.diag / left_operator.diag, is_non_singular=is_non_singular,
                                      is_self_adjoint=is_self_adjoint, is_positive_definite=is_positive_definite,
                                      is_square=True)
        if hasattr(right_operator, "_ones_diag") and hasattr(right_operator, "multiplier"):
            return LinearOperatorDiag(diag=right_operator.multiplier / left_operator.diag,
                                      is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                                      is_positive_definite=is_positive_definite, is_square=True)
        if isinstance(right_operator, LinearOperatorLowerTriangular):
            return LinearOperatorLowerTriangular(tril=right_operator.to_dense() / left_operator.diag[..., None],
                                                 is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                                                 is_positive_definite=None, is_square=True)
        return super()._linop_solve(left_operator, right_operator)

    def _linop_adjoint(self) -> "LinearOperatorDiag":
        diag = self.diag
        if diag.dtype.is_complex:
            diag = _tf().math.conj(diag)
        return LinearOperatorDiag(diag=diag, is_non_singular=self.is_non_singular,
                                  is_self_adjoint=self.is_self_adjoint, is_positive_definite=self.is_positive_definite,
                                  is_square=True)

    def _linop_cholesky(self) -> "LinearOperatorDiag":
        return LinearOperatorDiag(_tf().sqrt(self.diag), is_non_singular=True, is_self_adjoint=True,
                                  is_positive_definite=True, is_square=True)

    def _matmul(self, x: Any, adjoint: bool = False, adjoint_arg: bool = False) -> Any:
        tf = _tf()
        diag_term = tf.math.conj(self._diag) if adjoint else self._diag
        x = tf.linalg.adjoint(x) if adjoint_arg else x
        return tf.expand_dims(diag_term, -1) * x

    def _matvec(self, x: Any, adjoint: bool = False) -> Any:
        diag_term = _tf().math.conj(self._diag) if adjoint else self._diag
        return diag_term * x

    def _determinant(self) -> Any:
        return _tf().reduce_prod(self._diag, axis=[-1])

    def _log_abs_determinant(self) -> Any:
        tf = _tf()
        log_det = tf.reduce_sum(tf.math.log(tf.abs(self._diag)), axis=[-1])
        if self.dtype.is_complex:
            log_det = tf.cast(log_det, dtype=self.dtype)
        return log_det

    def _solve(self, rhs: Any, adjoint: bool = False, adjoint_arg: bool = False) -> Any:
        tf = _tf()
        diag_term = tf.math.conj(self._diag) if adjoint else self._diag
        rhs = tf.linalg.adjoint(rhs) if adjoint_arg else rhs
        return rhs * tf.expand_dims(1.0 / diag_term, -1)

    def _to_dense(self) -> Any:
        return _tf().linalg.diag(self._diag)

    def _diag_part(self) -> Any:
        return self.diag

    def _add_to_tensor(self, x: Any) -> Any:
        tf = _tf()
        return tf.linalg.set_diag(x, self._diag + tf.linalg.diag_part(x))

    def _eigvals(self) -> Any:
        return _tf().convert_to_tensor(self.diag)

    def _cond(self) -> Any:
        tf = _tf()
        abs_diag = tf.abs(self.diag)
        return tf.reduce_max(abs_diag, axis=-1) / tf.reduce_min(abs_diag, axis=-1)


class LinearOperatorLowerTriangular(LinearOperator):
    """`LinearOperator` acting like a [batch] square lower triangular matrix (the upper triangle ignored)."""

    def __init__(self, tril: Any, is_non_singular: Any = None, is_self_adjoint: Any = None,
                 is_positive_definite: Any = None, is_square: Any = None,
                 name: str = "LinearOperatorLowerTriangular") -> None:
        parameters = dict(tril=tril, is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                          is_positive_definite=is_positive_definite, is_square=is_square, name=name)
        if is_square is False:
            raise ValueError("Only square lower triangular operators supported at this time.")
        is_square = True
        self._tril = _convert_nonref_to_tensor(tril, name="tril")
        self._check_tril(self._tril)
        super().__init__(dtype=self._tril.dtype, is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=is_square, parameters=parameters,
                         name=name)

    @property
    def tril(self) -> Any:
        return self._tril

    def _check_tril(self, tril: Any) -> None:
        if tril.shape.ndims is not None and tril.shape.ndims < 2:
            raise ValueError("Argument tril must have at least 2 dimensions.  Found: %s" % tril)

    def _get_tril(self) -> Any:
        return _tf().linalg.band_part(self._tril, -1, 0)

    def _get_diag(self) -> Any:
        return _tf().linalg.diag_part(self._tril)

    def _shape(self) -> Any:
        return self._tril.shape

    def _matmul(self, x: Any, adjoint: bool = False, adjoint_arg: bool = False) -> Any:
        return _tf().matmul(self._get_tril(), x, adjoint_a=adjoint, adjoint_b=adjoint_arg)

    def _linop_matmul(self, left_operator: Any, right_operator: Any) -> Any:
        if hasattr(right_operator, "_check_diag"):
            return LinearOperatorLowerTriangular(
                tril=left_operator.to_dense() * right_operator.diag,
                is_non_singular=_combined_non_singular_hint(right_operator, left_operator),
                is_self_adjoint=_combined_commuting_self_adjoint_hint(right_operator, left_operator),
                is_positive_definite=None, is_square=True)
        return super()._linop_matmul(left_operator, right_operator)

    def _determinant(self) -> Any:
        return _tf().reduce_prod(self._get_diag(), axis=[-1])

    def _log_abs_determinant(self) -> Any:
        tf = _tf()
        return tf.reduce_sum(tf.math.log(tf.abs(self._get_diag())), axis=[-1])

    def _solve(self, rhs: Any, adjoint: bool = False, adjoint_arg: bool = False) -> Any:
        tf = _tf()
        rhs = tf.linalg.adjoint(rhs) if adjoint_arg else rhs
        return tf.linalg.triangular_solve(self._get_tril(), rhs, lower=True, adjoint=adjoint)

    def _to_dense(self) -> Any:
        return self._get_tril()

    def _eigvals(self) -> Any:
        return self._get_diag()


class LinearOperatorAdjoint(LinearOperator):
    """`LinearOperator` representing the adjoint of another operator."""

    def __init__(self, operator: LinearOperator, is_non_singular: Any = None, is_self_adjoint: Any = None,
                 is_positive_definite: Any = None, is_square: Any = None, name: Any = None) -> None:
        parameters = dict(operator=operator, is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                          is_positive_definite=is_positive_definite, is_square=is_square, name=name)
        self._operator = operator
        hint = _use_operator_or_provided_hint_unless_contradicting
        is_square = hint(operator, "is_square", is_square,
                         "An operator is square if and only if its adjoint is square.")
        is_non_singular = hint(operator, "is_non_singular", is_non_singular,
                               "An operator is non-singular if and only if its adjoint is non-singular.")
        is_self_adjoint = hint(operator, "is_self_adjoint", is_self_adjoint,
                               "An operator is self-adjoint if and only if its adjoint is self-adjoint.")
        is_positive_definite = hint(operator, "is_positive_definite", is_positive_definite,
                                    "An operator is positive-definite if and only if its adjoint is positive-definite.")
        if name is None:
            name = operator.name + "_adjoint"
        super().__init__(dtype=operator.dtype, is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=is_square, parameters=parameters,
                         name=name)

    @property
    def operator(self) -> LinearOperator:
        return self._operator

    def _linop_adjoint(self) -> LinearOperator:
        return self.operator

    def _shape(self) -> Any:
        shape = self.operator.shape
        return shape[:-2].concatenate([shape[-1], shape[-2]])

    def _matmul(self, x: Any, adjoint: bool = False, adjoint_arg: bool = False) -> Any:
        return self.operator.matmul(x, adjoint=not adjoint, adjoint_arg=adjoint_arg)

    def _matvec(self, x: Any, adjoint: bool = False) -> Any:
        return self.operator.matvec(x, adjoint=not adjoint)

    def _determinant(self) -> Any:
        if self.is_self_adjoint:
            return self.operator.determinant()
        return _tf().math.conj(self.operator.determinant())

    def _log_abs_determinant(self) -> Any:
        return self.operator.log_abs_determinant()

    def _trace(self) -> Any:
        if self.is_self_adjoint:
            return self.operator.trace()
        return _tf().math.conj(self.operator.trace())

    def _solve(self, rhs: Any, adjoint: bool = False, adjoint_arg: bool = False) -> Any:
        return self.operator.solve(rhs, adjoint=not adjoint, adjoint_arg=adjoint_arg)

    def _solvevec(self, rhs: Any, adjoint: bool = False) -> Any:
        return self.operator.solvevec(rhs, adjoint=not adjoint)

    def _to_dense(self) -> Any:
        if self.is_self_adjoint:
            return self.operator.to_dense()
        return _tf().linalg.adjoint(self.operator.to_dense())

    def _eigvals(self) -> Any:
        eigvals = self.operator.eigvals()
        if not self.operator.is_self_adjoint:
            eigvals = _tf().math.conj(eigvals)
        return eigvals

    def _cond(self) -> Any:
        return self.operator.cond()


class LinearOperatorInversion(LinearOperator):
    """`LinearOperator` representing the inverse of another operator."""

    def __init__(self, operator: LinearOperator, is_non_singular: Any = None, is_self_adjoint: Any = None,
                 is_positive_definite: Any = None, is_square: Any = None, name: Any = None) -> None:
        parameters = dict(operator=operator, is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                          is_positive_definite=is_positive_definite, is_square=is_square, name=name)
        self._operator = operator
        if operator.is_non_singular is False or is_non_singular is False:
            raise ValueError("Argument `is_non_singular` or argument `operator` must have supplied hint "
                             "`is_non_singular` equal to `True` or `None`. Found `operator.is_non_singular`: "
                             f"{operator.is_non_singular}, `is_non_singular`: {is_non_singular}.")
        if operator.is_square is False or is_square is False:
            raise ValueError("Argument `is_square` or argument `operator` must have supplied hint `is_square` equal "
                             f"to `True` or `None`. Found `operator.is_square`: {operator.is_square}, `is_square`: "
                             f"{is_square}.")
        hint = _use_operator_or_provided_hint_unless_contradicting
        is_square = hint(operator, "is_square", is_square,
                         "An operator is square if and only if its inverse is square.")
        is_non_singular = hint(operator, "is_non_singular", is_non_singular,
                               "An operator is non-singular if and only if its inverse is non-singular.")
        is_self_adjoint = hint(operator, "is_self_adjoint", is_self_adjoint,
                               "An operator is self-adjoint if and only if its inverse is self-adjoint.")
        is_positive_definite = hint(operator, "is_positive_definite", is_positive_definite,
                                    "An operator is positive-definite if and only if its inverse is positive-definite.")
        if name is None:
            name = operator.name + "_inv"
        super().__init__(dtype=operator.dtype, is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=is_square, parameters=parameters,
                         name=name)

    @property
    def operator(self) -> LinearOperator:
        return self._operator

    def _linop_inverse(self) -> LinearOperator:
        return self.operator

    def _linop_solve(self, left_operator: Any, right_operator: Any) -> Any:
        return left_operator.operator.matmul(right_operator)

    def _shape(self) -> Any:
        return self.operator.shape

    def _matmul(self, x: Any, adjoint: bool = False, adjoint_arg: bool = False) -> Any:
        return self.operator.solve(x, adjoint=adjoint, adjoint_arg=adjoint_arg)

    def _determinant(self) -> Any:
        return 1.0 / self.operator.determinant()

    def _log_abs_determinant(self) -> Any:
        return -1.0 * self.operator.log_abs_determinant()

    def _solve(self, rhs: Any, adjoint: bool = False, adjoint_arg: bool = False) -> Any:
        return self.operator.matmul(rhs, adjoint=adjoint, adjoint_arg=adjoint_arg)

    def _eigvals(self) -> Any:
        return 1.0 / self.operator.eigvals()

    def _cond(self) -> Any:
        return self.operator.cond()


def _composition_must_be_self_adjoint(operators: list) -> bool:
    if len(operators) == 1 and operators[0].is_self_adjoint:
        return True
    return _is_aat_form(operators)


def _operator_list(operators: Any, empty: Any = None, mixed: Any = None) -> list:
    """The operators of a composite operator as a list, checked as TF's constructors check them: an
    iterable (not a string), not empty, of one dtype; `empty` and `mixed` give a class's own texts (TF's
    Kronecker words them differently from its Composition and BlockDiag)."""
    if isinstance(operators, (str, bytes)) or not hasattr(operators, "__iter__"):
        raise TypeError(f"Expected argument 'operators' to be a proper iterable, found: {operators!r}")
    operators = list(operators)
    if not operators:
        raise ValueError(empty(operators) if empty else "Expected a non-empty list of operators. Found: %s" % operators)
    dtype = operators[0].dtype
    if any(o.dtype != dtype for o in operators):
        raise TypeError(mixed(operators) if mixed else "Expected all operators to have the same dtype.  Found %s"
                        % "   ".join(str((o.name, o.dtype)) for o in operators))
    return operators


class LinearOperatorComposition(LinearOperator):
    """Composes one or more `LinearOperators` (applied right to left)."""

    def __init__(self, operators: Any, is_non_singular: Any = None, is_self_adjoint: Any = None,
                 is_positive_definite: Any = None, is_square: Any = None, name: Any = None) -> None:
        parameters = dict(operators=operators, is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                          is_positive_definite=is_positive_definite, is_square=is_square, name=name)
        operators = _operator_list(operators)
        self._operators = operators
        dtype = operators[0].dtype
        if all(operator.is_non_singular for operator in operators):
            if is_non_singular is False:
                raise ValueError("The composition of non-singular operators is always non-singular.")
            is_non_singular = True
        if _composition_must_be_self_adjoint(operators):
            if is_self_adjoint is False:
                raise ValueError("The composition was determined to be self-adjoint but user provided incorrect "
                                 "`False` hint.")
            is_self_adjoint = True
        if _is_aat_form(operators):
            if is_square is False:
                raise ValueError("The composition was determined have the form A @ A.H, hence it must be square. The "
                                 "user provided an incorrect `False` hint.")
            is_square = True
        if _is_aat_form(operators) and is_non_singular:
            if is_positive_definite is False:
                raise ValueError("The composition was determined to be non-singular and have the form A @ A.H, hence "
                                 "it must be positive-definite. The user provided an incorrect `False` hint.")
            is_positive_definite = True
        if name is None:
            name = "_o_".join(operator.name for operator in operators)
        super().__init__(dtype=dtype, is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=is_square, parameters=parameters,
                         name=name)

    @property
    def operators(self) -> list:
        return self._operators

    def _shape(self) -> Any:
        tf = _tf()
        domain_dimension = self.operators[0].domain_dimension
        for operator in self.operators[1:]:
            domain_dimension.assert_is_compatible_with(operator.range_dimension)
            domain_dimension = operator.domain_dimension
        matrix_shape = tf.TensorShape([self.operators[0].range_dimension, self.operators[-1].domain_dimension])
        batch_shape = self.operators[0].batch_shape
        for operator in self.operators[1:]:
            batch_shape = tf.broadcast_static_shape(batch_shape, operator.batch_shape)
        return batch_shape.concatenate(matrix_shape)

    def _matmul(self, x: Any, adjoint: bool = False, adjoint_arg: bool = False) -> Any:
        order = self.operators if adjoint else list(reversed(self.operators))
        result = order[0].matmul(x, adjoint=adjoint, adjoint_arg=adjoint_arg)
        for operator in order[1:]:
            result = operator.matmul(result, adjoint=adjoint)
        return result

    def _determinant(self) -> Any:
        return _determinant_product(self.operators)

    def _log_abs_determinant(self) -> Any:
        return _log_abs_determinant_sum(self.operators)

    def _solve(self, rhs: Any, adjoint: bool = False, adjoint_arg: bool = False) -> Any:
        order = list(reversed(self.operators)) if adjoint else self.operators
        solution = order[0].solve(rhs, adjoint=adjoint, adjoint_arg=adjoint_arg)
        for operator in order[1:]:
            solution = operator.solve(solution, adjoint=adjoint)
        return solution


def _assert_not_ref_type(x: Any, arg_name: str) -> None:
    if isinstance(x, _tf().Variable):
        raise TypeError(f"Argument {arg_name} cannot be reference type. Found: {type(x)}.")


def _shape_tensor(shape: Any, name: str) -> Any:
    tf = _tf()
    dtype = tf.int32 if isinstance(shape, (tuple, list)) and not shape else None
    return tf.convert_to_tensor(shape, dtype=dtype, name=name)


class BaseLinearOperatorIdentity(LinearOperator):
    """Base class for Identity operators (TF's linear_operator_identity.py)."""

    def _check_num_rows_possibly_add_asserts(self) -> None:
        if not self._num_rows.dtype.is_integer:
            raise TypeError("Argument num_rows must be integer type.  Found: %s" % self._num_rows)
        num_rows_static = self._num_rows_static
        if num_rows_static.ndim != 0:
            raise ValueError("Argument num_rows must be a 0-D Tensor.  Found: %s" % num_rows_static)
        if num_rows_static < 0:
            raise ValueError("Argument num_rows must be non-negative.  Found: %s" % num_rows_static)

    def _min_matrix_dim(self) -> Any:
        domain_dim, range_dim = self.domain_dimension.value, self.range_dimension.value
        if domain_dim is None or range_dim is None:
            return None
        return min(domain_dim, range_dim)

    def _ones_diag(self) -> Any:
        d_shape = self.batch_shape.concatenate([self._min_matrix_dim()])
        return _tf().ones(shape=d_shape.as_list(), dtype=self.dtype)


class LinearOperatorIdentity(BaseLinearOperatorIdentity):
    """`LinearOperator` acting like a [batch] square identity matrix."""

    def __init__(self, num_rows: Any, batch_shape: Any = None, dtype: Any = None, is_non_singular: Any = True,
                 is_self_adjoint: Any = True, is_positive_definite: Any = True, is_square: Any = True,
                 assert_proper_shapes: bool = False, name: str = "LinearOperatorIdentity") -> None:
        tf = _tf()
        parameters = dict(num_rows=num_rows, batch_shape=batch_shape, dtype=dtype, is_non_singular=is_non_singular,
                          is_self_adjoint=is_self_adjoint, is_positive_definite=is_positive_definite,
                          is_square=is_square, assert_proper_shapes=assert_proper_shapes, name=name)
        dtype = dtype or tf.float32
        self._assert_proper_shapes = assert_proper_shapes
        dtype = tf.as_dtype(dtype)
        if not is_self_adjoint:
            raise ValueError("An identity operator is always self adjoint.")
        if not is_non_singular:
            raise ValueError("An identity operator is always non-singular.")
        if not is_positive_definite:
            raise ValueError("An identity operator is always positive-definite.")
        if not is_square:
            raise ValueError("An identity operator is always square.")
        super().__init__(dtype=dtype, is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=is_square, parameters=parameters,
                         name=name)
        _assert_not_ref_type(num_rows, "num_rows")
        _assert_not_ref_type(batch_shape, "batch_shape")
        self._num_rows = _shape_tensor(num_rows, name="num_rows")
        self._num_rows_static = self._num_rows.numpy()
        self._check_num_rows_possibly_add_asserts()
        if batch_shape is None:
            self._batch_shape_arg = None
        else:
            self._batch_shape_arg = _shape_tensor(batch_shape, name="batch_shape_arg")
            self._batch_shape_static = self._batch_shape_arg.numpy()
            self._check_batch_shape_possibly_add_asserts()

    def _check_batch_shape_possibly_add_asserts(self) -> None:
        if not self._batch_shape_arg.dtype.is_integer:
            raise TypeError("Argument batch_shape must be integer type.  Found: %s" % self._batch_shape_arg)
        if self._batch_shape_static.ndim != 1:
            raise ValueError("Argument batch_shape must be a 1-D Tensor.  Found: %s" % self._batch_shape_static)
        if np.any(self._batch_shape_static < 0):
            raise ValueError("Argument batch_shape must be non-negative.  Found:%s" % self._batch_shape_static)

    def _shape(self) -> Any:
        tf = _tf()
        n = int(self._num_rows_static)
        matrix_shape = tf.TensorShape((n, n))
        if self._batch_shape_arg is None:
            return matrix_shape
        return tf.TensorShape([int(d) for d in self._batch_shape_static]).concatenate(matrix_shape)

    def _linop_adjoint(self) -> "LinearOperatorIdentity":
        return self

    def _linop_cholesky(self) -> "LinearOperatorIdentity":
        return LinearOperatorIdentity(num_rows=self._num_rows, batch_shape=self.batch_shape, dtype=self.dtype,
                                      is_non_singular=True, is_self_adjoint=True, is_positive_definite=True,
                                      is_square=True)

    def _linop_inverse(self) -> "LinearOperatorIdentity":
        return self

    def _linop_matmul(self, left_operator: Any, right_operator: Any) -> Any:
        return right_operator

    def _linop_solve(self, left_operator: Any, right_operator: Any) -> Any:
        return right_operator

    def _possibly_broadcast_batch_shape(self, x: Any) -> Any:
        tf = _tf()
        if self._batch_shape_arg is None:
            return x
        special_shape = self.batch_shape.concatenate([1, 1])
        bshape = tf.broadcast_static_shape(x.shape, special_shape)
        if bshape == x.shape:
            return x
        return x + tf.zeros(shape=special_shape.as_list(), dtype=self.dtype)

    def _matmul(self, x: Any, adjoint: bool = False, adjoint_arg: bool = False) -> Any:
        x = _tf().linalg.adjoint(x) if adjoint_arg else x
        return self._possibly_broadcast_batch_shape(x)

    def _determinant(self) -> Any:
        return _tf().ones(shape=self.batch_shape.as_list(), dtype=self.dtype)

    def _log_abs_determinant(self) -> Any:
        return _tf().zeros(shape=self.batch_shape.as_list(), dtype=self.dtype)

    def _solve(self, rhs: Any, adjoint: bool = False, adjoint_arg: bool = False) -> Any:
        return self._matmul(rhs, adjoint_arg=adjoint_arg)

    def _trace(self) -> Any:
        batch_of_ones = _tf().ones(shape=self.batch_shape.as_list(), dtype=self.dtype)
        return self._min_matrix_dim() * batch_of_ones

    def _diag_part(self) -> Any:
        return self._ones_diag()

    def add_to_tensor(self, mat: Any, name: str = "add_to_tensor") -> Any:
        tf = _tf()
        mat = tf.convert_to_tensor(mat, name="mat")
        return tf.linalg.set_diag(mat, 1 + tf.linalg.diag_part(mat))

    def _eigvals(self) -> Any:
        return self._ones_diag()

    def _cond(self) -> Any:
        return _tf().ones(self.batch_shape.as_list(), dtype=self.dtype)


class LinearOperatorScaledIdentity(BaseLinearOperatorIdentity):
    """`LinearOperator` acting like a scaled [batch] identity matrix `A = c I`."""

    def __init__(self, num_rows: Any, multiplier: Any, is_non_singular: Any = None, is_self_adjoint: Any = None,
                 is_positive_definite: Any = None, is_square: Any = True, assert_proper_shapes: bool = False,
                 name: str = "LinearOperatorScaledIdentity") -> None:
        tf = _tf()
        parameters = dict(num_rows=num_rows, multiplier=multiplier, is_non_singular=is_non_singular,
                          is_self_adjoint=is_self_adjoint, is_positive_definite=is_positive_definite,
                          is_square=is_square, assert_proper_shapes=assert_proper_shapes, name=name)
        self._assert_proper_shapes = assert_proper_shapes
        self._multiplier = _convert_nonref_to_tensor(multiplier, name="multiplier")
        if not self._multiplier.dtype.is_complex:
            if is_self_adjoint is False:
                raise ValueError("A real diagonal operator is always self adjoint.")
            is_self_adjoint = True
        if not is_square:
            raise ValueError("A ScaledIdentity operator is always square.")
        _assert_not_ref_type(num_rows, "num_rows")
        super().__init__(dtype=self._multiplier.dtype.base_dtype, is_non_singular=is_non_singular,
                         is_self_adjoint=is_self_adjoint, is_positive_definite=is_positive_definite,
                         is_square=is_square, parameters=parameters, name=name)
        self._num_rows = _shape_tensor(num_rows, name="num_rows")
        self._num_rows_static = self._num_rows.numpy()
        self._check_num_rows_possibly_add_asserts()
        self._num_rows_cast_to_dtype = tf.cast(self._num_rows, self.dtype)
        self._num_rows_cast_to_real_dtype = tf.cast(self._num_rows, self.dtype.real_dtype)

    @property
    def multiplier(self) -> Any:
        return self._multiplier

    def _shape(self) -> Any:
        n = int(self._num_rows_static)
        return self.multiplier.shape.concatenate(_tf().TensorShape((n, n)))

    def _make_multiplier_matrix(self, conjugate: bool = False) -> Any:
        tf = _tf()
        m = tf.expand_dims(tf.expand_dims(self.multiplier, -1), -1)
        return tf.math.conj(m) if conjugate else m

    def _linop_adjoint(self) -> "LinearOperatorScaledIdentity":
        multiplier = self.multiplier
        if multiplier.dtype.is_complex:
            multiplier = _tf().math.conj(multiplier)
        return LinearOperatorScaledIdentity(num_rows=self._num_rows, multiplier=multiplier,
                                            is_non_singular=self.is_non_singular, is_self_adjoint=self.is_self_adjoint,
                                            is_positive_definite=self.is_positive_definite, is_square=True)

    def _linop_cholesky(self) -> "LinearOperatorScaledIdentity":
        return LinearOperatorScaledIdentity(num_rows=self._num_rows, multiplier=_tf().sqrt(self.multiplier),
                                            is_non_singular=True, is_self_adjoint=True, is_positive_definite=True,
                                            is_square=True)

    def _linop_inverse(self) -> "LinearOperatorScaledIdentity":
        return LinearOperatorScaledIdentity(num_rows=self._num_rows, multiplier=1.0 / self.multiplier,
                                            is_non_singular=self.is_non_singular, is_self_adjoint=True,
                                            is_positive_definite=self.is_positive_definite, is_square=True)

    def _linop_matmul(self, left_operator: Any, right_operator: Any) -> Any:
        is_non_singular = _combined_non_singular_hint(left_operator, right_operator)
        is_self_adjoint = _combined_commuting_self_adjoint_hint(left_operator, right_operator)
        is_positive_definite = _combined_commuting_positive_definite_hint(left_operator, right_operator)
        if isinstance(right_operator, LinearOperatorScaledIdentity):
            return LinearOperatorScaledIdentity(num_rows=left_operator.domain_dimension_tensor(),
                                                multiplier=left_operator.multiplier * right_operator.multiplier,
                                                is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                                                is_positive_definite=is_positive_definite, is_square=True)
        if isinstance(right_operator, LinearOperatorDiag):
            return LinearOperatorDiag(diag=right_operator.diag * left_operator.multiplier,
                                      is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                                      is_positive_definite=is_positive_definite, is_square=True)
        return super()._linop_matmul(left_operator, right_operator)

    def _linop_solve(self, left_operator: Any, right_operator: Any) -> Any:
        is_non_singular = _combined_non_singular_hint(left_operator, right_operator)
        is_self_adjoint = _combined_commuting_self_adjoint_hint(left_operator, right_operator)
        is_positive_definite = _combined_commuting_positive_definite_hint(left_operator, right_operator)
        if isinstance(right_operator, LinearOperatorScaledIdentity):
            return LinearOperatorScaledIdentity(num_rows=left_operator.domain_dimension_tensor(),
                                                multiplier=right_operator.multiplier / left_operator.multiplier,
                                                is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                                                is_positive_definite=is_positive_definite, is_square=True)
        if isinstance(right_operator, LinearOperatorDiag):
            return LinearOperatorDiag(diag=right_operator.diag / left_operator.multiplier,
                                      is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                                      is_positive_definite=is_positive_definite, is_square=True)
        return super()._linop_solve(left_operator, right_operator)

    def _matmul(self, x: Any, adjoint: bool = False, adjoint_arg: bool = False) -> Any:
        x = _tf().linalg.adjoint(x) if adjoint_arg else x
        return x * self._make_multiplier_matrix(conjugate=adjoint)

    def _determinant(self) -> Any:
        return self.multiplier ** self._num_rows_cast_to_dtype

    def _log_abs_determinant(self) -> Any:
        tf = _tf()
        return self._num_rows_cast_to_real_dtype * tf.math.log(tf.abs(self.multiplier))

    def _solve(self, rhs: Any, adjoint: bool = False, adjoint_arg: bool = False) -> Any:
        rhs = _tf().linalg.adjoint(rhs) if adjoint_arg else rhs
        return rhs / self._make_multiplier_matrix(conjugate=adjoint)

    def _trace(self) -> Any:
        batch_of_ones = _tf().ones(shape=self.batch_shape.as_list(), dtype=self.dtype)
        return self.multiplier * self._min_matrix_dim() * batch_of_ones

    def _diag_part(self) -> Any:
        return self._ones_diag() * self.multiplier[..., None]

    def add_to_tensor(self, mat: Any, name: str = "add_to_tensor") -> Any:
        tf = _tf()
        multiplier_vector = tf.expand_dims(self.multiplier, -1)
        mat = tf.convert_to_tensor(mat, name="mat")
        return tf.linalg.set_diag(mat, multiplier_vector + tf.linalg.diag_part(mat))

    def _eigvals(self) -> Any:
        return self._ones_diag() * self.multiplier[..., None]

    def _cond(self) -> Any:
        tf = _tf()
        return tf.where(tf.equal(self._multiplier, 0.0), tf.cast(np.nan, dtype=self.dtype),
                        tf.cast(1.0, dtype=self.dtype))


class LinearOperatorPermutation(LinearOperator):
    """`LinearOperator` acting like a [batch] permutation matrix (TF's linear_operator_permutation.py)."""

    def __init__(self, perm: Any, dtype: Any = None, is_non_singular: Any = None, is_self_adjoint: Any = None,
                 is_positive_definite: Any = None, is_square: Any = None,
                 name: str = "LinearOperatorPermutation") -> None:
        tf = _tf()
        dtype = tf.float32 if dtype is None else dtype
        parameters = dict(perm=perm, dtype=dtype, is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                          is_positive_definite=is_positive_definite, is_square=is_square, name=name)
        self._perm = _convert_nonref_to_tensor(perm, name="perm")
        self._check_perm(self._perm)
        if is_non_singular is False:
            raise ValueError("A Permutation operator is always non-singular. Expected argument `is_non_singular` to "
                             f"be True. Received: {is_non_singular}.")
        if is_square is False:
            raise ValueError("A Permutation operator is always square. Expected argument `is_square` to be True. "
                             f"Received: {is_square}.")
        is_square = True
        super().__init__(dtype=dtype, is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=is_square, parameters=parameters,
                         name=name)

    def _check_perm(self, perm: Any) -> None:
        if perm.shape.ndims is not None and perm.shape.ndims < 1:
            raise ValueError(f"Argument `perm` must have at least 1 dimension. Received: {perm}.")
        if not perm.dtype.is_integer:
            raise TypeError(f"Argument `perm` must be integer dtype. Received: {perm}.")
        static_perm = np.asarray(perm.numpy())
        sorted_perm = np.sort(static_perm, axis=-1)
        if np.any(sorted_perm != np.arange(0, static_perm.shape[-1])):
            raise ValueError(f"Argument `perm` must be a vector of unique integers from 0 to "
                             f"{static_perm.shape[-1] - 1}.")

    @property
    def perm(self) -> Any:
        return self._perm

    def _shape(self) -> Any:
        perm_shape = self._perm.shape
        return perm_shape.concatenate(perm_shape[-1:])

    def _domain_dimension_tensor(self, perm: Any = None) -> Any:
        perm = perm if perm is not None else self.perm
        return _tf().shape(perm)[-1]

    def _matmul(self, x: Any, adjoint: bool = False, adjoint_arg: bool = False) -> Any:
        tf = _tf()
        perm = tf.convert_to_tensor(self.perm)
        if adjoint and not self.is_self_adjoint:
            perm = tf.argsort(perm, axis=-1)
        x = tf.linalg.adjoint(x) if adjoint_arg else x
        broadcast_shape = tf.broadcast_dynamic_shape(tf.shape(x)[:-1], tf.shape(perm))
        k = tf.shape(x)[-1]
        broadcast_x_shape = tf.concat([broadcast_shape, [k]], axis=-1)
        x = tf.broadcast_to(x, broadcast_x_shape)
        perm = tf.broadcast_to(perm, broadcast_shape)
        m = tf.shape(x)[-2]
        x = tf.reshape(x, [-1, m, k])
        perm = tf.reshape(perm, [-1, m])
        y = tf.gather(x, perm, axis=-2, batch_dims=1)
        return tf.reshape(y, broadcast_x_shape)

    def _log_abs_determinant(self) -> Any:
        return _tf().zeros(shape=self.batch_shape.as_list(), dtype=self.dtype)

    def _solve(self, rhs: Any, adjoint: bool = False, adjoint_arg: bool = False) -> Any:
        return self._matmul(rhs, adjoint=not adjoint, adjoint_arg=adjoint_arg)

    def _to_dense(self) -> Any:
        tf = _tf()
        perm = tf.convert_to_tensor(self.perm)
        return tf.cast(tf.equal(tf.range(0, self._domain_dimension_tensor(perm)), perm[..., None]), self.dtype)

    def _diag_part(self) -> Any:
        tf = _tf()
        perm = tf.convert_to_tensor(self.perm)
        return tf.cast(tf.equal(tf.range(0, self._domain_dimension_tensor(perm)), perm), self.dtype)

    def _cond(self) -> Any:
        return _tf().ones(self.batch_shape.as_list(), dtype=self.dtype)


class LinearOperatorHouseholder(LinearOperator):
    """`LinearOperator` acting like a [batch] Householder reflection (TF's linear_operator_householder.py)."""

    def __init__(self, reflection_axis: Any, is_non_singular: Any = None, is_self_adjoint: Any = None,
                 is_positive_definite: Any = None, is_square: Any = None,
                 name: str = "LinearOperatorHouseholder") -> None:
        parameters = dict(reflection_axis=reflection_axis, is_non_singular=is_non_singular,
                          is_self_adjoint=is_self_adjoint, is_positive_definite=is_positive_definite,
                          is_square=is_square, name=name)
        self._reflection_axis = _convert_nonref_to_tensor(reflection_axis, name="reflection_axis")
        self._check_reflection_axis(self._reflection_axis)
        if is_self_adjoint is False:
            raise ValueError("A Householder operator is always self adjoint.")
        is_self_adjoint = True
        if is_positive_definite is True:
            raise ValueError("A Householder operator is always non-positive definite.")
        is_positive_definite = False
        if is_square is False:
            raise ValueError("A Householder operator is always square.")
        is_square = True
        super().__init__(dtype=self._reflection_axis.dtype, is_non_singular=is_non_singular,
                         is_self_adjoint=is_self_adjoint, is_positive_definite=is_positive_definite,
                         is_square=is_square, parameters=parameters, name=name)

    def _check_reflection_axis(self, reflection_axis: Any) -> None:
        if reflection_axis.shape.ndims is not None and reflection_axis.shape.ndims < 1:
            raise ValueError("Argument reflection_axis must have at least 1 dimension.  Found: %s" % reflection_axis)

    @property
    def reflection_axis(self) -> Any:
        return self._reflection_axis

    def _shape(self) -> Any:
        d_shape = self._reflection_axis.shape
        return d_shape.concatenate(d_shape[-1:])

    def _linop_adjoint(self) -> "LinearOperatorHouseholder":
        return self

    def _linop_inverse(self) -> "LinearOperatorHouseholder":
        return self

    def _normalized_column(self) -> Any:
        tf = _tf()
        normalized_axis = tf.nn.l2_normalize(tf.convert_to_tensor(self.reflection_axis), axis=-1)
        return normalized_axis, normalized_axis[..., None]

    def _matmul(self, x: Any, adjoint: bool = False, adjoint_arg: bool = False) -> Any:
        tf = _tf()
        x = tf.linalg.adjoint(x) if adjoint_arg else x
        _, mat = self._normalized_column()
        x_dot_normalized_v = tf.matmul(mat, x, adjoint_a=True)
        return x - 2 * mat * x_dot_normalized_v

    def _trace(self) -> Any:
        tf = _tf()
        return (tf.cast(self.domain_dimension.value - 2, self.dtype)
                * tf.ones(shape=self.batch_shape.as_list(), dtype=self.dtype))

    def _determinant(self) -> Any:
        return -_tf().ones(shape=self.batch_shape.as_list(), dtype=self.dtype)

    def _log_abs_determinant(self) -> Any:
        return _tf().zeros(shape=self.batch_shape.as_list(), dtype=self.dtype)

    def _solve(self, rhs: Any, adjoint: bool = False, adjoint_arg: bool = False) -> Any:
        return self._matmul(rhs, adjoint, adjoint_arg)

    def _to_dense(self) -> Any:
        tf = _tf()
        _, mat = self._normalized_column()
        matrix = -2 * tf.matmul(mat, mat, adjoint_b=True)
        return tf.linalg.set_diag(matrix, 1.0 + tf.linalg.diag_part(matrix))

    def _diag_part(self) -> Any:
        tf = _tf()
        normalized_axis, _ = self._normalized_column()
        return 1.0 - 2 * normalized_axis * tf.math.conj(normalized_axis)

    def _eigvals(self) -> Any:
        tf = _tf()
        shape = self.reflection_axis.shape.as_list()
        eigvals = tf.ones(shape=shape[:-1] + [shape[-1] - 1], dtype=self.dtype)
        return tf.concat([-tf.ones(shape=shape[:-1] + [1], dtype=self.dtype), eigvals], axis=-1)

    def _cond(self) -> Any:
        return _tf().ones(self.batch_shape.as_list(), dtype=self.dtype)


class LinearOperatorZeros(LinearOperator):
    """`LinearOperator` acting like a [batch] zero matrix (TF's linear_operator_zeros.py)."""

    def __init__(self, num_rows: Any, num_columns: Any = None, batch_shape: Any = None, dtype: Any = None,
                 is_non_singular: Any = False, is_self_adjoint: Any = True, is_positive_definite: Any = False,
                 is_square: Any = True, assert_proper_shapes: bool = False, name: str = "LinearOperatorZeros") -> None:
        tf = _tf()
        parameters = dict(num_rows=num_rows, num_columns=num_columns, batch_shape=batch_shape, dtype=dtype,
                          is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                          is_positive_definite=is_positive_definite, is_square=is_square,
                          assert_proper_shapes=assert_proper_shapes, name=name)
        dtype = dtype or tf.float32
        self._assert_proper_shapes = assert_proper_shapes
        dtype = tf.as_dtype(dtype)
        if not is_self_adjoint and is_square:
            raise ValueError("A zero operator is always self adjoint.")
        if is_non_singular:
            raise ValueError("A zero operator is always singular.")
        if is_positive_definite:
            raise ValueError("A zero operator is always not positive-definite.")
        super().__init__(dtype=dtype, is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=is_square, parameters=parameters,
                         name=name)
        _assert_not_ref_type(num_rows, "num_rows")
        _assert_not_ref_type(num_columns, "num_columns")
        _assert_not_ref_type(batch_shape, "batch_shape")
        self._num_rows = _shape_tensor(num_rows, name="num_rows")
        self._num_rows_static = self._num_rows.numpy()
        if num_columns is None:
            num_columns = num_rows
        self._num_columns = _shape_tensor(num_columns, name="num_columns")
        self._num_columns_static = self._num_columns.numpy()
        self._check_domain_range_possibly_add_asserts()
        if is_square and self._num_rows_static != self._num_columns_static:
            raise ValueError("LinearOperatorZeros initialized as is_square=True, but got num_rows({}) != "
                             "num_columns({})".format(self._num_rows_static, self._num_columns_static))
        if batch_shape is None:
            self._batch_shape_arg = None
        else:
            self._batch_shape_arg = _shape_tensor(batch_shape, name="batch_shape_arg")
            self._batch_shape_static = self._batch_shape_arg.numpy()
            LinearOperatorIdentity._check_batch_shape_possibly_add_asserts(self)  # (the same checks and texts)

    def _check_domain_range_possibly_add_asserts(self) -> None:
        if not self._num_rows.dtype.is_integer:
            raise TypeError("Argument num_rows must be integer type.  Found: %s" % self._num_rows)
        if not self._num_columns.dtype.is_integer:
            raise TypeError("Argument num_columns must be integer type.  Found: %s" % self._num_columns)
        for what, static in (("num_rows", self._num_rows_static), ("num_columns", self._num_columns_static)):
            if static.ndim != 0:
                raise ValueError(f"Argument {what} must be a 0-D Tensor.  Found: %s" % static)
            if static < 0:
                raise ValueError(f"Argument {what} must be non-negative.  Found: %s" % static)

    def _shape(self) -> Any:
        tf = _tf()
        matrix_shape = tf.TensorShape((int(self._num_rows_static), int(self._num_columns_static)))
        if self._batch_shape_arg is None:
            return matrix_shape
        return tf.TensorShape([int(d) for d in self._batch_shape_static]).concatenate(matrix_shape)

    _possibly_broadcast_batch_shape = LinearOperatorIdentity._possibly_broadcast_batch_shape

    def _matmul(self, x: Any, adjoint: bool = False, adjoint_arg: bool = False) -> Any:
        tf = _tf()
        if self.is_square:
            if adjoint_arg:
                output_shape = tf.concat([tf.shape(x)[:-2], [tf.shape(x)[-1], tf.shape(x)[-2]]], axis=0)
            else:
                output_shape = tf.shape(x)
            return self._possibly_broadcast_batch_shape(tf.zeros(shape=output_shape, dtype=x.dtype))
        x_shape = tf.shape(x)
        n = self._num_columns if adjoint else self._num_rows
        m = x_shape[-2] if adjoint_arg else x_shape[-1]
        output_shape = tf.concat([x_shape[:-2], [n, m]], axis=0)
        return self._possibly_broadcast_batch_shape(tf.zeros(shape=output_shape, dtype=x.dtype))

    def _linop_matmul(self, left_operator: Any, right_operator: Any) -> Any:
        if not left_operator.is_square or not right_operator.is_square:
            raise ValueError("Matmul with non-square `LinearOperator`s or non-square `LinearOperatorZeros` not "
                             "supported at this time.")
        return left_operator

    def _determinant(self) -> Any:
        return _tf().zeros(shape=self.batch_shape.as_list(), dtype=self.dtype)

    def _trace(self) -> Any:
        return _tf().zeros(shape=self.batch_shape.as_list(), dtype=self.dtype)

    def _diag_part(self) -> Any:
        return self._zeros_diag()

    def add_to_tensor(self, mat: Any, name: str = "add_to_tensor") -> Any:
        return self._possibly_broadcast_batch_shape(mat)

    def _min_matrix_dim(self) -> Any:
        domain_dim, range_dim = self.domain_dimension.value, self.range_dimension.value
        if domain_dim is None or range_dim is None:
            return None
        return min(domain_dim, range_dim)

    def _zeros_diag(self) -> Any:
        d_shape = self.batch_shape.concatenate([self._min_matrix_dim()])
        return _tf().zeros(shape=d_shape.as_list(), dtype=self.dtype)

    def _eigvals(self) -> Any:
        return self._zeros_diag()


_COMPACT, _MATRIX, _SEQUENCE = "compact", "matrix", "sequence"
_DIAGONAL_FORMATS = frozenset({_COMPACT, _MATRIX, _SEQUENCE})


class LinearOperatorTridiag(LinearOperator):
    """`LinearOperator` acting like a [batch] square tridiagonal matrix (TF's linear_operator_tridiag.py)."""

    def __init__(self, diagonals: Any, diagonals_format: str = _COMPACT, is_non_singular: Any = None,
                 is_self_adjoint: Any = None, is_positive_definite: Any = None, is_square: Any = None,
                 name: str = "LinearOperatorTridiag") -> None:
        parameters = dict(diagonals=diagonals, diagonals_format=diagonals_format, is_non_singular=is_non_singular,
                          is_self_adjoint=is_self_adjoint, is_positive_definite=is_positive_definite,
                          is_square=is_square, name=name)
        if diagonals_format not in _DIAGONAL_FORMATS:
            raise ValueError("Argument `diagonals_format` must be one of compact, matrix, or sequence. Received : "
                             f"{diagonals_format}.")
        if diagonals_format == _SEQUENCE:
            self._diagonals = [_convert_nonref_to_tensor(d, name="diag_{}".format(i)) for i, d in enumerate(diagonals)]
            dtype = self._diagonals[0].dtype
        else:
            self._diagonals = _convert_nonref_to_tensor(diagonals, name="diagonals")
            dtype = self._diagonals.dtype
        self._diagonals_format = diagonals_format
        super().__init__(dtype=dtype, is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=is_square, parameters=parameters,
                         name=name)

    @property
    def diagonals(self) -> Any:
        return self._diagonals

    @property
    def diagonals_format(self) -> str:
        return self._diagonals_format

    def _shape(self) -> Any:
        tf = _tf()
        if self.diagonals_format == _MATRIX:
            return self.diagonals.shape
        if self.diagonals_format == _COMPACT:
            d_shape = self.diagonals.shape[:-2].concatenate(self.diagonals.shape[-1:])
        else:
            broadcast_shape = tf.broadcast_static_shape(self.diagonals[0].shape[:-1], self.diagonals[1].shape[:-1])
            broadcast_shape = tf.broadcast_static_shape(broadcast_shape, self.diagonals[2].shape[:-1])
            d_shape = broadcast_shape.concatenate(self.diagonals[1].shape[-1:])
        return d_shape.concatenate(d_shape[-1:])

    def _construct_adjoint_diagonals(self, diagonals: Any) -> Any:
        tf = _tf()
        if self.diagonals_format == _SEQUENCE:
            diagonals = [tf.math.conj(d) for d in reversed(diagonals)]
            diagonals[0] = tf.roll(diagonals[0], shift=-1, axis=-1)
            diagonals[2] = tf.roll(diagonals[2], shift=1, axis=-1)
            return diagonals
        if self.diagonals_format == _MATRIX:
            return tf.linalg.adjoint(diagonals)
        diagonals = tf.math.conj(diagonals)
        superdiag, diag, subdiag = tf.unstack(diagonals, num=3, axis=-2)
        new_superdiag = tf.roll(subdiag, shift=-1, axis=-1)
        new_subdiag = tf.roll(superdiag, shift=1, axis=-1)
        return tf.stack([new_superdiag, diag, new_subdiag], axis=-2)

    def _matmul(self, x: Any, adjoint: bool = False, adjoint_arg: bool = False) -> Any:
        tf = _tf()
        diagonals = self.diagonals
        if adjoint:
            diagonals = self._construct_adjoint_diagonals(diagonals)
        x = tf.linalg.adjoint(x) if adjoint_arg else x
        return tf.linalg.tridiagonal_matmul(diagonals, x, diagonals_format=self.diagonals_format)

    def _solve(self, rhs: Any, adjoint: bool = False, adjoint_arg: bool = False) -> Any:
        tf = _tf()
        diagonals = self.diagonals
        if adjoint:
            diagonals = self._construct_adjoint_diagonals(diagonals)
        shape = self.shape.as_list()
        k = shape[-1]
        rhs_shape = tf.shape(rhs)
        broadcast_shape = tf.broadcast_dynamic_shape(tf.constant(shape[:-2], tf.int32), rhs_shape[:-2])
        rhs = tf.broadcast_to(rhs, tf.concat([broadcast_shape, rhs_shape[-2:]], axis=-1))
        if self.diagonals_format == _MATRIX:
            diagonals = tf.broadcast_to(diagonals, tf.concat([broadcast_shape, [k, k]], axis=-1))
        elif self.diagonals_format == _COMPACT:
            diagonals = tf.broadcast_to(diagonals, tf.concat([broadcast_shape, [3, k]], axis=-1))
        else:
            diagonals = [tf.broadcast_to(d, tf.concat([broadcast_shape, [k]], axis=-1)) for d in diagonals]
        return tf.linalg.tridiagonal_solve(diagonals, rhs, diagonals_format=self.diagonals_format,
                                           transpose_rhs=adjoint_arg, conjugate_rhs=adjoint_arg)

    def _diag_part(self) -> Any:
        tf = _tf()
        if self.diagonals_format == _MATRIX:
            return tf.linalg.diag_part(self.diagonals)
        if self.diagonals_format == _SEQUENCE:
            return tf.broadcast_to(self.diagonals[1], self.shape.as_list()[:-1])
        return self.diagonals[..., 1, :]

    def _to_dense(self) -> Any:
        tf = _tf()
        if self.diagonals_format == _MATRIX:
            return self.diagonals
        if self.diagonals_format == _COMPACT:
            return tf.linalg.diag(self.diagonals, k=(-1, 1), num_rows=-1, num_cols=-1, align="LEFT_RIGHT",
                                  padding_value=0.0)
        diagonals = tf.stack([tf.convert_to_tensor(d) for d in self.diagonals], axis=-2)
        return tf.linalg.diag(diagonals, k=(-1, 1), num_rows=-1, num_cols=-1, align="LEFT_RIGHT", padding_value=0.0)


class LinearOperatorKronecker(LinearOperator):
    """Kronecker product of one or more `LinearOperators` (TF's linear_operator_kronecker.py; static shapes)."""

    def __init__(self, operators: Any, is_non_singular: Any = None, is_self_adjoint: Any = None,
                 is_positive_definite: Any = None, is_square: Any = None, name: Any = None) -> None:
        parameters = dict(operators=operators, is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                          is_positive_definite=is_positive_definite, is_square=is_square, name=name)
        operators = _operator_list(
            operators, lambda ops: f"Argument `operators` must be a list of >=1 operators. Received: {ops}.",
            lambda ops: "Expected every operation in argument `operators` to have the same dtype. Received "
                        f"{[str((o.name, o.dtype)) for o in ops]}.")
        self._operators = operators
        dtype = operators[0].dtype
        if all(operator.is_non_singular for operator in operators):
            if is_non_singular is False:
                raise ValueError("The Kronecker product of non-singular operators is always non-singular. Expected "
                                 f"argument `is_non_singular` to be True. Received: {is_non_singular}.")
            is_non_singular = True
        if all(operator.is_self_adjoint for operator in operators):
            if is_self_adjoint is False:
                raise ValueError("The Kronecker product of self-adjoint operators is always self-adjoint. Expected "
                                 f"argument `is_self_adjoint` to be True. Received: {is_self_adjoint}.")
            is_self_adjoint = True
        if all(operator.is_positive_definite for operator in operators):
            if is_positive_definite is False:
                raise ValueError("The Kronecker product of positive-definite operators is always positive-definite. "
                                 f"Expected argument `is_positive_definite` to be True. Received: "
                                 f"{is_positive_definite}.")
            is_positive_definite = True
        if name is None:
            name = operators[0].name
            for operator in operators[1:]:
                name += "_x_" + operator.name
        super().__init__(dtype=dtype, is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=is_square, parameters=parameters,
                         name=name)

    @property
    def operators(self) -> list:
        return self._operators

    def _shape(self) -> Any:
        tf = _tf()
        domain_dimension = self.operators[0].domain_dimension
        for operator in self.operators[1:]:
            domain_dimension = domain_dimension * operator.domain_dimension
        range_dimension = self.operators[0].range_dimension
        for operator in self.operators[1:]:
            range_dimension = range_dimension * operator.range_dimension
        matrix_shape = tf.TensorShape([range_dimension, domain_dimension])
        batch_shape = self.operators[0].batch_shape
        for operator in self.operators[1:]:
            batch_shape = tf.broadcast_static_shape(batch_shape, operator.batch_shape)
        return batch_shape.concatenate(matrix_shape)

    def _linop_adjoint(self) -> "LinearOperatorKronecker":
        return LinearOperatorKronecker(operators=[operator.adjoint() for operator in self.operators],
                                       is_non_singular=self.is_non_singular, is_self_adjoint=self.is_self_adjoint,
                                       is_positive_definite=self.is_positive_definite, is_square=True)

    def _linop_cholesky(self) -> "LinearOperatorKronecker":
        return LinearOperatorKronecker(operators=[operator.cholesky() for operator in self.operators],
                                       is_non_singular=True, is_self_adjoint=None, is_square=True)

    def _linop_inverse(self) -> "LinearOperatorKronecker":
        return LinearOperatorKronecker(operators=[operator.inverse() for operator in self.operators],
                                       is_non_singular=self.is_non_singular, is_self_adjoint=self.is_self_adjoint,
                                       is_positive_definite=self.is_positive_definite, is_square=True)

    def _solve_matmul_internal(self, x: Any, solve_matmul_fn: Any, adjoint: bool = False,
                               adjoint_arg: bool = False) -> Any:
        tf = _tf()
        output = x
        if adjoint_arg:
            if self.dtype.is_complex:
                output = tf.math.conj(output)
        else:
            output = tf.linalg.matrix_transpose(output)
        for o in reversed(self.operators):
            operator_dimension = (o.range_dimension if adjoint else o.domain_dimension).value
            output_shape = output.shape.as_list()
            dim = int(output_shape[-2] * output_shape[-1] // operator_dimension)
            output = tf.reshape(output, shape=output_shape[:-2] + [dim, operator_dimension])
            if self.dtype.is_complex:
                output = tf.math.conj(output)
            output = solve_matmul_fn(o, output, adjoint=adjoint, adjoint_arg=True)
        col_dim = x.shape.as_list()[-2] if adjoint_arg else x.shape.as_list()[-1]
        row_dim = (self.domain_dimension if adjoint else self.range_dimension).value
        return tf.reshape(output, output.shape.as_list()[:-2] + [row_dim, col_dim])

    def _matmul(self, x: Any, adjoint: bool = False, adjoint_arg: bool = False) -> Any:
        return self._solve_matmul_internal(x, lambda o, y, adjoint, adjoint_arg: o.matmul(
            y, adjoint=adjoint, adjoint_arg=adjoint_arg), adjoint=adjoint, adjoint_arg=adjoint_arg)

    def _solve(self, rhs: Any, adjoint: bool = False, adjoint_arg: bool = False) -> Any:
        return self._solve_matmul_internal(rhs, lambda o, y, adjoint, adjoint_arg: o.solve(
            y, adjoint=adjoint, adjoint_arg=adjoint_arg), adjoint=adjoint, adjoint_arg=adjoint_arg)

    def _determinant(self) -> Any:
        tf = _tf()
        total = self.domain_dimension_tensor()
        determinant = 1.0
        for operator in self.operators:
            determinant = determinant * operator.determinant() ** tf.cast(total / operator.domain_dimension_tensor(),
                                                                          dtype=operator.dtype)
        return determinant

    def _log_abs_determinant(self) -> Any:
        tf = _tf()
        total = self.domain_dimension_tensor()
        log_abs_det = 0.0
        for operator in self.operators:
            log_abs_det += operator.log_abs_determinant() * tf.cast(total / operator.domain_dimension_tensor(),
                                                                   dtype=operator.dtype)
        return log_abs_det

    def _trace(self) -> Any:
        trace = 1.0
        for operator in self.operators:
            trace = trace * operator.trace()
        return trace

    def _diag_part(self) -> Any:
        tf = _tf()
        diag_part = self.operators[0].diag_part()
        for operator in self.operators[1:]:
            diag_part = diag_part[..., :, None] * operator.diag_part()[..., None, :]
            diag_part = tf.reshape(diag_part, shape=tf.concat([tf.shape(diag_part)[:-2], [-1]], axis=0))
        return diag_part

    def _to_dense(self) -> Any:
        tf = _tf()
        product = self.operators[0].to_dense()
        for operator in self.operators[1:]:
            product = product[..., :, None, :, None] * operator.to_dense()[..., None, :, None, :]
            s = product.shape.as_list()
            product = tf.reshape(product, shape=s[:-4] + [s[-4] * s[-3], s[-2] * s[-1]])
        return product

    def _eigvals(self) -> Any:
        tf = _tf()
        eigvals = [operator.eigvals() for operator in self.operators]
        product = eigvals[0]
        for eigval in eigvals[1:]:
            product = product[..., None] * eigval[..., None, :]
            product = tf.reshape(product, shape=tf.concat([tf.shape(product)[:-2], [-1]], axis=0))
        return product


class LinearOperatorLowRankUpdate(LinearOperator):
    """`A = L + U D V^H` (TF's linear_operator_low_rank_update.py): Woodbury solves, the capacitance's determinant."""

    def __init__(self, base_operator: LinearOperator, u: Any, diag_update: Any = None, v: Any = None,
                 is_diag_update_positive: Any = None, is_non_singular: Any = None, is_self_adjoint: Any = None,
                 is_positive_definite: Any = None, is_square: Any = None,
                 name: str = "LinearOperatorLowRankUpdate") -> None:
        parameters = dict(base_operator=base_operator, u=u, diag_update=diag_update, v=v,
                          is_diag_update_positive=is_diag_update_positive, is_non_singular=is_non_singular,
                          is_self_adjoint=is_self_adjoint, is_positive_definite=is_positive_definite,
                          is_square=is_square, name=name)
        dtype = base_operator.dtype
        if diag_update is None:
            if is_diag_update_positive is False:
                raise ValueError("Default diagonal is the identity, which is positive.  However, user set "
                                 "'is_diag_update_positive' to False.")
            is_diag_update_positive = True
        self._use_cholesky = (base_operator.is_positive_definite and base_operator.is_self_adjoint
                              and is_diag_update_positive and v is None)
        if base_operator.is_self_adjoint and v is None and not dtype.is_complex:
            if is_self_adjoint is False:
                raise ValueError("A = L + UDU^H, with L self-adjoint and D real diagonal.  Since UDU^H is self-adjoint, "
                                 "this must be a self-adjoint operator.")
            is_self_adjoint = True
        if self._use_cholesky:
            if is_positive_definite is False or is_self_adjoint is False or is_non_singular is False:
                raise ValueError("Arguments imply this is self-adjoint positive-definite operator.")
            is_positive_definite = True
            is_self_adjoint = True
        self._u = _convert_nonref_to_tensor(u, name="u")
        self._v = self._u if v is None else _convert_nonref_to_tensor(v, name="v")
        self._diag_update = None if diag_update is None else _convert_nonref_to_tensor(diag_update, name="diag_update")
        self._base_operator = base_operator
        super().__init__(dtype=self._base_operator.dtype, is_non_singular=is_non_singular,
                         is_self_adjoint=is_self_adjoint, is_positive_definite=is_positive_definite,
                         is_square=is_square, parameters=parameters, name=name)
        self._set_diag_operators(diag_update, is_diag_update_positive)
        self._is_diag_update_positive = is_diag_update_positive
        self._check_shapes()

    def _check_shapes(self) -> None:
        tf = _tf()
        uv_shape = tf.broadcast_static_shape(self.u.shape, self.v.shape)
        batch_shape = tf.broadcast_static_shape(self.base_operator.batch_shape, uv_shape[:-2])
        self.base_operator.domain_dimension.assert_is_compatible_with(uv_shape[-2])
        if self._diag_update is not None:
            _dimension_at_index(uv_shape, -1).assert_is_compatible_with(self._diag_update.shape[-1])
            tf.broadcast_static_shape(batch_shape, self._diag_update.shape[:-1])

    def _set_diag_operators(self, diag_update: Any, is_diag_update_positive: Any) -> None:
        if diag_update is not None:
            self._diag_operator = LinearOperatorDiag(self._diag_update, is_positive_definite=is_diag_update_positive)
        else:
            self._diag_operator = LinearOperatorIdentity(num_rows=self.u.shape[-1], dtype=self.dtype)

    @property
    def u(self) -> Any:
        return self._u

    @property
    def v(self) -> Any:
        return self._v

    @property
    def is_diag_update_positive(self) -> Any:
        return self._is_diag_update_positive

    @property
    def diag_update(self) -> Any:
        return self._diag_update

    @property
    def diag_operator(self) -> LinearOperator:
        return self._diag_operator

    @property
    def base_operator(self) -> LinearOperator:
        return self._base_operator

    def _shape(self) -> Any:
        tf = _tf()
        batch_shape = tf.broadcast_static_shape(self.base_operator.batch_shape, self.diag_operator.batch_shape)
        batch_shape = tf.broadcast_static_shape(batch_shape, self.u.shape[:-2])
        batch_shape = tf.broadcast_static_shape(batch_shape, self.v.shape[:-2])
        return batch_shape.concatenate(self.base_operator.shape[-2:])

    def _get_uv_as_tensors(self) -> tuple:
        tf = _tf()
        u = tf.convert_to_tensor(self.u)
        v = u if self.v is self.u else tf.convert_to_tensor(self.v)
        return u, v

    def _matmul(self, x: Any, adjoint: bool = False, adjoint_arg: bool = False) -> Any:
        tf = _tf()
        u, v = self._get_uv_as_tensors()
        leading_term = self.base_operator.matmul(x, adjoint=adjoint, adjoint_arg=adjoint_arg)
        if adjoint:
            uh_x = tf.matmul(u, x, adjoint_a=True, adjoint_b=adjoint_arg)
            return leading_term + tf.matmul(v, self.diag_operator.matmul(uh_x, adjoint=adjoint))
        vh_x = tf.matmul(v, x, adjoint_a=True, adjoint_b=adjoint_arg)
        return leading_term + tf.matmul(u, self.diag_operator.matmul(vh_x, adjoint=adjoint))

    def _determinant(self) -> Any:
        tf = _tf()
        if self.is_positive_definite:
            return tf.exp(self.log_abs_determinant())
        u, v = self._get_uv_as_tensors()
        det_c = tf.linalg.det(self._make_capacitance(u=u, v=v))
        return det_c * self.diag_operator.determinant() * self.base_operator.determinant()

    def _diag_part(self) -> Any:
        tf = _tf()
        u, v = self._get_uv_as_tensors()
        product = u * tf.math.conj(v)
        if self.diag_update is not None:
            product *= tf.expand_dims(self.diag_update, axis=-2)
        return tf.reduce_sum(product, axis=-1) + self.base_operator.diag_part()

    def _log_abs_determinant(self) -> Any:
        tf = _tf()
        u, v = self._get_uv_as_tensors()
        log_abs_det_d = self.diag_operator.log_abs_determinant()
        log_abs_det_l = self.base_operator.log_abs_determinant()
        if self._use_cholesky:
            chol_cap_diag = tf.linalg.diag_part(tf.linalg.cholesky(self._make_capacitance(u=u, v=v)))
            log_abs_det_c = 2 * tf.reduce_sum(tf.math.log(chol_cap_diag), axis=[-1])
        else:
            det_c = tf.linalg.det(self._make_capacitance(u=u, v=v))
            log_abs_det_c = tf.math.log(tf.abs(det_c))
            if self.dtype.is_complex:
                log_abs_det_c = tf.cast(log_abs_det_c, dtype=self.dtype)
        return log_abs_det_c + log_abs_det_d + log_abs_det_l

    def _solve(self, rhs: Any, adjoint: bool = False, adjoint_arg: bool = False) -> Any:
        tf = _tf()
        if self.base_operator.is_non_singular is False:
            raise ValueError("Solve not implemented unless this is a perturbation of a non-singular LinearOperator.")
        base = self.base_operator
        if adjoint:
            v, u = self._get_uv_as_tensors()
            capacitance = self._make_capacitance(u=v, v=u)
        else:
            u, v = self._get_uv_as_tensors()
            capacitance = self._make_capacitance(u=u, v=v)
        linv_rhs = base.solve(rhs, adjoint=adjoint, adjoint_arg=adjoint_arg)
        vh_linv_rhs = tf.matmul(v, linv_rhs, adjoint_a=True)
        if self._use_cholesky:
            capinv_vh_linv_rhs = tf.linalg.cholesky_solve(tf.linalg.cholesky(capacitance), vh_linv_rhs)
        else:
            capinv_vh_linv_rhs = _matrix_solve_with_broadcast(capacitance, vh_linv_rhs, adjoint=adjoint)
        u_capinv_vh_linv_rhs = tf.matmul(u, capinv_vh_linv_rhs)
        return linv_rhs - base.solve(u_capinv_vh_linv_rhs, adjoint=adjoint)

    def _make_capacitance(self, u: Any, v: Any) -> Any:
        linv_u = self.base_operator.solve(u)
        vh_linv_u = _tf().matmul(v, linv_u, adjoint_a=True)
        return self._diag_operator.inverse().add_to_tensor(vh_linv_u)


def _is_nested(x: Any) -> bool:
    return isinstance(x, (list, tuple, dict))


def _arg_is_blockwise(block_dimensions: list, arg: Any, arg_split_dim: int) -> bool:
    """linear_operator_util.arg_is_blockwise."""
    if isinstance(arg, (tuple, list)) and len(arg) == len(block_dimensions):
        if not any(_is_nested(x) for x in arg):
            return True
        arg_dims = [_tf().convert_to_tensor(x).shape[arg_split_dim] for x in arg]
        self_dims = [dim.value for dim in block_dimensions]
        if all(self_d is None for self_d in self_dims):
            if len(arg_dims) == 1:
                return False
            if any(dim != arg_dims[0] for dim in arg_dims):
                return True
            raise ValueError("Parsing of the input structure is ambiguous. Please input a blockwise iterable of "
                             "`Tensor`s or a single `Tensor`.")
        if all(self_d == arg_d or self_d is None for self_d, arg_d in zip(self_dims, arg_dims)):
            return True
        self_dim = sum(self_d for self_d in self_dims if self_d is not None)
        if all(s == arg_dims[0] for s in arg_dims) and arg_dims[0] >= self_dim:
            return False
        raise ValueError("Input dimension does not match operator dimension.")
    return False


def _split_arg_into_blocks(block_dims: list, arg: Any, axis: int = -1) -> list:
    return _tf().split(arg, [dim.value for dim in block_dims], axis=axis)


def _check_operators_agree(r: Any, l: Any, message: str) -> None:
    if r.range_dimension is not None and l.domain_dimension is not None and r.range_dimension != l.domain_dimension:
        raise ValueError(message)


class LinearOperatorBlockDiag(LinearOperator):
    """Combines square `LinearOperators` into a block-diagonal matrix (TF's linear_operator_block_diag.py)."""

    def __init__(self, operators: Any, is_non_singular: Any = None, is_self_adjoint: Any = None,
                 is_positive_definite: Any = None, is_square: Any = True, name: Any = None) -> None:
        parameters = dict(operators=operators, is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                          is_positive_definite=is_positive_definite, is_square=is_square, name=name)
        operators = _operator_list(operators)
        self._operators = operators
        dtype = operators[0].dtype
        self._diagonal_operators = operators
        if all(operator.is_non_singular for operator in operators):
            if is_non_singular is False:
                raise ValueError("The direct sum of non-singular operators is always non-singular.")
            is_non_singular = True
        if all(operator.is_self_adjoint for operator in operators):
            if is_self_adjoint is False:
                raise ValueError("The direct sum of self-adjoint operators is always self-adjoint.")
            is_self_adjoint = True
        if all(operator.is_positive_definite for operator in operators):
            if is_positive_definite is False:
                raise ValueError("The direct sum of positive definite operators is always positive definite.")
            is_positive_definite = True
        if name is None:
            name = "_ds_".join(operator.name for operator in operators)
        super().__init__(dtype=dtype, is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=is_square, parameters=parameters,
                         name=name)

    @property
    def operators(self) -> list:
        return self._operators

    def _block_range_dimensions(self) -> list:
        return [op.range_dimension for op in self._diagonal_operators]

    def _block_domain_dimensions(self) -> list:
        return [op.domain_dimension for op in self._diagonal_operators]

    def _shape(self) -> Any:
        tf = _tf()
        domain_dimension = sum(self._block_domain_dimensions())
        range_dimension = sum(self._block_range_dimensions())
        matrix_shape = tf.TensorShape([range_dimension, domain_dimension])
        batch_shape = self.operators[0].batch_shape
        for operator in self.operators[1:]:
            batch_shape = tf.broadcast_static_shape(batch_shape, operator.batch_shape)
        return batch_shape.concatenate(matrix_shape)

    def _linop_adjoint(self) -> "LinearOperatorBlockDiag":
        return LinearOperatorBlockDiag(operators=[operator.adjoint() for operator in self.operators],
                                       is_non_singular=self.is_non_singular, is_self_adjoint=self.is_self_adjoint,
                                       is_positive_definite=self.is_positive_definite, is_square=True)

    def _linop_cholesky(self) -> "LinearOperatorBlockDiag":
        return LinearOperatorBlockDiag(operators=[operator.cholesky() for operator in self.operators],
                                       is_non_singular=True, is_self_adjoint=None, is_square=True)

    def _linop_inverse(self) -> "LinearOperatorBlockDiag":
        return LinearOperatorBlockDiag(operators=[operator.inverse() for operator in self.operators],
                                       is_non_singular=self.is_non_singular, is_self_adjoint=self.is_self_adjoint,
                                       is_positive_definite=self.is_positive_definite, is_square=True)

    def _linop_matmul(self, left_operator: Any, right_operator: Any) -> Any:
        if isinstance(right_operator, LinearOperatorBlockDiag):
            return LinearOperatorBlockDiag(
                operators=[o1.matmul(o2) for o1, o2 in zip(left_operator.operators, right_operator.operators)],
                is_non_singular=_combined_non_singular_hint(left_operator, right_operator), is_self_adjoint=None,
                is_positive_definite=None, is_square=True)
        return super()._linop_matmul(left_operator, right_operator)

    def _linop_solve(self, left_operator: Any, right_operator: Any) -> Any:
        if isinstance(right_operator, LinearOperatorBlockDiag):
            return LinearOperatorBlockDiag(
                operators=[o1.solve(o2) for o1, o2 in zip(left_operator.operators, right_operator.operators)],
                is_non_singular=_combined_non_singular_hint(left_operator, right_operator), is_self_adjoint=None,
                is_positive_definite=None, is_square=True)
        return super()._linop_solve(left_operator, right_operator)

    def _blockwise_checked(self, x: list, block_dimensions: list, arg_dim: int) -> None:
        for i, block in enumerate(x):
            if not isinstance(block, LinearOperator):
                block = _tf().convert_to_tensor(block)
                self._check_input_dtype(block)
                block_dimensions[i].assert_is_compatible_with(block.shape[arg_dim])
                x[i] = block

    def matmul(self, x: Any, adjoint: bool = False, adjoint_arg: bool = False, name: str = "matmul") -> Any:
        if isinstance(x, LinearOperator):
            left_operator = self.adjoint() if adjoint else self
            right_operator = x.adjoint() if adjoint_arg else x
            _check_operators_agree(right_operator, left_operator,
                                   "Operators are incompatible. Expected `x` to have dimension {} but got {}.".format(
                                       left_operator.domain_dimension, right_operator.range_dimension))
            if isinstance(x, LinearOperatorBlockDiag):
                if len(left_operator.operators) != len(right_operator.operators):
                    raise ValueError("Can not efficiently multiply two `LinearOperatorBlockDiag`s together when number "
                                     "of blocks differ.")
                for o1, o2 in zip(left_operator.operators, right_operator.operators):
                    _check_operators_agree(o2, o1, "Blocks are incompatible. Expected `x` to have dimension {} but got "
                                                   "{}.".format(o1.domain_dimension, o2.range_dimension))
            return self._linop_matmul(left_operator, right_operator)
        arg_dim = -1 if adjoint_arg else -2
        block_dimensions = self._block_range_dimensions() if adjoint else self._block_domain_dimensions()
        if _arg_is_blockwise(block_dimensions, x, arg_dim):
            self._blockwise_checked(x, block_dimensions, arg_dim)
        else:
            x = _tf().convert_to_tensor(x, name="x")
            self._check_input_dtype(x)
            op_dimension = self.range_dimension if adjoint else self.domain_dimension
            op_dimension.assert_is_compatible_with(x.shape[arg_dim])
        return self._matmul(x, adjoint=adjoint, adjoint_arg=adjoint_arg)

    def _matmul(self, x: Any, adjoint: bool = False, adjoint_arg: bool = False) -> Any:
        arg_dim = -1 if adjoint_arg else -2
        block_dimensions = self._block_range_dimensions() if adjoint else self._block_domain_dimensions()
        blockwise_arg = _arg_is_blockwise(block_dimensions, x, arg_dim)
        split_x = x if blockwise_arg else _split_arg_into_blocks(block_dimensions, x, axis=-1 if adjoint_arg else -2)
        result_list = [operator.matmul(split_x[i], adjoint=adjoint, adjoint_arg=adjoint_arg)
                       for i, operator in enumerate(self.operators)]
        if blockwise_arg:
            return result_list
        return _tf().concat(_broadcast_matrix_batch_dims(result_list), axis=-2)

    def matvec(self, x: Any, adjoint: bool = False, name: str = "matvec") -> Any:
        tf = _tf()
        block_dimensions = self._block_range_dimensions() if adjoint else self._block_domain_dimensions()
        if _arg_is_blockwise(block_dimensions, x, -1):
            self._blockwise_checked(x, block_dimensions, -1)
            y_mat = self.matmul([block[..., None] for block in x], adjoint=adjoint)
            return [tf.squeeze(y, axis=-1) for y in y_mat]
        x = tf.convert_to_tensor(x, name="x")
        self._check_input_dtype(x)
        op_dimension = self.range_dimension if adjoint else self.domain_dimension
        op_dimension.assert_is_compatible_with(x.shape[-1])
        return tf.squeeze(self.matmul(x[..., None], adjoint=adjoint), axis=-1)

    def _determinant(self) -> Any:
        return _determinant_product(self.operators)

    def _log_abs_determinant(self) -> Any:
        return _log_abs_determinant_sum(self.operators)

    def solve(self, rhs: Any, adjoint: bool = False, adjoint_arg: bool = False, name: str = "solve") -> Any:
        tf = _tf()
        if self.is_non_singular is False:
            raise NotImplementedError("Exact solve not implemented for an operator that is expected to be singular.")
        if self.is_square is False:
            raise NotImplementedError("Exact solve not implemented for an operator that is expected to not be square.")
        if isinstance(rhs, LinearOperator):
            left_operator = self.adjoint() if adjoint else self
            right_operator = rhs.adjoint() if adjoint_arg else rhs
            _check_operators_agree(right_operator, left_operator,
                                   "Operators are incompatible. Expected `x` to have dimension {} but got {}.".format(
                                       left_operator.domain_dimension, right_operator.range_dimension))
            if isinstance(right_operator, LinearOperatorBlockDiag):
                if len(left_operator.operators) != len(right_operator.operators):
                    raise ValueError("Can not efficiently solve `LinearOperatorBlockDiag` when number of blocks "
                                     "differ.")
                for o1, o2 in zip(left_operator.operators, right_operator.operators):
                    _check_operators_agree(o2, o1, "Blocks are incompatible. Expected `x` to have dimension {} but got "
                                                   "{}.".format(o1.domain_dimension, o2.range_dimension))
            return self._linop_solve(left_operator, right_operator)
        block_dimensions = self._block_domain_dimensions() if adjoint else self._block_range_dimensions()
        arg_dim = -1 if adjoint_arg else -2
        blockwise_arg = _arg_is_blockwise(block_dimensions, rhs, arg_dim)
        if blockwise_arg:
            split_rhs = rhs
            self._blockwise_checked(split_rhs, block_dimensions, arg_dim)
        else:
            rhs = tf.convert_to_tensor(rhs, name="rhs")
            self._check_input_dtype(rhs)
            op_dimension = self.domain_dimension if adjoint else self.range_dimension
            op_dimension.assert_is_compatible_with(rhs.shape[arg_dim])
            split_rhs = _split_arg_into_blocks(self._block_domain_dimensions(), rhs, axis=-1 if adjoint_arg else -2)
        solution_list = [operator.solve(split_rhs[i], adjoint=adjoint, adjoint_arg=adjoint_arg)
                         for i, operator in enumerate(self.operators)]
        if blockwise_arg:
            return solution_list
        return tf.concat(_broadcast_matrix_batch_dims(solution_list), axis=-2)

    def solvevec(self, rhs: Any, adjoint: bool = False, name: str = "solve") -> Any:
        tf = _tf()
        block_dimensions = self._block_domain_dimensions() if adjoint else self._block_range_dimensions()
        if _arg_is_blockwise(block_dimensions, rhs, -1):
            self._blockwise_checked(rhs, block_dimensions, -1)
            solution_mat = self.solve([tf.expand_dims(block, axis=-1) for block in rhs], adjoint=adjoint)
            return [tf.squeeze(x, axis=-1) for x in solution_mat]
        rhs = tf.convert_to_tensor(rhs, name="rhs")
        self._check_input_dtype(rhs)
        op_dimension = self.domain_dimension if adjoint else self.range_dimension
        op_dimension.assert_is_compatible_with(rhs.shape[-1])
        return tf.squeeze(self.solve(tf.expand_dims(rhs, axis=-1), adjoint=adjoint), axis=-1)

    def _diag_part(self) -> Any:
        tf = _tf()
        if not all(operator.is_square for operator in self.operators):
            raise NotImplementedError("`diag_part` not implemented for an operator whose blocks are not square.")
        diag_list = _broadcast_matrix_batch_dims([operator.diag_part()[..., None] for operator in self.operators])
        return tf.squeeze(tf.concat(diag_list, axis=-2), axis=-1)

    def _trace(self) -> Any:
        if not all(operator.is_square for operator in self.operators):
            raise NotImplementedError("`trace` not implemented for an operator whose blocks are not square.")
        result = self.operators[0].trace()
        for operator in self.operators[1:]:
            result += operator.trace()
        return result

    def _to_dense(self) -> Any:
        tf = _tf()
        num_cols = 0
        rows = []
        blocks = _broadcast_matrix_batch_dims([operator.to_dense() for operator in self.operators])
        total = self.domain_dimension.value
        for block in blocks:
            batch_row_shape = block.shape.as_list()[:-1]
            before = tf.zeros(shape=batch_row_shape + [num_cols], dtype=block.dtype)
            num_cols += block.shape.as_list()[-1]
            after = tf.zeros(shape=batch_row_shape + [total - num_cols], dtype=block.dtype)
            rows.append(tf.concat([before, block, after], axis=-1))
        return tf.concat(rows, axis=-2)

    def _eigvals(self) -> Any:
        tf = _tf()
        if not all(operator.is_square for operator in self.operators):
            raise NotImplementedError("`eigvals` not implemented for an operator whose blocks are not square.")
        eig_list = _broadcast_matrix_batch_dims([operator.eigvals()[..., None] for operator in self.operators])
        return tf.squeeze(tf.concat(eig_list, axis=-2), axis=-1)


def _to_complex(x: Any) -> Any:
    tf = _tf()
    if x.dtype.is_complex:
        return x
    return tf.cast(x, tf.complex128 if x.dtype == tf.float64 else tf.complex64)


def _rotate_transpose(x: Any, shift: int) -> Any:
    """distribution_util.rotate_transpose for a static rank and shift."""
    ndims = x.shape.ndims
    return _tf().transpose(x, perm=np.roll(np.arange(ndims), shift).tolist())


class _BaseLinearOperatorCirculant(LinearOperator):
    """Base class for (nested block) circulant operators (TF's linear_operator_circulant.py; static shapes)."""

    def __init__(self, spectrum: Any, block_depth: int, input_output_dtype: Any = None, is_non_singular: Any = None,
                 is_self_adjoint: Any = None, is_positive_definite: Any = None, is_square: Any = True,
                 parameters: Any = None, name: str = "LinearOperatorCirculant") -> None:
        tf = _tf()
        input_output_dtype = tf.complex64 if input_output_dtype is None else input_output_dtype
        allowed_block_depths = [1, 2, 3]
        self._name = name
        if block_depth not in allowed_block_depths:
            raise ValueError(f"Argument `block_depth` must be one of {allowed_block_depths}. Received: {block_depth}.")
        self._block_depth = block_depth
        self._spectrum = self._check_spectrum_and_return_tensor(spectrum)
        if not self.spectrum.dtype.is_complex:
            if is_self_adjoint is False:
                raise ValueError("A real spectrum always corresponds to a self-adjoint operator. Expected argument "
                                 "`is_self_adjoint` to be True when `spectrum.dtype.is_complex` = True. Received: "
                                 f"{is_self_adjoint}.")
            is_self_adjoint = True
        if is_square is False:
            raise ValueError("A [[nested] block] circulant operator is always square. Expected argument `is_square` to "
                             f"be True. Received: {is_square}.")
        is_square = True
        super().__init__(dtype=tf.as_dtype(input_output_dtype), is_non_singular=is_non_singular,
                         is_self_adjoint=is_self_adjoint, is_positive_definite=is_positive_definite,
                         is_square=is_square, parameters=parameters, name=name)

    def _check_spectrum_and_return_tensor(self, spectrum: Any) -> Any:
        spectrum = _convert_nonref_to_tensor(spectrum, name="spectrum")
        if spectrum.shape.ndims is not None and spectrum.shape.ndims < self.block_depth:
            raise ValueError(f"Argument `spectrum` must have at least {self.block_depth} dimensions. Received: "
                             f"{spectrum}.")
        return spectrum

    @property
    def block_depth(self) -> int:
        return self._block_depth

    @property
    def block_shape(self) -> Any:
        return self.spectrum.shape[-self.block_depth:]

    def block_shape_tensor(self) -> Any:
        return _shape_tensor(self.block_shape.as_list(), name="block_shape")

    @property
    def spectrum(self) -> Any:
        return self._spectrum

    def _same_kind(self, **kwargs: Any) -> Any:
        """A circulant operator of this class (the base class's for the base: TF's subclasses rebuild their own)."""
        if type(self) is _BaseLinearOperatorCirculant:
            return _BaseLinearOperatorCirculant(block_depth=self.block_depth, **kwargs)
        return type(self)(**kwargs)

    def _linop_adjoint(self) -> Any:
        spectrum = self.spectrum
        if spectrum.dtype.is_complex:
            spectrum = _tf().math.conj(spectrum)
        return self._same_kind(spectrum=spectrum, is_non_singular=self.is_non_singular,
                               is_self_adjoint=self.is_self_adjoint, is_positive_definite=self.is_positive_definite,
                               is_square=True)

    def _linop_inverse(self) -> Any:
        return self._same_kind(spectrum=1.0 / self.spectrum, is_non_singular=self.is_non_singular,
                               is_self_adjoint=self.is_self_adjoint, is_positive_definite=self.is_positive_definite,
                               is_square=True, input_output_dtype=self.dtype)

    def _linop_matmul(self, left_operator: Any, right_operator: Any) -> Any:
        if not isinstance(right_operator, type(self)) or not isinstance(left_operator, type(right_operator)):
            return super()._linop_matmul(left_operator, right_operator)
        return self._same_kind(
            spectrum=left_operator.spectrum * right_operator.spectrum,
            is_non_singular=_combined_non_singular_hint(left_operator, right_operator),
            is_self_adjoint=_combined_commuting_self_adjoint_hint(left_operator, right_operator),
            is_positive_definite=_combined_commuting_positive_definite_hint(left_operator, right_operator),
            is_square=True)

    def _linop_solve(self, left_operator: Any, right_operator: Any) -> Any:
        if not isinstance(right_operator, type(self)) or (type(self) is _BaseLinearOperatorCirculant and not isinstance(
                left_operator, type(right_operator))):
            return super()._linop_solve(left_operator, right_operator)
        return self._same_kind(
            spectrum=right_operator.spectrum / left_operator.spectrum,
            is_non_singular=_combined_non_singular_hint(left_operator, right_operator),
            is_self_adjoint=_combined_commuting_self_adjoint_hint(left_operator, right_operator),
            is_positive_definite=_combined_commuting_positive_definite_hint(left_operator, right_operator),
            is_square=True)

    def _vectorize_then_blockify(self, matrix: Any) -> Any:
        vec = _rotate_transpose(matrix, shift=1)
        final_shape = vec.shape[:-1].concatenate(self.block_shape)
        return _tf().reshape(vec, final_shape.as_list())

    def _unblockify(self, x: Any) -> Any:
        x_shape = x.shape.as_list()
        flat_shape = x_shape[:-self.block_depth] + [int(np.prod(x_shape[-self.block_depth:]))]
        return _tf().reshape(x, flat_shape)

    def _unblockify_then_matricize(self, vec: Any) -> Any:
        return _rotate_transpose(self._unblockify(vec), shift=-1)

    def _fft(self, x: Any) -> Any:
        s = _tf().signal
        return {1: s.fft, 2: s.fft2d, 3: s.fft3d}[self.block_depth](_to_complex(x))

    def _ifft(self, x: Any) -> Any:
        s = _tf().signal
        return {1: s.ifft, 2: s.ifft2d, 3: s.ifft3d}[self.block_depth](_to_complex(x))

    def convolution_kernel(self, name: str = "convolution_kernel") -> Any:
        return _tf().cast(self._ifft(_to_complex(self.spectrum)), self.dtype)

    def _shape(self) -> Any:
        s_shape = self._spectrum.shape
        n = int(np.prod(s_shape[-self.block_depth:].as_list()))
        return s_shape[:-self.block_depth].concatenate(_tf().TensorShape([n, n]))

    def _broadcast_batch_dims(self, x: Any, spectrum: Any) -> tuple:
        tf = _tf()
        spectrum = tf.convert_to_tensor(spectrum, name="spectrum")
        batch_shape = spectrum.shape.as_list()[:-self.block_depth]
        spec_mat = tf.reshape(spectrum, batch_shape + [-1, 1])
        x, spec_mat = _broadcast_matrix_batch_dims([x, spec_mat])
        x_batch_shape = x.shape.as_list()[:-2]
        spectrum = tf.reshape(spec_mat, x_batch_shape + spectrum.shape.as_list()[-self.block_depth:])
        return x, spectrum

    def _cond(self) -> Any:
        tf = _tf()
        abs_singular_values = tf.abs(self._unblockify(self.spectrum))
        return tf.reduce_max(abs_singular_values, axis=-1) / tf.reduce_min(abs_singular_values, axis=-1)

    def _eigvals(self) -> Any:
        return _tf().convert_to_tensor(self._unblockify(self.spectrum))

    def _matmul(self, x: Any, adjoint: bool = False, adjoint_arg: bool = False) -> Any:
        tf = _tf()
        x = tf.linalg.adjoint(x) if adjoint_arg else x
        spectrum = _to_complex(self.spectrum)
        if adjoint:
            spectrum = tf.math.conj(spectrum)
        x = tf.cast(x, spectrum.dtype)
        x, spectrum = self._broadcast_batch_dims(x, spectrum)
        block_vector_result = self._ifft(spectrum * self._fft(self._vectorize_then_blockify(x)))
        return tf.cast(self._unblockify_then_matricize(block_vector_result), self.dtype)

    def _determinant(self) -> Any:
        tf = _tf()
        axis = [-(i + 1) for i in range(self.block_depth)]
        return tf.cast(tf.reduce_prod(self.spectrum, axis=axis), self.dtype)

    def _log_abs_determinant(self) -> Any:
        tf = _tf()
        axis = [-(i + 1) for i in range(self.block_depth)]
        return tf.cast(tf.reduce_sum(tf.math.log(tf.abs(self.spectrum)), axis=axis), self.dtype)

    def _solve(self, rhs: Any, adjoint: bool = False, adjoint_arg: bool = False) -> Any:
        tf = _tf()
        rhs = tf.linalg.adjoint(rhs) if adjoint_arg else rhs
        spectrum = _to_complex(self.spectrum)
        if adjoint:
            spectrum = tf.math.conj(spectrum)
        rhs, spectrum = self._broadcast_batch_dims(rhs, spectrum)
        solution_vb = self._ifft(self._fft(self._vectorize_then_blockify(rhs)) / spectrum)
        return tf.cast(self._unblockify_then_matricize(solution_vb), self.dtype)

    def _diag_part(self) -> Any:
        tf = _tf()
        ones_diag = tf.ones(self.shape.as_list()[:-1], dtype=self.dtype)
        diag_value = self.trace() / tf.cast(self.domain_dimension.value, self.dtype)
        return diag_value[..., None] * ones_diag

    def _trace(self) -> Any:
        tf = _tf()
        spec_rank = self.spectrum.shape.ndims
        axis = np.arange(spec_rank - self.block_depth, spec_rank, dtype=np.int32).tolist()
        re_d_value = tf.reduce_sum(tf.math.real(self.spectrum), axis=axis)
        if not self.dtype.is_complex:
            return tf.cast(re_d_value, self.dtype)
        if self.is_self_adjoint:
            im_d_value = tf.zeros_like(re_d_value)
        else:
            im_d_value = tf.reduce_sum(tf.math.imag(self.spectrum), axis=axis)
        return tf.cast(tf.complex(re_d_value, im_d_value), self.dtype)


def _circulant_class(class_name: str, depth: int) -> type:
    def __init__(self: Any, spectrum: Any, input_output_dtype: Any = None, is_non_singular: Any = None,
                 is_self_adjoint: Any = None, is_positive_definite: Any = None, is_square: Any = True,
                 name: str = class_name) -> None:
        input_output_dtype = _tf().complex64 if input_output_dtype is None else input_output_dtype
        parameters = dict(spectrum=spectrum, input_output_dtype=input_output_dtype, is_non_singular=is_non_singular,
                          is_self_adjoint=is_self_adjoint, is_positive_definite=is_positive_definite,
                          is_square=is_square, name=name)
        _BaseLinearOperatorCirculant.__init__(self, spectrum, block_depth=depth, input_output_dtype=input_output_dtype,
                                              is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                                              is_positive_definite=is_positive_definite, is_square=is_square,
                                              parameters=parameters, name=name)
    doc = f"`LinearOperator` acting like a {'' if depth == 1 else f'{depth}-level nested block '}circulant matrix."
    return type(class_name, (_BaseLinearOperatorCirculant,), {"__init__": __init__, "__doc__": doc,
                                                              "__module__": __name__})


LinearOperatorCirculant = _circulant_class("LinearOperatorCirculant", 1)
LinearOperatorCirculant2D = _circulant_class("LinearOperatorCirculant2D", 2)
LinearOperatorCirculant3D = _circulant_class("LinearOperatorCirculant3D", 3)


class LinearOperatorToeplitz(LinearOperator):
    """`LinearOperator` acting like a [batch] Toeplitz matrix (TF's linear_operator_toeplitz.py): matmul through a
    circulant embedding of size 2n."""

    def __init__(self, col: Any, row: Any, is_non_singular: Any = None, is_self_adjoint: Any = None,
                 is_positive_definite: Any = None, is_square: Any = None, name: str = "LinearOperatorToeplitz") -> None:
        parameters = dict(col=col, row=row, is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                          is_positive_definite=is_positive_definite, is_square=is_square, name=name)
        self._row = _convert_nonref_to_tensor(row, name="row")
        self._col = _convert_nonref_to_tensor(col, name="col")
        self._check_row_col(self._row, self._col)
        if is_square is False:
            raise ValueError("Only square Toeplitz operators currently supported.")
        is_square = True
        super().__init__(dtype=self._row.dtype, is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=is_square, parameters=parameters,
                         name=name)

    def _check_row_col(self, row: Any, col: Any) -> None:
        for name, t in (("row", row), ("col", col)):
            if t.shape.ndims is not None and t.shape.ndims < 1:
                raise ValueError("Argument {} must have at least 1 dimension.  Found: {}".format(name, t))
        if row.shape[-1] is not None and col.shape[-1] is not None and row.shape[-1] != col.shape[-1]:
            raise ValueError("Expected square matrix, got row and col with mismatched dimensions.")

    @property
    def col(self) -> Any:
        return self._col

    @property
    def row(self) -> Any:
        return self._row

    def _shape(self) -> Any:
        v_shape = _tf().broadcast_static_shape(self.row.shape, self.col.shape)
        return v_shape.concatenate(v_shape[-1:])

    def _matmul(self, x: Any, adjoint: bool = False, adjoint_arg: bool = False) -> Any:
        tf = _tf()
        x = tf.linalg.adjoint(x) if adjoint_arg else x
        expanded_x = tf.concat([x, tf.zeros_like(x)], axis=-2)
        col, row = tf.convert_to_tensor(self.col), tf.convert_to_tensor(self.row)
        circulant_col = tf.concat([col, tf.zeros_like(col[..., 0:1]), tf.reverse(row[..., 1:], axis=[-1])], axis=-1)
        circulant = LinearOperatorCirculant(tf.signal.fft(_to_complex(circulant_col)), input_output_dtype=row.dtype)
        result = circulant.matmul(expanded_x, adjoint=adjoint, adjoint_arg=False)
        return tf.cast(result[..., :self.domain_dimension.value, :], self.dtype)

    def _trace(self) -> Any:
        return _tf().cast(self.domain_dimension.value, dtype=self.dtype) * self.col[..., 0]

    def _diag_part(self) -> Any:
        return self.col[..., 0:1] * _tf().ones([self.domain_dimension.value], self.dtype)

    def _to_dense(self) -> Any:
        tf = _tf()
        row, col = tf.convert_to_tensor(self.row), tf.convert_to_tensor(self.col)
        total_shape = tf.broadcast_dynamic_shape(tf.shape(row), tf.shape(col))
        n = row.shape.as_list()[-1]
        row = tf.broadcast_to(row, total_shape)
        col = tf.broadcast_to(col, total_shape)
        elements = tf.concat([tf.reverse(col, axis=[-1]), row[..., 1:]], axis=-1)
        indices = tf.math.floormod(tf.range(0, n) + tf.range(n - 1, -1, -1)[..., None], 2 * n - 1)
        return tf.gather(elements, indices, axis=-1)


def _assert_proper_iterable(values: Any) -> None:
    """check_ops.assert_proper_iterable."""
    tf = _tf()
    if isinstance(values, (tf.Tensor, tf.SparseTensor, np.ndarray, str, bytes)):
        raise TypeError('Expected argument "values" to be a "proper" iterable.  Found: %s' % type(values))
    if not hasattr(values, "__iter__"):
        raise TypeError('Expected argument "values" to be iterable.  Found: %s' % type(values))


class LinearOperatorBlockLowerTriangular(LinearOperator):
    """A blockwise lower-triangular operator of `LinearOperator` blocks (TF 2.21's
    linear_operator_block_lower_triangular.py; names44): `operators[i]` is row i, holding i + 1 blocks whose last
    is on the diagonal."""

    def __init__(self, operators: Any, is_non_singular: Any = None, is_self_adjoint: Any = None,
                 is_positive_definite: Any = None, is_square: Any = None,
                 name: Any = "LinearOperatorBlockLowerTriangular") -> None:
        parameters = dict(operators=operators, is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                          is_positive_definite=is_positive_definite, is_square=is_square, name=name)
        _assert_proper_iterable(operators)
        for row in operators:
            _assert_proper_iterable(row)
        operators = [list(row) for row in operators]
        if not operators:
            raise ValueError(f"Argument `operators` must be a list of >=1 operators. Received: {operators}.")
        self._operators = operators
        self._diagonal_operators = [row[-1] for row in operators]
        dtype = operators[0][0].dtype
        self._validate_dtype(dtype)
        is_non_singular = self._validate_non_singular(is_non_singular)
        self._validate_num_operators()
        self._validate_operator_dimensions()
        is_square = self._validate_square(is_square)
        super().__init__(dtype=dtype, is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=is_square, parameters=parameters,
                         name=name)

    def _validate_num_operators(self) -> None:
        for i, row in enumerate(self.operators):
            if len(row) != i + 1:
                raise ValueError(f"Argument `operators[{i}]` must contain `{i + 1}` blocks. Received: {len(row)} "
                                 "blocks.")

    def _validate_operator_dimensions(self) -> None:
        for i in range(1, len(self.operators)):
            for j in range(i):
                op = self.operators[i][j]
                above_op = self.operators[i - 1][j]
                right_op = self.operators[i][j + 1]
                if op.domain_dimension is not None and above_op.domain_dimension is not None:
                    if op.domain_dimension != above_op.domain_dimension:
                        raise ValueError(f"Argument `operators[{i}][{j}].domain_dimension` ({op.domain_dimension}) must "
                                         f"be the same as `operators[{i - 1}][{j}].domain_dimension` "
                                         f"({above_op.domain_dimension}).")
                if op.range_dimension is not None and right_op.range_dimension is not None:
                    if op.range_dimension != right_op.range_dimension:
                        raise ValueError(f"Argument `operators[{i}][{j}].range_dimension` ({op.range_dimension}) must "
                                         f"be the same as `operators[{i}][{j + 1}].range_dimension` "
                                         f"({right_op.range_dimension}).")

    def _validate_non_singular(self, is_non_singular: Any) -> Any:
        if all(op.is_non_singular for op in self._diagonal_operators):
            if is_non_singular is False:
                raise ValueError("A blockwise lower-triangular operator with non-singular operators on the main "
                                 "diagonal is always non-singular. Expected argument `is_non_singular` to be True. "
                                 f"Received: {is_non_singular}.")
            return True
        if any(op.is_non_singular is False for op in self._diagonal_operators):
            if is_non_singular is True:
                raise ValueError("A blockwise lower-triangular operator with a singular operator on the main diagonal "
                                 "is always singular. Expected argument `is_non_singular` to be True. Received: "
                                 f"{is_non_singular}.")
            return False
        return None

    def _validate_square(self, is_square: Any) -> bool:
        if is_square is False:
            raise ValueError("`LinearOperatorBlockLowerTriangular` must be square. Expected argument `is_square` to be "
                             f"True. Received: {is_square}.")
        for i, op in enumerate(self._diagonal_operators):
            if op.is_square is False:
                raise ValueError("Matrices on the diagonal (the final elements of each row-partition in the "
                                 "`operators` list) must be square. Expected argument "
                                 f"`operators[{i}][-1].is_square` to be True. Received: {op.is_square}.")
        return True

    def _validate_dtype(self, dtype: Any) -> None:
        for i, row in enumerate(self.operators):
            for operator in row:
                if operator.dtype != dtype:
                    name_type = (str((o.name, o.dtype)) for o in row)
                    raise TypeError("Expected all operators to have the same dtype.  Found {} in row {} and {} in row "
                                    "0.".format(name_type, i, str(dtype)))

    @property
    def operators(self) -> list:
        return self._operators

    def _block_range_dimensions(self) -> list:
        return [op.range_dimension for op in self._diagonal_operators]

    def _block_domain_dimensions(self) -> list:
        return [op.domain_dimension for op in self._diagonal_operators]

    def _shape(self) -> Any:
        tf = _tf()
        domain_dimension = sum(self._block_domain_dimensions())
        range_dimension = sum(self._block_range_dimensions())
        matrix_shape = tf.TensorShape([domain_dimension, range_dimension])   # (TF's order; the operator is square)
        batch_shape = self.operators[0][0].batch_shape
        for row in self.operators[1:]:
            for operator in row:
                batch_shape = tf.broadcast_static_shape(batch_shape, operator.batch_shape)
        return batch_shape.concatenate(matrix_shape)

    def _linop_inverse(self) -> "LinearOperatorBlockLowerTriangular":
        """The inverse, blockwise: TF 2.21's recursion (the upper-left part's inverse, then the bottom row
        −D⁻¹ Σ_j L_j (upper-left inverse)_ji); each bottom-row sum is one LinearOperatorFullMatrix of the summed
        dense blocks here (TF's linear_operator_addition may keep a Diag or a triangular form)."""
        tf = _tf()
        if len(self.operators) == 1:
            return LinearOperatorBlockLowerTriangular([[self.operators[0][0].inverse()]],
                                                      is_non_singular=self.is_non_singular,
                                                      is_self_adjoint=self.is_self_adjoint,
                                                      is_positive_definite=self.is_positive_definite, is_square=True)
        blockwise_dim = len(self.operators)
        upper_left_inverse = LinearOperatorBlockLowerTriangular(self.operators[:-1]).inverse()
        bottom_row = self.operators[-1]
        bottom_right_inverse = bottom_row[-1].inverse()
        inverse_bottom_row = []
        for i in range(blockwise_dim - 1):
            dense = None
            for j in range(i, blockwise_dim - 1):
                result = bottom_row[j].matmul(upper_left_inverse.operators[j][i])
                part = result.to_dense() if isinstance(result, LinearOperator) else result
                dense = part if dense is None else dense + part
            block = bottom_right_inverse.matmul(LinearOperatorFullMatrix(dense))
            block = LinearOperatorScaledIdentity(num_rows=bottom_right_inverse.domain_dimension_tensor(),
                                                 multiplier=tf.cast(-1, dtype=block.dtype)).matmul(block)
            inverse_bottom_row.append(block)
        inverse_bottom_row.append(bottom_right_inverse)
        return LinearOperatorBlockLowerTriangular(upper_left_inverse.operators + [inverse_bottom_row],
                                                  is_non_singular=self.is_non_singular,
                                                  is_self_adjoint=self.is_self_adjoint,
                                                  is_positive_definite=self.is_positive_definite, is_square=True)

    def _checked_blocks(self, x: list, block_dimensions: list, arg_dim: int) -> None:
        tf = _tf()
        for i, block in enumerate(x):
            if not isinstance(block, LinearOperator):
                block = tf.convert_to_tensor(block)
                self._check_input_dtype(block)
                block_dimensions[i].assert_is_compatible_with(block.shape[arg_dim])
                x[i] = block

    def matmul(self, x: Any, adjoint: bool = False, adjoint_arg: bool = False, name: str = "matmul") -> Any:
        tf = _tf()
        if isinstance(x, LinearOperator):
            left_operator = self.adjoint() if adjoint else self
            right_operator = x.adjoint() if adjoint_arg else x
            if (right_operator.range_dimension is not None and left_operator.domain_dimension is not None
                    and right_operator.range_dimension != left_operator.domain_dimension):
                raise ValueError("Operators are incompatible. Expected `x` to have dimension {} but got {}.".format(
                    left_operator.domain_dimension, right_operator.range_dimension))
            return self._linop_matmul(left_operator, right_operator)
        arg_dim = -1 if adjoint_arg else -2
        block_dimensions = self._block_range_dimensions() if adjoint else self._block_domain_dimensions()
        if _arg_is_blockwise(block_dimensions, x, arg_dim):
            self._checked_blocks(x, block_dimensions, arg_dim)
        else:
            x = tf.convert_to_tensor(x, name="x")
            self._check_input_dtype(x)
            op_dimension = self.range_dimension if adjoint else self.domain_dimension
            op_dimension.assert_is_compatible_with(x.shape[arg_dim])
        return self._matmul(x, adjoint=adjoint, adjoint_arg=adjoint_arg)

    def _matmul(self, x: Any, adjoint: bool = False, adjoint_arg: bool = False) -> Any:
        tf = _tf()
        arg_dim = -1 if adjoint_arg else -2
        block_dimensions = self._block_range_dimensions() if adjoint else self._block_domain_dimensions()
        blockwise_arg = _arg_is_blockwise(block_dimensions, x, arg_dim)
        if blockwise_arg:
            split_x = x
        else:
            split_x = _split_arg_into_blocks(self._block_domain_dimensions(), x, axis=-1 if adjoint_arg else -2)
        result_list = []
        if adjoint:
            for index in range(len(self.operators)):
                result = self.operators[index][index].matmul(split_x[index], adjoint=adjoint, adjoint_arg=adjoint_arg)
                for j in range(index + 1, len(self.operators)):
                    result += self.operators[j][index].matmul(split_x[j], adjoint=adjoint, adjoint_arg=adjoint_arg)
                result_list.append(result)
        else:
            for row in self.operators:
                result = row[0].matmul(split_x[0], adjoint=adjoint, adjoint_arg=adjoint_arg)
                for j, operator in enumerate(row[1:]):
                    result += operator.matmul(split_x[j + 1], adjoint=adjoint, adjoint_arg=adjoint_arg)
                result_list.append(result)
        if blockwise_arg:
            return result_list
        result_list = _broadcast_matrix_batch_dims(result_list)
        return tf.concat(result_list, axis=-2)

    def matvec(self, x: Any, adjoint: bool = False, name: str = "matvec") -> Any:
        tf = _tf()
        block_dimensions = self._block_range_dimensions() if adjoint else self._block_domain_dimensions()
        if _arg_is_blockwise(block_dimensions, x, -1):
            self._checked_blocks(x, block_dimensions, -1)
            x_mat = [block[..., tf.newaxis] for block in x]
            y_mat = self.matmul(x_mat, adjoint=adjoint)
            return [tf.squeeze(y, axis=-1) for y in y_mat]
        x = tf.convert_to_tensor(x, name="x")
        self._check_input_dtype(x)
        op_dimension = self.range_dimension if adjoint else self.domain_dimension
        op_dimension.assert_is_compatible_with(x.shape[-1])
        y_mat = self.matmul(x[..., tf.newaxis], adjoint=adjoint)
        return tf.squeeze(y_mat, axis=-1)

    def _determinant(self) -> Any:
        tf = _tf()
        if all(op.is_positive_definite for op in self._diagonal_operators):
            return tf.exp(self._log_abs_determinant())
        return _determinant_product(self._diagonal_operators)

    def _log_abs_determinant(self) -> Any:
        return _log_abs_determinant_sum(self._diagonal_operators)

    def solve(self, rhs: Any, adjoint: bool = False, adjoint_arg: bool = False, name: str = "solve") -> Any:
        tf = _tf()
        if self.is_non_singular is False:
            raise NotImplementedError("Exact solve not implemented for an operator that is expected to be singular.")
        if self.is_square is False:
            raise NotImplementedError("Exact solve not implemented for an operator that is expected to not be square.")
        if isinstance(rhs, LinearOperator):
            left_operator = self.adjoint() if adjoint else self
            right_operator = rhs.adjoint() if adjoint_arg else rhs
            if (right_operator.range_dimension is not None and left_operator.domain_dimension is not None
                    and right_operator.range_dimension != left_operator.domain_dimension):
                raise ValueError("Operators are incompatible. Expected `rhs` to have dimension {} but got {}.".format(
                    left_operator.domain_dimension, right_operator.range_dimension))
            return self._linop_solve(left_operator, right_operator)
        block_dimensions = self._block_domain_dimensions() if adjoint else self._block_range_dimensions()
        arg_dim = -1 if adjoint_arg else -2
        blockwise_arg = _arg_is_blockwise(block_dimensions, rhs, arg_dim)
        if blockwise_arg:
            self._checked_blocks(rhs, block_dimensions, arg_dim)
            split_rhs = [tf.linalg.adjoint(y) for y in rhs] if adjoint_arg else rhs
        else:
            rhs = tf.convert_to_tensor(rhs, name="rhs")
            self._check_input_dtype(rhs)
            op_dimension = self.domain_dimension if adjoint else self.range_dimension
            op_dimension.assert_is_compatible_with(rhs.shape[arg_dim])
            rhs = tf.linalg.adjoint(rhs) if adjoint_arg else rhs
            split_rhs = _split_arg_into_blocks(self._block_domain_dimensions(), rhs, axis=-2)
        solution_list: list = []
        if adjoint:
            for index in reversed(range(len(self.operators))):
                y = split_rhs[index]
                for j in reversed(range(index + 1, len(self.operators))):
                    y = y - self.operators[j][index].matmul(solution_list[len(self.operators) - 1 - j], adjoint=adjoint)
                solution_list.append(self._diagonal_operators[index].solve(y, adjoint=adjoint))
            solution_list.reverse()
        else:
            for row, y in zip(self.operators, split_rhs):
                for i, operator in enumerate(row[:-1]):
                    y = y - operator.matmul(solution_list[i], adjoint=adjoint)
                solution_list.append(row[-1].solve(y, adjoint=adjoint))
        if blockwise_arg:
            return solution_list
        solution_list = _broadcast_matrix_batch_dims(solution_list)
        return tf.concat(solution_list, axis=-2)

    def solvevec(self, rhs: Any, adjoint: bool = False, name: str = "solve") -> Any:
        tf = _tf()
        block_dimensions = self._block_domain_dimensions() if adjoint else self._block_range_dimensions()
        if _arg_is_blockwise(block_dimensions, rhs, -1):
            self._checked_blocks(rhs, block_dimensions, -1)
            rhs_mat = [tf.expand_dims(block, axis=-1) for block in rhs]
            solution_mat = self.solve(rhs_mat, adjoint=adjoint)
            return [tf.squeeze(x, axis=-1) for x in solution_mat]
        rhs = tf.convert_to_tensor(rhs, name="rhs")
        self._check_input_dtype(rhs)
        op_dimension = self.domain_dimension if adjoint else self.range_dimension
        op_dimension.assert_is_compatible_with(rhs.shape[-1])
        solution_mat = self.solve(tf.expand_dims(rhs, axis=-1), adjoint=adjoint)
        return tf.squeeze(solution_mat, axis=-1)

    def _diag_part(self) -> Any:
        tf = _tf()
        diag_list = _broadcast_matrix_batch_dims([op.diag_part()[..., tf.newaxis] for op in self._diagonal_operators])
        return tf.squeeze(tf.concat(diag_list, axis=-2), axis=-1)

    def _trace(self) -> Any:
        result = self._diagonal_operators[0].trace()
        for op in self._diagonal_operators[1:]:
            result += op.trace()
        return result

    def _to_dense(self) -> Any:
        tf = _tf()
        num_cols = 0
        dense_rows = []
        flat = _broadcast_matrix_batch_dims([op.to_dense() for row in self.operators for op in row])
        broadcast_operators = [flat[i * (i + 1) // 2:(i + 1) * (i + 2) // 2] for i in range(len(self.operators))]
        for row_blocks in broadcast_operators:
            batch_row_shape = tf.shape(row_blocks[0])[:-1]
            num_cols += tf.shape(row_blocks[-1])[-1]
            zeros_to_pad_after_shape = tf.concat([batch_row_shape, [self.domain_dimension_tensor() - num_cols]], axis=-1)
            row_blocks.append(tf.zeros(shape=zeros_to_pad_after_shape, dtype=self.dtype))
            dense_rows.append(tf.concat(row_blocks, axis=-1))
        return tf.concat(dense_rows, axis=-2)

    def _eigvals(self) -> Any:
        tf = _tf()
        eig_list = _broadcast_matrix_batch_dims([op.eigvals()[..., tf.newaxis] for op in self._diagonal_operators])
        return tf.squeeze(tf.concat(eig_list, axis=-2), axis=-1)
