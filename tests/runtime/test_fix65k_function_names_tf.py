"""The Python names of TF's functions against TF 2.21 (clause keras.layer.arguments): tf.nn.silu and tf.nn.swish are
`def swish`, tf.nn.softmax/tf.math.softmax `softmax_v2`, tf.nn.log_softmax `log_softmax_v2`, tf.nn.crelu
`crelu_v2`; Keras serializes a plain function by its __name__, so `Dense(activation=tf.nn.silu).get_config()`'s
activation is the function dict {"config": "swish"} on TF (simdist wrote "silu"). Found by asweep65's note
(docs/conformance.md, sixty-fifth session); fixed by simdist/tf/_function_names.py (fix65k)."""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

_PATHS = ["nn.silu", "nn.swish", "nn.softmax", "math.softmax", "nn.log_softmax", "math.log_softmax", "nn.crelu",
          "nn.relu", "nn.gelu", "math.sigmoid", "math.tanh", "nn.elu", "nn.selu", "nn.relu6", "nn.softplus"]


def _fn(tf: Any, path: str) -> Any:
    obj = tf
    for part in path.split("."):
        obj = getattr(obj, part)
    return obj


def _named(path: str) -> Callable[[Any], Any]:
    def case(tf: Any) -> Any:
        fn = _fn(tf, path)
        cfg = tf.keras.layers.Dense(2, activation=fn).get_config()["activation"]
        return [fn.__name__, tf.keras.activations.serialize(fn), cfg]
    return case


def _cases() -> dict[str, Callable[[Any], Any]]:
    return {f"name/{p}": _named(p) for p in _PATHS}


TABLE = case_results.Table(__file__, _cases(), re.compile(r"(\b_NONE_)\d+"))


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("keras.layer.arguments")
def test_tf_function_names_and_their_keras_serialization(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: lab.startswith("name/"))


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)
