"""Which NaN Sum, Mean and Prod reductions and Cumsum/Cumprod return when several elements are NaNs of distinct
payloads and signs (clause ops.packet-paths, nsweep64: Keras's losses and keras.ops reductions kept the later NaN
where TF 2.21 keeps another). Eigen's InnerMostDimReducer keeps the packets' NaN over the scalar tail's in float32
and float64 (finalizeBoth's compiled addition), the tail's in float16, and every half addition or product keeps its
first NaN operand (simdist/runtime/ops/sum_order.py, prod_order.py, reductions.py's scan). One to five NaNs at random
places, float64/float32/float16, full reductions of 5..70 elements, rows and columns and the axes of
[4, 3, 5]; eagerly and in a tf.function; results compared as bit patterns. Its golden (tests/goldens/) is stamped
with this file."""

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
#: (bfloat16 left out: its sums' and products' NaN signs differ from TF 2.21's (the positive packet NaN), OPEN)
_DTYPES = ("float16", "float32", "float64")
_SHAPES = {"5": ((5,), None), "12": ((12,), None), "33": ((33,), None), "40": ((40,), None), "70": ((70,), None),
           "3x4/1": ((3, 4), 1), "3x4/0": ((3, 4), 0), "20x9/0": ((20, 9), 0), "9x20/1": ((9, 20), 1),
           "2x40/1": ((2, 40), 1), "17x8/0": ((17, 8), 0), "4x3x5/1": ((4, 3, 5), 1), "4x3x5/02": ((4, 3, 5), (0, 2))}


def _input(dtype: str, shape: tuple, seed: int) -> np.ndarray:
    import ml_dtypes
    npdt = ml_dtypes.bfloat16 if dtype == "bfloat16" else np.dtype(dtype)
    n = int(np.prod(shape))
    r = np.random.RandomState(seed)
    bits = (r.randint(-8, 8, n) / 4.0 + 0.125).astype(npdt).view(_BITS[dtype]).copy()
    quiet, sign = _QUIET[dtype]
    for j, p in enumerate(r.choice(n, min(1 + seed % 5, n), replace=False)):
        bits[p] = quiet | (j + 1) | (r.randint(2) << sign)
    return bits.view(npdt).reshape(shape)


def _case(red: str, dtype: str, shape: str, seed: int, traced: bool) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        sh, axis = _SHAPES[shape]
        x = tf.constant(_input(dtype, sh, seed))
        if red.startswith("cum"):
            f = lambda v: getattr(tf.math, red)(v if axis is not None else tf.reshape(v, [-1]),  # noqa: E731
                                                axis=axis if isinstance(axis, int) else 0)
        else:
            f = lambda v: getattr(tf, red)(v, axis=axis)  # noqa: E731
        out = (tf.function(f) if traced else f)(x)
        return np.asarray(out.numpy()).reshape(-1).view(_BITS[dtype]).tolist()
    return run


def _cases() -> dict[str, Callable[[Any], Any]]:
    return {f"{red}/{dtype}/{shape}/{seed}/{'fn' if traced else 'eager'}": _case(red, dtype, shape, seed, traced)
            for red in ("reduce_sum", "reduce_mean", "reduce_prod", "cumsum", "cumprod") for dtype in _DTYPES for shape in _SHAPES for seed in range(3)
            for traced in (False, True)}


TABLE = case_results.Table(__file__, _cases(), re.compile(r"(nsweep64_sum_auto_)\d+"))   # (no auto-named objects)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("ops.packet-paths")
def test_sum_prod_and_scans_keep_tfs_nan(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: True)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)
