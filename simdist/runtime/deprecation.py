"""TF's notice for a deprecated function (tensorflow/python/util/deprecation.py `deprecated`, warn_once=True).

TF does not raise a Python warning: the first call of the function in the process logs WARNING on the "tensorflow"
logger, "From FILE:LINE: NAME (from MODULE) is deprecated and will be removed in a future version.\\nInstructions
for updating:\\nINSTRUCTIONS", FILE:LINE being the caller's line (`_call_location`); later calls log nothing.
simdist's deprecated functions call `log_deprecated` first thing, so the notice, its place and its once-only rule
are TF's (clauses function.run-eagerly for tf.config's aliases, dataset.experimental-extras for
tf.data.experimental's deprecated forms)."""

from __future__ import annotations

import logging

__all__ = ["log_deprecated"]

_printed: set[str] = set()   # (TF's _PRINTED_WARNING: one notice per function and process)


def log_deprecated(name: str, module: str, instructions: str, stacklevel: int = 1) -> None:
    """Log TF's deprecation notice of `module`.`name` once per process, naming the line that called the
    deprecated function: the caller of the function that calls this (`stacklevel` 1), or of the function
    `stacklevel - 1` frames further out (a helper between them)."""
    key = f"{module}.{name}"
    if key in _printed:
        return
    _printed.add(key)
    from simdist.runtime import facade_calls
    caller = facade_calls.frame(1 + stacklevel)
    logging.getLogger("tensorflow").warning(
        "From %s:%d: %s (from %s) is deprecated and will be removed in a future version.\nInstructions for "
        "updating:\n%s", caller.f_code.co_filename, caller.f_lineno, name, module, instructions)
