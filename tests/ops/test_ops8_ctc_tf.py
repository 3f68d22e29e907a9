"""tf.nn.ctc_greedy_decoder, tf.nn.ctc_beam_search_decoder (and tf.compat.v1's, with
merge_repeated) and tf.nn.ctc_unique_labels against real TensorFlow 2.21: decoded SparseTensors
(indices, values, dense shapes), log probabilities bit for bit in float32 and float64, beams of
tied entries (TF's gtl::TopN order), sequence lengths, blank_index, errors. Needs the `tf`
extra (or its golden)."""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import edge_compare
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause


def _logits(seed: int, t: int, b: int, c: int, scale: float = 2.0, rounded: bool = False) -> np.ndarray:
    x = np.random.default_rng(seed).normal(size=(t, b, c)) * scale
    return np.round(x) if rounded else x


def _o(out: Any) -> Any:
    decoded, log_prob = out
    return [[d.indices, d.values, d.dense_shape] for d in decoded] + [log_prob]


def _greedy(seed: int, dtype: str, lens: list[int], **kw: Any) -> Callable[[Any], Any]:
    x = _logits(seed, 6, len(lens), 5)
    return lambda tf: _o(tf.nn.ctc_greedy_decoder(tf.constant(x, getattr(tf, dtype)), lens, **kw))


def _beam(seed: int, dtype: str, lens: list[int], c: int = 5, v1: bool = False, rounded: bool = False,
          **kw: Any) -> Callable[[Any], Any]:
    x = _logits(seed, 7, len(lens), c, rounded=rounded)

    def run(tf: Any) -> Any:
        fn = tf.compat.v1.nn.ctc_beam_search_decoder if v1 else tf.nn.ctc_beam_search_decoder
        return _o(fn(tf.constant(x, getattr(tf, dtype)), lens, **kw))
    return run


_GREEDY: list[tuple[str, Callable[[Any], Any]]] = [
    ("float32", _greedy(1, "float32", [6, 3, 0])),
    ("float64", _greedy(2, "float64", [6, 6, 1])),
    ("no-merge", _greedy(3, "float32", [6, 4], merge_repeated=False)),
    ("blank-0", _greedy(4, "float32", [6, 5], blank_index=0)),
    ("blank-negative", _greedy(5, "float64", [6, 5], blank_index=-3, merge_repeated=False)),
    ("blank-out-of-range", _greedy(6, "float32", [6], blank_index=5)),
    ("numpy-float64", lambda tf: _o(tf.nn.ctc_greedy_decoder(_logits(7, 4, 2, 3), [4, 2]))),
    ("python-floats-are-float32", lambda tf: _o(tf.nn.ctc_greedy_decoder(_logits(7, 4, 2, 3).tolist(), [4, 2]))),
    ("numpy-float16-is-float32", lambda tf: _o(tf.nn.ctc_greedy_decoder(_logits(7, 4, 2, 3).astype(np.float16),
                                                                        [4, 2]))),
    ("nan-first-wins", lambda tf: _o(tf.nn.ctc_greedy_decoder(
        tf.constant([[[np.nan, 1.0, 2.0]], [[1.0, np.nan, 0.0]]]), [2]))),
    ("length-too-long", _greedy(8, "float32", [7, 1])),
    ("length-count", lambda tf: tf.nn.ctc_greedy_decoder(tf.zeros([3, 2, 4]), [3])),
    ("negative-length", _greedy(10, "float32", [-1, 3])),
    ("rank-2", lambda tf: tf.nn.ctc_greedy_decoder(tf.zeros([3, 4]), [3])),
    ("empty", lambda tf: tf.nn.ctc_greedy_decoder(tf.zeros([0, 2, 4]), [0, 0])),
    ("int64-lengths", lambda tf: tf.nn.ctc_greedy_decoder(tf.zeros([3, 1, 4]), tf.constant([3], tf.int64))),
    ("half", lambda tf: tf.nn.ctc_greedy_decoder(tf.zeros([3, 1, 4], tf.float16), [3])),
    ("in-function", lambda tf: _o(tf.function(lambda x, s: tf.nn.ctc_greedy_decoder(x, s))(
        tf.constant(_logits(11, 5, 2, 4), tf.float32), tf.constant([5, 2])))),
]

