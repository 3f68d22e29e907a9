"""Every branch of a tf.cond / tf.switch_case / tf.case traced inside a tf.function, as TF 2.21's
cond_v2 and indexed_case build them (tensorflow/python/ops/cond_v2.py; clause
function.traced-branches).

TF builds a graph for each branch, in order (true_fn then false_fn; branch_fns then default), so
the Python of every branch runs while the function traces: its side effects happen, an error TF
finds while it builds a graph (a shape function's ValueError, op_def_library's TypeError, the
user's own Python exceptions) fails the trace even in a branch the predicate does not take, and
the branches' outputs must agree (`_check_same_outputs`): as many flattened outputs (else
AssertionError with the counts), one nested structure (TypeError), as many non-None tensors
(ValueError) and one dtype per output (TypeError). A Python number a branch returns is a tensor
there. Where the branches' output shapes differ, the result's dimensions that differ are unknown
to the graph (`most_specific_compatible_shape`).

simdist runs a function's Python on values, so it runs the branch the predicate takes as it is
and each other branch *untaken*: with the graph recording and the gradient tapes set aside,
variable writes buffered in a transaction that is dropped, simulator charges collected and
dropped and the FLOP tally restored, so that nothing the branch computes reaches a value, a
variable, the simulated time or a tape; an error only a kernel finds (an index out of range, a
failing tf.Assert) is ignored there, as TF never runs the branch (the output checks are then
skipped for it).
"""

from __future__ import annotations

import contextlib
from typing import Any, Callable, Iterator, Sequence

import numpy as np

from simdist.runtime import context, errors, execution, nest, variables
from simdist.runtime.cost import tally
from simdist.runtime.ops import dispatch, pruning, trace_errors
from simdist.runtime.tensor import Tensor, convert_to_tensor

__all__ = ["COND", "CASE", "run", "untaken"]

COND, CASE = "cond", "case"
_FAILED = object()   # an untaken branch stopped by an error TF's graph would only meet when it runs


def run(kind: str, fns: Sequence[Callable[[], Any]], pred: Tensor, select: Callable[[np.ndarray], int]) -> Any:
    """The branch of fns that `select(pred's value)` picks, run as tf.cond (kind COND: fns is
    [true_fn, false_fn]) or tf.switch_case / the conds of tf.case (CASE) run it: outside a
    tf.function that branch alone; inside one every branch in order (the others untaken), their
    outputs checked against each other and the taken one's returned with Python numbers as
    tensors. In a recorded call whose predicate changes between calls the branches are
    recorded as a node that selects one on every replay (graph/branches.py)."""
    if context.in_function() and pruning.is_standin(pred):
        return _standin_branches(kind, fns, pred)
    rec = execution.current().recorder
    if context.in_function() and rec is not None and not rec.is_constant(pred):
        from simdist.runtime.graph import branches as recorded
        if recorded.recordable(rec):
            taken = select(dispatch.raw(pred))
            outs, result = recorded.record_branches(rec, pred, fns, taken, select, _untaken_recorded, _outputs,
                                                    _FAILED)
            if result is None:
                return _checked(kind, outs, taken)
            _check_same_outputs(kind, outs)
            return _relaxed(outs, taken, result)
    taken = select(dispatch.static_value(pred))
    if not context.in_function():
        return fns[taken]()
    reads: list[Any] = []
    c = execution.current()
    taped = bool(c.tapes or c.aside is not None)
    seen = [Captures() for _ in fns] if taped else None
    outs = []
    for i, fn in enumerate(fns):
        with observing(seen[i]) if seen is not None else contextlib.nullcontext():
            outs.append(_outputs(fn()) if i == taken else untaken(fn, reads=reads, observer=seen[i] if seen else None))
    result = _checked(kind, outs, taken)
    if reads and taped:
        result = _watched(result, reads)
    if seen is not None:
        # (a capture some branch not taken differentiates and the taken one does not: cond_v2's
        # _create_zeros_for_none_grads gives it zeros in the taken branch's gradient)
        mine = {id(t) for t in seen[taken].reaching(outs[taken])}
        other: list[Tensor] = []
        for i, s in enumerate(seen):
            if i != taken and outs[i] is not _FAILED:
                other.extend(t for t in s.reaching(outs[i]) if id(t) not in mine and all(t is not o for o in other))
        if other:
            result = zeros_for(result, other)
    return result


class _Reads(execution.Interpreter):
    """Notes the variables an untaken branch reads (each once, in order)."""

    def __init__(self, into: list[Any]) -> None:
        self.into = into

    def read(self, var: Any, t: Any) -> Any:
        if all(v is not var for v in self.into):
            self.into.append(var)
        return t


