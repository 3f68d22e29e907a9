"""The execution context: everything an op, a tape or a tf.function call needs to know about
where it runs, in one object.

TF keeps this state in its eager context and in thread-locals (the distribution context stack,
the device scope, the gradient tapes, the graph being traced); JAX keeps a stack of traces that
`bind` hands each primitive to. simdist keeps it in one `ExecutionContext` per thread of
control: the distribution context stack and device scope (runtime/context.py), the interpreters
that observe dispatch (`observers`: the graph recorder of the tf.function call being traced,
then the gradient tapes, innermost last; see runtime/ops/dispatch.py), the open cost sections
and the bytes the tapes keep (runtime/cost.py), and the ReplicaRunner of the `strategy.run`
replica it is (strategies/replica_run.py).

What one TF client program shares across its threads and replicas is its `Client`: the variable
transactions of ClusterCoordinator closures (runtime/variables.py), the collectors of simulator
charges (strategies/timing.py) and the RNG state of `tf.random` (runtime/ops/random.py). A
context holds references to its client's containers (mutated in place, never rebound), so the
hot paths read them in one attribute.

A `strategy.run` replica is a child context (`child`) and a switch between replicas is one
reference swap (`switch`), as a switch between TF's replica threads is. The next step, N
multi-worker clients in one process, is the same move one level up: each client a `Client`
(with its own TF_CONFIG view) and a root context made for it, switched the same way.

The FLOP tally (runtime/cost.tally) and the simulated machine (simdist.session) stay
process-wide: replicas' FLOPs are the tally's growth between their turns, and every client of
a simulated cluster runs on the same machine.
"""

from __future__ import annotations

import threading

from simdist.runtime import runtime_config as _runtime_config
from simdist.runtime import subnormals as _subnormals
from typing import Any

__all__ = ["SCOPE_COUNTS", "Client", "ExecutionContext", "Interpreter", "current", "switch", "child", "begin_recording", "end_recording",
           "recording_anywhere", "on_recording"]


#: Client.collections' key of TF's variable-scope name counts (variable_scope(None, default_name)
#: takes `name`, then `name_1`...; a strategy scope restores them on exit: strategies/base.py _Scope)
SCOPE_COUNTS = "variable_scopes_count"


class Client:
    """What one TF client program shares across its threads and replicas."""

    __slots__ = ("transactions", "charges", "rng", "timeline", "functions_eagerly", "soft_placement", "config",
                 "collections", "collective_abort")

    def __init__(self) -> None:
        # open variable transactions, innermost last (runtime/variables.py)
        self.transactions: list[Any] = []
        # collectors of simulator charges, innermost last (strategies/timing.py `collect`)
        self.charges: list[Any] = []
        # tf.random's streams (runtime/ops/random.py)
        self.rng: dict[str, Any] = {"root": 0, "global": None, "gen": None, "op": {}, "op_rng": None, "philox": {}}
        # a launched worker's own simulated timeline (strategies/timing.Timeline), else None: its
        # charges run after each other, concurrently with the other workers', not driven at once
        self.timeline: Any = None
        # tf.config.run_functions_eagerly: TF keeps it in a module global, one per client process
        # (clause function.run-eagerly)
        self.functions_eagerly = False
        # tf.config.set_soft_device_placement: TF's eager context's, one per client process
        # (clause placement.soft-placement)
        self.soft_placement = True
        # tf.config's thread pools, op determinism and TF32 (runtime/runtime_config.py)
        self.config = _runtime_config.RuntimeConfig()
        # what TF keeps on the eager context's default graph for a client: its collections (the
        # moving-average variables, tf.train.ExponentialMovingAverage) and variable-scope name counts
        self.collections: dict[str, Any] = {}
        # the message of the collective that aborted TF's eager collective executor (a collective op that
        # failed when it ran), else None: every later collective of the client fails with it (strategies/base.py
        # `collective_launch`)
        self.collective_abort: Any = None


