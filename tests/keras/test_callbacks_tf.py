"""Differential tests of CSVLogger, ReduceLROnPlateau, TerminateOnNaN and the new compiled
metrics (Precision, Recall, TopK accuracies, F1Score) in fit: simdist vs TF 2.21 + Keras 3.15.1.

Each case is one program, the same on both backends: a small MLP with weights set from the same
NumPy arrays, compiled with metrics, fit with the callbacks under a strategy; the program records
History, the learning rate the optimizer had after each epoch, the batches trained, the CSV file's
bytes and evaluate's values. TF runs in a subprocess (tf_workers.spawn; this module is its worker).

Tolerances as tests/keras/test_fit_tf.py: logged values rtol 1e-4, atol 1e-6. The CSV file must
equal TF's byte for byte once each number is replaced by the same value formatted from simdist's
float (the layout, header, quoting, separator and line ends exactly; the digits within rtol).
"""

from __future__ import annotations

import io
import os
import re
from contextlib import redirect_stdout
from typing import Any

import numpy as np
import pytest

import tf_programs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

RTOL, ATOL = 1e-4, 1e-6
N, D, H, C = 48, 8, 16, 4

BASE = dict(strategy="default", epochs=6, lr=0.5, kind="sparse", csv={}, plateau=None, nan=False, metrics="sparse")
CASES: dict[str, dict] = {}


def case(name: str, **kw: Any) -> None:
    CASES[name] = {**BASE, **kw}


case("default-csv-metrics", csv={"separator": ","})
case("mirrored2-csv-metrics", strategy="mirrored2", csv={"separator": ";"})
case("default-csv-append-validation", csv={"append": True, "twice": True}, validation=True)
case("default-binary-metrics", kind="binary", metrics="binary")
case("mirrored4-binary-metrics", strategy="mirrored4", kind="binary", metrics="binary")
case("central_storage2-binary-metrics", strategy="central_storage2", kind="binary", metrics="binary")
case("default-plateau", plateau={"monitor": "loss", "factor": 0.5, "patience": 1, "min_delta": 0.05}, epochs=8)
case("mirrored2-plateau-cooldown-min-lr", strategy="mirrored2", epochs=8,
     plateau={"monitor": "loss", "factor": 0.2, "patience": 1, "min_delta": 0.1, "cooldown": 2, "min_lr": 0.03})
case("default-plateau-max-mode", epochs=7, plateau={"monitor": "sparse_categorical_accuracy", "mode": "max",
                                                    "factor": 0.5, "patience": 2})
case("default-nan", nan=True, lr=1e4, epochs=3)
case("mirrored2-nan", strategy="mirrored2", nan=True, lr=1e4, epochs=3)


def _data(c: dict) -> dict[str, Any]:
    rng = np.random.default_rng(7)
    x = rng.standard_normal((N, D)).astype(np.float32)
    if c["kind"] == "binary":
        y = (rng.random((N, C)) < 0.4).astype(np.float32)
    else:
        y = rng.integers(0, C, N).astype(np.int32)
    w = [rng.standard_normal((D, H)).astype(np.float32) * 0.4, np.zeros(H, np.float32),
         rng.standard_normal((H, C)).astype(np.float32) * 0.4, np.zeros(C, np.float32)]
    if c["nan"]:
        x = x * 100.0
    return {"x": x, "y": y, "w": w}


def _strategy(tf: Any, kind: str) -> Any:
    if kind == "default":
        return tf.distribute.get_strategy()
    n = int(kind[-1])
    devices = [f"/cpu:{i}" for i in range(n)]
    if kind.startswith("mirrored"):
        return tf.distribute.MirroredStrategy(devices)
    return tf.distribute.experimental.CentralStorageStrategy(devices)


