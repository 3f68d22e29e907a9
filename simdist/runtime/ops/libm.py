"""The C library's scalar math functions (glibc's libm, through ctypes), which TF 2.21's CPU
kernels call for the elements Eigen computes one at a time: the scalar tail of an elementwise
kernel (simd.py: the last n mod P elements) runs std::pow, std::tanh, ... on each. NumPy is no
stand-in there: on a CPU with AVX-512 its float32/float64 pow, tanh and exp are SVML's
vectorised versions, which differ from glibc's in the last bit on 10-40% of inputs (so NumPy's
answer would depend on the machine). Only tails are computed here (a few elements a call).
Clause ops.eigen-kernels.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import math
from functools import lru_cache
from typing import Any, Callable

import numpy as np

__all__ = ["scalar_map", "elementwise"]

_CTYPES = {np.dtype(np.float32): ctypes.c_float, np.dtype(np.float64): ctypes.c_double}
# numpy fallbacks if no C library can be loaded (another platform: then NumPy's values)
_FALLBACK = {"pow": np.power, "powf": np.power, "tanh": np.tanh, "tanhf": np.tanh, "log": np.log, "logf": np.log,
             "exp": np.exp, "expf": np.exp, "log1p": np.log1p, "log1pf": np.log1p,
             "expm1": np.expm1, "expm1f": np.expm1, "tan": np.tan, "tanf": np.tan,
             "sinf": np.sin, "cosf": np.cos, "atan": np.arctan, "atanf": np.arctan,
             "atan2": np.arctan2, "atan2f": np.arctan2, "sin": np.sin, "hypot": np.hypot, "hypotf": np.hypot,
             "lgamma": np.vectorize(math.lgamma), "lgammaf": np.vectorize(math.lgamma)}


@lru_cache(maxsize=None)
def _lib() -> Any:
    name = ctypes.util.find_library("m") or "libm.so.6"
    try:
        return ctypes.CDLL(name)
    except OSError:
        return None


@lru_cache(maxsize=None)
def _function(name: str, dtype: np.dtype, arity: int) -> Callable[..., float] | None:
    lib = _lib()
    fn = getattr(lib, name, None) if lib is not None else None
    if fn is None:
        return None
    c = _CTYPES[dtype]
    fn.restype = c
    fn.argtypes = [c] * arity
    return fn


def scalar_map(name: str, *args: np.ndarray) -> np.ndarray:
    """The C function `name` (e.g. "powf", "tanh") applied element by element to 1-d arrays of one
    length and dtype (float32 or float64), in that dtype."""
    dtype = args[0].dtype
    fn = _function(name, dtype, len(args))
    if fn is None:
        with np.errstate(all="ignore"):
            return np.asarray(_FALLBACK[name](*args), dtype)
    from simdist.runtime.ops import fma_native
    out = fma_native.c_map(fn, dtype, args)   # (the same function in a compiled loop, where built)
    if out is not None:
        return out
    cols = [a.tolist() for a in args]
    return np.array([fn(*vals) for vals in zip(*cols)], dtype=dtype)


def elementwise(name: str, *args: np.ndarray) -> np.ndarray:
    """scalar_map over arrays of any one shape (float32 or float64): the C function on every
    element, a ctypes call each (about 1.5 µs an element: for scalar kernels and tails, not for
    whole tensors a packet function computes)."""
    shape = np.shape(args[0])
    flat = [np.ascontiguousarray(a).ravel() for a in args]
    if not flat[0].size:
        return np.empty(shape, flat[0].dtype)
    return scalar_map(name, *flat).reshape(shape)
