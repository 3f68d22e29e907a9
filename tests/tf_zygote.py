"""A TensorFlow zygote: imports TensorFlow and Keras once, then forks a child per worker request.

`python tf_zygote.py` (started by tests/tf_workers.py, one per pytest process) imports TF 2.21 and
Keras, checks that the import left TF fork-safe (no TF op has run: the eager context is not
initialised; no thread started by the import), and then serves requests read from stdin, one JSON
line each: {"argv": [module_file, "0,5"], "cwd": ..., "env": {...}, "out": file, "err": file}. For each it forks; the child becomes what `python module_file 0,5` would be (argv,
working directory, environment, sys.path with the module's directory first, stdout/stderr to
the two files, stdin /dev/null), runs the module as `__main__` and exits with its status. The
zygote replies on stdout, one JSON line each: {"pid": child} at once, then {"code": exit code as
subprocess reports it (-N for signal N), "cpu": the child's user+system CPU seconds}. EOF on stdin
ends the zygote.

What a fresh process does and a child does not: import TF with the child's environment (the
zygote's is the one it was started with; tf_workers only sends requests whose environment
matches it), draw its own str hash seed (children share the zygote's; Python's `random` and
NumPy's global generator are re-seeded from OS entropy in each child, as a fresh interpreter
seeds them) and run atexit handlers (the child leaves with os._exit after flushing its output).
"""

from __future__ import annotations

import json
import os
import sys
import threading
import traceback
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


def _fresh_path(script: str, pythonpath: str) -> list[str]:
    """sys.path as `python script` would start with (in its working directory): the script's
    directory and PYTHONPATH's entries made absolute, then the entries the interpreter added
    itself (this zygote's, after its own directory; .pth entries stay as site left them), without
    repeats (site.removeduppaths)."""
    out: list[str] = []
    head = [os.path.abspath(p) for p in [os.path.dirname(os.path.abspath(script)),
                                          *[e for e in pythonpath.split(os.pathsep) if e]]]
    tail = [p for p in _STARTED_PATH[1:] if p not in _STARTED_PYTHONPATH]   # the interpreter's own entries
    for p in head + tail:
        if p not in out:
            out.append(p)
    return out


def _child(req: dict[str, Any], reply_fd: int) -> None:
    """In the forked child: become `python argv[0] argv[1:]` and exit with its status."""
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
        sys.path[:] = _fresh_path(req["argv"][0], req["env"].get("PYTHONPATH", ""))
        sys.argv = list(req["argv"])
        import random
        random.seed()                 # a fresh interpreter's unseeded generators start from OS entropy,
        import numpy                  # not from the zygote's state shared by every child
        numpy.random.seed()
        import runpy
        runpy.run_path(req["argv"][0], run_name="__main__")
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
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            _child(req, reply_fd)
        reply.write(json.dumps({"pid": pid}).encode() + b"\n")
        _, status, usage = os.wait4(pid, 0)
        reply.write(json.dumps({"code": os.waitstatus_to_exitcode(status),
                                "cpu": usage.ru_utime + usage.ru_stime}).encode() + b"\n")


if __name__ == "__main__":
    serve()
