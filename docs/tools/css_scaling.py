"""The CentralStorage scaling table of docs/simulator.md, from real runs through the facade.

    python docs/tools/css_scaling.py

One training step of a model with 25M float32 parameters (100 MB) and a global batch of 256 at
6 GFLOP per example, on an A100 host with 1, 2, 4 and 8 GPUs: each replica reads the variables
from the parameter device, computes its share of the batch, and the MEAN-aggregated update is
gathered on the parameter device. The time of each part comes from the cost model; nothing is
special-cased per GPU count (tests/strategies/test_timing.py checks the step time against the model).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import simdist  # noqa: E402
from simdist import tf  # noqa: E402

PARAMS = 25_000_000
BATCH, FLOPS_PER_EXAMPLE = 256, 6e9


def step_time(gpus: int) -> dict:
    simdist.configure(gpus=gpus)
    s = tf.distribute.experimental.CentralStorageStrategy()
    with s.scope():
        w = tf.Variable(tf.zeros([PARAMS]), aggregation=tf.VariableAggregation.MEAN)

    @simdist.sim.flops(BATCH * FLOPS_PER_EXAMPLE / gpus)
    def step():
        w.assign_sub(w * 0.0 + 1e-3)   # reads w, produces an update the size of w

    sim = simdist.session.simulator()
    t0 = simdist.now()
    with sim.step("step"):
        s.run(step)
    st = sim.metrics()["steps"][-1]
    return {"gpus": gpus, "step_ms": (simdist.now() - t0) * 1e3, "compute_ms": st["compute_s"] * 1e3,
            "comm_ms": st["communication_s"] * 1e3, "idle_ms": st["idle_s"] * 1e3}


def main() -> None:
    rows = [step_time(g) for g in (1, 2, 4, 8)]
    base = rows[0]["step_ms"]
    print("| GPUs | step (ms) | compute (ms) | communication (ms) | idle (ms) | speed-up |")
    print("|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['gpus']} | {r['step_ms']:.2f} | {r['compute_ms']:.2f} | {r['comm_ms']:.2f} | "
              f"{r['idle_ms']:.2f} | {base / r['step_ms']:.2f}x |")


if __name__ == "__main__":
    main()
