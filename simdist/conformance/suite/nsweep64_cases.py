"""NaN, infinity and payload propagation through Keras losses, metrics, merge and normalization layers and keras.ops
reductions, crossed by rule (sixty-fourth session, nsweep64; test_nsweep64.py).

What is crossed (batch 84's survivors: the merge layers' operand order with two NaN operands, the losses' maximum
written as where(a > b, a, b); the loss tests fed finite predictions):
- n-loss-<family>: every keras.losses class × reduction None / sum_over_batch_size / sum × no, a NaN-and-zero and a
  plain sample_weight × float32 and float64, on predictions and targets holding NaNs of distinct payloads and both
  signs (some at the same element in both), ±inf, -0.0 and ordinary values; the loss functions; traced
  (tf.function) beside eager;
- n-metric-<family>: every keras.metrics metric, update_state twice (the second with a NaN and a zero sample weight)
  then result, float32;
- n-merge: Add, Subtract, Multiply, Average, Maximum, Minimum, Concatenate, Dot with NaN-tagged operands in all and in
  one of two/three inputs;
- n-norm: BatchNormalization (training and inference), LayerNormalization, GroupNormalization, UnitNormalization,
  RMSNormalization, Softmax with a mask, MultiHeadAttention with an attention mask, on NaN/inf inputs;
- n-ops: keras.ops reductions and statistics (sum, mean, var, std, logsumexp, max, min, argmax, argmin, norm, cumsum,
  cumprod, prod, median, quantile) on NaN-tagged inputs, float16/float32/float64, along each axis.

Values are compared by their raw bits (a NaN's payload and sign included). Every program is host-dependent (`n-`:
Eigen's packet kernels pick the NaN). `python -m simdist.conformance.suite.test_nsweep64 --record` rewrites
nsweep64_reference.json.gz. OPEN lists simdist's disagreements with TF 2.21 left out of the comparison."""

from __future__ import annotations

import json
import os
from typing import Any, Callable

import numpy as np

from simdist.conformance.suite.open_cases import registrar
from simdist.conformance.suite.recorded_programs import RecordedPrograms, avx512_with_onednn, reference_cpu, rng

PATH = os.path.join(os.path.dirname(__file__), "nsweep64_reference.json.gz")

REF = RecordedPrograms(PATH, host_dependent=("n-",), recording_host=avx512_with_onednn, recording_cpu=reference_cpu)

#: simdist's disagreements with TF 2.21 left out of the comparison: program -> case keys (docs/conformance.md,
#: "Sixty-fourth session ... nsweep64"; /work/wt/nsweep64_logs/cmp5.txt, tf2.json against sim6.json):
#: (1) traced CosineSimilarity (2): its product of four factors is rebuilt by Grappler's MinimizeBroadcasts, whose
#:     rewritten Mul nodes keep the names of the group's nodes (TF) and are sorted again by them in the next
#:     iteration; simdist names the nodes it makes by op type, so of the two NaNs the product of both sides' NaN
#:     keeps it takes the prediction's where TF takes the target's (fix64n; the other 15 traced losses agree since
#:     fix64n: Keras's loss name scope and Grappler's sorted inputs of commutative ops, grappler._sorted_operands);
#: (2) Dot of float64 (8): Eigen's float64 contraction's NaN choice of two (msweep63's open float64 class);
#: (3) float64 Softmax and log_softmax of every float type with NaN logits (6): the NaN (payload, sign, plog's
#:     all-ones) Eigen's SoftmaxOp and oneDNN's log-softmax keep, not analysed in the time.
OPEN: dict[str, tuple[str, ...]] = {
    'n-loss-regression': ('CosineSimilarity float32 traced', 'CosineSimilarity float64 traced'),
    'n-merge': (
        'Dot axes=1 normalize=False ab float64', 'Dot axes=1 normalize=False ba float64',
        'Dot axes=1 normalize=True ab float64', 'Dot axes=1 normalize=True ba float64',
        'Dot axes=-1 normalize=False ab float64', 'Dot axes=-1 normalize=False ba float64',
        'Dot axes=-1 normalize=True ab float64', 'Dot axes=-1 normalize=True ba float64',
    ),
    'n-norm': (
        'Softmax axis=-1 float64', 'Softmax axis=-1 mask float64',
    ),
    'n-ops-reductions': (
        'log_softmax float16', 'log_softmax float32', 'softmax float64', 'log_softmax float64',
    ),
}


