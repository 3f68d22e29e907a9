"""The stricter rule of benchmarks/suite_options.py: does an option the suite sets change the output?

A suite call that binds parameter `p` to a non-default value is re-run with `p`'s default
substituted, in a forked copy of the process (the sandbox: the parent's variables, random
streams, iterators and Python generators are untouched), and the two outputs are compared:

- *value mode*: the call returns values (tensors, arrays, numbers, strings, nests of them, a
  finite tf.data.Dataset, read to its end). Two forks, one with the suite's arguments and one
  with the default, each reduce the output to NumPy values and send them back; the option is
  *effective* on that call when the two differ (shape, dtype or a value; NaN equals NaN; an
  exception's class counts as an output);
- *test mode*: the call returns an object whose behaviour is the output (a layer, an optimizer,
  a callback: `__init__` returns None) or None. The fork with the default continues the test to
  its end and reports its outcome; the option is effective when that outcome differs from the
  parent's (the suite's own run).

The fork is a sandbox for memory only, so a child may not write: `open` for writing, `os.open`
with a write flag, mkdir, rename, replace and remove raise `SandboxWrite` there (a BaseException, so
a test's `except Exception` does not swallow it), and a re-run that tries is reported as "writes
files", not compared. No re-run either (the pair is reported with the reason, never counted as
covered) when: the process has more than one thread (a fork would copy locks held by others), the
API is in `NO_RERUN` (it writes files or global state), the test's re-run budget (`PER_TEST`) is
spent, or the fork timed out. Re-runs stop for a pair once it is shown effective, and after
`TRIES` calls that were all output-neutral.
"""

from __future__ import annotations

import os
import pickle
import select
import signal
import sys
import threading
from typing import Any, Callable

import numpy as np

#: re-runs per (API, parameter) before it is called output-neutral (value mode, test mode)
TRIES = {"value": 3, "test": 2}
TIMEOUT = {"value": 20.0, "test": 60.0}
#: forks per test (value mode counts two per re-run): bounds the survey's time
PER_TEST = {"value": 16, "test": 3}
#: APIs whose call writes files or global state a fork cannot keep to itself
NO_RERUN = ("keras.Model.save", "keras.Model.save_weights", "tf.train.Checkpoint.save",
            "tf.train.Checkpoint.write", "tf.train.CheckpointManager.save", "tf.io.TFRecordWriter",
            "tf.data.Dataset.save", "tf.data.experimental.save", "keras.utils.clear_session",
            "tf.random.set_seed", "keras.utils.set_random_seed", "tf.data.Dataset.snapshot",
            "tf.data.experimental.snapshot", "tf.data.Dataset.cache", "tf.io.write_file")
_MAX_ELEMENTS = 2000


class NotPlain(Exception):
    """The output is an object: compare the rest of the test instead."""


class SandboxWrite(BaseException):
    """A re-run tried to write a file: the fork shares the parent's disk."""


def _guard_writes() -> None:
    """In a child: every file write raises SandboxWrite."""
    import builtins
    import io
    import shutil

    real_open, real_os_open = builtins.open, os.open

    def guarded_open(file: Any, mode: str = "r", *a: Any, **k: Any) -> Any:
        if any(c in mode for c in "wax+"):
            raise SandboxWrite(f"open({file!r}, {mode!r})")
        return real_open(file, mode, *a, **k)

    def guarded_os_open(path: Any, flags: int, *a: Any, **k: Any) -> Any:
        if flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_TRUNC):
            raise SandboxWrite(f"os.open({path!r})")
        return real_os_open(path, flags, *a, **k)

    def refuse(name: str) -> Callable[..., Any]:
        def f(*a: Any, **k: Any) -> Any:
            raise SandboxWrite(f"{name}{a!r}")
        return f
    builtins.open = io.open = guarded_open
    os.open = guarded_os_open
    for n in ("mkdir", "makedirs", "rename", "replace", "remove", "unlink", "rmdir", "removedirs", "symlink", "link"):
        setattr(os, n, refuse(f"os.{n}"))
    for n in ("rmtree", "copy", "copy2", "copyfile", "copytree", "move"):
        setattr(shutil, n, refuse(f"shutil.{n}"))
    h5py = sys.modules.get("h5py")       # writes in C, past the guards above
    if h5py is not None:
        real_file = h5py.File

        def guarded_h5(name: Any, mode: str = "r", *a: Any, **k: Any) -> Any:
            if mode != "r":
                raise SandboxWrite(f"h5py.File({name!r}, {mode!r})")
            return real_file(name, mode, *a, **k)
        h5py.File = guarded_h5


