"""Eigen's coefficient visitors (Core/Visitor.h), as the transcribed solvers read them: `minCoeff(&i)` and
`maxCoeff(&i)` keep the first coefficient and replace it only by a strictly smaller (larger) one, so a NaN
is never chosen after the first place and a NaN first stays (NumPy's argmin/argmax pick a NaN anywhere).
"""

from __future__ import annotations

import numpy as np

__all__ = ["first_min", "first_max"]


def first_min(v: np.ndarray) -> int:
    """The index minCoeff(&index) returns for the vector v."""
    k = 0
    for i in range(1, len(v)):
        if v[i] < v[k]:
            k = i
    return k


def first_max(v: np.ndarray) -> int:
    """The index maxCoeff(&index) returns for the vector v."""
    k = 0
    for i in range(1, len(v)):
        if v[i] > v[k]:
            k = i
    return k
