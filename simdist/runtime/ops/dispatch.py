"""The single place where every op passes: forward, dtype, FLOPs, placement, observers.

`execute(op, tensors, attrs)` checks the input dtypes (the op's dtype rule), computes the
forward on the tensors' arrays, casts the result to the rule's dtype, adds the op's FLOPs to the
tally, places the result on the current device and tells the observers: the interpreters of
the current execution context (runtime/execution.py), i.e. the graph recorder of the
tf.function call being recorded (simdist.runtime.graph) and the gradient tapes recording in
this context (simdist.runtime.autodiff). Nothing else makes a Tensor from an op.

Variable reads and writes are not ops of the registry (they go through transactions and the
coordinator's traffic observers, see runtime/variables.py) but pass here too, so that the same
observers see them: `variable_read`, `variable_gathered`, `variable_written`,
`variable_scattered`. Ops whose outputs are computed elsewhere (a collective, computed by the
replicas' merge; a custom-gradient call, by its function's own ops) are registered ops like any
other and reach the observers through `bind`, as JAX's `bind` hands a primitive to the current
trace. Values computed outside the registry (`reduced`, `placed`: a merge's reductions and
their copies, which a collective's op is then bound to) and simulator charges (`charged`) pass
here too. Nothing outside runtime reaches a recorder
or a tape but through here.
"""

from __future__ import annotations

import sys
from typing import Any, Sequence

import numpy as np

from simdist.runtime import context, dtypes, errors, execution
from simdist.runtime import graph_names as _names
from simdist.runtime import numerics_callback as _numerics
from simdist.runtime import subnormals as _sn
from simdist.runtime import cost as _cost
from simdist.runtime.cost import tally
from simdist.runtime.ops import graph_constants as _consts
from simdist.runtime.ops import partial_values as _partial
from simdist.runtime.ops import composite_shapes as _composite
from simdist.runtime.ops import pruning as _pruning
from simdist.runtime.ops import static_shapes as _shapes
from simdist.runtime.ops.trace_errors import MARK as _MARK
from simdist.runtime.ops.registry import OpDef
from simdist.runtime.tensor import Tensor, _Traced

__all__ = ["execute", "run", "refused", "graph_assert", "deferred_kernel", "static_value", "variable_read", "variable_gathered", "variable_written", "variable_scattered",
           "constant_made", "raw", "tapes", "recorder", "bind", "recording", "replica_turn", "unrecordable", "reduced", "placed", "charged"]

_STRING = dtypes.string
_KEEP, _FLUSH, _CHECK, _FLUSHED, _fired, _BF16 = _sn.KEEP, _sn.FLUSH, _sn.CHECK, _sn.FLUSHED_TYPES, _sn._fired, _sn.BF16
_noting, _NOTING = _sn.noting, _sn._NOTING
_error_state = _sn._EXTOBJ.get if _sn._EXTOBJ is not None else object   # (NumPy's error state, to test by identity)
_MAKES = _sn.MAKES
_sn.install()
_SUBNORMAL = ("its values hold subnormal floats, which TF's kernels flush to zero: dispatch models it, "
              "a replay does not (ops.subnormals)")
_current = execution._current
_NUMERICS = _numerics.ENABLED   # (tf.debugging.enable_check_numerics: checked after each op when set)


def tapes() -> list[Any]:
    """The current context's active tapes (and variable watchers), innermost last."""
    return _current.ctx.tapes


def recorder() -> Any:
    """The graph recorder of the tf.function call being recorded in the current context, or None."""
    return _current.ctx.recorder


def raw(t: Tensor) -> np.ndarray:
    """A tensor's array, for code whose reading of it is recorded (an op's input, an assign's
    operand): a traced tensor's guard (see tensor._Traced) is for every other reader."""
    return t._a if type(t) is _Traced else t._v


def static_value(t: Tensor) -> np.ndarray:
    """A tensor's array, read in Python to fix an attribute or check values before an op runs
    (one_hot's depth, a slice's bounds, scatter indices): a recorded call keeps such a read only
    when the value is the same in every replay (see Recorder.is_constant), else it stays eager."""
    if type(t) is _Traced:
        rec = _current.ctx.recorder
        if rec is not None:
            f = sys._getframe(1)
            rec.read_value(t, f"{f.f_code.co_name} ({f.f_code.co_filename}:{f.f_lineno})")
        return t._a
    return t._v


def execute(op: OpDef, tensors: Sequence[Tensor], attrs: dict | None = None) -> Any:
    """Run op on tensors (already converted): its Tensor, or a tuple for multi-output ops."""
    if _pruning._ERRORS:   # (a retry's stand-in read by a stateless op: pruning.py)
        stood = past_standin(op, tensors, attrs)
        if stood is not None:
            return stood
    if _current.ctx.recorder is None:
        arrays = [t._v for t in tensors]
    else:
        arrays = [raw(t) for t in tensors]
    try:
        dts = tuple(t.dtype for t in tensors)
        for d in dts:
            if d.kind == "q":   # (a quantized input: refused by the OpDef's T list; clause ops.quantize-dequantize)
                from simdist.runtime.ops import args
                refused = args.quantized_refused(op.name, d)
                if refused is not None:
                    raise refused
            elif d.kind == "n":   # (a narrow dtype: only TF 2.21's few CPU kernels take it; runtime/narrow.py)
                from simdist.runtime import narrow
                if op.name == "Tile":
                    raise narrow.tile_refused(d, len(tensors[0].shape))
                refused = narrow.op_refusal(op.name, d, dts, attrs, op.dtype)
                if refused is not None:
                    raise refused
        dt = op.dtype(dts, attrs)
    except Exception as e:
        graph_shape_first(op, tensors, attrs, e)
        # (a dry run: an elementwise op's missing CPU kernel is looked up when the graph runs, so the
        # trace goes on with an output of its inputs' dtype; fz28b)
        if op.kind != "elementwise" or op.num_outputs != 1 or not tensors or not deferred_kernel(e):
            raise
        dt = tensors[0].dtype
        _STOOD[0] = True   # (its output's values are unknown to the graph: marked in run)
        _DEFERRED[0] = True   # (and no kernel runs: run goes on with a stand-in)
    if op.stateful and context._data_traces:   # (made in a tf.data function: clause dataset.iterator-checkpoint)
        _note_stateful(op, attrs)
    if context._xla_depth[0] > 0:   # (an XLA-compiled call: no kernel for strings; clause function.xla-compile)
        from simdist.runtime.ops import xla_unsupported
        xla_unsupported.check_strings(op.name, dts, dt)
    return run(op, tensors, arrays, dt, attrs)


