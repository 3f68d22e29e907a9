"""`tf.debugging`: the elementwise assertions (InvalidArgumentError, TF's class, when the condition
fails), check_ops.py's static assertions with TF's messages and check_numerics (CheckNumerics:
runtime/ops/check_numerics.py); clause ops.debugging-checks."""

from typing import Any as _Any, Callable as _Callable

import numpy as _np

from simdist.runtime import errors as _errors
from simdist.runtime.graph_op import op_result as _op_result
from simdist.runtime.assert_messages import eager_binary_data as _eager_binary_data, pretty as _pretty
from simdist.runtime.assert_messages import summarize_count as _summarize
from simdist.runtime.tensor import convert_to_tensor as _convert_to_tensor


def _check(ok: bool, message: str | None, condition: str, values: dict[str, _Any], static: bool = False,
           eager: _Callable[[], list[_Any]] | None = None, summarize: _Any = None) -> None:
    """Raise the failed assertion's InvalidArgumentError: eagerly with check_ops' eager data (`eager()`, each item by
    _pretty), in a tf.function with the static form (the values; TF also names the graph tensors)."""
    from simdist.runtime import context
    if ok or (context.in_placeholder_run() and not static):
        # (a dry run's placeholder zeros: the Assert op fails only when TF's graph runs, after the
        # trace, which goes on; graph constants failing are at_build, raised by the caller)
        return
    if eager is not None and not context.in_function():
        n = _summarize(summarize)
        raise _errors.InvalidArgumentError(None, None, "\n".join(_pretty(d, n) for d in eager()))
    lines = [message] if message else []
    lines.append(f"Condition {condition} did not hold element-wise:")
    for k, v in values.items():
        lines.append(f"{k} = {_np.asarray(v).tolist()}")
    raise _errors.InvalidArgumentError(None, None, "\n".join(lines))


def _unary(cond: _Callable[[_np.ndarray], _np.ndarray], text: str, joined: bool = False) -> _Callable[..., None]:
    """check_ops.assert_positive and kin, TF's v1 form (x, data, summarize, message, name): eagerly the data
    [message prefix, "Condition x > 0 did not hold element-wise:", "x (shape=... dtype=...) = ", x], or the given
    `data` alone (the message then unused: TF passes the data on to assert_less without it); `joined`:
    assert_non_positive's source lacks the comma between the two texts, so they print on one line."""
    def assertion(x: _Any, data: _Any = None, summarize: _Any = None, message: str | None = None,
                  name: _Any = None) -> _Any:
        t = _convert_to_tensor(x)
        a = t._v

        def eager() -> list[_Any]:
            if data is not None:
                return list(data)
            head = [_prefix(message), f"Condition {text} did not hold element-wise:"]
            label = f"x (shape={t.shape} dtype={t.dtype.name}) = "
            return head[:1] + ([head[1] + label] if joined else [head[1], label]) + [t]
        _check(bool(_np.all(cond(a))), message, text, {"x": a}, eager=eager, summarize=summarize)
        return _op_result("assert/Assert/Assert", "Assert")
    return assertion


def _v2_unary(v1: _Callable[..., _Any]) -> _Callable[..., _Any]:
    """The v2 form (x, message, summarize, name) of a v1 unary assertion (check_ops' *_v2: data=None)."""
    def assertion(x: _Any, message: str | None = None, summarize: _Any = None, name: _Any = None) -> _Any:
        return v1(x, None, summarize, message, name)
    assertion.__name__ = assertion.__qualname__ = v1.__name__
    return assertion


_assert_positive_v1 = _unary(lambda a: a > 0, "x > 0")
_assert_negative_v1 = _unary(lambda a: a < 0, "x < 0")
_assert_non_positive_v1 = _unary(lambda a: a <= 0, "x <= 0", joined=True)
_assert_non_negative_v1 = _unary(lambda a: a >= 0, "x >= 0")
assert_positive, assert_negative, assert_non_positive, assert_non_negative = (
    _v2_unary(f) for f in (_assert_positive_v1, _assert_negative_v1, _assert_non_positive_v1, _assert_non_negative_v1))


