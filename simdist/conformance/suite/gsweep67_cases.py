"""Gradient arithmetic order, crossed by rule (sixty-seventh session, gsweep67; test_gsweep67.py).

What is crossed (batch 91's survivor reduce-mean-grad-times-reciprocal: the suite never fed counts where g / n and
g · (1/n) differ in the last bit): every registered gradient whose float formula a contributor could write in another
order with the same math — reduce_mean over axes of counts 3, 5, 6, 7, 10 and their products (keepdims too),
reduce_std/variance, moments, l2_normalize, softmax/log_softmax, sigmoid, tanh, sqrt, rsqrt, reciprocal, log1p, erf,
exp/log/expm1, softplus, atan/asin, div (both operands, broadcast), pow, squared_difference, xlogy, xdivy, atan2;
the cross entropies, l2_loss, fused batch norm, tf.nn.batch_normalization, Keras LayerNormalization/
BatchNormalization; strategies' reduce(MEAN) under a tape; Keras losses' sum_over_batch_size by batch size; Keras
optimizers' update formulas over three steps — × float16/bfloat16/float32/float64 × two seeded inputs of ~64
elements at different scales × eager and tf.function.

Each gradient case observes the gradients of sum(f(x…) · w) for a seeded random weight w (so the upstream gradient
is a random tensor, not ones) as the hex of each element, or "raised <class>". Every program is host-dependent
(`g-`: the kernels' packet paths). `python -m simdist.conformance.suite.test_gsweep67 --record` rewrites
gsweep67_reference.json.gz. OPEN lists simdist's disagreements with TF 2.21 left out of the comparison."""

from __future__ import annotations

import os
from typing import Any, Callable

import numpy as np

from simdist.conformance.suite.open_cases import registrar
from simdist.conformance.suite.portable import log_uniform
from simdist.conformance.suite.recorded_programs import (RecordedPrograms, avx512_with_onednn, bits, error,
                                                         reference_cpu, rng)

PATH = os.path.join(os.path.dirname(__file__), "gsweep67_reference.json.gz")

REF = RecordedPrograms(PATH, host_dependent=("g-",), recording_host=avx512_with_onednn, recording_cpu=reference_cpu)

#: simdist's disagreements with TF 2.21 left out of the comparison: program -> case keys (docs/conformance.md,
#: "Sixty-seventh session ... gsweep67").
#: Left: the traced gradient of x in pow(x, y) with y broadcast ((6, 7) and (1, 7)) and of the logits in
#: weighted_cross_entropy_with_logits, float32/float64 — TF's Grappler (MinimizeBroadcasts over the gradient's Mul
#: chains) orders the products one way, simdist's model another; eagerly both agree.
OPEN: dict[str, tuple[str, ...]] = {
    "g-binary": tuple(f"pow broadcast {dt} s{s} traced" for dt in ("float16", "float32", "float64") for s in (0, 1)),
    "g-nn": tuple(f"weighted_cross_entropy_with_logits {dt} s{s} traced" for dt in ("float32", "float64")
                  for s in (0, 1)),
}

program = registrar(REF, OPEN)

DTYPES = ("float16", "bfloat16", "float32", "float64")
Fn = Callable[..., Any]


def _inputs(name: str, shapes: tuple[tuple[int, ...], ...], lo: float, hi: float) -> list[np.ndarray]:
    """Seeded inputs of `shapes` in [lo, hi) times a seeded scale 10**[-1, 1) (the last bits show on some inputs
    only)."""
    r = rng(name)
    return [r.uniform(lo, hi, s) * log_uniform(r, -1, 1, None) if lo < 0 else r.uniform(lo, hi, s) for s in shapes]


def _weight(tf: Any, name: str, y: Any) -> Any:
    """A seeded random weight of y's static shape and dtype: the upstream gradient of sum(y · w) is w."""
    return tf.cast(tf.constant(rng("w" + name).uniform(-2, 2, y.shape.as_list())), y.dtype)


def grads(tf: Any, name: str, f: Fn, xs: list[np.ndarray], dt: str, traced: bool) -> Any:
    """The gradients of sum(f(*xs) · w) with respect to each x (cast to dt), eagerly or in a tf.function."""
    ts = [tf.cast(tf.constant(a), dt) for a in xs]

    def run(*ts: Any) -> Any:
        with tf.GradientTape() as tape:
            for t in ts:
                tape.watch(t)
            ys = tf.nest.flatten(f(tf, *ts))
            s = tf.add_n([tf.reduce_sum(y * _weight(tf, f"{name}{i}", y)) for i, y in enumerate(ys)])
        return tape.gradient(s, list(ts))
    if traced:
        run = tf.function(run, autograph=False)

    def obs() -> Any:
        return [None if g is None else bits(tf.convert_to_tensor(g)) for g in run(*ts)]
    return error(obs)


