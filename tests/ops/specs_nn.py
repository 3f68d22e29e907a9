"""Op specs of tf.nn (activations, losses, convolutions, pooling, normalization): see op_specs.py.

The NumPy references here are written independently of simdist's kernels (direct formulas;
convolution and pooling by explicit loops over kernel offsets or output pixels). The gradient
kernels (ReluGrad, Conv2DBackpropInput, MaxPoolGrad, ...) are exercised through second-order
specs: `_vjp(f)` computes the gradient of f inside the spec (an inner tape with an upstream
gradient g), so the matrices check that gradient's value against the reference and its own
gradient against finite differences and TF 2.21.
"""

from __future__ import annotations

import math as _math
from typing import Any, Callable

import numpy as np

from op_specs import OpSpec, _inputs, away_from, distinct, rand

SELU_SCALE = 1.0507009873554804934193349852946
SELU_ALPHA = 1.6732632423543772848170429916717
_erf = np.vectorize(_math.erf, otypes=[np.float64])
# TF's gelu casts its constants with math_ops.cast from a Python float, i.e. through float32:
# in float64 they are the float32-rounded values (TF 2.21 differs from the exact formula by ~1e-9).
_GELU_C = float(np.float32(0.7071067811865476))
_GELU_COEFF = float(np.float32(0.044715))


def _vjp(f: Callable[..., Any], *, n_params: int = 1) -> Callable[..., Any]:
    """fn(tf, *params, g): d(f(*params))/d(params[0]) with upstream gradient g (an inner tape)."""
    def run(tf: Any, *xs: Any) -> Any:
        params, g = xs[:n_params], xs[n_params]
        with tf.GradientTape() as t:
            t.watch(params[0])
            y = f(tf, *params)
        return t.gradient(y, params[0], output_gradients=g)
    return run


def _vjp_wrt(f: Callable[..., Any], which: int) -> Callable[..., Any]:
    """As _vjp for a two-argument f, differentiated with respect to argument `which`."""
    def run(tf: Any, a: Any, b: Any, g: Any) -> Any:
        with tf.GradientTape() as t:
            t.watch([a, b])
            y = f(tf, a, b)
        return t.gradient(y, [a, b][which], output_gradients=g)
    return run


def _kinks(points: tuple[float, ...], shape: tuple[int, ...], lo: float = -2.0, hi: float = 2.0) -> Any:
    return lambda rng, dt: away_from(rand(shape, lo, hi)(rng, dt), points, 0.05).astype(dt)


def _sigmoid(x: np.ndarray) -> np.ndarray:
    return 1 / (1 + np.exp(-x))


def _softmax(x: np.ndarray, axis: int = -1) -> np.ndarray:
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def _log_softmax(x: np.ndarray, axis: int = -1) -> np.ndarray:
    s = x - x.max(axis=axis, keepdims=True)
    return s - np.log(np.exp(s).sum(axis=axis, keepdims=True))


def _labels(rng: np.random.Generator, shape: tuple[int, ...], classes: int) -> np.ndarray:
    return rng.integers(0, classes, size=shape).astype(np.int32)


def _probs(shape: tuple[int, ...]) -> Any:
    def make(rng: np.random.Generator, dt: Any) -> np.ndarray:
        p = rng.uniform(0.1, 1.0, size=shape)
        return (p / p.sum(axis=-1, keepdims=True)).astype(dt)
    return make


