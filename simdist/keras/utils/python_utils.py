"""Keras's utils/python_utils.py, the part simdist's trainer, callbacks and serialization share:
`pythonify_logs`, and `func_dump` / `func_load`, how Keras stores a Python lambda (its marshalled
bytecode in base64, its defaults and its closure's values). A loaded lambda's globals are this
module's, as a Keras-loaded lambda's are keras/src/utils/python_utils.py's (the same module-level
names: binascii, codecs, marshal, os, python_types), so a lambda that read a global of the program
that saved it fails on load in both (clause keras.layer.lambda-serialization)."""

from __future__ import annotations

import binascii
import codecs
import marshal
import os
import types as python_types
from typing import Any


def func_dump(func: Any) -> tuple[str, Any, Any]:
    """`(code, defaults, closure)` of a Python function, as Keras serializes a lambda."""
    raw_code = marshal.dumps(func.__code__)
    if os.name == "nt":
        raw_code = raw_code.replace(b"\\", b"/")
    code = codecs.encode(raw_code, "base64").decode("ascii")
    closure = tuple(c.cell_contents for c in func.__closure__) if func.__closure__ else None
    return code, func.__defaults__, closure


def func_load(code: Any, defaults: Any = None, closure: Any = None, globs: dict | None = None) -> Any:
    """The function `func_dump` described (Keras's func_load: defaults must be a tuple or None, so
    defaults that went through JSON, a list, are its TypeError)."""
    if isinstance(code, (tuple, list)):   # a packed dump
        code, defaults, closure = code
        if isinstance(defaults, list):
            defaults = tuple(defaults)

    def as_cell(value: Any) -> Any:
        def holder() -> Any:
            return value
        return holder.__closure__[0]   # type: ignore[index]

    if closure is not None:
        closure = tuple(as_cell(v) for v in closure)
    try:
        raw_code = codecs.decode(code.encode("ascii"), "base64")
    except (UnicodeEncodeError, binascii.Error):
        raw_code = code.encode("raw_unicode_escape")
    loaded = marshal.loads(raw_code)
    return python_types.FunctionType(loaded, globals() if globs is None else globs, name=loaded.co_name,
                                     argdefs=defaults, closure=closure)


def pythonify_logs(logs: Any) -> dict[str, Any]:
    """Logs flattened, sorted by key, values as Python floats where possible."""
    result: dict[str, Any] = {}
    for key, value in sorted((logs or {}).items()):
        if isinstance(value, dict):
            result.update(pythonify_logs(value))
            continue
        try:
            if hasattr(value, "numpy"):
                value = value.numpy()
            value = float(value)
        except (TypeError, ValueError):
            pass
        result[key] = value
    return result
