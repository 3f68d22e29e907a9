"""AutoGraph's operators, the `ag__` of a converted function (simdist/tf/_autograph_convert.py), as TF 2.21's
autograph/operators/control_flow.py, logical.py, conditional_expressions.py and py_builtins.py run them
(clause function.autograph).

A statement whose condition (or iterable) is a tensor is staged: `if` as tf.cond with both branches traced,
the variables the branches modify and the code after reads its outputs (`'z' must also be initialized in
the else branch` when a branch leaves one undefined, the branches' dtypes and structures compared); `while`
and `for` over a tensor or a tf.range as tf.while_loop over the variables the body carries (their dtypes,
structures and shapes checked after one iteration, against `set_loop_options(shape_invariants=...)` where
given); `and`/`or` as a tf.cond, `not` as logical_not. Any other condition runs the statement as Python.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from simdist.runtime import context, nest

__all__ = ["Undefined", "UndefinedReturnValue", "converted_call", "if_stmt", "while_stmt", "for_stmt", "and_", "or_",
           "not_", "if_exp", "len_", "range_call", "retval"]

LEGAL_LOOP_TYPES = "Tensor, int, float, bool or a list, tuple or dict thereof"


class Undefined:
    """A variable not defined yet (autograph/operators/variables.py): reading an attribute of it is an
    AttributeError naming the symbol."""
    __slots__ = ("symbol_name",)

    def __init__(self, symbol_name: str) -> None:
        self.symbol_name = symbol_name

    def read(self) -> Any:
        raise UnboundLocalError(f"'{self.symbol_name}' is used before assignment")

    def __repr__(self) -> str:
        return self.symbol_name

    def __getattribute__(self, name: str) -> Any:
        if name in ("symbol_name", "read", "__class__", "__repr__", "__slots__"):
            return object.__getattribute__(self, name)
        return self

    def __getitem__(self, i: Any) -> Any:
        return self


class UndefinedReturnValue:
    """The return value of a converted function before a return statement ran."""


def converted_call(f: Any) -> Any:
    """f as a call inside converted code makes it (api.py converted_call): a user function or method AutoGraph
    converts (tf/_autograph_errors.py `_converted`) converted, any other callable as it is."""
    import types
    if type(f) is not types.FunctionType and type(f) is not types.MethodType:
        return f
    from simdist.tf import _autograph_convert, _autograph_errors
    if not _autograph_errors._converted(f, True):
        return f
    return _autograph_convert.converted(f)


def len_(s: Any) -> Any:
    """`len(s)` in converted code (py_builtins.len_): a graph tensor's first dimension, as an int where the graph
    knows it and as `tf.shape(s)[0]` where it does not; anything else Python's len."""
    if _is_tensor(s):
        shape = _shape(s)
        if shape.rank:
            d = shape.as_list()[0]
            if d is not None:
                return d
            from simdist.runtime.ops import array
            return array.shape(_read(s))[0]
    return len(s)


def truth(x: Any) -> Any:
    """x where converted code takes its truth in Python: an explicit `bool(x)` and an `assert x` (AutoGraph converts
    neither: bool is not among py_builtins' BUILTIN_FUNCTIONS_MAP, and asserts.py runs only with the optional
    Feature.ASSERT_STATEMENTS), so a graph tensor or a Variable read in a graph is TF's
    OperatorNotAllowedInGraphError there, as in code AutoGraph does not convert (clause function.autograph)."""
    if _is_tensor(x):
        from simdist.runtime import symbolic
        from simdist.runtime.variables import Variable
        if isinstance(x, Variable) or symbolic.is_graph(x):
            raise symbolic.bool_error()
    return x


def bool_(f: Any, *args: Any, **kwargs: Any) -> Any:
    """`bool(...)` in converted code: Python's bool, of a graph tensor TF's OperatorNotAllowedInGraphError (truth);
    f is whatever the name `bool` means there."""
    if f is bool and len(args) == 1 and not kwargs:
        return bool(truth(args[0]))
    return f(*args, **kwargs)


