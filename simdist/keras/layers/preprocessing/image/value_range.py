"""The `value_range` argument of Keras's colour layers (RandomBrightness, Solarization,
AutoContrast): a list or tuple of two numbers, kept sorted; else ValueError."""

from __future__ import annotations

from typing import Any

__all__ = ["sorted_value_range"]

_ERROR = "The `value_range` argument should be a list of two numbers. "


def sorted_value_range(value_range: Any) -> list:
    if not isinstance(value_range, (tuple, list)) or len(value_range) != 2:
        raise ValueError(_ERROR + f"Received: value_range={value_range}")
    return sorted(value_range)