program = registrar(REF, OPEN)   # register a program: its result without the OPEN cases


def raw(t: Any) -> Any:
    """A tensor's dtype, shape and values as their bit patterns (floats: a NaN's payload and sign included)."""
    a = np.asarray(t.numpy() if hasattr(t, "numpy") else t)
    if a.dtype.kind == "f":
        return [str(a.dtype), list(a.shape), a.view(f"u{a.dtype.itemsize}").ravel().tolist()]
    return [str(a.dtype), list(a.shape), a.ravel().tolist()]


def outcome(fn: Callable[[], Any]) -> Any:
    """raw(fn()) (a nest of tensors too), or "raised <class>"."""
    try:
        v = fn()
    except Exception as e:  # noqa: BLE001 - the class is the observation
        return f"raised {type(e).__name__}"
    if isinstance(v, (list, tuple)):
        return [raw(x) for x in v]
    if isinstance(v, dict):
        return {k: raw(x) for k, x in sorted(v.items())}
    return raw(v)


def nan(dt: str, payload: int, negative: bool = False) -> Any:
    """A quiet NaN of dtype `dt` with `payload` in its low bits and the sign bit `negative`."""
    if dt == "float16":
        return np.array([0x7E00 | payload | (0x8000 if negative else 0)], np.uint16).view(np.float16)[0]
    if dt == "float32":
        return np.array([0x7FC00000 | payload | (0x80000000 if negative else 0)], np.uint32).view(np.float32)[0]
    return np.array([0x7FF8000000000000 | payload | ((1 << 63) if negative else 0)], np.uint64).view(np.float64)[0]


def tagged(name: str, shape: tuple[int, ...], dt: str, lo: float = -2.0, hi: float = 2.0, base: int = 0x10,
           places: tuple[tuple[int, ...], ...] = (), inf: bool = True) -> np.ndarray:
    """Uniform values in [lo, hi) of `shape` with NaNs at `places` (payloads base, base + 1, ..., signs alternating),
    then +inf, -inf and -0.0 at the next free flat positions (when `inf`)."""
    r = rng(name)
    a = r.uniform(lo, hi, shape).astype(dt)
    for i, p in enumerate(places):
        a[p] = nan(dt, base + i, negative=bool(i % 2))
    if inf:
        flat = a.reshape(-1)
        taken = {int(np.ravel_multi_index(p, shape)) for p in places}
        free = [i for i in range(flat.size) if i not in taken]
        if len(free) >= 6:
            flat[free[-1]], flat[free[-3]], flat[free[-5]] = np.inf, -np.inf, -0.0
    return a


def sample_weights(n: int, dt: str) -> dict[str, Any]:
    """No weight, a weight vector holding a NaN (payload 0x77) and a zero, and a plain positive vector."""
    w = rng("sample-weights").uniform(0.5, 2.0, n).astype(dt)
    wn = w.copy()
    wn[1], wn[2] = nan(dt, 0x77), 0.0
    return {"none": None, "nan0": wn, "plain": w}


DTS = ("float32", "float64")
REDUCTIONS = (None, "sum_over_batch_size", "sum")
#: NaN places of the targets (payloads 0x10..) and predictions (0x20..): (0, 0) and (2, 3) hold a NaN in both
T_NANS = ((0, 0), (2, 3), (1, 4))
P_NANS = ((0, 0), (2, 3), (1, 1), (3, 2))


