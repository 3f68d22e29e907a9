"""`keras.callbacks.CSVLogger` (Keras 3.15): one CSV row per epoch of the epoch's logs.

The file is Keras's byte for byte: Python's csv module with the excel dialect (CRLF line ends,
minimal quoting) and `separator` as delimiter; the header is "epoch" and the first epoch's log
keys sorted, followed by "val_<key>" for each when that epoch had no validation keys; missing
values are written "NA", lists as "[a, b]". With `append=True` rows go at the end of an existing
file and the header only if it is empty. Rows are flushed as written (not atomic, as Keras)."""

from __future__ import annotations

import collections
import csv
import os
from typing import Any

import numpy as np

from simdist.keras.callbacks.callback import Callback


def _handle_value(k: Any) -> Any:
    if isinstance(k, str):
        return k
    if isinstance(k, collections.abc.Iterable) and not (isinstance(k, np.ndarray) and k.ndim == 0):
        return f'"[{", ".join(map(str, k))}]"'
    return k


class CSVLogger(Callback):
    """Streams epoch results to a CSV file."""

    def __init__(self, filename: Any, separator: str = ",", append: bool = False) -> None:
        super().__init__()
        self.sep = separator
        self.filename = os.fspath(filename)
        self.append = append
        self.writer: Any = None
        self.keys: list[str] | None = None
        self.append_header = True
        self.csv_file: Any = None

    def on_train_begin(self, logs: Any = None) -> None:
        if self.append:
            if os.path.exists(self.filename):
                with open(self.filename) as f:
                    self.append_header = not bool(len(f.readline()))
            mode = "a"
        else:
            mode = "w"
        if self.csv_file and not self.csv_file.closed:
            self.csv_file.close()
        self.csv_file = open(self.filename, mode)  # noqa: SIM115 - open across epochs, closed at train end
        self.writer = None
        self.keys = None

    def on_epoch_end(self, epoch: int, logs: Any = None) -> None:
        logs = logs or {}
        if self.keys is None:
            self.keys = sorted(logs.keys())
            if not any(k.startswith("val_") for k in self.keys) and self.keys:
                self.keys.extend([f"val_{k}" for k in self.keys])
        if not self.writer:
            sep = self.sep

            class CustomDialect(csv.excel):
                delimiter = sep

            self.writer = csv.DictWriter(self.csv_file, fieldnames=["epoch"] + (self.keys or []),
                                         dialect=CustomDialect)
            if self.append_header:
                self.writer.writeheader()
        row: dict[str, Any] = collections.OrderedDict({"epoch": epoch})
        row.update((key, _handle_value(logs.get(key, "NA"))) for key in self.keys)
        self.writer.writerow(row)
        self.csv_file.flush()

    def on_train_end(self, logs: Any = None) -> None:
        if self.csv_file and not self.csv_file.closed:
            self.csv_file.close()
        self.writer = None
