"""harden20: the targets whose edges harden20_edges derives, and the programs that run them.

A target is a path on the tf module (``tf.keras.activations.relu``), the non-default options it is
built or called with (whose numbers are thresholds too), and a kind saying how its edges become
inputs (:func:`derive_edges`) and what is observed (:func:`observe`):

- ``elementwise``: the edge groups (each threshold and one ulp either side, epsilon magnitudes,
  halves) as one float32 vector: the output and d sum(w * out) / dx per group;
- ``normalize``: rows (or, for BatchNormalization and Normalization, columns) of a fixed direction
  scaled to the epsilon magnitudes, and one row at 1: output, gradient, and a stateful layer's
  weights after three training calls;
- ``axis``: a (2, 3, 4) input with two axes of equal length, so that a wrong default axis or an axis
  per input shows; Dot over every valid axis pair of inputs of ranks 3 and 2, normalized or not;
- ``trained``: a layer whose weights start at a constant (ones, zeros) that hides where they act, built with
  the options that make those weights, every weight moved to seeded values off it: output and gradients;
- ``loss``: y_pred at the edges of its kind (probabilities at eps and 1 - eps with their ulps,
  regression errors at each threshold): per-sample values (reduction=None) and d loss / d y_pred;
- ``metric``: y_pred at each threshold and one ulp either side: result() after each of three
  update_state calls (the last with sample weights);
- ``optimizer``: gradients at the epsilon magnitudes and thresholds (both signs): after each of three
  steps, the variable and every optimizer variable;
- ``schedule``: steps at every integer constant times 1, 2, 3 and 7 and one step either side;
- ``split``: keras.utils.split_dataset of 10 rows at fractions whose product with 10 is a half or
  beside it; each part's rows.

Every program returns plain JSON (lists, floats, strings); nothing here imports TensorFlow.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from simdist.conformance.suite import harden20_edges as edges


@dataclass(frozen=True)
class Target:
    """One class or function at one option setting."""
    name: str
    path: str
    kind: str
    kwargs: tuple[tuple[str, Any], ...] = ()
    #: Constants of TF's C++ kernels the Python source does not state (the kernel file named in `note`).
    kernel: tuple[float, ...] = ()
    note: str = ""

    def options(self) -> dict[str, Any]:
        return dict(self.kwargs)

    def option_numbers(self) -> tuple[float, ...]:
        out: list[float] = []
        for _, v in self.kwargs:
            vals = v if isinstance(v, (list, tuple)) else [v]
            out += [float(x) for x in vals if isinstance(x, (int, float)) and not isinstance(x, bool)]
        return tuple(out)


def _t(name: str, path: str, kind: str, kernel: tuple[float, ...] = (), note: str = "", **kwargs: Any) -> Target:
    return Target(name, path, kind, tuple(sorted(kwargs.items())), kernel, note)


_A, _L, _N, _O = "tf.keras.activations.", "tf.keras.layers.", "tf.nn.", "tf.keras.ops."
#: relu_op_functor.h (Relu6: clamp at 6; Selu's scale and alpha), softplus_op.h (threshold log(eps) + 2).
_RELU6, _SELU = (6.0,), (1.0507009873554805, 1.6732632423543772)
_SOFTPLUS = (float(np.log(np.finfo(np.float32).eps) + 2.0),)
_K = "tensorflow/core/kernels/relu_op_functor.h"
TARGETS: list[Target] = [
    # -- elementwise: activations, activation layers, tf.nn and keras.ops --------------------------------------
    *[_t(f"activations.{n}", _A + n, "elementwise") for n in (
        "celu", "elu", "gelu", "hard_shrink", "hard_sigmoid", "hard_silu", "hard_tanh", "leaky_relu",
        "log_sigmoid", "mish", "relu", "sigmoid", "silu", "soft_shrink", "softsign", "sparse_plus",
        "sparse_sigmoid", "squareplus", "tanh_shrink")],
    _t("activations.relu6", _A + "relu6", "elementwise", kernel=_RELU6, note=_K),
    _t("activations.selu", _A + "selu", "elementwise", kernel=_SELU, note=_K),
    _t("activations.softplus", _A + "softplus", "elementwise", kernel=_SOFTPLUS, note="softplus_op.h"),
    _t("activations.gelu(approximate)", _A + "gelu", "elementwise", approximate=True),
    _t("activations.relu(options)", _A + "relu", "elementwise", negative_slope=0.1, max_value=4.0, threshold=0.5),
    _t("activations.relu(max_value)", _A + "relu", "elementwise", max_value=6.0),
    _t("activations.threshold", _A + "threshold", "elementwise", threshold=0.5, default_value=-1.0),
    _t("activations.celu(alpha)", _A + "celu", "elementwise", alpha=0.5),
    _t("activations.elu(alpha)", _A + "elu", "elementwise", alpha=0.5),
    _t("activations.squareplus(b)", _A + "squareplus", "elementwise", b=1.0),
    _t("layers.ReLU", _L + "ReLU", "elementwise"),
    _t("layers.ReLU(options)", _L + "ReLU", "elementwise", max_value=4.0, negative_slope=0.1, threshold=0.5),
    _t("layers.LeakyReLU", _L + "LeakyReLU", "elementwise"),
    _t("layers.ELU", _L + "ELU", "elementwise"),
    _t("layers.ThresholdedReLU", _L + "ThresholdedReLU", "elementwise"),
    _t("layers.ThresholdedReLU(theta)", _L + "ThresholdedReLU", "elementwise", theta=0.5),
    *[_t(f"nn.{n}", _N + n, "elementwise") for n in ("relu", "leaky_relu", "elu", "gelu", "softsign", "silu")],
    _t("nn.relu6", _N + "relu6", "elementwise", kernel=_RELU6, note=_K),
    _t("nn.selu", _N + "selu", "elementwise", kernel=_SELU, note=_K),
    _t("nn.softplus", _N + "softplus", "elementwise", kernel=_SOFTPLUS, note="softplus_op.h"),
    _t("nn.gelu(approximate)", _N + "gelu", "elementwise", approximate=True),
    _t("nn.leaky_relu(alpha)", _N + "leaky_relu", "elementwise", alpha=0.5),
    *[_t(f"ops.{n}", _O + n, "elementwise") for n in (
        "round", "log1p", "expm1", "sign", "hard_sigmoid", "sparse_plus", "log_sigmoid", "softplus")],
    _t("ops.clip", _O + "clip", "elementwise", x_min=-0.5, x_max=0.5),
    _t("ops.round(decimals)", _O + "round", "elementwise", decimals=1),
    _t("math.round", "tf.math.round", "elementwise", kernel=(0.5,), note="cwise_ops.h (round half to even)"),
    # -- normalizations, constraints, regularizers: epsilon magnitudes -----------------------------------------
    _t("layers.LayerNormalization", _L + "LayerNormalization", "normalize"),
    _t("layers.RMSNormalization", _L + "RMSNormalization", "normalize"),
    _t("layers.UnitNormalization", _L + "UnitNormalization", "normalize"),
    _t("layers.GroupNormalization(groups)", _L + "GroupNormalization", "normalize", groups=2),
    _t("layers.BatchNormalization", _L + "BatchNormalization", "normalize"),
    _t("layers.BatchNormalization(options)", _L + "BatchNormalization", "normalize", momentum=0.5, center=False,
       epsilon=1e-5),
    _t("layers.Normalization", _L + "Normalization", "normalize"),
    _t("nn.l2_normalize", _N + "l2_normalize", "normalize", axis=-1),
    _t("nn.batch_normalization", _N + "batch_normalization", "normalize", variance_epsilon=1e-3),
    _t("nn.normalize_moments(shift)", _N + "normalize_moments", "normalize", shift=0.25),
    _t("nn.moments", _N + "moments", "normalize", axes=[1]),
    _t("ops.normalize", _O + "normalize", "normalize"),
    _t("ops.rms_normalization", _O + "rms_normalization", "normalize"),
    _t("utils.normalize", "tf.keras.utils.normalize", "normalize"),
    _t("losses.cosine_similarity", "tf.keras.losses.cosine_similarity", "normalize"),
    _t("constraints.MaxNorm", "tf.keras.constraints.MaxNorm", "normalize"),
    _t("constraints.MinMaxNorm(options)", "tf.keras.constraints.MinMaxNorm", "normalize", min_value=0.5,
       max_value=2.0, rate=0.5),
    _t("constraints.UnitNorm", "tf.keras.constraints.UnitNorm", "normalize"),
    _t("constraints.NonNeg", "tf.keras.constraints.NonNeg", "normalize"),
    _t("regularizers.OrthogonalRegularizer", "tf.keras.regularizers.OrthogonalRegularizer", "normalize",
       factor=0.5),
    # -- axes: default axes on a (2, 3, 4) input, Dot over every axis pair ------------------------------------
    *[_t("axis." + p.removeprefix("tf.").removeprefix("keras."), p, "axis") for p in (
        _A + "softmax", _A + "log_softmax", _N + "softmax", _N + "log_softmax", _O + "logsumexp",
        _O + "softmax", "tf.keras.layers.Softmax", "tf.keras.ops.normalize", "tf.keras.layers.UnitNormalization",
        "tf.keras.activations.sparsemax", "tf.keras.activations.glu")],
    _t("layers.Dot", _L + "Dot", "dot"),
    # -- trained state: weights whose constant initial value (ones, zeros) hides where they act, moved off it --
    _t("trained.Attention(concat, scale)", _L + "Attention", "trained", use_scale=True, score_mode="concat"),
    _t("trained.Attention(scale)", _L + "Attention", "trained", use_scale=True),
    _t("trained.AdditiveAttention", _L + "AdditiveAttention", "trained"),
    _t("trained.PReLU(shared_axes)", _L + "PReLU", "trained", shared_axes=[1]),
    _t("trained.LayerNormalization(axes)", _L + "LayerNormalization", "trained", axis=[1, 2]),
    _t("trained.GroupNormalization", _L + "GroupNormalization", "trained", groups=2),
    _t("trained.RMSNormalization", _L + "RMSNormalization", "trained"),
    _t("trained.BatchNormalization(options)", _L + "BatchNormalization", "trained", momentum=0.5, center=False,
       epsilon=1e-5),
    # -- losses ------------------------------------------------------------------------------------------------
    *[_t(f"losses.{n}", "tf.keras.losses." + n, "loss") for n in (
        "BinaryCrossentropy", "BinaryFocalCrossentropy", "CategoricalCrossentropy", "CategoricalFocalCrossentropy",
        "SparseCategoricalCrossentropy", "KLDivergence", "Poisson", "Huber", "LogCosh", "MeanAbsolutePercentageError",
        "MeanSquaredLogarithmicError", "CosineSimilarity", "Hinge", "SquaredHinge", "CategoricalHinge", "Dice",
        "Tversky")],
    _t("losses.BinaryCrossentropy(label_smoothing)", "tf.keras.losses.BinaryCrossentropy", "loss",
       label_smoothing=0.1),
    _t("losses.BinaryCrossentropy(from_logits)", "tf.keras.losses.BinaryCrossentropy", "loss", from_logits=True),
    _t("losses.CategoricalCrossentropy(label_smoothing)", "tf.keras.losses.CategoricalCrossentropy", "loss",
       label_smoothing=0.1),
    _t("losses.Huber(delta)", "tf.keras.losses.Huber", "loss", delta=0.5),
    _t("losses.BinaryFocalCrossentropy(options)", "tf.keras.losses.BinaryFocalCrossentropy", "loss",
       apply_class_balancing=True, alpha=0.4, gamma=1.5),
    # -- metrics -----------------------------------------------------------------------------------------------
    *[_t(f"metrics.{n}", "tf.keras.metrics." + n, "metric") for n in (
        "BinaryAccuracy", "Precision", "Recall", "TruePositives", "FalseNegatives", "BinaryIoU",
        "MeanAbsolutePercentageError", "MeanSquaredLogarithmicError", "KLDivergence", "Poisson", "CosineSimilarity",
        "LogCoshError", "Hinge", "CategoricalAccuracy", "BinaryCrossentropy", "R2Score")],
    _t("metrics.BinaryAccuracy(threshold)", "tf.keras.metrics.BinaryAccuracy", "metric", threshold=0.7),
    _t("metrics.Recall(thresholds)", "tf.keras.metrics.Recall", "metric", thresholds=[0.3, 0.7]),
    _t("metrics.Precision(top_k)", "tf.keras.metrics.Precision", "metric", top_k=2),
    _t("metrics.AUC(num_thresholds)", "tf.keras.metrics.AUC", "metric", num_thresholds=5),
    _t("metrics.AUC(PR, minoring)", "tf.keras.metrics.AUC", "metric", num_thresholds=5, curve="PR",
       summation_method="minoring"),
    _t("metrics.PrecisionAtRecall", "tf.keras.metrics.PrecisionAtRecall", "metric", recall=0.5, num_thresholds=5),
    _t("metrics.SensitivityAtSpecificity", "tf.keras.metrics.SensitivityAtSpecificity", "metric", specificity=0.5,
       num_thresholds=5),
    _t("metrics.F1Score(threshold)", "tf.keras.metrics.F1Score", "metric", threshold=0.5, average="micro"),
    _t("metrics.FBetaScore(beta)", "tf.keras.metrics.FBetaScore", "metric", beta=2.0, threshold=0.5,
       average="macro"),
    _t("metrics.TopKCategoricalAccuracy(k)", "tf.keras.metrics.TopKCategoricalAccuracy", "metric", k=2),
    _t("metrics.BinaryIoU(threshold)", "tf.keras.metrics.BinaryIoU", "metric", threshold=0.3, target_class_ids=[1]),
    # -- optimizers --------------------------------------------------------------------------------------------
    *[_t(f"optimizers.{n}", "tf.keras.optimizers." + n, "optimizer") for n in (
        "Adam", "AdamW", "Adamax", "Nadam", "Adagrad", "Adadelta", "RMSprop", "Lion", "Lamb", "Adafactor", "Ftrl")],
    _t("optimizers.Adam(amsgrad)", "tf.keras.optimizers.Adam", "optimizer", amsgrad=True, weight_decay=0.01),
    _t("optimizers.RMSprop(centered)", "tf.keras.optimizers.RMSprop", "optimizer", centered=True, momentum=0.5),
    _t("optimizers.SGD(nesterov)", "tf.keras.optimizers.SGD", "optimizer", momentum=0.9, nesterov=True),
    _t("optimizers.SGD(clipvalue)", "tf.keras.optimizers.SGD", "optimizer", clipvalue=0.5),
    _t("optimizers.SGD(clipnorm)", "tf.keras.optimizers.SGD", "optimizer", clipnorm=1.0),
    _t("optimizers.Adam(global_clipnorm)", "tf.keras.optimizers.Adam", "optimizer", global_clipnorm=1.0),
    _t("optimizers.Ftrl(l1, l2)", "tf.keras.optimizers.Ftrl", "optimizer", l1_regularization_strength=0.01,
       l2_regularization_strength=0.01, l2_shrinkage_regularization_strength=0.01),
    _t("optimizers.Adagrad(epsilon)", "tf.keras.optimizers.Adagrad", "optimizer", initial_accumulator_value=0.0,
       epsilon=1e-4),
    # -- schedules ---------------------------------------------------------------------------------------------
    _t("schedules.ExponentialDecay", "tf.keras.optimizers.schedules.ExponentialDecay", "schedule",
       initial_learning_rate=0.1, decay_steps=10, decay_rate=0.5, staircase=True),
    _t("schedules.PiecewiseConstantDecay", "tf.keras.optimizers.schedules.PiecewiseConstantDecay", "schedule",
       boundaries=[5, 10], values=[1.0, 0.5, 0.1]),
    _t("schedules.PolynomialDecay", "tf.keras.optimizers.schedules.PolynomialDecay", "schedule",
       initial_learning_rate=0.1, decay_steps=10, end_learning_rate=0.01, power=2.0, cycle=True),
    _t("schedules.InverseTimeDecay", "tf.keras.optimizers.schedules.InverseTimeDecay", "schedule",
       initial_learning_rate=0.1, decay_steps=10, decay_rate=0.5, staircase=True),
    _t("schedules.CosineDecay", "tf.keras.optimizers.schedules.CosineDecay", "schedule",
       initial_learning_rate=0.1, decay_steps=10, alpha=0.1, warmup_target=0.2, warmup_steps=5),
    _t("schedules.CosineDecayRestarts", "tf.keras.optimizers.schedules.CosineDecayRestarts", "schedule",
       initial_learning_rate=0.1, first_decay_steps=10, t_mul=2.0, m_mul=0.5, alpha=0.1),
    # -- callbacks and the progress bar: monitored values at their deltas, units at Progbar's max(steps, 1) ----
    _t("callbacks.EarlyStopping", "tf.keras.callbacks.EarlyStopping", "callback", patience=1),
    _t("callbacks.EarlyStopping(min_delta)", "tf.keras.callbacks.EarlyStopping", "callback", min_delta=0.0625,
       patience=2),
    _t("callbacks.EarlyStopping(max, baseline)", "tf.keras.callbacks.EarlyStopping", "callback", min_delta=0.0625,
       patience=1, mode="max", baseline=-0.875, monitor="val_acc"),
    _t("callbacks.ReduceLROnPlateau(options)", "tf.keras.callbacks.ReduceLROnPlateau", "callback", factor=0.5,
       patience=1, min_delta=0.0625, cooldown=1, min_lr=0.25),
    _t("callbacks.ReduceLROnPlateau(max)", "tf.keras.callbacks.ReduceLROnPlateau", "callback", factor=0.25,
       patience=0, min_delta=0.0625, min_lr=0.0625, mode="max", monitor="val_acc"),
    _t("utils.Progbar", "tf.keras.utils.Progbar", "progbar", target=12),
    # -- rounding of sizes -------------------------------------------------------------------------------------
    _t("utils.split_dataset(left_size)", "tf.keras.utils.split_dataset", "split", side="left_size"),
    _t("utils.split_dataset(right_size)", "tf.keras.utils.split_dataset", "split", side="right_size"),
]
KINDS = ("elementwise", "normalize", "axis", "dot", "trained", "loss", "metric", "optimizer", "schedule", "split", "callback",
         "progbar")
BY_NAME = {t.name: t for t in TARGETS}
assert len(BY_NAME) == len(TARGETS), "two targets share a name"
#: Rows split_dataset is given (fractions of it are rounded).
SPLIT_ROWS = 10
#: The direction every normalize row is a multiple of (mean not 0, entries distinct: a variance and a norm).
DIRECTION = [0.9, -0.4, 0.3, 1.2, -1.1, 0.5]


def targets(kind: str) -> list[Target]:
    return [t for t in TARGETS if t.kind == kind]


# -- edges: from the reference's constants (run on TF by harden20_record) --------------------------------------
def derive_edges(root: Any, target: Target) -> dict[str, Any]:
    """The constants of `target`'s source on `root` (real TF) and the edge inputs of its kind."""
    c = edges.source_constants(edges.resolve(root, target.path), extra=target.option_numbers() + target.kernel)
    out: dict[str, Any] = {"constants": c.as_dict()}
    if target.kind == "elementwise":
        out["groups"] = edges.elementwise_edges(c)
    elif target.kind == "normalize":
        out["magnitudes"] = edges.epsilon_magnitudes(c.epsilons) + [1.0]
        out["thresholds"] = [g for g in edges.threshold_edges(c.numbers, symmetric=False) if g[1] > 0]
    elif target.kind == "loss":
        out["probabilities"] = sorted({p for e in c.epsilons + [edges.KERAS_EPSILON]
                                       for p in edges.ulps(e) + edges.ulps(1 - e) + [e * 0.3, e * 3, 1 - 3 * e]}
                                      | {0.0, 0.5, 1.0})
        out["errors"] = sorted({v for g in edges.threshold_edges(c.numbers) for v in g if abs(v) <= 4}
                               | set(edges.epsilon_magnitudes(c.epsilons)))
    elif target.kind == "metric":
        out["scores"] = sorted({v for g in edges.threshold_edges(c.numbers, symmetric=False) for v in g
                                if 0 <= v <= 1} | {0.0, 1.0})
    elif target.kind == "optimizer":
        mags = edges.epsilon_magnitudes(c.epsilons)
        ths = [v for g in edges.threshold_edges(c.numbers, symmetric=False) for v in g if 0 < v <= 2]
        out["gradients"] = sorted(set(mags) | set(ths) | {-m for m in mags} | {0.0})
    elif target.kind == "schedule":
        ints = sorted({int(v) for v in c.numbers if v == int(v) and 2 <= v < 100})
        out["steps"] = sorted({s for n in ints for m in (1, 2, 3, 7) for s in (m * n - 1, m * n, m * n + 1)} | {0})
    elif target.kind == "trained":
        out["initial"] = sorted({v for v in c.numbers if v in (0.0, 1.0)})
    elif target.kind == "callback":
        out["deltas"] = sorted({v for v in c.numbers if 0 <= v < 1})
    elif target.kind == "progbar":
        ones = [int(v) for v in c.numbers if v == int(v) and 0 < v < 4]
        out["units"] = sorted({n + d for n in ones for d in (-1, 0, 1)} | {2})
    elif target.kind == "split":
        out["fractions"] = edges.rounding_fractions(SPLIT_ROWS) if c.rounding else []
    return out