def _loss_inputs(dt: str, kind: str) -> tuple[np.ndarray, np.ndarray]:
    """Targets and predictions (7, 5) of `kind`: "real" (both signed reals, predictions with ±inf and -0.0),
    "prob" (targets in [0, 1), predictions in (0.05, 0.95) with ±inf, -0.0), "label" (0/1 targets, real predictions),
    "pm1" (-1/1 targets), "onehot" (one-hot targets, NaNs in the predictions only and at (0, 0) in both)."""
    if kind == "real":
        return (tagged("loss-t", (7, 5), dt, places=T_NANS, base=0x10, inf=False),
                tagged("loss-p", (7, 5), dt, places=P_NANS, base=0x20))
    if kind == "prob":
        return (tagged("loss-tp", (7, 5), dt, 0.0, 1.0, places=T_NANS, base=0x10, inf=False),
                tagged("loss-pp", (7, 5), dt, 0.05, 0.95, places=P_NANS, base=0x20))
    p = tagged("loss-pl", (7, 5), dt, places=P_NANS, base=0x20)
    if kind == "onehot":
        t = np.eye(5, dtype=dt)[[0, 1, 2, 3, 4, 0, 1]]
        t[0, 0] = nan(dt, 0x10)
        return t, tagged("loss-pp", (7, 5), dt, 0.05, 0.95, places=P_NANS, base=0x20)
    t = (rng("loss-labels").uniform(size=(7, 5)) > 0.5).astype(dt)
    t[0, 0], t[2, 3] = nan(dt, 0x10), nan(dt, 0x11, True)
    return (t * 2 - 1 if kind == "pm1" else t), p


#: family -> (loss class name, keyword arguments, input kind)
LOSSES: dict[str, tuple[tuple[str, dict[str, Any], str], ...]] = {
    "regression": (("MeanSquaredError", {}, "real"), ("MeanAbsoluteError", {}, "real"),
                   ("MeanAbsolutePercentageError", {}, "real"), ("MeanSquaredLogarithmicError", {}, "real"),
                   ("CosineSimilarity", {}, "real"), ("Huber", {}, "real"), ("Huber", {"delta": 0.5}, "real"),
                   ("LogCosh", {}, "real")),
    "hinge": (("Hinge", {}, "pm1"), ("Hinge", {}, "label"), ("SquaredHinge", {}, "pm1"),
              ("CategoricalHinge", {}, "onehot")),
    "probabilistic": (("KLDivergence", {}, "prob"), ("Poisson", {}, "prob"), ("BinaryCrossentropy", {}, "prob"),
                      ("BinaryCrossentropy", {"from_logits": True}, "label"),
                      ("BinaryCrossentropy", {"label_smoothing": 0.1}, "prob"),
                      ("BinaryFocalCrossentropy", {}, "prob"),
                      ("BinaryFocalCrossentropy", {"from_logits": True, "apply_class_balancing": True}, "label"),
                      ("CategoricalCrossentropy", {}, "onehot"),
                      ("CategoricalCrossentropy", {"from_logits": True}, "onehot"),
                      ("CategoricalCrossentropy", {"label_smoothing": 0.1}, "onehot"),
                      ("CategoricalFocalCrossentropy", {}, "onehot"),
                      ("CategoricalFocalCrossentropy", {"from_logits": True}, "onehot"),
                      ("CategoricalGeneralizedCrossEntropy", {}, "onehot")),
    "overlap": (("Dice", {}, "prob"), ("Tversky", {}, "prob"), ("Tversky", {"alpha": 0.7, "beta": 0.3}, "prob")),
}


def _losses(family: str) -> Callable[[Any, Any], Any]:
    def run(tf: Any, mk: Any) -> Any:
        keras = tf.keras
        out: dict[str, Any] = {}
        for cname, kw, kind in LOSSES[family]:
            label = f"{cname}{kw or ''}"
            for dt in DTS:
                y, p = _loss_inputs(dt, kind)
                for red in REDUCTIONS:
                    loss = getattr(keras.losses, cname)(reduction=red, dtype=dt, **kw)
                    for wname, w in sample_weights(7, dt).items():
                        out[f"{label} {dt} {red} w={wname}"] = outcome(
                            lambda loss=loss, y=y, p=p, w=w: loss(y, p, sample_weight=w))
                loss = getattr(keras.losses, cname)(dtype=dt, **kw)
                # (the arguments named so that their names sort as they are written: Grappler's CanonicalizeNode sorts
                # a commutative op's inputs by node name, so `lambda y, p` gives Mul/SquaredDifference of two NaNs p's
                # NaN in TF 2.21; simdist models it since fix64n, tests/runtime/test_fix64n_sorted_operands_tf.py)
                fn = tf.function(lambda a_true, b_pred, c_weight, loss=loss: loss(a_true, b_pred, sample_weight=c_weight))
                out[f"{label} {dt} traced"] = outcome(
                    lambda fn=fn, y=y, p=p: fn(tf.constant(y), tf.constant(p), tf.constant(sample_weights(7, dt)["nan0"])))
        return out
    return run