def _binary(compare: str, text: str) -> _Callable[..., None]:
    """check_ops._binary_assert, TF's v1 form (x, y, data, summarize, message, name): x and y converted each by
    itself, then compared by the op (math_ops.equal, less, ...), whose dtype rules apply: a bool x for Less, or x
    and y of two dtypes, is the op's error (eagerly InvalidArgumentError; in a tf.function TypeError at trace,
    clause ops.attr-types), not a failed condition. Eagerly the message (if any), then the given `data` or
    _make_assert_msg_data's."""
    def assertion(x: _Any, y: _Any, data: _Any = None, summarize: _Any = None, message: str | None = None,
                  name: _Any = None) -> _Any:
        from simdist.runtime import context
        from simdist.runtime.ops import graph_constants, math, trace_errors
        xt, yt = _convert_to_tensor(x), _convert_to_tensor(y)
        test = getattr(math, compare)(xt, yt)
        static = context.in_function() and graph_constants.python_constant(xt, yt)
        sym = text.split(" ")[1]

        def eager() -> list[_Any]:
            shown = list(data) if data is not None else _eager_binary_data(sym, xt, yt, test, _summarize(summarize))
            return ([] if message is None else [message]) + shown
        try:
            _check(bool(_np.all(test._v)), message, text, {"x": xt._v, "y": yt._v}, static, eager=eager,
                   summarize=summarize)
        except _errors.InvalidArgumentError as e:
            # (in a graph, check_ops._binary_assert's _assert_static: x and y both known to
            # tensor_util.constant_value fail while the graph is built, get_concrete_function too;
            # fz14 seed 1420261202 #123)
            if static:
                raise trace_errors.at_build(e) from None
            raise
        return _op_result(f"assert_{compare}/Assert/Assert", "Assert")   # (in a tf.function the Assert op)
    assertion.__name__ = assertion.__qualname__ = f"assert_{compare}"
    return assertion


def _v2_binary(v1: _Callable[..., _Any]) -> _Callable[..., _Any]:
    """The v2 form (x, y, message, summarize, name) of a v1 binary assertion (check_ops' *_v2: data=None)."""
    def assertion(x: _Any, y: _Any, message: str | None = None, summarize: _Any = None, name: _Any = None) -> _Any:
        return v1(x, y, None, summarize, message, name)
    assertion.__name__ = assertion.__qualname__ = v1.__name__
    return assertion


_assert_equal_v1 = _binary("equal", "x == y")
_assert_less_v1 = _binary("less", "x < y")
_assert_greater_v1 = _binary("greater", "x > y")
_assert_less_equal_v1 = _binary("less_equal", "x <= y")
_assert_greater_equal_v1 = _binary("greater_equal", "x >= y")
assert_equal, assert_less, assert_greater, assert_less_equal, assert_greater_equal = (
    _v2_binary(f) for f in (_assert_equal_v1, _assert_less_v1, _assert_greater_v1, _assert_less_equal_v1,
                            _assert_greater_equal_v1))


def _assert_near_v1(x: _Any, y: _Any, rtol: float | None = None, atol: float | None = None, data: _Any = None,
                   summarize: _Any = None, message: str | None = None, name: _Any = None) -> _Any:
    """`tf.compat.v1.assert_near` (check_ops.py): every |x - y| < atol + rtol * |y| (strictly), rtol
    and atol 10 eps of x's real dtype by default (np.finfo: an integer x is ValueError), y converted
    to x's dtype; else tf.Assert's InvalidArgumentError with TF's data list (the message, the
    tolerances, x and y with their shapes and dtypes) or the given `data` (the message then unused)."""
    from simdist.runtime.ops import math as _math, reductions as _red, unary as _un
    from simdist.runtime.ops.control_flow import Assert as _assert
    xt = _convert_to_tensor(x)
    yt = _convert_to_tensor(y, dtype=xt.dtype)
    dtype = xt.dtype.real_dtype if xt.dtype.is_complex else xt.dtype
    eps = _np.finfo(dtype.as_numpy_dtype).eps
    rt = _convert_to_tensor(10 * eps if rtol is None else rtol, dtype=dtype)
    at = _convert_to_tensor(10 * eps if atol is None else atol, dtype=dtype)
    if data is None:
        data = [_prefix(message), f"x and y not equal to tolerance rtol = {rt!s}, atol = {at!s}",
                f"x (shape={xt.shape} dtype={xt.dtype.name}) = ", xt,
                f"y (shape={yt.shape} dtype={yt.dtype.name}) = ", yt]
    tol = at + rt * _un.abs_(yt)
    condition = _red.reduce_all(_math.less(_un.abs_(xt - yt), tol))
    return _assert(condition, data, summarize=summarize, name="assert_near/Assert")


