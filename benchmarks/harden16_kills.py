"""Show that the harden16 suite family kills mutants: plant each (a catalogue id, or one of
OWN below, which are not in the catalogue) in a private copy of the committed package and run only
``-k harden16`` of the conformance suite against it (simdist backend).

    python benchmarks/harden16_kills.py ID [ID ...]     # catalogue ids, own:NAME, or baseline

Prints one line per mutant: killed (with the first failing test) or survived.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
spec = importlib.util.spec_from_file_location("simdist_mutants", ROOT / "tests" / "mutants.py")
mutants = importlib.util.module_from_spec(spec)
sys.modules["simdist_mutants"] = mutants
spec.loader.exec_module(mutants)   # type: ignore[union-attr]

_K = "simdist/keras/"
#: Five bugs written for this check (kinds the harden16 family enumerates), not in the catalogue.
OWN = {
    "adam-config-beta2-from-beta1": mutants.Mutant(
        "adam-config-beta2-from-beta1", "order", _K + "optimizers/adam.py",
        '"beta_2": self.beta_2', '"beta_2": self.beta_1', "Adam's config writes beta_2 from beta_1",
        layer="training"),
    "history-params-without-steps": mutants.Mutant(
        "history-params-without-steps", "state", _K + "callbacks/callback.py",
        "        self.params = params\n", "        self.params = {k: v for k, v in (params or {}).items() if k != 'steps'}\n",
        "the callbacks' params lack 'steps'", layer="training"),
    "test-end-logs-empty": mutants.Mutant(
        "test-end-logs-empty", "state", _K + "trainers/trainer.py",
        "        callbacks.on_test_end(logs)\n        if return_dict:",
        "        callbacks.on_test_end({})\n        if return_dict:", "evaluate's on_test_end gets empty logs",
        layer="training"),
    "pool-same-floor": mutants.Mutant(
        "pool-same-floor", "boundary", _K + "layers/argument_validation.py",
        "    elif padding == \"same\":\n        out = np.floor((spatial - 1) / strides) + 1\n    else:\n        raise ValueError(f\"Argument `padding` must be either 'valid' or 'same'. Received: padding={padding}\")",
        "    elif padding == \"same\":\n        out = np.floor(spatial / strides)\n    else:\n        raise ValueError(f\"Argument `padding` must be either 'valid' or 'same'. Received: padding={padding}\")", "a 'same' pooling's output length is floor(n / s), not ceil", layer="training"),
    "metrics-names-compiled-last": mutants.Mutant(
        "metrics-names-compiled-last", "order", _K + "trainers/trainer.py",
        "        return [m.name for m in self.metrics]\n",
        "        names = [m.name for m in self.metrics]\n"
        "        return [n for n in names if n != 'compile_metrics'] + [n for n in names if n == 'compile_metrics']\n", "metrics_names lists compile_metrics after the output losses",
        layer="training"),
}


def find(mid: str) -> mutants.Mutant:
    if mid.startswith("own:"):
        return OWN[mid[4:]]
    for m in mutants.CATALOGUE:
        if m.id == mid:
            return m
    raise SystemExit(f"no mutant {mid}")


def run(m: mutants.Mutant | None) -> str:
    """Plant `m` (None: nothing, the baseline, which must pass) in a copy and run -k harden16."""
    with tempfile.TemporaryDirectory(prefix="h16mut") as d:
        work = Path(d)
        # the committed package (git archive HEAD), so edits to the working tree during a run do not leak in;
        # the compiled modules (not in git) from the working tree
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", "HEAD", "simdist"], check=True,
                                 capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", str(work)], input=archive, check=True)
        for so in list((ROOT / "simdist" / "sim").glob("*.so")) + [ROOT / "simdist" / "sim" / "_native.json"]:
            if so.exists():
                shutil.copy(so, work / "simdist" / "sim" / so.name)
        for so in ROOT.glob("simdist_sim__mypyc*.so"):
            shutil.copy(so, work / so.name)
        if m is not None:
            target = work / m.path
            target.write_text(mutants.apply(target.read_text(), m))
        env = dict(os.environ, PYTHONPATH=str(work))
        env.pop("SIMDIST_CONFORMANCE_BACKEND", None)
        p = subprocess.run([sys.executable, "-m", "simdist.conformance", "--backend", "simdist", "-q", "-k", "harden16",
                            "--", "-x", "-p", "no:cacheprovider", "-W", "ignore"], cwd=work, env=env,
                           capture_output=True, text=True, timeout=1800)
        out = p.stdout + p.stderr
        failed = [ln for ln in out.splitlines() if ln.startswith(("FAILED", "ERROR"))]
        if p.returncode == 0:
            return "survived"
        return f"killed ({failed[0][:160] if failed else 'exit ' + str(p.returncode) + ': ' + out[-300:]})"


if __name__ == "__main__":
    for mid in sys.argv[1:]:
        print(f"{mid}: {run(None if mid == 'baseline' else find(mid))}", flush=True)
