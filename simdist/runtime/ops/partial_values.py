"""Shape-like values a tf.function's graph partly knows while it is built (clause function.static-shapes).

TF's shape function of an op that takes a shape as a tensor (Fill's dims, Reshape's shape, Tile's multiples, the
random ops' shape, Slice's size, ...) reads it through `InferenceContext::MakeShapeFromShapeTensor`, which asks the
shape refiner for the tensor's partial value (TF 2.21, common_runtime/shape_refiner.cc `ConstantPartialShape`):

- a vector of length 0 is the scalar shape; a known scalar -1 an unknown rank;
- `Shape(x)`: x's static shape (None where the graph does not know a dimension);
- `Pack(s0, s1, ...)`: each scalar's value where EvaluateConstantTensor finds it (a negative one unknown);
- `ConcatV2(v0, v1, ...)`: the partial values of the pieces, concatenated (an unknown rank among them: unknown);
- `StridedSlice(v, b, e, s)` of a vector with constant bounds and no masks but begin/end 1 (PartialStridedSliceShape):
  that part of v's partial value;
- `Cast(v)` to int32/int64: v's partial value (to another type: the same length, every element unknown);
- any other op: its value if EvaluateConstantTensor computes it (a constant subgraph; simdist:
  graph_constants.known), else as many unknown elements as its static length (an unknown length: an unknown rank).

EvaluateConstantTensor also infers `tf.shape(x)[i]` (a StridedSlice of a Shape, the dimension known) as a constant
(eval_const_tensor.cc TryInferFromShapes), so `tf.zeros([tf.shape(x)[1] * 2])` of x [None, 3] is (6,): such a
scalar is marked FOLDED (graph_constants), known to the shape functions after it; a slice of a Pack or a Concat of
the shape is not (observed on TF 2.21: None).

simdist runs a traced function's Python on values, so dispatch notes the partial value of the outputs of those ops
while a tf.function runs (`note`; only for values the graph does not know in full: graph_constants VARYING), and
each op that reads a shape input asks `shape_of` (its Python argument: a tensor, a list of ints and scalar
tensors, which TF packs, a TensorShape) and marks its output's dimensions the graph does not know
(static_shapes.mark). The values themselves are computed from the real inputs as always; only static shapes change.

Not modelled: tensor_util.constant_value's partial form (tf.pad's set_shape) knows only Python constants, where
simdist's partial values also know shape-inference-folded elements.
"""

from __future__ import annotations

import functools
import inspect
import weakref
from typing import Any, Callable, Sequence

import numpy as np

from simdist.runtime import context
from simdist.runtime.ops import graph_constants, static_shapes
from simdist.runtime.tensor import Tensor

__all__ = ["PARTIAL", "FOLLOWS", "note", "varying", "scalar_of", "shape_of", "elements_of", "subshape", "mark",
           "in_trace", "sliced", "shaped", "flat_of"]

# id(tensor) -> (weak reference to it, its elements in row-major order (None: unknown to the graph), whether it
# is a Shape op's output): the outputs of the ops ConstantPartialShape follows, where the graph does not know
# the whole value
PARTIAL: dict[int, tuple[Any, tuple, bool]] = {}

# the ops whose outputs' partial values dispatch notes (`note`)
FOLLOWS = frozenset({"Shape", "Pack", "ConcatV2", "Cast"})


def _drop(key: int, ref: Any) -> None:
    entry = PARTIAL.get(key)
    if entry is not None and entry[0] is ref:
        del PARTIAL[key]


def _put(t: Tensor, elems: Any, from_shape: bool = False) -> None:
    key = id(t)
    PARTIAL[key] = (weakref.ref(t, functools.partial(_drop, key)),
                    elems if isinstance(elems, Refused) else tuple(elems), from_shape)


def _entry(t: Any) -> tuple[Any, tuple, bool] | None:
    entry = PARTIAL.get(id(t))
    if entry is None or entry[0]() is not t:
        return None
    return entry


