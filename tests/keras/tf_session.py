"""A long-lived real-TensorFlow worker for differential tests that draw their cases at test time
(hypothesis): the test module doubles as the worker script (`python module.py --serve`), reads
pickled requests from stdin and answers each with a pickled result, so TF is imported once per
module instead of once per example. For fixed case lists use tf_workers.spawn.
"""

from __future__ import annotations

import os
import pickle
import struct
import subprocess
import sys
import tempfile
from typing import Any, Callable, BinaryIO


def _send(stream: BinaryIO, obj: Any) -> None:
    data = pickle.dumps(obj)
    stream.write(struct.pack("<Q", len(data)))
    stream.write(data)
    stream.flush()


def _recv(stream: BinaryIO) -> Any:
    head = stream.read(8)
    if len(head) < 8:
        raise EOFError("the TF worker closed its pipe")
    (n,) = struct.unpack("<Q", head)
    return pickle.loads(stream.read(n))


class TFSession:
    """`session.call(request)`: the worker's answer to one request."""

    def __init__(self, module_file: str) -> None:
        import importlib.util

        import pytest
        if importlib.util.find_spec("tensorflow") is None:
            # cases drawn at test time have no recorded answers (tests/goldens holds fixed lists only)
            pytest.skip("real TensorFlow is not installed: cases drawn at test time need live TF (pip install -e .[tf])")
        env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3", PYTHONPATH=os.pathsep.join(sys.path))
        # (stderr to a file: a pipe nobody reads could fill up with TF's warnings and block it)
        self._err = tempfile.TemporaryFile()
        self._proc = subprocess.Popen([sys.executable, module_file, "--serve"], stdin=subprocess.PIPE,
                                      stdout=subprocess.PIPE, stderr=self._err, env=env,
                                      cwd=os.path.dirname(module_file))

    def call(self, request: Any) -> Any:
        assert self._proc.stdin is not None and self._proc.stdout is not None
        try:
            _send(self._proc.stdin, request)
            return _recv(self._proc.stdout)
        except (EOFError, BrokenPipeError) as e:
            self._err.seek(0)
            err = self._err.read().decode(errors="replace")[-3000:]
            raise RuntimeError(f"TF worker failed: {e}\n{err}") from e

    def close(self) -> None:
        if self._proc.stdin:
            self._proc.stdin.close()
        try:
            self._proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self._proc.kill()
            self._proc.wait()
        self._err.close()


def serve(handler: Callable[[Any], Any]) -> None:
    """The worker side: answer requests until stdin closes."""
    inp, out = sys.stdin.buffer, sys.stdout.buffer
    while True:
        try:
            req = _recv(inp)
        except EOFError:
            return
        _send(out, handler(req))
