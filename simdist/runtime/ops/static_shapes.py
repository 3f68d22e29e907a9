"""Dimensions a tf.function's graph does not know while it is built (clause function.trace-time-errors).

TF runs each op's shape function when it adds the op to the graph; a dimension that depends on
input VALUES is unknown there (`?`): the first dimension of a sorted segment reduction's output
(segment_sum & co.), of boolean_mask's and unique's, the last of sequence_mask's without maxlen.
A shape function cannot find a mistake in an unknown dimension, so the broadcast of such a
result against a tensor it does not fit fails only when the graph runs (InvalidArgumentError
"Incompatible shapes"), not at trace time (ValueError "Dimensions must be equal").

simdist runs a traced function's Python eagerly with concrete values, so it marks the unknown
dimensions of the tensors these ops return while a tf.function traces, and carries them through
elementwise ops (TF's broadcasting shape function: an unknown dimension against a known 1 stays
unknown, against a known d > 1 it is d) and reductions (the kept dimensions). Other ops' outputs count as fully known (a shape
function that keeps the unknown dimension elsewhere is not modelled). Marks live in a dict keyed
by the tensor's id beside a weak reference; a dead tensor's entry is dropped by the reference's
callback and never matches another tensor (the identity is checked), so the collector's timing
does not change results.
"""

from __future__ import annotations

import functools
import weakref
from typing import Any, Sequence

import numpy as np

from simdist.runtime import context
from simdist.runtime.ops import static_shapes_linalg as _linalg
from simdist.runtime.ops.registry import BROADCAST, SAME_SHAPES
from simdist.runtime.tensor import STATIC_OVERRIDE, STATIC_UNKNOWN, Tensor, _Traced

__all__ = ["UNKNOWN", "mark", "standin", "segment_rows", "unknown_batch", "mark_dim", "mark_rank_unknown", "unknown", "rank_unknown", "known_dim", "argument", "carry", "known_shape", "static_shape", "merge", "unseen",
           "declare", "declared", "refine",
           "propagate",
           "broadcast_fails", "propagate_multi", "also_unknown", "GRAPH_ONLY", "graph_only_batch", "graph_known_shape",
           "propagate_graph_only", "propagate_multi_graph_only", "mark_first_pass_rank_unknown",
           "first_pass_rank_unknown"]

# id(tensor) -> (weak reference to it, one flag per dimension: True where the graph does not know
# it, and whether the graph does not know its rank either: an input_signature's TensorSpec(None))
# (user code reading `t.shape` inside the function sees them: tensor.py `_graph_shape`)
UNKNOWN: dict[int, tuple[Any, tuple[bool, ...], bool]] = STATIC_UNKNOWN


def _drop(key: int, ref: Any) -> None:
    for table in (STATIC_UNKNOWN, GRAPH_ONLY):   # (a mark made in either table: `_graph_view`)
        entry = table.get(key)
        if entry is not None and entry[0] is ref:
            del table[key]


# id(tensor) -> an entry as UNKNOWN's: dimensions the graph (so Grappler's shape inference) does not know but
# simdist's Keras steps read as the concrete batch's (clause keras.fit.traced-shapes, "kopen58"): Keras 3.15's
# train/test step reads its batches from the dataset iterator (`iterator.get_next()` inside the tf.function), batch
# dimension None when the last batch is partial, and Grappler's rewrites that ask for fully known shapes
# (MinimizeBroadcasts' ShapeIsSymbolicallyDefined) leave the step's products as written; simdist's own Keras
# steps keep the concrete shapes for their shape queries (trainer.py), so these marks live apart, carried by the
# same shape functions (`propagate_graph_only`) and read by grappler.py only (`graph_known_shape`).
GRAPH_ONLY: dict[int, tuple[Any, tuple[bool, ...], bool]] = {}


class _Chain:
    """UNKNOWN as Grappler sees it: GRAPH_ONLY's marks over STATIC_UNKNOWN's; marks made go to GRAPH_ONLY."""

    def get(self, key: int, default: Any = None) -> Any:
        entry = GRAPH_ONLY.get(key)
        return STATIC_UNKNOWN.get(key, default) if entry is None else entry

    def __getitem__(self, key: int) -> Any:
        entry = self.get(key)
        if entry is None:
            raise KeyError(key)
        return entry

    def __setitem__(self, key: int, value: Any) -> None:
        GRAPH_ONLY[key] = value

    def __delitem__(self, key: int) -> None:
        GRAPH_ONLY.pop(key, None)

    def __contains__(self, key: int) -> bool:
        return key in GRAPH_ONLY or key in STATIC_UNKNOWN

    def __bool__(self) -> bool:
        return bool(GRAPH_ONLY) or bool(STATIC_UNKNOWN)


_CHAIN = _Chain()


class _graph_view:
    """This module's functions reading and marking through `_Chain` (Grappler's view) while it is entered."""

    def __enter__(self) -> None:
        global UNKNOWN
        self.before = UNKNOWN
        UNKNOWN = _CHAIN   # type: ignore[assignment]

    def __exit__(self, *exc: Any) -> None:
        global UNKNOWN
        UNKNOWN = self.before


def _graph_marked(tensors: Sequence[Any]) -> bool:
    return any(isinstance(t, Tensor) and id(t) in GRAPH_ONLY for t in tensors)


def graph_only_batch(t: Any) -> Any:
    """t (any value) with its first dimension unknown to Grappler only (GRAPH_ONLY), when t is a tensor of rank >= 1
    the graph being built does not already mark; anything else as it is."""
    if not isinstance(t, Tensor) or t.ndim == 0 or unknown(t) is not None:
        return t
    with _graph_view():
        return mark_dim(t, 0)


def propagate_graph_only(op: Any, tensors: Sequence[Tensor], out: Tensor, attrs: dict | None = None) -> Tensor:
    """out with the GRAPH_ONLY marks the op's shape function leaves (`propagate` in Grappler's view), when an input
    holds one."""
    if not _graph_marked(tensors):
        return out
    with _graph_view():
        return propagate(op, tensors, out, attrs)


def propagate_multi_graph_only(op: Any, tensors: Sequence[Tensor], outs: tuple, attrs: dict | None = None) -> tuple:
    """`propagate_multi` in Grappler's view, when an input holds a GRAPH_ONLY mark."""
    if not _graph_marked(tensors):
        return outs
    with _graph_view():
        return propagate_multi(op, tensors, outs, attrs)


def graph_known_shape(t: Any) -> list[int | None] | None:
    """t's shape as Grappler knows it: `known_shape` with the GRAPH_ONLY marks too."""
    if not GRAPH_ONLY:
        return known_shape(t)
    with _graph_view():
        return known_shape(t)


