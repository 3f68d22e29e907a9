"""Eager tf.einsum of two operands where a label has size 0 in the first operand and another size in the second
(clause ops.einsum, fz61: fz59's and fz60's open einsum class, fz54b seed 59201 #1). TF 2.21 on the Xeon host
(/work/wt/fz61_logs/q_ein64.py; ein64_tf.out, ein_f16_tf.out, ein_c64_tf.out, ein_i32_tf.out): where the label is
contracted, TF's own EinsumOp -- float64, the complex and integer types -- returns zeros of the output's shape
whatever the second operand's size ('ij,jk->ik' of [3, 0] and [5, 3]: zeros [3, 3]), while oneDNN's _MklEinsum
(float32, bfloat16, float16 on this CPU) raises InvalidArgumentError (with TF_ENABLE_ONEDNN_OPTS=0 float32 and
float16 give the zeros too); where it is an output label of size 1 in the second operand the output is empty in every
dtype (fz60's rule, which simdist applied to float32 and float64 only). Compared: the outcome (error class, or shape,
dtype and values). Its golden (tests/goldens/) is stamped with this file."""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import numpy as np
import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

_EQUATIONS = [   # (equation, shape a, shape b)
    ("ij,jk->ik", (3, 0), (1, 3)), ("ij,jk->ik", (3, 0), (5, 3)), ("ij,jk->ki", (3, 0), (5, 3)),
    ("ji,jk->ik", (0, 3), (2, 3)), ("ij,kj->ik", (3, 0), (4, 2)), ("ib,jb->ji", (3, 0), (2, 1)),
    ("ij,j->i", (2, 0), (3,)), ("j,jk->k", (0,), (1, 3)), ("i,i->", (0,), (4,)), ("ij,jk->", (3, 0), (2, 3)),
    ("ij,jk", (3, 0), (2, 3)), ("ij,kj->ik", (0, 0), (3, 1)), ("bij,bjk->bik", (2, 3, 0), (2, 4, 3)),
    ("ij,jk->i", (3, 0), (1, 3)),
    # (output labels: empty where the second operand's size is 1, else errors; a first size 1 against 0: errors)
    ("ij,jk->kij", (2, 0), (1, 3)), ("ij,j->ji", (2, 0), (1,)), ("bij,bjk->bik", (0, 3, 2), (1, 2, 3)),
    ("ij,jk->ijk", (2, 0), (5, 3)), ("bij,bjk->bik", (0, 3, 2), (4, 2, 3)), ("ij,jk->ik", (3, 1), (0, 3)),
    ("i,i->", (1,), (0,)), ("ij,jk->ik", (3, 0), (0, 3)),
]
_DTYPES = ("float64", "complex128", "int32", "float32", "float16", "bfloat16")


def _case(eq: str, sa: tuple, sb: tuple, dtype: str) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        a = tf.cast(tf.constant(np.arange(1, 1 + int(np.prod(sa)), dtype=np.float64).reshape(sa)), dtype)
        b = tf.cast(tf.constant((np.arange(1, 1 + int(np.prod(sb)), dtype=np.float64) * 3).reshape(sb)), dtype)
        try:
            r = tf.einsum(eq, a, b)
        except Exception as e:  # noqa: BLE001 - the outcome's class is compared (TF's messages name its kernels)
            return ["error", type(e).__name__]
        return [r.dtype.name, list(r.shape), [repr(complex(x)) for x in tf.cast(r, tf.complex128).numpy().ravel()]]
    return run


def _cases() -> dict[str, Callable[[Any], Any]]:
    return {f"{eq}/{sa}/{sb}/{dt}": _case(eq, sa, sb, dt) for eq, sa, sb in _EQUATIONS for dt in _DTYPES}


TABLE = case_results.Table(__file__, _cases(), re.compile(r"(fz61_einsum_auto_)\d+"))   # (no auto-named objects)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("ops.einsum")
def test_einsum_zero_label_contraction_as_tf(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: True)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)
