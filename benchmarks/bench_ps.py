"""ParameterServerStrategy benchmark: simdist against real TF 2.21, and timing-only scale.

    python benchmarks/bench_ps.py [--closures 1000] [--repeat 3] [--busy 1] [--no-tf] [--big-closures 100000 (0: skip)]
                                  [--also 10000x100] [--baseline-src DIR]

Out of the box: no environment variable tunes either side (benchmarks/default_env.py).

1. The same job on both, side by side: 2 workers, 2 ps, a 256x256 dense layer, N closures of
   `w.assign_add(x @ w * 0 + 1)`-style commutative updates. simdist replays the recorded step,
   its update `tf.ones(shape) + scalar` on the scalar (runtime/uniform.py), and the line
   "simdist's step" says so; this script clears SIMDIST_* variables, so for the figure without
   that rewrite run `JOB` as a script with SIMDIST_SINK_UNIFORM=0 (docs/benchmarks.md). Reports
   wall time and closures/s for each, the ratio, each side's CPU time (all its threads) and that ratio, the load average, and
   whether the final values are equal. On a loaded machine the CPU ratio is the one that does
   not depend on how the OS shares the cores between simdist's one thread and TF's many. TF runs on an in-process gRPC
   cluster in a subprocess (its servers cannot be shut down in-process). Run on a quiet machine,
   then again with `--busy` processes spinning a core each (as a neighbouring job or a second
   sweep worker does).
2. Timing-only mode on a large simulated cluster: 1,024 workers, 64 ps, 100,000 synthetic
   closures over a partitioned embedding and a dense layer (and `--also` shapes, e.g. 10000x100).
   Reports wall and CPU time, simulated time, events and the process's max RSS; with
   `--baseline-src` the same job runs first with another checkout's simdist, for the ratio.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
from typing import Any

import numpy as np
from default_env import out_of_the_box
from fresh_job import run_fresh

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))   # this checkout (its simdist/)

JOB = r'''
import os, sys, time, json
import numpy as np
backend, n, layout = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
# Memory-layout sampling: before simdist fixed glibc's malloc thresholds (simdist/runtime/malloc.py)
# this job ran up to ~1.7x slower or faster by incidental heap layout. Each repeat still shifts the
# layout by a different, seeded amount, on both backends alike, so the medians sample layouts.
_pad = [bytearray(64 * (1 + (layout * 7919) % 97)) for _ in range(1 + layout % 5)]
if backend == "tensorflow":
    os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"
    import tensorflow as tf
    from simdist.conformance.backends.tf_backend import start_in_process_servers
    spec, servers = start_in_process_servers(tf, 2, 2, inter_op_threads=8)
    spec = tf.train.ClusterSpec(spec)
else:
    import simdist
    from simdist import tf
    spec = tf.train.ClusterSpec({"worker": ["w0:1", "w1:1"], "ps": ["p0:1", "p1:1"]})
resolver = tf.distribute.cluster_resolver.SimpleClusterResolver(spec, rpc_layer="grpc")
strategy = tf.distribute.experimental.ParameterServerStrategy(resolver)
with strategy.scope():
    w = tf.Variable(tf.zeros([256, 256]), name="w")
    b = tf.Variable(tf.zeros([256]), name="b")
coord = tf.distribute.experimental.coordinator.ClusterCoordinator(strategy)
x = tf.ones([32, 256])
@tf.function
def step():
    y = tf.matmul(x, w) + b          # the dense layer's forward pass
    w.assign_add(tf.ones([256, 256]) + tf.reduce_sum(y) * 0.0)
    b.assign_add(tf.ones([256]))
    return tf.reduce_sum(y)
coord.schedule(step); coord.join()   # warm-up (tracing on TF)
t0, c0 = time.perf_counter(), time.process_time()
for _ in range(n):
    coord.schedule(step)
coord.join()
wall, cpu = time.perf_counter() - t0, time.process_time() - c0
out = {"wall_s": wall, "cpu_s": cpu, "w00": float(w.numpy()[0, 0]), "b0": float(b.numpy()[0]),
       "w_sum": float(np.sum(w.numpy())), "b_sum": float(np.sum(b.numpy()))}
if backend == "simdist":
    from simdist.runtime import graph, threads
    out["simulated_s"] = simdist.now()
    out["blas_threads"] = threads.current()
    out["simdist"] = simdist.__file__
    out["replay"] = graph.explain(step)
print("RESULT " + json.dumps(out), flush=True)
os._exit(0)
'''


def run_job(backend: str, n: int, layout: int = 0) -> dict[str, Any]:
    # Both backends in their default configuration (default_env.out_of_the_box cleared the
    # tuning variables): simdist limits its BLAS to one thread itself (simdist/runtime/threads.py).
    # This checkout's simdist, whatever the current directory or the environment has.
    return run_fresh(JOB, backend, n, layout, what=backend, timeout=1800, path=[ROOT], isolated=True)


def _median(results: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The run with the median wall time (the lower middle one for an even count)."""
    if not results:
        return None
    return sorted(results, key=lambda r: r["wall_s"])[(len(results) - 1) // 2]


BIG = r'''
import json, resource, sys, time
workers, ps, closures = (int(x) for x in sys.argv[1:4])
t0, c0 = time.perf_counter(), time.process_time()
import simdist
from simdist import tf
from simdist.sim import presets
simdist.configure(cluster=presets.cpu_cluster(jobs={"chief": 1, "worker": workers, "ps": ps}), seed=0)
spec = tf.train.ClusterSpec({"worker": [f"w{i}:1" for i in range(workers)], "ps": [f"p{i}:1" for i in range(ps)]})
strategy = tf.distribute.experimental.ParameterServerStrategy(
    tf.distribute.cluster_resolver.SimpleClusterResolver(spec),
    variable_partitioner=tf.distribute.experimental.partitioners.MinSizePartitioner(
        min_shard_bytes=256 << 10, max_shards=ps))
with strategy.scope():
    emb = strategy.extended.placeholder_variable("emb", [10_000_000, 64], tf.float32)   # 2.4 GiB, shape only
    dense = strategy.extended.placeholder_variable("dense", [1024, 1024], tf.float32)
coord = tf.distribute.experimental.coordinator.ClusterCoordinator(strategy)
row_bytes = 512 * 64 * 4          # 512 embedding rows of 64 float32
for _ in range(closures):
    coord.schedule_synthetic(flops=2e9, reads=[(emb, row_bytes), dense], writes=[(emb, row_bytes), dense])
coord.join()
m = coord.metrics()
print("RESULT " + json.dumps({"wall_s": time.perf_counter() - t0, "cpu_s": time.process_time() - c0,
      "simulated_s": m["simulated_time_s"], "completed": m["closures"]["completed"],
      "events": simdist.session.simulator().events, "simdist": simdist.__file__,
      "max_rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}), flush=True)
'''


def timing_only(workers: int, ps: int, closures: int, src: str | None = None) -> dict[str, Any]:
    """The timing-only job in a fresh interpreter (its own max RSS), with this checkout's simdist
    or, given ``src``, the simdist of another checkout (e.g. an older commit, for a side-by-side
    ratio). Wall and CPU time from the first import to the end of join(); no tracemalloc (it
    roughly doubled the run's time). The checkout goes first on the job's path either way: the
    job must not import whichever simdist the environment has (an installed one, or none)."""
    return run_fresh(BIG, workers, ps, closures, what="timing-only", timeout=6 * 3600,
                     path=[src if src else ROOT], isolated=True)


def small_job(args: argparse.Namespace, busy: int) -> None:
    """Part 1, with `busy` other processes each keeping a core busy (0: a quiet machine)."""
    load0 = os.getloadavg()[0]
    spinners = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(busy)]
    try:
        runs: dict[str, list[dict[str, Any]]] = {"tensorflow": [], "simdist": []}
        for i in range(args.repeat):   # interleaved, so a noisy neighbour hits both alike
            if not args.no_tf:
                runs["tensorflow"].append(run_job("tensorflow", args.closures, i))
            runs["simdist"].append(run_job("simdist", args.closures, i))
    finally:
        for p in spinners:
            p.kill()
            p.wait()
    tf_, sim = (_median(runs[k]) for k in ("tensorflow", "simdist"))
    print(f"1{'b' if busy else 'a'}. {'busy machine: ' + str(busy) + ' other process(es) spinning a core each' if busy else 'quiet machine'}"
          f"; simdist's BLAS threads {sim['blas_threads']}; load average {load0:.1f} before, "
          f"{os.getloadavg()[0]:.1f} after (over {os.cpu_count()} CPUs, this benchmark's spinners included)")
    if args.repeat > 1:
        print(f"   (medians of {args.repeat} interleaved runs; wall ranges: "
              + ", ".join(f"{k} {min(r['wall_s'] for r in v):.3f}-{max(r['wall_s'] for r in v):.3f}s"
                          for k, v in runs.items() if v) + ")")
    print(f"   simdist     wall {sim['wall_s']:.3f}s  ({args.closures / sim['wall_s']:.0f} closures/s wall; "
          f"{sim['simulated_s']:.4f}s simulated; {os.path.dirname(os.path.dirname(sim['simdist']))})")
    print(f"   simdist's step: {sim['replay']} (runtime/graph/, runtime/uniform.py)")
    if tf_ is not None:
        print(f"   tensorflow  wall {tf_['wall_s']:.3f}s  ({args.closures / tf_['wall_s']:.0f} closures/s)")
        same = all(np.isclose(sim[k], tf_[k]) for k in ("w00", "b0", "w_sum", "b_sum"))
        print(f"   tensorflow/simdist wall = {tf_['wall_s'] / sim['wall_s']:.1f}x (target >= 25x)"
              f"; final values equal: {same} (w[0,0]={sim['w00']} vs {tf_['w00']}, b[0]={sim['b0']} vs {tf_['b0']})")
        # CPU time (every thread of each process, from the first schedule to the end of join):
        # what each side needs whatever else runs on the machine. Wall time on a shared machine
        # also measures how the OS shares the cores: TF's many threads get a larger share than
        # simdist's one when other jobs compete.
        tcpu = statistics.median(r["cpu_s"] for r in runs["tensorflow"])
        scpu = statistics.median(r["cpu_s"] for r in runs["simdist"])
        print(f"   CPU time, medians: simdist {scpu:.3f}s, tensorflow {tcpu:.3f}s; tensorflow/simdist CPU = "
              f"{tcpu / scpu:.1f}x (per pair: " + ", ".join(
                  f"{t['cpu_s'] / s['cpu_s']:.1f}x" for t, s in zip(runs["tensorflow"], runs["simdist"])) + ")")
        if args.repeat > 1:
            # This VM has slow spells lasting minutes; a TF run and the simdist run right after it
            # see the same machine, so the ratio within each pair is the steadier estimate.
            pairs = sorted(t["wall_s"] / s["wall_s"] for t, s in zip(runs["tensorflow"], runs["simdist"]))
            print("   per-pair ratios (each TF run / the simdist run after it): "
                  + ", ".join(f"{r:.1f}x" for r in pairs) + f"; median {statistics.median(pairs):.1f}x")


