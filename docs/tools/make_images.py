"""Regenerate every picture in docs/img/ from real runs, with one command.

    python docs/tools/make_images.py            # all of them
    python docs/tools/make_images.py --only spot-sweep ps-failure-timeline
    python docs/tools/make_images.py --list

Each picture is made by the commands docs/failure-injection.md, docs/faults.md and
docs/simulator.md show (run in a temporary directory; the sweeps on a process pool of 2), then
copied into docs/img/. Simulations are deterministic, so the pictures change only when simdist
or a scenario does. The wall time of each command is printed (docs quote the sweeps' times).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
IMG = ROOT / "docs" / "img"
SPOT = "scenarios/ps_spot_preemption.toml"
PSF = "scenarios/ps_failure_checkpoint.toml"

# name -> (commands to run, in order; {tmp} is the scratch directory) and (file made -> docs/img name)
PICTURES: dict[str, tuple[list[list[str]], dict[str, str]]] = {
    "spot-sweep": ([["simdist", "sweep", SPOT, "--seeds", "0..9", "--executor", "process", "--workers", "2",
                     "--out", "{tmp}/spot-study", "--plot", "examples_per_s", "--no-progress"]],
                   {"{tmp}/spot-study/sweep.png": "spot-sweep.png"}),
    "spot-timeline": ([["simdist", "sweep", SPOT, "--seeds", "0..9", "--executor", "process", "--workers", "2",
                        "--out", "{tmp}/spot-study", "--no-progress"],
                       ["simdist", "replay", SPOT, "--seed", "8", "--param", "faults.preemption_process.mtbf=10min",
                        "--sweep", "{tmp}/spot-study", "--plot", "--out", "{tmp}/spot-replay", "--quiet"]],
                      {"{tmp}/spot-replay/timeline.png": "spot-timeline.png",
                       "{tmp}/spot-replay/utilisation.png": "spot-utilisation.png"}),
    "ps-failure-timeline": ([["simdist", "run", PSF, "--plot", "--out", "{tmp}/psf-run", "--quiet", "--no-progress"]],
                            {"{tmp}/psf-run/timeline.png": "ps-failure-timeline.png"}),
    "ps-failure-sweep": ([["simdist", "sweep", PSF, "--executor", "process", "--workers", "2",
                           "--out", "{tmp}/psf-study", "--plot", "simulated_time_s", "--no-progress"]],
                         {"{tmp}/psf-study/sweep.png": "ps-failure-sweep.png"}),
    "faults-timeline": ([["python", "docs/tools/faults_example.py", "--png", "{tmp}/faults-timeline.png"]],
                        {"{tmp}/faults-timeline.png": "faults-timeline.png"}),
    "trace-example": ([["python", "docs/tools/trace_example.py", "--png", "{tmp}/trace-example.png"]],
                      {"{tmp}/trace-example.png": "trace-example.png"}),
    # Part 4 of docs/failure-injection.md: training studies (docs/tools/training_studies.py runs the same)
    "train-preemption-sweep": ([["simdist", "sweep", "scenarios/train_ps_preemption.toml", "--executor", "process",
                                 "--workers", "2", "--out", "{tmp}/train-preemption", "--no-progress",
                                 "--plot", "time_to_accuracy_s,final_loss,simulated_time_s"]],
                               {"{tmp}/train-preemption/sweep.png": "train-preemption-sweep.png"}),
    "train-mirrored-vs-cs": ([["python", "docs/tools/training_studies.py", "mirrored-vs-cs", "--out", "{tmp}",
                               "--img", "{tmp}"]],
                             {"{tmp}/train-mirrored-vs-cs.png": "train-mirrored-vs-cs.png"}),
    "train-ps-failure": ([["simdist", "run", "scenarios/train_ps_failure.toml", "--plot", "--out", "{tmp}/train-psf",
                           "--quiet", "--no-progress"]],
                         {"{tmp}/train-psf/loss.png": "train-ps-failure.png"}),
    # Part 5: synchronous multi-worker jobs (the study: docs/tools/checkpoint_interval_study.py)
    "mwms-preemption-timeline": ([["simdist", "run", "scenarios/train_mwms_preemption.toml", "--plot", "--out",
                                   "{tmp}/mwms-run", "--quiet", "--no-progress"]],
                                 {"{tmp}/mwms-run/timeline.png": "mwms-preemption-timeline.png"}),
    "mwms-zoo-loss": ([["simdist", "run", "scenarios/train_mwms_zoo.toml", "--plot", "--out", "{tmp}/mwms-zoo",
                        "--quiet", "--no-progress"]],
                      {"{tmp}/mwms-zoo/loss.png": "mwms-zoo-loss.png"}),
    "mwms-checkpoint-interval": ([["python", "docs/tools/checkpoint_interval_study.py", "--img",
                                   "{tmp}/mwms-checkpoint-interval.png"]],
                                 {"{tmp}/mwms-checkpoint-interval.png": "mwms-checkpoint-interval.png"}),
}


def _argv(cmd: list[str], tmp: str) -> list[str]:
    head = [sys.executable, "-m", "simdist"] if cmd[0] == "simdist" else [sys.executable]
    return head + [c.format(tmp=tmp) for c in cmd[1:]]


def make(names: list[str], tmp: str) -> None:
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    done: set[str] = set()
    for name in names:
        commands, outputs = PICTURES[name]
        for cmd in commands:
            key = " ".join(cmd)
            if key in done:   # the spot sweep serves two pictures
                continue
            argv = _argv(cmd, tmp)
            print("$ " + " ".join(cmd).replace("{tmp}", "$TMP"), flush=True)
            t0 = time.perf_counter()
            proc = subprocess.run(argv, cwd=ROOT, env=env, capture_output=True, text=True)
            wall = time.perf_counter() - t0
            if proc.returncode != 0:
                sys.exit(f"make_images: `{key}` exited {proc.returncode}:\n{proc.stderr}")
            last = [ln for ln in proc.stdout.splitlines() if ln.startswith(("sweep ", "hash:", "metrics:"))]
            print(f"  {wall:.1f} s" + (f"; {last[0]}" if last else ""), flush=True)
            done.add(key)
        for src, dst in outputs.items():
            shutil.copyfile(src.format(tmp=tmp), IMG / dst)
            print(f"  wrote docs/img/{dst}", flush=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", nargs="+", choices=sorted(PICTURES), help="make only these pictures")
    ap.add_argument("--list", action="store_true", help="list the pictures and the files they write")
    args = ap.parse_args(argv)
    if args.list:
        for name, (_, outputs) in PICTURES.items():
            print(f"{name}: {', '.join('docs/img/' + v for v in outputs.values())}")
        return 0
    IMG.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="simdist-images-") as tmp:
        make(args.only or list(PICTURES), tmp)
    return 0


if __name__ == "__main__":
    sys.exit(main())
