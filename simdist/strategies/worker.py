"""Closures on the workers of a ParameterServerStrategy: what running one does and costs (TF's
`Worker._process_closure` and `Closure.execute_on`, on the simulated cluster).

A closure's Python function runs (values, with NumPy) when a worker starts it, its variable
writes buffered in a transaction (a recorded tf.function replays its graph instead, with the
traffic its graph fixes). Its simulated cost is then charged in order: reads from the ps tasks
over the network, compute on the worker (FLOPs from the tally or a `simdist.sim.flops` annotation;
a straggler's slowdown is the simulator's, as for every kernel), writes back to the ps tasks; the
writes are committed when they arrive. Its early writes (values from reads and constants only:
runtime/graph/dataflow.py, clause optim.pss-updates) are sent when the reads they depend on are
back, each committed when it arrives. A function that read a ps variable after its own write of it
is evaluated again when its writes have arrived, where another closure wrote one of its variables
meanwhile: TF's ps runs such a read right after the write (`_reread`, variables.Reread; a recorded
function's replay, an eager call's recorded nodes: runtime/graph/reevaluate.py).
`Workers.execute(w, closure)` is that, as the generator the
simulator's worker service (`simdist.sim.workers`) runs on worker w; a preemption planned at a
closure count raises `Preempted` part-way.
"""

from __future__ import annotations

from typing import Any

from simdist import session
from simdist.runtime import context, errors, execution, graph, variables
from simdist.runtime.cost import tally
from simdist.runtime.graph import dataflow, reevaluate
from simdist.runtime.sharded import ShardedVariable
from simdist.runtime.tensor import Tensor
from simdist.sim.workers import Preempted
from simdist.strategies import timing
from simdist.strategies.closure import Closure
from simdist.strategies.parameter_server import worker_host
from simdist.strategies.per_worker import PerWorkerValues
from simdist.strategies.remote_value import _map

__all__ = ["Workers"]


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


