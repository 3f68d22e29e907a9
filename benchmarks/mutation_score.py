"""How strong is the conformance suite? Plant realistic bugs in simdist and count how many it catches.

    python benchmarks/mutation_score.py [--jobs N] [--only ID,ID] [--layer training|distribution]
                                        [--timeout S] [--min-score 0.97] [--json out.json]
                                        [--hypothesis-seed SEED]

For each mutant of the catalogue (tests/mutants.py) the script plants it in a private copy of
the `simdist` package, runs `python -m simdist.conformance --backend simdist -x` against that
copy (a subprocess with the copy first on PYTHONPATH), and calls the mutant *killed* when the
suite fails (exit status 1: some clause test failed, or a listed deviation now passes),
*crashed* when the run ends otherwise non-zero (the mutant breaks import or the suite's
machinery: detected, but not by an assertion), *timeout* when it runs past --timeout, and
*survived* when the suite passes. The score is (killed + crashed + timeout) / observable
mutants; mutants marked unobservable in the catalogue (no public-API effect) are listed apart.
The training layer's mutants (gradients, tape, optimizers, losses, metrics, fit, weight files,
random ops; `layer="training"`, issue 29) get their own score line (and `training_score` in the
JSON); `--layer` runs one layer only.

The unmutated copy is run first and must pass; every mutant's anchor is checked before any
run, so a catalogue that no longer fits the code fails at once (exit 2). Hypothesis runs with
a fixed seed (default 0) and without shrinking, so a killed mutant stops at its first failing
example. Exit status: 0 if the score reaches --min-score, 1 if not, 2 for a bad catalogue or a
failing baseline.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def load_catalogue():
    spec = importlib.util.spec_from_file_location("simdist_mutants", ROOT / "tests" / "mutants.py")
    mod = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    sys.modules["simdist_mutants"] = mod   # dataclasses look their module up there
    spec.loader.exec_module(mod)
    return mod


@dataclass
class Outcome:
    id: str
    kind: str
    status: str          # killed | crashed | timeout | survived | unobservable-survived | unobservable-killed
    layer: str
    seconds: float
    first_failure: str   # the first failing test (killed) or the tail of the output
    why: str


def _copy_package(dest: Path) -> None:
    shutil.copytree(ROOT / "simdist", dest / "simdist", ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))


def _suite_cmd(seed: str) -> list[str]:
    return [sys.executable, "-m", "simdist.conformance", "--backend", "simdist", "-q", "--hypothesis-seed", seed,
            "--", "-x", "-p", "no:cacheprovider", "-p", "simdist_mutation_plugin", "-W", "ignore"]


_PLUGIN = '''"""Loaded by benchmarks/mutation_score.py: hypothesis without shrinking (a killed mutant stops at
its first failing example instead of minimising it)."""
import pytest


@pytest.hookimpl(trylast=True)
def pytest_configure(config):
    from hypothesis import Phase, settings
    settings.register_profile("mutation", settings(settings(), phases=[Phase.explicit, Phase.reuse, Phase.generate]))
    settings.load_profile("mutation")
'''


def _run_suite(work: Path, seed: str, timeout: float) -> tuple[str, float, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(work)
    env.pop("SIMDIST_CONFORMANCE_BACKEND", None)
    t0 = time.monotonic()
    try:
        p = subprocess.run(_suite_cmd(seed), cwd=work, env=env, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return "timeout", time.monotonic() - t0, f"no verdict within {timeout:.0f} s"
    dt = time.monotonic() - t0
    out = p.stdout + p.stderr
    if p.returncode == 0:
        return "survived", dt, ""
    failed = [ln for ln in out.splitlines() if ln.startswith(("FAILED", "XPASS", "ERROR"))]
    if p.returncode == 1:
        return "killed", dt, failed[0] if failed else out.strip().splitlines()[-1]
    return "crashed", dt, (failed[0] if failed else " | ".join(out.strip().splitlines()[-3:]))[:400]


def _prepare(base: Path) -> Path:
    base.mkdir(parents=True, exist_ok=True)
    _copy_package(base)
    (base / "simdist_mutation_plugin.py").write_text(_PLUGIN, encoding="utf-8")
    probe = subprocess.run([sys.executable, "-c", "import simdist; print(simdist.__file__)"], cwd=base,
                           env=dict(os.environ, PYTHONPATH=str(base)), capture_output=True, text=True)
    where = Path(probe.stdout.strip() or "?").resolve()
    if base.resolve() not in where.parents:
        raise SystemExit(f"the copy at {base} is not the simdist that gets imported ({where}): check PYTHONPATH")
    return base


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--jobs", type=int, default=2, help="mutants run in parallel (default 2)")
    ap.add_argument("--only", help="comma-separated mutant ids")
    ap.add_argument("--layer", choices=("training", "distribution"), help="run this layer's mutants only")
    ap.add_argument("--timeout", type=float, default=180.0, help="seconds per suite run (default 180)")
    ap.add_argument("--min-score", type=float, default=0.97)
    ap.add_argument("--hypothesis-seed", default="0")
    ap.add_argument("--json", help="write every outcome here")
    args = ap.parse_args(argv)

    cat = load_catalogue()
    mutants = list(cat.CATALOGUE)
    if args.only:
        wanted = set(args.only.split(","))
        unknown = wanted - {m.id for m in mutants}
        if unknown:
            print(f"unknown mutant id(s): {sorted(unknown)}", file=sys.stderr)
            return 2
        mutants = [m for m in mutants if m.id in wanted]
    if args.layer:
        mutants = [m for m in mutants if m.layer == args.layer]
    problems = []
    for m in mutants:   # every anchor first: a stale catalogue fails before any run
        try:
            cat.apply((ROOT / m.path).read_text(encoding="utf-8"), m)
        except cat.AnchorGone as e:
            problems.append(str(e))
    if problems:
        print("\n\n".join(problems), file=sys.stderr)
        return 2

    tmp = Path(tempfile.mkdtemp(prefix="simdist-mutation-"))
    try:
        jobs = max(1, args.jobs)
        slots = [_prepare(tmp / f"slot{i}") for i in range(jobs)]
        status, dt, detail = _run_suite(slots[0], args.hypothesis_seed, args.timeout)
        print(f"baseline (unmutated copy): {status}, {dt:.1f} s", flush=True)
        if status != "survived":
            print(f"the unmutated suite does not pass: {detail}", file=sys.stderr)
            return 2
        free = list(slots)
        import threading
        lock = threading.Lock()

        def one(m) -> Outcome:
            with lock:
                slot = free.pop()
            try:
                original = cat.apply_to_tree(slot, m)
                try:
                    st, secs, det = _run_suite(slot, args.hypothesis_seed, args.timeout)
                finally:
                    (slot / m.path).write_text(original, encoding="utf-8")
            finally:
                with lock:
                    free.append(slot)
            if m.unobservable:
                st = "unobservable-" + ("survived" if st == "survived" else "killed")
            o = Outcome(m.id, m.kind, st, m.layer, secs, det, m.why)
            print(f"{o.status:>9}  {o.seconds:5.1f} s  {m.id}" + (f"  <- {det}" if det and st != "survived" else ""),
                  flush=True)
            return o

        t0 = time.monotonic()
        with ThreadPoolExecutor(max_workers=jobs) as ex:
            outcomes = list(ex.map(one, mutants))
        wall = time.monotonic() - t0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    observable = [o for o in outcomes if not o.status.startswith("unobservable")]
    detected = [o for o in observable if o.status in ("killed", "crashed", "timeout")]
    survived = [o for o in observable if o.status == "survived"]
    score = len(detected) / len(observable) if observable else 1.0
    t_obs = [o for o in observable if o.layer == "training"]
    t_det = [o for o in t_obs if o.status in ("killed", "crashed", "timeout")]
    t_score = len(t_det) / len(t_obs) if t_obs else None
    print()
    print(f"mutants: {len(outcomes)} ({len(observable)} observable); detected {len(detected)} "
          f"(killed {sum(o.status == 'killed' for o in observable)}, crashed "
          f"{sum(o.status == 'crashed' for o in observable)}, timeout {sum(o.status == 'timeout' for o in observable)})"
          f"; survived {len(survived)}")
    print(f"mutation score: {score:.1%} (required {args.min_score:.0%}); {wall:.0f} s wall with {args.jobs} job(s)")
    if t_score is not None:
        print(f"training-layer mutants: {len(t_obs)} observable, detected {len(t_det)}: "
              f"training score {t_score:.1%}")
    for o in survived:
        print(f"  SURVIVED {o.id}: {o.why}")
    for o in outcomes:
        if o.status.startswith("unobservable"):
            m = next(x for x in mutants if x.id == o.id)
            print(f"  unobservable {o.id} ({o.status}): {m.unobservable}")
    if args.json:
        Path(args.json).write_text(json.dumps({"score": score, "training_score": t_score, "mutants": len(outcomes),
                                               "observable": len(observable), "detected": len(detected),
                                               "wall_s": wall, "outcomes": [asdict(o) for o in outcomes]},
                                              indent=1), encoding="utf-8")
    return 0 if score >= args.min_score else 1


if __name__ == "__main__":
    sys.exit(main())
