"""tf.nn's convolution, pooling, normalization and sampling wrappers as TF 2.21 checks their
arguments (issue 29's fourteenth generator, fz16a's classes), each against real TensorFlow 2.21
(the same call on both backends gives the same dtype and bits, or raises the same exception
class): the candidate samplers' and ComputeAccidentalHits' eager fallback, op-def minimums and
shape functions; the sampled losses' order of reads and their sharded weights; the Python
wrappers' own checks (nn_ops.py) and the C++ shape functions that raise ValueError while a
tf.function is traced. Needs the `tf` extra.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import edge_compare
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause


def _fn(make: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """make(tf) inside a tf.function."""
    return lambda tf: tf.function(lambda: make(tf))()


def _seeded(make: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """make(tf) after tf.random.set_seed(3)."""
    def run(tf: Any) -> Any:
        tf.random.set_seed(3)
        return make(tf)
    return run


def _sharded_grad(tf: Any) -> Any:
    """The gradient of a sampled softmax loss over two weight shards (variables)."""
    tf.random.set_seed(3)
    w = [tf.Variable([[1.0, 2.0], [3.0, 4.0]]), tf.Variable([[5.0, 6.0], [0.5, 1.5]])]
    with tf.GradientTape() as g:
        loss = tf.reduce_sum(tf.nn.sampled_softmax_loss(
            w, tf.constant([0.1, 0.2, 0.3, 0.4]), tf.constant([[1], [3]], tf.int64),
            tf.constant([[1.0, -1.0], [0.5, 2.0]]), num_sampled=2, num_classes=4))
    return [tf.convert_to_tensor(x) for x in g.gradient(loss, w)]


_S = "ops.candidate-samplers"
_L = "ops.sampled-losses"
_I64 = np.int64
CASES: list[tuple[str, str, Callable[[Any], Any]]] = [
    # the eager fallback (a NumPy or tensor attr, a list input) converts a tensor of another dtype: ValueError
    ("uniform sampler bool tensor, np.int64 num_sampled", _S,
     lambda tf: tf.random.uniform_candidate_sampler(tf.constant(True), 3, _I64(2), True, 0, seed=7)),
    ("uniform sampler bool tensor, Python ints", _S,
     lambda tf: tf.random.uniform_candidate_sampler(tf.constant([[True]]), 1, 1, True, 2)),
    ("all sampler float64 tensor, tensor num_sampled", _S,
     lambda tf: tf.random.all_candidate_sampler(tf.constant([[[[-3.0]], [[0.0]]]], tf.float64), 3, tf.constant(2),
                                                True)),
    ("fixed unigram float16 tensor, np.int64 num_sampled", _S,
     lambda tf: tf.nn.fixed_unigram_candidate_sampler(tf.constant([[[2.5]], [[4.0]]], tf.float16), 3, _I64(2), True,
                                                      _I64(2))),
    ("fixed unigram int32 tensor, np.float32 distortion", _S,
     lambda tf: tf.random.fixed_unigram_candidate_sampler(tf.constant([[1]]), 1, 1, True, 2, unigrams=[1.0, 2.0],
                                                          distortion=np.float32(1))),
    ("fixed unigram int32 tensor", _S,
     lambda tf: tf.random.fixed_unigram_candidate_sampler(tf.constant([[1]]), 1, 1, True, 2, unigrams=[1.0, 2.0])),
    ("accidental hits bool tensor, list candidates", _S,
     lambda tf: tf.nn.compute_accidental_hits(tf.constant([[False, False, False]]), [[0]], num_true=-1, seed=7)),
    ("accidental hits bool tensor, tensor candidates", _S,
     lambda tf: tf.nn.compute_accidental_hits(tf.constant([[False]]), tf.constant([1], tf.int64), 1)),
    # the op def's minimums (num_true, num_sampled, range_max >= 1)
    ("log-uniform num_sampled 0", _S, lambda tf: tf.random.log_uniform_candidate_sampler(
        np.array([-1, 3, -1], np.int32), num_true=2, num_sampled=0, unique=False, range_max=-1)),
    ("log-uniform num_sampled 0 traced", _S, _fn(lambda tf: tf.random.log_uniform_candidate_sampler(
        np.array([-1, 3, -1], np.int32), num_true=2, num_sampled=0, unique=False, range_max=-1))),
    ("uniform range_max 0", _S, lambda tf: tf.random.uniform_candidate_sampler(
        tf.constant([[1]], tf.int64), 1, 1, True, 0)),
    ("uniform range_max 0 traced", _S, _fn(lambda tf: tf.random.uniform_candidate_sampler(
        tf.constant([1], tf.int64), 1, 1, True, 0))),
    ("uniform bool tensor traced", _S, _fn(lambda tf: tf.random.uniform_candidate_sampler(
        tf.constant([[True]]), 1, 1, True, 2))),
    # the shape functions in a tf.function
    ("log-uniform rank-0 classes traced", _S, _fn(lambda tf: tf.random.log_uniform_candidate_sampler(
        true_classes=np.array(0.5, np.float32), num_true=2, num_sampled=1, unique=True, range_max=_I64(2), seed=7))),
    ("all sampler rank-4 classes traced", _S, _fn(lambda tf: tf.nn.all_candidate_sampler(
        np.array([[[[2, 0, 0]]]], np.int64), 5, num_sampled=1, unique=True, seed=7))),
    ("uniform num_true columns traced", _S, _fn(lambda tf: tf.random.uniform_candidate_sampler(
        tf.constant([[1, 2]], tf.int64), 1, 1, True, 2))),
    ("accidental hits rank-1 classes traced", _S,
     _fn(lambda tf: tf.nn.compute_accidental_hits(tf.constant([1], tf.int64), [1], 1))),
    ("accidental hits rank-2 candidates traced", _S,
     _fn(lambda tf: tf.nn.compute_accidental_hits(tf.constant([[1]], tf.int64), [[1]], 1))),
    ("accidental hits num_true columns traced", _S,
     _fn(lambda tf: tf.nn.compute_accidental_hits(tf.constant([[1]], tf.int64), [1], 2))),
    ("accidental hits traced", _S, _fn(lambda tf: tf.nn.compute_accidental_hits(tf.constant([[1]], tf.int64), [1], 1))),
    ("accidental hits int32 classes traced", _S,
     _fn(lambda tf: tf.nn.compute_accidental_hits(tf.constant([[1]]), [1], 1))),
    # the sampled losses: labels.dtype read first, then the sampler, the lookups, inputs.dtype
    ("nce_loss int labels", _L, lambda tf: tf.nn.nce_loss(
        weights=[[[[5, 1]]]], biases=2.5, labels=2, inputs=(tf.constant(1, tf.int16),), num_sampled=5,
        num_classes=-1)),
    ("nce_loss float labels", _L, lambda tf: tf.nn.nce_loss(
        np.array(2.5, np.float16), biases=0, labels=0.5, inputs=(tf.constant([], tf.int32),), num_sampled=_I64(2),
        num_classes=5, num_true=tf.constant(2), remove_accidental_hits="yes")),
    ("nce_loss bool labels, 4 shards", _L, lambda tf: tf.nn.nce_loss(
        weights=float("inf"), biases=[[1.0, 0.25], [0.5, -1.5], [1.0, 0.0], [0.0, 2.5]],
        labels=tf.constant([[True, False], [True, False], [True, True], [True, True]]),
        inputs=[2 ** 31, tf.constant([[4.0, 1.0], [0.25, 0.001], [-0.0, 0.25], [1.0, -1.0]])], num_sampled=1,
        num_classes=2)),
    ("nce_loss rank-1 labels", _L, lambda tf: tf.nn.nce_loss(
        np.array([-4, -1, 0, 0], np.int64), [0, -4, 5, 1], np.array([0, -1, 5, -1], np.int64),
        inputs=[2.5, 2, tf.constant([-4, -4, -1, 3], tf.int64)], num_sampled=2, num_classes=3, num_true=1,
        remove_accidental_hits=1)),
    ("sampled_softmax list labels", _L, lambda tf: tf.nn.sampled_softmax_loss(
        weights=2.5, biases=[[-3.0]], labels=[[0.5]], inputs=[0.5, [[0]], np.array([[5]], np.int16)],
        num_sampled=2, num_classes=2, num_true=3)),
    ("sampled_softmax num_true -1", _L, lambda tf: tf.nn.sampled_softmax_loss(
        [[0.25, 4.0, 0.5, -1.5], [4.0, 0.5, 0.0, -1.5]], biases=[[0.0, 0.5, 1.0, 0.25], [-3.0, 7.0, -0.0, 0.25]],
        labels=np.array(2.5, np.float16), inputs=(tf.constant([[-1.5, 1.0, 0.5, 4.0]], tf.float16),),
        num_sampled=2, num_classes=3, num_true=-1, remove_accidental_hits=False)),
    ("sampled_softmax num_sampled 0", _L, lambda tf: tf.nn.sampled_softmax_loss(
        3, biases=2.5, labels=tf.constant(-2147483648, tf.int32), inputs=[[-0.0], [-1], 1e-40], num_sampled=0,
        num_classes=1)),
    ("nce_loss scalar bias shards", _L, _seeded(lambda tf: tf.nn.nce_loss(
        [tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]), tf.constant([[0.5, 1.5], [2.5, 3.5]])],
        [0.1, 0.2, 0.3, 0.4, 0.5], tf.constant([[1], [4]], tf.int64), tf.constant([[1.0, -1.0], [0.5, 2.0]]),
        num_sampled=3, num_classes=5))),
    ("sampled_softmax 3 weight shards", _L, _seeded(lambda tf: tf.nn.sampled_softmax_loss(
        [[[1.0, 2.0], [3.0, 4.0]], [[5.0, 6.0], [0.5, 1.5]], [[2.5, 3.5], [1.0, 1.0]]],
        tf.constant([0.1, 0.2, 0.3, 0.4, 0.5, 0.6]), tf.constant([[1], [4]], tf.int64),
        tf.constant([[1.0, -1.0], [0.5, 2.0]]), num_sampled=3, num_classes=6))),
    ("nce_loss 2 weight shards of 5 rows", _L, _seeded(lambda tf: tf.nn.nce_loss(
        [tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]), tf.constant([[0.5, 1.5], [2.5, 3.5]])],
        tf.constant([0.1, 0.2, 0.3, 0.4, 0.5]), tf.constant([[1], [4]], tf.int64),
        tf.constant([[1.0, -1.0], [0.5, 2.0]]), num_sampled=3, num_classes=5))),
    ("sampled_softmax sharded gradient", _L, _sharded_grad),
]

EDGES = edge_compare.EdgeModule(__file__, CASES)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause(_S)
@EDGES.parametrize(_S)
def test_candidate_sampler_checks(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause(_L)
@EDGES.parametrize(_L)
def test_sampled_loss_reads_and_shards(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


def test_every_case_has_a_test() -> None:
    untested = EDGES.untested()
    assert not untested, f"cases of groups {untested} have no test function above"


if __name__ == "__main__":  # TF worker: python test_fz16a_edges_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