class Workers:
    """Runs closures on the workers of ``strategy`` on simulator ``sim``: ``queue`` (a
    `closure_queue.ClosureQueue`) is told of commits and failures, ``faults`` (a
    `simdist.sim.preemption.WorkerPreemptionHandler`) says which ps tasks failed and which
    closure a planned preemption cuts. Counts the bytes read from and written to the ps tasks."""

    def __init__(self, strategy: Any, sim: Any, queue: Any, faults: Any) -> None:
        self._strategy = strategy
        self._sim = sim
        self._clock = sim.clock
        self._queue = queue
        self._faults = faults
        self.ps_bytes_read = 0
        self.ps_bytes_written = 0
        self._traffic_cache: dict[tuple, tuple] = {}
        self._wdevs: dict[int, tuple[str, str]] = {}
        self._ps_vars: dict[int, tuple[Any, str | None, str, str]] = {}   # see _ps_var
        self._grouped_cache: dict[tuple[int, str], list[tuple[str, int, str]]] = {}
        self._synth_moves: dict[tuple[int, int, str], tuple[Any, int]] = {}   # see _synthetic_moves
        self._traffic_items: dict[tuple, tuple[tuple, list]] = {}   # see traffic
        self._plans: dict[tuple[int, int], tuple] = {}   # (id(tf.function), worker) -> see _replay_plan
        self._seen: Any = None   # the last eager call's (early writes, written variables, reads its own writes):
        # see _run_function; and its watched recording ("eager", recorder, result) if it reads its own writes
        self._again: Any = None
        self._flows: dict[tuple, tuple] = {}   # (id(fn), argument signature) -> (fn, its dataflow's `seen`)
        self._eager_plans: dict[tuple, tuple] = {}   # see _eager_early

    def traffic(self, vs: Any) -> tuple[tuple[Any, int], ...]:
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

    def _grouped(self, pairs: Any, verb: str) -> list[tuple[str, int, str]]:
        """A synthetic closure's traffic as (ps device, bytes, trace name) per device; cached per
        traffic tuple (those are shared and kept by `traffic`, so their ids stay valid)."""
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

    def worker_device(self, w: int) -> str:
        return self._worker_devices(w)[0]

    def _worker_devices(self, w: int) -> tuple[str, str]:
        """(the device worker w computes on, its CPU:0), canonical names."""
        out = self._wdevs.get(w)
        if out is None:
            out = self._wdevs[w] = (session.canonical(worker_host(w) + self._strategy._worker_devices[0]),
                                    session.canonical(worker_host(w) + "/device:CPU:0"))
        return out

    def execute(self, w: int, closure: Closure) -> Any:
        """Run one closure on worker w: Python values now, then its simulated cost, then commit."""
        sim = self._sim
        wdev, wcpu = self._wdevs.get(w) or self._worker_devices(w)
        charges: list[Any] = []
        rbytes = wbytes = -1   # a recorded function's read and write bytes (from its plan)
        early: _Early | None = None   # its writes that do not wait for its compute (see _Early)
        drawn: list | None = None     # a replay's draws, kept for its evaluation again (see _reread)
        replayed = False
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
            txns = variables.transactions()
            txns.append(txn)
            result = error = None
            g = fn._graph
            replayed = True
            if g.rereads and g.draws is not None:   # (the draws an evaluation again would take: reevaluate.STASH)
                drawn = reevaluate.STASH[1] = []
            try:
                result = fn._replay(wcpu)    # (its results are made on the worker: no device scope needed)
            except Exception as e:  # noqa: BLE001 - an application error of the scheduled function
                error = e
            finally:
                txns.remove(txn)
                reevaluate.STASH[1] = None
            # (what a strategy.run inside it charged when it recorded, charged again on this worker)
            gch = fn._graph.charges
            if gch:
                charges = [c.for_worker(w) if hasattr(c, "for_worker") else c for c in gch]
            if error is None:
                _, flops, read_list, write_list, read_moves, write_moves, rbytes, wbytes, early = plan
            else:   # again, with the traffic observed up to the error (a replay is deterministic)
                result, error, txn, flops, read_list, write_list, read_moves, write_moves = \
                    self._run_function(w, closure, wcpu, charges)
        else:
            recorded = closure.fn._replay is not None
            result, error, txn, flops, read_list, write_list, read_moves, write_moves = \
                self._run_function(w, closure, wcpu, charges)
            fn = closure.fn
            if not recorded and error is None and fn._replay is not None and not closure.args and not closure.kwargs:
                # it recorded now: the traffic its graph fixes, and its early writes (as a replay's)
                plan = self._replay_plan(fn, w, wcpu)
                if plan[8] is not None and len(txn.ops) == len(fn._graph.early):
                    _, _, read_list, write_list, read_moves, write_moves, rbytes, wbytes, early = plan
            elif error is None and self._seen is not None and self._seen[0] is not None:
                early = self._eager_early(self._seen, txn, read_list, w, wcpu)
                if early is not None:
                    write_moves, wbytes = early.late_moves, early.late_bytes
        if self._faults.ps_down and error is None:
            for v, _ in read_list + write_list:
                f = getattr(v, "_fault", None)
                if f is not None and f.down:
                    error = errors.UnavailableError(
                        None, None, f"/job:ps/replica:0/task:{f.task} is unavailable while running {closure.name} "
                        f"on {worker_host(w)}: the parameter server failed at t={f.at:.6g}s")
                    break
        # a function reading a ps variable after its own write of it: evaluated again at its end, where
        # the ps ran those reads (variables.Reread), from its recorded graph (its replay's, or the graph
        # this eager call was watched under: _run_function); the values its start read, kept for that
        reread = None
        watched, self._again = self._again, None   # (its recorder is kept by this closure alone)
        if error is None and txn is not None and txn.read_own and closure.synthetic is None:
            if closure.fn._replay is not None and not closure.args and not closure.kwargs:
                g = closure.fn._graph     # (its replay, taking the draws of this call: its run's, or the recording's)
                draws = drawn if replayed else g.draws
                again = ("replay", g.run, draws) if g.rereads and (g.draws is None or (
                    g.fused is None and draws is not None)) else None
            else:
                again = watched
            if again is not None and any(_on_ps(v) for v in txn.written()):
                reread = (_start_values(read_list), [(id(v), k) for v, k, _ in txn.ops],
                          [(v, v._version) for v in txn.written()], again)
        # 1. reads from the ps tasks
        nbytes = 0
        sent: _Sent | None = None
        if closure.synthetic is not None:   # timing-only: one transfer per ps task each way
            moves, nbytes = self._synthetic_moves(w, wcpu, read_list, "read")
        elif rbytes >= 0:
            moves, nbytes = read_moves, rbytes
        else:
            moves = read_moves
            for _, b in read_list:
                nbytes += b
        self.ps_bytes_read += nbytes
        if early is not None and error is None and txn is not None:
            # the reads the early writes need, then those writes, each committed when it arrives
            # (TF's executor runs that chain as soon as its reads are back); the other reads at once
            sent = _Sent(txn.split(early.ops), closure.attempts, {} if reread is not None else None)
            if early.dep_moves:
                ev = sim.transfers(early.dep_moves)
                ev.callbacks.append(lambda _: self._send_early(w, closure, early, sent))
            else:   # (constants only: sent at once)
                ev = None
                self._send_early(w, closure, early, sent)
            if early.rest_moves:
                yield sim.transfers(early.rest_moves)
            if ev is not None and not ev.processed:   # (no Condition event: one wake-up each at most)
                yield ev
        elif moves:
            yield sim.transfers(moves)
        # 2. compute (with any strategy.run inside, replayed in order)
        for make in charges:
            yield timing.replay(sim, make)
        preempt_mid = self._faults.due(w, self._queue.started) if self._faults.at_unit else None
        if preempt_mid is not None:
            half = flops / 2.0
            yield sim.compute(wdev, half, closure.name, category="compute")
            raise Preempted(preempt_mid)
        if error is not None:
            yield sim.compute(wdev, flops, closure.name, category="compute")
            self._queue.fail(closure, error)
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
            self.ps_bytes_written += nbytes
        if sent is not None:
            if sent.events:
                live = [ev for ev in sent.events if not ev.processed]
                if live:   # (an early write still on its way: the closure ends when it arrives)
                    yield sim.all_of(live)
            if sent.error is not None:
                self._queue.fail(closure, sent.error)
                return
        if txn is not None:
            try:
                if reread is not None and _written_by_others(reread[2], sent):
                    result = self._reread(closure, wcpu, reread, sent, early, txn, result)
                else:
                    txn.commit()
            except errors.OpError as e:
                self._queue.fail(closure, e)
                return
        closure.state = "completed"
        queue = self._queue
        queue.commits += 1
        closure.commit, closure.ended_at = queue.commits, self._clock.now
        assert closure.remote is not None
        closure.remote._set(result)
        closure.release()

    def _send_early(self, w: int, closure: Closure, early: "_Early", sent: "_Sent") -> None:
        """The early writes' reads are back: send each early-written variable's writes (if this
        attempt still runs on w), committed in op order when its transfer arrives."""
        if self._queue.inflight.get(w) is not closure or closure.attempts != sent.attempt:
            return
        self.ps_bytes_written += early.nbytes
        for moves, positions in early.sends:
            ops = [sent.ops[p] for p in positions]
            ev = self._sim.transfers(moves)
            ev.callbacks.append(lambda _, ops=ops: self._commit_early(ops, sent))
            sent.events.append(ev)

    @staticmethod
    def _commit_early(ops: list[tuple[Any, str, Any]], sent: "_Sent") -> None:
        """An early write arrived at its ps: applied there now (a failed ps: the closure fails)."""
        try:
            variables.apply(ops)
        except errors.OpError as e:
            if sent.error is None:
                sent.error = e
            return
        if sent.after is not None:   # (what a read ordered after these writes sees: Reread; held, not copied,
            for var, _, _ in ops:    # as _start_values says)
                sent.after[id(var)] = var._current()

    @staticmethod
    def _reread(closure: Closure, wcpu: str, reread: tuple, sent: "_Sent | None", early: "_Early | None",
                txn: Any, first: Any) -> Any:
        """Commit a closure whose function read a ps variable after writing it, as TF's ps runs such a
        read (after the write, seeing the writes that reached the ps before it; variables.Reread): its
        graph evaluated again (its replay's, or an eager call's watched graph: not its Python, whose effects
        run once), reads of variables it had not written pinned to their start values, and its writes that
        commit now (not those applied early) from that evaluation. Returns its result. A replay whose writes
        are not the first run's (a data-dependent branch), or an eager call without such a graph, commits
        the first run's."""
        pinned, kinds, _, again = reread
        if again[0] == "eager" and again[1].reason is not None:   # (this eager call's recording was abandoned)
            txn.commit()
            return first
        taken = frozenset(early.ops) if early is not None and sent is not None else frozenset()
        rt = variables.Reread(pinned, sent.after if sent is not None and sent.after is not None else {}, taken)
        txns = variables.transactions()
        flops = tally.flops
        txns.append(rt)
        try:    # (an eager call: its watched recording, re-evaluated where its reads changed)
            if again[0] == "eager":
                result = reevaluate.evaluate(again[1], again[2])
            else:
                reevaluate.STASH[0] = iter(again[2]) if again[2] is not None else None
                result = again[1](dev=wcpu)
        finally:
            reevaluate.STASH[0] = None
            txns.remove(rt)
            tally.flops = flops   # (its cost was charged by the first run)
        if [(id(v), k) for v, k, _ in rt.ops] != kinds:
            txn.commit()
            return first
        variables.apply(rt.late_ops())
        return result

    def _writes_start(self, w: int, closure: Closure, attempt: int, nbytes: int) -> bool:
        """At the end of a closure's compute: whether its writes go out (not if it was preempted,
        cancelled or failed meanwhile: it is then no longer this attempt running on w)."""
        if self._queue.inflight.get(w) is not closure or closure.attempts != attempt:
            return False
        self.ps_bytes_written += nbytes
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
        ctx = execution.current()           # (variables.transaction() and timing.collect(),
        ctx.transactions.append(txn)        # inlined: this runs once per closure)
        ctx.charges.append(charges)
        recorded = fn._graph
        # A call that does not record now: its early writes are those of its function's first such
        # call with this input signature, which ran under a recorder only to see its dataflow (as
        # TF traces a function once per signature); a recording call's graph says it for itself.
        # A function of that signature that reads a ps variable after its own write runs under a recorder
        # on every call: a Reread evaluates the call's graph again (not its Python) where another closure
        # wrote one of its variables meanwhile (see execute).
        seen: Any = None
        key: Any = None
        self._again = None
        if recorded is not None or args or kwargs or not graph.enabled:
            key = (id(fn), _arg_key(args), _arg_key(kwargs))
            hit = self._flows.get(key)
            if hit is not None and hit[0] is fn:
                seen, key = hit[1], None
        try:
            # (a call that does not replay runs its Python under a recorder with Grappler's rewrites: TF 2.21 runs
            # the traced function's rewritten graph on the worker, `schedule(f, args=(x,))` of `x / 3.0` gives
            # x * (1 / 3) as a plain call of f does; clause function.grappler-rewrites, open48)
            if key is not None:
                early, wvars, result, own, rec = dataflow.watch(lambda: fn._scheduled(args, kwargs), keep=True,
                                                                rewrites=bool(args or kwargs))
                seen = (early, wvars, own)
                if own:
                    self._again = ("eager", rec, result)
            elif seen is not None and seen[2]:
                result, rec = dataflow.recorded(lambda: fn._scheduled(args, kwargs), bool(args or kwargs))
                if rec is not None:
                    self._again = ("eager", rec, result)
            elif args or kwargs:   # (a call without arguments records its own graph, and replays it later)
                result, _ = dataflow.recorded(lambda: fn._scheduled(args, kwargs), True)
            else:
                result = fn._scheduled(args, kwargs)
        except Exception as e:  # noqa: BLE001 - an application error of the scheduled function
            error = e
        finally:
            ctx.charges.pop()
            ctx.transactions.remove(txn)
            context.pop(frame)
            variables.observers.remove(traffic)
            ext._current_worker = None
        if recorded is None and fn._replay is not None:   # it recorded now: replays charge what this call did
            fn._graph.charges = list(charges)
            fn._graph.run_flops = timing.run_flops_accum[0]
        flops = _annotated_flops(fn, max(0.0, tally.flops - t_before - timing.run_flops_accum[0]))
        out = (result, error, txn, flops) + self._ps_traffic(traffic.reads.values(), txn.written_bytes(), wcpu)
        if error is not None:
            seen = None
        elif key is not None:
            if len(self._flows) >= 1024:
                self._flows.clear()
            self._flows[key] = (fn, seen)   # (the entry holds fn: the id it is filed under stays its)
        self._seen = seen
        return out

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
        early = None if g.fused is not None else \
            self._early_of(g.early, g.write_vars, g._write_bytes, read_list, wcpu, self._sim.prepare)
        if early is not None:   # the writes that wait for the compute: the others'
            write_moves, wbytes = early.late_moves, early.late_bytes
        else:
            for _, b in write_list:
                wbytes += b
        plan = self._plans[(id(fn), w)] = (g, flops, read_list, write_list, self._sim.prepare(read_moves),
                                           write_moves if early is not None else self._sim.prepare(write_moves),
                                           rbytes, wbytes, early)
        return plan

    def _early_of(self, early: Any, write_vars: list[Any], write_bytes: Any, read_list: list[tuple[Any, int]],
                  wcpu: str, prep: Any) -> "_Early | None":
        """A function's early writes on a worker: `early` per write (dataflow.early_writes: the
        variables its value was read from, or None), of those to variables on ps tasks; None
        when it has none. `write_bytes(which)`: (variable, bytes) of the writes numbered in
        `which`; `prep`: how moves are kept (Simulator.prepare, or as they are)."""
        pv = self._ps_vars
        ops = [k for k, d in enumerate(early)
               if d is not None and (pv.get(id(write_vars[k])) or self._ps_var(write_vars[k]))[1] is not None]
        if not ops:
            return None
        need: dict[int, Any] = {}
        for k in ops:
            for v in early[k]:
                need.setdefault(id(v), v)
        dep, rest = [], []
        for v, b in read_list:
            if b:
                e = pv.get(id(v)) or self._ps_var(v)
                (dep if id(v) in need else rest).append((e[1], wcpu, b, e[2]))
        groups: dict[int, list[int]] = {}      # id(var) -> positions in ops, in op order
        for p, k in enumerate(ops):
            groups.setdefault(id(write_vars[k]), []).append(p)
        sends, nbytes = [], 0
        for v, b in write_bytes(set(ops)):
            e = pv.get(id(v)) or self._ps_var(v)
            sends.append((prep([(wcpu, e[1], b, e[3])] if b else []), groups[id(v)]))
            nbytes += b
        chosen = set(ops)
        late = self._ps_traffic((), write_bytes({k for k in range(len(early)) if k not in chosen}), wcpu)[3]
        return _Early(tuple(ops), prep(dep), prep(rest) if rest else None, sends, nbytes, prep(late),
                      sum(m[2] for m in late))

    def _eager_early(self, seen: Any, txn: Any, read_list: list[tuple[Any, int]], w: int, wcpu: str) -> "_Early | None":
        """An eager call's early writes (`seen`: what dataflow.watch saw of its function's first
        call with its signature), when those recorded writes (variables and kinds) are this
        call's transaction's: else none early (a write the recorder could not follow, or Python
        that took another path)."""
        early, writes, _ = seen
        ops = txn.ops
        if len(writes) != len(ops) or any(v is not op[0] or k != op[1] for (v, k), op in zip(writes, ops)):
            return None
        # (dense writes send whole variables: the same plan for the same reads, kept per worker)
        key = None if any(k in variables.SCATTER_KINDS for _, k in writes) else \
            (id(seen), w, tuple([(id(v), b) for v, b in read_list]))
        if key is not None:
            hit = self._eager_plans.get(key)
            if hit is not None and hit[0] is seen:
                return hit[1]
        wvars = [v for v, _ in writes]
        out = self._early_of(early, wvars, lambda which: _ops_bytes([op for k, op in enumerate(ops) if k in which]),
                              read_list, wcpu, list)
        if key is not None:
            if len(self._eager_plans) >= 4096:
                self._eager_plans.clear()
            self._eager_plans[key] = (seen, out)
        return out


