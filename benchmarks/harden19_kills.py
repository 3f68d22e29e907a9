"""Show that the harden19 suite family kills mutants: plant each (a catalogue id, or one of
OWN below, which are not in the catalogue) in a private copy of the committed package and run only
``-k harden19`` of the conformance suite against it (simdist backend).

    python benchmarks/harden19_kills.py ID [ID ...]     # catalogue ids, own:NAME, or baseline

Prints one line per mutant: killed (with every failing test) or survived.
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
#: Eight bugs written for this check (defaults, epsilons, fans, an optimizer default), not in the catalogue.
OWN = {
    "layernorm-default-epsilon-1e-5": mutants.Mutant(
        "layernorm-default-epsilon-1e-5", "formula", _K + "layers/normalization.py",
        "    def __init__(self, axis: Any = -1, epsilon: float = 1e-3, center: bool = True, scale: bool = True,",
        "    def __init__(self, axis: Any = -1, epsilon: float = 1e-5, center: bool = True, scale: bool = True,",
        "LayerNormalization's default epsilon is PyTorch's 1e-5, not Keras's 1e-3", layer="training"),
    "batchnorm-default-momentum-0.9": mutants.Mutant(
        "batchnorm-default-momentum-0.9", "formula", _K + "layers/normalization.py",
        "    def __init__(self, axis: int = -1, momentum: float = 0.99, epsilon: float = 1e-3,",
        "    def __init__(self, axis: int = -1, momentum: float = 0.9, epsilon: float = 1e-3,",
        "BatchNormalization's default momentum is 0.9, not 0.99", layer="training"),
    "groupnorm-default-epsilon-1e-5": mutants.Mutant(
        "groupnorm-default-epsilon-1e-5", "formula", _K + "layers/group_normalization.py",
        "    def __init__(self, groups: int = 32, axis: int = -1, epsilon: float = 1e-3,",
        "    def __init__(self, groups: int = 32, axis: int = -1, epsilon: float = 1e-5,",
        "GroupNormalization's default epsilon is 1e-5, not 1e-3", layer="training"),
    "leaky-relu-default-slope-0.2": mutants.Mutant(
        "leaky-relu-default-slope-0.2", "formula", _K + "layers/activation_layers.py",
        "    def __init__(self, negative_slope: float = 0.3, **kwargs: Any) -> None:",
        "    def __init__(self, negative_slope: float = 0.2, **kwargs: Any) -> None:",
        "the LeakyReLU layer's default slope is the function's 0.2, not the layer's 0.3", layer="training"),
    "adam-default-epsilon-1e-8": mutants.Mutant(
        "adam-default-epsilon-1e-8", "formula", _K + "optimizers/adam.py",
        "                 epsilon: float = 1e-7, amsgrad: bool = False,",
        "                 epsilon: float = 1e-8, amsgrad: bool = False,",
        "Adam's default epsilon is the paper's 1e-8, not Keras's 1e-7", layer="training"),
    "fans-without-receptive-field": mutants.Mutant(
        "fans-without-receptive-field", "formula", _K + "initializers.py",
        "    return int(shape[-2] * receptive), int(shape[-1] * receptive)",
        "    return int(shape[-2]), int(shape[-1])",
        "a convolution kernel's fans leave out the receptive field (fan_in = in_channels)", layer="training"),
    "cce-clip-epsilon-1e-6": mutants.Mutant(
        "cce-clip-epsilon-1e-6", "formula", _K + "losses/_nn.py",
        "    output = output / tf.reduce_sum(output, axis, keepdims=True)\n    eps = config.epsilon()\n",
        "    output = output / tf.reduce_sum(output, axis, keepdims=True)\n    eps = 1e-6\n",
        "categorical_crossentropy clips probabilities to [1e-6, 1 - 1e-6], not the backend epsilon 1e-7",
        layer="training"),
    "mape-epsilon-added": mutants.Mutant(
        "mape-epsilon-added", "formula", _K + "losses/regression_losses.py",
        "    diff = tf.abs((y_true - y_pred) / tf.maximum(tf.abs(y_true), epsilon))",
        "    diff = tf.abs((y_true - y_pred) / (tf.abs(y_true) + epsilon))",
        "MAPE divides by |y_true| + epsilon instead of max(|y_true|, epsilon)", layer="training"),
}


def find(mid: str) -> mutants.Mutant:
    if mid.startswith("own:"):
        return OWN[mid[4:]]
    for m in mutants.CATALOGUE:
        if m.id == mid:
            return m
    raise SystemExit(f"no mutant {mid}")


def run(m: mutants.Mutant | None) -> str:
    """Plant `m` (None: nothing, the baseline, which must pass) in a copy and run -k harden19."""
    with tempfile.TemporaryDirectory(prefix="h19mut") as d:
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
        p = subprocess.run([sys.executable, "-m", "simdist.conformance", "--backend", "simdist", "-q", "-k", "harden19",
                            "--", "-p", "no:cacheprovider", "-W", "ignore"], cwd=work, env=env,
                           capture_output=True, text=True, timeout=1800)
        out = p.stdout + p.stderr
        failed = [ln for ln in out.splitlines() if ln.startswith(("FAILED", "ERROR"))]
        if p.returncode == 0:
            return "survived"
        names = sorted({ln.split("::", 1)[-1].split(" ")[0] for ln in failed})
        detail = ", ".join(names) if names else f"exit {p.returncode}: {out[-300:]}"
        return f"killed by {len(names)} tests ({detail})"


if __name__ == "__main__":
    for mid in sys.argv[1:]:
        print(f"{mid}: {run(None if mid == 'baseline' else find(mid))}", flush=True)
