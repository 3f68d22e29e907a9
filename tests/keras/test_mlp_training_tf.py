"""Issue 13's acceptance run: a 2-layer MLP (784-256-10, global batch 256) trained 200 steps with
SGD under MirroredStrategy on 4 replicas ends with the same weights as TF 2.21 (rtol 1e-4) from
the same initial weights, with the tutorial's custom loop (GradientTape, sparse softmax
cross-entropy, compute_average_loss, apply_gradients inside strategy.run). Needs the `tf` extra.

simdist's float32 matmuls are not TF's bit for bit (README, the open "float32 products" item), so a
hidden unit whose pre-activation lies within those last bits of 0 can take the other ReLU branch in
one run than in the other; from that step on the two trajectories part (by 1.5e-5 at the step, 1.8e-3
after 200 steps: docs/benchmarks.md, "Training step"). Which runs meet such a knife edge depends on
every last bit before it (the OpenBLAS kernel, the all-reduce's order: docs/conformance.md, fifty-fifth
session). So the program also reports, per step, a digest of the ReLU branch every pre-activation took
and TF's near-zero pre-activations; when the branches first part at step f, the test checks that they
part only on TF's near-zero pre-activations (|z| < 1e-5, within float32 products' rounding here) and that
the losses agree before f (rtol 1e-5), after it within rtol 1e-3; without a parting, the weights as before.
"""

from __future__ import annotations

from typing import Any

import hashlib

import numpy as np
import pytest

import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

STEPS, GB, D, H, C, LR = 200, 256, 784, 256, 10, 0.1
# a pre-activation this close to 0 may take either ReLU branch between two float32 products (784 terms of
# up to 0.05 summed: their roundings reach some 1e-6)
KNIFE = 1e-5


def _branches(positive: np.ndarray) -> str:
    """A digest of the ReLU branch every pre-activation of a step took (z > 0: the gradient passes)."""
    return hashlib.sha256(np.packbits(positive).tobytes()).hexdigest()[:16]


def train(tf: Any, steps: int = STEPS) -> dict[str, Any]:
    """The program, the same on both backends: final weights, the loss of every step (and every 20th),
    and per step the digest of the ReLU branches, the pre-activations within KNIFE of 0 and (for
    simdist's check) the branches themselves, packed."""
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
            z = tf.matmul(x, w1) + b1
            h = tf.nn.relu(z)
            logits = tf.matmul(h, w2) + b2
            per_example = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits)
            loss = tf.nn.compute_average_loss(per_example, global_batch_size=GB)
        grads = tape.gradient(loss, params)
        opt.apply_gradients(zip(grads, params))
        return loss, z

    @tf.function
    def dist_step(x: Any, y: Any) -> Any:
        loss, z = strategy.run(train_step, args=(x, y))
        return strategy.reduce("SUM", loss, axis=None), z

    ds = strategy.experimental_distribute_dataset(tf.data.Dataset.from_tensor_slices((x_all, y_all)).batch(GB))
    losses, every, branches, near, signs = [], [], [], [], []
    for k, (x, y) in enumerate(ds):
        loss, z = dist_step(x, y)
        every.append(float(loss.numpy()))
        if k % 20 == 0:
            losses.append(every[-1])
        z = np.concatenate([np.asarray(t.numpy()) for t in strategy.experimental_local_results(z)])
        branches.append(_branches(z > 0))
        signs.append(np.packbits(z > 0))
        near.append([(int(i), int(j), float(z[i, j])) for i, j in np.argwhere(np.abs(z) < KNIFE)])
    return {"losses": losses, "iterations": int(opt.iterations.numpy()),
            "weights": [np.asarray(v.numpy()) for v in params], "every_loss": every, "branches": branches,
            "near_zero": near, "signs": signs}


def _tf_worker(indices: list[int]) -> dict[int, Any]:
    import tensorflow as tf
    cpu = tf.config.list_physical_devices("CPU")[0]
    tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 4)
    out = train(tf)
    del out["signs"]   # (simdist's own, for its check; TF's digests and near-zero entries say enough)
    return {0: out}


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
    parted = next((k for k, (a, b) in enumerate(zip(got["branches"], tf_result["branches"])) if a != b), None)
    if parted is not None:
        _check_knife_edge(got, tf_result, parted)
        assert got["losses"][-1] < got["losses"][0], f"the loss did not decrease: {got['losses']}"
        return
    for k, (g, w) in enumerate(zip(got["weights"], tf_result["weights"])):
        worst = float(np.max(np.abs(g - w) / (np.abs(w) + 1e-6)))
        assert np.allclose(g, w, rtol=1e-4, atol=1e-6), \
            f"weight {k} after {STEPS} steps differs from TF 2.21's (worst relative difference {worst:.2e} > 1e-4)"
    assert np.allclose(got["losses"], tf_result["losses"], rtol=1e-4), \
        f"losses every 20 steps {got['losses']}, but TF 2.21 gives {tf_result['losses']}"
    assert got["losses"][-1] < got["losses"][0], f"the loss did not decrease: {got['losses']}"


def _check_knife_edge(got: dict[str, Any], want: dict[str, Any], f: int) -> None:
    """The branches first part at step f: only on pre-activations TF found within KNIFE of 0 (flipping
    those in simdist's branches gives TF's digest), with the losses equal before f (rtol 1e-5) and near
    after (rtol 1e-3)."""
    loss_before = np.asarray(got["every_loss"][:f + 1])   # (step f's loss is computed before its branches act)
    assert np.allclose(loss_before, want["every_loss"][:f + 1], rtol=1e-5), \
        f"losses up to step {f}, where the ReLU branches first part, differ from TF 2.21's beyond rtol 1e-5: " \
        f"worst {np.max(np.abs(loss_before - want['every_loss'][:f + 1])):.2e}"
    assert np.allclose(got["every_loss"], want["every_loss"], rtol=1e-3), \
        f"losses after step {f} differ from TF 2.21's beyond rtol 1e-3: " \
        f"worst {np.max(np.abs(np.subtract(got['every_loss'], want['every_loss']))):.2e}"
    theirs = {(i, j): v for i, j, v in want["near_zero"][f]}
    assert theirs, f"the ReLU branches part at step {f} where TF 2.21 has no pre-activation within {KNIFE} of 0"
    # (simdist's branches with every TF near-zero entry put on TF's side must be TF's branches)
    positive = np.unpackbits(got["signs"][f]).astype(bool).reshape(GB, H)
    for (i, j), v in theirs.items():
        positive[i, j] = v > 0
    assert _branches(positive) == want["branches"][f], \
        f"at step {f} the ReLU branches differ from TF 2.21's beyond its {len(theirs)} pre-activations within " \
        f"{KNIFE} of 0 ({sorted(theirs.items())[:4]}): not a knife edge of the float32 products"


if __name__ == "__main__":  # TF worker
    tf_workers.serve(_tf_worker)