# id(tensor) -> (weak reference to it, its shape as its op's shape function gives it: None where the
# graph does not know a dimension): outputs whose static shape follows from the op's attributes,
# not from input values (ParseExampleV2's dense outputs). A tf.data function probed on a real
# element (runtime/data/map_filter.py: its zero-filled probes raised) takes these shapes for its
# element spec instead of leaving every dimension unknown.
DECLARED: dict[int, tuple[Any, tuple]] = {}


def _drop_declared(key: int, ref: Any) -> None:
    entry = DECLARED.get(key)
    if entry is not None and entry[0] is ref:
        del DECLARED[key]


def declare(t: Tensor, shape: Sequence[int | None]) -> Tensor:
    """t, with `shape` (None: unknown) recorded as its op's shape-function shape; the dimensions
    None are also marked unknown to a tf.function graph being built (`mark`)."""
    key = id(t)
    DECLARED[key] = (weakref.ref(t, functools.partial(_drop_declared, key)), tuple(shape))
    return mark(t, [d is None for d in shape])


def refine(t: Tensor, dims: Sequence[int | None]) -> Tensor:
    """t after `t.set_shape(dims)` in a traced function (its rank known and compatible): the dimensions `dims`
    knows become known to the graph, the others keep what the graph knew; the shape is t's declared shape
    (`declared`: a tf.data function probed on a real element keeps it for its element spec, as TF's
    element_spec is the static shape set_shape leaves). A dimension `dims` leaves None keeps the one t's shape
    already declared, or the graph knew when an op marked t's other dimensions unknown; else it stays unknown there
    (an unmarked shape may depend on values the graph does not know: see map_filter._unknown_dims_spec)."""
    before = declared(t) or [None] * len(dims)
    entry = UNKNOWN.get(id(t))
    marked = entry is not None and entry[0]() is t
    if marked:
        flags = tuple(f and d is None for f, d in zip(entry[1], dims))
        before = [b if b is not None or f else int(n) for b, f, n in zip(before, entry[1], t._v.shape)]
        if any(flags):
            UNKNOWN[id(t)] = (entry[0], flags, False)
        else:
            del UNKNOWN[id(t)]
    key = id(t)
    DECLARED[key] = (weakref.ref(t, functools.partial(_drop_declared, key)),
                     tuple(d if d is not None else b for d, b in zip(dims, before)))
    return t


def declared(t: Any) -> list[int | None] | None:
    """t's declared shape-function shape, or None if its op declared none."""
    entry = DECLARED.get(id(t))
    if entry is None or entry[0]() is not t:
        return None
    return list(entry[1])


def mark(t: Tensor, flags: Sequence[bool]) -> Tensor:
    """t, with the dimensions flagged True unknown to the graph being built (a tf.function's, or
    the recorded graph of a tf.data function, whose Shape ops then stay computed on each run:
    graph/recording.py); nothing outside them, or when no dimension is unknown."""
    flags = tuple(bool(f) for f in flags)
    if not any(flags) or not (context.in_function() or type(t) is _Traced) or len(flags) != t.ndim:
        return t   # (a _Traced tensor: one a recorded graph holds, a tf.data function's too)
    key = id(t)
    UNKNOWN[key] = (weakref.ref(t, functools.partial(_drop, key)), flags, False)
    return t


def argument(t: Any, shape: Any) -> Any:
    """A tf.function argument bound to a TensorSpec of `shape` (a TensorShape): a fresh alias of
    tensor t whose dimensions the spec leaves unknown (all of them, and the rank, for an unknown
    rank) are marked; t itself when the spec knows every dimension, or t is no tensor. (An alias,
    so that the caller's tensor is never marked.)"""
    if type(t) is not Tensor:
        return t
    if shape.rank is None:
        flags, no_rank = (True,) * t.ndim, True
    else:
        flags, no_rank = tuple(d is None for d in shape.as_list()), False
        if not any(flags) or len(flags) != t.ndim:
            return t
    alias = Tensor(t._v, t.dtype, t._device)
    alias._sub = t._sub
    key = id(alias)
    UNKNOWN[key] = (weakref.ref(alias, functools.partial(_drop, key)), flags, no_rank)
    _tape_alias(t, alias)
    return alias


def _tape_alias(t: Tensor, alias: Tensor) -> None:
    """The alias is t to every tape that watches t (an Identity: the gradient passes through unchanged), so a
    gradient through a tf.function whose spec leaves dimensions unknown reaches the caller's tensor (fsweep66: a
    watched input of a ConcreteFunction traced on TensorSpec([None, 2]), or of an input_signature function, got
    None)."""
    from simdist.runtime import execution
    for tape in execution.current().tapes:
        watched = getattr(tape, "tensor_tape", None)
        if watched is not None and id(t) in watched:
            tape.record("Identity", (t,), (id(t),), (alias,), lambda g: [g])


# id(tensor) -> weak reference to it: outputs whose rank Grappler's first shape inference (before constant folding)
# does not know although the traced Python knows it: math_ops._unsorted_segment_N's Reshape to a shape computed by
# ops (concat of num_segments and ones([rank(data) - rank(segment_ids)])), which TF's C++ shape refiner evaluates
# while the graph is built but Grappler learns only once constant folding has folded it. Read by grappler.py's
# `_swish_fusion` alone (clause function.onednn-swish, fz59); no other rule or shape query sees these marks.
FIRST_PASS: dict[int, Any] = {}


def _drop_first_pass(key: int, ref: Any) -> None:
    if FIRST_PASS.get(key) is ref:
        del FIRST_PASS[key]


def mark_first_pass_rank_unknown(t: Tensor) -> Tensor:
    """t, marked as of a rank Grappler's first pass does not know (`FIRST_PASS`), inside a traced function."""
    if context.in_function():
        key = id(t)
        FIRST_PASS[key] = weakref.ref(t, functools.partial(_drop_first_pass, key))
    return t


def first_pass_rank_unknown(t: Any) -> bool:
    """Whether t is marked by `mark_first_pass_rank_unknown`."""
    ref = FIRST_PASS.get(id(t))
    return ref is not None and ref() is t


def mark_rank_unknown(t: Tensor) -> Tensor:
    """t, with its rank (and so every dimension) unknown to the graph being built: what shape
    functions give for an input of unknown rank (StridedSlice, the elementwise ops)."""
    if not context.in_function():
        return t
    key = id(t)
    UNKNOWN[key] = (weakref.ref(t, functools.partial(_drop, key)), (True,) * _ndim(t), True)
    return t


def forget(t: Tensor) -> Tensor:
    """t, with its shape known in full to the graph being built (TF's `set_shape` of a fully reduced output: math_ops
    `_may_reduce_to_scalar`, an input of unknown rank reduced over every axis is a scalar)."""
    entry = UNKNOWN.get(id(t))
    if entry is not None and entry[0]() is t:
        del UNKNOWN[id(t)]
    return t


