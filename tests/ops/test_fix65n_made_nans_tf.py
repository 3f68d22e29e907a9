"""Which NaN a float reduction or a bfloat16 x-function returns where the kernel makes one (clauses ops.packet-paths,
ops.subnormals; fix65n, bsweep65's open float64 Prod of 40 elements and bfloat16 Xlogy). (1) Eigen's
InnerMostDimReducer: a NaN made from numbers by a step (0 · inf, inf - inf: x86's negative default NaN) travels
through the accumulators, their fold ((a0 · a1) · a2) · a3 (compiled with the operands a3 · (a2 · (a0 · a1))), the
lanes' tree and the tail like an input's, so it wins where it comes first (reduce_nans.py). (2) bfloat16
Xlogy/Xlog1py of a subnormal x in the scalar tail multiply ±0 by glibc's log/log1p of y, which returns a NaN y itself:
the result is NaN with y's sign (subnormals `_bf16_x_times`). Compared: the bits."""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import numpy as np
import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

_F64 = np.array([np.inf, -np.inf, 0.0, -0.0, 1e300, -1e300, 1.5, -2.0, 5e-324], np.float64)
_NANS = np.array([0x7FF8012340000000, 0xFFF8056780000000, 0x7FF4000000000000], np.uint64).view(np.float64)


def _reduce(op: str, n: int, dt: str) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        rs = np.random.RandomState(6510 + n)
        rows = []
        for _ in range(12):
            r = np.where(rs.rand(n) < 0.35, rs.choice(_F64, n), rs.uniform(-3, 3, n))
            r[rs.choice(n, rs.randint(1, 3), replace=False)] = rs.choice(_NANS, 1)[0]
            rows.append(r)
        x = tf.constant(np.array(rows).astype(dt))
        y = (tf.reduce_prod if op == "prod" else tf.reduce_sum)(x, axis=1)
        a = np.asarray(y.numpy())
        return [y.dtype.name, list(y.shape), a.view(np.uint64 if dt == "float64" else np.uint32).ravel().tolist()]
    return run


_F16 = np.array([np.inf, -np.inf, 0.0, -0.0, 6e4, -6e4, 1.5, -2.0], np.float16)
_NANS16 = np.array([0x7E12, 0xFE34, 0x7D00], np.uint16).view(np.float16)


def _reduce_half(op: str, n: int) -> Callable[[Any], Any]:
    """float16 rows: products and sums round each step to float16, so 6e4 · 6e4 is inf before a zero meets it."""
    def run(tf: Any) -> Any:
        rs = np.random.RandomState(6520 + n)
        rows = []
        for _ in range(12):
            r = np.where(rs.rand(n) < 0.4, rs.choice(_F16, n), rs.uniform(-3, 3, n)).astype(np.float16)
            r[rs.choice(n, rs.randint(1, 3), replace=False)] = _NANS16[rs.randint(3)]
            rows.append(r)
        x = tf.constant(np.array(rows))
        y = (tf.reduce_prod if op == "prod" else tf.reduce_sum)(x, axis=1)
        return [y.dtype.name, list(y.shape), np.asarray(y.numpy()).view(np.uint16).ravel().tolist()]
    return run


_BF_Y = (0xFFC5, 0x7FC1, 0xFFA0, 0x7F81, 0xFF80, 0xBF80, 0x0000, 0x3F80)


def _xfun(name: str, n: int, xbits: int, traced: bool) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        def bf(bits: list[int]) -> Any:
            return tf.bitcast(tf.constant(np.array(bits, np.uint16).view(np.int16)), tf.bfloat16)
        f = getattr(tf.math, name)
        out = []
        for yb in _BF_Y:
            x, y = bf([xbits] * n), bf([yb] * n)
            r = tf.function(f)(x, y) if traced else f(x, y)
            out.append(np.asarray(r.numpy()).view(np.uint16).ravel().tolist())
        return out
    return run


_CASES: dict[str, Callable[[Any], Any]] = {
    f"{op}/{dt}/{n}": _reduce(op, n, dt)
    for op in ("prod", "sum") for dt in ("float64", "float32") for n in (16, 17, 33, 40, 48, 64, 70)}
_CASES.update({f"{op}/float16/{n}": _reduce_half(op, n) for op in ("prod", "sum") for n in (16, 17, 24, 33, 64, 100)})
_CASES.update({f"{name}/{n}/{x:04x}/{'traced' if t else 'eager'}": _xfun(name, n, x, t)
               for name in ("xlogy", "xlog1py") for n in (1, 9) for x in (0x0001, 0x8001) for t in (False, True)})
TABLE = case_results.Table(__file__, _CASES, re.compile(r"(fix65n_mn_auto_)\d+"))


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("ops.packet-paths")
def test_reductions_keep_the_nan_made_first_as_tf(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: lab.startswith(("prod/", "sum/")))


@pytest.mark.clause("ops.subnormals")
def test_bf16_x_functions_tail_nan_of_y_as_tf(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: lab.startswith(("xlogy/", "xlog1py/")))


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)
