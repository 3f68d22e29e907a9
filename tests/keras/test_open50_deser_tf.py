"""Keras deserialization of unknown names and custom objects, and a loaded tuple/list loss, on TF 2.21 + Keras 3.15
(the fiftieth session, helper open50; clauses keras.saving.json-and-serialize and keras.saving.keras-file).

Keras's serialization_lib.deserialize_keras_object decides: `<module>.deserialize` (losses, metrics, activations,
initializers, regularizers, constraints) with module_objects gives back an unknown name as a str, refuses a
null-module class ("Cannot deserialize object of type") and a dict without class_name; the generic path
(keras.utils.deserialize_keras_object, layers.deserialize, model_from_json, a .keras file's compile config) raises
TypeError "Could not locate class/function" for what neither custom_objects, a custom_object_scope nor the registry
names. A function in a compile config is {"module": "builtins", "class_name": "function", ...}; compile's
`model.loss` is TF's ListWrapper/DictWrapper for a list/dict. Each case: a list of [label, shown value or
[error class, first 120 characters of the message]].
"""

from __future__ import annotations

import json
import os
from typing import Any, Callable

import numpy as np
import pytest

import tf_programs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _show(x: Any) -> Any:
    """A value as both backends can show it: a name for a function, the class name for an object."""
    if x is None or isinstance(x, (bool, int, float, str)):
        return [type(x).__name__, x]
    if callable(x) and hasattr(x, "__name__") and not isinstance(x, type):
        return ["function", x.__name__]
    if isinstance(x, (list, tuple, dict)):
        return [type(x).__name__, repr(x).split(" at 0x")[0] if all(
            isinstance(v, (str, int, float, list, dict, type(None))) for v in
            (x.values() if isinstance(x, dict) else x)) else len(x)]
    return [type(x).__name__]


def _try(out: list, label: str, fn: Callable[[], Any]) -> None:
    try:
        out.append([label, _show(fn())])
    except BaseException as e:  # noqa: BLE001 - the class and text are what is compared
        out.append([label, [type(e).__name__, str(e).split("\n")[0][:120]]])


