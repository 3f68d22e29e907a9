"""Inputs the suite's table-driven tests share: deterministic arrays and parameter grids."""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["distinct_values", "grid", "positive_inputs", "signed_inputs"]


def distinct_values(shape: Any, scale: float = 1.0, dtype: Any = np.float32) -> np.ndarray:
    """Deterministic values of both signs, all distinct."""
    n = int(np.prod(shape))
    return ((np.arange(n) * 0.37) % 2.3 - 1.1 + np.arange(n) * 1e-3).reshape(shape).astype(dtype) * scale


def grid(*specs: tuple[str, list[Any]]) -> list[dict[str, Any]]:
    """The product of parameter lists as keyword dicts: ("a", [1, 2]), ("b,c", [(3, 4), (5, 6)])."""
    cases: list[dict[str, Any]] = [{}]
    for names, values in specs:
        keys = [n.strip() for n in names.split(",")]
        cases = [{**c, **dict(zip(keys, v if len(keys) > 1 else (v,)))} for c in cases for v in values]
    return cases


def positive_inputs(shape: Any, lo: float = 0.3, hi: float = 1.7) -> Any:
    """A maker rng -> array of values in [lo, hi] (3 decimals): inputs of gradient checks."""
    return lambda rng: np.round(rng.uniform(lo, hi, size=shape), 3)


def signed_inputs(shape: Any, lo: float = 0.2, hi: float = 1.5) -> Any:
    """A maker rng -> array of values away from 0 (kinks of abs/relu-like ops sit there) with
    both signs, |x| in [lo, hi] (3 decimals)."""
    def make(rng: np.random.Generator) -> np.ndarray:
        v = np.round(rng.uniform(lo, hi, size=shape), 3)
        return v * np.where(rng.uniform(size=shape) < 0.5, -1.0, 1.0)
    return make
