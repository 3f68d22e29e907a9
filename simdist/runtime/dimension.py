"""`tf.compat.v1.Dimension`: one dimension of a TensorShape as `TensorShape.dims` returns it (TF 2.21
python/framework/tensor_shape.py). A known value or None (unknown); arithmetic with an unknown
operand is unknown, comparisons with one are None, `/` is refused (clause ops.fuzz4)."""

from __future__ import annotations

from typing import Any, Callable

__all__ = ["Dimension", "as_dimension", "dimension_value"]


class Dimension:
    """One dimension: `value` is a non-negative int or None."""

    __slots__ = ("_value",)

    def __init__(self, value: Any) -> None:
        if isinstance(value, Dimension):
            v = value._value
        elif value is None or isinstance(value, int):
            v = value
        else:
            try:
                v = int(value.__index__())
            except AttributeError:
                raise TypeError(f"Dimension value must be integer or None or have an __index__ method, got value "
                                f"'{value!r}' with type '{type(value)!r}'") from None
        if v is not None and v < 0:
            raise ValueError(f"Dimension {v} must be >= 0")
        self._value = v

    @property
    def value(self) -> int | None:
        return self._value

    def __repr__(self) -> str:
        return f"Dimension({self._value!r})"

    def __str__(self) -> str:
        return "?" if self._value is None else str(self._value)

    def __bool__(self) -> bool:
        return bool(self._value)

    def __int__(self) -> Any:
        return self._value   # (None: Python's TypeError "__int__ returned non-int")

    __index__ = __int__

    __hash__ = None   # type: ignore[assignment]   (TF defines __eq__ and no __hash__)

    def __reduce__(self) -> tuple:
        return (Dimension, (self._value,))

    def is_compatible_with(self, other: Any) -> bool:
        other = as_dimension(other)
        return self._value is None or other._value is None or self._value == other._value

    def assert_is_compatible_with(self, other: Any) -> None:
        if not self.is_compatible_with(other):
            raise ValueError(f"Dimensions {self} and {other} are not compatible")

    def merge_with(self, other: Any) -> "Dimension":
        other = as_dimension(other)
        self.assert_is_compatible_with(other)
        return Dimension(other._value if self._value is None else self._value)

    def __truediv__(self, other: Any) -> Any:
        raise TypeError(f"unsupported operand type(s) for /: 'Dimension' and '{type(other).__name__}', please "
                        "use // instead")

    def __rtruediv__(self, other: Any) -> Any:
        raise TypeError(f"unsupported operand type(s) for /: '{type(other).__name__}' and 'Dimension', please "
                        "use // instead")


def _other(x: Any) -> "Dimension | None":
    try:
        return as_dimension(x)
    except (TypeError, ValueError):
        return None


def _arith(fn: Callable[[int, int], int], reflected: bool = False) -> Callable[[Dimension, Any], Any]:
    def op(self: Dimension, other: Any) -> Any:
        o = _other(other)
        if o is None:
            return NotImplemented
        if self._value is None or o._value is None:
            return Dimension(None)
        return Dimension(fn(o._value, self._value) if reflected else fn(self._value, o._value))
    return op


def _compare(fn: Callable[[int, int], bool], eq: bool = False) -> Callable[[Dimension, Any], Any]:
    def op(self: Dimension, other: Any) -> Any:
        if eq:
            o = _other(other)
            if o is None:
                return NotImplemented
        else:
            o = as_dimension(other)
        if self._value is None or o._value is None:
            return None
        return fn(self._value, o._value)
    return op


for _name, _fn in (("add", int.__add__), ("sub", int.__sub__), ("mul", int.__mul__), ("floordiv", int.__floordiv__),
                   ("mod", int.__mod__)):
    setattr(Dimension, f"__{_name}__", _arith(_fn))
    setattr(Dimension, f"__r{_name}__", _arith(_fn, reflected=True))
for _name, _fn, _eq in (("eq", int.__eq__, True), ("ne", int.__ne__, True), ("lt", int.__lt__, False),
                        ("le", int.__le__, False), ("gt", int.__gt__, False), ("ge", int.__ge__, False)):
    setattr(Dimension, f"__{_name}__", _compare(_fn, _eq))


def as_dimension(value: Any) -> Dimension:
    """`tf.compat.v1.Dimension` of value (a Dimension is returned as it is)."""
    return value if isinstance(value, Dimension) else Dimension(value)


def dimension_value(dimension: Any) -> int | None:
    """`tf.compat.v1.dimension_value`: the int (or None) of a Dimension, an int or None."""
    return dimension.value if isinstance(dimension, Dimension) else dimension
