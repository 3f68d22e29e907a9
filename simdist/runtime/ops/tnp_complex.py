"""tnp's complex parts and rounding (TF 2.21's np_array_ops.real/imag/around)."""

from __future__ import annotations

import math
from typing import Any, NoReturn

from simdist.runtime.ops import tnp_arrays as _arr
from simdist.runtime.ops.math import cast, multiply, truediv
from simdist.runtime.ops.misc_more import imag as _imag, real as _real
from simdist.runtime.ops.unary import round_
from simdist.runtime.tensor import Tensor


def real(val: Any) -> Tensor:
    """`tnp.real`: tf.math.real of asarray(val)."""
    return _real(_arr.asarray(val))


def imag(val: Any) -> Tensor:
    """`tnp.imag`: tf.math.imag of asarray(val)."""
    return _imag(_arr.asarray(val))


def around(a: Any, decimals: int = 0) -> NoReturn:
    """`tnp.around`: TF 2.21 computes round(a * 10**decimals) / 10**decimals and then asks the
    result for `astype`: without NumPy behavior always TF's AttributeError (a non-float operand
    asks before)."""
    a = _arr.asarray(a)
    if not _arr.is_inexact_tensor(a):
        raise _arr.astype_missing(a)
    factor = cast(math.pow(10, decimals), a.dtype)
    truediv(round_(multiply(a, factor)), factor)
    raise _arr.astype_missing(a)


def round(a: Any, decimals: int = 0) -> NoReturn:  # noqa: A001
    """`tnp.round`: around."""
    around(a, decimals=decimals)
