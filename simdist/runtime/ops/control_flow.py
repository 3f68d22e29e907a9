"""tf.cond, tf.while_loop, tf.map_fn, tf.scan, tf.foldl and tf.foldr with TF 2.21's eager semantics
(cond.py's _eager_cond_implementation, while_loop.py's eager branch, map_fn.py's and
functional_ops.py's TensorArray loops): Python control flow over dispatched ops, so a gradient
tape records the iterations taken and differentiates through them as TF's eager tape does.

A predicate or loop condition is read with `dispatch.static_value`, so a tf.function recording
knows its graph depends on that value (simdist.runtime.graph keeps such a call eager or records it
per value). Inside a tf.function every branch of a tf.cond runs as TF traces it, the ones not
taken without effect on values (simdist/runtime/ops/branches.py, clause function.traced-branches).
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

import numpy as np

from simdist.runtime import context, dtypes, errors, nest
from simdist.runtime.graph_op import op_result
from simdist.runtime.ops import dispatch
from simdist.runtime.tensor import Tensor, convert_to_tensor

__all__ = ["cond", "while_loop", "map_fn", "scan", "foldl", "foldr", "vectorized_map", "Assert", "no_op", "group",
           "tuple_", "control_dependencies"]


def _truth(value: Any) -> bool:
    """TF's tensor_util.constant_value(pred) in a Python `if`: NumPy's truth of the array (an empty
    or multi-element predicate is NumPy's ValueError)."""
    t = value if isinstance(value, Tensor) else convert_to_tensor(value)
    return bool(np.asarray(dispatch.static_value(t)))


def cond(pred: Any, true_fn: Callable[[], Any] | None = None, false_fn: Callable[[], Any] | None = None,
         name: str | None = None) -> Any:
    """`tf.cond`: true_fn() if pred else false_fn(), its result returned as the branch returns it
    (TF 2's strict cond: a singleton list stays a list, Python values stay Python values)."""
    if true_fn is None:
        raise TypeError("cond(): 'true_fn' argument required")
    if false_fn is None:
        raise TypeError("cond(): 'false_fn' argument required")
    if not callable(true_fn):
        raise TypeError("'true_fn' must be callable.")
    if not callable(false_fn):
        raise TypeError("'false_fn' must be callable.")
    _graph_pred(pred)
    from simdist.runtime.ops import branches
    t = pred if isinstance(pred, Tensor) else convert_to_tensor(pred)
    return branches.run(branches.COND, (true_fn, false_fn), t, _which)


def _which(value: np.ndarray) -> int:
    """The branch of a tf.cond a predicate's value takes: 0 (true_fn) or 1 (NumPy's truth)."""
    return 0 if bool(np.asarray(value)) else 1


def _graph_pred(pred: Any) -> None:
    """cond_v2's checks on the predicate while a tf.function's Python runs (TF builds a graph
    there; eagerly any value with a truth is taken): a Python bool is TypeError ("pred must not
    be a Python bool") at trace. cond_v2 builds an If node, which takes a predicate of any dtype
    and shape; the graph's lowering to Switch at its first run refuses one of another dtype than
    bool (a Python int, an int or float tensor: the Switch NodeDef's InvalidArgumentError, also
    in a branch the run does not take: trace_errors.at_lowering) and Switch's kernel one of more
    or fewer than one element ("The second input must be a scalar"): errors of the run, the trace
    made and counted (clause ops.cond-in-function; tsweep65)."""
    from simdist.runtime import context
    if not context.in_function():
        return
    if isinstance(pred, bool):
        raise TypeError("pred must not be a Python bool", pred)
    t = pred if isinstance(pred, Tensor) else convert_to_tensor(pred)
    if t.dtype != dtypes.bool_:
        from simdist.runtime.ops.args import tf_name
        from simdist.runtime.ops import trace_errors
        raise trace_errors.at_lowering(errors.InvalidArgumentError(
            None, None, f"Input 'pred' passed {tf_name(t.dtype)} expected bool while building NodeDef "
            "'cond/switch_pred/_2' using Op<name=Switch; signature=data:T, pred:bool -> output_false:T, "
            "output_true:T; attr=T:type>"))
    scalar_pred(t, "cond/x/_5")


def scalar_pred(t: Tensor, node: str) -> None:
    """Switch's kernel on a bool predicate inside a tf.function: one element (of any rank) is taken,
    any other count is the run's InvalidArgumentError (TF 2.21; a predicate a graph would squeeze)."""
    if t.ndim and int(np.prod(t.shape)) != 1:
        dims = ",".join(str(int(d)) for d in t.shape)
        raise errors.InvalidArgumentError(
            None, None, f"Graph execution error:\n\nDetected at node {node}\nThe second input must be a scalar, "
            f"but it has shape [{dims}]\n\t [[{{{{node {node}}}}}]]")


def _to_tensors(structure: Any) -> Any:
    from simdist.runtime.variables import Variable
    return nest.map_structure(lambda v: v.value() if isinstance(v, Variable) else v, structure)


def _as_list(value: Any) -> list:
    """list(value) as TF's eager loop takes it: a scalar tensor cannot be iterated."""
    if isinstance(value, Tensor) and value.ndim == 0:
        raise TypeError("Cannot iterate over a scalar tensor.")
    return list(value)


def while_loop(cond: Callable[..., Any], body: Callable[..., Any], loop_vars: Any, shape_invariants: Any = None,
               parallel_iterations: int = 10, back_prop: bool = True, swap_memory: bool = False,
               maximum_iterations: Any = None, name: str | None = None) -> Any:
    """`tf.while_loop` (TF 2's: the result has loop_vars' structure): while cond(*vars): vars =
    body(*vars), at most maximum_iterations times; the body's result must have loop_vars'
    nested structure; the final values are converted to tensors."""
    if not callable(cond):
        raise TypeError("'cond' must be callable.")
    if not callable(body):
        raise TypeError("'body' must be callable.")
    if parallel_iterations < 1:
        raise TypeError("'parallel_iterations' must be a positive integer.")
    loop_vars = _to_tensors(loop_vars)
    if not loop_vars:
        raise ValueError("'loop_vars' must be provided.")
    limit = None
    if maximum_iterations is not None:
        m = maximum_iterations if isinstance(maximum_iterations, Tensor) else convert_to_tensor(maximum_iterations)
        if m.ndim != 0:
            raise ValueError(f"'maximum_iterations' must be a scalar. Received shape: {m.shape}")
        limit = int(dispatch.static_value(m))
    from simdist.runtime import context
    if context.in_function():
        from simdist.runtime.ops import loops
        return loops.traced_while(cond, body, loop_vars, shape_invariants, limit)
    structure = list(loop_vars)
    given = loop_vars
    count = 0
    while (limit is None or count < limit) and _truth(cond(*loop_vars)):
        loop_vars = body(*loop_vars)
        if limit is None:
            nest.assert_same_structure(structure, _as_list(loop_vars))
        else:
            # (TF 2.21's eager loop with maximum_iterations packs (counter, loop_vars) and checks the body's result
            # against the loop variables as given, their sequence type included: a tuple for a list is TypeError,
            # a single tensor for a list of one ValueError; while_loop.py; open45)
            nest.assert_same_structure([0, given], [0, loop_vars])
        count += 1
    from simdist.runtime.ops.tensor_array import TensorArray   # (a TensorArray loop variable stays one, as TF's)
    return nest.map_structure(lambda v: v if isinstance(v, (Tensor, TensorArray)) else convert_to_tensor(v),
                              loop_vars)


# --- map_fn, scan, foldl, foldr: loops over the first axis of elems --------------------------------------------
def _elems(elems: Any, what: str = "elems") -> tuple[list[Tensor], int]:
    flat = [e if isinstance(e, Tensor) else convert_to_tensor(e) for e in nest.flatten(_to_tensors(elems))]
    if not flat:
        raise ValueError(f"{what} must not be empty")
    for e in flat:
        if e.ndim == 0:
            raise ValueError("Elements in elems must be 1+ dimensional Tensors, not scalars")
    n = int(flat[0].shape[0])
    for e in flat[1:]:
        if int(e.shape[0]) != n:
            raise ValueError(f"Dimensions {n} and {int(e.shape[0])} are not compatible")
    return flat, n


def _rows(flat: list[Tensor]) -> list[list[Tensor]]:
    from simdist.runtime.ops.array import unstack
    from simdist.runtime.ops import static_shapes
    # (TensorArray.unstack: no `num` to infer, so a dimension a traced graph does not know is fine)
    rows = [unstack(e, num=int(e.shape[0])) if e.ndim else unstack(e) for e in flat]
    for e, rs in zip(flat, rows):
        # (a TensorArray's reads have the element shape the graph knows: none for elems of an unknown
        # rank, so `ctc_unique_labels` of a TensorSpec(None) traces and Unique refuses a row as the graph
        # runs, InvalidArgumentError; fz35b, third generator --ext8 seed 3503 #212)
        flags = static_shapes.unknown(e)
        for r in rs:
            if static_shapes.rank_unknown(e):
                static_shapes.mark_rank_unknown(r)
            elif flags is not None and static_shapes.unknown(r) is None:
                static_shapes.mark(r, flags[1:])
    return rows


class _Stack:
    """An eager TensorArray of one dtype: writes checked as TF's (another dtype is
    InvalidArgumentError, another shape than the first element's ValueError), then stacked."""

    def __init__(self, dtype: dtypes.DType) -> None:
        self.dtype = dtype
        self.items: list[Tensor] = []

    def write(self, value: Any) -> None:
        if isinstance(value, Tensor):
            if value.dtype != self.dtype:
                raise errors.InvalidArgumentError(None, None, f"TensorArray dtype is {self.dtype.name} but Op is trying "
                                                  f"to write dtype {value.dtype.name} ")
            t = value
        else:
            t = convert_to_tensor(value, dtype=self.dtype)
        if self.items and t.shape.as_list() != self.items[0].shape.as_list():
            raise ValueError(f"Incompatible shape for value ({tuple(t.shape.as_list())}), expected "
                             f"({tuple(self.items[0].shape.as_list())})")
        self.items.append(t)

    def stack(self) -> Tensor:
        from simdist.runtime.ops.array import constant, stack
        if not self.items:
            return constant([], dtype=self.dtype)
        return stack(self.items)


def _signature_dtypes(signature: Any) -> Any:
    from simdist.runtime.spec import TensorSpec
    return nest.map_structure(lambda s: s.dtype if isinstance(s, TensorSpec) else dtypes.as_dtype(s), signature)


def map_fn(fn: Callable[[Any], Any], elems: Any, dtype: Any = None, parallel_iterations: Any = None,
           back_prop: bool = True, swap_memory: bool = False, infer_shape: bool = True, name: str | None = None,
           fn_output_signature: Any = None) -> Any:
    """`tf.map_fn`: fn applied to each slice of elems along its first axis (a nest of tensors of
    one first dimension), the results stacked; fn_output_signature (or dtype) gives the output's
    structure and dtypes (default: elems')."""
    if not callable(fn):
        raise TypeError(f"fn must be callable. Received: {fn}")
    flat, n = _elems(elems)
    sig = fn_output_signature if fn_output_signature is not None else dtype
    out_dtypes = nest.pack_sequence_as(elems, [e.dtype for e in flat]) if sig is None else _signature_dtypes(sig)
    rows = _rows(flat)
    stacks = [_Stack(d) for d in nest.flatten(out_dtypes)]
    for i in range(n):
        out = fn(nest.pack_sequence_as(elems, [r[i] for r in rows]))
        nest.assert_same_structure(out_dtypes, out)
        for s, v in zip(stacks, nest.flatten(out)):
            s.write(v)
    return nest.pack_sequence_as(out_dtypes, [_first_dim(s.stack(), flat) for s in stacks])


def scan(fn: Callable[[Any, Any], Any], elems: Any, initializer: Any = None, parallel_iterations: int = 10,
         back_prop: bool = True, swap_memory: bool = False, infer_shape: bool = True, reverse: bool = False,
         name: str | None = None) -> Any:
    """`tf.scan`: a = fn(a, x) over the slices of elems (from the end when reverse), each a
    stacked in place of its x; without initializer a starts as the first (last) slice, which is
    also the first (last) output. The accumulator's dtypes are fixed by its start."""
    flat, n = _elems(elems)
    rows = _rows(flat)
    order = list(range(n - 1, -1, -1)) if reverse else list(range(n))
    if initializer is None:
        if n == 0:
            raise errors.OutOfRangeError(None, None, "Tried to read from index 0 but array size is: 0 ")
        a = nest.pack_sequence_as(elems, [r[order[0]] for r in rows])
        first_is_output, order = True, order[1:]
    else:
        a = nest.map_structure(lambda v: v if isinstance(v, Tensor) else convert_to_tensor(v), _to_tensors(initializer))
        first_is_output = False
    stacks = [_Stack(v.dtype) for v in nest.flatten(a)]
    outs: list[list[Any]] = []
    if first_is_output:
        outs.append(nest.flatten(a))
    for i in order:
        a = fn(a, nest.pack_sequence_as(elems, [r[i] for r in rows]))
        outs.append(nest.flatten(a))
    if reverse:
        outs.reverse()
    for vals in outs:
        for s, v in zip(stacks, vals):
            s.write(v)
    structure = a if initializer is None or outs else initializer
    return nest.pack_sequence_as(structure, [_first_dim(s.stack(), flat) for s in stacks])


def _first_dim(result: Any, flat: Sequence[Any]) -> Any:
    """A stacked result of map_fn or scan inside a tf.function: its first dimension is elems' static one (TF sets
    n_static, merged over elems, on each TensorArray's stack), unknown where every elem's is (map_fn of an
    input_signature [None, 3] is (None, 3) on TF 2.21, not the traced count; fz50)."""
    from simdist.runtime.ops import static_shapes
    if not context.in_function() or not flat:
        return result
    if all(isinstance(e, Tensor) and e.ndim and static_shapes.known_dim(e, 0) is None for e in flat):
        return static_shapes.also_unknown(result, 0)
    return result


def _fold(fn: Callable[[Any, Any], Any], elems: Any, initializer: Any, from_end: bool) -> Any:
    flat = [e if isinstance(e, Tensor) else convert_to_tensor(e) for e in nest.flatten(_to_tensors(elems))]
    if not flat or flat[0].ndim == 0:
        raise IndexError("tuple index out of range")
    n = int(flat[0].shape[0])
    rows = _rows(flat)
    order = list(range(n - 1, -1, -1)) if from_end else list(range(n))
    if initializer is None:
        if n == 0:
            raise errors.OutOfRangeError(None, None, "Tried to read from index 0 but array size is: 0 ")
        a = nest.pack_sequence_as(elems, [r[order[0]] for r in rows])
        order = order[1:]
    else:
        a = _to_tensors(initializer)
    for i in order:
        a = fn(a, nest.pack_sequence_as(elems, [r[i] for r in rows]))
    return nest.map_structure(lambda v: v if isinstance(v, Tensor) else convert_to_tensor(v), a)


def foldl(fn: Callable[[Any, Any], Any], elems: Any, initializer: Any = None, parallel_iterations: int = 10,
          back_prop: bool = True, swap_memory: bool = False, name: str | None = None) -> Any:
    """`tf.foldl`: a = fn(a, x) over the slices of elems from the first (a starts as the first
    slice without initializer; OutOfRangeError for empty elems then)."""
    return _fold(fn, elems, initializer, from_end=False)


def foldr(fn: Callable[[Any, Any], Any], elems: Any, initializer: Any = None, parallel_iterations: int = 10,
          back_prop: bool = True, swap_memory: bool = False, name: str | None = None) -> Any:
    """`tf.foldr`: a = fn(a, x) over the slices of elems from the last."""
    return _fold(fn, elems, initializer, from_end=True)


def vectorized_map(fn: Callable[[Any], Any], elems: Any, fallback_to_while_loop: bool = True,
                   warn: bool = True) -> Any:
    """`tf.vectorized_map`: the values of fn over the slices of elems stacked, the output
    structure and dtypes fn's own (Python values converted, then broadcast over the slices, as
    pfor does); for empty elems fn runs once on a zero slice to give the outputs' shapes."""
    from simdist.runtime.ops.array import broadcast_to, stack, zeros
    flat, n = _elems(elems)
    rows = _rows(flat)
    if n == 0:
        probe = fn(nest.pack_sequence_as(elems, [zeros(e.shape.as_list()[1:], dtype=e.dtype) for e in flat]))
        return nest.map_structure(lambda v: zeros([0] + _t0(v).shape.as_list(), dtype=_t0(v).dtype), probe)
    outs = [fn(nest.pack_sequence_as(elems, [r[i] for r in rows])) for i in range(n)]
    for o in outs[1:]:
        nest.assert_same_structure(outs[0], o)
    columns = zip(*[nest.flatten(o) for o in outs])
    stacked = []
    for col in columns:
        ts = [_t0(v) for v in col]
        shapes = {tuple(t.shape.as_list()) for t in ts}
        if len(shapes) > 1:
            raise errors.InvalidArgumentError(None, None, "Shapes of all inputs must match: values[0].shape = "
                                              f"{ts[0].shape} != values[1].shape = {ts[1].shape}")
        if all(not isinstance(v, Tensor) for v in col):   # a Python value: one, broadcast over the slices
            stacked.append(broadcast_to(ts[0], [n] + ts[0].shape.as_list()))
        else:
            stacked.append(stack(ts))
    return nest.pack_sequence_as(outs[0], stacked)


def _t0(v: Any) -> Tensor:
    return v if isinstance(v, Tensor) else convert_to_tensor(v)


def Assert(condition: Any, data: Any, summarize: Any = None, name: str | None = None) -> Any:  # noqa: N802
    """`tf.Assert`: InvalidArgumentError when condition is false (NumPy's truth of its value:
    a multi-element condition is ValueError); None otherwise, as TF's eager Assert returns (in a
    tf.function the Assert op: graph_op.py). Inside a tf.function the message is the Assert
    kernel's (simdist/runtime/ops/assert_summary.py)."""
    from simdist.runtime import context
    if not _truth(condition) and not context.in_placeholder_run():   # (a dry run: the op fails only when run)
        if context.in_function():   # (the Assert kernel's message, when the graph runs)
            from simdist.runtime.ops import assert_summary
            raise errors.InvalidArgumentError(None, None, assert_summary.message(data, summarize))
        shown = [_summarize_eager(d if isinstance(d, Tensor) else convert_to_tensor(d), summarize) for d in data]
        raise errors.InvalidArgumentError(None, None, f"Expected '{condition!s}' to be true. Summarized data: "
                                          + "\n".join(shown))
    return op_result(f"{name or 'Assert'}/Assert", "Assert")


def _summarize_eager(t: Tensor, summarize: Any) -> str:
    """control_flow_assert._summarize_eager (TF's Tensor::SummarizeValue): the first `summarize`
    elements (3 when None, all when negative) of a non-scalar, then "..." if some are left; a
    scalar's value, or nothing when summarize is 0. Each element as str() of its NumPy value."""
    a = np.asarray(t.numpy())
    n = 3 if summarize is None else (a.size if summarize < 0 else int(summarize))
    if a.ndim:
        flat = a.reshape(-1)
        shown = [str(v) for v in flat[:n]]
        if len(shown) < flat.size:
            shown.append("...")
    else:
        shown = [str(t.numpy())] if n != 0 else []
    return ", ".join(shown)


def no_op(name: str | None = None) -> Any:
    """`tf.no_op`: nothing, executing eagerly (None); in a tf.function the NoOp (graph_op.py)."""
    return op_result(name or "NoOp", "NoOp")


def group(*inputs: Any, name: str | None = None) -> Any:
    """`tf.group`: executing eagerly the inputs have already run: None; in a tf.function the
    NoOp that groups them (graph_op.py)."""
    return op_result(name or "group_deps", "NoOp")


def tuple_(tensors: Any, control_inputs: Any = None, name: str | None = None) -> list:
    """`tf.tuple`: the list of tensors as given (executing eagerly, Python values stay)."""
    return list(tensors)


class control_dependencies:  # noqa: N801 - TF's name
    """`tf.control_dependencies(deps)`: executing eagerly, ops already ran in program order: a
    context manager that does nothing (`as` gives None, as TF's eager NullContextmanager)."""

    def __init__(self, control_inputs: Any) -> None:
        self.control_inputs = control_inputs

    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: Any) -> None:
        return None
