"""tf.random.Generator, the global generator and the stateless seed helpers (tf.random.split,
fold_in, experimental.stateless_split/stateless_fold_in) against real TensorFlow 2.21: every draw
bit for bit (TF's Philox streams: RngReadAndSkip's counter skip of 256 per value, the key/counter
kernels' uniform, integer, Box-Muller normal and truncated-normal distributions), the state after
each draw, dtypes, TF's errors, gradients through mean/stddev, and draws inside a tf.function
called several times. Every case makes its own generator, so its outcome does not depend on the
cases before it. Needs the `tf` extra (or its golden)."""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import edge_compare
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause


def _gen(seed: Any, fn: Callable[[Any, Any], Any], alg: Any = None) -> Callable[[Any], Any]:
    """A program: fn(tf, Generator.from_seed(seed)) and the generator's state after it."""
    def run(tf: Any) -> Any:
        g = tf.random.Generator.from_seed(seed) if alg is None else tf.random.Generator.from_seed(seed, alg=alg)
        out = fn(tf, g)
        return [out, tf.convert_to_tensor(g.state.read_value())]
    return run


def _grads(tf: Any) -> Any:
    g = tf.random.Generator.from_seed(11)
    m, s = tf.Variable(0.5), tf.Variable(2.0)
    with tf.GradientTape() as tape:
        y = g.normal([4], mean=m, stddev=s)
        loss = tf.reduce_sum(y * tf.constant([1.0, 2.0, 3.0, 4.0]))
    return [y] + list(tape.gradient(loss, [m, s]))


def _in_function(tf: Any) -> Any:
    g = tf.random.Generator.from_seed(21)
    f = tf.function(lambda x: g.normal([3]) + x + g.uniform([2], dtype=tf.float64)[0] * 0.0)
    outs = [f(tf.constant(1.0)) for _ in range(3)]
    return outs + [tf.convert_to_tensor(g.state.read_value())]


def _global(tf: Any) -> Any:
    g = tf.random.Generator.from_seed(99)
    tf.random.set_global_generator(g)
    return [tf.random.get_global_generator().normal([2]), tf.convert_to_tensor(g.state.read_value())]


_STRATEGIES: dict[str, Any] = {}


def _strategy(tf: Any) -> Any:
    """MirroredStrategy on two logical CPUs (simdist's on a fresh simulation, TF's once per worker:
    as tests/ops/test_fuzz2_edges_tf.py)."""
    simdist_tf = tf.__name__.startswith("simdist")
    if simdist_tf or tf.__name__ not in _STRATEGIES:
        if simdist_tf:
            import simdist
            simdist.reset()
        cpu = tf.config.list_physical_devices("CPU")[0]
        tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 2)
        _STRATEGIES[tf.__name__] = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
    return _STRATEGIES[tf.__name__]


def _states(tf: Any, s: Any, g: Any) -> list:
    return [tf.convert_to_tensor(v) for v in s.experimental_local_results(g.state)]


def _replicas(tf: Any) -> Any:
    """A generator made in the strategy's scope: each replica draws with its own key and advances
    its own copy; a draw outside run is cross-replica (every copy advanced)."""
    s = _strategy(tf)
    with s.scope():
        g = tf.random.Generator.from_seed(5)
    out = [g.normal([2])] + _states(tf, s, g)
    with s.scope():
        out += [g.uniform([3])] + _states(tf, s, g)
    r = s.run(lambda: [g.normal([3]), g.uniform([2], dtype=tf.float64), g.uniform_full_int([2], tf.int64)])
    out += [t for part in r for t in s.experimental_local_results(part)] + _states(tf, s, g)
    return out


def _replicas_plain(tf: Any) -> Any:
    """A generator made outside any strategy, drawn from in strategy.run: no key mixing; the
    replicas advance the one state in replica order."""
    s = _strategy(tf)
    g = tf.random.Generator.from_seed(5)
    r = s.run(lambda: g.normal([3]))
    return list(s.experimental_local_results(r)) + [tf.convert_to_tensor(g.state.read_value())]


