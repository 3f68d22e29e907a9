"""tf.summary.write, write_raw_pb, graph and summary_scope (TF 2.21 summary_ops_v2.py) on the
WriteSummary, WriteRawProtoSummary and WriteGraphSummary ops (core/kernels/summary_kernels.cc).

As TF: without a default writer `write` returns False and writes nothing (and evaluates nothing);
with one, the step is the `step` argument or `get_step()`, and None there is ValueError "No step
set. ..." raised only when the summary would be recorded; a given step must be a scalar ("Argument
`step` must be a scalar. ..."); the record is `smart_cond(should_record_summaries(), record, False)`
(record_if's condition decides at each call, a tf.cond in a tf.function when it is not a
constant), and `tensor` may be a callable called only when recording. The ops are stateful: inside
a tf.function they write at every call, in program order, and nothing in a trace TF never runs.
"""

from __future__ import annotations

import contextlib
import re
from typing import Any, Iterator

import numpy as np

from simdist.runtime import dtypes, errors, execution
from simdist.runtime.name_scopes import get_current_name_scope, name_scope
from simdist.runtime.ops import constant, dispatch, identity
from simdist.runtime.ops.registry import NotDifferentiable, lanes, register
from simdist.runtime.tensor import Tensor, convert_to_tensor
from simdist.tf.summary._state import should_record_summaries, smart_cond, state

_NO_STEP = ("No step set. Please specify one either through the `step` argument or through "
            "tf.summary.experimental.set_step()")
_INVALID_SCOPE_CHARACTERS = re.compile(r"[^-_/.A-Za-z0-9]")


def _bool_rule(dts: Any, attrs: Any) -> dtypes.DType:
    return dtypes.bool_


def _write_summary(step: np.ndarray, value: np.ndarray, *, writer: Any, tag: str, metadata: bytes,
                   T: dtypes.DType) -> np.ndarray:  # noqa: N803 - TF's attr name
    if not execution.effect_free(execution.current()):
        writer.write_event(writer.tensor_event(int(np.asarray(step).reshape(())), tag, np.asarray(value), T, metadata))
    return np.asarray(True)


def _write_raw(step: np.ndarray, value: np.ndarray, *, writer: Any) -> np.ndarray:
    if execution.effect_free(execution.current()):
        return np.asarray(True)
    event = writer.event(int(np.asarray(step).reshape(())))
    for i, raw in enumerate(np.asarray(value).reshape(-1).tolist()):
        try:
            event.summary.MergeFromString(raw if isinstance(raw, bytes) else str(raw).encode())
        except Exception:  # noqa: BLE001 - protobuf's DecodeError
            raise errors.DataLossError(None, None, f"Bad tf.compat.v1.Summary binary proto tensor string at index "
                                       f"{i} [Op:WriteRawProtoSummary]") from None
    writer.write_event(event)
    return np.asarray(True)


def _write_graph(step: np.ndarray, value: np.ndarray, *, writer: Any) -> np.ndarray:
    if not execution.effect_free(execution.current()):
        event = writer.event(int(np.asarray(step).reshape(())))
        raw = np.asarray(value).reshape(()).item()
        event.graph_def = raw if isinstance(raw, bytes) else str(raw).encode()
        writer.write_event(event)
    return np.asarray(True)


_KW = {"kind": "io", "stateful": True, "subnormals": "keep"}
WRITE_SUMMARY = register("WriteSummary", _write_summary, _bool_rule, lambda arrays, out, attrs: 0.0,
                         fusion=lanes("writes one event: nothing to stack"), **_KW)
WRITE_RAW_PROTO_SUMMARY = register("WriteRawProtoSummary", _write_raw, _bool_rule, lambda arrays, out, attrs: 0.0,
                                   fusion=lanes("writes one event: nothing to stack"), **_KW)
WRITE_GRAPH_SUMMARY = register("WriteGraphSummary", _write_graph, _bool_rule, lambda arrays, out, attrs: 0.0,
                               fusion=lanes("writes one event: nothing to stack"), **_KW)
for _name in ("WriteSummary", "WriteRawProtoSummary", "WriteGraphSummary"):
    NotDifferentiable(_name)


def _step_tensor(step: Any) -> Tensor:
    return convert_to_tensor(step, dtype=dtypes.int64)


