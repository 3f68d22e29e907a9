"""Foundation benchmark: simdist's reduce/gather against hand-written NumPy and real TensorFlow.

    python benchmarks/bench_foundation.py [--repeat N] [--no-tf]

Measures, side by side in one run:
- reduce SUM over 4 replicas and gather of 4 replicas, for 1M and 1K float32 per replica:
  simdist's MirroredStrategy (4 logical CPUs), a NumPy baseline (preallocated np.add(out=) /
  np.concatenate), and TF 2.21's MirroredStrategy on 4 logical CPUs;
- `from simdist import tf` against `import tensorflow` (fresh interpreters).
Prints a table of median times per call and the ratios the project tracks.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from typing import Any, Callable

import numpy as np

from default_env import out_of_the_box


def timeit(fn: Callable[[], Any], repeat: int, number: int) -> float:
    """Median seconds per call over `repeat` rounds of up to `number` calls (after one warm-up);
    slow calls get fewer per round (rounds of about 0.2 s)."""
    fn()
    t0 = time.perf_counter()
    fn()
    number = max(1, min(number, int(0.2 / max(time.perf_counter() - t0, 1e-9))))
    rounds = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        for _ in range(number):
            fn()
        rounds.append((time.perf_counter() - t0) / number)
    return statistics.median(rounds)


def numpy_cases(n: int) -> dict[str, Callable[[], Any]]:
    rng = np.random.default_rng(0)
    parts = [rng.standard_normal(n).astype(np.float32) for _ in range(4)]
    out = np.empty(n, np.float32)

    def reduce_sum() -> Any:
        np.add(parts[0], parts[1], out=out)
        np.add(out, parts[2], out=out)
        np.add(out, parts[3], out=out)
        return out

    return {"reduce": reduce_sum, "gather": lambda: np.concatenate(parts)}


_strategies: dict[int, Any] = {}


def framework_cases(tf: Any, n: int) -> dict[str, Callable[[], Any]]:
    # One strategy per framework: TF's CPU collectives share instance keys across strategies.
    s = _strategies.setdefault(id(tf), tf.distribute.MirroredStrategy([f"/cpu:{i}" for i in range(4)]))
    rng = np.random.default_rng(0)
    parts = [rng.standard_normal(n).astype(np.float32) for _ in range(4)]
    v = s.experimental_distribute_values_from_function(lambda ctx: tf.constant(parts[ctx.replica_id_in_sync_group]))
    return {"reduce": lambda: s.reduce("SUM", v, axis=None), "gather": lambda: s.gather(v, axis=0)}


def split_cpu(tf: Any) -> None:
    cpu = tf.config.list_physical_devices("CPU")[0]
    tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 4)


def import_time(stmt: str, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-c", stmt], check=True, capture_output=True)
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def main() -> None:
    out_of_the_box()
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--no-tf", action="store_true", help="skip TensorFlow (if the tf extra is not installed)")
    args = ap.parse_args()

    from simdist import tf as sim_tf
    split_cpu(sim_tf)
    real_tf = None
    if not args.no_tf:
        import os
        os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
        import tensorflow as real_tf  # noqa: F811
        split_cpu(real_tf)

    rows = []
    for n, number in ((1_000_000, 20), (1_000, 500)):
        base = numpy_cases(n)
        sim = framework_cases(sim_tf, n)
        tfc = framework_cases(real_tf, n) if real_tf is not None else {}
        for op in ("reduce", "gather"):
            t_np = timeit(base[op], args.repeat, number)
            t_sim = timeit(sim[op], args.repeat, number)
            t_tf = timeit(tfc[op], args.repeat, number) if tfc else float("nan")
            rows.append((f"{op} 4x{n:,} f32", t_np, t_sim, t_tf))

    print(f"{'case':<22}{'numpy':>12}{'simdist':>12}{'tensorflow':>12}{'simdist/numpy':>15}{'tf/simdist':>12}")
    for name, t_np, t_sim, t_tf in rows:
        print(f"{name:<22}{t_np * 1e6:>10.1f}us{t_sim * 1e6:>10.1f}us{t_tf * 1e6:>10.1f}us"
              f"{t_sim / t_np:>15.2f}{t_tf / t_sim:>12.2f}")

    t_sim_imp = import_time("from simdist import tf", 5)
    t_tf_imp = import_time("import tensorflow", 3) if real_tf is not None else float("nan")
    t_pass = import_time("pass", 5)
    print(f"\nimport: `from simdist import tf` {t_sim_imp:.3f}s, `import tensorflow` {t_tf_imp:.3f}s, "
          f"`python -c pass` {t_pass:.3f}s; tensorflow/simdist = {t_tf_imp / t_sim_imp:.1f}x")
    print("targets: 1M reduce/gather simdist/numpy <= 1.5 and tf/simdist >= 1.0; 1K tf/simdist >= 3; "
          "import ratio >= 5")


if __name__ == "__main__":
    main()