_BEAM: list[tuple[str, Callable[[Any], Any]]] = [
    ("float32", _beam(21, "float32", [7, 4, 1])),
    ("float64", _beam(22, "float64", [7, 5, 2])),
    ("top-paths-3", _beam(23, "float32", [7, 6], beam_width=7, top_paths=3)),
    ("top-paths-3-float64", _beam(24, "float64", [7, 6], beam_width=7, top_paths=3)),
    ("narrow-beam", _beam(25, "float32", [7, 7], c=8, beam_width=2, top_paths=2)),
    ("width-1", _beam(26, "float64", [7, 3], c=6, beam_width=1)),
    ("wide-beam", _beam(27, "float32", [7, 7], c=6, beam_width=40, top_paths=5)),
    ("v1-merge-repeated", _beam(28, "float32", [7, 5], v1=True, beam_width=5, top_paths=2)),
    ("v1-no-merge", _beam(29, "float64", [7, 5], v1=True, beam_width=5, top_paths=2, merge_repeated=False)),
    ("ties-rounded", _beam(30, "float32", [7, 6], c=4, rounded=True, beam_width=10, top_paths=4)),
    ("ties-rounded-wide", _beam(31, "float32", [7, 7], c=5, rounded=True, beam_width=25, top_paths=5)),
    ("ties-zeros", lambda tf: _o(tf.nn.ctc_beam_search_decoder(tf.zeros([3, 1, 3]), [3], beam_width=4,
                                                              top_paths=2))),
    ("ties-zeros-v1", lambda tf: _o(tf.compat.v1.nn.ctc_beam_search_decoder(tf.zeros([4, 2, 4]), [4, 2],
                                                                           beam_width=20, top_paths=3))),
    ("more-paths-than-width", lambda tf: tf.nn.ctc_beam_search_decoder(tf.zeros([3, 1, 3]), [3], beam_width=2,
                                                                       top_paths=3)),
    ("more-paths-than-leaves", lambda tf: tf.nn.ctc_beam_search_decoder(tf.zeros([3, 1, 3]), [0], beam_width=4,
                                                                        top_paths=2)),
    ("width-0", lambda tf: tf.nn.ctc_beam_search_decoder(tf.zeros([3, 1, 3]), [3], beam_width=0)),
    ("length-too-long", _beam(32, "float32", [8])),
    ("half", lambda tf: tf.nn.ctc_beam_search_decoder(tf.zeros([3, 1, 4], tf.float16), [3])),
    ("gradient-none", lambda tf: _decoder_gradient(tf)),
]

_UNIQUE: list[tuple[str, Callable[[Any], Any]]] = [
    ("int32", lambda tf: list(tf.nn.ctc_unique_labels([[3, 4, 4, 3], [1, 1, 0, 0]]))),
    ("int64", lambda tf: list(tf.nn.ctc_unique_labels(tf.constant([[3, 4, 4, 3], [5, 6, 7, 8]], tf.int64)))),
    ("floats", lambda tf: list(tf.nn.ctc_unique_labels([[1.5, 2.5, 1.5]]))),
    ("rank-1", lambda tf: tf.nn.ctc_unique_labels([3, 4])),
    ("in-function", lambda tf: list(tf.function(tf.nn.ctc_unique_labels)(tf.constant([[2, 2, 9], [0, 1, 0]])))),
]


def _decoder_gradient(tf: Any) -> Any:
    x = tf.constant(_logits(40, 4, 1, 3), tf.float32)
    with tf.GradientTape() as tape:
        tape.watch(x)
        _, lp = tf.nn.ctc_beam_search_decoder(x, [4])
        _, lp2 = tf.nn.ctc_greedy_decoder(x, [4])
        y = tf.reduce_sum(lp) + tf.reduce_sum(lp2)
    return [y, tf.constant(tape.gradient(y, x) is None)]


CASES: list[tuple[str, str, Callable[[Any], Any]]] = (
    [(f"greedy-{n}", "greedy", f) for n, f in _GREEDY] + [(f"beam-{n}", "beam", f) for n, f in _BEAM]
    + [(f"unique-{n}", "unique", f) for n, f in _UNIQUE])

EDGES = edge_compare.EdgeModule(__file__, CASES)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("ops.nn-ctc")
@EDGES.parametrize("greedy")
def test_ctc_greedy_decoder(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.nn-ctc")
@EDGES.parametrize("beam")
def test_ctc_beam_search_decoder(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.nn-ctc")
@EDGES.parametrize("unique")
def test_ctc_unique_labels(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


def test_every_group_is_tested() -> None:
    assert EDGES.untested() == [], f"groups with no test function: {EDGES.untested()}"


if __name__ == "__main__":  # TF worker: python test_ops8_ctc_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