class Interpreter:
    """An observer of dispatch (as a JAX trace sees every primitive `bind` hands it): the graph
    recorder of a tf.function call and each gradient tape. Every op (those dispatch computes, and
    those bound to outputs computed elsewhere: a collective, a custom-gradient call; see
    OpDef.bound), variable read and write and simulator charge made in a context passes through its interpreters in order (the recorder first, then the tapes,
    innermost last). `op` and the reads return the tensors later interpreters and the caller
    see (the recorder's traced twins); the defaults observe nothing."""

    __slots__ = ()

    def op(self, opdef: Any, tensors: Any, outs: tuple, attrs: dict | None) -> tuple:
        """An op of the registry ran on `tensors` giving `outs`."""
        return outs

    def read(self, var: Any, t: Any) -> Any:
        """A variable's value was read into tensor t (ReadVariableOp)."""
        return t

    def gathered(self, var: Any, indices: Any, t: Any) -> Any:
        """Rows `indices` of a variable were read into t (ResourceGather)."""
        return t

    def write(self, var: Any, kind: str, value: Any, arr: Any) -> None:
        """`var.<kind>(value)` wrote arr (AssignVariableOp & co.)."""

    def scatter(self, var: Any, kind: str, indices: Any, updates: Any, operand: tuple) -> None:
        """A sparse write of (indices, updates) `operand` (ResourceScatterAdd & co.)."""

    def charge(self, fn: Any, refusal: str | None = None) -> None:
        """A simulator charge was made; `fn()` makes it again. `refusal`: why it cannot be
        made again at this point (a strategy.run inside a merge call)."""


class Discarded(list):
    """A charge collector whose charges are thrown away: an effect-free trace (an untaken tf.cond
    branch, a get_concrete_function trace) runs under one, its FLOP tally restored after it."""


class AloneDiscarded(Discarded):
    """The collector of an untaken tf.cond branch traced in one replica of a multi-replica strategy.run:
    the branch must finish without meeting the other replicas (`BranchMeetsReplicas` at a collective)."""


class BranchMeetsReplicas(BaseException):
    """An untaken branch traced in one replica of a multi-replica strategy.run reached a collective: its
    trace stops there (a BaseException, so the user's `except Exception` does not swallow it), before the
    replica hands its turn on; replicas' effect-free traces must not interleave (their FLOP tallies)."""


def effect_free(c: "ExecutionContext") -> bool:
    """Whether context c runs an effect-free trace (a `Discarded` collector is open): replicas that
    meet inside one merge without ending a phase of their run (TF never runs that graph)."""
    return any(isinstance(x, Discarded) for x in c.charges)


class ExecutionContext:
    """The state of one thread of control (a thread, or one replica of `strategy.run`)."""

    __slots__ = ("stack", "device", "tapes", "observers", "recorder", "sections", "held_bytes", "held_peak", "runner", "client",
                 "transactions", "charges", "rng", "aside", "through", "graphs", "scopes")

    def __init__(self, client: Client, stack: list[Any] | None = None) -> None:
        self.client = client
        self.stack: list[Any] = [] if stack is None else stack   # context.Frame, innermost last
        # the top frame's device (None when the stack is empty), kept by context.push/pop
        self.device: str | None = self.stack[-1].device if self.stack else None
        self.tapes: list[Any] = []        # gradient tapes and variable watchers, innermost last
        # the interpreters that see every op: the recorder (if any) first, then `tapes`
        self.observers: list[Any] = []
        self.recorder: Any = None          # the graph recorder of the tf.function call traced here
        self.sections: list[list[Any]] = []   # open cost sections: [name, FLOPs at entry, inner FLOPs]
        # bytes of tensors the context's tapes keep for their backward pass, and their peak
        self.held_bytes = 0
        self.held_peak = 0
        self.runner: Any = None            # the ReplicaRunner whose replica this is, else None
        # the interpreters set aside while a tf.function call records under tapes, and what they
        # would see (runtime/interpret.Deferred), else None
        self.aside: Any = None
        # the tapes of the tf.function call running here that see into the replicas of the
        # strategy.run it runs (runtime/function_tapes.Through), else None
        self.through: Any = None
        self.transactions = client.transactions
        self.charges = client.charges
        self.rng = client.rng
        # the tf.function traces whose Python runs here, innermost last (runtime/ops/random_graphs.py)
        self.graphs: list[Any] = []
        # the name scopes entered here, innermost last: (tf.function depth, scope) (runtime/name_scopes.py)
        self.scopes: list[tuple[int, str]] = []

    # --- the interpreters ---------------------------------------------------------------------
    def push_tape(self, tape: Any) -> None:
        """A tape (or variable watcher) starts observing: innermost last."""
        if self.aside is not None and self.aside.resume(tape):
            return
        self.tapes.append(tape)
        self.observers.append(tape)

    def pop_tape(self, tape: Any) -> None:
        """The innermost occurrence of `tape` stops observing."""
        if self.aside is not None and self.aside.pause(tape):
            return
        for stack in (self.tapes, self.observers):
            for i in range(len(stack) - 1, -1, -1):
                if stack[i] is tape:
                    del stack[i]
                    break