def assert_near(x: _Any, y: _Any, rtol: float | None = None, atol: float | None = None, message: str | None = None,
                summarize: _Any = None, name: _Any = None) -> _Any:
    """`tf.debugging.assert_near` (assert_near_v2): the v1 form without data."""
    return _assert_near_v1(x, y, rtol, atol, None, summarize, message, name)


from simdist.runtime.ops.control_flow import Assert  # noqa: E402,F401  (tf.debugging.Assert is tf.Assert)


def _rank_at_run_time(t: _Any, text: str) -> bool:
    """Whether a failed rank assertion of `t` is the graph's Assert op's: when the traced graph does
    not know t's rank (an unknown-rank TensorSpec), check_ops builds an Assert that fails as the
    graph runs, InvalidArgumentError "assertion failed: ...", so the trace itself goes on (fz35b,
    fourteenth generator seed 1420353003 #254: `tf.assert_rank(x, 5)` of a TensorSpec(None) traced
    where simdist raised the static ValueError). True in a dry run (the trace goes on); raises in a
    call."""
    from simdist.runtime import dtypes as _dtypes, errors as _errors
    from simdist.runtime.ops import dispatch as _dispatch, static_shapes as _static
    if not _static.rank_unknown(t):
        return False
    _dispatch.refused(_errors.InvalidArgumentError(None, None, f"assertion failed: [] [{text}] [Received shape: ] "
                                                   f"{list(t.shape.as_list())}"), _dtypes.bool_, [])
    return True


def assert_rank(x: _Any, rank: _Any, message: str | None = None, name: str | None = None) -> _Any:
    """`tf.debugging.assert_rank` (= `tf.assert_rank`): x's rank is `rank`, else ValueError (TF 2.21
    checks the static rank at once, eagerly and while tracing); rank: a scalar int or int32 tensor
    (another dtype: TypeError; not a scalar: ValueError)."""
    return _assert_rank_v1(x, rank, None, None, message, name)


def _assert_rank_v1(x: _Any, rank: _Any, data: _Any = None, summarize: _Any = None, message: str | None = None,
                   name: str | None = None) -> _Any:
    """`tf.compat.v1.assert_rank`: the static check raises without the data (which only a graph's Assert of an
    unknown rank would print)."""
    from simdist.runtime.ops.args import t as _t
    from simdist.runtime.tensor import Tensor
    t = _t(x)
    r = rank if isinstance(rank, Tensor) else _convert_to_tensor(rank)
    # (check_ops' _message_prefix before the checks: a message tensor of several elements is its truth's ValueError;
    # TF 2.21, fz62: the fourth generator's seed 62401 #7)
    prefix = _prefix(message)
    if r.dtype.name != "int32":
        raise TypeError(f"tensor must be of type tf.int32; got tf.{r.dtype.name}")
    if r.ndim != 0:
        raise ValueError("Rank must be a scalar.")
    want = int(_np.asarray(r._v))
    if t.ndim != want and _rank_at_run_time(t, f"Tensor must have rank {want}"):
        return _op_result("assert_rank/Assert/Assert", "Assert")
    if t.ndim != want:
        shape = tuple(t.shape.as_list())
        raise ValueError(f"{prefix}Tensor {name or ''} must have rank {want}.  "
                         f"Received rank {t.ndim}, shape {shape}")
    return _op_result("assert_rank/static_checks_determined_all_ok", "NoOp")


# --- issue 29, ninth session: the rest of tf.debugging (check_ops.py's eager paths; clause ops.debugging-checks)
from simdist.runtime.ops.check_numerics import assert_all_finite, check_numerics  # noqa: E402,F401
from simdist.runtime.numerics_callback import disable as disable_check_numerics  # noqa: E402,F401
from simdist.runtime.numerics_callback import enable as enable_check_numerics  # noqa: E402,F401


def _prefix(message: _Any) -> str:
    return f"{message}.  " if message else ""


def _dstr(d: _Any) -> str:
    """A DType as TF's str() prints it: <dtype: 'float32'>."""
    return f"<dtype: '{d.name}'>"


def _shape_str(t: _Any) -> str:
    """A TensorShape as TF prints it: (2, 3), (3,), ()."""
    return str(tuple(t.shape.as_list()))


