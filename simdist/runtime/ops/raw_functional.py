"""The function-calling raw ops (clause ops.raw-ops): PartitionedCall, StatefulPartitionedCall, If, StatelessIf,
Case, StatelessCase, While, StatelessWhile and For, whose `f` / `then_branch` / `else_branch` / `branches` / `cond` /
`body` attrs name a function, as TF 2.21's kernels run them (tensorflow/core/kernels/functional_ops.cc IfOp, CaseOp,
WhileOp, ForOp; partitioned_function_ops.cc), observed on TF 2.21:

- a func attr takes a concrete function (`tf.function(...).get_concrete_function(...)`), which the op calls on its
  inputs; eagerly (pywrap_tfe_src.cc SetOpAttrScalar) a string or an object with a string `name` (a tf.function's
  Function) names a function the context does not define (NotFoundError "Function f is not defined.", for
  PartitionedCall InternalError "Can't find a function: ..."), anything else is InvalidArgumentError "unable to set
  function value attribute from a <type> object. ..."; in a tf.function (op_def_library._MakeFunc) a string is taken
  and fails when the graph runs, anything without `add_to_graph` is TypeError "Don't know how to convert <v> to a
  func for argument <arg>";
- the function's arguments are checked as FunctionLibraryRuntime instantiates it: their count ("Expects 1 arguments,
  but 2 is provided") and dtypes ("Expects arg[0] to be float but int32 is provided"), InvalidArgumentError; its
  results as SetOutputs checks them against Tout (For and the Whiles: the inputs' types), InternalError "Expect to
  produce 2 tensors, but only get 1" and "Expect 0-th output is of type int32 but get float";
- If's cond is ToBool's: a non-scalar is true when it has elements, a scalar of float, double, int32, uint8, int16,
  int8, int64 when not 0 (NaN is true), bool as is, string when not empty; another dtype is InvalidArgumentError
  "<dtype> cannot be converted to a boolean" (TF 2.21's IfOp reports it with OP_REQUIRES_OK in an async kernel: the
  process aborts, so simdist's error is not compared); While's cond result likewise, one value ("Expected a single
  scalar return value from WhileOp cond, got 2 tensors.");
- Case's branch_index is a scalar ("branch_index must be scalar"), out of range it takes the last branch;
- For's start, limit and delta are int32 scalars ("start must be a scalar, but [2]"), run when (delta > 0 and start
  <= limit) or (delta < 0 and start >= limit) or (delta == 0 and start == limit), else InvalidArgumentError "Invalid
  start/limit/delta: 0 5 -2"; the body gets the counter then the loop values.

The op calls the function (its ops are simdist's dispatched ops). A tape: where TF 2.21's gradient through the op
fails (eagerly every one; in a tf.function all but If and Case, whose gradient differentiates the branch taken) the
function's ops are hidden from the tapes and the op is one recorded op whose gradient raises TF's error
(`_gradient_error`, observed); inside a tf.function the call is not recorded (dispatch.unrecordable): the branch
taken depends on values, so the function's Python runs again each call; in a dry run on placeholder values
(get_concrete_function of an input_signature) the loops give their loop values without running (a trip count on
zeros could be endless)."""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from simdist.runtime import dtypes, errors
from simdist.runtime.ops.raw_args import RawArgs

__all__ = ["NAMES", "forms", "make_func", "to_bool"]

NAMES = ("Case", "For", "If", "PartitionedCall", "StatefulPartitionedCall", "StatelessCase", "StatelessIf",
         "StatelessWhile", "While")

_DEVICE = "_device_/job:localhost/replica:0/task:0/device:CPU:0"


