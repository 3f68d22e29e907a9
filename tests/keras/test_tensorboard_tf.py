"""Differential tests of keras.callbacks.TensorBoard: simdist vs TF 2.21 + Keras 3.15.

Each case is one program on both backends: a small MLP with weights set from the same NumPy
arrays, fit (and evaluated) with a TensorBoard callback under a strategy; both log directories
are read back with TensorBoard's own EventAccumulator and compared run by run (train/,
validation/): the tags, and per tag the steps and values (scalars rtol 1e-4; histograms'
bucket edges and counts rtol 1e-4), the plugin each tag belongs to, the model config's
class under the "keras" tag (the steps-per-second rates: only tags and steps, TF's are wall-clock
rates and simdist's simulated ones), the number of event files and whether a run has an op graph
(Keras 3.15's train_function has no `function_spec` on TF 2.21, so TF writes none either).
"""

from __future__ import annotations

import json
import os
from typing import Any

import numpy as np
import pytest

import tf_programs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
pytest.importorskip("tensorboard")

RTOL, ATOL = 1e-4, 1e-6
N, D, H, C = 48, 8, 16, 4
BASE: dict[str, Any] = dict(strategy="default", epochs=3, tb={}, validation=False, evaluate=False)
CASES: dict[str, dict] = {}


def case(name: str, **kw: Any) -> None:
    CASES[name] = {**BASE, **kw}


case("default-epoch-validation-histograms", tb={"histogram_freq": 1}, validation=True)
case("default-update2-validation", tb={"update_freq": 2}, validation=True)
case("default-batch-evaluate", tb={"update_freq": "batch", "write_graph": False}, evaluate=True)
case("mirrored2-update3-histograms2", strategy="mirrored2", tb={"update_freq": 3, "histogram_freq": 2},
     validation=True, epochs=4)
case("central_storage2-epoch-evaluate", strategy="central_storage2", evaluate=True)
case("mirrored2-steps-per-second", strategy="mirrored2", tb={"write_steps_per_second": True, "update_freq": 1})
RATE_TAGS = ("batch_steps_per_second", "epoch_steps_per_second")   # (TF: wall clock, simdist: simulated)


def _strategy(tf: Any, kind: str) -> Any:
    if kind == "default":
        return tf.distribute.get_strategy()
    devices = [f"/cpu:{i}" for i in range(int(kind[-1]))]
    if kind.startswith("mirrored"):
        return tf.distribute.MirroredStrategy(devices)
    return tf.distribute.experimental.CentralStorageStrategy(devices)


def read_logs(log_dir: str) -> dict[str, Any]:
    """Each run under log_dir: its event files' count, graph flag, and per tag (plugin, steps, values)."""
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator
    from tensorboard.util import tensor_util
    out: dict[str, Any] = {}
    for run in sorted(os.listdir(log_dir)):
        path = os.path.join(log_dir, run)
        acc = EventAccumulator(path, size_guidance={"tensors": 0, "scalars": 0, "histograms": 0})
        acc.Reload()
        tags: dict[str, Any] = {}
        for tag in sorted(acc.Tags()["tensors"]):
            events = acc.Tensors(tag)
            plugin = acc.SummaryMetadata(tag).plugin_data.plugin_name
            values: list[Any] = []
            for e in events:
                arr = tensor_util.make_ndarray(e.tensor_proto)
                if plugin == "graph_keras_model":
                    values.append(json.loads(arr.item().decode())["class_name"])
                else:
                    values.append(np.asarray(arr, np.float64))
            tags[tag] = {"plugin": plugin, "steps": [e.step for e in events], "values": values}
        files = [f for f in os.listdir(path) if f.startswith("events.out.tfevents.")]
        out[run] = {"files": len(files), "graph": bool(acc.Tags()["graph"]), "tags": tags,
                    "simple_scalars": sorted(acc.Tags()["scalars"])}
    return out


