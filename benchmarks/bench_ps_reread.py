"""The cost of evaluating contended PS closures again where they read their own writes (clause optim.pss-updates).

    python benchmarks/bench_ps_reread.py [--steps 400] [--workers 4] [--repeat 2]

Out of the box (benchmarks/default_env.py clears SIMDIST_* variables). A 16-32-1 Dense model trained by
ClusterCoordinator closures on `--workers` workers and one ps, in two forms: a recorded step (no arguments,
it replays) and a step taking a per-worker dataset's iterator (it runs its Python), each with Adam (its
slots are read right after their own assign: contended closures are evaluated again, strategies/worker.py
`_reread`) and with plain SGD (no such read: nothing is evaluated again). Prints each run's CPU seconds
(process time), the final Adam iteration count and a weight checksum, and per form the ratio Adam / SGD,
all measured side by side in one process. Run it with another checkout's simdist first on PYTHONPATH for
a before/after figure.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from typing import Any

import numpy as np
from default_env import out_of_the_box


def run(form: str, optimizer: str, steps: int, workers: int) -> tuple[float, int, float]:
    import simdist
    from simdist import tf
    simdist.reset()
    spec = tf.train.ClusterSpec({"worker": [f"w{i}:1" for i in range(workers)], "ps": ["p0:1"]})
    resolver = tf.distribute.cluster_resolver.SimpleClusterResolver(spec, rpc_layer="grpc")
    strategy = tf.distribute.experimental.ParameterServerStrategy(resolver)
    coord = tf.distribute.experimental.coordinator.ClusterCoordinator(strategy)
    x = np.arange(64 * 16, dtype=np.float32).reshape(64, 16) / 1000
    y = np.ones((64, 1), np.float32)
    with strategy.scope():
        model = tf.keras.Sequential([tf.keras.layers.Dense(32, activation="relu"), tf.keras.layers.Dense(1)])
        model.build((None, 16))
        opt = tf.keras.optimizers.Adam(0.01) if optimizer == "adam" else tf.keras.optimizers.SGD(0.01)
        opt.build(model.trainable_variables)
    it = iter(coord.create_per_worker_dataset(lambda: tf.data.Dataset.from_tensor_slices((x, y)).repeat().batch(16)))
    xb, yb = tf.constant(x[:16]), tf.constant(y[:16])

    def replica(a: Any, b: Any) -> Any:
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean((model(a) - b) ** 2)
        opt.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))
        return loss

    @tf.function
    def step_next(iterator: Any) -> Any:
        a, b = next(iterator)
        return strategy.run(replica, args=(a, b))

    @tf.function
    def step() -> Any:
        return strategy.run(replica, args=(xb, yb))

    t0 = time.process_time()
    for _ in range(steps):
        if form == "iterator":
            coord.schedule(step_next, args=(it,))
        else:
            coord.schedule(step)
    coord.join()
    return time.process_time() - t0, int(opt.iterations.numpy()), float(model.trainable_variables[0].numpy().sum())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=400)
    ap.add_argument("--workers", type=int, default=4)
    ap.add_argument("--repeat", type=int, default=2)
    a = ap.parse_args()
    out_of_the_box()
    import simdist
    print(f"simdist from {simdist.__file__}; {a.steps} closures, {a.workers} workers, 1 ps")
    for form in ("recorded", "iterator"):
        cpu = {}
        for opt in ("adam", "sgd"):
            runs = [run(form, opt, a.steps, a.workers) for _ in range(a.repeat)]
            cpu[opt] = statistics.median(r[0] for r in runs)
            print(f"  {form:9s} {opt:4s}: CPU {', '.join(f'{r[0]:.2f}' for r in runs)} s "
                  f"(iterations {runs[0][1]}, weight sum {runs[0][2]:.6f})")
        print(f"  {form:9s} Adam / SGD CPU: {cpu['adam'] / cpu['sgd']:.2f}")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