class _Named:
    """A func attr naming a function simdist does not hold (a string, or a tf.function's Function by its name)."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name


def _is_concrete(v: Any) -> bool:
    return callable(v) and hasattr(v, "structured_input_signature") and hasattr(v, "structured_outputs")


def make_func(v: Any, arg: str) -> Any:
    """A func attr's value as TF's wrapper converts it: a concrete function, or _Named."""
    from simdist.runtime import context
    if _is_concrete(v):
        return v
    if isinstance(v, (str, bytes)):
        return _Named(v.decode() if isinstance(v, bytes) else v)
    if context.in_function():   # (op_def_library._MakeFunc)
        raise TypeError(f"Don't know how to convert {v!r} to a func for argument {arg}")
    name = getattr(v, "name", None) if not hasattr(v, "get_concrete_function") else \
        getattr(v, "__name__", None)   # (a tf.function's Function: TF's has .name, its Python function's name)
    if isinstance(name, (str, bytes)):
        return _Named(name.decode() if isinstance(name, bytes) else name)
    raise errors.InvalidArgumentError(
        None, None, f"unable to set function value attribute from a {type(v).__name__} object. If you think this is an "
                    "error, please file an issue at https://github.com/tensorflow/tensorflow/issues/new")


def _node(op: str, attrs: str) -> str:
    return f"{{{{function_node __wrapped__{op}{attrs}{_DEVICE}}}}} "


def _fail(cls: type, op: str, attrs: str, text: str) -> errors.OpError:
    return cls(None, None, f"{_node(op, attrs)}{text} [Op:{op}]")


def _c_name(dt: Any) -> str:
    return dtypes.as_dtype(dt).name.replace("float32", "float").replace("float64", "double").replace("float16", "half")


def _specs(cf: Any) -> list[Any]:
    from simdist.runtime import nest
    args, kwargs = cf.structured_input_signature
    return nest.flatten((args, kwargs))


def _call(cf: Any, op: str, attrs: str, args: list[Any]) -> list[Any]:
    """FunctionLibraryRuntime's run of `cf` on `args`: their count and dtypes checked, its results flat."""
    from simdist.runtime import nest, symbolic
    from simdist.runtime.tensor import convert_to_tensor
    if isinstance(cf, _Named):
        if op in ("PartitionedCall", "StatefulPartitionedCall"):
            raise errors.InternalError(None, None, f"Can't find a function: node={{{{node {op}}}}} = "
                                                   f"{op}[f={cf.name}[]] [Op:{op}]")
        raise errors.NotFoundError(None, None, f"Function {cf.name} is not defined. [Op:{op}]")
    specs = _specs(cf)
    if len(specs) != len(args):
        raise _fail(errors.InvalidArgumentError, op, attrs,
                    f"Expects {len(specs)} arguments, but {len(args)} is provided")
    for i, (s, a) in enumerate(zip(specs, args)):
        if s.dtype != a.dtype:
            raise _fail(errors.InvalidArgumentError, op, attrs,
                        f"Expects arg[{i}] to be {_c_name(s.dtype)} but {_c_name(a.dtype)} is provided")
    with symbolic.eager():
        out = cf(*args)
    return [] if out is None else [convert_to_tensor(t) for t in nest.flatten(out)]


def _outputs(op: str, attrs: str, rets: list[Any], types: list[Any]) -> list[Any]:
    """SetOutputs: as many results as the op's outputs, each of its declared type."""
    if len(rets) != len(types):
        raise _fail(errors.InternalError, op, attrs,
                    f"Expect to produce {len(types)} tensors, but only get {len(rets)}")
    for i, (r, t) in enumerate(zip(rets, types)):
        if r.dtype != t:
            raise _fail(errors.InternalError, op, attrs,
                        f"Expect {i}-th output is of type {_c_name(t)} but get {_c_name(r.dtype)}")
    return rets


_TRUTHY = ("float32", "float64", "int32", "uint8", "int16", "int8", "int64")


def to_bool(t: Any, op: str, attrs: str) -> bool:
    """functional_ops.cc ToBool."""
    from simdist.runtime.ops import dispatch
    a = np.asarray(dispatch.raw(t))
    if a.ndim:
        return a.size > 0
    name = t.dtype.name
    if name in _TRUTHY:
        return bool(a != 0)
    if name == "bool":
        return bool(a)
    if name == "string":
        return len(a.item()) > 0
    raise _fail(errors.InvalidArgumentError, op, attrs, f"{_c_name(t.dtype)} cannot be converted to a boolean")


def _tensors(values: Any) -> list[Any]:
    from simdist.runtime.ops.args import t as _t
    return [_t(v) for v in values]


def _sig(tin: int, tout: int | None) -> str:
    return f"_Tin_{tin}" + ("" if tout is None else f"_Tout_{tout}")


_EAGER_OP_ERROR = ("If", "StatelessIf", "Case", "StatelessCase", "While", "StatelessWhile")


def _gradient_error(op: str) -> BaseException | None:
    """What TF 2.21's tape.gradient raises through the op (observed), None when it differentiates the function
    (If and Case in a tf.function: cond_v2's and the Case gradient)."""
    from simdist.runtime import context
    if not context.in_function():
        if op in _EAGER_OP_ERROR:
            return AttributeError("Tensor.op is undefined when eager execution is enabled.")
        return LookupError(f"gradient registry has no entry for: {op}")
    if op in ("PartitionedCall", "StatefulPartitionedCall"):
        return AttributeError("'AtomicFunction' object has no attribute 'python_grad_func'")
    if op in ("While", "StatelessWhile"):
        return IndexError("tuple index out of range")
    if op == "For":
        return LookupError("gradient registry has no entry for: For")
    return None


