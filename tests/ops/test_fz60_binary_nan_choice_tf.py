"""Which NaN Mul and AddV2 of real floats return where both operands are NaNs (clause ops.packet-paths, fz60: fz54b
seed 59206 #4, the NaN sign of `tf.nn.gelu`, whose `0.5 * x` and `erfc(-x / sqrt 2)` are NaNs of opposite signs).
TF 2.21's BinaryOp kernels on the Xeon host (/work/wt/fz60_logs/q_nan.py, q_nan2.py): the first operand's NaN
everywhere, except where one operand is a single element broadcast to the other's shape (scalar_left/right): then
float32 and float64 take the scalar's NaN in Eigen's packets (8 and 4 elements) and the tensor's in the scalar tail,
float16 the tensor's everywhere. NumPy, which simdist's kernels called, picks by its own vectorisation. NaNs carry
payloads naming their operand; results compared as bit patterns, eagerly and in a tf.function. Its golden
(tests/goldens/) is stamped with this file."""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import numpy as np
import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

_BITS = {"float16": (np.float16, np.uint16, (0x7E0A, 0xFE0B)),
         "float32": (np.float32, np.uint32, (0x7FC0000A, 0xFFC0000B)),
         "float64": (np.float64, np.uint64, (0x7FF800000000000A, 0xFFF800000000000B))}
_SHAPES = {"same": ((None,), (None,)), "scalar_b": ((None,), ()), "scalar_a": ((), (None,)),
           "row": ((3, None), (None,)), "col": ((None, 3), (None, 1)), "one_b": ((2, None), (1, 1))}


def _operand(dtype: str, shape: tuple, n: int, which: int, seed: int) -> np.ndarray:
    ft, ut, nans = _BITS[dtype]
    shape = tuple(n if d is None else d for d in shape)
    size = int(np.prod(shape)) if shape else 1
    r = np.random.RandomState(seed * 7 + which)
    v = (r.randint(-40, 40, size) / 8.0).astype(ft)
    bits = v.view(ut)
    bits[r.rand(size) < 0.6] = nans[which]   # (most elements NaN, some numbers: one-NaN elements too)
    return bits.view(ft).reshape(shape)


def _case(op: str, dtype: str, shape: str, n: int, traced: bool) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        sa, sb = _SHAPES[shape]
        a = tf.constant(_operand(dtype, sa, n, 0, n))
        b = tf.constant(_operand(dtype, sb, n, 1, n))
        f = (lambda x, y: x * y) if op == "mul" else (lambda x, y: x + y)
        out = (tf.function(f) if traced else f)(a, b)
        return np.asarray(out.numpy()).view(_BITS[dtype][1]).ravel().tolist()
    return run


def _cases() -> dict[str, Callable[[Any], Any]]:
    return {f"{op}/{dtype}/{shape}/{n}/{'fn' if traced else 'eager'}": _case(op, dtype, shape, n, traced)
            for op in ("mul", "add") for dtype in _BITS for shape in _SHAPES for n in (1, 3, 8, 13, 36)
            for traced in (False, True)}


TABLE = case_results.Table(__file__, _cases(), re.compile(r"(fz60_nan_auto_)\d+"))   # (no auto-named objects)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("ops.packet-paths")
def test_mul_and_add_take_tfs_nan_of_two(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: True)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)
