"""LinearAlgebraOp's input checks (tensorflow/core/kernels/linalg/linalg_ops_common.cc, TF 2.21),
which every kernel built on it makes before computing: AnalyzeInputs (input 0 of rank >= 2, every
other input of its rank and outer dimensions), then the op's ValidateInputMatrixShapes. A raw call
reaches them directly (fuzz20 tape seed 2420261203 #34: MatrixSolve of a [3, 4, 2] matrix and a
[3, 0, 3, 0] rhs; sig seed 2420261204: Qr of a vector); TF 2.21's texts. Clause ops.fuzz-raw."""

from __future__ import annotations

from typing import Sequence

import numpy as np

from simdist.runtime import errors

__all__ = ["analyze"]


def _bad(op: str, text: str) -> errors.InvalidArgumentError:
    return errors.InvalidArgumentError(None, None, f"{text} [Op:{op}]")


def analyze(op: str, arrays: Sequence[np.ndarray], validate: str) -> None:
    """Raise the first of AnalyzeInputs' and `validate`'s errors for `arrays` (the matrix inputs):
    validate is "single" (ValidateSingleMatrix: nothing more for one input), "square"
    (ValidateSingleSquareMatrix), "solver" (ValidateSolver: the rows agree) or "square_solver"
    (ValidateSquareSolver: the lhs square, then the rows agree)."""
    rank = arrays[0].ndim
    if rank < 2:
        raise _bad(op, f"Input tensor 0 must have rank >= 2, got {rank}")
    for a in arrays[1:]:
        if a.ndim != rank:
            raise _bad(op, "All input tensors must have the same rank.")
        if a.shape[:-2] != arrays[0].shape[:-2]:
            raise _bad(op, "All input tensors must have the same outer dimensions.")
    m = [a.shape[-2:] for a in arrays]
    if validate == "square" and m[0][0] != m[0][1]:
        raise _bad(op, "Input matrix must be square.")
    if validate == "square_solver" and m[0][0] != m[0][1]:
        raise _bad(op, "First input (lhs) must be a square matrix.")
    if validate in ("solver", "square_solver") and m[0][0] != m[1][0]:
        raise _bad(op, "Input matrix and rhs are incompatible.")
