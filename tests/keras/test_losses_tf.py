"""Differential tests of tf.keras.losses: simdist vs TF 2.21 + Keras 3.15.1.

Each case builds the same inputs (from a seed named by the case), calls a Keras loss (a class,
a function form, or one `losses.get` resolved) eagerly, inside `strategy.run` of a
MirroredStrategy, or in a strategy's scope, and records the loss value and its gradient with
respect to y_pred (GradientTape), or the error class and message. TF runs in a subprocess: a
fixed list of cases in one `tf_workers.spawn`, and hypothesis-drawn shapes through a
long-lived worker (tf_session.py).

Tolerance (docs/spec.md, "Keras: losses and metrics"): float32 values and gradients agree to
rtol 1e-5 with an absolute floor of 1e-6 times the array's largest magnitude: the same float32
ops, but logs, exps and sums can round differently in NumPy and Eigen by an ulp or two.
"""

from __future__ import annotations

import os
import re
import sys
import zlib
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import portable_inputs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

RTOL, ATOL_SCALE = 1e-5, 1e-6

REDUCTIONS = ("sum_over_batch_size", "sum", "none", None, "mean", "mean_with_sample_weight")
KINDS = ("sparse", "categorical", "binary", "regression")
LOSS_KIND = {"SparseCategoricalCrossentropy": "sparse", "CategoricalCrossentropy": "categorical",
             "BinaryCrossentropy": "binary", "MeanSquaredError": "regression", "MeanAbsoluteError": "regression",
             "sparse_categorical_crossentropy": "sparse", "categorical_crossentropy": "categorical",
             "binary_crossentropy": "binary", "mean_squared_error": "regression", "mean_absolute_error": "regression",
             "mse": "regression", "mae": "regression", "bce": "binary", "MSE": "regression"}


@dataclass(frozen=True)
class Case:
    name: str
    loss: str                              # class or function name (LOSS_KIND's keys)
    form: str = "class"                    # class | function | get
    kwargs: tuple = ()                     # constructor (class) or call (function) keyword arguments
    batch: int = 6
    classes: int = 4                       # classes (sparse/categorical) or last dim (binary/regression)
    label_rank: str = "normal"             # normal | keepdim (sparse (B,1), binary/regression (B,1))
    weights: str | None = None             # None | per_sample | column (B,1) | scalar | elementwise
    logits: bool = False                   # y_pred are logits (else probabilities / plain values)
    extreme: bool = False                  # probabilities with exact 0s and 1s (the clipping)
    dtype: str = "float32"                 # y_pred's dtype
    context: str = "eager"                 # eager | mirrored2 | mirrored4 | scope2
    activation: bool = False               # y_pred = keras.activations.softmax/sigmoid(logits), gradient
                                           # taken w.r.t. the logits and y_pred
    seed: int = -1                         # -1: derived from the name
    tags: tuple = field(default=(), compare=False)


def _seed(case: Case) -> int:
    return case.seed if case.seed >= 0 else zlib.crc32(case.name.encode())


def make_inputs(case: Case) -> dict[str, Any]:
    """y_true, y_pred and sample_weight as NumPy arrays, from the case's seed."""
    rng = np.random.default_rng(_seed(case))
    kind = LOSS_KIND[case.loss]
    b, c = case.batch, case.classes
    raw = rng.standard_normal((b, c)).astype(np.float64) * 2.0
    if kind == "sparse":
        y_true = rng.integers(0, c, b).astype(np.int32)
        if case.label_rank == "keepdim":
            y_true = y_true.reshape(b, 1)
    elif kind == "categorical":
        y_true = np.eye(c, dtype=np.float32)[rng.integers(0, c, b)]
    elif kind == "binary":
        y_true = rng.integers(0, 2, (b, c)).astype(np.float32)
    else:
        y_true = rng.standard_normal((b, c)).astype(np.float32)
    if kind in ("sparse", "categorical"):
        if case.logits:
            y_pred = raw
        else:
            e = portable_inputs.exp(raw - raw.max(axis=1, keepdims=True))
            y_pred = e / e.sum(axis=1, keepdims=True)
            if case.extreme:
                y_pred[0] = 0.0
                y_pred[0, 0] = 1.0
                if b > 1:
                    y_pred[1, :] = 1.0 / c
    elif kind == "binary":
        y_pred = raw if case.logits else 1.0 / (1.0 + portable_inputs.exp(-raw))
        if case.extreme and not case.logits:
            y_pred[0, 0] = 0.0
            y_pred[-1, -1] = 1.0
    else:
        y_pred = raw
    if case.label_rank == "keepdim" and kind in ("binary", "regression"):
        y_true, y_pred = y_true[:, :1], y_pred[:, :1]
    y_pred = y_pred.astype(case.dtype)
    w = None
    if case.weights == "per_sample":
        w = rng.uniform(0.0, 2.0, b).astype(np.float32)
        w[0] = 0.0
    elif case.weights == "column":
        w = rng.uniform(0.0, 2.0, (b, 1)).astype(np.float32)
    elif case.weights == "scalar":
        w = np.float32(0.7)
    elif case.weights == "elementwise":
        w = rng.uniform(0.0, 2.0, (b, c)).astype(np.float32)
    return {"y_true": y_true, "y_pred": y_pred, "sample_weight": w}