# -- observations ------------------------------------------------------------------------------------------------
def _l(x: Any) -> Any:
    if x is None:
        return None
    a = np.asarray(x.numpy() if hasattr(x, "numpy") else x)
    if a.dtype.kind == "f":
        return [None if not math.isfinite(v) else float(v) for v in a.astype(np.float64).ravel()] \
            if a.ndim else (float(a) if math.isfinite(float(a)) else repr(float(a)))
    return a.tolist()


def _finite(values: list[Any]) -> list[Any]:
    return values


def _weights(n: int) -> np.ndarray:
    """The fixed cotangent: distinct weights so that a permuted or merged gradient shows."""
    return (1.0 + 0.125 * np.arange(n, dtype=np.float32)).astype(np.float32)


def _grad(tf: Any, fn: Any, *inputs: np.ndarray) -> tuple[Any, list[Any]]:
    xs = [tf.Variable(x) for x in inputs]
    with tf.GradientTape() as tape:
        y = fn(*xs)
        w = _weights(int(np.prod(y.shape))).reshape(y.shape)
        s = tf.reduce_sum(tf.cast(y, tf.float32) * w)
    return y, [_l(g) for g in tape.gradient(s, xs)]


def _call(tf: Any, t: Target) -> Any:
    """`t` as a function of one tensor (a layer built with its options, a function called with them)."""
    obj = edges.resolve(tf, t.path)
    opts = t.options()
    if isinstance(obj, type):
        layer = obj(**opts)
        return layer
    return lambda x: obj(x, **opts)