def _deserialize(tf: Any, out: list) -> None:
    keras = tf.keras

    def myloss(y: Any, p: Any) -> Any:
        return tf.reduce_mean(tf.square(y - p))

    class MyL(keras.losses.Loss):
        def call(self, y: Any, p: Any) -> Any:
            return tf.reduce_mean(tf.abs(y - p))

    @keras.utils.register_keras_serializable(package="Open50")
    def regfn(y: Any, p: Any) -> Any:
        return y

    fn_cfg = {"module": "builtins", "class_name": "function", "config": "myloss", "registered_name": "function"}
    mine = {"module": "mm", "class_name": "MyL", "config": {"name": "m"}, "registered_name": "MyL"}
    for m in ["losses", "metrics", "activations", "initializers", "regularizers", "constraints"]:
        mod = getattr(keras, m)
        _try(out, m + " unknown name", lambda: mod.deserialize("nope_x"))
        _try(out, m + " unknown dict", lambda: mod.deserialize({"class_name": "NopeX", "config": {}}))
        _try(out, m + " null module", lambda: mod.deserialize({"module": None, "class_name": "NopeX", "config": {}}))
        _try(out, m + " no class_name", lambda: mod.deserialize({"config": {}}))
        _try(out, m + " get unknown dict", lambda: mod.get({"class_name": "NopeX", "config": {}}))
    _try(out, "optimizers unknown dict", lambda: keras.optimizers.deserialize({"class_name": "NopeOpt", "config": {}}))
    for m, name in [("losses", "MeanSquaredError"), ("metrics", "Mean"), ("metrics", "mse"),
                    ("initializers", "Zeros"), ("initializers", "zeros"), ("regularizers", "l2"),
                    ("constraints", "NonNeg"), ("activations", "relu"), ("losses", "mean_squared_error")]:
        _try(out, f"{m} {name}", lambda: getattr(keras, m).deserialize(name))
    _try(out, "losses builtins fn, custom_objects", lambda: keras.losses.deserialize(fn_cfg, {"myloss": myloss}))
    _try(out, "losses builtins fn unknown", lambda: keras.losses.deserialize(fn_cfg))
    _try(out, "losses registered fn dict", lambda: keras.losses.deserialize(dict(fn_cfg, config="Open50>regfn")))
    _try(out, "losses registered fn name", lambda: keras.losses.deserialize("Open50>regfn"))
    _try(out, "losses registered fn short name", lambda: keras.losses.deserialize("regfn"))
    _try(out, "losses custom class, custom_objects", lambda: keras.losses.deserialize(mine, {"MyL": MyL}))
    _try(out, "losses custom class unknown", lambda: keras.losses.deserialize(mine))
    _try(out, "activations unknown builtins fn", lambda: keras.activations.deserialize(dict(fn_cfg, config="zzz")))
    for label, fn in [("serialize myloss", myloss), ("serialize regfn", regfn), ("serialize mse", keras.losses.mse)]:
        _try(out, "losses " + label, lambda fn=fn: keras.losses.serialize(fn))
        _try(out, "metrics " + label, lambda fn=fn: keras.metrics.serialize(fn))
        _try(out, "utils " + label, lambda fn=fn: keras.utils.serialize_keras_object(fn))
    _try(out, "activations serialize myloss", lambda: keras.activations.serialize(myloss))
    _try(out, "activations serialize relu", lambda: keras.activations.serialize(keras.activations.relu))
    deser = keras.utils.deserialize_keras_object
    _try(out, "utils builtins unknown fn", lambda: deser(dict(fn_cfg, config="zzz")))
    _try(out, "utils builtins relu", lambda: deser(dict(fn_cfg, config="relu")))
    _try(out, "utils builtins mean_squared_error", lambda: deser(dict(fn_cfg, config="mean_squared_error")))
    _try(out, "utils builtins myloss", lambda: deser(fn_cfg))
    _try(out, "utils builtins myloss, custom_objects", lambda: deser(fn_cfg, custom_objects={"myloss": myloss}))
    _try(out, "utils keras.losses class", lambda: deser({"module": "keras.losses", "class_name": "MeanSquaredError",
                                                         "config": {}, "registered_name": None}))
    _try(out, "utils keras.losses unknown", lambda: deser({"module": "keras.losses", "class_name": "Zzz",
                                                           "config": {}, "registered_name": None}))
    _try(out, "utils keras.nope unknown", lambda: deser({"module": "keras.nope", "class_name": "Zzz", "config": {},
                                                         "registered_name": None}))
    _try(out, "utils user module unknown", lambda: deser(dict(mine, class_name="Zzz", registered_name="Zzz")))
    _try(out, "utils custom class, custom_objects", lambda: deser(mine, custom_objects={"MyL": MyL}))
    with keras.utils.custom_object_scope({"MyL": MyL, "myloss": myloss}):
        _try(out, "scope: utils custom class", lambda: deser(mine))
        _try(out, "scope: losses name", lambda: keras.losses.deserialize("myloss"))
        _try(out, "scope: losses.get name", lambda: keras.losses.get("myloss"))
        _try(out, "scope: losses.get custom class", lambda: keras.losses.get(mine))
    _try(out, "layers unknown", lambda: keras.layers.deserialize({"class_name": "NopeLayer", "config": {}}))
    _try(out, "model_from_json unknown model", lambda: keras.models.model_from_json(
        json.dumps({"class_name": "NopeModel", "config": {}})))
    _try(out, "model_from_json no module", lambda: keras.models.model_from_json(json.dumps(
        {"class_name": "Sequential", "config": {"name": "s", "layers": []}})))


def _keras_files(tf: Any, out: list, workdir: str) -> None:
    keras = tf.keras

    def myloss50(y: Any, p: Any) -> Any:
        return tf.reduce_mean(tf.square(y - p))

    class MyLoss50(keras.losses.Loss):
        def call(self, y: Any, p: Any) -> Any:
            return tf.reduce_mean(tf.abs(y - p))

    @keras.utils.register_keras_serializable(package="Open50")
    def regloss50(y: Any, p: Any) -> Any:
        return tf.reduce_mean(tf.square(y - p))

    for name, loss, metrics in [("fn", myloss50, ["mae", myloss50]), ("cls", MyLoss50(), [keras.losses.mae]),
                                ("reg", regloss50, []), ("builtin", keras.losses.mse, [])]:
        m = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
        m.compile(loss=loss, optimizer="sgd", metrics=metrics)
        path = os.path.join(workdir, name + ".keras")
        m.save(path)
        if name != "cls":   # (a custom class's module is the program's: __main__ on TF's worker)
            cfg = m.get_compile_config()
            out.append([name + " compile config", json.dumps({k: cfg[k] for k in ("loss", "metrics")},
                                                             sort_keys=True)])

        def load(**kw: Any) -> Any:
            loaded = keras.models.load_model(path, **kw)
            return [_show(loaded.loss), _show(getattr(loaded.loss, "__name__", None))]

        objects = {"myloss50": myloss50, "MyLoss50": MyLoss50}
        _try(out, name + " load", load)
        _try(out, name + " load compile=False", lambda: load(compile=False))
        _try(out, name + " load custom_objects", lambda: load(custom_objects=objects))

        def scoped() -> Any:
            with keras.utils.custom_object_scope(objects):
                return load()
        _try(out, name + " load in custom_object_scope", scoped)
        # (Keras's clone_model compiles the clone from get_compile_config(): the same lookup)
        _try(out, name + " clone_model", lambda: _show(keras.models.clone_model(m).loss))