def retval(value: Any) -> Any:
    """The function's result (FunctionScope.ret): None where no return statement ran."""
    return None if isinstance(value, UndefinedReturnValue) else value


def _fail(cls: type, text: str) -> BaseException:
    """cls(text), raised as TF raises AutoGraph's errors from a tracing function (in user code: ...)."""
    from simdist.runtime.ops import trace_errors
    return trace_errors.static(cls(text), cls, text)


def _is_tensor(v: Any) -> bool:
    from simdist.runtime.tensor import Tensor
    from simdist.runtime.variables import Variable
    return isinstance(v, (Tensor, Variable)) and context.in_function()


def _undef(v: Any) -> bool:
    return v is None or isinstance(v, (Undefined, UndefinedReturnValue))


def _to_tensor(v: Any) -> Any:
    from simdist.runtime.tensor import convert_to_tensor
    return convert_to_tensor(v)


def _read(v: Any) -> Any:
    from simdist.runtime.variables import Variable
    return v.read_value() if isinstance(v, Variable) else v


# --- conditions --------------------------------------------------------------------------------------------


def _shape(t: Any) -> Any:
    """t's static shape, as the graph knows it (a tensor's `.shape` read inside simdist is its value's)."""
    from simdist.runtime.ops import static_shapes
    return static_shapes.static_shape(_read(t))


def _verify_condition(cond: Any, tag: str) -> Any:
    """control_flow._verify_tf_condition: a bool scalar (a shape of one element reshaped to ())."""
    from simdist.runtime import dtypes
    from simdist.runtime.ops import array
    cond = _to_tensor(_read(cond))
    hint = "to check for None, use `is not None`"
    if cond.dtype != dtypes.bool_:
        raise _fail(ValueError, f"condition of {tag} expected to be `tf.bool` scalar, got {cond}; to use as boolean "
                         f"Tensor, use `tf.cast`; {hint}")
    shape = _shape(cond)
    if shape.rank is None:
        return array.reshape(cond, ())
    if shape.rank > 0:
        known = [d for d in shape.as_list() if d is not None]
        if np.prod(known) > 1:
            raise _fail(ValueError, f"condition of {tag} expected to be `tf.bool` scalar, got {cond}; {hint}")
        return array.reshape(cond, ())
    return cond


def _cond(pred: Any, true_fn: Callable[[], Any], false_fn: Callable[[], Any]) -> Any:
    from simdist.runtime.ops import control_flow
    return control_flow.cond(pred, true_fn, false_fn)


# --- if --------------------------------------------------------------------------------------------------------


def if_stmt(cond: Any, body: Callable[[], None], orelse: Callable[[], None], get_state: Callable[[], tuple],
            set_state: Callable[[tuple], None], symbol_names: tuple, nouts: int) -> None:
    """An `if`: tf.cond of the branches when cond is a tensor, else Python's if."""
    if _is_tensor(cond):
        _tf_if_stmt(cond, body, orelse, get_state, set_state, symbol_names, nouts)
    elif cond:
        body()
    else:
        orelse()


def _tf_if_stmt(cond: Any, body: Callable[[], None], orelse: Callable[[], None], get_state: Callable[[], tuple],
                set_state: Callable[[tuple], None], symbol_names: tuple, nouts: int) -> None:
    cond = _verify_condition(cond, "if statement")
    if not nouts:
        prev_get, prev_set = get_state, set_state
        get_state = lambda: (0,) + prev_get()   # noqa: E731
        set_state = lambda v: prev_set(v[1:])   # noqa: E731
        symbol_names = tuple(symbol_names) + ("<unused dummy>",)
        nouts = 1
    init_vars = get_state()
    got: list[Any] = [None, None]

    def branch(fn: Callable[[], None], i: int, name: str) -> Any:
        set_state(init_vars)
        fn()
        new = tuple(get_state()[:nouts])
        got[i] = new
        _verify_branch_vars(new, symbol_names, name)
        if got[1 - i] is not None:
            _verify_cond_vars(got[0], got[1], symbol_names)
        return new
    final = _cond(cond, lambda: branch(body, 0, "main"), lambda: branch(orelse, 1, "else"))
    set_state(tuple(final) + tuple(init_vars[nouts:]))


