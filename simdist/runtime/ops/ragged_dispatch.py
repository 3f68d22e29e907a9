"""The ragged dispatch of TF 2.21's elementwise APIs (tensorflow/python/ops/ragged/ragged_dispatch.py,
`dispatch_for_unary_elementwise_apis` / `dispatch_for_binary_elementwise_apis` over
ragged_tensor.Ragged; ragged_operators.py): a unary API given a RaggedTensor maps its flat_values; a
binary API given one or two computes on flat_values once both operands have the same row
partitions: two RaggedTensors must have equal nested row_splits (else InvalidArgumentError
"Condition x == y did not hold." with check_ops' detail), a dense operand is broadcast onto the
ragged one's rows as DynamicRaggedShape broadcasting does (its dimensions of size 1 repeated; a
dimension matching a ragged one only when every row has that length), row_splits dtypes int32 and
int64 may not mix. UNARY_APIS / BINARY_APIS name the APIs TF registers (dispatch's
_UNARY_ELEMENTWISE_APIS / _BINARY_ELEMENTWISE_APIS of TF 2.21, as tf.* names; pinned in
tests/runtime/test_ragged_ops_tf.py); `install` wraps the facade's functions of those names, the
way sparse_api.sparse_unary wraps them for SparseTensor. RaggedTensor's Python operators and
__getitem__ (ragged_getitem.py: rows and slices of rows) are installed here too. Clause ops.ragged."""

from __future__ import annotations

import functools
import inspect
from typing import Any, Callable

import numpy as np

from simdist.runtime import context, dtypes, errors
from simdist.runtime import ragged_partition as rp
from simdist.runtime.ops import array, scatter
from simdist.runtime.ragged_tensor import RaggedTensor, _ragged_indices
from simdist.runtime.tensor import Tensor, convert_to_tensor

__all__ = ["UNARY_APIS", "BINARY_APIS", "ragged_unary", "ragged_binary", "install", "broadcast_dense", "getitem"]

UNARY_APIS = (
    "abs", "acos", "acosh", "as_string", "asin", "asinh", "atan", "atanh", "bitwise.invert", "cast", "clip_by_value",
    "cos", "cosh", "debugging.check_numerics", "dtypes.cast", "dtypes.saturate_cast", "exp", "floor",
    "image.adjust_brightness", "image.adjust_gamma", "image.convert_image_dtype", "image.random_brightness",
    "image.stateless_random_brightness", "io.decode_base64", "io.decode_compressed", "io.encode_base64",
    "logical_not", "math.abs", "math.acos", "math.acosh", "math.angle", "math.asin", "math.asinh", "math.atan",
    "math.atanh", "math.bessel_i0", "math.bessel_i0e", "math.bessel_i1", "math.bessel_i1e", "math.ceil", "math.conj",
    "math.cos", "math.cosh", "math.digamma", "math.erf", "math.erfc", "math.erfcinv", "math.erfinv", "math.exp",
    "math.expm1", "math.floor", "math.imag", "math.is_finite", "math.is_inf", "math.is_nan", "math.lgamma",
    "math.log", "math.log1p", "math.log_sigmoid", "math.logical_not", "math.ndtri", "math.negative",
    "math.nextafter", "math.real", "math.reciprocal", "math.reciprocal_no_nan", "math.rint", "math.round",
    "math.rsqrt", "math.sigmoid", "math.sign", "math.sin", "math.sinh", "math.softplus", "math.softsign",
    "math.special.bessel_i0", "math.special.bessel_i0e", "math.special.bessel_i1", "math.special.bessel_i1e",
    "math.special.bessel_j0", "math.special.bessel_j1", "math.special.bessel_k0", "math.special.bessel_k0e",
    "math.special.bessel_k1", "math.special.bessel_k1e", "math.special.bessel_y0", "math.special.bessel_y1",
    "math.special.dawsn", "math.special.expint", "math.special.fresnel_cos", "math.special.fresnel_sin",
    "math.special.spence", "math.sqrt", "math.square", "math.tan", "math.tanh", "negative", "nn.elu", "nn.gelu",
    "nn.leaky_relu", "nn.relu", "nn.relu6", "nn.selu", "nn.sigmoid", "nn.silu", "nn.softplus", "nn.softsign",
    "nn.swish", "nn.tanh", "ones_like", "round", "saturate_cast", "sigmoid", "sign", "sin", "sinh", "sqrt",
    "square", "strings.as_string", "strings.length", "strings.lower", "strings.regex_full_match",
    "strings.regex_replace", "strings.strip", "strings.substr", "strings.to_hash_bucket",
    "strings.to_hash_bucket_fast", "strings.to_hash_bucket_strong", "strings.to_number", "strings.unicode_script",
    "strings.unicode_transcode", "strings.upper", "tan", "tanh", "zeros_like")