def observe_elementwise(tf: Any, t: Target, e: dict[str, Any]) -> dict[str, Any]:
    names = sorted(e["groups"])
    x = np.array([v for n in names for v in e["groups"][n]], np.float32)
    fn = _call(tf, t)
    y, (g,) = _grad(tf, fn, x)
    out, pos = {}, 0
    yv = np.asarray(_l(y), dtype=object)
    gv = None if g is None else np.asarray(g, dtype=object)
    for n in names:
        k = len(e["groups"][n])
        out[n] = {"x": x[pos:pos + k].astype(np.float64).tolist(), "out": yv[pos:pos + k].tolist(),
                  "grad": None if gv is None else gv[pos:pos + k].tolist()}
        pos += k
    return out


def _rows(e: dict[str, Any]) -> np.ndarray:
    d = np.array(DIRECTION, np.float32)
    return np.stack([np.float32(m) * d for m in e["magnitudes"]]).astype(np.float32)


def _threshold_columns(e: dict[str, Any]) -> np.ndarray:
    """A (6, k) weight whose column j has one entry at the j-th threshold edge (norm exactly that value)
    and columns at the epsilon magnitudes (a constraint's norm epsilon)."""
    values = [v for g in e["thresholds"] for v in g] + [m for m in e["magnitudes"] if m < 1]
    w = np.zeros((6, len(values)), np.float32)
    for j, v in enumerate(values):
        w[j % 6, j] = v
    return w


