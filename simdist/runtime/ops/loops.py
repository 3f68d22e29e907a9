"""tf.while_loop inside a tf.function, as TF 2.21's while_v2 builds it (tensorflow/python/ops/
while_v2.py; clause function.traced-while-loop).

TF traces `cond` once and `body` once, into graphs whose inputs are the loop variables, and
checks the body's outputs against them: the body's result (a single value is taken as a list of
one) must have the loop variables' nested structure (lists and tuples alike), each output a
shape the loop variable's shape invariant allows (its own shape unless `shape_invariants`
relaxes it: ValueError "Input tensor ... enters the loop with shape (1,), but has shape (2,)
after one iteration. ..."), and the same dtype (TypeError "Loop var ... enters the loop with type
<dtype: 'float32'> but has type <dtype: 'int32'> after 1 iteration. ..."). A predicate that is
not a bool is the LoopCond node's InvalidArgumentError when the graph is lowered at its first run (the trace
succeeds); a predicate of one element is squeezed, one of another count Switch's run-time error.

In a recorded call (graph/branches.record_loop) simdist does the same: cond's and body's
Python run once, their graphs run the loop, and the call's replays run it again through them.
Where the loop cannot be recorded (a call under a gradient tape or in a replica, a body that
reads a tensor's value in Python, loop variables that change shape) the loop runs on as Python
from where it is, checking each body result.
"""

from __future__ import annotations

import contextlib
from typing import Any, Callable

import numpy as np

from simdist.runtime import dtypes, errors, execution, nest
from simdist.runtime.ops import trace_errors
from simdist.runtime.tensor import Tensor, TensorShape, convert_to_tensor

__all__ = ["traced_while"]


def _shape_ok(shape: tuple, invariant: TensorShape) -> bool:
    """control_flow_ops._ShapeLessThanOrEqual: `shape` is allowed by `invariant`."""
    if invariant.rank is None:
        return True
    dims = invariant.as_list()
    return len(shape) == len(dims) and all(d is None or d == s for s, d in zip(shape, dims))


def _is_ta(t: Any) -> bool:
    """Whether t is a tf.TensorArray (while_v2 carries its flow tensor; simdist the array itself)."""
    from simdist.runtime.ops.tensor_array import TensorArray
    return isinstance(t, TensorArray)


def _fail(cls: type, text: str) -> BaseException:
    return trace_errors.static(cls(text), cls, text)


def _invariants(loop_vars: Any, flat: list[Tensor], shape_invariants: Any) -> list[TensorShape]:
    if shape_invariants is None:
        from simdist.runtime.ops import static_shapes   # (the graph's shape, not the value's)
        return [TensorShape(None) if _is_ta(t) else static_shapes.static_shape(t) for t in flat]
    shapes = nest.flatten(nest.map_structure(lambda _v, s: s, loop_vars, shape_invariants, check_types=False)
                          if not isinstance(shape_invariants, TensorShape) else [shape_invariants])
    return [s if isinstance(s, TensorShape) else TensorShape(s) for s in shapes]