_DRAWS: list[tuple[str, Callable[[Any], Any]]] = [
    ("strategy-replicas", _replicas),
    ("strategy-plain-generator", _replicas_plain),
    ("normal-float32-many", _gen(1, lambda tf, g: g.normal([6000]))),
    ("normal-float32-odd-shape", _gen(12345, lambda tf, g: g.normal([3, 5, 7]))),
    ("normal-float64", _gen(2, lambda tf, g: g.normal([2001], dtype=tf.float64))),
    ("normal-float16", _gen(3, lambda tf, g: g.normal([999], dtype=tf.float16))),
    ("normal-bfloat16", _gen(4, lambda tf, g: g.normal([33], dtype=tf.bfloat16))),
    ("normal-mean-stddev", _gen(5, lambda tf, g: g.normal([5, 2], mean=3.0, stddev=0.25))),
    ("normal-scalar-and-empty", _gen(6, lambda tf, g: [g.normal([]), g.normal([0, 3]), g.normal([2])])),
    ("uniform-float32", _gen(7, lambda tf, g: g.uniform([1001]))),
    ("uniform-float64-range", _gen(8, lambda tf, g: g.uniform([501], minval=-2.0, maxval=5.0, dtype=tf.float64))),
    ("uniform-float16", _gen(9, lambda tf, g: g.uniform([37], dtype=tf.float16))),
    ("uniform-bfloat16", _gen(9, lambda tf, g: g.uniform([37], dtype=tf.bfloat16))),
    ("uniform-int32", _gen(10, lambda tf, g: g.uniform([101], minval=-7, maxval=1000, dtype=tf.int32))),
    ("uniform-int64", _gen(10, lambda tf, g: g.uniform([51], minval=-2**40, maxval=2**50, dtype=tf.int64))),
    ("uniform-full-int-default-uint64", _gen(13, lambda tf, g: g.uniform_full_int([9]))),
    ("uniform-full-int-types", _gen(13, lambda tf, g: [g.uniform_full_int([5], d) for d in
                                                       (tf.int32, tf.int64, tf.uint32, tf.uint64)])),
    ("uniform-int-minval-none", _gen(13, lambda tf, g: g.uniform([3], minval=None, maxval=None, dtype=tf.int64))),
    ("truncated-normal-float32", _gen(14, lambda tf, g: g.truncated_normal([2003]))),
    ("truncated-normal-float64", _gen(15, lambda tf, g: g.truncated_normal([601], dtype=tf.float64))),
    ("truncated-normal-float16", _gen(16, lambda tf, g: g.truncated_normal([99], mean=1.0, stddev=2.0,
                                                                           dtype=tf.float16))),
    ("state-advances", _gen(17, lambda tf, g: [g.normal([3]), tf.convert_to_tensor(g.state.read_value()),
                                               g.uniform([1]), tf.convert_to_tensor(g.state.read_value())])),
    ("seed-large-int", _gen(2**70 + 5, lambda tf, g: g.normal([4]))),
    ("seed-negative-int", _gen(-3, lambda tf, g: g.normal([4]))),
    ("seed-list", _gen([1, 2], lambda tf, g: g.normal([4]))),
    ("seed-long-list", _gen([1, 2, 3, 4, 5], lambda tf, g: g.normal([4]))),
    ("counter-carry", lambda tf: (lambda g: [g.normal([6]), tf.convert_to_tensor(g.state.read_value())])(
        tf.random.Generator.from_state([-1, 7, 3], alg="philox"))),
    ("from-key-counter", lambda tf: (lambda g: [g.uniform([5]), tf.convert_to_tensor(g.state.read_value())])(
        tf.random.Generator.from_key_counter(key=123, counter=[4, 5], alg=tf.random.Algorithm.PHILOX))),
    ("auto-select", _gen(3, lambda tf, g: [g.normal([2]), tf.constant(g.algorithm)], alg="auto_select")),
    ("threefry-draw", _gen(3, lambda tf, g: g.normal([2]), alg="threefry")),
    ("split", lambda tf: (lambda g: [t.normal([3]) for t in g.split(3)] + [tf.convert_to_tensor(g.state.read_value())])(
        tf.random.Generator.from_seed(7))),
    ("split-states", lambda tf: [tf.convert_to_tensor(t.state.read_value())
                                 for t in tf.random.Generator.from_seed(7).split(2)]),
    ("make-seeds", _gen(7, lambda tf, g: g.make_seeds(4))),
    ("make-seeds-feed-stateless", _gen(8, lambda tf, g: tf.random.stateless_uniform([3], seed=g.make_seeds(1)[:, 0]))),
    ("skip", _gen(1, lambda tf, g: [g.skip(5), g.normal([2])])),
    ("reset-from-seed", _gen(1, lambda tf, g: [g.normal([2]), (g.reset_from_seed(1), g.normal([2]))[1]])),
    ("reset-state", _gen(1, lambda tf, g: (g.reset([5, 0, 9]), g.uniform([3]))[1])),
    ("copy-from", lambda tf: (lambda g: [tf.random.Generator(copy_from=g).normal([3]), g.normal([3])])(
        tf.random.Generator.from_seed(4))),
    ("create-rng-state", lambda tf: [tf.random.create_rng_state(2**70 + 5, "philox"),
                                     tf.random.create_rng_state([1, 2], "threefry"),
                                     tf.random.create_rng_state(7, 3)]),
    ("in-function", _in_function),
    ("set-global-generator", _global),
    ("gradient-mean-stddev", _grads),
    # errors
    ("uniform-int-one-bound", _gen(1, lambda tf, g: g.uniform([3], minval=0, dtype=tf.int32))),
    ("uniform-int-empty-range", _gen(1, lambda tf, g: g.uniform([3], minval=5, maxval=5, dtype=tf.int32))),
    ("normal-negative-dim", _gen(1, lambda tf, g: g.normal([-1]))),
    ("bad-alg", lambda tf: tf.random.Generator.from_seed(1, alg="mt19937")),
    ("bad-state-shape", lambda tf: tf.random.Generator.from_state([1, 2], alg="philox")),
]

