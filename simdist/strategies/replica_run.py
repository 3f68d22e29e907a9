"""Runs a function once per replica, with collective sync points (all_reduce, merge_call).

Replicas run as greenlets of the caller's thread (TF runs them on threads of their own; the
per-thread state TF keeps — context stack, device scope, gradient tapes, cost sections — is each
replica's execution context, runtime/execution.py, and a switch swaps that one reference),
strictly one at a time in replica order,
handing control back at each sync point, so results never depend on a scheduler and a switch
costs a microsecond rather than an OS thread hand-off. When every replica has reached
the same sync point, the merge runs on the caller's thread (in cross-replica context, as TF's
merge_call does) and each replica resumes with its share. The FLOPs each replica counts
between sync points are kept as phases, so the simulator can charge compute and collectives
in the order they happened.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

import greenlet

from simdist.runtime import context, cost, execution, name_scopes, subnormals
from simdist.runtime.ops import dispatch
from simdist.runtime.cost import tally


@dataclass
class SyncPoint:
    """A collective that every replica reaches: its kind, and a merge of all payloads."""

    kind: str
    merge: Callable[[list[Any]], list[Any]]   # payloads in replica order -> result per replica
    nbytes: float = 0.0                        # bytes per replica moved by the collective (for costs)
    algorithm: str | None = None
    charges: list = field(default_factory=list)  # simulator charges made inside the merge, replayed in order
    free: bool = False                         # reached inside an effect-free trace: no phase ends here

    def run_merge(self, payloads: list[Any]) -> list[Any]:
        from simdist.strategies import timing
        with timing.collect(self.charges):
            return self.merge(payloads)


@dataclass
class Phase:
    """Compute FLOPs per replica, then (unless last) the collective that ended the phase.
    `sections[i]` splits replica i's FLOPs into (forward, backward, update) (runtime.cost)."""

    flops: list[float]
    sync: SyncPoint | None = None
    sections: list[tuple[float, float, float]] | None = None


def _spent(mark: tuple[float, float, float]) -> tuple[float, float, float]:
    """(forward, backward, update) FLOPs since the tally snapshot `mark`."""
    total, back, upd = tally.flops - mark[0], tally.backward - mark[1], tally.update - mark[2]
    return (total - back - upd, back, upd)


def _phase(spent: list[tuple[float, float, float]], sync: SyncPoint | None) -> Phase:
    return Phase([sum(x) for x in spent], sync, spent)


def _add(a: tuple[float, float, float], b: tuple[float, float, float]) -> tuple[float, float, float]:
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2])


@dataclass
class RunRecord:
    results: list[Any]
    phases: list[Phase] = field(default_factory=list)
    # per replica: the most bytes its gradient tapes kept at once (activations for the backward pass)
    held: list[int] = field(default_factory=list)


class _Abort(BaseException):
    """Unwinds a replica whose peers failed or diverged."""


_current = execution._current


def current_runner() -> "ReplicaRunner | None":
    """The runner whose replica is running now (in the current execution context), else None."""
    return _current.ctx.runner


def lifted(strategy: Any, fn: Any) -> Any:
    """The tf.function that runs `strategy.run(fn)` for tf.function `fn` on replicas of their own threads,
    as TF 2.21 runs it: mirrored_run.call_for_each_replica lifts the function around the replicas, a clone
    of `fn` with its decorator's arguments (Function._clone) whose Python runs fn's Python — AutoGraph-
    converted as fn converts it — on each replica; one clone per (strategy, fn), TF's _cfer_fn_cache. So
    the replicas are one trace: one graph's rewrites, op seeds in replica order (clause
    ops.random-in-function), tapes around the call see into it as into any tf.function (clause
    function.trace-under-tape-and-in-run), and fn's Python gets the call's arguments as they are,
    its defaults unbound (clause run.lifted-function). The clone holds its strategy and `fn` weakly,
    so a cached clone keeps neither alive."""
    per = _LIFTED.get(strategy)
    if per is None:
        per = _LIFTED[strategy] = weakref.WeakKeyDictionary()
    clone = per.get(fn)
    if clone is None:
        strategy_ref, fn_ref = weakref.ref(strategy), weakref.ref(fn)

        def call_for_each_replica(*args: Any, **kwargs: Any) -> Any:
            return strategy_ref().run(fn_ref()._traced_python(), args, kwargs)

        call_for_each_replica.__name__ = getattr(fn, "__name__", "call_for_each_replica")
        call_for_each_replica.__qualname__ = getattr(fn, "__qualname__", call_for_each_replica.__name__)
        clone = per[fn] = fn._clone(call_for_each_replica)
    return clone