def _metrics(tf: Any, kind: str) -> list[Any]:
    m = tf.keras.metrics
    if kind == "binary":
        return [m.Precision(), m.Recall(thresholds=[0.3, 0.6]), m.Precision(top_k=2, name="p_top2"),
                m.F1Score(average="macro", threshold=0.5), m.RecallAtPrecision(0.5, num_thresholds=21)]
    return ["sparse_categorical_accuracy", m.SparseTopKCategoricalAccuracy(k=2)]


def program(tf: Any, c: dict, workdir: str) -> dict[str, Any]:
    """Build, compile, fit with the callbacks, evaluate; what each step gave (or the first error)."""
    keras = tf.keras
    d = _data(c)
    strategy = _strategy(tf, c["strategy"])
    out: dict[str, Any] = {}
    try:
        with strategy.scope():
            model = keras.Sequential([keras.Input((D,)), keras.layers.Dense(H, activation="relu"),
                                      keras.layers.Dense(C, activation="sigmoid" if c["kind"] == "binary" else None)])
            loss = (keras.losses.BinaryCrossentropy() if c["kind"] == "binary"
                    else keras.losses.SparseCategoricalCrossentropy(from_logits=True))
            model.compile(optimizer=keras.optimizers.SGD(c["lr"]), loss=loss, metrics=_metrics(tf, c["metrics"]))
        model.set_weights(d["w"])
        lrs: list[float] = []
        batches: list[tuple[int, float]] = []

        class Record(keras.callbacks.Callback):
            def on_train_batch_end(self, batch: int, logs: Any = None) -> None:
                batches.append((batch, float((logs or {}).get("loss", np.nan))))

            def on_epoch_end(self, epoch: int, logs: Any = None) -> None:
                lrs.append(float(np.asarray(model.optimizer.learning_rate)))

        callbacks: list[Any] = [Record()]
        if c["plateau"]:   # (before the CSVLogger: its learning_rate log then has a column)
            callbacks.append(keras.callbacks.ReduceLROnPlateau(**c["plateau"]))
        path = os.path.join(workdir, "log.csv")
        callbacks.append(keras.callbacks.CSVLogger(path, **{k: v for k, v in c["csv"].items() if k != "twice"}))
        if c["nan"]:
            callbacks.append(keras.callbacks.TerminateOnNaN())
        fit_kw: dict[str, Any] = {"epochs": c["epochs"], "batch_size": 16, "verbose": 0, "shuffle": False,
                                  "callbacks": callbacks}
        if c.get("validation"):
            fit_kw["validation_split"] = 0.25
        printed = io.StringIO()
        with redirect_stdout(printed):   # (TerminateOnNaN prints; the TF worker's stdout is its pickle)
            history = model.fit(d["x"], d["y"], **fit_kw)
            if c["csv"].get("twice"):
                model.fit(d["x"], d["y"], **{**fit_kw, "epochs": 2})
        out["printed"] = printed.getvalue()
        out["history"] = {k: [np.asarray(v, np.float64).tolist() for v in vs]
                          for k, vs in sorted(history.history.items())}
        out["lrs"] = lrs + [float(np.asarray(model.optimizer.learning_rate))]   # (+ the rate after fit)
        out["batches"] = batches
        out["csv"] = open(path, "rb").read() if os.path.exists(path) else None
        out["evaluate"] = [np.asarray(v, np.float64).tolist()
                           for v in model.evaluate(d["x"], d["y"], batch_size=16, verbose=0)]
    except Exception as e:  # noqa: BLE001 - the error is part of the result
        out["error"] = (type(e).__name__, str(e).split("\n")[0][:300])
    return out


_NUMBER = re.compile(rb"-?(?:\d+\.\d*(?:e[-+]?\d+)?|\d+e[-+]?\d+|nan|inf)")


def _close(got: Any, want: Any, where: str) -> None:
    tf_programs.close(got, want, where, RTOL, ATOL)


