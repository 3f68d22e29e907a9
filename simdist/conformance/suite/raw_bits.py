"""Tensors as their exact bits: the form the blind batches' gaps modules compare (test_blind86_gaps.py onward)."""

from __future__ import annotations

from typing import Any

import numpy as np


def raw_bits(t: Any) -> Any:
    """A tensor's dtype, shape and values, floats by their bit patterns (a NaN's sign and payload included), complex
    part by part; None stays None (a gradient that is None). The form the blind batches' gaps modules compare."""
    if t is None:
        return None
    a = np.asarray(t.numpy() if hasattr(t, "numpy") else t)
    shape = list(a.shape)
    dt = str(a.dtype)
    if a.dtype.kind == "c":
        a = np.stack([a.real, a.imag])
    if a.dtype.kind == "f" or a.dtype.name == "bfloat16":
        return [dt, shape, a.view(f"u{a.dtype.itemsize}").ravel().tolist()]
    return [dt, shape, a.ravel().tolist()]