#: program -> [(key, f(tf, *xs), input shapes, lo, hi, dtypes)]
CASES: dict[str, list[tuple[str, Fn, tuple[tuple[int, ...], ...], float, float, tuple[str, ...]]]] = {}


def case(prog: str, key: str, f: Fn, shapes: tuple[tuple[int, ...], ...], lo: float = -2.0, hi: float = 2.0,
         dtypes: tuple[str, ...] = DTYPES) -> None:
    CASES.setdefault(prog, []).append((key, f, shapes, lo, hi, dtypes))


def run_grad_program(prog: str, tf: Any) -> dict[str, Any]:
    """Every case of `prog` × dtype × two seeds × eager/traced, by key."""
    out: dict[str, Any] = {}
    for key, f, shapes, lo, hi, dts in CASES[prog]:
        for dt in dts:
            for seed in (0, 1):
                xs = _inputs(f"{prog}/{key}/{seed}", shapes, lo, hi)
                for traced in (False, True):
                    k = f"{key} {dt} s{seed} {'traced' if traced else 'eager'}"
                    out[k] = grads(tf, k, f, xs, dt, traced)
    return out


# -- g-reduce: means, variances, moments, norms over counts 3, 5, 6, 7, 10 and their products ------------------------
for _shape, _axes in (((3, 5, 4), (0, 1, (0, 1), None)), ((6, 7), (0, 1, None)), ((10, 6), (0, -1))):
    for _a in _axes:
        _s = "x".join(map(str, _shape))
        case("g-reduce", f"reduce_mean {_s} axis={_a}", lambda tf, x, a=_a: tf.reduce_mean(x, axis=a), (_shape,))
        case("g-reduce", f"reduce_mean {_s} axis={_a} keepdims", lambda tf, x, a=_a: tf.reduce_mean(
            x, axis=a, keepdims=True), (_shape,), dtypes=("float16", "float32"))
        case("g-reduce", f"reduce_variance {_s} axis={_a}", lambda tf, x, a=_a: tf.math.reduce_variance(x, axis=a),
             (_shape,))
        case("g-reduce", f"reduce_std {_s} axis={_a}", lambda tf, x, a=_a: tf.math.reduce_std(x, axis=a), (_shape,),
             dtypes=("float32", "float64"))
        if _a is not None:
            case("g-reduce", f"moments {_s} axis={_a}", lambda tf, x, a=_a: tf.nn.moments(
                x, axes=list(a) if isinstance(a, tuple) else [a]), (_shape,))
            case("g-reduce", f"l2_normalize {_s} axis={_a}", lambda tf, x, a=_a: tf.math.l2_normalize(x, axis=a),
                 (_shape,))
            case("g-reduce", f"reduce_euclidean_norm {_s} axis={_a}",
                 lambda tf, x, a=_a: tf.math.reduce_euclidean_norm(x, axis=a), (_shape,),
                 dtypes=("float32", "float64"))
for _shape in ((8, 8), (6, 10)):
    _s = "x".join(map(str, _shape))
    case("g-reduce", f"softmax {_s}", lambda tf, x: tf.nn.softmax(x), (_shape,))
    case("g-reduce", f"log_softmax {_s}", lambda tf, x: tf.nn.log_softmax(x), (_shape,))
    case("g-reduce", f"softmax {_s} axis=0", lambda tf, x: tf.nn.softmax(x, axis=0), (_shape,),
         dtypes=("float32", "float64"))
    case("g-reduce", f"reduce_logsumexp {_s}", lambda tf, x: tf.reduce_logsumexp(x, axis=-1), (_shape,),
         dtypes=("float32", "float64"))