class Captures(execution.Interpreter):
    """Notes the tensors from outside a branch (or a loop's cond and body) that reach its results through
    differentiable ops: the If's (While's) inputs whose gradient the op's gradient graph connects, as
    TF's cond_v2 and while_v2 take a branch's captures as inputs of the op. `reaching(results)` lists them."""

    def __init__(self) -> None:
        self.flows: dict[int, tuple[int, ...]] = {}   # id of a tensor made inside -> the captures it depends on
        self.outside: dict[int, Tensor] = {}          # id -> a capture (kept alive: ids stay unique)
        self.keep: list[Any] = []

    def op(self, opdef: Any, tensors: Any, outs: tuple, attrs: dict | None) -> tuple:
        from simdist.runtime.ops.registry import NO_GRADIENT
        srcs: set[int] = set()
        for t in tensors:
            if not isinstance(t, Tensor):
                continue
            got = self.flows.get(id(t))
            if got is not None:
                srcs.update(got)
            else:
                self.outside.setdefault(id(t), t)
                srcs.add(id(t))
        through = tuple(sorted(srcs)) if opdef.grad is not NO_GRADIENT and opdef.grad is not None else ()
        for o in outs:
            self.flows[id(o)] = through
        self.keep.append(outs)
        return outs

    def reaching(self, results: Any) -> list[Tensor]:
        """The captures the results depend on through differentiable ops, in the order they were met."""
        found: set[int] = set()
        for t in nest.flatten(results):
            if isinstance(t, Tensor):
                got = self.flows.get(id(t))
                found.update(got if got is not None else ((id(t),) if id(t) in self.outside else ()))
        return [t for k, t in self.outside.items() if k in found]


@contextlib.contextmanager
def observing(obs: Captures) -> Iterator[None]:
    """Run the body with `obs` among the context's observers (after the others: it sees what the caller sees)."""
    c = execution.current()
    saved = c.observers
    c.observers = list(saved) + [obs]
    try:
        yield
    finally:
        c.observers = saved


def zeros_for(result: Any, sources: list[Any]) -> Any:
    """`result` made an op of itself and of `sources` (tensors or variables' reads) whose gradient is the
    incoming one for the results and zeros for the sources: TF's If (While) op takes every capture of its
    branches (its cond and body) as an input, so a tape around it in a tf.function gives a source a branch
    not taken (a loop run zero times) uses zeros, not None (clause function.graph-gradients)."""
    from simdist.runtime.autodiff.tape import record_operation, trainable
    from simdist.runtime.ops.array import identity, zeros_like
    flat = [t for t in nest.flatten(result) if isinstance(t, Tensor)]
    values = [v.read_value() if hasattr(v, "read_value") else v for v in sources]
    values = [v for v in values if isinstance(v, Tensor) and trainable(v.dtype)]
    if not flat or not values:
        return result
    out = [identity(t) for t in flat]

    def backward(*grads: Any) -> list:
        return list(grads) + [zeros_like(r) for r in values]
    record_operation("If", out, flat + values, backward)
    it = iter(out)
    return nest.map_structure(lambda v: next(it) if isinstance(v, Tensor) else v, result)


def _watched(result: Any, reads: list[Any]) -> Any:
    """TF's If op takes the variables every branch reads as inputs, so a gradient tape around the
    call watches those of the branch not taken too, and their gradient is zeros (not None): each
    is read where the tapes see it, and the result is made an op of them whose gradient is the
    incoming one for the taken branch's outputs and zeros for the reads."""
    from simdist.runtime.autodiff.tape import record_operation
    from simdist.runtime.ops.array import identity, zeros_like
    flat = [t for t in nest.flatten(result) if isinstance(t, Tensor)]
    if not flat:
        return result
    values = [v.read_value() if hasattr(v, "read_value") else v for v in reads]
    out = [identity(t) for t in flat]

    def backward(*grads: Any) -> list:
        return list(grads) + [zeros_like(r) for r in values]
    record_operation("If", out, flat + values, backward)
    it = iter(out)
    return nest.map_structure(lambda v: next(it) if isinstance(v, Tensor) else v, result)