def in_trace() -> bool:
    """Whether a tf.function's graph is being built (its Python running with marked values)."""
    return bool(context._function_depth)


def varying(value: Any) -> bool:
    """Whether `value` (a tensor, or a list/tuple holding tensors) holds a tensor the graph being built does not
    know in full (graph_constants VARYING): the fast test before an op asks for partial values."""
    if isinstance(value, Tensor):
        return graph_constants.level(value) == graph_constants.VARYING
    if isinstance(value, (list, tuple)):
        return any(varying(v) for v in value)
    return False


def _ints(v: Any) -> list[int]:
    return [int(x) for x in np.asarray(v).reshape(-1).tolist()]


def elements_of(t: Any) -> list[int | None] | None:
    """t's elements as the graph knows them (row-major; None where unknown), or None when not even their
    number is known. A Python value or a constant is known in full."""
    if not isinstance(t, Tensor):
        try:
            return _ints(t)
        except (TypeError, ValueError):
            return None
    if graph_constants.level(t) < graph_constants.VARYING:
        return _ints(t._v)
    entry = _entry(t)
    if entry is not None:
        return None if isinstance(entry[1], Refused) else list(entry[1])
    if static_shapes.rank_unknown(t):
        return None
    known = static_shapes.known_shape(t)
    if known is None or any(d is None for d in known):
        return None
    return [None] * int(np.prod(known, dtype=np.int64))


def scalar_of(v: Any) -> int | None:
    """EvaluateConstantTensor of a scalar: its value where the graph knows it, else None."""
    if isinstance(v, Tensor):
        if graph_constants.level(v) == graph_constants.VARYING:
            return None
        return int(np.asarray(v._v).reshape(-1)[0]) if v._v.size == 1 else None
    try:
        return int(v)
    except (TypeError, ValueError):
        return None


def flat_of(value: Any) -> list[int | None] | None:
    """The elements of a nested list of ints and tensors (or a tensor) as the graph knows them, row-major
    (tensor_util.constant_value's partial form: tf.pad's paddings), or None when their number is unknown."""
    if isinstance(value, (list, tuple)):
        out: list[int | None] = []
        for v in value:
            if isinstance(v, Tensor) and v.ndim == 0:
                out.append(scalar_of(v))
                continue
            part = flat_of(v) if isinstance(v, (list, tuple, Tensor)) else [scalar_of(v)]
            if part is None:
                return None
            out.extend(part)
        return out
    return elements_of(value)


def _dims(vals: Sequence[int | None]) -> list[int | None]:
    """MakeShapeFromTensor's reading of known values: -1 (any negative: TF's refusal of < -1 is the op's own)
    an unknown dimension."""
    return [None if d is None or d < 0 else int(d) for d in vals]


def shape_of(value: Any) -> list[int | None] | None:
    """MakeShapeFromShapeTensor of an op's shape argument as the graph being built knows it: a list of
    dimensions (None: unknown) or None (an unknown rank). `value`: a tensor (ConstantPartialShape), a list or
    tuple of ints and scalar tensors (TF's conversion packs it: each scalar's value where the graph knows it),
    a TensorShape or anything else convertible (known)."""
    if isinstance(value, Tensor):
        if value.ndim == 0:   # (a scalar is one dimension, as tf.zeros reshapes it; a known -1: an unknown rank)
            s = scalar_of(value)
            return [None] if s is None else None if s == -1 else [s]
        if graph_constants.level(value) < graph_constants.VARYING:
            return _dims(_ints(value._v))
        entry = _entry(value)
        if entry is not None:
            if isinstance(entry[1], Refused):
                raise ValueError(entry[1].text)
            return _dims(entry[1])
        if static_shapes.rank_unknown(value):
            return None
        n = static_shapes.known_dim(value, 0) if value.ndim == 1 else None
        return None if n is None else [None] * n
    if isinstance(value, (list, tuple)):
        return _dims([scalar_of(v) for v in value])
    if hasattr(value, "as_list") and hasattr(value, "rank"):
        return None if value.rank is None else list(value.as_list())
    try:
        return _dims(_ints(value))
    except (TypeError, ValueError):
        return None


