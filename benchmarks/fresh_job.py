"""Running one benchmark job in a fresh interpreter: the job is a Python source string that
prints one line `RESULT <json>`; a fresh process per job keeps jobs from sharing warm caches,
thread pools or a loaded TensorFlow."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any


def run_fresh(source: str, *args: Any, what: str, timeout: float = 3600, path: list[str] | None = None,
              isolated: bool = False) -> dict[str, Any]:
    """The RESULT of `python -c source args...` (PYTHONPATH: `path`, then this process's sys.path).
    `isolated`: `-P`, so the current directory does not go first on sys.path (run from a checkout,
    `python -c` would import that checkout's simdist whatever PYTHONPATH says)."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join((path or []) + sys.path))
    cmd = [sys.executable, *(["-P"] if isolated else []), "-c", source, *map(str, args)]
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=timeout)
    for line in proc.stdout.splitlines():
        if line.startswith("RESULT "):
            return json.loads(line[7:])
    raise RuntimeError(f"{what} job failed (exit {proc.returncode}):\n{proc.stderr[-3000:]}")
