"""Training-step benchmark: a 784-256-10 MLP, global batch 256, SGD, under MirroredStrategy on
4 replicas — simdist against real TF 2.21 and against a hand-written NumPy step.

    python benchmarks/bench_train.py [--steps 200] [--repeat 5] [--no-tf]

Side by side in one run, each job in a fresh interpreter, interleaved `--repeat` times:
- simdist: `from simdist import tf`, MirroredStrategy on 4 logical CPUs, the tutorial's custom
  loop (GradientTape, tf.nn.sparse_softmax_cross_entropy_with_logits, compute_average_loss with
  the global batch, SGD's apply_gradients inside strategy.run) over a distributed dataset, the
  step in a `tf.function` (recorded on the first call, replayed after: clause
  function.trace-once);
- TF 2.21: the same program with `import tensorflow as tf`;
- NumPy: forward, backward and update of the same model on the whole batch, hand-written (the
  floor the issue names: what the arithmetic costs with no framework at all);
- NumPy, 4 replicas (information, no target): the same hand-written step per replica on its
  quarter of the batch, the sum of the 4 gradients, and the update of 4 copies of the
  weights: the arithmetic of a replicated step computed replica by replica, as TF does it
  (simdist's recorded step fuses the replicas: simdist/runtime/lanes/).
Each job times its 200 steps (dataset iteration included) in wall seconds and in CPU seconds
of the process (`time.process_time`; TF's counts all its threads). Reports steps/s of each, the
ratios the issue tracks (simdist/TF >= 2.5x, simdist/NumPy <= 1.5x; medians of the runs, and
per round, whose jobs ran minutes apart at most) by wall and by CPU time, and whether the final
weights agree (simdist vs TF, rtol 1e-4) and their largest difference.
"""

from __future__ import annotations

import argparse
import os
import statistics
from typing import Any

from default_env import out_of_the_box
from fresh_job import run_fresh

JOB = r'''
import os, sys, time, json
import numpy as np
backend, steps = sys.argv[1], int(sys.argv[2])
GB, D, H, C = 256, 784, 256, 10
rng = np.random.default_rng(0)
W1 = (rng.standard_normal((D, H)) * 0.05).astype("float32"); B1 = np.zeros(H, "float32")
W2 = (rng.standard_normal((H, C)) * 0.05).astype("float32"); B2 = np.zeros(C, "float32")
X = rng.random((GB * steps, D), dtype=np.float32); Y = rng.integers(0, C, GB * steps).astype("int32")
LR = 0.1
if backend in ("numpy", "numpy4"):
    import simdist  # (its one-BLAS-thread default, as the simdist job has)
    R = 1 if backend == "numpy" else 4
    B = GB // R
    def grads(x, y, w1, b1, w2, b2):
        z = x @ w1 + b1; h = np.maximum(z, 0); logits = h @ w2 + b2
        m = logits.max(1, keepdims=True); e = np.exp(logits - m); p = e / e.sum(1, keepdims=True)
        loss = -np.log(p[np.arange(len(y)), y]).sum() / GB
        g = p; g[np.arange(len(y)), y] -= 1; g /= GB
        gw2 = h.T @ g; gb2 = g.sum(0); gh = g @ w2.T; gz = gh * (z > 0)
        gw1 = x.T @ gz; gb1 = gz.sum(0)
        return loss, (gw1, gb1, gw2, gb2)
    def step(x, y):
        if R == 1:
            loss, gs = grads(x, y, *P[0])
        else:   # per replica, then the all-reduced sum applied to every copy
            parts = [grads(x[r * B:(r + 1) * B], y[r * B:(r + 1) * B], *P[r]) for r in range(R)]
            gs = [sum(part[1][j] for part in parts) for j in range(4)]
        for copy in P:
            for v, g in zip(copy, gs):
                v -= LR * g
    P = [[W1.copy(), B1.copy(), W2.copy(), B2.copy()] for _ in range(R)]
    step(X[:GB], Y[:GB])
    P = [[W1.copy(), B1.copy(), W2.copy(), B2.copy()] for _ in range(R)]
    t0, c0 = time.perf_counter(), time.process_time()
    for k in range(steps):
        step(X[k * GB:(k + 1) * GB], Y[k * GB:(k + 1) * GB])
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    out = {"wall_s": wall, "cpu_s": cpu, "w1": float(np.sum(P[0][0])), "w2": float(np.sum(P[0][2]))}
    print("RESULT " + json.dumps(out), flush=True)
    sys.exit(0)
if backend == "tensorflow":
    os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"
    import tensorflow as tf
else:
    import simdist
    from simdist import tf
cpu = tf.config.list_physical_devices("CPU")[0]
tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 4)
strategy = tf.distribute.MirroredStrategy([f"/cpu:{i}" for i in range(4)])
with strategy.scope():
    w1, b1, w2, b2 = tf.Variable(W1), tf.Variable(B1), tf.Variable(W2), tf.Variable(B2)
    opt = tf.keras.optimizers.SGD(LR)
params = [w1, b1, w2, b2]
opt.build(params)

def train_step(x, y):
    with tf.GradientTape() as tape:
        h = tf.nn.relu(tf.matmul(x, w1) + b1)
        logits = tf.matmul(h, w2) + b2
        per_example = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits)
        loss = tf.nn.compute_average_loss(per_example, global_batch_size=GB)
    grads = tape.gradient(loss, params)
    opt.apply_gradients(zip(grads, params))
    return loss

@tf.function
def dist_step(x, y):
    return strategy.run(train_step, args=(x, y))

def batches(n):
    ds = tf.data.Dataset.from_tensor_slices((X[:GB * n], Y[:GB * n])).batch(GB)
    return strategy.experimental_distribute_dataset(ds)

for x, y in batches(1):     # warm-up (tracing on TF)
    dist_step(x, y)
for v, a in zip(params, (W1, B1, W2, B2)):
    v.assign(a)
opt.iterations.assign(0) if hasattr(opt.iterations, "assign") else None
it = iter(batches(steps))
t0, c0 = time.perf_counter(), time.process_time()
for x, y in it:
    dist_step(x, y)
wall, cpu = time.perf_counter() - t0, time.process_time() - c0
out = {"wall_s": wall, "cpu_s": cpu, "w1": float(np.sum(w1.numpy())), "w2": float(np.sum(w2.numpy())),
       "w1_arr": w1.numpy().ravel()[:2000].tolist(), "w2_arr": w2.numpy().ravel().tolist()}
if backend == "simdist":
    out["simulated_s"] = simdist.now()
print("RESULT " + json.dumps(out), flush=True)
os._exit(0)
'''


