"""Test inputs with the same bits on every x86-64 host.

A golden (tests/goldens) holds TF 2.21's answers for the inputs its module computed on the host that
recorded it. A module that recomputes its inputs with a NumPy function NumPy dispatches by CPU gets
other inputs on another host, and the recorded answer no longer belongs to them: NumPy's float32
and float64 power, tan, arctan, log1p, expm1, exp2, log2, log10, sinh, cbrt ... are Intel SVML's on
AVX-512 hosts (X86_V4) and the C library's elsewhere, and its float32 exp/log/sin/cos and float64
tanh/sin/cos have AVX2 and AVX-512 builds of their own (`np.lib.introspect.opt_func_info()` lists
them). Seen: `10 ** rng.uniform(...)` and `np.arange(n, dtype="float32") ** 1.3` gave the AVX2 CI
host other last bits than the Xeon that recorded the goldens, and 40 bit-for-bit cases failed there.

These helpers compute with the C library instead (glibc's libm through ctypes, element by element:
one build per function for every x86-64 CPU with FMA) and with exact arithmetic where it suffices
(powers of two by ldexp, powers of ten from a table of Python's correctly rounded literals). On the
AVX2 host their float64 exp, log and pow are bit for bit NumPy's (NumPy's own loops there are the C
library's), so goldens recorded there stay valid. tests/test_portable_inputs.py checks that the
modules answered from goldens use them.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime.ops import libm

__all__ = ["exp", "log", "power", "pow2", "pow10", "log_uniform"]


def _c(name: str, *args: Any) -> np.ndarray:
    arrays = np.broadcast_arrays(*[np.asarray(a) for a in args])
    dtype = np.result_type(*arrays)
    dtype = np.dtype(np.float32) if dtype == np.float32 else np.dtype(np.float64)
    flat = [np.ascontiguousarray(a, dtype).ravel() for a in arrays]
    out = libm.scalar_map(name + ("f" if dtype == np.float32 else ""), *flat)
    return out.reshape(arrays[0].shape)


def exp(x: Any) -> np.ndarray:
    """e**x, the C library's exp (expf for float32 x), element by element."""
    return _c("exp", x)


def log(x: Any) -> np.ndarray:
    """The natural logarithm, the C library's log (logf for float32 x), element by element."""
    return _c("log", x)


def power(x: Any, y: Any) -> np.ndarray:
    """x**y broadcast, the C library's pow (powf when both are float32), element by element."""
    return _c("pow", x, y)


def pow2(k: Any) -> np.ndarray:
    """2.0**k for integer k, exactly (ldexp)."""
    return np.ldexp(1.0, np.asarray(k, np.int64))


_TEN = {k: float(f"1e{k}") for k in range(-300, 301)}   # each the correctly rounded 10**k (Python's literals)


def pow10(k: Any) -> np.ndarray:
    """10.0**k for integer k in [-300, 300], each the float64 nearest to the exact power."""
    ks = np.asarray(k, np.int64)
    return np.vectorize(_TEN.__getitem__, otypes=[np.float64])(ks) if ks.size else np.zeros(ks.shape)


def log_uniform(rng: np.random.Generator, lo: float, hi: float, size: Any) -> np.ndarray:
    """10**u for u uniform in [lo, hi) drawn from rng (as `10 ** rng.uniform(lo, hi, size)`), with
    the C library's pow."""
    u = rng.uniform(lo, hi, size)
    return power(np.full_like(u, 10.0), u)