# --- convolution and pooling references ------------------------------------------------------------
def _same_pads(size: int, k: int, s: int, d: int = 1) -> tuple[int, int]:
    eff = (k - 1) * d + 1
    out = -(-size // s)
    need = max(0, (out - 1) * s + eff - size)
    return need // 2, need - need // 2


def _ref_conv(x: np.ndarray, w: np.ndarray, s: int = 1, pad: Any = "VALID", d: int = 1) -> np.ndarray:
    """Direct convolution: for each kernel offset, the strided input slice times its filter tap."""
    n, h, wd, c = x.shape
    kh, kw, fin, cout = w.shape
    if pad == "SAME":
        (pt, pb), (pl, pr) = _same_pads(h, kh, s, d), _same_pads(wd, kw, s, d)
    elif pad == "VALID":
        pt = pb = pl = pr = 0
    else:
        (pt, pb), (pl, pr) = pad
    xp = np.pad(x, ((0, 0), (pt, pb), (pl, pr), (0, 0)))
    oh = (h + pt + pb - (kh - 1) * d - 1) // s + 1
    ow = (wd + pl + pr - (kw - 1) * d - 1) // s + 1
    groups = c // fin
    out = np.zeros((n, oh, ow, cout))
    og = cout // groups
    for a in range(kh):
        for b in range(kw):
            sl = xp[:, a * d:a * d + (oh - 1) * s + 1:s, b * d:b * d + (ow - 1) * s + 1:s, :]
            for g in range(groups):
                out[..., g * og:(g + 1) * og] += sl[..., g * fin:(g + 1) * fin] @ w[a, b, :, g * og:(g + 1) * og]
    return out


def _ref_depthwise(x: np.ndarray, w: np.ndarray, s: int = 1, pad: str = "VALID") -> np.ndarray:
    n, h, wd, c = x.shape
    kh, kw, _, m = w.shape
    full = np.zeros((kh, kw, c, c * m))
    for ch in range(c):
        full[:, :, ch, ch * m:(ch + 1) * m] = w[:, :, ch, :]
    return _ref_conv(x, full, s, pad)


def _ref_bilinear(x: np.ndarray, oh: int, ow: int) -> np.ndarray:
    """Half-pixel-centre bilinear resize by loops over output pixels (float64)."""
    n, h, w, c = x.shape
    out = np.zeros((n, oh, ow, c))

    def src(i: int, size: int, osize: int) -> tuple[int, int, float]:
        s = (i + 0.5) * size / osize - 0.5
        f = np.floor(s)
        return max(int(f), 0), min(int(np.ceil(s)), size - 1), s - f
    for i in range(oh):
        y0, y1, fy = src(i, h, oh)
        for j in range(ow):
            x0, x1, fx = src(j, w, ow)
            top = x[:, y0, x0] * (1 - fx) + x[:, y0, x1] * fx
            bottom = x[:, y1, x0] * (1 - fx) + x[:, y1, x1] * fx
            out[:, i, j] = top * (1 - fy) + bottom * fy
    return out


def _ref_bilinear_vjp(x: np.ndarray, g: np.ndarray) -> np.ndarray:
    """The adjoint of _ref_bilinear: sum over output pixels of g times d(out)/d(x), by columns
    of the (linear) map."""
    out = np.zeros(x.shape)
    for idx in np.ndindex(*x.shape):
        e = np.zeros(x.shape)
        e[idx] = 1.0
        out[idx] = (_ref_bilinear(e, g.shape[1], g.shape[2]) * g).sum()
    return out


def _ref_pool(x: np.ndarray, k: int, s: int, pad: str, kind: str) -> np.ndarray:
    n, h, wd, c = x.shape
    (pt, _), (pl, _) = (_same_pads(h, k, s), _same_pads(wd, k, s)) if pad == "SAME" else ((0, 0), (0, 0))
    oh = -(-h // s) if pad == "SAME" else (h - k) // s + 1
    ow = -(-wd // s) if pad == "SAME" else (wd - k) // s + 1
    out = np.zeros((n, oh, ow, c))
    for i in range(oh):
        for j in range(ow):
            r0, c0 = i * s - pt, j * s - pl
            win = x[:, max(r0, 0):min(r0 + k, h), max(c0, 0):min(c0 + k, wd), :]
            out[:, i, j, :] = win.max(axis=(1, 2)) if kind == "max" else win.mean(axis=(1, 2))
    return out


def _ref_max_pool_grad(x: np.ndarray, g: np.ndarray, k: int, s: int, pad: str) -> np.ndarray:
    """Each upstream element added at its window's (first) maximum."""
    n, h, wd, c = x.shape
    (pt, _), (pl, _) = (_same_pads(h, k, s), _same_pads(wd, k, s)) if pad == "SAME" else ((0, 0), (0, 0))
    out = np.zeros(x.shape)
    for b in range(n):
        for i in range(g.shape[1]):
            for j in range(g.shape[2]):
                r0, c0 = max(i * s - pt, 0), max(j * s - pl, 0)
                r1, c1 = min(i * s - pt + k, h), min(j * s - pl + k, wd)
                for ch in range(c):
                    win = x[b, r0:r1, c0:c1, ch]
                    a = np.unravel_index(np.argmax(win), win.shape)
                    out[b, r0 + a[0], c0 + a[1], ch] += g[b, i, j, ch]
    return out


def _rows_with_norms(rng: np.random.Generator, norms: tuple[float, ...], dim: int, dt: Any) -> np.ndarray:
    """Rows of the given L2 norms (away from a max_norm of 1, where clipping has a kink)."""
    v = rng.normal(size=(len(norms), dim))
    return (v / np.linalg.norm(v, axis=1, keepdims=True) * np.asarray(norms)[:, None]).astype(dt)


def _pool_x(shape: tuple[int, ...]) -> Any:
    return lambda rng, dt: distinct(rng, shape, dt)


def _conv_in(xs: tuple[int, ...], ws: tuple[int, ...], gs: tuple[int, ...] | None = None) -> Any:
    makers = [rand(xs, -1.0, 1.0), rand(ws, -1.0, 1.0)] + ([rand(gs, -1.0, 1.0)] if gs else [])
    return _inputs(*makers)


# --- the table ------------------------------------------------------------------------------------------
SPECS: list[OpSpec] = [
    # activations
    OpSpec("relu", lambda tf, x: tf.nn.relu(x), _inputs(_kinks((0.0,), (3, 4))), ("Relu",), lambda x: np.maximum(x, 0)),
    OpSpec("relu6", lambda tf, x: tf.nn.relu6(x), _inputs(_kinks((0.0, 6.0), (3, 4), -2.0, 8.0)), ("Relu6",),
           lambda x: np.clip(x, 0, 6)),
    OpSpec("elu", lambda tf, x: tf.nn.elu(x), _inputs(_kinks((0.0,), (3, 4))), ("Elu",),
           lambda x: np.where(x < 0, np.expm1(x), x)),
    OpSpec("selu", lambda tf, x: tf.nn.selu(x), _inputs(_kinks((0.0,), (3, 4))), ("Selu",),
           lambda x: SELU_SCALE * np.where(x < 0, SELU_ALPHA * np.expm1(x), x)),
    OpSpec("leaky_relu[alpha=0.3]", lambda tf, x: tf.nn.leaky_relu(x, alpha=0.3), _inputs(_kinks((0.0,), (3, 4))),
           ("LeakyRelu",), lambda x: np.where(x > 0, x, float(np.float32(0.3)) * x),
           notes="alpha is a 32-bit float attr (nn.float-attrs)"),
    OpSpec("leaky_relu[alpha=2]", lambda tf, x: tf.nn.leaky_relu(x, alpha=2.0), _inputs(_kinks((0.0,), (5,))),
           ("LeakyRelu",), lambda x: np.where(x > 0, x, 2.0 * x), notes="TF selects, also for alpha > 1"),
    OpSpec("sigmoid", lambda tf, x: tf.nn.sigmoid(x), _inputs(rand((3, 4), -6, 6)), ("Sigmoid",), _sigmoid),
    OpSpec("math.sigmoid", lambda tf, x: tf.math.sigmoid(x), _inputs(rand((2,))), ("Sigmoid",), _sigmoid),
    OpSpec("tanh", lambda tf, x: tf.tanh(x), _inputs(rand((3, 4), -3, 3)), ("Tanh",), np.tanh),
    OpSpec("softplus", lambda tf, x: tf.math.softplus(x), _inputs(rand((3, 4), -8, 8)), ("Softplus",),
           lambda x: np.log1p(np.exp(x))),
    OpSpec("softsign", lambda tf, x: tf.nn.softsign(x), _inputs(rand((3, 4), -3, 3)), ("Softsign",),
           lambda x: x / (1 + np.abs(x))),
    OpSpec("softmax", lambda tf, x: tf.nn.softmax(x), _inputs(rand((3, 5), -3, 3)), ("Softmax",), _softmax),
    OpSpec("softmax[axis=0]", lambda tf, x: tf.nn.softmax(x, axis=0), _inputs(rand((3, 2, 4), -3, 3)),
           ("Softmax", "Transpose"), lambda x: _softmax(x, 0)),
    OpSpec("log_softmax", lambda tf, x: tf.nn.log_softmax(x), _inputs(rand((3, 5), -3, 3)), ("LogSoftmax",),
           _log_softmax),
    OpSpec("log_softmax[axis=1]", lambda tf, x: tf.math.log_softmax(x, axis=1), _inputs(rand((2, 3, 4), -3, 3)),
           ("LogSoftmax", "Transpose"), lambda x: _log_softmax(x, 1)),
    OpSpec("gelu", lambda tf, x: tf.nn.gelu(x), _inputs(rand((3, 4), -3, 3)), ("Erfc", "Mul", "Neg"),
           lambda x: 0.5 * x * (1 + _erf(x * _GELU_C))),
    OpSpec("gelu[approximate]", lambda tf, x: tf.nn.gelu(x, approximate=True), _inputs(rand((3, 4), -3, 3)),
           ("Tanh", "Pow", "Mul", "AddV2"),
           lambda x: 0.5 * x * (1 + np.tanh(0.7978845608028654 * (x + _GELU_COEFF * x ** 3)))),
    OpSpec("silu", lambda tf, x: tf.nn.silu(x), _inputs(rand((3, 4), -4, 4)), ("Sigmoid", "Mul"),
           lambda x: x * _sigmoid(x)),
    OpSpec("swish[beta]", lambda tf, x, b: tf.nn.swish(x, beta=b), _inputs(rand((3, 4), -4, 4), rand((), 0.5, 2.0)),
           ("Sigmoid", "Mul"), lambda x, b: x * _sigmoid(b * x), diff=(0, 1),
           notes="TF's custom gradient also differentiates beta"),
    # the activation gradient kernels (second order)
    OpSpec("relu'", _vjp(lambda tf, x: tf.nn.relu(x)), _inputs(_kinks((0.0,), (3, 4)), rand((3, 4))),
           ("Relu", "ReluGrad"), lambda x, g: g * (x > 0), diff=(0, 1)),
    OpSpec("relu6'", _vjp(lambda tf, x: tf.nn.relu6(x)), _inputs(_kinks((0.0, 6.0), (3, 4), -2, 8), rand((3, 4))),
           ("Relu6", "Relu6Grad"), lambda x, g: g * ((x > 0) & (x < 6)), diff=(0, 1)),
    OpSpec("elu'", _vjp(lambda tf, x: tf.nn.elu(x)), _inputs(_kinks((0.0,), (3, 4)), rand((3, 4))),
           ("Elu", "EluGrad"), lambda x, g: g * np.where(x < 0, np.exp(x), 1.0), diff=(0, 1)),
    OpSpec("selu'", _vjp(lambda tf, x: tf.nn.selu(x)), _inputs(_kinks((0.0,), (3, 4)), rand((3, 4))),
           ("Selu", "SeluGrad"), lambda x, g: g * SELU_SCALE * np.where(x < 0, SELU_ALPHA * np.exp(x), 1.0),
           diff=(0, 1)),
    OpSpec("leaky_relu'", _vjp(lambda tf, x: tf.nn.leaky_relu(x, 0.1)), _inputs(_kinks((0.0,), (3, 4)), rand((3, 4))),
           ("LeakyRelu", "LeakyReluGrad"), lambda x, g: g * np.where(x > 0, 1.0, float(np.float32(0.1))), diff=(0, 1)),
    OpSpec("sigmoid'", _vjp(lambda tf, x: tf.sigmoid(x)), _inputs(rand((3, 4), -4, 4), rand((3, 4))),
           ("Sigmoid", "SigmoidGrad"), lambda x, g: g * _sigmoid(x) * (1 - _sigmoid(x)), diff=(0, 1)),
    OpSpec("tanh'", _vjp(lambda tf, x: tf.nn.tanh(x)), _inputs(rand((3, 4), -2, 2), rand((3, 4))),
           ("Tanh", "TanhGrad"), lambda x, g: g * (1 - np.tanh(x) ** 2), diff=(0, 1)),
    OpSpec("softplus'", _vjp(lambda tf, x: tf.nn.softplus(x)), _inputs(rand((3, 4), -4, 4), rand((3, 4))),
           ("Softplus", "Sigmoid"), lambda x, g: g * _sigmoid(x), diff=(0, 1)),
    OpSpec("softmax'", _vjp(lambda tf, x: tf.nn.softmax(x)), _inputs(rand((2, 4), -2, 2), rand((2, 4))),
           ("Softmax",), lambda x, g: (g - (g * _softmax(x)).sum(-1, keepdims=True)) * _softmax(x), diff=(0, 1)),
    OpSpec("log_softmax'", _vjp(lambda tf, x: tf.nn.log_softmax(x)), _inputs(rand((2, 4), -2, 2), rand((2, 4))),
           ("LogSoftmax",), lambda x, g: g - g.sum(-1, keepdims=True) * _softmax(x), diff=(0, 1)),
    OpSpec("gelu'", _vjp(lambda tf, x: tf.nn.gelu(x)), _inputs(rand((3, 4), -2, 2), rand((3, 4))),
           ("Erfc",), lambda x, g: g * (0.5 * (1 + _erf(x * _GELU_C))
                                        + x * _GELU_C * np.exp(-(x * _GELU_C) ** 2) / np.sqrt(np.pi)),
           diff=(0, 1)),
    # losses
    OpSpec("softmax_cross_entropy",
           lambda tf, z, y: tf.nn.softmax_cross_entropy_with_logits(labels=y, logits=z),
           _inputs(rand((4, 5), -3, 3), _probs((4, 5))), ("SoftmaxCrossEntropyWithLogits",),
           lambda z, y: -(y * _log_softmax(z)).sum(-1), diff=(0, 1), notes="gradients into logits and labels"),
    OpSpec("softmax_cross_entropy[3-d,axis=1]",
           lambda tf, z, y: tf.nn.softmax_cross_entropy_with_logits(labels=y, logits=z, axis=1),
           lambda rng, dt: [rand((2, 3, 4), -3, 3)(rng, dt), np.moveaxis(_probs((2, 4, 3))(rng, dt), 2, 1)],
           ("SoftmaxCrossEntropyWithLogits", "Transpose", "Reshape"),
           lambda z, y: -(y * _log_softmax(z, 1)).sum(1), diff=(0, 1)),
    OpSpec("softmax_cross_entropy''",
           _vjp(lambda tf, z, y: tf.nn.softmax_cross_entropy_with_logits(labels=y, logits=z), n_params=2),
           _inputs(rand((3, 4), -2, 2), _probs((3, 4)), rand((3,))), ("SoftmaxCrossEntropyWithLogits",),
           lambda z, y, g: g[:, None] * (_softmax(z) - y), diff=(0,),
           notes="the backprop output's upstream gradient (grad_grad) is not None here"),
    OpSpec("sparse_softmax_cross_entropy",
           lambda tf, z, y: tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=z),
           lambda rng, dt: [rand((5, 4), -3, 3)(rng, dt), _labels(rng, (5,), 4)],
           ("SparseSoftmaxCrossEntropyWithLogits",),
           lambda z, y: -_log_softmax(z)[np.arange(len(y)), y], notes="labels (int) get no gradient"),
    OpSpec("sparse_softmax_cross_entropy[3-d]",
           lambda tf, z, y: tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=z),
           lambda rng, dt: [rand((2, 3, 4), -3, 3)(rng, dt), _labels(rng, (2, 3), 4)],
           ("SparseSoftmaxCrossEntropyWithLogits", "Reshape"),
           lambda z, y: -np.take_along_axis(_log_softmax(z), y[..., None].astype(np.int64), -1)[..., 0]),
    OpSpec("sparse_softmax_cross_entropy''",
           lambda tf, z, y, g: _vjp(lambda tf2, zz: tf2.nn.sparse_softmax_cross_entropy_with_logits(
               labels=y, logits=zz))(tf, z, g),
           lambda rng, dt: [rand((3, 4), -2, 2)(rng, dt), _labels(rng, (3,), 4), rand((3,))(rng, dt)],
           ("SparseSoftmaxCrossEntropyWithLogits",),
           lambda z, y, g: g[:, None] * (_softmax(z) - np.eye(4)[y]), diff=(0,)),
    OpSpec("sigmoid_cross_entropy",
           lambda tf, z, y: tf.nn.sigmoid_cross_entropy_with_logits(labels=y, logits=z),
           lambda rng, dt: [away_from(rand((3, 4), -5, 5)(rng, dt)).astype(dt), rand((3, 4), 0, 1)(rng, dt)],
           ("SelectV2", "GreaterEqual", "Softplus", "Mul", "Sub", "AddV2"),
           lambda z, y: np.maximum(z, 0) - z * y + np.log1p(np.exp(-np.abs(z))), diff=(0, 1)),
    OpSpec("weighted_cross_entropy",
           lambda tf, z, y: tf.nn.weighted_cross_entropy_with_logits(labels=y, logits=z, pos_weight=1.5),
           lambda rng, dt: [away_from(rand((3, 4), -5, 5)(rng, dt)).astype(dt), rand((3, 4), 0, 1)(rng, dt)],
           ("Softplus", "Relu", "Abs", "Mul", "Sub", "AddV2"),
           lambda z, y: (1 - y) * z + (1 + 0.5 * y) * (np.log1p(np.exp(-np.abs(z))) + np.maximum(-z, 0)),
           diff=(0, 1)),
    OpSpec("l2_loss", lambda tf, x: tf.nn.l2_loss(x), _inputs(rand((3, 4))), ("L2Loss",),
           lambda x: (x ** 2).sum() / 2),
    OpSpec("compute_average_loss[global_batch_size]",
           lambda tf, x: tf.nn.compute_average_loss(x, global_batch_size=8), _inputs(rand((4,))), ("DivNoNan", "Sum"),
           lambda x: x.sum() / 8),
    OpSpec("compute_average_loss[sample_weight]",
           lambda tf, x, w: tf.nn.compute_average_loss(x, sample_weight=w), _inputs(rand((4, 3)), rand((4,), 0, 2)),
           ("DivNoNan", "Sum", "Mul", "ExpandDims"), lambda x, w: (x * w[:, None]).sum() / 4, diff=(0, 1),
           dtypes=(np.float32,), fd=False, notes="TF casts losses and weights to float32 (so no float64 finite "
           "differences); checked against TF 2.21"),
    OpSpec("compute_average_loss[global_batch_size=0]",
           lambda tf, x: tf.nn.compute_average_loss(x, global_batch_size=0), _inputs(rand((3,))), ("DivNoNan",),
           lambda x: 0 * x.sum(), notes="div_no_nan: 0, and a zero gradient"),
    OpSpec("scale_regularization_loss", lambda tf, x: tf.nn.scale_regularization_loss(x), _inputs(rand((3, 2))),
           ("Sum", "RealDiv"), lambda x: x.sum()),
    # bias_add
    OpSpec("bias_add", lambda tf, x, b: tf.nn.bias_add(x, b), _inputs(rand((2, 3, 4)), rand((4,))), ("BiasAdd",),
           lambda x, b: x + b, diff=(0, 1)),
    OpSpec("bias_add[NCHW]", lambda tf, x, b: tf.nn.bias_add(x, b, data_format="NCHW"),
           _inputs(rand((2, 3, 2, 2)), rand((3,))), ("BiasAdd",), lambda x, b: x + b[:, None, None], diff=(0, 1)),
    OpSpec("bias_add'", _vjp_wrt(lambda tf, x, b: tf.nn.bias_add(x, b), 1),
           _inputs(rand((2, 3, 4)), rand((4,)), rand((2, 3, 4))), ("BiasAdd", "BiasAddGrad"),
           lambda x, b, g: g.sum(axis=(0, 1)), diff=(2,)),
    # convolution
    OpSpec("conv2d[SAME]", lambda tf, x, w: tf.nn.conv2d(x, w, 1, "SAME"), _conv_in((2, 5, 5, 2), (3, 3, 2, 3)),
           ("Conv2D",), lambda x, w: _ref_conv(x, w, 1, "SAME"), diff=(0, 1)),
    OpSpec("conv2d[VALID,stride 2]", lambda tf, x, w: tf.nn.conv2d(x, w, [2, 2], "VALID"),
           _conv_in((1, 6, 7, 2), (3, 2, 2, 2)), ("Conv2D",), lambda x, w: _ref_conv(x, w, 2, "VALID"), diff=(0, 1)),
    OpSpec("conv2d[SAME,stride 2,even]", lambda tf, x, w: tf.nn.conv2d(x, w, 2, "SAME"),
           _conv_in((1, 6, 6, 1), (2, 2, 1, 2)), ("Conv2D",), lambda x, w: _ref_conv(x, w, 2, "SAME"), diff=(0, 1)),
    OpSpec("conv2d[dilations=2]", lambda tf, x, w: tf.nn.conv2d(x, w, 1, "SAME", dilations=2),
           _conv_in((1, 6, 6, 2), (3, 3, 2, 2)), ("Conv2D",), lambda x, w: _ref_conv(x, w, 1, "SAME", 2), diff=(0, 1),
           dtypes=(np.float32,), fd=False,
           notes="TF 2.21's float64 Conv2D backprops refuse a dilation rate above 1 (nn.conv-dilation), so no "
                 "float64 finite differences; gradients are checked against TF"),
    OpSpec("conv2d[explicit padding]", lambda tf, x, w: tf.nn.conv2d(x, w, 1, [[0, 0], [1, 0], [2, 1], [0, 0]]),
           _conv_in((1, 4, 4, 2), (2, 3, 2, 2)), ("Conv2D",), lambda x, w: _ref_conv(x, w, 1, ((1, 0), (2, 1))),
           diff=(0, 1)),
    OpSpec("conv2d[groups=2]", lambda tf, x, w: tf.nn.conv2d(x, w, 1, "VALID"), _conv_in((1, 4, 4, 4), (2, 2, 2, 4)),
           ("Conv2D",), lambda x, w: _ref_conv(x, w, 1, "VALID"), diff=(0, 1), fd=False,
           notes="input depth a multiple of the filter's: grouped convolution; float64's gradient is TF's own "
                 "backprops' refusal ('Gradients for grouped convolutions are not supported on CPU'), so no "
                 "finite differences: the float32 gradient (oneDNN's) is compared with TF's"),
    OpSpec("conv2d[NCHW,SAME,stride 2]", lambda tf, x, w: tf.nn.conv2d(x, w, 2, "SAME", data_format="NCHW"),
           _conv_in((2, 2, 5, 6), (3, 3, 2, 3)), ("Conv2D", "Transpose"),
           lambda x, w: _ref_conv(x.transpose(0, 2, 3, 1), w, 2, "SAME").transpose(0, 3, 1, 2), diff=(0, 1),
           dtypes=(np.float32,), fd=False,
           notes="TF 2.21's CPU convolves NCHW in float32/float16/bfloat16 only (oneDNN): float64 raises, so "
                 "no float64 finite differences; gradients are checked against TF"),
    OpSpec("convolution[NCHW,dilations=2]",
           lambda tf, x, w: tf.nn.convolution(x, w, padding="VALID", data_format="NCHW", dilations=2),
           _conv_in((1, 2, 6, 6), (2, 2, 2, 3)), ("Conv2D", "Transpose", "SpaceToBatchND", "BatchToSpaceND"),
           lambda x, w: _ref_conv(x.transpose(0, 2, 3, 1), w, 1, "VALID", 2).transpose(0, 3, 1, 2), diff=(0, 1),
           dtypes=(np.float32,), fd=False),
    OpSpec("convolution[1-d]", lambda tf, x, w: tf.nn.convolution(x, w, padding="SAME"),
           _conv_in((2, 7, 2), (3, 2, 3)), ("Conv2D", "ExpandDims", "Squeeze"),
           lambda x, w: _ref_conv(x[:, None], w[None], 1, ((0, 0), (1, 1)))[:, 0], diff=(0, 1)),
    OpSpec("image.resize[bilinear,up]", lambda tf, x: tf.image.resize(x, (6, 7)), _inputs(rand((2, 3, 4, 2))),
           ("ResizeBilinear",), lambda x: _ref_bilinear(x, 6, 7), dtypes=(np.float32,), fd=False,
           notes="ResizeBilinear computes in float32 whatever the input (float64 in, float32 out), so no float64 "
                 "finite differences; its gradient (ResizeBilinearGrad) is checked against TF"),
    OpSpec("image.resize backprop'", _vjp(lambda tf, x: tf.image.resize(x, (5, 3)), n_params=1),
           _inputs(rand((1, 3, 4, 2)), rand((1, 5, 3, 2))), ("ResizeBilinear", "ResizeBilinearGrad"),
           lambda x, g: _ref_bilinear_vjp(x, g), diff=(), dtypes=(np.float32,), fd=False,
           notes="the upstream gradient spread over each output pixel's four input pixels; ResizeBilinearGrad "
                 "is not differentiable (TF's NotDifferentiable)"),
    OpSpec("image.resize[bilinear,down,3-d]", lambda tf, x: tf.image.resize(x, (2, 3)), _inputs(rand((5, 4, 3))),
           ("ResizeBilinear", "ExpandDims", "Squeeze"), lambda x: _ref_bilinear(x[None], 2, 3)[0],
           dtypes=(np.float32,), fd=False),
    OpSpec("convolution[1-d,NCW]", lambda tf, x, w: tf.nn.convolution(x, w, padding="SAME", data_format="NCW"),
           _conv_in((2, 2, 7), (3, 2, 3)), ("Conv2D", "ExpandDims", "Squeeze", "Transpose"),
           lambda x, w: _ref_conv(x.transpose(0, 2, 1)[:, None], w[None], 1, ((0, 0), (1, 1)))[:, 0].transpose(0, 2, 1),
           diff=(0, 1), dtypes=(np.float32,), fd=False,
           notes="TF runs NCW as an NCHW Conv2D (oneDNN: float32/float16/bfloat16; float64 raises), so no float64 "
                 "finite differences; gradients checked against TF"),
    OpSpec("conv1d[SAME,stride 2]", lambda tf, x, w: tf.nn.conv1d(x, w, 2, "SAME"),
           _conv_in((2, 7, 2), (3, 2, 3)), ("Conv2D", "ExpandDims", "Squeeze"),
           lambda x, w: _ref_conv(x[:, None], w[None], 2, ((0, 0), _same_pads(7, 3, 2)))[:, 0], diff=(0, 1)),
    OpSpec("conv1d[VALID,dilations=2]", lambda tf, x, w: tf.nn.conv1d(x, w, 1, "VALID", dilations=2),
           _conv_in((1, 8, 3), (2, 3, 2)), ("Conv2D", "ExpandDims", "Squeeze"),
           lambda x, w: _ref_conv(x[:, None], w[None], 1, "VALID", 2)[:, 0], diff=(0, 1),
           dtypes=(np.float32,), fd=False,
           notes="TF 2.21's float64 Conv2D backprops refuse a dilation rate above 1 (nn.conv-dilation), so no "
                 "float64 finite differences; gradients are checked against TF"),
    OpSpec("separable_conv2d[SAME]",
           lambda tf, x, d, p: tf.nn.separable_conv2d(x, d, p, [1, 1, 1, 1], "SAME"),
           _conv_in((2, 5, 5, 2), (3, 3, 2, 2), (1, 1, 4, 3)), ("DepthwiseConv2dNative", "Conv2D"),
           lambda x, d, p: _ref_conv(_ref_depthwise(x, d, 1, "SAME"), p), diff=(0, 1, 2)),
    OpSpec("separable_conv2d[VALID,stride 2]",
           lambda tf, x, d, p: tf.nn.separable_conv2d(x, d, p, [1, 2, 2, 1], "VALID"),
           _conv_in((1, 6, 7, 3), (2, 2, 3, 1), (1, 1, 3, 2)), ("DepthwiseConv2dNative", "Conv2D"),
           lambda x, d, p: _ref_conv(_ref_depthwise(x, d, 2, "VALID"), p), diff=(0, 1, 2)),
    OpSpec("conv2d backprop input'", _vjp(lambda tf, x, w: tf.nn.conv2d(x, w, 2, "SAME"), n_params=2),
           _conv_in((1, 5, 5, 2), (3, 3, 2, 3), (1, 3, 3, 3)), ("Conv2D", "Conv2DBackpropInput"),
           lambda x, w, g: _conv_vjp_x(x, w, g, 2, "SAME"), diff=(1, 2)),
    OpSpec("conv2d backprop filter'", _vjp_wrt(lambda tf, x, w: tf.nn.conv2d(x, w, 1, "VALID", dilations=2), 1),
           _conv_in((1, 6, 6, 2), (2, 2, 2, 3), (1, 4, 4, 3)), ("Conv2D", "Conv2DBackpropFilter"),
           lambda x, w, g: _conv_vjp_w(x, w, g, 1, "VALID", 2), diff=(0, 2),
           dtypes=(np.float32,), fd=False,
           notes="TF 2.21's float64 Conv2D backprops refuse a dilation rate above 1 (nn.conv-dilation), so no "
                 "float64 finite differences; gradients are checked against TF"),
    OpSpec("depthwise_conv2d", lambda tf, x, w: tf.nn.depthwise_conv2d(x, w, [1, 1, 1, 1], "SAME"),
           _conv_in((2, 5, 5, 3), (3, 3, 3, 2)), ("DepthwiseConv2dNative",),
           lambda x, w: _ref_depthwise(x, w, 1, "SAME"), diff=(0, 1)),
    OpSpec("depthwise_conv2d[stride 2]", lambda tf, x, w: tf.nn.depthwise_conv2d(x, w, [1, 2, 2, 1], "VALID"),
           _conv_in((1, 6, 6, 2), (2, 2, 2, 1)), ("DepthwiseConv2dNative",),
           lambda x, w: _ref_depthwise(x, w, 2, "VALID"), diff=(0, 1)),
    OpSpec("depthwise backprop input'",
           _vjp(lambda tf, x, w: tf.nn.depthwise_conv2d(x, w, [1, 1, 1, 1], "SAME"), n_params=2),
           _conv_in((1, 4, 4, 2), (3, 3, 2, 2), (1, 4, 4, 4)),
           ("DepthwiseConv2dNative", "DepthwiseConv2dNativeBackpropInput"), None, diff=(1, 2)),
    OpSpec("depthwise backprop filter'",
           _vjp_wrt(lambda tf, x, w: tf.nn.depthwise_conv2d(x, w, [1, 1, 1, 1], "VALID"), 1),
           _conv_in((1, 4, 4, 2), (2, 2, 2, 2), (1, 3, 3, 4)),
           ("DepthwiseConv2dNative", "DepthwiseConv2dNativeBackpropFilter"), None, diff=(0, 2)),
    # pooling
    OpSpec("max_pool2d[VALID]", lambda tf, x: tf.nn.max_pool2d(x, 2, 2, "VALID"), _inputs(_pool_x((2, 4, 5, 2))),
           ("MaxPool",), lambda x: _ref_pool(x, 2, 2, "VALID", "max")),
    OpSpec("max_pool2d[SAME,3x3,stride 2]", lambda tf, x: tf.nn.max_pool2d(x, 3, 2, "SAME"),
           _inputs(_pool_x((1, 5, 6, 2))), ("MaxPool",), lambda x: _ref_pool(x, 3, 2, "SAME", "max")),
    OpSpec("max_pool[1-d]", lambda tf, x: tf.nn.max_pool(x, 2, 2, "VALID"), _inputs(_pool_x((2, 6, 2))),
           ("MaxPool", "ExpandDims", "Squeeze"), lambda x: x.reshape(2, 3, 2, 2).max(axis=2)),
    OpSpec("max_pool2d'", _vjp(lambda tf, x: tf.nn.max_pool2d(x, 3, 1, "SAME")),
           _inputs(_pool_x((1, 4, 4, 2)), rand((1, 4, 4, 2))), ("MaxPool", "MaxPoolGrad"),
           lambda x, g: _ref_max_pool_grad(x, g, 3, 1, "SAME"), diff=(1,)),
    OpSpec("max_pool2d''", lambda tf, x, g, h: _vjp(lambda tf2, gg: _vjp(lambda tf3, xx: tf3.nn.max_pool2d(
        xx, 2, 2, "VALID"))(tf2, x, gg))(tf, g, h),
           _inputs(_pool_x((1, 4, 4, 1)), rand((1, 2, 2, 1)), rand((1, 4, 4, 1))),
           ("MaxPool", "MaxPoolGrad", "MaxPoolGradGrad"), None, diff=(2,),
           notes="third order: MaxPoolGradGrad's value and its gradient (MaxPoolGrad)"),
    OpSpec("avg_pool2d[SAME,3x3,stride 2]", lambda tf, x: tf.nn.avg_pool2d(x, 3, 2, "SAME"),
           _inputs(rand((2, 5, 6, 2))), ("AvgPool",), lambda x: _ref_pool(x, 3, 2, "SAME", "avg")),
    OpSpec("avg_pool[VALID]", lambda tf, x: tf.nn.avg_pool(x, [2, 3], [1, 2], "VALID"), _inputs(rand((1, 4, 7, 3))),
           ("AvgPool",), lambda x: np.stack([np.stack([x[:, i:i + 2, j * 2:j * 2 + 3].mean((1, 2))
                                                       for j in range(3)], 1) for i in range(3)], 1)),
    OpSpec("avg_pool2d'", _vjp(lambda tf, x: tf.nn.avg_pool2d(x, 2, 2, "SAME")),
           _inputs(rand((1, 5, 5, 2)), rand((1, 3, 3, 2))), ("AvgPool", "AvgPoolGrad"), None, diff=(1,)),
    # normalization
    OpSpec("moments[mean]", lambda tf, x: tf.nn.moments(x, [0, 1])[0], _inputs(rand((3, 2, 4))), ("Mean",),
           lambda x: x.mean(axis=(0, 1))),
    OpSpec("moments[variance]", lambda tf, x: tf.nn.moments(x, [0])[1], _inputs(rand((4, 3))),
           ("Mean", "SquaredDifference", "StopGradient", "Squeeze"), lambda x: x.var(axis=0)),
    OpSpec("moments[variance,keepdims]", lambda tf, x: tf.nn.moments(x, [1], keepdims=True)[1],
           _inputs(rand((2, 5))), ("Mean", "SquaredDifference"), lambda x: x.var(axis=1, keepdims=True)),
    OpSpec("batch_normalization", lambda tf, x, m, v, o, s: tf.nn.batch_normalization(x, m, v, o, s, 1e-3),
           _inputs(rand((4, 3)), rand((3,)), rand((3,), 0.5, 2.0), rand((3,)), rand((3,))),
           ("Rsqrt", "Mul", "Sub", "AddV2"),
           lambda x, m, v, o, s: (x - m) * s / np.sqrt(v + 1e-3) + o, diff=(0, 1, 2, 3, 4)),
    OpSpec("l2_normalize[axis=1]", lambda tf, x: tf.nn.l2_normalize(x, axis=1), _inputs(rand((3, 4), 0.2, 2.0)),
           ("Maximum", "Rsqrt", "Mul"), lambda x: x / np.sqrt((x ** 2).sum(1, keepdims=True))),
    OpSpec("math.l2_normalize[all]", lambda tf, x: tf.math.l2_normalize(x), _inputs(rand((2, 3), 0.2, 2.0)),
           ("Maximum",), lambda x: x / np.sqrt((x ** 2).sum())),
    # embedding lookups
    OpSpec("embedding_lookup", lambda tf, p, i: tf.nn.embedding_lookup(p, i),
           lambda rng, dt: [rand((5, 3))(rng, dt), np.array([[4, 0], [4, 2]], np.int32)], ("GatherV2",),
           lambda p, i: p[i]),
    OpSpec("embedding_lookup[max_norm]", lambda tf, p, i: tf.nn.embedding_lookup(p, i, max_norm=1.0),
           lambda rng, dt: [_rows_with_norms(rng, (0.5, 2.0, 0.7, 1.6, 3.0), 3, dt), np.array([1, 3, 1], np.int32)],
           ("GatherV2", "Maximum", "SelectV2", "Sqrt"),
           lambda p, i: p[i] / np.maximum(np.sqrt((p[i] ** 2).sum(1, keepdims=True)), 1.0)),
]


def _conv_vjp_x(x: np.ndarray, w: np.ndarray, g: np.ndarray, s: int, pad: str) -> np.ndarray:
    """d sum(conv(x, w) * g) / dx, by the definition: perturb each input element (the
    convolution is linear in x, so unit perturbations give the exact adjoint)."""
    out = np.zeros(x.shape)
    for idx in np.ndindex(x.shape):
        e = np.zeros(x.shape)
        e[idx] = 1
        out[idx] = (_ref_conv(e, w, s, pad) * g).sum()
    return out


def _conv_vjp_w(x: np.ndarray, w: np.ndarray, g: np.ndarray, s: int, pad: str, d: int) -> np.ndarray:
    out = np.zeros(w.shape)
    for idx in np.ndindex(w.shape):
        e = np.zeros(w.shape)
        e[idx] = 1
        out[idx] = (_ref_conv(x, e, s, pad, d) * g).sum()
    return out


# Registry op types no spec exercises, with the reason (the coverage test checks this list).
UNTESTED_OPS: dict[str, str] = {
    "SoftsignGrad": "TF 2.21 has no gradient for SoftsignGrad (a second derivative is LookupError there, as "
                    "in simdist: tests/ops/test_fz25a_edges_tf.py::test_softsign_grad_has_no_gradient); its "
                    "value is checked by softsign's gradient specs",
}