def plain(x: Any, depth: int = 0) -> Any:
    """The output reduced to NumPy values and Python containers, or NotPlain."""
    if depth > 20:
        raise NotPlain("too deep")
    if x is None or isinstance(x, (bool, int, float, complex, str, bytes, np.generic)):
        return x
    if isinstance(x, np.ndarray):
        return x
    if isinstance(x, (list, tuple)):
        return (type(x).__name__, [plain(v, depth + 1) for v in x])
    if isinstance(x, dict):
        return ("dict", [(repr(k), plain(v, depth + 1)) for k, v in x.items()])
    mod = type(x).__module__
    if hasattr(x, "to_list") and "ragged" in type(x).__name__.lower():
        return ("ragged", plain(x.to_list(), depth + 1))
    if type(x).__name__ == "SparseTensor":
        return ("sparse", plain(x.indices, depth + 1), plain(x.values, depth + 1), plain(x.dense_shape, depth + 1))
    if callable(getattr(x, "numpy", None)) and mod.startswith(("simdist", "tensorflow")):
        return np.asarray(x.numpy())
    if hasattr(x, "element_spec") and callable(getattr(x, "__iter__", None)):   # a tf.data.Dataset
        out = []
        for i, e in enumerate(x):
            if i >= _MAX_ELEMENTS:
                break
            out.append(plain(e, depth + 1))
        return ("dataset", out)
    raise NotPlain(type(x).__qualname__)


def same(a: Any, b: Any) -> bool:
    """Are two plain outputs equal (dtype, shape and values; NaN equals NaN)?"""
    arrays = (np.ndarray, np.generic)
    if isinstance(a, arrays) or isinstance(b, arrays):
        if not (isinstance(a, arrays) and isinstance(b, arrays)):
            return False                   # an array against a container or a Python value
        a_, b_ = np.asarray(a), np.asarray(b)
        if a_.dtype != b_.dtype or a_.shape != b_.shape:
            return False
        if a_.dtype.kind in "fc":
            return bool(np.array_equal(a_, b_, equal_nan=True))
        return bool(np.array_equal(a_, b_))
    if isinstance(a, tuple) and isinstance(b, tuple):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, float) and isinstance(b, float) and a != a and b != b:
        return True
    return type(a) is type(b) and a == b