def _verify_branch_vars(vars_: tuple, symbol_names: tuple, branch: str) -> None:
    for name, v in zip(symbol_names, vars_):
        if isinstance(v, Undefined):
            raise _fail(ValueError, f"'{name}' must also be initialized in the {branch} branch")
        if isinstance(v, UndefinedReturnValue):
            raise _fail(ValueError, f"the {branch} branch must also have a return statement.")


def _verify_cond_vars(body_vars: tuple, orelse_vars: tuple, symbol_names: tuple) -> None:
    for name, b, o in zip(symbol_names, body_vars, orelse_vars):
        try:
            nest.assert_same_structure(b, o)
        except (ValueError, TypeError):
            try:
                nest.assert_same_structure(nest.map_structure(_read, b), nest.map_structure(_read, o))
            except (ValueError, TypeError) as e:
                raise _fail(
                    TypeError, f"'{name}' must have the same nested structure in the main and else branches:\n\n"
                                f"{e}") from e
        nest.map_structure(lambda x, y, name=name: _verify_single_cond_var(name, x, y), b, o)


def _verify_single_cond_var(name: str, b: Any, o: Any) -> None:
    if b is None:
        raise _fail(ValueError, f"'{name}' is None at the end of the main branch.")
    if o is None:
        raise _fail(ValueError, f"'{name}' is None at the end of the else branch.")
    if isinstance(b, (bool, int, float, str, np.ndarray)):
        b = _to_tensor(b)
    if isinstance(o, (bool, int, float, str, np.ndarray)):
        o = _to_tensor(o)
    if not _is_tensor(b) or not _is_tensor(o):
        return
    if b.dtype != o.dtype:
        raise _fail(TypeError, f"'{name}' has dtype {b.dtype.name} in the main branch, but dtype {o.dtype.name} in the "
                        "else branch")


def if_exp(cond: Any, if_true: Callable[[], Any], if_false: Callable[[], Any], expr_repr: str) -> Any:
    """`a if cond else b`: tf.cond of the two when cond is a tensor."""
    if not _is_tensor(cond):
        return if_true() if cond else if_false()
    vals: list[list[Any]] = [[], []]

    def fn(f: Callable[[], Any], i: int) -> Any:
        vals[i].append(f())
        if vals[0] and vals[1]:
            _verify_single_cond_var(expr_repr, vals[0][0], vals[1][0])
        return vals[i][0]
    return _cond(cond, lambda: fn(if_true, 0), lambda: fn(if_false, 1))


# --- logical operators ----------------------------------------------------------------------------------------


def and_(a: Callable[[], Any], b: Callable[[], Any]) -> Any:
    """`a and b`: tf.cond(a, b, a) when a is a tensor."""
    v = a()
    if _is_tensor(v):
        return _cond(v, b, lambda: v)
    return v and b()


def or_(a: Callable[[], Any], b: Callable[[], Any]) -> Any:
    """`a or b`: tf.cond(a, a, b) when a is a tensor."""
    v = a()
    if _is_tensor(v):
        return _cond(v, lambda: v, b)
    return v or b()


def not_(a: Any) -> Any:
    """`not a`: logical_not when a is a tensor."""
    if _is_tensor(a):
        from simdist.runtime.ops import math
        return math.logical_not(_read(a))
    return not a


# --- loops ------------------------------------------------------------------------------------------------------


