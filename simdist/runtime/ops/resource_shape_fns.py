"""The shape functions of the raw ops over resource handles (clauses ops.resource-handles, ops.training-kernels):
what TF 2.21 refuses while a tf.function's graph is built, from the handle's data (the dtype and shape the handle
carries: a variable's, or VarHandleOp's attrs) and the other inputs' static shapes
(tensorflow/core/ops/resource_variable_ops.cc, ops/training_ops.cc, ops/state_ops.cc; texts observed on TF 2.21, a
ValueError "<text> for '{{node Op}}' with input shapes: ..."):

- ReadVariableOp, AssignVariableOp, AssignAdd/SubVariableOp, ResourceGather(Nd) and ResourceScatter*: the handle's
  dtype against the op's ("Trying to read variable with wrong dtype. Expected float got int32": the handle's first);
- AssignVariableOp (whatever validate_shape) and AssignAdd/SubVariableOp: the value's shape merged with the handle's
  ("Dimension 0 in both shapes must be equal, but are 3 and 2. Shapes are [3] and [2].", "Shapes must be equal
  rank, but are 1 and 2"), which the eager AssignVariableOp does not check;
- ResourceGather: the handle's rank at least batch_dims + 1; ResourceScatter*: updates of known non-zero rank merged
  with indices.shape + the handle's shape[1:]; ResourceScatterNd*: "Dimensions [0,1) of indices[shape=[1,1]] = [1]
  must match dimensions [0,1) of updates[shape=[3]] = [3]: <the merge's text>";
- the ResourceApply* ops: input by input in the OpDef's order, each further handle's shape and the gradient's merged
  with var's, each scalar input of rank 0 ("Shape must be rank 0 but is rank 1"); unlike the kernels, the graph
  checks Adadelta's accum_update and AdamWithAmsgrad's vhat too.

ResourceStridedSliceAssign's, VariableShape's and the others' errors come from their kernels when the graph runs.
"""

from __future__ import annotations

from typing import Any

from simdist.runtime import errors, resource_handle
from simdist.runtime.ops import args as _args, static_shapes, trace_errors

__all__ = ["check"]

Shape = "list[int | None] | None"


def _dims(s: Any) -> str:
    return trace_errors._dims(s)


def _refuse(op: str, text: str, shapes: list) -> Exception:
    return trace_errors.mark_shape(errors.InvalidArgumentError(None, None, text), text, op, shapes)


def _shape(t: Any) -> list | None:
    s = static_shapes.known_shape(t)
    return None if s is None else list(s)


def _dtype_check(op: str, h: resource_handle.ResourceHandle, want: Any, shapes: list) -> None:
    if h.dtype != want:
        raise _refuse(op, f"Trying to read variable with wrong dtype. Expected {_args.tf_name(h.dtype)} got "
                          f"{_args.tf_name(want)}", shapes)


_READS = ("ReadVariableOp", "ResourceGather", "ResourceGatherNd")
_ASSIGNS = ("AssignVariableOp", "AssignAddVariableOp", "AssignSubVariableOp")


def check(op: str, spec_args: list[dict[str, Any]], every: dict[str, Any]) -> None:
    """Raise the shape function's (marked) error of raw op `op` on `every` (its OpDef arguments by name), inside a
    tf.function; `spec_args`: the recorded OpDef arguments in order."""
    inputs = [a["input"] for a in spec_args if "input" in a]
    shapes = [[] if getattr(every[n], "dtype", None) is not None and every[n].dtype.name == "resource"
              else _shape(every[n]) for n in inputs]
    handles = {n: resource_handle.handle_in(every[n]) for n in inputs
               if getattr(every[n], "dtype", None) is not None and every[n].dtype.name == "resource"}
    if not handles:
        return
    first = handles[inputs[0]] if inputs[0] in handles else next(iter(handles.values()))
    if op in _READS:
        _dtype_check(op, first, every["dtype"], shapes)
        if op == "ResourceGather" and first.shape is not None and len(first.shape) < every["batch_dims"] + 1:
            raise _refuse(op, f"Shape must be at least rank {every['batch_dims'] + 1} but is rank {len(first.shape)}",
                          shapes)
        return
    if op in _ASSIGNS:
        _dtype_check(op, first, every["value"].dtype, shapes)
        text = trace_errors.merge_refusal(first.shape, _shape(every["value"]))
        if text is not None:
            raise _refuse(op, text, shapes)
        return
    if op.startswith("ResourceScatterNd"):
        _scatter_nd(op, first, every, shapes)
        return
    if op.startswith("ResourceScatter"):
        _dtype_check(op, first, every["updates"].dtype, shapes)
        upd, idx = _shape(every["updates"]), _shape(every["indices"])
        if upd is not None and len(upd) != 0 and idx is not None and first.shape is not None and first.shape:
            text = trace_errors.merge_refusal(upd, idx + list(first.shape[1:]))
            if text is not None:
                raise _refuse(op, text, shapes)
        return
    if op.startswith("ResourceApply"):
        _training(op, spec_args, every, handles, shapes)


def _scatter_nd(op: str, h: resource_handle.ResourceHandle, every: dict[str, Any], shapes: list) -> None:
    """ScatterNdUpdateShape (state_ops.cc): the updates' leading dimensions those of indices, its trailing ones the
    handle's past indices.shape[-1]."""
    idx, upd, ref = _shape(every["indices"]), _shape(every["updates"]), h.shape
    if idx is None or upd is None or ref is None or not idx or idx[-1] is None:
        return
    batch = len(idx) - 1
    lead_i, lead_u = idx[:batch], upd[:batch]
    text = trace_errors.merge_refusal(lead_i, lead_u) if len(upd) >= batch else None
    if text is not None:
        raise _refuse(op, f"Dimensions [0,{batch}) of indices[shape={_dims(idx)}] = {_dims(lead_i)} must match "
                          f"dimensions [0,{batch}) of updates[shape={_dims(upd)}] = {_dims(lead_u)}: {text}", shapes)
    k = idx[-1]
    tail_r, tail_u = list(ref[k:]), upd[batch:]
    text = trace_errors.merge_refusal(tail_r, tail_u)
    if text is not None:
        raise _refuse(op, f"Dimensions [{k},{len(ref)}) of input[shape={_dims(ref)}] = {_dims(tail_r)} must match "
                          f"dimensions [{batch},{len(upd)}) of updates[shape={_dims(upd)}] = {_dims(tail_u)}: {text}",
                      shapes)


def _training(op: str, spec_args: list[dict[str, Any]], every: dict[str, Any], handles: dict, shapes: list) -> None:
    """The ApplyX shape functions: var's handle shape s, then each input in order: a handle merged into s, the
    gradient merged into s, any other a scalar."""
    inputs = [a["input"] for a in spec_args if "input" in a]
    s = handles[inputs[0]].shape
    for n in inputs[1:]:
        if n in handles:
            text = trace_errors.merge_refusal(s, handles[n].shape)
        elif n in ("grad", "delta"):
            text = trace_errors.merge_refusal(s, _shape(every[n]))
        else:
            got = _shape(every[n])
            text = None if got is None or len(got) == 0 else f"Shape must be rank 0 but is rank {len(got)}"
        if text is not None:
            raise _refuse(op, text, shapes)