class _Early:
    """A function's early writes on one worker (clause optim.pss-updates): their
    transaction ops (`ops`, ascending), the reads they wait for (`dep_moves`) and the others
    (`rest_moves`, None: none), per variable written early its transfer and the positions of its
    ops in `ops` (`sends`), their bytes, and the transfers of the writes that wait and their bytes."""

    __slots__ = ("ops", "dep_moves", "rest_moves", "sends", "nbytes", "late_moves", "late_bytes")

    def __init__(self, ops: tuple[int, ...], dep_moves: Any, rest_moves: Any, sends: list[tuple[Any, list[int]]],
                 nbytes: int, late_moves: Any, late_bytes: int) -> None:
        self.ops = ops
        self.late_moves = late_moves
        self.late_bytes = late_bytes
        self.dep_moves = dep_moves
        self.rest_moves = rest_moves
        self.sends = sends
        self.nbytes = nbytes


class _Sent:
    """One closure's early writes: the ops taken out of its transaction, its attempt, the
    transfers sent, and the first error a commit met (a failed ps)."""

    __slots__ = ("ops", "attempt", "events", "error", "after")

    def __init__(self, ops: list[tuple[Any, str, Any]], attempt: int, after: dict[int, Any] | None = None) -> None:
        self.ops = ops
        self.attempt = attempt
        self.events: list[Any] = []
        self.error: Exception | None = None
        self.after = after   # id(var) -> its value right after these writes were applied (a Reread's), or None


