"""Numbers in kernel error messages as TF 2.21 writes them.

Kernels build their messages with absl::StrCat, whose float and double text is
absl::numbers_internal::SixDigitsToBuffer: "%g" with six significant digits, whatever the type
(1.4142135f is "1.41421", a double too), "inf", "-inf", "nan". (tf.print and Assert's tensor
summaries use tsl's round-trip FloatToBuffer instead: summarize_value.py.)
"""

from __future__ import annotations

from typing import Any

__all__ = ["six_digits"]


def six_digits(v: Any) -> str:
    """absl::StrCat of a float or double (a NumPy scalar or a Python float)."""
    return f"{float(v):g}"