def subshape(elems: Sequence[int | None], begin: int | None, end: int | None, stride: int) -> list[int | None]:
    """InferenceContext::Subshape(s, begin, end, stride) of a known-rank partial shape (Python's slice clamping)."""
    return list(elems)[slice(begin, end, stride)]


class Refused:
    """The partial value of a shape-like slice whose InferenceContext::Subshape fails: the error of every shape
    function that reads it (MakeShapeFromShapeTensor), not of the slice itself."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text


_MAX = 2**63 - 1


def tf_subshape(elems: Sequence[int | None], begin: int | None, end: int | None, stride: int) -> list | Refused:
    """PartialStridedSliceShape (shape_refiner.cc): a begin mask is begin 0 and an end mask end int64's maximum
    whatever the stride's sign, then InferenceContext::Subshape's clamping and checks (shape_inference.cc): so
    `tf.shape(x)[::-1]` read as a shape is "Subshape must have computed start >= end since stride is negative"
    and `v[2:1]` "... start <= end" where Python slicing gives a value (TF 2.21 observed, covsweep64)."""
    b = 0 if begin is None else int(begin)
    e = _MAX if end is None else int(end)
    rank = len(elems)
    if b == 0 and stride == 1 and e >= rank:
        return list(elems)
    start, stop = min(b, rank), min(e, rank)
    if stride < 0 and start == rank:
        start -= 1
    if start < 0:
        start += rank
        if start < 0:
            return Refused(f"Subshape start out of bounds: {b}, for shape with rank {rank}")
    if stop < 0:
        stop += rank
        if stop < 0:
            return Refused(f"Subshape end out of bounds: {e}, for shape with rank {rank}")
    if stride > 0 and start > stop:
        return Refused(f"Subshape must have computed start <= end, but is {start} and {stop} (computed from start "
                       f"{b} and end {e} over shape with rank {rank})")
    if stride < 0 and start < stop:
        return Refused(f"Subshape must have computed start >= end since stride is negative, but is {start} and "
                       f"{stop} (computed from start {b} and end {e} over shape with rank {rank} and stride{stride})")
    return list(elems)[start:stop:stride] if stride > 0 else \
        [elems[i] for i in range(start, stop, stride)]


def note(op: Any, tensors: Sequence[Tensor], out: Tensor, attrs: dict | None) -> None:
    """Record out's partial value (dispatch calls it while a tf.function runs, for the ops in FOLLOWS and
    StridedSlice): only where the graph does not know out in full."""
    if graph_constants.level(out) != graph_constants.VARYING:
        return
    name = op.name
    if out.dtype.name not in ("int32", "int64") and (name != "Cast" or tensors[0].dtype.name == "string"):
        return   # (only an int32/int64 vector is shape-like; a Pack of strings, `['a', v]`, goes on to its Cast)
    if name == "Shape":
        x = tensors[0]
        if not static_shapes.rank_unknown(x) and out.ndim == 1:
            _put(out, static_shapes.known_shape(x) or [], True)
    elif name == "Pack":
        if out.ndim >= 1 and int((attrs or {}).get("axis", 0)) == 0:
            parts = [elements_of(t) for t in tensors]
            if all(p is not None for p in parts):
                _put(out, [e for p in parts for e in p])   # type: ignore[union-attr]
    elif name == "ConcatV2":
        if out.ndim == 1:
            try:
                parts = [shape_of(t) if t.ndim == 1 else None for t in tensors]
            except ValueError as e:   # (a refused piece: the concatenation's reading refused too)
                _put(out, Refused(str(e)))
                return
            if all(p is not None for p in parts):
                _put(out, [e for p in parts for e in p])   # type: ignore[union-attr]
    elif name == "Cast":
        x = tensors[0]
        if out.ndim == 1 and x.ndim == 1:
            elems = shape_of(x)
            if elems is not None:
                integral = out.dtype.name in ("int32", "int64")
                _put(out, elems if integral else [None] * len(elems))


def sliced(x: Tensor, key: Sequence[tuple], bounds_known: bool, out: Tensor) -> None:
    """StridedSlice of a shape-like vector x (`key`: array.strided_slice's, with the graph knowing every bound
    when `bounds_known`): `tf.shape(x)[i]` of a known dimension is a constant to the shape functions after it
    (marked FOLDED), a plain slice `v[b:e:s]` keeps that part of v's partial value (PartialStridedSliceShape)."""
    if x.ndim != 1 or graph_constants.level(out) != graph_constants.VARYING or not bounds_known:
        return
    entry = _entry(x)
    if entry is None:
        return
    elems = entry[1]
    if isinstance(elems, Refused):   # (a slice of a refused slice: refused too)
        _put(out, elems)
        return
    if len(key) == 1 and key[0][0] == "i" and entry[2]:
        i = int(key[0][1])
        if -len(elems) <= i < len(elems) and elems[i] is not None:
            graph_constants._mark(out, graph_constants.FOLDED)
        return
    if len(key) == 1 and key[0][0] == "s" and out.ndim == 1:
        _, b, e, s = key[0]
        if s != 0:
            stride = 1 if s is None else int(s)
            # (a slice of static length 0 is the scalar shape before PartialStridedSliceShape is asked:
            # ConstantPartialShape's first test)
            py = subshape(elems, b, e, stride)
            _put(out, py if not py else tf_subshape(elems, b, e, stride))


