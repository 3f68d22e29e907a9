"""Replicas fused in a recorded tf.function (simdist/runtime/lanes/, clause function.trace-once).

A MirroredStrategy step recorded by a tf.function replays each op once for all replicas. What a
replica computes must stay what it computes alone, bit for bit (only cross-replica sums of
contractions may round differently: tests/runtime/test_function_trace.py), and when the mirrored copies
are not known equal the replay must go replica by replica.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

N, D, H, C = 4, 6, 8, 3     # rows per replica, features, hidden units, classes


def _session(replicas: int) -> Any:
    import simdist
    from simdist import tf
    simdist.reset()
    cpu = tf.config.list_physical_devices("CPU")[0]
    tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * replicas)
    return tf


def _dense(tf: Any, x: Any, y: Any, w: Any, b: Any) -> tuple:
    z = tf.matmul(x, w) + b
    h = tf.nn.relu(z)
    logits = tf.matmul(h, tf.transpose(w)[:, :C])
    return (z, h, logits, tf.nn.softmax(logits), tf.nn.log_softmax(logits),
            tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits),
            tf.nn.softmax_cross_entropy_with_logits(labels=tf.one_hot(y, C), logits=logits))


def _reductions(tf: Any, x: Any, y: Any, w: Any, b: Any) -> tuple:
    return (tf.reduce_sum(x), tf.reduce_sum(x, axis=1), tf.reduce_mean(x, axis=0), tf.reduce_max(x, axis=-1, keepdims=True),
            tf.reduce_min(x, axis=[0, 1]), tf.reduce_prod(x[:, :2], axis=1), tf.argmax(x, axis=1))


def _shapes(tf: Any, x: Any, y: Any, w: Any, b: Any) -> tuple:
    t = tf.transpose(x)
    return (t, tf.reshape(x, [-1]), tf.reshape(x, [2, -1, 3]), tf.expand_dims(x, 1), tf.squeeze(tf.expand_dims(x, 0)),
            tf.concat([x, x * 2.0], axis=1), x[1:, ::2], tf.shape(x), tf.cast(x > 0.5, tf.int32))


def _elementwise(tf: Any, x: Any, y: Any, w: Any, b: Any) -> tuple:
    s = tf.reduce_sum(x, axis=1)                  # a scalar per row, broadcast against a vector
    return (tf.sigmoid(x), tf.tanh(x), tf.exp(-x), tf.math.log1p(x), tf.nn.elu(x - 0.5), tf.nn.leaky_relu(x - 0.5),
            tf.where(x > 0.5, x, -x), tf.maximum(x, b[:D]), s[:, None] * b, tf.nn.bias_add(x, b[:D]),
            tf.square(x) / (x + 1.0), tf.nn.l2_loss(x))


def _matmuls(tf: Any, x: Any, y: Any, w: Any, b: Any) -> tuple:
    v = x * 2.0
    return (tf.matmul(x, w), tf.matmul(x, tf.transpose(w), transpose_b=True), tf.matmul(x, v, transpose_a=True),
            tf.matmul(x, v, transpose_b=True), tf.linalg.matmul(tf.transpose(x), v))


def _images(tf: Any, x: Any, y: Any, w: Any, b: Any) -> tuple:
    img = tf.reshape(tf.tile(x, [1, 4]), [N, 4, 6, 1])
    k = tf.reshape(w[:4, :3], [2, 2, 1, 3])
    conv = tf.nn.conv2d(img, k, strides=1, padding="SAME")
    return (conv, tf.nn.max_pool2d(conv, 2, 2, "VALID"), tf.nn.avg_pool2d(conv, 2, 2, "SAME"),
            tf.reduce_mean(conv, axis=[1, 2]))


def _gradients(tf: Any, x: Any, y: Any, w: Any, b: Any) -> tuple:
    with tf.GradientTape() as tape:
        logits = tf.matmul(tf.nn.relu(tf.matmul(x, w) + b), tf.transpose(w)[:, :C])
        loss = tf.nn.compute_average_loss(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits),
                                          global_batch_size=4 * N)
    return (loss,) + tuple(tape.gradient(loss, [w, b]))


def _conv_gradients(tf: Any, x: Any, y: Any, w: Any, b: Any) -> tuple:
    img = tf.reshape(tf.tile(x, [1, 4]), [N, 4, 6, 1])
    with tf.GradientTape() as tape:
        tape.watch(img)
        k = tf.reshape(w[:4, :3], [2, 2, 1, 3])
        out = tf.nn.relu(tf.nn.conv2d(img, k, strides=1, padding="SAME"))
        loss = tf.reduce_sum(tf.nn.max_pool2d(out, 2, 2, "VALID") * b[:3])
    return tuple(tape.gradient(loss, [img, w, b])) + (tf.argmax(tf.reshape(out, [N, -1]), axis=1),)


def _declared_ops(tf: Any, x: Any, y: Any, w: Any, b: Any) -> tuple:
    """Ops added as one declaration each (runtime/ops/special.py, reductions.py, slicing.py): their
    stacked forms come from the declaration, forms.py names none of them."""
    return (tf.sin(x), tf.cos(x), tf.tan(x), tf.math.atan(x), tf.math.asinh(x), tf.math.erf(x), tf.math.expm1(x),
            tf.math.lgamma(x + 0.5), tf.math.digamma(x + 0.5), tf.math.log_sigmoid(x), tf.reverse(x, [1]),
            tf.math.reduce_euclidean_norm(x, axis=1), tf.math.cumulative_logsumexp(x, axis=1, exclusive=True))


def _declared_ops_more(tf: Any, x: Any, y: Any, w: Any, b: Any) -> tuple:
    """Issue 29's second batch (runtime/ops/special_more.py, array_more.py, linalg_more.py, nn_more.py,
    control_flow.py): the elementwise ones run stacked, the rest lane by lane for their stated reasons."""
    sq = tf.matmul(x, x, transpose_a=True) + tf.eye(D)
    return (tf.math.erfinv(x * 1.8 - 0.9), tf.math.ndtri(x * 0.9 + 0.05), tf.math.bessel_i0e(x), tf.math.bessel_i1(x),
            tf.math.igamma(x + 0.5, x), tf.math.zeta(x + 2.0, x + 0.5), tf.math.nextafter(x, b[:D]),
            tf.math.betainc(x + 0.5, x + 1.0, x * 0.9), tf.roll(x, [1, -2], [0, 1]), tf.searchsorted(tf.sort(x), x),
            tf.nn.crelu(x - 0.5), tf.math.lbeta(x + 0.5), tf.linalg.cholesky(sq), tf.linalg.det(sq),
            tf.map_fn(lambda r: tf.reduce_sum(r * r), x), tf.scan(lambda a, v: a * 0.5 + v, x))


def _softmax_family_float64(tf: Any, x: Any, y: Any, w: Any, b: Any) -> tuple:
    """Eigen's softmax-family kernels (softmax_eigen.py), whose exp/log packets run over the whole
    tensor: a lane's 4 x 3 logits have a flat tail of 4 (float32) or 0 (float64, P = 4) entries,
    4 lanes stacked none; odd row lengths (5 classes) move them again."""
    logits = tf.cast(tf.matmul(x, w)[:, :C], tf.float64)
    wide = tf.cast(tf.matmul(x, w)[:, :5], tf.float64)
    with tf.GradientTape() as tape:
        tape.watch(wide)
        loss = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=wide)
    return (tf.nn.softmax(logits), tf.nn.log_softmax(wide), tf.nn.softmax(wide), loss, tape.gradient(loss, wide),
            tf.nn.softmax_cross_entropy_with_logits(labels=tf.one_hot(y, 5, dtype=tf.float64), logits=wide),
            tf.nn.log_softmax(tf.cast(wide, tf.float32)))


PROGRAMS: list[Callable[..., tuple]] = [_dense, _reductions, _shapes, _elementwise, _matmuls, _images, _gradients,
                                        _conv_gradients, _declared_ops, _declared_ops_more, _softmax_family_float64]


def _run(program: Callable[..., tuple], fused: bool, replicas: int = 4, between: Callable[..., None] | None = None,
         calls: int = 3) -> dict[str, Any]:
    """The program's per-replica results over `calls` calls of a recorded step, with the
    replicas' lanes fused or not; `between(w, b)` runs after the first call."""
    from simdist.runtime import graph, lanes
    tf = _session(replicas)
    old = lanes.enabled
    lanes.enabled = fused
    try:
        rng = np.random.default_rng(7)
        strategy = tf.distribute.MirroredStrategy([f"/cpu:{i}" for i in range(replicas)])
        with strategy.scope():
            w = tf.Variable(rng.standard_normal((D, H)).astype("float32"))
            b = tf.Variable(rng.standard_normal(H).astype("float32"))

        @tf.function
        def step(x: Any, y: Any) -> Any:
            return strategy.run(lambda x, y: program(tf, x, y, w, b), args=(x, y))

        xs = rng.random((replicas * N * calls, D), dtype=np.float32)
        ys = rng.integers(0, C, replicas * N * calls).astype("int32")
        ds = strategy.experimental_distribute_dataset(
            tf.data.Dataset.from_tensor_slices((xs, ys)).batch(replicas * N))
        results = []
        for k, (x, y) in enumerate(ds):
            out = step(x, y)
            results.append([[(np.asarray(t.numpy()).tobytes(), str(t.dtype), t.device) for t in strategy.experimental_local_results(o)]
                            for o in out])
            if k == 0 and between is not None:
                between(w, b)
        return {"results": results, "explain": graph.explain(step)}
    finally:
        lanes.enabled = old


