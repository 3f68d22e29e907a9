"""`tf.debugging` assertions: raise InvalidArgumentError (TF's class) when the condition fails."""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from simdist.runtime import errors
from simdist.runtime.tensor import convert_to_tensor


def _check(ok: bool, message: str | None, condition: str, values: dict[str, Any]) -> None:
    if ok:
        return
    lines = [message] if message else []
    lines.append(f"Condition {condition} did not hold element-wise:")
    for k, v in values.items():
        lines.append(f"{k} = {np.asarray(v).tolist()}")
    raise errors.InvalidArgumentError(None, None, "\n".join(lines))


def _unary(cond: Callable[[np.ndarray], np.ndarray], text: str) -> Callable[..., None]:
    def assertion(x: Any, message: str | None = None, summarize: Any = None, name: Any = None) -> None:
        a = convert_to_tensor(x)._v
        _check(bool(np.all(cond(a))), message, text, {"x": a})
    return assertion


assert_positive = _unary(lambda a: a > 0, "x > 0")
assert_negative = _unary(lambda a: a < 0, "x < 0")
assert_non_positive = _unary(lambda a: a <= 0, "x <= 0")
assert_non_negative = _unary(lambda a: a >= 0, "x >= 0")


def _binary(cond: Callable[[np.ndarray, np.ndarray], np.ndarray], text: str) -> Callable[..., None]:
    def assertion(x: Any, y: Any, message: str | None = None, summarize: Any = None, name: Any = None) -> None:
        a, b = convert_to_tensor(x)._v, convert_to_tensor(y)._v
        _check(bool(np.all(cond(a, b))), message, text, {"x": a, "y": b})
    return assertion


assert_equal = _binary(np.equal, "x == y")
assert_less = _binary(np.less, "x < y")
assert_greater = _binary(np.greater, "x > y")
assert_less_equal = _binary(np.less_equal, "x <= y")
assert_greater_equal = _binary(np.greater_equal, "x >= y")


def assert_near(x: Any, y: Any, rtol: float | None = None, atol: float | None = None, message: str | None = None,
                summarize: Any = None, name: Any = None) -> None:
    a, b = convert_to_tensor(x)._v, convert_to_tensor(y)._v
    eps = float(np.finfo(a.dtype).eps) if a.dtype.kind == "f" else 0.0
    rt = 10 * eps if rtol is None else rtol
    at = 10 * eps if atol is None else atol
    _check(bool(np.all(np.abs(a - b) <= at + rt * np.abs(b))), message, "x and y are close", {"x": a, "y": b})

from simdist.runtime.ops.control_flow import Assert  # noqa: E402,F401  (tf.debugging.Assert is tf.Assert)


def assert_rank(x: Any, rank: Any, message: str | None = None, name: str | None = None) -> None:
    """`tf.debugging.assert_rank` (= `tf.assert_rank`): x's rank is `rank`, else ValueError (TF 2.21
    checks the static rank at once, eagerly and while tracing); rank: a scalar int or int32 tensor
    (another dtype: TypeError; not a scalar: ValueError)."""
    from simdist.runtime.ops.args import t as _t
    from simdist.runtime.tensor import Tensor
    t = _t(x)
    r = rank if isinstance(rank, Tensor) else convert_to_tensor(rank)
    if r.dtype.name != "int32":
        raise TypeError(f"tensor must be of type tf.int32; got tf.{r.dtype.name}")
    if r.ndim != 0:
        raise ValueError("Rank must be a scalar.")
    want = int(np.asarray(r._v))
    if t.ndim != want:
        shape = tuple(t.shape.as_list())
        raise ValueError(f"{message + '.  ' if message else ''}Tensor {name or ''} must have rank {want}.  "
                         f"Received rank {t.ndim}, shape {shape}")
