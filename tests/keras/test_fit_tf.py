"""Differential tests of Model.compile/fit/evaluate/predict: simdist vs TF 2.21 + Keras 3.15.1.

Each case is one program, the same on both backends: a small MLP (Dense-relu-Dense) whose
weights are set from the same NumPy arrays (`set_weights`), compiled with an optimizer, a loss
and metrics, trained with `fit` for a few epochs under a strategy, then evaluated and used to
predict. The program records History (`history.history`), the per-batch logs a callback sees,
evaluate's values, predict's outputs and the final weights, or the error class and message.
TF runs the same program in a subprocess (tf_workers.spawn; this module is its worker).

Tolerances (docs/spec.md, "Keras: compile, fit, evaluate, predict"): History losses and metrics,
step logs and evaluate agree to rtol 1e-4 with atol 1e-6, weights and predictions to rtol 1e-4 with
atol 1e-5 (float32 training for a few epochs: the same ops, summed in other orders; they agree to
about 1e-6 in practice).
"""

from __future__ import annotations

import io
import re
import sys
from contextlib import redirect_stdout
from typing import Any

import numpy as np
import pytest

import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

RTOL, ATOL = 1e-4, 1e-6
N, D, H, C = 50, 8, 16, 3

# -- the cases --------------------------------------------------------------------------------------
# strategy: default | one_device | mirrored2 | mirrored4 | central_storage2
BASE = dict(strategy="default", optimizer=("SGD", {"learning_rate": 0.1}), loss="scce", metrics=["accuracy"],
            n=N, batch_size=16, epochs=3, compile_in_scope=False, fit={}, eval=True, predict=True, kind="sparse")

CASES: dict[str, dict] = {}


def case(name: str, **kw: Any) -> None:
    CASES[name] = {**BASE, **kw, "fit": {**BASE["fit"], **kw.get("fit", {})}}


ADAM = ("Adam", {"learning_rate": 0.01})
for s in ("default", "one_device", "mirrored2", "mirrored4", "central_storage2"):
    case(f"{s}-sgd", strategy=s)                                   # compiled outside the scope
    case(f"{s}-adam", strategy=s, optimizer=ADAM, compile_in_scope=True)
case("mirrored2-sgd-compile-in-scope", strategy="mirrored2", compile_in_scope=True)
case("central_storage2-sgd-compile-in-scope", strategy="central_storage2", compile_in_scope=True)
# TF 2.21 + Keras 3: an optimizer with slots made outside the model's scope cannot build them
case("mirrored2-adam-made-outside-scope", strategy="mirrored2", optimizer=ADAM, isolated=True)
case("one_device-adam-made-outside-scope", strategy="one_device", optimizer=ADAM, isolated=True)
case("mirrored2-momentum-made-outside-scope", strategy="mirrored2", isolated=True,
     optimizer=("SGD", {"learning_rate": 0.1, "momentum": 0.9}))
case("mirrored4-one-example-last-batch", strategy="mirrored4", n=49)      # last batch [1, 0, 0, 0]
case("mirrored2-validation-data", strategy="mirrored2", fit={"validation": "data"})
case("default-validation-split", fit={"validation_split": 0.2})
case("mirrored2-validation-split", strategy="mirrored2", optimizer=ADAM, compile_in_scope=True,
     fit={"validation_split": 0.3})
case("mirrored2-class-weight", strategy="mirrored2", fit={"class_weight": {0: 1.0, 1: 2.0, 2: 0.5}})
case("one_device-sample-weight", strategy="one_device", metrics=["accuracy"], weighted_metrics=["accuracy"],
     fit={"sample_weight": True})
case("mirrored2-sample-weight-weighted-metrics", strategy="mirrored2", weighted_metrics=["accuracy"],
     fit={"sample_weight": True})
case("mirrored2-dataset", strategy="mirrored2", fit={"dataset": True})
case("mirrored4-dataset-steps-per-epoch", strategy="mirrored4", fit={"dataset": "repeat", "steps_per_epoch": 2})
case("default-steps-per-execution", steps_per_execution=2)
case("mirrored2-run-eagerly-empty-replica", strategy="mirrored2", n=49, run_eagerly=True, epochs=1, isolated=True)
case("mirrored4-uneven-first-batch", strategy="mirrored4", batch_size=6, epochs=1, isolated=True)
case("mirrored2-categorical", strategy="mirrored2", loss="cce", kind="categorical", optimizer=ADAM,
     compile_in_scope=True)
