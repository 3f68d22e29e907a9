"""The `height_factor` / `width_factor` rule of RandomZoom and RandomTranslation (Keras 3.15): a
number f gives (-|f|, |f|), a pair is sorted; each number must lie in the layer's range, else
ValueError with the layer's message."""

from __future__ import annotations

from typing import Any, Callable

__all__ = ["lower_upper"]


def lower_upper(factor: Any, factor_name: str, error: str, in_range: Callable[[float], bool]) -> tuple[float, float]:
    """(lower, upper) of a factor argument; `error` is the layer's message prefix."""
    def check(x: float) -> None:
        if not in_range(x):
            raise ValueError(error + f"Received: input_number={x}")

    if isinstance(factor, (tuple, list)):
        if len(factor) != 2:
            raise ValueError(error + f"Received: {factor_name}={factor}")
        check(factor[0])
        check(factor[1])
        lower, upper = sorted(factor)
        return lower, upper
    if isinstance(factor, (int, float)):
        check(factor)
        factor = abs(factor)
        return -factor, factor
    raise ValueError(error + f"Received: {factor_name}={factor}")
