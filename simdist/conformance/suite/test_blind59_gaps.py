"""The classes around the fifty-ninth blind batch (fiftieth session, helper blind50b), half of it on the path an
ordinary training program runs: elementwise, reduction and matmul gradients over shapes, dtypes, transposes and the
watched side; the tape's seed dtype; gradients of mirrored variables in replicas; random streams (a dataset
function's, Dataset.shuffle's, unseeded ops under a global seed, seeded ops beside unseeded ones, Keras initializers,
generators in replicas, moments); strategy.reduce recorded in a tf.function, of structures and of IndexedSlices;
distributed batches and optionals; concatenate, zip, reduce and optionals of tf.data; a checkpoint's consumed
status; compile's dict losses by output name, the captured strategy and Keras 2's compiled_metrics; ForwardAccumulator
and stop_gradient; update_non_slot's keyword arguments; a tf.function's keyword tensors. Every expected value is
computed here (a transcription of TF's rule, numpy) or was observed on TF 2.21 (/work/wt/blind50b_logs/observe.py,
probes.py)."""

from __future__ import annotations

import collections
import random as _pyrandom

import numpy as np
import pytest


def _mirrored(tf, backend):
    backend.make_strategy("mirrored", 3)   # (the backend's devices made)
    return tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])


# --- op gradients --------------------------------------------------------------------------------------------------
_BINARY = {   # d/dx, d/dy of op(x, y) (math_grad.py)
    "mul": (lambda tf: tf.multiply, lambda x, y: (y, x)),
    "add": (lambda tf: tf.add, lambda x, y: (np.ones_like(x * y), np.ones_like(x * y))),
    "sub": (lambda tf: tf.subtract, lambda x, y: (np.ones_like(x * y), -np.ones_like(x * y))),
    "div": (lambda tf: tf.divide, lambda x, y: (1 / y + 0 * x, -x / (y * y))),
    "maximum": (lambda tf: tf.maximum, lambda x, y: ((x >= y) * 1.0, (x < y) * 1.0)),
}
_SHAPES = {"same": ((2, 3), (2, 3)), "row": ((2, 3), (3,)), "col": ((2, 1), (2, 3)), "scalar": ((), (2, 3))}


@pytest.mark.clause("autodiff.op-gradients")
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("shapes", sorted(_SHAPES))
@pytest.mark.parametrize("op", sorted(_BINARY))
def test_blind59_binary_gradients_over_shapes_and_dtypes(backend, tf, op, shapes, dtype):
    """z = op(x, y) * w with a non-uniform w: each input's gradient is its partial derivative times w, summed over
    the axes it was broadcast along (both inputs watched, and each alone)."""
    sx, sy = _SHAPES[shapes]
    xs = (np.arange(int(np.prod(sx)), dtype=np.float64).reshape(sx) + 1.5)
    ys = (np.arange(int(np.prod(sy)), dtype=np.float64).reshape(sy) * 0.5 + 2.0)
    w = np.arange(6, dtype=np.float64).reshape(2, 3) + 1.0
    dx, dy = _BINARY[op][1](np.broadcast_to(xs, (2, 3)), np.broadcast_to(ys, (2, 3)))

    def unb(g, shape):
        g = np.asarray(g, np.float64)
        while g.ndim > len(shape):
            g = g.sum(0)
        for i, n in enumerate(shape):
            if n == 1 and g.shape[i] != 1:
                g = g.sum(i, keepdims=True)
        return g
    want = [unb(dx * w, sx), unb(dy * w, sy)]
    for watch in ([0, 1], [0], [1]):
        x, y = tf.constant(xs, dtype=dtype), tf.constant(ys, dtype=dtype)
        with tf.GradientTape() as t:
            for i in watch:
                t.watch((x, y)[i])
            z = _BINARY[op][0](tf)(x, y) * tf.constant(w, dtype=dtype)
        got = t.gradient(z, [(x, y)[i] for i in watch])
        for i, g in zip(watch, got):
            np.testing.assert_allclose(np.asarray(g, np.float64), want[i], rtol=1e-5, err_msg=(
                f"d/d{'xy'[i]} {op}(x{list(sx)}, y{list(sy)}) {dtype}, watching {watch}: expected {want[i]}, got {g}"))


@pytest.mark.clause("autodiff.op-gradients")
@pytest.mark.parametrize("keepdims", [False, True])
@pytest.mark.parametrize("axis", [0, 1, -1, None, (0, 1)])
@pytest.mark.parametrize("reduce", ["sum", "mean", "max"])
@pytest.mark.parametrize("shape", [(2, 2), (2, 3), (3, 2)])
def test_blind59_reduction_gradients_with_weighted_upstream(backend, tf, reduce, axis, keepdims, shape):
    """reduce(x, axis, keepdims) * w with w of the result's shape: the gradient is w broadcast back along the
    reduced axes (divided by their size for mean, at the maximum only for max), whatever the square or not."""
    xs = np.asarray([3.0, -1.0, 7.0, 2.0, 5.5, 0.5], np.float64)[:int(np.prod(shape))].reshape(shape)
    fn = {"sum": np.sum, "mean": np.mean, "max": np.max}[reduce]
    out = fn(xs, axis=axis, keepdims=keepdims)
    w = np.arange(np.size(out), dtype=np.float64).reshape(np.shape(out)) + 1.0
    kept = fn(xs, axis=axis, keepdims=True)
    wk = np.broadcast_to(w.reshape(np.shape(kept)), shape)
    if reduce == "sum":
        want = wk
    elif reduce == "mean":
        want = wk / (xs.size / kept.size)
    else:
        want = wk * (xs == np.broadcast_to(kept, shape))
    x = tf.Variable(xs)
    with tf.GradientTape() as t:
        r = {"sum": tf.reduce_sum, "mean": tf.reduce_mean, "max": tf.reduce_max}[reduce](x, axis=axis,
                                                                                         keepdims=keepdims)
        z = r * tf.constant(w)
    got = np.asarray(t.gradient(z, x))
    np.testing.assert_allclose(got, want, rtol=1e-6, err_msg=(
        f"d/dx reduce_{reduce}(x{list(shape)}, axis={axis}, keepdims={keepdims}) * w: expected {want}, got {got}"))


