"""tf.nn.ctc_loss with SparseTensor labels and tf.compat.v1.nn.ctc_loss (TF's CTCLoss kernel)
against real TensorFlow 2.21: losses and gradients bit for bit (float32 and float64, class counts
below, at and above Eigen's packet sizes), blank_index, batch-major logits, v1's
preprocess_collapse_repeated / ctc_merge_repeated / ignore_longer_outputs_than_inputs, zero-length
sequences, the kernel's errors, second derivatives. Needs the `tf` extra (or its golden)."""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import edge_compare
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause


def _sp(tf: Any, lab: list[list[int]]) -> Any:
    ind = [[b, i] for b, row in enumerate(lab) for i in range(len(row))]
    val = [v for row in lab for v in row]
    return tf.SparseTensor(np.array(ind, np.int64).reshape(-1, 2), tf.constant(val, tf.int32),
                           [len(lab), max(len(r) for r in lab)])


def _problem(seed: int, t: int, b: int, c: int, top: int | None = None) -> tuple[np.ndarray, list[list[int]]]:
    r = np.random.default_rng(seed)
    x = r.normal(size=(t, b, c)) * 2
    lab = [[int(v) for v in r.integers(0, top or c - 1, size=int(r.integers(1, t // 2 + 1)))] for _ in range(b)]
    return x, lab


def _v3(seed: int, t: int, b: int, c: int, dtype: str = "float32", blank: int = -1, lens: Any = None,
        time_major: bool = True) -> Callable[[Any], Any]:
    x, lab = _problem(seed, t, b, c, top=c if blank != -1 else None)
    if blank != -1:
        lab = [[v for v in row if v != blank % c] or [(blank + 1) % c] for row in lab]

    def run(tf: Any) -> Any:
        v = tf.constant(x if time_major else np.swapaxes(x, 0, 1), getattr(tf, dtype))
        with tf.GradientTape() as tape:
            tape.watch(v)
            loss = tf.nn.ctc_loss(_sp(tf, lab), v, None, lens or [t] * b, logits_time_major=time_major,
                                  blank_index=blank)
        return [loss, tape.gradient(loss, v)]
    return run


def _v1(seed: int, t: int, b: int, c: int, **kw: Any) -> Callable[[Any], Any]:
    x, lab = _problem(seed, t, b, c)
    lab = [row + row[:1] for row in lab]        # a repeat at the end: collapse and merge see it

    def run(tf: Any) -> Any:
        v = tf.constant(x, tf.float32)
        with tf.GradientTape() as tape:
            tape.watch(v)
            loss = tf.compat.v1.nn.ctc_loss(_sp(tf, lab), v, [t] * b, **kw)
        return [loss, tape.gradient(loss, v)]
    return run


def _second(tf: Any) -> Any:
    x, lab = _problem(60, 5, 1, 4)
    v = tf.constant(x, tf.float32)
    with tf.GradientTape() as outer:
        outer.watch(v)
        with tf.GradientTape() as inner:
            inner.watch(v)
            loss = tf.nn.ctc_loss(_sp(tf, lab), v, None, [5], blank_index=-1)
        g = inner.gradient(loss, v)
    return outer.gradient(g, v)


_CASES: list[tuple[str, Callable[[Any], Any]]] = [
    ("float32", _v3(1, 8, 2, 7)),
    ("float64", _v3(2, 8, 2, 7, "float64")),
    ("classes-8", _v3(3, 7, 2, 8)),
    ("classes-4-float64", _v3(4, 7, 2, 4, "float64")),
    ("classes-20", _v3(5, 9, 2, 20)),
    ("classes-37", _v3(6, 9, 3, 37)),
    ("classes-37-float64", _v3(7, 9, 2, 37, "float64")),
    ("classes-64", _v3(8, 6, 1, 64)),
    ("blank-0", _v3(9, 8, 2, 6, blank=0)),
    ("blank-middle", _v3(10, 8, 2, 6, blank=2)),
    ("batch-major", _v3(11, 8, 2, 6, time_major=False)),
    ("short-sequences", _v3(12, 8, 3, 5, lens=[8, 6, 0])),
    ("half", lambda tf: tf.nn.ctc_loss(_sp(tf, [[1, 2]]), tf.zeros([4, 1, 4], tf.float16), None, [4],
                                       blank_index=-1)),
    ("in-function", lambda tf: tf.function(lambda v: tf.nn.ctc_loss(_sp(tf, [[1, 1], [0]]), v, None, [5, 5],
                                                                    blank_index=-1))(
        tf.constant(_problem(13, 5, 2, 4)[0], tf.float32))),
    ("v1-defaults", _v1(14, 9, 2, 6)),
    ("v1-collapse", _v1(15, 9, 2, 6, preprocess_collapse_repeated=True)),
    ("v1-no-merge", _v1(16, 9, 2, 6, ctc_merge_repeated=False)),
    ("v1-collapse-no-merge", _v1(17, 9, 2, 6, preprocess_collapse_repeated=True, ctc_merge_repeated=False)),
    ("v1-ignore-longer", lambda tf: tf.compat.v1.nn.ctc_loss(_sp(tf, [[1, 2, 1, 2], [1]]), tf.zeros([3, 2, 4]),
                                                             [3, 3], ignore_longer_outputs_than_inputs=True)),
    ("v1-null-label-ends", lambda tf: tf.compat.v1.nn.ctc_loss(_sp(tf, [[1, 3, 3]]), tf.zeros([4, 1, 4]), [4])),
    ("v1-batch-major", lambda tf: tf.compat.v1.nn.ctc_loss(_sp(tf, [[1, 2]]), tf.zeros([1, 4, 4]), [4],
                                                           time_major=False)),
    ("second-derivative", _second),
    ("err-not-enough-time", lambda tf: tf.nn.ctc_loss(_sp(tf, [[1, 2, 1]]), tf.zeros([2, 1, 4]), None, [2],
                                                      blank_index=-1)),
    ("err-empty-labels-row", lambda tf: tf.nn.ctc_loss(
        tf.SparseTensor(np.array([[0, 0]], np.int64), tf.constant([1]), [2, 1]), tf.zeros([3, 2, 4]), None, [3, 3],
        blank_index=-1)),
    ("err-unordered", lambda tf: tf.nn.ctc_loss(
        tf.SparseTensor(np.array([[0, 1], [0, 0]], np.int64), tf.constant([1, 2]), [1, 2]), tf.zeros([3, 1, 4]), None,
        [3], blank_index=-1)),
    ("err-null-then-label", lambda tf: tf.compat.v1.nn.ctc_loss(_sp(tf, [[3, 1]]), tf.zeros([4, 1, 4]), [4])),
    ("err-negative-label", lambda tf: tf.nn.ctc_loss(_sp(tf, [[-1, 1]]), tf.zeros([4, 1, 4]), None, [4],
                                                     blank_index=-1)),
    ("err-sequence-too-long", lambda tf: tf.nn.ctc_loss(_sp(tf, [[1]]), tf.zeros([3, 1, 4]), None, [4],
                                                        blank_index=-1)),
    ("err-no-blank-index", lambda tf: tf.nn.ctc_loss(_sp(tf, [[1]]), tf.zeros([3, 1, 4]), None, [3])),
    ("err-v1-dense-labels", lambda tf: tf.compat.v1.nn.ctc_loss(tf.constant([[1]]), tf.zeros([3, 1, 4]), [3])),
    ("err-int64-lengths", lambda tf: tf.nn.ctc_loss(_sp(tf, [[1]]), tf.zeros([3, 1, 4]), None,
                                                    tf.constant([3], tf.int64), blank_index=-1)),
]

CASES: list[tuple[str, str, Callable[[Any], Any]]] = [(n, "ops.nn-ctc", f) for n, f in _CASES]

EDGES = edge_compare.EdgeModule(__file__, CASES)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("ops.nn-ctc")
@EDGES.parametrize("ops.nn-ctc")
def test_ctc_loss_sparse_labels(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


def test_every_group_is_tested() -> None:
    assert EDGES.untested() == [], f"groups with no test function: {EDGES.untested()}"


if __name__ == "__main__":  # TF worker: python test_ops8_ctc_loss_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