_PROCESS = Client()   # the process's client (the only one until multi-worker clients exist)


class _Current(threading.local):
    """Each thread's current context: a root context of the process's client at first use."""

    def __init__(self) -> None:
        self.ctx = ExecutionContext(_PROCESS)
        _subnormals.install()   # (NumPy's error state is per thread: the underflow note, ops.subnormals)


_current = _Current()


def current() -> ExecutionContext:
    """This thread's current execution context."""
    return _current.ctx


def switch(ctx: ExecutionContext) -> ExecutionContext:
    """Make `ctx` this thread's current context; returns the one it replaces."""
    c = _current
    prev = c.ctx
    c.ctx = ctx
    if ctx.client is not prev.client:   # another client program: its own runtime state (runtime_config.py)
        _runtime_config.switch_client(prev.client.config, ctx.client.config)
    return prev


def child(parent: ExecutionContext, stack: list[Any], runner: Any, own_thread: bool = True,
          scope: tuple[int, str] | None = None) -> ExecutionContext:
    """A replica's context under `parent`: the context stack `stack`, the parent's client and
    recording, and (as a new TF replica thread has) no tapes, cost sections or kept bytes, but
    for the tapes of a tf.function call the run is part of (`through`: TF's function graph
    holds the replicas' ops, which a tape around the call differentiates). With own_thread
    False (OneDevice runs its replica on the caller's thread) it shares the parent's tapes and
    sections, and starts its kept-bytes peak from the parent's bytes. Its name scopes start at
    `scope` (runtime/name_scopes.replica_entry), or on the caller's thread are the caller's."""
    c = _new(ExecutionContext)   # (made field by field: strategy.run makes one per replica per call)
    c.client = parent.client
    c.transactions, c.charges, c.rng = parent.transactions, parent.charges, parent.rng
    c.stack = stack
    c.device = stack[-1].device if stack else None
    c.runner = runner
    c.aside = None
    c.graphs = parent.graphs[-1:]   # (a replica traced in a function's graph counts its op seeds)
    through = c.through = parent.through
    rec = c.recorder = parent.recorder
    if own_thread:
        c.tapes = [] if through is None else list(through.tapes)
        c.observers = ([] if rec is None else [rec]) + c.tapes
        c.sections = []
        c.held_bytes = c.held_peak = 0
        c.scopes = [] if scope is None else [scope]
    else:
        c.scopes = parent.scopes
        c.tapes = parent.tapes
        c.observers = parent.observers
        c.sections = parent.sections
        c.held_bytes = c.held_peak = parent.held_bytes
    return c


_new = object.__new__


_live: list[Any] = []   # the recorders recording now, in the process


def begin_recording(ctx: ExecutionContext, rec: Any) -> None:
    """`rec` (a graph recorder) observes the ops of `ctx` first, before its tapes."""
    ctx.recorder = rec
    ctx.observers.insert(0, rec)
    _live.append(rec)
    _recording_hook(rec)


def end_recording(ctx: ExecutionContext, rec: Any) -> None:
    ctx.recorder = None
    ctx.observers.remove(rec)
    _live.remove(rec)
    _recording_hook(_live[-1] if _live else None)


def eager_tensor(t: Any) -> bool:
    """Whether t was made outside every tf.function call being recorded (TF's EagerTensor, which a
    function graph captures as it is) rather than inside one of them (a graph tensor)."""
    return not any(rec.made_here(t) for rec in _live)


def recording_anywhere() -> bool:
    """Whether a tf.function call is being recorded in this process (on any thread)."""
    return bool(_live)


def _no_hook(rec: Any) -> None:
    pass


# Told the recorder of the call being recorded, or None when it ends: the tensor module counts
# the tensors made in the process while a call records (runtime/tensor.py, `recording`).
_recording_hook = _no_hook


def on_recording(hook: Any) -> None:
    """Register the function told of each recording's start (its recorder) and end (None)."""
    global _recording_hook
    _recording_hook = hook
