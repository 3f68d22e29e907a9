"""Op specs of issue 29's second batch (see op_specs.py): the special functions with their own
kernels (special_more.py), the tf.math composites and InvertPermutation (math_more.py), the
array ops (array_more.py), space/batch/depth moves (space_batch.py), the tf.nn additions
(nn_more.py) and tf.linalg's (linalg_more.py). Edge values, dtype refusals and errors are
tests/ops/test_op_gap_tf.py's; here: values and gradients on smooth inputs."""

from __future__ import annotations

import numpy as np

from op_specs import OpSpec, _inputs, away_from, distinct, rand


def _sp():
    import scipy.special
    return scipy.special


def _ints(values, dtype=np.int32):
    return lambda rng, dt: np.asarray(values, dtype=dtype)


def _fixed(values):
    return lambda rng, dt: np.asarray(values, dtype=dt)


def _scalar(lo, hi):
    return lambda rng, dt: np.asarray(rng.uniform(lo, hi), dtype=dt)


def _distinct(shape, lo=-2.0, hi=2.0):
    return lambda rng, dt: distinct(rng, shape, dt, lo, hi)


def _sorted_rows(shape):
    return lambda rng, dt: np.sort(distinct(rng, shape, dt), axis=-1)


def _well_conditioned(shape):
    """Matrices with a dominant diagonal (no pivoting ties, determinant far from 0)."""
    def make(rng, dt):
        x = rng.uniform(-1, 1, size=shape)
        return (x + 3 * np.eye(shape[-1])).astype(dt)
    return make


def _spd(shape):
    def make(rng, dt):
        a = rng.uniform(-1, 1, size=shape)
        return (a @ np.swapaxes(a, -1, -2) + 2 * np.eye(shape[-1])).astype(dt)
    return make


def _lower(shape):
    def make(rng, dt):
        return (np.tril(rng.uniform(-1, 1, size=shape)) + 2 * np.eye(shape[-1])).astype(dt)
    return make


def _positive(shape, lo=0.5, hi=2.0):
    return rand(shape, lo, hi)


def _reverse_sequence_ref(x, lengths):
    out = x.copy()
    for b, n in enumerate(lengths):
        out[b, :n] = x[b, :n][::-1]
    return out


