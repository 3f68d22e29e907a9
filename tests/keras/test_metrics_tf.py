"""Differential tests of tf.keras.metrics: simdist vs TF 2.21 + Keras 3.15.1.

Each case creates a metric (in a strategy's scope), feeds it several batches (eagerly, or
inside `strategy.run` with each replica its own slice of the batch, or in cross-replica
context), and records after every update the result read in cross-replica context and, inside
`run`, each replica's own `result()`; then `reset_state()`, the result, one more update and the
result; plus the metric's variables (path, shape, dtype, the kind of tf.Variable behind them)
and their synced values. The same program runs on real TF in a subprocess (one spawn for the
fixed cases, a long-lived worker for the hypothesis-drawn ones) and on simdist.

Tolerance: float32 results agree to rtol 1e-5 with an absolute floor of 1e-6 times the
largest magnitude (docs/spec.md, "Keras: losses and metrics").
"""

from __future__ import annotations

import os
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

# metric name -> the kind of data it takes
DATA_KIND = {"Mean": "values", "Sum": "values", "SparseCategoricalAccuracy": "sparse",
             "CategoricalAccuracy": "categorical", "Accuracy": "exact", "BinaryAccuracy": "binary",
             "AUC": "binary", "MeanSquaredError": "regression", "MeanAbsoluteError": "regression",
             "RootMeanSquaredError": "regression", "BinaryCrossentropy": "binary",
             "CategoricalCrossentropy": "categorical", "SparseCategoricalCrossentropy": "sparse",
             "get:sparse_categorical_accuracy": "sparse", "get:mse": "regression", "get:auc": "binary",
             "get:accuracy": "exact", "get:BinaryAccuracy": "binary", "get:mean_absolute_error": "regression",
             "custom:BinaryTruePositives": "binary", "Precision": "binary", "Recall": "binary",
             "TruePositives": "binary", "FalsePositives": "binary", "TrueNegatives": "binary",
             "FalseNegatives": "binary", "PrecisionAtRecall": "binary", "RecallAtPrecision": "binary",
             "SensitivityAtSpecificity": "binary", "SpecificityAtSensitivity": "binary", "F1Score": "binary",
             "FBetaScore": "binary", "TopKCategoricalAccuracy": "categorical",
             "SparseTopKCategoricalAccuracy": "sparse", "get:precision": "binary", "get:f1_score": "binary",
             "MeanIoU": "ids", "IoU": "ids"}


@dataclass(frozen=True)
class Case:
    name: str
    metric: str                          # DATA_KIND's keys ("get:<name>" resolves with metrics.get)
    kwargs: tuple = ()
    context: str = "eager"               # eager | one_device | mirrored<N> | central_storage<N> | cross<N>
                                         # | mirrored<N>-function
    batches: tuple = (6, 5, 8)           # global batch sizes of the updates
    classes: int = 4
    weights: str | None = None           # None | per_sample | column (B,1) | elementwise
    label_rank: str = "normal"           # normal | keepdim ((B,1) labels)
    logits: bool = False
    seed: int = -1
    tags: tuple = field(default=(), compare=False)


def _seed(case: Case) -> int:
    return case.seed if case.seed >= 0 else zlib.crc32(case.name.encode())


