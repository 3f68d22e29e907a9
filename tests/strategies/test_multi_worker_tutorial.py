"""TF's "Custom training loop with Keras and MultiWorkerMirroredStrategy" tutorial
(docs/examples/tutorial_multi_worker_ctl.py) on two workers: simdist's launch prints the losses
and accuracies two real TF 2.21 worker processes printed (rtol 1e-5 on every number)."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from simdist.launch import launch

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"
SCRIPT = EXAMPLES / "tutorial_multi_worker_ctl.py"

# What each of two TF 2.21 workers printed (tensorflow-cpu 2.21.0, Keras 3.15.1, TF_CONFIG on
# localhost ports; test_tf_prints_the_expected runs them again).
TF_2_21 = [
    "Epoch: 0, accuracy: 0.103125, train_loss: 2.313892.",
    "Epoch: 1, accuracy: 0.117188, train_loss: 2.301004.",
    "Epoch: 2, accuracy: 0.127344, train_loss: 2.295220.",
]
_NUM = re.compile(r"[-+]?\d+\.\d+|\d+")


def _same(lines: list[str], who: str) -> None:
    assert len(lines) == len(TF_2_21), f"{who} printed {lines}, but TF 2.21 printed {TF_2_21}"
    for got, want in zip(lines, TF_2_21):
        g = [float(x) for x in _NUM.findall(got)]
        w = [float(x) for x in _NUM.findall(want)]
        assert _NUM.sub("#", got) == _NUM.sub("#", want) and np.allclose(g, w, rtol=1e-5, atol=0), \
            f"{who} printed {got!r}, but TF 2.21 printed {want!r} (rtol 1e-5)"


@pytest.mark.slow
@pytest.mark.clause("mwms.collectives")
def test_tutorial_on_simdist_prints_tfs_losses(monkeypatch):
    monkeypatch.chdir(EXAMPLES)
    monkeypatch.syspath_prepend(str(EXAMPLES))
    r = launch(str(SCRIPT), workers=2)
    assert not r.errors, f"the launch failed: {r.errors}"
    for i in (0, 1):
        mine = [ln[len(f"[worker {i}] "):] for ln in r.stdout.splitlines() if ln.startswith(f"[worker {i}] ")]
        _same(mine, f"simdist worker {i}")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("localhost", 0))
        return s.getsockname()[1]


@pytest.mark.tf
@pytest.mark.slow
def test_tf_prints_the_expected():
    cluster = {"worker": [f"localhost:{_free_port()}", f"localhost:{_free_port()}"]}
    procs = []
    for i in (0, 1):
        env = dict(os.environ, CUDA_VISIBLE_DEVICES="", TF_CPP_MIN_LOG_LEVEL="3", SIMDIST_EXAMPLE_BACKEND="tensorflow",
                   TF_CONFIG=json.dumps({"cluster": cluster, "task": {"type": "worker", "index": i}}))
        procs.append(subprocess.Popen([sys.executable, str(SCRIPT)], cwd=EXAMPLES, env=env, text=True,
                                      stdout=subprocess.PIPE, stderr=subprocess.PIPE))
    for i, p in enumerate(procs):
        out, err = p.communicate(timeout=900)
        assert p.returncode == 0, f"TF worker {i} failed (exit {p.returncode}): {err[-2000:]}"
        _same(out.splitlines(), f"TF 2.21 worker {i}")