def past_standin(op: OpDef, tensors: Sequence[Tensor], attrs: dict | None = None) -> Any:
    """`_through_standin`'s stand-ins when a stateless op reads a retry's stand-in, else None: for callers that read
    their inputs' arrays before `run` (the arithmetic operators' fast path)."""
    if not _pruning._ERRORS or op.stateful:
        return None
    err = _pruning.standin_error(tensors)
    if err is None:
        return None
    out = _through_standin(op, tensors, attrs, err)
    tapes = _current.ctx.tapes
    if tapes and out is not None:
        # (the gradient tapes record the op as TF's tape records its node: a gradient that reads none of the failed
        # op's values is computed, and TF prunes the failed op with the forward nobody uses: `tape.gradient(
        # tf.gather(p, [1, 7]) * 2.0, p)` in a tf.function is the IndexedSlices of 2s at [1, 7]; ixsweep67)
        outs = (out,) if op.num_outputs == 1 else tuple(out)
        for t in tapes:
            outs = t.op(op, tensors, outs, attrs)
    return out


def _through_standin(op: OpDef, tensors: Sequence[Tensor], attrs: dict | None, err: BaseException) -> Any:
    """A stateless op of a tf.function call's retry (runtime/ops/pruning.py) reading a stand-in. TF builds the
    whole graph before any kernel runs, so the op's trace-time checks come first: its dtype rule's error, and,
    when every stand-in it reads has the graph's static shape (pruning `shaped`), its shape function's. Then
    a shape query (Shape, Size, Rank) of a fully known static shape is its value (TF's graph holds it as a
    constant: array_ops.shape_internal's `optimize`, so the failed op feeds nothing); any other op runs on the
    stand-ins' zeros for its outputs' shapes (a trace-time error its kernel marks is the call's), shaped when
    the inputs are and a second run on other values gives the same shapes. Its outputs are stand-ins raising
    `err` when read, as TF prunes the op with the failed one when nothing uses them, else raises `err`. A
    kernel's run-time refusal of the zeros leaves the stand-in rule's shapes, unshaped: `err` itself when no
    output count can be had."""
    from simdist.runtime.ops import trace_errors
    shaped = all(_pruning.is_shaped(t) for t in tensors if _pruning.is_standin(t)) and _fully_known(tensors)
    try:
        dt = op.dtype(tuple(t.dtype for t in tensors), attrs)
    except Exception as e:  # noqa: BLE001 - the node's dtype check is at trace; else no dtype to stand in with
        if not isinstance(e, errors.OpError) or trace_errors.builds(e):
            if shaped:
                graph_shape_first(op, tensors, attrs, e)
            raise
        raise err from None
    arrays = [_pruning.standin_array(t) for t in tensors]
    if shaped and context._function_depth:
        if op.trace_shape is not None:   # (TF's shape function, at trace)
            _trace_shape(op, tensors, attrs)
        if op.kind == "shape-query" and op.num_outputs == 1:
            return _standin_run(op, tensors, arrays, dt, attrs, None)
        ran = _standin_run(op, tensors, arrays, dt, attrs, err)
        if ran is not None:
            return ran
    out = _pruning.standin(op, arrays, dt, attrs)
    if out is None:
        raise err
    dev = context.current_device()
    if op.num_outputs == 1:
        return _pruning.poison(Tensor(np.asarray(out), dt, dev), err)
    dts = dt if type(dt) is tuple else (dt,) * len(out)
    return _pruning.poison(tuple(Tensor(np.asarray(o), d, dev) for o, d in zip(out, dts)), err)


def _fully_known(tensors: Sequence[Any]) -> bool:
    """Whether the graph being traced knows every dimension of `tensors` (no static_shapes mark): a stand-in's
    zeros made from them have its static shape."""
    if not _shapes.UNKNOWN:
        return True
    return not any(_shapes.rank_unknown(t) or any(_shapes.unknown(t) or ()) for t in tensors)


