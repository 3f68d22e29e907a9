"""tnp's indexing helpers (TF 2.21's np_array_ops take/take_along_axis/where/select/nonzero/
compress/diagonal and np_math_ops argsort/sort): indices are clipped (`take`'s default mode)
or wrapped, never checked; `where` with one argument is `nonzero`; argsort gives int64.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import dtypes
from simdist.runtime.ops import tnp_arrays as _arr
from simdist.runtime.ops.array import gather, reshape, shape
from simdist.runtime.ops.math import cast, where as _where
from simdist.runtime.tensor import Tensor


def take(a: Any, indices: Any, axis: Any = None, out: Any = None, mode: str = "clip") -> Tensor:
    """`tnp.take`: gather along `axis` (a flattened when None), indices clipped to the axis
    ('clip') or taken modulo its size ('wrap'); 'raise' and `out` are refused."""
    from simdist.runtime.ops.clip import clip_by_value
    from simdist.runtime.ops.math import floormod
    if out is not None:
        raise ValueError("out argument is not supported in take.")
    if mode not in {"raise", "clip", "wrap"}:
        raise ValueError(f"Invalid mode '{mode}' for take")
    a = _arr.asarray(a)
    indices = _arr.asarray(indices)
    if axis is None:
        a = reshape(a, [-1])
        axis = 0
    axis_size = shape(a, out_type=indices.dtype)[axis]
    if mode == "clip":
        indices = clip_by_value(indices, 0, axis_size - 1)
    elif mode == "wrap":
        indices = floormod(indices, axis_size)
    else:
        raise ValueError("The 'raise' mode to take is not supported.")
    return gather(a, indices, axis=axis)


def take_along_axis(arr: Any, indices: Any, axis: Any) -> Tensor:
    """`tnp.take_along_axis`: arr and indices broadcast except along `axis`, negative indices
    counted from the end, a batched gather; axis=None asks for `ravel` (TF's AttributeError)."""
    from simdist.runtime.ops.array import broadcast_to
    from simdist.runtime.ops.array_more import broadcast_dynamic_shape
    from simdist.runtime.ops.scatter import tensor_scatter_nd_update as update
    from simdist.runtime.ops.tnp_shape import swapaxes
    arr = _arr.asarray(arr)
    indices = _arr.asarray(indices)
    if axis is None:
        raise _arr.astype_missing(arr, "ravel")
    r = arr.shape.rank
    axis = axis + r if axis < 0 else axis
    arr_shape_original = shape(arr, out_type=indices.dtype)
    indices_shape_original = shape(indices, out_type=indices.dtype)
    arr_shape = update(arr_shape_original, [[axis]], [1])
    indices_shape = update(indices_shape_original, [[axis]], [1])
    broadcasted = broadcast_dynamic_shape(arr_shape, indices_shape)
    arr_shape = update(broadcasted, [[axis]], [arr_shape_original[axis]])
    indices_shape = update(broadcasted, [[axis]], [indices_shape_original[axis]])
    arr = broadcast_to(arr, arr_shape)
    indices = broadcast_to(indices, indices_shape)
    indices = _where(indices < 0, indices + arr_shape[axis], indices)
    at_end = axis == r - 1
    if not at_end:
        arr, indices = swapaxes(arr, axis, -1), swapaxes(indices, axis, -1)
    arr = reshape(arr, [-1, shape(arr)[-1]])
    ind_shape = shape(indices)
    indices = reshape(indices, [-1, ind_shape[-1]])
    result = reshape(gather(arr, indices, batch_dims=1), ind_shape)
    return result if at_end else swapaxes(result, axis, -1)


def nonzero(a: Any) -> list:
    """`tnp.nonzero`: one int64 index vector per axis of atleast_1d(a)."""
    from simdist.runtime.ops.array import unstack
    from simdist.runtime.ops.tnp_shape import atleast_1d
    a = atleast_1d(a)
    if _arr.graph_shape(a).rank is None:
        raise ValueError("The rank of `a` is unknown, so we can't decide how many arrays to return.")
    return unstack(_where(cast(a, dtypes.bool_)), _arr.graph_shape(a).rank, axis=1)


def where(condition: Any, x: Any = None, y: Any = None) -> Any:
    """`tnp.where`: tf.where of x and y at their result type, or nonzero(condition) alone."""
    condition = _arr.asarray(condition, dtype=np.bool_)
    if x is None and y is None:
        return nonzero(condition)
    if x is not None and y is not None:
        x, y = _arr.promote_dtype(x, y)
        return _where(condition, x, y)
    raise ValueError("Both x and y must be ndarrays, or both must be None.")


def select(condlist: Any, choicelist: Any, default: Any = 0) -> Tensor:
    """`tnp.select`: the first choice whose condition holds, else default (all promoted)."""
    if len(condlist) != len(choicelist):
        raise ValueError(f"condlist must have length equal to choicelist ({len(condlist)} vs {len(choicelist)})")
    if not condlist:
        raise ValueError("condlist must be non-empty")
    choices = _arr.promote_dtype(default, *choicelist)
    output = choices[0]
    for cond, choice in zip(condlist[::-1], choices[1:][::-1]):
        output = where(cond, choice, output)
    return output


def compress(condition: Any, a: Any, axis: Any = None) -> Tensor:
    """`tnp.compress`: boolean_mask along `axis` (a flattened when None) by a 1-D condition
    padded with False to the axis' length."""
    from simdist.runtime.ops.array import boolean_mask, concat, fill
    from simdist.runtime.ops.tnp_shape import ravel
    condition = _arr.asarray(condition, dtype=bool)
    a = _arr.asarray(a)
    c_shape, a_shape = _arr.graph_shape(condition), _arr.graph_shape(a)
    if c_shape.rank != 1:
        raise ValueError("condition must be a 1-d array.")
    if a_shape.rank == 0:
        a = ravel(a)
    if axis is None:
        a = ravel(a)
        axis = 0
    a_shape = _arr.graph_shape(a)
    if axis < 0:
        axis += a_shape.rank
    assert axis >= 0 and axis < a_shape.rank
    condition_t = condition
    if c_shape[0] < a_shape[axis]:
        condition_t = concat([condition_t, fill([a_shape[axis] - c_shape[0]], False)], axis=0)
    return boolean_mask(tensor=a, mask=condition_t, axis=axis)


def argsort(a: Any, axis: Any = -1, kind: str = "quicksort", order: Any = None) -> Tensor:
    """`tnp.argsort`: tf.argsort ('stable' kind is stable), int64; complex refused; a scalar
    gives [0]."""
    from simdist.runtime.ops.array import constant
    from simdist.runtime.ops.sorting import argsort as _argsort
    if kind not in ("quicksort", "stable"):
        raise ValueError('Invalid value for argument `kind`. Only kind="quicksort" and kind="stable" are supported. '
                         f"Received: kind={kind}")
    if order is not None:
        raise ValueError("The `order` argument is not supported. Pass order=None")
    a = _arr.array(a)
    if a.dtype in (dtypes.complex64, dtypes.complex128):
        raise TypeError(f"argsort does not support complex64/complex128 dtypes. Received dtype: {a.dtype}")
    if a.shape.rank == 0:
        ans = constant([0])
    else:
        if axis is None:
            a, axis = reshape(a, [-1]), 0
        ans = _argsort(a, axis, stable=kind == "stable")
    return _arr.array(ans, dtype=np.intp)


def sort(a: Any, axis: Any = -1, kind: str = "quicksort", order: Any = None) -> Tensor:
    """`tnp.sort`: tf.sort (of a flattened when axis is None); only kind 'quicksort'."""
    from simdist.runtime.ops.sorting import sort as _sort
    if kind != "quicksort":
        raise ValueError(f'Invalid value for argument `kind`. Only kind="quicksort" is supported. Received: kind={kind}')
    if order is not None:
        raise ValueError("The `order` argument is not supported. Pass order=None")
    a = _arr.array(a)
    if axis is None:
        return _sort(reshape(a, [-1]), 0)
    return _sort(a, axis)


def diagonal(a: Any, offset: int = 0, axis1: int = 0, axis2: int = 1) -> Tensor:
    """`tnp.diagonal`: diagonal `offset` of the (axis1, axis2) planes, moved last (empty when
    the offset is outside)."""
    from simdist.runtime.ops.array import concat, zeros
    from simdist.runtime.ops.diag import diag_part
    from simdist.runtime.ops.tnp_shape import moveaxis
    a = _arr.asarray(a)
    r = a.shape.rank
    if r is not None and offset == 0 and (axis1 == r - 2 or axis1 == -2) and (axis2 == r - 1 or axis2 == -1):
        return diag_part(a)
    a = moveaxis(a, (axis1, axis2), (-2, -1))
    a_shape = shape(a)
    dims = a.shape.as_list()
    if offset <= -1 * dims[-2] or offset >= dims[-1]:
        a, offset = zeros(concat([a_shape[:-1], [0]], 0), dtype=a.dtype), 0
    return diag_part(a, k=offset)
