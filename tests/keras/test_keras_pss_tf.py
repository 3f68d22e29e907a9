"""The ParameterServerStrategy column of the newer Keras pieces: simdist vs TF 2.21 + Keras 3.15
on a cluster of 2 workers and 1 ps (TF: in-process servers, as the conformance suite's TF backend
starts them; simdist: a simulated cluster). Clauses keras.metric.pss and keras.fit.pss-refused.

- "metric" cases: a metric made in the strategy's scope (its variables on the ps), updated by
  functions a ClusterCoordinator schedules on the workers (`strategy.run` of `update_state`, each
  joined before the next), or on the coordinator itself; its result, variables (paths and values)
  after every update, after `reset_state`, and the variables' devices.
- "fit" cases: Keras 3 has no ParameterServerStrategy training loop: `fit` with the callbacks
  users add (CSVLogger, ReduceLROnPlateau, TerminateOnNaN, TensorBoard) raises, and so do `fit`,
  `evaluate` and `predict` given `distribute_datasets_from_function` or
  `experimental_distribute_dataset`'s datasets: the error and the files left in the directory.
The recurrent layers, MultiHeadAttention and LossScaleOptimizer have their PSS cases (custom
loops) in test_layers_rnn_tf, test_attention_tf and test_mixed_precision_tf.
TF runs in a subprocess (tf_cases.spawn; this module is its worker); values rtol 1e-6.
"""

from __future__ import annotations

import os
import zlib
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

import tf_cases
import portable_inputs
import tf_workers
from test_layers_conv_norm_tf import _first_line

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

METRIC, REFUSED = "keras.metric.pss", "keras.fit.pss-refused"


@dataclass(frozen=True)
class Case:
    name: str
    clause: str
    program: str
    spec: tuple = ()              # metric: (class name, ((arg, value), ...)); fit: what is passed
    data: str = "binary"          # metric data: binary | categorical | sparse | classes
    where: str = "workers"        # metric updates: scheduled on the workers, or on the coordinator
    strategy: str = tf_cases.PSS
    rtol: float = 1e-6


def _metric_data(kind: str, rng: np.random.Generator) -> list[tuple[np.ndarray, np.ndarray]]:
    """Three batches (6, 4, 5 examples) of labels and predictions for a metric."""
    out = []
    for n in (6, 4, 5):
        if kind == "binary":
            out.append(((rng.random((n, 4)) < 0.5).astype("float32"), rng.random((n, 4)).astype("float32")))
        elif kind == "classes":
            out.append((rng.integers(0, 4, n).astype("int32"), rng.integers(0, 4, n).astype("int32")))
        else:
            logits = rng.standard_normal((n, 4))
            probs = (portable_inputs.exp(logits) / portable_inputs.exp(logits).sum(-1, keepdims=True)).astype("float32")
            labels = rng.integers(0, 4, n)
            y = np.eye(4, dtype="float32")[labels] if kind == "categorical" else labels.astype("int32")
            out.append((y, probs))
    return out


def run_metric(tf: Any, case: Case, rng: np.random.Generator) -> dict[str, Any]:
    strategy = tf_cases.pss_strategy(tf)
    coordinator = tf.distribute.experimental.coordinator.ClusterCoordinator(strategy)
    cls_name, kwargs = case.spec
    with strategy.scope():
        metric = getattr(tf.keras.metrics, cls_name)(**dict(kwargs))

    @tf.function
    def update(y_true: Any, y_pred: Any) -> None:
        strategy.run(metric.update_state, args=(y_true, y_pred))

    steps = []
    for y_true, y_pred in _metric_data(case.data, rng):
        if case.where == "workers":
            coordinator.schedule(update, args=(tf.constant(y_true), tf.constant(y_pred)))
            coordinator.join()
        else:
            metric.update_state(tf.constant(y_true), tf.constant(y_pred))
        steps.append({"result": tf_cases.arr(metric.result()),
                      "paths": [v.path for v in metric.variables],
                      "values": [tf_cases.arr(v) for v in metric.variables]})
    metric.reset_state()
    return {"steps": steps, "after_reset": tf_cases.arr(metric.result()),
            "devices": [v.value.device for v in metric.variables]}


def _listing(root: str) -> list[str]:
    """Every file and directory under root, relative to it (TensorBoard's event file names,
    which hold the host name and the time, as "events.out.tfevents.*")."""
    out = []
    for d, dirs, files in os.walk(root):
        for n in sorted(dirs) + sorted(files):
            rel = os.path.relpath(os.path.join(d, n), root)
            out.append(rel.split("events.out.tfevents.")[0] + "events.out.tfevents.*"
                       if "events.out.tfevents." in rel else rel)
    return sorted(out)