case("central_storage2-binary", strategy="central_storage2", loss="bce", kind="binary")
case("mirrored2-mse-string", strategy="mirrored2", loss="mse", kind="regression", metrics=None)
case("mirrored2-early-stopping", strategy="mirrored2", epochs=6,
     fit={"callbacks": "early_stopping"}, optimizer=("SGD", {"learning_rate": 3.0}))
case("mirrored2-lr-scheduler", strategy="mirrored2", fit={"callbacks": "lr_scheduler"})
case("default-verbose-1", epochs=2, fit={"verbose": 1})
case("mirrored2-verbose-2", strategy="mirrored2", epochs=2, fit={"verbose": 2}, n=40)
case("mirrored2-fit-under-other-strategy", strategy="mirrored2", fit={"other_scope": True}, isolated=True)
case("mirrored2-on-batch-methods", strategy="mirrored2", fit={"method": "on_batch"})
case("central_storage2-on-batch-methods", strategy="central_storage2", fit={"method": "on_batch"})
for m in ("fit", "evaluate", "predict"):
    case(f"pss-{m}-refused", strategy="pss", fit={"method": m})
    case(f"pss-{m}-dataset-refused", strategy="pss", fit={"method": m, "dataset": True})

# The default run's slice (the rest is @slow): one case per strategy and the behaviours that
# differ most between strategies (partial batches, compile scope, validation, errors).
DEFAULT_SLICE = ["default-adam", "one_device-sgd", "mirrored2-sgd", "mirrored4-adam", "central_storage2-sgd",
                 "mirrored2-sgd-compile-in-scope", "mirrored2-adam-made-outside-scope",
                 "mirrored4-one-example-last-batch", "mirrored2-validation-data",
                 "mirrored2-class-weight", "mirrored4-uneven-first-batch", "default-verbose-1",
                 "mirrored2-on-batch-methods"]


# -- the program (the same on both backends) -------------------------------------------------------------
def _data(c: dict) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(7)
    n = c["n"]
    x = rng.standard_normal((n, D)).astype("float32")
    labels = rng.integers(0, C, n).astype("int32")
    out = {"x": x}
    if c["kind"] == "sparse":
        out["y"] = labels
    elif c["kind"] == "categorical":
        out["y"] = np.eye(C, dtype="float32")[labels]
    elif c["kind"] == "binary":
        out["y"] = (labels % 2).astype("float32")[:, None]
    else:
        out["y"] = rng.standard_normal((n, 1)).astype("float32")
    out["sw"] = rng.uniform(0.5, 2.0, n).astype("float32")
    out["vx"] = rng.standard_normal((20, D)).astype("float32")
    out["vy"] = labels[:20][::-1].copy() if c["kind"] == "sparse" else out["y"][:20][::-1].copy()
    units = 1 if c["kind"] in ("binary", "regression") else C
    out["w"] = [(rng.standard_normal((D, H)) * 0.4).astype("float32"), (rng.standard_normal(H) * 0.1).astype("float32"),
                (rng.standard_normal((H, units)) * 0.4).astype("float32"), np.zeros(units, "float32")]
    return out


def _strategy(tf: Any, kind: str) -> Any:
    if kind == "pss":
        if "simdist" in tf.__name__:
            import ps_helpers
            return ps_helpers.pss(workers=2, ps=1)
        from simdist.conformance.backends.tf_backend import _free_port, start_in_process_servers
        spec = dict(start_in_process_servers(tf, 2, 1)[0])
        spec["chief"] = [f"localhost:{_free_port()}"]
        resolver = tf.distribute.cluster_resolver.SimpleClusterResolver(
            tf.train.ClusterSpec(spec), rpc_layer="grpc", task_type="chief", task_id=0)
        return tf.distribute.experimental.ParameterServerStrategy(resolver)
    if kind == "default":
        return tf.distribute.get_strategy()
    if kind == "one_device":
        return tf.distribute.OneDeviceStrategy("/cpu:0")
    n = int(kind[-1])
    devices = [f"/cpu:{i}" for i in range(n)]
    if kind.startswith("mirrored"):
        return tf.distribute.MirroredStrategy(devices)
    return tf.distribute.experimental.CentralStorageStrategy(devices)


def _model(tf: Any, units: int, final_activation: Any) -> Any:
    keras = tf.keras
    return keras.Sequential([keras.Input((D,)), keras.layers.Dense(H, activation="relu"),
                             keras.layers.Dense(units, activation=final_activation)])


def _loss(tf: Any, name: str) -> Any:
    keras = tf.keras
    return {"scce": lambda: keras.losses.SparseCategoricalCrossentropy(from_logits=True),
            "cce": lambda: keras.losses.CategoricalCrossentropy(from_logits=True),
            "bce": lambda: keras.losses.BinaryCrossentropy(),
            "mse": lambda: "mse"}[name]()