def run_job(backend: str, steps: int) -> dict[str, Any]:
    return run_fresh(JOB, backend, steps, what=backend)


def main() -> None:
    out_of_the_box()
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=200)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--no-tf", action="store_true")
    a = ap.parse_args()
    backends = ["simdist", "numpy", "numpy4"] + ([] if a.no_tf else ["tensorflow"])
    runs: dict[str, list[dict[str, Any]]] = {b: [] for b in backends}
    for r in range(a.repeat):
        for b in backends:
            res = run_job(b, a.steps)
            runs[b].append(res)
            print(f"  round {r + 1}: {b:<10} {a.steps / res['wall_s']:8.1f} steps/s wall, "
                  f"{1e3 * res['cpu_s'] / a.steps:6.2f} ms CPU per step", flush=True)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    med = {b: statistics.median(x["wall_s"] for x in runs[b]) for b in backends}
    cpu = {b: statistics.median(x["cpu_s"] for x in runs[b]) for b in backends}
    names = {"simdist": "simdist (Mirrored, 4 replicas)", "numpy": "NumPy, whole batch (the floor)",
             "numpy4": "NumPy, 4 replicas (information)", "tensorflow": "TF 2.21 (Mirrored, 4 CPUs)"}
    print(f"\nMLP 784-256-10, global batch 256, SGD, {a.steps} steps; median of {a.repeat} interleaved runs; "
          f"load average {load:.1f} at the end")
    print(f"{'job':<34} {'steps/s (wall)':>15} {'ms/step (wall)':>15} {'ms/step (CPU)':>14}")
    for b in backends:
        print(f"{names[b]:<34} {a.steps / med[b]:15.1f} {1e3 * med[b] / a.steps:15.2f} {1e3 * cpu[b] / a.steps:14.2f}")

    def per_round(num: str, den: str) -> str:
        return ", ".join(f"{x['wall_s'] / y['wall_s']:.2f}" for x, y in zip(runs[num], runs[den]))
    print()
    if "tensorflow" in med:
        print(f"simdist / TF 2.21 speed: {med['tensorflow'] / med['simdist']:.2f}x wall (target >= 2.5x; per round "
              f"{per_round('tensorflow', 'simdist')}), {cpu['tensorflow'] / cpu['simdist']:.2f}x CPU")
    print(f"simdist / NumPy time:    {med['simdist'] / med['numpy']:.2f}x wall (target <= 1.5x; per round "
          f"{per_round('simdist', 'numpy')}), {cpu['simdist'] / cpu['numpy']:.2f}x CPU")
    print(f"NumPy 4 replicas / NumPy: {med['numpy4'] / med['numpy']:.2f}x wall, {cpu['numpy4'] / cpu['numpy']:.2f}x CPU "
          "(the replicated arithmetic alone)")
    if "tensorflow" in med:
        sd, tfr = runs["simdist"][-1], runs["tensorflow"][-1]
        import numpy as np
        close = np.allclose(sd["w2_arr"], tfr["w2_arr"], rtol=1e-4, atol=1e-6) and \
            np.allclose(sd["w1_arr"], tfr["w1_arr"], rtol=1e-4, atol=1e-6)
        worst = max(float(np.max(np.abs(np.subtract(sd[k], tfr[k])))) for k in ("w1_arr", "w2_arr"))
        # Not bit-exact: float32 products run on the host's BLAS here and on Eigen in TF, and a replayed (fused)
        # step rounds differently from the traced one; a ReLU within those last bits of 0 then flips its gradient
        # branch (docs/benchmarks.md, "Training step": traced to one unit at step 68 on the AMD EPYC host).
        print(f"final weights equal to TF's (rtol 1e-4): {close} (max |simdist - TF| = {worst:.2e})")
    print(f"simulated time of the simdist run: {runs['simdist'][-1]['simulated_s']:.6f} s")


if __name__ == "__main__":
    main()
