"""The message of a failing tf.Assert inside a tf.function: the Assert kernel's (assert_op.cc),
"assertion failed: " and each datum in brackets, a tensor as Tensor::SummarizeValue prints its
first `summarize` elements (default 3; clause function.traced-branches).

SummarizeValue (tensor.cc, PrintOneDim): elements separated by spaces, each row of a matrix or
more in brackets, "..." where it stops inside a row and after the whole when it stops early; a
float as strings::StrCat prints it (%g with 6 significant digits, 9 when that does not round trip;
a double 15, then 17), a bool 1 or 0, a string as it is. Eagerly TF's Assert raises another
message (control_flow.py's Assert).
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["message"]


def _element(v: Any, dtype: np.dtype) -> str:
    if dtype.kind == "b":
        return "1" if v else "0"
    if dtype.kind == "f":
        short, full = (6, 9) if dtype.itemsize <= 4 else (15, 17)
        text = f"{float(v):.{short}g}"
        if dtype.type(float(text)) != v and not np.isnan(v):
            text = f"{float(v):.{full}g}"
        return {"inf": "inf", "-inf": "-inf", "nan": "nan"}.get(text, text)
    if dtype.kind in "SU":
        return v.decode() if isinstance(v, bytes) else str(v)
    if dtype.kind == "O":
        return v.decode() if isinstance(v, bytes) else str(v)
    return str(int(v))


def _one_dim(arr: np.ndarray, flat: np.ndarray, d: int, limit: int, index: list[int], out: list[str]) -> None:
    """TF's PrintOneDim: dimension d of arr from element index[0] on, into out (a module
    function: a nested function calling itself is a reference cycle)."""
    if index[0] >= limit:
        return
    count = arr.shape[d]
    if d == arr.ndim - 1:
        for i in range(count):
            if index[0] >= limit:
                if d != 0:
                    out.append("...")
                return
            if i > 0:
                out.append(" ")
            out.append(_element(flat[index[0]], arr.dtype))
            index[0] += 1
        return
    for _ in range(count):
        opened = index[0] < limit
        if opened:
            out.append("[")
        _one_dim(arr, flat, d + 1, limit, index, out)
        if index[0] < limit or opened:
            out.append("]")


def _summary(arr: np.ndarray, limit: int) -> str:
    flat = arr.reshape(-1)
    if arr.ndim == 0:
        return _element(flat[0], arr.dtype)
    out: list[str] = []
    _one_dim(arr, flat, 0, limit, [0], out)
    text = "".join(out)
    if flat.size > limit:
        text += "..."
    return text


def message(data: Any, summarize: int | None) -> str:
    """The graph Assert's message for `data` (strings and tensors)."""
    from simdist.runtime.tensor import Tensor
    limit = 3 if summarize is None else int(summarize)
    parts = []
    for d in data:
        if isinstance(d, Tensor):
            from simdist.runtime.ops import dispatch
            parts.append(f"[{_summary(np.asarray(dispatch.raw(d)), limit)}]")
        else:
            parts.append(f"[{d.decode() if isinstance(d, bytes) else d}]")
    return "assertion failed: " + " ".join(parts)
