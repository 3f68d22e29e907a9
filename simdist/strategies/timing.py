"""Charges simulated time for what the strategies do (compute, transfers, collectives, input).

Values are computed first (in `run`, replicas execute in replica order); the time they would
take is then replayed on the simulator in the order it happened: per phase, every replica's
compute in parallel on its device, then the collective that ended the phase. Charges made
inside a merge (e.g. `strategy.reduce` in a merge_call) are collected and replayed at that
point, not when Python happened to execute them.
"""

from __future__ import annotations

import contextlib
import types
import weakref
from typing import Any, Callable, Iterator, Sequence

from simdist import session
from simdist.runtime import execution, variables
from simdist.runtime.ops import dispatch
from simdist.runtime.tensor import Tensor
from simdist.runtime import gc_phase

# While a run executes, charges are collected (into the innermost list of the client's
# `charges`, runtime/execution.py) instead of being driven immediately.
_cur = execution._current
# FLOPs charged by strategy.run calls since the coordinator last reset it (so a scheduled
# function's own compute is not counted twice).
run_flops_accum = [0.0]


@contextlib.contextmanager
def collect(into: list) -> Iterator[None]:
    charges = _cur.ctx.charges
    charges.append(into)
    try:
        yield
    finally:
        charges.pop()


def collecting() -> bool:
    """Whether charges are being collected (inside a run's merge or a coordinator closure)."""
    return bool(_cur.ctx.charges)


def _emit(make_process: Callable[[Any], Any]) -> None:
    """Drive a process (or event) now, or record it for replay when inside a run's merge or a
    scheduled function. `make_process(sim)` returns a process generator or a SimPy event. In a
    tf.function call being recorded (runtime/graph.record_call), its replays charge it again."""
    collect = _cur.ctx.charges
    if collect:
        collect[-1].append(make_process)
        return
    if _cur.ctx.observers:
        dispatch.charged(lambda: _emit_now(make_process))
    tl = _cur.ctx.client.timeline
    if tl is not None:
        tl.after(make_process)
        return
    sim = session.simulator()
    sim.drive(make_process(sim))


def _emit_now(make_process: Callable[[Any], Any]) -> None:
    """_emit, without telling a recorder (a replay's charge, or one the caller recorded)."""
    collect = _cur.ctx.charges
    if collect:
        collect[-1].append(make_process)
        return
    tl = _cur.ctx.client.timeline
    if tl is not None:
        tl.after(make_process)
        return
    sim = session.simulator()
    sim.drive(make_process(sim))


class Timeline:
    """One launched worker's simulated work, in program order: each charge starts when the
    worker's previous one has ended, concurrently with the other workers' timelines (which it
    meets at cross-worker collectives, `CrossBarrier`). The launcher drives the simulator to
    every timeline's end when every worker waits in `clients.settle` and when the launch ends
    (simdist/launch.py), not at every collective: a worker's next charge must start when its
    own previous one ended, whatever the slowest worker's timeline holds."""

    __slots__ = ("sim", "tail", "end")

    def __init__(self, sim: Any) -> None:
        self.sim = sim
        self.tail: Any = None          # the event of the last charge, None when nothing is pending
        self.end = 0.0                 # when the last charge that ran ended (simulated seconds)

    def after(self, make_process: Callable[[Any], Any]) -> None:
        prev, sim = self.tail, self.sim

        def proc() -> Any:
            if prev is not None and not prev.processed:
                yield prev
            yield replay(sim, make_process)
            self.end = float(sim.now)
        self.tail = sim.env.process(proc())

    def pending(self) -> Any:
        """The event that fires when everything charged so far has ended (None: nothing pending)."""
        t = self.tail
        return None if t is None or t.processed else t


class CrossBarrier:
    """A cross-worker collective in simulated time: it starts when the last of the `n` workers
    arrives (each when its own timeline reaches it) and every worker's wait ends with it, so a
    straggler or a slow link delays every worker. `start(sim)` returns the collective's event."""

    __slots__ = ("n", "start", "arrived", "done")

    def __init__(self, n: int, start: Callable[[Any], Any]) -> None:
        self.n = n
        self.start = start
        self.arrived = 0
        self.done: Any = None

    def arrive(self, sim: Any) -> Any:
        if self.done is None:
            self.done = sim.env.event()
        self.arrived += 1
        if self.arrived == self.n:
            done = self.done

            def run() -> Any:
                yield replay(sim, self.start)
                done.succeed()
            sim.env.process(run())
        return self.done