BINARY_APIS = (
    "add", "atan2", "bitwise.bitwise_and", "bitwise.bitwise_or", "bitwise.bitwise_xor", "bitwise.left_shift",
    "bitwise.right_shift", "complex", "divide", "dtypes.complex", "equal", "greater", "greater_equal", "less",
    "less_equal", "logical_and", "logical_or", "math.add", "math.atan2", "math.divide", "math.divide_no_nan",
    "math.equal", "math.floordiv", "math.floormod", "math.greater", "math.greater_equal", "math.less",
    "math.less_equal", "math.logical_and", "math.logical_or", "math.logical_xor", "math.maximum", "math.minimum",
    "math.mod", "math.multiply", "math.multiply_no_nan", "math.not_equal", "math.pow", "math.scalar_mul",
    "math.squared_difference", "math.subtract", "math.truediv", "math.xdivy", "math.xlog1py", "math.xlogy",
    "math.zeta", "maximum", "minimum", "multiply", "nn.sigmoid_cross_entropy_with_logits", "not_equal", "pow",
    "realdiv", "scalar_mul", "subtract", "truediv", "truncatediv", "truncatemod")


def _params(fn: Callable[..., Any], n: int) -> list[str]:
    try:
        names = [p for p in inspect.signature(fn).parameters if p not in ("args", "kwargs")]
    except (TypeError, ValueError):
        names = []
    return (names + ["x", "y"])[:n]


def _take(args: tuple, kwargs: dict, names: list[str], k: int) -> Any:
    return args[k] if len(args) > k else kwargs.get(names[k])


def _put(args: tuple, kwargs: dict, names: list[str], k: int, value: Any) -> tuple[tuple, dict]:
    if len(args) > k:
        return args[:k] + (value,) + args[k + 1:], kwargs
    return args, {**kwargs, names[k]: value}


def ragged_unary(fn: Callable[..., Any]) -> Callable[..., Any]:
    """fn, which given a RaggedTensor as its first argument maps its flat_values (the other arguments
    as they are): TF's ragged dispatch of a unary elementwise API."""
    if getattr(fn, "_simdist_ragged", False):
        return fn
    names = _params(getattr(fn, "__wrapped__", fn), 1)

    @functools.wraps(fn)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        x = _take(args, kwargs, names, 0)
        if isinstance(x, RaggedTensor):
            a, kw = _put(args, kwargs, names, 0, x.flat_values)
            return x.with_flat_values(fn(*a, **kw))
        return fn(*args, **kwargs)
    wrapped._simdist_ragged = True  # type: ignore[attr-defined]
    return wrapped




