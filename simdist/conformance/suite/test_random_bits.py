"""TF 2.21's random numbers bit for bit (ops.random-bits): the stateful tf.random.normal, uniform
(float and int), truncated_normal, categorical and shuffle, under a global seed, an op seed and
inside a tf.function called twice, and the stateless normal, truncated_normal and categorical.
Observed on TF 2.21 (tensorflow-cpu 2.21.0, x86) and written here as bits; the live differential
test is tests/ops/test_random_bits_tf.py. Every test sets its own global seed first."""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_equal

clause = pytest.mark.clause

_P3 = np.log([[0.2, 0.3, 0.5], [0.6, 0.3, 0.1]]).astype(np.float32)


def _bits(backend, x, width=32):
    a = np.asarray(backend.to_numpy(x))
    return [hex(v) for v in a.astype(np.float32 if width == 32 else np.float64).view(
        np.uint32 if width == 32 else np.uint64).reshape(-1).tolist()]


@clause("ops.random-bits", ref="tf221")
def test_stateful_draws_are_tfs(backend):
    tf = backend.tf
    tf.random.set_seed(0)
    assert_equal(_bits(backend, tf.random.normal([5])),
                 ["0x3fc16a80", "0x3ed8893d", "0xbed6e241", "0xbf849cde", "0xbf9e5060"],
                 call="set_seed(0); normal([5])", what="float32 bits")
    got = [_bits(backend, tf.random.uniform([3], seed=7)) for _ in range(2)]
    assert_equal(got, [["0x3f78b7ba", "0x3f384a82", "0x3f3fa3e6"], ["0x3f6cf8c8", "0x3ed62c90", "0x3edc0a94"]],
                 call="uniform([3], seed=7) twice (the kernel's stream continues)", what="float32 bits")
    assert_equal(_bits(backend, tf.random.truncated_normal([6], seed=7, dtype=tf.float64), 64),
                 ["0xbfa9f837f4b5ff24", "0x3fe6f05af502fc6d", "0xbff2b314f3c63964", "0x3fd3770b7309de5c",
                  "0x3ff85e4a50ef830d", "0xbfe8f2c7a4de40ef"],
                 call="truncated_normal([6], seed=7, float64)", what="float64 bits")
    assert_equal(np.asarray(backend.to_numpy(tf.random.uniform([5], 0, 100, tf.int32, seed=1))).tolist(),
                 [97, 46, 75, 16, 30], call="uniform([5], 0, 100, int32, seed=1)", what="values")
    assert_equal(np.asarray(backend.to_numpy(tf.random.categorical(_P3, 5, seed=2))).tolist(),
                 [[0, 0, 0, 0, 1], [2, 1, 0, 0, 1]], call="categorical(log [[.2, .3, .5], [.6, .3, .1]], 5, seed=2)",
                 what="classes")
    assert_equal(np.asarray(backend.to_numpy(tf.random.shuffle(tf.range(8), seed=3))).tolist(),
                 [4, 5, 2, 1, 6, 7, 3, 0], call="shuffle(range(8), seed=3)", what="order")


@clause("ops.random-bits", ref="tf221")
def test_seeded_draws_in_a_function_continue_across_calls(backend):
    tf = backend.tf
    tf.random.set_seed(0)
    fn = tf.function(lambda: tf.random.normal([2], seed=4))
    got = [_bits(backend, fn()) for _ in range(2)]
    assert_equal(got, [["0x3fc4b9d2", "0x3ee6bb1b"], ["0xbf2f835d", "0x3ffb7f4d"]],
                 call="set_seed(0); f = tf.function(normal([2], seed=4)); f(); f()", what="float32 bits")


@clause("ops.random-bits", ref="tf221")
def test_stateless_draws_are_tfs(backend):
    tf = backend.tf
    assert_equal(_bits(backend, tf.random.stateless_normal([5], [1, 2])),
                 ["0x3f0b4acd", "0x3e545b81", "0x3d96a8e4", "0x3d3e3228", "0xbfa69a7f"],
                 call="stateless_normal([5], [1, 2])", what="float32 bits")
    assert_equal(_bits(backend, tf.random.stateless_truncated_normal([3], [1, 2], dtype=tf.float64), 64),
                 ["0xbfc23745fceed393", "0x3fe7b30df7adce2e", "0xbfe1ad29167909a9"],
                 call="stateless_truncated_normal([3], [1, 2], float64)", what="float64 bits")
    assert_equal(np.asarray(backend.to_numpy(tf.random.stateless_categorical(_P3[:1], 6, [5, 6]))).tolist(),
                 [[0, 1, 1, 1, 1, 0]], call="stateless_categorical(log [[.2, .3, .5]], 6, [5, 6])", what="classes")


