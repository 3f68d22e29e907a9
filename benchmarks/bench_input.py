"""Input-pipeline benchmark: CPU seconds of iterating tf.data pipelines on simdist.

    python benchmarks/bench_input.py [--examples 4096] [--epochs 2] [--repeat 3]

Two pipelines, each iterated `--epochs` times (each epoch a new iterator), timed in CPU seconds
of the process (`time.process_time`: the machine may be shared), best of `--repeat`:
- map: from_tensor_slices((x float32 (n, 32), y int32)).map(preprocess).batch(32), preprocess
  a few elementwise ops, a clip, a reduction and a one_hot (a tf.data function: traced once and
  replayed per element, clause dataset.function-trace);
- plain: from_tensor_slices((x, y)).shuffle(256, seed=1).batch(32): no function (what the
  tracing does not touch).
Prints the CPU seconds of each, per element in microseconds, and a checksum of the elements
(so runs of two versions can be compared for equal values).
"""

from __future__ import annotations

import argparse
import time
from typing import Any, Callable

import numpy as np

from default_env import out_of_the_box


def pipelines(tf: Any, n: int) -> dict[str, Callable[[], Any]]:
    rng = np.random.default_rng(0)
    x = rng.standard_normal((n, 32)).astype(np.float32)
    y = rng.integers(0, 10, n).astype(np.int32)

    def preprocess(a: Any, b: Any) -> Any:
        a = (a - 0.5) * 2.0
        a = tf.clip_by_value(a, -3.0, 3.0)
        a = a / (tf.reduce_max(tf.abs(a)) + 1e-6)
        return a, tf.one_hot(b, 10)

    base = tf.data.Dataset.from_tensor_slices((x, y))
    return {"map": lambda: base.map(preprocess).batch(32),
            "plain": lambda: base.shuffle(256, seed=1).batch(32)}


def run(make: Callable[[], Any], epochs: int) -> tuple[float, float]:
    """(CPU seconds to build the dataset and iterate it `epochs` times, a checksum)."""
    c0 = time.process_time()
    ds = make()
    total = 0.0
    for _ in range(epochs):
        for a, b in ds:
            total += float(np.asarray(a).sum()) + float(np.asarray(b).sum())
    return time.process_time() - c0, total


def main() -> None:
    out_of_the_box()
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--examples", type=int, default=4096)
    ap.add_argument("--epochs", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    from simdist import tf
    for name, make in pipelines(tf, a.examples).items():
        runs = [run(make, a.epochs) for _ in range(a.repeat)]
        cpu = min(r[0] for r in runs)
        print(f"{name:<6} {cpu:8.3f} s CPU ({1e6 * cpu / (a.examples * a.epochs):7.1f} us per element), "
              f"checksum {runs[0][1]!r}", flush=True)


if __name__ == "__main__":
    main()
