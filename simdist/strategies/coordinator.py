"""`tf.distribute.experimental.coordinator.ClusterCoordinator` on the simulated cluster.

Each worker is a SimPy process taking closures from one FIFO queue. A closure's Python
function runs (values, with NumPy) when a worker starts it; its variable writes are buffered
in a transaction. Its simulated cost is then charged in order: reads from the ps tasks over the
network, compute on the worker (FLOPs from the tally or a `simdist.sim.flops` annotation; a
straggler's slowdown is the simulator's, as for every kernel), writes back to the ps tasks; the
writes are committed when they arrive. Faults from the session's FaultPlan interrupt this (the
coordinator carries out preemptions and ps failures; stragglers and degraded links are applied by
the simulator for every strategy, see simdist.faults): a preempted closure loses its
uncommitted writes and is put back at the head of the queue (TF's at-least-once rule); a ps
failure surfaces as UnavailableError; an application error cancels the rest (reference §8).

Every scheduled closure ends as completed, failed (with its error) or cancelled, and
`metrics()` counts each, with retries, lost work, downtime and ps traffic.
"""

from __future__ import annotations

import collections
from typing import Any, Callable

import simpy
from simpy.events import PENDING

from simdist import session
from simdist.runtime import context, errors, variables
from simdist.runtime.cost import tally
from simdist.runtime.function_type import function_type
from simdist.runtime.sharded import ShardedVariable
from simdist.runtime.values import PerWorker
from simdist.strategies import timing
from simdist.strategies.closure import Closure
from simdist.strategies.parameter_server import ParameterServerStrategy, worker_host
from simdist.strategies.per_worker import PerWorkerDataset, PerWorkerIterator
from simdist.strategies.ps_fault import _PSFault
from simdist.strategies.remote_value import _CANCELLED_QUEUED, RemoteValue, _map

__all__ = ["ClusterCoordinator", "RemoteValue", "Closure", "PerWorkerDataset", "PerWorkerIterator"]


class _Preempted(Exception):
    pass


class _Traffic:
    """Variables a closure reads (with bytes) while its function runs."""

    def __init__(self) -> None:
        self.reads: dict[int, list[Any]] = {}

    def read(self, var: Any, nbytes: int | None = None) -> None:
        entry = self.reads.get(id(var))
        b = int(var.nbytes if nbytes is None else nbytes)
        if entry is None:
            self.reads[id(var)] = [var, b]
        elif nbytes is None:
            entry[1] = max(entry[1], b)
        else:
            entry[1] += b

    def write(self, var: Any, value: Any) -> None:
        pass