_SEEDS: list[tuple[str, Callable[[Any], Any]]] = [
    ("split-int32", lambda tf: tf.random.split([1, 2], 3)),
    ("split-int64", lambda tf: tf.random.split(tf.constant([-5, 2**40], tf.int64), 4)),
    ("split-default", lambda tf: tf.random.split(tf.constant([7, 8]))),
    ("fold-in-int32", lambda tf: tf.random.fold_in([1, 2], 5)),
    ("fold-in-int64-data", lambda tf: tf.random.fold_in(tf.constant([3, 4], tf.int64), tf.constant(2**35, tf.int64))),
    ("stateless-split", lambda tf: tf.random.experimental.stateless_split([1, 2], 2)),
    ("stateless-fold-in", lambda tf: tf.random.experimental.stateless_fold_in([9, 9], 0)),
    ("split-then-draw", lambda tf: [tf.random.stateless_uniform([2], seed=s) for s in tf.random.split([5, 6], 2)]),
    ("split-bad-seed", lambda tf: tf.random.split([1, 2, 3], 2)),
    ("binomial-inversion", lambda tf: tf.random.stateless_binomial([5, 3], [1, 2], [3., 10., 50.], [0.3, 0.05, 0.6])),
    ("binomial-btrs", lambda tf: tf.random.stateless_binomial([4, 2], [7, -3], [100., 1000.], [0.4, 0.9],
                                                              output_dtype=tf.float64)),
    ("binomial-edges", lambda tf: tf.random.stateless_binomial([3, 5], [7, 3], [0., -1., 5., 5., 20.],
                                                               [0.5, 0.5, 0., 1., np.nan], output_dtype=tf.float32)),
    ("binomial-float64", lambda tf: tf.random.stateless_binomial([200], [1, 1], tf.constant(40., tf.float64),
                                                                 tf.constant(0.5, tf.float64))),
    ("binomial-float16", lambda tf: tf.random.stateless_binomial([50], [1, 1], tf.constant(40., tf.float16),
                                                                 tf.constant(0.3, tf.float16), output_dtype=tf.int64)),
    ("binomial-broadcast", lambda tf: tf.random.stateless_binomial([2, 3, 4], [9, 9], np.full((3, 1), 25., np.float32),
                                                                   np.array([0.1, 0.45, 0.55, 0.99], np.float32))),
    ("binomial-int-params", lambda tf: tf.random.stateless_binomial([5], [1, 1], tf.constant(40), tf.constant(3))),
    ("binomial-shape-suffix", lambda tf: tf.random.stateless_binomial([3], [1, 1], [1., 2.], [0.5, 0.5])),
    ("binomial-incompatible", lambda tf: tf.random.stateless_binomial([2, 3], [1, 1], [1., 2.], [0.5, 0.5, 0.5])),
    # (the states as NumPy copies: TF 2.21's read of the state aliases the buffer StatefulRandomBinomial
    # then updates in place, so a state tensor read before a later binomial draw shows the later state)
    ("generator-binomial", lambda tf: (lambda g: [g.binomial([2], [10., 20.], [0.8]), g.state.numpy(),
                                                  g.binomial([3, 4, 3, 4, 2], np.full((3, 1, 2), 30., np.float32),
                                                             np.full((1, 4, 2), 0.3, np.float32)),
                                                  g.state.numpy()])(
        tf.random.Generator.from_seed(234))),
    ("stateless-shuffle-vector", lambda tf: tf.random.experimental.stateless_shuffle(tf.range(10), [1, 2])),
    ("stateless-shuffle-rows", lambda tf: tf.random.experimental.stateless_shuffle(
        np.arange(60, dtype=np.float32).reshape(20, 3), [5, -7])),
    ("stateless-shuffle-long-int64-seed", lambda tf: tf.random.experimental.stateless_shuffle(
        tf.range(1000), tf.constant([2**40, 3], tf.int64))),
    ("stateless-shuffle-scalar-and-one", lambda tf: [tf.random.experimental.stateless_shuffle(tf.constant(5.0), [1, 2]),
                                                     tf.random.experimental.stateless_shuffle([[1, 2]], [1, 2])]),
    ("stateless-shuffle-bad-seed", lambda tf: tf.random.experimental.stateless_shuffle(tf.range(5), [1, 2, 3])),
    ("index-shuffle-doc", lambda tf: tf.random.experimental.index_shuffle(tf.range(4), seed=[5, 9], max_index=3)),
    *[(f"index-shuffle-max-{m}", (lambda m: lambda tf: tf.random.experimental.index_shuffle(
        tf.range(min(m + 1, 200), dtype=tf.int64), [7, -3], tf.constant(m, tf.int64)))(m))
      for m in (1, 9, 255, 65535, 65536, 70000, 2**31 + 5, 2**40 + 1, 2**61, 2**62 + 7)],
    ("index-shuffle-uint64-max", lambda tf: tf.random.experimental.index_shuffle(
        tf.constant([0, 1, 2**63 + 5], tf.uint64), tf.constant([1, 2], tf.uint64), tf.constant(2**64 - 1, tf.uint64))),
    ("index-shuffle-uint32", lambda tf: tf.random.experimental.index_shuffle(
        tf.constant([0, 5, 99], tf.uint32), tf.constant([4, 4], tf.int64), tf.constant(100, tf.uint32))),
    ("index-shuffle-scalar", lambda tf: tf.random.experimental.index_shuffle(3, [1, 2], 10)),
    ("index-shuffle-seed-rows", lambda tf: tf.random.experimental.index_shuffle(
        tf.constant([1, 2, 3]), tf.constant([[1, 2], [3, 4], [5, 6]]), 5)),
    ("index-shuffle-max-vector", lambda tf: tf.random.experimental.index_shuffle(
        tf.constant(2), [1, 2], tf.constant([3, 30, 300]))),
    ("index-shuffle-zero-max", lambda tf: tf.random.experimental.index_shuffle(tf.constant([0, 0]), [1, 2], 0)),
    ("random-index-shuffle-raw", lambda tf: [tf.random_index_shuffle(tf.range(6), [1, 2, 3], 5),
                                             tf.random_index_shuffle(tf.range(6), [1, 2, 3], 5, rounds=6),
                                             tf.random_index_shuffle(tf.range(6), [1, 2, 3], 70000, rounds=8)]),
    ("index-shuffle-bad-seed", lambda tf: tf.random.experimental.index_shuffle(1, [1, 2, 3], 5)),
    ("index-shuffle-float", lambda tf: tf.random.experimental.index_shuffle(1.0, [1, 2], 5.0)),
    ("index-shuffle-mismatched-max", lambda tf: tf.random.experimental.index_shuffle(
        tf.constant([1, 2]), [1, 2], tf.constant([3, 4, 5]))),
]