def _tuple_loss(tf: Any, out: list, workdir: str) -> None:
    keras = tf.keras
    keras.utils.set_random_seed(1)
    i = keras.Input((2,))
    m = keras.Model(i, [keras.layers.Dense(1, name="a")(i), keras.layers.Dense(1, name="b")(i)])
    x = np.arange(8, dtype="float32").reshape(4, 2) / 8
    y1, y2 = np.ones((4, 1), "float32"), np.zeros((4, 1), "float32")
    for label, loss in [("tuple", ("mse", keras.losses.MeanAbsoluteError())), ("list", ["mse", "mae"]),
                        ("tuple of names", ("mse", "mae")), ("dict", {"a": "mse", "b": "mae"}),
                        ("nested list", ["mse", ["mae"]])]:
        try:
            m.compile(loss=loss, optimizer="sgd")
        except BaseException as e:  # noqa: BLE001
            out.append([label + " compile", [type(e).__name__, str(e).split("\n")[0][:120]]])
            continue
        out.append([label + " loss", [type(m.loss).__name__, repr(m.loss).split(" at 0x")[0][:120]]])
        out.append([label + " str(loss)", str(m.loss).split(" at 0x")[0][:120]])
        out.append([label + " loss is the argument", m.loss is loss])
        if label == "nested list":
            continue
        path = os.path.join(workdir, "m.keras")
        m.save(path)
        mm = keras.models.load_model(path)
        out.append([label + " loaded loss", [type(mm.loss).__name__, repr(mm.loss).split(" at 0x")[0][:120]]])
        out.append([label + " loaded isinstance list, dict, tuple",
                    [isinstance(mm.loss, list), isinstance(mm.loss, dict), isinstance(mm.loss, tuple)]])
        out.append([label + " loaded == argument", bool(mm.loss == loss)])
        out.append([label + " compile config loss", json.dumps(mm.get_compile_config()["loss"], sort_keys=True)])
        _try(out, label + " fit", lambda: [round(v, 5) for v in mm.fit(x, (y1, y2), epochs=1, verbose=0,
                                                                          shuffle=False).history["loss"]])
        _try(out, label + " evaluate", lambda: np.round(mm.evaluate(x, [y1, y2], verbose=0), 5).tolist())


def program(tf: Any, case: dict, workdir: str) -> Any:
    out: list[Any] = []
    if case["name"] == "deserialize":
        _deserialize(tf, out)
    elif case["name"] == "keras_files":
        _keras_files(tf, out, workdir)
    elif case["name"] == "tuple_loss":
        _tuple_loss(tf, out, workdir)
    return out


NAMES = ["deserialize", "keras_files", "tuple_loss"]
CASES: dict[str, dict] = {n: {"strategy": "default", "name": n} for n in NAMES}


@pytest.fixture(scope="module")
def tf_results(request: Any) -> dict[int, Any]:
    return tf_programs.spawn(__file__, CASES, tf_programs.selected(request, __file__))


def _check(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    name = NAMES[index]
    got, want = tf_programs.on_simdist(program, CASES[name], str(tmp_path)), tf_results[index]
    assert [g[0] for g in got] == [w[0] for w in want], f"{name}: labels differ"
    bad = [f"{w[0]}: simdist gives {g[1]}, TF 2.21 gives {w[1]}" for g, w in zip(got, want) if g != w]
    assert not bad, f"{name}: {len(bad)} of {len(want)} differ:\n" + "\n".join(bad)


@pytest.mark.clause("keras.saving.json-and-serialize")
@pytest.mark.parametrize("index", [0, 1], ids=NAMES[:2])
def test_deserialization_as_tf(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    _check(index, tf_results, tmp_path)


@pytest.mark.clause("keras.saving.keras-file")
@pytest.mark.parametrize("index", [2], ids=NAMES[2:])
def test_loaded_loss_containers_as_tf(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    _check(index, tf_results, tmp_path)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(tf_programs.worker(CASES, program))