def main() -> None:
    out_of_the_box()
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--closures", type=int, default=1000)
    ap.add_argument("--no-tf", action="store_true")
    ap.add_argument("--repeat", type=int, default=3, help="interleaved runs of the small job; medians reported")
    ap.add_argument("--busy", type=int, default=1,
                    help="also run the small job with this many processes spinning a core each (0: quiet only)")
    ap.add_argument("--big-closures", type=int, default=100_000)
    ap.add_argument("--big-workers", type=int, default=1024)
    ap.add_argument("--big-ps", type=int, default=64)
    ap.add_argument("--also", type=lambda v: tuple(int(x) for x in v.split("x")), nargs="*", default=[],
                    metavar="WORKERSxPS", help="more timing-only shapes, e.g. 10000x100")
    ap.add_argument("--baseline-src", default=None, metavar="DIR",
                    help="a checkout of another simdist (e.g. `git worktree add /tmp/old <commit>`): the first "
                         "timing-only shape runs with it too, right before this code, for the ratio")
    args = ap.parse_args()
    if args.repeat < 1:
        ap.error(f"--repeat must be >= 1, got {args.repeat}")
    if args.busy < 0:
        ap.error(f"--busy must be >= 0, got {args.busy}")

    print(f"1. {args.closures} closures, 2 workers, 2 ps, 256x256 dense")
    small_job(args, 0)
    if args.busy:
        small_job(args, args.busy)
    if args.big_closures <= 0:
        return
    shapes = [(args.big_workers, args.big_ps)] + ([(w, p) for w, p in args.also] if args.also else [])
    for k, (w, p) in enumerate(shapes):
        print(f"2{'abcdefgh'[k]}. timing-only: {w:,} workers, {p} ps, {args.big_closures:,} closures")
        base = timing_only(w, p, args.big_closures, args.baseline_src) if args.baseline_src and k == 0 else None
        big = timing_only(w, p, args.big_closures)
        for label, r in (("baseline", base), ("this code", big)):
            if r is not None:
                print(f"   {label:<10} wall {r['wall_s']:.1f}s (CPU {r['cpu_s']:.1f}s), {r['completed']:,} completed, "
                      f"{r['events']:,} events, {r['simulated_s']!r} s simulated, max RSS {r['max_rss_mib']:.0f} MiB "
                      f"({os.path.dirname(os.path.dirname(r['simdist']))})")
        if base is not None:
            print(f"   baseline / this code: wall {base['wall_s'] / big['wall_s']:.1f}x, CPU {base['cpu_s'] / big['cpu_s']:.1f}x; "
                  f"simulated time {'identical' if base['simulated_s'] == big['simulated_s'] else 'differs by %.2e relative' % ((big['simulated_s'] - base['simulated_s']) / base['simulated_s'])}")

if __name__ == "__main__":
    main()
