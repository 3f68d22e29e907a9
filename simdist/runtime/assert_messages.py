"""check_ops' eager failure messages (TF 2.21's check_ops.py `_make_assert_msg_data`, `_pretty_print`): the text a
failed elementwise assertion raises eagerly, shared by tf.debugging and the ops that assert as TF's Python does
(tf.sparse.bincount's ragged weights' row splits)."""

from __future__ import annotations

from typing import Any

import numpy as np


def pretty(item: Any, summarize: Any) -> str:
    """check_ops._pretty_print: a tensor as the list of its first `summarize` elements' str (with '...' when cut; a
    scalar as its str), anything else (NumPy arrays too) by str."""
    from simdist.runtime.tensor import Tensor
    if not isinstance(item, Tensor):
        return str(item)
    arr = item.numpy()
    if np.isscalar(arr):
        return str(arr)
    flat = arr.reshape((-1,))
    out = [str(v) for v in flat[:summarize]]   # (summarize < 0 is 1e9 here: a float slice, TypeError, as in TF 2.21)
    if len(out) < flat.size:
        out.append("...")
    return str(out)


def summarize_count(summarize: Any) -> Any:
    """The number of elements a message shows: 3 by default, all (1e9) for a negative one."""
    return 3 if summarize is None else (1e9 if summarize < 0 else summarize)


def eager_binary_data(sym: str, x: Any, y: Any, test: Any, summarize: Any) -> list[Any]:
    """check_ops._make_assert_msg_data: the condition, where x and y differ (same non-scalar shapes), and their
    first elements, as NumPy arrays (printed by str)."""
    data: list[Any] = [f"Condition x {sym} y did not hold."]
    if summarize > 0:
        xa, ya = np.asarray(x._v), np.asarray(y._v)
        if xa.shape == ya.shape and xa.ndim:
            bad = ~np.asarray(test._v)
            idx = np.argwhere(bad)
            n = min(int(summarize), idx.shape[0])
            data += [f"Indices of first {n} different values:", idx[:n], "Corresponding x values:",
                     xa[bad].reshape((-1,))[:n], "Corresponding y values:", ya[bad].reshape((-1,))[:n]]
        xs, ys = xa.reshape((-1,)), ya.reshape((-1,))
        nx, ny = min(xs.size, summarize), min(ys.size, summarize)
        data += [f"First {int(nx)} elements of x:", xs[:int(nx)], f"First {int(ny)} elements of y:", ys[:int(ny)]]
    return data


def eager_message(message: Any, data: list[Any], summarize: Any) -> str:
    """The InvalidArgumentError text: the message (if any) and each data item by pretty, one a line."""
    return "\n".join(pretty(d, summarize) for d in ([] if message is None else [message]) + data)