def _choose_step(step: Any) -> Tensor:
    """summary_ops_v2._choose_step: the step as an int64 scalar tensor."""
    t = _step_tensor(step)
    if int(np.prod(t.shape.as_list() if hasattr(t.shape, "as_list") else t.shape)) != 1:
        raise ValueError(f"Argument `step` must be a scalar. Received step with shape {t.shape}.")
    return t


def _writer_file(op_name: str) -> Any:
    f = state.writer._file
    if f.closed:
        raise errors.NotFoundError(None, None, "Resource localhost/SummaryWriterInterface does not exist (the writer "
                                   f"was closed). [Op:{op_name}]")
    return f


def write(tag: Any, tensor: Any, step: Any = None, metadata: Any = None, name: Any = None) -> Tensor:
    """`tf.summary.write`: `tensor` (or what the callable `tensor` gives) as summary `tag` at `step`
    to the default writer when summaries are recorded; True when written, else False."""
    if step is not None:
        _choose_step(step)
    if state.writer is None:
        return constant(False)
    if step is None:
        step = state.step
    if metadata is None:
        serialized = b""
    elif hasattr(metadata, "SerializeToString"):
        serialized = metadata.SerializeToString()
    else:
        serialized = metadata

    def record() -> Tensor:
        if step is None:
            raise ValueError(_NO_STEP)
        summary_tensor = tensor() if callable(tensor) else identity(
            tensor if isinstance(tensor, Tensor) else convert_to_tensor(tensor))
        tag_text = tag.numpy().item() if isinstance(tag, Tensor) else tag
        tag_text = tag_text.decode() if isinstance(tag_text, bytes) else str(tag_text)
        return dispatch.execute(WRITE_SUMMARY, (_step_tensor(step), summary_tensor),
                                {"writer": _writer_file("WriteSummary"), "tag": tag_text,
                                 "metadata": bytes(serialized), "T": summary_tensor.dtype})

    return smart_cond(should_record_summaries(), record, lambda: constant(False))


def write_raw_pb(tensor: Any, step: Any = None, name: Any = None) -> Tensor:
    """`tf.summary.experimental.write_raw_pb`: serialized `Summary` protos (one or more) merged into one event."""
    if step is not None:
        _choose_step(step)
    if state.writer is None:
        return constant(False)
    if step is None:
        step = state.step
        if step is None:
            raise ValueError(_NO_STEP)

    def record() -> Tensor:
        t = identity(tensor if isinstance(tensor, Tensor) else convert_to_tensor(tensor))
        return dispatch.execute(WRITE_RAW_PROTO_SUMMARY, (_step_tensor(step), t),
                                {"writer": _writer_file("WriteRawProtoSummary")})

    return smart_cond(should_record_summaries(), record, lambda: constant(False))


def _is_graph_def(obj: Any) -> bool:
    """A tf.compat.v1.GraphDef (TensorFlow's own message class; simdist keeps no tf.Graph)."""
    cls = type(obj)
    return cls.__name__ == "GraphDef" and cls.__module__ == "tensorflow.core.framework.graph_pb2"


def graph(graph_data: Any) -> Tensor:
    """`tf.summary.graph`: a GraphDef written as the event's graph_def at step 0 (eagerly only)."""
    from simdist.runtime import context
    if context.in_function():
        raise ValueError("graph() cannot be invoked inside a graph context.")
    if state.writer is None:
        return constant(False)
    if not bool(np.asarray(should_record_summaries().numpy())):
        return constant(False)
    if not _is_graph_def(graph_data):
        raise ValueError("Argument 'graph_data' is not tf.Graph or tf.compat.v1.GraphDef. Received graph_data="
                         f"{graph_data} of type {type(graph_data).__name__}.")
    data = convert_to_tensor(graph_data.SerializeToString(), dtype=dtypes.string)
    dispatch.execute(WRITE_GRAPH_SUMMARY, (_step_tensor(0), data), {"writer": _writer_file("WriteGraphSummary")})
    return constant(True)


@contextlib.contextmanager
def summary_scope(name: Any, default_name: str = "summary", values: Any = None) -> Iterator[tuple[str, str]]:
    """`tf.summary.experimental.summary_scope`: (tag, scope): the tag is `name` below the current name
    scope, its characters kept; the scope a name scope of `name` with the invalid characters removed."""
    name = name or default_name
    current = get_current_name_scope()
    tag = current + "/" + name if current else name
    cleaned = _INVALID_SCOPE_CHARACTERS.sub("", name) or default_name
    with name_scope(cleaned) as scope:
        yield tag, scope