def run_fit(tf: Any, case: Case, workdir: str) -> Any:
    """A model compiled in the strategy's scope, then fit/evaluate/predict as the case says:
    the error, and what the call left in `workdir`."""
    keras = tf.keras
    strategy = tf_cases.pss_strategy(tf)
    method, data, callback = case.spec
    rng = np.random.default_rng(3)
    x, y = rng.standard_normal((8, 3)).astype("float32"), rng.standard_normal((8, 1)).astype("float32")
    with strategy.scope():
        model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
        model.compile(optimizer=keras.optimizers.SGD(0.1), loss="mse")
    callbacks = {"csv": lambda: keras.callbacks.CSVLogger(os.path.join(workdir, "log.csv")),
                 "plateau": lambda: keras.callbacks.ReduceLROnPlateau(monitor="loss"),
                 "nan": lambda: keras.callbacks.TerminateOnNaN(),
                 "tensorboard": lambda: keras.callbacks.TensorBoard(os.path.join(workdir, "logs")),
                 None: None}
    kw: dict[str, Any] = {"verbose": 0}
    if callback is not None:
        kw["callbacks"] = [callbacks[callback]()]
    dataset = tf.data.Dataset.from_tensor_slices((x, y)).batch(4)
    if data == "arrays":
        args: tuple = (x, y) if method != "predict" else (x,)
        kw["batch_size"] = 4
    elif data == "distributed":
        args = (strategy.experimental_distribute_dataset(dataset),)
    else:
        args = (strategy.distribute_datasets_from_function(lambda ctx: dataset),)
    try:
        getattr(model, method)(*args, **kw)
        out: Any = {"ran": True}
    except Exception as e:  # noqa: BLE001 - the error is part of the result
        out = ("error", type(e).__name__, _first_line(str(e)), "")
    return {"outcome": out, "files": _listing(workdir)}


def run(tf: Any, case: Case) -> Any:
    import tempfile
    tf.keras.backend.clear_session()
    rng = np.random.default_rng(zlib.crc32(case.name.encode()))
    if case.program == "metric":
        try:
            return run_metric(tf, case, rng)
        except Exception as e:  # noqa: BLE001 - the error is part of the result
            return ("error", type(e).__name__, _first_line(str(e)), "")
    with tempfile.TemporaryDirectory() as workdir:
        return run_fit(tf, case, workdir)


def _metric(name: str, spec: tuple, data: str, where: str = "workers") -> Case:
    return Case(name, METRIC, "metric", spec, data, where)


CASES = [
    _metric("precision", ("Precision", ()), "binary"),
    _metric("precision-top2", ("Precision", (("top_k", 2),)), "binary"),
    _metric("recall-thresholds", ("Recall", (("thresholds", [0.3, 0.6]),)), "binary"),
    _metric("recall-on-coordinator", ("Recall", ()), "binary", where="coordinator"),
    _metric("f1-macro", ("F1Score", (("average", "macro"), ("threshold", 0.5))), "binary"),
    _metric("precision-at-recall", ("PrecisionAtRecall", (("recall", 0.5), ("num_thresholds", 21))), "binary"),
    _metric("top2-categorical", ("TopKCategoricalAccuracy", (("k", 2),)), "categorical"),
    _metric("sparse-top2", ("SparseTopKCategoricalAccuracy", (("k", 2),)), "sparse"),
    _metric("mean-iou", ("MeanIoU", (("num_classes", 4),)), "classes"),
    Case("fit-csv-logger", REFUSED, "fit", ("fit", "arrays", "csv")),
    Case("fit-reduce-lr-on-plateau", REFUSED, "fit", ("fit", "arrays", "plateau")),
    Case("fit-terminate-on-nan", REFUSED, "fit", ("fit", "arrays", "nan")),
    Case("fit-tensorboard", REFUSED, "fit", ("fit", "arrays", "tensorboard")),
    Case("fit-datasets-from-function", REFUSED, "fit", ("fit", "from_function", None)),
    Case("fit-distributed-dataset-csv", REFUSED, "fit", ("fit", "distributed", "csv")),
    Case("evaluate-datasets-from-function", REFUSED, "fit", ("evaluate", "from_function", None)),
    Case("predict-distributed-dataset", REFUSED, "fit", ("predict", "distributed", None)),
]
assert len({c.name for c in CASES}) == len(CASES), "duplicate case names"


tf_results = tf_cases.results_fixture(__file__, CASES)


def _check(index: int, tf_results: dict[int, Any]) -> None:
    tf_cases.check(CASES, run, index, tf_results)


@pytest.mark.clause("keras.metric.pss")
@pytest.mark.parametrize("index", tf_cases.params(CASES, METRIC))
def test_metrics_updated_on_pss_workers(index: int, tf_results: dict[int, Any]) -> None:
    want = tf_results[index]
    assert isinstance(want, dict), f"{CASES[index].name}: TF 2.21 failed: {want!r}"
    _check(index, tf_results)


@pytest.mark.clause("keras.fit.pss-refused")
@pytest.mark.parametrize("index", tf_cases.params(CASES, REFUSED))
def test_keras_loop_refused_under_pss(index: int, tf_results: dict[int, Any]) -> None:
    want = tf_results[index]["outcome"]
    assert isinstance(want, tuple) and want[0] == "error", \
        f"{CASES[index].name}: TF 2.21 + Keras 3 ran it ({want!r}): update keras.fit.pss-refused"
    _check(index, tf_results)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(tf_cases.worker(CASES, run))
    os._exit(0)  # (in-process servers and coordinator threads never shut down cleanly)
