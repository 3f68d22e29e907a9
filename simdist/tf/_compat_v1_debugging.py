"""`tf.compat.v1.debugging` and the `tf.compat.v1.assert_*` functions: check_ops' v1 forms, which take a `data`
list printed in place of the default message data (tf.debugging's v2 forms call them with data=None), the v1
argument orders (assert_scalar's name before message, verify_tensor_all_finite's deprecated t/msg), and the v1-only
aliases (is_finite, is_inf, is_nan, is_non_decreasing, is_strictly_increasing of tf.math). Clause
ops.debugging-checks."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from simdist.tf import debugging as _v2, math as _math

__all__ = ["namespace", "assert_scalar", "assert_variables_initialized", "verify_tensor_all_finite", "ASSERTS"]


def assert_scalar(tensor: Any, name: Any = None, message: Any = None) -> Any:
    """`tf.compat.v1.assert_scalar`: tf.debugging.assert_scalar with name before message; returns the tensor (the v2
    form returns None)."""
    from simdist.runtime.tensor import convert_to_tensor
    _v2.assert_scalar(tensor, message=message, name=name)
    return convert_to_tensor(tensor)


def assert_variables_initialized(var_list: Any = None) -> Any:
    """`tf.compat.v1.assert_variables_initialized`: None without variables (no collections of global and local
    variables are kept under eager execution or tf.function); else each item's `.op`, which a variable (eagerly or
    captured by a tf.function) and an eager tensor do not have (AttributeError), and in a tf.function the graph
    tensors' ranks (one: its rank)."""
    from simdist.runtime import context
    from simdist.runtime.ops import array
    from simdist.runtime.variables import Variable
    if not var_list:
        return None
    if not context.in_function() or any(isinstance(v, Variable) for v in var_list):
        raise AttributeError("Tensor.op is undefined when eager execution is enabled.")
    ranks = [array.rank(v) for v in var_list]
    return ranks[0] if len(ranks) == 1 else array.stack(ranks)


def _deprecated_argument_lookup(new_name: str, new_value: Any, old_name: str, old_value: Any) -> Any:
    """deprecation.deprecated_argument_lookup: the old argument when given (both: ValueError), else the new."""
    if old_value is not None:
        if new_value is not None:
            raise ValueError(f"Cannot specify both '{old_name}' and '{new_name}'.")
        return old_value
    return new_value


def verify_tensor_all_finite(t: Any = None, msg: Any = None, name: Any = None, x: Any = None,
                             message: Any = None) -> Any:
    """`tf.compat.v1.verify_tensor_all_finite`: tf.debugging.assert_all_finite of x (or t) with message (or msg)."""
    x = _deprecated_argument_lookup("x", x, "t", t)
    message = _deprecated_argument_lookup("message", message, "msg", msg)
    return _v2.assert_all_finite(x, message, name)


# tf.compat.v1's names for the v1 forms (the same functions under tf.compat.v1 and tf.compat.v1.debugging)
ASSERTS = {
    "assert_equal": _v2._assert_equal_v1, "assert_less": _v2._assert_less_v1, "assert_greater": _v2._assert_greater_v1,
    "assert_less_equal": _v2._assert_less_equal_v1, "assert_greater_equal": _v2._assert_greater_equal_v1,
    "assert_none_equal": _v2._assert_none_equal_v1, "assert_near": _v2._assert_near_v1,
    "assert_positive": _v2._assert_positive_v1, "assert_negative": _v2._assert_negative_v1,
    "assert_non_positive": _v2._assert_non_positive_v1, "assert_non_negative": _v2._assert_non_negative_v1,
    "assert_rank": _v2._assert_rank_v1, "assert_rank_at_least": _v2._assert_rank_at_least_v1,
    "assert_rank_in": _v2._assert_rank_in_v1, "assert_scalar": assert_scalar, "assert_integer": _v2.assert_integer,
    "assert_type": _v2.assert_type, "assert_proper_iterable": _v2.assert_proper_iterable,
    "assert_same_float_dtype": _v2.assert_same_float_dtype,
}


def namespace() -> SimpleNamespace:
    """tf.compat.v1.debugging: tf.debugging's public names, the v1 assertion forms in place of the v2 ones, and the
    v1-only aliases."""
    names = {n: getattr(_v2, n) for n in dir(_v2) if not n.startswith("_")}
    names.update(ASSERTS, assert_all_finite=verify_tensor_all_finite)
    names.update(is_finite=_math.is_finite, is_inf=_math.is_inf, is_nan=_math.is_nan,
                 is_non_decreasing=_math.is_non_decreasing, is_strictly_increasing=_math.is_strictly_increasing)
    return SimpleNamespace(**names)
