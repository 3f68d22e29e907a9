"""The NaN bits of TF 2.21's float Sign (clause ops.packet-paths; blind64a, found by blind batch 86's probe of
keras.ops.cbrt, `sign(x) * pow(|x|, 1/3)`). The kernel returns the NaN itself, payload kept and a signalling NaN not
quieted; in Eigen's packets (8 float32/float16/bfloat16 or 4 float64 elements, the first (n // P) * P in flat order)
its sign bit is cleared, in the scalar tail it is kept. simdist gave NumPy's sign: the NaN quieted, its sign kept
everywhere (bfloat16: the default NaN). Results compared as bit patterns. Its golden (tests/goldens/) is stamped with
this file."""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import numpy as np
import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

_TAGS = {"float32": (np.uint32, (0xffc00456, 0x7fc00123, 0xff800777)),
         "float64": (np.uint64, (0xfff8000000000456, 0x7ff8000000000123, 0xfff0000000000777)),
         "float16": (np.uint16, (0xfe05, 0x7e03, 0xfc07)),
         "bfloat16": (np.uint16, (0xffc5, 0x7fc3, 0xff87))}


def _input(dt: str, shape: tuple[int, ...]) -> np.ndarray:
    """-2.5 everywhere, -0.0 and 3.0 at the front, a negative tagged NaN first, a positive one in the middle and a
    negative signalling one last (each in the packets or the tail by the size), as raw bits of `dt`."""
    u, (neg, pos, sig) = _TAGS[dt]
    n = int(np.prod(shape))
    half = np.float16 if dt in ("float16", "bfloat16") else np.dtype(dt).type
    vals = np.full(n, -2.5, half)
    if n > 3:
        vals[1], vals[2] = -0.0, 3.0
    bits = vals.view(u) if dt != "bfloat16" else (vals.astype(np.float32).view(np.uint32) >> 16).astype(np.uint16)
    bits = bits.copy()
    bits[0] = neg
    bits[n // 2] = pos if n > 1 else neg
    bits[n - 1] = sig if n > 2 else bits[n - 1]
    return bits.reshape(shape)


def _bits(a: Any) -> list[int]:
    a = np.asarray(a.numpy() if hasattr(a, "numpy") else a)
    return a.view(f"u{a.dtype.itemsize}").ravel().tolist()


def _case(dt: str, shape: tuple[int, ...], traced: bool) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        x = tf.bitcast(tf.constant(_input(dt, shape)), getattr(tf, dt))
        f = tf.function(lambda v: tf.sign(v)) if traced else tf.sign
        return _bits(f(x))
    return run


_CASES: dict[str, Callable[[Any], Any]] = {}
for _dt in ("float32", "float64", "float16", "bfloat16"):
    for _shape in ((1,), (3,), (4,), (7,), (8,), (9,), (13,), (16,), (17,), (33,), (3, 5), (2, 2, 4)):
        for _traced in (False, True):
            _CASES[f"sign/{_dt}/{'x'.join(map(str, _shape))}/{'traced' if _traced else 'eager'}"] = \
                _case(_dt, _shape, _traced)

TABLE = case_results.Table(__file__, _CASES, re.compile(r"(sign_nan_auto_)\d+"))


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("ops.packet-paths")
def test_sign_nan_bits_as_tf(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: lab.startswith("sign/"))


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)
