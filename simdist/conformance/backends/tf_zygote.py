"""A TensorFlow zygote: imports TensorFlow and Keras once, then forks a child per request.

Starting a process that imports TF 2.21 and Keras costs 3.5-5 s of CPU, often more than the work
it then does. `python .../simdist/conformance/backends/tf_zygote.py` (by path: it imports nothing
of simdist) imports them once, checks that
the import left TF fork-safe (no op has run: the eager context is not initialised; the import
started no thread: a fork copies only the calling thread), and serves requests read from stdin,
one JSON line each:

* {"op": "spawn", "argv": ["script.py", "0,5"] or ["-m", "package.module", ...], "cwd": ..., "env":
  {...}, "out": file, "err": file}: fork a child that becomes `python *argv` (argv, working
  directory, environment, sys.path, stdout/stderr to the two files, stdin /dev/null), runs the
  script or module as `__main__` and exits with its status; reply {"pid": child};
* {"op": "wait", "pid": child}: reply {"code": its exit code as subprocess reports it (-N for
  signal N), "cpu": its user+system CPU seconds} once it has ended.

Children run concurrently (several clients of one cluster). EOF on stdin ends the zygote. `Zygote`
is the client side. Used by tests/tf_workers.py (the differential modules' TF workers) and by the
tensorflow backend's `run_multi_worker` (one client process per task).

What a fresh process does and a child does not: import TF with the child's environment (the
zygote's is the one it was started with; callers send only requests whose environment matches
it, `Zygote.serves`), draw its own str hash seed (children share the zygote's; Python's `random`
and NumPy's global generator are re-seeded from OS entropy in each child, as a fresh interpreter
seeds them) and run atexit handlers (a child leaves with os._exit after flushing its output).
"""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from pathlib import Path
from typing import Any


def _tasks() -> int:
    """OS threads of this process."""
    return len(os.listdir("/proc/self/task"))


def _import_tf() -> None:
    """Import TF and Keras; refuse to serve if the import ran an op or started a thread (a fork
    copies only the calling thread: TF's runtime threads would be missing in every child)."""
    import numpy  # noqa: F401  (NumPy's BLAS starts its own pool: counted before TF)
    before = _tasks()
    import keras  # noqa: F401
    import tensorflow as tf  # noqa: F401
    from tensorflow.python.eager import context
    problems = []
    if context.context()._context_handle is not None:
        problems.append("the eager context is initialised (an op ran at import)")
    if _tasks() != before or threading.active_count() != 1:
        problems.append(f"the import started threads ({before} OS threads before it, {_tasks()} after, "
                        f"{threading.active_count()} Python threads)")
    if problems:
        raise SystemExit(f"tf_zygote: TensorFlow is not fork-safe after its import: {'; '.join(problems)}")


_STARTED_PATH = list(sys.path)
_STARTED_PYTHONPATH = {os.path.abspath(e) for e in os.environ.get("PYTHONPATH", "").split(os.pathsep) if e}


def _fresh_path(first: str, pythonpath: str) -> list[str]:
    """sys.path as `python script` (first: the script's directory) or `python -m module` (first:
    the working directory) would start with: `first` and PYTHONPATH's entries made absolute, then the entries the interpreter added
    itself (this zygote's, after its own directory; .pth entries stay as site left them), without
    repeats (site.removeduppaths)."""
    out: list[str] = []
    head = [os.path.abspath(p) for p in [first, *[e for e in pythonpath.split(os.pathsep) if e]]]
    tail = [p for p in _STARTED_PATH[1:] if p not in _STARTED_PYTHONPATH]   # the interpreter's own entries
    for p in head + tail:
        if p not in out:
            out.append(p)
    return out


def _child(req: dict[str, Any], reply_fd: int) -> None:
    """In the forked child: become `python *argv` and exit with its status."""
    code = 1
    try:
        os.close(reply_fd)
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        for fd, path in ((1, req["out"]), (2, req["err"])):
            f = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            os.dup2(f, fd)
            os.close(f)
        os.chdir(req["cwd"])
        os.environ.clear()
        os.environ.update(req["env"])
        argv = list(req["argv"])
        module = argv[1] if argv[0] == "-m" else None
        first = os.getcwd() if module else os.path.dirname(os.path.abspath(argv[0]))
        sys.path[:] = _fresh_path(first, req["env"].get("PYTHONPATH", ""))
        sys.argv = argv[1:] if module else argv
        import random
        random.seed()                 # a fresh interpreter's unseeded generators start from OS entropy,
        import numpy                  # not from the zygote's state shared by every child
        numpy.random.seed()
        import runpy
        if module:
            runpy.run_module(module, run_name="__main__", alter_sys=True)
        else:
            runpy.run_path(argv[0], run_name="__main__")
        code = 0
    except SystemExit as e:   # as the interpreter maps it: None 0, an int itself, anything else printed and 1
        if e.code is None or isinstance(e.code, int):
            code = e.code or 0
        else:
            print(e.code, file=sys.stderr)
            code = 1
    except BaseException as e:  # noqa: BLE001  (a fresh interpreter prints the traceback and exits 1)
        tb = e.__traceback__
        while tb is not None and tb.tb_frame.f_code.co_filename in (__file__, "<frozen runpy>"):
            tb = tb.tb_next   # the traceback from the module's own frames on, as a fresh interpreter shows it
        traceback.print_exception(type(e), e, tb)
        code = 1
    finally:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except Exception:  # noqa: BLE001
                pass
        os._exit(code)