# -- g-unary: elementwise gradients with a formula of several steps ---------------------------------------------------
_U: tuple[tuple[str, Fn, float, float], ...] = (
    ("sigmoid", lambda tf, x: tf.sigmoid(x), -4, 4), ("tanh", lambda tf, x: tf.tanh(x), -3, 3),
    ("sqrt", lambda tf, x: tf.sqrt(x), 0.01, 9), ("rsqrt", lambda tf, x: tf.math.rsqrt(x), 0.01, 9),
    ("reciprocal", lambda tf, x: tf.math.reciprocal(x), 0.1, 7), ("log1p", lambda tf, x: tf.math.log1p(x), -0.9, 5),
    ("erf", lambda tf, x: tf.math.erf(x), -2, 2), ("exp", lambda tf, x: tf.exp(x), -3, 3),
    ("log", lambda tf, x: tf.math.log(x), 0.05, 9), ("expm1", lambda tf, x: tf.math.expm1(x), -3, 3),
    ("softplus", lambda tf, x: tf.nn.softplus(x), -4, 4), ("atan", lambda tf, x: tf.atan(x), -3, 3),
    ("asin", lambda tf, x: tf.asin(x), -0.95, 0.95), ("softsign", lambda tf, x: tf.nn.softsign(x), -4, 4),
    ("elu", lambda tf, x: tf.nn.elu(x), -3, 3), ("selu", lambda tf, x: tf.nn.selu(x), -3, 3),
    ("silu", lambda tf, x: tf.nn.silu(x), -4, 4), ("square", lambda tf, x: tf.square(x), -3, 3),
    ("truediv-by-7", lambda tf, x: x / 7.0, -3, 3), ("mul-by-0.1", lambda tf, x: x * 0.1, -3, 3),
)
for _n, _f, _lo, _hi in _U:
    case("g-unary", _n, _f, ((64,),), _lo, _hi)
case("g-unary", "gelu", lambda tf, x: tf.nn.gelu(x), ((64,),), -3, 3, ("float32", "float64"))
case("g-unary", "gelu approximate", lambda tf, x: tf.nn.gelu(x, approximate=True), ((64,),), -3, 3,
     ("float32", "float64"))

# -- g-binary: two-operand gradients (same shapes and a broadcast operand) --------------------------------------------
_B: tuple[tuple[str, Fn, float, float], ...] = (
    ("div", lambda tf, x, y: x / (tf.abs(y) + 0.5), -3, 3),
    ("divide_no_nan", lambda tf, x, y: tf.math.divide_no_nan(x, y), -3, 3),
    ("pow", lambda tf, x, y: tf.pow(tf.abs(x) + 0.25, y), -2, 2),
    ("squared_difference", lambda tf, x, y: tf.math.squared_difference(x, y), -3, 3),
    ("xlogy", lambda tf, x, y: tf.math.xlogy(x, tf.abs(y) + 0.1), -3, 3),
    ("xdivy", lambda tf, x, y: tf.math.xdivy(x, tf.abs(y) + 0.1), -3, 3),
    ("atan2", lambda tf, x, y: tf.atan2(x, y), -3, 3),
)
for _n, _f, _lo, _hi in _B:
    case("g-binary", _n, _f, ((8, 8), (8, 8)), _lo, _hi)
    case("g-binary", f"{_n} broadcast", _f, ((6, 7), (1, 7)), _lo, _hi, ("float16", "float32", "float64"))

# -- g-nn: cross entropies, l2_loss, batch norms, Keras normalization layers ------------------------------------------


def _soft_labels(tf: Any, z: Any) -> Any:
    return tf.nn.softmax(z * 0.7 + 0.1)


_NN: tuple[tuple[str, Fn, tuple[tuple[int, ...], ...], tuple[str, ...]], ...] = (
    ("softmax_cross_entropy_with_logits", lambda tf, x, z: tf.nn.softmax_cross_entropy_with_logits(
        labels=_soft_labels(tf, z), logits=x), ((6, 10), (6, 10)), ("float16", "float32", "float64")),
    ("sparse_softmax_cross_entropy_with_logits", lambda tf, x: tf.nn.sparse_softmax_cross_entropy_with_logits(
        labels=tf.constant([3, 0, 9, 5, 7, 1, 2]), logits=x), ((7, 10),), ("float16", "float32", "float64")),
    ("sigmoid_cross_entropy_with_logits", lambda tf, x, z: tf.nn.sigmoid_cross_entropy_with_logits(
        labels=tf.sigmoid(z), logits=x), ((8, 8), (8, 8)), DTYPES),
    ("weighted_cross_entropy_with_logits", lambda tf, x, z: tf.nn.weighted_cross_entropy_with_logits(
        labels=tf.sigmoid(z), logits=x, pos_weight=1.7), ((8, 8), (8, 8)), ("float32", "float64")),
    ("l2_loss", lambda tf, x: tf.nn.l2_loss(x), ((7, 9),), DTYPES),
    ("log_poisson_loss", lambda tf, x, z: tf.nn.log_poisson_loss(tf.abs(z), x), ((8, 8), (8, 8)),
     ("float32", "float64")),
    ("batch_normalization", lambda tf, x, m, v: tf.nn.batch_normalization(
        x, m, tf.abs(v) + 0.1, 0.3, 1.7, 1e-3), ((6, 5), (5,), (5,)), ("float32", "float64")),
    ("fused_batch_norm training", lambda tf, x, g, b: tf.compat.v1.nn.fused_batch_norm(
        x, g, b, epsilon=1e-3, is_training=True)[0], ((3, 2, 5, 6), (6,), (6,)), ("float32",)),
    ("fused_batch_norm inference", lambda tf, x, g, b: tf.compat.v1.nn.fused_batch_norm(
        x, g, b, mean=tf.constant([0.1, -0.2, 0.3, 0.0, 0.5, -0.1]),
        variance=tf.constant([1.0, 0.7, 2.0, 0.3, 1.3, 0.9]), epsilon=1e-3, is_training=False)[0],
     ((3, 2, 5, 6), (6,), (6,)), ("float32",)),
)
for _n, _f, _shapes, _dts in _NN:
    case("g-nn", _n, _f, _shapes, dtypes=_dts)