@pytest.mark.clause("autodiff.op-gradients")
@pytest.mark.parametrize("watch", ["a", "b", "both"])
@pytest.mark.parametrize("ta,tb", [(False, False), (True, False), (False, True), (True, True)])
def test_blind59_matmul_gradients_each_transpose_and_watched_side(backend, tf, ta, tb, watch):
    """y = matmul(a, b, transpose_a, transpose_b) * w: y is linear in each input, so d(sum y)/d a_ij is
    sum(w * matmul(E_ij, b)) for the unit matrix E_ij (computed here with numpy for every element)."""
    A = np.arange(6, dtype=np.float64).reshape((3, 2) if ta else (2, 3)) + 1.0
    B = np.arange(12, dtype=np.float64).reshape((4, 3) if tb else (3, 4)) * 0.5 - 1.0
    op = lambda m, t_: m.T if t_ else m   # noqa: E731
    w = np.arange(8, dtype=np.float64).reshape(2, 4) + 1.0

    def grad_of(M, which):
        g = np.zeros_like(M)
        for idx in np.ndindex(M.shape):
            E = np.zeros_like(M)
            E[idx] = 1.0
            y = op(E, ta) @ op(B, tb) if which == "a" else op(A, ta) @ op(E, tb)
            g[idx] = (w * y).sum()
        return g
    a, b = tf.constant(A), tf.constant(B)
    with tf.GradientTape() as t:
        srcs = {"a": [a], "b": [b], "both": [a, b]}[watch]
        for s in srcs:
            t.watch(s)
        y = tf.matmul(a, b, transpose_a=ta, transpose_b=tb) * tf.constant(w)
    got = t.gradient(y, srcs)
    for s, g in zip({"a": "a", "b": "b", "both": "ab"}[watch], got):
        want = grad_of(A if s == "a" else B, s)
        np.testing.assert_allclose(np.asarray(g), want, rtol=1e-9, err_msg=(
            f"d/d{s} matmul(transpose_a={ta}, transpose_b={tb}), watching {watch}: expected {want}, got {g}"))


@pytest.mark.clause("autodiff.targets")
@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "complex64"])
def test_blind59_gradient_dtype_follows_the_target(backend, tf, dtype):
    """The tape's seed is ones of the target's dtype (backprop `_ones`): the gradient of x * x in x's dtype."""
    x = tf.Variable(np.asarray([1.0, 2.0]).astype(dtype))
    with tf.GradientTape() as t:
        y = x * x
    g = t.gradient(y, x)
    assert g.dtype.name == dtype, f"gradient of a {dtype} target: {g.dtype.name}"
    want = 2 * np.conj(np.asarray([1.0, 2.0]).astype(dtype))
    np.testing.assert_allclose(np.asarray(g), want, rtol=1e-3)


@pytest.mark.clause("autodiff.strategy-run")
def test_blind59_mirrored_variables_get_gradients_in_each_replica(backend, tf):
    """In a replica of MirroredStrategy a tape that read a mirrored variable differentiates it (the replica's own
    copy): the gradient of (id + 1) * sum(v * v) is 2 v (id + 1) in replica id, for a variable and a Keras layer's."""
    s = _mirrored(tf, backend)
    K = tf.keras
    with s.scope():
        v = tf.Variable([1.0, 2.0])
        layer = K.layers.Dense(1, kernel_initializer="ones", bias_initializer="zeros")
        layer.build((None, 2))

    def fn():
        k = tf.cast(tf.distribute.get_replica_context().replica_id_in_sync_group, tf.float32) + 1.0
        with tf.GradientTape() as t:
            y = k * tf.reduce_sum(v * v) + k * tf.reduce_sum(layer(tf.constant([[1.0, 3.0]])))
        g = t.gradient(y, [v] + layer.trainable_variables)
        return [tf.constant(-1.0) if x is None else tf.reshape(x, [-1]) for x in g]
    out = s.run(fn)
    for rid in range(2):
        got = [np.asarray(s.experimental_local_results(o)[rid]) for o in out]
        want = [2 * np.asarray([1.0, 2.0]) * (rid + 1), np.asarray([1.0, 3.0]) * (rid + 1), np.asarray([rid + 1.0])]
        for gg, ww in zip(got, want):
            np.testing.assert_allclose(gg, ww, err_msg=f"replica {rid}: gradients {got}, expected {want}")