class _Range:
    """A tf.range in a `for` header: its tensor and its start, limit and delta (TF reads them off the Range op)."""

    def __init__(self, tensor: Any, start: Any, limit: Any, delta: Any) -> None:
        self.tensor, self.start, self.limit, self.delta = tensor, start, limit, delta

    def __iter__(self) -> Any:
        if self.tensor is None:
            from simdist.runtime.ops import array
            self.tensor = array.range_(self.start, self.limit, self.delta)
        return iter(self.tensor)


def range_call(fn: Any, *args: Any, **kwargs: Any) -> Any:
    """`range(...)` / `tf.range(...)` as a loop's iterable: the builtin range of tensors is tf.range
    (py_builtins.range_); a tf.range inside a tf.function loops as a tf.while_loop over its bounds."""
    import builtins
    from simdist.runtime.ops import array
    from simdist.runtime.tensor import Tensor
    if fn is builtins.range:
        if not any(_is_tensor(a) for a in args):
            return range(*args, **kwargs)
        fn = array.range_
    # (tf.range only: a method named range, tf.data.Dataset.range, is another call, whose dataset the loop iterates
    # as one; tsweep65)
    if getattr(fn, "__wrapped__", fn) is not getattr(array.range_, "__wrapped__", array.range_) and \
            fn is not array.range_ and (getattr(fn, "__name__", "") not in ("range", "range_")
                                        or "." in getattr(fn, "__qualname__", "")):
        return fn(*args, **kwargs)
    if not context.in_function():
        return fn(*args, **kwargs)
    try:
        import inspect
        bound = inspect.signature(array.range_).bind(*args, **kwargs).arguments
    except TypeError:
        return fn(*args, **kwargs)
    start, limit, delta = bound.get("start"), bound.get("limit"), bound.get("delta", 1)
    if limit is None:
        start, limit = 0, start
    vals = (start, limit, delta)
    if not any(_is_tensor(v) for v in vals):
        out = fn(*args, **kwargs)   # (constant bounds: the Range op as it is, its checks at trace time)
        return _Range(out, *(_to_tensor(v) if not isinstance(v, Tensor) else v for v in
                             (_cast_all(vals, out.dtype))))
    # (bounds of the graph: TF's loop reads them off the Range op and elides it, so it never runs; simdist does
    # not make it either, whose size would read the bounds' values and keep the call from being recorded)
    from simdist.runtime import dtypes
    if bound.get("dtype") is not None:
        dt = dtypes.as_dtype(bound["dtype"])
    else:
        order = [dtypes.int32, dtypes.int64, dtypes.float16, dtypes.bfloat16, dtypes.float32, dtypes.float64]
        kinds = [_read(v).dtype if _is_tensor(v) else dtypes.infer_dtype(v) for v in vals]
        if not all(k in order for k in kinds):
            return fn(*args, **kwargs)
        dt = max(kinds, key=order.index)
    return _Range(None, *_cast_all(vals, dt))


def _cast_all(vals: tuple, dt: Any) -> list:
    from simdist.runtime.ops import math
    return [math.cast(_to_tensor(_read(v)), dt) if not _is_tensor(v) or _read(v).dtype != dt else _read(v)
            for v in vals]


def for_stmt(iter_: Any, extra_test: Callable[[], Any] | None, body: Callable[[Any], None],
             get_state: Callable[[], tuple], set_state: Callable[[tuple], None], symbol_names: tuple,
             opts: dict) -> None:
    """A `for`: over a tf.range a tf.while_loop of its bounds, over another tensor one of its first dimension,
    else Python's for (extra_test: `not break_`)."""
    if isinstance(iter_, _Range):
        _tf_range_for_stmt(iter_, extra_test, body, get_state, set_state, symbol_names, opts)
        return
    if _is_tensor(iter_):
        _known_len_for_stmt(_read(iter_), extra_test, body, get_state, set_state, symbol_names, opts)
        return
    if extra_test is not None:
        from simdist.runtime.data.dataset import DatasetV2
        over_dataset = isinstance(iter_, DatasetV2)

        def guarded() -> bool:
            v = extra_test()
            if _is_tensor(v) and over_dataset:
                # (a dataset's loop is TF's dataset scan and take_while of the extra test: a break on a tensor
                # ends it where Python's would; autograph/operators/control_flow.py `_tf_dataset_for_stmt`)
                from simdist.runtime.ops import dispatch
                return bool(np.asarray(dispatch.static_value(_read(v))))
            if _is_tensor(v):
                raise _fail(NotImplementedError, 
                    "break and return statements which depend on a TF condition are not supported in Python for "
                    "loops. Did you intend to make it a TF loop?\nSee https://github.com/tensorflow/tensorflow/"
                    "blob/master/tensorflow/python/autograph/g3doc/reference/limitations.md"
                    "#consistency-of-control-flow-types for more info.")
            return bool(v)
        if guarded():
            for target in iter_:
                body(target)
                if not guarded():
                    break
        return
    for target in iter_:
        body(target)