def broadcast_dense(rt: RaggedTensor, dense: Tensor) -> Tensor:
    """A dense operand's values at each of rt's flat values' positions (DynamicRaggedShape
    broadcasting: its dimensions of size 1 repeated, a dimension matching a ragged one only when
    every row of that dimension has its length), for an elementwise op with rt.flat_values."""
    rank = rt.shape.rank
    outer = rt.ragged_rank + 1
    if dense.shape.rank <= rank - outer:
        return dense     # (only the flat values' inner dimensions: their own broadcasting)
    if dense.shape.rank > rank:
        raise ValueError(f"Shapes {rt.shape} and {dense.shape} are incompatible")
    dims = [1] * (rank - dense.shape.rank) + dense.shape.as_list()
    d = array.reshape(dense, dims) if len(dims) != dense.shape.rank else dense
    n = rt.nrows_int()
    if dims[0] not in (1, n):
        raise errors.InvalidArgumentError(None, None, "Condition x == y did not hold.\nFirst 1 elements of x:\n"
                                          "[False]\nFirst 1 elements of y:\n[ True]")
    # each ragged dimension the dense one covers: 1 (repeated) or every row's length; once the operand
    # is repeated along an outer dimension, TF 2.21's broadcaster refuses a later ragged dimension it
    # does not repeat, even when every row matches it ("Last row partition does not match
    # flat_values.": the operand's size there against the flat values' count)
    broadcasting = dims[0] == 1 and n != 1
    level: Any = rt
    for k in range(1, outer):
        s = level.row_splits._v
        lengths = s[1:] - s[:-1]
        if dims[k] != 1 and not (lengths == dims[k]).all():
            want = np.arange(len(s)) * dims[k]
            raise rp.splits_mismatch(want.astype(s.dtype), s)
        if dims[k] != 1 and broadcasting:
            rp.fail_binary("Last row partition does not match flat_values.", "==", False, np.asarray([dims[k]]),
                           np.asarray([int(rt.flat_values.shape[0])]))
        broadcasting = broadcasting or (dims[k] == 1 and not (lengths == 1).all())
        level = level.values
    idx = _ragged_indices(rt)
    idx = np.where(np.asarray(dims[:outer]) == 1, 0, idx)
    inner_dense = dims[outer:]
    if dense.shape.rank == rank - outer + 1:
        # (the operand's first dimension is the last ragged one: DynamicRaggedShape's broadcast_flat_values gathers
        # the operand itself along it (`_LayerBroadcaster.broadcast_tensor`, no reshape first), so a tape's gradient
        # of it is Gather's IndexedSlices: `ragged + [0.25]`, TF 2.21 observed; fz57, fz55b seeds 57201 #0, 57202 #7)
        col = idx.reshape(len(idx), outer)[:, outer - 1].astype(np.int64)
        return array.gather(dense, convert_to_tensor(col, dtype=dtypes.int64))
    # (no flat values: still a gather of the operand, so a tape connects it and its gradient is zeros, not None,
    # as TF's broadcast gather gives an empty IndexedSlices; fz55b seed 55201 #29)
    return scatter.gather_nd(d, convert_to_tensor(idx.astype(np.int64).reshape(len(idx), outer), dtype=dtypes.int64))


def _match(x: RaggedTensor, y: Any) -> tuple[Any, Any]:
    """The flat operands of a binary op with ragged x (y ragged or dense)."""
    if isinstance(y, RaggedTensor):
        if x.row_splits_dtype != y.row_splits_dtype:
            raise ValueError("Input RaggedTensors have mismatched row_splits dtypes; use "
                             "RaggedTensor.with_row_splits_dtype() to convert them to compatible dtypes.")
        xs, ys = x.nested_row_splits, y.nested_row_splits
        for a, b in zip(xs, ys):
            if a._v.shape != b._v.shape or not np.array_equal(a._v, b._v):
                raise rp.splits_mismatch(a._v, b._v)
        if len(xs) != len(ys):
            raise ValueError(f"Shapes {x.shape} and {y.shape} are incompatible")
        return x.flat_values, y.flat_values
    return x.flat_values, y


def ragged_binary(fn: Callable[..., Any]) -> Callable[..., Any]:
    """fn, which given a RaggedTensor as either of its first two arguments computes on flat_values
    with the operands' partitions matched (TF's ragged dispatch of a binary elementwise API)."""
    if getattr(fn, "_simdist_ragged", False):
        return fn
    names = _params(getattr(fn, "__wrapped__", fn), 2)

    @functools.wraps(fn)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        x, y = _take(args, kwargs, names, 0), _take(args, kwargs, names, 1)
        if not isinstance(x, RaggedTensor) and not isinstance(y, RaggedTensor):
            return fn(*args, **kwargs)
        rt = x if isinstance(x, RaggedTensor) else y
        try:
            if isinstance(x, RaggedTensor):
                fx, fy = _match(x, y)
                if not isinstance(y, RaggedTensor) and not isinstance(y, Tensor):
                    fy = _dense_operand(y, fx)
                if not isinstance(y, RaggedTensor):
                    fy = broadcast_dense(x, fy)
            else:
                fy, fx = _match(y, x)
                if not isinstance(x, Tensor):
                    fx = _dense_operand(x, fy)
                fx = broadcast_dense(y, fx)
        except errors.InvalidArgumentError:
            if context.in_function():
                _graph_types_first(fn, args, kwargs, names, x, y)
            raise
        a, kw = _put(args, kwargs, names, 0, fx)
        a, kw = _put(a, kw, names, 1, fy)
        return rt.with_flat_values(fn(*a, **kw))
    wrapped._simdist_ragged = True  # type: ignore[attr-defined]
    return wrapped


