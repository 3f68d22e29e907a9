"""Op specs of the math, array, linalg and random ops of issue 13 item 2 (see op_specs.py).

Each spec runs the op through the public facade (`tf.math.*`, `tf.*`, `tf.linalg.*`) on both
backends; inputs keep off kinks and ties where the gradient is checked by finite differences.
Integer and bool inputs are made whatever float dtype the matrix asks for (they are indices,
masks, lengths); ops with integer or bool outputs are checked with grad=False (TF gives None).
"""

from __future__ import annotations

import numpy as np

from op_specs import OpSpec, _idx, _inputs, away_from, distinct, rand


def _special():
    import scipy.special
    return scipy.special


def _bools(shape: tuple[int, ...]):
    return lambda rng, dt: (rng.uniform(size=shape) > 0.5)


def _fixed(values, dtype=None):
    return lambda rng, dt: np.asarray(values, dtype=dt if dtype is None else dtype)


def _with_zeros(shape: tuple[int, ...]):
    def make(rng, dt):
        x = rng.uniform(-2, 2, size=shape).astype(dt)
        x.flat[::3] = 0
        return x
    return make


def _rows_apart(rng, dt):
    """|entries| in [0.5, 1] with random signs, rows scaled by 1, 2.5, 6: row sums of |x| in
    disjoint ranges, so the max row sum has no tie (and no entry is near the kink at 0)."""
    x = rng.uniform(0.5, 1.0, size=(3, 3)) * rng.choice([-1.0, 1.0], size=(3, 3))
    return (x * np.array([[1.0], [2.5], [6.0]])).astype(dt)


def _nonfinite(rng, dt):
    x = rng.uniform(-2, 2, size=(2, 4)).astype(dt)
    x[0, 1], x[1, 2], x[1, 3] = np.nan, np.inf, -np.inf
    return [x]


def _one_hot_ref(i, depth=4, axis=-1):
    out = (i[..., None] == np.arange(depth)).astype(np.float32)
    return out if axis == -1 else np.moveaxis(out, -1, axis)


def _cum(x, axis=0, exclusive=False, reverse=False, fn=np.cumsum, ident=0):
    v = np.flip(x, axis) if reverse else x
    out = fn(v, axis=axis)
    if exclusive:
        out = np.concatenate([np.full_like(np.take(out, [0], axis), ident), np.delete(out, -1, axis)], axis)
    return np.flip(out, axis) if reverse else out


def _lse(x, axis=None, keepdims=False):
    m = np.max(x, axis=axis, keepdims=True)
    out = np.log(np.sum(np.exp(x - m), axis=axis, keepdims=True)) + m
    return out if keepdims else np.squeeze(out, axis=axis)


def _clip_norm_ref(x, c, axes=None):
    n = np.sqrt(np.sum(x * x, axis=axes, keepdims=True))
    return x * c / np.maximum(n, c)


def _global_clip_ref(a, b, c=1.0):
    g = np.sqrt(np.sum(a * a) + np.sum(b * b))
    return np.concatenate([a.ravel(), b.ravel()]) * c / max(g, c)


