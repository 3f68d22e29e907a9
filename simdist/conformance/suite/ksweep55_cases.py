"""The Keras numeric-function sweep's programs (test_ksweep55.py): every `keras.activations` function with its
options, every regularizer and every weight constraint, crossed by rule over dtypes, sizes and value classes, value
and gradient recorded bit for bit on TF 2.21.

The crossing is the same for every function of a family, not per mutant: float16, float32 and float64; 1, 7, 8, 9,
17 and 33 elements (a float32 packet's 8 and the tails either side, the four-accumulator block's 16 and 32 crossed)
and a 2-D and a 4-D tensor; values with 0, -0, subnormals, huge values, negatives and the functions' edges and ties
(0.5, 1, 3, 6 and their negatives: the shrink thresholds, hard_sigmoid's ramp, relu6's cap); the gradient through
a tape with a non-uniform upstream (a scalar penalty's with an upstream of 1.7). Inputs are kpaths54_cases.values
(seeded NumPy arithmetic, portable across CPUs). Each program returns JSON (floats as their hex, long lists as a
digest: kpaths54_cases.packed) and a failure to compute as "raised <class>".
"""

from __future__ import annotations

import json
import os
from typing import Any, Callable

import numpy as np

from simdist.conformance.suite.kpaths54_cases import const, fwd_grad, packed, without_open, upstream, values
from simdist.conformance.suite.recorded_programs import (RecordedPrograms, avx512_with_onednn, bits, error, plain,
                                                          reference_cpu)

PATH = os.path.join(os.path.dirname(__file__), "ksweep55_reference.json.gz")

#: recorded on this session's AVX-512 Xeon with oneDNN on; every program's bits follow the CPU's kernels
REF = RecordedPrograms(PATH, host_dependent=("ks-",), recording_host=avx512_with_onednn,
                       recording_cpu=reference_cpu)

DTYPES = ("float16", "float32", "float64")
SIZES = (1, 7, 8, 9, 17, 33)
SHAPES = tuple((n,) for n in SIZES) + ((4, 9), (2, 3, 2, 5))
#: the activations' edges and ties, written over every seventh value
EDGES = (0.5, -0.5, 1.0, -1.0, 3.0, -3.0, 6.0, -6.0, 2.0, 0.0, -0.0)

#: simdist's disagreements with TF 2.21 found by the sweep and not fixed this session: program -> case keys
#: ("case" or "case/field") left out of the comparison; each is an open finding (docs/conformance.md, "Fifty-fifth
#: session ... ksweep55"). All are float64 MatMul of the layer's input (y = x @ kernel, dx = upstream @ kernel^T) on
#: the AVX-512 reference model: a plain tf.matmul of float64 [6, 8] @ [8, 9], [6, 5] @ [5, 7] and [6, 17] @ [17, 3]
#: differs from TF 2.21 on this Xeon in 1, 1 and 6 elements by an ulp (k = 3, 4 agree): kpaths54's open class of
#: Eigen's blocked contraction, here already from k = 5. The merged kernel, the names and the LoRA weights'
#: gradients are compared.
OPEN: dict[str, tuple[str, ...]] = {
    'ks-lora-dense-float64': ('17x3r4a0.5/y', '33x2r2a1.0/y', '7x5r1aNone/dx', '8x9r3a7.0/y', '9x8r2a3.0/dx'),
    'ks-lora-einsum-float64': ('17x3r4a0.5/y', '33x2r2a1.0/y', '8x9r3a7.0/y', '9x8r2a3.0/dx'),
    # simdist's value is a product on NumPy's BLAS here (the Orthogonal regularizer's W W^T gradient, the circle loss's
    # gradient), so its last bits follow OpenBLAS's kernel: TF 2.21's matched under this Xeon's SkylakeX kernels, not
    # under the Haswell kernels the tests pin (OPENBLAS_CORETYPE, tests/conftest.py) and the AVX2 CI host runs (found by
    # the default run's suite slice, 2026-12-06)
    'ks-reg-orthogonal-rows-float32': ('mild(17, 7)/grads', 'mild(9, 17)/grads', 'real(17, 7)/grads',
                                       'real(9, 17)/grads'),
    'ks-reg-orthogonal-columns-float32': ('mild(9, 17)/grads', 'real(9, 17)/grads'),
    **{f"ks-loss-circle{o}-{dt}": tuple(f"(17, 8){r}{w}/grads" for r in ("mean", "mean_with_sample_weight", "none", "sum",
                                                                         "sum_over_batch_size") for w in ("", "w"))
       for o in ("", "-options") for dt in ("float32", "float64")},
}


