"""Keras deserialization leftovers on TF 2.21 + Keras 3.15 (the fifty-first session, helper open51; clause
keras.saving.json-and-serialize). Keras 3.15's serialization_lib decides: `<module>.deserialize` of a name that
is one of the module's functions resolves it again by the function's public export path, where only the
function's own name is exported, so an alias ("mse", "bce", "swish") is ValueError "Could not deserialize
'keras.metrics.mse' because it is not a KerasSaveable subclass"; a class built from its config whose
from_config raises TypeError is Keras's TypeError "<class> could not be deserialized properly"; the generic
path (layers.deserialize, keras.utils.deserialize_keras_object) finds a class by its registered name among
custom objects only, else by its `keras.*` module (no class of that name: the KerasSaveable ValueError; no
such module: TypeError "parent module ... cannot be imported"); a config without a module is TypeError "Could
not locate class" even for "Dense"; layers.deserialize refuses whatever is not a class config as not a Layer.
Each case: a list of [label, shown value or [error class, first 100 characters of the message]].
"""

from __future__ import annotations

from typing import Any, Callable

import pytest

import tf_programs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _show(x: Any) -> Any:
    if x is None or isinstance(x, (bool, int, float, str)):
        return [type(x).__name__, x]
    if callable(x) and hasattr(x, "__name__") and not isinstance(x, type):
        return ["function", x.__name__]
    return [type(x).__name__, getattr(x, "name", None)]


def _try(out: list, label: str, fn: Callable[[], Any]) -> None:
    try:
        out.append([label, _show(fn())])
    except BaseException as e:  # noqa: BLE001 - the class and text are what is compared
        text = str(e).split("\n")[0]
        if " could not be deserialized properly" in text:   # (the class's own module path differs)
            text = text[text.index(" could not"):]
        out.append([label, [type(e).__name__, text[:100]]])


