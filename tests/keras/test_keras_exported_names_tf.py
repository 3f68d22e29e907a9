"""A Keras class exported under another name than its own (keras.layers.GroupQueryAttention, whose class is
GroupedQueryAttention) on TF 2.21 + Keras 3.15 (clause keras.saving.json-and-serialize): the exported name is the only attribute
(`keras.layers.GroupedQueryAttention` is an AttributeError), while configs carry the class's own name and
deserialize through Keras's export registry — keras.layers.deserialize, a functional model's from_config and
keras.saving's round trip all find it. Each case: a list of [label, observation]."""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import pytest

import labelled_outcomes
import tf_programs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _err(fn: Any) -> Any:
    try:
        return fn()
    except Exception as e:  # noqa: BLE001 - the class is the observation
        return ["error", type(e).__name__]


def _gqa(keras: Any) -> Any:
    return keras.layers.GroupQueryAttention(head_dim=2, num_query_heads=2, num_key_value_heads=1, name="gqa")


def _names(tf: Any, out: list, workdir: str) -> None:
    keras = tf.keras
    out.append(["hasattr GroupedQueryAttention", hasattr(keras.layers, "GroupedQueryAttention")])
    out.append(["hasattr GroupQueryAttention", hasattr(keras.layers, "GroupQueryAttention")])
    out.append(["in dir", sorted(n for n in dir(keras.layers) if "QueryAttention" in n)])
    out.append(["class name", keras.layers.GroupQueryAttention.__name__])
    out.append(["getattr GroupedQueryAttention", _err(lambda: keras.layers.GroupedQueryAttention.__name__)])


def _configs(tf: Any, out: list, workdir: str) -> None:
    keras = tf.keras
    layer = _gqa(keras)
    s = keras.layers.serialize(layer)
    out.append(["serialized", [s.get("class_name"), s.get("module"), s.get("registered_name")]])
    back = keras.layers.deserialize(s)
    out.append(["deserialized", [type(back).__name__, back.name, back.num_query_heads, back.num_key_value_heads]])
    q = keras.Input((3, 4), name="q")
    v = keras.Input((5, 4), name="v")
    model = keras.Model([q, v], _gqa(keras)(q, v), name="m")
    again = keras.Model.from_config(model.get_config())
    out.append(["from_config", [type(x).__name__ for x in again.layers]])
    r = np.random.RandomState(63)
    xq = r.uniform(-1, 1, (2, 3, 4)).astype(np.float32)
    xv = r.uniform(-1, 1, (2, 5, 4)).astype(np.float32)
    path = os.path.join(workdir, "m.keras")
    model.save(path)
    loaded = keras.models.load_model(path)
    out.append(["loaded", [type(x).__name__ for x in loaded.layers]])
    same = np.array_equal(np.asarray(loaded([xq, xv])), np.asarray(model([xq, xv])))
    out.append(["loaded output equal", bool(same)])


PROGRAMS = {"names": _names, "configs": _configs}


def program(tf: Any, case: dict, workdir: str) -> Any:
    out: list[Any] = []
    PROGRAMS[case["name"]](tf, out, workdir)
    return out


CASES: dict[str, dict] = {name: {"strategy": "default", "name": name} for name in PROGRAMS}
NAMES = list(CASES)


@pytest.fixture(scope="module")
def tf_results(request: Any) -> dict[int, Any]:
    return tf_programs.spawn(__file__, CASES, tf_programs.selected(request, __file__))


@pytest.mark.clause("keras.saving.json-and-serialize")
@pytest.mark.parametrize("index", range(len(NAMES)), ids=NAMES)
def test_a_class_exported_under_another_name_deserializes_by_its_own(index: int, tf_results: dict[int, Any],
                                                                     tmp_path: Any) -> None:
    name = NAMES[index]
    got, want = tf_programs.on_simdist(program, CASES[name], str(tmp_path)), tf_results[index]
    labelled_outcomes.assert_as_tf(name, got, want)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(tf_programs.worker(CASES, program))