def _np(v: Any) -> Any:
    return np.asarray(v.numpy() if hasattr(v, "numpy") else v)


def program(tf: Any, c: dict) -> dict[str, Any]:
    """Build, compile, fit, evaluate, predict; what each step gave (or the first error)."""
    keras = tf.keras
    d = _data(c)
    out: dict[str, Any] = {}
    strategy = _strategy(tf, c["strategy"])
    units = d["w"][2].shape[1]
    with strategy.scope():
        model = _model(tf, units, "sigmoid" if c["kind"] == "binary" else None)
    model.set_weights(d["w"])

    def compile_() -> None:
        opt_name, opt_kw = c["optimizer"]
        kw = {}
        if c.get("weighted_metrics"):
            kw["weighted_metrics"] = c["weighted_metrics"]
        if c.get("steps_per_execution"):
            kw["steps_per_execution"] = c["steps_per_execution"]
        if c.get("run_eagerly"):
            kw["run_eagerly"] = True
        model.compile(optimizer=getattr(keras.optimizers, opt_name)(**opt_kw), loss=_loss(tf, c["loss"]),
                      metrics=c["metrics"], **kw)

    if c["compile_in_scope"]:
        with strategy.scope():
            compile_()
    else:
        compile_()

    batches: list[dict] = []

    class BatchLogs(keras.callbacks.Callback):
        def on_train_batch_end(self, batch: int, logs: Any = None) -> None:
            batches.append({k: float(v) for k, v in (logs or {}).items()})

    f = c["fit"]
    kw: dict[str, Any] = {"epochs": c["epochs"], "verbose": f.get("verbose", 0), "shuffle": False}
    if f.get("dataset"):
        ds = tf.data.Dataset.from_tensor_slices((d["x"], d["y"])).batch(c["batch_size"])
        if f["dataset"] == "repeat":
            ds = ds.repeat()
        args: tuple = (ds,)
        kw.pop("shuffle")
    else:
        args = (d["x"], d["y"])
        kw["batch_size"] = c["batch_size"]
    if f.get("steps_per_epoch"):
        kw["steps_per_epoch"] = f["steps_per_epoch"]
    if f.get("validation") == "data":
        kw["validation_data"] = (d["vx"], d["vy"])
    if f.get("validation_split"):
        kw["validation_split"] = f["validation_split"]
    if f.get("class_weight"):
        kw["class_weight"] = f["class_weight"]
    if f.get("sample_weight"):
        kw["sample_weight"] = d["sw"]
    callbacks: list[Any] = [BatchLogs()]
    if f.get("callbacks") == "early_stopping":
        callbacks.append(keras.callbacks.EarlyStopping(monitor="loss", patience=1, min_delta=1e-3,
                                                       restore_best_weights=True))
    if f.get("callbacks") == "lr_scheduler":
        callbacks.append(keras.callbacks.LearningRateScheduler(lambda epoch, lr: lr * 0.5 if epoch else lr))
    kw["callbacks"] = callbacks
    text = io.StringIO()
    try:
        if f.get("method") == "on_batch":
            out["history"], out["epochs"], out["batches"] = {}, [], []
            out["train_on_batch"] = model.train_on_batch(d["x"][:16], d["y"][:16], return_dict=True)
            out["test_on_batch"] = [float(v) for v in model.test_on_batch(d["x"][:16], d["y"][:16])]
            out["predict"] = _np(model.predict_on_batch(d["x"][:16]))
            out["weights"] = [_np(w) for w in model.get_weights()]
            return out
        if f.get("method") in ("evaluate", "predict"):
            if f["method"] == "evaluate":
                model.evaluate(*args, verbose=0, **({} if f.get("dataset") else {"batch_size": c["batch_size"]}))
            else:
                model.predict(args[0] if not f.get("dataset") else tf.data.Dataset.from_tensor_slices(d["x"]).batch(4),
                              verbose=0, **({} if f.get("dataset") else {"batch_size": c["batch_size"]}))
            out["error"] = None
            return out
        if f.get("other_scope"):
            other = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1", "/cpu:2"])
            with other.scope():
                model.fit(*args, **kw)
        else:
            with redirect_stdout(text):
                history = model.fit(*args, **kw)
    except Exception as e:  # noqa: BLE001 - the error is the result
        out["error"] = (type(e).__name__, str(e))
        return out
    out["history"] = {k: [float(v) for v in vs] for k, vs in history.history.items()}
    out["epochs"] = list(history.epoch)
    out["batches"] = batches
    if f.get("verbose"):
        out["stdout"] = text.getvalue()
    out["weights"] = [_np(w) for w in model.get_weights()]
    if c["eval"]:
        out["evaluate"] = [float(v) for v in np.atleast_1d(model.evaluate(d["x"], d["y"], batch_size=c["batch_size"],
                                                                          verbose=0, return_dict=False))]
        out["evaluate_dict"] = {k: float(v) for k, v in model.evaluate(d["x"], d["y"], batch_size=c["batch_size"],
                                                                        verbose=0, return_dict=True).items()}
    if c["predict"]:
        out["predict"] = _np(model.predict(d["x"], batch_size=c["batch_size"], verbose=0))
    return out


