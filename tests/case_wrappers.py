"""Wrappers of a differential module's case (a `case(tf)` callable, tests/case_results.py) that narrow what is
compared: kept apart from case_results.py, whose text stamps every golden."""

from __future__ import annotations

from typing import Any, Callable


def error_class(case: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """The case's result, or only the class of the error it raises: for errors whose text cannot match across the
    backends (it names TF's own classes, graph nodes, source lines or a process-wide uid), the caller says which."""
    def f(tf: Any) -> Any:
        try:
            return case(tf)
        except Exception as e:  # noqa: BLE001 - the class is the result
            return ("raised", type(e).__name__)
    return f
