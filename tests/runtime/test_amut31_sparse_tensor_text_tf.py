"""A SparseTensor's str and repr against TF 2.21 (clause ops.sparse): TF's `__repr__` is
"SparseTensor(indices=%s, values=%s, dense_shape=%s)" of its three tensors, each printed by str
("tf.Tensor([[0 1]], shape=(1, 2), dtype=int64)"); simdist formatted them with format(), which for an eager tensor
is its NumPy text ("[[0 1]]"). Seen probing the seed-8 mutation sweep's survivor at sparse_tensor.py:41
(docs/conformance.md, thirty-first session)."""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _text(make: Callable[[Any], Any]) -> Callable[[Any], Any]:
    def case(tf: Any) -> Any:
        sp = make(tf)
        return [str(sp), repr(sp), f"{sp}", "%s" % (sp,)]
    return case


def _cases() -> dict[str, Callable[[Any], Any]]:
    return {
        "text/one float": _text(lambda tf: tf.SparseTensor([[0, 1]], [1.0], [2, 3])),
        "text/two ints": _text(lambda tf: tf.SparseTensor([[0, 0], [1, 2]], tf.constant([4, 5]), [2, 3])),
        "text/empty": _text(lambda tf: tf.SparseTensor(tf.zeros([0, 2], tf.int64), tf.zeros([0]), [2, 0])),
        "text/strings, rank 1": _text(lambda tf: tf.SparseTensor([[1]], ["a"], [4])),
        "text/in a list": lambda tf: str([tf.SparseTensor([[0]], [2.5], [1])]),
    }


_AUTO_NAME = re.compile(r"(tensor_)\d+")
TABLE = case_results.Table(__file__, _cases(), _AUTO_NAME)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("ops.sparse")
def test_sparse_tensor_text_shows_its_tensors(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: lab.startswith("text/"))


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)
