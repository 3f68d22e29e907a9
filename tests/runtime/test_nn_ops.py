"""simdist's tf.nn beyond the per-op table (tests/ops/specs_nn.py): dropout's seeding and
gradient, stateless dropout, FLOP counts, second derivatives TF cannot compare, and a
convolutional train step that records and replays bit for bit under ParameterServerStrategy."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import simdist
from simdist import tf
from simdist.runtime import graph
from simdist.runtime.ops import grappler
from simdist.runtime.cost import measure
from ps_helpers import coordinator, pss
from strategies_helpers import mirrored


def _mask(seed: int, op_seed: int | None = 3) -> np.ndarray:
    simdist.reset(seed=seed)
    return tf.nn.dropout(tf.ones([16, 16]), 0.5, seed=op_seed).numpy()


# -- dropout ----------------------------------------------------------------------------------------
@pytest.mark.clause("nn.dropout-seeding")
def test_dropout_mask_is_a_function_of_the_root_seed() -> None:
    """Without any seed the mask is a function of the root seed; an op seed alone gives TF's seeds
    (87654321, op seed), whatever the root seed (ops.random-bits)."""
    a, b, c = _mask(1, None), _mask(1, None), _mask(2, None)
    assert np.array_equal(a, b), "the same root seed gave two different unseeded dropout masks"
    assert not np.array_equal(a, c), "root seeds 1 and 2 gave the same unseeded dropout mask"
    assert np.array_equal(_mask(1), _mask(2)), "an op-seeded dropout's mask changed with the root seed (TF: fixed seeds)"


@pytest.mark.clause("nn.dropout-seeding")
def test_dropout_gradient_is_the_mask_scaled() -> None:
    x = tf.constant(np.linspace(1, 2, 40, dtype=np.float32).reshape(4, 10))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.nn.dropout(x, 0.25, seed=1)
    g = tape.gradient(y, x).numpy()
    kept = y.numpy() != 0
    assert np.allclose(g, np.where(kept, np.float32(1 / 0.75), 0)), f"gradient {g[0]}, mask {kept[0]}"


def test_dropout_rate_zero_returns_its_input() -> None:
    x = tf.constant([1.0, 2.0])
    assert tf.nn.dropout(x, 0.0) is x, "dropout(x, 0.0) should return x itself, as TF"


def test_dropout_rate_tensor_scales_by_division() -> None:
    x = tf.ones([50])
    out = tf.nn.dropout(x, tf.constant(0.5), seed=2).numpy()
    assert set(np.unique(out).tolist()) <= {0.0, 2.0}, f"values {np.unique(out)}, but should be 0 or 2"


@pytest.mark.clause("nn.dropout-seeding")
def test_stateless_dropout_depends_only_on_its_seed() -> None:
    def mask(root: int, seed: list[int]) -> np.ndarray:
        simdist.reset(seed=root)
        tf.random.set_seed(root + 5)
        return tf.nn.experimental.stateless_dropout(tf.ones([8, 8]), 0.5, seed=seed).numpy()
    a = mask(1, [4, 2])
    assert np.array_equal(a, mask(2, [4, 2])), "stateless_dropout changed with the root/global seed"
    assert np.array_equal(a, mask(1, [4, 2])), "stateless_dropout is not reproducible"
    assert not np.array_equal(a, mask(1, [4, 3])), "seeds [4, 2] and [4, 3] gave the same mask"
    kept = (a != 0).mean()
    assert 0.25 < kept < 0.75, f"kept {kept:.2f} of 64, expected about 0.5"


# -- FLOPs -----------------------------------------------------------------------------------------------
def test_conv2d_flops_forward_and_backward() -> None:
    """Conv2D and both backprops each charge 2 * out_pixels * kh * kw * cin * cout."""
    x = tf.ones([2, 8, 8, 3])
    w = tf.Variable(tf.ones([3, 3, 3, 4]))
    expected = 2.0 * (2 * 8 * 8) * 3 * 3 * 3 * 4
    with measure() as fwd:
        y = tf.nn.conv2d(x, w, 1, "SAME")
    assert fwd.flops == expected, f"forward charged {fwd.flops}, but should be {expected}"
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.nn.conv2d(x, w, 1, "SAME")
    with measure() as bwd:
        tape.gradient(y, [x, w])
    assert bwd.flops == 2 * expected, f"backward charged {bwd.flops}, but should be {2 * expected}"


def test_pool_and_softmax_flops() -> None:
    x = tf.ones([1, 4, 4, 2])
    with measure() as m:
        tf.nn.max_pool2d(x, 2, 2, "VALID")
    assert m.flops == 1 * 2 * 2 * 2 * 4, f"MaxPool charged {m.flops}, but should be out * kh * kw = 32"
    with measure() as m:
        tf.nn.softmax(tf.ones([3, 5]))
    assert m.flops == 5 * 15, f"Softmax charged {m.flops}, but should be 5 per element = 75"


# -- dtype rules ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("fn,want", [
    (lambda x: tf.nn.relu(x), "int32"), (lambda x: tf.nn.relu6(x), "int32"),
    (lambda x: tf.nn.leaky_relu(x), "float32"), (lambda x: tf.nn.bias_add(x, [1, 2]), "int32"),
])
def test_integer_inputs_keep_or_change_dtype_as_tf(fn: Any, want: str) -> None:
    out = fn(tf.constant([[-1, 2], [3, -4]]))
    assert out.dtype.name == want, f"dtype {out.dtype.name}, but TF 2.21 gives {want}"


# -- compute_average_loss in a training step ---------------------------------------------------------------
@pytest.mark.clause("nn.compute-average-loss")
def test_average_loss_gradients_sum_to_the_global_mean_gradient() -> None:
    """Under MirroredStrategy with 2 replicas of 3 examples each, each replica's loss is its sum
    over 6; the replicas' gradients added (what apply_gradients aggregates) are the gradient of
    the mean over the global batch."""
    s = mirrored(2)
    data = np.arange(12, dtype=np.float32).reshape(6, 2) / 10
    with s.scope():
        w = tf.Variable([[0.5], [-0.25]])
    parts = s.experimental_distribute_values_from_function(
        lambda ctx: tf.constant(data[3 * ctx.replica_id_in_sync_group:3 * ctx.replica_id_in_sync_group + 3]))

    def step(x: Any) -> Any:
        with tf.GradientTape() as tape:
            per_example = tf.reduce_sum(tf.square(tf.matmul(x, w)), axis=1)
            loss = tf.nn.compute_average_loss(per_example)
        return tape.gradient(loss, w)
    grads = s.experimental_local_results(s.run(step, args=(parts,)))
    total = sum(g.numpy() for g in grads)
    wv = np.array([[0.5], [-0.25]])
    want = (2 * data.T @ (data @ wv)) / 6
    assert np.allclose(total, want, rtol=1e-6), f"summed gradient {total.ravel()}, but should be {want.ravel()}"


# -- record and replay ------------------------------------------------------------------------------------
def _conv_step() -> tuple[Any, dict[str, Any]]:
    rng = np.random.default_rng(0)
    w = tf.Variable(rng.normal(size=(3, 3, 1, 4)).astype(np.float32) * 0.3, name="w")
    b = tf.Variable(tf.zeros([4]), name="b")
    d = tf.Variable(rng.normal(size=(16, 3)).astype(np.float32) * 0.3, name="d")
    x = tf.constant(rng.normal(size=(4, 4, 4, 1)).astype(np.float32))
    y = tf.constant([0, 2, 1, 2])

    @tf.function
    def step() -> Any:
        with tf.GradientTape() as tape:
            h = tf.nn.relu(tf.nn.bias_add(tf.nn.conv2d(x, w, 1, "SAME"), b))
            h = tf.nn.dropout(tf.nn.max_pool2d(h, 2, 2, "VALID"), 0.25, seed=4)
            logits = tf.matmul(tf.reshape(h, [4, 16]), d)
            per_example = tf.nn.sparse_softmax_cross_entropy_with_logits(y, logits)
            loss = tf.nn.compute_average_loss(per_example, global_batch_size=4)   # cross-replica: explicit
        gw, gb, gd = tape.gradient(loss, [w, b, d])
        w.assign_sub(0.1 * gw)
        b.assign_sub(0.1 * gb)
        d.assign_sub(0.1 * gd)
        return loss
    return step, {"w": w, "b": b, "d": d}


def _run(traced: bool) -> dict[str, Any]:
    simdist.reset()
    old = graph.enabled
    graph.enabled = traced
    try:
        strategy = pss(workers=2, ps=1)
        with strategy.scope():
            step, variables = _conv_step()
        coord = coordinator(strategy)
        results = [coord.schedule(step) for _ in range(6)]
        coord.join()
        return {"vars": {k: v.numpy().copy() for k, v in variables.items()},
                "losses": [float(r.fetch()) for r in results], "now": simdist.now(),
                "explain": graph.explain(step)}
    finally:
        graph.enabled = old


def test_a_conv_train_step_replays_as_it_runs_eagerly() -> None:
    """Without Grappler's rewrites a replay is the eager run, time included; with them (the default) the
    values are the same here and the traced step is cheaper (the loss gradient's `ones * g` forwards g, as
    TF's optimized graph does: a Mul fewer per step)."""
    old = grappler.set_enabled(False)
    try:
        eager, replayed = _run(False), _run(True)
    finally:
        grappler.set_enabled(old)
    rewritten = _run(True)
    for name, run in (("replay", replayed), ("replay with Grappler's rewrites", rewritten)):
        assert run["explain"].startswith("replays"), f"explain={run['explain']!r}, but should replay [{name}]"
        assert run["losses"] == eager["losses"], f"losses {run['losses']}, eager {eager['losses']} [{name}]"
        for k, v in eager["vars"].items():
            assert run["vars"][k].tobytes() == v.tobytes(), f"{k} differs between {name} and eager"
    assert replayed["now"] == eager["now"], f"simulated time {replayed['now']}, eager {eager['now']} [replay]"
    assert rewritten["now"] < eager["now"], \
        f"simulated time {rewritten['now']} with Grappler's rewrites, but should be below eager {eager['now']}"
    w0 = np.random.default_rng(0).normal(size=(3, 3, 1, 4)).astype(np.float32) * 0.3
    assert not np.allclose(eager["vars"]["w"], w0), "six train steps left the conv filter unchanged"