def _standin_run(op: OpDef, tensors: Sequence[Tensor], arrays: Sequence[np.ndarray], dt: Any, attrs: dict | None,
                 err: BaseException | None) -> Any:
    """`_through_standin`'s run of the op's forward on shaped stand-ins' zeros, outside any recording (its outputs
    are no values of the graph): its outputs poisoned with `err` (shaped when a run on other values of the
    stand-ins, ones, gives the same shapes: no value-dependent dimension), or plain tensors when `err` is None;
    None when its kernel refuses the zeros at run time. A trace-time error the kernel marks propagates."""
    from simdist.runtime.ops import trace_errors

    def forward(xs: Sequence[np.ndarray]) -> tuple:
        got = op.forward(*xs, **attrs) if attrs else op.forward(*xs)
        return tuple(got) if op.num_outputs != 1 else (got,)
    try:
        with np.errstate(all="ignore"):
            outs = forward(arrays)
    except Exception as e:  # noqa: BLE001 - a trace-time error is the call's; a kernel's refusal of the zeros is not
        if isinstance(e, ValueError) and op.kind == "elementwise" and len(tensors) == 2 and "broadcast" in str(e):
            from simdist.runtime.ops import math as _math   # (operands that do not broadcast: the binary wrapper's rule)
            e = _math.kernel_value_error(op, tensors[0], tensors[1], e)
        if trace_errors.builds(e):
            raise e from None
        return None
    dts = dt if type(dt) is tuple else (dt,) * len(outs)
    dev = context.current_device()
    made = tuple(Tensor(np.asarray(o) if d is dtypes.string else np.asarray(o).astype(d._np, copy=False), d, dev)
                 for o, d in zip(outs, dts))
    result = made[0] if op.num_outputs == 1 else made
    if err is None:
        return result
    same = op.kind == "elementwise"
    if not same:
        try:
            with np.errstate(all="ignore"):
                others = forward([np.ones_like(a) if _pruning.is_standin(t) else a for t, a in zip(tensors, arrays)])
            same = len(outs) == len(others) and all(np.shape(o) == np.shape(x) for o, x in zip(outs, others))
        except Exception:  # noqa: BLE001 - no second run: the shapes are not known to be static
            same = False
    return _pruning.poison(result, err, same)


# Stateful ops tf.data lets an iterator's checkpoint hold (TF's WHITELIST_STATEFUL_OP_FOR_DATASET_FUNCTIONS,
# logging_ops.cc: Assert and PrintV2; observed with TF 2.21's SerializeIterator)
_DATASET_ALLOWED = frozenset({"PrintV2", "Assert"})


def _note_stateful(op: OpDef, attrs: dict | None) -> None:
    """Record a stateful op made by a tf.data function's Python under TF's name (simdist's integer
    RandomUniform is TF's RandomUniformInt)."""
    if op.name in _DATASET_ALLOWED:
        return
    dt = (attrs or {}).get("dtype")
    name = "RandomUniformInt" if op.name == "RandomUniform" and getattr(dt, "is_integer", False) else op.name
    context.note_stateful_op(name)


def run(op: OpDef, tensors: Sequence[Tensor], arrays: Sequence[np.ndarray], dt: Any,
        attrs: dict | None = None) -> Any:
    """execute() after its dtype rule: for callers that checked the inputs themselves (the
    arithmetic operators' fast path). Same forward, cast, tally, placement and observers.
    Subnormal floats are treated as the op's kernel treats them (`OpDef.subnormals`, clause
    ops.subnormals): read as zeros and flushed from results, or kept and their mark passed on.
    In a tf.function call being recorded, an op with a Grappler rewrite that applies runs as the
    rewritten ops instead (OpDef.graph_rule, simdist.runtime.ops.grappler)."""
    deferred = _DEFERRED[0]
    if deferred:   # (taken at once: an error or a rewrite below must not leave it to the next op)
        _DEFERRED[0] = False
    if op.graph_rule is not None and _current.ctx.recorder is not None and _current.ctx.recorder.rewrites:
        rewritten = _rewritten(op, tensors, attrs)
        if rewritten is not None:
            return rewritten
    rule = op.subnormals
    makes = rule is _MAKES
    if makes:
        rule = _KEEP
    marked = False
    for x in tensors:
        if x._sub:
            marked = True
            break
    if rule is not _KEEP and type(rule) is not str:
        rule = rule(arrays, attrs)
    if op.trace_shape is not None and context._function_depth:   # (TF's shape function, at trace)
        _trace_shape(op, tensors, attrs)
    pruned = None
    try:
        if len(arrays) == 2 and (getattr(arrays[0], "ndim", 0) > 5 or getattr(arrays[1], "ndim", 0) > 5) and \
                op.name in _BCAST_TO_5:
            _bcast_limit(op, arrays)
        elif len(arrays) == 3 and op.name == "SelectV2" and max(getattr(a, "ndim", 0) for a in arrays) > 8:
            _select_rank_limit(arrays)
        if deferred:   # (a missing kernel a dry run defers, execute: none runs; zeros of the broadcast shape,
            # its stand-in: spence of bfloat16 has no float kernel to compute it on either; fz34b, third generator
            # --ext8 seed 3402 #91)
            out = _standin(arrays, dt)
        elif _error_state() is _NOTING[0] or _noting():
            out, arrays = _forward(op, tensors, arrays, attrs, rule, marked)
        else:   # (a caller's np.errstate hides underflows: the kernel's own state, subnormals.noting)
            with _sn.noted():
                out, arrays = _forward(op, tensors, arrays, attrs, rule, marked)
    except Exception as e:
        rerun = None
        if _shapes.UNKNOWN:   # (a dimension the traced graph does not know)
            if op.shape_fn is not None:
                _shapes.unseen(op, tensors, attrs, e)
            from simdist.runtime.ops import trace_errors   # (a check only the shape function makes: the kernel's
            try:                                           # result where the graph does not see it)
                rerun = trace_errors.rerun_kernel_only(
                    e, lambda: _forward(op, tensors, arrays, attrs, rule, marked), tensors)
            except Exception as kernel_err:   # (the kernel's own refusal of a dry run's probe sizes: the
                # op's stand-in, as for any kernel error below; conv2d of [2, None, 6, 3] by a dilated 3x2 VALID
                # window, whose probe rows 1-3 are smaller than the window: fix64s)
                standin = _past_kernel_error(op, arrays, dt, attrs, kernel_err, tensors)
                if standin is None:
                    raise
                rerun = (standin, arrays)
        if rerun is not None:
            out, arrays = rerun
        else:
            out = _past_kernel_error(op, arrays, dt, attrs, e, tensors)
            if out is None:
                if context._placeholder_depth[0] or not _pruning.defers(op, e):
                    # (else a retry of a tf.function call past an op TF prunes, or its replay under a tape)
                    _pruning.note(op, e)
                    raise
                out, pruned = _pruning.standin(op, arrays, dt, attrs), e
                if out is None:   # (a variadic op without a count to go on with)
                    raise
            _STOOD[0] = True   # (its outputs' values are unknown to the graph: marked below)
    if op.num_outputs != 1:
        ts = _run_multi(op, tensors, arrays, out, dt, attrs, rule, marked, pruned is None)
        return ts if pruned is None else _pruning.poison(ts, pruned, _pruning.standin_shaped(op) and (_fully_known(tensors) or _pruning.probe_sized()))
    if type(out) is not np.ndarray:
        out = np.asarray(out)   # a NumPy scalar from a 0-d op
    npd = dt._np
    # (NumPy's builtin dtypes are singletons: the identity test skips a rich comparison)
    if out.dtype is not npd and out.dtype != npd and dt is not _STRING:
        out = out.astype(npd, copy=False)
    if (_fired[0] or marked or rule is _CHECK or npd is _BF16) and rule is not _KEEP:
        # an underflow was noted (a subnormal result, or one rounded to zero), the inputs held
        # subnormals, or the op's NumPy kernel does not note underflows: flush the result (FTZ)
        out = _flush_result(out, rule if marked else None)   # (a Fixed rule mends only marked inputs' results)
    # (a stand-in's zeros are no kernel's output: the op's cost rule, which may read the output's shape, is not
    # asked; SparseSegmentSumWithNumSegments' OOM deferred in a tf.function's retry had met its IndexError, fz42)
    fl = op.flops if pruned is None else None
    n = out.size if fl is None else fl(arrays, out, attrs)
    c = _current.ctx
    d = c.device
    rl = _cost.roofline
    tally.flops += n if rl is None else rl(op, n, arrays, (out,), dt, context._default_device if d is None else d)
    t = Tensor(out, dt, context._default_device if d is None else d)
    if marked and rule is not _FLUSH and rule is not _CHECK:
        t._sub = True   # (a kept or selected subnormal: its mark passes on)
    elif makes and _sn.holds(out):
        t._sub = True   # (made here from normal operands: the ops it feeds read them as zeros)
    if c.observers:
        outs = (t,)
        for o in c.observers:
            outs = o.op(op, tensors, outs, attrs)
        t = outs[0]
    if context._function_depth:   # (which values the graph being built knows: graph_constants.py)
        _consts.propagate(op, tensors, (t,))
        if op.name in _partial.FOLLOWS:   # (a shape-like value the graph partly knows: partial_values.py)
            _partial.note(op, tensors, t, attrs)
        if _STOOD[0]:
            _STOOD[0] = False
            _consts.vary(t)
        _names.name_outputs(op, (t,), tensors)   # (its node's name in TF's graph: runtime/graph_names.py)
        if op.name in _composite.NAMES:   # (a dense result whose shape function reads a shape tensor)
            _composite.outputs(op, tensors, (t,), attrs)
    if _NUMERICS[0] is not None:
        _numerics.check(op.name, tensors, (t,))
    if _shapes.UNKNOWN:    # a traced graph's unknown dimensions, carried through elementwise ops
        t = _shapes.propagate(op, tensors, t, attrs)
    if _shapes.GRAPH_ONLY:   # (and those only Grappler does not know: static_shapes.GRAPH_ONLY)
        t = _shapes.propagate_graph_only(op, tensors, t, attrs)
    if pruned is not None:
        _pruning.poison(t, pruned, _pruning.standin_shaped(op) and (_fully_known(tensors) or _pruning.probe_sized()))
    return t


