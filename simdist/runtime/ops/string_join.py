"""tf.strings.join, reduce_join and unsorted_segment_join (TF's StringJoin, ReduceJoin and
UnsortedSegmentJoin kernels): strings concatenated with `separator` between them.

- join: a list (or tuple) of string tensors, each a scalar or of one common shape (no other
  broadcasting: InvalidArgumentError "Input shapes do not match: [2] vs. [3]", the first
  non-scalar shape against the other); an empty list is b"";
- reduce_join: `axis` (an int32 tensor of any shape, flattened; None: every axis from the last to
  the first) reduced; the strings are joined with the first listed axis varying fastest (axis
  [0, 1] of [["a","b"],["c","d"]] is "acbd", None "abcd"); an axis outside [-rank, rank)
  OutOfRangeError "Invalid reduction dimension 2 for input with 2 dimension(s)", an axis listed
  twice InvalidArgumentError "Duplicate reduction dimension -2" (the value as given); an empty
  reduced axis joins nothing (b"");
- unsorted_segment_join: output[i, ...] the strings whose `segment_ids` (int32 or int64, a prefix
  of the input's shape, rank >= 1) is i, in row-major order; segments without one are b""; the kernel
  appends the separator only after a non-empty output so far (leading empty strings add none);
  TF's checks and texts for a scalar `num_segments`, its sign, the ids' rank and shape and range.
Not differentiable (TF: NotDifferentiable StringJoin, ReduceJoin; no gradient for
UnsortedSegmentJoin, so LookupError). Clause ops.strings-join.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import context, dtypes, errors
from simdist.runtime.ops import dispatch, infer_ctx, trace_errors
from simdist.runtime.ops.args import dims, dtype_error
from simdist.runtime.ops.counting import no_tf_gradient
from simdist.runtime.ops.registry import NotDifferentiable, lanes, register
from simdist.runtime.ops.string_args import STRING_COST, as_bytes, string_tensor, want_string
from simdist.runtime.tensor import Tensor, convert_to_tensor

__all__ = ["join", "reduce_join", "unsorted_segment_join"]

_PER_STRING = lanes("joins strings in Python: no stacked form written")


def _join(*xs: np.ndarray, separator: bytes = b"") -> np.ndarray:
    shape: tuple[int, ...] | None = None
    for x in xs:
        if x.ndim:
            if shape is None:
                shape = x.shape
            elif x.shape != shape:
                raise errors.InvalidArgumentError(None, None, f"Input shapes do not match: {dims(shape)} vs. "
                                                  f"{dims(x.shape)} [Op:StringJoin]")
    shape = shape or ()
    out = np.empty(shape, dtype=object)
    res = out.reshape(-1)
    cols = [np.broadcast_to(x, shape).reshape(-1) for x in xs]
    for i in range(res.size):
        res[i] = separator.join(as_bytes(c[i]) for c in cols)
    return out


def _join_rule(dts: Any, attrs: Any) -> dtypes.DType:
    if any(d != dtypes.string for d in dts):
        i = next(k for k, d in enumerate(dts) if d != dtypes.string)
        raise trace_errors.static(dtype_error("StringJoin", i, dtypes.string, dts[i]), TypeError,
                                  f"Tensors in list passed to 'inputs' of 'StringJoin' Op have types "
                                  f"[{', '.join(d.name for d in dts)}] that do not match expected type string.")
    return dtypes.string


def _reduce_join(x: np.ndarray, axis: np.ndarray, keep_dims: bool = False, separator: bytes = b"") -> np.ndarray:
    rank = x.ndim
    listed: list[int] = []
    for a in np.asarray(axis).reshape(-1).tolist():
        if not -rank <= a < rank:
            raise errors.OutOfRangeError(None, None, f"Invalid reduction dimension {a} for input with {rank} "
                                         "dimension(s) [Op:ReduceJoin]")
        if a % rank in listed:
            raise errors.InvalidArgumentError(None, None, f"Duplicate reduction dimension {a} [Op:ReduceJoin]")
        listed.append(a % rank)
    kept = [d for d in range(rank) if d not in listed]
    order = kept + listed[::-1]         # the first listed axis last: it varies fastest
    moved = np.transpose(x, order) if rank else x
    n = int(np.prod([x.shape[d] for d in listed], dtype=np.int64))
    rows = moved.reshape(-1, n) if n else np.empty((int(np.prod([x.shape[d] for d in kept])), 0), object)
    out = np.empty(rows.shape[0], dtype=object)
    for i in range(rows.shape[0]):
        out[i] = separator.join(as_bytes(v) for v in rows[i])
    shape = [1 if d in listed else x.shape[d] for d in range(rank)] if keep_dims else [x.shape[d] for d in kept]
    return out.reshape(shape)


def _reduce_join_rule(dts: Any, attrs: Any) -> dtypes.DType:
    want_string("ReduceJoin", dts, 0, "inputs")
    if dts[1] != dtypes.int32:
        raise trace_errors.static(dtype_error("ReduceJoin", 1, dtypes.int32, dts[1]), TypeError,
                                  f"Input 'reduction_indices' of 'ReduceJoin' Op has type {dts[1].name} that does "
                                  "not match expected type of int32.")
    return dtypes.string


def _segment_join(x: np.ndarray, ids: np.ndarray, num: np.ndarray, separator: bytes = b"") -> np.ndarray:
    if num.ndim != 0:
        raise errors.InvalidArgumentError(None, None, "Number of segments must be a scalar [Op:UnsortedSegmentJoin]")
    n = int(num)
    if n < 0:   # (before the segment ids' rank and dimension checks: TF 2.21, observed; fz45, fz20 seed 4520261207 #99)
        raise errors.InvalidArgumentError(None, None, f"Number of segments must be non-negative but got {n} "
                                          "[Op:UnsortedSegmentJoin]")
    if ids.ndim == 0:
        raise errors.InvalidArgumentError(None, None, "Segment_id cannot have rank 0 [Op:UnsortedSegmentJoin]")
    if ids.ndim > x.ndim:
        raise errors.OutOfRangeError(None, None, f"Invalid segment_id rank {ids.ndim} for input with {x.ndim} "
                                     "dimension(s) [Op:UnsortedSegmentJoin]")
    for r in range(ids.ndim):
        if ids.shape[r] != x.shape[r]:
            raise errors.InvalidArgumentError(None, None, f"Segment dimension is {ids.shape[r]} while input dimension "
                                              f"is {x.ndim} in rank {r} [Op:UnsortedSegmentJoin]")  # (the rank: TF's text)
    # (the kernel allocates its output before it reads the ids: num_segments 2**31 - 1 of a [4, 3] input is
    # ResourceExhaustedError at once on TF 2.21, where simdist built 6e9 strings; fz53, fz20 seed 5120261205 #18)
    from simdist.runtime.ops import alloc
    alloc.check_output("UnsortedSegmentJoin", (n,) + tuple(x.shape[ids.ndim:]), dtypes.string)
    flat_ids = ids.reshape(-1).tolist()
    if any(not 0 <= i < n for i in flat_ids):
        raise errors.InvalidArgumentError(None, None, "segment_ids are not allowed to exceed num_segments or to have "
                                          "negative values. [Op:UnsortedSegmentJoin]")
    inner = x.shape[ids.ndim:]
    width = int(np.prod(inner, dtype=np.int64))
    rows = x.reshape(len(flat_ids), width)
    parts: list[list[list[bytes]]] = [[[] for _ in range(width)] for _ in range(n)]
    for row, seg in zip(rows, flat_ids):
        for k in range(width):
            parts[seg][k].append(as_bytes(row[k]))
    out = np.empty((n, width), dtype=object)
    for s in range(n):
        for k in range(width):
            out[s, k] = _append_joined(parts[s][k], separator)
    return out.reshape((n,) + tuple(inner))


def _append_joined(items: list[bytes], separator: bytes) -> bytes:
    """UnsortedSegmentJoin's accumulation: the kernel appends the separator only when the output so far is not
    empty, so leading empty strings add none (['', 'x'] is b"x", ['x', ''] b"x" + separator)."""
    acc = b""
    for item in items:
        acc = acc + separator + item if acc else item
    return acc


def _segment_rule(dts: Any, attrs: Any) -> dtypes.DType:
    want_string("UnsortedSegmentJoin", dts, 0, "inputs")
    for i, attr in ((1, "Tindices"), (2, "Tnumsegments")):
        if dts[i] not in (dtypes.int32, dtypes.int64):
            raise trace_errors.attr_not_allowed("UnsortedSegmentJoin", attr, dts[i], "int32, int64")
    return dtypes.string


STRING_JOIN = register("StringJoin", _join, _join_rule, kind="elementwise", fusion=_PER_STRING, **STRING_COST)
REDUCE_JOIN = register("ReduceJoin", _reduce_join, _reduce_join_rule, kind="reduction", fusion=_PER_STRING,
                       **STRING_COST)
# (in a graph ReduceJoinShape checks each known reduction index against the input's known rank: ValueError at
# trace where the kernel's OutOfRangeError is eager's; fz45b, fz44_gen seed 44005)
REDUCE_JOIN.trace_shape = infer_ctx.trace_shape("ReduceJoin", reads_values=True)
SEGMENT_JOIN = register("UnsortedSegmentJoin", _segment_join, _segment_rule, kind="reduction", fusion=_PER_STRING,
                        **STRING_COST)
NotDifferentiable("StringJoin")
NotDifferentiable("ReduceJoin")
no_tf_gradient("UnsortedSegmentJoin")


def _separator(separator: Any) -> bytes:
    if isinstance(separator, bytes):
        return separator
    if not isinstance(separator, str):
        raise TypeError(f"Expected string for argument 'separator' not {separator!r}.")
    return separator.encode("utf-8")


def join(inputs: Any, separator: Any = "", name: str | None = None) -> Tensor:
    """`tf.strings.join`: elementwise concatenation of a list of string tensors (scalars broadcast)."""
    if not isinstance(inputs, (list, tuple)):
        raise TypeError(f"Expected list for 'inputs' argument to 'string_join' Op, not {inputs!r}.")
    sep = _separator(separator)
    from simdist.runtime.ops import attr_rules
    if not context.in_function() and not attr_rules.list_items_fast(inputs):
        # (an item CheckOneInput refuses, a Python string or a NumPy bool, sends the call to the
        # eager fallback, which converts each item in order with dtype string: a tensor of another
        # dtype is ValueError "Tensor conversion requested dtype string for Tensor with dtype int32"
        # where the fast path leaves it to the kernel; fz30b, fz14 seed 1420303007 #95)
        for x in inputs:
            if isinstance(x, Tensor) or hasattr(x, "_as_tensor"):
                convert_to_tensor(x, dtype=dtypes.string)
            else:
                string_tensor(x, "StringJoin", "inputs")
    return dispatch.execute(STRING_JOIN, tuple(string_tensor(x, "StringJoin", "inputs") for x in inputs), {"separator": sep})


def reduce_join(inputs: Any, axis: Any = None, keepdims: bool = False, separator: Any = "",
                name: str | None = None) -> Tensor:
    """`tf.strings.reduce_join`: the strings joined along `axis` (None: all, a scalar)."""
    from simdist.runtime.ops import attr_rules
    # (reduce_join_v2 converts the inputs first, then the generated op's make_bool before its
    # fallback's conversion; seed 1420261219 #466, seed 1420262201 #192)
    x = inputs if isinstance(inputs, Tensor) else convert_to_tensor(inputs)
    if keepdims is not None:
        attr_rules.make_bool(keepdims, "keep_dims")
    fast = axis is None or isinstance(axis, (Tensor, np.ndarray, int, float)) or \
        (hasattr(axis, "_as_tensor") and hasattr(axis, "dtype"))
    if not fast and x.dtype != dtypes.string and not context.in_function():
        # (an axis that is no fast-path input, a NumPy scalar or a list, sends the call to
        # gen_string_ops' eager fallback, which converts the inputs with dtype string: a tensor of
        # another dtype is ValueError, where the fast path leaves it to the kernel; fz14 seed
        # 1420261218 #46)
        raise ValueError(f"Tensor conversion requested dtype string for Tensor with dtype {x.dtype.name}: {x!r}")
    if axis is None:
        axis = np.arange(x.shape.rank - 1, -1, -1, dtype=np.int32)
    ax = axis if isinstance(axis, Tensor) else convert_to_tensor(axis, dtype=dtypes.int32)
    sep = _separator(separator)
    return dispatch.execute(REDUCE_JOIN, (x, ax), {"keep_dims": bool(keepdims), "separator": sep})


def unsorted_segment_join(inputs: Any, segment_ids: Any, num_segments: Any, separator: Any = "",
                          name: str | None = None) -> Tensor:
    """`tf.strings.unsorted_segment_join`: the strings of each segment joined, row-major."""
    from simdist.runtime.ops import attr_rules
    if isinstance(inputs, Tensor) and inputs.dtype != dtypes.string and not context.in_function() and \
            not attr_rules.fast_path_takes("UnsortedSegmentJoin", (inputs, segment_ids, num_segments)):
        # (a list segment_ids or num_segments sends the call to the eager fallback, which converts inputs with
        # dtype string: a number tensor is ValueError, where the fast path leaves it to the kernel; fz41)
        raise ValueError(f"Tensor conversion requested dtype string for Tensor with dtype {inputs.dtype.name}: "
                         f"{inputs!r}")
    x = string_tensor(inputs, "UnsortedSegmentJoin", "inputs")
    ids = segment_ids if isinstance(segment_ids, Tensor) else convert_to_tensor(segment_ids)
    num = num_segments if isinstance(num_segments, Tensor) else convert_to_tensor(num_segments)
    sep = _separator(separator)
    # (its shape function at trace, MergePrefix(inputs, segment_ids) "Dimensions must be equal, but are 3 and 1", a
    # known num_segments not negative, before the kernel, and before a Cast of number tensors to string that fails
    # only when the graph runs; fz41, fz14 seed 1420413001 #25)
    if context.in_function():   # (op_def_library's input types first: "Input 'inputs' of 'UnsortedSegmentJoin' Op has
        want_string("UnsortedSegmentJoin", [x.dtype], 0, "inputs")   # type float32 that does not match ...")
    infer_ctx.check("UnsortedSegmentJoin", {"inputs": x, "segment_ids": ids, "num_segments": num},
                    {"separator": sep})
    return dispatch.execute(SEGMENT_JOIN, (x, ids, num), {"separator": sep})
