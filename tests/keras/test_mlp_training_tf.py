"""Issue 13's acceptance run: a 2-layer MLP (784-256-10, global batch 256) trained 200 steps with
SGD under MirroredStrategy on 4 replicas ends with the same weights as TF 2.21 (rtol 1e-4) from
the same initial weights, with the tutorial's custom loop (GradientTape, sparse softmax
cross-entropy, compute_average_loss, apply_gradients inside strategy.run). Needs the `tf` extra.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

STEPS, GB, D, H, C, LR = 200, 256, 784, 256, 10, 0.1


def train(tf: Any, steps: int = STEPS) -> dict[str, Any]:
    """The program, the same on both backends: final weights and the loss every 20 steps."""
    rng = np.random.default_rng(0)
    w1_0 = (rng.standard_normal((D, H)) * 0.05).astype("float32")
    w2_0 = (rng.standard_normal((H, C)) * 0.05).astype("float32")
    x_all = rng.random((GB * steps, D), dtype=np.float32)
    y_all = rng.integers(0, C, GB * steps).astype("int32")
    strategy = tf.distribute.MirroredStrategy([f"/cpu:{i}" for i in range(4)])
    with strategy.scope():
        w1, b1 = tf.Variable(w1_0), tf.Variable(np.zeros(H, "float32"))
        w2, b2 = tf.Variable(w2_0), tf.Variable(np.zeros(C, "float32"))
        opt = tf.keras.optimizers.SGD(LR)
    params = [w1, b1, w2, b2]

    def train_step(x: Any, y: Any) -> Any:
        with tf.GradientTape() as tape:
            h = tf.nn.relu(tf.matmul(x, w1) + b1)
            logits = tf.matmul(h, w2) + b2
            per_example = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits)
            loss = tf.nn.compute_average_loss(per_example, global_batch_size=GB)
        grads = tape.gradient(loss, params)
        opt.apply_gradients(zip(grads, params))
        return loss

    @tf.function
    def dist_step(x: Any, y: Any) -> Any:
        return strategy.reduce("SUM", strategy.run(train_step, args=(x, y)), axis=None)

    ds = strategy.experimental_distribute_dataset(tf.data.Dataset.from_tensor_slices((x_all, y_all)).batch(GB))
    losses = []
    for k, (x, y) in enumerate(ds):
        loss = dist_step(x, y)
        if k % 20 == 0:
            losses.append(float(loss.numpy()))
    return {"losses": losses, "iterations": int(opt.iterations.numpy()),
            "weights": [np.asarray(v.numpy()) for v in params]}


def _tf_worker(indices: list[int]) -> dict[int, Any]:
    import tensorflow as tf
    cpu = tf.config.list_physical_devices("CPU")[0]
    tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 4)
    return {0: train(tf)}


@pytest.fixture(scope="module")
def tf_result() -> dict[str, Any]:
    return tf_workers.spawn(__file__, [0])[0]


@pytest.mark.clause("optim.mirrored-sum")
def test_mlp_200_steps_ends_with_tf_weights(tf_result: dict[str, Any]) -> None:
    import simdist
    from simdist import tf
    simdist.reset()
    cpu = tf.config.list_physical_devices("CPU")[0]
    tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 4)
    got = train(tf)
    assert got["iterations"] == tf_result["iterations"] == STEPS, \
        f"iterations={got['iterations']}, TF 2.21 {tf_result['iterations']}, should be {STEPS}"
    for k, (g, w) in enumerate(zip(got["weights"], tf_result["weights"])):
        worst = float(np.max(np.abs(g - w) / (np.abs(w) + 1e-6)))
        assert np.allclose(g, w, rtol=1e-4, atol=1e-6), \
            f"weight {k} after {STEPS} steps differs from TF 2.21's (worst relative difference {worst:.2e} > 1e-4)"
    assert np.allclose(got["losses"], tf_result["losses"], rtol=1e-4), \
        f"losses every 20 steps {got['losses']}, but TF 2.21 gives {tf_result['losses']}"
    assert got["losses"][-1] < got["losses"][0], f"the loss did not decrease: {got['losses']}"


if __name__ == "__main__":  # TF worker
    tf_workers.serve(_tf_worker)
