"""`simdist launch`: a script run once per worker, its output prefixed by task, exit codes."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = """
import json, os, sys
from simdist import tf
strategy = tf.distribute.MultiWorkerMirroredStrategy()
task = json.loads(os.environ["TF_CONFIG"])["task"]
total = strategy.reduce("SUM", tf.constant(float(task["index"] + 1)), axis=None)
print("args", sys.argv[1:], "replicas", strategy.num_replicas_in_sync, "sum", float(total))
if "--fail" in sys.argv and task["index"] == 1:
    raise SystemExit(3)
"""


def _launch(tmp_path: Path, *argv: str) -> subprocess.CompletedProcess:
    script = tmp_path / "worker.py"
    script.write_text(SCRIPT)
    cmd = [sys.executable, "-m", "simdist", "launch", *[str(script) if a == "SCRIPT" else a for a in argv]]
    env = {"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}
    return subprocess.run(cmd, capture_output=True, text=True, cwd=tmp_path, env=env, timeout=300)


def test_launch_runs_the_script_once_per_task(tmp_path):
    p = _launch(tmp_path, "--workers", "2", "--chief", "--gpus-per-worker", "2", "SCRIPT", "--lr", "0.1")
    assert p.returncode == 0, f"exit {p.returncode}, but should be 0\n{p.stderr[-2000:]}"
    # a plain value is reduced once per task (clause mwms.reduce): chief 1 + worker 1 + worker 2
    want = ("[chief 0] args ['--lr', '0.1'] replicas 6 sum 4.0\n"
            "[worker 0] args ['--lr', '0.1'] replicas 6 sum 4.0\n"
            "[worker 1] args ['--lr', '0.1'] replicas 6 sum 4.0\n")
    assert p.stdout == want, f"stdout={p.stdout!r}, but should be {want!r}"
    assert "3 tasks, 0 failed" in p.stderr, p.stderr


def test_a_failing_task_exits_1_and_bad_input_2(tmp_path):
    p = _launch(tmp_path, "--workers", "2", "SCRIPT", "--fail")
    assert p.returncode == 1, f"exit {p.returncode}, but should be 1 (a task failed)\n{p.stderr[-2000:]}"
    assert "[worker 1] failed" in p.stderr and "SystemExit: 3" in p.stderr, p.stderr[-2000:]
    p = _launch(tmp_path, "--workers", "0", "SCRIPT")
    assert p.returncode == 2 and "workers=0: expected an int >= 1" in p.stderr, (p.returncode, p.stderr)


UNSEEDED = """
import random
import numpy as np
from simdist import tf
im = tf.keras.preprocessing.image
x = np.arange(2 * 5 * 6 * 3, dtype=np.float32).reshape(2, 5, 6, 3)
gen = im.ImageDataGenerator(rotation_range=30, zoom_range=0.3, horizontal_flip=True)
t = gen.get_random_transform((5, 6, 3))
print("theta", repr(t["theta"]), "zx", repr(t["zx"]), "rot", float(im.random_rotation(x[0], 40, 0, 1, 2).sum()),
      "py", repr(random.random()))
np.random.seed(7)
print("seeded", repr(gen.get_random_transform((5, 6, 3))["theta"]))
"""


def test_a_run_without_any_seed_is_reproducible(tmp_path):
    """Each client's Python and NumPy global generators are seeded from the root seed and its task
    (clause mwms.process-state): Keras's unseeded legacy augmentation gives the same draws in two fresh
    processes, the workers' draws differ, and the program's own np.random.seed(7) gives NumPy's stream."""
    script = tmp_path / "unseeded.py"
    script.write_text(UNSEEDED)
    cmd = [sys.executable, "-m", "simdist", "launch", "--workers", "2", str(script)]
    env = {"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}
    runs = [subprocess.run(cmd, capture_output=True, text=True, cwd=tmp_path, env=env, timeout=300) for _ in range(2)]
    for p in runs:
        assert p.returncode == 0, f"exit {p.returncode}, but should be 0\n{p.stderr[-2000:]}"
    assert runs[0].stdout == runs[1].stdout, f"two runs without a seed differ:\n{runs[0].stdout}\n{runs[1].stdout}"
    lines = runs[0].stdout.splitlines()
    draws = [ln.split("] ", 1)[1] for ln in lines if " theta " in ln]
    assert len(draws) == 2 and draws[0] != draws[1], f"the two workers should draw apart: {draws}"
    want = repr(np.random.RandomState(7).uniform(-30, 30))   # Keras: np.random.uniform(-rotation_range, ...)
    seeded = [ln.split("seeded ", 1)[1] for ln in lines if "seeded" in ln]
    assert seeded == [want, want], f"after np.random.seed(7) theta should be {want} on each worker, got {seeded}"