def serve() -> None:
    """The zygote's loop (see the module docstring)."""
    _import_tf()
    reply_fd = os.dup(1)
    os.dup2(2, 1)   # anything the zygote itself prints goes to stderr, never into a reply
    reply = os.fdopen(reply_fd, "wb", buffering=0)
    reply.write(b'{"ready": true}\n')
    for line in sys.stdin.buffer:
        req = json.loads(line)
        if req["op"] == "wait":
            _, status, usage = os.wait4(req["pid"], 0)
            reply.write(json.dumps({"code": os.waitstatus_to_exitcode(status),
                                    "cpu": usage.ru_utime + usage.ru_stime}).encode() + b"\n")
            continue
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            _child(req, reply_fd)
        reply.write(json.dumps({"pid": pid}).encode() + b"\n")


FORK_OK = hasattr(os, "fork") and hasattr(os, "wait4") and sys.platform == "linux"


def _import_env(env: dict[str, str]) -> dict[str, str]:
    return {k: v for k, v in env.items() if k != "PYTEST_CURRENT_TEST"}


class Zygote:
    """The client side: a zygote started with `env` (its TF import sees that environment)."""

    def __init__(self, env: dict[str, str], cwd: str | None = None):
        self.env = dict(env)
        self._err = tempfile.TemporaryFile()
        self._buf = b""
        # by path, not -m: importing the simdist package would set NumPy's BLAS threads in every child
        self.proc = subprocess.Popen([sys.executable, os.path.abspath(__file__)],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._err,
                                     env=self.env, cwd=cwd)
        self._reply(300, "start")

    def serves(self, env: dict[str, str]) -> bool:
        """Whether `env` is the environment the zygote imported TF with, but for the variable pytest
        sets per test (PYTEST_CURRENT_TEST; the child gets the request's own value)."""
        return _import_env(env) == _import_env(self.env)

    def _send(self, req: dict[str, Any]) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(req).encode() + b"\n")
        self.proc.stdin.flush()

    def _reply(self, timeout: float, what: str) -> dict[str, Any]:
        """The zygote's next reply line; TimeoutError after `timeout` s, RuntimeError if it died."""
        assert self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        deadline = time.monotonic() + timeout
        while b"\n" not in self._buf:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(what)
            ready, _, _ = select.select([fd], [], [], left)
            if ready:
                chunk = os.read(fd, 65536)
                if not chunk:
                    self._err.seek(0)
                    raise RuntimeError(f"the TF zygote (simdist.conformance.backends.tf_zygote) exited with "
                                       f"{self.proc.wait()} during {what}:\n"
                                       f"{self._err.read().decode(errors='replace')[-3000:]}")
                self._buf += chunk
        line, self._buf = self._buf.split(b"\n", 1)
        return json.loads(line)

    def spawn(self, argv: list[str], cwd: str, env: dict[str, str], out: str, err: str) -> int:
        """Fork a child that becomes `python *argv` (stdout to `out`, stderr to `err`); its pid."""
        self._send({"op": "spawn", "argv": argv, "cwd": cwd, "env": env, "out": out, "err": err})
        return int(self._reply(60, "fork")["pid"])

    def wait(self, pid: int, timeout: float) -> tuple[int, float]:
        """(exit code, CPU seconds) of child `pid`; past `timeout` s it is killed and
        subprocess.TimeoutExpired raised."""
        self._send({"op": "wait", "pid": pid})
        try:
            done = self._reply(timeout, f"child {pid}")
        except TimeoutError:
            os.kill(pid, signal.SIGKILL)
            self._reply(60, "kill")
            raise subprocess.TimeoutExpired(f"zygote child {pid}", timeout) from None
        return int(done["code"]), float(done["cpu"])

    def run(self, argv: list[str], cwd: str, env: dict[str, str], timeout: float) -> tuple[int, bytes, bytes, float]:
        """(exit code, stdout, stderr, CPU seconds) of `python *argv` as a child."""
        with tempfile.TemporaryDirectory(prefix="tfz-") as d:
            out, err = os.path.join(d, "out"), os.path.join(d, "err")
            pid = self.spawn(argv, cwd, env, out, err)
            code, cpu = self.wait(pid, timeout)
            return code, Path(out).read_bytes(), Path(err).read_bytes(), cpu

    def close(self) -> None:
        if self.proc.poll() is None:
            assert self.proc.stdin is not None
            self.proc.stdin.close()
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


if __name__ == "__main__":
    serve()
