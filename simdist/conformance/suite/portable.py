"""Inputs with the same bits on every x86-64 host, for the suite's recorded programs.

A recorded program's TF 2.21 answer belongs to the inputs the recording host computed. NumPy dispatches its float64
exp, log and power by CPU (its own AVX-512F loops and Intel SVML's on an AVX-512 host, the C library's elsewhere), so
`np.exp(r.uniform(...))` or `10.0 ** r.uniform(...)` gives an AVX-512 host other last bits than the AVX2 host that
recorded blind61/63's and kpaths54's answers (seen: 55 of kpaths54's float64 and complex128 programs, 2026-12-06).
These compute with the C library, element by element (glibc's libm, one build for every x86-64 CPU with FMA), which is
what NumPy's float64 loops are on the AVX2 host, so the recordings made there stay valid. (tests/portable_inputs.py
holds the same rule for the differential goldens of tests/.)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime.ops import libm

__all__ = ["exp", "sin", "power", "log_uniform"]


def exp(x: Any) -> np.ndarray:
    """e**x for float64 x, the C library's exp, element by element."""
    a = np.asarray(x, np.float64)
    return libm.scalar_map("exp", np.ascontiguousarray(a).ravel()).reshape(a.shape)


def sin(x: Any) -> np.ndarray:
    """sin(x) for float64 x, the C library's sin, element by element (NumPy's float64 sin has AVX2 and AVX-512F
    builds of its own)."""
    a = np.asarray(x, np.float64)
    return libm.scalar_map("sin", np.ascontiguousarray(a).ravel()).reshape(a.shape)


def power(x: Any, y: Any) -> np.ndarray:
    """x**y broadcast in float64, the C library's pow, element by element."""
    a, b = np.broadcast_arrays(np.asarray(x, np.float64), np.asarray(y, np.float64))
    return libm.scalar_map("pow", np.ascontiguousarray(a).ravel(), np.ascontiguousarray(b).ravel()).reshape(a.shape)


def log_uniform(r: Any, lo: float, hi: float, n: Any) -> np.ndarray:
    """10**u for u uniform in [lo, hi) drawn from `r`, as `10.0 ** r.uniform(lo, hi, n)` on the AVX2 host."""
    u = r.uniform(lo, hi, n)
    return power(np.full_like(u, 10.0), u)
