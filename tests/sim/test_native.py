"""The compiled (mypyc) build of the simulator's hot modules (simdist/sim/_native.py, setup.py):
the same results as the pure-Python sources, byte for byte, and a build out of date with its
sources set aside for them."""

from __future__ import annotations

import ast
import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from simdist.sim import _native

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
STATE = _native.state()
COMPILED = STATE["compiled"]
needs_build = pytest.mark.skipif(not COMPILED, reason=f"the compiled build is not in use: {STATE['reason']} "
                                                      "(`pip install -e .` builds one)")

# Each workload's metrics, trace and process wake-up order, as one JSON document (a fresh process).
WORKLOADS = r'''
import hashlib, io, json, sys
import simtest_workloads as w
from simdist.sim import Simulator, _native, presets

def strategy_like():
    sim = Simulator(presets.gpu_host(gpus=8), seed=0, trace=io.BytesIO())
    devs = [d.name for d in sim.cluster.devices() if d.kind == "GPU"]
    for k in range(3):
        with sim.step(f"step {k}"):
            sim.drive(sim.all_of([sim.compute(d, 2e12 * (1 + i), "fwd", replica=i) for i, d in enumerate(devs)]))
            for alg in ("ring", "tree", "reduce_to_one"):
                sim.drive(sim.all_reduce(devs, 100e6 + 7, algorithm=alg, name="grads"))
    sim.close()
    return sim.metrics(), sim.trace.getvalue().decode()

def ps(**kw):
    sim, ends, log = w.ps_rounds(64, prepared=True, **kw)
    return sim.metrics(), [ends, log]

def link_changes():
    sim = Simulator(presets.gpu_cluster(hosts=2, gpus_per_host=4), seed=0)
    devs = [d.name for d in sim.cluster.devices() if d.kind == "GPU"]
    nic = [ln.name for ln in sim.cluster.links if ln.name.endswith("nic")][0]
    sim.degrade_link(nic, bandwidth_factor=0.3, start=1e-4, end=3e-3)
    evs = [sim.transfer(a, b, 3e6 + i) for i, a in enumerate(devs) for b in devs[:3] if a != b]
    sim.drive(sim.all_of(evs))
    return sim.metrics(), sim.events

out = {"compiled": _native.state()["compiled"]}
for name, fn in [("strategy_like", strategy_like), ("training_steps", lambda: w.training_steps().metrics()),
                 ("ps_lockstep", ps), ("ps_jitter", lambda: ps(jitter=True)),
                 ("ps_degraded", lambda: ps(degrade=True)), ("ps_pods", lambda: ps(pod_size=16)),
                 ("link_changes", link_changes)]:
    out[name] = hashlib.sha256(json.dumps(fn(), sort_keys=True).encode()).hexdigest()
print(json.dumps(out))
'''


def _run(pure: bool, root: Path = ROOT, code: str = WORKLOADS) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "SIMDIST_PURE_PYTHON"}
    if pure:
        env["SIMDIST_PURE_PYTHON"] = "1"
    env["PYTHONPATH"] = os.pathsep.join([str(root), str(HERE)])
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=str(root))


@needs_build
def test_compiled_and_pure_python_give_identical_results() -> None:
    runs = {}
    for pure in (False, True):
        proc = _run(pure)
        assert proc.returncode == 0, f"workloads failed ({'pure' if pure else 'compiled'}):\n{proc.stderr}"
        runs[pure] = json.loads(proc.stdout.strip().splitlines()[-1])
    assert runs[False].pop("compiled") is True and runs[True].pop("compiled") is False, (
        f"expected one compiled run and one pure run, got compiled={runs[False]} / pure={runs[True]}")
    diff = [k for k in runs[False] if runs[False][k] != runs[True][k]]
    assert not diff, f"compiled and pure-Python runs differ (sha256 of metrics, trace, wake-ups) in: {diff}"


