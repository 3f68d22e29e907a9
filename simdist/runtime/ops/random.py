"""`tf.random`: seeded normal/uniform draws, as stateful ops of the registry.

Deterministic: every stream starts from the machine's root seed (`simdist.configure(seed=...)`)
and `tf.random.set_seed`. Without an op seed, draws come from one global stream that advances
per call; with an op seed, from a stream of that (global seed, op seed) pair, which also
advances per call, as TF's kernels keep an internal counter (two calls of
`tf.random.uniform([1], seed=1)` give different values; `set_seed` restarts both). The values
are NumPy's (PCG64), not TF's Philox streams.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import dtypes
from simdist.runtime.ops import dispatch
from simdist.runtime.ops.args import shape_arg
from simdist.runtime.ops.registry import NotDifferentiable, register
from simdist.runtime.tensor import Tensor

__all__ = ["reset", "set_seed", "normal", "uniform"]

_state: dict[str, Any] = {"root": 0, "global": None, "gen": None, "op": {}}


def reset(root_seed: int = 0) -> None:
    """Restart the streams (called when the simulated machine is configured)."""
    _state.update({"root": int(root_seed), "global": None, "gen": None, "op": {}})


def set_seed(seed: int | None) -> None:
    """`tf.random.set_seed`: restart the streams from this global seed."""
    _state["global"] = None if seed is None else int(seed)
    _state["gen"] = None
    _state["op"] = {}


def _gen(op_seed: int | None) -> np.random.Generator:
    if op_seed is not None:
        g = _state["global"] if _state["global"] is not None else 87654321
        key = (g, int(op_seed))
        gen = _state["op"].get(key)
        if gen is None:
            gen = _state["op"][key] = np.random.default_rng(np.random.SeedSequence([_state["root"], g, int(op_seed)]))
        return gen
    if _state["gen"] is None:
        g = _state["global"] if _state["global"] is not None else 0
        _state["gen"] = np.random.default_rng(np.random.SeedSequence([_state["root"], g, 0x5EED]))
    return _state["gen"]


def _normal(shape: tuple[int, ...], mean: float, stddev: float, dtype: dtypes.DType, seed: int | None) -> np.ndarray:
    return _gen(seed).normal(mean, stddev, size=shape).astype(dtype._np)


def _uniform(shape: tuple[int, ...], minval: Any, maxval: Any, dtype: dtypes.DType, seed: int | None) -> np.ndarray:
    g = _gen(seed)
    if dtype.is_integer:
        return g.integers(minval, maxval, size=shape).astype(dtype._np)
    return g.uniform(minval, maxval, size=shape).astype(dtype._np)


NORMAL = register("RandomStandardNormal", _normal, lambda dts, a: a["dtype"], stateful=True)
UNIFORM = register("RandomUniform", _uniform, lambda dts, a: a["dtype"], stateful=True)
NotDifferentiable("RandomStandardNormal")
NotDifferentiable("RandomUniform")


def normal(shape: Any, mean: float = 0.0, stddev: float = 1.0, dtype: Any = dtypes.float32, seed: int | None = None,
           name: str | None = None) -> Tensor:
    return dispatch.execute(NORMAL, (), {"shape": shape_arg(shape), "mean": float(mean), "stddev": float(stddev),
                                         "dtype": dtypes.as_dtype(dtype), "seed": None if seed is None else int(seed)})


def uniform(shape: Any, minval: Any = 0, maxval: Any = None, dtype: Any = dtypes.float32, seed: int | None = None,
            name: str | None = None) -> Tensor:
    dt = dtypes.as_dtype(dtype)
    if dt.is_integer:
        if maxval is None:
            raise ValueError("Must specify maxval for integer dtype " + repr(dt))
        lo, hi = int(minval), int(maxval)
    else:
        lo, hi = float(minval), 1.0 if maxval is None else float(maxval)
    return dispatch.execute(UNIFORM, (), {"shape": shape_arg(shape), "minval": lo, "maxval": hi, "dtype": dt,
                                          "seed": None if seed is None else int(seed)})
