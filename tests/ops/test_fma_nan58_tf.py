"""Which NaN a fused multiply-add returns (clause ops.packet-paths, oneDNN's float32 MatMul of one row): TF 2.21's
oneDNN kernel (vfmadd) returns the first NaN operand of a, b and the accumulator c, and the default NaN (0xffc00000)
only where none is a NaN, so an invalid product (inf · 0) does not hide a NaN accumulator. simdist's fma32 took the
product's default NaN first (the fifty-eighth session: case `acc+nan-then-inf*0` and the k = 17 rows gave 0xffc00000
where TF gives 0x7fc00000). Each case is x [1, 16 or 17] @ b [n, k]^T with NaNs of both signs and invalid products at
chosen lanes; results compared as bit patterns. Its golden (tests/goldens/) is stamped with this file."""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import numpy as np
import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

_PN = float(np.array([0x7FC00000], np.uint32).view(np.float32)[0])
_NN = float(np.array([0xFFC00000], np.uint32).view(np.float32)[0])
_PN2 = float(np.array([0x7FC00001], np.uint32).view(np.float32)[0])
_INF = float("inf")

# lane 0's first product x0 · b0 starts the accumulator, then fma(x8, b8, acc)
_LANES = {
    "acc-inf*0-then+nan": ((_INF, 0.0), (_PN, 1.0)),
    "acc+nan-then-inf*0": ((_PN, 1.0), (_INF, 0.0)),
    "acc-nan-then-inf*0": ((_NN, 1.0), (_INF, 0.0)),
    "acc+nan-then-x-nan": ((_PN, 1.0), (_NN, 1.0)),
    "acc-nan-then-x+nan": ((_NN, 1.0), (_PN, 1.0)),
    "acc+nan-then-b-nan": ((_PN, 1.0), (1.0, _NN)),
    "x-nan-b+nan2": ((1.0, 1.0), (_NN, _PN2)),
    "x+nan2-b-nan": ((1.0, 1.0), (_PN2, _NN)),
}


def _bits(z: Any) -> list:
    return np.asarray(z.numpy(), np.float32).view(np.uint32).ravel().tolist()


def _lane(first: tuple, second: tuple) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        x = np.ones((1, 16), np.float32)
        b = np.ones((1, 16), np.float32)
        (x[0, 0], b[0, 0]), (x[0, 8], b[0, 8]) = first, second
        return _bits(tf.matmul(tf.constant(x), tf.constant(b), transpose_b=True))
    return run


def _rows(seed: int, k: int, n: int) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        vals = np.array([0.0, -0.0, 1.5, -2.25, _INF, -_INF, _PN, _NN, 3e38, 1.0], np.float32)
        r = np.random.RandomState(seed)
        x = vals[r.randint(0, len(vals), (1, k))]
        b = vals[r.randint(0, len(vals), (n, k))]
        return _bits(tf.matmul(tf.constant(x), tf.constant(b), transpose_b=True))
    return run


def _cases() -> dict[str, Callable[[Any], Any]]:
    c = {f"lane/{name}": _lane(*pair) for name, pair in _LANES.items()}
    for seed in range(6):
        for k in (3, 5, 12, 16, 17, 25, 33):
            c[f"rows/s{seed}-k{k}"] = _rows(seed, k, 5)
    return c


TABLE = case_results.Table(__file__, _cases(), re.compile(r"(fma_nan58_auto_)\d+"))   # (no auto-named objects)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("ops.packet-paths")
def test_one_row_matmul_nan_operands_as_tf(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: True)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)