for _family in LOSSES:
    program(f"n-loss-{_family}", _losses(_family))


def _loss_functions(tf: Any, mk: Any) -> Any:
    """The keras.losses functions (per-sample, no reduction) on the same inputs, float32 and float64; the sparse
    categorical cross entropy and CTC-free Circle on labels."""
    keras = tf.keras
    L = keras.losses
    out: dict[str, Any] = {}
    fns = (("mse", "real"), ("mae", "real"), ("mape", "real"), ("msle", "real"), ("cosine_similarity", "real"),
           ("huber", "real"), ("logcosh", "real"), ("hinge", "pm1"), ("squared_hinge", "pm1"),
           ("categorical_hinge", "onehot"), ("kld", "prob"), ("poisson", "prob"), ("binary_crossentropy", "prob"),
           ("binary_focal_crossentropy", "prob"), ("categorical_crossentropy", "onehot"),
           ("categorical_focal_crossentropy", "onehot"), ("dice", "prob"), ("tversky", "prob"))
    for dt in DTS:
        for fname, kind in fns:
            y, p = _loss_inputs(dt, kind)
            out[f"{fname} {dt}"] = outcome(lambda f=getattr(L, fname), y=y, p=p: f(tf.constant(y), tf.constant(p)))
        logits = tagged("sparse-logits", (6, 4), dt, -3, 3, places=((0, 0), (1, 2), (2, 1)), base=0x30)
        labels = np.array([0, 2, 1, 3, 0, 1])
        for fl in (False, True):
            x = logits if fl else np.abs(logits) / 4
            out[f"sparse_categorical_crossentropy from_logits={fl} {dt}"] = outcome(
                lambda x=x, fl=fl: L.sparse_categorical_crossentropy(tf.constant(labels), tf.constant(x), from_logits=fl))
            for red in REDUCTIONS:
                for wname, w in sample_weights(6, dt).items():
                    out[f"SparseCategoricalCrossentropy from_logits={fl} {dt} {red} w={wname}"] = outcome(
                        lambda x=x, fl=fl, red=red, w=w: L.SparseCategoricalCrossentropy(
                            from_logits=fl, reduction=red, dtype=dt)(labels, x, sample_weight=w))
        emb = tagged("circle-emb", (6, 4), dt, -1, 1, places=((2, 1), (4, 3)), base=0x40)
        for red in REDUCTIONS:
            out[f"Circle {dt} {red}"] = outcome(
                lambda emb=emb, red=red: L.Circle(reduction=red, dtype=dt)(np.array([0, 1, 0, 1, 2, 2]), emb))
    return out


program("n-loss-functions", _loss_functions)


