"""tf.strings.format (string_ops.string_format) on TF's StringFormat op (string_format_op.cc):
the template split at each `placeholder`, the k-th tensor's Tensor::SummarizeValue(summarize,
print_v2=True) (simdist/runtime/ops/summarize_value.py) put in the k-th gap; a scalar string.
The kernel reads subnormal floats as zeros (TF's kernels run with DAZ), so a float32 1e-45
prints as 0 (summarize_value applies it per element: a half subnormal is a normal float once
converted, a bfloat16 one stays subnormal); its inputs are kept as they are. Not differentiable. Clause ops.print.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import dtypes, errors
from simdist.runtime.ops import dispatch
from simdist.runtime.ops.counting import no_tf_gradient
from simdist.runtime.ops.registry import lanes, register
from simdist.runtime.ops.summarize_value import summarize_value
from simdist.runtime.tensor import Tensor, convert_to_tensor

__all__ = ["string_format", "format_tensors", "STRING_FORMAT"]


def _format(*arrays: np.ndarray, template: str, placeholder: str, summarize: int) -> np.ndarray:
    pieces = template.split(placeholder) if placeholder else list(template) or [""]
    if len(pieces) - 1 != len(arrays):   # (the kernel's constructor; absl::StrSplit's pieces; fuzz20 seed 2920261204 #161)
        raise errors.InvalidArgumentError(None, None, "num placeholders in template and num inputs must match: "
                                          f"{len(pieces) - 1} vs. {len(arrays)} [Op:StringFormat]")
    text = [pieces[0]]
    for a, piece in zip(arrays, pieces[1:]):
        text.append(summarize_value(np.asarray(a), summarize, True))
        text.append(piece)
    return np.array("".join(text).encode("utf-8", errors="surrogateescape"), dtype=object)


def _rule(dts: Any, attrs: Any) -> dtypes.DType:
    return dtypes.string


STRING_FORMAT = register("StringFormat", _format, _rule, lambda arrays, out, attrs: 0.0, kind="reduction",
                         fusion=lanes("formats each lane's tensors as text in Python: no stacked form written"),
                         subnormals="keep")
no_tf_gradient("StringFormat")   # (TF 2.21 registers none: LookupError; observed, fz27a)


def _template_text(value: Any, what: str) -> str:
    if isinstance(value, bytes):
        return value.decode("utf-8", errors="surrogateescape")
    if not isinstance(value, str):
        raise TypeError(f"Expected string for argument '{what}' not {value!r}.")
    return value


def format_tensors(tensors: list[Tensor], template: str, placeholder: str, summarize: int | None) -> Tensor:
    """The StringFormat op on tensors already checked against the template (print_v2's own call)."""
    if summarize is None:
        summarize = 3
    try:    # (_execute.make_int: anything int() takes but a string; 1.5 is 1)
        if isinstance(summarize, str):
            raise TypeError
        summarize = int(summarize)
    except (TypeError, ValueError):
        raise TypeError(f"Expected int for argument 'summarize' not {summarize!r}.") from None
    # (absl::StrSplit: an empty placeholder splits between the characters)
    n = template.count(placeholder) if placeholder else max(len(template), 1) - 1
    if n != len(tensors):
        raise errors.InvalidArgumentError(None, None, "num placeholders in template and num inputs must match: "
                                          f"{n} vs. {len(tensors)} [Op:StringFormat]")
    return dispatch.execute(STRING_FORMAT, tuple(tensors), {"template": template, "placeholder": placeholder,
                                                            "summarize": int(summarize)})


def string_format(template: Any, inputs: Any, placeholder: Any = "{}", summarize: Any = 3,
                  name: str | None = None) -> Tensor:
    """`tf.strings.format`: `template` with each `placeholder` replaced by the next tensor of
    `inputs` (one tensor, or a list or tuple of values made tensors), summarized."""
    from simdist.runtime.sparse_tensor import SparseTensor
    if isinstance(inputs, (Tensor, SparseTensor)):
        inputs = [inputs]
    if not isinstance(template, (str, bytes)):    # (string_ops calls template.count)
        raise AttributeError(f"'{type(template).__name__}' object has no attribute 'count'")
    if isinstance(template, bytes) and isinstance(placeholder, str):
        raise TypeError("argument should be integer or bytes-like object, not 'str'")
    template = _template_text(template, "template")
    placeholder = _template_text(placeholder, "placeholder")
    expected = template.count(placeholder)
    if expected != len(inputs):
        raise ValueError(f"The template expects {expected} tensors, but the inputs only has {len(inputs)}. "
                         "Please ensure the number of placeholders in template matches inputs length.")
    tensors = [x if isinstance(x, Tensor) else convert_to_tensor(x) for x in inputs]
    return format_tensors(tensors, template, placeholder, summarize)