def traced_while(cond: Callable[..., Any], body: Callable[..., Any], loop_vars: Any, shape_invariants: Any,
                 limit: int | None) -> Any:
    """tf.while_loop inside a tf.function (see the module's docstring): the loop variables'
    final values in their structure, as tensors."""
    flat0 = [t if isinstance(t, Tensor) or _is_ta(t) else convert_to_tensor(t) for t in nest.flatten(loop_vars)]
    # (a TensorArray loop variable: while_v2 carries its flow tensor through the While op; simdist carries the array
    # and runs the loop's Python, the function's recording given up: fz51b, keras.ops.scan in a tf.function)
    carries_ta = any(_is_ta(t) for t in flat0)
    structure = nest.pack_sequence_as(loop_vars, flat0)
    # (the static shapes of the loop variables as given: a recording's twin of a graph tensor does not carry them)
    invariants = _invariants(loop_vars, [o if isinstance(o, Tensor) else t for o, t in
                                         zip(nest.flatten(loop_vars), flat0)], shape_invariants)

    def run_cond(flat: list) -> Tensor:
        pred = cond(*nest.pack_sequence_as(structure, _on_invariants(flat, invariants)))
        p = pred if isinstance(pred, Tensor) else convert_to_tensor(pred)
        if p.dtype != dtypes.bool_:
            from simdist.runtime.ops.args import tf_name
            raise trace_errors.at_lowering(errors.InvalidArgumentError(   # (the graph's lowering at its first run)
                None, None, f"Input 'input' passed {tf_name(p.dtype)} expected bool while building NodeDef "
                "'while/LoopCond/_8' using Op<name=LoopCond; signature=input:bool -> output:bool>"))
        from simdist.runtime.ops.control_flow import scalar_pred
        scalar_pred(p, "while/while/loop_counter_switch/_9")
        if p.ndim:
            from simdist.runtime.ops.array import squeeze
            p = squeeze(p)
        return p

    def run_body(flat: list) -> list:
        out = body(*nest.pack_sequence_as(structure, _on_invariants(flat, invariants)))
        return _checked(out, structure, flat0, invariants, flat)

    _trace_on_invariants(flat0, invariants, run_body)
    from simdist.runtime import context
    if context.in_placeholder_run():
        # (a dry run on placeholder values, get_concrete_function of an input_signature: TF traces cond and
        # body once, with their checks, and runs nothing; a trip count on zeros may never end: `x < 10`,
        # `x * 2`. The loop variables stand for the results, of their dtypes and shapes)
        run_cond(flat0)
        run_body(flat0)
        return _as_invariants(structure, invariants)
    from simdist.runtime.graph import branches as recorded
    from simdist.runtime.ops import branches, pruning
    from simdist.runtime.ops.branches import _FAILED, untaken
    stood = next((t for t in flat0 if pruning.is_standin(t)), None)
    if stood is not None:
        # (a loop variable a failed kernel stands in for, in a tf.function call's retry, runtime/ops/pruning.py:
        # TF traces cond and body once, with their checks, and the loop runs only with the graph; its results
        # are stand-ins raising that error when read, the loop variables' static shapes theirs)
        err = pruning.error_of(stood)
        writes: list[int] = []
        if untaken(lambda: (run_cond(flat0), run_body(flat0)), writes=writes) is _FAILED or writes[0] or \
                any(not isinstance(t, Tensor) or _is_ta(t) for t in flat0):
            raise err
        dev = context.current_device()
        out = [pruning.poison(Tensor(np.zeros_like(pruning.standin_array(t)), t.dtype, dev), err,
                              not pruning.is_standin(t) or pruning.is_shaped(t)) for t in flat0]
        return _as_invariants(nest.pack_sequence_as(structure, out), invariants)
    rec = execution.current().recorder
    if carries_ta and rec is not None:
        rec.invalidate("its tf.while_loop carries a TensorArray")
    if rec is not None and recorded.recordable(rec) and not carries_ta:
        result = recorded.record_loop(rec, run_cond, run_body, flat0, limit, untaken, _FAILED)
        if result is not None:
            return _as_invariants(nest.pack_sequence_as(structure, result), invariants)
        flat, count = rec.loop_state
    else:
        flat, count = flat0, 0
    c = execution.current()
    seen = branches.Captures() if c.tapes or c.aside is not None else None
    with branches.observing(seen) if seen is not None else contextlib.nullcontext():
        while limit is None or count < limit:
            if not bool(np.asarray(_read(run_cond(flat)))):
                break
            flat = run_body(flat)
            count += 1
    result = nest.pack_sequence_as(structure, flat)
    if seen is not None:
        # (under a tape: while_v2's While takes the loop variables and every tensor its cond and body capture as
        # inputs, and its gradient gives each trainable one a gradient, zeros when the loop ran no iteration or
        # the body does not differentiate it; TF traces the body even then, so it runs here untaken)
        if count == 0:
            untaken(lambda: run_body(flat0), observer=seen)
        sources: list[Tensor] = []
        for t in flat0 + list(seen.outside.values()):
            if not _is_ta(t) and all(t is not o for o in sources):
                sources.append(t)
        result = branches.zeros_for(result, sources)
    return _as_invariants(result, invariants)


def _trace_on_invariants(flat0: list, invariants: list[TensorShape], run_body: Callable[[list], list]) -> None:
    """while_v2 traces the body on placeholders of the shape invariants, not on the loop variables: when a loop
    variable enters against its invariant (its value's shape not allowed: a [1] value under TensorShape([2])), the
    body's checks (`_checked`: its output's shape against the invariant) are those of a body run on a stand-in of
    the invariant's shape (zeros, an unknown dimension 1), run untaken (writes dropped, nothing charged) before the
    loop: `tf.concat([v, v], 0)` under [2] is the trace's ValueError even though the [1] value would fit once."""
    bad = [i for i, (t, inv) in enumerate(zip(flat0, invariants)) if isinstance(t, Tensor) and not _is_ta(t)
           and inv.rank is not None and not _shape_ok(tuple(t.shape), inv)]
    if not bad:
        return
    from simdist.runtime.ops.branches import untaken
    stand = list(flat0)
    for i in bad:
        dims = [1 if d is None else d for d in invariants[i].as_list()]
        stand[i] = convert_to_tensor(np.zeros(dims, flat0[i].dtype.as_numpy_dtype))
    untaken(lambda: run_body(stand))