def _written_by_others(versions: list[tuple[Any, int]], sent: "_Sent | None") -> bool:
    """Whether another write reached a variable the closure wrote since it started (each applied write
    bumps a variable's version once; its own early writes are counted out): if none did, its reads after
    its own writes saw at its start what the ps holds now, and a Reread would give the same values."""
    own: dict[int, int] = {}
    if sent is not None:
        for var, _, _ in sent.ops:
            own[id(var)] = own.get(id(var), 0) + 1
    return any(v._version != version + own.get(id(v), 0) for v, version in versions)


def _start_values(read_list: list[tuple[Any, int]]) -> dict[int, Any]:
    """The ps variables a closure read, as they are when it starts (a Reread's pinned reads); one whose ps
    lost it is left out (the function may assign it before reading it). The arrays themselves, not copies:
    a write updates a variable's buffer in place only when nothing else holds it (ResourceVariable._apply_op),
    so holding one keeps it as it was."""
    out = {}
    for v, _ in read_list:
        try:
            out[id(v)] = v._current()
        except errors.OpError:
            continue
    return out


def _arg_key(x: Any) -> Any:
    """A closure's arguments as a cache key: tensors by dtype and shape, Python scalars by value,
    containers by structure, anything else (an iterator) by its type."""
    t = type(x)
    if t is Tensor:
        return (x.dtype, x._v.shape)
    if t is tuple or t is list:
        return (t, tuple([_arg_key(v) for v in x]))
    if t is dict:
        return (t, tuple(sorted((repr(k), _arg_key(v)) for k, v in x.items())))
    if t in (type(None), bool, int, float, str):
        return (t, x)
    if isinstance(x, Tensor):
        return (x.dtype, tuple(x.shape.as_list()) if x.shape.rank is not None else None)
    return t


def _ops_bytes(ops: list[tuple[Any, str, Any]]) -> list[tuple[Any, int]]:
    """(variable, bytes sent to it) per variable the transaction ops write, as
    Transaction.written_bytes counts them."""
    t = variables.Transaction()
    for op in ops:
        t.ops.append(op)
        t.overlay.setdefault(id(op[0]), [None, 0, op[0]])
    return t.written_bytes()


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


def _annotated_flops(fn: Any, counted: float) -> float:
    """A function's FLOPs: its `simdist.sim.flops` annotation if it has one, else those counted."""
    ann = getattr(fn, "__simdist_flops__", None)
    if ann is None:
        ann = getattr(fn.python_function, "__simdist_flops__", None)
    return counted if ann is None else float(ann)


def _select_worker(w: int, x: Any) -> Any:
    return _map(x, lambda v: v._get_worker(w) if isinstance(v, PerWorkerValues) else v)