def _keras_layers(tf: Any) -> dict[str, Any]:
    """LayerNormalization/BatchNormalization (training) of float32/float64 inputs: output and input gradients."""
    out: dict[str, Any] = {}
    for cls, kw, shape in (("LayerNormalization", {}, (6, 10)), ("LayerNormalization", {"axis": [1, 2]}, (3, 5, 7)),
                           ("BatchNormalization", {}, (7, 5)), ("BatchNormalization", {"axis": 1}, (6, 3, 5))):
        for dt in ("float32", "float64"):
            for seed in (0, 1):
                x = tf.cast(tf.constant(_inputs(f"keras/{cls}/{kw}/{seed}", (shape,), -2, 2)[0]), dt)
                layer = getattr(tf.keras.layers, cls)(dtype=dt, **kw)
                key = f"{cls} {kw} {dt} s{seed}"

                def obs(layer: Any = layer, x: Any = x, key: str = key) -> Any:
                    with tf.GradientTape() as tape:
                        tape.watch(x)
                        y = layer(x, training=True)
                        s = tf.reduce_sum(y * _weight(tf, key, y))
                    gs = tape.gradient(s, [x] + list(layer.trainable_variables))
                    return [bits(y)] + [bits(tf.convert_to_tensor(g)) for g in gs]
                out[key] = error(obs)
    return out


# -- g-strategy: reduce(MEAN) under a tape (the default strategy and MirroredStrategy) -------------------------------
def _strategy(tf: Any, mk: Any) -> dict[str, Any]:
    """The default strategy's reduce(MEAN, x, axis) over counts 3, 5, 6, 7, 10 under a tape (its gradient), and
    MirroredStrategy's reduce(MEAN/SUM) of per-replica gradients computed in strategy.run."""
    out: dict[str, Any] = {}
    ds = tf.distribute.get_strategy()
    for n in (3, 5, 6, 7, 10):
        for dt in ("float16", "float32", "float64"):
            x = tf.cast(tf.constant(_inputs(f"strat/{n}", ((n, 9),), -3, 3)[0]), dt)
            key = f"default reduce MEAN axis=0 n={n} {dt}"

            def obs(x: Any = x, key: str = key) -> Any:
                with tf.GradientTape() as tape:
                    tape.watch(x)
                    y = ds.reduce(tf.distribute.ReduceOp.MEAN, x, axis=0)
                    s = tf.reduce_sum(y * _weight(tf, key, y))
                return [bits(y), bits(tape.gradient(s, x))]
            out[key] = error(obs)
    s = mk()
    for dt in ("float32", "float64"):
        w = tf.Variable(tf.cast(tf.constant(_inputs(f"mir/w/{dt}", ((7,),), -2, 2)[0]), dt))
        data = [tf.cast(tf.constant(a), dt) for a in _inputs(f"mir/x/{dt}", ((5, 7), (5, 7)), -2, 2)]

        def step(dt: str = dt, w: Any = w, data: Any = data) -> Any:
            ctx = tf.distribute.get_replica_context()
            x = tf.gather(tf.stack(data), ctx.replica_id_in_sync_group)
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean(tf.square(x * w - 0.3)) / 3.0
            return tape.gradient(loss, w)
        for traced in (False, True):
            fn = tf.function(lambda: s.run(step)) if traced else (lambda: s.run(step))
            key = f"mirrored {dt} {'traced' if traced else 'eager'}"

            def obs2(fn: Any = fn) -> Any:
                pr = fn()
                return [bits(s.reduce(tf.distribute.ReduceOp.MEAN, pr, axis=None)),
                        bits(s.reduce(tf.distribute.ReduceOp.SUM, pr, axis=None)),
                        bits(s.reduce(tf.distribute.ReduceOp.MEAN, pr, axis=0))]
            out[key] = error(obs2)
    return out


