"""The resource-variable raw ops (clause ops.resource-handles): VarHandleOp, ReadVariableOp, AssignVariableOp,
AssignAddVariableOp, AssignSubVariableOp, VariableShape, VarIsInitializedOp, DestroyResourceOp, ResourceGather,
ResourceGatherNd, the ResourceScatter* and ResourceScatterNd* updates and ResourceStridedSliceAssign, over a handle
tensor (runtime/resource_handle.py), as TF 2.21's kernels run them (tensorflow/core/kernels/resource_variable_ops.cc,
scatter_nd_op.cc, strided_slice_op.cc; texts observed on TF 2.21, eagerly with the wrapped function's prefix).

The handle names the variable itself: an eager variable's handle its ResourceVariable (reads and writes go through
its transaction and journal paths, `_read_array` / `_write`), a VarHandleOp's handle a variable of the resource
manager (runtime/ops/resource_manager.py). A read is seen by a gradient tape only when the tape already watches the
variable (tape.watch(v), or an earlier read through the variable): TF's raw ReadVariableOp does not call
`variable_accessed`, so an unwatched variable's gradient is None (observed); ResourceGather's gradient is
IndexedSlices. Each op keeps a tf.function call that makes it eager (dispatch.unrecordable): its effect happens on
every call, as the graph's stateful op does.

Not modelled: a value of another dtype than the variable's for ResourceGather/ResourceGatherNd's `dtype` or a
ResourceScatterNd* update, which abort TF 2.21's process (a CHECK in Tensor::CheckType); simdist raises
InvalidArgumentError.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from simdist.runtime import dtypes, errors, resource_handle
from simdist.runtime.ops import args as _args, dispatch, resource_manager
from simdist.runtime.ops.raw_args import RawArgs
from simdist.runtime.ops.resource_manager import kernel_error
from simdist.runtime.tensor import Tensor

__all__ = ["NAMES", "forms", "resolve", "read_watched"]


def _dims(shape: Any) -> str:
    return _args.dims(shape)


def resolve(op: str, t: Tensor, name_tail: bool = False) -> Any:
    """The variable the handle names (ResourceVariable or resource_manager.Managed), or the lookup's
    NotFoundError."""
    h = resource_handle.handle_in(t)
    if h.var is not None:
        return h.var
    found = resource_manager.lookup(h.container, h.name)
    if found is None:
        raise kernel_error(op, resource_manager.missing_text(h.container, h.name), errors.NotFoundError, name_tail)
    return found


def _dtype(var: Any) -> dtypes.DType:
    return var._dtype


def _eager(op: str) -> None:
    dispatch.unrecordable(f"it runs the resource op {op}")


def read_watched(var: Any, t: Tensor, indices: Tensor | None = None) -> Tensor:
    """t, the value read from `var`, recorded on each tape that already watches the variable (TF's raw read
    does not watch it)."""
    from simdist.runtime import execution
    from simdist.runtime.autodiff import tape as _tape
    from simdist.runtime import context
    if context.in_function():   # (a tf.function marks the variables it captures accessed: TF's call watches them, so
        # the read is every observer's, as a variable's own read is; the tapes' through the call's Deferred)
        return dispatch.variable_read(var, t) if indices is None else dispatch.variable_gathered(var, indices, t)
    for o in execution.current().observers:
        if isinstance(o, _tape._Tape) and id(var) in o.tensor_tape:
            t = o.read(var, t) if indices is None else o.gathered(var, indices, t)
    return t


def _value_tensor(var: Any, arr: np.ndarray) -> Tensor:
    return Tensor(np.array(arr, copy=True), _dtype(var), getattr(var, "_device", None) or
                  "/job:localhost/replica:0/task:0/device:CPU:0")


# --- the ops -------------------------------------------------------------------------------------------------------

def _var_handle_op(container: str, shared_name: str, debug_name: str, dtype: dtypes.DType, shape: Any,
                   allowed_devices: Any) -> Tensor:
    from simdist.runtime import context
    dims = None if shape is None else [None if d is None or d == -1 else int(d) for d in shape]
    h = resource_handle.ResourceHandle(None, shared_name, context.current_device(), container or "localhost",
                                       dtype, dims)
    return resource_handle.handle_tensor(h)


def _read_variable_op(resource: Tensor, dtype: dtypes.DType) -> Tensor:
    op = "ReadVariableOp"
    _eager(op)
    h = resource_handle.handle_in(resource)
    try:
        var = resolve(op, resource)
    except errors.NotFoundError:
        raise kernel_error(op, f"Could not find variable {h.name}. This could mean that the variable has been "
                               f"deleted. In TF1, it can also mean the variable is uninitialized. Debug info: "
                               f"container={h.container}, status error message="
                               f"{resource_manager.missing_text(h.container, h.name)}",
                           errors.FailedPreconditionError, True) from None
    _check_read_dtype(op, var, dtype, name_tail=True)
    t = _value_tensor(var, var._read_array())
    return read_watched(var, t)


def _assign_variable_op(resource: Tensor, value: Tensor, validate_shape: bool) -> None:
    op = "AssignVariableOp"
    _eager(op)
    h = resource_handle.handle_in(resource)
    arr = np.array(dispatch.raw(value), copy=True)
    var = h.var if h.var is not None else resource_manager.lookup(h.container, h.name)
    if var is None:   # (AssignVariableOp makes the variable, of the value's dtype whatever the handle says)
        resource_manager.create(h.container, h.name, arr, value.dtype)
        return None
    if _dtype(var) != value.dtype:
        raise kernel_error(op, f"Trying to assign variable with wrong dtype. Expected {_args.tf_name(_dtype(var))} "
                               f"got {_args.tf_name(value.dtype)}")
    if validate_shape and var._read_array().shape != arr.shape:
        raise kernel_error(op, f"Trying to assign to variable with tensor with wrong shape. Expected "
                               f"{_dims(var._read_array().shape)} got {_dims(arr.shape)}")
    var._write("assign", arr)
    return None


def _update(op: str, kind: str) -> Callable[..., None]:
    def run(resource: Tensor, value: Tensor) -> None:
        _eager(op)
        if value.dtype.is_bool or value.dtype in (dtypes.string, dtypes.resource):   # (no CPU kernel)
            raise errors.InvalidArgumentError(
                None, None, f"No OpKernel was registered to support Op '{op}' used by {{{{node {op}}}}} with these "
                            f"attrs: [dtype=DT_{value.dtype.name.upper()}]")
        var = resolve(op, resource)
        cur = var._read_array()
        arr = dispatch.raw(value)
        if cur.shape != arr.shape:
            raise kernel_error(op, f"Cannot update variable with shape {_dims(cur.shape)} using a Tensor with shape "
                                   f"{_dims(arr.shape)}, shapes must be equal.")
        if _dtype(var) != value.dtype:
            raise kernel_error(op, "DType of variable handle and value does not match.")
        var._write(kind, np.array(arr, copy=True))
        return None
    return run


def _variable_shape(input: Tensor, out_type: dtypes.DType) -> Tensor:  # noqa: A002 - the OpDef's name
    op = "VariableShape"
    _eager(op)
    var = resolve(op, input, name_tail=True)
    return Tensor(np.asarray(var._read_array().shape, dtype=out_type.np).reshape(-1), out_type)


def _var_is_initialized(resource: Tensor) -> Tensor:
    _eager("VarIsInitializedOp")
    h = resource_handle.handle_in(resource)
    ok = h.var is not None or resource_manager.lookup(h.container, h.name) is not None
    return Tensor(np.asarray(ok), dtypes.bool_)


def _destroy(resource: Tensor, ignore_lookup_error: bool) -> None:
    op = "DestroyResourceOp"
    _eager(op)
    h = resource_handle.handle_in(resource)
    if h.var is not None:   # (an eager variable's anonymous handle: TF 2.21 keeps the variable, observed)
        return None
    text = resource_manager.destroy_missing_text(h.container, h.name)
    if not resource_manager.destroy(h.container, h.name) and not ignore_lookup_error:
        raise kernel_error(op, text, errors.NotFoundError, True)
    return None


def _index_text(pos: tuple) -> str:
    return ",".join(str(int(i)) for i in pos)


def _check_read_dtype(op: str, var: Any, dtype: dtypes.DType, name_tail: bool = False) -> None:
    """The read kernels' refusal of a variable of another dtype than the op's `dtype` attr."""
    if _dtype(var) != dtype:
        raise kernel_error(op, f"Trying to read variable with wrong dtype. Expected {_args.tf_name(dtype)} got "
                               f"{_args.tf_name(_dtype(var))}", name_tail=name_tail)


def _resource_gather(resource: Tensor, indices: Tensor, batch_dims: int, validate_indices: bool,
                     dtype: dtypes.DType) -> Tensor:
    op = "ResourceGather"
    _eager(op)
    var = resolve(op, resource)
    _check_read_dtype(op, var, dtype)
    params = var._read_array()
    idx = dispatch.raw(indices)
    if params.ndim < 1:
        raise kernel_error(op, "params must be at least 1 dimensional")
    if batch_dims:
        from simdist.runtime.ops import array
        try:
            out = array.gather(Tensor(params, dtype), indices, axis=batch_dims, batch_dims=batch_dims)
        except errors.InvalidArgumentError as e:
            raise kernel_error(op, e.message.split(" [Op:")[0]) from None
        return out
    n = params.shape[0]
    bad = (idx < 0) | (idx >= n)
    if bad.any():
        pos = np.unravel_index(int(np.argmax(bad)), idx.shape) if idx.ndim else ()
        raise kernel_error(op, f"indices[{_index_text(pos)}] = {int(idx[bad].flat[0])} is not in [0, {n})")
    t = _value_tensor(var, np.take(params, idx, axis=0))
    return read_watched(var, t, indices)


def _resource_gather_nd(resource: Tensor, indices: Tensor, dtype: dtypes.DType) -> Tensor:
    op = "ResourceGatherNd"
    _eager(op)
    var = resolve(op, resource)
    _check_read_dtype(op, var, dtype)
    params = var._read_array()
    idx = dispatch.raw(indices)
    k = idx.shape[-1] if idx.ndim else 0
    if idx.ndim < 1 or k > params.ndim:
        raise kernel_error(op, f"index innermost dimension length must be <= params rank; saw: {k} vs. {params.ndim}")
    flat = idx.reshape(-1, k)
    bad = (flat < 0) | (flat >= np.asarray(params.shape[:k], dtype=np.int64))
    if bad.any():
        row = int(np.argmax(bad.any(axis=1)))
        raise kernel_error(op, f"indices[{row}] = [{', '.join(str(int(i)) for i in flat[row])}] does not index into "
                               f"param shape {_dims(params.shape)}, node name: {op}")
    out = params[tuple(flat.T)] if k else np.broadcast_to(params, (flat.shape[0],) + params.shape)
    return _value_tensor(var, out.reshape(idx.shape[:-1] + params.shape[k:]))


def _scatter(op: str, kind: str) -> Callable[..., None]:
    """ResourceScatter<Kind>: the dtype first ("DType of scatter resource and updates does not match."), then
    the shapes and indices as variables._check_scatter tells them (the eager ResourceVariable methods' checks)."""
    from simdist.runtime import variables

    def run(resource: Tensor, indices: Tensor, updates: Tensor) -> None:
        _eager(op)
        var = resolve(op, resource)
        if _dtype(var) != updates.dtype:
            raise kernel_error(op, "DType of scatter resource and updates does not match.")
        idx, upd = dispatch.raw(indices), dispatch.raw(updates)
        cur = var._read_array()
        try:
            variables._check_scatter(kind, idx, upd, cur.shape, op)
        except errors.InvalidArgumentError as e:
            partial = variables.partial_scatter(e)   # (the rows the kernel wrote before its index error)
            if partial is not None:
                var._write(kind, partial)
            raise kernel_error(op, e.message.split(" [Op:")[0]) from None
        if kind == "scatter_div" and updates.dtype.is_integer and (upd == 0).any():
            raise kernel_error(op, "updates must not contain 0")
        var._write(kind, (np.array(idx, copy=True), np.array(upd, copy=True)))
        return None
    return run


def _scatter_nd(op: str, kind: str) -> Callable[..., None]:
    """ResourceScatterNd<Kind> (scatter_nd_op.cc): the updates' shape against indices.shape[:-1] +
    params.shape[indices.shape[-1]:], then each index row within the shape."""
    from simdist.runtime import variables

    def run(ref: Tensor, indices: Tensor, updates: Tensor, use_locking: bool, bad_indices_policy: str) -> None:
        _eager(op)
        var = resolve(op, ref)
        if _dtype(var) != updates.dtype:   # (TF 2.21 aborts: a CHECK in DoScatterNd)
            raise kernel_error(op, "DType of scatter resource and updates does not match.")
        idx, upd = dispatch.raw(indices), dispatch.raw(updates)
        cur = var._read_array()
        batch = idx.ndim - 1 if idx.ndim > 1 else 1
        if upd.ndim < batch or any(upd.shape[d] != idx.shape[d] for d in range(min(batch, idx.ndim, upd.ndim))):
            d = next((d for d in range(min(batch, idx.ndim, upd.ndim)) if upd.shape[d] != idx.shape[d]), 0)
            raise kernel_error(op, f"Dimensions [0,{batch}) of indices[shape={_dims(idx.shape)}] = "
                                   f"{idx.shape[d] if idx.ndim > d else 0} must match dimensions [0,{batch}) of "
                                   f"updates[shape={_dims(upd.shape)}] = {upd.shape[d] if upd.ndim > d else 0}")
        if bad_indices_policy == "IGNORE" and idx.ndim >= 1 and 0 < idx.shape[-1] <= cur.ndim:
            # (the rows that index outside the variable are skipped, their updates with them)
            k = idx.shape[-1]
            rows = idx.reshape(-1, k)
            keep = ((rows >= 0) & (rows < np.asarray(cur.shape[:k], dtype=np.int64))).all(axis=1)
            if upd.shape[:idx.ndim - 1] == idx.shape[:-1]:
                upd = upd.reshape((-1,) + upd.shape[idx.ndim - 1:])[keep]
                idx = rows[keep]
        try:
            variables._check_scatter(kind, idx, upd, cur.shape, op)
        except errors.InvalidArgumentError as e:
            partial = variables.partial_scatter(e)   # (the rows the kernel wrote before its index error)
            if partial is not None:
                var._write(kind, partial)
            raise kernel_error(op, e.message.split(" [Op:")[0]) from None
        var._write(kind, (np.array(idx, copy=True), np.array(upd, copy=True)))
        return None
    return run


def _strided_slice_assign(ref: Tensor, begin: Tensor, end: Tensor, strides: Tensor, value: Tensor, begin_mask: int,
                          end_mask: int, ellipsis_mask: int, new_axis_mask: int, shrink_axis_mask: int) -> None:
    """The slice StridedSlice would take of the variable, written with `value` broadcast to its shape (TF 2.21
    broadcasts: [2] into a [1,2] slice, a scalar into any; observed)."""
    op = "ResourceStridedSliceAssign"
    _eager(op)
    var = resolve(op, ref)
    if _dtype(var) != value.dtype:
        raise kernel_error(op, f"l-value dtype {_args.tf_name(_dtype(var))} does not match r-value dtype "
                               f"{_args.tf_name(value.dtype)}")
    cur = var._read_array()
    step = dispatch.raw(strides).reshape(-1)
    if (step == 0).any():
        raise kernel_error(op, f"strides[{int(np.argmax(step == 0))}] must be non-zero")
    from simdist.runtime.ops import raw_ops
    positions = Tensor(np.arange(cur.size, dtype=np.int64).reshape(cur.shape), dtypes.int64)
    try:
        picked = raw_ops.call("StridedSlice", {
            "input": positions, "begin": begin, "end": end, "strides": strides, "begin_mask": begin_mask,
            "end_mask": end_mask, "ellipsis_mask": ellipsis_mask, "new_axis_mask": new_axis_mask,
            "shrink_axis_mask": shrink_axis_mask})
    except (errors.InvalidArgumentError, ValueError) as e:   # (StridedSlice's checks at trace too: the kernel's)
        text = (e.message if isinstance(e, errors.OpError) else str(e)).split(" [Op:")[0]
        text = text.split("}} ", 1)[-1] if text.startswith("{{function_node") else text
        raise kernel_error(op, text) from None
    where = dispatch.raw(picked)
    val = dispatch.raw(value)
    try:
        val = np.broadcast_to(val, where.shape)
    except ValueError:
        raise kernel_error(op, f"Cannot broadcast input shape {_dims(val.shape)} into final shape "
                               f"{_dims(where.shape)}") from None
    out = np.array(cur, copy=True)
    out.reshape(-1)[where.reshape(-1)] = val.reshape(-1)
    var._write("assign", out)
    return None


_SCATTERS = {f"ResourceScatter{k.capitalize()}": f"scatter_{k}" for k in ("add", "sub", "mul", "div", "min", "max",
                                                                         "update")}
_SCATTER_NDS = {f"ResourceScatterNd{k.capitalize()}": f"scatter_nd_{k}" for k in ("add", "sub", "update", "max",
                                                                                 "min")}

NAMES = tuple(sorted(["VarHandleOp", "ReadVariableOp", "AssignVariableOp", "AssignAddVariableOp",
                      "AssignSubVariableOp", "VariableShape", "VarIsInitializedOp", "DestroyResourceOp",
                      "ResourceGather", "ResourceGatherNd", "ResourceStridedSliceAssign", *_SCATTERS, *_SCATTER_NDS]))


def forms() -> dict[str, RawArgs]:
    """The raw form of each op of NAMES (raw_ops.binding)."""
    out = {
        "VarHandleOp": RawArgs(via=_var_handle_op),
        "ReadVariableOp": RawArgs(via=_read_variable_op),
        "AssignVariableOp": RawArgs(via=lambda resource, value, validate_shape, dtype=None:
                                    _assign_variable_op(resource, value, validate_shape)),
        "AssignAddVariableOp": RawArgs(via=lambda resource, value, dtype=None:
                                       _update("AssignAddVariableOp", "assign_add")(resource, value)),
        "AssignSubVariableOp": RawArgs(via=lambda resource, value, dtype=None:
                                       _update("AssignSubVariableOp", "assign_sub")(resource, value)),
        "VariableShape": RawArgs(via=_variable_shape),
        "VarIsInitializedOp": RawArgs(via=_var_is_initialized),
        "DestroyResourceOp": RawArgs(via=_destroy),
        "ResourceGather": RawArgs(via=_resource_gather),
        "ResourceGatherNd": RawArgs(via=_resource_gather_nd),
        "ResourceStridedSliceAssign": RawArgs(via=_strided_slice_assign),
    }
    for name, kind in _SCATTERS.items():
        out[name] = RawArgs(via=_scatter(name, kind))
    for name, kind in _SCATTER_NDS.items():
        out[name] = RawArgs(via=_scatter_nd(name, kind))
    assert tuple(sorted(out)) == NAMES, sorted(out)
    return out