#: metric class -> (keyword arguments, input kind)
METRICS: dict[str, tuple[tuple[str, dict[str, Any], str], ...]] = {
    "regression": (("MeanSquaredError", {}, "real"), ("MeanAbsoluteError", {}, "real"),
                   ("MeanAbsolutePercentageError", {}, "real"), ("MeanSquaredLogarithmicError", {}, "real"),
                   ("RootMeanSquaredError", {}, "real"), ("CosineSimilarity", {}, "real"),
                   ("LogCoshError", {}, "real"), ("R2Score", {}, "real"), ("PearsonCorrelation", {}, "real"),
                   ("ConcordanceCorrelation", {}, "real"), ("Mean", {}, "value"), ("Sum", {}, "value")),
    "probabilistic": (("Hinge", {}, "pm1"), ("SquaredHinge", {}, "pm1"), ("CategoricalHinge", {}, "onehot"),
                      ("KLDivergence", {}, "prob"), ("Poisson", {}, "prob"), ("BinaryCrossentropy", {}, "prob"),
                      ("CategoricalCrossentropy", {}, "onehot"),
                      ("CategoricalCrossentropy", {"from_logits": True}, "onehot")),
    "classification": (("Accuracy", {}, "label"), ("BinaryAccuracy", {}, "prob"),
                       ("CategoricalAccuracy", {}, "onehot"), ("TopKCategoricalAccuracy", {"k": 2}, "onehot"),
                       ("AUC", {}, "prob"), ("AUC", {"curve": "PR", "num_thresholds": 7}, "prob"),
                       ("Precision", {}, "prob"), ("Recall", {}, "prob"), ("TruePositives", {}, "prob"),
                       ("FalsePositives", {}, "prob"), ("TrueNegatives", {}, "prob"),
                       ("FalseNegatives", {}, "prob"), ("PrecisionAtRecall", {"recall": 0.5}, "prob"),
                       ("SensitivityAtSpecificity", {"specificity": 0.5}, "prob"),
                       ("F1Score", {}, "prob"), ("FBetaScore", {"beta": 2.0, "threshold": 0.5}, "prob"),
                       ("BinaryIoU", {}, "prob")),
}


def _metrics(family: str) -> Callable[[Any, Any], Any]:
    def run(tf: Any, mk: Any) -> Any:
        keras = tf.keras
        out: dict[str, Any] = {}
        for cname, kw, kind in METRICS[family]:
            label = f"{cname}{kw or ''}"
            if kind == "value":
                y, p = None, tagged("metric-values", (7, 5), "float32", places=P_NANS, base=0x20)
            else:
                y, p = _loss_inputs("float32", kind)
                if kind in ("prob", "label") and cname not in ("KLDivergence", "Poisson", "BinaryCrossentropy"):
                    y = np.where(np.isnan(y), y, (y > 0.5).astype("float32"))
            w = sample_weights(7, "float32")
            try:
                m = getattr(keras.metrics, cname)(**kw)
                steps: list[Any] = []
                for wname in ("none", "nan0", "plain"):
                    args = (p,) if y is None else (y, p)
                    m.update_state(*args, sample_weight=w[wname])
                    steps.append(outcome(m.result))
                out[label] = steps
            except Exception as e:  # noqa: BLE001 - the class is the observation
                out[label] = f"raised {type(e).__name__}"
        return out
    return run


for _family in METRICS:
    program(f"n-metric-{_family}", _metrics(_family))


def _merge(tf: Any, mk: Any) -> Any:
    """The merge layers on NaN-tagged operands of shape (4, 6): NaNs of distinct payloads and signs at the same
    elements of every operand, at elements of one operand only, ±inf meeting a NaN or each other; two and three
    inputs, each operand order; float32 and float64 (a layer of dtype float64)."""
    keras = tf.keras
    L = keras.layers
    out: dict[str, Any] = {}
    same = ((0, 0), (1, 3), (3, 5))
    for dt in DTS:
        a = tagged("merge-a", (4, 6), dt, places=same + ((2, 2),), base=0x100)
        b = tagged("merge-b", (4, 6), dt, places=same + ((0, 4),), base=0x200)
        c = tagged("merge-c", (4, 6), dt, places=same + ((2, 1),), base=0x300)
        b[2, 2], c[0, 4] = np.inf, -np.inf   # a NaN meeting an infinity
        ops = {"a": a, "b": b, "c": c}
        for cls in ("Add", "Subtract", "Multiply", "Average", "Maximum", "Minimum", "Concatenate"):
            orders = ("ab", "ba") if cls == "Subtract" else ("ab", "ba", "abc", "cba", "bca")
            for order in orders:
                out[f"{cls} {order} {dt}"] = outcome(
                    lambda cls=cls, order=order: getattr(L, cls)(dtype=dt)([tf.constant(ops[k]) for k in order]))
        for axes in (1, -1):
            for normalize in (False, True):
                for order in ("ab", "ba"):
                    out[f"Dot axes={axes} normalize={normalize} {order} {dt}"] = outcome(
                        lambda axes=axes, normalize=normalize, order=order: L.Dot(axes=axes, normalize=normalize, dtype=dt)(
                            [tf.constant(ops[k]) for k in order]))
        for fn in ("add", "subtract", "multiply", "average", "maximum", "minimum"):
            out[f"keras.layers.{fn} {dt}"] = outcome(
                lambda fn=fn: getattr(L, fn)([tf.constant(b), tf.constant(a)], dtype=dt))
    return out