def _ndim(t: Tensor) -> int:
    """t's rank, a pruned op's stand-in's read past its poisoned value (runtime/ops/pruning.py: a retry of
    a tf.function call marks the stand-in of GatherNd's refusal of unknown rank; fz48, fz14 seed 1420483001 #47's
    class)."""
    from simdist.runtime.ops import pruning
    if pruning.is_standin(t):
        return len(getattr(pruning.standin_array(t), "shape", ()))
    return t.ndim


def unknown_batch(t: Any) -> Any:
    """t (any value) with its first dimension unknown to the graph being built, when t is a tensor of rank
    >= 1 (a dataset element's batch dimension inside a traced Keras step: simdist.keras.traced); anything
    else as it is."""
    if not isinstance(t, Tensor) or t.ndim == 0:
        return t
    return mark_dim(t, 0)


def mark_dim(t: Tensor, axis: int) -> Tensor:
    """t with dimension `axis` (negative counts from the end) unknown to the graph."""
    if t.ndim == 0:
        return t
    axis %= t.ndim
    return mark(t, [d == axis for d in range(t.ndim)])


def segment_rows(out: Tensor, data: Tensor) -> Tensor:
    """A sorted segment reduction's output (SegmentReductionShapeFn): its rows unknown (the last id + 1), data's
    other dimensions as the graph knows them; an unknown rank for data of unknown rank (ssweep64)."""
    if rank_unknown(data):
        return mark_rank_unknown(out)
    flags = _flags(data)
    return mark(out, (True,) + flags[1:]) if len(flags) == out.ndim else mark_dim(out, 0)


def also_unknown(t: Any, axis: int) -> Any:
    """t (any value) with dimension `axis` unknown to the graph being built besides those it already is (a tensor
    of rank above `axis` only): map_fn's and scan's results, whose first dimension is elems' static one."""
    if not isinstance(t, Tensor) or t.ndim <= axis or rank_unknown(t):
        return t
    flags = list(unknown(t) or (False,) * t.ndim)
    flags[axis] = True
    return mark(t, flags)


def unknown(t: Any) -> tuple[bool, ...] | None:
    """t's unknown-dimension flags, or None when every dimension is known."""
    entry = UNKNOWN.get(id(t))
    if entry is None or entry[0]() is not t:
        return None
    return entry[1]


def carry(src: Any, dst: Any) -> None:
    """dst (a traced twin of src) with src's unknown dimensions and rank."""
    entry = UNKNOWN.get(id(src))
    if entry is None or entry[0]() is not src:
        return
    key = id(dst)
    UNKNOWN[key] = (weakref.ref(dst, functools.partial(_drop, key)), entry[1], entry[2])


def rank_unknown(t: Any) -> bool:
    """Whether the graph does not know t's rank (an argument of an unknown-rank TensorSpec)."""
    entry = UNKNOWN.get(id(t))
    return entry is not None and entry[0]() is t and entry[2]


def known_dim(t: Any, axis: int) -> int | None:
    """Dimension `axis` of t (negative counts from the end) as the graph knows it: None when it
    is unknown (or the rank is)."""
    flags = unknown(t)
    if flags is None:
        return int(t.shape[axis])
    return None if flags[axis] or rank_unknown(t) else int(t.shape[axis])


# id(t) -> (weakref to t, the static shape the graph gives t though t's value has another shape): a while_v2 output
# whose loop variable entered against its shape invariant (runtime/ops/loops.py `_as_invariants`)
CONTRADICTED: dict[int, tuple[Any, Any]] = STATIC_OVERRIDE


def _drop_contradicted(key: int, ref: Any) -> None:
    entry = CONTRADICTED.get(key)
    if entry is not None and entry[0] is ref:
        del CONTRADICTED[key]


def contradict(t: Tensor, shape: Any) -> Tensor:
    """t, whose graph shape is `shape` (a TensorShape) whatever its value's shape: TF's While op output takes its
    shape invariant as its static shape, and the loop variables entering it are not checked against it (while_v2),
    so a [1] value may have the static shape [2] (tsweep65's while_bad_invariant; clause
    function.traced-while-loop)."""
    key = id(t)
    CONTRADICTED[key] = (weakref.ref(t, functools.partial(_drop_contradicted, key)), shape)
    entry = UNKNOWN.get(key)
    if entry is None or entry[0]() is not t:   # (so that user code's `t.shape` reads the graph's: tensor.py)
        UNKNOWN[key] = (weakref.ref(t, functools.partial(_drop, key)), (False,) * _ndim(t), False)
    return t


def known_shape(t: Any) -> list[int | None] | None:
    """t's shape as the graph knows it: None for an unknown dimension, None for an unknown rank."""
    entry = CONTRADICTED.get(id(t)) if CONTRADICTED else None
    if entry is not None and entry[0]() is t:
        return None if entry[1].rank is None else entry[1].as_list()
    if rank_unknown(t):
        return None
    flags = unknown(t) or (False,) * t.ndim
    return [None if u else int(d) for d, u in zip(t.shape.as_list(), flags)]


def static_shape(t: Any) -> Any:
    """t's shape as a traced graph knows it, as a TensorShape (None dimensions, or rank)."""
    from simdist.runtime.tensor import TensorShape
    return TensorShape(known_shape(t))


def merge(shapes: Sequence[list[int | None] | None]) -> list[int | None] | None | bool:
    """TF's shape merge (InferenceContext::Merge) of known shapes: the merged shape (None: the
    rank is unknown), or False when two known ranks or two known dimensions differ."""
    out: list[int | None] | None = None
    for s in shapes:
        if s is None:
            continue
        if out is None:
            out = list(s)
            continue
        if len(s) != len(out):
            return False
        for i, (a, b) in enumerate(zip(out, s)):
            if a is not None and b is not None and a != b:
                return False
            out[i] = a if a is not None else b
    return out


def unseen(op: Any, tensors: Sequence[Tensor], attrs: dict | None, err: BaseException) -> None:
    """Unmark err (an op's error marked as a trace-time one) when op's shape function cannot see
    it in the shapes the graph knows (OpDef.shape_fn): the kernel raises it when the graph runs."""
    from simdist.runtime.ops import trace_errors
    if not any(unknown(t) is not None for t in tensors):
        return
    if not op.shape_fn([known_shape(t) for t in tensors], attrs):
        trace_errors.unmark(err)