def _standin_branches(kind: str, fns: Sequence[Callable[[], Any]], pred: Tensor) -> Any:
    """A tf.cond / switch_case inside a tf.function call's retry whose predicate is a stand-in (runtime/ops/
    pruning.py: a failed kernel's output, whose value the graph would compute only when it runs): TF builds
    every branch before anything runs, so each is traced as an untaken one (a trace-time error of any is the
    call's), their outputs checked against each other, and the result is stand-ins raising the predicate's
    error when read (shaped where every branch gives one static shape). A branch that writes a variable makes
    the If stateful, which TF runs: the predicate's error then."""
    err = pruning.error_of(pred)
    outs = []
    for fn in fns:
        writes: list[int] = []
        outs.append(untaken(fn, writes=writes))
        if writes and writes[0]:
            raise err
    if outs[0] is _FAILED:
        raise err
    result = _checked(kind, outs, 0)
    dev = context.current_device()

    def stand(i: int, t: Any) -> Any:
        if not isinstance(t, Tensor):
            return t
        arr = pruning.standin_array(t)
        shaped = all(isinstance(o, Tensor) and tuple(pruning.standin_array(o).shape) == tuple(arr.shape) and
                     (not pruning.is_standin(o) or pruning.is_shaped(o)) for o in flat_of[i])
        return pruning.poison(Tensor(np.zeros_like(arr), t.dtype, dev), err, shaped)
    flat = nest.flatten(result)
    flats = [nest.flatten(o) if o is not _FAILED else None for o in outs]
    flat_of = [[f[i] for f in flats if f is not None and len(f) == len(flat)] for i in range(len(flat))]
    return nest.pack_sequence_as(result, [stand(i, t) for i, t in enumerate(flat)])


def _checked(kind: str, outs: list[Any], taken: int) -> Any:
    if any(o is _FAILED for o in outs):
        return outs[taken]
    _check_same_outputs(kind, outs)
    return _relaxed(outs, taken, outs[taken])


def _untaken_recorded(fn: Callable[[], Any]) -> Any:
    return untaken(fn, keep_recorder=True)


def _drop(items: list[Any], item: Any) -> None:
    for i in range(len(items) - 1, -1, -1):
        if items[i] is item:
            del items[i]
            return


def untaken(fn: Callable[[], Any], keep_recorder: bool = False, reads: list[Any] | None = None,
            observer: Any = None, writes: list[int] | None = None) -> Any:
    """fn() run as TF traces a branch it does not take (see the module's docstring): its outputs
    as tensors, or _FAILED when an op of it raised an error that TF only raises when a graph
    runs. With keep_recorder the recording (a branch's: graph/branches.py) still sees its ops;
    a charge it makes stops that recording. `reads` receives the variables it reads."""
    c = execution.current()
    # In a replica of a multi-replica strategy.run the branch is traced alone: replicas take turns at
    # their collectives, and one's effect-free trace restoring the FLOP tally while another's is open
    # would corrupt both (a merge_call inside the branch showed it), so a collective in it stops the
    # trace before the replica hands its turn on (BranchMeetsReplicas), as a kernel's error does: its
    # output checks are then skipped. docs/spec.md function.traced-branches.
    alone = getattr(c.runner, "n", 1) > 1
    rec = c.recorder
    saved = (c.tapes, c.observers, c.aside, c.through, rec)
    created = None
    if rec is not None and not keep_recorder:
        # (this context stops recording; the process's recording goes on: replicas of one
        # strategy.run share the recorder and may each be in an untaken branch at a merge)
        c.recorder = None
        created = rec.created   # (the tensors the branch makes are no replay's: not counted, below)
    c.tapes, c.aside, c.through = [], None, None
    c.observers = ([rec] if rec is not None and keep_recorder else []) + ([_Reads(reads)] if reads is not None else []) \
        + ([observer] if observer is not None else [])
    txn = variables.Transaction()
    c.transactions.append(txn)
    dropped: list[Any] = execution.AloneDiscarded() if alone else execution.Discarded()
    c.charges.append(dropped)
    flops, backward, update = tally.snapshot()
    try:
        try:
            return _outputs(fn())
        except errors.OpError as e:
            if trace_errors.builds(e) or trace_errors.lowers(e):
                raise
            return _FAILED
        except execution.BranchMeetsReplicas:
            return _FAILED
    finally:
        if writes is not None:   # (how many variable writes the branch made, all undone)
            writes.append(len(txn.ops))
        if keep_recorder and rec is not None:
            rec.spent = tally.flops - flops
            if dropped:
                rec.invalidate("a tf.cond branch charges the simulator (a strategy call inside it)")
        tally.flops, tally.backward, tally.update = flops, backward, update
        # (by identity: replicas of one strategy.run share these lists, and another replica's
        # untaken branch may have opened its own after this one when they met in a merge)
        _drop(c.charges, dropped)
        _drop(c.transactions, txn)
        c.tapes, c.observers, c.aside, c.through, c.recorder = saved
        if created is not None:
            # The branch's tensors were made with the recording detached and are discarded: not
            # tensors "made outside the op registry" that would keep the call from replaying (a
            # tf.cond on a constant predicate in a tf.function ran eagerly at every call until summary22).
            rec.created = created


