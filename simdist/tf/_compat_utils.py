"""tf.compat's Python helpers, transcribed from TF 2.21: tensorflow/python/util/compat.py (string and path
conversions, the type tuples), python/compat/compat.py (the forward-compatibility date) and
python/framework/tensor_shape.py (dimension_value, dimension_at_index). Observed beside TF 2.21 in
tests/runtime/test_compat_utils_tf.py (clause api.namespaces)."""

from __future__ import annotations

import codecs
import contextlib
import datetime
import logging
import numbers
import os
from typing import Any, Iterator

import numpy as np

from simdist.runtime.dimension import Dimension, dimension_value
from simdist.runtime.tensor import TensorShape

__all__ = ["as_bytes", "as_str", "as_str_any", "as_text", "bytes_or_text_types", "complex_types", "dimension_at_index",
           "dimension_value", "forward_compatibility_horizon", "forward_compatible", "integral_types", "path_to_str",
           "real_types"]


def as_bytes(bytes_or_text: Any, encoding: str = "utf-8") -> bytes:
    """bytes of a bytearray, bytes or str (encoded); anything else TypeError. The encoding is looked up
    first, so an unknown one is LookupError whatever the value."""
    encoding = codecs.lookup(encoding).name
    if isinstance(bytes_or_text, bytearray):
        return bytes(bytes_or_text)
    if isinstance(bytes_or_text, str):
        return bytes_or_text.encode(encoding)
    if isinstance(bytes_or_text, bytes):
        return bytes_or_text
    raise TypeError("Expected binary or unicode string, got %r" % (bytes_or_text,))


def as_text(bytes_or_text: Any, encoding: str = "utf-8") -> str:
    """str of a str or bytes (decoded); anything else (a bytearray too) TypeError."""
    encoding = codecs.lookup(encoding).name
    if isinstance(bytes_or_text, str):
        return bytes_or_text
    if isinstance(bytes_or_text, bytes):
        return bytes_or_text.decode(encoding)
    raise TypeError("Expected binary or unicode string, got %r" % bytes_or_text)


def as_str(bytes_or_text: Any, encoding: str = "utf-8") -> str:
    """`as_text`."""
    return as_text(bytes_or_text, encoding)


def as_str_any(value: Any, encoding: str = "utf-8") -> str:
    """`as_str` of bytes, `str(value)` of anything else (the encoding is then not looked up)."""
    if isinstance(value, bytes):
        return as_str(value, encoding=encoding)
    return str(value)


def path_to_str(path: Any) -> Any:
    """The str of an os.PathLike (its __fspath__); anything else as it is."""
    if hasattr(path, "__fspath__"):
        path = as_str_any(path.__fspath__())
    return path


integral_types = (numbers.Integral, np.integer)
real_types = (numbers.Real, np.integer, np.floating)
complex_types = (numbers.Complex, np.number)
bytes_or_text_types = (bytes, str)


def dimension_at_index(shape: TensorShape, index: int) -> Dimension:
    """The Dimension at `index` of a TensorShape (Dimension(None) at any index of an unknown rank; an index
    outside a known rank IndexError; a shape that is not a TensorShape AssertionError)."""
    assert isinstance(shape, TensorShape)
    if shape.rank is None:
        return Dimension(None)
    return shape.dims[index]


# -- the forward-compatibility window: TF 2.21's horizon, moved by TF_FORWARD_COMPATIBILITY_DELTA_DAYS (read once,
# as TF reads it at import) or within forward_compatibility_horizon; a date before the horizon is ignored
_HORIZON = datetime.date(2026, 1, 16)
_DELTA_DAYS = "TF_FORWARD_COMPATIBILITY_DELTA_DAYS"


def _date_number(year: int, month: int, day: int) -> int:
    return (year << 9) | (month << 5) | day


_date: list[int] = []


def _update(date: datetime.date | None = None) -> None:
    if date is None:
        date = _HORIZON
        delta = os.getenv(_DELTA_DAYS)
        if delta:
            date += datetime.timedelta(days=int(delta))
    if date < _HORIZON:
        logging.getLogger("tensorflow").warning(
            "Trying to set the forward compatibility date to the past date %s. This will be ignored by TensorFlow.",
            date)
        return
    _date[:] = [_date_number(date.year, date.month, date.day)]


_update()


def forward_compatible(year: int, month: int, day: int) -> bool:
    """Whether graphs made now may use what consumers built after (year, month, day) understand: the date is
    before the horizon (2026-01-16 in TF 2.21, or the one a forward_compatibility_horizon block sets)."""
    return _date[0] > _date_number(year, month, day)


@contextlib.contextmanager
def forward_compatibility_horizon(year: int, month: int, day: int) -> Iterator[None]:
    """Within the block the horizon is (year, month, day) (a date before TF's own is ignored with a warning)."""
    try:
        _update(datetime.date(year, month, day))
        yield
    finally:
        _update()