program("n-merge", _merge)


def _normalization(tf: Any, mk: Any) -> Any:
    """Normalization layers, Softmax with a mask and MultiHeadAttention with an attention mask on inputs holding
    NaNs (distinct payloads and signs), ±inf and -0.0, float32 and float64: outputs, BatchNormalization's moving
    statistics after a training call and its inference output then."""
    keras = tf.keras
    L = keras.layers
    out: dict[str, Any] = {}
    for dt in DTS:
        x = tagged("norm-x", (5, 8), dt, places=((0, 1), (2, 2), (2, 5)), base=0x50)
        x4 = tagged("norm-x4", (2, 3, 2, 8), dt, places=((0, 0, 0, 1), (1, 2, 1, 6)), base=0x60)
        for name, mk_layer, inp in (
                ("LayerNormalization", lambda: L.LayerNormalization(dtype=dt), x),
                ("LayerNormalization rms_scaling", lambda: L.LayerNormalization(rms_scaling=True, dtype=dt), x),
                ("LayerNormalization axis=0", lambda: L.LayerNormalization(axis=0, dtype=dt), x),
                ("RMSNormalization", lambda: L.RMSNormalization(dtype=dt), x),
                ("UnitNormalization", lambda: L.UnitNormalization(dtype=dt), x),
                ("UnitNormalization axis=0", lambda: L.UnitNormalization(axis=0, dtype=dt), x),
                ("GroupNormalization", lambda: L.GroupNormalization(groups=4, dtype=dt), x4),
                ("GroupNormalization groups=-1", lambda: L.GroupNormalization(groups=-1, dtype=dt), x4)):
            out[f"{name} {dt}"] = outcome(lambda mk_layer=mk_layer, inp=inp: mk_layer()(tf.constant(inp)))
        for shape_x in (x, x4):
            bn = L.BatchNormalization(dtype=dt, momentum=0.5)
            key = f"BatchNormalization rank{shape_x.ndim} {dt}"
            out[f"{key} inference"] = outcome(lambda bn=bn, s=shape_x: bn(tf.constant(s), training=False))
            out[f"{key} training"] = outcome(lambda bn=bn, s=shape_x: bn(tf.constant(s), training=True))
            out[f"{key} moving"] = outcome(lambda bn=bn: [bn.moving_mean, bn.moving_variance])
            out[f"{key} inference after"] = outcome(lambda bn=bn, s=shape_x: bn(tf.constant(s), training=False))
        logits = tagged("softmax-x", (4, 6), dt, -3, 3, places=((0, 2), (1, 0)), base=0x70)
        logits[2, 3], logits[3, 1], logits[3, 4] = np.inf, np.inf, -np.inf
        mask = np.ones((4, 6), bool)
        mask[0, 2], mask[1, 5], mask[2, 3], mask[3, :] = False, False, False, False
        for axis in (-1, 0):
            out[f"Softmax axis={axis} {dt}"] = outcome(lambda axis=axis: L.Softmax(axis=axis, dtype=dt)(tf.constant(logits)))
            out[f"Softmax axis={axis} mask {dt}"] = outcome(
                lambda axis=axis: L.Softmax(axis=axis, dtype=dt)(tf.constant(logits), mask=tf.constant(mask)))
        q = tagged("mha-q", (2, 3, 4), dt, places=((0, 1, 2),), base=0x80)
        v = tagged("mha-v", (2, 5, 4), dt, places=((1, 4, 0),), base=0x90)
        am = np.ones((2, 3, 5), bool)
        am[0, :, 1], am[1, 2, :] = False, False
        mha = L.MultiHeadAttention(num_heads=2, key_dim=2, dtype=dt)
        mha(tf.constant(np.zeros_like(q)), tf.constant(np.zeros_like(v)))   # (builds it; weights set next)
        r = rng("mha-weights")
        mha.set_weights([r.uniform(-0.5, 0.5, w.shape).astype(dt) for w in mha.get_weights()])
        for masked in (False, True):
            out[f"MultiHeadAttention mask={masked} {dt}"] = outcome(
                lambda masked=masked: mha(tf.constant(q), tf.constant(v), attention_mask=tf.constant(am) if masked else None,
                                          return_attention_scores=True))
    return out