def observe_normalize(tf: Any, t: Target, e: dict[str, Any]) -> dict[str, Any]:
    keras = tf.keras
    opts = t.options()
    x = _rows(e)
    obj = edges.resolve(tf, t.path)
    name = t.path.split(".")[-1]
    if name in ("BatchNormalization", "Normalization"):
        cols = x.T.copy()                                     # (6, m): column j at magnitude m_j
        batch = np.concatenate([cols, -0.5 * cols, 0.25 * cols], axis=0).astype(np.float32)
        if name == "Normalization":
            layer = obj(**opts)
            layer.adapt(batch)
            y, grads = _grad(tf, layer, batch)
            return {"out": _l(y), "grad": grads, "state": [_l(w) for w in layer.weights]}
        layer = obj(**opts)
        steps = []
        for i in range(3):
            y, grads = _grad(tf, lambda b: layer(b, training=True), batch * np.float32(1 + i))
            steps.append({"out": _l(y), "grad": grads, "state": [_l(w) for w in layer.weights]})
        y, grads = _grad(tf, lambda b: layer(b, training=False), batch)
        return {"train": steps, "inference": {"out": _l(y), "grad": grads}}
    if t.path.startswith("tf.keras.constraints."):
        w = np.concatenate([_threshold_columns(e), x.T], axis=1)
        return {"out": _l(obj(**opts)(tf.constant(w)))}
    if name == "OrthogonalRegularizer":
        reg = obj(**opts)
        y, grads = _grad(tf, reg, x)
        return {"out": _l(y), "grad": grads}
    if name == "batch_normalization":
        mean, var = x.mean(axis=0), (x * x).mean(axis=0) - x.mean(axis=0) ** 2
        y, grads = _grad(tf, lambda a: obj(a, tf.constant(mean), tf.constant(np.abs(var) * 0 + np.float32(x[0, 0] ** 2)),
                                           None, None, **opts), x)
        return {"out": _l(y), "grad": grads}
    if name == "normalize_moments":
        counts = np.float32(6.0)
        m_ss, v_ss = x.sum(axis=1), (x * x).sum(axis=1)
        mean, var = obj(tf.constant(counts), tf.constant(m_ss), tf.constant(v_ss), tf.constant(np.float32(opts["shift"])))
        return {"mean": _l(mean), "var": _l(var)}
    if name == "moments":
        mean, var = obj(tf.constant(x), **opts)
        return {"mean": _l(mean), "var": _l(var)}
    if name == "cosine_similarity":
        other = np.roll(x, 1, axis=1)
        y, grads = _grad(tf, lambda a: obj(other, a), x)
        return {"out": _l(y), "grad": grads}
    if name == "rms_normalization":
        y, grads = _grad(tf, lambda a: obj(a, **opts), x)
        return {"out": _l(y), "grad": grads}
    if isinstance(obj, type):
        layer = obj(**opts)
        y, grads = _grad(tf, layer, x)
        return {"out": _l(y), "grad": grads, "weights": [_l(w) for w in layer.weights]}
    if name == "normalize" and t.path == "tf.keras.utils.normalize":
        return {"out": _l(obj(tf.constant(x))), "numpy": _l(obj(x))}
    y, grads = _grad(tf, lambda a: obj(a, **opts), x)
    return {"out": _l(y), "grad": grads}


