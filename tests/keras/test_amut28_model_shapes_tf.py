"""keras.Model.input_shape and output_shape against Keras 3.15 on TF 2.21 (clause keras.model.call): Keras's
Functional reads them from `inputs` and `outputs`, the flattened lists, so a dict of inputs or outputs gives a
list of shapes in flat order, or one shape alone when the list holds one; a single tensor and a list of one
give the shape itself. simdist kept the dict (seen triaging the seed-4 sweep's functional.py:258 survivor,
docs/conformance.md, twenty-eighth session)."""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _shapes(build: Callable[[Any], tuple[Any, Any]]) -> Callable[[Any], Any]:
    def case(tf: Any) -> Any:
        keras = tf.keras
        ins, outs = build(keras)
        m = keras.Model(ins, outs)
        return [m.input_shape, m.output_shape]
    return case


def _a(keras: Any) -> Any:
    return keras.Input((3,), name="a")


def _b(keras: Any) -> Any:
    return keras.Input((4,), name="b")


def _dense(keras: Any, n: int, x: Any) -> Any:
    return keras.layers.Dense(n)(x)


def _cases() -> dict[str, Callable[[Any], Any]]:
    def single(k: Any) -> Any:
        a = _a(k)
        return a, _dense(k, 2, a)

    def list_of_one(k: Any) -> Any:
        a = _a(k)
        return [a], [_dense(k, 2, a)]

    def list_of_two(k: Any) -> Any:
        a, b = _a(k), _b(k)
        return [a, b], [_dense(k, 2, a), _dense(k, 5, b)]

    def dict_in(k: Any) -> Any:
        a, b = _a(k), _b(k)
        return {"b": b, "a": a}, {"o": _dense(k, 2, a)}

    def dict_out(k: Any) -> Any:
        a = _a(k)
        return a, {"y": _dense(k, 2, a), "x": _dense(k, 6, a)}

    return {
        "shape/a single input and output": _shapes(single),
        "shape/lists of one": _shapes(list_of_one),
        "shape/lists of two": _shapes(list_of_two),
        "shape/a dict of two inputs, a dict of one output": _shapes(dict_in),
        "shape/a dict of two outputs": _shapes(dict_out),
    }


_AUTO_NAME = re.compile(r"((?:model|functional|input_layer|dense)_)\d+")
TABLE = case_results.Table(__file__, _cases(), _AUTO_NAME)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("keras.model.call")
@pytest.mark.parametrize("prefix", ["shape/"])
def test_model_shapes_are_the_flat_inputs_and_outputs(tf_results: dict[int, Any], prefix: str) -> None:
    TABLE.check(tf_results, lambda lab: lab.startswith(prefix))


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)