def _sliced(x: Tensor, out: Tensor, key: Sequence[tuple]) -> Tensor:
    """StridedSlice's output dimensions the graph does not know: a dimension an ellipsis or a
    slice keeps from an unknown input dimension stays unknown (a slice's bounds cannot be clamped
    to an unknown size); an integer index drops its dimension, a new axis is a known 1; an input
    of unknown rank gives an output of unknown rank, whatever the indices (fuzz2 seed 41 #163:
    `tf.unstack(x[...], axis=-1)` of a segment reduction's output; fz4 seed 31 #83: `x[:-1]`)."""
    flags = unknown(x)
    if flags is None:
        return out
    if rank_unknown(x):   # (StridedSliceShapeFn: nothing is known of a slice of an unknown rank)
        return mark_rank_unknown(out)
    outs: list[bool] = []
    dim = 0
    for j, k in enumerate(key):
        if k[0] == "e":
            span = x.ndim - sum(1 for m in key[j + 1:] if m[0] in "is") - dim
            outs.extend(flags[dim:dim + span])
            dim += span
        elif k[0] == "n":
            outs.append(False)
        elif k[0] == "i":
            dim += 1
        else:
            outs.append(flags[dim] if dim < len(flags) else False)
            dim += 1
    outs.extend(flags[dim:])   # (the dimensions after the last index are kept whole)
    return mark(out, outs) if len(outs) == out.ndim else out


def broadcast_fails(a: Tensor, b: Tensor) -> bool:
    """Whether TF's broadcasting shape function sees that a and b do not broadcast: a pair of
    known dimensions that differ, neither 1."""
    fa = unknown(a) or (False,) * a.ndim
    fb = unknown(b) or (False,) * b.ndim
    for da, ua, db, ub in zip(reversed(a.shape.as_list()), reversed(fa), reversed(b.shape.as_list()), reversed(fb)):
        if not ua and not ub and da != db and da != 1 and db != 1:
            return True
    return False


def propagate(op: Any, tensors: Sequence[Tensor], out: Tensor, attrs: dict | None = None) -> Tensor:
    """out of an elementwise op over `tensors` (or a StridedSlice, a Shape), with the unknown dimensions its
    shape function leaves (called by dispatch while some tensor is marked)."""
    if op.name == "StridedSlice":
        return _sliced(tensors[0], out, (attrs or {}).get("key", ()))
    if op.name == "Shape":   # (ShapeShapeFn: a vector of Rank(input) elements, unknown with the rank)
        return mark(out, (True,)) if rank_unknown(tensors[0]) and out.ndim == 1 else out
    if op.name == "Transpose" and attrs is not None and "perm" in attrs:
        return _transposed(tensors[0], out, attrs["perm"])
    if op.name in ("SpaceToBatchND", "BatchToSpaceND") and tensors:
        # (their shape functions, with block and paddings/crops known: each output dimension is known exactly
        # where the input's is; tf.nn.convolution's dilated path keeps unknown channels unknown)
        flags = unknown(tensors[0])
        if rank_unknown(tensors[0]):
            return mark_rank_unknown(out)
        return mark(out, flags) if flags is not None and len(flags) == out.ndim else out
    if op.name in _INPUT_SHAPED and tensors:
        # (ScatterNdTensorShape: the output is the tensor's shape, an unknown rank too; a dry run's stand-in past
        # the kernel's check keeps it: fz37b, fz14 seed 1420373003 #223. MatrixBandPart's UnchangedShape and
        # MatrixSetDiagV3's input shape likewise: lu_solve's unit lower factor of a [None, None] input keeps its
        # unknown dimensions; fz38b)
        if rank_unknown(tensors[0]) and op.name not in _RANK_FROM_ARGUMENT:
            return mark_rank_unknown(out)
        flags = _flags(tensors[0])
        if op.name == "Tile":   # (TileShape: a multiple of 0 a known 0 whatever the input's dimension; ssweep64)
            flags = tuple(f and d != 0 for f, d in zip(flags, out.shape.as_list()))
        return mark(out, flags) if len(flags) == out.ndim else out
    if op.name == "GatherV2" and attrs is not None and "axis" in attrs and len(tensors) == 2:
        # (GatherV2's shape function: params' dimensions around the axis, the indices' in its place; an unknown
        # rank of either is an output of unknown rank: `y = tf.gather(x, 0)` of an unknown-rank x, then `y[0]`,
        # is StridedSlice's kernel error when the graph runs, not the shape function's "Attempting to slice scalar
        # input." at trace; fz44, fz4 seed 4401 #56)
        p, idx = tensors
        if rank_unknown(p) or rank_unknown(idx):
            return mark_rank_unknown(out)
        fp, fi = unknown(p), unknown(idx)
        if fp is None and fi is None:
            return out
        fp, fi = fp or (False,) * p.ndim, fi or (False,) * idx.ndim
        ax = int(attrs["axis"]) % p.ndim if p.ndim else 0
        flags = fp[:ax] + fi + fp[ax + 1:]
        return mark(out, flags) if len(flags) == out.ndim else out
    if op.name == "Conv2DBackpropInput" and attrs is not None and len(attrs.get("input_sizes", ())) == 2 and \
            len(tensors) == 2 and out.ndim == 4:
        # (Conv2DBackpropInput's shape function with input_sizes of 2 values: out_backprop's batch and the
        # filter's in_channels, unknown where the graph does not know them; fz39b)
        def dim(t: Tensor, i: int) -> bool:
            flags = unknown(t)
            return rank_unknown(t) or (flags is not None and len(flags) > i and flags[i])
        return mark(out, (dim(tensors[1], 0), False, False, dim(tensors[0], 2)))
    if op.name in _RESHAPING and len(tensors) == 1:
        return _reshaped(op.name, tensors[0], out, (attrs or {}).get("axis"))
    if op.name in _SHAPE_FNS and tensors:
        return _SHAPE_FNS[op.name](tensors, out, attrs or {})
    if op.kind == "reduction" and attrs is not None and "axis" in attrs and len(tensors) == 1:
        return _reduced(tensors[0], out, attrs["axis"], bool(attrs.get("keepdims")))
    if op.fusion is not SAME_SHAPES and op.fusion is not BROADCAST and op.kind != "elementwise":
        # (an elementwise op without a stacked form (AsString, the string ops, Cross, AdjustHue) keeps its inputs'
        # unknown dimensions as the others do: `as_string(cumsum(x, 5))` of an unknown-rank x is of unknown rank,
        # unicode_decode's trace-time ValueError; fz44)
        return out
    if all(unknown(t) is None for t in tensors):
        return out
    if any(rank_unknown(t) for t in tensors):   # (a broadcast with an unknown rank has an unknown rank)
        return mark_rank_unknown(out)
    flags = _fold(tensors)
    return mark(out, flags if len(flags) == out.ndim else (False,) * out.ndim)


