"""Keras's utils/python_utils.py, the part simdist's trainer and callbacks share."""

from __future__ import annotations

from typing import Any


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
