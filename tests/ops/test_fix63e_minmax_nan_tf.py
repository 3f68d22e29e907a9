"""Which NaN Max and Min reductions (reduce_max/reduce_min) return, its payload and sign (clause
ops.simd-signed-zeros, fix63e: esweep63's e-gr-monotonic, where reduce_max(abs(x)) of twelve float64 elements gave
NumPy's default NaN and TF 2.21 the NaN of x). MaxReducer/MinReducer<T, PropagateNaN> keep a NaN's bits: packet steps
the accumulator's first, scalar steps the new element's, the lanes' tree the lower lane's, the tail's before the
packets'; bfloat16's packet steps drop the payload, keeping the sign (simdist/runtime/ops/minmax_zeros.py). One to
five NaNs with distinct payloads and random signs at random places, float64/float32/float16/bfloat16, full
reductions of 5..70 elements (scalar, one packet and tail, four accumulators), rows and columns ([3, 4], [20, 9],
[9, 20], [2, 40], [17, 8]) and the middle and outer axes of [4, 3, 5]; eagerly and in a tf.function; results compared
as bit patterns. Its golden (tests/goldens/) is stamped with this file."""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import numpy as np
import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

_BITS = {"float16": np.uint16, "bfloat16": np.uint16, "float32": np.uint32, "float64": np.uint64}
_QUIET = {"float64": (0x7FF8000000000000, 63), "float32": (0x7FC00000, 31), "float16": (0x7E00, 15),
          "bfloat16": (0x7FC0, 15)}
_SHAPES = {"5": ((5,), None), "12": ((12,), None), "33": ((33,), None), "40": ((40,), None), "70": ((70,), None),
           "3x4/1": ((3, 4), 1), "3x4/0": ((3, 4), 0), "20x9/0": ((20, 9), 0), "9x20/1": ((9, 20), 1),
           "2x40/1": ((2, 40), 1), "17x8/0": ((17, 8), 0), "4x3x5/1": ((4, 3, 5), 1), "4x3x5/02": ((4, 3, 5), (0, 2))}


def _input(dtype: str, shape: tuple, seed: int) -> np.ndarray:
    import ml_dtypes
    npdt = ml_dtypes.bfloat16 if dtype == "bfloat16" else np.dtype(dtype)
    n = int(np.prod(shape))
    r = np.random.RandomState(seed)
    bits = (r.randint(-20, 20, n) / 4.0).astype(npdt).view(_BITS[dtype]).copy()
    quiet, sign = _QUIET[dtype]
    for j, p in enumerate(r.choice(n, min(1 + seed % 5, n), replace=False)):
        bits[p] = quiet | (j + 1) | (r.randint(2) << sign)
    return bits.view(npdt).reshape(shape)


def _case(red: str, dtype: str, shape: str, seed: int, traced: bool) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        sh, axis = _SHAPES[shape]
        x = tf.constant(_input(dtype, sh, seed))
        f = lambda v: getattr(tf, red)(v, axis=axis)  # noqa: E731
        out = (tf.function(f) if traced else f)(x)
        return np.asarray(out.numpy()).reshape(-1).view(_BITS[dtype]).tolist()
    return run


def _cases() -> dict[str, Callable[[Any], Any]]:
    return {f"{red}/{dtype}/{shape}/{seed}/{'fn' if traced else 'eager'}": _case(red, dtype, shape, seed, traced)
            for red in ("reduce_max", "reduce_min") for dtype in _BITS for shape in _SHAPES for seed in range(5)
            for traced in (False, True)}


TABLE = case_results.Table(__file__, _cases(), re.compile(r"(fix63e_mm_auto_)\d+"))   # (no auto-named objects)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("ops.simd-signed-zeros")
def test_max_and_min_reductions_keep_tfs_nan(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: True)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)
