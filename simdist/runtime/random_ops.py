"""`tf.random`: seeded normal/uniform draws. Deterministic: the stream starts from the machine's
root seed (`simdist.configure(seed=...)`) and `tf.random.set_seed`, and advances per call."""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import dtypes
from simdist.runtime.context import current_device
from simdist.runtime.ops import _shape_arg
from simdist.runtime.tensor import Tensor

_state: dict[str, Any] = {"root": 0, "global": None, "gen": None}


def reset(root_seed: int = 0) -> None:
    """Restart the stream (called when the simulated machine is configured)."""
    _state.update({"root": int(root_seed), "global": None, "gen": None})


def set_seed(seed: int | None) -> None:
    """`tf.random.set_seed`: restart the stream from this global seed."""
    _state["global"] = None if seed is None else int(seed)
    _state["gen"] = None


def _gen(op_seed: int | None) -> np.random.Generator:
    if op_seed is not None:
        g = _state["global"] if _state["global"] is not None else 87654321
        return np.random.default_rng(np.random.SeedSequence([_state["root"], g, int(op_seed)]))
    if _state["gen"] is None:
        g = _state["global"] if _state["global"] is not None else 0
        _state["gen"] = np.random.default_rng(np.random.SeedSequence([_state["root"], g, 0x5EED]))
    return _state["gen"]


def normal(shape: Any, mean: float = 0.0, stddev: float = 1.0, dtype: Any = dtypes.float32, seed: int | None = None,
           name: str | None = None) -> Tensor:
    dt = dtypes.as_dtype(dtype)
    arr = _gen(seed).normal(float(mean), float(stddev), size=_shape_arg(shape)).astype(dt.np)
    return Tensor(arr, dt, current_device())


def uniform(shape: Any, minval: Any = 0, maxval: Any = None, dtype: Any = dtypes.float32, seed: int | None = None,
            name: str | None = None) -> Tensor:
    dt = dtypes.as_dtype(dtype)
    g = _gen(seed)
    if dt.is_integer:
        if maxval is None:
            raise ValueError("Must specify maxval for integer dtype " + repr(dt))
        arr = g.integers(int(minval), int(maxval), size=_shape_arg(shape)).astype(dt.np)
    else:
        hi = 1.0 if maxval is None else float(maxval)
        arr = g.uniform(float(minval), hi, size=_shape_arg(shape)).astype(dt.np)
    return Tensor(arr, dt, current_device())