# TF's broadcasting binary kernels (cwise_ops_common.h BinaryOp, with BCast's fewer-dims grouping): their Eigen
# broadcast is instantiated for 2-5 grouped dimensions only
_BCAST_TO_5 = frozenset({
    "Add", "AddV2", "Sub", "Mul", "Div", "RealDiv", "DivNoNan", "MulNoNan", "FloorDiv", "FloorMod", "TruncateDiv",
    "TruncateMod", "Mod", "Maximum", "Minimum", "Pow", "Atan2", "SquaredDifference", "Xlogy", "Xlog1py", "Xdivy",
    "Igamma", "Igammac", "IgammaGradA", "RandomGammaGrad", "Zeta", "Polygamma", "NextAfter", "Complex", "Less",
    "LessEqual", "Greater", "GreaterEqual", "Equal", "NotEqual", "BitwiseAnd", "BitwiseOr", "BitwiseXor", "LeftShift",
    "RightShift", "LogicalAnd", "LogicalOr"})


def bcast_groups(xs: Sequence[int], ys: Sequence[int]) -> int:
    """The number of dimensions TF's BCast (util/bcast.h, fewer_dims_optimization) computes a broadcast of shapes xs
    and ys in: equal shapes are one; else, from the innermost dimension, dimensions 1 in both are dropped and a run
    of dimensions with the same pattern of which side is 1 is one (0 when they do not broadcast)."""
    if list(xs) == list(ys):
        return 1
    n = max(len(xs), len(ys))
    a = [1] * (n - len(xs)) + [int(d) for d in xs]
    b = [1] * (n - len(ys)) + [int(d) for d in ys]
    groups, prev = 0, None
    for da, db in zip(reversed(a), reversed(b)):
        if da == 1 and db == 1:
            continue
        if da != 1 and db != 1 and da != db:
            return 0
        state = (da == 1, db == 1)
        if state != prev:
            groups += 1
            prev = state
    return max(groups, 1)