def _axis_input() -> np.ndarray:
    rng = np.random.default_rng(2020)
    return rng.uniform(-2.0, 2.0, (2, 3, 4)).astype(np.float32)


def observe_axis(tf: Any, t: Target, e: dict[str, Any]) -> dict[str, Any]:
    x = _axis_input()
    obj = edges.resolve(tf, t.path)
    fn = obj() if isinstance(obj, type) else obj
    out = {}
    for scale in (1.0, 1e-7):          # 1e-7: a norm's epsilon decides (Keras's and TF's)
        y, grads = _grad(tf, fn, x * np.float32(scale))
        out[f"scale {scale}"] = {"shape": list(y.shape), "out": _l(y), "grad": grads}
    return out


#: Shapes of Dot's two inputs: every axis has length 3, so every axis pair (negative too) is valid.
DOT_SHAPES = (((2, 3, 3), (2, 3, 3)), ((2, 3, 3), (2, 3)), ((2, 3), (2, 3, 3)))


def observe_dot(tf: Any, t: Target, e: dict[str, Any]) -> dict[str, Any]:
    rng = np.random.default_rng(2021)
    out = {}
    for sx, sy in DOT_SHAPES:
        x = rng.uniform(-1, 1, sx).astype(np.float32)
        y = rng.uniform(-1, 1, sy).astype(np.float32)
        x[0] *= np.float32(1e-6)        # a sample of norm ~1e-6: l2_normalize's 1e-12 on the squared norm decides
        for a in [*range(1, len(sx)), -1]:
            for b in [*range(1, len(sy)), -1]:
                for normalize in (False, True):
                    layer = tf.keras.layers.Dot(axes=(a, b), normalize=normalize)
                    z, grads = _grad(tf, lambda p, q: layer([p, q]), x, y)
                    out[f"{sx}x{sy} axes=({a},{b}) normalize={normalize}"] = {"shape": list(z.shape), "out": _l(z),
                                                                              "grad": grads}
    return out