# -- g-keras: losses' sum_over_batch_size by batch size; optimizers' update formulas --------------------------------
_LOSSES = ("MeanSquaredError", "MeanAbsoluteError", "CategoricalCrossentropy", "BinaryCrossentropy", "Huber",
           "LogCosh", "KLDivergence", "MeanSquaredLogarithmicError", "Poisson", "CosineSimilarity")


def _keras_losses(tf: Any) -> dict[str, Any]:
    """Each loss with reduction sum_over_batch_size (and "sum", "mean") over batch sizes 3, 5, 6, 7, 10 of float32
    (and float64) predictions: the value and its gradient with respect to y_pred."""
    out: dict[str, Any] = {}
    for name in _LOSSES:
        for n in (3, 5, 6, 7, 10):
            yt0, yp0 = _inputs(f"loss/{name}/{n}", ((n, 6), (n, 6)), 0.05, 0.95)
            yt0 = yt0 / yt0.sum(-1, keepdims=True) if "Categorical" in name or "KL" in name else yt0
            for red in (("sum_over_batch_size", "sum", "mean") if n in (6, 7) else ("sum_over_batch_size",)):
                for dt in (("float32", "float64") if n == 7 else ("float32",)):
                    key = f"{name} n={n} {red} {dt}"

                    def obs(name: str = name, red: str = red, dt: str = dt, yt0: Any = yt0, yp0: Any = yp0) -> Any:
                        loss = getattr(tf.keras.losses, name)(reduction=red, dtype=dt)
                        yt, yp = tf.cast(tf.constant(yt0), dt), tf.cast(tf.constant(yp0), dt)
                        with tf.GradientTape() as tape:
                            tape.watch(yp)
                            v = loss(yt, yp)
                        return [bits(v), bits(tape.gradient(v, yp))]
                    out[key] = error(obs)
    return out


_OPTS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("Adam", {}), ("Adam", {"amsgrad": True}), ("AdamW", {"weight_decay": 0.03}), ("RMSprop", {}),
    ("RMSprop", {"momentum": 0.3, "centered": True}), ("Adagrad", {}), ("Nadam", {}), ("Adamax", {}),
    ("Adadelta", {"learning_rate": 0.7}), ("Ftrl", {"l1_regularization_strength": 0.01}), ("Lion", {}),
    ("SGD", {"momentum": 0.9, "nesterov": True}), ("SGD", {"momentum": 0.7}), ("Adam", {"weight_decay": 0.01}),
)


def _keras_optimizers(tf: Any) -> dict[str, Any]:
    """Three steps of each optimizer (learning rates 0.1 and 0.003) on a float32 variable of 64 random values with
    random gradients at two scales: the variable's bits after each step."""
    out: dict[str, Any] = {}
    for name, kw in _OPTS:
        for lr in (0.1, 0.003):
            for dt in ("float32", "float64") if lr == 0.1 else ("float32",):
                key = f"{name} {sorted(kw.items())} lr={lr} {dt}"
                w0, *gs = _inputs(f"opt/{key}", ((64,),) * 4, -2, 2)

                def obs(name: str = name, kw: Any = kw, lr: float = lr, dt: str = dt, w0: Any = w0,
                        gs: Any = gs) -> Any:
                    opt = getattr(tf.keras.optimizers, name)(**{"learning_rate": lr, **kw})
                    v = tf.Variable(tf.cast(tf.constant(w0), dt))
                    seen = []
                    for g in gs:
                        opt.apply_gradients([(tf.cast(tf.constant(g), dt), v)])
                        seen.append(bits(v))
                    return seen
                out[key] = error(obs)
    return out


program("g-reduce", lambda tf, mk: run_grad_program("g-reduce", tf))
program("g-unary", lambda tf, mk: run_grad_program("g-unary", tf))
program("g-binary", lambda tf, mk: run_grad_program("g-binary", tf))
program("g-nn", lambda tf, mk: run_grad_program("g-nn", tf))
program("g-keras-layers", lambda tf, mk: _keras_layers(tf))
program("g-strategy", _strategy)
program("g-keras-losses", lambda tf, mk: _keras_losses(tf))
program("g-keras-optimizers", lambda tf, mk: _keras_optimizers(tf))