def _s2b_ref(x, k=2):
    b, h, w, c = x.shape
    return x.reshape(b, h // k, k, w // k, k, c).transpose(2, 4, 0, 1, 3, 5).reshape(b * k * k, h // k, w // k, c)


def _d2s_ref(x, k=2):
    b, h, w, c = x.shape
    return x.reshape(b, h, w, k, k, c // (k * k)).transpose(0, 1, 3, 2, 4, 5).reshape(b, h * k, w * k, c // (k * k))


def _lrn_ref(x, r=2, bias=1.0, alpha=0.5, beta=0.75):
    sq = x.astype(np.float64) ** 2
    n = x.shape[-1]
    s = np.stack([sq[..., max(0, d - r):d + r + 1].sum(-1) for d in range(n)], -1)
    return x / (bias + alpha * s) ** beta


def _confusion_ref(labels, predictions, weights, n=3):
    out = np.zeros((n, n), weights.dtype)
    np.add.at(out, (labels, predictions), weights)
    return out


def _bitcast_ref(x):
    v = x.view(np.int32)
    return v.reshape(x.shape + (2,)) if x.dtype == np.float64 else v


SPECS: list[OpSpec] = [
    # --- special functions with their own kernels (runtime/ops/special_more.py) --------------------------------------
    OpSpec("erfinv", lambda tf, x: tf.math.erfinv(x), _inputs(rand((2, 3), -0.9, 0.9)), ("Erfinv",),
           lambda x: _sp().erfinv(x), rtol=1e-4),
    OpSpec("ndtri", lambda tf, x: tf.math.ndtri(x), _inputs(rand((2, 3), 0.05, 0.95)), ("Ndtri",),
           lambda x: _sp().ndtri(x), rtol=1e-4),
    OpSpec("bessel_i0", lambda tf, x: tf.math.bessel_i0(x), _inputs(rand((2, 3), -3, 3)), ("BesselI0", "BesselI1"),
           lambda x: _sp().i0(x), rtol=1e-4, grad_rtol=1e-3),
    OpSpec("bessel_i0e", lambda tf, x: tf.math.bessel_i0e(x),
           lambda rng, dt: [away_from(rand((2, 3), -3, 3)(rng, dt), gap=0.1)], ("BesselI0e", "BesselI1e", "Sign"),
           lambda x: _sp().i0e(x), rtol=1e-4, grad_rtol=1e-3),
    OpSpec("bessel_i1", lambda tf, x: tf.math.bessel_i1(x), _inputs(rand((2, 3), -3, 3)), ("BesselI1", "BesselI0"),
           lambda x: _sp().i1(x), rtol=1e-4, grad_rtol=1e-3),
    OpSpec("bessel_i1e", lambda tf, x: tf.math.bessel_i1e(x),
           lambda rng, dt: [away_from(rand((2, 3), -3, 3)(rng, dt), gap=0.1)], ("BesselI1e", "BesselI0e"),
           lambda x: _sp().i1e(x), rtol=1e-4, grad_rtol=1e-3),
    OpSpec("igamma[broadcast]", lambda tf, a, x: tf.math.igamma(a, x), _inputs(rand((3,), 0.5, 3), rand((2, 3), 0.2, 3)),
           ("Igamma", "IgammaGradA"), lambda a, x: _sp().gammainc(a, x), diff=(0, 1), rtol=1e-4, grad_rtol=1e-3,
           fd_rtol=1e-4),
    OpSpec("igammac", lambda tf, a, x: tf.math.igammac(a, x), _inputs(rand((2, 3), 0.5, 3), rand((2, 3), 0.2, 3)),
           ("Igammac", "IgammaGradA"), lambda a, x: _sp().gammaincc(a, x), diff=(0, 1), rtol=1e-4, grad_rtol=1e-3,
           fd_rtol=1e-4),
    OpSpec("betainc", lambda tf, a, b, x: tf.math.betainc(a, b, x),
           _inputs(rand((2, 3), 0.5, 3), rand((2, 3), 0.5, 3), rand((2, 3), 0.1, 0.9)), ("Betainc",),
           lambda a, b, x: _sp().betainc(a, b, x), diff=(2,), rtol=1e-4, grad_rtol=1e-3),
    OpSpec("betainc[scalar x]", lambda tf, a, b, x: tf.math.betainc(a, b, x),
           _inputs(rand((2, 3), 0.5, 3), rand((2, 3), 0.5, 3), _scalar(0.2, 0.8)), ("Betainc",),
           lambda a, b, x: _sp().betainc(a, b, x), diff=(2,), rtol=1e-4, grad_rtol=1e-3),
    OpSpec("zeta", lambda tf, x, q: tf.math.zeta(x, q), _inputs(rand((2, 3), 1.5, 4), rand((2, 3), 0.5, 3)),
           ("Zeta",), lambda x, q: _sp().zeta(x, q), diff=(1,), rtol=1e-4, grad_rtol=1e-3),
    OpSpec("nextafter[broadcast]", lambda tf, x, y: tf.math.nextafter(x, y), _inputs(rand((2, 3)), rand((3,))),
           ("NextAfter",), np.nextafter, diff=(0, 1)),
    # --- tf.math composites and InvertPermutation (runtime/ops/math_more.py) ------------------------------------------
    OpSpec("erfcinv", lambda tf, x: tf.math.erfcinv(x), _inputs(rand((2, 3), 0.1, 1.9)), ("Ndtri", "Mul", "Neg"),
           lambda x: _sp().erfcinv(x), rtol=1e-4, grad_rtol=1e-3),
    OpSpec("reciprocal_no_nan", lambda tf, x: tf.math.reciprocal_no_nan(x),
           lambda rng, dt: [away_from(rand((2, 3))(rng, dt), gap=0.3)], ("DivNoNan",), np.reciprocal),
    OpSpec("lbeta", lambda tf, x: tf.math.lbeta(x), _inputs(rand((2, 3), 0.5, 3)), ("Lgamma", "Sum", "Sub"),
           lambda x: np.sum(_sp().gammaln(x), -1) - _sp().gammaln(np.sum(x, -1)), rtol=1e-4, grad_rtol=1e-3),
    OpSpec("polyval", lambda tf, c0, c1, c2, x: tf.math.polyval([c0, c1, c2], x),
           _inputs(rand((3,)), rand((3,)), rand(()), rand((2, 3))), ("Mul", "AddV2"),
           lambda c0, c1, c2, x: c2 + x * (c1 + x * c0), diff=(0, 1, 2, 3)),
    OpSpec("scalar_mul", lambda tf, s, x: tf.math.scalar_mul(s, x), _inputs(rand(()), rand((2, 3))), ("Mul",),
           lambda s, x: s * x, diff=(0, 1)),
    OpSpec("invert_permutation", lambda tf, p: tf.math.invert_permutation(p), _inputs(_ints([3, 0, 4, 1, 2])),
           ("InvertPermutation",), np.argsort, diff=(), grad=False),
    OpSpec("is_non_decreasing", lambda tf, x: tf.math.is_non_decreasing(x), _inputs(_fixed([[1.0, 2.0], [2.0, 5.0]])),
           ("GreaterEqual", "All"), lambda x: np.all(np.diff(x.ravel()) >= 0), diff=(), grad=False),
    OpSpec("is_strictly_increasing", lambda tf, x: tf.math.is_strictly_increasing(x),
           _inputs(_fixed([1.0, 2.0, 2.0])), ("Greater", "All"), lambda x: np.all(np.diff(x) > 0), diff=(), grad=False),
    OpSpec("zero_fraction (gradient None)", lambda tf, x: tf.math.zero_fraction(x),
           _inputs(_fixed([[0.0, 1.5, 0.0], [2.0, 0.0, -1.0]])), ("NotEqual", "Cast", "Sum", "Size"),
           lambda x: np.float32(np.mean(x == 0)), grad=False, dtypes=(np.float32,),
           notes="float32 whatever the input's dtype"),
    OpSpec("accumulate_n", lambda tf, a, b: tf.math.accumulate_n([a, b]), _inputs(rand((2, 3)), rand((2, 3))),
           ("AddN",), np.add, diff=(0, 1)),
    # --- more composites and HistogramFixedWidth (runtime/ops/misc_more.py) ------------------------------------------
    OpSpec("real/imag/conj", lambda tf, x: tf.math.real(x) + tf.math.imag(x) + tf.math.conj(x), _inputs(rand((2, 3))),
           ("ZerosLike", "AddV2"), lambda x: 2 * x),
    OpSpec("angle (gradient None)", lambda tf, x: tf.math.angle(x),
           lambda rng, dt: [away_from(rand((2, 3))(rng, dt))], ("SelectV2", "OnesLike", "ZerosLike"),
           lambda x: np.where(x < 0, np.pi, 0.0), grad=False),
    OpSpec("confusion_matrix[weights]", lambda tf, l, p, w: tf.math.confusion_matrix(l, p, 3, weights=w,
                                                                                       dtype=w.dtype),
           _inputs(_ints([0, 2, 1, 2]), _ints([0, 1, 1, 2]), rand((4,))), ("ScatterNd", "Cast", "Pack"),
           lambda l, p, w: _confusion_ref(l, p, w), diff=(2,)),
    OpSpec("histogram_fixed_width", lambda tf, v: tf.histogram_fixed_width(v, [-1.0, 1.0], nbins=4),
           _inputs(rand((10,), -1.5, 1.5)), ("HistogramFixedWidth",),
           lambda v: np.bincount(np.clip(np.floor((np.maximum(v, -1.0) + 1.0) / 0.5), 0, 3).astype(int),
                                 minlength=4), diff=(), grad=False),
    OpSpec("batch_norm_with_global_normalization",
           lambda tf, x, m, v, b, g: tf.nn.batch_norm_with_global_normalization(x, m, v, b, g, 1e-3, True),
           _inputs(rand((3, 2)), rand((2,)), rand((2,), 0.5, 2), rand((2,)), rand((2,))),
           ("Rsqrt", "Mul", "Sub", "AddV2"), lambda x, m, v, b, g: (x - m) / np.sqrt(v + 1e-3) * g + b,
           diff=(0, 1, 2, 3, 4), rtol=1e-4, grad_rtol=1e-3),
    OpSpec("approx_max_k", lambda tf, x: tf.math.approx_max_k(x, 2)[0], _inputs(_distinct((2, 5))), ("TopKV2",),
           lambda x: -np.sort(-x, axis=-1)[:, :2], dtypes=(np.float32,), fd=False,
           notes="float32 only (TF's ApproxTopK: half, bfloat16, float); gradient checked against TF"),
    # --- array ops (runtime/ops/array_more.py) --------------------------------------------------------------------------
    OpSpec("roll", lambda tf, x: tf.roll(x, [1, -2, 1], [0, 1, 0]), _inputs(rand((3, 4))), ("Roll",),
           lambda x: np.roll(x, (2, -2), (0, 1))),
    OpSpec("reverse_sequence", lambda tf, x, n: tf.reverse_sequence(x, n, seq_axis=1, batch_axis=0),
           _inputs(rand((3, 4, 2)), _ints([2, 4, 0], np.int64)), ("ReverseSequence",), _reverse_sequence_ref),
    OpSpec("searchsorted[left]", lambda tf, s, v: tf.searchsorted(s, v), _inputs(_sorted_rows((2, 5)), rand((2, 3))),
           ("LowerBound",), lambda s, v: np.stack([np.searchsorted(s[i], v[i]) for i in range(2)]), diff=(),
           grad=False),
    OpSpec("searchsorted[right]", lambda tf, s, v: tf.searchsorted(s, v, side="right"),
           _inputs(_fixed([0.0, 1.0, 1.0, 2.0]), _fixed([1.0, -1.0, 3.0])), ("UpperBound",),
           lambda s, v: np.searchsorted(s, v, side="right"), diff=(), grad=False),
    OpSpec("unravel_index", lambda tf, i: tf.unravel_index(i, [3, 4]), _inputs(_ints([0, 5, 11, 7])),
           ("UnravelIndex",), lambda i: np.stack(np.unravel_index(i, (3, 4))), diff=(), grad=False),
    OpSpec("tensor_scatter_nd_max", lambda tf, x, i, u: tf.tensor_scatter_nd_max(x, i, u),
           _inputs(_distinct((4, 3)), _ints([[0], [2]]), _distinct((2, 3), -1.97, 2.03)), ("TensorScatterMax",),
           None, diff=(0, 2)),
    OpSpec("tensor_scatter_nd_min", lambda tf, x, i, u: tf.tensor_scatter_nd_min(x, i, u),
           _inputs(_distinct((4, 3)), _ints([[3], [1]]), _distinct((2, 3), -1.97, 2.03)), ("TensorScatterMin",),
           None, diff=(0, 2)),
    OpSpec("shape_n", lambda tf, a, b: tf.shape_n([a, b])[1], _inputs(rand((2, 3)), rand((4,))), ("Shape",),
           lambda a, b: np.array([4]), diff=(), grad=False),
    OpSpec("identity_n", lambda tf, a, b: tf.add(*tf.identity_n([a, b])), _inputs(rand((2, 3)), rand((2, 3))),
           ("IdentityN",), np.add, diff=(0, 1)),
    OpSpec("broadcast_dynamic_shape", lambda tf, a, b: tf.broadcast_dynamic_shape(a, b),
           _inputs(_ints([2, 1, 3]), _ints([4, 1])), ("BroadcastArgs",), lambda a, b: np.array([2, 4, 3]), diff=(),
           grad=False),
    OpSpec("ensure_shape", lambda tf, x: tf.ensure_shape(x, [None, 3]) * 2.0, _inputs(rand((2, 3))),
           ("EnsureShape",), lambda x: 2 * x),
    OpSpec("bitcast", lambda tf, x: tf.bitcast(x, tf.int32), _inputs(rand((2, 3))), ("Bitcast",), _bitcast_ref,
           diff=(), grad=False),
    # --- space, batch and depth (runtime/ops/space_batch.py) --------------------------------------------------------
    OpSpec("space_to_batch_nd", lambda tf, x: tf.space_to_batch_nd(x, [2, 2], [[0, 0], [0, 0]]),
           _inputs(rand((1, 4, 4, 2))), ("SpaceToBatchND", "BatchToSpaceND"), _s2b_ref),
    OpSpec("space_to_batch[padded]", lambda tf, x: tf.space_to_batch(x, [2], [[1, 2]]),
           _inputs(rand((2, 3, 2))), ("SpaceToBatchND", "BatchToSpaceND")),
    OpSpec("batch_to_space[cropped]", lambda tf, x: tf.batch_to_space(x, [2, 2], [[0, 1], [1, 0]]),
           _inputs(rand((4, 2, 2, 1))), ("BatchToSpaceND", "SpaceToBatchND")),
    OpSpec("space_to_depth", lambda tf, x: tf.nn.space_to_depth(x, 2), _inputs(rand((2, 4, 2, 3))),
           ("SpaceToDepth", "DepthToSpace"), lambda x: _d2s_inverse(x)),
    OpSpec("depth_to_space", lambda tf, x: tf.nn.depth_to_space(x, 2), _inputs(rand((1, 2, 3, 8))),
           ("DepthToSpace", "SpaceToDepth"), _d2s_ref),
    # --- tf.nn (runtime/ops/nn_more.py) -----------------------------------------------------------------------------------
    OpSpec("crelu", lambda tf, x: tf.nn.crelu(x), lambda rng, dt: [away_from(rand((2, 3))(rng, dt))],
           ("Relu", "ConcatV2", "Neg"), lambda x: np.concatenate([np.maximum(x, 0), np.maximum(-x, 0)], -1)),
    OpSpec("normalize_moments", lambda tf, m, v, s: tf.add(*tf.nn.normalize_moments(tf.constant(4.0, m.dtype), m, v, s)),
           _inputs(rand((3,)), rand((3,), 2, 4), rand((3,))), ("Reciprocal", "Mul", "Square", "Sub"),
           lambda m, v, s: m / 4 + s + v / 4 - (m / 4) ** 2, diff=(0, 1, 2)),
    OpSpec("sufficient_statistics", lambda tf, x, s: tf.add(*tf.nn.sufficient_statistics(x, [0, 2], shift=s)[1:3]),
           _inputs(rand((2, 3, 2)), rand(())), ("Sub", "SquaredDifference", "Sum"),
           lambda x, s: np.sum(x - s, (0, 2)) + np.sum((x - s) ** 2, (0, 2)), diff=(0, 1)),
    OpSpec("weighted_moments", lambda tf, x, w: tf.add(*tf.nn.weighted_moments(x, [1], w)),
           _inputs(rand((2, 4)), _positive((2, 4))), ("DivNoNan", "SquaredDifference", "Sum"),
           lambda x, w: (lambda m: m + np.sum(w * (x - m[:, None]) ** 2, 1) / np.sum(w, 1))(np.sum(w * x, 1) / np.sum(w, 1)),
           diff=(0, 1), rtol=1e-4),
    OpSpec("max_pool1d", lambda tf, x: tf.nn.max_pool1d(x, 2, 2, "VALID"), _inputs(_distinct((1, 6, 2))),
           ("MaxPool", "MaxPoolGrad"), lambda x: x.reshape(1, 3, 2, 2).max(2)),
    OpSpec("avg_pool1d[SAME]", lambda tf, x: tf.nn.avg_pool1d(x, 3, 1, "SAME"), _inputs(rand((2, 5, 2))),
           ("AvgPool", "AvgPoolGrad")),
    OpSpec("log_poisson_loss[full]", lambda tf, t, li: tf.nn.log_poisson_loss(t, li, compute_full_loss=True),
           _inputs(rand((2, 3), 1.2, 3), rand((2, 3))), ("Exp", "Log", "SelectV2"),
           lambda t, li: np.exp(li) - li * t + t * np.log(t) - t + 0.5 * np.log(2 * np.pi * t), diff=(0, 1)),
    OpSpec("conv2d_transpose[SAME, stride 2]", lambda tf, x, f: tf.nn.conv2d_transpose(x, f, [2, 5, 5, 3], 2, "SAME"),
           _inputs(rand((2, 3, 3, 2)), rand((3, 3, 3, 2))), ("Conv2DBackpropInput", "Conv2D", "Conv2DBackpropFilter"),
           None, diff=(0, 1), rtol=1e-4, grad_rtol=1e-3),
    OpSpec("conv1d_transpose[VALID]", lambda tf, x, f: tf.nn.conv1d_transpose(x, f, [1, 7, 2], 2, "VALID"),
           _inputs(rand((1, 3, 3)), rand((3, 2, 3))), ("Conv2DBackpropInput", "Conv2D", "Conv2DBackpropFilter"),
           None, diff=(0, 1), rtol=1e-4, grad_rtol=1e-3),
    OpSpec("atrous_conv2d[rate 2]", lambda tf, x, f: tf.nn.atrous_conv2d(x, f, 2, "SAME"),
           _inputs(rand((1, 5, 5, 2)), rand((2, 2, 2, 3))),
           ("SpaceToBatchND", "Conv2D", "BatchToSpaceND", "Conv2DBackpropInput", "Conv2DBackpropFilter"),
           None, diff=(0, 1), rtol=1e-4, grad_rtol=1e-3),
    OpSpec("conv_transpose[2-D]", lambda tf, x, f: tf.nn.conv_transpose(x, f, [1, 4, 4, 2], 2, "SAME"),
           _inputs(rand((1, 2, 2, 3)), rand((2, 2, 2, 3))), ("Conv2DBackpropInput",), None, diff=(0, 1), rtol=1e-4,
           grad_rtol=1e-3),
    OpSpec("depthwise_conv2d_backprop_input", lambda tf, f, dy: tf.nn.depthwise_conv2d_backprop_input(
        [1, 4, 4, 2], f, dy, [1, 2, 2, 1], "SAME"), _inputs(rand((3, 3, 2, 2)), rand((1, 2, 2, 4))),
           ("DepthwiseConv2dNativeBackpropInput", "DepthwiseConv2dNative", "DepthwiseConv2dNativeBackpropFilter"),
           None, diff=(0, 1), rtol=1e-4, grad_rtol=1e-3),
    OpSpec("depthwise_conv2d_backprop_filter", lambda tf, x, dy: tf.nn.depthwise_conv2d_backprop_filter(
        x, [2, 2, 2, 1], dy, [1, 1, 1, 1], "VALID"), _inputs(rand((1, 3, 3, 2)), rand((1, 2, 2, 2))),
           ("DepthwiseConv2dNativeBackpropFilter", "DepthwiseConv2dNative", "DepthwiseConv2dNativeBackpropInput"),
           None, diff=(0, 1), rtol=1e-4, grad_rtol=1e-3),
    OpSpec("lrn", lambda tf, x: tf.nn.lrn(x, depth_radius=2, bias=1.0, alpha=0.5, beta=0.75),
           _inputs(rand((1, 2, 2, 6))), ("LRN", "LRNGrad"), _lrn_ref, dtypes=(np.float32,), fd=False, rtol=1e-4,
           grad_rtol=1e-3, notes="LRN has no float64 kernel: its gradient is checked against TF 2.21 only"),
    # --- tf.linalg (runtime/ops/linalg_more.py) --------------------------------------------------------------------------
    OpSpec("linalg.adjoint", lambda tf, x: tf.linalg.adjoint(x), _inputs(rand((2, 3, 4))), ("Transpose",),
           lambda x: np.swapaxes(x, -1, -2)),
    OpSpec("linalg.band_part", lambda tf, x: tf.linalg.band_part(x, 1, 0), _inputs(rand((2, 4, 4))),
           ("MatrixBandPart",), lambda x: np.tril(x) - np.tril(x, -2)),
    OpSpec("linalg.band_part[upper]", lambda tf, x: tf.linalg.band_part(x, 0, -1), _inputs(rand((3, 4))),
           ("MatrixBandPart",), np.triu),
    OpSpec("linalg.set_diag", lambda tf, x, d: tf.linalg.set_diag(x, d), _inputs(rand((2, 3, 3)), rand((2, 3))),
           ("MatrixSetDiagV3", "MatrixDiagPartV3"), None, diff=(0, 1)),
    OpSpec("linalg.set_diag[band]", lambda tf, x, d: tf.linalg.set_diag(x, d, k=(0, 1)),
           _inputs(rand((3, 4)), rand((2, 3))), ("MatrixSetDiagV3", "MatrixDiagPartV3"), None, diff=(0, 1)),
    OpSpec("linalg.cross", lambda tf, a, b: tf.linalg.cross(a, b), _inputs(rand((2, 3)), rand((2, 3))), ("Cross",),
           np.cross, diff=(0, 1)),
    OpSpec("linalg.normalize", lambda tf, x: tf.linalg.normalize(x, axis=1)[0], _inputs(rand((2, 3), 0.5, 2)),
           ("RealDiv",), lambda x: x / np.sqrt(np.sum(x * x, 1, keepdims=True))),
    OpSpec("linalg.tensor_diag", lambda tf, x: tf.linalg.tensor_diag(x), _inputs(rand((2, 3))), ("Diag", "DiagPart"),
           lambda x: np.diag(x.ravel()).reshape(2, 3, 2, 3)),
    OpSpec("linalg.tensor_diag_part", lambda tf, x: tf.linalg.tensor_diag_part(x), _inputs(rand((2, 3, 2, 3))),
           ("DiagPart", "Diag"), lambda x: np.diag(x.reshape(6, 6)).reshape(2, 3)),
    OpSpec("linalg.det", lambda tf, x: tf.linalg.det(x), _inputs(_well_conditioned((2, 3, 3))),
           ("MatrixDeterminant", "MatrixInverse"), np.linalg.det, rtol=1e-4, grad_rtol=1e-3),
    OpSpec("linalg.slogdet", lambda tf, x: tf.linalg.slogdet(x)[1], _inputs(_well_conditioned((3, 3))),
           ("LogMatrixDeterminant", "MatrixInverse"), lambda x: np.linalg.slogdet(x)[1], rtol=1e-4, grad_rtol=1e-3),
    OpSpec("linalg.inv", lambda tf, x: tf.linalg.inv(x), _inputs(_well_conditioned((2, 3, 3))), ("MatrixInverse",),
           np.linalg.inv, rtol=1e-4, grad_rtol=1e-3),
    OpSpec("linalg.solve", lambda tf, a, b: tf.linalg.solve(a, b), _inputs(_well_conditioned((3, 3)), rand((3, 2))),
           ("MatrixSolve",), np.linalg.solve, diff=(0, 1), rtol=1e-4, grad_rtol=1e-3),
    OpSpec("linalg.solve[adjoint]", lambda tf, a, b: tf.linalg.solve(a, b, adjoint=True),
           _inputs(_well_conditioned((2, 3, 3)), rand((2, 3, 1))), ("MatrixSolve",),
           lambda a, b: np.linalg.solve(np.swapaxes(a, -1, -2), b), diff=(0, 1), rtol=1e-4, grad_rtol=1e-3),
    OpSpec("linalg.cholesky", lambda tf, x: tf.linalg.cholesky(x), _inputs(_spd((3, 3))),
           ("Cholesky", "MatrixTriangularSolve", "MatrixSetDiagV3", "MatrixBandPart"), np.linalg.cholesky, fd=False,
           rtol=1e-4, grad_rtol=1e-3,
           notes="TF's gradient is symmetrized (the kernel reads one triangle): TF comparison only"),
    OpSpec("linalg.triangular_solve", lambda tf, a, b: tf.linalg.triangular_solve(a, b),
           _inputs(_lower((3, 3)), rand((3, 2))), ("MatrixTriangularSolve", "MatrixBandPart"),
           lambda a, b: np.linalg.solve(a, b), diff=(0, 1), rtol=1e-4, grad_rtol=1e-3),
    OpSpec("linalg.triangular_solve[upper, adjoint, broadcast]",
           lambda tf, a, b: tf.linalg.triangular_solve(a, b, lower=False, adjoint=True),
           _inputs(lambda rng, dt: np.swapaxes(_lower((3, 3))(rng, dt), 0, 1), rand((2, 3, 2))),
           ("MatrixTriangularSolve", "MatrixBandPart"),
           lambda a, b: np.linalg.solve(np.broadcast_to(np.swapaxes(np.triu(a), -1, -2), (2, 3, 3)), b), diff=(0, 1),
           rtol=1e-4, grad_rtol=1e-3),
    OpSpec("linalg.logdet", lambda tf, x: tf.linalg.logdet(x), _inputs(_spd((2, 3, 3))),
           ("Cholesky", "MatrixDiagPartV3", "Log", "Sum"), lambda x: np.linalg.slogdet(x)[1], fd=False, rtol=1e-4,
           grad_rtol=1e-3, notes="through Cholesky's symmetrized gradient: TF comparison only"),
    OpSpec("linalg.cholesky_solve", lambda tf, c, b: tf.linalg.cholesky_solve(c, b),
           _inputs(_lower((3, 3)), rand((3, 2))), ("MatrixTriangularSolve",),
           lambda c, b: np.linalg.solve(np.tril(c) @ np.tril(c).T, b), diff=(0, 1), rtol=1e-4, grad_rtol=1e-3),
    OpSpec("linalg.qr[r]", lambda tf, x: tf.linalg.qr(x)[1], _inputs(rand((4, 3))), ("Qr", "MatrixTriangularSolve"),
           lambda x: np.linalg.qr(x)[1], rtol=1e-4, grad_rtol=1e-3),
    OpSpec("linalg.qr[q, wide]", lambda tf, x: tf.linalg.qr(x)[0], _inputs(rand((2, 2, 3))), ("Qr",),
           lambda x: np.linalg.qr(x)[0], rtol=1e-4, grad_rtol=1e-3),
]


def _d2s_inverse(x, k=2):
    b, h, w, c = x.shape
    return x.reshape(b, h // k, k, w // k, k, c).transpose(0, 1, 3, 2, 4, 5).reshape(b, h // k, w // k, k * k * c)


UNTESTED_OPS: dict[str, str] = {}