# -- the TF worker -----------------------------------------------------------------------------------------
def _tf_worker(indices: list[int]) -> dict[int, Any]:
    import tensorflow as tf
    cpu = tf.config.list_physical_devices("CPU")[0]
    tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 4)
    names = list(CASES)
    out = {}
    for i in indices:
        tf.keras.backend.clear_session()
        out[i] = program(tf, CASES[names[i]])
    return out


def _simdist(c: dict) -> dict[str, Any]:
    import simdist
    from simdist import tf
    simdist.reset()
    cpu = tf.config.list_physical_devices("CPU")[0]
    tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 4)
    return program(tf, c)


# -- comparing ---------------------------------------------------------------------------------------------
_TIMES = re.compile(r"(\x1b\[1m)?\d+(:\d\d)*s(\x1b\[0m)?(?= )|\d+(ms|us|s)/step")


def _mask_times(text: str) -> str:
    """Keras's progress bar with its wall-clock fields (ETA, elapsed, per-step) masked."""
    return _TIMES.sub("<t>", text)


def _final_lines(text: str) -> list[str]:
    """What a progress-bar output leaves on screen, times masked: each line's last redraw
    (Keras redraws with backspaces and "\\r" when wall-clock time allows; which intermediate
    states TF shows depends on wall time, so only the final ones are compared)."""
    out = []
    for line in _mask_times(text).split("\n"):
        out.append(line.split("\r")[-1].replace("\x08", "").rstrip())
    return out


def _message(text: str) -> str:
    """An error message without what names TF's or simdist's internals: the `{{function_node ...}}`
    prefix and ` name: ` suffix of op errors, object addresses, module paths of strategy reprs."""
    text = re.sub(r"^\{\{function_node [^}]*\}\}\s*", "", text)
    text = re.sub(r"\s*name:\s*$", "", text)
    text = re.sub(r"<[\w.]+\.(\w+) object at 0x[0-9a-f]+>", r"<\1>", text)
    text = text.replace("<_DefaultDistributionStrategy>", "<DefaultStrategy>")
    return re.sub(r"\[(\d+),(\d+)\]", r"[\1, \2]", text).strip()


def _close(got: Any, want: Any, where: str, rtol: float = RTOL, atol: float = ATOL) -> None:
    got, want = np.asarray(got, dtype=np.float64), np.asarray(want, dtype=np.float64)
    assert got.shape == want.shape, f"{where}: shape {got.shape}, TF 2.21 {want.shape}"
    both_nan = np.isnan(got) & np.isnan(want)
    ok = both_nan | np.isclose(got, want, rtol=rtol, atol=atol)
    assert ok.all(), f"{where}: simdist {got.ravel()[:8]} vs TF 2.21 {want.ravel()[:8]} (rtol {rtol})"