def _tf_range_for_stmt(rng: _Range, extra_test: Callable[[], Any] | None, body: Callable[[Any], None],
                       get_state: Callable[[], tuple], set_state: Callable[[tuple], None], symbol_names: tuple,
                       opts: dict) -> None:
    from simdist.runtime.ops import dispatch, graph_constants, math
    start, limit, delta = rng.start, rng.limit, rng.delta
    box = [start]
    names = [n.strip() for n in str(opts.get("iterate_names", "")).split(",")]

    def aug_get() -> tuple:
        st = tuple(box[0] if (n in names and isinstance(v, Undefined)) else v
                   for n, v in zip(symbol_names, get_state()))
        return (box[0],) + st

    def aug_set(vs: tuple) -> None:
        box[0] = vs[0]
        set_state(tuple(vs[1:]))

    def aug_body() -> None:
        body(box[0])
        box[0] = math.add(box[0], delta)

    const_delta = dispatch.static_value(delta) if graph_constants.known(delta) else None

    def aug_test() -> Any:
        it = box[0]
        if const_delta is not None:
            main = math.less(it, limit) if const_delta >= 0 else math.greater(it, limit)
        else:
            main = math.logical_or(math.logical_and(math.greater_equal(delta, 0), math.less(it, limit)),
                                   math.logical_and(math.less(delta, 0), math.greater(it, limit)))
        if extra_test is not None:
            return _cond(main, extra_test, lambda: False)
        return main
    _tf_while_stmt(aug_test, aug_body, aug_get, aug_set, ("<internal iterate>",) + tuple(symbol_names), opts)


def _known_len_for_stmt(iter_: Any, extra_test: Callable[[], Any] | None, body: Callable[[Any], None],
                        get_state: Callable[[], tuple], set_state: Callable[[tuple], None], symbol_names: tuple,
                        opts: dict) -> None:
    from simdist.runtime.ops import array, math
    if _shape(iter_).rank == 0:
        raise _fail(ValueError, "len requires a non-scalar tensor, got one of shape []")
    n = array.shape(iter_)[0]
    box = [_to_tensor(0)]

    def aug_get() -> tuple:
        return (box[0],) + tuple(get_state())

    def aug_set(vs: tuple) -> None:
        box[0] = vs[0]
        set_state(tuple(vs[1:]))

    def aug_body() -> None:
        body(array.gather(iter_, box[0]))
        box[0] = math.add(box[0], 1)

    def aug_test() -> Any:
        main = math.less(box[0], n)
        if extra_test is not None:
            return _cond(main, extra_test, lambda: False)
        return main
    _tf_while_stmt(aug_test, aug_body, aug_get, aug_set, ("<internal iterate>",) + tuple(symbol_names), opts)