def _graph_types_first(fn: Callable[..., Any], args: Any, kwargs: Any, names: Any, x: Any, y: Any) -> None:
    """In a graph the partitions' check is an assertion the function runs (check_ops' Assert under
    DynamicRaggedShape broadcasting), while the op on the flat values is built at trace, its operands'
    dtypes checked then: TF 2.21 traces `ragged([[1, 2, 3], [4]]) + ragged([[1.0, 2.0], [], [3.0]])` to
    AddV2's TypeError, where eagerly the partitions' InvalidArgumentError comes first (fz47b, fz44_gen seed
    44009). Raises the op's TypeError when the flat operands' dtypes refuse it; anything else is left to
    the caller's partitions error."""
    fx = x.flat_values if isinstance(x, RaggedTensor) else x
    fy = y.flat_values if isinstance(y, RaggedTensor) else y
    a, kw = _put(args, kwargs, names, 0, fx)
    a, kw = _put(a, kw, names, 1, fy)
    from simdist.runtime.ops import trace_errors
    try:
        fn(*a, **kw)
    except Exception as err:  # noqa: BLE001 - only a trace-time TypeError (dtypes) comes first
        if isinstance(err, TypeError) or isinstance(trace_errors.at_trace(err), TypeError):
            raise


def _dense_operand(v: Any, flat: Tensor) -> Tensor:
    """A Python or NumPy operand converted as TF converts it beside the ragged one (its dtype as hint)."""
    if hasattr(v, "_as_tensor"):
        return v._as_tensor()
    try:
        return convert_to_tensor(v, dtype_hint=flat.dtype)
    except (TypeError, ValueError):
        return convert_to_tensor(v)


def install(namespace: dict, prefix: str, names: Any = None) -> None:
    """Wrap the functions of a facade namespace (a module's globals or a SimpleNamespace's vars)
    that TF registers as elementwise APIs under `prefix` ("" for tf, "math." for tf.math, ...)."""
    for api in UNARY_APIS:
        if api.startswith(prefix) and "." not in api[len(prefix):] and api[len(prefix):] in namespace:
            namespace[api[len(prefix):]] = ragged_unary(namespace[api[len(prefix):]])
    for api in BINARY_APIS:
        if api.startswith(prefix) and "." not in api[len(prefix):] and api[len(prefix):] in namespace:
            namespace[api[len(prefix):]] = ragged_binary(namespace[api[len(prefix):]])


# --- RaggedTensor's operators (ragged_operators.py) and __getitem__ (ragged_getitem.py) ---------------------------
def getitem(rt: RaggedTensor, key: Any) -> Any:
    """rt[key]: an int picks a row (bounds-checked: IndexError "Row key i out of bounds"), a slice
    picks rows, tf.newaxis adds an outer dimension, a slice of a ragged dimension slices each row;
    an int or Ellipsis on an inner ragged dimension is ValueError."""
    keys = key if isinstance(key, tuple) else (key,)
    if not keys:
        return rt
    first, rest = keys[0], keys[1:]
    if first is Ellipsis:
        if rest:
            raise ValueError("Cannot index into an inner ragged dimension.")
        return rt
    if first is None:
        inner = getitem(rt, rest) if rest else rt
        n = inner.nrows_int() if isinstance(inner, RaggedTensor) else int(inner.shape[0])
        rsd = rt.row_splits_dtype
        return RaggedTensor(inner, rp.as_splits_tensor(np.array([0, n]), rsd), internal=True, uniform=n)
    s = rt.row_splits._v
    n = len(s) - 1
    if isinstance(first, Tensor):
        first = first._v.item() if first.shape.rank == 0 else first
    if isinstance(first, (int, np.integer)) and not isinstance(first, bool):
        i = int(first)
        if not -n <= i < n:
            raise IndexError(f"Row key {i} out of bounds")
        i = i + n if i < 0 else i
        row = _row_values(rt.values, int(s[i]), int(s[i + 1]))
        return _index_inner(row, rest) if rest else row
    if isinstance(first, slice):
        rows = list(range(n))[first]
        from simdist.runtime.ops.ragged_functions import _gather_rows
        picked = _gather_rows(rt, convert_to_tensor(np.asarray(rows, np.int64), dtype=dtypes.int64))
        if not rest:
            return picked
        return _slice_rows(picked, rest)
    raise TypeError(f"Ragged __getitem__ expects a ragged_tensor, int, slice, Ellipsis, tf.newaxis, or a tuple of "
                    f"these; got {first!r}")