# --- random streams ------------------------------------------------------------------------------------------------
@pytest.mark.clause("ops.random-in-function")
def test_blind59_dataset_function_random_op_continues_its_stream(backend, tf):
    """A seeded random op in a map function is one op of the function's instance: its draws go on from element to
    element (TF 2.21, observed: global seed 0, op seed 1), and a new iterator starts the stream again."""
    tf.random.set_seed(0)
    ds = tf.data.Dataset.range(4).map(lambda x: tf.random.uniform([], seed=1))
    got = np.asarray(list(ds.as_numpy_iterator()), np.float64)
    np.testing.assert_allclose(got, [0.53973, 0.54001, 0.43089, 0.30245], atol=1e-5,
                               err_msg=f"map's uniform draws: {got}")
    again = np.asarray(list(ds.as_numpy_iterator()), np.float64)
    np.testing.assert_allclose(again, got, err_msg="a second iterator's draws")


_SHUFFLES = {   # TF 2.21, observed: tf.random.set_seed(g); Dataset.range(10).shuffle(buffer, seed=seed)
    (10, 1, 10): [8, 0, 3, 1, 7, 9, 6, 4, 5, 2],
    (10, 1, 4): [2, 3, 1, 4, 5, 0, 6, 7, 9, 8],
    (10, 2, 10): [6, 5, 9, 3, 0, 4, 1, 2, 8, 7],
    (10, 2, 4): [2, 1, 5, 3, 4, 7, 6, 9, 8, 0],
    (10, 7, 10): [8, 1, 3, 4, 6, 5, 2, 7, 9, 0],
    (10, 7, 4): [2, 0, 3, 6, 1, 8, 4, 7, 9, 5],
    (None, 1, 10): [0, 9, 5, 1, 2, 7, 3, 8, 6, 4],
    (None, 1, 4): [0, 4, 5, 1, 2, 7, 9, 8, 6, 3],
    (None, 2, 10): [0, 9, 4, 1, 6, 2, 7, 5, 3, 8],
    (None, 2, 4): [0, 2, 4, 6, 3, 1, 7, 5, 9, 8],
    (None, 7, 10): [2, 8, 6, 5, 9, 1, 0, 3, 7, 4],
    (None, 7, 4): [0, 4, 2, 3, 5, 6, 1, 8, 7, 9],
}


@pytest.mark.clause("dataset.shuffle")
@pytest.mark.parametrize("g,seed,buf", sorted(_SHUFFLES, key=str))
def test_blind59_shuffle_orders_are_tfs(backend, tf, g, seed, buf):
    """(Without a global seed TF seeds the op with (DEFAULT_GRAPH_SEED, seed): set_seed(None) first, as an earlier
    test may have set one.)"""
    tf.random.set_seed(g)
    got = [int(v) for v in tf.data.Dataset.range(10).shuffle(buf, seed=seed).as_numpy_iterator()]
    want = _SHUFFLES[(g, seed, buf)]
    assert got == want, f"set_seed({g}); shuffle({buf}, seed={seed}): {got}, TF 2.21 {want}"


@pytest.mark.clause("dataset.shuffle")
def test_blind59_shuffle_under_a_global_seed_is_tfs(backend, tf):
    tf.random.set_seed(0)
    got = [int(v) for v in tf.data.Dataset.range(8).shuffle(8).as_numpy_iterator()]
    assert got == [3, 2, 7, 4, 1, 0, 6, 5], f"shuffle(8) under set_seed(0): {got}"


@pytest.mark.clause("ops.random-across-calls")
@pytest.mark.parametrize("g", [0, 3, 123456])
@pytest.mark.parametrize("op", ["uniform", "normal", "truncated_normal"])
def test_blind59_unseeded_op_takes_the_global_seeds_next_op_seed(backend, tf, op, g):
    """TF 2.21 eager `random_seed.get_seed(None)` under a global seed g: the op seed is the next
    `random.Random(g).randint(0, 2**31 - 1)` (context._rng, _MAXINT32): an unseeded op's draw is the seeded one's."""
    f = getattr(tf.random, op)
    r = _pyrandom.Random(g)
    seeds = [r.randint(0, 2**31 - 1) for _ in range(2)]
    tf.random.set_seed(g)
    got = [np.asarray(f([3])), np.asarray(f([3]))]
    tf.random.set_seed(g)
    want = [np.asarray(f([3], seed=seeds[0])), np.asarray(f([3], seed=seeds[1]))]
    for a, b in zip(got, want):
        np.testing.assert_array_equal(a, b, err_msg=f"unseeded {op} under set_seed({g}): op seeds {seeds}")


@pytest.mark.clause("ops.random-across-calls")
def test_blind59_unseeded_op_seeds_skip_the_word_two_to_the_31(backend, tf):
    """randint(0, 2**31 - 1) draws 32-bit words and rejects those >= 2**31: under set_seed(3342049) the twelfth op
    seed's first word is exactly 2**31 (found by a search of Python's Mersenne Twister, surv59), which TF rejects,
    so the twelfth unseeded op takes the next accepted word (an upper bound of 2**31 would take 2**31 itself and
    shift every later op seed)."""
    g = 3342049
    r = _pyrandom.Random(g)
    seeds = [r.randint(0, 2**31 - 1) for _ in range(14)]
    assert 2**31 not in seeds
    tf.random.set_seed(g)
    got = [float(tf.random.uniform([])) for _ in seeds]
    tf.random.set_seed(g)
    want = [float(tf.random.uniform([], seed=s)) for s in seeds]
    assert got == want, f"unseeded uniform under set_seed({g}): {got}, the ops seeded {seeds}: {want}"