def _loss_callable(tf: Any, case: Case) -> Any:
    kw = dict(case.kwargs)
    keras_losses = tf.keras.losses
    if case.form == "class":
        return getattr(keras_losses, case.loss)(**kw)
    if case.form == "get":
        obj = keras_losses.get(case.loss)
        return obj if not kw else (lambda yt, yp, sample_weight=None: obj(yt, yp, **kw))
    fn = getattr(keras_losses, case.loss)
    return lambda yt, yp, sample_weight=None: fn(yt, yp, **kw)


def _call(loss: Any, tf: Any, y_true: Any, y_pred: Any, w: Any) -> tuple[Any, Any]:
    with tf.GradientTape() as tape:
        tape.watch(y_pred)
        value = loss(y_true, y_pred, sample_weight=w) if w is not None else loss(y_true, y_pred)
    return value, tape.gradient(value, y_pred)


def _through_activation(loss: Any, tf: Any, case: Case, d: dict[str, Any], w: Any) -> list[dict[str, Any]]:
    """y_pred made by Keras's softmax (sigmoid for binary) from logits: the loss and its
    gradients w.r.t. the logits and w.r.t. y_pred (None when the loss used the logits)."""
    logits = tf.constant(d["y_pred"])
    act = tf.keras.activations.sigmoid if LOSS_KIND[case.loss] == "binary" else tf.keras.activations.softmax
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(logits)
        y_pred = act(logits)
        tape.watch(y_pred)
        value = loss(tf.constant(d["y_true"]), y_pred, sample_weight=w) if w is not None else \
            loss(tf.constant(d["y_true"]), y_pred)
    g_logits, g_pred = tape.gradient(value, logits), tape.gradient(value, y_pred)
    return [_result(value, g_logits), _result(value, g_pred)]


def run_case(tf: Any, case: Case) -> Any:
    """The program, the same on both backends: {"value", "grad", "dtype"} per replica (a list),
    or ("error", class name, message)."""
    d = make_inputs(case)
    try:
        loss = _loss_callable(tf, case)
        w = None if d["sample_weight"] is None else tf.constant(d["sample_weight"])
        if case.activation:
            return _through_activation(loss, tf, case, d, w)
        if case.context == "eager":
            value, grad = _call(loss, tf, tf.constant(d["y_true"]), tf.constant(d["y_pred"]), w)
            return [_result(value, grad)]
        n = int(case.context[-1])
        strategy = tf.distribute.MirroredStrategy([f"/cpu:{i}" for i in range(n)])
        if case.context.startswith("scope"):
            with strategy.scope():
                value, grad = _call(loss, tf, tf.constant(d["y_true"]), tf.constant(d["y_pred"]), w)
            return [_result(value, grad)]
        per = case.batch // n

        def shard(a: Any) -> Any:
            if a is None or np.ndim(a) == 0:
                return None if a is None else strategy.experimental_distribute_values_from_function(
                    lambda ctx: tf.constant(a))
            return strategy.experimental_distribute_values_from_function(
                lambda ctx: tf.constant(a[ctx.replica_id_in_sync_group * per:(ctx.replica_id_in_sync_group + 1) * per]))

        def step(yt: Any, yp: Any, sw: Any) -> Any:
            return _call(loss, tf, yt, yp, sw)

        values, grads = strategy.run(step, args=(shard(d["y_true"]), shard(d["y_pred"]), shard(d["sample_weight"])))
        return [_result(v, g) for v, g in zip(strategy.experimental_local_results(values),
                                              strategy.experimental_local_results(grads))]
    except Exception as e:  # noqa: BLE001 - the error is part of the result
        return ("error", type(e).__name__, str(e).split("\n")[0][:300])