def _taped(op: str, xs: list[Any], run: Callable[[], list[Any]]) -> list[Any]:
    """run(), its ops hidden from the tapes when TF's gradient through the op fails (_gradient_error): then the op
    is one recorded op from the inputs to copies of its results whose gradient raises TF's error."""
    from simdist.runtime import execution
    from simdist.runtime.ops import custom
    from simdist.runtime.ops.array import identity
    from simdist.runtime.interpret import Deferred
    err = _gradient_error(op)
    c = execution.current()
    # (the tapes, and inside a tf.function called under a tape the Deferred that hands them the call's ops after)
    hidden = list(c.tapes) + [o for o in c.observers if isinstance(o, Deferred)]
    if err is None or not hidden:
        return run()
    tapes, observers = c.tapes, c.observers
    c.tapes, c.observers = [], [o for o in observers if all(o is not t for t in hidden)]
    try:
        out = [identity(t) for t in run()]
    finally:
        c.tapes, c.observers = tapes, observers

    def backward(*grads: Any) -> Any:
        raise err

    custom.bind(op, xs, tuple(out), backward)
    return out


def _dry() -> bool:
    """A dry run on placeholder values (get_concrete_function of an input_signature: tf/_concrete.py dry_run): a
    loop's trip count on zeros says nothing of the graph's (and may never end); the loop values stand for its
    results, of their dtypes, as the graph's While and For outputs are."""
    from simdist.runtime import context
    return context.in_placeholder_run()


def _begin() -> None:
    from simdist.runtime.ops import dispatch
    dispatch.unrecordable("it calls a function attr's concrete function, whose branch or trip count depends on values")


def _partitioned(op: str) -> Callable[..., Any]:
    def run(args: Any, Tout: Any, f: Any, config: Any = "", config_proto: Any = "",  # noqa: N803
            executor_type: Any = "") -> list[Any]:
        _begin()
        xs = _tensors(args)
        attrs = _sig(len(xs), len(Tout))
        from simdist.runtime import context
        if executor_type not in ("", "DEFAULT", "SINGLE_THREADED_EXECUTOR") and not context.in_function():
            raise _fail(errors.NotFoundError, op, attrs, f"No executor factory registered for the given executor type: "
                                                          f"{executor_type} Registered factories are {{DEFAULT, , "
                                                          "SINGLE_THREADED_EXECUTOR}.")
        return _taped(op, xs, lambda: _partitioned_outputs(op, attrs, _call(f, op, attrs, xs), list(Tout)))
    return run


def _partitioned_outputs(op: str, attrs: str, rets: list[Any], types: list[Any]) -> list[Any]:
    """A partitioned call's results against Tout: eagerly (the function's own run) a result of another type is
    InvalidArgumentError "Type mismatch: actual float vs. expect int32" and each output Tout has beyond the
    function's results an empty [0] tensor of its type; in a tf.function (the call inlined) the graph's
    InternalErrors. Fewer outputs than results: TF 2.21 aborts eagerly (op_kernel.cc Check failed) and says
    "Function instantiation included invalid output index" in a graph; simdist raises that InternalError."""
    from simdist.runtime import context
    from simdist.runtime.ops.args import t as _t
    graph = context.in_function()
    for i, (r, t) in enumerate(zip(rets, types)):
        if r.dtype != t:
            if graph:
                raise errors.InternalError(None, None, f"Output {i} of type {_c_name(r.dtype)} does not match declared "
                                                       f"output type {_c_name(t)} for node {{{{node {op}}}}}")
            raise _fail(errors.InvalidArgumentError, op, attrs,
                        f"Type mismatch: actual {_c_name(r.dtype)} vs. expect {_c_name(t)}")
    if len(types) < len(rets):
        raise errors.InternalError(None, None, f"Function instantiation included invalid output index: {len(types)} "
                                               f"not in [0, {len(types)}).")
    if len(types) > len(rets):
        if graph:
            raise errors.InternalError(None, None, f"Missing {len(rets)}-th output from {{{{node {op}}}}}")
        rets = rets + [_t(np.zeros([0], dtypes.as_dtype(t).as_numpy_dtype)) for t in types[len(rets):]]
    return rets


def _if(op: str) -> Callable[..., Any]:
    def run(cond: Any, input: Any, Tout: Any, then_branch: Any, else_branch: Any,  # noqa: A002,N803
            output_shapes: Any = ()) -> list[Any]:
        _begin()
        xs = _tensors(input)
        attrs = _sig(len(xs), len(Tout))
        branch = then_branch if to_bool(cond, op, attrs) else else_branch
        return _taped(op, xs, lambda: _outputs(op, attrs, _call(branch, op, attrs, xs), list(Tout)))
    return run


