"""tf.math.sobol_sample (TF's SobolSample op, sobol_op.cc): points skip+1 … skip+num_results of the
Sobol sequence in `dim` dimensions (dim ≤ 21200), by Gray code over Joe and Kuo's direction
numbers (new-joe-kuo-6.21201; the first dimension all ones); each point's integer coordinates
times 1/(1 << digits), float32 or float64 (float32: the integer rounded to float first); with
31 digits (skip + num_results ≥ 2^30) `1 << 31` wraps to INT_MIN in TF's kernel and every
coordinate comes out negated, as simdist's do. The direction
numbers' primitive polynomials and initial values are read from SciPy's copy of the same table
(scipy.stats' _sobol_direction_numbers.npz) and extended by Joe and Kuo's recurrence. Not
differentiable. Clause ops.sobol.
"""

from __future__ import annotations

import math
import os
from functools import lru_cache
from typing import Any

import numpy as np

from simdist.runtime import dtypes, errors
from simdist.runtime.ops import dispatch
from simdist.runtime.ops.registry import NotDifferentiable, lanes, register
from simdist.runtime.tensor import Tensor, convert_to_tensor

__all__ = ["sobol_sample"]

MAX_DIM = 21200
_BITS = 31


@lru_cache(maxsize=None)
def _table() -> tuple[np.ndarray, np.ndarray]:
    import scipy
    d = np.load(os.path.join(os.path.dirname(scipy.__file__), "stats", "_sobol_direction_numbers.npz"))
    return np.asarray(d["poly"], np.int64), np.asarray(d["vinit"], np.int64)


@lru_cache(maxsize=None)
def _row(j: int) -> tuple[int, ...]:
    """Joe and Kuo's m_{j,0..30} of dimension j (dimension 0: all ones), by their recurrence."""
    if j == 0:
        return (1,) * _BITS
    poly, vinit = _table()
    p = int(poly[j])
    s = p.bit_length() - 1
    m = [int(v) for v in vinit[j, :s]]
    for k in range(s, _BITS):
        v = m[k - s] ^ (m[k - s] << s)
        for i in range(1, s):
            if (p >> (s - i)) & 1:
                v ^= m[k - i] << i
        m.append(v)
    return tuple(m)


def direction_numbers(dim: int) -> np.ndarray:
    """[dim, 31] int64: Joe and Kuo's direction numbers m_{j,k}."""
    return np.asarray([_row(j) for j in range(dim)], np.int64).reshape(dim, _BITS)


def _forward(dim: np.ndarray, num_results: np.ndarray, skip: np.ndarray, dtype: Any = None) -> np.ndarray:
    d, n, sk = int(dim), int(num_results), int(skip)
    if d < 1:
        raise errors.InvalidArgumentError(None, None, "dim must be at least one")
    if d > MAX_DIM:
        raise errors.InvalidArgumentError(None, None, f"dim must be at most {MAX_DIM}")
    if n < 1:
        raise errors.InvalidArgumentError(None, None, "num_results must be at least one")
    if sk < 0:
        raise errors.InvalidArgumentError(None, None, "skip must be non-negative")
    if n >= 2**31 - 1 - sk:
        raise errors.InvalidArgumentError(None, None, f"num_results+skip must be less than {2**31 - 1}")
    digits = int(math.log2(sk + n + 1) + 1)   # (the C library's log2, not NumPy's CPU-dispatched one)
    m = direction_numbers(d)[:, :digits]
    v = m << (digits - 1 - np.arange(digits))[None, :]                    # [dim, digits]
    idx = np.arange(sk + 1, sk + n + 1, dtype=np.int64)
    gray = idx ^ (idx >> 1)
    ints = np.zeros((n, d), np.int64)
    for k in range(digits):
        bit = ((gray >> k) & 1).astype(bool)
        ints[bit] ^= v[:, k]
    np_t = dtype._np.type
    denom = 1 << digits
    if denom >= 2**31:   # (int)1 << 31 wraps to INT_MIN in TF's kernel: the points come out negated
        denom -= 2**32
    scale = np_t(1.0 / denom)
    return (ints.astype(np_t) * scale).astype(np_t)


def _rule(dts: Any, attrs: Any) -> dtypes.DType:
    d = attrs["dtype"]
    if d.name not in ("float32", "float64"):
        raise errors.InvalidArgumentError(None, None, f"Value for attr 'dtype' of {d.name} is not in the list of "
                                          "allowed values: float, double [Op:SobolSample]")
    return d


SOBOL_SAMPLE = register("SobolSample", _forward, _rule, lambda a, out, at: float(out.size), kind="generator",
                        fusion=lanes("a generator of its scalar arguments: each lane makes its own points"))
NotDifferentiable("SobolSample")


def sobol_sample(dim: Any, num_results: Any, skip: Any = 0, dtype: Any = dtypes.float32,
                 name: str | None = None) -> Tensor:
    """`tf.math.sobol_sample`: [num_results, dim] Sobol points in [0, 1), skipping the first `skip` (and the origin)."""
    args = tuple(x if isinstance(x, Tensor) else convert_to_tensor(x, dtype=dtypes.int32)
                 for x in (dim, num_results, skip))
    for a in args:
        if a.dtype != dtypes.int32:
            raise errors.InvalidArgumentError(None, None, f"cannot compute SobolSample as input was expected to be a "
                                              f"int32 tensor but is a {a.dtype.name} tensor [Op:SobolSample]")
    return dispatch.execute(SOBOL_SAMPLE, args, {"dtype": dtypes.as_dtype(dtype)})