SPECS: list[OpSpec] = [
    # --- element-wise -----------------------------------------------------------------------------------
    OpSpec("log1p", lambda tf, x: tf.math.log1p(x), _inputs(rand((2, 3), -0.5, 2.0)), ("Log1p",), np.log1p),
    OpSpec("reciprocal", lambda tf, x: tf.math.reciprocal(x),
           lambda rng, dt: [away_from(rand((2, 3))(rng, dt), gap=0.3)], ("Reciprocal",), np.reciprocal),
    OpSpec("rsqrt", lambda tf, x: tf.math.rsqrt(x), _inputs(rand((2, 3), 0.5, 3.0)), ("Rsqrt",),
           lambda x: 1 / np.sqrt(x)),
    OpSpec("floor (gradient None)", lambda tf, x: tf.floor(x), _inputs(rand((2, 3), -3, 3)), ("Floor",), np.floor,
           grad=False),
    OpSpec("ceil (gradient None)", lambda tf, x: tf.math.ceil(x), _inputs(rand((2, 3), -3, 3)), ("Ceil",), np.ceil,
           grad=False),
    OpSpec("round[half to even]", lambda tf, x: tf.round(x),
           _inputs(_fixed([[0.5, 1.5, 2.5], [-0.5, -1.5, -2.5]])), ("Round",), np.round, grad=False),
    OpSpec("round", lambda tf, x: tf.math.round(x), _inputs(rand((3, 2), -3, 3)), ("Round",), np.round, grad=False),
    OpSpec("is_nan/is_finite/is_inf", lambda tf, x: tf.stack([tf.math.is_nan(x), tf.math.is_finite(x),
                                                             tf.math.is_inf(x)]),
           _nonfinite, ("IsNan", "IsFinite", "IsInf", "Pack"),
           lambda x: np.stack([np.isnan(x), np.isfinite(x), np.isinf(x)]), grad=False),
    OpSpec("squared_difference[broadcast]", lambda tf, x, y: tf.math.squared_difference(x, y),
           _inputs(rand((2, 3)), rand((3,))), ("SquaredDifference",), lambda x, y: (x - y) ** 2, diff=(0, 1)),
    OpSpec("divide_no_nan", lambda tf, x, y: tf.math.divide_no_nan(x, y),
           _inputs(rand((2, 3)), rand((2, 3), 0.5, 2.0)), ("DivNoNan",), np.true_divide, diff=(0, 1)),
    OpSpec("divide_no_nan[zero divisors]", lambda tf, x, y: tf.math.divide_no_nan(x, y),
           _inputs(rand((2, 3)), _with_zeros((3,))), ("DivNoNan",),
           lambda x, y: np.where(y == 0, 0, x / np.where(y == 0, 1, y)), diff=(0, 1), fd=False,
           notes="0 where y is 0; its gradient there is 0 (TF's), not the derivative: TF comparison only"),
    # --- trigonometric, hyperbolic and special functions (runtime/ops/special.py) -----------------------------
    OpSpec("sin", lambda tf, x: tf.math.sin(x), _inputs(rand((2, 3), -4, 4)), ("Sin",), np.sin),
    OpSpec("cos", lambda tf, x: tf.cos(x), _inputs(rand((2, 3), -4, 4)), ("Cos",), np.cos),
    OpSpec("tan", lambda tf, x: tf.tan(x), _inputs(rand((2, 3), -1.2, 1.2)), ("Tan",), np.tan),
    OpSpec("atan", lambda tf, x: tf.math.atan(x), _inputs(rand((2, 3), -3, 3)), ("Atan",), np.arctan),
    OpSpec("sinh", lambda tf, x: tf.sinh(x), _inputs(rand((2, 3), -3, 3)), ("Sinh",), np.sinh),
    OpSpec("cosh", lambda tf, x: tf.math.cosh(x), _inputs(rand((2, 3), -3, 3)), ("Cosh",), np.cosh),
    OpSpec("asinh", lambda tf, x: tf.math.asinh(x), _inputs(rand((2, 3), -3, 3)), ("Asinh",), np.arcsinh),
    OpSpec("expm1", lambda tf, x: tf.math.expm1(x), _inputs(rand((2, 3), -2, 2)), ("Expm1",), np.expm1),
    OpSpec("erf", lambda tf, x: tf.math.erf(x), _inputs(rand((2, 3), -2, 2)), ("Erf",), lambda x: _special().erf(x)),
    OpSpec("lgamma", lambda tf, x: tf.math.lgamma(x), _inputs(rand((2, 3), 0.3, 4)), ("Lgamma",),
           lambda x: _special().gammaln(x), rtol=1e-4),
    OpSpec("digamma", lambda tf, x: tf.math.digamma(x), _inputs(rand((2, 3), 0.3, 4)), ("Digamma", "Polygamma"),
           lambda x: _special().psi(x), rtol=1e-4, grad_rtol=1e-3),
    OpSpec("polygamma[broadcast n]", lambda tf, n, x: tf.math.polygamma(n, x),
           _inputs(_fixed([1.0, 2.0, 3.0]), rand((2, 3), 0.5, 4)), ("Polygamma",),
           lambda n, x: _special().polygamma(n.astype(int), x), diff=(1,), rtol=1e-4, grad_rtol=1e-3),
    OpSpec("log_sigmoid", lambda tf, x: tf.math.log_sigmoid(x), _inputs(rand((2, 3), -4, 4)), ("Softplus", "Neg"),
           lambda x: -np.log1p(np.exp(-x))),
    OpSpec("reverse[axes 1, 0]", lambda tf, x: tf.reverse(x, [1, -2]), _inputs(rand((2, 3))), ("ReverseV2",),
           lambda x: x[::-1, ::-1]),
    OpSpec("reduce_euclidean_norm[axis 1]", lambda tf, x: tf.math.reduce_euclidean_norm(x, axis=1),
           lambda rng, dt: [away_from(rand((2, 3))(rng, dt), gap=0.3)], ("EuclideanNorm",),
           lambda x: np.sqrt(np.sum(x * x, axis=1))),
    OpSpec("reduce_euclidean_norm[all, keepdims]",
           lambda tf, x: tf.math.reduce_euclidean_norm(x, keepdims=True), _inputs(rand((2, 3))), ("EuclideanNorm",),
           lambda x: np.sqrt(np.sum(x * x, keepdims=True))),
    OpSpec("cumulative_logsumexp[reverse]", lambda tf, x: tf.math.cumulative_logsumexp(x, axis=1, reverse=True),
           _inputs(rand((2, 4))), ("CumulativeLogsumexp",),
           lambda x: np.logaddexp.accumulate(x[:, ::-1], axis=1)[:, ::-1]),
    OpSpec("cumulative_logsumexp[exclusive]", lambda tf, x: tf.math.cumulative_logsumexp(x, exclusive=True) * 1.0,
           _inputs(rand((4, 2))), ("CumulativeLogsumexp",),
           lambda x: np.concatenate([np.full((1, 2), -np.inf, x.dtype), np.logaddexp.accumulate(x, axis=0)[:-1]]),
           fd=False, notes="its first row is -inf (log 0): finite differences are NaN there; TF comparison only"),
    # --- logical (bool in, bool out) ---------------------------------------------------------------------------
    OpSpec("logical_and/or/xor/not", lambda tf, x, y: tf.stack([tf.logical_and(x, y), tf.logical_or(x, y),
                                                               tf.math.logical_xor(x, y), tf.logical_not(x),
                                                               x & ~y]),
           _inputs(_bools((2, 3)), _bools((3,))), ("LogicalAnd", "LogicalOr", "LogicalNot", "Pack"),
           lambda x, y: np.stack([x & y, x | y, x ^ y, ~x, np.broadcast_to(x & ~y, x.shape)]), diff=(), grad=False),
    OpSpec("where[one argument]", lambda tf, x: tf.where(x), _inputs(_with_zeros((3, 4))), ("Where",),
           lambda x: np.argwhere(x), diff=(), grad=False, notes="int64 coordinates of the non-zero entries"),
    # --- reductions and scans ------------------------------------------------------------------------------
    OpSpec("reduce_prod[axis=1]", lambda tf, x: tf.reduce_prod(x, axis=1), _inputs(rand((3, 4))), ("Prod",),
           lambda x: np.prod(x, axis=1)),
    OpSpec("reduce_prod[all,keepdims,with zeros]", lambda tf, x: tf.reduce_prod(x, keepdims=True),
           _inputs(_with_zeros((2, 2))), ("Prod",), lambda x: np.prod(x, keepdims=True),
           notes="TF's cumprod-based gradient is exact at zeros"),
    OpSpec("reduce_prod[axis=(0,2)]", lambda tf, x: tf.math.reduce_prod(x, axis=[0, 2]), _inputs(rand((2, 3, 2))),
           ("Prod",), lambda x: np.prod(x, axis=(0, 2))),
    OpSpec("reduce_any/all", lambda tf, x: tf.stack([tf.reduce_any(x, axis=1), tf.reduce_all(x, axis=1)]),
           _inputs(_bools((3, 2))), ("Any", "All", "Pack"),
           lambda x: np.stack([np.any(x, 1), np.all(x, 1)]), diff=(), grad=False),
    OpSpec("reduce_logsumexp[axis=1]", lambda tf, x: tf.reduce_logsumexp(x, axis=1), _inputs(rand((3, 4))),
           ("Max", "IsFinite", "SelectV2", "StopGradient", "Sub", "Exp", "Sum", "Log", "Reshape", "AddV2"),
           lambda x: _lse(x, 1)),
    OpSpec("reduce_logsumexp[all,keepdims]", lambda tf, x: tf.math.reduce_logsumexp(x, keepdims=True),
           _inputs(rand((2, 3), -30, 30)), ("Max",), lambda x: _lse(x, keepdims=True)),
    OpSpec("reduce_variance[axis=0]", lambda tf, x: tf.math.reduce_variance(x, axis=0), _inputs(rand((4, 3))),
           ("Mean", "Square"), lambda x: np.var(x, axis=0)),
    OpSpec("reduce_std[all,keepdims]", lambda tf, x: tf.math.reduce_std(x, keepdims=True), _inputs(rand((3, 3))),
           ("Mean", "Sqrt"), lambda x: np.std(x, keepdims=True)),
    OpSpec("argmax[axis=1]", lambda tf, x: tf.argmax(x, axis=1), lambda rng, dt: [distinct(rng, (3, 4), dt)],
           ("ArgMax",), lambda x: np.argmax(x, 1), grad=False, notes="int64 output"),
    OpSpec("argmin[axis=None,int32]", lambda tf, x: tf.math.argmin(x, output_type=tf.int32),
           lambda rng, dt: [distinct(rng, (3, 4), dt)], ("ArgMin",), lambda x: np.argmin(x, 0).astype(np.int32),
           grad=False),
    OpSpec("argmax[ties, nan]", lambda tf, x: tf.argmax(x, axis=1),
           _inputs(_fixed([[1.0, 3.0, 3.0, 0.0], [np.nan, 1.0, 0.0, 1.0], [np.nan, np.nan, np.nan, np.nan]])),
           ("ArgMax",), lambda x: np.array([1, 1, 0]), grad=False,
           notes="the first of equal maxima; a NaN is never selected unless all are NaN"),
    OpSpec("cumsum", lambda tf, x: tf.cumsum(x), _inputs(rand((3, 2))), ("Cumsum",), lambda x: np.cumsum(x, 0)),
    OpSpec("cumsum[axis=1,exclusive,reverse]", lambda tf, x: tf.math.cumsum(x, axis=1, exclusive=True, reverse=True),
           _inputs(rand((2, 4))), ("Cumsum",), lambda x: _cum(x, 1, True, True)),
    OpSpec("cumsum[axis=-1,exclusive]", lambda tf, x: tf.cumsum(x, axis=-1, exclusive=True), _inputs(rand((2, 3))),
           ("Cumsum",), lambda x: _cum(x, 1, True, False)),
    OpSpec("cumprod[reverse]", lambda tf, x: tf.math.cumprod(x, axis=0, reverse=True),
           lambda rng, dt: [away_from(rand((3, 2))(rng, dt), gap=0.2)], ("Cumprod",),
           lambda x: _cum(x, 0, False, True, np.cumprod, 1)),
    OpSpec("cumprod[exclusive]", lambda tf, x: tf.math.cumprod(x, axis=1, exclusive=True),
           lambda rng, dt: [away_from(rand((2, 3))(rng, dt), gap=0.2)], ("Cumprod", "DivNoNan"),
           lambda x: _cum(x, 1, True, False, np.cumprod, 1)),
    # --- one_hot, clipping ----------------------------------------------------------------------------------
    OpSpec("one_hot", lambda tf, i: tf.one_hot(i, 4), _inputs(_idx([0, 3, -1, 5, 2])), ("OneHot",), _one_hot_ref,
           diff=(), grad=False, dtypes=(np.float32,), notes="out-of-range and negative indices give a row of zeros"),
    OpSpec("one_hot[axis=0,on/off tensors]", lambda tf, i, on, off: tf.one_hot(i, 3, on_value=on, off_value=off,
                                                                               axis=0),
           _inputs(_idx([[0, 2], [1, 1]]), rand(()), rand(())), ("OneHot",),
           lambda i, on, off: np.where(np.moveaxis(i[..., None] == np.arange(3), -1, 0), on, off), diff=(1, 2),
           grad=False, notes="OneHot is not differentiable in TF, not even in on_value/off_value"),
    OpSpec("clip_by_value", lambda tf, x: tf.clip_by_value(x, -0.5, 1.0),
           lambda rng, dt: [away_from(rand((3, 4))(rng, dt), (-0.5, 1.0))], ("Minimum", "Maximum"),
           lambda x: np.clip(x, -0.5, 1.0)),
    OpSpec("clip_by_value[tensor bounds]", lambda tf, x, lo, hi: tf.clip_by_value(x, lo, hi),
           lambda rng, dt: [distinct(rng, (2, 3), dt), np.full((3,), -0.52, dt), np.full((2, 1), 0.73, dt)],
           ("Minimum", "Maximum"), lambda x, lo, hi: np.minimum(np.maximum(x, lo), hi), diff=(0, 1, 2)),
    OpSpec("clip_by_norm", lambda tf, x: tf.clip_by_norm(x, 1.5), _inputs(rand((2, 3))),
           ("Mul", "Sum", "Greater", "SelectV2", "Sqrt", "Maximum", "RealDiv", "Identity"),
           lambda x: _clip_norm_ref(x, 1.5)),
    OpSpec("clip_by_norm[axes=1,some rows not clipped]", lambda tf, x: tf.clip_by_norm(x, 1.0, axes=[1]),
           lambda rng, dt: [rand((3, 2))(rng, dt) * np.array([[1.0], [0.2], [3.0]], dt)], ("Sum",),
           lambda x: _clip_norm_ref(x, 1.0, 1)),
    OpSpec("clip_by_global_norm", lambda tf, a, b: tf.concat(
        [tf.reshape(t, [-1]) for t in tf.clip_by_global_norm([a, None, b], 1.0)[0] if t is not None], 0),
        _inputs(rand((2, 2)), rand((3,))), ("Square", "Sum", "Pack", "Sqrt", "Minimum", "RealDiv", "Identity"),
        _global_clip_ref, diff=(0, 1), notes="a None entry stays None"),
    OpSpec("global_norm", lambda tf, a, b: tf.linalg.global_norm([a, b]), _inputs(rand((2, 2)), rand((3,))),
           ("Square", "Sum", "Pack", "Sqrt"), lambda a, b: np.sqrt(np.sum(a * a) + np.sum(b * b)), diff=(0, 1)),
    # --- tile, pad, slice, strided slices -------------------------------------------------------------------
    OpSpec("repeat[axis=1]", lambda tf, x: tf.repeat(x, 3, axis=1), _inputs(rand((2, 3, 2))),
           ("ExpandDims", "Tile", "Reshape"), lambda x: np.repeat(x, 3, axis=1)),
    OpSpec("repeat[axis=None]", lambda tf, x: tf.repeat(x, 2), _inputs(rand((2, 3))),
           ("ExpandDims", "Tile", "Reshape"), lambda x: np.repeat(x, 2)),
    OpSpec("tile", lambda tf, x: tf.tile(x, [2, 1, 3]), _inputs(rand((2, 3, 1))), ("Tile",),
           lambda x: np.tile(x, (2, 1, 3))),
    OpSpec("pad[CONSTANT]", lambda tf, x: tf.pad(x, [[1, 0], [2, 1]]), _inputs(rand((2, 3))), ("Pad",),
           lambda x: np.pad(x, ((1, 0), (2, 1)))),
    OpSpec("pad[CONSTANT,value]", lambda tf, x: tf.pad(x, [[0, 2], [1, 1]], constant_values=1.5),
           _inputs(rand((2, 3))), ("PadV2",), lambda x: np.pad(x, ((0, 2), (1, 1)), constant_values=1.5)),
    OpSpec("pad[REFLECT]", lambda tf, x: tf.pad(x, [[1, 2], [2, 1]], mode="REFLECT"), _inputs(rand((3, 4))),
           ("MirrorPad", "MirrorPadGrad"), lambda x: np.pad(x, ((1, 2), (2, 1)), mode="reflect")),
    OpSpec("pad[symmetric]", lambda tf, x: tf.pad(x, [[2, 0], [1, 3]], mode="symmetric"), _inputs(rand((2, 3))),
           ("MirrorPad", "MirrorPadGrad"), lambda x: np.pad(x, ((2, 0), (1, 3)), mode="symmetric"),
           notes="the mode is case-insensitive"),
    OpSpec("slice", lambda tf, x: tf.slice(x, [1, 0, 1], [2, -1, 1]), _inputs(rand((3, 2, 3))), ("Slice", "Pad"),
           lambda x: x[1:3, :, 1:2]),
    OpSpec("strided_slice[masks]", lambda tf, x: tf.strided_slice(x, [1, 0, 0], [0, 0, 2], [-1, 1, 1], begin_mask=2,
                                                                    end_mask=3),
           _inputs(rand((2, 3, 4))), ("StridedSlice",), lambda x: x[1::-1, :, 0:2]),
    OpSpec("strided_slice[shrink,new_axis,ellipsis]",
           lambda tf, x: tf.strided_slice(x, [0, 1, 0], [0, 2, 0], [1, 1, 1], ellipsis_mask=1, new_axis_mask=4,
                                          shrink_axis_mask=2),
           _inputs(rand((2, 3, 4))), ("StridedSlice",), lambda x: x[..., 1, None]),
    OpSpec("getitem[negative strides]", lambda tf, x: x[::-1, 2:0:-1, ::-2], _inputs(rand((2, 3, 4))),
           ("StridedSlice",), lambda x: x[::-1, 2:0:-1, ::-2]),
    OpSpec("getitem[shrink,negative index]", lambda tf, x: x[-1, :, -2], _inputs(rand((2, 3, 4))),
           ("StridedSlice",), lambda x: x[-1, :, -2]),
    OpSpec("getitem[list is a tuple]", lambda tf, x: x[[1, 0]], _inputs(rand((2, 3))), ("StridedSlice",),
           lambda x: x[1, 0], notes="TF reads t[[1, 0]] as t[1, 0]"),
    OpSpec("getitem[bool mask]", lambda tf, x, m: x[m], _inputs(rand((4, 2)), _fixed([True, False, True, True], bool)),
           ("Reshape", "Where", "Squeeze", "GatherV2"), lambda x, m: x[m],
           notes="a bool key is tf.boolean_mask (its gradient: IndexedSlices)"),
    OpSpec("boolean_mask[axis=1,2-d mask]", lambda tf, x, m: tf.boolean_mask(x, m, axis=1),
           _inputs(rand((2, 2, 3, 1)), _fixed([[True, False, True], [False, True, True]], bool)),
           ("Reshape", "Where", "Squeeze", "GatherV2"),
           lambda x, m: x.reshape(2, 6, 1)[:, m.ravel()]),
    # --- generators ----------------------------------------------------------------------------------------------
    OpSpec("sequence_mask", lambda tf, n: tf.sequence_mask(n, 5), _inputs(_idx([1, 3, 0, 5])),
           ("Less", "Cast", "ExpandDims"), lambda n: np.arange(5) < n[:, None], diff=(), grad=False),
    OpSpec("sequence_mask[maxlen=None,float32]", lambda tf, n: tf.sequence_mask(n, dtype=tf.float32),
           _inputs(_idx([[1, 3], [2, 0]])), ("Max", "Maximum", "Less", "Cast"),
           lambda n: (np.arange(3) < n[..., None]).astype(np.float32), diff=(), grad=False, dtypes=(np.float32,)),
    OpSpec("linspace", lambda tf, a, b: tf.linspace(a, b, 5), _inputs(rand(()), rand(())),
           ("Sub", "RealDiv", "Mul", "AddV2", "ConcatV2", "Slice"), lambda a, b: np.linspace(a, b, 5), diff=(0, 1)),
    OpSpec("linspace[vector,axis=1]", lambda tf, a, b: tf.linspace(a, b, 4, axis=1), _inputs(rand((2,)), rand((2,))),
           ("BroadcastTo", "ExpandDims"), lambda a, b: np.linspace(a, b, 4, axis=1), diff=(0, 1)),
    OpSpec("eye", lambda tf: tf.eye(2, 3, batch_shape=[2]), lambda rng, dt: [], ("Eye",),
           lambda: np.broadcast_to(np.eye(2, 3), (2, 2, 3)), diff=(), grad=False, dtypes=(np.float32,)),
    OpSpec("meshgrid[xy]", lambda tf, x, y: tf.stack(tf.meshgrid(x, y)), _inputs(rand((2,)), rand((3,))),
           ("Reshape", "Ones", "Mul"), lambda x, y: np.stack(np.meshgrid(x, y)), diff=(0, 1)),
    OpSpec("meshgrid[ij]", lambda tf, x, y: tf.stack(tf.meshgrid(x, y, indexing="ij")),
           _inputs(rand((2,)), rand((3,))), ("Reshape", "Mul"), lambda x, y: np.stack(np.meshgrid(x, y, indexing="ij")),
           diff=(0, 1)),
]