def _case(op: str) -> Callable[..., Any]:
    def run(branch_index: Any, input: Any, Tout: Any, branches: Any,  # noqa: A002,N803
            output_shapes: Any = ()) -> list[Any]:
        from simdist.runtime.ops import dispatch
        _begin()
        xs = _tensors(input)
        attrs = _sig(len(xs), len(Tout))
        for b in branches:   # (CaseOp instantiates every branch first)
            if isinstance(b, _Named):
                _call(b, op, attrs, xs)
        if branch_index.shape.rank != 0:
            raise _fail(errors.InvalidArgumentError, op, attrs, "branch_index must be scalar")
        k = int(np.asarray(dispatch.raw(branch_index)))
        if k < 0 or k >= len(branches):   # (the last branch is the default)
            k = len(branches) - 1
        return _taped(op, xs, lambda: _outputs(op, attrs, _call(branches[k], op, attrs, xs), list(Tout)))
    return run


def _while(op: str) -> Callable[..., Any]:
    def run(input: Any, cond: Any, body: Any, output_shapes: Any = (),  # noqa: A002
            parallel_iterations: Any = 10) -> list[Any]:
        _begin()
        xs = _tensors(input)
        attrs = f"_T_{len(xs)}"
        types = [x.dtype for x in xs]
        for f in (cond, body):   # (GetHandles: both instantiated before the loop)
            if isinstance(f, _Named):
                _call(f, op, attrs, xs)
        if _dry():
            return xs
        return _taped(op, xs, lambda: _loop(op, attrs, xs, types, cond, body))
    return run


def _loop(op: str, attrs: str, xs: list[Any], types: list[Any], cond: Any, body: Any) -> list[Any]:
    """WhileOp::DoComputeSync."""
    while True:
        c = _call(cond, op, attrs, xs)
        if len(c) != 1:
            raise _fail(errors.InvalidArgumentError, op, attrs, "Expected a single scalar return value from WhileOp "
                                                                f"cond, got {len(c)} tensors.")
        if not to_bool(c[0], op, attrs):
            return _outputs(op, attrs, xs, types)
        xs = _call(body, op, attrs, xs)


def _scalar(v: Any, label: str, op: str, attrs: str) -> int:
    from simdist.runtime.ops import dispatch
    if v.shape.rank != 0:
        dims = ",".join(str(d) for d in v.shape.as_list())
        raise _fail(errors.InvalidArgumentError, op, attrs, f"{label} must be a scalar, but [{dims}]")
    return int(np.asarray(dispatch.raw(v)))


def _for(start: Any, limit: Any, delta: Any, input: Any, body: Any) -> list[Any]:  # noqa: A002
    from simdist.runtime.tensor import convert_to_tensor
    op = "For"
    _begin()
    xs = _tensors(input)
    attrs = f"_T_{len(xs)}"
    types = [x.dtype for x in xs]
    if isinstance(body, _Named):   # (ForOp instantiates its body when the kernel is made)
        _call(body, op, attrs, xs)
    if _dry():
        return xs
    i = _scalar(start, "start", op, attrs)
    lim = _scalar(limit, "limit", op, attrs)
    d = _scalar(delta, "delta", op, attrs)
    if not ((d > 0 and i <= lim) or (d < 0 and i >= lim) or (d == 0 and i == lim)):
        raise _fail(errors.InvalidArgumentError, op, attrs, f"Invalid start/limit/delta: {i} {lim} {d}")
    def loop(i: int) -> list[Any]:
        vals = list(xs)   # (ForOp::State::RunNext: the body's results replace the first loop values)
        rets = list(xs)
        while not (i >= lim if d > 0 else i <= lim):
            if len(rets) >= len(vals) + 1:
                raise _fail(errors.InvalidArgumentError, op, attrs,
                            f"For loop body returned {len(rets)} arguments. Expected: {len(vals)}")
            vals[:len(rets)] = rets
            rets = _call(body, op, attrs, [convert_to_tensor(np.int32(i))] + vals)
            i = (i + d + 2**31) % 2**32 - 2**31   # (int32 arithmetic)
        return _outputs(op, attrs, rets, types)
    return _taped(op, xs, lambda: loop(i))


def forms() -> dict[str, RawArgs]:
    """The raw form of each op of NAMES."""
    out = {
        "PartitionedCall": RawArgs(via=_partitioned("PartitionedCall")),
        "StatefulPartitionedCall": RawArgs(via=_partitioned("StatefulPartitionedCall")),
        "If": RawArgs(via=_if("If")),
        "StatelessIf": RawArgs(via=_if("StatelessIf")),
        "Case": RawArgs(via=_case("Case")),
        "StatelessCase": RawArgs(via=_case("StatelessCase")),
        "While": RawArgs(via=_while("While")),
        "StatelessWhile": RawArgs(via=_while("StatelessWhile")),
        "For": RawArgs(via=_for),
    }
    assert tuple(sorted(out)) == NAMES, sorted(out)
    return out