_SEEDED = {
    "shuffle": lambda tf, s: tf.random.shuffle(tf.range(10), seed=s),
    "categorical": lambda tf, s: tf.random.categorical(tf.math.log([[0.5, 0.5], [0.1, 0.9]]), 10, seed=s),
    "uniform": lambda tf, s: tf.random.uniform([4], seed=s),
    "uniform_int": lambda tf, s: tf.random.uniform([4], maxval=100, dtype=tf.int32, seed=s),
    "normal": lambda tf, s: tf.random.normal([4], seed=s),
    "truncated_normal": lambda tf, s: tf.random.truncated_normal([4], seed=s),
    "gamma": lambda tf, s: tf.random.gamma([4], 2.0, seed=s),
    "poisson": lambda tf, s: tf.random.poisson([4], 3.0, seed=s),
}


@pytest.mark.clause("ops.random-across-calls")
@pytest.mark.parametrize("op", sorted(_SEEDED))
def test_blind59_seeded_op_ignores_earlier_unseeded_draws(backend, tf, op):
    """An op given its own seed draws from (global seed, op seed) whatever unseeded ops ran before it, and another
    op seed gives other draws."""
    tf.random.set_seed(1)
    a = np.asarray(_SEEDED[op](tf, 5))
    tf.random.set_seed(1)
    tf.random.uniform([2])
    tf.random.normal([3])
    b = np.asarray(_SEEDED[op](tf, 5))
    np.testing.assert_array_equal(a, b, err_msg=f"{op}(seed=5) after two unseeded ops")
    tf.random.set_seed(1)
    c = np.asarray(_SEEDED[op](tf, 6))
    assert not np.array_equal(a, c), f"{op}: seed 5 and seed 6 drew the same {a}"


_DENSE = {   # TF 2.21 + Keras 3.15, observed: keras.utils.set_random_seed(s); Dense(3, init).build((None, 2)).kernel
    (4, "glorot_uniform"): [[0.33728, 0.2178, 0.29], [-0.51118, -0.09278, -0.36803]],
    (4, "random_normal"): [[-0.02695, -0.03738, 0.04761], [-0.00501, 0.0544, -0.03081]],
    (4, "he_uniform"): [[0.53329, 0.34436, 0.45853], [-0.80824, -0.14669, -0.58191]],
    (11, "glorot_uniform"): [[-0.13365, -0.67804, 0.26281], [-0.36423, -1.00443, 0.81887]],
    (11, "random_normal"): [[0.05973, 0.02342, 0.04228], [-0.02456, -0.08987, 0.08848]],
    (11, "he_uniform"): [[-0.21132, -1.07208, 0.41553], [-0.5759, -1.58814, 1.29475]]}


@pytest.mark.clause("keras.init.seeding")
@pytest.mark.parametrize("seed,init", sorted(_DENSE))
def test_blind59_unseeded_initializers_under_set_random_seed_are_tfs(backend, tf, seed, init):
    K = tf.keras
    K.utils.set_random_seed(seed)
    layer = K.layers.Dense(3, kernel_initializer=init)
    layer.build((None, 2))
    np.testing.assert_allclose(np.asarray(layer.kernel, np.float64), _DENSE[(seed, init)], atol=1e-5,
                               err_msg=f"Dense kernel ({init}) under set_random_seed({seed})")


@pytest.mark.clause("ops.random-generator")
@pytest.mark.parametrize("mean,stddev", [(2.0, 3.0), (-1.0, 0.5)])
def test_blind59_moments_scale_and_shift_generator_and_stateless_draws(backend, tf, mean, stddev):
    """Generator.normal and stateless_normal with moments are the standard draw * stddev + mean (same state/seed)."""
    g1, g2 = tf.random.Generator.from_seed(1), tf.random.Generator.from_seed(1)
    base = np.asarray(g1.normal([5]), np.float64)
    got = np.asarray(g2.normal([5], mean=mean, stddev=stddev), np.float64)
    np.testing.assert_allclose(got, base * stddev + mean, rtol=1e-5, atol=1e-5, err_msg="Generator.normal")
    base = np.asarray(tf.random.stateless_normal([5], seed=[1, 2]), np.float64)
    got = np.asarray(tf.random.stateless_normal([5], seed=[1, 2], mean=mean, stddev=stddev), np.float64)
    np.testing.assert_allclose(got, base * stddev + mean, rtol=1e-5, atol=1e-5, err_msg="stateless_normal")
    base = np.asarray(tf.random.Generator.from_seed(2).uniform([5]), np.float64)
    got = np.asarray(tf.random.Generator.from_seed(2).uniform([5], minval=mean, maxval=mean + stddev), np.float64)
    np.testing.assert_allclose(got, base * stddev + mean, rtol=1e-5, atol=1e-5, err_msg="Generator.uniform")


@pytest.mark.clause("ops.random-generator")
def test_blind59_generator_made_in_scope_draws_per_replica(backend, tf):
    """TF 2.21 mixes the replica id into the key of a generator made under a strategy (observed values): each
    replica draws its own numbers."""
    s = _mirrored(tf, backend)
    with s.scope():
        g = tf.random.Generator.from_seed(1)
    got = [np.asarray(t, np.float64) for t in s.experimental_local_results(s.run(lambda: g.normal([2])))]
    np.testing.assert_allclose(got, [[-0.8793, 1.46808], [0.02066, 1.94733]], atol=1e-5,
                               err_msg=f"replicas' draws {got}")


