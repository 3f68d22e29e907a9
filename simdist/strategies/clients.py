"""N TF client programs in one process, meeting at cross-worker collectives.

A MultiWorkerMirroredStrategy job is N copies of one program, each a process with its own
TF_CONFIG that blocks in every collective until its peers arrive. simdist runs the N programs
as greenlets of the launcher's thread, one at a time in task order (as `replica_run` runs the
replicas of `strategy.run` one level down): each client has its own root execution context and
`Client` (tf.random streams, charge collectors, its simulated timeline), runs until it reaches a
cross-worker collective (`meet`) or returns, and when every live client waits at the same
collective the first client's `combine` computes every client's share, once. Deterministic, no
threads; a switch swaps the execution context, the FLOP tally (each program counts its own,
so a replica's phase never holds another worker's compute), the session's local task and whatever the
launcher installs (`on_switch`: the TF_CONFIG environment view, stdout).

A client that raises while others wait makes their pending collective fail, as a lost peer
fails a real worker's collectives (clause mwms.all-reduce): `errors.UnavailableError` naming
the failed task, raised where the peer waits, so no client is left suspended.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

import greenlet

from simdist import session
from simdist.runtime import context, errors, execution, subnormals
from simdist.runtime.cost import tally
from simdist.strategies import collective_timeout

__all__ = ["ClientGroup", "current_client", "current_group", "current_index", "meet", "settle"]


@dataclass
class _State:
    task: tuple[str, int]
    ctx: execution.ExecutionContext
    glet: Any = None
    parked: Any = None             # the greenlet waiting in `meet` (the client's, or a replica's inside it)
    status: str = "ready"          # ready | running | waiting | done | error
    kind: str = ""
    payload: Any = None
    combine: Any = None
    result: Any = None
    error: BaseException | None = None
    value: Any = None
    flops: tuple[float, float, float] = (0.0, 0.0, 0.0)   # its own FLOP tally (swapped in at each turn)
    functions: tuple = context.NO_FUNCTION   # its running tf.function calls (swapped in at each turn)
    timeout: float | None = None   # the collective's armed timeout_seconds (collective_timeout.seconds)
    timeout_message: str = ""      # what its timer says (collective_timeout.WAITING or TIMED_OUT)
    aborted: str | None = None     # its collective executor's abort message (a timeout): later collectives fail
    timed: list = field(default_factory=list)   # TimedBarriers charged inside a run, outcome not read yet


_group: list["ClientGroup"] = []   # the launch running now (one at a time), innermost last


def current_group() -> "ClientGroup | None":
    return _group[-1] if _group else None


def current_index() -> int | None:
    """The running client's index (task order) in the current launch, else None."""
    g = current_group()
    return None if g is None else g.current


def current_client() -> "_State | None":
    """The running client's state in the current launch, else None."""
    g = current_group()
    return None if g is None or g.current is None else g.clients[g.current]


def meet(kind: str, payload: Any, combine: Callable[[list[Any]], list[Any]], timeout: float | None = None,
         timeout_message: str = collective_timeout.TIMED_OUT) -> Any:
    """Wait until every client of the launch reaches this collective; return this client's
    share of `combine(payloads in task order)`. Outside a launch: `combine([payload])[0]`.
    ``timeout``: the collective's armed timeout_seconds; a peer that is gone then makes this
    client's collective time out (DeadlineExceededError after ``timeout`` simulated seconds)
    instead of failing with the heartbeat's UnavailableError, when it is the shorter."""
    g = current_group()
    if g is None or g.current is None:
        return combine([payload])[0]
    return g._meet(kind, payload, combine, timeout, timeout_message)


def settle() -> None:
    """Wait until every client has charged everything it did so far and the simulator ran
    it (a meeting without values, at which the launcher drives every timeline to its end;
    other meetings leave the timelines alone, so a worker's work after a meeting starts when
    its own earlier work ended, not when the slowest worker's did). Then every cross-worker
    collective charged before has its simulated outcome."""
    meet("timeline", None, lambda parts: [None] * len(parts))


