"""tf.compat.v1.batch_gather: TF 2.21's array_ops.batch_gather and its _batch_gather (batch_dims = rank(indices) - 1,
no axis), transcribed (clause ops.gather-batch-dims; ixsweep67). It gathers from params flattened over the batch
dimensions, each index offset by its batch's first row: an index past its batch's rows reads the next batch's (TF's
values, no error) and a negative one the previous batch's, only the flat index outside params is the gather's
InvalidArgumentError."""

from __future__ import annotations

from typing import Any

from simdist.runtime.ops import array, math, reductions
from simdist.runtime.ops.args import t as _t
from simdist.runtime.tensor import TensorShape


def batch_gather(params: Any, indices: Any, name: Any = None) -> Any:
    """params[b..., indices[b..., i], ...] for each batch b of indices' leading dimensions."""
    indices = _t(indices)
    params = _t(params)
    nd = indices.shape.rank
    if nd is None:
        raise ValueError("batch_gather does not allow indices with unknown shape.")
    batch_dims = nd - 1
    if batch_dims < 0 or batch_dims >= nd:
        raise ValueError(f"Argument `batch_dims` = {batch_dims} must be less than rank(`indices`) = {nd}")
    if params.shape.rank is not None and batch_dims >= params.shape.rank:
        raise ValueError(f"Argument `batch_dims` = {batch_dims} must be less than rank(`params`) = "
                         f"{params.shape.rank}")
    idt = indices.dtype
    if batch_dims and idt.name not in ("int32", "int64"):
        # (the offsets' Range in the indices' dtype: int16 is in its op def without a CPU kernel, NotFoundError; the
        # other integer dtypes are outside the list, the attr's InvalidArgumentError; traced both are TypeError;
        # TF 2.21 observed, ixsweep67)
        from simdist.runtime import errors
        from simdist.runtime.ops import trace_errors
        err: Exception = (errors.NotFoundError(None, None, "Could not find device for node: {{node Range}} = "
                                               "Range[Tidx=DT_INT16] [Op:Range]") if idt.name == "int16" else
                          errors.InvalidArgumentError(None, None, f"Value for attr 'Tidx' of {idt.name} is not in the "
                                                      "list of allowed values [Op:Range]"))
        raise trace_errors.static(err, TypeError, f"Value passed to parameter 'start' has DataType {idt.name} not in "
                                                  "list of allowed values")
    indices_shape, params_shape = array.shape(indices), array.shape(params)
    batch_indices = indices
    accum = array.ones((), dtype=idt)
    casted = math.cast(params_shape, idt)
    for dim in range(batch_dims, 0, -1):
        dim_value = casted[dim - 1]
        accum = accum * casted[dim]
        dim_indices = array.range_(array.zeros((), dtype=idt), dim_value, array.ones((), dtype=idt))
        dim_indices = dim_indices * accum
        dim_shape = array.stack([1] * (dim - 1) + [dim_value] + [1] * (nd - dim), axis=0)
        batch_indices = batch_indices + array.reshape(dim_indices, dim_shape)
    flat_indices = array.reshape(batch_indices, [-1])
    outer_shape = params_shape[batch_dims + 1:]
    flat_inner = reductions.reduce_prod(params_shape[:batch_dims + 1], [0])
    flat_params = array.reshape(params, array.concat([array.reshape(flat_inner, [1]), outer_shape], 0))
    result = array.reshape(array.gather(flat_params, flat_indices), array.concat([indices_shape, outer_shape], 0))
    final = TensorShape(indices.shape.as_list()[:batch_dims]).merge_with(
        TensorShape(params.shape.as_list()[:batch_dims]))
    final = final.concatenate(indices.shape.as_list()[batch_dims:]).concatenate(
        params.shape.as_list()[batch_dims + 1:])
    result.set_shape(final)
    return result