def _result(value: Any, grad: Any) -> dict[str, Any]:
    return {"value": np.asarray(value.numpy()), "dtype": value.dtype.name,
            "grad": None if grad is None else np.asarray(grad.numpy()),
            "grad_dtype": None if grad is None else grad.dtype.name}


def _close(got: np.ndarray, want: np.ndarray) -> bool:
    g, w = np.asarray(got, np.float64), np.asarray(want, np.float64)
    if g.shape != w.shape:
        return False
    scale = float(np.max(np.abs(w))) if w.size and np.all(np.isfinite(w)) else 1.0
    return bool(np.allclose(g, w, rtol=RTOL, atol=ATOL_SCALE * max(scale, 1e-30), equal_nan=True))


def _unordered_sets(msg: str) -> str:
    """A message as compared: each printed Python set's items sorted (Keras prints sets in hash
    order), TF's eager-op decoration ("{{function_node ...}} " and " name: ") removed, and the
    module path in an AttributeError reduced to its last part (tf.keras is keras._tf_keras...)."""
    msg = re.sub(r"^\{\{function_node [^}]*\}\} ", "", msg)
    msg = re.sub(r" name: $", "", msg)
    msg = re.sub(r"module '[\w.]*\.(\w+)' has no attribute", r"module '\1' has no attribute", msg)
    return re.sub(r"\{([^{}]*)\}", lambda m: "{" + ", ".join(sorted(m.group(1).split(", "))) + "}", msg)


def assert_same(got: Any, want: Any, where: str) -> None:
    if isinstance(want, tuple) and want[0] == "error":
        assert isinstance(got, tuple) and got[:2] == want[:2], f"{where}: TF 2.21 raises {want[1]}: {want[2]!r}; " \
                                                              f"simdist gives {got!r}"
        assert _unordered_sets(got[2]) == _unordered_sets(want[2]), \
            f"{where}: error message {got[2]!r}, but TF 2.21 says {want[2]!r}"
        return
    assert not (isinstance(got, tuple) and got and got[0] == "error"), \
        f"{where}: simdist raises {got[1]}: {got[2]!r}; TF 2.21 gives a value"
    assert len(got) == len(want), f"{where}: {len(got)} replica results, TF 2.21 has {len(want)}"
    for r, (g, w) in enumerate(zip(got, want)):
        at = f"{where} (replica {r})" if len(want) > 1 else where
        assert g["dtype"] == w["dtype"], f"{at}: loss dtype {g['dtype']}, but TF 2.21 gives {w['dtype']}"
        assert g["value"].shape == w["value"].shape, \
            f"{at}: loss shape {g['value'].shape}, but TF 2.21 gives {w['value'].shape}"
        assert _close(g["value"], w["value"]), f"{at}: loss {g['value'].tolist()}, TF 2.21 {w['value'].tolist()}"
        assert (g["grad"] is None) == (w["grad"] is None), \
            f"{at}: gradient {'None' if g['grad'] is None else 'a tensor'}, TF 2.21 " \
            f"{'None' if w['grad'] is None else 'a tensor'}"
        if w["grad"] is not None:
            assert g["grad_dtype"] == w["grad_dtype"], \
                f"{at}: gradient dtype {g['grad_dtype']}, but TF 2.21 gives {w['grad_dtype']}"
            assert _close(g["grad"], w["grad"]), \
                f"{at}: d loss / d y_pred = {g['grad'].tolist()}, TF 2.21 {w['grad'].tolist()}"


