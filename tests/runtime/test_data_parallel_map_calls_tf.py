"""Dataset.map's num_parallel_calls as ParallelMapDatasetV2's kernel checks it (clause dataset.api-surface;
blind63b). TF 2.21: a count of 0 or below other than tf.data.AUTOTUNE (-1) is InvalidArgumentError "num_parallel_calls
must be greater than zero." when the dataset is made (eagerly; inside a tf.function when the graph runs), after the
map function is traced (its own errors come first); None is the sequential MapDataset. simdist mapped every count.
Results compared as values or exception classes. Its golden (tests/goldens/) is stamped with this file."""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import numpy as np
import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

_COUNTS: dict[str, Callable[[Any], Any]] = {
    "0": lambda tf: 0, "-2": lambda tf: -2, "-1": lambda tf: -1, "1": lambda tf: 1, "4": lambda tf: 4,
    "np0": lambda tf: np.int64(0), "tensor0": lambda tf: tf.constant(0, tf.int64),
    "tensor3": lambda tf: tf.constant(3, tf.int64), "autotune": lambda tf: tf.data.AUTOTUNE, "none": lambda tf: None,
}
_FNS: dict[str, Callable[[Any], Callable[[Any], Any]]] = {
    "double": lambda tf: (lambda x: x * 2),
    "bad_trace": lambda tf: (lambda x: tf.reshape(x, [2, 2])),
}


def _case(count: str, fn: str, traced: bool) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        ds = tf.data.Dataset.range(5)

        def total() -> Any:
            return ds.map(_FNS[fn](tf), num_parallel_calls=_COUNTS[count](tf)).reduce(
                tf.constant(0, tf.int64), lambda a, b: a + b)
        try:
            out = tf.function(total)() if traced else total()
            return int(out.numpy())
        except Exception as e:  # noqa: BLE001 - the class is the result
            return f"raised {type(e).__name__}"
    return run


TABLE = case_results.Table(__file__, {f"{c}/{f}/{'traced' if t else 'eager'}": _case(c, f, t) for c in _COUNTS
                                      for f in _FNS for t in (False, True)}, re.compile(r"(pmap_auto_)\d+"))


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("dataset.api-surface")
def test_parallel_map_calls_as_tf(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: True)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)
