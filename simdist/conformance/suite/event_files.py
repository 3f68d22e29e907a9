"""TensorBoard event files read the way TensorBoard reads them, without importing TensorFlow.

The suite's TensorBoard tests check what a backend's callback wrote. TensorBoard's EventAccumulator
reads records through `tensorboard.compat.tf`, which imports the real TensorFlow whenever it is
installed: about 10 s per process on a run of the suite against simdist (measured 2026-12-05, the
largest single cost of the bounded broken-backend meta test). This module reads the same records
with TensorBoard's own pure-Python record reader (the CRC-checked one it uses when TensorFlow is
absent) and applies the migrations EventFileLoader applies (legacy summaries to tensors).
"""

from __future__ import annotations

import os

import numpy as np


def _events(path: str):
    from tensorboard import data_compat, dataclass_compat
    from tensorboard.compat.proto import event_pb2
    from tensorboard.compat.tensorflow_stub import errors, pywrap_tensorflow

    reader = pywrap_tensorflow.PyRecordReader_New(path.encode(), 0, b"")
    metadata: dict = {}
    while True:
        try:
            reader.GetNext()
        except errors.OutOfRangeError:
            return
        event = data_compat.migrate_event(event_pb2.Event.FromString(reader.record()))
        yield from dataclass_compat.migrate_event(event, metadata)


def read_tensors(path: str | os.PathLike) -> dict[str, list[tuple[int, np.ndarray]]]:
    """tag -> [(step, value)] of every tensor summary in an event file, or in a run directory's
    event files taken in name order (EventAccumulator's order), each tag's events in file order."""
    from tensorboard.util import tensor_util

    path = os.fspath(path)
    if os.path.isdir(path):
        files = [os.path.join(path, f) for f in sorted(os.listdir(path)) if "tfevents" in f]
    else:
        files = [path]
    out: dict[str, list[tuple[int, np.ndarray]]] = {}
    for f in files:
        for event in _events(f):
            for value in event.summary.value:
                if value.HasField("tensor"):
                    out.setdefault(value.tag, []).append((event.step, tensor_util.make_ndarray(value.tensor)))
    return out
