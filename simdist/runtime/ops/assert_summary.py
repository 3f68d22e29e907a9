"""The message of a failing tf.Assert inside a tf.function: the Assert kernel's (assert_op.cc),
"assertion failed: " and each datum in brackets, a tensor as Tensor::SummarizeValue prints its
first `summarize` elements (default 3; clause function.traced-branches) in its v1 format
(simdist/runtime/ops/summarize_value.py). Eagerly TF's Assert raises another message
(control_flow.py's Assert).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime.ops.summarize_value import summarize_value

__all__ = ["message"]


def message(data: Any, summarize: int | None) -> str:
    """The graph Assert's message for `data` (strings and tensors)."""
    from simdist.runtime.tensor import Tensor
    limit = 3 if summarize is None else int(summarize)
    parts = []
    for d in data:
        if isinstance(d, Tensor):
            from simdist.runtime.ops import dispatch
            parts.append(f"[{summarize_value(np.asarray(dispatch.raw(d)), limit, False)}]")
        else:
            parts.append(f"[{d.decode() if isinstance(d, bytes) else d}]")
    return "assertion failed: " + " ".join(parts)