class PackChain:
    """The packs of one cross-worker all-reduce that overlap the backward pass (TF 2.21 in a
    tf.function with `bytes_per_pack > 0`, docs/simulator.md): pack k's collective starts when
    every worker has produced its gradients (``fractions[k]``: the share of the backward pass
    after which they exist) and pack k-1's collective has ended (TF chains the packs by their
    ordering token). ``starts[k](sim)`` runs pack k's collective. Charged as one charge whose
    `overlap` is this chain (`charge_run` interleaves it with the backward pass); run on its
    own (outside a run) the packs simply follow each other."""

    __slots__ = ("fractions", "barriers", "_done")

    def __init__(self, n: int, fractions: list[float], starts: list[Callable[[Any], Any]]) -> None:
        self.fractions = fractions
        self._done: list[Any] = [None] * len(starts)
        self.barriers = [CrossBarrier(n, self._chained(k, start)) for k, start in enumerate(starts)]

    def _chained(self, k: int, start: Callable[[Any], Any]) -> Callable[[Any], Any]:
        def run(sim: Any) -> Any:
            if k > 0:
                yield self.barriers[k - 1].done
            yield replay(sim, start)
        return run

    def arrive(self, sim: Any, k: int) -> Any:
        """This worker reached pack k: the event of pack k's end."""
        return self.barriers[k].arrive(sim)

    @property
    def overlap(self) -> "PackChain":
        return self

    def __call__(self, sim: Any) -> Any:
        def every() -> Any:
            for k in range(len(self.barriers)):
                yield self.arrive(sim, k)
        return sim.env.process(every())


def replay(sim: Any, make_process: Callable[[Any], Any]) -> Any:
    """The event to yield, inside a SimPy process, for a collected charge."""
    r = make_process(sim)
    return sim.env.process(r) if isinstance(r, types.GeneratorType) else r


def _nbytes(t: Any) -> int:
    """A tensor's bytes (from its array's size: a recorded tensor's value is not read)."""
    if isinstance(t, Tensor):
        a = dispatch.raw(t)
        return int(a.nbytes) if a.dtype != object else 16 * int(a.size)
    return 0


def _flops_override(fn: Any) -> float | None:
    ann = getattr(fn, "__simdist_flops__", None)
    if ann is not None:
        return float(ann)
    from simdist import sim as _sim
    get = getattr(_sim, "current_flops_override", None)
    return get() if get is not None else None


class VariableTraffic:
    """Observer of variable reads during a run: which replica read which variable."""

    def __init__(self) -> None:
        self.reads: dict[tuple[int, int], Any] = {}   # (replica, order) -> variable, insertion-ordered
        self._seen: set[tuple[int, int]] = set()
        # the program whose run this is: a launch's other workers read their own variables meanwhile
        self._client = _cur.ctx.client

    def read(self, var: Any, nbytes: int | None = None) -> None:
        if _cur.ctx.client is not self._client:
            return
        from simdist.runtime import context
        rc = context.get_replica_context()
        rid = getattr(rc, "_replica_id", 0) if rc is not None else 0
        key = (int(rid) if isinstance(rid, int) else 0, id(var))
        if key not in self._seen:
            self._seen.add(key)
            self.reads[(key[0], len(self.reads))] = var

    def write(self, var: Any, value: Any) -> None:
        pass


@contextlib.contextmanager
def observe_variables() -> Iterator[VariableTraffic]:
    obs = VariableTraffic()
    variables.observers.append(obs)
    try:
        yield obs
    finally:
        variables.observers.remove(obs)


