"""Plant one mutant in a private copy of the committed package and run a slice of the conformance
suite against it (simdist backend): the shared steps of the suite families' kill scripts
(harden16_kills.py, harden19_kills.py, harden19b_kills.py)."""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
_spec = importlib.util.spec_from_file_location("simdist_mutants", ROOT / "tests" / "mutants.py")
mutants = importlib.util.module_from_spec(_spec)
sys.modules["simdist_mutants"] = mutants
_spec.loader.exec_module(mutants)   # type: ignore[union-attr]


def find(mid: str, own: dict[str, Any]) -> Any:
    """The mutant `mid`: `own:NAME` from the script's own (uncatalogued) ones, else a catalogue id."""
    if mid.startswith("own:"):
        return own[mid[4:]]
    for m in mutants.CATALOGUE:
        if m.id == mid:
            return m
    raise SystemExit(f"no mutant {mid}")


def expand(ids: list[str], groups: dict[str, list[str]]) -> list[str]:
    """Command-line mutant ids with each group name (a script's "own", ...) replaced by its ids."""
    out: list[str] = []
    for mid in ids:
        out += groups.get(mid, [mid])
    return out


def run(m: Any, k: str, every_failure: bool = False, workers: int = 0) -> str:
    """Plant `m` (None: nothing, the baseline, which must pass) in a copy and run the suite's `-k k`.
    `every_failure` runs the whole slice and names every failing test; otherwise it stops at the first.
    `workers` > 0 runs the slice on that many xdist workers."""
    with tempfile.TemporaryDirectory(prefix="suitekill") as d:
        work = Path(d)
        # the committed package (git archive HEAD), so edits to the working tree during a run do not leak in;
        # the compiled modules (not in git) from the working tree
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", "HEAD", "simdist"], check=True,
                                 capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", str(work)], input=archive, check=True)
        # (every compiled extension: simdist/sim's and simdist/runtime/ops/_fma*.so, whose absence switches the float32
        # products to the pure kernels — a different NaN choice in some products, blind66b)
        for so in sorted((ROOT / "simdist").rglob("*.so")) + [ROOT / "simdist" / "sim" / "_native.json"]:
            if so.exists():
                dest = work / so.relative_to(ROOT)
                dest.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy(so, dest)
        for so in ROOT.glob("simdist_sim__mypyc*.so"):
            shutil.copy(so, work / so.name)
        if m is not None:
            target = work / m.path
            target.write_text(mutants.apply(target.read_text(), m))
        env = dict(os.environ, PYTHONPATH=str(work))
        env.pop("SIMDIST_CONFORMANCE_BACKEND", None)
        stop = [] if every_failure else ["-x"]
        if workers:
            stop += ["-n", str(workers)]
        p = subprocess.run([sys.executable, "-m", "simdist.conformance", "--backend", "simdist", "-q", "-k", k,
                            "--", *stop, "-p", "no:cacheprovider", "-W", "ignore"], cwd=work, env=env,
                           capture_output=True, text=True, timeout=1800)
        out = p.stdout + p.stderr
        failed = [ln for ln in out.splitlines() if ln.startswith(("FAILED", "ERROR"))]
        if p.returncode == 0:
            return "survived"
        if every_failure:
            names = sorted({ln.split("::", 1)[-1].split(" ")[0] for ln in failed})
            detail = ", ".join(names) if names else f"exit {p.returncode}: {out[-300:]}"
            return f"killed by {len(names)} tests ({detail})"
        return f"killed ({failed[0][:160] if failed else 'exit ' + str(p.returncode) + ': ' + out[-300:]})"