_LIFTED: "weakref.WeakKeyDictionary[Any, weakref.WeakKeyDictionary]" = weakref.WeakKeyDictionary()


class ReplicaRunner:
    def __init__(self, n: int, body: Callable[[int], Any], frames: Sequence[list[context.Frame]],
                 own_thread: bool = True) -> None:
        self.n = n
        # Whether a replica runs as on its own thread even when it is the only one (TF's
        # MirroredStrategy does, so a gradient tape opened outside `run` does not see its ops).
        self.own_thread = own_thread
        self.body = body
        self.frames = frames
        self._status = ["ready"] * n        # ready | waiting | running | done | error
        self._payload: list[Any] = [None] * n
        self._sync: list[SyncPoint | None] = [None] * n
        self._resume: list[Any] = [None] * n
        self._results: list[Any] = [None] * n
        self._errors: list[BaseException | None] = [None] * n
        self._abort = False
        self._flops: list[tuple[float, float, float]] = [(0.0, 0.0, 0.0)] * n
        self._held = [0] * n
        self._inline = False
        self._parent: Any = None
        self.phases: list[Phase] = []

    # --- called in a replica ----------------------------------------------------------------
    def sync(self, replica_id: int, point: SyncPoint, payload: Any) -> Any:
        if _current.ctx.recorder is not self._outer_recorder:
            # a tf.function called in the replica reached the collective: its replays would not
            # meet the other replicas (nor split the run's phases), so it stays eager
            dispatch.unrecordable(f"it calls {point.kind} inside strategy.run (the replicas meet inside it)")
        free = execution.effect_free(_current.ctx)
        if free and self.n > 1 and any(type(x) is execution.AloneDiscarded for x in _current.ctx.charges):
            raise execution.BranchMeetsReplicas()
        if free:
            # inside an effect-free trace (an untaken tf.cond branch): the replicas meet and merge,
            # but no phase ends, as TF never runs this graph (its FLOPs are restored after it)
            point.free = True
        else:
            cost.flush_open_sections()      # (the phase ending here gets its sections' FLOPs)
        if self._inline:
            if not free:
                self._close_phase_inline(point)
            return point.run_merge([payload])[0]
        if not free:
            self._flops[replica_id] = _add(self._flops[replica_id], _spent(self._mark))
        self._payload[replica_id] = payload
        self._sync[replica_id] = point
        self._status[replica_id] = "waiting"
        self._parent.switch()               # until every replica is here and the merge ran
        if self._abort:
            raise _Abort()
        if not free:
            cost.restart_open_sections()    # (what others counted meanwhile is not this replica's)
            self._mark = tally.snapshot()
        out = self._resume[replica_id]
        self._resume[replica_id] = None
        return out

    def _replica_main(self, i: int) -> None:
        subnormals.install()   # (a greenlet starts with NumPy's default error state: ops.subnormals)
        self._mark = tally.snapshot()
        try:
            if self._abort:
                raise _Abort()
            res = self.body(i)
            self._held[i] = cost.peak_held_since_reset()
            self._flops[i] = _add(self._flops[i], _spent(self._mark))
            self._results[i] = res
            self._status[i] = "done"
        except _Abort:
            self._status[i] = "done"
        except BaseException as e:  # noqa: BLE001 - re-raised by the caller
            self._flops[i] = _add(self._flops[i], _spent(self._mark))
            self._errors[i] = e
            self._status[i] = "error"

    # --- inline path (one replica, no greenlet) ------------------------------------------------
    def _close_phase_inline(self, point: SyncPoint) -> None:
        self.phases.append(_phase([_spent(self._mark)], point))
        self._mark = tally.snapshot()

    def _run_inline(self) -> RunRecord:
        self._inline = True
        # As on a thread of its own: no tapes, sections or kept bytes of the caller's; else on the
        # caller's thread (OneDevice): its tapes and sections see the ops.
        self._outer_recorder = _current.ctx.recorder
        ctx = execution.child(_current.ctx, list(self.frames[0]), self, self.own_thread, name_scopes.replica_entry(0))
        outer = execution.switch(ctx)
        base = ctx.held_bytes
        self._mark = tally.snapshot()
        try:
            res = self.body(0)
            self._held[0] = ctx.held_peak - base
        finally:
            execution.switch(outer)
        self.phases.append(_phase([_spent(self._mark)], None))
        return RunRecord([res], self.phases, self._held)

    # --- called by the caller -----------------------------------------------------------------
    def run(self) -> RunRecord:
        if self.n == 1:
            return self._run_inline()
        self._parent = greenlet.getcurrent()
        parent = _current.ctx
        self._outer_recorder = parent.recorder
        self._ctxs = [execution.child(parent, list(self.frames[i]), self, True, name_scopes.replica_entry(i))
                      for i in range(self.n)]
        self._greenlets = [greenlet.greenlet(self._replica_main) for _ in range(self.n)]
        try:
            self._loop()
        except BaseException:
            # A merge that raised (all_gather of mismatched shapes), divergent replicas, an
            # interrupt: every replica still parked at a sync point or not yet started unwinds
            # now (in its own state), so the error surfaces at once and nothing is left suspended.
            self._abort_all()
            raise
        finally:
            # Each replica's context points back at this runner: dropped here, or the pair is
            # a reference cycle holding the replicas' tensors until Python's cyclic collector
            # runs (whose timing must not decide anything: gc_phase).
            self._ctxs, self._greenlets = [], []
        return RunRecord(self._results, self.phases, self._held)

    def _give_turn(self, i: int, throw: bool = False) -> None:
        """Run replica i until it parks at a sync point or returns, in its own context."""
        ctx = self._ctxs[i]
        outer = execution.switch(ctx)
        rec = ctx.recorder is not None
        if rec:     # (a tf.function records: replica i's ops form its lane, runtime/lanes/)
            dispatch.replica_turn(i, self.n)
        try:
            g = self._greenlets[i]
            if throw:
                g.throw(_Abort())
            elif g:                                 # (started: resume it where it parked)
                g.switch()
            else:
                g.switch(i)
        finally:
            if rec:
                dispatch.replica_turn(None, self.n)
            execution.switch(outer)

    def _loop(self) -> None:
        """Hand turns to the replicas and run each collective's merge until all have returned."""
        while True:
            for i in range(self.n):
                if self._status[i] in ("ready", "waiting"):
                    self._status[i] = "running"
                    self._give_turn(i)
                    if self._errors[i] is not None:
                        # TF's coordinator stops at the first replica that raised: the later ones
                        # do not run that turn (mirrored_run._call_for_each_replica; clause
                        # run.per-replica)
                        raise self._errors[i]
            failed = [e for e in self._errors if e is not None]
            if failed:
                raise failed[0]
            waiting = [i for i, s in enumerate(self._status) if s == "waiting"]
            if not waiting:
                self.phases.append(_phase(self._take_flops(), None))
                return
            if len(waiting) != self.n:
                done = [i for i in range(self.n) if i not in waiting]
                kind = self._sync[waiting[0]].kind  # type: ignore[union-attr]
                raise RuntimeError(
                    f"replicas {done} returned while replicas {waiting} wait in {kind}: every replica "
                    "must make the same collective calls (all_reduce, all_gather, merge_call) in the same order")
            kinds = [self._sync[i].kind for i in range(self.n)]  # type: ignore[union-attr]
            if len(set(kinds)) != 1:
                raise RuntimeError(f"replicas reached different collectives {kinds}: every replica must make "
                                   "the same collective calls in the same order")
            point = self._sync[0]
            assert point is not None
            if not point.free:
                self.phases.append(_phase(self._take_flops(), point))
            with name_scopes.entered(name_scopes.current_of(self._ctxs[0])):   # (merge_call's captured scope)
                outs = point.run_merge(list(self._payload))
            for i in range(self.n):
                self._resume[i] = outs[i]
                self._payload[i] = None

    def _take_flops(self) -> list[tuple[float, float, float]]:
        out = self._flops
        self._flops = [(0.0, 0.0, 0.0)] * self.n
        return out

    def _abort_all(self) -> None:
        """Unwind every replica that has not finished: a parked one raises _Abort where it waits
        (its finally blocks run in its own state); one never started just never runs."""
        self._abort = True
        for i in range(self.n):
            g = self._greenlets[i]
            if g and not g.dead:
                self._status[i] = "running"
                self._give_turn(i, throw=True)
            elif self._status[i] == "ready":
                self._status[i] = "done"