# (Pad's, MirrorPad's and Tile's shape functions take the rank from paddings' or multiples' known length: an input of
# unknown rank gives every dimension unknown, of known rank; ssweep64)
_RANK_FROM_ARGUMENT = frozenset({"Pad", "PadV2", "MirrorPad", "Tile"})
_RESHAPING = frozenset({"Squeeze", "ExpandDims", "Identity", "StopGradient"})
# (BiasAdd's BiasAddShape, Softmax's and LogSoftmax's UnchangedShapeWithRankAtLeast, Pad's, MirrorPad's and Tile's
# with constant paddings or multiples: each output dimension unknown where the input's is; open47)
_INPUT_SHAPED = frozenset({"TensorScatterUpdate", "TensorScatterAdd", "TensorScatterSub", "TensorScatterMin",
                           "TensorScatterMax", "MatrixBandPart", "MatrixSetDiagV3", "BiasAdd", "Softmax", "LogSoftmax",
                           "Pad", "PadV2", "MirrorPad", "Tile", "RandomShuffle",
                           # (UnchangedShape after their checks: ReverseV2, Cumsum, Cumprod, CumulativeLogsumexp,
                           # Roll, AdjustContrastv2, AdjustSaturation, AdjustHue; `tf.reverse(x, [0])` of an
                           # input_signature [None] is [None], not the traced value's [1]; fz49b)
                           "ReverseV2", "Cumsum", "Cumprod", "CumulativeLogsumexp", "Roll", "AdjustContrastv2",
                           "AdjustSaturation", "AdjustHue",
                           # (fz50: ReverseSequence, InvertPermutation and the complex FFTs are UnchangedShape too)
                           "InvertPermutation", "FFT", "IFFT", "FFT2D", "IFFT2D", "FFT3D",
                           "IFFT3D"})


def _flags(t: Tensor) -> tuple[bool, ...]:
    """t's unknown flags, every dimension unknown for an unknown rank."""
    if rank_unknown(t):
        return (True,) * t.ndim
    return unknown(t) or (False,) * t.ndim


def _matmul_shape(tensors: Sequence[Tensor], out: Tensor, attrs: dict) -> Tensor:
    """MatMulShape: [a's rows, b's columns] (transposed as the attributes say), unknown where those are (open47:
    `tf.matmul(x, w).shape` of an input_signature [None, 2] is (None, 3) in TF 2.21, simdist gave the call's rows)."""
    if len(tensors) != 2 or out.ndim != 2:
        return out
    a, b = _flags(tensors[0]), _flags(tensors[1])
    if len(a) != 2 or len(b) != 2:
        return out
    return mark(out, (a[1] if attrs.get("transpose_a") else a[0], b[0] if attrs.get("transpose_b") else b[1]))


def _batch_matmul_shape(tensors: Sequence[Tensor], out: Tensor, attrs: dict) -> Tensor:
    """BatchMatMulV2/V3's shape function: the batch dimensions broadcast (BroadcastBinaryOpOutputShapeFnHelper: an
    unknown one against a known 1 unknown, against a known d > 1 d), then a's rows and b's columns (adj_x, adj_y
    swap them); an unknown rank an unknown rank."""
    if len(tensors) != 2:
        return out
    x, y = tensors
    if rank_unknown(x) or rank_unknown(y):
        return mark_rank_unknown(out)
    if x.ndim < 2 or y.ndim < 2:
        return out
    fx, fy = _flags(x), _flags(y)
    n = out.ndim - 2
    bx = [(1, False)] * (n - (x.ndim - 2)) + list(zip(x.shape.as_list()[:-2], fx[:-2]))
    by = [(1, False)] * (n - (y.ndim - 2)) + list(zip(y.shape.as_list()[:-2], fy[:-2]))
    batch = []
    for (da, ua), (db, ub) in zip(bx, by):
        if ua and ub:
            batch.append(True)
        elif ua:
            batch.append(db == 1)
        elif ub:
            batch.append(da == 1)
        else:
            batch.append(False)
    # (the raw op's adj_x/adj_y; tf.matmul's BatchMatMulV2 here carries them as transpose_a/transpose_b: ssweep64)
    rows = fx[-1] if attrs.get("adj_x", attrs.get("transpose_a")) else fx[-2]
    cols = fy[-2] if attrs.get("adj_y", attrs.get("transpose_b")) else fy[-1]
    flags = tuple(batch) + (rows, cols)
    return mark(out, flags) if len(flags) == out.ndim else out


def standin(op_name: str, tensors: Sequence[Tensor], out: Tensor, attrs: dict) -> Tensor:
    """A dry run's stand-in for `op_name`'s output past a kernel's refusal (dispatch.refused), with the unknown
    dimensions (or rank) its shape function gives from what the graph knows of `tensors`: the stand-in's own
    sizes are the probe's, never the graph's (ssweep64: a [5, 2, 3] by a [None]*4 matmul is [None, 5, 2, None])."""
    fn = _SHAPE_FNS.get(op_name)
    return fn(tensors, out, attrs) if fn is not None else out


def _einsum_shape(tensors: Sequence[Tensor], out: Tensor, attrs: dict) -> Tensor:
    """EinsumShape without an ellipsis: each output label's dimension, known where any input's dimension of that
    label is known (TF merges them), unknown where every one is."""
    eq = str(attrs.get("equation", "")).replace(" ", "")
    if "..." in eq or "->" not in eq:
        return out
    ins, res = eq.split("->")
    subs = ins.split(",")
    if len(subs) != len(tensors) or len(res) != out.ndim:
        return out
    known: dict[str, bool] = {}
    for sub, t in zip(subs, tensors):
        f = (True,) * len(sub) if rank_unknown(t) else _flags(t)   # (unknown rank: its subscript's, unknown)
        if len(sub) != len(f):
            return out
        for label, u in zip(sub, f):
            known[label] = known.get(label, False) or not u
    return mark(out, tuple(not known.get(label, True) for label in res))


def _concat_shape(tensors: Sequence[Tensor], out: Tensor, attrs: dict) -> Tensor:
    """ConcatV2's shape function: the axis dimension the sum, unknown if any input's is; every other dimension the
    merge of the inputs', unknown only where all are (an unknown-rank input's dimensions unknown)."""
    axis = attrs.get("axis")
    if axis is None or out.ndim == 0 or any(t.ndim != out.ndim for t in tensors):
        return out
    if all(rank_unknown(t) for t in tensors):
        return mark_rank_unknown(out)
    ax = int(axis) % out.ndim
    fs = [_flags(t) for t in tensors]
    return mark(out, tuple(any(f[i] for f in fs) if i == ax else all(f[i] for f in fs) for i in range(out.ndim)))


def _one_hot_shape(tensors: Sequence[Tensor], out: Tensor, attrs: dict) -> Tensor:
    """OneHot's shape function: the indices' dimensions with the (known) depth inserted at axis."""
    idx = tensors[0]
    if rank_unknown(idx):
        return mark_rank_unknown(out)
    f = list(_flags(idx))
    axis = int(attrs.get("axis", -1))
    f.insert(len(f) if axis == -1 else axis, False)
    return mark(out, tuple(f)) if len(f) == out.ndim else out