def _on_invariants(flat: list, invariants: list[TensorShape]) -> list:
    """The loop variables as cond and body see them: while_v2 traces both on placeholders of the shape
    invariants, so a dimension (or the rank) an invariant leaves open is unknown to their static checks
    (`tf.reshape(x, [2, 1])` of a [1, 1] value under TensorShape([None, 1]) traces; the kernel refuses it
    at run). Values unchanged; a variable its invariant does not allow is left as it is (_trace_on_invariants)."""
    from simdist.runtime.ops import static_shapes
    from simdist.runtime.ops.array import identity
    out = list(flat)
    for i, (t, inv) in enumerate(zip(flat, invariants)):
        if not isinstance(t, Tensor) or _is_ta(t):
            continue
        if inv.rank is None:
            if not static_shapes.rank_unknown(t):
                u = identity(t)
                static_shapes.mark_rank_unknown(u)
                out[i] = u
            continue
        flags = tuple(d is None for d in inv.as_list())
        if len(flags) != t.ndim or not any(flags) or not _shape_ok(tuple(t.shape), inv):
            continue
        have = static_shapes.unknown(t)
        if have is not None and all(h or not f for h, f in zip(have, flags)):
            continue
        u = identity(t)
        static_shapes.mark(u, np.asarray([f or bool(have is not None and have[j]) for j, f in enumerate(flags)],
                                         bool))
        out[i] = u
    return out


def _as_invariants(result: Any, invariants: list[TensorShape]) -> Any:
    """The loop's results as the While op's outputs: each with its shape invariant as its static shape (a
    dimension the invariant leaves open, or its rank, unknown to the graph: `tf.TensorShape([None, 2])` gives
    `(None, 2)` whatever the iterations made; fz52b)."""
    from simdist.runtime.ops import static_shapes
    from simdist.runtime.ops.array import identity
    flat = nest.flatten(result)
    if len(flat) != len(invariants):
        return result
    out, changed = [], False
    for t, inv in zip(flat, invariants):
        if not isinstance(t, Tensor) or _is_ta(t):
            out.append(t)
            continue
        if inv.rank is not None and not _shape_ok(tuple(t.shape), inv):
            # (a value the invariant does not allow, its loop variable having entered so: the While op's output
            # has the invariant as its static shape all the same)
            u = identity(t)
            if any(d is None for d in inv.as_list()) and len(inv.as_list()) == t.ndim:
                static_shapes.mark(u, np.asarray([d is None for d in inv.as_list()], bool))
            out.append(static_shapes.contradict(u, inv))
            changed = True
            continue
        if inv.rank is None:
            if static_shapes.rank_unknown(t):
                out.append(t)
                continue
            u = identity(t)
            static_shapes.mark_rank_unknown(u)
        else:
            flags = tuple(d is None for d in inv.as_list())
            have = static_shapes.unknown(t)
            if len(flags) != t.ndim or not any(flags) or (have is not None and tuple(have) == flags):
                out.append(t)
                continue
            u = identity(t)
            static_shapes.mark(u, np.asarray(flags, bool))
        out.append(u)
        changed = True
    return nest.pack_sequence_as(result, out) if changed else result


def _read(t: Tensor) -> np.ndarray:
    from simdist.runtime.ops import dispatch
    return dispatch.static_value(t)


def _checked(out: Any, structure: Any, flat0: list[Tensor], invariants: list[TensorShape],
             entered: list | None = None) -> list[Tensor]:
    """The body's result as flat tensors, checked as while_v2 checks the body's graph: nested
    structure (a non-nested result is a list of one; lists and tuples alike), then each output's
    shape against its invariant, then its dtype against the loop variable's. while_v2 traces the body
    on placeholders of the invariants' shapes and never checks the loop variables against them: a
    variable whose value entering this iteration (`entered`) the invariant does not allow, whose body
    output TF's check sees only for the invariant's shape, is not checked here (tsweep65's
    while_bad_invariant: `[reshape(x, [1])]` under `TensorShape([2])` runs)."""
    if not nest.is_nested(out):
        out = [out]
    nest.assert_same_structure(out, structure, check_types=False)
    from simdist.runtime.variables import Variable
    flat = [v.read_value() if isinstance(v, Variable) else v if isinstance(v, Tensor) or _is_ta(v)
            else convert_to_tensor(v) for v in nest.flatten(out)]
    for i, (t, inv) in enumerate(zip(flat, invariants)):
        if _is_ta(t) or _is_ta(flat0[i]):
            continue
        if entered is not None and i < len(entered) and isinstance(entered[i], Tensor) and \
                not _shape_ok(tuple(entered[i].shape), inv):
            continue
        if not _shape_ok(tuple(t.shape), inv):
            raise _fail(ValueError, f"Input tensor `loop_vars[{i}]` enters the loop with shape {inv}, but has shape "
                                    f"{TensorShape(list(t.shape))} after one iteration. To allow the shape to vary "
                                    "across iterations, use the `shape_invariants` argument of tf.while_loop to "
                                    "specify a less-specific shape.")
    for i, (t, t0) in enumerate(zip(flat, flat0)):
        if _is_ta(t) or _is_ta(t0):
            continue
        if t.dtype != t0.dtype:
            raise _fail(TypeError, f"Loop var loop_vars[{i}] enters the loop with type <dtype: '{t0.dtype.name}'> "
                                   f"but has type <dtype: '{t.dtype.name}'> after 1 iteration. loop_vars[{i}] type "
                                   "should remain constant.")
    return flat
