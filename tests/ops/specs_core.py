"""Op specs of the core ops (arithmetic, reductions, matmul, shapes, indexing): see op_specs.py."""

from __future__ import annotations

from typing import Any

import numpy as np

from op_specs import OpSpec, _idx, _inputs, away_from, distinct, rand

# ------------------------------------------------------------------------------------------
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
    OpSpec("dynamic_partition", lambda tf, x, p: tf.dynamic_partition(x, p, 3)[1],
           _inputs(rand((5, 2)), lambda rng, dt: np.asarray([1, 0, 1, 2, 1], np.int32)), ("DynamicPartition",),
           lambda x, p: x[p == 1]),
    OpSpec("dynamic_stitch", lambda tf, a, b: tf.dynamic_stitch([tf.constant([0, 2]), tf.constant([1, 3])], [a, b]),
           _inputs(rand((2, 3)), rand((2, 3))), ("DynamicStitch",),
           lambda a, b: np.stack([a[0], b[0], a[1], b[1]]), diff=(0, 1)),
    OpSpec("zeros_like/ones_like", lambda tf, x: tf.zeros_like(x) + tf.ones_like(x) * x, _inputs(rand((2, 2))),
           ("ZerosLike", "OnesLike"), lambda x: x),
    # a function with its own gradient (TF's log1pexp example): its op's gradient is the user's
    OpSpec("custom_gradient[log1pexp]", lambda tf, x: _log1pexp(tf)(x), _inputs(rand((2, 3))),
           ("CustomGradient", "Exp", "AddV2", "Log", "Identity"), lambda x: np.log(1 + np.exp(x)),
           notes="grad_fn: dy * (1 - 1 / (1 + e^x)), the function's derivative"),
]


def _log1pexp(tf: Any) -> Any:
    @tf.custom_gradient
    def log1pexp(x: Any) -> Any:
        e = tf.exp(x)

        def grad(upstream: Any) -> Any:
            return upstream * (1 - 1 / (1 + e))
        return tf.math.log(1 + e), grad
    return log1pexp


# Registry op types no spec exercises, with the reason (the coverage test checks this list).
UNTESTED_OPS: dict[str, str] = {
    **dict.fromkeys(("CollectiveReduceV2", "CollectiveGatherV2"),
                    "a collective of strategy.run replicas (bound to the replicas' merge): values and gradients "
                    "against TF 2.21 under MirroredStrategy in tests/runtime/test_bound_ops.py"),
    **dict.fromkeys(("CollectiveBcastSend", "CollectiveBcastRecv"),
                    "MultiWorkerMirroredStrategy's initial-value broadcast (bound to the workers' meeting), no "
                    "gradient as TF: rules in tests/runtime/test_bound_ops.py, the binding and the values under "
                    "a launch in tests/strategies/test_multi_worker.py"),
    "FloorDiv": "integer-valued; not differentiable (TF registers no gradient); covered by tests/test_runtime_ops.py",
    **dict.fromkeys(("BitwiseAnd", "BitwiseOr", "BitwiseXor", "LeftShift", "RightShift", "Invert"),
                    "integer-only, not differentiable: values, dtypes and refusals against TF 2.21 in "
                    "tests/ops/test_op_edges_tf.py (ops.bitwise)"),
    "Less": "comparison: not differentiable; forward covered by the Tensor operator tests",
    "LessEqual": "comparison: not differentiable; forward covered by the Tensor operator tests",
    "GreaterEqual": "comparison: not differentiable; forward covered by the Tensor operator tests",
    "Equal": "comparison: not differentiable; forward covered by the Tensor operator tests",
    "NotEqual": "comparison: not differentiable; forward covered by the Tensor operator tests",
    "Ones": "a constant (no inputs)", "Zeros": "a constant (no inputs)",
    "Shape": "int output, not differentiable", "Size": "int output, not differentiable",
    "Rank": "int output, not differentiable",
    "RandomStandardNormal": "random: distribution tests in tests/runtime/test_random_ops.py",
    "RandomUniform": "random: distribution tests in tests/runtime/test_random_ops.py",
    "GatherV2Grad": "the dense gradient of gather on axis > 0: exercised by gather[axis=1]'s gradient",
    "StridedSliceGrad": "the gradient of StridedSlice: exercised by the getitem specs' gradients",
    "UnsortedSegmentSum": "IndexedSlices to dense: exercised by gather[axis=0]'s gradient check (densified)",
}