def _int32_ranks(ranks: _Any) -> list[int]:
    """check_ops._assert_ranks_condition's checks of each rank: int32 (TypeError), a scalar (ValueError)."""
    from simdist.runtime.tensor import Tensor
    out = []
    for rank in ranks:
        r = rank if isinstance(rank, Tensor) else _convert_to_tensor(rank)
        if r.dtype.name != "int32":
            raise TypeError(f"tensor must be of type tf.int32; got tf.{r.dtype.name}")
        out.append(r)
    for r in out:
        if r.ndim != 0:
            raise ValueError("Rank must be a scalar.")
    return [int(_np.asarray(r._v)) for r in out]


def assert_rank_at_least(x: _Any, rank: _Any, message: _Any = None, name: _Any = None) -> _Any:
    """`tf.debugging.assert_rank_at_least`: x's static rank is >= rank, else ValueError."""
    return _assert_rank_at_least_v1(x, rank, None, None, message, name)


def _assert_rank_at_least_v1(x: _Any, rank: _Any, data: _Any = None, summarize: _Any = None, message: _Any = None,
                            name: _Any = None) -> _Any:
    """`tf.compat.v1.assert_rank_at_least` (the data unused by the static check)."""
    from simdist.runtime.ops.args import t as _t
    t = _t(x)
    prefix = _prefix(message)   # (before the checks, as check_ops: a message's truth)
    want = _int32_ranks([rank])[0]
    if t.ndim < want and _rank_at_run_time(t, f"Tensor must have rank at least {want}"):
        return _op_result("assert_rank_at_least/Assert/Assert", "Assert")
    if t.ndim < want:
        raise ValueError(f"{prefix}Tensor  must have rank at least {want}.  Received rank {t.ndim}, "
                         f"shape {_shape_str(t)}")
    return _op_result("assert_rank_at_least/static_checks_determined_all_ok", "NoOp")


def assert_rank_in(x: _Any, ranks: _Any, message: _Any = None, name: _Any = None) -> _Any:
    """`tf.debugging.assert_rank_in`: x's static rank is one of `ranks`, else ValueError."""
    return _assert_rank_in_v1(x, ranks, None, None, message, name)


def _assert_rank_in_v1(x: _Any, ranks: _Any, data: _Any = None, summarize: _Any = None, message: _Any = None,
                      name: _Any = None) -> _Any:
    """`tf.compat.v1.assert_rank_in` (the data unused by the static check)."""
    from simdist.runtime.ops.args import t as _t
    t = _t(x)
    prefix = _prefix(message)   # (before the checks, as check_ops: a message's truth)
    want = _int32_ranks(list(ranks))
    if t.ndim not in want and _rank_at_run_time(t, f"Tensor must have rank in {tuple(want)}"):
        return _op_result("assert_rank_in/Assert/Assert", "Assert")
    if t.ndim not in want:
        raise ValueError(f"{prefix}Tensor  must have rank in {tuple(want)}.  Received rank {t.ndim}, "
                         f"shape {_shape_str(t)}")
    return _op_result("assert_rank_in/static_checks_determined_all_ok", "NoOp")


def assert_integer(x: _Any, message: _Any = None, name: _Any = None) -> None:
    """`tf.debugging.assert_integer`: TypeError unless x's dtype is an integer one."""
    t = _convert_to_tensor(x)
    if not t.dtype.is_integer:
        raise TypeError(f'{_prefix(message)}Expected "x" to be integer type.  Found: tensor of dtype {_dstr(t.dtype)}')


def assert_type(tensor: _Any, tf_type: _Any, message: _Any = None, name: _Any = None) -> None:
    """`tf.debugging.assert_type`: TypeError unless tensor's dtype is tf_type."""
    from simdist.runtime import dtypes
    want = dtypes.as_dtype(tf_type)
    t = _convert_to_tensor(tensor)
    if t.dtype != want:
        raise TypeError(f"{_prefix(message)}tensor must be of type {want!r}; got {t.dtype!r}")


def assert_scalar(tensor: _Any, message: _Any = None, name: _Any = None) -> None:
    """`tf.debugging.assert_scalar` (assert_scalar_v2): None, or ValueError unless the static shape is ()."""
    t = _convert_to_tensor(tensor)
    if t.ndim != 0:
        raise ValueError(f"{_prefix(message)}Expected scalar shape, saw shape: {_shape_str(t)}.")