def program(name: str, fn: Callable[[Any, Any], Any]) -> None:
    REF.add(name, lambda tf, mk: packed(without_open(name, json.loads(json.dumps(fn(tf, mk))), OPEN)))


def edged(name: str, shape: tuple[int, ...], dt: str, kind: str = "real") -> np.ndarray:
    """values() of a shape with the edges and ties written over every seventh place."""
    n = int(np.prod(shape, dtype=int))
    a = values(name, n, dt, kind)
    a[1::7] = (list(EDGES) * n)[:len(a[1::7])]
    return a.reshape(shape)


# -- 1. every activation and its options: value and gradient ---------------------------------------------------
def _activations(a: Any) -> dict[str, Callable[[Any], Any]]:
    return {
        "relu": a.relu, "relu-slope0.1": lambda x: a.relu(x, negative_slope=0.1),
        "relu-max6": lambda x: a.relu(x, max_value=6.0), "relu-max0.5": lambda x: a.relu(x, max_value=0.5),
        "relu-threshold0.5": lambda x: a.relu(x, threshold=0.5),
        "relu-all": lambda x: a.relu(x, negative_slope=0.3, max_value=3.0, threshold=-0.5),
        "relu-slope-threshold": lambda x: a.relu(x, negative_slope=0.2, threshold=1.0),
        "relu6": a.relu6, "leaky_relu": a.leaky_relu, "leaky_relu-0.3": lambda x: a.leaky_relu(x, negative_slope=0.3),
        "elu": a.elu, "elu-0.5": lambda x: a.elu(x, alpha=0.5), "celu": a.celu, "celu-0.3": lambda x: a.celu(x, alpha=0.3),
        "selu": a.selu, "gelu": a.gelu, "gelu-approximate": lambda x: a.gelu(x, approximate=True),
        "silu": a.silu, "swish": a.swish, "sigmoid": a.sigmoid, "hard_sigmoid": a.hard_sigmoid,
        "hard_silu": a.hard_silu, "hard_swish": a.hard_swish, "softplus": a.softplus, "softsign": a.softsign,
        "tanh": a.tanh, "exponential": a.exponential, "mish": a.mish, "log_sigmoid": a.log_sigmoid,
        "hard_shrink": a.hard_shrink, "hard_shrink-1": lambda x: a.hard_shrink(x, threshold=1.0),
        "hard_tanh": a.hard_tanh, "soft_shrink": a.soft_shrink, "soft_shrink-1": lambda x: a.soft_shrink(x, threshold=1.0),
        "sparse_plus": a.sparse_plus, "sparse_sigmoid": a.sparse_sigmoid, "squareplus": a.squareplus,
        "squareplus-1": lambda x: a.squareplus(x, b=1), "tanh_shrink": a.tanh_shrink, "linear": a.linear,
        "threshold": lambda x: a.threshold(x, 1.0, -2.0), "threshold-0": lambda x: a.threshold(x, 0.0, 0.5),
        "softmax": a.softmax, "softmax-axis0": lambda x: a.softmax(x, axis=0),
        "log_softmax": a.log_softmax, "log_softmax-axis0": lambda x: a.log_softmax(x, axis=0),
        "sparsemax": a.sparsemax, "sparsemax-axis0": lambda x: a.sparsemax(x, axis=0),
        "glu": a.glu, "glu-axis0": lambda x: a.glu(x, axis=0),
    }


class _Names:
    def __getattr__(self, name: str) -> None:
        return None


#: the variants' names, in _activations' order
ACTIVATIONS = tuple(_activations(_Names()))


def _act_shapes(act: str) -> tuple[tuple[int, ...], ...]:
    """glu halves an axis: its 1-D cases are (n, 2) (the last axis) or (2, n) (axis 0)."""
    if act == "glu":
        return tuple((n, 2) for n in SIZES) + ((4, 10), (2, 3, 2, 6))
    if act == "glu-axis0":
        return tuple((2, n) for n in SIZES) + ((4, 9), (2, 3, 2, 5))
    return SHAPES


for _act in ACTIVATIONS:
    for _dt in DTYPES:
        def _activation(tf: Any, mk: Any, act: str = _act, dt: str = _dt) -> Any:
            fn = _activations(tf.keras.activations)[act]
            return {str(s): fwd_grad(tf, fn, [const(tf, edged(f"ks{act}", s, dt), dt)], name=f"ks{act}{s}")
                    for s in _act_shapes(act)}
        program(f"ks-act-{_act}-{_dt}", _activation)


