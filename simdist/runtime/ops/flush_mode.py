"""glibc's complex functions run as TF 2.21's CPU kernel threads run them: with the DAZ and FTZ bits
of the x86 MXCSR set (port::ScopedFlushDenormal), so glibc's own code sees what TF's does. Reading
the parts under DAZ first and computing without the bits (complex_unary.py's fallback) misses two
things the bits do inside the C library (fz32a, seed 3220261201 #180):

- catanf/casinf/... classify their arguments with compares, which read a subnormal as zero, and
  return the argument itself when both parts are "zero": Atan(0 + 1e-40j) is 0 + 1e-40j, its bits
  kept (no arithmetic, nothing to flush).
- logf of a subnormal scales it by 2^23 first, which DAZ turns into 0, so the exponent it extracts
  is -150: Atan(-1.4e-45 + 1j)'s imaginary part is 52.33, not catanf's 51.99 without the bits nor
  the +inf of a zero real part.

The bits are set with fegetenv/fesetenv around the calls only, and the arguments and results
cross ctypes as raw bytes (a float conversion under DAZ/FTZ would flush them): each struct is filled
before the bits are set and read after they are cleared. Clause ops.complex.
"""

from __future__ import annotations

import ctypes
from functools import lru_cache
from typing import Any, Callable

import numpy as np

from simdist.runtime.ops import libm

__all__ = ["complex_map"]

_DAZ_FTZ = 0x8040   # MXCSR's FTZ (bit 15) and DAZ (bit 6)


class _Env(ctypes.Structure):
    """glibc's x86-64 fenv_t: the x87 environment (28 bytes), then the MXCSR."""
    _fields_ = [("x87", ctypes.c_uint8 * 28), ("mxcsr", ctypes.c_uint32)]


@lru_cache(maxsize=None)
def _parts_type(single: bool) -> Any:
    part = ctypes.c_float if single else ctypes.c_double

    class Parts(ctypes.Structure):
        _fields_ = [("re", part), ("im", part)]
    return Parts


@lru_cache(maxsize=None)
def _function(name: str, single: bool, arity: int = 1) -> Callable | None:
    lib = libm._lib()
    if lib is None or ctypes.sizeof(_Env) != 32 or getattr(lib, "fesetenv", None) is None:
        return None
    symbol = name + "f" if single else name
    if getattr(lib, symbol, None) is None:
        return None
    parts = _parts_type(single)
    # (a function object of its own: the library's attribute is shared, and complex_unary's cpow steps set
    # their own struct type on it)
    return ctypes.CFUNCTYPE(parts, *[parts] * arity)((symbol, lib))


def _map_flushed(name: str, *operands: np.ndarray) -> np.ndarray | None:
    """glibc's complex function `name` of the operands' elements, taken together, with DAZ/FTZ set for the calls."""
    first = operands[0]
    single = first.dtype == np.complex64
    fn = _function(name, single, len(operands))
    if fn is None:
        return None
    parts = _parts_type(single)
    columns = []
    for z in operands:
        flat = np.ascontiguousarray(z).ravel()
        columns.append((parts * flat.size).from_buffer_copy(flat.tobytes()))   # (the bytes: no float conversion)
    lib = libm._lib()
    env = _Env()
    if lib.fegetenv(ctypes.byref(env)) != 0:
        return None
    saved = env.mxcsr
    env.mxcsr = saved | _DAZ_FTZ
    lib.fesetenv(ctypes.byref(env))
    try:
        results = [fn(*args) for args in zip(*columns)]
    finally:
        env.mxcsr = saved
        lib.fesetenv(ctypes.byref(env))
    return np.frombuffer(b"".join(map(bytes, results)), first.dtype).reshape(first.shape).copy()


def complex_map(name: str, z: np.ndarray) -> np.ndarray | None:
    """glibc's complex function `name` ("catan", ...; its "f" variant for complex64) of every element of
    z under DAZ/FTZ, or None where the C library (or x86-64 glibc's fenv_t) is not there."""
    return _map_flushed(name, z)


def complex_map2(name: str, x: np.ndarray, y: np.ndarray) -> np.ndarray | None:
    """glibc's complex function `name` of two arguments ("cpow"; "cpowf" for complex64) of every pair of
    x and y (one shape and dtype) under DAZ/FTZ, as `complex_map`, or None without the C library."""
    return _map_flushed(name, x, y)