def mark(out: Tensor, dims: Sequence[int | None] | None) -> Tensor:
    """out with the dimensions `dims` leaves None (None: its rank) unknown to the graph being built."""
    if dims is None:
        return static_shapes.mark_rank_unknown(out)
    if len(dims) != out.ndim:
        return out
    return static_shapes.mark(out, [d is None for d in dims])


def shaped(*params: str, rule: Callable[[dict], list[int | None] | None] | None = None,
           always: bool = False) -> Callable:
    """Decorator of an op's public function whose output's static shape depends on the values of its shape-like
    arguments `params` (Fill's dims, the random ops' shape: MakeShapeFromShapeTensor; Tile's multiples, ...):
    inside a tf.function, when the graph does not know one of them in full, the output's dimensions the graph
    does not know are marked: those `rule` gives None (it takes the call's arguments by name, defaults applied,
    and returns the output's static shape, None for an unknown rank); without a rule, the first parameter's
    partial shape (`shape_of`). `always`: the rule applies in every traced call (an output whose size depends on
    data: NonMaxSuppression's). A tuple of tensors (top_k's values and indices) has each marked."""
    def deco(fn: Callable) -> Callable:
        sig = inspect.signature(fn)
        names = list(sig.parameters)
        where = [(names.index(p), p) for p in params]

        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            out = fn(*args, **kwargs)
            from simdist.runtime.ops import pruning
            # (a deferred kernel error's stand-in, an op TF prunes when unused: its shape is not read here, a read
            # raises the error; `tf.signal.frame(x, 2, tf.shape(x)[0] - 6)` of [6], unused, fz48)
            if context._function_depth and not any(pruning.is_standin(o) for o in
                                                    (out if isinstance(out, tuple) else (out,))) and (isinstance(out, Tensor) or isinstance(out, tuple) and out and
                                            all(isinstance(o, Tensor) for o in out)) and \
                    (always or any(varying(args[i] if len(args) > i else kwargs.get(p)) for i, p in where)):
                if rule is None:
                    dims = shape_of(args[where[0][0]] if len(args) > where[0][0] else kwargs.get(params[0]))
                else:
                    bound = sig.bind(*args, **kwargs)
                    bound.apply_defaults()
                    dims = rule(bound.arguments)
                for o in (out if isinstance(out, tuple) else (out,)):
                    mark(o, dims)
            return out
        return wrapper
    return deco