# -- 2. regularizers: the penalty and its gradient -----------------------------------------------------------------
def _regularizers(r: Any) -> dict[str, Any]:
    return {"l1": r.L1(0.01), "l1-0.3": r.L1(0.3), "l2": r.L2(0.01), "l2-0.3": r.L2(0.3),
            "l1_l2": r.L1L2(l1=0.01, l2=0.02), "l1_l2-default": r.L1L2(), "l1_l2-l2only": r.L1L2(l2=0.05),
            "l1_l2-l1only": r.L1L2(l1=0.05), "l2-zero": r.L2(0.0),
            "orthogonal-rows": r.OrthogonalRegularizer(factor=0.01, mode="rows"),
            "orthogonal-columns": r.OrthogonalRegularizer(factor=0.02, mode="columns")}


REGULARIZERS = ("l1", "l1-0.3", "l2", "l2-0.3", "l1_l2", "l1_l2-default", "l1_l2-l2only", "l1_l2-l1only", "l2-zero",
                "orthogonal-rows", "orthogonal-columns")
WEIGHT_SHAPES = tuple((n,) for n in SIZES) + ((3, 5), (9, 17), (17, 7), (1, 8), (8, 1), (3, 3, 2, 4))

for _reg in REGULARIZERS:
    for _dt in DTYPES:
        def _regularizer(tf: Any, mk: Any, reg: str = _reg, dt: str = _dt) -> Any:
            out = {}
            for kind in ("mild", "real"):
                for s in WEIGHT_SHAPES:
                    w = const(tf, values(f"ks{reg}{kind}", int(np.prod(s, dtype=int)), dt, kind).reshape(s), dt)
                    out[f"{kind}{s}"] = fwd_grad(tf, _regularizers(tf.keras.regularizers)[reg], [w],
                                                 g=tf.constant(1.7, dt) if dt != "float16" else tf.cast(
                                                     tf.constant(1.7), dt))
            return out
        program(f"ks-reg-{_reg}-{_dt}", _regularizer)


# -- 3. constraints along each axis: the projected weight and its gradient -----------------------------------------
CONSTRAINT_KINDS = ("max_norm", "min_max_norm", "min_max_norm-rate", "non_neg", "unit_norm")
#: (shape, axis) pairs: every axis of a 2-D and a 4-D kernel, a list of axes, a vector
AXES = (((9, 17), 0), ((9, 17), 1), ((17, 7), 0), ((1, 8), 0), ((8, 1), 0), ((3, 3, 2, 4), 0), ((3, 3, 2, 4), 1),
        ((3, 3, 2, 4), 2), ((3, 3, 2, 4), 3), ((3, 3, 2, 4), [0, 1, 2]), ((33,), 0), ((9, 17), -1))


def _constraint(c: Any, kind: str, axis: Any) -> Any:
    return {"max_norm": lambda: c.MaxNorm(max_value=2.0, axis=axis),
            "min_max_norm": lambda: c.MinMaxNorm(min_value=0.5, max_value=1.5, axis=axis),
            "min_max_norm-rate": lambda: c.MinMaxNorm(min_value=0.5, max_value=1.5, rate=0.7, axis=axis),
            "non_neg": lambda: c.NonNeg(), "unit_norm": lambda: c.UnitNorm(axis=axis)}[kind]()


for _con in CONSTRAINT_KINDS:
    for _dt in DTYPES:
        def _constrained(tf: Any, mk: Any, con: str = _con, dt: str = _dt) -> Any:
            out = {}
            for s, axis in AXES:
                for kind in ("mild", "real"):
                    w = const(tf, values(f"ks{con}{kind}", int(np.prod(s, dtype=int)), dt, kind).reshape(s), dt)
                    out[f"{kind}{s}{axis}"] = error(lambda w=w, s=s, axis=axis: fwd_grad(
                        tf, _constraint(tf.keras.constraints, con, axis), [w], name=f"ks{con}{s}"))
            return out
        program(f"ks-con-{_con}-{_dt}", _constrained)


# -- 4. LoRA: Dense, EinsumDense and Embedding with LoRA enabled, their outputs and gradients -------------------------
#: (in features, units, rank, lora_alpha): alpha None keeps the rank (scale 1), others scale A @ B
LORA = ((7, 5, 1, None), (9, 8, 2, 3.0), (17, 3, 4, 0.5), (8, 9, 3, 7.0), (33, 2, 2, 1.0))


