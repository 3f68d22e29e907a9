"""Casts to float16 and bfloat16 from wider types against TF 2.21 (clause ops.cast-half-through-float): Eigen's half
and bfloat16 constructors take every other type through float (static_cast<float>) and then round to 16 bits, so a
float64, a complex128's real part, an int32, int64, uint32 or uint64 is rounded twice — 1 + 2^-8 + 2^-40 is 1.0 in
bfloat16 (not 1.0078125), 1 + 2^-11 + 2^-40 is 1.0 in float16. Found by the seventy-third blind batch's gaps module
(docs/conformance.md, fifty-seventh session): simdist rounded once."""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import numpy as np
import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

_F64 = np.array([1.0 + 2 ** -8 + 2 ** -40, -(1.0 + 2 ** -8 + 2 ** -40), 1.0 + 2 ** -11 + 2 ** -40, 1.0 + 2 ** -9 + 2 ** -30,
                 3.0000000001, 1e-40, -1e-40, 2.0 ** -133 * 1.5, (1 + 2 ** -8) * 2 ** -130, 3.3e38 * 1.01, 1e39, -1e39,
                 65504.123, 65519.99, np.nan, np.inf, -np.inf, 6e-8, 1e-8], np.float64)
_INTS = [2 ** 24 + 2 ** 16 + 1, -(2 ** 24 + 2 ** 16 + 1), 2 ** 24 + 2 ** 13 + 1, 16908289, 2 ** 31 - 1, 65520, 2049]
_WIDE = [2 ** 40 + 2 ** 32 + 1, 2 ** 62 + 2 ** 54 + 1, 16777217 * 2 ** 8 + 1, 2 ** 63 - 1]


def _cast(values: Any, src: str, dst: str, truncate: bool | None = None) -> Callable[[Any], Any]:
    def case(tf: Any) -> Any:
        x = tf.constant(np.asarray(values).astype(src))
        y = tf.cast(x, dst) if truncate is None else tf.raw_ops.Cast(x=x, DstT=dst, Truncate=truncate)
        return tf.bitcast(y, tf.uint16)   # (the bits: NaN's included)
    return case


def _cases() -> dict[str, Callable[[Any], Any]]:
    cases = {}
    for dst in ("bfloat16", "float16"):
        cases[f"{dst}/float64"] = _cast(_F64, "float64", dst)
        cases[f"{dst}/float64 raw Truncate=False"] = _cast(_F64, "float64", dst, False)
        cases[f"{dst}/float64 raw Truncate=True"] = _cast(_F64, "float64", dst, True)
        cases[f"{dst}/complex128"] = _cast(_F64 + 0.5j, "complex128", dst)
        cases[f"{dst}/int32"] = _cast(_INTS, "int32", dst)
        cases[f"{dst}/int64"] = _cast(_INTS + _WIDE, "int64", dst)
        cases[f"{dst}/uint32"] = _cast([v for v in _INTS if v > 0] + [2 ** 32 - 1], "uint32", dst)
        cases[f"{dst}/uint64"] = _cast([v for v in _INTS if v > 0] + _WIDE + [2 ** 64 - 1], "uint64", dst)
        cases[f"{dst}/float32 (rounded once)"] = _cast(_F64, "float32", dst)
    return cases


TABLE = case_results.Table(__file__, _cases(), re.compile(r"(?!)"))


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("ops.cast-half-through-float")
@pytest.mark.parametrize("prefix", ["bfloat16/", "float16/"])
def test_casts_to_half_types_round_through_float(tf_results: dict[int, Any], prefix: str) -> None:
    TABLE.check(tf_results, lambda lab: lab.startswith(prefix))


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)