def _bcast_limit(op: OpDef, arrays: Sequence[np.ndarray]) -> None:
    """BinaryOp::Compute's refusal of a broadcast of more than 5 grouped dimensions (`bcast_groups`): UnimplementedError
    "Broadcast between [3,1,3,1,2,1] and [1,2,1,2,1,2] is not supported yet." (tnp.kron of two 3-D arrays multiplies
    such shapes; fz50, fz49b_gen seed 50001 #5). Observed on TF 2.21 for AddV2, Maximum, Less, Pow, SquaredDifference,
    LogicalAnd, int32 and in a tf.function (where the graph builds and its run fails)."""
    xs, ys = arrays[0].shape, arrays[1].shape
    if 0 in xs or 0 in ys:
        return      # (an empty result returns before the broadcast: open50, tests/ops/test_open50_bcast_rank_tf.py)
    if bcast_groups(xs, ys) > 5:
        def dims(s: Sequence[int]) -> str:
            return "[" + ",".join(str(int(d)) for d in s) + "]"
        raise errors.UnimplementedError(None, None, f"{{{{function_node __wrapped__{op.name}_device_/job:localhost/"
                                        f"replica:0/task:0/device:CPU:0}}}} Broadcast between {dims(xs)} and "
                                        f"{dims(ys)} is not supported yet. [Op:{op.name}]")


def _select_rank_limit(arrays: Sequence[np.ndarray]) -> None:
    """SelectV2Op::Compute's switch on the broadcast rank (BCastList without the fewer-dims optimization: the
    operands' largest rank) has cases 1 to 8: past it UnimplementedError "Broadcast between <cond> and <then> is not
    supported yet." — equal shapes and scalar operands too — unless the output is empty (it returns first; gsweep63
    g-shape-ops-r9/r10 `where broadcast`, the gradient of maximum/minimum at rank 9)."""
    try:
        shape = np.broadcast_shapes(*(np.shape(a) for a in arrays))
    except ValueError:
        return      # (the kernel's broadcastable check, below)
    if 0 in shape:
        return

    def dims(s: Sequence[int]) -> str:
        return "[" + ",".join(str(int(d)) for d in s) + "]"
    raise errors.UnimplementedError(None, None, "{{function_node __wrapped__SelectV2_device_/job:localhost/replica:0/"
                                    f"task:0/device:CPU:0}}}} Broadcast between {dims(np.shape(arrays[0]))} and "
                                    f"{dims(np.shape(arrays[1]))} is not supported yet. [Op:SelectV2]")


def _rewritten(op: OpDef, tensors: Sequence[Tensor], attrs: dict | None) -> Tensor | None:
    """The op as Grappler's rewrite of it computes it, or None where no rule applies.

    TF differentiates the graph as the Python built it and optimizes the result afterwards, so a
    rewrite changes values, never what a gradient is taken of: the rewritten ops run in the sight
    of the graph recorders alone (the recording and every replay hold them), and the tapes and
    forward accumulators see the op itself, with the rewritten output. (Shown the rewrite, a
    ForwardAccumulator's JVP of `ones * x`, which differentiates with respect to the ones it
    made, was zeros once `x * 1` forwarded x.)"""
    c = _current.ctx
    rec = c.recorder
    observers = c.observers
    others = [o for o in observers if not any(o is r for r in execution._live)]
    if others:
        c.observers = [o for o in observers if not any(o is x for x in others)]
    _names.name_captures(op, tensors)   # (captures converted before the op, which its rule may sort by name)
    held = _names.inner_mark()
    try:
        with _names.quiet():   # (the rewrite's ops are not nodes of the Python's graph)
            if _NUMERICS[0] is None:
                t = op.graph_rule(rec, tensors, attrs)
            else:   # (TF instruments the op as built: its check names it, not the rewrite)
                t = _numerics.rewritten(op.name, tensors, lambda: op.graph_rule(rec, tensors, attrs))
    except BaseException:
        _names.name_inner_nodes(None, held)   # (dropped)
        raise
    finally:
        c.observers = observers
    if t is not None:
        _names.name_outputs(op, (t,), tensors)   # (the op's node; a tensor the rewrite forwarded keeps its name)
    _names.name_inner_nodes(t, held)   # (nodes the rewrite added beside it: ConvertPow's inner Square)
    if t is None or not others:
        return t
    outs = (t,)
    for o in others:
        outs = o.op(op, tensors, outs, attrs)
    return outs[0]  # type: ignore[no-any-return]


# how many stand-ins dry runs went on with (tf/_concrete.py tells a run that completed on them)
STANDINS = [0]
_STOOD = [False]   # (the op running now returns a stand-in: its outputs are marked as values the graph does not know)
_DEFERRED = [False]   # (the op running now has no kernel: execute's deferred_kernel)


def _past_kernel_error(op: OpDef, arrays: Sequence[np.ndarray], dt: Any, attrs: dict | None, e: BaseException,
                       tensors: Sequence[Any] = ()) -> Any:
    """The output a dry run of a tf.function's Python (tf/_concrete.py) goes on with when op's
    kernel raised `e`, a run-time error (an OpError without a trace-time mark), or None to raise
    it. TF's trace adds the node and never runs its kernel, so a later op's graph-build error wins
    (fz14 seed 1420261202 #640: FloorMod's "Integer division by zero", then rfftnd's ValueError):
    the stand-in is zeros of the op's dtype and of the shape its shape function gives (an
    elementwise op: its operands' broadcast; others: OpDef.standin), a tuple for several outputs
    (clause function.trace-time-errors)."""
    from simdist.runtime import errors
    if not context._placeholder_depth[0] or not isinstance(e, errors.OpError) or getattr(e, _MARK, None):
        return None
    try:
        if op.kind == "elementwise" and op.num_outputs == 1:
            shapes: Any = (np.broadcast_shapes(*(np.shape(a) for a in arrays)),)
        elif op.standin_known is not None and len(tensors) == len(arrays):
            shapes = op.standin_known([_shapes.known_shape(t) for t in tensors], arrays, attrs or {})
        elif op.standin is not None:
            shapes = op.standin(arrays, attrs or {})
        else:
            return None
    except Exception:  # noqa: BLE001 - no shape to go on with: the kernel's error stands
        return None
    dts = dt if type(dt) is tuple else (dt,) * len(shapes)
    STANDINS[0] += 1
    outs = tuple(np.full(s, b"", dtype=object) if d is _STRING else np.zeros(s, d._np) for s, d in zip(shapes, dts))
    return outs[0] if op.num_outputs == 1 else outs


