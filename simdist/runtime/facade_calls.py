"""The facade's converting wrapper around an op function (clause function.trace-time-errors; simdist/tf/
_build_errors.py installs it), and the caller frames simdist's frame-reading code asks for with its frames skipped.

While a tf.function's Python runs, the wrapper raises an op error marked with the class TF raises while it builds
the graph (runtime/ops/trace_errors.py `in_body`) at the call, as TF's op construction does. Code that reads its
caller's frame to tell the user's calls from simdist's own (tf.constant's Const node, the symbolic tensors' checks,
deprecation notices) asks `frame(depth)`, which does not count the wrapper's frames."""

from __future__ import annotations

import contextlib
import functools
import sys
from types import FrameType
from typing import Any, Callable, Iterator

from simdist.runtime import context as _context

__all__ = ["converting", "frame", "graph_built", "wrapper_frames_skipped", "WRAPPED"]

WRAPPED = "_simdist_build_errors"
# How many runs of a tf.function's Python are in progress whose graph TF has built already (a concrete function's
# call, a later call of a traced kind that simdist runs as Python again): their errors are the graph's run-time ones
_BUILT = [0]


@contextlib.contextmanager
def graph_built() -> Iterator[None]:
    """A run of a tf.function's Python whose graph TF built already: no error is raised at the call as a build
    error."""
    _BUILT[0] += 1
    try:
        yield
    finally:
        _BUILT[0] -= 1


def converting(fn: Callable[..., Any]) -> Callable[..., Any]:
    """fn, raising a marked graph-build error's class at the call inside a tracing tf.function."""
    @functools.wraps(fn)
    def call(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except Exception as e:
            if _context._function_depth <= 0 or _BUILT[0]:
                raise
            from simdist.runtime.ops import trace_errors
            built = trace_errors.in_body(e)
            if built is None:
                raise
            raise built.with_traceback(e.__traceback__) from None
    setattr(call, WRAPPED, True)
    return call


# the code of the facade's wrappers, whose frames frame() does not count (membership only, never iterated)
_WRAPPER_CODE = {converting(lambda: None).__code__}


def wrapper_frames_skipped(wrapper: Callable[..., Any]) -> Callable[..., Any]:
    """Register another facade wrapper (tf/_given_names.py's) whose frames frame() does not count."""
    _WRAPPER_CODE.add(wrapper.__code__)
    return wrapper


def frame(depth: int) -> FrameType:
    """The frame `depth` levels above the caller of this function (1: the caller's caller), the facade wrappers'
    frames not counted."""
    f = sys._getframe(1)
    for _ in range(depth):
        f = f.f_back   # type: ignore[assignment]
        while f is not None and f.f_code in _WRAPPER_CODE:
            f = f.f_back   # type: ignore[assignment]
    return f
