"""TF's random seeds inside a `tf.function`: per-graph op seeds and per-trace kernel streams
(clause ops.random-in-function).

`random_seed.get_seed` in a FuncGraph (TF 2.21, framework/random_seed.py): the graph-level seed is
the FuncGraph's `seed`, the global seed when the function was traced (func_graph.py: a function
traced from eager code takes `context.global_seed()`, one traced inside another takes the outer
graph's), and a seedless op takes the graph's own counter, 0, 1, 2, ... (`_graph_to_seed_dict`),
not the eager op-seed sequence, which tracing leaves alone. Each stateful random op of a traced
function is its own kernel: its Philox stream continues across calls of that trace, and is
separate from the kernels of other functions, of the function's other traces, of a function
called inside another (part of the outer one's instantiation) and of eager ops with the same
seeds. `tf.random.set_seed` restarts them all (TF clears its kernel caches) without retracing: a
traced function keeps its graph seed.

A `Trace` is one concrete function's random state (its serial, its graph seed); a scope is one
run of its Python (recording, or a call that runs eagerly), counting its op seeds and its
kernels from zero, so the same Python gives the same seeds and the same kernel instances on
every run. A random op's front end takes its seeds (`op_seeds`) and its kernel instance
(`instance`, an attr of the op: a replay reuses the recorded instance).
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Iterator

from simdist.runtime import execution

__all__ = ["Trace", "scope", "branch", "current", "instance", "next_op_seed",
           "dataset_function", "instantiate", "running", "as_instance", "aliased_kernel"]

_cur = execution._current


class Trace:
    """One concrete function's random state: an identity for its kernels, its graph seed."""

    __slots__ = ("serial", "seed", "stateful")

    def __init__(self, serial: Any, seed: int | None) -> None:
        self.serial, self.seed = serial, seed
        # a tf.data function's build trace: the TF names of the stateful ops its Python made, in order
        # (context.note_stateful_op; an iterator holding them cannot be checkpointed, clause
        # dataset.iterator-checkpoint)
        self.stateful: list[str] = []


class _Scope:
    """One run of a trace's Python: its op-seed, kernel and nested-function counters."""

    __slots__ = ("trace", "op_seeds", "kernels", "nested")

    def __init__(self, trace: Trace) -> None:
        self.trace = trace
        self.op_seeds = self.kernels = self.nested = 0


def _serial() -> int:
    rng = _cur.ctx.rng
    serial = rng.get("traces", 0) + 1
    rng["traces"] = serial
    return serial


def _new_trace() -> Trace:
    """A trace made now: from the enclosing trace when a function runs inside another's
    (part of its instantiation, its graph seed), else a fresh serial and the global seed."""
    ctx = _cur.ctx
    outer = ctx.graphs[-1] if ctx.graphs else None
    if outer is not None:
        outer.nested += 1
        return Trace((outer.trace.serial, outer.kernels, outer.nested), outer.trace.seed)
    return Trace(_serial(), ctx.rng.get("global"))


@contextmanager
def scope(traces: dict, key: Any) -> Iterator[None]:
    """Run a tf.function's Python as the trace `traces[key]` (made at its first run). Inside
    another trace's run the function is part of that one: a nested trace, not kept. (A
    strategy.run of a tf.function is one trace of its lifted clone: strategies/replica_run.py.)"""
    ctx = _cur.ctx
    if ctx.graphs:
        trace = _new_trace()
    else:
        trace = traces.get(key)
        if trace is None:
            trace = traces[key] = _new_trace()
    stack = ctx.graphs
    stack.append(_Scope(trace))
    try:
        yield
    finally:
        stack.pop()


@contextmanager
def branch() -> Iterator[None]:
    """A tf.cond/switch_case branch or a while_loop's cond/body traced inside a function: TF
    builds it as a graph of its own (its op seeds from 0, the outer graph's seed, its own kernels)."""
    ctx = _cur.ctx
    if not ctx.graphs:
        yield
        return
    stack = ctx.graphs
    stack.append(_Scope(_new_trace()))
    try:
        yield
    finally:
        stack.pop()


