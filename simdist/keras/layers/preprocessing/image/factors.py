"""The `height_factor` / `width_factor` rule of RandomZoom and RandomTranslation (Keras 3.15): a
number f gives (-|f|, |f|), a pair is sorted; each number must lie in the layer's range, else
ValueError with the layer's message."""

from __future__ import annotations

from typing import Any, Callable

__all__ = ["lower_upper", "named_factor"]


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


def named_factor(factor: Any, name: str, bounds: tuple[float, float]) -> tuple[float, float]:
    """Keras's `_set_factor_by_name` (RandomErasing's `scale`, RandomGaussianBlur's `sigma`): the
    base factor rule within `bounds`, with the argument's name in the message."""
    lo, hi = bounds
    error_msg = (f"The `{name}` argument should be a number (or a list of two numbers) in the range "
                 f"[{lo}, {hi}]. Received: factor={factor}")
    if isinstance(factor, (tuple, list)):
        if len(factor) != 2 or factor[0] > hi or factor[1] < lo:
            raise ValueError(error_msg)
        lower, upper = sorted(factor)
        return lower, upper
    if isinstance(factor, (int, float)):
        if factor < lo or factor > hi:
            raise ValueError(error_msg)
        factor = abs(factor)
        return max(-factor, lo), factor
    raise ValueError(error_msg)