_LIST_DIFF: list[tuple[str, Callable[[Any], Any]]] = [
    ("setdiff1d-ints", lambda tf: list(tf.compat.v1.setdiff1d([1, 2, 3, 2, 5, 7, 7], [2, 7]))),
    ("setdiff1d-floats-nan-zero", lambda tf: list(tf.compat.v1.setdiff1d(
        np.array([1.5, 2.0, np.nan, -0.0, 0.0, np.inf]), [2.0, 0.0, np.nan]))),
    ("setdiff1d-int64-index", lambda tf: list(tf.compat.v1.setdiff1d(tf.constant([1, 2, 9], tf.int64),
                                                                     tf.constant([2], tf.int64), index_dtype=tf.int64))),
    ("setdiff1d-uint8-empty", lambda tf: list(tf.compat.v1.setdiff1d(np.array([], np.uint8), np.array([1], np.uint8)))),
    ("setdiff1d-all-removed", lambda tf: list(tf.compat.v1.setdiff1d([3, 3], [3]))),
    ("setdiff1d-strings", lambda tf: list(tf.compat.v1.setdiff1d(["a", "b", "c"], ["b"]))),
    ("setdiff1d-float-into-int", lambda tf: tf.compat.v1.setdiff1d([1, 2], [2.0])),
    ("setdiff1d-matrix-x", lambda tf: tf.compat.v1.setdiff1d([[1]], [1])),
    ("setdiff1d-matrix-y", lambda tf: tf.compat.v1.setdiff1d([1], [[1]])),
    ("setdiff1d-bool", lambda tf: tf.compat.v1.setdiff1d([True], [True])),
    ("setdiff1d-gradient-lookup-error", lambda tf: _setdiff_gradient(tf)),
]