def program(tf: Any, c: dict, workdir: str) -> dict[str, Any]:
    keras = tf.keras
    rng = np.random.default_rng(11)
    x = rng.standard_normal((N, D)).astype(np.float32)
    y = rng.integers(0, C, N).astype(np.int32)
    w = [rng.standard_normal((D, H)).astype(np.float32) * 0.4, np.zeros(H, np.float32),
         rng.standard_normal((H, C)).astype(np.float32) * 0.4, np.zeros(C, np.float32)]
    log_dir = os.path.join(workdir, "logs")
    try:
        with _strategy(tf, c["strategy"]).scope():
            model = keras.Sequential([keras.Input((D,)), keras.layers.Dense(H, activation="relu", name="hidden"),
                                      keras.layers.Dense(C, name="out")])
            model.compile(optimizer=keras.optimizers.SGD(0.3),
                          loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                          metrics=["sparse_categorical_accuracy"])
        model.set_weights(w)
        tb = keras.callbacks.TensorBoard(log_dir, **c["tb"])
        kw: dict[str, Any] = {"epochs": c["epochs"], "batch_size": 16, "verbose": 0, "shuffle": False,
                              "callbacks": [tb]}
        if c["validation"]:
            kw["validation_split"] = 0.25
        model.fit(x, y, **kw)
        if c["evaluate"]:
            model.evaluate(x, y, batch_size=16, verbose=0, callbacks=[tb])
    except Exception as e:  # noqa: BLE001 - the error is part of the result
        return {"error": (type(e).__name__, str(e).split("\n")[0][:300])}
    return read_logs(log_dir)


def _blank_rates(answer: dict) -> None:
    """TF's wall-clock rates kept as NaN, so that the golden is the same every recording."""
    for run in answer.values() if "error" not in answer else ():
        for tag in RATE_TAGS:
            if tag in run["tags"]:
                run["tags"][tag]["values"] = [np.full_like(v, np.nan) for v in run["tags"][tag]["values"]]


def compare(got: dict, want: dict, name: str) -> None:
    assert ("error" in got) == ("error" in want), f"{name}: simdist {got.get('error')}, TF 2.21 {want.get('error')}"
    if "error" in want:
        assert got["error"] == want["error"], f"{name}: simdist raises {got['error']}, TF 2.21 {want['error']}"
        return
    assert sorted(got) == sorted(want), f"{name}: runs {sorted(got)}, TF 2.21 {sorted(want)}"
    for run in want:
        g, w = got[run], want[run]
        where = f"{name} [{run}]"
        assert g["files"] == w["files"], f"{where}: {g['files']} event files, TF 2.21 {w['files']}"
        assert g["graph"] == w["graph"], f"{where}: op graph written {g['graph']}, TF 2.21 {w['graph']}"
        assert g["simple_scalars"] == w["simple_scalars"], \
            f"{where}: simple_value scalars {g['simple_scalars']}, TF 2.21 {w['simple_scalars']}"
        assert sorted(g["tags"]) == sorted(w["tags"]), f"{where}: tags {sorted(g['tags'])}, TF 2.21 {sorted(w['tags'])}"
        for tag, wt in w["tags"].items():
            gt = g["tags"][tag]
            assert gt["plugin"] == wt["plugin"], f"{where} {tag}: plugin {gt['plugin']!r}, TF 2.21 {wt['plugin']!r}"
            assert gt["steps"] == wt["steps"], f"{where} {tag}: steps {gt['steps']}, TF 2.21 {wt['steps']}"
            for i, (gv, wv) in enumerate(zip(gt["values"], wt["values"])):
                if tag in RATE_TAGS:
                    assert np.isfinite(gv) and gv > 0, f"{where} {tag} step {gt['steps'][i]}: {gv}, not a rate"
                    continue
                if isinstance(wv, str):
                    assert gv == wv, f"{where} {tag}: model class {gv!r}, TF 2.21 {wv!r}"
                    continue
                assert gv.shape == wv.shape and np.allclose(gv, wv, rtol=RTOL, atol=ATOL), \
                    f"{where} {tag} step {gt['steps'][i]}: simdist {gv.tolist()}, TF 2.21 {wv.tolist()}"


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    """TF's results (tf_programs.spawn: a TF process per strategy size)."""
    return tf_programs.spawn(__file__, CASES)


@pytest.mark.clause("keras.callback.tensorboard")
@pytest.mark.parametrize("index", range(len(CASES)), ids=list(CASES))
def test_tensorboard_logs(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    name = list(CASES)[index]
    compare(tf_programs.on_simdist(program, CASES[name], str(tmp_path)), tf_results[index], name)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(tf_programs.worker(CASES, program, after=_blank_rates))
    os._exit(0)
