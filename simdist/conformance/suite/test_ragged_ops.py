"""TF's ops on RaggedTensors — clause ops.ragged (TF 2.21).

Rows of different lengths computed with ragged dispatch: elementwise ops and operators act on each
row's values, reductions over axis 1 reduce each row (an empty row gives the reduction's identity),
over axis 0 each column, tf.concat joins rows, tf.gather picks rows, tf.ragged.range builds rows,
and a tape differentiates through them. Expected values are computed here with NumPy on the rows.
"""

from __future__ import annotations

import numpy as np
import pytest

clause = pytest.mark.clause

ROWS = [[1.0, 2.0], [], [3.0, 4.0, 5.0]]


def _rows(r) -> list:
    return [list(map(float, row)) for row in r.to_list()]


@clause("ops.ragged", ref="tf221")
def test_elementwise_ops_and_operators_map_each_row(tf):
    r = tf.ragged.constant(ROWS)
    cases = [
        ("r * 2 + 1", r * 2 + 1, [[2 * v + 1 for v in row] for row in ROWS]),
        ("tf.math.exp(r)", tf.math.exp(r), [list(np.exp(np.float32(row)).astype(float)) for row in ROWS]),
        ("1 - r", 1 - r, [[1 - v for v in row] for row in ROWS]),
        ("tf.maximum(r, 2.5)", tf.maximum(r, 2.5), [[max(v, 2.5) for v in row] for row in ROWS]),
        ("r + r", r + r, [[2 * v for v in row] for row in ROWS]),
    ]
    for what, got, want in cases:
        g = _rows(got)
        assert len(g) == len(want) and all(np.allclose(a, b, rtol=1e-6) for a, b in zip(g, want)), \
            f"{what}: rows={g}, but should be {want} [ragged elementwise]"
    cmp = (r > 2).to_list()
    want = [[v > 2 for v in row] for row in ROWS]
    assert cmp == want, f"r > 2: rows={cmp}, but should be {want} [ragged comparison]"


@clause("ops.ragged", ref="tf221")
def test_reductions_reduce_each_row_or_column(tf):
    r = tf.ragged.constant(ROWS)
    widest = max(len(row) for row in ROWS)
    cols = [[row[j] for row in ROWS if len(row) > j] for j in range(widest)]
    cases = [
        ("reduce_sum axis=1", tf.reduce_sum(r, axis=1), [float(np.sum(row)) for row in ROWS]),
        ("reduce_sum axis=0", tf.reduce_sum(r, axis=0), [float(np.sum(c)) for c in cols]),
        ("reduce_prod axis=1", tf.reduce_prod(r, axis=1), [float(np.prod(row)) for row in ROWS]),
        ("reduce_max axis=0", tf.reduce_max(r, axis=0), [float(np.max(c)) for c in cols]),
        ("reduce_sum", tf.reduce_sum(r), float(np.sum(np.concatenate([np.float32(row) for row in ROWS])))),
        ("reduce_min axis=1 (empty row: float32 max)", tf.reduce_min(r, axis=1),
         [float(np.min(row)) if row else float(np.finfo(np.float32).max) for row in ROWS]),
    ]
    for what, got, want in cases:
        g = np.asarray(got.numpy(), np.float64)
        assert g.shape == np.shape(want) and np.allclose(g, want, rtol=1e-6), \
            f"{what}: out={g.tolist()}, but should be {want} [ragged reduction]"


@clause("ops.ragged", ref="tf221")
def test_concat_gather_and_range_build_rows(tf):
    r = tf.ragged.constant(ROWS)
    got = _rows(tf.concat([r, r], axis=1))
    want = [row + row for row in ROWS]
    assert got == want, f"concat axis=1: rows={got}, but should be {want} [ragged concat]"
    got = _rows(tf.gather(r, [2, 0]))
    want = [ROWS[2], ROWS[0]]
    assert got == want, f"gather [2, 0]: rows={got}, but should be {want} [ragged gather]"
    got = tf.ragged.range([3, 0, 5], [5, 2, 6]).to_list()
    want = [list(range(a, b)) for a, b in zip([3, 0, 5], [5, 2, 6])]
    assert got == want, f"tf.ragged.range: rows={got}, but should be {want} [ragged range]"


@clause("ops.ragged", ref="tf221")
def test_gradient_flows_through_rows(tf):
    flat = np.float32([1.0, 2.0, 3.0])
    v = tf.Variable(flat)
    with tf.GradientTape() as tape:
        r = tf.RaggedTensor.from_row_lengths(v * 1.0, [2, 0, 1])
        y = tf.reduce_sum(tf.reduce_sum(r * r, axis=1)) + tf.reduce_sum(tf.reduce_max(r, axis=1))
    g = tape.gradient(y, v).numpy()
    want = 2 * flat + np.float32([0.0, 1.0, 1.0])   # d(sum of squares) + the max of each non-empty row
    assert np.allclose(g, want), f"gradient={g.tolist()}, but should be {want.tolist()} [ragged gradient]"