class Sandbox:
    """Forks that re-run one call; the state of the pytest test being run (test mode)."""

    def __init__(self) -> None:
        self.in_child = False
        self.child_fd: int | None = None
        self.in_call = False          # inside a test's call phase (not setup or teardown)
        self.forks = {"value": 0, "test": 0}   # this test's forks so far
        self.pending: list[tuple[str, str, str | None]] = []   # test mode: (api, param, child's outcome)

    def why_not(self, api: str) -> str | None:
        """Why this call cannot be re-run, or None."""
        if self.in_child:
            return "child"
        if not self.in_call:
            return "outside a test's call phase"
        if threading.active_count() > 1:
            return "threads"
        if api.startswith(NO_RERUN):
            return "writes files or global state"
        return None

    def spend(self, mode: str) -> bool:
        """May this test fork once more in `mode`?"""
        if self.forks[mode] >= PER_TEST[mode]:
            return False
        self.forks[mode] += 2 if mode == "value" else 1
        return True

    def _fork(self, body: Callable[[int], None], timeout: float) -> Any:
        """Run body(write_fd) in a child; what it sent, or ('timeout',) / ('lost',)."""
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:                                   # the child
            os.close(r)
            self.in_child = True
            _guard_writes()
            try:
                body(w)
            except BaseException:                      # noqa: BLE001 - the child must never return into pytest
                os._exit(3)
            return None                                # test mode: body returned; the test goes on in the child
        os.close(w)
        chunks: list[bytes] = []
        ok = True
        remaining = timeout
        import time
        t0 = time.monotonic()                          # a timeout only, never a result
        while True:
            ready, _, _ = select.select([r], [], [], max(0.0, remaining))
            if not ready:
                ok = False
                break
            b = os.read(r, 1 << 20)
            if not b:
                break
            chunks.append(b)
            remaining = timeout - (time.monotonic() - t0)
        os.close(r)
        if not ok:
            os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        if not ok:
            return ("timeout",)
        try:
            return pickle.loads(b"".join(chunks))
        except Exception:                              # noqa: BLE001
            return ("lost",)

    @staticmethod
    def _send(fd: int, msg: Any) -> None:
        data = pickle.dumps(msg)
        view = memoryview(data)
        while view:
            n = os.write(fd, view)
            view = view[n:]
        os.close(fd)

    def value_run(self, call: Callable[[], Any]) -> Any:
        """('value', plain output) | ('raised', class name) | ('object',) | ('timeout',) | ('lost',)."""
        def body(w: int) -> None:
            try:
                out = call()
            except SandboxWrite:
                self._send(w, ("wrote",))
                os._exit(0)
            except BaseException as e:                 # noqa: BLE001 - the exception's class is the output
                self._send(w, ("raised", type(e).__name__))
                os._exit(0)
            try:
                msg = ("value", plain(out)) if out is not None else ("object",)
            except NotPlain:
                msg = ("object",)
            except SandboxWrite:
                msg = ("wrote",)
            except BaseException as e:                 # noqa: BLE001 - reading the output failed: an output too
                msg = ("value", ("unreadable", type(e).__name__))
            try:
                self._send(w, msg)
            except Exception:                          # noqa: BLE001 - unpicklable
                self._send(w, ("lost",))
            os._exit(0)
        return self._fork(body, TIMEOUT["value"])

    def test_run(self, call: Callable[[], Any]) -> tuple[bool, Any]:
        """Fork; in the child return (True, call()) so the test goes on there; in the parent
        (False, the child's test outcome)."""
        box: dict[str, Any] = {}

        def body(w: int) -> None:
            self.child_fd = w
            box["out"] = call()
        got = self._fork(body, TIMEOUT["test"])
        if self.in_child:
            return True, box.get("out")
        return False, got

    # -- test boundaries ---------------------------------------------------------------------------
    def begin_test(self, fixturenames: Any) -> None:
        if self.in_child:            # a child must never run another test
            os._exit(4)
        self.in_call = True
        self.forks = {"value": 0, "test": 0}
        self.pending = []

    def end_test(self, excinfo: Any) -> list[tuple[str, str, bool | str]]:
        """The child sends its outcome and exits; the parent resolves its test-mode re-runs:
        [(api, param, effective, or a reason when undecided)]."""
        outcome = "passed" if excinfo is None else excinfo[0].__name__
        if self.in_child:
            if self.child_fd is not None:
                self._send(self.child_fd, ("test", outcome))
            os._exit(0)
        self.in_call = False
        done = []
        for api, param, child in self.pending:
            if child is None:
                done.append((api, param, "the re-run timed out or was lost"))
            elif child == "SandboxWrite":
                done.append((api, param, "writes files"))
            else:
                done.append((api, param, child != outcome))
        self.pending = []
        return done