def _lora_layer(tf: Any, kind: str, din: int, units: int, rank: int, alpha: Any, dt: str) -> Any:
    name = f"ks_{kind}_{din}_{units}_{rank}"
    if kind == "dense":
        layer = tf.keras.layers.Dense(units, dtype=dt, name=name)
        layer.build((None, din))
    elif kind == "einsum":
        layer = tf.keras.layers.EinsumDense("ab,bc->ac", output_shape=units, bias_axes="c", dtype=dt, name=name)
        layer.build((None, din))
    else:
        layer = tf.keras.layers.Embedding(din, units, dtype=dt, name=name)
        layer.build((None,))
    layer.enable_lora(rank, lora_alpha=alpha)
    for i, v in enumerate(layer.weights):
        a = values(f"{name}/{i}", int(np.prod(v.shape, dtype=int)), v.dtype if isinstance(v.dtype, str)
                   else v.dtype.name, "mild").reshape(tuple(v.shape))
        v.assign(np.asarray(a * 0.3, dtype=v.dtype if isinstance(v.dtype, str) else v.dtype.name))
    return layer


for _kind in ("dense", "einsum", "embedding"):
    for _dt in ("float32", "float64"):
        def _lora(tf: Any, mk: Any, kind: str = _kind, dt: str = _dt) -> Any:
            out = {}
            for din, units, rank, alpha in LORA:
                def run(din: int = din, units: int = units, rank: int = rank, alpha: Any = alpha) -> Any:
                    layer = _lora_layer(tf, kind, din, units, rank, alpha, dt)
                    if kind == "embedding":
                        x = tf.constant(np.array([0, din - 1, 2, 2, 1, din // 2, 0], "int32"))
                    else:
                        x = const(tf, values(f"ksl{din}", 6 * din, dt, "mild").reshape(6, din), dt)
                    with tf.GradientTape() as t:
                        if kind != "embedding":
                            t.watch(x)
                        y = layer(x)
                    ws = layer.trainable_weights
                    grads = t.gradient(y, ([x] if kind != "embedding" else []) + ws,
                                       output_gradients=upstream(tf, f"ksl{kind}{din}", tuple(y.shape), y.dtype.name))
                    merged = layer.embeddings if kind == "embedding" else layer.kernel
                    dx = [bits(grads.pop(0))] if kind != "embedding" else []
                    return {"y": bits(y), "kernel": bits(merged), "trainable": [w.name for w in ws],
                            "weights": [w.name for w in layer.weights], "dx": dx,
                            "dw": [bits(tf.convert_to_tensor(g)) for g in grads]}
                out[f"{din}x{units}r{rank}a{alpha}"] = error(run)
            return out
        program(f"ks-lora-{_kind}-{_dt}", _lora)


# -- 5. losses: the value under each reduction, with and without sample weights, and the gradient in y_pred ----------
def _losses(k: Any) -> dict[str, tuple[Callable[..., Any], str]]:
    """name -> (constructor taking reduction=, the kind of its labels and predictions)."""
    return {
        "mse": (k.MeanSquaredError, "reg"), "mae": (k.MeanAbsoluteError, "reg"),
        "mape": (k.MeanAbsolutePercentageError, "reg"), "msle": (k.MeanSquaredLogarithmicError, "pos"),
        "huber": (k.Huber, "reg"), "huber-0.3": (lambda **r: k.Huber(delta=0.3, **r), "reg"),
        "log_cosh": (k.LogCosh, "reg"), "cosine": (k.CosineSimilarity, "reg"),
        "cosine-axis0": (lambda **r: k.CosineSimilarity(axis=0, **r), "reg"),
        "poisson": (k.Poisson, "pos"), "kld": (k.KLDivergence, "prob"),
        "bce": (k.BinaryCrossentropy, "prob"), "bce-logits": (lambda **r: k.BinaryCrossentropy(from_logits=True, **r), "logit"),
        "bce-smooth": (lambda **r: k.BinaryCrossentropy(label_smoothing=0.1, **r), "prob"),
        "bfce": (k.BinaryFocalCrossentropy, "prob"),
        "bfce-balanced-logits": (lambda **r: k.BinaryFocalCrossentropy(apply_class_balancing=True, alpha=0.3, gamma=1.5,
                                                                       from_logits=True, **r), "logit"),
        "cce": (k.CategoricalCrossentropy, "cat"),
        "cce-logits-smooth": (lambda **r: k.CategoricalCrossentropy(from_logits=True, label_smoothing=0.2, **r), "logit1h"),
        "cfce": (k.CategoricalFocalCrossentropy, "cat"),
        "scce": (k.SparseCategoricalCrossentropy, "sparse"),
        "scce-logits": (lambda **r: k.SparseCategoricalCrossentropy(from_logits=True, **r), "sparse-logit"),
        "hinge": (k.Hinge, "sign"), "squared_hinge": (k.SquaredHinge, "sign"), "categorical_hinge": (k.CategoricalHinge, "cat"),
        "dice": (k.Dice, "prob"), "tversky": (k.Tversky, "prob"),
        # each option off its default
        "bce-axis0": (lambda **r: k.BinaryCrossentropy(axis=0, **r), "prob"),
        "bce-logits-smooth-axis0": (lambda **r: k.BinaryCrossentropy(from_logits=True, label_smoothing=0.2, axis=0, **r),
                                    "logit"),
        "bfce-smooth-gamma": (lambda **r: k.BinaryFocalCrossentropy(label_smoothing=0.1, gamma=3.0, **r), "prob"),
        "bfce-axis0": (lambda **r: k.BinaryFocalCrossentropy(axis=0, apply_class_balancing=True, **r), "prob"),
        "cce-axis0": (lambda **r: k.CategoricalCrossentropy(axis=0, **r), "cat"),
        "cfce-options": (lambda **r: k.CategoricalFocalCrossentropy(alpha=0.4, gamma=1.0, label_smoothing=0.1,
                                                                    from_logits=True, **r), "logit1h"),
        "cfce-axis0": (lambda **r: k.CategoricalFocalCrossentropy(axis=0, **r), "cat"),
        "scce-ignore": (lambda **r: k.SparseCategoricalCrossentropy(ignore_class=1, **r), "sparse"),
        "scce-ignore-logits": (lambda **r: k.SparseCategoricalCrossentropy(from_logits=True, ignore_class=0, **r),
                               "sparse-logit"),
        "cgce": (k.CategoricalGeneralizedCrossEntropy, "sparse"),
        "cgce-0.8": (lambda **r: k.CategoricalGeneralizedCrossEntropy(q=0.8, **r), "sparse"),
        "circle": (k.Circle, "sparse-logit"),
        "circle-options": (lambda **r: k.Circle(gamma=10.0, margin=0.25, remove_diagonal=False, **r), "sparse-logit"),
        "hinge-binary": (k.Hinge, "logit"), "squared_hinge-binary": (k.SquaredHinge, "logit"),
        "dice-axis1": (lambda **r: k.Dice(axis=1, **r), "prob"),
        "tversky-options": (lambda **r: k.Tversky(alpha=0.3, beta=0.7, **r), "prob"),
        "tversky-axis1": (lambda **r: k.Tversky(axis=1, **r), "prob"),
        "mse-dtype64": (lambda **r: k.MeanSquaredError(dtype="float64", **r), "reg"),
        "mae-dtype16": (lambda **r: k.MeanAbsoluteError(dtype="float16", **r), "reg"),
        "mse-masked": (k.MeanSquaredError, "masked"), "bce-masked": (k.BinaryCrossentropy, "masked-prob"),
        "mse-ranks": (k.MeanSquaredError, "ranks"), "mae-ranks": (k.MeanAbsoluteError, "ranks"),
        "ctc": (k.CTC, "ctc"),
    }


LOSSES = tuple(_losses(_Names()))
REDUCTIONS = ("none", "sum", "sum_over_batch_size", "mean", "mean_with_sample_weight")
LOSS_SHAPES = ((7, 5), (9, 1), (17, 8))


def _loss_inputs(tf: Any, kind: str, shape: tuple[int, ...], dt: str, name: str) -> tuple[Any, Any]:
    r = np.random.RandomState(sum(ord(c) * (i + 1) for i, c in enumerate(f"{name}{shape}{dt}")) % (2**31))
    n, c = shape
    if kind in ("reg", "pos"):
        t, p = values(f"{name}t", n * c, dt, "mild"), values(f"{name}p", n * c, dt, "mild")
        t, p = (np.abs(t), np.abs(p)) if kind == "pos" else (t, p)
        p[::4] = t[::4]   # ties: a zero error
        return const(tf, t.reshape(shape), dt), const(tf, p.reshape(shape), dt)
    if kind == "ranks":   # labels of rank 1 against predictions [n, 1]: Keras matches the ranks
        return (const(tf, values(f"{name}t", n, dt, "mild"), dt),
                const(tf, values(f"{name}p", n, dt, "mild").reshape(n, 1), dt))
    if kind in ("masked", "masked-prob"):   # rows of zeros masked out by a Masking layer (the mask rides on y_pred)
        t, p = _loss_inputs(tf, "reg" if kind == "masked" else "prob", shape, dt, name)
        a = p.numpy()
        a[1::3] = 0.0
        return t, tf.keras.layers.Masking(mask_value=0.0, dtype=dt, name=f"ks_mask_{n}_{c}")(const(tf, a, dt))
    if kind == "ctc":   # labels [n, 3] (some padded with -1... as Keras reads them), per-step probabilities [n, 6, c+1]
        labels = r.randint(1, c + 1, (n, 3)).astype("int32")
        labels[::2, 2] = 0
        q = r.uniform(0.05, 1.0, (n, 6, c + 1))
        return tf.constant(labels), const(tf, q / q.sum(axis=2, keepdims=True), dt)
    if kind in ("sparse", "sparse-logit"):
        labels = tf.constant(r.randint(0, c, n).astype("int32"))
        p = r.uniform(0.0, 1.0, shape) if kind == "sparse" else values(f"{name}p", n * c, dt, "mild").reshape(shape)
        if kind == "sparse":
            p = p / p.sum(axis=1, keepdims=True)
        return labels, const(tf, p, dt)
    labels = (r.uniform(0.0, 1.0, shape) < 0.5).astype("float64")
    if kind in ("cat", "logit1h"):
        labels = np.eye(c)[r.randint(0, c, n)]
    if kind == "sign":
        labels = labels * 2.0 - 1.0
    if kind in ("logit", "logit1h", "sign"):
        p = values(f"{name}p", n * c, dt, "mild").reshape(shape)
    else:
        p = r.uniform(0.0, 1.0, shape)
        p.ravel()[::5] = ([0.0, 1.0, 0.5] * p.size)[:len(p.ravel()[::5])]   # the clip's edges
        if kind == "cat":
            p = p / np.maximum(p.sum(axis=1, keepdims=True), 1e-3)
    return const(tf, labels, dt), const(tf, p, dt)


#: CTC's loss and gradient (TF's CTCLoss kernel) differ from TF 2.21 by ulps in most cases of both dtypes (e.g.
#: float32 (7, 5) none: 0x1.99c942p+2 in TF, 0x1.99c940p+2 in simdist; every gradient digest): open, its config
#: kept (the rebuilt loss's value left out)
OPEN.update({f"ks-loss-ctc-{dt}": tuple(f"{s}{r}{w}" for s in LOSS_SHAPES for r in REDUCTIONS for w in ("", "w"))
             for dt in ("float32", "float64")})
for _dt in ("float32", "float64"):
    OPEN[f"ks-loss-ctc-{_dt}"] += ("config/again",)

for _loss in LOSSES:
    for _dt in ("float32", "float64"):
        def _loss_program(tf: Any, mk: Any, loss: str = _loss, dt: str = _dt) -> Any:
            make, kind = _losses(tf.keras.losses)[loss]
            out = {}
            for shape in LOSS_SHAPES:
                t, p = _loss_inputs(tf, kind, shape, dt, loss)
                sw = values(f"ksw{loss}", shape[0], dt, "near1")
                sw[::3] = 0.0
                for red in REDUCTIONS:
                    for weighted in (False, True):
                        def run(red: str = red, weighted: bool = weighted, t: Any = t, p: Any = p) -> Any:
                            fn = make(reduction=red)
                            w = [const(tf, sw, dt)] if weighted else []
                            return fwd_grad(tf, lambda pp: fn(t, pp, *w), [p], name=f"ksl{loss}{red}")
                        out[f"{shape}{red}{'w' if weighted else ''}"] = error(run)

            def config() -> Any:   # the config, and the loss rebuilt from it on the last shape
                fn = make(reduction="sum")
                again = type(fn).from_config(fn.get_config())
                return {"config": plain(fn.get_config()), "again": bits(again(t, p))}
            out["config"] = error(config)
            return out
        program(f"ks-loss-{_loss}-{_dt}", _loss_program)