def while_stmt(test: Callable[[], Any], body: Callable[[], None], get_state: Callable[[], tuple],
               set_state: Callable[[tuple], None], symbol_names: tuple, opts: dict) -> None:
    """A `while`: tf.while_loop when its test is a tensor, else Python's while (the test evaluated once to
    decide, then one iteration unrolled, as TF's)."""
    init_test = test()
    if _is_tensor(init_test):
        _tf_while_stmt(test, body, get_state, set_state, symbol_names, opts)
        return
    if not init_test:
        return
    body()
    while True:
        v = test()
        if _is_tensor(v):
            raise _fail(NotImplementedError, 
                "The condition of while loop started as non-Tensor, then changed to Tensor. This may happen either "
                "because variables changed type, or when a break or return statement inside the loop depends on a "
                "Tensor condition. In both cases, changing to a TF loop should remove the error.\nSee https://github"
                ".com/tensorflow/tensorflow/blob/master/tensorflow/python/autograph/g3doc/reference/limitations.md"
                "#consistency-of-control-flow-types for more info.")
        if not v:
            break
        body()


def _is_subshape(left: Any, right: Any) -> bool:
    if right.rank is None:
        return True
    if left.rank != right.rank:
        return False
    return all(r is None or l_ == r for l_, r in zip(left.as_list(), right.as_list()))


def _tensor_shape(s: Any) -> Any:
    from simdist.runtime.tensor import TensorShape
    return s if isinstance(s, TensorShape) else TensorShape(s)


def _verify_single_loop_var(name: str, check_shape: bool, init: Any, entry: Any, exit_: Any,
                            invariant: Any) -> None:
    if exit_ is None:
        raise _fail(ValueError, f"'{name}' is None at the end of the iteration.")
    init, entry, exit_ = (_to_tensor(v) if isinstance(v, (bool, int, float, str, np.ndarray)) else v
                          for v in (init, entry, exit_))
    if not _is_tensor(entry) or not _is_tensor(exit_):
        return
    if entry.dtype != exit_.dtype:
        raise _fail(TypeError, f"'{name}' has dtype {entry.dtype.name} before the loop, but dtype {exit_.dtype.name} "
                        "after one iteration")
    if not check_shape:
        return
    if invariant is None:
        if not _is_subshape(_shape(exit_), _shape(entry)):
            raise _fail(
                ValueError, f"'{name}' has shape {_shape(entry)} before the loop, but shape {_shape(exit_)} after one "
                             "iteration. Use tf.autograph.experimental.set_loop_options to set shape invariants.")
    else:
        invariant = _tensor_shape(invariant)
        if _is_tensor(init) and not _is_subshape(_shape(init), invariant):
            raise _fail(ValueError, f"'{name}' has shape {_shape(init)} before the loop, which does not conform "
                                    f"with the shape invariant {invariant}.")
        if not _is_subshape(_shape(exit_), invariant):
            raise _fail(
                ValueError, f"'{name}' has shape {_shape(exit_)} after one iteration, which does not conform with "
                             f"the shape invariant {invariant}.")


def _verify_loop_vars(init_vars: tuple, entry_vars: tuple, exit_vars: tuple, symbol_names: tuple,
                      invariants: tuple) -> None:
    for name, init, entry, exit_, inv in zip(symbol_names, init_vars, entry_vars, exit_vars, invariants):
        try:
            nest.assert_same_structure(init, entry)
        except (ValueError, TypeError):
            try:
                nest.assert_same_structure(nest.map_structure(_read, init), entry)
            except (ValueError, TypeError) as e:
                raise _fail(
                    TypeError, f"'{name}' does not have the same nested structure after one iteration.\n\n{e}") \
                    from e
        try:
            nest.assert_same_structure(entry, exit_)
        except (ValueError, TypeError) as e:
            raise _fail(
                TypeError, f"'{name}' does not have the same nested structure after one iteration.\n\n{e}") from e
        if inv is not None:
            try:
                nest.assert_same_structure(init, inv)
            except (ValueError, TypeError) as e:
                raise _fail(TypeError, f"'{name}' does not have the same nested structure as its corresponding shape "
                                f"invariant.\n\n{e}") from e
            nest.map_structure(lambda a, b, c, d, name=name: _verify_single_loop_var(name, True, a, b, c, d),
                               init, entry, exit_, inv)
        else:
            nest.map_structure(lambda a, b, c, name=name: _verify_single_loop_var(name, True, a, b, c, None),
                               init, entry, exit_)


