"""Spelling sweep 25 (issue 29): tf.random's draws written every way a user writes them give one answer.

A draw with bounds or moments is the standard draw of the same seeds, scaled: tf.random.uniform(minval=a,
maxval=b) is U * (b - a) + a and tf.random.normal(mean=m, stddev=s) is Z * s + m, where U and Z are the
defaults' draws under the same global and op seeds (random_ops: `rnd * (maxval - minval) + minval`,
`rnd * stddev + mean`). The sweep writes the bounds and moments as Python ints and floats, 0-d tensors, NumPy
scalars and per-column arrays, draws eagerly, inside a tf.function (its first and second call), and through
the stateless ops (with the seed as a list, a tuple, an int32 or an int64 tensor); a tf.random.Generator made
under a MirroredStrategy of 1 and 2 replicas draws in each replica with the replica id mixed into its key,
which the expected values rebuild from raw ops (StatelessRandomUniformFullIntV2 of the key at counter
[replica, 0], then the draw at the generator's counter: tf.random.Generator._preprocess_key).

The standard draws themselves are checked against their definition (U in [0, 1), a standard normal's
moments on 4096 draws, the truncated normal within 2 standard deviations), so a bug shared by the canonical
spelling is caught too.
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal, assert_true, to_numpy
from simdist.conformance.tolerances import Tolerance

clause = pytest.mark.clause
TOL = Tolerance(rtol=2e-6, atol=2e-6)
SHAPE = (4, 3)
GLOBAL, OP = 1234, 7


def _bound_spellings(tf, value):
    """A scalar bound or moment written five ways (each converted by the op to float32)."""
    return {"python": value, "python int" if float(value).is_integer() else "python float32": (
        int(value) if float(value).is_integer() else float(np.float32(value))),
        "0-d tensor": tf.constant(value, tf.float32), "numpy float32": np.float32(value),
        "numpy float64 0-d array": np.array(value, np.float64)}


def _closure(op, *args, **kwargs):
    """op(*args, **kwargs) as a function of no arguments (the values captured, not defaults: a tf.function
    makes a NumPy default argument a tensor of its own dtype)."""
    return lambda: op(*args, **kwargs)


def _draw(tf, fn, mode):
    """fn() under the global seed, eagerly, or in a fresh tf.function (first and second call)."""
    tf.random.set_seed(GLOBAL)
    if mode == "eager":
        first = to_numpy(fn())
        return first, to_numpy(fn())
    f = tf.function(fn)
    return to_numpy(f()), to_numpy(f())


@clause("ops.random-ranges")
@clause("ops.random-in-function")
def test_spell25a_uniform_bounds_every_spelling_eager_and_in_a_function(tf):
    """tf.random.uniform([4, 3], minval=a, maxval=b, seed=7) == U * (b - a) + a for the draw U of
    tf.random.uniform([4, 3], seed=7) under the same global seed, with a and b spelled as Python numbers, 0-d
    tensors and NumPy scalars, eagerly and in a tf.function, on the first and the second call."""
    failures = []
    for mode in ("eager", "function"):
        u1, u2 = _draw(tf, lambda: tf.random.uniform(SHAPE, seed=OP), mode)
        for u, n in ((u1, "first"), (u2, "second")):
            assert_true(bool(np.all((u >= 0) & (u < 1))) and u.std() > 0.1,
                        f"the standard draw should lie in [0, 1) and vary, got {u.ravel()[:6]}",
                        call=f"tf.random.uniform({SHAPE}, seed={OP}) {mode}, {n} call")
        for (lo_name, lo), (hi_name, hi) in zip(_bound_spellings(tf, -2.0).items(), _bound_spellings(tf, 5.0).items()):
            g1, g2 = _draw(tf, _closure(tf.random.uniform, SHAPE, minval=lo, maxval=hi, seed=OP), mode)
            for got, u, n in ((g1, u1, "first"), (g2, u2, "second")):
                want = u.astype(np.float32) * np.float32(7.0) + np.float32(-2.0)
                if not np.allclose(got, want, rtol=TOL.rtol, atol=TOL.atol):
                    failures.append(f"uniform(minval={lo_name} -2, maxval={hi_name} 5) {mode}, {n} call: "
                                    f"{got.ravel()[:4]}, but should be U * 7 - 2 = {want.ravel()[:4]}")
    assert_true(not failures, "; ".join(failures[:4]), call="tf.random.uniform bounds spellings")


@clause("ops.random-ranges")
def test_spell25a_normal_moments_every_spelling(tf):
    """tf.random.normal / truncated_normal with mean m and stddev s == Z * s + m for the standard draw Z of the
    same seeds, m and s spelled as Python floats, 0-d tensors, NumPy scalars and per-column arrays (a tensor
    and an ndarray of shape (3,), broadcast against the draw), eagerly and in a tf.function."""
    m_col, s_col = np.array([1.0, -3.0, 0.5], np.float32), np.array([0.5, 2.0, 1.5], np.float32)
    moments = [(k, v, k2, v2) for (k, v), (k2, v2) in zip(_bound_spellings(tf, 1.5).items(),
                                                           _bound_spellings(tf, 2.0).items())]
    moments += [("ndarray (3,)", m_col, "ndarray (3,)", s_col),
                ("tensor (3,)", tf.constant(m_col), "tensor (3,)", tf.constant(s_col))]
    failures = []
    for name, op in (("normal", tf.random.normal), ("truncated_normal", tf.random.truncated_normal)):
        for mode in ("eager", "function"):
            z1, z2 = _draw(tf, _closure(op, SHAPE, seed=OP), mode)
            if name == "truncated_normal":
                assert_true(bool(np.all(np.abs(z1) <= 2.0)), f"a standard truncated normal should lie in [-2, 2], "
                            f"got {z1.ravel()}", call=f"tf.random.truncated_normal({SHAPE}, seed={OP})")
            for mname, m, sname, s in moments:
                g1, g2 = _draw(tf, _closure(op, SHAPE, mean=m, stddev=s, seed=OP), mode)
                mv = np.asarray(to_numpy(m) if hasattr(m, "numpy") else m, np.float32)
                sv = np.asarray(to_numpy(s) if hasattr(s, "numpy") else s, np.float32)
                for got, z, n in ((g1, z1, "first"), (g2, z2, "second")):
                    want = z.astype(np.float32) * sv + mv
                    if not np.allclose(got, want, rtol=TOL.rtol, atol=TOL.atol):
                        failures.append(f"{name}(mean={mname}, stddev={sname}) {mode}, {n} call: {got.ravel()[:4]}, "
                                        f"but should be Z * stddev + mean = {want.ravel()[:4]}")
    tf.random.set_seed(GLOBAL)
    big = to_numpy(tf.random.normal([4096], seed=OP)).astype(np.float64)
    assert_true(abs(big.mean()) < 0.08 and abs(big.std() - 1.0) < 0.06,
                f"4096 standard normal draws should have mean ~0 and std ~1, got {big.mean():.4f}, {big.std():.4f}",
                call="tf.random.normal([4096])")
    assert_true(not failures, "; ".join(failures[:4]), call="tf.random.normal/truncated_normal moment spellings")


@clause("ops.stateless-random")
def test_spell25a_stateless_draws_every_bound_and_seed_spelling(tf):
    """stateless_uniform(minval=a, maxval=b) == U * (b - a) + a, stateless_normal and stateless_truncated_normal
    (mean=m, stddev=s) == Z * s + m, for the defaults' draws of the same seed, with the bounds as Python numbers,
    0-d tensors and NumPy scalars, and the seed as a list, a tuple, an int32 and an int64 tensor and a NumPy
    array (all the same draw)."""
    seeds = {"list": [3, 9], "tuple": (3, 9), "int32 tensor": tf.constant([3, 9], tf.int32),
             "int64 tensor": tf.constant([3, 9], tf.int64), "numpy int64": np.array([3, 9], np.int64)}
    u = to_numpy(tf.random.stateless_uniform(SHAPE, seed=[3, 9]))
    assert_true(bool(np.all((u >= 0) & (u < 1))) and u.std() > 0.1, f"stateless U should lie in [0, 1), got {u}",
                call="tf.random.stateless_uniform")
    failures = []
    for sname, seed in seeds.items():
        assert_equal(tf.random.stateless_uniform(SHAPE, seed=seed), u, call=f"stateless_uniform(seed={sname})")
        for (lo_name, lo), (hi_name, hi) in zip(_bound_spellings(tf, -2.0).items(), _bound_spellings(tf, 5.0).items()):
            got = to_numpy(tf.random.stateless_uniform(SHAPE, seed=seed, minval=lo, maxval=hi))
            want = u * np.float32(7.0) + np.float32(-2.0)
            if not np.allclose(got, want, rtol=TOL.rtol, atol=TOL.atol):
                failures.append(f"stateless_uniform(seed={sname}, minval={lo_name}, maxval={hi_name}): "
                                f"{got.ravel()[:4]}, but should be U * 7 - 2 = {want.ravel()[:4]}")
    for name, op in (("stateless_normal", tf.random.stateless_normal),
                     ("stateless_truncated_normal", tf.random.stateless_truncated_normal)):
        z = to_numpy(op(SHAPE, seed=[3, 9]))
        for sname in ("list", "int64 tensor"):
            for (mname, m), (dname, s) in zip(_bound_spellings(tf, 1.5).items(), _bound_spellings(tf, 2.0).items()):
                got = to_numpy(op(SHAPE, seed=seeds[sname], mean=m, stddev=s))
                want = z * np.float32(2.0) + np.float32(1.5)
                if not np.allclose(got, want, rtol=TOL.rtol, atol=TOL.atol):
                    failures.append(f"{name}(seed={sname}, mean={mname} 1.5, stddev={dname} 2): {got.ravel()[:4]}, "
                                    f"but should be Z * 2 + 1.5 = {want.ravel()[:4]}")
    assert_true(not failures, "; ".join(failures[:4]), call="stateless bound/moment/seed spellings")


def _mixed_draw(tf, key, counter, replica, shape):
    """The draw of a generator state (counter, key) in replica `replica` (None: cross-replica), from raw ops:
    the key is StatelessRandomUniformFullIntV2(shape=[1], key, counter=[replica, 0]) in a replica."""
    k = tf.constant(np.array([key], np.int64).view(np.uint64))
    if replica is not None:
        k = tf.raw_ops.StatelessRandomUniformFullIntV2(shape=[1], key=k, counter=tf.constant([replica, 0], tf.uint64),
                                                       dtype=tf.uint64, alg=1)
    c = tf.constant(np.array(counter, np.int64).view(np.uint64))
    return to_numpy(tf.raw_ops.StatelessRandomNormalV2(shape=list(shape), key=k, counter=c, alg=1))


@clause("ops.random-generator")
@pytest.mark.parametrize("replicas", [1, 2])
def test_spell25a_generator_draws_in_each_replica_mix_the_replica_id(backend, tf, replicas):
    """A tf.random.Generator.from_seed(7) made in MirroredStrategy(n).scope(): g.normal([3]) drawn outside run is
    the stateless normal of its state's key and counter; drawn in strategy.run, each replica r (replica 0 too,
    and with one replica) draws with the key StatelessRandomUniformFullIntV2(key, counter=[r, 0]) instead, at
    the counter the state held before the call."""
    strategy = backend.make_strategy("mirrored", replicas)
    with strategy.scope():
        g = tf.random.Generator.from_seed(7)
    state = to_numpy(g.state).astype(np.int64)
    cross = to_numpy(g.normal([3]))
    assert_close(cross, _mixed_draw(tf, int(state[2]), state[:2], None, (3,)), tolerance=TOL,
                 call=f"Generator.normal([3]) cross-replica, MirroredStrategy({replicas})")
    state = to_numpy(g.state).astype(np.int64)
    out = strategy.run(lambda: g.normal([3]))
    for r, got in enumerate(strategy.experimental_local_results(out)):
        assert_close(got, _mixed_draw(tf, int(state[2]), state[:2], r, (3,)), tolerance=TOL,
                     call=f"Generator.normal([3]) in replica {r} of MirroredStrategy({replicas})")
