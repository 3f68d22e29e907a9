"""`tf.linalg`: the linear-algebra ops simdist implements (l2_normalize is tf.nn's)."""

from simdist.runtime.ops import (einsum, eye, global_norm, matmul, matrix_transpose, matvec, norm,  # noqa: F401
                                 tensordot, trace)
from simdist.runtime.ops.diag import diag, diag_part  # noqa: F401,E402
from simdist.runtime.ops.linalg_more import (adjoint, band_part, cholesky, cholesky_solve, cross, det, inv,  # noqa: F401,E402
                                            logdet, normalize, qr,
                                            set_diag, slogdet, solve, tensor_diag, tensor_diag_part,
                                            triangular_solve)
from simdist.runtime.ops.normalization import l2_normalize  # noqa: F401,E402  (tf.linalg.l2_normalize is tf.nn's)
from simdist.runtime.ops.linalg_decomp import eigh, eigvalsh, matrix_rank, pinv, svd  # noqa: F401,E402
from simdist.runtime.ops.linalg_lu import lu, lu_matrix_inverse, lu_reconstruct, lu_solve  # noqa: F401,E402
from simdist.runtime.ops.tridiagonal import tridiagonal_matmul  # noqa: F401,E402
from simdist.runtime.ops.tridiagonal_solve import tridiagonal_solve  # noqa: F401,E402
from simdist.runtime.ops.expm import expm  # noqa: F401,E402
from simdist.runtime.ops.eigh_tridiagonal import eigh_tridiagonal  # noqa: F401,E402
from simdist.runtime.ops.logm import logm  # noqa: F401,E402
from simdist.runtime.ops.lstsq import lstsq  # noqa: F401,E402
from simdist.runtime.ops.sqrtm import sqrtm  # noqa: F401,E402
from simdist.runtime.ops.banded_solve import banded_triangular_solve  # noqa: F401,E402
from simdist.runtime.ops.eig import eig, eigvals  # noqa: F401,E402  (clause ops.complex)
from simdist.tf._linear_operator import (LinearOperator, LinearOperatorAdjoint, LinearOperatorBlockDiag,
                                         LinearOperatorBlockLowerTriangular,  # noqa: F401,E402
                                         LinearOperatorCirculant, LinearOperatorCirculant2D,
                                         LinearOperatorCirculant3D, LinearOperatorComposition,
                                         LinearOperatorDiag, LinearOperatorFullMatrix, LinearOperatorIdentity,
                                         LinearOperatorHouseholder, LinearOperatorInversion, LinearOperatorKronecker,
                                         LinearOperatorLowerTriangular, LinearOperatorLowRankUpdate,
                                         LinearOperatorPermutation,
                                         LinearOperatorScaledIdentity, LinearOperatorToeplitz, LinearOperatorTridiag,
                                         LinearOperatorZeros)

# TF 2.21's LinearOperator overrides (linear_operator.py's dispatch_for_types): each of these takes an operator
# in place of a tensor (names44; simdist/tf/_linalg_dispatch.py); tf.matmul is tf.linalg.matmul
from simdist.tf import _linalg_dispatch  # noqa: E402
(adjoint, cholesky, diag_part, det, inv, logdet, matmul, matvec, solve,  # noqa: E402
 trace) = (_linalg_dispatch.dispatching(_n, _f) for _n, _f in (
     ("adjoint", adjoint), ("cholesky", cholesky), ("diag_part", diag_part), ("det", det), ("inv", inv),
     ("logdet", logdet), ("matmul", matmul), ("matvec", matvec), ("solve", solve), ("trace", trace)))
from types import SimpleNamespace as _NS  # noqa: E402
experimental = _NS(conjugate_gradient=_linalg_dispatch.conjugate_gradient)