def charge_run(strategy: Any, fn: Any, record: Any, args: Any, kwargs: Any,
               traffic: VariableTraffic | None = None) -> None:
    """Replay a run: variable/input copies, then per phase parallel compute and its collective.
    In a tf.function call being recorded, the graph keeps the charge (`_run_charge`) and its
    replays make it again, with each call's pending inputs and FLOP override."""
    emit = _run_charge(strategy, fn, record, args, kwargs, traffic)
    if _cur.ctx.observers:
        dispatch.charged(emit, "it calls strategy.run inside a merge call" if _cur.ctx.charges else None)
    emit()


def _run_charge(strategy: Any, fn: Any, record: Any, args: Any, kwargs: Any,
                traffic: VariableTraffic | None) -> Callable[[], None]:
    """What charge_run charges, as a function that charges it (again): everything that does
    not change from call to call (devices, copies, phases) is worked out once."""
    devices = [session.sim_device(d) for d in strategy._replica_devices()]
    n = len(devices)
    phases = record.phases
    name = getattr(fn, "__name__", "fn")
    copies: list[tuple[str, str, int, str]] = []
    for i, dev in enumerate(devices):
        from simdist.runtime.values import select_replica
        for leaf in _leaves((select_replica(i, tuple(args)), select_replica(i, kwargs))):
            if isinstance(leaf, Tensor):
                src = session.sim_device(leaf.device)
                if src != dev and _nbytes(leaf):
                    copies.append((src, dev, _nbytes(leaf), f"input→replica {i}"))
    # (inside a ClusterCoordinator closure the coordinator charges the variables' ps reads)
    if traffic is not None and getattr(strategy.extended, "_current_worker", None) is None:
        for (rid, _), var in traffic.reads.items():
            src = session.sim_device(var.device)
            if rid < n and src != devices[rid]:
                copies.append((src, devices[rid], int(var.nbytes), f"read {var.name}→replica {rid}"))

    def on(devices: list[Any], pending: list[Any], scaled: list[list[float]]) -> Callable[[Any], Any]:
        held = [(devices[i], b) for i, b in enumerate(record.held) if b and i < n]

        def process(sim: Any) -> Any:
            if pending:
                yield sim.all_of(pending)
            # the activations the replicas' tapes keep for the backward pass, for the step's duration
            taken = []
            try:
                for dev, b in held:
                    sim.allocate(dev, b, f"activations of {name}")
                    taken.append((dev, b))
                yield from steps(sim)
            finally:
                for dev, b in taken:
                    sim.free(dev, b, f"activations of {name}")

        def steps(sim: Any) -> Any:
            if copies:
                yield sim.all_of([sim.transfer(s, d, b, nm) for s, d, b, nm in copies])
            for k, phase in enumerate(phases):
                sync = phase.sync
                chain = _overlapped(sync)
                if chain is not None:   # packs all-reduced as the backward pass produces them
                    yield from _overlapped_phase(sim, devices, scaled[k], phase, name, chain)
                    continue
                yield sim.all_of([_replica_compute(sim, devices[i], scaled[k][i], phase, i, name) for i in range(n)])
                if sync is None:
                    continue
                if sync.charges:
                    for make in sync.charges:
                        yield replay(sim, make)
                elif sync.kind == "all_reduce" and n > 1 and sync.nbytes:
                    yield sim.all_reduce(devices, sync.nbytes, algorithm=sync.algorithm or "ring", name=sync.kind)
                elif sync.kind == "all_gather" and n > 1 and sync.nbytes:
                    yield sim.all_gather(devices, sync.nbytes, name=sync.kind)
        return process

    total_flops = float(sum(sum(p.flops) for p in phases))

    def emit() -> None:
        override = _flops_override(fn)
        if override is not None:
            total = sum(sum(p.flops) for p in phases) or 1.0
            scaled = []
            for k, p in enumerate(phases):
                if sum(sum(q.flops) for q in phases) == 0:
                    scaled.append([override if k == 0 else 0.0] * n)
                else:
                    scaled.append([override * f * n / total for f in p.flops])
        else:
            scaled = [p.flops for p in phases]
        sim_now = session.simulator()
        pending = [ev for ev in strategy.__dict__.pop("_pending_inputs", ()) if ev.env is sim_now.env]
        process = on(devices, pending, scaled)
        if getattr(strategy.extended, "_current_worker", None) is not None and not copies and not pending:
            # Inside a ClusterCoordinator closure: a recorded function's replay charges this run
            # again on whichever worker runs it (see Graph.charges).
            def for_worker(w: int) -> Callable[[Any], Any]:
                return on([session.sim_device(d) for d in strategy._replica_devices_of(w)], pending, scaled)
            process.for_worker = for_worker  # type: ignore[attr-defined]
        run_flops_accum[0] += total_flops
        _emit_now(process)
    return emit


