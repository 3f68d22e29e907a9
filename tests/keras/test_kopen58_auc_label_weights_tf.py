"""AUC(label_weights=...)'s config, serialization and a saved model's reload (kopen58; clause keras.metric.option-coverage).

Keras 3.15's AUC keeps `label_weights` as `ops.array(label_weights, dtype)` and its get_config returns that tensor;
serialize_keras_object writes a tensor as {"class_name": "__tensor__", "config": {"value", "dtype"}}, which
deserialize_keras_object hands to AUC's constructor as it is, so `keras.metrics.deserialize(keras.metrics.serialize(
auc))` and loading a saved model compiled with such an AUC raise ValueError "Attempt to convert a value ({...}) with an
unsupported type (<class 'dict'>) to a Tensor." on TF 2.21 (from_config of the unserialized config works). simdist
returned a Python list from get_config (msweep57's OPEN), so serialization round-tripped and the model reloaded. Each
case returns the observations' values or [error class, first line].
"""

from __future__ import annotations

import json
import os
import zipfile
from typing import Any, Callable

import numpy as np
import pytest

import tf_programs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _try(out: list, label: str, fn: Callable[[], Any]) -> None:
    try:
        out.append([label, fn()])
    except Exception as e:  # noqa: BLE001 - the class and first line are what is compared
        out.append([label, [type(e).__name__, str(e).split("\n")[0][:200]]])


def program(tf: Any, case: dict, workdir: str) -> Any:
    keras = tf.keras
    out: list[Any] = []
    kw = case["kw"]
    a = keras.metrics.AUC(**kw)
    cfg = a.get_config()
    lw = cfg["label_weights"]
    out.append(["get_config label_weights", [bool(tf.is_tensor(lw)), None if lw is None else np.asarray(lw).tolist()]])
    s = keras.metrics.serialize(a)
    out.append(["serialized", json.loads(json.dumps(s["config"]["label_weights"]))])
    _try(out, "deserialize(serialize)", lambda: np.asarray(keras.metrics.deserialize(s).label_weights).tolist())
    _try(out, "from_config(get_config)", lambda: np.asarray(keras.metrics.AUC.from_config(cfg).label_weights).tolist())
    inp = keras.Input((3,))
    m = keras.Model(inp, keras.layers.Dense(2, activation="sigmoid")(inp))
    m.compile("sgd", "binary_crossentropy", metrics=[keras.metrics.AUC(**kw)])
    x = np.ones((4, 3), np.float32)
    y = np.array([[0, 1], [1, 0], [1, 1], [0, 0]], np.float32)
    m.fit(x, y, verbose=0)
    path = os.path.join(workdir, "auc.keras")
    m.save(path)
    with zipfile.ZipFile(path) as z:
        saved = json.loads(z.read("config.json"))["compile_config"]["metrics"][0]["config"]["label_weights"]
    out.append(["saved label_weights", saved])
    _try(out, "load_model", lambda: sorted(type(v).__name__ for v in keras.models.load_model(path).metrics))
    return out


CASES: dict[str, dict] = {
    "multi_label, two labels": {"strategy": "default",
                                "kw": {"multi_label": True, "num_labels": 2, "label_weights": [0.5, 2.0]}},
    "no label_weights": {"strategy": "default", "kw": {"multi_label": True, "num_labels": 2}},
}
NAMES = list(CASES)


@pytest.fixture(scope="module")
def tf_results(request: Any) -> dict[int, Any]:
    return tf_programs.spawn(__file__, CASES, tf_programs.selected(request, __file__))


@pytest.mark.clause("keras.metric.option-coverage")
@pytest.mark.parametrize("index", range(len(NAMES)), ids=NAMES)
def test_auc_label_weights_as_tf(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    name = NAMES[index]
    got = tf_programs.on_simdist(program, CASES[name], str(tmp_path))
    want = tf_results[index]
    bad = [f"{w[0]}: simdist gives {g[1]!r}, TF 2.21 gives {w[1]!r}" for g, w in zip(got, want) if g != w]
    assert len(got) == len(want) and not bad, f"{name}: " + "; ".join(bad)


if __name__ == "__main__":
    tf_workers.serve(tf_programs.worker(CASES, program))
