"""Tensor indexing's index and slice-bound types against TF 2.21 (clause ops.index-errors): TF's
tensor_getitem_override._check_index takes Python and NumPy integers and objects of an int16/int32/int64
dtype not of rank 1 (scalar tensors, 0-d NumPy arrays); a float (1.0, np.float32(1), a float tensor),
a string, an int8/uint8 tensor or a rank-1 tensor as an index or a slice bound is its TypeError "Only
integers, slices (`:`), ellipsis (`...`), tf.newaxis (`None`) and scalar tf.int32/tf.int64 tensors are
valid indices, got X", on tensors and variables (an integer bound inside tf.function too). simdist truncated float slice
bounds (`t[1.5:3]` was `t[1:3]`). Found by the seed-6 mutation sweep's survivor at CenterCrop's
`h_diff // 2` (docs/conformance.md, twenty-ninth session)."""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import numpy as np
import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

_X = np.arange(12.0).reshape(3, 4)


def _index(make: Callable[[Any], Any]) -> Callable[[Any], Any]:
    def case(tf: Any) -> Any:
        return tf.constant(_X)[make(tf)]
    return case


def _traced(make: Callable[[Any], Any]) -> Callable[[Any], Any]:
    def case(tf: Any) -> Any:
        @tf.function
        def f(x):
            return x[make(tf)]
        return f(tf.constant(_X))
    return case


def _cases() -> dict[str, Callable[[Any], Any]]:
    return {
        "bound/float start": _index(lambda tf: slice(1.0, 3)),
        "bound/float stop": _index(lambda tf: slice(1, 3.0)),
        "bound/float step": _index(lambda tf: slice(None, None, 2.0)),
        "bound/half start": _index(lambda tf: slice(1.5, 3)),
        "bound/np.float32 start": _index(lambda tf: slice(np.float32(1), None)),
        "bound/string start": _index(lambda tf: slice("1", None)),
        "bound/np.int64 start": _index(lambda tf: slice(np.int64(1), None)),
        "bound/np.int8 start": _index(lambda tf: slice(np.int8(1), None)),
        "bound/0-d int array start": _index(lambda tf: slice(np.array(1), None)),
        "bound/0-d float array start": _index(lambda tf: slice(np.array(1.0), None)),
        "bound/rank-1 int array start": _index(lambda tf: slice(np.array([1]), None)),
        "bound/int32 tensor start": _index(lambda tf: slice(tf.constant(1), None)),
        "bound/int16 tensor start": _index(lambda tf: slice(tf.constant(1, tf.int16), None)),
        "bound/int8 tensor start": _index(lambda tf: slice(tf.constant(1, tf.int8), None)),
        "bound/uint8 tensor start": _index(lambda tf: slice(tf.constant(1, tf.uint8), None)),
        "bound/float tensor start": _index(lambda tf: slice(tf.constant(1.0), None)),
        "bound/rank-1 tensor start": _index(lambda tf: slice(tf.constant([1]), None)),
        "bound/float tensor stop, second axis": _index(lambda tf: (slice(None), slice(1, tf.constant(3.0)))),
        "bound/float start of a variable": lambda tf: tf.Variable(_X)[1.0:],
        "bound/int start traced": _traced(lambda tf: slice(1, None)),
        "index/0-d int array": _index(lambda tf: np.array(1)),
        "index/int16 tensor": _index(lambda tf: tf.constant(1, tf.int16)),
        "index/uint8 tensor": _index(lambda tf: tf.constant(1, tf.uint8)),
        "index/np.int8": _index(lambda tf: np.int8(1)),
        "index/float": _index(lambda tf: 1.0),
        "index/rank-1 tensor": _index(lambda tf: tf.constant([1])),
    }


_AUTO_NAME = re.compile(r"(tensor_)\d+")
TABLE = case_results.Table(__file__, _cases(), _AUTO_NAME)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("ops.index-errors")
@pytest.mark.parametrize("prefix", ["bound/", "index/"])
def test_indices_and_slice_bounds_are_integers_or_integer_scalars(tf_results: dict[int, Any], prefix: str) -> None:
    TABLE.check(tf_results, lambda lab: lab.startswith(prefix))


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)