_SECTION_NAMES = ("forward", "backward", "update")


def _replica_compute(sim: Any, device: str, flops: float, phase: Any, i: int, name: str) -> Any:
    """Replica i's compute in a phase: one kernel, or (a training step) its forward, backward
    and update kernels in turn, each its own span in the trace."""
    parts = phase.sections[i] if phase.sections is not None else None
    if parts is None or (parts[1] == 0 and parts[2] == 0):
        return sim.compute(device, flops, f"{name}[replica {i}]", replica=i)
    total = sum(parts)
    scale = flops / total if total else 0.0

    def run() -> Any:
        for label, fl in zip(_SECTION_NAMES, parts):
            if fl:
                yield sim.compute(device, fl * scale, f"{name}/{label}[replica {i}]", replica=i)
    return sim.env.process(run())


def _overlapped(sync: Any) -> "PackChain | None":
    """The PackChain a phase's collective charged, when it is its only charge."""
    if sync is None or len(sync.charges) != 1:
        return None
    return getattr(sync.charges[0], "overlap", None)


def _overlapped_phase(sim: Any, devices: list[str], flops: list[float], phase: Any, name: str,
                      chain: PackChain) -> Any:
    """A phase whose all-reduce packs overlap the backward pass: each replica runs its forward
    kernel, then its backward pass in one kernel per pack (pack k's share of it: the gradients of
    pack k exist when it ends), then the rest; this worker arrives at pack k when every local
    replica has ended its k-th backward kernel; the phase ends when every replica and the last
    pack have."""
    n = len(devices)
    fr = chain.fractions
    ready = [[sim.env.event() for _ in fr] for _ in range(n)]

    def replica(i: int) -> Any:
        parts = phase.sections[i] if phase.sections is not None else (flops[i], 0.0, 0.0)
        total = sum(parts)
        scale = flops[i] / total if total else 0.0
        fwd, bwd, rest = (p * scale for p in parts)
        if fwd:
            yield sim.compute(devices[i], fwd, f"{name}/forward[replica {i}]", replica=i)
        prev, first = 0.0, True
        for k, f in enumerate(fr):   # (the backward kernel, cut where each pack's gradients exist)
            if bwd * (f - prev) > 0:
                yield sim.compute(devices[i], bwd * (f - prev), f"{name}/backward (pack {k})[replica {i}]", replica=i,
                                  overhead=first)
                first = False
            prev = f
            ready[i][k].succeed()
        if rest:
            yield sim.compute(devices[i], rest, f"{name}/update[replica {i}]", replica=i)

    def packs() -> Any:
        done = None
        for k in range(len(fr)):
            yield sim.all_of([ready[i][k] for i in range(n)])
            done = chain.arrive(sim, k)
        yield done

    yield sim.all_of([sim.env.process(replica(i)) for i in range(n)] + [sim.env.process(packs())])


def _leaves(x: Any) -> Iterator[Any]:
    if isinstance(x, dict):
        for v in x.values():
            yield from _leaves(v)
    elif isinstance(x, (list, tuple)):
        for v in x:
            yield from _leaves(v)
    else:
        yield x


def charge_reduce(strategy: Any, components: Sequence[Tensor], out: Tensor, op: str) -> None:
    """Copy each component to the destination (concurrently), then the arithmetic there."""
    dst = session.sim_device(out.device)
    srcs = [(session.sim_device(c.device), _nbytes(c)) for c in components]
    flops = float(sum(dispatch.raw(c).size for c in components))

    if all(s == dst or not b for s, b in srcs):  # nothing to move: just the arithmetic
        _emit(lambda sim: sim.compute(dst, flops, op))
        return

    def process(sim: Any) -> Any:
        moves = [sim.transfer(s, dst, b, f"{op} {i}→dst") for i, (s, b) in enumerate(srcs) if s != dst and b]
        yield sim.all_of(moves)
        yield sim.compute(dst, flops, op)

    _emit(process)