# --- distribution --------------------------------------------------------------------------------------------------
@pytest.mark.clause("reduce.axis-none")
@pytest.mark.parametrize("op", ["SUM", "MEAN"])
def test_blind59_reduce_in_a_function_on_every_call(backend, tf, op):
    """strategy.reduce inside a tf.function called several times with other arguments: each call reduces its own
    replicas' values by op (the recorded call and its replays alike)."""
    s = _mirrored(tf, backend)

    @tf.function
    def f(c):
        per = s.run(lambda: c * (tf.cast(tf.distribute.get_replica_context().replica_id_in_sync_group,
                                         tf.float32) + 1.0))
        return s.reduce(getattr(tf.distribute.ReduceOp, op), per, axis=None)
    for c in (1.0, 2.0, 5.0, 5.0):
        vals = np.asarray([c * 1.0, c * 2.0])
        want = vals.sum() if op == "SUM" else vals.mean()
        got = float(f(tf.constant(c)))
        assert got == pytest.approx(want), f"reduce({op}) of {vals.tolist()} in a tf.function: {got}"


@pytest.mark.clause("reduce.axis-none")
@pytest.mark.parametrize("op", ["SUM", "MEAN"])
def test_blind59_reduce_of_indexed_slices(backend, tf, op):
    s = _mirrored(tf, backend)

    def fn():
        k = tf.cast(tf.distribute.get_replica_context().replica_id_in_sync_group, tf.float32) + 1.0
        return tf.IndexedSlices(tf.constant([[1.0, 2.0]]) * k, tf.constant([0]), tf.constant([2, 2]))
    red = s.reduce(op, s.run(fn), axis=None)
    got = np.asarray(tf.convert_to_tensor(red))
    rows = np.asarray([[1.0, 2.0], [2.0, 4.0]])
    want = np.asarray([rows.sum(0) if op == "SUM" else rows.mean(0), [0.0, 0.0]])
    np.testing.assert_allclose(got, want, err_msg=f"reduce({op}) of replicas' IndexedSlices: {got}")


@pytest.mark.clause("run.merged-result")
def test_blind59_run_and_reduce_keep_the_returned_structure(backend, tf):
    s = _mirrored(tf, backend)
    Pair = collections.namedtuple("Pair", "a b")
    for made in (lambda: (tf.constant(1.0), tf.constant(2.0)), lambda: [tf.constant(1.0), tf.constant(2.0)],
                 lambda: Pair(tf.constant(1.0), tf.constant(2.0)),
                 lambda: {"x": (tf.constant(1.0),), "y": [tf.constant(2.0)]}):
        want = made()
        out = s.run(made)
        red = s.reduce("SUM", out, axis=None)
        for got in (out, red):
            assert type(got) is type(want), f"{type(want).__name__} returned: {type(got).__name__}"
            if isinstance(want, dict):
                assert {k: type(v) for k, v in got.items()} == {k: type(v) for k, v in want.items()}
        np.testing.assert_allclose([float(x) for x in tf.nest.flatten(red)], [2.0, 4.0])


@pytest.mark.clause("run.merged-result")
def test_blind59_replica_all_reduce_and_all_gather_keep_the_structure(backend, tf):
    """A replica context's all_reduce and all_gather give back the structure they were handed (a tuple stays a tuple,
    a namedtuple and a list keep their types), in the default replica context and in each replica of a run
    (surv59; observed on TF 2.21)."""
    Pair = collections.namedtuple("Pair", "a b")

    def kinds():
        ctx = tf.distribute.get_replica_context()
        out = []
        for made in (lambda: (tf.constant([1.0]), tf.constant([2.0])), lambda: [tf.constant([1.0]), tf.constant([2.0])],
                     lambda: Pair(tf.constant([1.0]), tf.constant([2.0])), lambda: {"x": (tf.constant([1.0]),)}):
            want = made()
            for got in (ctx.all_reduce("SUM", want), ctx.all_gather(want, axis=0)):
                out.append(type(got) is type(want) and (type(got["x"]) is tuple if isinstance(want, dict) else True))
        return out
    assert all(kinds()), f"default replica context: structure kept per case {kinds()}"
    s = _mirrored(tf, backend)
    got = s.run(lambda: tf.constant([1.0 if k else 0.0 for k in kinds()]))
    for v in s.experimental_local_results(got):
        assert np.asarray(v).tolist() == [1.0] * 8, f"in a replica: structure kept per case {np.asarray(v).tolist()}"


_REBATCH_PROGRAM = """
opts = tf.data.Options()
opts.experimental_distribute.auto_shard_policy = tf.data.experimental.AutoShardPolicy.OFF
ds = tf.data.Dataset.range(14).batch(7).with_options(opts)
result = [[int(v) for v in backend.to_numpy(strategy.experimental_local_results(x)[0])]
          for x in strategy.experimental_distribute_dataset(ds)]
"""