@pytest.mark.parametrize("program", PROGRAMS, ids=[p.__name__.strip("_") for p in PROGRAMS])
def test_each_replica_sees_what_it_computes_alone(program: Callable[..., tuple]) -> None:
    fused = _run(program, True)
    plain = _run(program, False)
    assert "with its replicas fused" in fused["explain"], f"{program.__name__}: {fused['explain']}"
    assert "replicas fused" not in plain["explain"], plain["explain"]
    for call, (f, p) in enumerate(zip(fused["results"], plain["results"])):
        for i, (fo, po) in enumerate(zip(f, p)):
            for r, (a, e) in enumerate(zip(fo, po)):
                assert a == e, (f"{program.__name__}: output {i} of replica {r} in call {call}: fused "
                                f"{np.frombuffer(a[0], np.uint8)[:16]}..., {a[1:]} but replica by replica "
                                f"{np.frombuffer(e[0], np.uint8)[:16]}..., {e[1:]}")


def test_declared_ops_run_stacked_not_lane_by_lane(monkeypatch: pytest.MonkeyPatch) -> None:
    """A new op's fusion rule is its declaration: none of them falls back to the lane loop."""
    from simdist.runtime.lanes import forms
    looped: list[str] = []
    loop = forms.lane_loop

    def spy(impl: Any, stacked: tuple, R: int, multi: bool) -> Any:
        looped.append(getattr(impl, "__qualname__", repr(impl)))
        return loop(impl, stacked, R, multi)
    monkeypatch.setattr(forms, "lane_loop", spy)
    fused = _run(_declared_ops, True)
    assert "with its replicas fused" in fused["explain"], fused["explain"]
    assert looped == [], f"ops run lane by lane instead of stacked: {looped}"


