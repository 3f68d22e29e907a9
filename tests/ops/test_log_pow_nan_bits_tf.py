"""The NaN bits of TF 2.21's Log and of Pow of negative subnormals (clause ops.eigen-kernels; blind63b). Eigen's plog
ends with `por(x, invalid_mask)`: a negative or NaN input in a packet (8 float32 / 4 float64 lanes on TF's x86 build)
gives the NaN with every bit set (0xffffffff, 0xffffffffffffffff), whatever its payload; the scalar tail is the C
library's logf/log (the input's own quiet NaN, -NaN for a negative input). float16 runs through float32 (0xffff);
bfloat16's packets go back through F32ToBf16, whose NaN is 0x7fc0, its tail keeps the sign. simdist wrote the
canonical 0x7fc00000 / 0x7ff8000000000000 in packets. Pow of a negative subnormal x to a non-integer power is the C
library's invalid result, x86's default NaN with its sign bit set (0xffc00000, 0xfff8000000000000); simdist gave it
positive. Results compared as bit patterns or exception classes. Its golden (tests/goldens/) is stamped with this
file."""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import numpy as np
import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _log_input(dt: str, n: int) -> np.ndarray:
    """n values of 2.0 with a negative, a NaN and a -NaN at the front (packets) and a NaN, a negative and a zero at the
    back (the tail when n is not a whole number of packets)."""
    x = np.full(n, 2.0)
    for i, v in ((0, -1.0), (1, np.nan), (2, -np.nan), (n - 1, -3.0), (n - 2, np.nan), (n - 3, 0.0)):
        x[i] = v
    return x


def _bits(a: Any) -> list[int]:
    a = np.asarray(a.numpy() if hasattr(a, "numpy") else a)
    return a.view(f"u{a.dtype.itemsize}").ravel().tolist()


def _log_case(dt: str, n: int, traced: bool) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        x = tf.constant(_log_input(dt, n), dtype=getattr(tf, dt))
        if dt == "float32":   # (payloads: tagged quiet NaNs and a signalling one)
            raw = _log_input(dt, n).astype(np.float32)
            raw[1] = np.uint32(0x7fc00005).view(np.float32)
            raw[2] = np.uint32(0xffc00006).view(np.float32)
            raw[n - 2] = np.uint32(0x7f800001).view(np.float32)
            x = tf.constant(raw)
        f = tf.function(tf.math.log) if traced else tf.math.log
        try:
            return _bits(f(x))
        except Exception as e:  # noqa: BLE001 - the class is the result
            return f"raised {type(e).__name__}"
    return run


def _pow_case(dt: str, y: float, traced: bool) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        xs = [-1e-40, -3e-42, -1e-45, 1e-40, -1e-38] if dt == "float32" else [-1e-310, -2e-320, 1e-310, -1e-300]
        x = tf.constant(np.array(xs, dt))
        f = tf.function(lambda a, b: tf.pow(a, b)) if traced else tf.pow
        return _bits(f(x, tf.constant(np.full(len(xs), y, dt))))
    return run


_CASES: dict[str, Callable[[Any], Any]] = {}
for _dt, _sizes in (("float32", (5, 8, 13, 16, 37)), ("float64", (4, 8, 12)), ("float16", (8, 21)),
                    ("bfloat16", (8, 21))):
    for _n in _sizes:
        for _traced in (False, True):
            _CASES[f"log/{_dt}/{_n}/{'traced' if _traced else 'eager'}"] = _log_case(_dt, _n, _traced)
for _dt in ("float32", "float64"):
    for _y in (0.5, -0.5, 1.5, -2.5, 3.0, -2.0):
        for _traced in (False, True):
            _CASES[f"pow/{_dt}/{_y}/{'traced' if _traced else 'eager'}"] = _pow_case(_dt, _y, _traced)

TABLE = case_results.Table(__file__, _CASES, re.compile(r"(nan_bits_auto_)\d+"))


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("ops.eigen-kernels")
def test_log_nan_bits_as_tf(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: lab.startswith("log/"))


@pytest.mark.clause("ops.subnormals")
def test_pow_of_negative_subnormals_nan_sign_as_tf(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: lab.startswith("pow/"))


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)