def make_batches(case: Case) -> list[dict[str, Any]]:
    """Per update: y_true, y_pred (or values) and sample_weight as NumPy arrays."""
    rng = np.random.default_rng(_seed(case))
    kind = DATA_KIND[case.metric]
    out = []
    for b in case.batches:
        c = case.classes
        raw = rng.standard_normal((b, c)).astype(np.float32)
        yt: Any
        if kind == "values":
            yt, yp = None, rng.standard_normal((b, c)).astype(np.float32) * 3
        elif kind == "sparse":
            yt = rng.integers(0, c, b).astype(np.int32)
            if case.label_rank == "keepdim":
                yt = yt.reshape(b, 1)
            e = portable_inputs.exp(raw)
            yp = raw if case.logits else (e / e.sum(axis=1, keepdims=True)).astype(np.float32)
            if b:
                yp[0] = yp[0, ::-1]   # (argmax ties do not occur; a reversed row moves the max)
        elif kind == "categorical":
            yt = np.eye(c, dtype=np.float32)[rng.integers(0, c, b)]
            e = portable_inputs.exp(raw)
            yp = raw if case.logits else (e / e.sum(axis=1, keepdims=True)).astype(np.float32)
        elif kind == "binary":
            yt = rng.integers(0, 2, (b, c)).astype(np.float32)
            yp = raw if case.logits else (1 / (1 + portable_inputs.exp(-2 * raw))).astype(np.float32)
            if case.label_rank == "keepdim":
                yt, yp = yt[:, :1], yp[:, :1]
            if b and not case.logits:
                yp[0, 0] = 0.5    # exactly on a threshold
        elif kind == "ids":        # class ids, -1 (out of range) among the labels
            yt = rng.integers(-1, c, (b, c)).astype(np.int32)
            yp = rng.integers(0, c, (b, c)).astype(np.int32)
        elif kind == "exact":
            yt = rng.integers(0, 3, (b, c)).astype(np.float32)
            yp = np.where(rng.random((b, c)) < 0.5, yt, rng.integers(0, 3, (b, c))).astype(np.float32)
        else:
            yt = rng.standard_normal((b, c)).astype(np.float32)
            yp = rng.standard_normal((b, c)).astype(np.float32)
        w = None
        if case.weights == "per_sample":
            w = rng.uniform(0.0, 2.0, b).astype(np.float32)
            if b:
                w[0] = 0.0
        elif case.weights == "column":
            w = rng.uniform(0.0, 2.0, (b, 1)).astype(np.float32)
        elif case.weights == "elementwise":
            w = rng.uniform(0.0, 2.0, yp.shape).astype(np.float32)
        out.append({"y_true": yt, "y_pred": yp, "sample_weight": w})
    return out


def _binary_true_positives(tf: Any) -> Any:
    """Keras's documented example of a Metric subclass (keras/src/metrics/metric.py)."""
    class BinaryTruePositives(tf.keras.metrics.Metric):
        def __init__(self, name: str = "binary_true_positives", **kwargs: Any) -> None:
            super().__init__(name=name, **kwargs)
            self.true_positives = self.add_variable(shape=(), initializer="zeros", name="true_positives")

        def update_state(self, y_true: Any, y_pred: Any, sample_weight: Any = None) -> None:
            y_true = tf.cast(y_true, "bool")
            y_pred = tf.cast(tf.greater(y_pred, 0.5), "bool")
            values = tf.cast(tf.logical_and(tf.equal(y_true, True), tf.equal(y_pred, True)), self.dtype)
            if sample_weight is not None:
                sample_weight = tf.broadcast_to(tf.cast(sample_weight, self.dtype)[:, None], tf.shape(values))
                values = values * sample_weight
            self.true_positives.assign(self.true_positives + tf.reduce_sum(values))

        def result(self) -> Any:
            return tf.convert_to_tensor(self.true_positives)

    return BinaryTruePositives()


def _make_metric(tf: Any, case: Case) -> Any:
    if case.metric == "custom:BinaryTruePositives":
        return _binary_true_positives(tf)
    if case.metric.startswith("get:"):
        return tf.keras.metrics.get(case.metric[4:])
    return getattr(tf.keras.metrics, case.metric)(**dict(case.kwargs))


def _update(metric: Any, case: Case, b: dict[str, Any], tf: Any) -> None:
    args = (b["y_pred"],) if DATA_KIND[case.metric] == "values" else (b["y_true"], b["y_pred"])
    args = tuple(tf.constant(a) if isinstance(a, np.ndarray) else a for a in args)
    if b["sample_weight"] is not None:
        metric.update_state(*args, sample_weight=tf.constant(b["sample_weight"]))
    else:
        metric.update_state(*args)


def _np(x: Any) -> Any:
    if isinstance(x, dict):
        return {k: _np(v) for k, v in sorted(x.items())}
    return np.asarray(x.numpy())


def _strategy(tf: Any, context: str) -> Any:
    if context == "eager":
        return tf.distribute.get_strategy()
    if context == "one_device":
        return tf.distribute.OneDeviceStrategy("/cpu:0")
    n = int(context.split("-")[0][-1])
    devices = [f"/cpu:{i}" for i in range(n)]
    if context.startswith("central_storage"):
        return tf.distribute.experimental.CentralStorageStrategy(devices)
    return tf.distribute.MirroredStrategy(devices)


def _split(a: Any, n: int, i: int) -> Any:
    """Replica i's slice of a global batch (np.array_split: the first replicas get the extra rows)."""
    if a is None:
        return None
    return np.array_split(a, n)[i]


