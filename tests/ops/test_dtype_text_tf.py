"""How a tf.DType prints, against real TensorFlow 2.21 (clause ops.dtype-text): str() is TF's
`<dtype: 'float32'>`, repr() the `tf.float32` spelling, and f-strings, a tensor's dtype and
`tf.as_dtype` print the same way. Needs the `tf` extra (or its golden)."""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import edge_compare
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause

_NAMES = ("float16", "bfloat16", "float32", "float64", "int8", "uint8", "int32", "int64", "bool", "complex64",
          "complex128", "string")


def _texts(render: Callable[[Any], str]) -> Callable[[Any], Any]:
    return lambda tf: np.array([render(getattr(tf, n)) for n in _NAMES])


_CASES: list[tuple[str, Callable[[Any], Any]]] = [
    ("str", _texts(str)),
    ("repr", _texts(repr)),
    ("f-string", _texts(lambda d: f"{d}")),
    ("tensor-dtype", lambda tf: np.array([str(tf.constant([1.0]).dtype), repr(tf.constant([1]).dtype)])),
    ("as-dtype", lambda tf: np.array([str(tf.as_dtype("float64")), str(tf.as_dtype(np.int32))])),
]

CASES = [(n, "ops.dtype-text", f, 0.0) for n, f in _CASES]

EDGES = edge_compare.EdgeModule(__file__, CASES)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("ops.dtype-text")
@EDGES.parametrize("ops.dtype-text")
def test_dtype_text(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


def test_every_group_is_tested() -> None:
    assert EDGES.untested() == [], f"groups with no test function: {EDGES.untested()}"


if __name__ == "__main__":  # TF worker: python test_dtype_text_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
