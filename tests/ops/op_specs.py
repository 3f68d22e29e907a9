"""The op table: one OpSpec per public op function, shared by the three test matrices.

The specs live in one module per area (specs_core.py, specs_math.py, specs_nn.py, ...), each
with its SPECS list and UNTESTED_OPS dict; `all_specs()` / `all_untested()` gather them.

- test_op_forward.py: the forward against a NumPy reference written here, on inputs drawn by
  hypothesis (shapes and values from a seeded generator);
- test_op_gradients.py: every differentiable input's gradient (through `tf.GradientTape`)
  against central finite differences in float64;
- test_op_differential_tf.py: forward values, dtypes and gradients against real TF 2.21 on
  seeded float32 inputs.
`test_op_gradients.py` also checks that every op type of simdist's registry is exercised by
some spec (or is listed in UNTESTED_OPS with the reason).

A spec's `make(rng, dtype)` returns the input arrays (NumPy) for one case; `fn(tf, *inputs)`
computes the op with a `tf` module (simdist's facade or real TensorFlow), so one table drives
both backends. Inputs keep away from non-differentiable points (kinks, ties) where the
gradient check needs it: finite differences are only meaningful on smooth neighbourhoods.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np


@dataclass(frozen=True)
class OpSpec:
    name: str                                        # the test id, e.g. "matmul[transpose_b]"
    fn: Callable[..., Any]                           # fn(tf, *inputs) -> tensor (or list of tensors)
    make: Callable[[np.random.Generator, Any], list[np.ndarray]]   # inputs for one case
    ops: tuple[str, ...]                             # the registry op types it exercises
    ref: Callable[..., Any] | None = None            # NumPy reference of the forward (on the same inputs)
    diff: tuple[int, ...] = (0,)                     # which inputs are differentiated (by position)
    dtypes: tuple[Any, ...] = (np.float32, np.float64)   # the float dtypes the op is tested in
    grad: bool = True                                # False: not differentiable (checked: gradients None)
    rtol: float = 1e-5                               # forward vs reference / TF, float32
    grad_rtol: float = 1e-4                          # gradients vs TF (float32)
    fd_rtol: float = 1e-5                            # gradients vs finite differences (float64)
    fd: bool = True                                  # False: the gradient is not the forward's derivative
                                                     # (stop_gradient, custom gradients): TF comparison only
    notes: str = ""
    tags: tuple[str, ...] = field(default=())


def rand(shape: tuple[int, ...], lo: float = -2.0, hi: float = 2.0) -> Callable[[np.random.Generator, Any], np.ndarray]:
    def make(rng: np.random.Generator, dt: Any) -> np.ndarray:
        return rng.uniform(lo, hi, size=shape).astype(dt)
    return make


def away_from(x: np.ndarray, points: tuple[float, ...] = (0.0,), gap: float = 0.05) -> np.ndarray:
    """x with values within `gap` of a kink moved off it (for finite differences)."""
    x = np.array(x, copy=True)
    for p in points:
        close = np.abs(x - p) < gap
        x[close] = p + np.where(x[close] >= p, gap, -gap)
    return x


def distinct(rng: np.random.Generator, shape: tuple[int, ...], dt: Any, lo: float = -2.0, hi: float = 2.0,
             gap: float = 0.05) -> np.ndarray:
    """Values with no two closer than `gap` (no ties for max/min/sort-like ops)."""
    n = int(np.prod(shape, dtype=np.int64))
    grid = np.arange(n) * gap * 2 + lo
    vals = rng.permutation(grid)[:n] if n else grid
    return vals.reshape(shape).astype(dt)


def _inputs(*makers: Callable[..., np.ndarray]) -> Callable[[np.random.Generator, Any], list[np.ndarray]]:
    return lambda rng, dt: [m(rng, dt) for m in makers]


def _idx(values: list[int]) -> Callable[[np.random.Generator, Any], np.ndarray]:
    return lambda rng, dt: np.asarray(values, dtype=np.int32)


# --- the table, gathered from the area modules ---------------------------------------------------------
AREAS = ("specs_core", "specs_math", "specs_nn", "specs_fidelity", "specs_gap", "specs_gap3", "specs_gap4")


def _modules() -> list[Any]:
    # plain imports, not importlib: tf_workers.source_stamp follows `import` statements, so a golden of
    # a module using this table (test_op_differential_tf.py) goes stale when an area module changes
    # (its cases are indexed by position: a spec added mid-table shifts every later case)
    import specs_core
    import specs_fidelity
    import specs_gap
    import specs_gap3
    import specs_gap4
    import specs_math
    import specs_nn
    mods = {m.__name__: m for m in (specs_core, specs_math, specs_nn, specs_fidelity, specs_gap, specs_gap3,
                                            specs_gap4)}
    return [mods[a] for a in AREAS]


def all_specs() -> list[OpSpec]:
    out: list[OpSpec] = []
    for m in _modules():
        out += m.SPECS
    names = [s.name for s in out]
    dup = sorted({n for n in names if names.count(n) > 1})
    assert not dup, f"duplicate OpSpec names {dup}"
    return out


def all_untested() -> dict[str, str]:
    out: dict[str, str] = {}
    for m in _modules():
        out.update(getattr(m, "UNTESTED_OPS", {}))
    return out