# --- the cases --------------------------------------------------------------------------------------
def _cases() -> list[Case]:
    out: list[Case] = []
    classes = ("SparseCategoricalCrossentropy", "CategoricalCrossentropy", "BinaryCrossentropy",
               "MeanSquaredError", "MeanAbsoluteError")
    for cls in classes:
        # every reduction, without and with per-sample weights
        for red in REDUCTIONS:
            tag = "None" if red is None else red
            out.append(Case(f"{cls}-{tag}", cls, kwargs=(("reduction", red),), tags=("keras.loss.reductions",)))
            out.append(Case(f"{cls}-{tag}-weighted", cls, kwargs=(("reduction", red),), weights="per_sample",
                            tags=("keras.loss.sample-weight",)))
        out.append(Case(f"{cls}-column-weights", cls, weights="column", tags=("keras.loss.sample-weight",)))
        out.append(Case(f"{cls}-scalar-weight", cls, weights="scalar", tags=("keras.loss.sample-weight",)))
        out.append(Case(f"{cls}-mirrored2-run", cls, context="mirrored2", batch=8,
                        tags=("keras.loss.distribution-scaling",)))
        out.append(Case(f"{cls}-mirrored4-run-weighted-sum", cls, context="mirrored4", batch=8, weights="per_sample",
                        kwargs=(("reduction", "sum"),), tags=("keras.loss.distribution-scaling",)))
        out.append(Case(f"{cls}-scope2", cls, context="scope2", tags=("keras.loss.distribution-scaling",)))
        out.append(Case(f"{cls}-float64-pred", cls, dtype="float64", tags=("keras.loss.dtype",)))
        out.append(Case(f"{cls}-dtype-float64", cls, kwargs=(("dtype", "float64"),), tags=("keras.loss.dtype",)))
    for cls in classes[:3]:
        out.append(Case(f"{cls}-from-logits", cls, kwargs=(("from_logits", True),), logits=True,
                        tags=("keras.loss.from-logits",)))
        out.append(Case(f"{cls}-from-logits-weighted-sum", cls, kwargs=(("from_logits", True), ("reduction", "sum")),
                        logits=True, weights="per_sample", tags=("keras.loss.from-logits",)))
        out.append(Case(f"{cls}-clipping", cls, extreme=True, tags=("keras.loss.epsilon-clipping",)))
        out.append(Case(f"{cls}-clipping-none", cls, extreme=True, kwargs=(("reduction", "none"),),
                        tags=("keras.loss.epsilon-clipping",)))
    out += [
        Case("SparseCategoricalCrossentropy-keepdim-labels", "SparseCategoricalCrossentropy", label_rank="keepdim",
             tags=("keras.loss.shapes",)),
        Case("SparseCategoricalCrossentropy-ignore-class", "SparseCategoricalCrossentropy",
             kwargs=(("ignore_class", 1),), tags=("keras.loss.ignore-class",)),
        Case("SparseCategoricalCrossentropy-ignore-class-sum", "SparseCategoricalCrossentropy",
             kwargs=(("ignore_class", 1), ("reduction", "sum")), weights="per_sample",
             tags=("keras.loss.ignore-class",)),
        Case("SparseCategoricalCrossentropy-bad-label-shape", "SparseCategoricalCrossentropy", batch=5,
             label_rank="keepdim", weights="elementwise", tags=("keras.loss.shapes",)),
        Case("CategoricalCrossentropy-label-smoothing", "CategoricalCrossentropy",
             kwargs=(("label_smoothing", 0.2),), tags=("keras.loss.label-smoothing",)),
        Case("CategoricalCrossentropy-label-smoothing-logits", "CategoricalCrossentropy",
             kwargs=(("label_smoothing", 0.1), ("from_logits", True)), logits=True,
             tags=("keras.loss.label-smoothing",)),
        Case("BinaryCrossentropy-label-smoothing", "BinaryCrossentropy", kwargs=(("label_smoothing", 0.3),),
             tags=("keras.loss.label-smoothing",)),
        Case("BinaryCrossentropy-single-output", "BinaryCrossentropy", label_rank="keepdim", weights="per_sample",
             tags=("keras.loss.shapes",)),
        Case("MeanSquaredError-single-output", "MeanSquaredError", label_rank="keepdim", tags=("keras.loss.shapes",)),
        Case("MeanSquaredError-elementwise-weights", "MeanSquaredError", weights="elementwise", batch=4, classes=4,
             tags=("keras.loss.sample-weight",)),
        Case("MeanAbsoluteError-batch-1", "MeanAbsoluteError", batch=1, weights="per_sample",
             tags=("keras.loss.reductions",)),
        Case("BinaryCrossentropy-mean-with-sample-weight-scalar", "BinaryCrossentropy",
             kwargs=(("reduction", "mean_with_sample_weight"),), weights="scalar", tags=("keras.loss.reductions",)),
        Case("fn-sparse_categorical_crossentropy", "sparse_categorical_crossentropy", form="function",
             tags=("keras.loss.functions",)),
        Case("fn-sparse_categorical_crossentropy-logits", "sparse_categorical_crossentropy", form="function",
             kwargs=(("from_logits", True),), logits=True, tags=("keras.loss.functions",)),
        Case("fn-categorical_crossentropy", "categorical_crossentropy", form="function",
             tags=("keras.loss.functions",)),
        Case("fn-binary_crossentropy-logits", "binary_crossentropy", form="function",
             kwargs=(("from_logits", True),), logits=True, tags=("keras.loss.functions",)),
        Case("fn-mse", "mse", form="function", tags=("keras.loss.functions",)),
        Case("fn-mae", "mae", form="function", tags=("keras.loss.functions",)),
        Case("fn-mean_squared_error-absent", "mean_squared_error", form="function", tags=("keras.loss.get",)),
        Case("get-mean_absolute_error", "mean_absolute_error", form="get", tags=("keras.loss.get",)),
        Case("fn-categorical_crossentropy-mismatch", "categorical_crossentropy", form="function", classes=3,
             label_rank="keepdim", tags=("keras.loss.shapes",)),
        Case("get-SparseCategoricalCrossentropy", "SparseCategoricalCrossentropy", form="get",
             tags=("keras.loss.get",)),
        Case("get-mse", "mse", form="get", tags=("keras.loss.get",)),
        Case("get-mae", "mae", form="get", tags=("keras.loss.get",)),
        Case("get-bce", "bce", form="get", tags=("keras.loss.get",)),
        Case("get-categorical_crossentropy", "categorical_crossentropy", form="get", tags=("keras.loss.get",)),
        Case("SparseCategoricalCrossentropy-after-softmax", "SparseCategoricalCrossentropy", logits=True,
             activation=True, tags=("keras.loss.logits-shortcut",)),
        Case("SparseCategoricalCrossentropy-after-softmax-from-logits", "SparseCategoricalCrossentropy",
             kwargs=(("from_logits", True),), logits=True, activation=True, tags=("keras.loss.logits-shortcut",)),
        Case("CategoricalCrossentropy-after-softmax-extreme", "CategoricalCrossentropy", logits=True, activation=True,
             seed=7, batch=3, classes=3, tags=("keras.loss.logits-shortcut",)),
        Case("BinaryCrossentropy-after-sigmoid", "BinaryCrossentropy", logits=True, activation=True,
             weights="per_sample", tags=("keras.loss.logits-shortcut",)),
        Case("fn-sparse_categorical_crossentropy-after-softmax", "sparse_categorical_crossentropy", form="function",
             logits=True, activation=True, tags=("keras.loss.logits-shortcut",)),
        Case("SparseCategoricalCrossentropy-bad-reduction", "SparseCategoricalCrossentropy",
             kwargs=(("reduction", "auto"),), tags=("keras.loss.reductions",)),
    ]
    return out