# --- batch 2: n-d gather/scatter, segments, sorting, einsum, linalg -------------------------------------------
def _scatter_ref(i, u, shape):
    out = np.zeros(shape, u.dtype)
    np.add.at(out, tuple(np.moveaxis(i, -1, 0)), u)
    return out


def _top_k_ref(x, k):
    idx = np.argsort(-x, axis=-1, kind="stable")[..., :k]
    return np.take_along_axis(x, idx, -1)


SPECS += [
    OpSpec("gather_nd[elements]", lambda tf, p, i: tf.gather_nd(p, i), _inputs(rand((3, 4)), _idx([[0, 1], [2, 3],
                                                                                                 [0, 1]])),
           ("GatherNd", "ScatterNd"), lambda p, i: p[i[:, 0], i[:, 1]],
           notes="repeated indices: their gradients add up (ScatterNd)"),
    OpSpec("gather_nd[rows]", lambda tf, p, i: tf.gather_nd(p, i), _inputs(rand((3, 4)), _idx([[2], [0], [2]])),
           ("GatherNd",), lambda p, i: p[i[:, 0]], notes="[N, 1] indices: the gradient is IndexedSlices"),
    OpSpec("gather_nd[batch_dims=1]", lambda tf, p, i: tf.gather_nd(p, i, batch_dims=1),
           _inputs(rand((2, 3, 4)), _idx([[1], [0]])), ("GatherNd", "ConcatV2"),
           lambda p, i: p[np.arange(2), i[:, 0]]),
    OpSpec("scatter_nd[duplicates add]", lambda tf, i, u: tf.scatter_nd(i, u, [5, 2]),
           _inputs(_idx([[1], [3], [1]]), rand((3, 2))), ("ScatterNd", "GatherNd"),
           lambda i, u: _scatter_ref(i, u, (5, 2)), diff=(1,)),
    OpSpec("tensor_scatter_nd_update", lambda tf, x, i, u: tf.tensor_scatter_nd_update(x, i, u),
           _inputs(rand((4, 3)), _idx([[2], [0]]), rand((2, 3))), ("TensorScatterUpdate", "GatherNd", "ZerosLike"),
           lambda x, i, u: np.concatenate([u[1:2], x[1:2], u[0:1], x[3:4]]), diff=(0, 2),
           notes="the replaced entries get no gradient through the tensor"),
    OpSpec("tensor_scatter_nd_add[elements]", lambda tf, x, i, u: tf.tensor_scatter_nd_add(x, i, u),
           _inputs(rand((3, 3)), _idx([[1, 1], [0, 2], [1, 1]]), rand((3,))), ("TensorScatterAdd", "GatherNd"),
           lambda x, i, u: x + _scatter_ref(i, u, (3, 3)), diff=(0, 2)),
    OpSpec("tensor_scatter_nd_sub", lambda tf, x, i, u: tf.tensor_scatter_nd_sub(x, i, u),
           _inputs(rand((3, 2)), _idx([[2], [0]]), rand((2, 2))), ("TensorScatterSub", "GatherNd", "Neg"),
           lambda x, i, u: x - _scatter_ref(i, u, (3, 2)), diff=(0, 2)),
    OpSpec("segment_sum", lambda tf, d, i: tf.math.segment_sum(d, i), _inputs(rand((4, 2)), _idx([0, 0, 2, 2])),
           ("SegmentSum", "GatherV2"), lambda d, i: np.stack([d[:2].sum(0), np.zeros(2, d.dtype), d[2:].sum(0)])),
    OpSpec("unsorted_segment_sum[negative ids dropped]", lambda tf, d, i: tf.math.unsorted_segment_sum(d, i, 3),
           _inputs(rand((5, 2)), _idx([2, -1, 0, 2, 1])), ("UnsortedSegmentSum", "SelectV2", "GreaterEqual"),
           lambda d, i: np.stack([d[2], d[4], d[0] + d[3]])),
    OpSpec("unsorted_segment_sum[2-d ids]", lambda tf, d, i: tf.math.unsorted_segment_sum(d, i, 3),
           _inputs(rand((2, 3)), _idx([[0, 2, 0], [1, 1, 2]])), ("UnsortedSegmentSum",),
           lambda d, i: np.array([d[0, 0] + d[0, 2], d[1, 0] + d[1, 1], d[0, 1] + d[1, 2]])),
    OpSpec("segment_max", lambda tf, d, i: tf.math.segment_max(d, i),
           lambda rng, dt: [distinct(rng, (4, 2), dt), np.asarray([0, 0, 2, 2], np.int32)], ("SegmentMax",),
           lambda d, i: np.stack([d[:2].max(0), np.zeros(2, d.dtype), d[2:].max(0)])),
    OpSpec("segment_min", lambda tf, d, i: tf.math.segment_min(d, i),
           lambda rng, dt: [distinct(rng, (4, 2), dt), np.asarray([0, 1, 1, 1], np.int32)], ("SegmentMin",),
           lambda d, i: np.stack([d[0], d[1:].min(0)])),
    OpSpec("segment_prod", lambda tf, d, i: tf.math.segment_prod(d, i), _inputs(rand((4, 2)), _idx([0, 0, 0, 2])),
           ("SegmentProd",), lambda d, i: np.stack([d[:3].prod(0), np.ones(2, d.dtype), d[3]])),
    OpSpec("segment_mean", lambda tf, d, i: tf.math.segment_mean(d, i), _inputs(rand((4, 2)), _idx([0, 0, 0, 2])),
           ("SegmentMean",), lambda d, i: np.stack([d[:3].mean(0), np.zeros(2, d.dtype), d[3]])),
    OpSpec("unsorted_segment_max[empty is lowest]", lambda tf, d, i: tf.math.unsorted_segment_max(d, i, 3),
           lambda rng, dt: [distinct(rng, (4, 2), dt), np.asarray([2, -1, 2, 0], np.int32)], ("UnsortedSegmentMax",),
           lambda d, i: np.stack([d[3], np.full(2, np.finfo(d.dtype).min), np.maximum(d[0], d[2])]), fd=False,
           notes="its empty segment is the dtype's lowest value: finite differences overflow; TF comparison only"),
    OpSpec("unsorted_segment_min", lambda tf, d, i: tf.math.unsorted_segment_min(d, i, 2),
           lambda rng, dt: [distinct(rng, (4, 2), dt), np.asarray([1, 0, 1, 1], np.int32)], ("UnsortedSegmentMin",),
           lambda d, i: np.stack([d[1], np.minimum(np.minimum(d[0], d[2]), d[3])])),
    OpSpec("unsorted_segment_prod", lambda tf, d, i: tf.math.unsorted_segment_prod(d, i, 2),
           _inputs(rand((4, 2)), _idx([1, 0, 1, -1])), ("UnsortedSegmentProd",),
           lambda d, i: np.stack([d[1], d[0] * d[2]])),
    OpSpec("unsorted_segment_mean", lambda tf, d, i: tf.math.unsorted_segment_mean(d, i, 3),
           _inputs(rand((4, 2)), _idx([1, 0, 1, 1])), ("UnsortedSegmentSum", "RealDiv", "Maximum"),
           lambda d, i: np.stack([d[1], (d[0] + d[2] + d[3]) / 3, np.zeros(2, d.dtype)])),
    OpSpec("unsorted_segment_sqrt_n", lambda tf, d, i: tf.math.unsorted_segment_sqrt_n(d, i, 2),
           _inputs(rand((4, 2)), _idx([1, 0, 1, 1])), ("UnsortedSegmentSum", "Sqrt", "RealDiv"),
           lambda d, i: np.stack([d[1], (d[0] + d[2] + d[3]) / np.sqrt(3)])),
    OpSpec("top_k.values", lambda tf, x: tf.math.top_k(x, 2).values, lambda rng, dt: [distinct(rng, (3, 5), dt)],
           ("TopKV2", "ScatterNd"), lambda x: _top_k_ref(x, 2)),
    OpSpec("top_k.indices", lambda tf, x: tf.math.top_k(x, k=3)[1], lambda rng, dt: [distinct(rng, (2, 4), dt)],
           ("TopKV2",), lambda x: np.argsort(-x, -1, kind="stable")[..., :3].astype(np.int32),
           notes="TF: the gradient of the int32 indices is zeros (an output of a recorded op), not None"),
    OpSpec("top_k[ties]", lambda tf, x: tf.math.top_k(x, 3).indices, _inputs(_fixed([1.0, 3.0, 3.0, 2.0, 3.0])),
           ("TopKV2",), lambda x: np.array([1, 2, 4], np.int32), fd=False,
           notes="equal values: lower index first (the indices' gradient is zeros, as TF's)"),
    OpSpec("sort", lambda tf, x: tf.sort(x), lambda rng, dt: [distinct(rng, (3, 4), dt)], ("TopKV2", "Neg"),
           lambda x: np.sort(x, -1)),
    OpSpec("sort[axis=0,DESCENDING]", lambda tf, x: tf.sort(x, axis=0, direction="DESCENDING"),
           lambda rng, dt: [distinct(rng, (3, 2, 2), dt)], ("TopKV2", "Transpose"), lambda x: -np.sort(-x, 0)),
    OpSpec("argsort[stable, ties]", lambda tf, x: tf.argsort(x), _inputs(_fixed([2.0, 1.0, 2.0, 1.0, np.nan, 0.5])),
           ("TopKV2",), lambda x: np.argsort(x, kind="stable").astype(np.int32), fd=False,
           notes="ties keep index order; NaN last (the indices' gradient is zeros, as TF's)"),
    OpSpec("argsort[axis=0,DESCENDING,int]", lambda tf, x: tf.argsort(tf.cast(x * 10, tf.int32), axis=0,
                                                                      direction="DESCENDING"),
           lambda rng, dt: [distinct(rng, (4, 3), dt)], ("TopKV2", "Cast"),
           lambda x: np.argsort(-(x * 10).astype(np.int32), 0, kind="stable").astype(np.int32), grad=False),
    OpSpec("einsum[matmul]", lambda tf, a, b: tf.einsum("ij,jk->ik", a, b), _inputs(rand((2, 3)), rand((3, 4))),
           ("Einsum",), np.matmul, diff=(0, 1)),
    OpSpec("einsum[batch matmul, ellipsis broadcast]", lambda tf, a, b: tf.einsum("...ij,...jk->...ik", a, b),
           _inputs(rand((2, 1, 2, 3)), rand((3, 3, 2))), ("Einsum", "BroadcastTo"), np.matmul, diff=(0, 1)),
    OpSpec("einsum[outer]", lambda tf, a, b: tf.einsum("i,j->ij", a, b), _inputs(rand((3,)), rand((2,))),
           ("Einsum",), np.outer, diff=(0, 1)),
    OpSpec("einsum[transpose]", lambda tf, a: tf.einsum("ijk->kij", a), _inputs(rand((2, 3, 4))), ("Einsum",),
           lambda a: np.einsum("ijk->kij", a)),
    OpSpec("einsum[reduce ij->j]", lambda tf, a: tf.einsum("ij->j", a), _inputs(rand((3, 4))), ("Einsum",),
           lambda a: a.sum(0)),
    OpSpec("einsum[trace, diagonal]", lambda tf, a: tf.einsum("ii->", a) + tf.reduce_sum(tf.einsum("ii->i", a)),
           _inputs(rand((3, 3))), ("Einsum",), lambda a: 2 * np.trace(a), notes="the gradient puts the diagonal back"),
    OpSpec("einsum[implicit output]", lambda tf, a, b: tf.einsum("ij,kj", a, b), _inputs(rand((2, 3)), rand((4, 3))),
           ("Einsum",), lambda a, b: a @ b.T, diff=(0, 1)),
    OpSpec("einsum[bilinear bi,ij,bj->b]", lambda tf, x, w, y: tf.einsum("bi,ij,bj->b", x, w, y),
           _inputs(rand((2, 3)), rand((3, 4)), rand((2, 4))), ("Einsum",),
           lambda x, w, y: np.einsum("bi,ij,bj->b", x, w, y), diff=(0, 1, 2)),
    OpSpec("linalg.matmul/matvec", lambda tf, a, b: tf.linalg.matvec(a, b) + tf.linalg.matmul(a, tf.ones([3, 1],
                                                                                                      a.dtype))[:, 0],
           _inputs(rand((2, 3)), rand((3,))), ("MatMul", "ExpandDims", "Squeeze"),
           lambda a, b: a @ b + a.sum(1), diff=(0, 1)),
    OpSpec("linalg.matrix_transpose/trace", lambda tf, a: tf.linalg.trace(tf.linalg.matrix_transpose(a) * 2.0),
           _inputs(rand((2, 3, 3))), ("Transpose", "Einsum"), lambda a: 2 * np.trace(a, axis1=1, axis2=2)),
    OpSpec("tensordot[axes pairs]", lambda tf, a, b: tf.tensordot(a, b, axes=[[1, 2], [1, 0]]),
           _inputs(rand((2, 3, 4)), rand((4, 3, 2))), ("Einsum",), lambda a, b: np.tensordot(a, b, ((1, 2), (1, 0))),
           diff=(0, 1)),
    OpSpec("norm[euclidean]", lambda tf, x: tf.norm(x), _inputs(rand((2, 3))), ("Mul", "Sum", "Sqrt", "Squeeze"),
           lambda x: np.linalg.norm(x.ravel())),
    OpSpec("norm[ord=1,axis=1,keepdims]", lambda tf, x: tf.norm(x, ord=1, axis=1, keepdims=True),
           lambda rng, dt: [away_from(rand((3, 2))(rng, dt))], ("Abs", "Sum"),
           lambda x: np.abs(x).sum(1, keepdims=True)),
    OpSpec("norm[ord=inf,matrix]", lambda tf, x: tf.linalg.norm(x, ord=np.inf, axis=[0, 1]),
           _inputs(_rows_apart), ("Abs", "Sum", "Max"), lambda x: np.linalg.norm(x, np.inf),
           notes="rows scaled apart: no tie between the row sums"),
    OpSpec("norm[ord=3]", lambda tf, x: tf.norm(x, ord=3, axis=0), lambda rng, dt: [away_from(rand((3, 2))(rng, dt))],
           ("Pow", "Abs", "Sum"), lambda x: np.sum(np.abs(x) ** 3, 0) ** (1 / 3)),
]

