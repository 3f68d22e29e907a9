"""The event file of a `tf.summary.create_file_writer` writer (TF 2.21's SummaryFileWriter,
core/summary/summary_file_writer.cc, over EventsWriter), written with the `tensorboard` package's
protos and record writer (no hand-written protobuf or record framing).

As TF: the file is created with the writer, its first record the `brain.Event:2` version event
(flushed at once); each later event is queued and the queue written when it holds more than
`max_queue` events, when more than `flush_millis` passed since the last flush, at `flush()` and at
`close()`. A numeric tensor is written as `tensor_content` (Tensor::AsProtoTensorContent), a string
tensor as `string_val` (AsProtoField). Deliberate difference (determinism): TF names the file
`events.out.tfevents.<wall-clock seconds>.<host>.<pid>.<process counter><suffix>` and stamps each
event with the wall clock; simdist names it `events.out.tfevents.<simulated seconds, 10 digits>.simdist.<n><suffix>`
(n the first number free in the directory, as keras.callbacks.TensorBoard's files) and every
`wall_time`, and the `flush_millis` clock, is simulated time (`simdist.now()`).
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np

from simdist.runtime import dtypes, errors
from simdist.session import now as simulated_now

EXTRA_HINT = "pip install 'simdist[tensorboard]' (or pip install tensorboard)"


def protos() -> dict[str, Any]:
    """The tensorboard protos and record writer; ImportError naming the extra when missing (TF:
    tb_summary's TBNotInstalledError for the plugins' functions)."""
    try:
        from tensorboard.compat.proto import event_pb2, summary_pb2, tensor_pb2, tensor_shape_pb2
        from tensorboard.summary.writer.record_writer import RecordWriter
    except ImportError as e:
        raise ImportError(f"tf.summary needs the `tensorboard` package, which is not installed ({e}): "
                          f"{EXTRA_HINT}") from None
    return {"event_pb2": event_pb2, "summary_pb2": summary_pb2, "tensor_pb2": tensor_pb2,
            "tensor_shape_pb2": tensor_shape_pb2, "RecordWriter": RecordWriter}


def tensor_proto(value: np.ndarray, dtype: dtypes.DType) -> Any:
    """The TensorProto TF's WriteTensor makes of a tensor: dtype, shape, and the values as
    `tensor_content` (little-endian bytes) or, for strings, as `string_val`."""
    pb = protos()
    shape = pb["tensor_shape_pb2"].TensorShapeProto(
        dim=[pb["tensor_shape_pb2"].TensorShapeProto.Dim(size=int(n)) for n in value.shape])
    proto = pb["tensor_pb2"].TensorProto(dtype=dtype.as_datatype_enum, tensor_shape=shape)
    if dtype == dtypes.string:
        proto.string_val.extend(x if isinstance(x, bytes) else str(x).encode() for x in value.reshape(-1).tolist())
    else:
        proto.tensor_content = np.ascontiguousarray(value, dtype=np.dtype(dtype._np).newbyteorder("<")).tobytes()
    return proto


class EventFile:
    """One writer's event file in `logdir` and its queue of events."""

    def __init__(self, logdir: str, max_queue: int, flush_millis: int, filename_suffix: str) -> None:
        self._pb = protos()
        os.makedirs(logdir, exist_ok=True)
        stamp = int(simulated_now())
        suffix = filename_suffix if not filename_suffix or filename_suffix.startswith(".") else "." + filename_suffix
        n = 0   # (the first free number: the same names every run, whatever ran before in the process)
        while os.path.exists(path := os.path.join(logdir, f"events.out.tfevents.{stamp:010d}.simdist.{n}{suffix}")):
            n += 1
        self.path = path
        self._max_queue = int(max_queue)
        self._flush_seconds = int(flush_millis) / 1000.0
        self._queue: list[Any] = []
        self._file: Any = open(path, "wb")  # noqa: SIM115 - kept open until close()
        self._records = self._pb["RecordWriter"](self._file)
        first = self._pb["event_pb2"].Event(wall_time=float(stamp), file_version="brain.Event:2")
        first.source_metadata.writer = "tensorflow.core.util.events_writer"
        self._records.write(first.SerializeToString())
        self._file.flush()
        self._last_flush = simulated_now()

    @property
    def closed(self) -> bool:
        return self._file.closed

    def event(self, step: int) -> Any:
        """A new Event at `step`, stamped with the simulated time."""
        return self._pb["event_pb2"].Event(wall_time=float(simulated_now()), step=int(step))

    def write_event(self, event: Any) -> None:
        """Queue `event`; write the queue when it holds more than max_queue events or flush_millis passed."""
        if self._file.closed:
            raise errors.NotFoundError(None, None, "Resource localhost/SummaryWriterInterface does not exist "
                                       "(the writer was closed).")
        self._queue.append(event)
        if len(self._queue) > self._max_queue or simulated_now() - self._last_flush > self._flush_seconds:
            self.flush()

    def tensor_event(self, step: int, tag: str, value: np.ndarray, dtype: dtypes.DType, metadata: bytes) -> Any:
        """WriteTensor: one summary value `tag` holding the tensor, with the metadata parsed from its bytes."""
        e = self.event(step)
        v = e.summary.value.add(tag=tag)
        v.tensor.CopyFrom(tensor_proto(value, dtype))
        if metadata:
            v.metadata.ParseFromString(metadata)
        return e

    def flush(self) -> None:
        if self._file.closed:
            return
        for e in self._queue:
            self._records.write(e.SerializeToString())
        self._queue.clear()
        self._file.flush()
        self._last_flush = simulated_now()

    def close(self) -> None:
        if not self._file.closed:
            self.flush()
            self._records.close()