CASES = _cases()
_BY_NAME = {c.name: i for i, c in enumerate(CASES)}
assert len(_BY_NAME) == len(CASES), "duplicate case names"


# --- TF side ------------------------------------------------------------------------------------
def _setup_tf() -> Any:
    import tensorflow as tf
    cpu = tf.config.list_physical_devices("CPU")[0]
    tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 4)
    return tf


def _tf_worker(indices: list[int]) -> dict[int, Any]:
    tf = _setup_tf()
    return {i: run_case(tf, CASES[i]) for i in indices}


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return tf_workers.spawn(__file__, list(range(len(CASES))))


def simdist_run(case: Case) -> Any:
    import simdist
    from simdist import tf
    simdist.reset()
    cpu = tf.config.list_physical_devices("CPU")[0]
    tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 4)
    return run_case(tf, case)


def _params(prefix: str) -> list[Any]:
    return [pytest.param(i, id=c.name) for i, c in enumerate(CASES) if c.tags and c.tags[0] == prefix]


def _check(index: int, tf_results: dict[int, Any]) -> None:
    case = CASES[index]
    assert_same(simdist_run(case), tf_results[index], case.name)


@pytest.mark.clause("keras.loss.reductions")
@pytest.mark.parametrize("index", _params("keras.loss.reductions"))
def test_reductions(index: int, tf_results: dict[int, Any]) -> None:
    _check(index, tf_results)


@pytest.mark.clause("keras.loss.sample-weight")
@pytest.mark.parametrize("index", _params("keras.loss.sample-weight"))
def test_sample_weights(index: int, tf_results: dict[int, Any]) -> None:
    _check(index, tf_results)


@pytest.mark.clause("keras.loss.distribution-scaling")
@pytest.mark.parametrize("index", _params("keras.loss.distribution-scaling"))
def test_scaled_by_replicas_in_sync(index: int, tf_results: dict[int, Any]) -> None:
    _check(index, tf_results)


