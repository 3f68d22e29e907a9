"""Eager tf.einsum of two operands where a label has size 0 in the first and 1 in the second (clause ops.einsum,
fz60: fz59's open einsum class, fz54b seed 59201 #1). TF 2.21's EinsumHelper::ProcessDimensions takes a recorded
size 0 for unset, so the pair passes it; where the label is one of the output's (0 against 1, a batch label: the output
is empty) TF returns the empty result in float32 and float64; a contracted one float32's kernel refuses
(InvalidArgumentError), as a size 1 first and 0 second always is (/work/wt/fz60_logs/q_ein3.py; fz59's q_ein.py,
q_ein2.py). Compared: the outcome (error class, or shape and values). float64's zeros of a contraction over a label
of size 0 first and any size second are not modelled and not compared. Its golden (tests/goldens/) is
stamped with this file."""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import numpy as np
import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

_EQUATIONS = [   # (equation, shape a, shape b, dtypes)
    ("ij,jk->kij", (2, 0), (1, 3), ("float32", "float64")),
    ("ij,jk->ijk", (2, 0), (1, 3), ("float32", "float64")),
    ("ij,j->ji", (2, 0), (1,), ("float32", "float64")),
    ("ij,j->ij", (2, 0), (1,), ("float32", "float64")),
    ("bij,bjk->ikb", (0, 3, 2), (1, 2, 3), ("float32", "float64")),
    ("bij,bjk->bik", (0, 3, 2), (1, 2, 3), ("float32", "float64")),
    ("i,j->ij", (0,), (3,), ("float32", "float64")),
    # (errors)
    ("ij,jk->ki", (3, 0), (1, 3), ("float32",)),
    ("ij,jk->ik", (3, 0), (1, 3), ("float32",)),
    ("bij,bjk->bik", (2, 3, 0), (2, 1, 3), ("float32",)),
    ("i,i->", (0,), (1,), ("float32",)),
    ("ij,kj->ik", (0, 0), (3, 1), ("float32",)),
    ("ij,jk->ik", (3, 0), (5, 3), ("float32",)),
    ("ij,jk->ik", (3, 1), (0, 3), ("float32", "float64")),
    ("bij,bjk->bik", (0, 3, 2), (4, 2, 3), ("float32", "float64")),
    ("ij,j->ij", (2, 0), (3,), ("float32", "float64")),
    ("bij,bjk->bik", (2, 3, 1), (2, 2, 3), ("float32", "float64")),
]


def _case(eq: str, sa: tuple, sb: tuple, dtype: str) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        a = tf.constant(np.arange(1, 1 + int(np.prod(sa)), dtype=dtype).reshape(sa))
        b = tf.constant((np.arange(1, 1 + int(np.prod(sb)), dtype=dtype) / 4).reshape(sb))
        try:
            r = tf.einsum(eq, a, b)
        except Exception as e:  # noqa: BLE001 - the outcome's class is compared (TF's messages name its kernels)
            return ["error", type(e).__name__]
        return [list(r.shape), r.numpy().ravel().tolist()]
    return run


def _cases() -> dict[str, Callable[[Any], Any]]:
    return {f"{eq}/{sa}/{sb}/{dt}": _case(eq, sa, sb, dt) for eq, sa, sb, dts in _EQUATIONS for dt in dts}


TABLE = case_results.Table(__file__, _cases(), re.compile(r"(fz60_einsum_auto_)\d+"))   # (no auto-named objects)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("ops.einsum")
def test_einsum_zero_then_one_label_as_tf(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: True)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)