# Registry op types no spec exercises, with the reason (the coverage test checks this list).
_RANDOM = "random draws (NumPy's streams, not TF's): laws, determinism and errors in tests/runtime/test_random_ops.py"
UNTESTED_OPS: dict[str, str] = {
    "TruncatedNormal": _RANDOM, "Multinomial": _RANDOM, "RandomShuffle": _RANDOM,
    "StatelessRandomNormalV2": _RANDOM, "StatelessTruncatedNormalV2": _RANDOM, "StatelessRandomUniformV2": _RANDOM,
    "StatelessMultinomial": _RANDOM,
    **{op: "tf.random.Generator's ops: TF's bits, state and errors in tests/ops/test_random_generator_tf.py"
       for op in ("RngReadAndSkip", "StatefulUniform", "StatefulStandardNormalV2", "StatefulTruncatedNormal",
                  "StatefulUniformInt", "StatefulUniformFullInt", "RandomIndexShuffle", "StatelessRandomBinomial",
                  "StatefulRandomBinomial", "StatelessShuffle")},
    "ListDiff": "tf.compat.v1.setdiff1d's op (no gradient in TF): in tests/ops/test_random_generator_tf.py",
    "AdjustContrastv2": "tf.image.adjust_contrast's kernel (no gradient in TF): bit for bit in "
                        "tests/ops/test_image_ops_tf.py",
    **{op: "tf.sparse's kernels (SparseTensor operands as three tensors): values, entry orders, errors and "
           "gradients against TF 2.21 in tests/ops/test_sparse_tf.py"
       for op in ("SparseToDense", "SparseReorder", "SparseReshape", "SparseSlice", "SparseSliceGrad", "SparseSplit",
                  "SparseConcat", "SparseFillEmptyRows", "SparseFillEmptyRowsGrad", "SparseAdd", "SparseAddGrad",
                  "SparseTensorDenseAdd", "SparseDenseCwiseMul", "SparseDenseCwiseDiv", "SparseDenseCwiseAdd",
                  "SparseSparseMaximum", "SparseSparseMinimum", "SparseSoftmax", "SparseReduceSum", "SparseReduceMax",
                  "SparseReduceSumSparse", "SparseReduceMaxSparse", "SparseTensorDenseMatMul", "SparseSegmentSum",
                  "SparseSegmentSumWithNumSegments", "SparseSegmentMean", "SparseSegmentMeanWithNumSegments",
                  "SparseSegmentSqrtN", "SparseSegmentSqrtNWithNumSegments", "SparseSegmentSumGrad",
                  "SparseSegmentMeanGrad", "SparseSegmentSqrtNGrad", "SparseSegmentSumGradV2",
                  "SparseSegmentMeanGradV2", "SparseSegmentSqrtNGradV2", "DenseCountSparseOutput",
                  "SparseCountSparseOutput", "EditDistance", "SparseCrossV2")},
    **{op: "tf.sets' kernels (SparseTensor results, not differentiable): in tests/ops/test_sets_tf.py"
       for op in ("DenseToDenseSetOperation", "DenseToSparseSetOperation", "SparseToSparseSetOperation", "SetSize")},
    **{op: "tf.image's HSV kernels: values, dtypes, errors and RGBToHSV's gradient bit for bit in "
           "tests/ops/test_image_ops_tf.py" for op in ("RGBToHSV", "HSVToRGB", "AdjustHue", "AdjustSaturation", "ExtractImagePatches")},
}