def compare(got: dict, want: dict, name: str) -> None:
    if "error" in want or "error" in got:
        assert "error" in got, f"{name}: TF 2.21 raised {want['error']}, simdist returned {sorted(got)}"
        assert "error" in want, f"{name}: simdist raised {got['error']}, TF 2.21 did not"
        assert want["error"] is not None and got["error"] is not None, f"{name}: {got['error']} vs TF {want['error']}"
        assert got["error"][0] == want["error"][0], f"{name}: error class {got['error']} vs TF 2.21 {want['error']}"
        g, w = _message(got["error"][1]), _message(want["error"][1])
        assert g == w, f"{name}: error message\nsimdist: {g!r}\nTF 2.21: {w!r}"
        return
    assert sorted(got["history"]) == sorted(want["history"]), \
        f"{name}: History keys {sorted(got['history'])}, TF 2.21 {sorted(want['history'])}"
    assert got["epochs"] == want["epochs"], f"{name}: History.epoch {got['epochs']}, TF 2.21 {want['epochs']}"
    for k in want["history"]:
        _close(got["history"][k], want["history"][k], f"{name}: history[{k!r}]")
    assert len(got["batches"]) == len(want["batches"]), \
        f"{name}: {len(got['batches'])} train batches seen by callbacks, TF 2.21 {len(want['batches'])}"
    for i, (g, w) in enumerate(zip(got["batches"], want["batches"])):
        assert sorted(g) == sorted(w), f"{name}: batch {i} log keys {sorted(g)}, TF 2.21 {sorted(w)}"
        for k in w:
            _close(g[k], w[k], f"{name}: batch {i} logs[{k!r}]")
    for i, (g, w) in enumerate(zip(got["weights"], want["weights"])):
        _close(g, w, f"{name}: weight {i} after fit", atol=1e-5)
    if "evaluate" in want:
        _close(got["evaluate"], want["evaluate"], f"{name}: evaluate()")
        assert sorted(got["evaluate_dict"]) == sorted(want["evaluate_dict"]), \
            f"{name}: evaluate(return_dict=True) keys {sorted(got['evaluate_dict'])}, " \
            f"TF 2.21 {sorted(want['evaluate_dict'])}"
    for key in ("train_on_batch", "test_on_batch"):
        if key in want:
            w = want[key] if isinstance(want[key], list) else [want[key][k] for k in sorted(want[key])]
            g = got[key] if isinstance(got[key], list) else [got[key][k] for k in sorted(got[key])]
            _close(g, w, f"{name}: {key}")
    if "predict" in want:
        _close(got["predict"], want["predict"], f"{name}: predict()", atol=1e-5)
    if "stdout" in want:
        g, w = _final_lines(got["stdout"]), _final_lines(want["stdout"])
        assert g == w, f"{name}: progress output differs (times masked)\nsimdist: {g!r}\nTF 2.21: {w!r}"


# -- the tests ---------------------------------------------------------------------------------------------
_NAMES = list(CASES)


PSS_CASES = [n for n in _NAMES if n.startswith("pss-")]
SLOW = [n for n in _NAMES if n not in DEFAULT_SLICE and n not in PSS_CASES]


def _spawn(names: list[str]) -> dict[str, Any]:
    """TF's results: the cases in one worker process, except `isolated` ones (cases where TF
    raises inside a step: that aborts TF's collectives for the rest of the process), one each
    """
    # MirroredStrategies in one process reuse TF's collective group and instance keys: a second
    # one with another size, or all-reducing gradients of other shapes, aborts; so one process per
    # (replica count, model output units).
    def key(n: str) -> tuple:
        c = CASES[n]
        return (c["strategy"] == "mirrored4", c["kind"] in ("binary", "regression"))

    groups: dict[tuple, list[str]] = {}
    for n in names:
        if not CASES[n].get("isolated"):
            groups.setdefault(key(n), []).append(n)
    runs = list(groups.values()) + [[n] for n in names if CASES[n].get("isolated")]
    out: dict[str, Any] = {}
    for g in runs:
        out.update({_NAMES[i]: r for i, r in tf_workers.spawn(__file__, [_NAMES.index(n) for n in g]).items()})
    return out


@pytest.fixture(scope="module")
def tf_default() -> dict[str, Any]:
    return _spawn(DEFAULT_SLICE)


@pytest.fixture(scope="module")
def tf_pss() -> dict[str, Any]:
    # (its own TF process: once connected to a cluster, TF's context is not a local one any more)
    return _spawn(PSS_CASES)


@pytest.fixture(scope="module")
def tf_slow() -> dict[str, Any]:
    return _spawn(SLOW)


@pytest.mark.clause("keras.fit.distributed-step")
@pytest.mark.parametrize("name", DEFAULT_SLICE)
def test_fit_matches_tf(name: str, tf_default: dict[str, Any]) -> None:
    compare(_simdist(CASES[name]), tf_default[name], name)


@pytest.mark.clause("keras.fit.pss-refused")
@pytest.mark.parametrize("name", PSS_CASES)
def test_pss_refuses_like_tf(name: str, tf_pss: dict[str, Any]) -> None:
    compare(_simdist(CASES[name]), tf_pss[name], name)


@pytest.mark.slow
@pytest.mark.clause("keras.fit.distributed-step")
@pytest.mark.parametrize("name", SLOW)
def test_fit_matches_tf_slow(name: str, tf_slow: dict[str, Any]) -> None:
    compare(_simdist(CASES[name]), tf_slow[name], name)


if __name__ == "__main__":
    sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parent))
    tf_workers.serve(_tf_worker)
