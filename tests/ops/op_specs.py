"""The op table: one OpSpec per public op function, shared by the three test matrices.

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


# --- the table ------------------------------------------------------------------------------------------
SPECS: list[OpSpec] = [
    # binary arithmetic, with broadcasting
    OpSpec("add[broadcast]", lambda tf, x, y: tf.add(x, y), _inputs(rand((2, 3)), rand((3,))), ("AddV2",),
           np.add, diff=(0, 1)),
    OpSpec("subtract[broadcast]", lambda tf, x, y: tf.subtract(x, y), _inputs(rand((2, 1)), rand((2, 3))), ("Sub",),
           np.subtract, diff=(0, 1)),
    OpSpec("multiply[broadcast]", lambda tf, x, y: x * y, _inputs(rand((4, 1, 3)), rand((2, 1))), ("Mul",),
           np.multiply, diff=(0, 1)),
    OpSpec("divide", lambda tf, x, y: x / y, _inputs(rand((2, 3)), rand((2, 3), 0.5, 2.0)), ("RealDiv",),
           np.true_divide, diff=(0, 1)),
    OpSpec("divide[broadcast]", lambda tf, x, y: tf.math.divide(x, y), _inputs(rand((3, 2)), rand((2,), 0.5, 2.0)),
           ("RealDiv",), np.true_divide, diff=(0, 1)),
    OpSpec("pow", lambda tf, x, y: tf.pow(x, y), _inputs(rand((2, 3), 0.5, 2.0), rand((2, 3), -1.5, 1.5)), ("Pow",),
           np.power, diff=(0, 1)),
    OpSpec("maximum", lambda tf, x, y: tf.maximum(x, y),
           lambda rng, dt: list(distinct(rng, (2, 2, 3), dt)), ("Maximum",), np.maximum, diff=(0, 1)),
    OpSpec("minimum[broadcast]", lambda tf, x, y: tf.minimum(x, y),
           lambda rng, dt: [distinct(rng, (2, 3), dt), distinct(rng, (3,), dt, lo=-1.97)], ("Minimum",), np.minimum,
           diff=(0, 1)),
    OpSpec("floormod", lambda tf, x, y: tf.math.floormod(x, y),
           lambda rng, dt: [rng.uniform(0.1, 0.9, (2, 3)).astype(dt) + np.arange(3).astype(dt), np.full((2, 3), 1.0, dt)],
           ("FloorMod",), np.remainder, diff=(0,)),
    # unary
    OpSpec("negative", lambda tf, x: -x, _inputs(rand((2, 3))), ("Neg",), np.negative),
    OpSpec("abs", lambda tf, x: tf.abs(x), lambda rng, dt: [away_from(rand((2, 3))(rng, dt))], ("Abs",), np.abs),
    OpSpec("sqrt", lambda tf, x: tf.sqrt(x), _inputs(rand((2, 3), 0.5, 3.0)), ("Sqrt",), np.sqrt),
    OpSpec("exp", lambda tf, x: tf.exp(x), _inputs(rand((2, 3))), ("Exp",), np.exp),
    OpSpec("log", lambda tf, x: tf.math.log(x), _inputs(rand((2, 3), 0.5, 3.0)), ("Log",), np.log),
    OpSpec("square", lambda tf, x: tf.square(x), _inputs(rand((2, 3))), ("Square",), np.square),
    OpSpec("sign", lambda tf, x: tf.sign(x), lambda rng, dt: [away_from(rand((2, 3))(rng, dt))], ("Sign",), np.sign,
           notes="TF's gradient is zeros (not None)"),
    OpSpec("cast[f->f]", lambda tf, x: tf.cast(tf.cast(x, tf.float64), x.dtype), _inputs(rand((2, 3))), ("Cast",),
           lambda x: x),
    OpSpec("cast[f->int] (no gradient)", lambda tf, x: tf.cast(x, tf.int32), _inputs(rand((2, 3), -5, 5)), ("Cast",),
           lambda x: np.trunc(x).astype(np.int32), grad=False),
    # reductions
    OpSpec("reduce_sum[all]", lambda tf, x: tf.reduce_sum(x), _inputs(rand((2, 3))), ("Sum",), np.sum),
    OpSpec("reduce_sum[axis=1,keepdims]", lambda tf, x: tf.reduce_sum(x, axis=1, keepdims=True),
           _inputs(rand((2, 3, 2))), ("Sum",), lambda x: np.sum(x, axis=1, keepdims=True)),
    OpSpec("reduce_mean[axis=(0,2)]", lambda tf, x: tf.reduce_mean(x, axis=[0, 2]), _inputs(rand((2, 3, 2))),
           ("Mean",), lambda x: np.mean(x, axis=(0, 2))),
    OpSpec("reduce_max[axis=-1]", lambda tf, x: tf.reduce_max(x, axis=-1), lambda rng, dt: [distinct(rng, (3, 4), dt)],
           ("Max",), lambda x: np.max(x, axis=-1)),
    OpSpec("reduce_min[all,keepdims]", lambda tf, x: tf.reduce_min(x, keepdims=True),
           lambda rng, dt: [distinct(rng, (3, 4), dt)], ("Min",), lambda x: np.min(x, keepdims=True)),
    OpSpec("add_n", lambda tf, x, y, z: tf.add_n([x, y, z]), _inputs(rand((2, 3)), rand((2, 3)), rand((2, 3))),
           ("AddN",), lambda x, y, z: x + y + z, diff=(0, 1, 2)),
    OpSpec("where", lambda tf, c, x, y: tf.where(c > 0, x, y), _inputs(rand((2, 3)), rand((2, 3)), rand((3,))),
           ("SelectV2", "Greater"), lambda c, x, y: np.where(c > 0, x, y), diff=(1, 2)),
    # matmul
    OpSpec("matmul", lambda tf, a, b: tf.matmul(a, b), _inputs(rand((3, 4)), rand((4, 2))), ("MatMul",), np.matmul,
           diff=(0, 1)),
    OpSpec("matmul[transpose_a]", lambda tf, a, b: tf.matmul(a, b, transpose_a=True),
           _inputs(rand((4, 3)), rand((4, 2))), ("MatMul",), lambda a, b: a.T @ b, diff=(0, 1)),
    OpSpec("matmul[transpose_b]", lambda tf, a, b: tf.matmul(a, b, transpose_b=True),
           _inputs(rand((3, 4)), rand((2, 4))), ("MatMul",), lambda a, b: a @ b.T, diff=(0, 1)),
    OpSpec("matmul[transpose_a,b]", lambda tf, a, b: tf.matmul(a, b, transpose_a=True, transpose_b=True),
           _inputs(rand((4, 3)), rand((2, 4))), ("MatMul",), lambda a, b: a.T @ b.T, diff=(0, 1)),
    OpSpec("matmul[batch,broadcast]", lambda tf, a, b: tf.matmul(a, b), _inputs(rand((2, 3, 4)), rand((4, 2))),
           ("BatchMatMulV2",), np.matmul, diff=(0, 1)),
    OpSpec("operator @", lambda tf, a, b: a @ b, _inputs(rand((2, 3)), rand((3, 3))), ("MatMul",), np.matmul,
           diff=(0, 1)),
    # shapes and indexing
    OpSpec("reshape", lambda tf, x: tf.reshape(x, [3, 2]), _inputs(rand((2, 3))), ("Reshape",),
           lambda x: x.reshape(3, 2)),
    OpSpec("transpose[perm]", lambda tf, x: tf.transpose(x, [1, 2, 0]), _inputs(rand((2, 3, 4))), ("Transpose",),
           lambda x: np.transpose(x, (1, 2, 0))),
    OpSpec("expand_dims+squeeze", lambda tf, x: tf.squeeze(tf.expand_dims(x, 1), [1]) * 2.0, _inputs(rand((2, 3))),
           ("ExpandDims", "Squeeze", "Mul"), lambda x: x * 2),
    OpSpec("broadcast_to", lambda tf, x: tf.broadcast_to(x, [2, 3, 2]), _inputs(rand((3, 1))), ("BroadcastTo",),
           lambda x: np.broadcast_to(x, (2, 3, 2))),
    OpSpec("concat[axis=1]", lambda tf, x, y: tf.concat([x, y], axis=1), _inputs(rand((2, 3)), rand((2, 1))),
           ("ConcatV2",), lambda x, y: np.concatenate([x, y], 1), diff=(0, 1)),
    OpSpec("stack+unstack", lambda tf, x, y: tf.unstack(tf.stack([x, y], axis=1), axis=2)[1],
           _inputs(rand((2, 3)), rand((2, 3))), ("Pack", "Unpack"), lambda x, y: np.stack([x, y], 1)[:, :, 1],
           diff=(0, 1)),
    OpSpec("split[sizes]", lambda tf, x: tf.split(x, [1, 3], axis=1)[1], _inputs(rand((2, 4))), ("SplitV",),
           lambda x: x[:, 1:]),
    OpSpec("getitem[slices]", lambda tf, x: x[1:, ::2], _inputs(rand((3, 5))), ("StridedSlice",),
           lambda x: x[1:, ::2]),
    OpSpec("getitem[int,newaxis,ellipsis]", lambda tf, x: x[..., 1, None], _inputs(rand((2, 3, 4))),
           ("StridedSlice",), lambda x: x[..., 1, None]),
    OpSpec("gather[axis=0]", lambda tf, p, i: tf.gather(p, i), _inputs(rand((4, 3)), _idx([2, 0, 2])), ("GatherV2",),
           lambda p, i: p[i], notes="its gradient is IndexedSlices (dense in the checks)"),
    OpSpec("gather[axis=1]", lambda tf, p, i: tf.gather(p, i, axis=1), _inputs(rand((2, 4)), _idx([3, 1])),
           ("GatherV2",), lambda p, i: p[:, i]),
    OpSpec("fill", lambda tf, v: tf.fill([2, 3], v), _inputs(rand(())), ("Fill",), lambda v: np.full((2, 3), v)),
    OpSpec("identity", lambda tf, x: tf.identity(x), _inputs(rand((2,))), ("Identity",), lambda x: x),
    OpSpec("stop_gradient", lambda tf, x: tf.stop_gradient(x) * x, _inputs(rand((3,))), ("StopGradient", "Mul"),
           lambda x: x * x, fd=False, notes="d/dx = x (the stopped factor is a constant)"),
    OpSpec("zeros_like/ones_like", lambda tf, x: tf.zeros_like(x) + tf.ones_like(x) * x, _inputs(rand((2, 2))),
           ("ZerosLike", "OnesLike"), lambda x: x),
]

# Registry op types no spec exercises, with the reason (the coverage test checks this list).
UNTESTED_OPS: dict[str, str] = {
    "FloorDiv": "integer-valued; not differentiable (TF registers no gradient); covered by tests/test_runtime_ops.py",
    "Less": "comparison: not differentiable; forward covered by the Tensor operator tests",
    "LessEqual": "comparison: not differentiable; forward covered by the Tensor operator tests",
    "GreaterEqual": "comparison: not differentiable; forward covered by the Tensor operator tests",
    "Equal": "comparison: not differentiable; forward covered by the Tensor operator tests",
    "NotEqual": "comparison: not differentiable; forward covered by the Tensor operator tests",
    "Ones": "a constant (no inputs)", "Zeros": "a constant (no inputs)",
    "Shape": "int output, not differentiable", "Size": "int output, not differentiable",
    "Rank": "int output, not differentiable",
    "RandomStandardNormal": "random: distribution tests in tests/test_random_ops.py",
    "RandomUniform": "random: distribution tests in tests/test_random_ops.py",
    "GatherV2Grad": "the dense gradient of gather on axis > 0: exercised by gather[axis=1]'s gradient",
    "StridedSliceGrad": "the gradient of StridedSlice: exercised by the getitem specs' gradients",
    "UnsortedSegmentSum": "IndexedSlices to dense: exercised by gather[axis=0]'s gradient check (densified)",
}
