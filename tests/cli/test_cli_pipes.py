"""Every command piped into a reader that has gone (``simdist gate ... | head -2``) finishes and
keeps its documented exit code (0 ok, 1 a failure found, 2 bad input): no traceback, no
"internal error", no exit 3. Each command runs in a fresh interpreter with stdout a pipe whose
read end is already closed.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MIRRORED = str(ROOT / "scenarios/mirrored_allreduce.toml")
DEGRADED = str(ROOT / "scenarios/degraded_link.toml")


def _simdist(argv: list[str], closed: bool, cwd: Path) -> tuple[int, str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    cmd = [sys.executable, "-m", "simdist", *argv]
    if not closed:
        p = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                           timeout=600)
        return p.returncode, p.stderr
    r, w = os.pipe()
    os.close(r)                      # the reader is gone before the first write
    try:
        p = subprocess.run(cmd, cwd=cwd, env=env, stdout=w, stderr=subprocess.PIPE, text=True, timeout=600)
    finally:
        os.close(w)
    return p.returncode, p.stderr


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("pipes")
    for name, factor in (("base", "1.0"), ("slow", "0.1")):
        code, err = _simdist(["run", DEGRADED, "--quick", "--out", str(d / name), "--quiet",
                              "--param", f"faults.links[0].bandwidth_factor={factor}"], False, d)
        assert code == 0, err
    code, err = _simdist(["sweep", MIRRORED, "--quick", "--seeds", "0..1", "--out", str(d / "sweep"),
                          "--no-progress"], False, d)
    assert code == 0, err
    (d / "bad.toml").write_text("[scenario]\nname = 'x'\n", encoding="utf-8")
    return d


_ONLY_REDUCE = [f"--ignore={p}" for p in sorted((ROOT / "simdist" / "conformance" / "suite").glob("test_*.py"))
                if p.name != "test_reduce.py"]

# name -> (argv, the exit code the command has with a working stdout: docs/cli.md's contract)
COMMANDS = {
    "help": (["--help"], 0),
    "run-help": (["run", "--help"], 0),
    "run": (["run", MIRRORED, "--quick", "--out", "{d}/r", "--force"], 0),
    "run-dry": (["run", MIRRORED, "--dry-run"], 0),
    "run-bad": (["run", "{d}/bad.toml"], 2),
    "sweep": (["sweep", MIRRORED, "--quick", "--seeds", "0..1", "--out", "{d}/s", "--force", "--no-progress"], 0),
    "gate-regression": (["gate", "{d}/slow", "--baseline", "{d}/base", "--junit", "-", "--allow-different-scenario"], 1),
    "gate-pass": (["gate", "{d}/base", "--baseline", "{d}/base", "--junit", "-"], 0),
    "gate-refused": (["gate", "{d}/slow", "--baseline", "{d}/base", "--junit", "-"], 2),
    "replay": (["replay", MIRRORED, "--quick", "--run", "0", "--sweep", "{d}/sweep", "--out", "{d}/rp", "--force"], 0),
    # (only test_reduce.py collected: collecting the whole suite was most of this case's 40 s)
    "conformance": (["conformance", "--backend", "simdist", "-k", "partial_batch", "--", *_ONLY_REDUCE], 0),
    "conformance-bad": (["conformance", "--backend", "simdsit"], 2),
    "conformance-matrix-help": (["conformance-matrix", "--help"], 0),
}


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_a_closed_stdout_keeps_the_exit_code(runs, name):
    argv, want = COMMANDS[name]
    code, err = _simdist([a.format(d=runs) for a in argv], True, runs)
    assert code == want, f"simdist {' '.join(argv)} | (closed): exit {code}, expected {want}:\n{err[-2000:]}"
    for bad in ("Traceback", "BrokenPipeError", "internal error", "Exception ignored"):
        assert bad not in err, f"simdist {' '.join(argv)} | (closed) printed {bad!r}:\n{err[-2000:]}"
