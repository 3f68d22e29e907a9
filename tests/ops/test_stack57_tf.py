"""tf.stack of a single tensor (clause ops.conversion): array_ops.stack converts `values` as a whole when axis is 0,
so a tensor is returned itself (`tf.stack(x) is x`, eagerly and inside a tf.function) and an array is its Const; with
another axis a tensor's rows are Pack's list eagerly, while in a graph op_def_library refuses a tensor for Pack's list
(TypeError "Expected list for 'values' argument to 'pack' Op, not <tf.Tensor 'x:0' ...>"). simdist vs TF 2.21 (the
fifty-seventh session: simdist stacked the rows again and accepted the tensor in a graph). Its golden (tests/goldens/)
is stamped with this file."""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import numpy as np
import pytest

import case_results
import tf_workers
from case_wrappers import error_last_line

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _x(tf: Any) -> Any:
    return tf.constant([[1.0, 2.0], [3.0, 4.0]])


def _eager(tf: Any, axis: int) -> list:
    x = _x(tf)
    r = tf.stack(x, axis=axis)
    return [r is x, r.dtype.name, r.numpy().tolist()]


def _traced(tf: Any, axis: int) -> list:
    seen: list = []

    @tf.function
    def f(x: Any) -> Any:
        r = tf.stack(x, axis=axis)
        seen.extend([r is x, r.name])
        return r
    out = f(_x(tf))
    return seen + [out.numpy().tolist()]


def _cases() -> dict[str, Callable[[Any], Any]]:
    c: dict[str, Callable[[Any], Any]] = {}
    for axis in (0, 1, -1):
        c[f"eager/axis{axis}"] = lambda tf, axis=axis: _eager(tf, axis)
    c["traced/axis0"] = lambda tf: _traced(tf, 0)
    for axis in (1, -1, 3):
        c[f"traced/axis{axis}"] = error_last_line(lambda tf, axis=axis: _traced(tf, axis))
    c["eager/array_int"] = lambda tf: (lambda r: [r.dtype.name, r.numpy().tolist()])(tf.stack(np.array([[1, 2], [3, 4]])))
    c["eager/array_axis1"] = lambda tf: (lambda r: [r.dtype.name, r.numpy().tolist()])(
        tf.stack(np.array([[1.5, 2.0], [3.0, 4.0]], np.float32), axis=1))
    return c


TABLE = case_results.Table(__file__, _cases(), re.compile(r"(stack57_auto_)\d+"))   # (no auto-named objects)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("ops.conversion")
def test_stack_of_one_tensor_as_tf(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: True)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)