@clause("ops.random-in-function", ref="tf221")
def test_seedless_draws_in_a_function_take_the_graphs_op_seeds(backend):
    """Inside a tf.function a seedless op's seeds are (graph seed, the graph's counter from 0), so
    they equal an eager op's with that op seed; tracing leaves the eager sequence alone; each
    function, branch and trace has its own counter and kernels; set_seed restarts the streams and
    keeps the graph seed."""
    tf = backend.tf

    def eager(op_seeds, gs=1, calls=1):
        tf.random.set_seed(gs)
        return [[_bits(backend, tf.random.uniform([3], seed=s)) for s in op_seeds] for _ in range(calls)]

    tf.random.set_seed(1)
    f = tf.function(lambda: [tf.random.uniform([3]), tf.random.uniform([3])])
    got = [[_bits(backend, x) for x in f()] for _ in range(2)]
    after = _bits(backend, tf.random.uniform([3]))
    assert_equal(got, eager([0, 1], calls=2), call="set_seed(1); f = tf.function(2 x uniform([3])); f(); f()",
                 what="float32 bits (should be eager uniform(seed=0), uniform(seed=1), twice: op seeds 0 and 1)")
    tf.random.set_seed(1)
    assert_equal(after, _bits(backend, tf.random.uniform([3])),
                 call="uniform([3]) after calling f, against the first eager draw after set_seed(1)",
                 what="float32 bits (tracing must not advance the eager op-seed sequence)")
    tf.random.set_seed(1)
    g = tf.function(lambda: tf.random.uniform([3]))
    h = tf.function(lambda p: tf.cond(p, lambda: tf.random.uniform([3]), lambda: -tf.random.uniform([3])))
    first = eager([0])[0][0]
    tf.random.set_seed(1)
    assert_equal([_bits(backend, g()), _bits(backend, h(tf.constant(True))),
                  _bits(backend, -h(tf.constant(False)))], [first, first, first],
                 call="set_seed(1); g = tf.function(uniform([3])); h = tf.function(tf.cond(p, uniform, -uniform))",
                 what="float32 bits (each a graph of its own: op seed 0, own kernel)")
    tf.random.set_seed(5)
    assert_equal(_bits(backend, g()), first, call="set_seed(5); g() again",
                 what="float32 bits (the stream restarts; the trace keeps graph seed 1)")


@clause("ops.random-in-function", ref="tf221")
def test_seedless_draws_in_a_tf_data_function_are_a_graphs(backend):
    """A tf.data function is traced when the dataset is made (op seeds from 0 under the global
    seed, eager sequence untouched); each iterator instantiates it with fresh kernels, which
    continue across its elements and across a repeat inside it."""
    tf = backend.tf

    def values(ds):
        return [_bits(backend, x) for x in ds]

    tf.random.set_seed(1)
    ds = tf.data.Dataset.range(3).map(lambda x: tf.random.uniform([2]))
    after = _bits(backend, tf.random.uniform([2]))
    tf.random.set_seed(1)
    assert_equal(after, _bits(backend, tf.random.uniform([2])),
                 call="set_seed(1); ds = Dataset.range(3).map(lambda x: uniform([2])); uniform([2])",
                 what="float32 bits (making the dataset must not advance the eager op-seed sequence)")
    first, second = values(ds), values(ds)
    assert_equal(second, first, call="two passes over ds", what="float32 bits (each iterator: fresh kernels)")
    tf.random.set_seed(1)   # a fresh eager kernel of (1, 0), the function's op seed 0, called three times
    assert_equal(first, [_bits(backend, tf.random.uniform([2], seed=0)) for _ in range(3)],
                 call="set_seed(1); elements of Dataset.range(3).map(lambda x: uniform([2]))",
                 what="float32 bits (should be one stream of op seed 0, continued across the elements)")
    both = values(ds.repeat(2))
    assert_equal(both[:3], first, call="ds.repeat(2)", what="float32 bits of the first repetition")
    assert both[3:] != first, ("ds.repeat(2) drew the first repetition's numbers again: inside one iterator the "
                               "function's kernels continue [tf.data function, repeat]")