def run_case(tf: Any, case: Case) -> Any:
    """The program, the same on both backends."""
    try:
        strategy = _strategy(tf, case.context)
        with strategy.scope():
            metric = _make_metric(tf, case)
        out: dict[str, Any] = {"name": metric.name, "steps": []}
        batches = make_batches(case)
        n = strategy.num_replicas_in_sync
        in_run = case.context.startswith(("mirrored", "central_storage", "one_device"))

        def step_fn(*parts: Any) -> Any:
            b = {"y_true": parts[0], "y_pred": parts[1], "sample_weight": parts[2]}
            _update(metric, case, b, tf)
            return metric.result()

        if case.context.endswith("-function"):
            step_fn = tf.function(step_fn)
        for b in batches:
            if in_run:
                def value_fn(ctx: Any, key: str, b: dict = b) -> Any:
                    part = _split(b[key], n, ctx.replica_id_in_sync_group)
                    return tf.constant(part) if part is not None else tf.constant(0.0)
                parts = [strategy.experimental_distribute_values_from_function(
                    lambda ctx, k=k: value_fn(ctx, k)) if b[k] is not None else None
                    for k in ("y_true", "y_pred", "sample_weight")]
                local = strategy.run(step_fn, args=tuple(parts))
                local_results = [_np(x) for x in strategy.experimental_local_results(local)]
            elif case.context.startswith("cross"):
                with strategy.scope():
                    _update(metric, case, b, tf)
                local_results = []
            else:
                _update(metric, case, b, tf)
                local_results = []
            out["steps"].append({"result": _np(metric.result()), "replicas": local_results})
        out["variables"] = [(v.path, tuple(v.shape), str(v.dtype), type(v.value).__name__, _np(v.value))
                            for v in metric.variables]
        metric.reset_state()
        out["after_reset"] = _np(metric.result())
        _update(metric, case, batches[0], tf)
        out["after_reset_update"] = _np(metric.result())
        out["call"] = _np(metric(*(((batches[0]["y_pred"],) if DATA_KIND[case.metric] == "values"
                                    else (batches[0]["y_true"], batches[0]["y_pred"])))))
        return out
    except Exception as e:  # noqa: BLE001 - the error is part of the result
        return ("error", type(e).__name__, str(e).split("\n")[0][:300])


def _close(got: Any, want: Any) -> bool:
    g, w = np.asarray(got, np.float64), np.asarray(want, np.float64)
    if g.shape != w.shape:
        return False
    scale = float(np.max(np.abs(w))) if w.size and np.all(np.isfinite(w)) else 1.0
    return bool(np.allclose(g, w, rtol=RTOL, atol=ATOL_SCALE * max(scale, 1e-30), equal_nan=True))


def assert_same(got: Any, want: Any, where: str) -> None:
    if isinstance(want, tuple) and want and want[0] == "error":
        assert got == want, f"{where}: TF 2.21 raises {want[1]}: {want[2]!r}; simdist gives {got!r}"
        return
    assert not (isinstance(got, tuple) and got and got[0] == "error"), \
        f"{where}: simdist raises {got[1]}: {got[2]!r}; TF 2.21 gives {want}"
    assert got["name"] == want["name"], f"{where}: metric name {got['name']!r}, TF 2.21 {want['name']!r}"
    assert len(got["steps"]) == len(want["steps"])
    for i, (g, w) in enumerate(zip(got["steps"], want["steps"])):
        assert _close(g["result"], w["result"]), \
            f"{where}: result() after update {i + 1} = {g['result'].tolist()}, TF 2.21 {w['result'].tolist()}"
        assert len(g["replicas"]) == len(w["replicas"]), f"{where}: {len(g['replicas'])} replica results"
        for r, (gr, wr) in enumerate(zip(g["replicas"], w["replicas"])):
            assert _close(gr, wr), f"{where}: replica {r}'s result() inside run after update {i + 1} = " \
                                   f"{gr.tolist()}, TF 2.21 {wr.tolist()}"
    assert len(got["variables"]) == len(want["variables"]), \
        f"{where}: variables {[v[:4] for v in got['variables']]}, TF 2.21 {[v[:4] for v in want['variables']]}"
    for g, w in zip(got["variables"], want["variables"]):
        assert g[:4] == w[:4], f"{where}: variable (path, shape, dtype, kind) {g[:4]}, TF 2.21 {w[:4]}"
        assert _close(g[4], w[4]), f"{where}: variable {g[0]} = {g[4].tolist()}, TF 2.21 {w[4].tolist()}"
    for k in ("after_reset", "after_reset_update", "call"):
        assert _close(got[k], want[k]), f"{where}: {k} = {got[k].tolist()}, TF 2.21 {want[k].tolist()}"


