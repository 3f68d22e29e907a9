"""Pooling gradients inside a tf.function (clause function.pool-graph-kernels): on a CPU where oneDNN runs the dtype,
TF 2.21's traced gradient is not its eager one. Grappler's constant folding evaluates an AvgPoolGrad/AvgPool3DGrad of
a constant upstream gradient with TF's own kernel (eagerly oneDNN's order); oneDNN's layout pass runs a MaxPool3DGrad
as _MklNativeMaxPool3DGrad (the window's first maximum; eagerly TF's own kernel gives every element within 1e-5 of
it); and oneDNN's eager AvgPool3DGrad adds in its own loop order. simdist computed the eager values in both modes and
the 3-D average gradient in another order (pool58: asweep58's af-pool-3d/af-pool-formats OPEN entries). Cases:
avg_pool2d, avg_pool3d and max_pool3d, SAME and VALID, float32 and bfloat16, eagerly, traced with a constant upstream
gradient (folded) and traced with the upstream an argument (not folded), as float32 bit patterns. Its golden
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


def _bits(t: Any, tf: Any) -> list:
    return np.asarray(tf.cast(t, tf.float32).numpy(), np.float32).view(np.uint32).ravel().tolist()


# op -> (shape, ksize, strides): overlapping windows (three or more add into an element) and SAME edges
_POOLS: dict[str, tuple[tuple[int, ...], list[int], list[int]]] = {
    "avg_pool2d": ((2, 5, 5, 2), [3, 2], [2, 2]),
    "avg_pool2d_k3s1": ((1, 5, 6, 3), [3, 3], [1, 1]),
    "avg_pool3d": ((1, 4, 4, 5, 2), [2, 2, 3], [2, 1, 2]),
    "avg_pool3d_k3s1": ((1, 4, 5, 5, 3), [3, 3, 2], [1, 1, 1]),
    "max_pool3d": ((2, 3, 5, 4, 2), [2, 3, 2], [1, 2, 2]),
    "max_pool3d_k3s1": ((1, 4, 4, 4, 2), [3, 2, 3], [1, 1, 1]),
}


def _case(op: str, padding: str, dtype: str, mode: str) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        shape, k, s = _POOLS[op]
        r = np.random.RandomState(len(op) * 7 + len(shape))
        xv = (np.floor(r.uniform(-4.0, 4.0, int(np.prod(shape))) / 0.25) * 0.25).reshape(shape).astype(np.float32)
        x = tf.cast(tf.constant(xv), dtype)
        fn = getattr(tf.nn, op.split("_k")[0])

        def upstream(y: Any) -> Any:
            n = tf.size(y)
            u = tf.cast(tf.reshape(tf.range(n) % 7, tf.shape(y)), tf.float32) * 0.5 - 1.25
            return tf.cast(u, y.dtype)

        def grad(x: Any, u: Any = None) -> Any:
            with tf.GradientTape() as tape:
                tape.watch(x)
                y = fn(x, k, s, padding)
            return tape.gradient(y, x, output_gradients=upstream(y) if u is None else u)

        if mode == "eager":
            g = grad(x)
        elif mode == "traced":
            g = tf.function(grad, autograph=False)(x)
        else:   # the upstream gradient an argument of the function: nothing to fold
            u = upstream(fn(x, k, s, padding))
            g = tf.function(grad, autograph=False)(x, u)
        return [g.dtype.name, _bits(g, tf)]
    return run


def _cases() -> dict[str, Callable[[Any], Any]]:
    c: dict[str, Callable[[Any], Any]] = {}
    for op in _POOLS:
        for padding in ("SAME", "VALID"):
            for dtype in ("float32", "bfloat16"):
                for mode in ("eager", "traced", "traced-upstream-arg"):
                    c[f"{op}/{padding}/{dtype}/{mode}"] = _case(op, padding, dtype, mode)
    return c


#: cases left out of the comparison, open (docs/conformance.md, "Fifty-eighth session ... pool58"): oneDNN's eager
#: bfloat16 AvgPoolGrad/AvgPool3DGrad (not float32 accumulation in the float32 kernel's order then one rounding: 25-34
#: of 90 elements off), and its float32 AvgPool3DGrad where windows overlap along the depth (no loop order of float32
#: additions found that matches: /work/wt/pool58_logs/order3d_b.py, order3d_c.py)
OPEN = tuple(f"{op}/{p}/bfloat16/{m}" for op in _POOLS if op.startswith("avg") for p in ("SAME", "VALID")
             for m in ("eager", "traced-upstream-arg")) + tuple(
    f"avg_pool3d_k3s1/{p}/float32/{m}" for p in ("SAME", "VALID") for m in ("eager", "traced-upstream-arg"))


TABLE = case_results.Table(__file__, _cases(), re.compile(r"(pool58_grads_auto_)\d+"))   # (no auto-named objects)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("function.pool-graph-kernels")
def test_pool_gradients_in_and_out_of_tf_function_as_tf(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: lab not in OPEN)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)