def _pack_shape(tensors: Sequence[Tensor], out: Tensor, attrs: dict) -> Tensor:
    """PackShape: the values' shapes merged (a dimension unknown only where every value's is), the known N inserted
    at axis; unknown-rank values all: an unknown rank."""
    if all(rank_unknown(t) for t in tensors):
        return mark_rank_unknown(out)
    fs = [_flags(t) for t in tensors]
    n = out.ndim - 1
    if any(len(f) != n for f in fs):
        return out
    merged = [all(f[i] for f in fs) for i in range(n)]
    axis = int(attrs.get("axis", 0))
    merged.insert(axis % out.ndim, False)
    return mark(out, tuple(merged))


def _gather_nd_shape(tensors: Sequence[Tensor], out: Tensor, attrs: dict) -> Tensor:
    """GatherNdShape: the indices' outer dimensions, then the params' past the index depth (the indices' last
    dimension): `tf.gather_nd(x, tf.where(c))` has as many rows as the condition's trues, unknown to the graph (an
    unknown index depth or rank: an unknown rank)."""
    if len(tensors) != 2:
        return out
    p, idx = tensors
    if rank_unknown(idx) or idx.ndim == 0:
        return mark_rank_unknown(out) if rank_unknown(idx) else out
    fi = _flags(idx)
    if fi[-1]:
        return mark_rank_unknown(out)
    if rank_unknown(p):
        return mark_rank_unknown(out)
    depth = int(idx.shape[-1])
    flags = tuple(fi[:-1]) + tuple(_flags(p)[depth:])
    return mark(out, flags) if len(flags) == out.ndim else out


def _channels_first(attrs: dict) -> bool:
    return str(attrs.get("data_format", "NHWC")).startswith("NC")


def _windowed_shape(tensors: Sequence[Tensor], out: Tensor, attrs: dict) -> Tensor:
    """Conv2DShape, Conv3DShape, DepthwiseConv2dNativeShape, MaxPoolShape, AvgPoolShape, Pool3DShape,
    SpaceToDepth/DepthToSpace: the batch dimension is the input's, each spatial dimension computed from the input's
    alone (GetWindowedOutputSizeFromDimsV2: unknown where the input's is), the channels the filter's out channels
    (a depthwise filter's in channels times its multiplier), a pool's the input's, SpaceToDepth's
    the input's times block² (conv2d of an input_signature [1, None, 3, 1] is (1, None, 3, 1) on TF 2.21; fz50)."""
    x = tensors[0]
    conv = len(tensors) > 1 and tensors[1].ndim == out.ndim and "ksize" not in attrs   # (a convolution's filter)
    # (an input of unknown rank: these shape functions take it WithRank 4 (5), every dimension unknown but a
    # convolution's channels, the filter's; ssweep64)
    fx = (True,) * out.ndim if rank_unknown(x) else _flags(x)
    if len(fx) != out.ndim or out.ndim < 3:
        return out
    cf = _channels_first(attrs)
    ch = 1 if cf else out.ndim - 1
    flags = list(fx)
    if conv:
        f = tensors[1]
        ff = _flags(f)
        if rank_unknown(f):
            flags[ch] = True
        elif "depthwise" in attrs.get("_kind", ""):
            flags[ch] = (fx[ch] and ff[-2]) or ff[-1]
        else:
            flags[ch] = ff[-1]
        if str(attrs.get("padding", "SAME")).upper() != "SAME":
            # (GetWindowedOutputSizeFromDimsV2 of VALID or explicit padding reads the filter's spatial size too: an
            # unknown one, an unknown output dimension; ssweep64)
            spatial = range(2, out.ndim) if cf else range(1, out.ndim - 1)
            for k, i in enumerate(spatial):
                flags[i] = flags[i] or rank_unknown(f) or ff[k]
    return mark(out, tuple(flags))


def _depthwise_shape(tensors: Sequence[Tensor], out: Tensor, attrs: dict) -> Tensor:
    return _windowed_shape(tensors, out, dict(attrs, _kind="depthwise"))


def _patches_shape(tensors: Sequence[Tensor], out: Tensor, attrs: dict) -> Tensor:
    """ExtractImagePatches' shape function: an unknown row or column count makes both output spatial dimensions
    unknown (its early return); batch and depth the input's."""
    x = tensors[0]
    if rank_unknown(x):
        return mark_rank_unknown(out)
    fx = _flags(x)
    if len(fx) != 4 or out.ndim != 4:
        return out
    spatial = fx[1] or fx[2]
    return mark(out, (fx[0], spatial, spatial, fx[3]))


def _reverse_sequence_shape(tensors: Sequence[Tensor], out: Tensor, attrs: dict) -> Tensor:
    """ReverseSequence's shape function: the input's shape, its batch dimension merged with seq_lengths' size
    (reverse_sequence(x, [1, 1], ...) of x [None, None] is (2, None))."""
    x = tensors[0]
    if rank_unknown(x):
        return mark_rank_unknown(out)
    flags = list(_flags(x))
    bd = int(attrs.get("batch_dim", 0))
    if len(tensors) > 1 and tensors[1].ndim == 1 and 0 <= bd < len(flags):
        flags[bd] = flags[bd] and (rank_unknown(tensors[1]) or _flags(tensors[1])[0])
    return mark(out, tuple(flags)) if len(flags) == out.ndim else out


def _dilation_shape(tensors: Sequence[Tensor], out: Tensor, attrs: dict) -> Tensor:
    """Dilation2D's (and Erosion2D's) shape function: an unknown input or filter row or column count makes both
    output spatial dimensions unknown (its early return); the depth the input's merged with the filter's."""
    x = tensors[0]
    if rank_unknown(x) or len(tensors) < 2 or rank_unknown(tensors[1]):
        return mark_rank_unknown(out) if rank_unknown(x) else out
    fx, ff = _flags(x), _flags(tensors[1])
    if len(fx) != 4 or len(ff) != 3 or out.ndim != 4:
        return out
    spatial = fx[1] or fx[2] or ff[0] or ff[1]
    return mark(out, (fx[0], spatial, spatial, fx[3] and ff[2]))


def _bitcast_shape(tensors: Sequence[Tensor], out: Tensor, attrs: dict) -> Tensor:
    """BitcastShape: the input's shape, a last dimension added (a wider input) or dropped (a narrower one)."""
    x = tensors[0]
    if rank_unknown(x):
        return mark_rank_unknown(out)
    fx = _flags(x)
    if out.ndim == x.ndim + 1:
        fx = fx + (False,)
    elif out.ndim == x.ndim - 1:
        fx = fx[:-1]
    return mark(out, fx) if len(fx) == out.ndim else out


def _values_shaped(tensors: Sequence[Tensor], out: Tensor, attrs: dict) -> Tensor:
    """LowerBound/UpperBound: the values' shape (the second input)."""
    if len(tensors) < 2:
        return out
    v = tensors[1]
    if rank_unknown(v):
        return mark_rank_unknown(out)
    fv = _flags(v)
    return mark(out, fv) if len(fv) == out.ndim else out


