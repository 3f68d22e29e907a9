"""Keras benchmark (issue 14): `model.fit` of the MLP for one epoch of the digits data under
MirroredStrategy with 4 replicas, simdist against real TF 2.21 doing the same.

    python benchmarks/bench_keras.py [--repeat 3] [--epochs 1] [--batch-size 32] [--no-tf]

Side by side in one run, each job in a fresh interpreter, interleaved `--repeat` times, out of
the box (no tuning environment variables: benchmarks/default_env.py):
- the program, the same on both backends: the digits (simdist/datasets: 1,797 images of 8x8
  pixels, flattened and scaled to [0, 1]), the training-scenario zoo's MLP (Input(64),
  Dense(64, relu), Dense(10)) made in the scope of MirroredStrategy over 4 logical CPUs, initial
  weights from one seeded NumPy generator (`set_weights`), `compile(SGD(0.1),
  SparseCategoricalCrossentropy(from_logits=True), metrics=["accuracy"])`, then
  `model.fit(x, y, batch_size=32, epochs=1, verbose=0, shuffle=False)` (57 steps, the last one
  partial; no shuffling, so that the two runs see the same batches and their results compare);
- simdist: `from simdist import tf`; TF 2.21: `import tensorflow as tf` (tensorflow-cpu, Keras
  3.15.1; its first epoch includes tracing the train step, as a user's does).
Timed: the `fit` call, wall clock and CPU time of the process (TF's kernels run on several
threads, so its CPU time can exceed its wall time); then, for information, one more epoch of the
same model (`fit` again: the train step is already traced on both backends). Reports the median of each, the ratios
(target: simdist >= 2.5x faster than TF by wall time), and whether the epoch's loss and the
final weights agree with TF's (rtol 1e-4).
"""

from __future__ import annotations

import argparse
import statistics
from typing import Any

from default_env import out_of_the_box
from fresh_job import run_fresh

JOB = r'''
import os, sys, time, json
t_start = time.perf_counter(); c_start = time.process_time()
backend, epochs, batch_size = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
import numpy as np
if backend == "tensorflow":
    os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"
    import tensorflow as tf
    tf.get_logger().setLevel("ERROR")
else:
    import simdist
    from simdist import tf
from simdist.datasets import load
x, y = load("digits")
x = (x.reshape(len(x), -1).astype("float32") / 16.0)
y = y.astype("int64")
cpu = tf.config.list_physical_devices("CPU")[0]
tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 4)
strategy = tf.distribute.MirroredStrategy([f"/cpu:{i}" for i in range(4)])
keras = tf.keras
with strategy.scope():
    model = keras.Sequential([keras.Input(shape=(64,)), keras.layers.Dense(64, activation="relu"),
                              keras.layers.Dense(10)])
    rng = np.random.default_rng(0)
    model.set_weights([(rng.standard_normal(w.shape) * 0.1).astype("float32") for w in model.get_weights()])
    model.compile(optimizer=keras.optimizers.SGD(0.1),
                  loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True), metrics=["accuracy"])
setup_wall, setup_cpu = time.perf_counter() - t_start, time.process_time() - c_start
t0, c0 = time.perf_counter(), time.process_time()
history = model.fit(x, y, batch_size=batch_size, epochs=epochs, verbose=0, shuffle=False)
wall, cpu_s = time.perf_counter() - t0, time.process_time() - c0
weights = [w.ravel().tolist() for w in model.get_weights()]
t1, c1 = time.perf_counter(), time.process_time()
model.fit(x, y, batch_size=batch_size, epochs=1, verbose=0, shuffle=False)   # warm: the step already traced
warm_wall, warm_cpu = time.perf_counter() - t1, time.process_time() - c1
out = {"wall_s": wall, "cpu_s": cpu_s, "warm_wall_s": warm_wall, "warm_cpu_s": warm_cpu, "setup_wall_s": setup_wall, "setup_cpu_s": setup_cpu,
       "loss": [float(v) for v in history.history["loss"]],
       "accuracy": [float(v) for v in history.history["accuracy"]],
       "weights": weights}
if backend == "simdist":
    out["simulated_s"] = simdist.now()
print("RESULT " + json.dumps(out), flush=True)
os._exit(0)
'''