def assert_same_float_dtype(tensors: _Any = None, dtype: _Any = None) -> _Any:
    """`tf.debugging.assert_same_float_dtype`: the tensors' common floating dtype (float32 when
    none is given), else ValueError."""
    from simdist.runtime import dtypes
    if dtype is not None:
        dtype = dtypes.as_dtype(dtype)
    if tensors:
        expected = dtype
        first = None
        for item in tensors:
            if item is None:
                continue
            if expected is None:
                expected, first = item.dtype, item
            elif item.dtype != expected:
                raise ValueError(f"{item!s}, type={_dstr(item.dtype)}, must be of the same type ({_dstr(expected)})"
                                 + (f" as {first!s}" if first is not None else "") + ".")
        dtype = expected
    if not dtype:
        return dtypes.float32
    if not dtype.is_floating:
        raise ValueError(f"Expected floating point type, got {_dstr(dtype)}.")
    return dtype


def assert_proper_iterable(values: _Any) -> None:
    """`tf.debugging.assert_proper_iterable`: TypeError for tensors, arrays, strings and non-iterables."""
    from simdist.runtime.tensor import Tensor
    if isinstance(values, (Tensor, _np.ndarray, bytes, str)):
        raise TypeError(f'Expected argument "values" to be a "proper" iterable.  Found: {type(values)}')
    if not hasattr(values, "__iter__"):
        raise TypeError(f'Expected argument "values" to be iterable.  Found: {type(values)}')


def is_numeric_tensor(tensor: _Any) -> bool:
    """`tf.debugging.is_numeric_tensor`: a Tensor of a numeric dtype (not bool, not string; NumPy arrays: False)."""
    from simdist.runtime.tensor import Tensor
    return isinstance(tensor, Tensor) and tensor.dtype.kind in "fiucV" and tensor.dtype.name != "bool"


def assert_none_equal(x: _Any, y: _Any, summarize: _Any = None, message: _Any = None, name: _Any = None) -> _Any:
    """`tf.debugging.assert_none_equal` (assert_none_equal_v2: its own argument order)."""
    return _assert_none_equal_v1(x, y, None, summarize, message, name)


def _assert_none_equal_v1(x: _Any, y: _Any, data: _Any = None, summarize: _Any = None, message: _Any = None,
                         name: _Any = None) -> _Any:
    """`tf.compat.v1.assert_none_equal`: x != y everywhere (NotEqual's broadcasting and dtype
    errors), else InvalidArgumentError with check_ops' eager message (or the message and `data`)."""
    from simdist.runtime import ops
    a, b = _convert_to_tensor(x), _convert_to_tensor(y)
    test = ops.not_equal(a, b)
    ok = _np.asarray(test._v)
    from simdist.runtime import context
    if bool(_np.all(ok)) or context.in_placeholder_run():   # (a dry run: the Assert op fails only when run)
        return _op_result("assert_none_equal/Assert/Assert", "Assert")
    n = 3 if summarize is None else (10**9 if summarize < 0 else summarize)
    xa, ya = _np.asarray(a._v), _np.asarray(b._v)
    lines = ["Condition x != y did not hold."] if data is None else [_pretty(d, _summarize(summarize)) for d in data]
    if data is None and n > 0:
        if xa.shape == ya.shape and xa.ndim:
            idx = _np.argwhere(~ok)
            k = min(n, idx.shape[0])
            lines += [f"Indices of first {k} different values:", str(idx[:k]), "Corresponding x values:",
                      str(xa[~ok].reshape(-1)[:k]), "Corresponding y values:", str(ya[~ok].reshape(-1)[:k])]
        xs, ys = xa.reshape(-1), ya.reshape(-1)
        lines += [f"First {min(xs.size, n)} elements of x:", str(xs[:n]), f"First {min(ys.size, n)} elements of y:",
                  str(ys[:n])]
    if message is not None:
        lines = [str(message)] + lines
    raise _errors.InvalidArgumentError(None, None, "\n".join(lines))


