"""Keras's safe mode (keras/src/saving/serialization_lib.py): whether loading may run a saved Python
lambda's bytecode. The ambient value is None until a SafeModeScope or the global switch
`keras.config.enable_unsafe_deserialization()` sets it; an ambient value wins over a loading call's
`safe_mode` argument, and a Lambda layer's from_config treats None as safe. Clause
keras.layer.lambda-serialization."""

from __future__ import annotations

from typing import Any

__all__ = ["SafeModeScope", "enable_unsafe_deserialization", "in_safe_mode"]

_SAFE_MODE: bool | None = None   # Keras's global attribute "safe_mode_saving": None until a scope or the switch sets it


def in_safe_mode() -> bool | None:
    """The ambient safe mode: None (no scope, no switch), True or False."""
    return _SAFE_MODE


def enable_unsafe_deserialization() -> None:
    """Disable safe mode globally: Python lambdas in saved configs are loaded (their bytecode runs)."""
    global _SAFE_MODE
    _SAFE_MODE = False


class SafeModeScope:
    """Within the block, the ambient safe mode is `safe_mode`; restored after (Keras's SafeModeScope)."""

    def __init__(self, safe_mode: bool | None = True) -> None:
        self.safe_mode = safe_mode

    def __enter__(self) -> "SafeModeScope":
        global _SAFE_MODE
        self.original_value = _SAFE_MODE
        _SAFE_MODE = self.safe_mode
        return self

    def __exit__(self, *exc: Any) -> None:
        global _SAFE_MODE
        _SAFE_MODE = self.original_value