# --- the cases --------------------------------------------------------------------------------------
def _cases() -> list[Case]:
    out: list[Case] = []
    basic = ("Mean", "Sum", "SparseCategoricalAccuracy", "CategoricalAccuracy", "Accuracy", "BinaryAccuracy", "AUC",
             "MeanSquaredError", "MeanAbsoluteError", "RootMeanSquaredError", "BinaryCrossentropy",
             "CategoricalCrossentropy", "SparseCategoricalCrossentropy")
    for m in basic:
        out.append(Case(f"{m}-eager", m, tags=("keras.metric.update-result-reset",)))
        out.append(Case(f"{m}-eager-weighted", m, weights="per_sample", tags=("keras.metric.sample-weight",)))
        out.append(Case(f"{m}-mirrored2", m, context="mirrored2", tags=("keras.metric.cross-replica",)))
    for m in ("Mean", "SparseCategoricalAccuracy", "AUC", "BinaryAccuracy", "MeanSquaredError", "Sum"):
        out.append(Case(f"{m}-mirrored4-weighted-uneven", m, context="mirrored4", weights="per_sample",
                        batches=(7, 3, 9), tags=("keras.metric.cross-replica",)))
        out.append(Case(f"{m}-mirrored3", m, context="mirrored3", tags=("keras.metric.cross-replica",)))
        out.append(Case(f"{m}-central_storage2", m, context="central_storage2",
                        tags=("keras.metric.central-storage",)))
        out.append(Case(f"{m}-one_device", m, context="one_device", tags=("keras.metric.cross-replica",)))
        out.append(Case(f"{m}-cross2", m, context="cross2", tags=("keras.metric.cross-replica",)))
    out += [
        Case("Mean-mirrored2-function", "Mean", context="mirrored2-function", tags=("keras.metric.cross-replica",)),
        Case("AUC-mirrored4-function", "AUC", context="mirrored4-function", tags=("keras.metric.cross-replica",)),
        Case("SparseCategoricalAccuracy-mirrored4-empty-replica", "SparseCategoricalAccuracy", context="mirrored4",
             batches=(3, 8, 2), tags=("keras.metric.cross-replica",)),
        Case("Mean-column-weights", "Mean", weights="column", tags=("keras.metric.sample-weight",)),
        Case("Mean-elementwise-weights", "Mean", weights="elementwise", tags=("keras.metric.sample-weight",)),
        Case("Sum-elementwise-weights", "Sum", weights="elementwise", tags=("keras.metric.sample-weight",)),
        Case("SparseCategoricalAccuracy-keepdim", "SparseCategoricalAccuracy", label_rank="keepdim",
             weights="column", tags=("keras.metric.accuracy",)),
        Case("SparseCategoricalAccuracy-logits", "SparseCategoricalAccuracy", logits=True,
             tags=("keras.metric.accuracy",)),
        Case("BinaryAccuracy-threshold", "BinaryAccuracy", kwargs=(("threshold", 0.7),),
             tags=("keras.metric.accuracy",)),
        Case("BinaryAccuracy-single-output", "BinaryAccuracy", label_rank="keepdim", weights="per_sample",
             tags=("keras.metric.accuracy",)),
        Case("AUC-single-output", "AUC", label_rank="keepdim", weights="per_sample", tags=("keras.metric.auc",)),
        Case("AUC-num-thresholds-13", "AUC", kwargs=(("num_thresholds", 13),), tags=("keras.metric.auc",)),
        Case("AUC-PR", "AUC", kwargs=(("curve", "PR"),), weights="per_sample", tags=("keras.metric.auc",)),
        Case("AUC-PR-majoring", "AUC", kwargs=(("curve", "PR"), ("summation_method", "majoring")),
             tags=("keras.metric.auc",)),
        Case("AUC-ROC-minoring", "AUC", kwargs=(("summation_method", "minoring"),), tags=("keras.metric.auc",)),
        Case("AUC-PRGAIN", "AUC", kwargs=(("curve", "PRGAIN"),), tags=("keras.metric.auc",)),
        Case("AUC-uneven-thresholds", "AUC", kwargs=(("thresholds", (0.1, 0.25, 0.5, 0.9)),), weights="per_sample",
             tags=("keras.metric.auc",)),
        Case("AUC-even-thresholds-given", "AUC", kwargs=(("thresholds", (0.25, 0.5, 0.75)),),
             tags=("keras.metric.auc",)),
        Case("AUC-multi-label", "AUC", kwargs=(("multi_label", True),), weights="per_sample",
             tags=("keras.metric.auc",)),
        Case("AUC-multi-label-num-labels-mirrored2", "AUC", kwargs=(("multi_label", True), ("num_labels", 4)),
             context="mirrored2", tags=("keras.metric.auc",)),
        Case("AUC-multi-label-PR-uneven", "AUC", kwargs=(("multi_label", True), ("curve", "PR"),
                                                         ("thresholds", (0.3, 0.6))), tags=("keras.metric.auc",)),
        Case("AUC-from-logits", "AUC", kwargs=(("from_logits", True),), logits=True, tags=("keras.metric.auc",)),
        Case("AUC-label-weights", "AUC", kwargs=(("label_weights", (1.0, 0.5, 2.0, 0.0)),),
             tags=("keras.metric.auc",)),
        Case("BinaryCrossentropy-logits", "BinaryCrossentropy", kwargs=(("from_logits", True),), logits=True,
             tags=("keras.metric.update-result-reset",)),
        Case("SparseCategoricalCrossentropy-logits-mirrored2", "SparseCategoricalCrossentropy",
             kwargs=(("from_logits", True),), logits=True, context="mirrored2", tags=("keras.metric.cross-replica",)),
        Case("Mean-named", "Mean", kwargs=(("name", "my_mean"),), context="mirrored2",
             tags=("keras.metric.update-result-reset",)),
        Case("Mean-float64", "Mean", kwargs=(("dtype", "float64"),), tags=("keras.metric.update-result-reset",)),
    ]
    out += [Case("custom-metric-eager", "custom:BinaryTruePositives", weights="per_sample",
                 tags=("keras.metric.update-result-reset",)),
            Case("custom-metric-mirrored2", "custom:BinaryTruePositives", context="mirrored2",
                 tags=("keras.metric.cross-replica",))]
    pr, topk, fs = "keras.metric.precision-recall", "keras.metric.top-k", "keras.metric.f-score"
    out += [
        Case("Precision-eager", "Precision", weights="per_sample", tags=(pr,)),
        Case("Recall-eager", "Recall", tags=(pr,)),
        Case("Precision-thresholds", "Precision", kwargs=(("thresholds", [0.2, 0.5, 0.7]),), tags=(pr,)),
        # (Keras wraps a tuple of thresholds as one threshold and fails comparing it: TypeError)
        Case("Precision-thresholds-tuple", "Precision", kwargs=(("thresholds", (0.2, 0.5)),), tags=(pr,)),
        Case("Recall-even-thresholds", "Recall", kwargs=(("thresholds", [0.0, 0.5, 1.0]),), weights="per_sample",
             tags=(pr,)),
        Case("Precision-top_k", "Precision", kwargs=(("top_k", 2),), tags=(pr,)),
        Case("Recall-top_k-class_id", "Recall", kwargs=(("top_k", 2), ("class_id", 1)), weights="per_sample",
             tags=(pr,)),
        Case("Precision-class_id", "Precision", kwargs=(("class_id", 2),), tags=(pr,)),
        Case("Precision-single-output", "Precision", label_rank="keepdim", weights="column", tags=(pr,)),
        Case("TruePositives-eager", "TruePositives", weights="per_sample", tags=(pr,)),
        Case("FalsePositives-thresholds", "FalsePositives", kwargs=(("thresholds", [0.3, 0.6]),), tags=(pr,)),
        Case("TrueNegatives-eager", "TrueNegatives", tags=(pr,)),
        Case("FalseNegatives-even-thresholds", "FalseNegatives", kwargs=(("thresholds", [0.0, 0.5, 1.0]),),
             weights="per_sample", tags=(pr,)),
        Case("PrecisionAtRecall", "PrecisionAtRecall", kwargs=(("recall", 0.5),), weights="per_sample", tags=(pr,)),
        Case("RecallAtPrecision-11", "RecallAtPrecision", kwargs=(("precision", 0.6), ("num_thresholds", 11)),
             tags=(pr,)),
        Case("SensitivityAtSpecificity-class_id", "SensitivityAtSpecificity",
             kwargs=(("specificity", 0.4), ("class_id", 1)), tags=(pr,)),
        Case("SpecificityAtSensitivity-one-threshold", "SpecificityAtSensitivity",
             kwargs=(("sensitivity", 0.3), ("num_thresholds", 1)), tags=(pr,)),
        Case("Precision-mirrored2", "Precision", context="mirrored2", tags=(pr,)),
        Case("Recall-top_k-mirrored4-weighted-uneven", "Recall", kwargs=(("top_k", 2),), context="mirrored4",
             weights="per_sample", batches=(7, 3, 9), tags=(pr,)),
        Case("Precision-central_storage2", "Precision", context="central_storage2", tags=(pr,)),
        Case("PrecisionAtRecall-mirrored2", "PrecisionAtRecall", kwargs=(("recall", 0.5),), context="mirrored2",
             tags=(pr,)),
        Case("TopKCategoricalAccuracy-k2", "TopKCategoricalAccuracy", kwargs=(("k", 2),), weights="per_sample",
             tags=(topk,)),
        Case("TopKCategoricalAccuracy-default", "TopKCategoricalAccuracy", classes=7, tags=(topk,)),
        Case("SparseTopKCategoricalAccuracy-k2", "SparseTopKCategoricalAccuracy", kwargs=(("k", 2),), tags=(topk,)),
        Case("SparseTopKCategoricalAccuracy-keepdim", "SparseTopKCategoricalAccuracy", kwargs=(("k", 3),),
             label_rank="keepdim", weights="column", tags=(topk,)),
        Case("SparseTopKCategoricalAccuracy-mirrored4-uneven", "SparseTopKCategoricalAccuracy", kwargs=(("k", 2),),
             context="mirrored4", weights="per_sample", batches=(7, 3, 9), tags=(topk,)),
        Case("TopKCategoricalAccuracy-central_storage2", "TopKCategoricalAccuracy", kwargs=(("k", 2),),
             context="central_storage2", tags=(topk,)),
        Case("F1Score-none", "F1Score", tags=(fs,)),
        Case("F1Score-macro-threshold", "F1Score", kwargs=(("average", "macro"), ("threshold", 0.5)),
             weights="per_sample", tags=(fs,)),
        Case("F1Score-micro", "F1Score", kwargs=(("average", "micro"),), tags=(fs,)),
        Case("FBetaScore-weighted-beta2", "FBetaScore", kwargs=(("average", "weighted"), ("beta", 2.0)),
             weights="per_sample", tags=(fs,)),
        Case("F1Score-mirrored2", "F1Score", kwargs=(("average", "macro"),), context="mirrored2", tags=(fs,)),
        Case("F1Score-cross2", "F1Score", context="cross2", tags=(fs,)),
    ]
    iou = "keras.metric.iou"
    out += [
        Case("MeanIoU-eager", "MeanIoU", kwargs=(("num_classes", 4),), tags=(iou,)),
        Case("MeanIoU-weighted-int-truncation", "MeanIoU", kwargs=(("num_classes", 4),), weights="elementwise",
             tags=(iou,)),
        Case("MeanIoU-float32-weighted", "MeanIoU", kwargs=(("num_classes", 4), ("dtype", "float32")),
             weights="elementwise", tags=(iou,)),
        Case("IoU-targets-ignore", "IoU", kwargs=(("num_classes", 4), ("target_class_ids", (0, 2)),
                                                  ("ignore_class", 1)), tags=(iou,)),
        Case("MeanIoU-mirrored2", "MeanIoU", kwargs=(("num_classes", 4), ("dtype", "float32")), context="mirrored2",
             tags=(iou,)),
    ]
    for name in ("precision", "f1_score"):
        out.append(Case(f"get-{name}", f"get:{name}", tags=("keras.metric.get",)))
    for name in ("sparse_categorical_accuracy", "mse", "auc", "accuracy", "BinaryAccuracy", "mean_absolute_error"):
        out.append(Case(f"get-{name}", f"get:{name}", tags=("keras.metric.get",)))
    return out