def charge_updates(work: list[tuple[str, float]], name: str = "update") -> None:
    """The compute of `extended.update` (an optimizer step), on each updated copy's device in
    parallel, where a run's merge or a coordinator closure is collecting charges (outside
    those, like any other eager op, it is not charged). Its FLOPs leave the replica phases
    and the closure's own compute (run_flops_accum)."""
    work = [(d, f) for d, f in work if f]
    if not _cur.ctx.charges or not work:
        return
    devices = [(session.sim_device(d), f) for d, f in work]
    run_flops_accum[0] += float(sum(f for _, f in work))
    _emit(lambda sim: sim.all_of([sim.compute(d, f, name, category="update") for d, f in devices]))


def charge_all_reduce(strategy: Any, nbytes: int, name: str = "all_reduce") -> None:
    """An all-reduce of `nbytes` across the strategy's replica devices with its algorithm."""
    devices = [session.sim_device(d) for d in strategy._replica_devices()]
    if len(devices) < 2 or not nbytes:
        return
    algorithm = strategy.extended._all_reduce_algorithm or "ring"
    _emit(lambda sim: sim.all_reduce(devices, nbytes, algorithm=algorithm, name=name))


# Input pipeline: each produced step is made on the host CPU and copied to the replica devices.
# The pipeline runs one step ahead (prefetch): producing step k+1 starts when step k is handed
# out, so it overlaps step k's compute. `run` waits for its inputs to be ready. The events live
# on the strategy (`_pending_inputs`, `_input_ahead`), tied to the simulator that made them.
def input_step_charger(strategy: Any) -> Callable[[str, list[Any], list[str]], None]:
    def on_step(host: str, per_replica: list[Any], replica_devices: list[str]) -> None:
        sim = session.simulator()
        h = session.sim_device(host)
        sizes = [sum(_nbytes(t) for t in _leaves(e)) for e in per_replica]
        elems = float(sum(sum(t._v.size for t in _leaves(e) if isinstance(t, Tensor)) for e in per_replica))
        devs = [session.sim_device(d) for d in replica_devices]

        def produce(sim: Any) -> Any:
            yield sim.compute(h, elems, "input pipeline")
            moves = [sim.transfer(h, d, b, f"input→replica {i}") for i, (d, b) in enumerate(zip(devs, sizes))
                     if d != h and b]
            if moves:
                yield sim.all_of(moves)

        ready = strategy.__dict__.pop("_input_ahead", None)
        if ready is None or ready.env is not sim.env:
            ready = sim.env.process(produce(sim))
        strategy._input_ahead = sim.env.process(produce(sim))   # prefetch the next step
        strategy.__dict__.setdefault("_pending_inputs", []).append(ready)

    return on_step


def allocate_variable(var: Any) -> None:
    """Charge a new variable's bytes to its device's memory; freed when reference counting deletes
    the variable. A variable that only Python's cyclic collector reclaims (one in a reference
    cycle, e.g. a Keras optimizer's) stays charged until the simulation ends: the collector runs
    when the process's allocation counts say so, and frees at those moments would make the
    memory counters and the trace depend on what the process ran before (gc_phase)."""
    sim = session.simulator()
    dev = session.sim_device(var.device)
    try:
        sim.cluster.device(dev)
    except (KeyError, ValueError):
        return  # a device this machine does not simulate (e.g. made before simdist.configure)
    nbytes = int(var.nbytes)
    sim.allocate(dev, nbytes, var.name)
    weakref.finalize(var, _free, sim, dev, nbytes, var.name)


def _free(sim: Any, dev: str, nbytes: int, what: str) -> None:
    if not sim.closed and not gc_phase.collecting():
        sim.free(dev, nbytes, what)