def missing_kernel(err: BaseException) -> bool:
    """Whether err is a kernel lookup's NotFoundError ("Could not find device for node"), unmarked."""
    from simdist.runtime import errors
    return isinstance(err, errors.NotFoundError) and not getattr(err, _MARK, None) \
        and "Could not find device for node" in str(err)


def graph_shape_first(op: OpDef, tensors: Sequence[Tensor], attrs: dict | None, err: BaseException) -> None:
    """Inside a tf.function, an op whose CPU kernel is missing for its dtype (err, its dtype rule's
    error, `missing_kernel`; any other error: nothing done here): TF builds the node (its
    shape function at trace) and looks the kernel up only when the graph runs, so the shape
    function's error is the trace's ValueError first: `igammac(float16 [4], float16 [0])` with an
    input_signature is "Dimensions must be equal, but are 4 and 0" at get_concrete_function (fz37b,
    fourteenth generator seed 1420373001 #247; observed on TF 2.21). The op's trace_shape, else, for an
    elementwise op (whose inputs are TF's, in order), its shape function registered with infer_ctx (another
    op's simdist inputs need not be TF's: Einsum's list is one input there)."""
    if not context._function_depth or not missing_kernel(err):
        return
    if op.trace_shape is not None:
        _trace_shape(op, tensors, attrs)
        return
    from simdist.runtime.ops import infer_ctx
    if op.kind == "elementwise" and infer_ctx.has(op.name):
        _trace_shape_with(op, infer_ctx.trace_shape(op.name), tensors, attrs)


def _trace_shape_with(op: OpDef, trace_shape: Any, tensors: Sequence[Tensor], attrs: dict | None) -> None:
    from simdist.runtime.ops import shape_checks
    shape_checks.check(op.name, trace_shape, [_shapes.known_shape(t) for t in tensors], attrs)


def deferred_kernel(err: BaseException) -> bool:
    """Whether a dry run of a tf.function's Python (tf/_concrete.py) goes on past `err`, a missing
    CPU kernel (NotFoundError "Could not find device for node", unmarked): TF adds the node and looks
    its kernel up only when the graph runs, after the whole trace, so a later op's graph-build error
    is the call's (`tf.range(3, dtype=tf.int8)` then a trace of the vector: MatrixDiagPartV3's
    ValueError; normalize_moments' Reciprocal of int64 counts, then Mul's TypeError). The caller
    goes on with a stand-in (`_standin`: no kernel runs) marked as a value the graph does not know,
    counted as `_past_kernel_error`'s. Eagerly, and outside dry runs, False: the error stands."""
    from simdist.runtime import errors
    if not context._placeholder_depth[0] or not isinstance(err, errors.NotFoundError) or getattr(err, _MARK, None) \
            or "Could not find device for node" not in str(err):
        return False
    STANDINS[0] += 1
    return True


def graph_assert(err: BaseException) -> None:
    """An Assert op's failure that a wrapper knows from values the graph may know too
    (control_flow_assert.Assert, which unlike check_ops' asserts never raises while the graph is
    built): raised; in a dry run of a tf.function's Python the trace goes on past it, counted as a
    stand-in, so a later op's graph-build error is the call's (ssim of images smaller than the
    filter: DepthwiseConv2dNative's ValueError at trace; fz29b, fz14 seed 1420292901 #61)."""
    if not context._placeholder_depth[0] or getattr(err, _MARK, None):
        raise err
    STANDINS[0] += 1


def deferred_value_error(text: str) -> ValueError:
    """A ValueError TF raises where Python reads a built node's output shape (a dimension its shape
    function computed below 0), not when it builds the node: `refused` with pruned=True defers it as a
    pruned kernel's error (a graph that never reads the output prunes the op), and a dry run's
    stand-in raises it when read or returned."""
    err = ValueError(text)
    err._simdist_deferred_value = True   # type: ignore[attr-defined]
    return err


def refused(err: BaseException, dt: Any, shape: Sequence[int], pruned: bool = False, like: Any = None) -> Tensor:
    """A kernel's run-time refusal that an op's Python wrapper checks before dispatch (MatMul's
    sizes for dimensions the graph does not know): raised; in a dry run of a tf.function's Python,
    a stand-in of the shape the op's shape function gives instead, as `_past_kernel_error`.
    `pruned`: the refusal is a stateless op's kernel's, which TF never runs when nothing uses the op
    (runtime/ops/pruning.py): a retry of the tf.function call goes on past it.
    `like`: the input whose shape the op's shape function passes on (UnchangedShape: MatrixBandPart, Cast, a
    scan, ReverseSequence): the stand-in keeps what the graph does not know of it, its unknown dimensions or
    rank (static_shapes.carry), as the op's executed output would (static_shapes.propagate); band_part of an
    unknown-rank input refused in the dry run of a rank-1 stand-in is still of unknown rank to unicode_decode's
    "Rank of `input` must be statically known." (fz14 seed 1420443003 #25)."""
    if not context._placeholder_depth[0] or getattr(err, _MARK, None):
        if pruned and context._function_depth and not getattr(err, _MARK, None):   # (a stateless op TF may
            # prune: pruning.py; `pruned` where the caller checks such an op's kernel, not an Assert's)
            if _pruning.defers_key("", err):
                return _pruning.poison(Tensor(np.zeros(tuple(shape), dt._np), dt, context.current_device()), err)
            _pruning.note_key("", False, err)
        raise err
    STANDINS[0] += 1
    t = Tensor(np.full(tuple(shape), b"", dtype=object) if dt is _STRING else np.zeros(tuple(shape), dt._np), dt,
               context.current_device())
    if like is not None:
        _shapes.carry(like, t)
    if getattr(err, "_simdist_deferred_value", False):   # (read, or returned: the trace's error)
        return _pruning.poison(_consts.vary(t), err)
    return _consts.vary(t)


