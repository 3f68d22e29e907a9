"""GradientTape — clauses autodiff.* (TF 2.21's tf.GradientTape; no seed document states them).

Expected values are computed here (calculus on small programs); the rules come from TF 2.21's
backprop.py/tape.h and from runs of it (tests/runtime/test_autodiff_differential_tf.py compares whole
results with TF 2.21).
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal, assert_true, raises, to_numpy

clause = pytest.mark.clause


@clause("autodiff.watch", ref="tf221")
def test_watched_tensor_gets_its_gradient(backend, tf):
    x = tf.constant([1.0, 2.0, 3.0])
    with tf.GradientTape() as t:
        t.watch(x)
        y = tf.reduce_sum(x * x * x)
    assert_close(t.gradient(y, x), 3 * np.array([1.0, 2.0, 3.0]) ** 2, call="d/dx sum(x^3)")


@clause("autodiff.watch", ref="tf221")
def test_unwatched_tensor_gives_none(backend, tf):
    x = tf.constant(2.0)
    with tf.GradientTape() as t:
        y = x * x
    assert_true(t.gradient(y, x) is None, "gradient of an unwatched tensor is not None", call="d/dx x*x, x unwatched")


@clause("autodiff.watch", ref="tf221")
def test_unwatched_source_beside_a_watched_one_gives_none(backend, tf):
    """An unwatched tensor that a recorded op took as an input (beside a watched variable) is still
    not differentiated: TF 2.21 returns None for it (or zeros with unconnected_gradients=ZERO), while
    a source that is also a target gets its seed of ones."""
    v, x = tf.Variable([1.0, 2.0]), tf.constant([3.0, 4.0])
    with tf.GradientTape(persistent=True) as t:
        z = x * 2.0
        y = tf.reduce_sum(z * v) + tf.reduce_sum(x * v)
    gv, gx, gz = t.gradient(y, [v, x, z])
    assert_close(gv, np.array([9.0, 12.0]), call="d/dv sum(2x*v) + sum(x*v)")
    assert_true(gx is None, f"gradient of the unwatched x is {gx!r}, not None", call="d/dx, x unwatched, v watched")
    assert_true(gz is None, f"gradient of the unwatched z = 2x is {gz!r}, not None", call="d/dz, z made outside the tape's record")
    zeros = t.gradient(y, [x], unconnected_gradients=tf.UnconnectedGradients.ZERO)[0]
    assert_close(zeros, np.zeros(2), call="d/dx with unconnected_gradients=ZERO")
    assert_close(t.gradient(x, x), np.ones(2), call="d/dx x, x unwatched (a source that is a target)")


@clause("autodiff.watch", ref="tf221")
def test_unconnected_gradients_is_an_enum(backend, tf):
    """tf.UnconnectedGradients is an Enum (TF 2.21): its members are not their strings, `.value` is, the class maps a
    string to its member and refuses another; `gradient` takes the member or the string."""
    U = tf.UnconnectedGradients
    assert_equal([m.value for m in U], ["none", "zero"], call="list(tf.UnconnectedGradients)", what="the values")
    assert_true(U.ZERO != "zero" and U("zero") is U.ZERO, f"ZERO == 'zero' is {U.ZERO == 'zero'}, U('zero') is "
                f"{U('zero')!r}; TF: ZERO != 'zero' and U('zero') is ZERO", call="tf.UnconnectedGradients")
    with raises(ValueError, match="is not a valid UnconnectedGradients", call="tf.UnconnectedGradients('bad')"):
        U("bad")
    v = tf.Variable(1.0)
    for given in (U.ZERO, "zero"):
        with tf.GradientTape() as t:
            y = tf.constant(2.0)
        assert_close(t.gradient(y, v, unconnected_gradients=given), np.zeros(()),
                     call=f"gradient(unconnected_gradients={given!r}) of an unconnected variable")


@clause("autodiff.watch", ref="tf221")
def test_trainable_variables_are_watched_when_read(backend, tf):
    v = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
    w = tf.Variable(3.0, trainable=False)
    with tf.GradientTape() as t:
        y = tf.reduce_sum(v * w)
    gv, gw = t.gradient(y, [v, w])
    assert_close(gv, np.full((2, 2), 3.0), call="d/dv sum(v*w)")
    assert_true(gw is None, f"gradient of a non-trainable variable is {gw!r}, not None", call="d/dw sum(v*w)")
    assert_equal(len(t.watched_variables()), 1, what="len(watched_variables())", call="tape that read v and w")


@clause("autodiff.watch", ref="tf221")
def test_watch_accessed_variables_false(backend, tf):
    v, w = tf.Variable(2.0), tf.Variable(5.0)
    with tf.GradientTape(watch_accessed_variables=False, persistent=True) as t:
        t.watch(v)
        y = v ** 2
        z = w ** 3
    assert_close(t.gradient(y, v), 4.0, call="d/dv v^2 (watched)")
    assert_true(t.gradient(z, w) is None, "w was not watched but has a gradient", call="d/dw w^3")


@clause("autodiff.integer", ref="tf221")
def test_integer_tensors_have_no_gradient(backend, tf):
    xi = tf.constant(3)
    with tf.GradientTape(persistent=True) as t:
        t.watch(xi)
        yi = xi * xi
        yf = tf.cast(xi, tf.float32) * 2.0
    assert_true(t.gradient(yi, xi) is None, "d(int)/d(int) is not None", call="xi*xi")
    assert_true(t.gradient(yf, xi) is None, "d(float)/d(int) is not None", call="cast(xi)*2")


@clause("autodiff.integer", ref="tf221")
def test_add_n_of_one_variable_is_its_read(backend, tf):
    v = tf.Variable([1.0, 2.0])
    r = tf.math.add_n([v])
    v.assign([5.0, 6.0])   # a read keeps the value it had; the variable itself would show the assign
    assert_equal(to_numpy(r), np.array([1.0, 2.0], np.float32), call="add_n([v]) after v.assign([5, 6])")
    vi = tf.Variable([1, 2], dtype=tf.int64)
    with tf.GradientTape() as t:
        t.watch(vi)
        y = tf.math.add_n([vi])
    assert_equal(to_numpy(t.gradient(y, vi)), np.array([1, 1], np.int64), call="d add_n([int64 v]) / dv")


@clause("autodiff.persistent", ref="tf221")
def test_one_shot_tape_refuses_a_second_gradient(backend, tf):
    x = tf.constant(3.0)
    with tf.GradientTape() as t:
        t.watch(x)
        y = x * x
    assert_close(t.gradient(y, x), 6.0, call="first gradient")
    with raises(RuntimeError, match="non-persistent", call="second gradient of a one-shot tape"):
        t.gradient(y, x)


@clause("autodiff.persistent", ref="tf221")
def test_persistent_tape_gives_several_gradients(backend, tf):
    x = tf.constant(3.0)
    with tf.GradientTape(persistent=True) as g:
        g.watch(x)
        y = x * x
        z = y * y
    assert_close(g.gradient(z, x), 4 * 27.0, call="d/dx x^4 at 3")
    assert_close(g.gradient(y, x), 6.0, call="d/dx x^2 at 3")


@clause("autodiff.stop-recording", ref="tf221")
def test_stop_recording_and_reset(backend, tf):
    x = tf.constant(4.0)
    with tf.GradientTape() as t:
        t.watch(x)
        with t.stop_recording():
            y = x ** 2
        z = x * 2.0
    assert_close(t.gradient([y, z], x), 2.0, call="y made while stopped, z = 2x")
    v = tf.Variable(1.0)
    with tf.GradientTape() as t:
        a = v * 2.0
        t.reset()
        b = v * 3.0 + a
    assert_close(t.gradient(b, v), 3.0, call="after reset() only 3v counts")


@clause("autodiff.targets", ref="tf221")
def test_targets_add_up_and_keep_the_sources_structure(backend, tf):
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape(persistent=True) as t:
        t.watch(x)
        y = x * 3.0
    assert_close(t.gradient(y, x), [3.0, 3.0], call="non-scalar target: d sum(y)")
    assert_close(t.gradient([y, y], x), [6.0, 6.0], call="two targets add up")
    assert_close(t.gradient(y, x, output_gradients=tf.constant([1.0, 10.0])), [3.0, 30.0], call="output_gradients")
    a, b = tf.Variable(1.0), tf.Variable(2.0)
    with tf.GradientTape() as t2:
        z = a * b
    out = t2.gradient(z, {"first": [a], "second": (b,)})
    assert_true(isinstance(out, dict) and isinstance(out["first"], list) and isinstance(out["second"], tuple),
                f"gradient kept no structure of the sources: {out!r}", call="sources {'first': [a], 'second': (b,)}")
    assert_close(out["first"][0], 2.0, call="d(ab)/da")
    assert_close(out["second"][0], 1.0, call="d(ab)/db")


@clause("autodiff.unconnected", ref="tf221")
def test_unconnected_gradients_none_or_zero(backend, tf):
    x = tf.constant([1.0, 2.0])
    other = tf.constant([5.0, 6.0, 7.0])
    with tf.GradientTape(persistent=True) as t:
        t.watch(x)
        y = x * 3.0
    assert_true(t.gradient(y, other) is None, "unconnected source did not give None", call="NONE")
    assert_close(t.gradient(y, other, unconnected_gradients=tf.UnconnectedGradients.ZERO), np.zeros(3),
                 call="ZERO")
    with raises(ValueError, match="unconnected_gradients", call="unconnected_gradients='bogus'"):
        t.gradient(y, x, unconnected_gradients="bogus")


@clause("autodiff.stop-gradient", ref="tf221")
def test_stop_gradient_is_a_constant(backend, tf):
    x = tf.constant(3.0)
    with tf.GradientTape() as t:
        t.watch(x)
        y = tf.stop_gradient(x) * x
    assert_close(t.gradient(y, x), 3.0, call="d/dx stop_gradient(x)*x")


@clause("autodiff.custom-gradient", ref="tf221")
def test_custom_gradient_replaces_the_gradient(backend, tf):
    @tf.custom_gradient
    def log1pexp(x):
        e = tf.exp(x)

        def grad(upstream):
            return upstream * (1 - 1 / (1 + e))
        return tf.math.log(1 + e), grad
    x = tf.constant([0.0, 100.0])
    with tf.GradientTape() as t:
        t.watch(x)
        y = tf.reduce_sum(log1pexp(x))
    assert_close(t.gradient(y, x), [0.5, 1.0], call="the docstring's log1pexp at 0 and 100")


@clause("autodiff.custom-gradient", ref="tf221")
def test_custom_gradient_with_variables(backend, tf):
    v = tf.Variable(2.0)

    @tf.custom_gradient
    def scale(x):
        def grad(upstream, variables=None):
            return upstream * v * 10.0, [upstream * x * 100.0]
        return x * v, grad
    x = tf.constant(3.0)
    with tf.GradientTape() as t:
        t.watch(x)
        z = scale(x)
    gx, gv = t.gradient(z, [x, v])
    assert_close(gx, 20.0, call="custom d/dx")
    assert_close(gv, 300.0, call="custom d/dv")


@clause("autodiff.higher-order", ref="tf221")
def test_nested_tapes_give_second_derivatives(backend, tf):
    x = tf.constant(5.0)
    with tf.GradientTape() as g:
        g.watch(x)
        with tf.GradientTape() as gg:
            gg.watch(x)
            y = x * x * x
        dy = gg.gradient(y, x)
    assert_close(dy, 75.0, call="3x^2 at 5")
    assert_close(g.gradient(dy, x), 30.0, call="6x at 5")


@clause("autodiff.jacobian", ref="tf221")
def test_jacobian_and_batch_jacobian(backend, tf):
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as g:
        g.watch(x)
        y = x * x
    assert_close(g.jacobian(y, x), np.diag([2.0, 4.0]), call="jacobian of x*x")
    xb = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    with tf.GradientTape() as g:
        g.watch(xb)
        yb = xb * xb
    bj = to_numpy(g.batch_jacobian(yb, xb))
    assert_equal(bj.shape, (2, 2, 2), what="batch_jacobian shape", call="batch_jacobian of x*x, x [2,2]")
    assert_close(bj, np.stack([np.diag([2.0, 4.0]), np.diag([6.0, 8.0])]), call="batch_jacobian of x*x")


@clause("autodiff.indexed-slices", ref="tf221")
def test_gather_of_a_variable_gives_indexed_slices(backend, tf):
    v = tf.Variable([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    with tf.GradientTape() as t:
        y = tf.reduce_sum(tf.gather(v, [2, 0, 2]))
    g = t.gradient(y, v)
    assert_equal(type(g).__name__, "IndexedSlices", what="type(gradient)", call="d/dv sum(gather(v, [2, 0, 2]))")
    assert_equal(sorted(to_numpy(g.indices).tolist()), [0, 2, 2], what="indices")
    assert_close(tf.convert_to_tensor(g), [[1.0, 1.0], [0.0, 0.0], [2.0, 2.0]], call="the dense gradient")


@clause("autodiff.strategy-run", ref="tf221")
@pytest.mark.parametrize("kind,n", [("mirrored", 2), ("central_storage", 2), ("one_device", 1)],
                         ids=["mirrored-2", "central_storage-2", "one_device-1"])
def test_a_tape_per_replica_inside_run(backend, tf, kind, n):
    s = backend.make_strategy(kind, n)
    with s.scope():
        v = tf.Variable(2.0)

    def step():
        ctx = tf.distribute.get_replica_context()
        with tf.GradientTape() as t:
            y = v * v * (tf.cast(ctx.replica_id_in_sync_group, tf.float32) + 1.0)
        return t.gradient(y, v)
    got = [float(to_numpy(x)) for x in s.experimental_local_results(s.run(step))]
    assert_close(got, [4.0 * (i + 1) for i in range(n)], call=f"{kind}({n}).run(tape per replica)")


@clause("autodiff.strategy-run", ref="tf221")
@pytest.mark.parametrize("kind,n,sees", [("mirrored", 1, False), ("mirrored", 2, False), ("one_device", 1, True)],
                         ids=["mirrored-1", "mirrored-2", "one_device-1"])
def test_an_outer_tape_sees_run_only_on_one_device(backend, tf, kind, n, sees):
    s = backend.make_strategy(kind, n)
    with s.scope():
        v = tf.Variable(2.0)
    with tf.GradientTape() as tape:
        loss = s.reduce("SUM", s.run(lambda: v * v), axis=None)
    g = tape.gradient(loss, v)
    assert_true((g is not None) == sees, f"gradient through {kind}({n}).run from an outer tape is {g!r}",
                call=f"tape around {kind}({n}).run")


# -- pss.sharded-gradients ------------------------------------------------------------------------------
@clause("pss.sharded-gradients")
@pytest.mark.requires("multi_worker")
def test_partitioned_variables_are_differentiated_through_their_shards(backend, tf):
    cluster = backend.make_ps_cluster(
        workers=1, ps=2, variable_partitioner=tf.distribute.experimental.partitioners.FixedShardsPartitioner(2))
    with cluster.strategy.scope():
        emb = tf.Variable(np.arange(14, dtype=np.float32).reshape(7, 2), name="emb")
    shards = emb.variables
    assert_equal(len(shards), 2, what="len(emb.variables)", call="FixedShardsPartitioner(2) on [7, 2]")
    ids = [0, 5, 5, 1]
    with tf.GradientTape(persistent=True) as t:
        loss = tf.reduce_sum(tf.nn.embedding_lookup(emb, tf.constant(ids)))
    with raises((AttributeError, TypeError, ValueError), call="tape.gradient(loss, sharded_variable)"):
        t.gradient(loss, emb)
    grads = t.gradient(loss, shards)
    rows = [4, 3]   # the div split of 7 rows over 2 shards
    want = [np.zeros((4, 2)), np.zeros((3, 2))]
    for i in ids:
        s, local = (0, i) if i < rows[0] else (1, i - rows[0])
        want[s][local] += 1.0
    for k, g in enumerate(grads):
        assert_equal(type(g).__name__, "IndexedSlices", what=f"type(gradient of shard {k})",
                     call="d/d emb.variables of an embedding_lookup")
        assert_close(tf.convert_to_tensor(g), want[k], call=f"dense gradient of shard {k}")
