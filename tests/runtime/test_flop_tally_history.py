"""A run's simulated times do not depend on what the process ran before it.

Every FLOP count the strategies charge is a difference of two readings of one process-wide tally
(runtime/cost.py). Below 2**53 those differences of whole numbers are exact; above it they round
by the tally's magnitude. CI once saw an in-process rerun of scenarios/train_transformer.toml end
1 ulp later than the run before it, after the worker had run tests whose validation workloads
took the tally past 3e16 (reproduced by setting the tally to 3e16: 3 bytes of the metrics and
trace differed). A new machine (`simdist.configure`/`reset`) therefore starts the tally at zero.
"""

from __future__ import annotations

import numpy as np

import simdist
from simdist import tf
from simdist.runtime import cost
from simdist.strategies import timing


def _train_and_time() -> tuple[float, list[float]]:
    """A few Mirrored training steps with small ops on 2 simulated GPUs: (end time, losses)."""
    simdist.configure(gpus=2, gpu="A100")
    strategy = tf.distribute.MirroredStrategy()
    rng = np.random.default_rng(0)
    x_all = rng.standard_normal((64, 7)).astype("float32")
    y_all = rng.standard_normal((64, 3)).astype("float32")
    with strategy.scope():
        w = tf.Variable(rng.standard_normal((7, 3)).astype("float32") * 0.3)
        b = tf.Variable(np.zeros(3, "float32"))
        opt = tf.keras.optimizers.Adam(0.01)

    def step(x: tf.Tensor, y: tf.Tensor) -> tf.Tensor:
        with tf.GradientTape() as tape:
            err = tf.tanh(tf.matmul(x, w) + b) - y
            loss = tf.nn.compute_average_loss(tf.reduce_mean(err * err, axis=1), global_batch_size=16)
        grads = tape.gradient(loss, [w, b])
        opt.apply_gradients(zip(grads, [w, b]))
        return loss

    @tf.function
    def dist_step(x: tf.Tensor, y: tf.Tensor) -> tf.Tensor:
        return strategy.reduce("SUM", strategy.run(step, args=(x, y)), axis=None)

    ds = strategy.experimental_distribute_dataset(tf.data.Dataset.from_tensor_slices((x_all, y_all)).batch(16))
    losses = [float(dist_step(x, y).numpy()) for x, y in ds]
    return simdist.now(), losses


def test_a_run_after_a_huge_tally_times_every_step_as_a_fresh_one() -> None:
    fresh = _train_and_time()
    cost.tally.flops, cost.tally.backward, cost.tally.update = 3e16 + 1.5, 1e16 + 0.5, 7e15   # (as a long process leaves it)
    timing.run_flops_accum[0] = 3e16 + 0.25
    again = _train_and_time()
    assert again == fresh, \
        f"after a tally of 3e16 the run ends at {again[0]!r} s with losses {again[1]}, " \
        f"but a fresh run ends at {fresh[0]!r} s with {fresh[1]}: simulated time depends on process history"


def test_configure_starts_the_tally_again() -> None:
    cost.tally.flops, cost.tally.backward, cost.tally.update = 5e16, 2e16, 1e16
    simdist.reset()
    got = cost.tally.snapshot()
    assert got == (0.0, 0.0, 0.0), f"tally after simdist.reset() is {got}, should be (0.0, 0.0, 0.0)"
