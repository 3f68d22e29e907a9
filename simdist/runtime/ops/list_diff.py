"""`tf.compat.v1.setdiff1d` (TF's ListDiff op): the elements of a 1-D x not in y, in x's order
with repeats, and their positions in x (clause ops.random-generator's companion, tested beside
the seed helpers in tests/ops/test_random_generator_tf.py).

list_diff_op.cc: y's values go into a hash set (0.0 and -0.0 hash alike; NaN never matches, so a
NaN of x is kept); x must be 1-D ("x should be a 1D vector."), y too; real numbers and strings
(bool: NotFoundError, no kernel); out_idx int32 or int64. TF registers no gradient (LookupError).
FLOPs: 0 (comparisons and copies).
"""

from __future__ import annotations

from collections import namedtuple
from typing import Any

import numpy as np

from simdist.runtime import dtypes, errors
from simdist.runtime.ops import dispatch, shape_checks
from simdist.runtime.ops.args import t as _t, tf_name
from simdist.runtime.ops.counting import no_tf_gradient
from simdist.runtime.ops.registry import lanes, register
from simdist.runtime.tensor import Tensor, convert_to_tensor

__all__ = ["setdiff1d"]

ListDiffResult = namedtuple("ListDiff", ["out", "idx"])


def _list_diff(x: np.ndarray, y: np.ndarray, out_idx: dtypes.DType) -> tuple[np.ndarray, np.ndarray]:
    if x.ndim != 1:
        raise errors.InvalidArgumentError(None, None, "x should be a 1D vector. [Op:ListDiff]")
    if y.ndim != 1:
        raise errors.InvalidArgumentError(None, None, "y should be a 1D vector. [Op:ListDiff]")
    keep = ~np.isin(x, y) if x.size else np.zeros(0, bool)
    idx = np.nonzero(keep)[0]
    return x[idx], idx.astype(out_idx._np)


def _rule(dts: Any, attrs: Any) -> tuple:
    t = dts[0]
    if t == dtypes.bool_:
        raise errors.NotFoundError(None, None, "Could not find device for node: {{node ListDiff}} = "
                                   f"ListDiff[T=DT_BOOL, out_idx=DT_{attrs['out_idx'].name.upper()}] [Op:ListDiff]")
    if dts[1] != t:
        raise errors.InvalidArgumentError(None, None, "cannot compute ListDiff as input #1(zero-based) was expected to "
                                          f"be a {tf_name(t)} tensor but is a {tf_name(dts[1])} tensor [Op:ListDiff]")
    if attrs["out_idx"] not in (dtypes.int32, dtypes.int64):
        raise errors.InvalidArgumentError(None, None, f"Value for attr 'out_idx' of {tf_name(attrs['out_idx'])} is not "
                                          "in the list of allowed values: int32, int64 [Op:ListDiff]")
    return (t, attrs["out_idx"])


LIST_DIFF = register("ListDiff", _list_diff, _rule, lambda a, out, at: 0.0, num_outputs=2, kind="gather/scatter",
                     fusion=lanes("its output length depends on the values"))
no_tf_gradient("ListDiff")
# (array_ops.cc: x and y vectors, WithRank(c->input(0), 1) then input 1; a graph's trace-time ValueError, rawfz20)
LIST_DIFF.trace_shape = shape_checks.shape_fn(("rank", 0, 1), ("rank", 1, 1))


def setdiff1d(x: Any, y: Any, index_dtype: Any = dtypes.int32, name: str | None = None) -> Any:
    """`tf.compat.v1.setdiff1d`: ListDiff(out, idx) of x's elements not in y."""
    xt = _t(x)
    yt = y if isinstance(y, Tensor) else convert_to_tensor(y, dtype=xt.dtype)
    out, idx = dispatch.execute(LIST_DIFF, (xt, yt), {"out_idx": dtypes.as_dtype(index_dtype)})
    return ListDiffResult(out, idx)