@pytest.mark.clause("dataset.partial-batch-split")
@pytest.mark.requires("multi_client")
def test_blind59_multi_worker_rebatch_rotates_each_workers_sizes(backend, tf):
    """MultiWorkerMirroredStrategy, 2 workers of 1 CPU, no sharding, global batch 7: the 2 replicas' sub-batches
    are [4, 3] on worker 0 and that list rotated by the replicas before the worker, [3, 4], on worker 1 (TF's
    rebatch: every global step takes 7 elements; surv59, observed on TF 2.21)."""
    out = backend.run_multi_worker(_REBATCH_PROGRAM, 2)
    sizes = [[len(b) for b in worker] for worker in out]
    assert sizes == [[4, 3, 4, 3], [3, 4, 3, 4]], f"each worker's batch sizes: {sizes} ({out})"


_DIST = {   # TF 2.21, observed: MirroredStrategy over two CPUs, Dataset.range(n).batch(b), each replica's part
    (10, 4): [[[0, 1], [2, 3]], [[4, 5], [6, 7]], [[8], [9]]], (7, 3): [[[0, 1], [2]], [[3, 4], [5]], [[6], []]],
    (5, 5): [[[0, 1, 2], [3, 4]]], (3, 4): [[[0, 1], [2]]]}


@pytest.mark.clause("dataset.rebatch")
@pytest.mark.parametrize("n,b", sorted(_DIST))
def test_blind59_distributed_batches_split_over_replicas(backend, tf, n, b):
    s = _mirrored(tf, backend)
    got = [[np.asarray(t).tolist() for t in s.experimental_local_results(x)]
           for x in s.experimental_distribute_dataset(tf.data.Dataset.range(n).batch(b))]
    assert got == _DIST[(n, b)], f"range({n}).batch({b}) over two replicas: {got}, TF 2.21 {_DIST[(n, b)]}"