CASES = _cases()
assert len({c.name for c in CASES}) == len(CASES), "duplicate case names"

# "accuracy"/"acc" resolution: (y_true shape, y_pred shape)
ACCURACY_SHAPES = [((8,), (8, 1)), ((8, 1), (8, 1)), ((8,), (8, 3)), ((8, 1), (8, 3)), ((8, 3), (8, 3)),
                   ((8, 5), (8, 5)), ((8, 2, 1), (8, 2, 4)), ((8, 2), (8, 2)), ((8,), (8,)), ((8, 4, 1), (8, 4, 1))]


def accuracy_resolution(tf: Any, get_metric: Any) -> list[Any]:
    out = []
    for ts, ps in ACCURACY_SHAPES:
        yt, yp = tf.zeros(ts), tf.zeros(ps)
        for ident in ("accuracy", "acc"):
            m = get_metric(ident, yt, yp)
            out.append((ident, ts, ps, type(m).__name__, m.name))
    return out


# --- TF side ------------------------------------------------------------------------------------
def _setup_tf() -> Any:
    import tensorflow as tf
    cpu = tf.config.list_physical_devices("CPU")[0]
    tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 4)
    return tf


def _tf_worker(indices: list[int]) -> dict[int, Any]:
    tf = _setup_tf()
    import keras
    out: dict[int, Any] = {}
    for i in indices:
        if i < len(CASES):
            keras.backend.clear_session(free_memory=False)   # (auto names restart per case; no gc: slow)
            out[i] = run_case(tf, CASES[i])
    if len(CASES) in indices:
        from keras.src.trainers.compile_utils import get_metric
        out[len(CASES)] = accuracy_resolution(tf, get_metric)
    return out


