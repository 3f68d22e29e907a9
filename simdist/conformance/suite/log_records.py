"""A logging handler that keeps what a logger emitted, for suite tests of TF's and Keras's log lines (TF's
"tensorflow" logger and absl's do not propagate to the root logger pytest's caplog watches)."""

from __future__ import annotations

import logging


class LogRecords(logging.Handler):
    """Keeps each record's message (`messages`), at `level` and above."""

    def __init__(self, level: int = logging.DEBUG) -> None:
        super().__init__(level)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())