class ClientGroup:
    """The clients of one launch: `run(mains)` runs them to the end."""

    def __init__(self, tasks: Sequence[tuple[str, int]], on_switch: Callable[[int | None], None] | None = None,
                 on_round: Callable[[], None] | None = None) -> None:
        """``on_round``: called when every client waits in `settle` (the launcher drives the
        simulator to the end of every client's timeline)."""
        self.tasks = list(tasks)
        self.n = len(self.tasks)
        self.current: int | None = None
        self._on_switch = on_switch
        self._on_round = on_round
        self._hub: Any = None
        self.clients = [_State(t, execution.ExecutionContext(execution.Client())) for t in self.tasks]
        self.rounds = 0                # collectives met (every client's share computed once)
        self._gone: list[_State] = []  # clients that returned or raised, in the order they did

    # --- called in a client -------------------------------------------------------------------
    def _meet(self, kind: str, payload: Any, combine: Callable[[list[Any]], list[Any]],
              timeout: float | None = None, timeout_message: str = collective_timeout.TIMED_OUT) -> Any:
        i = self.current
        assert i is not None
        me = self.clients[i]
        me.timeout, me.timeout_message = timeout, timeout_message
        if self._gone:   # (a peer that raised is named before one that returned)
            peer = next((c for c in self._gone if c.status == "error"), self._gone[0])
            self._fail_waiting(me, self._peer_error(kind, peer, me))
        me.status, me.kind, me.payload, me.combine = "waiting", kind, payload, combine
        ctx = execution.current()
        me.parked = greenlet.getcurrent()
        try:
            self._hub.switch()      # until every client is here and the combine ran (or a peer failed)
        except collective_timeout.errors.DeadlineExceededError as e:
            execution.switch(ctx)
            self._fail_waiting(me, e)
        execution.switch(ctx)
        out, me.result = me.result, None
        return out

    @staticmethod
    def _fail_waiting(me: _State, err: BaseException) -> None:
        """Raise ``err`` where ``me`` waits; a timeout first spends its seconds on the client's
        own timeline (not a run's collected charges: a failed run's charges are dropped)."""
        if isinstance(err, collective_timeout.errors.DeadlineExceededError):
            me.aborted = collective_timeout.aborted_by(str(err))
            tl, t = me.ctx.client.timeline, me.timeout
            if tl is not None and t:
                tl.after(lambda sim: sim.timeout(t))
        raise err

    def _peer_error(self, kind: str, peer: _State, waiting: _State) -> BaseException:
        """What a client waiting in a collective raises when ``peer`` is gone: its own timeout
        when it is armed and shorter than the coordination service's heartbeat (TF 2.21, facts
        A.1 and A.2), else the UnavailableError of the heartbeat."""
        if waiting.timeout and waiting.timeout < collective_timeout.HEARTBEAT_TIMEOUT:
            return collective_timeout.timed_out(waiting.timeout_message)
        job, t = peer.task
        why = (f"{type(peer.error).__name__}: {peer.error}" if peer.status == "error"
               else "it returned without joining")
        return errors.UnavailableError(None, None, f"Collective ops is aborted by: task /job:{job}/replica:0/task:{t} is gone "
                                      f"({why}); this {kind} cannot complete. [simdist: a peer of the "
                                      "MultiWorkerMirroredStrategy job failed]")

    def _main(self, i: int, main: Callable[[], Any]) -> None:
        subnormals.install()   # (a greenlet starts with NumPy's default error state: ops.subnormals)
        c = self.clients[i]
        try:
            c.value = main()
            c.status = "done"
        except BaseException as e:  # noqa: BLE001 - reported in the launch's result
            c.error = e
            c.status = "error"
        self._gone.append(c)

    # --- called by the launcher ---------------------------------------------------------------
    def run(self, mains: Sequence[Callable[[], Any]]) -> None:
        """Run every client to its end (values and errors in `clients[i].value/.error`)."""
        if len(mains) != self.n:
            raise ValueError(f"{len(mains)} programs for {self.n} tasks")
        self._hub = greenlet.getcurrent()
        _group.append(self)
        outer = self._hub_ctx = execution.current()
        job0, task0 = session.local_task()
        try:
            for i, main in enumerate(mains):
                self.clients[i].glet = greenlet.greenlet(lambda i=i, m=main: self._main(i, m))
            self._loop()
        finally:
            self.current = None
            if self._on_switch is not None:
                self._on_switch(None)
            execution.switch(outer)
            session.enter_task(job0, task0)
            _group.pop()

    def _turn(self, i: int, throw: BaseException | None = None) -> None:
        c = self.clients[i]
        self.current = i
        c.status = "running"
        session.enter_task(*c.task)
        if self._on_switch is not None:
            self._on_switch(i)
        execution.switch(c.ctx)
        g, c.parked = c.parked or c.glet, None
        outside = tally.snapshot()
        tally.flops, tally.backward, tally.update = c.flops   # (each program counts its own FLOPs)
        outside_functions = context.function_state()
        context.set_function_state(c.functions)   # (each program's tf.function calls are its own)
        try:
            if throw is not None:
                g.throw(throw)
            else:
                g.switch()
        finally:
            c.flops = tally.snapshot()
            tally.flops, tally.backward, tally.update = outside
            c.functions = context.function_state()
            context.set_function_state(outside_functions)
            self.current = None
            execution.switch(self._hub_ctx)
            if self._on_switch is not None:
                self._on_switch(None)

    def _loop(self) -> None:
        for i in range(self.n):
            self._turn(i)
        while True:
            waiting = [i for i, c in enumerate(self.clients) if c.status == "waiting"]
            if not waiting:
                return
            gone = [c for c in self._gone if c.status == "error"] or self._gone
            kinds = sorted({self.clients[i].kind for i in waiting})
            if gone or len(kinds) > 1:
                for i in waiting:
                    err = (self._peer_error(self.clients[i].kind, gone[0], self.clients[i]) if gone else RuntimeError(
                        f"the workers reached different collectives {kinds}: every worker of a "
                        "MultiWorkerMirroredStrategy job must make the same collective calls in the same order"))
                    self._turn(i, throw=err)
                continue
            if self._on_round is not None and kinds[0] == "timeline":
                self._on_round()
            first = self.clients[waiting[0]]
            outs = first.combine([c.payload for c in self.clients])
            self.rounds += 1
            for c, out in zip(self.clients, outs):
                c.result, c.payload, c.combine = out, None, None
            for i in range(self.n):
                self._turn(i)