# TF's eager MirroredStrategy takes a good part of a second a case (several seconds on a busy
# machine), so the default run compares the single-device cases and a bounded slice of the
# distributed ones (each strategy, uneven and empty replica shards, a tf.function step, the
# CentralStorage merge); `-m slow` compares all of them.
DEFAULT_DISTRIBUTED = {"Mean-mirrored2", "custom-metric-mirrored2", "SparseCategoricalAccuracy-mirrored4-weighted-uneven",
                       "AUC-mirrored4-weighted-uneven", "SparseCategoricalAccuracy-mirrored4-empty-replica",
                       "Mean-mirrored2-function", "Mean-central_storage2", "AUC-central_storage2",
                       "BinaryAccuracy-mirrored3", "SparseCategoricalCrossentropy-logits-mirrored2", "Mean-named",
                       "AUC-multi-label-num-labels-mirrored2", "MeanSquaredError-mirrored4-weighted-uneven",
                       "Precision-mirrored2", "Recall-top_k-mirrored4-weighted-uneven", "Precision-central_storage2",
                       "SparseTopKCategoricalAccuracy-mirrored4-uneven", "F1Score-mirrored2", "MeanIoU-mirrored2"}


def _in_default(case: Case) -> bool:
    return not case.context.startswith(("mirrored", "central_storage")) or case.name in DEFAULT_DISTRIBUTED