def layout_refused(err: BaseException, dt: Any, shape: Sequence[int], inputs: Sequence[Any]) -> Tensor:
    """A stateless op's kernel refusing its data format where TF runs its own CPU kernel (ops.host-cpu): raised,
    but inside a tf.function `refused(pruned=True)`, so a call that does not use the result returns as TF's, which
    prunes the op (pruning.py; observed on the AVX2 host for NCHW Conv2D/MaxPool/AvgPool and NCDHW
    MaxPool3D/AvgPool3D, open52). Raised also where a tape records the op on `inputs`: its gradient's
    kernels need it or refuse the layout too."""
    if context._function_depth and not context._placeholder_depth[0] and \
            not any(getattr(tp, "should_record", None) is not None and tp.should_record(inputs) for tp in tapes()):
        return refused(err, dt, shape, pruned=True)
    raise err


def _trace_shape(op: OpDef, tensors: Sequence[Tensor], attrs: dict | None) -> None:
    """Raise the op's shape-function error (marked as TF's trace-time ValueError) when its
    trace_shape fails on the shapes the traced graph knows (clause function.trace-time-errors)."""
    from simdist.runtime.ops import shape_checks
    fn = op.trace_shape
    if getattr(fn, "reads_values", False):   # (a shape function reading known input values: infer_ctx.trace_shape)
        def fn(shapes: list, at: dict | None, _f: Any = op.trace_shape) -> str | None:
            return _f(shapes, at, tensors)
    shape_checks.check(op.name, fn, [_shapes.known_shape(t) for t in tensors], attrs)


def _run_multi(op: OpDef, tensors: Sequence[Tensor], arrays: Sequence[np.ndarray], outs: Any, dts: Any,
               attrs: dict | None, rule: Any, marked: bool, ran: bool = True) -> tuple[Tensor, ...]:
    if type(dts) is not tuple:
        dts = (dts,) * len(outs)
    flush = (_fired[0] or marked or rule is _CHECK) and rule is not _KEEP
    fixed = []
    for out, dt in zip(outs, dts):
        out = np.asarray(out)
        if out.dtype != dt._np and dt is not _STRING:
            out = out.astype(dt._np, copy=False)
        if (flush or dt._np is _BF16) and rule is not _KEEP:
            out = _flush_result(out, rule if marked else None)
        fixed.append(out)
    fl = op.flops if ran else None   # (not `ran`: a stand-in's zeros, run's comment)
    n = sum(o.size for o in fixed) if fl is None else fl(arrays, fixed, attrs)
    dev = context.current_device()
    rl = _cost.roofline
    tally.flops += n if rl is None else rl(op, n, arrays, fixed, dts[0], dev)
    ts = tuple(Tensor(o, dt, dev) for o, dt in zip(fixed, dts))
    if marked and rule is not _FLUSH and rule is not _CHECK:
        for t in ts:
            t._sub = True
    for o in _current.ctx.observers:
        ts = o.op(op, tensors, ts, attrs)
    if context._function_depth:
        _consts.propagate(op, tensors, ts)
        if _STOOD[0]:
            _STOOD[0] = False
            for x in ts:
                _consts.vary(x)
        _names.name_outputs(op, ts, tensors)
        if op.name in _composite.NAMES:   # (value-sized outputs of sparse/set/string kernels: composite_shapes.py)
            ts = tuple(_composite.outputs(op, tensors, ts, attrs))
    if _NUMERICS[0] is not None:
        _numerics.check(op.name, tensors, ts)
    if _shapes.UNKNOWN:   # (a traced graph's unknown dimensions through the op's shape function)
        ts = _shapes.propagate_multi(op, tensors, ts, attrs)
    if _shapes.GRAPH_ONLY:   # (and those only Grappler does not know)
        ts = _shapes.propagate_multi_graph_only(op, tensors, ts, attrs)
    return ts


def _standin(arrays: Sequence[np.ndarray], dt: Any) -> np.ndarray:
    """An elementwise op's stand-in output: zeros (empty strings) of its operands' broadcast shape."""
    shape = np.broadcast_shapes(*(np.shape(a) for a in arrays))
    return np.full(shape, b"", dtype=object) if dt is _STRING else np.zeros(shape, dt._np)


def _forward(op: OpDef, tensors: Sequence[Tensor], arrays: Sequence[np.ndarray], attrs: dict | None, rule: Any,
             marked: bool) -> tuple[Any, Sequence[np.ndarray]]:
    """The op's kernel on its arrays (marked subnormal inputs: `_marked_forward`): (result, the
    arrays it read)."""
    if marked and rule is not _KEEP:
        return _marked_forward(op, tensors, arrays, attrs, rule)
    return (op.forward(*arrays, **attrs) if attrs else op.forward(*arrays)), arrays