class ClusterCoordinator:
    """Schedules functions on the workers of a ParameterServerStrategy (one per strategy)."""

    def __new__(cls, strategy: Any) -> "ClusterCoordinator":
        existing = getattr(strategy, "_cluster_coordinator")  # AttributeError for other strategies, as TF 2.21
        if existing is not None:
            return existing
        self = super().__new__(cls)
        strategy._cluster_coordinator = self
        self._init(strategy)
        return self

    def __init__(self, strategy: Any) -> None:
        pass

    def _init(self, strategy: ParameterServerStrategy) -> None:
        if not isinstance(strategy, ParameterServerStrategy):
            raise ValueError("Only `tf.distribute.experimental.ParameterServerStrategy` is supported to work with "
                             "`tf.distribute.experimental.coordinator.ClusterCoordinator` currently.")
        self._strategy = strategy
        self._sim = session.simulator()
        self._env: simpy.Environment = self._sim.env
        self._clock = self._sim.clock
        self._num_workers = strategy._num_workers
        self._queue: collections.deque[Closure] = collections.deque()
        self._wakeup = self._env.event()
        self._inflight: dict[int, Closure] = {}           # worker -> closure
        self._procs: list[simpy.Process] = []
        self._down = [False] * self._num_workers
        self._down_since = [0.0] * self._num_workers
        self._error: BaseException | None = None
        self._seq = 0
        self._started = 0
        self._commits = 0                                  # closures completed (committed) so far
        self._closures: list[Closure] = []
        self._iterators: list[PerWorkerIterator] = []
        self._ps_down: dict[int, _PSFault] = {}
        self._t0 = self._sim.now
        self._m = {"retries": 0, "preemptions": 0, "lost_work_s": 0.0, "worker_downtime_s": 0.0,
                   "ps_bytes_read": 0, "ps_bytes_written": 0, "ps_failures": 0}
        self._faults = session.faults()
        self._pending_closure_preempt: dict[int, list[Any]] = {}
        self._running_since: dict[int, float] = {}
        self._preempt_downtime: dict[int, float] = {}
        self._fault_events: list[dict[str, Any]] = []
        self._lost_pending = 0.0
        self._traffic_cache: dict[tuple, tuple] = {}
        self._wdevs: dict[int, tuple[str, str]] = {}
        self._ps_vars: dict[int, tuple[Any, str | None, str, str]] = {}   # see _ps_var
        self._grouped_cache: dict[tuple[int, str], list[tuple[str, int, str]]] = {}
        self._synth_moves: dict[tuple[int, int, str], tuple[Any, int]] = {}   # see _synthetic_moves
        self._traffic_items: dict[tuple, tuple[tuple, list]] = {}   # see _traffic
        self._plans: dict[tuple[int, int], tuple] = {}   # (id(tf.function), worker) -> see _replay_plan
        for w in range(self._num_workers):
            self._procs.append(self._env.process(self._worker_loop(w)))
        self._start_faults()

    # --- public API ------------------------------------------------------------------------------
    @property
    def strategy(self) -> ParameterServerStrategy:
        return self._strategy

    def schedule(self, fn: Any, args: Any = None, kwargs: Any = None) -> RemoteValue:
        """Clause coord.schedule-async: queue fn (a tf.function) and return a RemoteValue at once."""
        if not isinstance(fn, function_type()):
            raise TypeError("`tf.distribute.experimental.coordinator.ClusterCoordinator.schedule` only accepts a "
                            "`tf.function` or a concrete function.")
        args = tuple(args) if args else ()
        kwargs = dict(kwargs) if kwargs else {}
        if (args or kwargs) and any(isinstance(a, RemoteValue) for a in _leaves((args, kwargs))):
            raise ValueError("`tf.distribute.experimental.coordinator.RemoteValue` used as an input to scheduled "
                             "function is not yet supported.")
        if self._error is not None:
            self._raise_pending_error()
        return self._enqueue(Closure(self._next_seq(), fn, args, kwargs, getattr(fn, "__name__", "fn")))

    def schedule_synthetic(self, flops: float, reads: Any = (), writes: Any = (), name: str = "step") -> RemoteValue:
        """Timing-only mode: a closure with no Python function, charging reads of `reads`, `flops`
        of compute and writes of `writes` (variables, ShardedVariables or placeholders, or
        (variable, bytes) pairs for partial reads such as embedding rows). Its traffic to each ps
        task travels as one transfer each way (one batched request per task)."""
        self._raise_pending_error()
        return self._enqueue(Closure(self._next_seq(), None, (), {}, name,
                                     synthetic=(float(flops), self._traffic(reads), self._traffic(writes))))

    def _traffic(self, vs: Any) -> tuple[tuple[Any, int], ...]:
        """The (shard, bytes) list of a synthetic closure, shared between closures with the same
        traffic, so 100,000 queued closures do not hold 100,000 copies of it. Found by the
        items given (variables, (variable, bytes) pairs) before splitting them into shards; the
        entry keeps the items, so the ids it is filed under stay theirs."""
        items = vs if isinstance(vs, (list, tuple)) and not _is_pair(vs) else [vs]
        key = tuple([(id(it[0]), it[1]) if type(it) is tuple and _is_pair(it) else (id(it), None) for it in items])
        hit = self._traffic_items.get(key)
        if hit is not None:
            return hit[0]
        pairs = tuple(_shards(vs))
        shard_key = tuple((id(v), b) for v, b in pairs)
        cached = self._traffic_cache.get(shard_key)
        if cached is None:
            cached = self._traffic_cache[shard_key] = pairs
        if len(self._traffic_items) >= 4096:
            self._traffic_items.clear()
        self._traffic_items[key] = (cached, list(items))
        return cached

    def join(self) -> None:
        """Clause coord.join: block until every scheduled function has finished (or raise the first error)."""
        self._drive_until(None)
        self._raise_pending_error()

    def run_until(self, cond: Callable[[], bool]) -> bool:
        """simdist only: advance the simulation until ``cond()`` holds, every scheduled function
        has finished, or one has failed; returns ``cond()``. Raises nothing (the next `join`,
        `done` or `schedule` does, as TF's coordinator would): for observers that act at points of
        a run, such as a scenario's evaluations every N committed steps."""
        self._drive_until(lambda: cond() or not self._unfinished())
        return bool(cond())

    def done(self) -> bool:
        """Whether everything finished; raises a pending error. Advances the clock by one event."""
        self._raise_pending_error()
        if (self._queue or self._inflight) and self._clock.pending():
            self._env.step()
        self._raise_pending_error()
        return not self._queue and not self._inflight

    def fault_events(self) -> list[dict[str, Any]]:
        """What went wrong, in order: {"kind": "preemption"|"ps_failure", "task", "start", "end"
        (None while still down), "lost_work_s" (preemptions)} — for plots and reports."""
        return [dict(e) for e in self._fault_events]

    def closure_report(self) -> list[tuple[int, str, int, str, BaseException | None]]:
        """Every scheduled closure, in schedule order, as (seq, state, attempts, its RemoteValue's
        status, the error fetch() would raise or None): what an audit of the accounting reads
        (simdist explore checks that each ended with a documented outcome)."""
        out = []
        for c in self._closures:
            rv = c.remote
            out.append((c.seq, c.state, c.attempts, rv._status if rv is not None else "MISSING",
                        rv._error if rv is not None else None))
        return out

    def closure_timeline(self) -> list[dict[str, Any]]:
        """Every scheduled closure in schedule order, with its last attempt: ``seq``, ``state``,
        ``worker`` (-1: never started), ``start`` (its function ran and read the variables then),
        ``end`` (completed, failed or cancelled; -1 while unfinished), ``commits_before`` (closures
        committed when it started) and ``commit`` (its place in the commit order, 1-based; 0 if it
        did not complete). Its staleness is ``commit - 1 - commits_before``: the updates of other
        closures committed between its reads and its own commit."""
        return [{"seq": c.seq, "state": c.state, "worker": c.worker, "start": c.started_at, "end": c.ended_at,
                 "commits_before": c.commits_before, "commit": c.commit} for c in self._closures]

    def commit_count(self) -> int:
        """Closures completed so far (each committed its writes once), at no cost."""
        return self._commits

    def fetch(self, val: Any) -> Any:
        return _map(val, lambda v: v.fetch() if isinstance(v, RemoteValue) else v)

    def create_per_worker_dataset(self, dataset_fn: Any) -> "PerWorkerDataset":
        """Clause coord.per-worker-dataset: one dataset per worker; `iter()` gives per-worker iterators."""
        return PerWorkerDataset(self, dataset_fn)

    def metrics(self) -> dict[str, Any]:
        """Accounting of the run so far (JSON-ready, sorted keys)."""
        counts = collections.Counter(c.state for c in self._closures)
        now = self._sim.now
        downtime = self._m["worker_downtime_s"] + sum(now - self._down_since[w] for w in range(self._num_workers)
                                                       if self._down[w])
        elapsed = now - self._t0
        out = {
            "closures": {"scheduled": len(self._closures), "completed": counts["completed"],
                         "failed": counts["failed"], "cancelled": counts["cancelled"],
                         "pending": counts["queued"] + counts["running"]},
            "closures_per_s": counts["completed"] / elapsed if elapsed > 0 else 0.0,
            "lost_work_s": self._m["lost_work_s"],
            "preemptions": self._m["preemptions"],
            "ps_bytes": self._m["ps_bytes_read"] + self._m["ps_bytes_written"],
            "ps_bytes_read": self._m["ps_bytes_read"],
            "ps_bytes_written": self._m["ps_bytes_written"],
            "ps_failures": self._m["ps_failures"],
            "retries": self._m["retries"],
            "simulated_time_s": now,
            "worker_downtime_s": downtime,
        }
        return out

    # --- queue ---------------------------------------------------------------------------------------
    def _next_seq(self) -> int:
        self._seq += 1
        return self._seq

    def _enqueue(self, closure: Closure) -> RemoteValue:
        closure.remote = RemoteValue(self, closure)
        self._closures.append(closure)
        self._queue.append(closure)
        self._notify()
        return closure.remote

    def _notify(self) -> None:
        if self._wakeup._value is PENDING:   # (not `triggered`, a property: once per closure)
            self._wakeup.succeed()

    def _wait_signal(self) -> simpy.Event:
        if self._wakeup.triggered:
            self._wakeup = self._env.event()
        return self._wakeup

    # --- driving the clock ---------------------------------------------------------------------------
    def _drive_until(self, cond: Callable[[], bool] | None) -> None:
        """Process events until ``cond()``; None: until every scheduled function has finished or
        one has failed (join)."""
        self._clock.run_while(self._unfinished if cond is None else (lambda: not cond()), self._stalled)

    def _unfinished(self) -> bool:
        return self._error is None and bool(self._queue or self._inflight)

    def _stalled(self) -> RuntimeError:
        return RuntimeError(f"simdist coordinator: nothing left to simulate at t={self._sim.now:.6g}s but "
                            f"{len(self._queue)} queued and {len(self._inflight)} running functions are "
                            "unfinished (every worker down for good?)")

    # --- errors (reference §8) -------------------------------------------------------------------
    def _record_error(self, err: BaseException) -> None:
        if self._error is None:
            self._error = err

    def _raise_pending_error(self) -> None:
        err = self._error
        if err is None:
            return
        for w in sorted(self._inflight):
            self._procs[w].interrupt(("cancel", err))
        self._drive_until(lambda: not self._inflight)
        while self._queue:
            c = self._queue.popleft()
            c.state = "cancelled"
            c.ended_at = self._env.now
            assert c.remote is not None
            c.remote._fail(errors.CancelledError(None, None, _CANCELLED_QUEUED))
        self._error = None
        self._notify()
        raise err

    # --- workers -----------------------------------------------------------------------------------
    def _worker_loop(self, w: int) -> Any:
        env = self._env
        while True:
            try:
                while self._down[w] or not self._queue or self._error is not None:
                    yield self._wait_signal()
                closure = self._queue.popleft()
                closure.state = "running"
                closure.attempts += 1
                self._inflight[w] = closure
                self._started += 1
                self._running_since[w] = env._now
                closure.worker, closure.started_at, closure.commits_before = w, env._now, self._commits
                try:
                    yield from self._execute(w, closure)
                except _Preempted:
                    self._inflight.pop(w, None)
                    self._requeue(closure, self._running_since[w])
                    yield from self._go_down(w, self._preempt_downtime.pop(w))
                self._inflight.pop(w, None)
                self._notify()
            except simpy.Interrupt as intr:
                kind, payload = intr.cause
                running = self._inflight.pop(w, None)
                if kind == "cancel":
                    if running is not None:
                        running.state = "cancelled"
                        running.ended_at = env.now
                        assert running.remote is not None
                        running.remote._fail(errors.CancelledError(
                            None, None, f"The function {running.name} was cancelled while running on "
                            f"{worker_host(w)} because another function failed: {type(payload).__name__}"))
                    self._notify()
                elif kind == "preempt":
                    if running is not None:
                        self._sim.preempt_device(self._worker_device(w))
                        self._requeue(running, self._running_since[w])
                    yield from self._go_down(w, payload)
                elif kind == "ps_failure":
                    if running is not None:
                        self._fail(running, payload)
                    self._notify()

    def _grouped(self, pairs: Any, verb: str) -> list[tuple[str, int, str]]:
        """A synthetic closure's traffic as (ps device, bytes, trace name) per device; cached per
        traffic tuple (those are shared and kept by `_traffic`, so their ids stay valid)."""
        key = (id(pairs), verb)
        out = self._grouped_cache.get(key)
        if out is None:
            out = self._grouped_cache[key] = [(d, b, f"{verb} {n} vars") for d, b, n in _per_device(pairs)]
        return out

    def _synthetic_moves(self, w: int, wcpu: str, pairs: Any, verb: str) -> tuple[Any, int]:
        """A synthetic closure's transfers on worker w (one per ps task: `_grouped`), routed once
        (`Simulator.prepare`), and their bytes; cached per worker and traffic tuple."""
        key = (w, id(pairs), verb)
        out = self._synth_moves.get(key)
        if out is None:
            grouped = self._grouped(pairs, verb)
            moves = [(dev, wcpu, b, name) for dev, b, name in grouped] if verb == "read" else \
                [(wcpu, dev, b, name) for dev, b, name in grouped]
            nbytes = 0
            for _, b in pairs:
                nbytes += b
            out = self._synth_moves[key] = (self._sim.prepare(moves), nbytes)
        return out

    def _ps_var(self, v: Any) -> tuple[Any, str | None, str, str]:
        """(v, its ps device or None when it is not on a ps task, "read <name>", "write <name>"),
        remembered per variable: closures touch the same few variables every time. The entry
        holds the variable, so the id it is filed under stays that variable's."""
        if len(self._ps_vars) >= 65_536:
            self._ps_vars.clear()
        e = self._ps_vars[id(v)] = ((v, v.device, "read " + v.name, "write " + v.name) if _on_ps(v)
                                    else (v, None, "", ""))
        return e

    def _worker_device(self, w: int) -> str:
        return self._worker_devices(w)[0]

    def _worker_devices(self, w: int) -> tuple[str, str]:
        """(the device worker w computes on, its CPU:0), canonical names."""
        out = self._wdevs.get(w)
        if out is None:
            out = self._wdevs[w] = (session.canonical(worker_host(w) + self._strategy._worker_devices[0]),
                                    session.canonical(worker_host(w) + "/device:CPU:0"))
        return out

    def _requeue(self, closure: Closure, t_start: float) -> None:
        closure.state = "queued"
        self._queue.appendleft(closure)
        self._m["retries"] += 1
        lost = self._env.now - t_start
        self._m["lost_work_s"] += lost
        self._lost_pending = lost
        self._notify()

    def _go_down(self, w: int, downtime: float) -> Any:
        if self._down[w]:
            return
        self._down[w] = True
        self._down_since[w] = self._env.now
        self._m["preemptions"] += 1
        event = {"kind": "preemption", "task": f"/job:worker/replica:0/task:{w}", "start": self._env.now,
                 "end": None, "lost_work_s": self._lost_pending}
        self._lost_pending = 0.0
        self._fault_events.append(event)
        for it in self._iterators:
            it._abort(w)
        yield self._env.timeout(downtime)   # nothing interrupts a down worker (see _preempt, cancel)
        self._m["worker_downtime_s"] += self._env.now - self._down_since[w]
        self._down[w] = False
        event["end"] = self._env.now
        self._trace_span(worker_host(w) + "/device:CPU:0", "preempted (worker down)", "downtime",
                         event["start"], event["end"])
        for it in self._iterators:
            it._rebuild(w)
        self._notify()

    def _fail(self, closure: Closure, err: BaseException) -> None:
        closure.state = "failed"
        closure.ended_at = self._env.now
        assert closure.remote is not None
        closure.remote._fail(err)
        closure.release()
        self._record_error(err)
        self._notify()

    def _execute(self, w: int, closure: Closure) -> Any:
        """Run one closure on worker w: Python values now, then its simulated cost, then commit."""
        sim = self._sim
        wdev, wcpu = self._wdevs.get(w) or self._worker_devices(w)
        charges: list[Any] = []
        rbytes = wbytes = -1   # a recorded function's read and write bytes (from its plan)
        if closure.synthetic is not None:
            flops, read_list, write_list = closure.synthetic
            txn = None
            result, error = None, None
        elif closure.fn._replay is not None and not closure.args and not closure.kwargs:
            # A recorded function: its replay, and the plan of its traffic (see _replay_plan).
            fn = closure.fn
            plan = self._plans.get((id(fn), w))
            if plan is None or plan[0] is not fn._graph:
                plan = self._replay_plan(fn, w, wcpu)
            txn = variables.Transaction()
            variables._txn.append(txn)
            result = error = None
            try:
                result = fn._replay(wcpu)    # (its results are made on the worker: no device scope needed)
            except Exception as e:  # noqa: BLE001 - an application error of the scheduled function
                error = e
            finally:
                variables._txn.remove(txn)
            # (what a strategy.run inside it charged when it recorded, charged again on this worker)
            gch = fn._graph.charges
            if gch:
                charges = [c.for_worker(w) if hasattr(c, "for_worker") else c for c in gch]
            if error is None:
                _, flops, read_list, write_list, read_moves, write_moves, rbytes, wbytes = plan
            else:   # again, with the traffic observed up to the error (a replay is deterministic)
                result, error, txn, flops, read_list, write_list, read_moves, write_moves = \
                    self._run_function(w, closure, wcpu, charges)
        else:
            result, error, txn, flops, read_list, write_list, read_moves, write_moves = \
                self._run_function(w, closure, wcpu, charges)
        if self._ps_down and error is None:
            for v, _ in read_list + write_list:
                f = getattr(v, "_fault", None)
                if f is not None and f.down:
                    error = errors.UnavailableError(
                        None, None, f"/job:ps/replica:0/task:{f.task} is unavailable while running {closure.name} "
                        f"on {worker_host(w)}: the parameter server failed at t={f.at:.6g}s")
                    break
        # 1. reads from the ps tasks
        nbytes = 0
        if closure.synthetic is not None:   # timing-only: one transfer per ps task each way
            moves, nbytes = self._synthetic_moves(w, wcpu, read_list, "read")
        elif rbytes >= 0:
            moves, nbytes = read_moves, rbytes
        else:
            moves = read_moves
            for _, b in read_list:
                nbytes += b
        self._m["ps_bytes_read"] += nbytes
        if moves:
            yield sim.transfers(moves)
        # 2. compute (with any strategy.run inside, replayed in order)
        for make in charges:
            yield timing.replay(sim, make)
        preempt_mid = self._closure_preemption(w) if self._pending_closure_preempt else None
        if preempt_mid is not None:
            half = flops / 2.0
            yield sim.compute(wdev, half, closure.name, category="compute")
            self._preempt_downtime[w] = preempt_mid
            raise _Preempted()
        if error is not None:
            yield sim.compute(wdev, flops, closure.name, category="compute")
            self._fail(closure, error)
            return
        # 3. writes back to the ps tasks, started when the compute ends, committed when they arrive
        nbytes = 0
        if closure.synthetic is not None:
            moves, nbytes = self._synthetic_moves(w, wcpu, write_list, "write")
        elif wbytes >= 0:
            moves, nbytes = write_moves, wbytes
        else:
            moves = write_moves
            for _, b in write_list:
                nbytes += b
        if moves:
            attempt = closure.attempts
            yield sim.compute_then_transfers(
                wdev, flops, closure.name, moves,
                lambda: self._writes_start(w, closure, attempt, nbytes))
        else:
            yield sim.compute(wdev, flops, closure.name, category="compute")
            self._m["ps_bytes_written"] += nbytes
        if txn is not None:
            try:
                txn.commit()
            except errors.OpError as e:
                self._fail(closure, e)
                return
        closure.state = "completed"
        self._commits += 1
        closure.commit, closure.ended_at = self._commits, self._env._now
        assert closure.remote is not None
        closure.remote._set(result)
        closure.release()

    def _writes_start(self, w: int, closure: Closure, attempt: int, nbytes: int) -> bool:
        """At the end of a closure's compute: whether its writes go out (not if it was preempted,
        cancelled or failed meanwhile: it is then no longer this attempt running on w)."""
        if self._inflight.get(w) is not closure or closure.attempts != attempt:
            return False
        self._m["ps_bytes_written"] += nbytes
        return True

    def _run_function(self, w: int, closure: Closure, wcpu: str, charges: list[Any]) -> tuple:
        """Call a closure's function on worker w, observing its variable traffic: (result, error,
        transaction, FLOPs, ps reads and writes as (variable, bytes), and their transfers)."""
        traffic = _Traffic()
        ext = self._strategy._extended
        ext._current_worker = w
        args = _select_worker(w, closure.args) if closure.args else ()
        kwargs = _select_worker(w, closure.kwargs) if closure.kwargs else {}
        fn = closure.fn
        result = error = None
        t_before = tally.flops
        timing.run_flops_accum[0] = 0.0
        variables.observers.append(traffic)
        frame = context.Frame(self._strategy, None, wcpu)   # ops in the function run on the worker
        context.push(frame)
        txn = variables.Transaction()
        variables._txn.append(txn)          # (variables.transaction() and timing.collect(),
        timing._collect.append(charges)     # inlined: this runs once per closure)
        recorded = fn._graph
        try:
            result = fn._scheduled(args, kwargs)
        except Exception as e:  # noqa: BLE001 - an application error of the scheduled function
            error = e
        finally:
            timing._collect.pop()
            variables._txn.remove(txn)
            context.pop(frame)
            variables.observers.remove(traffic)
            ext._current_worker = None
        if recorded is None and fn._replay is not None:   # it recorded now: replays charge what this call did
            fn._graph.charges = list(charges)
            fn._graph.run_flops = timing.run_flops_accum[0]
        flops = _annotated_flops(fn, max(0.0, tally.flops - t_before - timing.run_flops_accum[0]))
        return (result, error, txn, flops) + self._ps_traffic(traffic.reads.values(), txn.written_bytes(), wcpu)

    def _ps_traffic(self, reads: Any, writes: Any, wcpu: str) -> tuple:
        """A closure's ps traffic from worker CPU wcpu: (variable, bytes) of its reads and of its
        writes (both given as (variable, bytes) pairs: a sparse write sends only its rows), and
        their transfers (src, dst, bytes, name)."""
        read_list, write_list, read_moves, write_moves = [], [], [], []
        pv = self._ps_vars
        for v, b in reads:
            e = pv.get(id(v)) or self._ps_var(v)
            if e[1] is not None:
                read_list.append((v, b))
                if b:
                    read_moves.append((e[1], wcpu, b, e[2]))
        for v, b in writes:
            e = pv.get(id(v)) or self._ps_var(v)
            if e[1] is not None:
                write_list.append((v, b))
                if b:
                    write_moves.append((wcpu, e[1], b, e[3]))
        return read_list, write_list, read_moves, write_moves

    def _replay_plan(self, fn: Any, w: int, wcpu: str) -> tuple:
        """What `_run_function` would observe of a recorded function on worker w, fixed by its
        graph: its FLOPs, and each variable it reads or writes, in order of first use, whole."""
        g = fn._graph
        read_list, write_list, read_moves, write_moves = self._ps_traffic(
            [(v, int(v.nbytes)) for v in g.reads], g.write_bytes, wcpu)
        flops = _annotated_flops(fn, max(0.0, g.flops - g.run_flops))
        rbytes = wbytes = 0
        for _, b in read_list:   # (summed in the order _execute summed them per closure)
            rbytes += b
        for _, b in write_list:
            wbytes += b
        plan = self._plans[(id(fn), w)] = (g, flops, read_list, write_list, self._sim.prepare(read_moves),
                                           self._sim.prepare(write_moves), rbytes, wbytes)
        return plan

    # --- faults ---------------------------------------------------------------------------------------
    def _closure_preemption(self, w: int) -> float | None:
        pending = self._pending_closure_preempt.get(w)
        if pending and pending[0][0] <= self._started:
            _, downtime = pending.pop(0)
            return downtime
        return None

    def _start_faults(self) -> None:
        plan = self._faults
        if plan is None:
            return
        for p in plan.preemptions:
            if p.at_time is not None:
                self._env.process(self._preempt_at(p.worker, p.at_time, p.downtime))
            else:
                self._pending_closure_preempt.setdefault(p.worker, []).append((p.at_closure, p.downtime))
        for lst in self._pending_closure_preempt.values():
            lst.sort()
        if plan.process is not None:
            workers = plan.process.workers if plan.process.workers is not None else range(self._num_workers)
            for w in workers:
                self._env.process(self._preempt_process(w, plan.process))
        for f in plan.ps_failures:
            self._env.process(self._ps_failure(f))

    def _preempt(self, w: int, downtime: float) -> None:
        if self._down[w]:
            return
        self._procs[w].interrupt(("preempt", downtime))

    def _preempt_at(self, w: int, at: float, downtime: float) -> Any:
        yield self._env.timeout(max(0.0, at - self._env.now))
        self._preempt(w, downtime)

    def _preempt_process(self, w: int, proc: Any) -> Any:
        rng = self._sim.rng(f"faults/worker{w}")
        yield self._env.timeout(max(0.0, proc.start - self._env.now))
        while True:
            up = float(rng.exponential(proc.mtbf))
            down = float(rng.exponential(proc.downtime)) if proc.random_downtime else float(proc.downtime)
            yield self._env.timeout(up)
            self._preempt(w, down)
            yield self._env.timeout(down)

    def _ps_failure(self, f: Any) -> Any:
        yield self._env.timeout(max(0.0, f.at_time - self._env.now))
        current = self._ps_down.get(f.ps)
        if current is not None and current.down:
            # A ps that is already down cannot fail again: the failure is ignored (not counted, no
            # new event, its restart stays when the first failure set it). Clause
            # coord.ps-failure-while-down; TF's process is simply dead.
            return
        fault = _PSFault(f.ps, self._env.now)
        self._ps_down[f.ps] = fault
        self._m["ps_failures"] += 1
        event = {"kind": "ps_failure", "task": f"/job:ps/replica:0/task:{f.ps}", "start": self._env.now, "end": None}
        self._fault_events.append(event)
        dev = f"/job:ps/replica:0/task:{f.ps}/device:CPU:0"
        for v in _all_variables(self._strategy):
            if v.device == dev:
                v._fault = fault
        err = errors.UnavailableError(None, None, f"/job:ps/replica:0/task:{f.ps} failed at t={self._env.now:.6g}s: "
                                      "parameter server unavailable (TF 2.21 does not recover from ps failures; "
                                      "restore a checkpoint to continue)")
        self._record_error(err)
        for w in sorted(self._inflight):
            self._procs[w].interrupt(("ps_failure", err))
        if f.downtime is not None:
            yield self._env.timeout(f.downtime)
            fault.down = False
            event["end"] = self._env.now
            self._trace_span(f"/job:ps/replica:0/task:{f.ps}/device:CPU:0", "ps failed (down)", "downtime",
                             event["start"], event["end"])

    def _trace_span(self, device: str, name: str, category: str, start: float, end: float) -> None:
        """A span on a device's trace track (preemption downtime, ps outage)."""
        self._sim.trace_span(device, name, category, start, end)