def _selected(config: Any) -> list[int]:
    """The cases this run compares (the TF worker computes only those), and the resolution probe."""
    expr = config.getoption("-m", default="") or ""
    everything = "slow" in expr and "not slow" not in expr
    return [i for i, c in enumerate(CASES) if everything or _in_default(c)] + [len(CASES)]


@pytest.fixture(scope="module")
def tf_results(request: Any) -> dict[int, Any]:
    return tf_workers.spawn(__file__, _selected(request.config))


def _simdist_tf() -> Any:
    import simdist
    from simdist import tf
    simdist.reset()
    tf.keras.backend.clear_session()
    cpu = tf.config.list_physical_devices("CPU")[0]
    tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 4)
    return tf


def simdist_run(case: Case) -> Any:
    return run_case(_simdist_tf(), case)


def _params(tag: str) -> list[Any]:
    return [pytest.param(i, id=c.name, marks=() if _in_default(c) else pytest.mark.slow)
            for i, c in enumerate(CASES) if c.tags and c.tags[0] == tag]


def _check(index: int, tf_results: dict[int, Any]) -> None:
    assert_same(simdist_run(CASES[index]), tf_results[index], CASES[index].name)


@pytest.mark.clause("keras.metric.update-result-reset")
@pytest.mark.parametrize("index", _params("keras.metric.update-result-reset"))
def test_update_result_reset(index: int, tf_results: dict[int, Any]) -> None:
    _check(index, tf_results)


@pytest.mark.clause("keras.metric.sample-weight")
@pytest.mark.parametrize("index", _params("keras.metric.sample-weight"))
def test_sample_weights(index: int, tf_results: dict[int, Any]) -> None:
    _check(index, tf_results)


@pytest.mark.clause("keras.metric.cross-replica")
@pytest.mark.parametrize("index", _params("keras.metric.cross-replica"))
def test_cross_replica(index: int, tf_results: dict[int, Any]) -> None:
    _check(index, tf_results)


@pytest.mark.clause("keras.metric.central-storage")
@pytest.mark.parametrize("index", _params("keras.metric.central-storage"))
def test_central_storage(index: int, tf_results: dict[int, Any]) -> None:
    _check(index, tf_results)


@pytest.mark.clause("keras.metric.accuracy")
@pytest.mark.parametrize("index", _params("keras.metric.accuracy"))
def test_accuracy_variants(index: int, tf_results: dict[int, Any]) -> None:
    _check(index, tf_results)


@pytest.mark.clause("keras.metric.auc")
@pytest.mark.parametrize("index", _params("keras.metric.auc"))
def test_auc(index: int, tf_results: dict[int, Any]) -> None:
    _check(index, tf_results)