@pytest.mark.clause("dataset.partial-batch-split")
@pytest.mark.parametrize("n,b", [(4, 4), (8, 4), (6, 4), (1, 4)])
def test_blind59_distributed_get_next_as_optional_over_each_batch(backend, tf, n, b):
    s = _mirrored(tf, backend)
    it = iter(s.experimental_distribute_dataset(tf.data.Dataset.range(n).batch(b)))
    seen = []
    for _ in range(-(-n // b) + 1):
        seen.append(bool(it.get_next_as_optional().has_value()))
    want = [True] * (-(-n // b)) + [False]
    assert seen == want, f"range({n}).batch({b}): has_value {seen}, expected {want}"


@pytest.mark.clause("extended.v1-methods")
def test_blind59_update_non_slot_passes_args_and_kwargs(backend, tf):
    s = _mirrored(tf, backend)
    with s.scope():
        v = tf.Variable(1.0)
    devs = s.extended.non_slot_devices([v])
    out = s.extended.update_non_slot(devs, lambda x, a=1.0: tf.constant(a) * x, args=(3.0,), kwargs={"a": 5.0})
    got = [float(t) for t in s.experimental_local_results(out)]
    assert got and all(g == 15.0 for g in got), f"update_non_slot(fn, args=(3,), kwargs={{'a': 5}}): {got}"


# --- tf.data -------------------------------------------------------------------------------------------------------
@pytest.mark.clause("dataset.api-surface")
def test_blind59_concatenate_chains_every_input(backend, tf):
    D = tf.data.Dataset
    cases = [(D.range(3).concatenate(D.range(3, 5)), [0, 1, 2, 3, 4]),
             (D.range(0).concatenate(D.range(2)), [0, 1]), (D.range(2).concatenate(D.range(0)), [0, 1]),
             (D.range(1).concatenate(D.range(5, 6)).concatenate(D.range(8, 10)), [0, 5, 8, 9])]
    for ds, want in cases:
        got = [int(v) for v in ds.as_numpy_iterator()]
        assert got == want, f"concatenate: {got}, expected {want}"


@pytest.mark.clause("keras.fit.data")
@pytest.mark.parametrize("n,bs", [(10, 4), (7, 7), (9, 2)])
def test_blind59_fit_shuffled_arrays_visit_every_sample(backend, tf, n, bs):
    """fit of NumPy arrays with shuffle=True: ceil(n / bs) batches per epoch, the last the partial one, every
    sample once (Keras 3.15's index pipeline concatenates the partial batch)."""
    K = tf.keras
    seen = []

    class Spy(K.layers.Layer):
        def call(self, x):
            return x
    m = K.Sequential([K.Input((1,)), Spy(), K.layers.Dense(1)])
    m.compile("sgd", "mse", run_eagerly=True)
    orig = m.train_step

    def step(data):
        seen.append(np.asarray(data[0]).ravel().tolist())
        return orig(data)
    m.train_step = step
    m.fit(np.arange(n, dtype="float32").reshape(n, 1), np.zeros((n, 1)), batch_size=bs, epochs=1, shuffle=True,
          verbose=0)
    sizes = [len(b) for b in seen]
    want = [bs] * (n // bs) + ([n % bs] if n % bs else [])
    assert sizes == want and sorted(v for b in seen for v in b) == list(range(n)), f"batches {seen}"


@pytest.mark.clause("dataset.api-surface")
def test_blind59_zip_takes_a_tuple_or_dict_not_a_list(backend, tf):
    a, b = tf.data.Dataset.range(2), tf.data.Dataset.range(3, 5)
    with pytest.raises(TypeError, match="Python `list` is not supported"):   # (TF's message, observed)
        tf.data.Dataset.zip([a, b])
    assert [tuple(int(x) for x in e) for e in tf.data.Dataset.zip((a, b)).as_numpy_iterator()] == [(0, 3), (1, 4)]
    assert [int(e["p"]) for e in tf.data.Dataset.zip({"p": a, "q": b}).as_numpy_iterator()] == [0, 1]
    assert [tuple(int(x) for x in e) for e in tf.data.Dataset.zip(a, b).as_numpy_iterator()] == [(0, 3), (1, 4)]


@pytest.mark.clause("dataset.api-surface")
def test_blind59_iterator_optional_holds_each_element(backend, tf):
    it = iter(tf.data.Dataset.range(2))
    seen = []
    for _ in range(3):
        o = it.get_next_as_optional()
        seen.append((bool(o.has_value()), int(o.get_value()) if bool(o.has_value()) else None))
    assert seen == [(True, 0), (True, 1), (False, None)], f"get_next_as_optional: {seen}"


@pytest.mark.clause("dataset.api-surface")
@pytest.mark.parametrize("case", ["int", "float", "pair", "dict"])
def test_blind59_dataset_reduce_hands_state_then_element(backend, tf, case):
    """Dataset.reduce(initial_state, fn): state = fn(state, element) in order (non-commutative folds)."""
    D = tf.data.Dataset
    if case == "int":
        got = D.range(1, 4).reduce(np.int64(10), lambda s, x: s * 2 + x)
        want = ((10 * 2 + 1) * 2 + 2) * 2 + 3
        assert int(got) == want, f"{int(got)} != {want}"
    elif case == "float":
        got = D.from_tensor_slices([1.0, 2.0, 4.0]).reduce(0.5, lambda s, x: s / x + 1.0)
        want = 0.5
        for x in (1.0, 2.0, 4.0):
            want = want / x + 1.0
        assert float(got) == pytest.approx(want)
    elif case == "pair":
        got = D.range(3).reduce((np.int64(0), np.int64(1)), lambda s, x: (s[0] - x, s[1] * (x + 2)))
        assert [int(t) for t in got] == [-3, 24], [int(t) for t in got]
    else:
        got = D.from_tensor_slices({"a": [1.0, 2.0], "b": [3.0, 4.0]}).reduce(
            np.float32(1.0), lambda s, e: s * e["a"] - e["b"])
        assert float(got) == pytest.approx(((1.0 * 1.0 - 3.0) * 2.0) - 4.0)


# --- checkpoints ---------------------------------------------------------------------------------------------------
@pytest.mark.clause("checkpoint.restore-status")
def test_blind59_restored_checkpoint_is_consumed(backend, tf, tmp_path):
    """A checkpoint saved and restored into the same objects (a variable, a model and its optimizer after a step)
    is consumed whole: assert_consumed and assert_existing_objects_matched pass, the values come back."""
    K = tf.keras
    v = tf.Variable([1.0, 2.0])
    m = K.Sequential([K.Input((2,)), K.layers.Dense(1)])
    opt = K.optimizers.Adam(0.1)
    m.compile(opt, "mse")
    m.fit(np.ones((4, 2), "float32"), np.ones((4, 1)), verbose=0)
    c = tf.train.Checkpoint(v=v, model=m, optimizer=opt)
    path = c.save(str(tmp_path / "c"))
    want = [np.asarray(w) for w in m.weights]
    v.assign([0.0, 0.0])
    for w in m.weights:
        w.assign(tf.zeros_like(w))
    status = c.restore(path)
    status.assert_consumed()
    status.assert_existing_objects_matched()
    np.testing.assert_allclose(np.asarray(v), [1.0, 2.0])
    for w, x in zip(m.weights, want):
        np.testing.assert_allclose(np.asarray(w), x)
    mgr = tf.train.CheckpointManager(tf.train.Checkpoint(v=v), str(tmp_path / "m"), max_to_keep=2)
    mgr.save()
    tf.train.Checkpoint(v=v).restore(mgr.latest_checkpoint).assert_consumed()


# --- the trainer ---------------------------------------------------------------------------------------------------
@pytest.mark.clause("keras.compile.loss-weights")
@pytest.mark.parametrize("kind", ["dict", "dict_weighted", "list"])
def test_blind59_dict_losses_by_output_layer_name(backend, tf, kind):
    """compile's losses (and loss_weights) keyed by a functional model's output layer names: with ones kernels and
    zero biases both outputs are 2 for inputs of ones, so a's mse to 0 is 4 and b's mae to 1 is 1."""
    K = tf.keras
    i = K.Input((2,))
    a = K.layers.Dense(1, name="a", kernel_initializer="ones")(i)
    b = K.layers.Dense(1, name="b", kernel_initializer="ones")(i)
    m = K.Model(i, [a, b])
    wa, wb = (2.0, 0.5) if kind == "dict_weighted" else (1.0, 1.0)
    if kind == "list":
        m.compile("sgd", loss=["mse", "mae"])
    else:
        m.compile("sgd", loss={"a": "mse", "b": "mae"},
                  loss_weights={"a": wa, "b": wb} if kind == "dict_weighted" else None)
    h = m.fit(np.ones((4, 2), "float32"), [np.zeros((4, 1)), np.ones((4, 1))], epochs=1, verbose=0, batch_size=4)
    got = {k: round(float(v[0]), 4) for k, v in h.history.items()}
    want = {"loss": 4.0 * wa + 1.0 * wb, "a_loss": 4.0, "b_loss": 1.0}
    assert got == want, f"{kind}: history {got}, expected {want}"


@pytest.mark.clause("keras.metric.update-result-reset")
def test_blind59_every_compiled_metric_restarts_at_each_evaluate(backend, tf):
    """compile(metrics=["mae", "mse"]) of an output: fit and each evaluate start every metric afresh (a frozen
    identity model on x = [1, 2]: targets 0 give mae 1.5 and mse 2.5, targets 1 give 0.5 and 0.5; surv59, observed
    on TF 2.21)."""
    K = tf.keras
    i = K.Input((1,))
    m = K.Model(i, K.layers.Dense(1, kernel_initializer="ones", use_bias=False, trainable=False)(i))
    m.compile("sgd", "mse", metrics=["mae", "mse"])
    x = np.asarray([[1.0], [2.0]], "float32")
    h = m.fit(x, np.zeros((2, 1)), epochs=2, verbose=0, batch_size=2)
    got = [{k: [round(float(a), 4) for a in v] for k, v in h.history.items()}]
    for y in (np.zeros((2, 1)), np.ones((2, 1))):
        got.append({k: round(float(v), 4) for k, v in m.evaluate(x, y, verbose=0, return_dict=True).items()})
    want = [{"loss": [2.5, 2.5], "mae": [1.5, 1.5], "mse": [2.5, 2.5]}, {"loss": 2.5, "mae": 1.5, "mse": 2.5},
            {"loss": 0.5, "mae": 0.5, "mse": 0.5}]
    assert got == want, f"history and evaluations {got}, expected {want}"


@pytest.mark.clause("keras.compile.scope")
@pytest.mark.parametrize("make", ["sequential", "functional"])
def test_blind59_model_made_outside_any_scope_follows_the_current_strategy(backend, tf, make):
    K = tf.keras
    if make == "sequential":
        m = K.Sequential([K.Input((2,)), K.layers.Dense(1)])
    else:
        i = K.Input((2,))
        m = K.Model(i, K.layers.Dense(1)(i))
    s = _mirrored(tf, backend)
    assert m.distribute_strategy.num_replicas_in_sync == 1
    with s.scope():
        assert m.distribute_strategy is s, f"under a scope: {m.distribute_strategy}"


@pytest.mark.clause("keras.metric.sample-weight")
def test_blind59_compiled_metrics_update_state_weighs_samples(backend, tf):
    """Keras 2's shim `model.compiled_metrics.update_state(y, y_pred, sample_weight)`: compile's `metrics` ignore
    the sample weights, its `weighted_metrics` take them."""
    K = tf.keras
    m = K.Sequential([K.Input((1,)), K.layers.Dense(1)])
    m.compile("sgd", "mse", metrics=["mae"], weighted_metrics=["mse"])
    y, p, w = np.zeros((3, 1), "float32"), np.asarray([[1.0], [3.0], [2.0]], "float32"), np.asarray([1.0, 0.0, 3.0])
    m.compiled_metrics.update_state(tf.constant(y), tf.constant(p), sample_weight=tf.constant(w, tf.float32))
    got = {}
    for mm in m.metrics:
        r = mm.result()
        for k, v in (r.items() if isinstance(r, dict) else [(mm.name, r)]):
            if k != "loss":
                got[k] = round(float(v), 5)
    err = np.abs(p - y).ravel()
    want = {"mae": round(float(err.mean()), 5), "mse": round(float((err ** 2 * w).sum() / w.sum()), 5)}
    assert got == want, f"weighted metrics {got}, expected {want}"


# --- autodiff: forward mode; tf.function --------------------------------------------------------------------------
@pytest.mark.clause("autodiff.jacobian")
def test_blind59_forward_accumulator_stops_at_stop_gradient(backend, tf):
    x = tf.constant([1.0, 2.0])
    with tf.autodiff.ForwardAccumulator(x, tf.constant([1.0, 1.0])) as acc:
        y = tf.stop_gradient(x) * 3.0 + x
        z = tf.stop_gradient(x * x)
        u = x * tf.stop_gradient(x)
    np.testing.assert_allclose(np.asarray(acc.jvp(y)), [1.0, 1.0], err_msg="jvp of stop_gradient(x) * 3 + x")
    assert acc.jvp(z) is None, f"jvp of stop_gradient(x * x): {acc.jvp(z)}"
    np.testing.assert_allclose(np.asarray(acc.jvp(u)), [1.0, 2.0], err_msg="jvp of x * stop_gradient(x)")


@pytest.mark.clause("function.symbolic-tensors")
def test_blind59_function_keyword_tensors_are_graph_inputs(backend, tf):
    """In a tf.function a tensor argument is a graph input, given by position or by keyword: no static value."""
    @tf.function
    def f(x, y=None):
        known = [tf.get_static_value(t) is not None for t in (x, y) if t is not None]
        return tf.constant([1.0 if k else 0.0 for k in known])
    for args, kwargs in (((tf.constant(3.0),), {}), ((), {"x": tf.constant(3.0)}),
                         ((tf.constant(3.0),), {"y": tf.constant(4.0)}), ((), {"x": tf.constant(1.0), "y": tf.constant(2.0)})):
        got = np.asarray(f(*args, **kwargs)).tolist()
        assert got == [0.0] * len(got), f"f({args}, {kwargs}): static values known {got}"