def run_job(backend: str, epochs: int, batch_size: int) -> dict[str, Any]:
    return run_fresh(JOB, backend, epochs, batch_size, what=backend)


def main() -> None:
    out_of_the_box()
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--epochs", type=int, default=1)
    ap.add_argument("--batch-size", type=int, default=32)
    ap.add_argument("--no-tf", action="store_true")
    a = ap.parse_args()
    backends = ["simdist"] + ([] if a.no_tf else ["tensorflow"])
    runs: dict[str, list[dict[str, Any]]] = {b: [] for b in backends}
    for r in range(a.repeat):
        for b in backends:
            res = run_job(b, a.epochs, a.batch_size)
            runs[b].append(res)
            print(f"  round {r + 1}: {b:<10} fit {res['wall_s']:7.3f} s wall, {res['cpu_s']:7.3f} s CPU "
                  f"(setup {res['setup_wall_s']:.2f} s)", flush=True)
    wall = {b: statistics.median(x["wall_s"] for x in runs[b]) for b in backends}
    cpu = {b: statistics.median(x["cpu_s"] for x in runs[b]) for b in backends}
    steps = -(-1797 // a.batch_size) * a.epochs
    print(f"\nmodel.fit of the MLP 64-64-10 on the digits (1,797 examples), {a.epochs} epoch(s), batch "
          f"{a.batch_size} ({steps} steps), SGD, MirroredStrategy on 4 replicas; median of {a.repeat} "
          "interleaved runs, each in a fresh process")
    warm_wall = {b: statistics.median(x["warm_wall_s"] for x in runs[b]) for b in backends}
    warm_cpu = {b: statistics.median(x["warm_cpu_s"] for x in runs[b]) for b in backends}
    print(f"{'job':<36} {'wall s':>8} {'CPU s':>8} {'steps/s':>8}   {'then another epoch: wall s':>26} {'CPU s':>7}")
    names = {"simdist": "simdist", "tensorflow": "TF 2.21 + Keras 3.15.1"}
    for b in backends:
        print(f"{names[b]:<36} {wall[b]:8.3f} {cpu[b]:8.3f} {steps / wall[b]:8.1f}   {warm_wall[b]:26.3f} "
              f"{warm_cpu[b]:7.3f}")
    if "tensorflow" in wall:
        print(f"\nsimdist / TF 2.21 speed, fit of 1 epoch: {wall['tensorflow'] / wall['simdist']:.2f}x by wall time "
              f"(target >= 2.5x), {cpu['tensorflow'] / cpu['simdist']:.2f}x by CPU time")
        print(f"simdist / TF 2.21 speed, another epoch (the step already traced): "
              f"{warm_wall['tensorflow'] / warm_wall['simdist']:.2f}x by wall time, "
              f"{warm_cpu['tensorflow'] / warm_cpu['simdist']:.2f}x by CPU time")
        import numpy as np
        sd, tfr = runs["simdist"][-1], runs["tensorflow"][-1]
        loss_ok = np.allclose(sd["loss"], tfr["loss"], rtol=1e-4)
        w_ok = all(np.allclose(p, q, rtol=1e-4, atol=1e-6) for p, q in zip(sd["weights"], tfr["weights"]))
        print(f"epoch loss simdist {sd['loss']} vs TF {tfr['loss']}: equal within rtol 1e-4: {loss_ok}")
        print(f"final weights equal to TF's (rtol 1e-4): {w_ok}")
    print(f"simulated time of the simdist run: {runs['simdist'][-1]['simulated_s']:.6f} s")


if __name__ == "__main__":
    main()
