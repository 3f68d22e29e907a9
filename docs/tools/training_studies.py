"""Reproduce the pictures of the three training studies in docs/failure-injection.md.

    python docs/tools/training_studies.py preemption       # study a -> docs/img/train-preemption-sweep.png
    python docs/tools/training_studies.py mirrored-vs-cs   # study b -> docs/img/train-mirrored-vs-cs.png
    python docs/tools/training_studies.py ps-failure       # study c -> docs/img/train-ps-failure.png
    python docs/tools/training_studies.py all

Studies a and c run the `simdist` commands the guide shows (printed before they run) and copy
their picture; study b runs the four runs (two strategies, healthy and slow link) and draws their
learning curves on one figure. Every run is deterministic: the pictures come out the same.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
IMG = [ROOT / "docs" / "img"]   # (--img)


def _simdist(*args: str) -> None:
    cmd = [sys.executable, "-m", "simdist", *args]
    print("$ simdist " + " ".join(args), flush=True)
    subprocess.run(cmd, cwd=ROOT, check=True)


def preemption(out: Path) -> Path:
    _simdist("sweep", "scenarios/train_ps_preemption.toml", "--executor", "process", "--workers", "2",
             "--out", str(out / "train-preemption"), "--force", "--no-progress",
             "--plot", "time_to_accuracy_s,final_loss,simulated_time_s")
    dst = IMG[0] / "train-preemption-sweep.png"
    shutil.copyfile(out / "train-preemption" / "sweep.png", dst)
    return dst


def mirrored_vs_cs(out: Path) -> Path:
    sys.path.insert(0, str(ROOT))
    from simdist.scenario.loader import load
    from simdist.scenario.plot_loss import draw_loss
    from simdist.scenario.runner import run
    runs, labels = [], []
    for kind in ("mirrored", "central_storage"):
        for factor, what in ((1.0, "healthy links"), (0.05, "GPU:3 PCIe at 5%")):
            sc = load(ROOT / "scenarios/train_mirrored_vs_cs.toml",
                      [f"strategy.kind={kind}", f"faults.links[0].bandwidth_factor={factor}"])
            m = run(sc).metrics
            s = m["summary"]
            print(f"{kind:16} {what:18} simulated {s['simulated_time_s'] * 1e3:7.3f} ms, step "
                  f"{s['step_time_mean_s'] * 1e6:6.1f} us, 90% at {s['time_to_accuracy_s'] * 1e3:6.3f} ms, "
                  f"final loss {s['final_loss']:.4f}, accuracy {100 * s['final_accuracy']:.1f} %")
            runs.append(m)
            labels.append(f"{kind}, {what}")
    fig = draw_loss(runs, labels, shade=False,
                    title="MLP on digits, 4 A100s: MirroredStrategy vs CentralStorageStrategy, healthy links and "
                          "GPU:3's PCIe at 5% (seed 0)")
    dst = IMG[0] / "train-mirrored-vs-cs.png"
    fig.savefig(dst, dpi=130)
    return dst


def ps_failure(out: Path) -> Path:
    _simdist("run", "scenarios/train_ps_failure.toml", "--plot", "--out", str(out / "train-ps-failure"), "--force",
             "--no-progress", "--quiet")
    dst = IMG[0] / "train-ps-failure.png"
    shutil.copyfile(out / "train-ps-failure" / "loss.png", dst)
    return dst


STUDIES = {"preemption": preemption, "mirrored-vs-cs": mirrored_vs_cs, "ps-failure": ps_failure}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("study", choices=[*STUDIES, "all"])
    ap.add_argument("--out", default=str(ROOT / "out"), help="where the runs write (default: out/)")
    ap.add_argument("--img", default=str(IMG[0]), help="where the pictures go (default: docs/img/)")
    args = ap.parse_args()
    IMG[0] = Path(args.img)
    for name in STUDIES if args.study == "all" else [args.study]:
        print(f"wrote {STUDIES[name](Path(args.out))}")


if __name__ == "__main__":
    main()
