"""In-place operators of a plain tf.Variable (clause `ops.variable-inplace`): TF 2.21's
BaseResourceVariable defines `+=`, `-=`, `*=`, `/=` and `**=` to raise RuntimeError (a variable
is changed by its assign methods only); `//=`, `%=`, `&=`, `|=`, `^=` and `@=` are not defined, so
Python falls back to the binary operator and rebinds the name to a new tensor. Distributed
variables (MirroredVariable and the like) do not have these methods: every in-place operator
falls back to the binary one there."""

from __future__ import annotations

from typing import Any, NoReturn


def _refuse(text: str, method: str, out: str) -> NoReturn:
    raise RuntimeError(f"`{text}` with `tf.Variable`s is not supported. Use `{method}` to modify the variable, "
                       f"or `out = {out}` if you need to get a new output Tensor.")


class InPlaceRefusals:
    """Mixin: TF's messages, word for word (resource_variable_ops.py)."""

    def __iadd__(self, unused_other: Any) -> NoReturn:
        _refuse("variable += value", "variable.assign_add(value)", "variable + value")

    def __isub__(self, unused_other: Any) -> NoReturn:
        _refuse("variable -= value", "variable.assign_sub(value)", "variable * value")   # (sic: TF's text)

    def __imul__(self, unused_other: Any) -> NoReturn:
        _refuse("var *= value", "var.assign(var * value)", "var * value")

    def __itruediv__(self, unused_other: Any) -> NoReturn:
        _refuse("var /= value", "var.assign(var / value)", "var / value")

    def __ipow__(self, unused_other: Any) -> NoReturn:
        _refuse("var **= value", "var.assign(var ** value)", "var ** value")