#: Query, value, key of the attention targets; the input of the others.
TRAINED_SHAPES = ((2, 3, 4), (2, 5, 4), (2, 5, 4))


def observe_trained(tf: Any, t: Target, e: dict[str, Any]) -> dict[str, Any]:
    """The layer built with its options, every weight set to seeded values away from its constant initial
    value (0 or 1; variances positive), then called on seeded inputs: output, the gradient w.r.t. each
    input and each trainable weight; for BatchNormalization a training call, then inference."""
    rng = np.random.default_rng(2022)
    attention = "Attention" in t.path
    inputs = [rng.uniform(-1, 1, s).astype(np.float32) for s in (TRAINED_SHAPES if attention else TRAINED_SHAPES[:1])]
    layer = edges.resolve(tf, t.path)(**t.options())
    layer(inputs if attention else inputs[0])
    for w in layer.weights:
        shape = tuple(w.shape)
        v = rng.uniform(0.5, 1.5, shape) * np.where(rng.uniform(0, 1, shape) < 0.3, -1.0, 1.0)
        w.assign((np.abs(v) if "variance" in w.name else v).astype(np.float32))
    out = {}
    for training in ((True, False) if "BatchNormalization" in t.path else (False,)):
        xs = [tf.constant(x) for x in inputs]
        with tf.GradientTape() as tape:
            tape.watch(xs)
            y = layer(xs if attention else xs[0], training=training)
            s = tf.reduce_sum(y * _weights(int(np.prod(y.shape))).reshape(y.shape))
        grads = tape.gradient(s, xs + list(layer.trainable_weights))
        out[f"training={training}"] = {"out": _l(y), "grad_inputs": [_l(g) for g in grads[:len(xs)]],
                                       "grad_weights": [_l(g) for g in grads[len(xs):]],
                                       "weights": [[w.name, _l(w)] for w in layer.weights]}
    return out


