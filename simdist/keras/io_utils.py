"""Keras's interactive logging switch (keras/src/utils/io_utils.py): where Keras's messages go.

Enabled (the default), `print_msg` writes to stdout and flushes; disabled
(`keras.config.disable_interactive_logging()`, for jobs on a server), every message goes to the
`absl` logger at INFO instead, as Keras sends it to `absl.logging.info` — silent unless the program
raised that logger's verbosity. The progress bar, the callbacks' messages, the
*_dataset_from_directory counts and `Model.summary()` (when it has no `print_fn`) all print through it.
Clause keras.config.globals.
"""

from __future__ import annotations

import logging
import sys

__all__ = ["disable_interactive_logging", "enable_interactive_logging", "is_interactive_logging_enabled",
           "print_msg"]

_INTERACTIVE = True


def enable_interactive_logging() -> None:
    """Send Keras's messages to stdout (the default)."""
    global _INTERACTIVE
    _INTERACTIVE = True


def disable_interactive_logging() -> None:
    """Send Keras's messages to the `absl` logger at INFO instead of stdout."""
    global _INTERACTIVE
    _INTERACTIVE = False


def is_interactive_logging_enabled() -> bool:
    """Whether Keras's messages go to stdout."""
    return _INTERACTIVE


def print_msg(message: object, line_break: bool = True) -> None:
    """Keras's io_utils.print_msg: to stdout when interactive logging is on, else to absl's logger."""
    message = str(message)
    if _INTERACTIVE:
        sys.stdout.write(f"{message}\n" if line_break else message)
        sys.stdout.flush()
    else:
        # (absl.logging.info(message) logs through the logger named "absl"; simdist does not depend on
        # absl-py, and the same logger object is used when absl is imported)
        logging.getLogger("absl").info(message)