def _row_values(values: Any, a: int, b: int) -> Any:
    from simdist.runtime.ops.ragged_functions import _gather_rows
    if isinstance(values, RaggedTensor):
        return _gather_rows(values, convert_to_tensor(np.arange(a, b, dtype=np.int64), dtype=dtypes.int64))
    return values[a:b]


def _index_inner(row: Any, rest: tuple) -> Any:
    if isinstance(row, RaggedTensor):
        return getitem(row, rest)
    return row[rest if len(rest) > 1 else rest[0]]


def _slice_rows(rt: RaggedTensor, rest: tuple) -> Any:
    """rt[:, k...]: each row sliced by k (an int on a ragged dimension: ValueError)."""
    k, more = rest[0], rest[1:]
    if not isinstance(k, slice):
        raise ValueError("Cannot index into an inner ragged dimension.")
    from simdist.runtime.ops.ragged_functions import _gather_rows
    s = rt.row_splits._v
    picks, lengths = [], []
    for a, b in zip(s[:-1], s[1:]):
        r = list(range(int(a), int(b)))[k]
        picks.extend(r)
        lengths.append(len(r))
    vals = _gather_rows(rt.values, convert_to_tensor(np.asarray(picks, np.int64), dtype=dtypes.int64))
    if more:
        if isinstance(vals, RaggedTensor):
            vals = _slice_rows(vals, more)
        else:
            vals = vals[(slice(None),) + more]
    return RaggedTensor(vals, rp.as_splits_tensor(np.concatenate([[0], np.cumsum(lengths)]), rt.row_splits_dtype),
                        internal=True)


def install_operators(fns: dict) -> None:
    """RaggedTensor's operators as ragged_operators.py defines them, from the facade's dispatching
    functions (`fns`: add, subtract, multiply, truediv, floordiv, floormod, pow, less, less_equal,
    greater, greater_equal, equal, not_equal, logical_and/or/xor, logical_not, negative, abs)."""
    def bin_(name: str, rev: bool = False) -> Callable[[Any, Any], Any]:
        f = fns[name]
        return (lambda self, o: f(o, self)) if rev else (lambda self, o: f(self, o))
    for op, name in (("add", "add"), ("sub", "subtract"), ("mul", "multiply"), ("truediv", "truediv"),
                     ("floordiv", "floordiv"), ("mod", "floormod"), ("pow", "pow"), ("and", "logical_and"),
                     ("or", "logical_or"), ("xor", "logical_xor")):
        setattr(RaggedTensor, f"__{op}__", bin_(name))
        setattr(RaggedTensor, f"__r{op}__", bin_(name, True))
    for op, name in (("lt", "less"), ("le", "less_equal"), ("gt", "greater"), ("ge", "greater_equal")):
        setattr(RaggedTensor, f"__{op}__", bin_(name))
    def equality(name: str, none: bool) -> Callable[[Any, Any], Any]:
        # ragged_dispatch's tensor_equals / tensor_not_equals: None compares unequal, and so does an
        # operand that does not convert or whose partitions or dtype do not match; else the elementwise op
        f = fns[name]

        def op(self: RaggedTensor, o: Any) -> Any:
            if o is None:
                return none
            try:
                return f(self, o)
            except (TypeError, ValueError, errors.InvalidArgumentError):
                return none
        return op
    RaggedTensor.__eq__ = equality("equal", False)  # type: ignore[assignment,method-assign]
    RaggedTensor.__ne__ = equality("not_equal", True)  # type: ignore[assignment,method-assign]
    RaggedTensor.__neg__ = lambda self: fns["negative"](self)  # type: ignore[attr-defined]
    RaggedTensor.__abs__ = lambda self: fns["abs"](self)  # type: ignore[attr-defined]
    RaggedTensor.__invert__ = lambda self: fns["logical_not"](self)  # type: ignore[attr-defined]
    RaggedTensor.__getitem__ = getitem  # type: ignore[attr-defined]

    def unhashable(self: RaggedTensor) -> int:
        raise TypeError("RaggedTensor is unhashable.")
    RaggedTensor.__hash__ = unhashable  # type: ignore[assignment,method-assign]
