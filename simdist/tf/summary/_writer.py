"""tf.summary's writers (TF 2.21 summary_ops_v2.py): `create_file_writer`, `create_noop_writer`,
`SummaryWriter.as_default/set_as_default/flush/close` and `tf.summary.flush`.

As TF: `create_file_writer(logdir)` makes the log directory and its event file at once (its init op
runs eagerly, also when called inside a tf.function: init_scope), max_queue 10, flush_millis
120000 and filename_suffix ".v2" by default; `as_default(step)` makes the writer (and `step`, when
given) the default until the block ends, and flushes the writer on leaving; a closed writer's
`as_default`/`set_as_default` is RuntimeError, its `flush`/`close` do nothing, and a write to it
while it is still the default is NotFoundError; the noop writer's `as_default` changes nothing.
`flush()` inside a tf.function is an op that flushes at every call (FlushSummaryWriter).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import dtypes, execution
from simdist.runtime.ops import dispatch
from simdist.runtime.ops.registry import NotDifferentiable, lanes, register
from simdist.tf.summary._event_file import EventFile
from simdist.tf.summary._state import state


class _SummaryContextManager:
    """SummaryWriter.as_default(step): the default writer (and step) inside, the writer flushed at the end."""

    def __init__(self, writer: "SummaryWriter", step: Any = None) -> None:
        self._writer = writer
        self._step = step
        self._old_writer: Any = None
        self._old_step: Any = None

    def __enter__(self) -> "SummaryWriter":
        self._old_writer = state.writer
        state.writer = self._writer
        if self._step is not None:
            self._old_step = state.step
            state.step = self._step
        return self._writer

    def __exit__(self, *exc: Any) -> bool:
        state.writer.flush()
        state.writer = self._old_writer
        if self._step is not None:
            state.step = self._old_step
        return False


class SummaryWriter:
    """`tf.summary.SummaryWriter`: the interface of a stateful summary writer."""

    def set_as_default(self, step: Any = None) -> None:
        """Make this writer (and `step`, when given) the default from now on."""
        self.as_default(step).__enter__()

    def as_default(self, step: Any = None) -> Any:
        """A context manager making this writer (and `step`, when given) the default inside."""
        return _SummaryContextManager(self, step)

    def init(self) -> Any:
        raise NotImplementedError()

    def flush(self) -> Any:
        raise NotImplementedError()

    def close(self) -> Any:
        raise NotImplementedError()


def _flush_forward(*, writer: EventFile) -> np.ndarray:
    if not execution.effect_free(execution.current()):
        writer.flush()
    return np.asarray(True)


FLUSH_SUMMARY_WRITER = register("FlushSummaryWriter", _flush_forward, lambda dts, attrs: dtypes.bool_,
                                lambda arrays, out, attrs: 0.0, kind="io", stateful=True,
                                fusion=lanes("flushes a file writer: nothing to stack"), subnormals="keep")
NotDifferentiable("FlushSummaryWriter")


class _ResourceSummaryWriter(SummaryWriter):
    """The writer of `create_file_writer`: one event file (simdist/tf/summary/_event_file.py)."""

    def __init__(self, logdir: str, max_queue: int, flush_millis: int, filename_suffix: str) -> None:
        self._file = EventFile(logdir, max_queue, flush_millis, filename_suffix)
        self._closed = False

    def _check_open(self) -> None:
        if self._closed:
            raise RuntimeError(f"SummaryWriter {self!r} is already closed")

    def set_as_default(self, step: Any = None) -> None:
        self._check_open()
        super().set_as_default(step)

    def as_default(self, step: Any = None) -> Any:
        self._check_open()
        return super().as_default(step)

    def init(self) -> Any:
        self._check_open()
        return None

    def flush(self) -> Any:
        """Write the queued events to the file (an op at every call inside a tf.function)."""
        if self._closed:
            return None
        dispatch.execute(FLUSH_SUMMARY_WRITER, (), {"writer": self._file})
        return None

    def close(self) -> Any:
        """Flush and close the event file; the writer may not be made the default again."""
        if self._closed:
            return None
        try:
            self._file.close()
        finally:
            self._closed = True
        return None

    def __del__(self) -> None:   # (TF's resource deleter: the C++ writer flushes when destroyed)
        f = getattr(self, "_file", None)
        if f is not None and not f.closed:
            f.close()


class _NoopSummaryWriter(SummaryWriter):
    """The writer of `create_noop_writer` (and of TF 1's create_file_writer(None)): does nothing."""

    def set_as_default(self, step: Any = None) -> None:
        pass

    def as_default(self, step: Any = None) -> Any:
        import contextlib
        return contextlib.nullcontext()

    def init(self) -> None:
        pass

    def flush(self) -> None:
        pass

    def close(self) -> None:
        pass


def _scalar_arg(name: str, value: Any) -> Any:
    from simdist.runtime.tensor import Tensor
    if isinstance(value, Tensor):
        return value.numpy().item()
    return value


def create_file_writer(logdir: Any, max_queue: Any = None, flush_millis: Any = None, filename_suffix: Any = None,
                       name: Any = None, experimental_trackable: bool = False,
                       experimental_mesh: Any = None) -> SummaryWriter:
    """`tf.summary.create_file_writer`: a writer of one new event file in `logdir`."""
    if logdir is None:
        raise ValueError("Argument `logdir` cannot be None")
    if experimental_mesh is not None:
        raise NotImplementedError("tf.summary.create_file_writer(experimental_mesh=...): simdist has no DTensor")
    logdir = _scalar_arg("logdir", logdir)
    logdir = logdir.decode() if isinstance(logdir, bytes) else str(logdir)
    suffix = _scalar_arg("filename_suffix", filename_suffix)
    suffix = ".v2" if suffix is None else suffix.decode() if isinstance(suffix, bytes) else str(suffix)
    return _ResourceSummaryWriter(logdir, 10 if max_queue is None else int(_scalar_arg("max_queue", max_queue)),
                                  120000 if flush_millis is None else int(_scalar_arg("flush_millis", flush_millis)),
                                  suffix)


def create_noop_writer() -> SummaryWriter:
    """`tf.summary.create_noop_writer`: a writer that does nothing (a placeholder context manager)."""
    return _NoopSummaryWriter()


def flush(writer: Any = None, name: Any = None) -> Any:
    """`tf.summary.flush`: flush `writer` (default: the default writer; none: nothing)."""
    if writer is None:
        writer = state.writer
        if writer is None:
            return None
    if isinstance(writer, SummaryWriter):
        return writer.flush()
    raise ValueError("Invalid argument to flush(): %r" % (writer,))
