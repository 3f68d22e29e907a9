"""bfloat16 reduce_min/reduce_max of slices holding subnormals (clause ops.subnormals, fz59: fz54b seed 59202 #0,
`reduce_min(v, axis=1)` of a [4, 4] bfloat16 input with -9.2e-41 in a row: TF 2.21 returned -9.2e-41 in a
tf.function, simdist -0.0). Eigen's bfloat16 Max/Min reducer compares in float32 under DAZ: whole packets of 8
(along the reduced innermost elements, or along the kept innermost outputs) return the flushed value, the scalar
path the element's bits, a tie taking the later element and the scalar accumulator winning its tie with the packets'.
Eager and traced, lengths around the packet size, rows, columns and the middle axis of rank 3, ties of subnormals
with zeros and each other. Results compared as bit patterns. Its golden (tests/goldens/) is stamped with this file."""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import numpy as np
import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

_SA, _SB = -9.2e-41, -3e-39   # (bfloat16 subnormals 0x8001 and 0x8021)


def _inputs() -> dict[str, tuple[list, Any]]:
    """name -> (array as nested lists of float32 values, axis)."""
    out: dict[str, tuple[list, Any]] = {}
    for n in (1, 3, 7, 8, 9, 15, 16, 17, 24, 33):
        for p in sorted({0, n // 2, n - 1}):
            v = [2.0 + (i % 5) / 4 for i in range(n)]
            v[p] = _SA
            out[f"vec{n}_at{p}"] = (v, None)
    r = np.random.RandomState(59)
    for shape, axis in (((4, 4), 1), ((4, 4), 0), ((3, 17), 0), ((3, 17), 1), ((2, 9, 3), 1), ((2, 3, 9), 2),
                        ((5, 2, 10), (0, 2)), ((3, 2, 4), (0, 2)), ((4, 3, 2, 5), (0, 2)), ((2, 3, 4, 5), (1, 3)),
                        ((3, 2, 3, 2, 3), (0, 2, 4)), ((16, 2), 0), ((2, 16), 0)):
        a = (r.randint(1, 400, shape) / 16.0).astype(np.float32)
        flat = a.reshape(-1)
        flat[r.randint(0, flat.size, 3)] = _SA
        flat[r.randint(0, flat.size, 2)] = _SB
        flat[r.randint(0, flat.size, 1)] = 0.0
        out[f"m{'x'.join(map(str, shape))}_ax{axis}"] = (a.tolist(), axis)
    for name, v in (("tie_tail_packet0", [0.0] + [2.0] * 7 + [_SA]), ("tie_two", [_SA, _SB, 1.0, 2.0]),
                    ("tie_two_rev", [_SB, _SA, 1.0, 2.0]), ("tie_zero_sub", [0.0, _SA, 1.0]),
                    ("tie_sub_zero", [_SA, 0.0, 1.0])):
        out[name] = (v, None)
    return out


_IN = _inputs()


def _case(name: str, op: str, mode: str) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        v, axis = _IN[name]
        x = tf.cast(np.asarray(v, np.float32), tf.bfloat16)
        if op == "max":
            x = -x   # (Neg keeps the subnormals' bits)

        def f(t: Any) -> Any:
            return (tf.reduce_min if op == "min" else tf.reduce_max)(t, axis=axis)
        out = f(x) if mode == "eager" else tf.function(f, autograph=False)(x)
        return (np.asarray(tf.cast(out, tf.float32).numpy(), np.float32).view(np.uint32) >> 16).ravel().tolist()
    return run


def _cases() -> dict[str, Callable[[Any], Any]]:
    return {f"{name}/{op}/{mode}": _case(name, op, mode)
            for name in _IN for op in ("min", "max") for mode in ("eager", "function")}


TABLE = case_results.Table(__file__, _cases(), re.compile(r"(fz59_bf_auto_)\d+"))   # (no auto-named objects)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("ops.subnormals")
def test_bfloat16_min_max_keep_subnormals_in_the_scalar_path_as_tf(tf_results: dict[int, Any]) -> None:
    # (m3x2x3x2x3: its first output's zero comes from the packets, where a flushed -9.2e-41 ties with 0.0 and TF
    # returns 0.0 for min, -0.0 for max; which zero bfloat16's packets keep is open, fz59 OPEN.md)
    TABLE.check(tf_results, lambda lab: not lab.startswith("m3x2x3x2x3"))


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)