@pytest.mark.clause("keras.metric.precision-recall")
@pytest.mark.parametrize("index", _params("keras.metric.precision-recall"))
def test_precision_recall(index: int, tf_results: dict[int, Any]) -> None:
    _check(index, tf_results)


@pytest.mark.clause("keras.metric.top-k")
@pytest.mark.parametrize("index", _params("keras.metric.top-k"))
def test_top_k_accuracy(index: int, tf_results: dict[int, Any]) -> None:
    _check(index, tf_results)


@pytest.mark.clause("keras.metric.f-score")
@pytest.mark.parametrize("index", _params("keras.metric.f-score"))
def test_f_score(index: int, tf_results: dict[int, Any]) -> None:
    _check(index, tf_results)


@pytest.mark.clause("keras.metric.iou")
@pytest.mark.parametrize("index", _params("keras.metric.iou"))
def test_iou(index: int, tf_results: dict[int, Any]) -> None:
    _check(index, tf_results)


@pytest.mark.clause("keras.metric.get")
@pytest.mark.parametrize("index", _params("keras.metric.get"))
def test_get_by_name(index: int, tf_results: dict[int, Any]) -> None:
    _check(index, tf_results)


@pytest.mark.clause("keras.metric.accuracy-resolution")
def test_accuracy_resolution_as_keras(tf_results: dict[int, Any]) -> None:
    tf = _simdist_tf()
    from simdist.keras import metrics

    def resolve(ident: str, yt: Any, yp: Any) -> Any:
        return metrics.accuracy_variant(yt, yp)(name=ident)

    got = accuracy_resolution(tf, resolve)
    want = tf_results[len(CASES)]
    for g, w in zip(got, want):
        assert g == w, f"{w[0]!r} for y_true {w[1]}, y_pred {w[2]}: simdist makes {g[3:]}, Keras 3.15 {w[3:]}"
    assert len(got) == len(want)


def test_every_case_is_collected() -> None:
    untagged = [c.name for c in CASES if not c.tags]
    assert not untagged, f"cases without a clause tag are never compared: {untagged}"


# --- hypothesis: batches, shapes and weights drawn at test time ------------------------------------
@pytest.fixture(scope="module")
def tf_session() -> Any:
    from tf_session import TFSession
    s = TFSession(__file__)
    yield s
    s.close()


@st.composite
def drawn_cases(draw: Any) -> Case:
    metric = draw(st.sampled_from(["Mean", "SparseCategoricalAccuracy", "CategoricalAccuracy", "BinaryAccuracy",
                                   "AUC", "MeanSquaredError", "Accuracy"]))
    context = draw(st.sampled_from(["eager", "mirrored2", "mirrored3", "mirrored4", "central_storage2"]))
    kwargs: tuple = ()
    if metric == "AUC":
        kwargs = (("num_thresholds", draw(st.integers(3, 40))), ("curve", draw(st.sampled_from(["ROC", "PR"]))))
    return Case(name="drawn", metric=metric, kwargs=kwargs, context=context,
                batches=tuple(draw(st.lists(st.integers(1, 9), min_size=1, max_size=3))),
                classes=draw(st.integers(1 if metric in ("BinaryAccuracy", "AUC") else 2, 4)),
                weights=draw(st.sampled_from([None, "per_sample"])), seed=draw(st.integers(0, 2**31 - 1)),
                tags=("drawn",))


@pytest.mark.clause("keras.metric.cross-replica")
@settings(max_examples=8, deadline=None, derandomize=True)
@given(case=drawn_cases())
def test_drawn_batches_and_strategies(case: Case, tf_session: Any) -> None:
    assert_same(simdist_run(case), tf_session.call(case), f"drawn case {case}")


@pytest.mark.slow
@pytest.mark.clause("keras.metric.cross-replica")
@settings(max_examples=80, deadline=None)
@given(case=drawn_cases())
def test_drawn_batches_and_strategies_long(case: Case, tf_session: Any) -> None:
    assert_same(simdist_run(case), tf_session.call(case), f"drawn case {case}")


if __name__ == "__main__":  # TF worker
    if sys.argv[1:] == ["--serve"]:
        from tf_session import serve
        _tf = _setup_tf()

        def _handle(case: Case) -> Any:
            import keras
            keras.backend.clear_session(free_memory=False)
            return run_case(_tf, case)
        serve(_handle)
    else:
        tf_workers.serve(_tf_worker)
    # (TF's teardown after MirroredStrategy runs can take half a minute on a busy machine; the
    # results are written and flushed, so skip it)
    os._exit(0)
