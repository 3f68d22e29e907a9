"""Functional.compute_output_shape against Keras 3.15 on TF 2.21 (clause keras.model.call): Keras's
Function.compute_output_shape maps every shape (a tuple or a list of ints and None) of the structure it is given to
a KerasTensor and flattens the structure in tree order against the model's inputs; simdist took only a tuple for a
single shape and zipped a dict's keys with the inputs (found writing the gap tests of the thirty-ninth blind batch,
docs/conformance.md)."""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _case(kind: str, shape: Any) -> Callable[[Any], Any]:
    def case(tf: Any) -> Any:
        keras = tf.keras
        i, j = keras.Input((3,)), keras.Input((2,))
        both = keras.layers.Concatenate()([i, j])
        model = {"one": lambda: keras.Model(i, keras.layers.Dense(4)(i)),
                 "two": lambda: keras.Model([i, j], keras.layers.Dense(5)(both)),
                 "dict": lambda: keras.Model({"p": i, "q": j}, keras.layers.Dense(5)(both)),
                 "outputs": lambda: keras.Model(i, [keras.layers.Dense(4)(i), keras.layers.Dense(2)(i)]),
                 "sequential": lambda: keras.Sequential([keras.Input((3,)), keras.layers.Dense(6)])}[kind]()
        try:
            return model.compute_output_shape(shape)
        except Exception as e:
            return type(e).__name__, str(e)
    return case


def _cases() -> dict[str, Callable[[Any], Any]]:
    table = [("one", (None, 3)), ("one", (7, 3)), ("one", [None, 3]), ("one", [5, 3]),
             ("two", [(None, 3), (None, 2)]), ("two", ((4, 3), (4, 2))), ("dict", {"p": (None, 3), "q": (None, 2)}),
             ("dict", {"q": [6, 2], "p": [6, 3]}), ("outputs", [None, 3]), ("sequential", [2, 3])]
    return {f"compute_output_shape/{kind} {shape!r}": _case(kind, shape) for kind, shape in table}


TABLE = case_results.Table(__file__, _cases(), re.compile(r"(functional_|sequential_|dense_)\d+"))


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("keras.model.call")
def test_functional_compute_output_shape_of_shape_structures_as_tf(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: lab.startswith("compute_output_shape/"))


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)
