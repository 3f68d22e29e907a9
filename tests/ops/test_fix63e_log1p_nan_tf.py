"""Log1p of NaNs with payloads, by its bits (clause ops.eigen-kernels, fix63e: esweep63's traced float64 log(1 + x),
which Grappler's ConvertLog1p makes a Log1p, of a tagged NaN). TF 2.21's generic_log1p keeps x's NaN in float32's
packets and float64's single packets, plog's all-ones NaN in float64's four-packet unrolled block and float16's
packets; the tails keep x's NaN (packet_math._log1p_nans). Sizes 1..100 with 40% NaNs of random payloads and signs,
float64/float32/float16/bfloat16, eager and in a tf.function; results compared as bit patterns. Its golden
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

_B = {"float64": (np.uint64, 0x7FF8000000000000, 63), "float32": (np.uint32, 0x7FC00000, 31),
      "float16": (np.uint16, 0x7E00, 15), "bfloat16": (np.uint16, 0x7FC0, 15)}


def _input(dt: str, n: int, seed: int) -> np.ndarray:
    import ml_dtypes
    ut, q, sb = _B[dt]
    npdt = ml_dtypes.bfloat16 if dt == "bfloat16" else np.dtype(dt)
    r = np.random.RandomState(n * 10 + seed)
    bits = (r.randint(-12, 12, n) / 4.0).astype(npdt).view(ut).copy()
    for j in range(n):
        if r.rand() < 0.4:
            bits[j] = q | (1 + r.randint(7)) | (int(r.randint(2)) << sb)
    return bits.view(npdt)


def _case(dt: str, n: int, seed: int, traced: bool) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        f = tf.math.log1p
        out = (tf.function(f) if traced else f)(tf.constant(_input(dt, n, seed)))
        return np.asarray(out.numpy()).reshape(-1).view(_B[dt][0]).tolist()
    return run


def _cases() -> dict[str, Callable[[Any], Any]]:
    return {f"{dt}/{n}/{seed}/{'fn' if traced else 'eager'}": _case(dt, n, seed, traced)
            for dt in _B for n in (1, 5, 8, 12, 16, 17, 24, 31, 32, 40, 64, 100) for seed in range(2)
            for traced in (False, True)}


TABLE = case_results.Table(__file__, _cases(), re.compile(r"(fix63e_l1p_auto_)\d+"))   # (no auto-named objects)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("ops.eigen-kernels")
def test_log1p_nan_bits(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: True)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)
