"""The node names of clip_by_global_norm, global_norm and softmax / log_softmax on an axis not last inside a
tf.function (clause function.symbolic-tensors, node names): TF's scopes (`global_norm/global_norm`,
`clip_by_global_norm/clip_by_global_norm/_0`) and the nodes _wrap_2d_function's Python makes (`Rank`, `Sub`, `range`,
`concat`, `add`, `mod`), whose names move the counters of later nodes (the `Sum` nodes a loss's AddN sorts by name).
simdist vs TF 2.21 (fz57: fz54b seed 57105 #6's function-mode loss). Its golden (tests/goldens/) is stamped with this
file."""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _probes(tf: Any, x: Any) -> list:
    """Nodes whose names count on after the calls."""
    return [tf.reduce_sum(x), tf.constant(1.0), x * 2.0, tf.identity(x), tf.range(3), tf.concat([x, x], 0),
            tf.transpose(x), x - 1.0, x % 2.0, x + 1.0, tf.rank(x) + 1, tf.sqrt(x), tf.math.l2_normalize(x)]


_CALLS: dict[str, Callable[..., Any]] = {
    "clip_global": lambda tf, x, y: [tf.clip_by_global_norm([x, x, y, None], 0.5)[0][0],
                                     tf.clip_by_global_norm([x, x, y, None], 0.5)[0][2]],
    "clip_named": lambda tf, x, y: list(tf.clip_by_global_norm([x, y], y[0, 0], name="cg")[0]) +
    [tf.clip_by_global_norm([x, y], y[0, 0], name="cg")[1]],
    "clip_use_norm": lambda tf, x, y: tf.clip_by_global_norm([x, tf.cast(y, tf.float64)], 1.0,
                                                             use_norm=tf.linalg.global_norm([x]))[0],
    "global_norm": lambda tf, x, y: [tf.linalg.global_norm([x, y]), tf.linalg.global_norm([x], name="gg"),
                                     tf.linalg.global_norm([y, None, x])],
    "softmax_axes": lambda tf, x, y: [tf.nn.softmax(x, axis=0), tf.nn.log_softmax(x, axis=0),
                                      tf.nn.softmax(tf.stack([x, y]), axis=1)],
    "softmax_negative": lambda tf, x, y: [tf.nn.softmax(tf.stack([x, y]), axis=-3),
                                          tf.math.log_softmax(tf.stack([x, y]), axis=-2)],
    "softmax_named": lambda tf, x, y: [tf.nn.softmax(x, axis=0, name="sm"), tf.nn.log_softmax(x, axis=-2, name="sm"),
                                       tf.nn.softmax(x, axis=-1, name="sm"), tf.math.softmax(x, axis=1)],
}


def _names(tf: Any, which: str) -> list:
    """The calls' outputs' names, then the probes', inside a tf.function."""
    seen: list = []

    @tf.function
    def f(x: Any, y: Any) -> Any:
        seen.extend(o.name for o in _CALLS[which](tf, x, y))
        seen.extend(p.name for p in _probes(tf, x))
        return x
    f(tf.constant([[0.5, 1.5, 0.3], [2.0, 0.25, 0.7]]), tf.constant([[0.1, 0.2, 0.7], [0.3, 0.3, 0.4]]))
    return seen


TABLE = case_results.Table(__file__, {f"names/{k}": (lambda tf, k=k: _names(tf, k)) for k in _CALLS},
                           re.compile(r"(fz57_scope_auto_)\d+"))   # (no auto-named objects)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("function.symbolic-tensors")
def test_clip_and_softmax_nodes_are_named_as_tf(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: True)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)
