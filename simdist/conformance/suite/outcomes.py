"""A call's outcome as the blind-batch gap modules compare it across backends: the value, or the exception's class
name and message (the class is the observation; its text is checked only where a test names a fragment)."""

from __future__ import annotations

from typing import Any, Callable


def outcome(fn: Callable[[], Any]) -> tuple[str, Any]:
    """('ok', value) or (the exception's class name, its message)."""
    try:
        return "ok", fn()
    except Exception as e:  # noqa: BLE001 - the class is the observation
        return type(e).__name__, str(e)


def check(what: str, fn: Callable[[], Any], want_cls: str, want_text: str | None = None,
          want_value: Any = None) -> None:
    """fn() is accepted (with want_value, if given) when want_cls is "ok", else raises want_cls (with want_text in its
    message, if given); the failure says what was expected and what came back."""
    cls, got = outcome(fn)
    if want_cls == "ok":
        assert cls == "ok", f"{what}: expected it to be accepted, got {cls}: {got}"
        if want_value is not None:
            assert got == want_value, f"{what}: expected {want_value!r}, got {got!r}"
    else:
        assert cls == want_cls, f"{what}: expected {want_cls}, got {cls}: {got}"
        if want_text is not None:
            assert want_text in got, f"{what}: expected {want_cls} with {want_text!r}, got {got!r}"