def _loss_inputs(t: Target, e: dict[str, Any]) -> tuple[np.ndarray, np.ndarray]:
    name = t.path.split(".")[-1]
    p = np.array(e["probabilities"], np.float32)
    err = np.array(e["errors"], np.float32)
    if name in ("BinaryCrossentropy", "BinaryFocalCrossentropy") and not t.options().get("from_logits"):
        pred = np.stack([p, p[::-1]], axis=1)
        return np.stack([np.ones_like(p), np.zeros_like(p)], axis=1), pred
    if name in ("BinaryCrossentropy",):
        logits = np.concatenate([err, -err, np.array(edges.ulps(15.0) + edges.ulps(-15.0), np.float32)])
        return (np.arange(logits.size) % 2).astype(np.float32)[:, None], logits[:, None]
    if name in ("CategoricalCrossentropy", "CategoricalFocalCrossentropy", "KLDivergence", "CategoricalHinge",
                "SparseCategoricalCrossentropy"):
        rest = (1 - p) / 2
        pred = np.stack([p, rest, 1 - p - rest], axis=1).astype(np.float32)
        true = np.tile(np.array([1.0, 0.0, 0.0], np.float32), (p.size, 1))
        if name == "KLDivergence":
            true = np.stack([p[::-1], (1 - p[::-1]) / 2, (1 - p[::-1]) / 2], axis=1).astype(np.float32)
        if name == "SparseCategoricalCrossentropy":
            true = np.zeros((p.size,), np.float32)
        return true, pred
    if name in ("Hinge", "SquaredHinge"):
        true = np.where(np.arange(err.size) % 2 == 0, 1.0, -1.0).astype(np.float32)
        return true[:, None], (true * err)[:, None]
    if name in ("Dice", "Tversky"):
        pred = np.stack([p, p[::-1], np.full_like(p, 0.5)], axis=1)
        return (pred > 0.5).astype(np.float32), pred
    if name in ("MeanAbsolutePercentageError", "MeanSquaredLogarithmicError", "Poisson"):
        base = np.abs(err) + np.float32(0)
        return base[:, None], (base + np.float32(0.5))[:, None] if name != "MeanSquaredLogarithmicError" \
            else (err - np.float32(1.0))[:, None]
    if name == "CosineSimilarity":
        rows = np.stack([err, np.full_like(err, 1e-7), err * 0.5], axis=1)
        return np.roll(rows, 1, axis=1), rows
    true = np.zeros_like(err)                       # Huber, LogCosh: the error is y_pred
    return true[:, None], err[:, None]


def observe_loss(tf: Any, t: Target, e: dict[str, Any]) -> dict[str, Any]:
    loss = edges.resolve(tf, t.path)(reduction=None, **t.options())
    true, pred = _loss_inputs(t, e)
    y, (g,) = _grad(tf, lambda p: loss(tf.constant(true), p), pred)
    return {"y_true": _l(true), "y_pred": _l(pred), "out": _l(y), "grad": g}