def current() -> Any:
    """The scope of the trace running here, or None (eager)."""
    g = _cur.ctx.graphs
    return g[-1] if g else None


def next_op_seed(s: _Scope) -> int:
    """The graph's next op seed (`_graph_to_seed_dict[graph]`, from 0)."""
    n = s.op_seeds
    s.op_seeds = n + 1
    return n


def instance() -> Any:
    """The kernel instance of a stateful random op made now: None for an eager op (TF caches
    eager kernels by their attrs), else (trace serial, the trace's k-th random op)."""
    s = current()
    if s is None:
        return None
    k = s.kernels
    s.kernels = k + 1
    return (s.trace.serial, k)


# --- tf.data functions -------------------------------------------------------------------------------
# tf.data traces a map/filter/flat_map/reduce function when the dataset is made (graph seed: the
# global seed then, or the enclosing function's), and instantiates that graph anew for every
# iterator: its seedless random ops take op seeds 0, 1, ... of their own graph, their kernels start
# afresh with each iterator (under a global seed an epoch's `map(lambda _: tf.random.shuffle(...))`
# repeats the previous epoch's permutation: Keras's fit(shuffle=True) does) and continue across the
# elements of one iterator; the eager op-seed sequence is left alone.

def dataset_function() -> Trace:
    """The trace of a tf.data function made now (at `Dataset.map(fn)` &c.)."""
    _warn_if_functions_eager()
    ctx = _cur.ctx
    outer = ctx.graphs[-1] if ctx.graphs else None
    return Trace(_serial(), outer.trace.seed if outer is not None else ctx.rng.get("global"))


def _warn_if_functions_eager() -> None:
    """TF's warning when a tf.data function is built while run_functions_eagerly is on: tf.data
    functions are traced anyway (data/ops/structured_function.py; clause function.run-eagerly)."""
    if _cur.ctx.client.functions_eagerly:
        import warnings
        warnings.warn("Even though the `tf.config.experimental_run_functions_eagerly` option is set, this option "
                      "does not apply to tf.data functions. To force eager execution of tf.data functions, please "
                      "use `tf.data.experimental.enable_debug_mode()`.", UserWarning, stacklevel=4)


def instantiate(trace: Trace) -> Trace:
    """One iterator's instance of a tf.data function: fresh kernels, the same graph seed."""
    return Trace(_serial(), trace.seed)


def aliased_kernel(kernel: Any) -> Any:
    """The kernel instance a random op with the recorded `kernel` attr draws from here: in the
    replay of a tf.data function's graph for another instance (`as_instance`), that instance's
    kernel of the same position (a nested function's included), else `kernel` itself."""
    alias = _cur.ctx.rng.get("alias")
    if alias is None:
        return kernel
    return (_swap(kernel[0], alias[0], alias[1]),) + kernel[1:]


def _swap(serial: Any, recorded: Any, now: Any) -> Any:
    if serial == recorded:
        return now
    if type(serial) is tuple:    # (a nested function's trace: (outer serial, kernels, nested))
        return (_swap(serial[0], recorded, now),) + serial[1:]
    return serial


@contextmanager
def as_instance(recorded: Trace, now: Trace) -> Iterator[None]:
    """A replay of a tf.data function's graph recorded as `recorded`, run as instance `now`:
    its random ops draw from `now`'s kernels (one iterator's), as a call of `now` would."""
    rng = _cur.ctx.rng
    prev = rng.get("alias")
    rng["alias"] = None if recorded.serial == now.serial else (recorded.serial, now.serial)
    try:
        yield
    finally:
        rng["alias"] = prev


@contextmanager
def running(trace: Trace) -> Iterator[None]:
    """One call of a tf.data function (instance): its own graph, op seeds from 0, whatever runs
    around it (a tf.function, a replica)."""
    stack = _cur.ctx.graphs
    stack.append(_Scope(trace))
    try:
        yield
    finally:
        stack.pop()