@pytest.mark.clause("keras.loss.dtype")
@pytest.mark.parametrize("index", _params("keras.loss.dtype"))
def test_dtype(index: int, tf_results: dict[int, Any]) -> None:
    _check(index, tf_results)


@pytest.mark.clause("keras.loss.from-logits")
@pytest.mark.parametrize("index", _params("keras.loss.from-logits"))
def test_from_logits(index: int, tf_results: dict[int, Any]) -> None:
    _check(index, tf_results)


@pytest.mark.clause("keras.loss.epsilon-clipping")
@pytest.mark.parametrize("index", _params("keras.loss.epsilon-clipping"))
def test_probabilities_clipped(index: int, tf_results: dict[int, Any]) -> None:
    _check(index, tf_results)


@pytest.mark.clause("keras.loss.shapes")
@pytest.mark.parametrize("index", _params("keras.loss.shapes"))
def test_shapes(index: int, tf_results: dict[int, Any]) -> None:
    _check(index, tf_results)


@pytest.mark.clause("keras.loss.ignore-class")
@pytest.mark.parametrize("index", _params("keras.loss.ignore-class"))
def test_ignore_class(index: int, tf_results: dict[int, Any]) -> None:
    _check(index, tf_results)


@pytest.mark.clause("keras.loss.label-smoothing")
@pytest.mark.parametrize("index", _params("keras.loss.label-smoothing"))
def test_label_smoothing(index: int, tf_results: dict[int, Any]) -> None:
    _check(index, tf_results)


@pytest.mark.filterwarnings("ignore:.*received `from_logits=True`")
@pytest.mark.clause("keras.loss.logits-shortcut")
@pytest.mark.parametrize("index", _params("keras.loss.logits-shortcut"))
def test_logits_of_keras_activations(index: int, tf_results: dict[int, Any]) -> None:
    _check(index, tf_results)


@pytest.mark.clause("keras.loss.functions")
@pytest.mark.parametrize("index", _params("keras.loss.functions"))
def test_function_forms(index: int, tf_results: dict[int, Any]) -> None:
    _check(index, tf_results)


@pytest.mark.clause("keras.loss.get")
@pytest.mark.parametrize("index", _params("keras.loss.get"))
def test_get_by_name(index: int, tf_results: dict[int, Any]) -> None:
    _check(index, tf_results)


def test_every_case_is_collected() -> None:
    tagged = [c.name for c in CASES if not c.tags]
    assert not tagged, f"cases without a clause tag are never compared: {tagged}"


# --- hypothesis: shapes, weights and options drawn at test time --------------------------------------
@pytest.fixture(scope="module")
def tf_session() -> Any:
    from tf_session import TFSession
    s = TFSession(__file__)
    yield s
    s.close()


@st.composite
def drawn_cases(draw: Any) -> Case:
    loss = draw(st.sampled_from(["SparseCategoricalCrossentropy", "CategoricalCrossentropy", "BinaryCrossentropy",
                                 "MeanSquaredError", "MeanAbsoluteError"]))
    kind = LOSS_KIND[loss]
    logits = kind != "regression" and draw(st.booleans())
    kwargs: list[tuple[str, Any]] = [("reduction", draw(st.sampled_from(REDUCTIONS)))]
    if logits:
        kwargs.append(("from_logits", True))
    return Case(name="drawn", loss=loss, kwargs=tuple(kwargs), batch=draw(st.integers(1, 7)),
                classes=draw(st.integers(2, 5)), logits=logits,
                label_rank=draw(st.sampled_from(["normal", "keepdim"])) if kind != "categorical" else "normal",
                weights=draw(st.sampled_from([None, "per_sample", "column", "scalar"])),
                seed=draw(st.integers(0, 2**31 - 1)), tags=("drawn",))


@pytest.mark.clause("keras.loss.reductions")
@settings(max_examples=25, deadline=None, derandomize=True)
@given(case=drawn_cases())
def test_drawn_shapes_and_options(case: Case, tf_session: Any) -> None:
    assert_same(simdist_run(case), tf_session.call(case), f"drawn case {case}")


if __name__ == "__main__":  # TF worker
    if sys.argv[1:] == ["--serve"]:
        from tf_session import serve
        _tf = _setup_tf()
        serve(lambda case: run_case(_tf, case))
    else:
        tf_workers.serve(_tf_worker)
    # (TF's teardown after MirroredStrategy runs can take half a minute on a busy machine; the
    # results are written and flushed, so skip it)
    os._exit(0)