def _verify_init_vars(init_vars: tuple, symbol_names: tuple, first_iter: tuple | None = None,
                      extra: str | None = None) -> None:
    first = first_iter if first_iter is not None else (None,) * len(symbol_names)
    for name, v, fv in zip(symbol_names, init_vars, first):
        if isinstance(v, UndefinedReturnValue):
            if fv:
                raise _fail(
                    ValueError, f"the return value from a TensorFlow loop may only be a {LEGAL_LOOP_TYPES}; got "
                                 f"{type(fv)}")
            raise _fail(
                NotImplementedError, "a return statement cannot be placed inside this TensorFlow loop; this may "
                                      "happen if a return statement depends on a static Python condition such as a "
                                      "hyperparameter")
        msg = None
        if v is None:
            msg = f"'{name}' is not allowed to be None before the loop"
        elif isinstance(v, Undefined):
            msg = f"'{name}' must be defined before the loop"
            if extra:
                msg += "\n" + extra
        if msg is not None:
            raise _fail(ValueError, msg)


def _placeholder(like: Any, invariant: Any, original: Any) -> tuple[Any, Any]:
    """control_flow._placeholder_value: a zero value like the first iteration's (a dimension the graph does not
    know is 0, its invariant kept)."""
    from simdist.runtime.ops import array
    if like is None or isinstance(like, (Undefined, UndefinedReturnValue)):
        return original, None
    if isinstance(like, (int, float, bool)):
        return type(like)(0), None
    if _is_tensor(like):
        like = _read(like)
        shape = _tensor_shape(invariant) if invariant is not None else _shape(like)
        if shape.rank is None:
            return array.zeros((), like.dtype), shape
        dims, dynamic = [], False
        for s, i in zip(_shape(like).as_list(), shape.as_list()):
            if s is None:
                dims.append(0 if i is None else i)
                dynamic = True
            else:
                dims.append(s)
        return array.zeros(dims, like.dtype), (shape if dynamic else None)
    if isinstance(like, (list, tuple, dict)):
        flat = nest.flatten(like)
        invs = nest.flatten(invariant) if invariant is not None else [None] * len(flat)
        pairs = [_placeholder(v, i, None) for v, i in zip(flat, invs)]
        return nest.pack_sequence_as(like, [p[0] for p in pairs]), nest.pack_sequence_as(like, [p[1] for p in pairs])
    raise _fail(TypeError, f"Found an unsupported type '{type(like).__name__}' while creating placeholder for {like}. "
                    "Supported types include Tensor, int, float, bool, list, tuple or dict.")


def _stage_once(body: Callable[[], None], get_state: Callable[[], tuple], set_state: Callable[[tuple], None],
                init_vars: tuple) -> tuple | None:
    """One iteration of the body traced with no effect (TF stages it in a scratch graph): the state after it."""
    from simdist.runtime.ops import branches
    box: list[Any] = []

    def once() -> None:
        set_state(tuple(_to_tensor(v) if isinstance(v, (int, float, bool, str, np.ndarray, np.generic)) else v
                        for v in init_vars))
        body()
        box.append(get_state())
    try:
        branches.untaken(once)
    finally:
        set_state(init_vars)
    return box[0] if box else None