program("n-norm", _normalization)


def _ops_reductions(tf: Any, mk: Any) -> Any:
    """keras.ops reductions and statistics on NaN-tagged inputs (two NaNs of distinct payloads and signs in a row,
    ±inf, -0.0): (5, 7) along None, 0, 1 and a (37,) vector (packets and tail), float16, float32, float64."""
    ops = tf.keras.ops
    out: dict[str, Any] = {}
    for dt in ("float16", "float32", "float64"):
        m = tagged("ops-m", (5, 7), dt, places=((0, 1), (0, 5), (2, 3), (4, 0), (4, 6)), base=0x5)
        v = tagged("ops-v", (37,), dt, places=((3,), (20,), (33,)), base=0x9)
        cases = {"sum": ops.sum, "mean": ops.mean, "var": ops.var, "std": ops.std, "logsumexp": ops.logsumexp,
                 "max": ops.max, "min": ops.min, "prod": ops.prod, "norm": ops.norm, "amax": ops.amax,
                 "amin": ops.amin, "median": ops.median, "argmax": ops.argmax, "argmin": ops.argmin,
                 "cumsum": ops.cumsum, "cumprod": ops.cumprod}
        for name, f in cases.items():
            for arr, axes in ((m, (None, 0, 1)), (v, (None,))):
                for axis in axes:
                    out[f"{name} {arr.shape} axis={axis} {dt}"] = outcome(
                        lambda f=f, arr=arr, axis=axis: f(tf.constant(arr), axis=axis))
        for q in (0.5, 0.25):
            out[f"quantile {q} {dt}"] = outcome(lambda q=q: ops.quantile(tf.constant(m), q, axis=1))
        out[f"normalize {dt}"] = outcome(lambda: ops.normalize(tf.constant(m), axis=-1))
        out[f"softmax {dt}"] = outcome(lambda: ops.softmax(tf.constant(m), axis=-1))
        out[f"log_softmax {dt}"] = outcome(lambda: ops.log_softmax(tf.constant(m), axis=-1))
        out[f"moments {dt}"] = outcome(lambda: ops.moments(tf.constant(m), axes=[0]))
        out[f"nan_to_num {dt}"] = outcome(lambda: ops.nan_to_num(tf.constant(m)))
        out[f"where isnan {dt}"] = outcome(lambda: ops.where(ops.isnan(m), ops.zeros_like(m), m))
        # rows of 40 and 100 holding two NaNs (payloads 1, 2) where Eigen's accumulators, fold, remaining packets,
        # lane tree and tail meet (reduce_nans.py: the first and second of each pair in another part)
        for n in (40, 100):
            pairs = [(a, b) for a, b in ((0, 8), (5, 29), (1, 5), (5, 17), (8, 32), (13, 37), (5, 21), (17, 21),
                                         (1, 33), (3, 39), (24, 29), (64, 66), (33, 37), (45, 69), (9, 95))
                     if b < n]
            rows = np.full((len(pairs), n), 0.75, dt)
            for i, (a, b) in enumerate(pairs):
                rows[i, a], rows[i, b] = nan(dt, 1), nan(dt, 2, True)
            for name in ("sum", "prod", "mean"):
                out[f"{name} pairs {n} {dt}"] = outcome(lambda name=name, rows=rows: getattr(ops, name)(rows, axis=1))
    return out


program("n-ops-reductions", _ops_reductions)
