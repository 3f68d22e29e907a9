"""TensorBoard event files written deterministically, with the `tensorboard` package's protos,
record writer and summary builders (no hand-written protobuf or record framing).

Why not `tensorboard.summary.Writer`: its EventFileWriter names the file after the wall clock,
host and pid and stamps each event with `time.time()`. Here the file is named
`events.out.tfevents.<simulated seconds, 10 digits>.simdist.<n>.v2` (n: the first number free) and every event's
`wall_time` is the simulated time (`simdist.now()`), so two runs write the same bytes.
The `tensorboard` package is the optional extra `simdist[tensorboard]`.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np

from simdist import now as simulated_now

EXTRA_HINT = "pip install 'simdist[tensorboard]' (or pip install tensorboard)"


def tensorboard_modules() -> dict[str, Any]:
    """The tensorboard modules the writer uses; a clear ImportError naming the extra if missing."""
    try:
        from tensorboard.compat.proto import event_pb2, summary_pb2
        from tensorboard.plugins.histogram import summary_v2 as histogram_v2
        from tensorboard.plugins.scalar import summary_v2 as scalar_v2
        from tensorboard.summary.writer.record_writer import RecordWriter
        from tensorboard.util import tensor_util
    except ImportError as e:
        raise ImportError(f"keras.callbacks.TensorBoard needs the `tensorboard` package, which is not installed "
                          f"({e}): {EXTRA_HINT}") from None
    return {"event_pb2": event_pb2, "summary_pb2": summary_pb2, "histogram": histogram_v2, "scalar": scalar_v2,
            "RecordWriter": RecordWriter, "tensor_util": tensor_util}


class EventFileWriter:
    """One event file in `logdir`, created on construction (as TF's `create_file_writer` does on
    first use) with the `brain.Event:2` version record; events are flushed as written."""

    def __init__(self, logdir: str) -> None:
        self._tb = tensorboard_modules()
        os.makedirs(logdir, exist_ok=True)
        stamp = int(simulated_now())
        n = 0   # (the first free number: the same names every run, whatever ran before in the process)
        while os.path.exists(path := os.path.join(logdir, f"events.out.tfevents.{stamp:010d}.simdist.{n}.v2")):
            n += 1
        self.path = path
        self._file: Any = open(path, "wb")  # noqa: SIM115 - kept open across epochs, closed by close()
        self._records = self._tb["RecordWriter"](self._file)
        self._write(self._tb["event_pb2"].Event(wall_time=simulated_now(), file_version="brain.Event:2"))

    def _write(self, event: Any) -> None:
        self._records.write(event.SerializeToString())
        self._file.flush()

    def _summary(self, summary: Any, step: int) -> None:
        self._write(self._tb["event_pb2"].Event(wall_time=simulated_now(), step=int(step), summary=summary))

    def scalar(self, tag: str, value: Any, step: int) -> None:
        """A float32 scalar (plugin "scalars"), as tf.summary.scalar writes it."""
        self._summary(self._tb["scalar"].scalar_pb(tag, np.asarray(value, np.float32)), step)

    def histogram(self, tag: str, values: Any, step: int) -> None:
        """A (30, 3) [left, right, count] float64 histogram (plugin "histograms"), tf.summary.histogram's buckets."""
        self._summary(self._tb["histogram"].histogram_pb(tag, np.asarray(values)), step)

    def text_tensor(self, tag: str, text: str, step: int, plugin_name: str, content: bytes) -> None:
        """A string tensor under `plugin_name` (Keras's "graph_keras_model" model summary)."""
        pb2 = self._tb["summary_pb2"]
        metadata = pb2.SummaryMetadata(plugin_data=pb2.SummaryMetadata.PluginData(plugin_name=plugin_name,
                                                                                    content=content))
        tensor = self._tb["tensor_util"].make_tensor_proto(np.array(text.encode(), dtype=object))
        summary = pb2.Summary()
        summary.value.add(tag=tag, metadata=metadata, tensor=tensor)
        self._summary(summary, step)

    def close(self) -> None:
        if not self._file.closed:
            self._records.close()