def program(tf: Any, case: dict, workdir: str) -> Any:
    out: list[Any] = []
    k = tf.keras
    if case["name"] == "module_names":
        for mod, names in [("losses", ["mse", "MSE", "bce", "kld", "mae", "mape", "msle", "mean_squared_error",
                                       "hinge", "huber", "MeanSquaredError", "nope", "LossFunctionWrapper"]),
                           ("metrics", ["mse", "IoU", "MeanIoU", "precision_at_recall", "accuracy"]),
                           ("activations", ["swish", "hard_swish", "silu", "relu", "nope"])]:
            for n in names:
                _try(out, f"{mod}.deserialize({n!r})", lambda mod=mod, n=n: getattr(k, mod).deserialize(n))
        _try(out, "losses.get('mse')", lambda: k.losses.get("mse"))
        _try(out, "activations.get('swish')", lambda: k.activations.get("swish"))
        for label, cfg in [
                ("dict mse", {"class_name": "mse", "config": {}}),
                ("dict hinge", {"class_name": "hinge", "config": {}}),
                ("fn mse builtins", {"module": "builtins", "class_name": "function", "config": "mse",
                                     "registered_name": "function"}),
                ("fn mse keras.losses", {"module": "keras.losses", "class_name": "function", "config": "mse",
                                         "registered_name": "mse"}),
                ("fn mean_squared_error builtins", {"module": "builtins", "class_name": "function",
                                                    "config": "mean_squared_error", "registered_name": "function"}),
                ("class keras.metrics MSE", {"module": "keras.metrics", "class_name": "MeanSquaredError",
                                             "config": {}, "registered_name": None})]:
            _try(out, "losses.deserialize " + label, lambda cfg=cfg: k.losses.deserialize(cfg))
        _try(out, "activations.deserialize dict swish", lambda: k.activations.deserialize({"class_name": "swish",
                                                                                          "config": {}}))
        _try(out, "metrics.deserialize dict IoU", lambda: k.metrics.deserialize({"class_name": "IoU", "config": {}}))
        _try(out, "utils fn mse builtins", lambda: k.utils.deserialize_keras_object(
            {"module": "builtins", "class_name": "function", "config": "mse", "registered_name": "function"}))
    elif case["name"] == "classes":
        class MyLoss(k.losses.Loss):
            def call(self, y_true, y_pred):
                return y_pred

        def cfg(module: Any, name: str, registered: Any = None, inner: Any = None) -> dict:
            return {"module": module, "class_name": name, "config": {} if inner is None else inner,
                    "registered_name": registered}
        for label, fn in [
                ("layers Nope", lambda: k.layers.deserialize({"class_name": "Nope", "config": {}})),
                ("layers keras.layers Nope", lambda: k.layers.deserialize(cfg("keras.layers", "Nope"))),
                ("layers keras.layers MyLoss co", lambda: k.layers.deserialize(cfg("keras.layers", "MyLoss"),
                                                                               custom_objects={"MyLoss": MyLoss})),
                ("layers str Dense", lambda: k.layers.deserialize("Dense")),
                ("layers Dense no config", lambda: k.layers.deserialize({"class_name": "Dense"})),
                ("layers Dense no module", lambda: k.layers.deserialize({"class_name": "Dense",
                                                                         "config": {"units": 2}})),
                ("layers LSTMCell no module", lambda: k.layers.deserialize({"class_name": "LSTMCell",
                                                                            "config": {"units": 2}})),
                ("layers Dense keras.layers", lambda: k.layers.deserialize(cfg("keras.layers", "Dense", "Dense",
                                                                               {"units": 2}))),
                ("layers Dense no units", lambda: k.layers.deserialize(cfg("keras.layers", "Dense"))),
                ("layers list", lambda: k.layers.deserialize([1])),
                ("layers None", lambda: k.layers.deserialize(None)),
                ("layers dict without class", lambda: k.layers.deserialize({"config": {}})),
                ("layers keras.initializers GlorotUniform", lambda: k.layers.deserialize(
                    cfg("keras.initializers", "GlorotUniform"))),
                ("layers keras.initializers Nope", lambda: k.layers.deserialize(cfg("keras.initializers", "Nope"))),
                ("layers keras.nomod Nope", lambda: k.layers.deserialize(cfg("keras.nomod", "Nope"))),
                ("layers keras Nope", lambda: k.layers.deserialize(cfg("keras", "Nope"))),
                ("losses keras.losses MyLoss", lambda: k.losses.deserialize(cfg("keras.losses", "MyLoss"))),
                ("losses keras.losses MyLoss co", lambda: k.losses.deserialize(
                    cfg("keras.losses", "MyLoss", None, {"name": "x"}), custom_objects={"MyLoss": MyLoss})),
                ("metrics keras.metrics MyLoss", lambda: k.metrics.deserialize(cfg("keras.metrics", "MyLoss"))),
                ("utils keras.losses MyLoss", lambda: k.utils.deserialize_keras_object(cfg("keras.losses",
                                                                                           "MyLoss"))),
                ("utils keras.losses MyLoss co", lambda: k.utils.deserialize_keras_object(
                    cfg("keras.losses", "MyLoss", None, {"name": "x"}), custom_objects={"MyLoss": MyLoss})),
                ("utils keras.losses MyLoss co registered", lambda: k.utils.deserialize_keras_object(
                    cfg("keras.losses", "MyLoss", "MyLoss", {"name": "x"}), custom_objects={"MyLoss": MyLoss})),
                ("utils keras.layers Nope", lambda: k.utils.deserialize_keras_object(cfg("keras.layers", "Nope")))]:
            _try(out, label, fn)
    return out


NAMES = ["module_names", "classes"]
CASES: dict[str, dict] = {n: {"strategy": "default", "name": n} for n in NAMES}


@pytest.fixture(scope="module")
def tf_results(request: Any) -> dict[int, Any]:
    return tf_programs.spawn(__file__, CASES, tf_programs.selected(request, __file__))


@pytest.mark.clause("keras.saving.json-and-serialize")
@pytest.mark.parametrize("index", range(len(NAMES)), ids=NAMES)
def test_deserialize_as_tf(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    name = NAMES[index]
    got, want = tf_programs.on_simdist(program, CASES[name], str(tmp_path)), tf_results[index]
    assert [g[0] for g in got] == [w[0] for w in want], f"{name}: labels differ"
    bad = [(w[0], g[1], w[1]) for g, w in zip(got, want) if g != w]
    assert not bad, f"{name}: {len(bad)} entries differ (label, simdist, TF 2.21): {bad}"


if __name__ == "__main__":  # TF worker
    tf_workers.serve(tf_programs.worker(CASES, program))
