"""TF's shape functions of raw ops, run when a tf.function adds the op (clause function.trace-time-errors).

A tf.raw_ops call inside a tf.function adds the op to a graph, and TF runs the op's C++ shape
function (tensorflow/core/ops/*.cc `SetShapeFn`, through shape_inference::InferenceContext) on the
shapes the graph knows: a failed check is a ValueError at trace time ("Shape must be rank 4 but is
rank 3 for '{{node AvgPool}} = ...' with input shapes: [1,4,3]."), where eagerly the kernel raises
InvalidArgumentError (or another class, in its own order). An unknown dimension or rank (an
input_signature's None) passes every check it takes part in, and a shape function reads an
input's VALUE only where the graph knows it (a constant: graph_constants.known).

An op carries its shape function here, keyed by its TF name (`register`), as JAX's primitives
carry abstract-evaluation rules: a function of a `Ctx` (InferenceContext's calls: `with_rank`,
`merge_dim`, ...) transcribed from TF's source in its order, whose first failed check raises
`ShapeFnError` with InferenceContext's text. raw_ops.call runs it (`check`) after the OpDef's
dtype and attr checks and before the kernel. The transcriptions live in shape_fns_*.py.

Shapes are lists of dimensions (None: unknown) or None (unknown rank), as
static_shapes.known_shape gives them.
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

import numpy as np

__all__ = ["ShapeFnError", "Ctx", "register", "registered", "has", "check", "trace_shape", "dims_text", "Shape",
           "kernel_dtype"]

Shape = list | None


class ShapeFnError(Exception):
    """A shape function's failed check: `text` is InferenceContext's (or the op's) message."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text


_FNS: dict[str, Callable[["Ctx"], None]] = {}


def register(*names: str) -> Callable[[Callable[["Ctx"], None]], Callable[["Ctx"], None]]:
    """Decorator: the function is the shape function of TF ops `names`."""
    def put(fn: Callable[["Ctx"], None]) -> Callable[["Ctx"], None]:
        for n in names:
            _FNS[n] = fn
        return fn
    return put


def _load() -> None:
    from simdist.runtime.ops import (shape_fns_array, shape_fns_linalg, shape_fns_misc,  # noqa: F401 (they register)
                                     shape_fns_audio, shape_fns_nn, shape_fns_parsing, shape_fns_ragged,
                                     shape_fns_raw28, shape_fns_raw30, shape_fns_raw31, shape_fns_raw36, shape_fns_raw37, shape_fns_raw38,
                                     shape_fns_rnn,
                                     shape_fns_sparse)


def has(op: str) -> bool:
    """Whether TF op `op` carries a shape function here."""
    if not _FNS:
        _load()
    return op in _FNS


def registered() -> list[str]:
    """The TF op names that carry a shape function, sorted."""
    _load()
    return sorted(_FNS)


def dims_text(s: Shape) -> str:
    """InferenceContext::DebugString of a shape: [2,?,3], or ? for an unknown rank."""
    return "?" if s is None else "[" + ",".join("?" if d is None else str(d) for d in s) + "]"


class Ctx:
    """InferenceContext for one op: its inputs' shapes and (known) values by OpDef input name, and
    its attrs. Each check returns what InferenceContext's does, or raises ShapeFnError."""

    def __init__(self, op: str, shapes: dict[str, Any], values: dict[str, Any], attrs: dict[str, Any]) -> None:
        self.op = op
        self._shapes = shapes
        self._values = values
        self._attrs = attrs

    # -- inputs and attrs
    def input(self, name: str) -> Any:
        """c->input(i): the shape (a list of shapes for a list input)."""
        return self._shapes[name]

    def nth(self, i: int) -> Any:
        """c->input(i): the shape of the OpDef's i-th input."""
        return list(self._shapes.values())[i]

    def value(self, name: str) -> np.ndarray | None:
        """c->input_tensor(i): the input's value where the graph knows it, else None."""
        return self._values.get(name)

    def attr(self, name: str, default: Any = None) -> Any:
        return self._attrs.get(name, default)

    # -- InferenceContext
    @staticmethod
    def fail(text: str) -> None:
        raise ShapeFnError(text)

    @staticmethod
    def rank(s: Shape) -> int | None:
        return None if s is None else len(s)

    @staticmethod
    def dim(s: Shape, i: int) -> int | None:
        """c->Dim(s, i) (negative counts from the end); None when unknown."""
        if s is None:
            return None
        return s[i]

    def with_rank(self, s: Shape, r: int) -> list:
        if s is None:
            return [None] * r
        if len(s) != r:
            self.fail(f"Shape must be rank {r} but is rank {len(s)}")
        return list(s)

    def with_rank_at_least(self, s: Shape, r: int) -> Shape:
        if s is not None and len(s) < r:
            self.fail(f"Shape must be at least rank {r} but is rank {len(s)}")
        return s

    def with_rank_at_most(self, s: Shape, r: int) -> Shape:
        if s is not None and len(s) > r:
            self.fail(f"Shape must be at most rank {r} but is rank {len(s)}")
        return s

    def with_value(self, d: int | None, v: int) -> int:
        """c->WithValue(dim, v)."""
        if d is not None and d != v:
            self.fail(f"Dimension must be {v} but is {d}")
        return v

    def batch_square(self, s: Shape) -> Shape:
        """MakeBatchSquareMatrix (linalg_ops.cc): rank >= 2, then Merge(Dim(-2), Dim(-1)), the merged
        dimension in both places of the shape returned (an unknown column count takes the known row
        count, which later merges read: [2, ?, 4, ?] is [2, ?, 4, 4]; fz36a, sig seed 3620261201 #184)."""
        s = self.with_rank_at_least(s, 2)
        if s is None:
            return None
        n = self.merge_dim(s[-2], s[-1])
        return list(s[:-2]) + [n, n]

    def merge_dim(self, a: int | None, b: int | None) -> int | None:
        """c->Merge(dim, dim)."""
        if a is not None and b is not None and a != b:
            self.fail(f"Dimensions must be equal, but are {a} and {b}")
        return a if a is not None else b

    def merge(self, s0: Shape, s1: Shape) -> Shape:
        """c->Merge(shape, shape)."""
        if s0 is None:
            return s1
        if s1 is None:
            return s0
        if len(s0) != len(s1):
            self.fail(f"Shapes must be equal rank, but are {len(s0)} and {len(s1)}")
        for i, (a, b) in enumerate(zip(s0, s1)):
            if a is not None and b is not None and a != b:
                self.fail(f"Dimension {i} in both shapes must be equal, but are {a} and {b}. "
                          f"Shapes are {dims_text(s0)} and {dims_text(s1)}.")
        return [a if a is not None else b for a, b in zip(s0, s1)]

    def merge_prefix(self, s: Shape, prefix: Shape) -> tuple[Shape, Shape]:
        """c->MergePrefix(s, prefix, &s_out, &prefix_out)."""
        if s is None or prefix is None:
            return s, prefix
        self.with_rank_at_least(s, len(prefix))
        merged = [self.merge_dim(a, b) for a, b in zip(s, prefix)]
        return merged + list(s[len(prefix):]), merged

    @staticmethod
    def subshape(s: Shape, start: int, end: int | None = None) -> Shape:
        if s is None:
            return None
        return list(s[start:end])

    @staticmethod
    def concat(s0: Shape, s1: Shape) -> Shape:
        return None if s0 is None or s1 is None else list(s0) + list(s1)

    def broadcast(self, a: Shape, b: Shape) -> Shape:
        """BroadcastBinaryOpOutputShapeFnHelper (common_shape_fns.cc): two known dimensions
        neither 1 must be equal."""
        if a is None or b is None:
            return None
        n = max(len(a), len(b))
        pa = [1] * (n - len(a)) + list(a)
        pb = [1] * (n - len(b)) + list(b)
        out: list = []
        for x, y in zip(pa, pb):
            if x == 1:
                out.append(y)
            elif y == 1:
                out.append(x)
            elif x is None or y is None:
                out.append(x if y is None else y)
            elif x != y:
                self.fail(f"Dimensions must be equal, but are {x} and {y}")
            else:
                out.append(x)
        return out

    def shape_from_tensor(self, name: str) -> Shape:
        """c->MakeShapeFromShapeTensor(input): the input (a vector) of rank 1, its known values as
        dimensions (-1: unknown), an unknown shape of its length when the graph does not know it."""
        s = self.with_rank(self.input(name), 1)
        v = self.value(name)
        if v is None:
            return None if s[0] is None else [None] * s[0]
        out: list = []
        for d in np.asarray(v).reshape(-1).tolist():
            if d < -1:
                self.fail(f"Invalid value in tensor used for shape: {d}")
            out.append(None if d == -1 else int(d))
        return out


def check(op: str, inputs: dict[str, Any], attrs: dict[str, Any]) -> None:
    """Inside a tf.function, run raw op `op`'s shape function (if it has one) on its inputs (OpDef
    name -> tensor, or list of tensors) and attrs: a failed check raises InvalidArgumentError
    marked with TF's trace-time ValueError (trace_errors.shape_error); nothing eagerly."""
    from simdist.runtime import context
    if not context.in_function():
        return
    if not _FNS:
        _load()
    fn = _FNS.get(op)
    if fn is None:
        return
    from simdist.runtime.ops import graph_constants, static_shapes
    from simdist.runtime.tensor import Tensor

    def shape(t: Any) -> Shape:
        return static_shapes.known_shape(t) if isinstance(t, Tensor) else list(np.shape(t))

    def value(t: Any) -> Any:
        if not isinstance(t, Tensor):
            return None
        return t.numpy() if graph_constants.known(t) else None

    shapes: dict[str, Any] = {}
    values: dict[str, Any] = {}
    flat: list[Shape] = []
    for n, t in inputs.items():
        if isinstance(t, (list, tuple)):
            shapes[n] = [shape(x) for x in t]
            values[n] = [value(x) for x in t]
            flat.extend(shapes[n])
        else:
            shapes[n] = shape(t)
            values[n] = value(t)
            flat.append(shapes[n])
    try:
        fn(Ctx(op, shapes, values, attrs))
    except ShapeFnError as e:
        from simdist.runtime.ops import trace_errors
        raise trace_errors.shape_error(f"{e.text} [Op:{op}]", e.text, op, flat) from None



def kernel_dtype(opdef: Any, op: str, inputs: dict[str, Any], attrs: dict[str, Any], dts: tuple,
                 dtype_attrs: Any = None) -> Any:
    """`opdef.dtype(dts, dtype_attrs)`, the output dtype(s) of TF op `op`; inside a tf.function a refusal that is
    no graph-build error (a missing CPU kernel for a half or bfloat16 input, which only the graph's run finds)
    comes after the op's shape function (`check` on `inputs`, OpDef name -> tensor): TF adds the node first, so
    `tf.linalg.solve(np.float16(1.0), -1)` traced is "Shape must be at least rank 2 but is rank 0" ValueError, not
    the missing kernel's InvalidArgumentError (fz42, fz14 seed 1420423002 #163; Cholesky's, fz41). op_def_library's
    T list (bfloat16 where the OpDef refuses it: TypeError) stays first."""
    try:
        return opdef.dtype(dts, dtype_attrs)
    except Exception as e:
        from simdist.runtime.ops import trace_errors
        if not trace_errors.builds(e):
            check(op, inputs, attrs)
        raise


def trace_shape(op: str, counts: dict[str, str] | None = None,
                reads_values: bool = False) -> Callable[..., str | None]:
    """An OpDef.trace_shape (dispatch runs it inside a tf.function before the kernel, on the inputs'
    shapes as the graph knows them) made from TF op `op`'s registered shape function: the simdist op's
    inputs taken positionally in the OpDef's input order, their values unknown, its attrs as given.
    A public function's op then checks at trace what the raw call checks (`check`): one
    transcription serves both. `counts`: for an op with list inputs (an OpDef number_attr, SparseConcat's
    N), the simdist attr that holds each list's length (`{"N": "n"}`): that many shapes make the list.
    `reads_values`: the shape function reads inputs' values (c->input_tensor: SparseTensorDenseMatMul's a_shape,
    ReduceJoin's reduction_indices) where the graph knows them (graph_constants.known): dispatch passes the
    op's input tensors too (the function's `reads_values` attribute; fz45b)."""
    names: list[tuple[str, str | None]] = []

    def run(shapes: list, attrs: dict | None, tensors: Sequence[Any] | None = None) -> str | None:
        if not names:   # (the OpDef's input names and list lengths' attrs, read once)
            from simdist.runtime.ops import raw_ops
            names.extend((a["input"], a.get("number_attr")) for a in raw_ops.opdefs()["ops"][op]["args"]
                         if "input" in a)
        if not _FNS:
            _load()
        named: dict[str, Any] = {}
        values: dict[str, Any] = {}
        i = 0
        for name, number in names:
            if number is not None and counts is not None and number in counts:
                k = int((attrs or {})[counts[number]])
                named[name] = list(shapes[i:i + k])
                i += k
            elif i < len(shapes):
                named[name] = shapes[i]
                if tensors is not None and i < len(tensors):
                    values[name] = _known_value(tensors[i])
                i += 1
        try:
            _FNS[op](Ctx(op, named, values, dict(attrs or {})))
        except ShapeFnError as e:
            return e.text
        return None
    run.reads_values = reads_values   # type: ignore[attr-defined]
    return run


def _known_value(t: Any) -> Any:
    """A tensor's value where the traced graph knows it (a constant), else None."""
    from simdist.runtime.ops import graph_constants
    from simdist.runtime.tensor import Tensor
    if not isinstance(t, Tensor):
        return None
    return t.numpy() if graph_constants.known(t) else None
