"""Inputs the suite's table-driven tests share: deterministic arrays and parameter grids."""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["distinct_values", "grid"]


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