def _setdiff_gradient(tf: Any) -> Any:
    """The gradient through ListDiff's output (TF registers none: LookupError)."""
    v = tf.Variable([1.0, 2.0, 3.0])
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.compat.v1.setdiff1d(v, [2.0]).out)
    return tape.gradient(loss, v)


CASES: list[tuple[str, str, Callable[[Any], Any]]] = (
    [(n, "ops.random-generator", f) for n, f in _DRAWS] + [(n, "ops.random-seed-split", f) for n, f in _SEEDS]
    + [(n, "ops.list-diff", f) for n, f in _LIST_DIFF])

EDGES = edge_compare.EdgeModule(__file__, CASES)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("ops.random-generator")
@EDGES.parametrize("ops.random-generator")
def test_generator_draws(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.random-generator")
@EDGES.parametrize("ops.random-seed-split")
def test_seed_split_fold_in(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.random-generator")
def test_nondeterministic_state_derives_from_root_seed() -> None:
    """TF draws OS entropy; simdist derives the state from the root seed by name and count: two
    generators differ, and a reconfigured machine with the same root seed gives the same two."""
    import simdist
    from simdist import tf

    def two() -> list[list[int]]:
        simdist.configure(seed=5)
        return [tf.random.Generator.from_non_deterministic_state().state.numpy().tolist(),
                tf.random.get_global_generator().state.numpy().tolist()]
    a, b = two(), two()
    assert a == b, f"states {a} then {b}: the same root seed should give the same states"
    assert a[0] != a[1], f"two non-deterministic generators got one state {a[0]}"
    simdist.configure(seed=6)
    c = tf.random.Generator.from_non_deterministic_state().state.numpy().tolist()
    assert c != a[0], f"root seeds 5 and 6 gave one state {c}"


@clause("ops.random-generator")
@pytest.mark.parametrize("rounds", [5, 2, 3])
def test_index_shuffle_rounds_tf_reads_past_its_keys_are_refused(rounds: int) -> None:
    """TF 2.21's kernel asserts (in debug builds only) that rounds is even and at least 4; otherwise
    its cipher reads round keys past the end of its vector (undefined values, not runnable as a
    reference): simdist refuses them."""
    from simdist import tf
    from simdist.runtime import errors
    with pytest.raises(errors.InvalidArgumentError, match="rounds must be an even integer >= 4") as e:
        tf.random_index_shuffle(tf.range(6), [1, 2, 3], 5, rounds=rounds)
    assert f"got {rounds}" in str(e.value), f"error {e.value!s} should name the rounds"


@clause("ops.list-diff")
@EDGES.parametrize("ops.list-diff")
def test_setdiff1d(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


def test_every_group_is_tested() -> None:
    assert EDGES.untested() == [], f"groups with no test function: {EDGES.untested()}"


if __name__ == "__main__":  # TF worker: python test_random_generator_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
