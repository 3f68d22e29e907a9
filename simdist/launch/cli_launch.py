"""`simdist launch --workers N [--gpus-per-worker G] [--chief] SCRIPT [ARGS...]`: run SCRIPT once
per worker of a simulated MultiWorkerMirroredStrategy cluster (simdist.launch)."""

from __future__ import annotations

import argparse
import sys
import traceback
from typing import Any


def register(sub: Any) -> None:
    p = sub.add_parser(
        "launch", help="run a TF program once per worker of a simulated multi-worker cluster",
        description="Run SCRIPT once per task of a simulated MultiWorkerMirroredStrategy cluster, in this process: "
                    "each worker sees its own TF_CONFIG in os.environ (a chief-less {\"worker\": [...]} cluster, "
                    "--chief adds a chief) and its output is printed line by line prefixed by its task "
                    "('[worker 0] ...'). The workers meet at every collective, as real ones do. Exit 0 when every "
                    "task ended normally, 1 when one raised (its traceback is printed), 2 for bad input.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="examples:\n"
               "  simdist launch --workers 2 docs/examples/tutorial_multi_worker_ctl.py\n"
               "  simdist launch --workers 4 --gpus-per-worker 8 train.py --epochs 3")
    p.add_argument("--workers", type=int, required=True, metavar="N", help="number of worker tasks (>= 1)")
    p.add_argument("--gpus-per-worker", type=int, default=0, metavar="G",
                   help="simulated GPUs on each worker's host (default 0: one CPU)")
    p.add_argument("--chief", action="store_true", help="add a chief task (TF_CONFIG's 'chief' job)")
    p.add_argument("--seed", type=int, default=0, help="root seed of the simulated machine (default 0)")
    p.add_argument("script", help="the Python program every worker runs (as __main__)")
    p.add_argument("args", nargs=argparse.REMAINDER, help="arguments passed to SCRIPT (its sys.argv[1:])")
    p.set_defaults(func=main)


def main(args: argparse.Namespace) -> int:
    from simdist.launch import _launch, task_label

    real = sys.stdout   # (during the launch sys.stdout is the workers' prefixing stream)

    def echo(line: str) -> None:
        real.write(line)
        real.flush()

    result = _launch(args.script, workers=args.workers, gpus_per_worker=args.gpus_per_worker, chief=args.chief,
                     args=list(args.args), seed=args.seed, echo=echo)
    for task, err in result.errors.items():
        sys.stderr.write(f"[{task_label(task)}] failed:\n")
        sys.stderr.write("".join(traceback.format_exception(type(err), err, err.__traceback__)))
    sys.stderr.write(f"simdist launch: {len(result.results)} tasks, {len(result.errors)} failed, "
                     f"{result.sim_time:.6f} simulated seconds (cost model {result.cost_model})\n")
    return 1 if result.errors else 0