def assert_shapes(shapes: _Any, data: _Any = None, summarize: _Any = None, message: _Any = None,
                  name: _Any = None) -> None:
    """`tf.debugging.assert_shapes`: every tensor's static shape matches its symbolic shape (ranks
    first, then sizes: integers explicitly, names consistently across tensors; None or '.' any
    size; a leading ... or '*' any number of outer dims), else ValueError with check_ops' message."""
    if isinstance(shapes, dict):
        shapes = shapes.items()
    prefix = _prefix(message)
    pairs = [(_convert_to_tensor(x), s) for x, s in shapes if s is not None]

    def tname(t: _Any) -> str:
        return f"shape={_shape_str(t)} dtype={t.dtype.name}"
    specs = []
    for t, sym in pairs:
        if not (hasattr(sym, "__iter__") or hasattr(sym, "__getitem__")):
            raise ValueError(f"{prefix}Tensor {tname(t)}.  Specified shape must be an iterable.  An iterable has the "
                             f"attribute `__iter__` or `__getitem__`.  Received specified shape: {sym}")
        syms = tuple(sym)
        inner = False
        for i, s in enumerate(syms):
            if s is Ellipsis or (isinstance(s, str) and s == "*"):
                if i != 0:
                    raise ValueError(f"{prefix}Tensor {tname(t)} specified shape index {i}.  Symbol `...` or `*` for "
                                     "a variable number of unspecified dimensions is only allowed as the first entry")
                inner = True
        sizes = tuple(t.shape.as_list()) if t.ndim else (1,)
        syms = syms[1:] if inner else syms
        specs.append((t, inner, sizes, syms if syms else (1,)))   # (an empty shape is [1], as a scalar's sizes)
    for t, inner, _, syms in specs:
        r = len(syms)
        if inner:
            if r not in (0, 1):
                assert_rank_at_least(t, r, message=message)
        elif r in (0, 1):
            assert_rank_in(t, [0, 1], message=message)
        else:
            assert_rank(t, r, message=message)

    def known(v: _Any) -> bool:
        if v is None:
            return False
        try:
            int(v)
            return True
        except (ValueError, TypeError):
            return False
    seen: dict[_Any, tuple[int, _Any, int]] = {}
    for t, inner, sizes, syms in specs:
        for i, s in enumerate(syms):
            if s is None or (isinstance(s, str) and s == "."):
                continue
            dim = i - len(syms) if inner else i
            if s in seen or known(s):
                if known(s):
                    want, how = int(s), "Specified explicitly"
                else:
                    want, by, at = seen[s]
                    how = f"Specified by tensor {tname(by)} dimension {at}"
                got = sizes[dim]
                if int(got) != int(want):
                    raise ValueError(f"{prefix}{how}.  Tensor {tname(t)} dimension {dim} must have size {want}.  "
                                     f"Received size {got}, shape {_shape_str(t)}")
            else:
                seen[s] = (sizes[dim], t, dim)
    return None


_TRACEBACK_FILTERING = [True]


def enable_traceback_filtering() -> None:
    """`tf.debugging.enable_traceback_filtering`: a flag (simdist's tracebacks are not filtered)."""
    _TRACEBACK_FILTERING[0] = True


def disable_traceback_filtering() -> None:
    """`tf.debugging.disable_traceback_filtering`: clears the flag."""
    _TRACEBACK_FILTERING[0] = False


def is_traceback_filtering_enabled() -> bool:
    """`tf.debugging.is_traceback_filtering_enabled`: the flag (True by default, as in TF)."""
    return _TRACEBACK_FILTERING[0]

from simdist.runtime.ops import ragged_dispatch as _ragged_dispatch  # noqa: E402
_ragged_dispatch.install(globals(), "debugging.")   # (RaggedTensor arguments: TF's ragged dispatch, clause ops.ragged)


def set_log_device_placement(enabled: bool) -> None:
    """`tf.debugging.set_log_device_placement`: pybind11's bool conversion (None, a bool, a number: 1 is
    True, observed; a string TypeError); read back only (simdist logs no placements)."""
    from simdist.runtime import execution
    if enabled is None:
        enabled = False
    if not isinstance(enabled, (bool, int, float, _np.generic)):
        raise TypeError("TFE_ContextSetLogDevicePlacement(): incompatible function arguments. The following argument "
                        "types are supported:\n    1. (arg0: object, arg1: bool) -> None\n")
    execution.current().client.config.log_placement = bool(enabled)


def get_log_device_placement() -> bool:
    from simdist.runtime import execution
    return execution.current().client.config.log_placement   # type: ignore[no-any-return]