def _metric_inputs(t: Target, e: dict[str, Any]) -> tuple[np.ndarray, np.ndarray]:
    s = np.array(e["scores"], np.float32)
    name = t.path.split(".")[-1]
    if name in ("CategoricalAccuracy", "TopKCategoricalAccuracy", "Precision") and (
            name != "Precision" or "top_k" in t.options()):
        pred = np.stack([s, s[::-1], np.full_like(s, s[len(s) // 2])], axis=1)     # ties with the middle score
        true = np.eye(3, dtype=np.float32)[np.arange(s.size) % 3]
        return true, pred
    if name in ("F1Score", "FBetaScore"):
        pred = np.stack([s, s[::-1]], axis=1)
        true = np.stack([np.arange(s.size) % 2, 1 - np.arange(s.size) % 2], axis=1).astype(np.float32)
        return true, pred
    if name in ("Hinge",):
        return np.where(np.arange(s.size) % 2 == 0, 1.0, -1.0).astype(np.float32)[:, None], s[:, None]
    if name in ("MeanAbsolutePercentageError", "MeanSquaredLogarithmicError", "Poisson", "LogCoshError", "R2Score",
                "KLDivergence", "CosineSimilarity"):
        true = np.concatenate([s[1:], s[:1]])
        return true[:, None] if name != "CosineSimilarity" else np.stack([true, s], 1), \
            s[:, None] if name != "CosineSimilarity" else np.stack([s, true], 1)
    return (np.arange(s.size) % 2).astype(np.float32)[:, None], s[:, None]


def observe_metric(tf: Any, t: Target, e: dict[str, Any]) -> list[Any]:
    m = edges.resolve(tf, t.path)(**t.options())
    true, pred = _metric_inputs(t, e)
    n = true.shape[0]
    cuts = [0, n // 3, 2 * n // 3, n]
    out = []
    for i in range(3):
        sl = slice(cuts[i], cuts[i + 1])
        sw = None if i < 2 else (0.5 + (np.arange(cuts[i + 1] - cuts[i]) % 3)).astype(np.float32)
        if sw is None:
            m.update_state(tf.constant(true[sl]), tf.constant(pred[sl]))
        else:
            m.update_state(tf.constant(true[sl]), tf.constant(pred[sl]), sample_weight=tf.constant(sw))
        out.append(_l(m.result()))
    return out


def observe_optimizer(tf: Any, t: Target, e: dict[str, Any]) -> list[Any]:
    keras = tf.keras
    opt = edges.resolve(tf, t.path)(**t.options())
    g = np.array(e["gradients"], np.float32)
    v = keras.Variable((0.5 + 0.01 * np.arange(g.size)).astype(np.float32), name="h20v")
    out = []
    for step, factor in enumerate((1.0, 0.5, -1.0)):
        opt.apply_gradients([(tf.constant(g * np.float32(factor)), v)])
        slots = {f"{i}:{w.name}": _l(w) for i, w in enumerate(opt.variables)}
        out.append({"var": _l(v), "slots": slots})
    return out


def observe_schedule(tf: Any, t: Target, e: dict[str, Any]) -> dict[str, Any]:
    sched = edges.resolve(tf, t.path)(**t.options())
    return {str(s): _l(sched(s)) for s in e["steps"]}


def observe_split(tf: Any, t: Target, e: dict[str, Any]) -> dict[str, Any]:
    keras = tf.keras
    data = np.arange(SPLIT_ROWS)
    out = {}
    for f in e["fractions"]:
        try:
            left, right = keras.utils.split_dataset(data, **{t.options()["side"]: f})
            out[repr(f)] = [[int(v) for v in left.as_numpy_iterator()], [int(v) for v in right.as_numpy_iterator()]]
        except Exception as err:  # noqa: BLE001 - the refusal's class is the observation
            out[repr(f)] = type(err).__name__
    return out


def monitored_sequence(d: float, mode: str = "min") -> list[float]:
    """A monitored value that improves by exactly `d`, one float64 ulp more and less than `d`, not at
    all, by 2d, then worsens: each comparison of a callback's `min_delta` at its edge."""
    up = float(np.nextafter(d, np.inf))
    down = float(np.nextafter(d, -np.inf)) if d > 0 else 0.0
    seq = [1.0]
    for step in (d, up, down, 0.0, 2 * d, -d, d, 0.0, 0.0):
        seq.append(seq[-1] - step)
    return seq if mode == "min" else [-v for v in seq]


def observe_callback(tf: Any, t: Target, e: dict[str, Any]) -> dict[str, Any]:
    """The callback driven through on_train_begin / on_epoch_end over each monitored sequence built from
    its deltas (the option's min_delta, Keras's 0): per epoch its wait, best, stop flag and learning rate."""
    keras = tf.keras
    opts = t.options()
    monitor = opts.get("monitor", "val_loss")
    out = {}
    for d in e["deltas"]:
        model = keras.Sequential([keras.Input((1,)), keras.layers.Dense(1)])
        model.compile(optimizer=keras.optimizers.SGD(1.0), loss="mse")
        cb = edges.resolve(tf, t.path)(**opts)
        cb.set_model(model)
        model.stop_training = False
        cb.on_train_begin()
        rows = []
        for epoch, v in enumerate(monitored_sequence(d, opts.get("mode", "min"))):
            cb.on_epoch_begin(epoch)
            cb.on_epoch_end(epoch, {monitor: v, "loss": v})
            rows.append([int(cb.wait), float(cb.best), bool(model.stop_training),
                         float(np.asarray(model.optimizer.learning_rate)), int(getattr(cb, "cooldown_counter", -1)),
                         int(getattr(cb, "stopped_epoch", -1))])
        out[repr(d)] = rows
    return out


def observe_progbar(tf: Any, t: Target, e: dict[str, Any]) -> list[list[list[str]]]:
    """Progbar(verbose=1, interval=0) fed updates that advance by each unit count (0, 1, 2, ...), a
    stateless value and a stateful one: the values each printed line shows (timings left out)."""
    import contextlib  # noqa: PLC0415
    import io  # noqa: PLC0415
    import re  # noqa: PLC0415

    bar = edges.resolve(tf, t.path)(verbose=1, interval=0.0, stateful_metrics=["s"], **t.options())
    current, shown = 0, []
    for i, step in enumerate(e["units"] * 2):
        current = min(current + step, t.options()["target"] - 1)
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            bar.update(current, values=[("v", float(1 + 3 * i)), ("s", float(i))])
        shown.append([list(p) for p in re.findall(r" - (\w+): ([-+0-9.e]+)", buf.getvalue())])
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        bar.add(1, values=[("v", 100.0), ("s", 7.0)])
    shown.append([list(p) for p in re.findall(r" - (\w+): ([-+0-9.e]+)", buf.getvalue())])
    return shown


OBSERVERS = {"elementwise": observe_elementwise, "normalize": observe_normalize, "axis": observe_axis,
             "dot": observe_dot, "trained": observe_trained, "loss": observe_loss, "metric": observe_metric, "optimizer": observe_optimizer,
             "schedule": observe_schedule, "split": observe_split, "callback": observe_callback,
             "progbar": observe_progbar}


def observe(tf: Any, t: Target, e: dict[str, Any]) -> Any:
    """`t` run on its edges `e` (from the recording) on the given tf module."""
    tf.keras.backend.clear_session()
    return OBSERVERS[t.kind](tf, t, e)