def _tf_while_stmt(test: Callable[[], Any], body: Callable[[], None], get_state: Callable[[], tuple],
                   set_state: Callable[[tuple], None], symbol_names: tuple, opts: dict) -> None:
    from simdist.runtime.ops import array, control_flow
    init_vars = tuple(get_state())
    orig_init = init_vars
    by_id = {id(v): i for v, i in opts.get("shape_invariants", ())}
    invariants = tuple(by_id.get(id(v)) for v in init_vars)
    nulls = tuple(_undef(v) for v in init_vars)
    require_one = False
    if any(nulls):
        failure = None
        first = None
        try:
            first = _stage_once(body, get_state, set_state, init_vars)
        except (UnboundLocalError, TypeError, ValueError, KeyError) as e:
            failure = f"Note: AutoGraph tried to define it automatically, but ran into a {type(e).__name__}: {e}"
        if first is not None:
            pairs = tuple(_placeholder(fv, inv, v) if n else (v, None)
                          for v, n, fv, inv in zip(init_vars, nulls, first, invariants))
            new_init = tuple(p[0] for p in pairs)
            _verify_init_vars(new_init, symbol_names, first, failure)
            invariants = tuple(inv if inv is not None else p[1] for inv, p in zip(invariants, pairs))
            init_vars = new_init
            require_one = True
        else:
            _verify_init_vars(init_vars, symbol_names, None, failure)
    # (every loop variable's invariant: its own static shape unless set_loop_options relaxes it)
    full: list[Any] = []
    for v, inv in zip(init_vars, invariants):
        full.append(inv if inv is not None else
                    nest.pack_sequence_as(v, [_leaf_shape(x) for x in nest.flatten(v)]) if nest.is_nested(v)
                    else _leaf_shape(v))

    def aug_test(*loop_vars: Any) -> Any:
        set_state(tuple(loop_vars[1:] if require_one else loop_vars))
        return _verify_condition(test(), "while loop")

    def aug_body(*loop_vars: Any) -> Any:
        vs = tuple(loop_vars[1:] if require_one else loop_vars)
        set_state(vs)
        body()
        new = tuple(get_state())
        _verify_loop_vars(init_vars, vs, new, symbol_names, invariants)
        return ((True,) + new) if require_one else new

    kwargs: dict[str, Any] = {}
    if "maximum_iterations" in opts:
        kwargs["maximum_iterations"] = opts["maximum_iterations"]
    shapes = tuple(full)
    aug_init = ((False,) + init_vars) if require_one else init_vars
    if require_one:
        from simdist.runtime.tensor import TensorShape
        shapes = (TensorShape([]),) + shapes
    if not aug_init:
        return
    final = control_flow.while_loop(aug_test, aug_body, aug_init, shape_invariants=_as_shapes(aug_init, shapes),
                                    **kwargs)
    final = tuple(final)
    if require_one:
        missing = ", ".join("the function return value" if isinstance(v, UndefinedReturnValue) else n
                            for n, v, u in zip(symbol_names, orig_init, nulls) if u)
        control_flow.Assert(final[0], [f"loop must iterate at least once to initialize {missing}"])
        final = tuple(nest.map_structure(lambda v: array.identity(v) if _is_tensor(v) else v, final[1:]))
    set_state(final)   # (with the invariants' static shapes: runtime/ops/loops.py `_as_invariants`)


def _leaf_shape(x: Any) -> Any:
    if _is_tensor(x):
        return _shape(x)
    if isinstance(x, (bool, int, float, np.ndarray, np.generic)):
        return _to_tensor(x).shape
    return None


def _as_shapes(loop_vars: tuple, shapes: tuple) -> tuple:
    """tf.while_loop's shape_invariants for the loop variables: each tensor's invariant (unknown rank where
    there is none: a TensorArray or a value that is not a tensor)."""
    from simdist.runtime.tensor import TensorShape
    out = []
    for v, s in zip(loop_vars, shapes):
        leaves = nest.flatten(v)
        given = [s] if not nest.is_nested(v) else (nest.flatten(s) if s is not None else [None] * len(leaves))
        if len(given) != len(leaves):
            given = [None] * len(leaves)
        fixed = [_tensor_shape(g) if g is not None else TensorShape(None) for g in given]
        out.append(fixed[0] if not nest.is_nested(v) else nest.pack_sequence_as(v, fixed))
    return tuple(out)
