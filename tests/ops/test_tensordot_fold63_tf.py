"""A traced tf.tensordot whose matrix operand it transposes, against TF 2.21 (clause ops.packet-paths; fix63q, from
qsweep63's OPEN "tensordot modes fn").

math_ops.tensordot transposes each operand (free axes, then contracted ones), reshapes it to a matrix and calls
MatMul. In a tf.function's graph a rank-2 operand whose perm swaps its axes keeps its shape through the Reshape,
which Grappler's ArithmeticOptimizer removes, and its Transpose then folds into the MatMul (transpose_a /
transpose_b): `tensordot(a, b, axes=([1], [1]))` traced gives `matmul(a, b, transpose_b=True)`'s bits (oneDNN's
transposed kernel), eagerly b's transpose then a plain MatMul. simdist computed the eager composition in both.
Crossed: float32, float64, float16, bfloat16 × eight (m, k, n) shapes (one row, one column, k 3..100) × axes
([1], [1]), ([0], [0]), ([0], [1]), ([1], [0]), 1, traced and eager, keras.ops.tensordot traced, a rank-3 operand;
values by their bits. (Under a tape the fold is not applied: TF's gradient graph is folded after it is built;
left open, docs/conformance.md fix63q.)
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import tf_programs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

SHAPES = [(5, 3, 4), (4, 9, 5), (7, 17, 3), (2, 33, 6), (1, 40, 5), (6, 40, 1), (16, 100, 17), (3, 2, 1)]
AXES = (([1], [1]), ([0], [0]), ([0], [1]), ([1], [0]), 1)


def _bits(tf: Any, x: Any) -> str:
    return np.asarray(tf.cast(x, "float64")).tobytes().hex()


def program(tf: Any, case: dict, workdir: str) -> Any:
    r = np.random.RandomState(7)
    out: list[Any] = []
    dt = case["dtype"]
    for (m, k, n) in SHAPES:
        for axes in AXES:
            sa = (m, k) if axes in (([1], [1]), ([1], [0]), 1) else (k, m)
            sb = (n, k) if axes in (([1], [1]), ([0], [1])) else (k, n)
            a = tf.constant(r.uniform(-2, 2, sa), dt)
            b = tf.constant(r.uniform(-2, 2, sb), dt)
            key = f"{m}x{k}x{n} {axes}"
            f = tf.function(lambda x, y, axes=axes: tf.tensordot(x, y, axes=axes))
            out.append([key + " traced", _bits(tf, f(a, b))])
            out.append([key + " traced again", _bits(tf, f(a, b))])
            out.append([key + " eager", _bits(tf, tf.tensordot(a, b, axes=axes))])
            g = tf.function(lambda x, y, axes=axes: tf.keras.ops.tensordot(x, y, axes=axes))
            out.append([key + " keras traced", _bits(tf, g(a, b))])
    a = tf.constant(r.uniform(-2, 2, (3, 4, 5)), dt)
    b = tf.constant(r.uniform(-2, 2, (6, 5)), dt)
    out.append(["rank3 traced", _bits(tf, tf.function(lambda x, y: tf.tensordot(x, y, axes=([2], [1])))(a, b))])
    return out


CASES: dict[str, dict] = {dt: {"strategy": "default", "name": dt, "dtype": dt}
                          for dt in ("float32", "float64", "float16", "bfloat16")}
NAMES = list(CASES)


@pytest.fixture(scope="module")
def tf_results(request: Any) -> dict[int, Any]:
    return tf_programs.spawn(__file__, CASES, tf_programs.selected(request, __file__))


@pytest.mark.clause("ops.packet-paths")
@pytest.mark.parametrize("index", range(len(NAMES)))
def test_a_traced_tensordot_folds_its_matrix_transposes(index: int, tf_results: dict[int, Any],
                                                        tmp_path: Any) -> None:
    name = NAMES[index]
    got, want = tf_programs.on_simdist(program, CASES[name], str(tmp_path)), tf_results[index]
    assert [g[0] for g in got] == [w[0] for w in want], "labels differ"
    bad = [f"{w[0]}: TF {w[1][:32]}..., simdist {g[1][:32]}..." for g, w in zip(got, want) if g[1] != w[1]]
    assert not bad, f"{name}: {len(bad)} of {len(want)} outcomes differ from TF 2.21:\n" + "\n".join(bad[:12])


if __name__ == "__main__":  # TF worker
    tf_workers.serve(tf_programs.worker(CASES, program))
