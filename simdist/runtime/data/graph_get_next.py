"""The end of a tf.data iterator inside a tf.function (clause dataset.api-surface; fix61a).

TF 2.21 builds an IteratorGetNext node for `next(iterator)` inside a tf.function: the Python never sees the end,
whose run raises OutOfRangeError "End of sequence". So `next(it, default)` there does not take its default (Python's
next catches only StopIteration): the call raises OutOfRangeError, AutoGraph on or off (py_builtins.next_ is
Python's next for an iterator no override claims). A Python `for` over a dataset or an iterator never ends in a graph:
AutoGraph converts the loop (for_stmt over get_next_as_optional); with AutoGraph disabled, OwnedIterator's
`_next_internal` counts its graph-mode calls and raises ValueError GET_NEXT_CALL_ERROR_MESSAGE past
GET_NEXT_CALL_ERROR_THRESHOLD (32), at trace time. simdist runs the Python eagerly and does reach the end: an explicit
next() there raises a plain OutOfRangeError; the `for` statement of the user's code in a function with AutoGraph off
(the frame that asks is at its FOR_ITER instruction) raises TF's ValueError, as TF's loop would past its 32nd call,
and so does its 33rd element; any other `for` (simdist's own: AutoGraph's for_stmt, library loops) ends, as the
converted loop does (errors.end_of_sequence: also a StopIteration).
"""

from __future__ import annotations

import dis
import sys
from typing import Any

from simdist.runtime import errors

GET_NEXT_CALL_ERROR_THRESHOLD = 32
GET_NEXT_CALL_ERROR_MESSAGE = (
    "An unusually high number of `tf.data.Iterator.get_next()` calls was detected. This suggests that the "
    "`for elem in dataset: ...` idiom is used within tf.function with AutoGraph disabled. This idiom is only "
    "supported when AutoGraph is enabled.")
_FOR_ITER = dis.opmap["FOR_ITER"]
_SUITE = "simdist.conformance.suite"


def _loop_frame(depth: int) -> Any:
    """The frame `depth` levels above the caller when it is at a FOR_ITER (a `for` statement asking), else None."""
    f = sys._getframe(depth + 1)
    code = f.f_code.co_code
    return f if 0 <= f.f_lasti < len(code) and code[f.f_lasti] == _FOR_ITER else None


def _user_unconverted_loop(frame: Any) -> bool:
    from simdist.runtime import symbolic
    name = frame.f_globals.get("__name__", "")
    if (name == "simdist" or name.startswith("simdist.")) and not name.startswith(_SUITE):
        return False
    return bool(symbolic.STRICT[0])


def counted(it: Any, depth: int) -> None:
    """A get_next of `it` inside a tf.function, asked by the frame `depth` levels above the caller: the user's `for`
    with AutoGraph off counts toward TF's threshold (ValueError past it)."""
    frame = _loop_frame(depth + 1)
    if frame is None or not _user_unconverted_loop(frame):
        return
    n = it.__dict__.get("_graph_get_next_calls", 0) + 1
    it.__dict__["_graph_get_next_calls"] = n
    if n > GET_NEXT_CALL_ERROR_THRESHOLD:
        raise ValueError(GET_NEXT_CALL_ERROR_MESSAGE)


def end(depth: int) -> BaseException:
    """The exception for the end of an iterator inside a tf.function, asked by the frame `depth` levels above the
    caller (see the module's docstring)."""
    frame = _loop_frame(depth + 1)
    if frame is None:
        return errors.OutOfRangeError(None, None, "End of sequence")
    if _user_unconverted_loop(frame):
        return ValueError(GET_NEXT_CALL_ERROR_MESSAGE)
    return errors.end_of_sequence()