def _per_device(pairs: list[tuple[Any, int]]) -> list[tuple[str, int, int]]:
    """(device, total bytes, variables) per device, in first-seen order."""
    out: dict[str, list[int]] = {}
    for v, b in pairs:
        if b:
            e = out.setdefault(v.device, [0, 0])
            e[0] += b
            e[1] += 1
    return [(d, b, n) for d, (b, n) in out.items()]


def _on_ps(v: Any) -> bool:
    return isinstance(getattr(v, "device", None), str) and v.device.startswith("/job:ps/")


def _shards(vs: Any) -> list[tuple[Any, int]]:
    """(variable, bytes) for each shard of the given variables; an item may itself be a
    (variable, bytes) pair, e.g. the rows a sparse embedding lookup touches."""
    out: list[tuple[Any, int]] = []
    items = vs if isinstance(vs, (list, tuple)) and not _is_pair(vs) else [vs]
    for item in items:
        if _is_pair(item):
            v, nbytes = item
            if isinstance(v, ShardedVariable):
                total = max(1, v.nbytes)
                out.extend((p, int(nbytes * p.nbytes / total)) for p in v.variables)
            else:
                out.append((v, int(nbytes)))
        elif isinstance(item, ShardedVariable):
            out.extend((p, int(p.nbytes)) for p in item.variables)
        else:
            out.append((item, int(item.nbytes)))
    return out


def _is_pair(x: Any) -> bool:
    return isinstance(x, tuple) and len(x) == 2 and isinstance(x[1], (int, float)) and not isinstance(x[1], bool)


def _leaves(x: Any) -> list[Any]:
    out: list[Any] = []
    _map(x, out.append)
    return out


def _annotated_flops(fn: Any, counted: float) -> float:
    """A function's FLOPs: its `simdist.sim.flops` annotation if it has one, else those counted."""
    ann = getattr(fn, "__simdist_flops__", None)
    if ann is None:
        ann = getattr(fn.python_function, "__simdist_flops__", None)
    return counted if ann is None else float(ann)


def _select_worker(w: int, x: Any) -> Any:
    return _map(x, lambda v: v._get_worker(w) if isinstance(v, PerWorkerIterator) else
                (v.values[w] if isinstance(v, PerWorker) else v))


def _all_variables(strategy: Any) -> list[Any]:
    """Variables created by `strategy` so far (for ps failures), in creation order."""
    return [v for v in strategy._extended._created if v is not None]