def _marked_forward(op: OpDef, tensors: Sequence[Tensor], arrays: Sequence[np.ndarray], attrs: dict | None,
                    rule: Any) -> tuple[Any, list[np.ndarray]]:
    """The forward of an op that reads subnormal inputs as zeros (DAZ): on the inputs flushed;
    a `subnormals.Fixed` rule then mends the result from the original inputs (an order computed
    on zeros, values selected from the originals). A recorded call stays eager (a replay does not
    model it: graph.Recorder.subnormal). Returns (result, the arrays the forward read)."""
    flushed = [_sn.flushed(a) if x._sub else a for x, a in zip(tensors, arrays)]
    rec = _current.ctx.recorder
    if rec is not None:
        rec.subnormal(False)
    out = op.forward(*flushed, **attrs) if attrs else op.forward(*flushed)
    if type(rule) is _sn.Fixed and not any(a.dtype.kind == "c" for a in arrays):
        out = rule.fix(arrays, flushed, out, attrs)   # (complex kernels flush their parts themselves)
    return out, flushed


def _flush_result(out: np.ndarray, rule: Any) -> np.ndarray:
    """out with its subnormals flushed to zeros of their sign (FTZ), unless a Fixed rule made it (the
    callers pass the rule only when the inputs were marked, so the fix ran: a Fixed op's subnormal
    result of normal inputs is flushed, bfloat16 `xdivy(2**-126, -3.0)` is -0.0 as in TF 2.21, nsweep60);
    a recorded call whose result changed stays eager, or replays op by op (graph.Recorder.subnormal)."""
    _fired[0] = False
    if type(rule) is _sn.Fixed or out.dtype not in _FLUSHED:
        return out
    was, out = out, _sn.flushed(out)
    if out is not was and _current.ctx.recorder is not None:
        _current.ctx.recorder.subnormal(False)
    return out


def variable_read(var: Any, t: Tensor) -> Tensor:
    """A variable's value was read into tensor t (ReadVariableOp): tell the observers."""
    for o in _current.ctx.observers:
        t = o.read(var, t)
    if _NUMERICS[0] is not None:
        _numerics.check("ReadVariableOp", (var,), (t,))
    return t


def variable_gathered(var: Any, indices: Tensor, t: Tensor) -> Tensor:
    """Rows `indices` of a variable were read into t (ResourceGather): tell the observers. The
    recorder does not record row reads yet (their traffic depends on the ids): the call stays
    eager."""
    for o in _current.ctx.observers:
        t = o.gathered(var, indices, t)
    return t


def variable_written(var: Any, kind: str, value: Any, arr: np.ndarray) -> None:
    """`var.<kind>(value)` wrote arr (AssignVariableOp & co.): tell the observers."""
    for o in _current.ctx.observers:
        o.write(var, kind, value, arr)


def variable_scattered(var: Any, kind: str, indices: Tensor, updates: Tensor, operand: tuple) -> None:
    """`var.<kind>(...)` wrote `operand` = (indices, updates) arrays (ResourceScatterAdd & co.):
    tell the observers."""
    for o in _current.ctx.observers:
        o.scatter(var, kind, indices, updates, operand)


def constant_made(t: Tensor) -> Tensor:
    """A tensor made from a Python or NumPy value (a Const node): the recorder captures it."""
    rec = _current.ctx.recorder
    if rec is not None:
        return rec.constant(t)
    return t


def bind(op: OpDef, inputs: Sequence[Any], outputs: tuple, attrs: dict | None = None) -> tuple:
    """Bind op `op`, whose `outputs` were computed outside execute (op.bound says where: a
    collective's merge across replicas, a custom-gradient function's own ops), to `inputs`: the
    interpreters see it as any op (a tape records it with its registered gradient; the recorder
    keeps where its values came from, see Recorder.op). Nothing is computed or counted here:
    the values' ops and the simulator charged them where they ran. Returns the outputs."""
    for o in _current.ctx.observers:
        outputs = o.op(op, inputs, outputs, attrs)
    if _NUMERICS[0] is not None:
        _numerics.check(op.name, inputs, [o for o in outputs if isinstance(o, Tensor)])
    return outputs


def recording() -> bool:
    """Whether a tf.function call is being recorded in the current context."""
    return _current.ctx.recorder is not None


def replica_turn(lane: int | None, lanes: int) -> None:
    """Replica `lane` of a strategy.run of `lanes` replicas runs now (None: its turn ended): the
    recorder of the call being recorded keeps each replica's ops as its lane (runtime/lanes/)."""
    rec = _current.ctx.recorder
    if rec is None:
        return
    rec.lane = lane
    if lane is not None:
        rec.lanes = lanes if rec.lanes in (0, lanes) else -1


def unrecordable(reason: str) -> None:
    """What happens now cannot be replayed: the call being recorded in the current context (if
    any) stays eager, for `reason`."""
    rec = _current.ctx.recorder
    if rec is not None:
        rec.invalidate(reason)


def reduced(fn: Any, tensors: Sequence[Tensor], out: Tensor, reduce: str | None = None, folds: bool = True) -> Tensor:
    """`out` = fn(*arrays of tensors), computed outside the registry (a cross-replica reduction
    in a merge): the recorder of the call being recorded notes it as one node (`reduce`: "SUM"
    or "MEAN", a reduction replica fusion can fuse), so its replays compute it the same way.
    `folds` False: a collective op's result, never a constant to Grappler."""
    rec = _current.ctx.recorder
    if rec is not None:
        return rec.computed(fn, tensors, out, reduce=reduce, folds=folds)
    return out


def placed(t: Tensor, device: str) -> Tensor:
    """t's value as a tensor on `device` (a collective's result handed to a replica: the same
    array; in a recorded call, the same node)."""
    rec = _current.ctx.recorder
    if rec is not None:
        return rec.alias(t, device)
    return Tensor(t._v, t.dtype, device)


def charged(fn: Any, refusal: str | None = None) -> None:
    """A simulator charge was made; `fn()` makes it again (a recorded call replays it at this
    point). `refusal`: why a recorded call could not replay it here (it then stays eager)."""
    for o in _current.ctx.observers:
        o.charge(fn, refusal)