def compare(got: dict, want: dict, name: str) -> None:
    assert ("error" in got) == ("error" in want), f"{name}: simdist {got.get('error')}, TF 2.21 {want.get('error')}"
    if "error" in want:
        assert got["error"] == want["error"], f"{name}: simdist raises {got['error']}, TF 2.21 {want['error']}"
        return
    assert list(got["history"]) == list(want["history"]), \
        f"{name}: History keys {list(got['history'])}, TF 2.21 {list(want['history'])}"
    for k in want["history"]:
        _close(got["history"][k], want["history"][k], f"{name}: history[{k!r}]")
    assert got["printed"] == want["printed"], f"{name}: fit printed {got['printed']!r}, TF 2.21 {want['printed']!r}"
    _close(got["lrs"], want["lrs"], f"{name}: learning rate at each epoch's end (before callbacks) and after fit")
    assert [b for b, _ in got["batches"]] == [b for b, _ in want["batches"]], \
        f"{name}: batches trained {got['batches']}, TF 2.21 {want['batches']}"
    _close([v for _, v in got["batches"]], [v for _, v in want["batches"]], f"{name}: batch losses")
    assert len(got["evaluate"]) == len(want["evaluate"]), f"{name}: evaluate {got['evaluate']}, TF {want['evaluate']}"
    for i, (g, w) in enumerate(zip(got["evaluate"], want["evaluate"])):
        _close(g, w, f"{name}: evaluate value {i}")
    assert (got["csv"] is None) == (want["csv"] is None), f"{name}: CSV file written: {got['csv'] is not None}"
    if want["csv"] is not None:
        g_nums, w_nums = _NUMBER.findall(got["csv"]), _NUMBER.findall(want["csv"])
        assert len(g_nums) == len(w_nums), f"{name}: CSV\n{got['csv']!r}\nTF 2.21\n{want['csv']!r}"
        _close([float(x) for x in g_nums], [float(x) for x in w_nums], f"{name}: CSV numbers")
        it = iter(g_nums)
        assert _NUMBER.sub(lambda m: next(it), want["csv"]) == got["csv"], \
            f"{name}: CSV layout differs\n{got['csv']!r}\nTF 2.21\n{want['csv']!r}"


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    """TF's results (tf_programs.spawn: a TF process per strategy size)."""
    return tf_programs.spawn(__file__, CASES)


CLAUSE = {"csv": "keras.callback.csv-logger", "plateau": "keras.callback.reduce-lr-on-plateau",
          "nan": "keras.callback.terminate-on-nan", "metrics": "keras.metric.precision-recall"}


def _params(kind: str) -> list[Any]:
    def kind_of(c: dict) -> str:
        return "nan" if c["nan"] else "plateau" if c["plateau"] else "csv" if c["csv"] and c["metrics"] == "sparse" \
            else "metrics"
    return [pytest.param(i, id=n) for i, (n, c) in enumerate(CASES.items()) if kind_of(c) == kind]


def _check(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    name = list(CASES)[index]
    compare(tf_programs.on_simdist(program, CASES[name], str(tmp_path)), tf_results[index], name)


@pytest.mark.clause("keras.callback.csv-logger")
@pytest.mark.parametrize("index", _params("csv"))
def test_csv_logger(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    _check(index, tf_results, tmp_path)


@pytest.mark.clause("keras.callback.reduce-lr-on-plateau")
@pytest.mark.parametrize("index", _params("plateau"))
def test_reduce_lr_on_plateau(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    _check(index, tf_results, tmp_path)


@pytest.mark.clause("keras.callback.terminate-on-nan")
@pytest.mark.parametrize("index", _params("nan"))
def test_terminate_on_nan(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    _check(index, tf_results, tmp_path)


@pytest.mark.clause("keras.metric.precision-recall")
@pytest.mark.parametrize("index", _params("metrics"))
def test_compiled_metrics_in_fit(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    _check(index, tf_results, tmp_path)


def test_every_case_has_a_test() -> None:
    covered = sum(len(_params(k)) for k in CLAUSE)
    assert covered == len(CASES), f"{len(CASES) - covered} cases are never compared"


if __name__ == "__main__":  # TF worker
    tf_workers.serve(tf_programs.worker(CASES, program))
    os._exit(0)