def _unsorted_segment_shape(tensors: Sequence[Tensor], out: Tensor, attrs: dict) -> Tensor:
    """UnsortedSegmentReductionShapeFn: [num_segments] (a constant: known) + data's dimensions past the segment ids'
    rank (unknown where data's are): unsorted_segment_sum(x, [0, 1], 3) of x [None, None] is (3, None)."""
    if len(tensors) < 2:
        return out
    data, ids = tensors[0], tensors[1]
    if rank_unknown(data) or rank_unknown(ids):
        return mark_rank_unknown(out)
    flags = (False,) + _flags(data)[ids.ndim:]
    return mark(out, flags) if len(flags) == out.ndim else out


def _band(attrs: dict) -> tuple[int, int] | None:
    k = attrs.get("k")
    if k is None:
        return None
    ks = np.asarray(k).reshape(-1).tolist()
    return (int(ks[0]), int(ks[-1])) if ks else None


def _diag_part_shape(tensors: Sequence[Tensor], out: Tensor, attrs: dict) -> Tensor:
    """MatrixDiagPartV3's shape function: the batch dimensions the input's, the number of diagonals (a band) known,
    the longest diagonal's length known only where both matrix dimensions are."""
    x = tensors[0]
    if rank_unknown(x):
        return mark_rank_unknown(out)
    fx = _flags(x)
    if len(fx) < 2:
        return out
    band = _band(attrs)
    tail = (fx[-2] or fx[-1],)
    if band is not None and band[0] != band[1]:
        tail = (False,) + tail
    flags = fx[:-2] + tail
    return mark(out, flags) if len(flags) == out.ndim else out


def _diag_shape(tensors: Sequence[Tensor], out: Tensor, attrs: dict) -> Tensor:
    """MatrixDiagV3's shape function: the batch dimensions the diagonal's (its last one, or two for a band, gone),
    then num_rows and num_cols: given ones known, computed ones (-1) unknown where the diagonal's length is."""
    d = tensors[0]
    if rank_unknown(d):
        return mark_rank_unknown(out)
    fd = _flags(d)
    band = _band(attrs)
    lead = fd[:-2] if band is not None and band[0] != band[1] else fd[:-1]
    if not fd:
        return out
    rows = int(attrs.get("num_rows", -1) or -1) < 0 and fd[-1]
    cols = int(attrs.get("num_cols", -1) or -1) < 0 and fd[-1]
    flags = lead + (rows, cols)
    return mark(out, flags) if len(flags) == out.ndim else out


_SHAPE_FNS = {"GatherNd": _gather_nd_shape, "Pack": _pack_shape, "MatMul": _matmul_shape, "BatchMatMulV2": _batch_matmul_shape, "BatchMatMulV3": _batch_matmul_shape,
              "Einsum": _einsum_shape, "ConcatV2": _concat_shape, "OneHot": _one_hot_shape,
              # (fz50: the shape-function families of fz49b's open list, p7.py)
              "Conv2D": _windowed_shape, "Conv3D": _windowed_shape, "MaxPool": _windowed_shape,
              "AvgPool": _windowed_shape, "MaxPool3D": _windowed_shape, "AvgPool3D": _windowed_shape,
              "Dilation2D": _dilation_shape, "Erosion2D": _dilation_shape, "SpaceToDepth": _windowed_shape,
              "DepthToSpace": _windowed_shape, "DepthwiseConv2dNative": _depthwise_shape,
              "ExtractImagePatches": _patches_shape, "Bitcast": _bitcast_shape, "ReverseSequence": _reverse_sequence_shape, "LowerBound": _values_shaped,
              "UpperBound": _values_shaped, "UnsortedSegmentSum": _unsorted_segment_shape,
              "UnsortedSegmentMax": _unsorted_segment_shape, "UnsortedSegmentMin": _unsorted_segment_shape,
              "UnsortedSegmentProd": _unsorted_segment_shape, "MatrixDiagPartV3": _diag_part_shape,
              "MatrixDiagV3": _diag_shape}


def _linalg_single(fn: Any) -> Any:
    """A static_shapes_linalg shape function as a _SHAPE_FNS entry: the output's flags from the inputs' (an input of
    unknown rank: an output of unknown rank)."""
    def shape(tensors: Sequence[Tensor], out: Tensor, attrs: dict) -> Tensor:
        if any(rank_unknown(t) for t in tensors):
            return mark_rank_unknown(out)
        flags = fn([_flags(t) for t in tensors], [t.shape.as_list() for t in tensors], attrs)[0]
        return mark(out, flags) if flags is not None and len(flags) == out.ndim else out
    return shape


def _linalg_multi(fn: Any) -> Any:
    """A static_shapes_linalg shape function as a _MULTI_FNS entry."""
    def shapes(tensors: Sequence[Tensor], outs: Sequence[Tensor], attrs: dict) -> list[tuple[bool, ...] | None]:
        return fn([_flags(t) for t in tensors], [t.shape.as_list() for t in tensors], attrs)
    return shapes


# (the linear-algebra ops' shape functions, linalg_ops.cc: decompositions and solvers under an input_signature's None
# dimensions keep them unknown, not a dry run's probe sizes; usweep66's OPEN, fix66s)
_SHAPE_FNS.update({name: _linalg_single(fn) for name, fn in _linalg.SINGLE.items()})


def _colorspace_shape(tensors: Sequence[Tensor], out: Tensor, attrs: dict) -> Tensor:
    """ColorspaceShapeFn (RGBToHSV, HSVToRGB): the input's dimensions, the last WithValue 3, so known whatever the
    graph knew of the input's (`rgb_to_hsv` of a [None, None, None] signature is [None, None, 3]; fix66s); an
    unknown rank stays unknown (ReplaceDim of an unknown shape)."""
    if rank_unknown(tensors[0]):
        return mark_rank_unknown(out)
    fx = _flags(tensors[0])
    return mark(out, fx[:-1] + (False,)) if fx and len(fx) == out.ndim else out


_SHAPE_FNS.update({"RGBToHSV": _colorspace_shape, "HSVToRGB": _colorspace_shape})


def _qr_shapes(tensors: Sequence[Tensor], outs: Sequence[Tensor], attrs: dict) -> list[tuple[bool, ...] | None]:
    """QrShapeFn: q [..., M, P], r [..., P, N] with P = M (full_matrices) or min(M, N), unknown where M (or N) is."""
    fx = _flags(tensors[0])
    if len(fx) < 2:
        return [None, None]
    m, n = fx[-2], fx[-1]
    p = m if attrs.get("full_matrices") else (m or n)
    return [fx[:-2] + (m, p), fx[:-2] + (p, n)]


