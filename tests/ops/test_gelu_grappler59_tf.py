"""Gradients inside a tf.function as Grappler rewrites them (clause function.grappler-rewrites): gelu's gradient in
both forms, and the product chains of gradient functions that keep their upstream gradient out of MinimizeBroadcasts'
group (`ops.control_dependencies([grad])`: Erfc, Erf, Sin, Log, Square) or leave a scalar exponent's gradient alone
(_PowGrad's skip path). TF 2.21's constant folding rewrites a chain's nodes in place (a pushed-down constant travels on
into a product it rewrote first; the nodes keep their names), and its arithmetic optimizer orders the leaves by those
names; simdist's tanh-form gelu gradient was 12-21 of 64 elements off in float32 and float64 before (the fifty-ninth
session), the exact form 11-17 of 64. Each case runs the function once on seeded inputs and compares the value and the
gradient as bit patterns. Left open: the tanh form in float16 and bfloat16 (2 of 64 float16 elements) and the float16
chains (1 element each of erf, erfc, pow3, `x ** 3`): a half-type product chain, where constant folding pushes
nothing down and MinimizeBroadcasts pairs the constants first, which simdist combines before. Its golden
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


def _bits(t: Any) -> list:
    a = np.asarray(t.numpy())
    if a.dtype.itemsize == 2 and a.dtype.kind != "f":   # bfloat16 arrives as its own NumPy type
        return a.view(np.uint16).ravel().tolist()
    return a.ravel().view({2: np.uint16, 4: np.uint32, 8: np.uint64}[a.dtype.itemsize]).tolist()


def _inputs(seed: int, n: int, scale: float) -> tuple:
    r = np.random.RandomState(seed)
    return (r.standard_normal(n) * scale).astype(np.float32), r.standard_normal(n).astype(np.float32)


def _traced(body: Callable[[Any, Any, Any], Any], dtype: str, seed: int, n: int = 64, scale: float = 3.0,
            loss: bool = False) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        xs, us = _inputs(seed, n, scale)
        x, u = tf.cast(tf.constant(xs), dtype), tf.cast(tf.constant(us), dtype)

        def f(x: Any, u: Any) -> Any:
            with tf.GradientTape() as t:
                t.watch(x)
                y = body(tf, x, u)
                target = tf.reduce_sum(y * y) if loss else y
            return y, (t.gradient(target, x) if loss else t.gradient(y, x, output_gradients=u))
        y, g = tf.function(f)(x, u)
        return [_bits(tf.cast(y, tf.float32) if dtype == "bfloat16" else y),
                _bits(tf.cast(g, tf.float32) if dtype == "bfloat16" else g)]
    return run


def _gelu(approximate: bool) -> Callable[[Any, Any, Any], Any]:
    return lambda tf, x, u: tf.nn.gelu(x, approximate=approximate)


_CHAINS = {
    "erfc": lambda tf, x, u: tf.math.erfc(x * 0.5) * 1.5,
    "erf": lambda tf, x, u: 0.25 * tf.math.erf(x * 0.75),
    "sin": lambda tf, x, u: tf.sin(x * 0.5) * 2.5,
    "log": lambda tf, x, u: tf.math.log(tf.abs(x) + 1.0) * 0.75,
    "square": lambda tf, x, u: tf.square(x * 1.5) * 0.5,
    "pow3": lambda tf, x, u: 0.125 * tf.pow(x, 3.0),
    "pow-op": lambda tf, x, u: (x ** 3) * 0.3,
}


def _cases() -> dict[str, Callable[[Any], Any]]:
    c: dict[str, Callable[[Any], Any]] = {}
    for dt in ("float32", "float64"):
        for approximate in (False, True):
            form = "tanh" if approximate else "exact"
            for seed in (5, 6):
                c[f"gelu-{form}/{dt}/s{seed}"] = _traced(_gelu(approximate), dt, seed)
            c[f"gelu-{form}/{dt}/loss"] = _traced(_gelu(approximate), dt, 7, loss=True)
    for dt in ("float16",):
        c[f"gelu-exact/{dt}/s5"] = _traced(_gelu(False), dt, 5)
        c[f"gelu-exact/{dt}/loss"] = _traced(_gelu(False), dt, 7, loss=True)
    for name, body in _CHAINS.items():
        for dt in ("float32", "float64"):
            c[f"chain-{name}/{dt}"] = _traced(body, dt, 11, n=48, scale=1.5)
    return c


TABLE = case_results.Table(__file__, _cases(), re.compile(r"(gelu_grappler59_auto_)\d+"))   # (no auto-named objects)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("function.grappler-rewrites")
def test_traced_gradients_as_grappler_rewrites_them(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: True)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)
