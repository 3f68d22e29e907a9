"""tf.nn.max_pool / avg_pool of an input whose rank a traced graph does not know (clause ops.nn-wrapper-order;
blind62b). TF 2.21's max_pool_v2 and avg_pool_v2 start with `n = len(input.shape) - 2`, so inside a tf.function with
an input_signature of TensorSpec(None) they are ValueError "Cannot take the length of shape with unknown rank.",
whatever the input turns out to be; max_pool2d/avg_pool2d, tf.nn.pool and the v1 max_pool/avg_pool do not read the
rank and pool it; a known rank with unknown dimensions pools. simdist pooled every one (it took an unknown rank as 2-D). Results compared as bit
patterns or exception classes. Its golden (tests/goldens/) is stamped with this file."""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import numpy as np
import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

_CALLS: dict[str, Callable[[Any, Any], Any]] = {
    "max_pool": lambda tf, v: tf.nn.max_pool(v, 2, 2, "VALID"),
    "avg_pool": lambda tf, v: tf.nn.avg_pool(v, 2, 1, "SAME"),
    "max_pool_list": lambda tf, v: tf.nn.max_pool(v, [2, 2], [1, 2], "VALID"),
    "max_pool2d": lambda tf, v: tf.nn.max_pool2d(v, 2, 2, "VALID"),
    "avg_pool2d": lambda tf, v: tf.nn.avg_pool2d(v, 2, 2, "VALID"),
    "pool_max": lambda tf, v: tf.nn.pool(v, [2, 2], "MAX", strides=[2, 2], padding="VALID"),
    "pool_avg": lambda tf, v: tf.nn.pool(v, [2, 2], "AVG", strides=[1, 1], padding="SAME"),
    "v1_max_pool": lambda tf, v: tf.compat.v1.nn.max_pool(v, [1, 2, 2, 1], [1, 2, 2, 1], "VALID"),
    "v1_avg_pool": lambda tf, v: tf.compat.v1.nn.avg_pool(v, [1, 2, 2, 1], [1, 1, 1, 1], "SAME"),
}
_SPECS = {"unknown-rank": None, "rank-4-unknown-dims": [None, None, None, None], "known": [2, 4, 4, 3]}


def _case(call: str, spec: str) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        x = tf.constant(np.random.RandomState(5).randint(-8, 8, (2, 4, 4, 3)).astype(np.float32) / 4)
        f = tf.function(lambda v: _CALLS[call](tf, v), input_signature=[tf.TensorSpec(_SPECS[spec], tf.float32)],
                        autograph=False)
        try:
            out = f(x)
        except Exception as e:  # noqa: BLE001 - the class is the result
            return f"raised {type(e).__name__}"
        return np.asarray(out.numpy()).view(np.uint32).tolist()
    return run


TABLE = case_results.Table(__file__, {f"{c}/{s}": _case(c, s) for c in _CALLS for s in _SPECS},
                           re.compile(r"(pool_rank_auto_)\d+"))


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("ops.nn-wrapper-order")
def test_pool_unknown_rank_as_tf(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: True)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)