def test_setup_compiles_the_modules_simdist_sim_lists() -> None:
    tree = ast.parse((ROOT / "setup.py").read_text())
    listed = [ast.literal_eval(node.value) for node in ast.walk(tree)
              if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "COMPILED" for t in node.targets)]
    assert listed == [_native.COMPILED], f"setup.py compiles {listed}, simdist/sim/_native.py lists {_native.COMPILED}"


@needs_build
def test_a_build_out_of_date_with_its_sources_is_set_aside(tmp_path: Path) -> None:
    """A copy of the package with the build's .so files and one source edited since: simdist.sim
    warns and imports every module of the group from its source; unedited, it uses the build."""
    shutil.copytree(ROOT / "simdist", tmp_path / "simdist", ignore=shutil.ignore_patterns("__pycache__"))
    for lib in ROOT.glob("simdist_sim__mypyc*"):
        shutil.copy(lib, tmp_path)
    code = ("import warnings, json; warnings.simplefilter('always')\n"
            "with warnings.catch_warnings(record=True) as ws:\n"
            "    import simdist.sim.network as n, simdist.sim.chunked as c, simdist.sim._native as nat\n"
            "print(json.dumps([n.__file__, c.__file__, nat.state(), [str(w.message) for w in ws]]))")
    proc = _run(False, tmp_path, code)
    assert proc.returncode == 0, proc.stderr
    n_file, c_file, state, warned = json.loads(proc.stdout)
    files = [n_file, c_file]
    assert state["compiled"] and all(not f.endswith(".py") for f in files) and not warned, (
        f"unedited copy: expected the compiled build, got {files}, {state}, warnings {warned}")
    src = tmp_path / "simdist" / "sim" / "network.py"
    src.write_text(src.read_text() + "\n# edited after the build\n")
    proc = _run(False, tmp_path, code)
    assert proc.returncode == 0, proc.stderr
    n_file, c_file, state, warned = json.loads(proc.stdout)
    files = [n_file, c_file]
    assert not state["compiled"] and all(f.endswith(".py") for f in files), (
        f"edited network.py: expected every compiled module from its source, got {files}, {state}")
    assert any("out of date" in m and "network" in m for m in warned), f"expected a stale-build warning, got {warned}"


@needs_build
def test_the_manifest_records_the_sources_of_a_build() -> None:
    """A build's manifest holds each compiled source's SHA-256 (by which the guard above decides)."""
    manifest = ROOT / "simdist" / "sim" / _native.MANIFEST
    built = json.loads(manifest.read_text())
    for name in _native.COMPILED:
        digest = hashlib.sha256((ROOT / "simdist" / "sim" / f"{name}.py").read_bytes()).hexdigest()
        assert built.get(name) == digest, f"{manifest}: {name} recorded {built.get(name)}, source has {digest}"


@needs_build
def test_a_build_whose_runtime_module_is_missing_falls_back_to_the_sources() -> None:
    """A tree built by another installation (a second editable install, a venv) has extension
    modules whose shared runtime module this environment cannot import: simdist runs the sources,
    with a warning, instead of failing at import (it used to be an internal error, exit 3)."""
    code = ("import sys, warnings\n"
            "sys.modules['simdist_sim__mypyc'] = None   # as if not installed in this environment\n"
            "with warnings.catch_warnings(record=True) as w:\n"
            "    warnings.simplefilter('always')\n"
            "    import simdist.sim._native as n\n"
            "    st = n.state()\n"
            "from simdist import tf\n"
            "print(st['compiled'], 'not importable' in st['reason'], any('not importable' in str(x.message) for x in w),\n"
            "      float(tf.reduce_sum(tf.ones([3]))))\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert proc.returncode == 0, f"import failed:\n{proc.stderr[-2000:]}"
    assert proc.stdout.split() == ["False", "True", "True", "3.0"], \
        f"expected the sources in use, the reason and a warning, and a working facade; got {proc.stdout!r}"