def _xent_shapes(tensors: Sequence[Tensor], outs: Sequence[Tensor], attrs: dict) -> list[tuple[bool, ...] | None]:
    """SoftmaxCrossEntropyWithLogits (features, labels) and the sparse form (features, labels [B]): loss [B] and
    backprop [B, C], each dimension merged from the inputs' (unknown only where every input's is)."""
    # (an input of unknown rank: WithRank 2 (1 for sparse labels), every dimension unknown, whatever rank a dry run's
    # probe has; the raw sparse op of two unknown ranks is [None] and [None, None]: fix64s)
    f = (True, True) if rank_unknown(tensors[0]) else _flags(tensors[0])
    lab = (True,) * max(np.ndim(tensors[1]), 1) if rank_unknown(tensors[1]) else _flags(tensors[1])
    if len(f) != 2:
        return [None, None]
    b = f[0] and (lab[0] if lab else True)
    c = f[1] and (lab[1] if len(lab) == 2 else True)
    return [(b,), (b, c)]


def _unpack_shapes(tensors: Sequence[Tensor], outs: Sequence[Tensor], attrs: dict) -> list[tuple[bool, ...] | None]:
    """UnpackShape: each output the input without the axis."""
    fx = _flags(tensors[0])
    if not fx:
        return [None] * len(outs)
    ax = int(attrs.get("axis", 0)) % len(fx)
    return [fx[:ax] + fx[ax + 1:]] * len(outs)


def _unique_shapes(tensors: Sequence[Tensor], outs: Sequence[Tensor], attrs: dict) -> list[tuple[bool, ...] | None]:
    """Unique: y [?] (its size depends on the values), idx the input's shape."""
    return [(True,), _flags(tensors[0])]


# (ops whose shape functions give outputs of known rank from inputs of unknown rank: the cross entropies' loss [B]
# and backprop [B, C] (WithRank 2 / the broadcast checked to rank 2); ssweep64)
_RANKED_OUTPUTS = frozenset({"SoftmaxCrossEntropyWithLogits", "SparseSoftmaxCrossEntropyWithLogits"})

_MULTI_FNS = {"Qr": _qr_shapes, "SoftmaxCrossEntropyWithLogits": _xent_shapes,
              "SparseSoftmaxCrossEntropyWithLogits": _xent_shapes, "Unpack": _unpack_shapes, "Unique": _unique_shapes}
_MULTI_FNS.update({name: _linalg_multi(fn) for name, fn in _linalg.MULTI.items()})


def propagate_multi(op: Any, tensors: Sequence[Tensor], outs: tuple, attrs: dict | None = None) -> tuple:
    """The outputs of a multi-output op with the unknown dimensions its shape function leaves (dispatch calls it
    while some tensor is marked): an input of unknown rank gives outputs of unknown rank."""
    fn = _MULTI_FNS.get(op.name)
    if fn is None or not tensors or all(unknown(t) is None for t in tensors):
        return outs
    if any(rank_unknown(t) for t in tensors) and op.name not in _RANKED_OUTPUTS:
        for o in outs:
            mark_rank_unknown(o)
        return outs
    for o, flags in zip(outs, fn(tensors, outs, attrs or {})):
        if flags is not None and len(flags) == o.ndim:
            mark(o, flags)
    return outs


def _reshaped(name: str, x: Tensor, out: Tensor, axis: Any) -> Tensor:
    """out of Identity/StopGradient (x's flags), ExpandDims (a known 1 inserted) or Squeeze of x:
    SqueezeShapeFn drops the squeezed dimensions and keeps the others' flags; without axes it
    cannot tell whether an unknown dimension is 1, so the output's rank is unknown (the confusion
    matrix of labels [None, None] beside a vector: remove_squeezable_dimensions squeezes the unknown
    last dimension, fz3 seed 81 #61). An input of unknown rank gives an output of unknown rank."""
    flags = unknown(x)
    if flags is None:
        return out
    if rank_unknown(x):
        return mark_rank_unknown(out)
    if name == "Identity" or name == "StopGradient":
        return mark(out, flags)
    if name == "ExpandDims":
        a = int(axis)
        at = a if a >= 0 else a + x.ndim + 1
        return mark(out, flags[:at] + (False,) + flags[at:])
    if axis is None:
        return mark_rank_unknown(out) if any(flags) else out
    gone = {int(a) % x.ndim for a in (axis if isinstance(axis, (list, tuple)) else (axis,))}
    return mark(out, [f for i, f in enumerate(flags) if i not in gone])


def _transposed(x: Tensor, out: Tensor, perm: Sequence[int]) -> Tensor:
    """out of Transpose(x, perm): TransposeShapeFn moves x's unknown dimensions with the perm; an
    input of unknown rank gives an output of unknown rank (tf.transpose's default perm is then
    computed from Rank(x) in the graph, unknown to the shape function; an explicit perm of an
    unknown-rank input is marked by array.transpose)."""
    flags = unknown(x)
    if flags is None:
        return out
    if rank_unknown(x):
        return mark_rank_unknown(out)
    return mark(out, [flags[int(p) % x.ndim] for p in perm]) if x.ndim else out


def _reduced(x: Tensor, out: Tensor, axis: Any, keepdims: bool) -> Tensor:
    """out of a reduction of x over `axis` (None: all): the kept dimensions keep x's unknown flags,
    the reduced ones are gone or a known 1 (fz11, fuzz2 seed 71 #168: reduce_max of a segment
    reduction's rows, whose unknown first dimension TF's Max shape function keeps)."""
    flags = unknown(x)
    if flags is None or x.ndim == 0:
        return out
    if rank_unknown(x):
        return mark_rank_unknown(out)
    axes = range(x.ndim) if axis is None else \
        [int(a) % x.ndim for a in (axis if isinstance(axis, (list, tuple)) else (axis,))]
    if keepdims:
        kept = tuple(False if i in axes else f for i, f in enumerate(flags))
    else:
        kept = tuple(f for i, f in enumerate(flags) if i not in axes)
    return mark(out, kept) if len(kept) == out.ndim and any(kept) else out


def _fold(tensors: Sequence[Tensor]) -> tuple[bool, ...]:
    """The unknown flags of the broadcast of all `tensors` (rank = the largest rank)."""
    n = max(t.ndim for t in tensors)
    dims: list[tuple[int, bool]] = [(1, False)] * n
    for t in tensors:
        f = unknown(t) or (False,) * t.ndim
        pad = [(1, False)] * (n - t.ndim) + list(zip(t.shape.as_list(), f))
        merged = []
        for (da, ua), (db, ub) in zip(dims, pad):
            if ua and ub:
                merged.append((max(da, db), True))
            elif ua:
                merged.append((db, db == 1))
            elif ub:
                merged.append((da, da == 1))
            else:
                merged.append((max(da, db) if 1 in (da, db) else da, False))
        dims = merged
    return tuple(u for _, u in dims)