def test_two_replicas_fuse_too() -> None:
    fused, plain = _run(_dense, True, replicas=2), _run(_dense, False, replicas=2)
    assert "with its replicas fused" in fused["explain"], fused["explain"]
    assert fused["results"] == plain["results"], "2 replicas: fused results differ from replica by replica"


def _spy_guard(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    from simdist.runtime import lanes
    seen: list[bool] = []
    ok = lanes.Guard.ok

    def spy(self: Any) -> bool:
        seen.append(ok(self))
        return seen[-1]
    monkeypatch.setattr(lanes.Guard, "ok", spy)
    return seen


def test_copies_written_apart_replay_replica_by_replica(monkeypatch: pytest.MonkeyPatch) -> None:
    """One replica's copy of a mirrored variable written alone: the copies differ, so later
    replays must compute each replica with its own copy, as TF does."""
    def diverge(w: Any, b: Any) -> None:
        w.values[1].assign(w.values[1] + 1.0)
    seen = _spy_guard(monkeypatch)
    fused = _run(_dense, True, between=diverge)
    plain = _run(_dense, False, between=diverge)
    assert seen == [False, False], f"the guard should refuse both replays after the copies diverged, saw {seen}"
    assert fused["results"] == plain["results"], "after the copies diverged the replays differ from replica by replica"
    assert fused["results"][1][0][1] != fused["results"][1][0][0], "replica 1 should see its own (changed) copy"


def test_copies_assigned_together_stay_fused(monkeypatch: pytest.MonkeyPatch) -> None:
    """A mirrored assign writes every copy: they are compared once, found equal, and fused."""
    def assign(w: Any, b: Any) -> None:
        w.assign(w * 0.5)
    seen = _spy_guard(monkeypatch)
    fused = _run(_dense, True, between=assign)
    plain = _run(_dense, False, between=assign)
    assert seen == [True, True], f"the guard should accept both replays, saw {seen}"
    assert fused["results"] == plain["results"], "after a mirrored assign the fused replays differ"


def test_random_ops_keep_replicas_apart() -> None:
    def dropout(tf: Any, x: Any, y: Any, w: Any, b: Any) -> tuple:
        return (tf.matmul(x, w) * tf.random.uniform([N, H]),)
    out = _run(dropout, True)
    assert "its replicas one by one: an op is stateful" in out["explain"], out["explain"]


def test_copies_stay_independent_variables_after_fused_updates() -> None:
    """A fused update gives the copies one buffer (ResourceVariable._share); writing one copy
    afterwards must leave the others as they were."""
    tf = _session(4)
    strategy = tf.distribute.MirroredStrategy([f"/cpu:{i}" for i in range(4)])
    with strategy.scope():
        w = tf.Variable(np.arange(6, dtype=np.float32))
        opt = tf.keras.optimizers.SGD(0.5)
    opt.build([w])

    @tf.function
    def step(x: Any) -> Any:
        def replica(x: Any) -> Any:
            with tf.GradientTape() as tape:
                loss = tf.reduce_sum(w * x)
            opt.apply_gradients([(tape.gradient(loss, w), w)])
            return loss
        return strategy.run(replica, args=(x,))

    ds = strategy.experimental_distribute_dataset(tf.data.Dataset.from_tensor_slices(
        np.ones((12, 6), np.float32)).batch(4))
    for x in ds:
        step(x)
    from simdist.runtime import graph
    assert "with its replicas fused" in graph.explain(step), graph.explain(step)
    before = [c.numpy().copy() for c in w.values]
    assert all(np.array_equal(b, before[0]) for b in before), f"copies differ after the steps: {before}"
    w.values[2].assign_add(np.ones(6, np.float32))
    after = [c.numpy() for c in w.values]
    for r in (0, 1, 3):
        assert np.array_equal(after[r], before[r]), f"copy {r} changed with copy 2: {after[r]} vs {before[r]}"
    assert np.array_equal(after[2], before[2] + 1), f"copy 2 is {after[2]}, should be {before[2] + 1}"
