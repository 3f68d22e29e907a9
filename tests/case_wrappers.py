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


def error_last_line(case: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """The case's result, or its error's class and the last line of its text: AutoGraph's "in user code:" frame names
    the test file's path and line, which differ between checkouts (the goldens must hold on any)."""
    def f(tf: Any) -> Any:
        try:
            return case(tf)
        except Exception as e:  # noqa: BLE001 - the class and the message's last line are the result
            return ("raised", type(e).__name__, str(e).strip().splitlines()[-1].strip())
    return f