def _outputs(out: Any) -> Any:
    """A branch's outputs as a graph holds them: tensors (Python and NumPy values converted,
    variables read), None kept."""
    return nest.map_structure(_as_output, out)


def _as_output(v: Any) -> Any:
    if v is None or isinstance(v, Tensor):
        return v
    if isinstance(v, variables.Variable):
        return v.read_value()
    if hasattr(v, "indices") and hasattr(v, "values"):   # (IndexedSlices stay as they are)
        return v
    return convert_to_tensor(v)


def _names(kind: str, b: int) -> tuple[str, str, str]:
    if kind == COND:
        return "true_fn", "false_fn", "tf.cond"
    return "branches[0]", f"branches[{b}]", "tf.switch_case"


def _fail(cls: type, text: str) -> BaseException:
    """cls(text), raised as TF raises it from a tracing function (in user code: ...)."""
    return trace_errors.static(cls(text), cls, text)


def _check_same_outputs(kind: str, outs: list[Any]) -> None:
    """cond_v2's checks, in its order: the flattened counts (the IndexedSlices match's assert),
    then per branch its nested structure, its count of non-None outputs and their dtypes."""
    flat = [nest.flatten(o) for o in outs]
    counts = [len(f) for f in flat]
    if len(set(counts)) != 1:
        raise _fail(AssertionError, str(counts))
    first, _, op = _names(kind, 1)
    for b in range(1, len(outs)):
        _, other, _ = _names(kind, b)

        def error(detail: str) -> BaseException:
            return _fail(TypeError, f"{first} and {other} arguments to {op} must have the same number, type, and "
                                    f"overall structure of return values.\n\n{first} output: {outs[0]!r}\n"
                                    f"{other} output: {outs[b]!r}\n\nError details:\n{detail}")
        try:
            nest.assert_same_structure(outs[0], outs[b])
        except (ValueError, TypeError) as e:
            raise error(str(e)) from None
        t0 = [t for t in flat[0] if t is not None]
        tb = [t for t in flat[b] if t is not None]
        if len(t0) != len(tb):
            raise _fail(ValueError, f"Lengths of branch outputs of {'cond' if kind == COND else 'case'} must match.\n"
                                    f"len(graphs[0].outputs): {len(t0)}\nlen(graphs[{b}].outputs): {len(tb)}\n")
        for x, y in zip(t0, tb):
            if x.dtype != y.dtype:
                raise error(f"{x!r} and {y!r} have different types")


def _relaxed(outs: list[Any], taken: int, result: Any) -> Any:
    """The taken branch's outputs, each made a new tensor (TF's If output) with the most specific shape compatible
    with every branch's (`most_specific_compatible_shape`): a dimension unknown in some branch or differing between
    them is unknown to the graph, and the rank is unknown when a branch's is or the ranks differ; so that a shape
    function cannot fail on them and `result.shape` reads as TF's."""
    from simdist.runtime.ops import static_shapes
    flat = [nest.flatten(o) for o in outs]
    mine = nest.flatten(result)
    changed = False
    out = list(mine)
    for j, t in enumerate(mine):
        if not isinstance(t, Tensor):
            continue
        branch = [f[j] for f in flat if isinstance(f[j], Tensor)]
        shapes = [static_shapes.known_shape(b) for b in branch]
        no_rank = any(s is None for s in shapes) or len({len(s) for s in shapes}) > 1
        if no_rank:
            if static_shapes.rank_unknown(t):
                continue
        else:
            flags = tuple(any(s[d] is None for s in shapes) or len({s[d] for s in shapes}) > 1 for d in range(t.ndim))
            if flags == (static_shapes.unknown(t) or (False,) * t.ndim) and not static_shapes.rank_unknown(t):
                continue
        from simdist.runtime.ops.array import identity
        u = identity(t)
        if no_rank:
            static_shapes.mark_rank_unknown(u)
        else:
            static_shapes.mark(u, np.asarray(flags, bool))
        out[j] = u
        changed = True
    if not changed:
        return result
    return nest.pack_sequence_as(outs[taken], out)
