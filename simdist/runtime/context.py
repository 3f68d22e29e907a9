"""Distribution context: which strategy is current, cross-replica vs replica context, device scope.

State is per thread (TF keeps it thread-local too), and per replica of `run`: it lives in the
execution context (runtime/execution.py), which a replica switch swaps whole; replicas begin
with a copy of their parent's stack plus their own replica context.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from simdist.runtime import execution
from simdist.runtime import graph_names as _graph_names
from simdist.runtime import symbolic as _symbolic

_DEVICE_NESTING = "Device scope nesting error: move call to tf.distribute.set_strategy() out of `with` scope."
_CREATOR_NESTING = ("Variable creator scope nesting error: move call to tf.distribute.set_strategy() "
                    "out of `with` scope.")


@dataclass(frozen=True)
class Frame:
    """One entry of the context stack."""

    strategy: Any            # the current strategy (the default strategy at the bottom)
    replica_context: Any     # a ReplicaContext in replica context, None in cross-replica context
    device: str | None       # current device scope (tf.device / strategy device), None = default


@dataclass(frozen=True)
class CreatorFrame(Frame):
    """A `tf.variable_creator_scope` entry: the frame below's strategy, replica context and device, plus the
    creator (so replica threads, which start from a copy of the stack, inherit it, as TF's copy the graph's
    variable creator stack)."""

    creator: Any = None


_CREATOR_SCOPE_NESTING = "Exiting variable_creator_scope without proper nesting."


def push_creator(creator: Any) -> CreatorFrame:
    top = current()
    frame = CreatorFrame(top.strategy, top.replica_context, top.device, creator)
    push(frame)
    return frame


def pop_creator(frame: CreatorFrame) -> None:
    pop(frame, _CREATOR_SCOPE_NESTING)


def creators() -> list[Any]:
    """The variable creators of the open `tf.variable_creator_scope`s, outermost first."""
    st = _current.ctx.stack
    return [f.creator for f in st if type(f) is CreatorFrame]


# (the execution context keeps the top frame's device in `device`, set by push/pop/adopt, so
# that current_device(), called by every op, reads one attribute instead of the stack)
_current = execution._current
_default_strategy: Any = None
_default_replica_context: Any = None
_default_device = "/job:localhost/replica:0/task:0/device:CPU:0"


def set_default_device(name: str) -> None:
    """The device ops run on outside any device scope (the session sets GPU:0 when there are GPUs)."""
    global _default_device
    _default_device = name


def install_defaults(strategy: Any, replica_context: Any) -> None:
    """Register the default strategy singleton and its replica context (done once by strategies)."""
    global _default_strategy, _default_replica_context
    _default_strategy = strategy
    _default_replica_context = replica_context
    st = _current.ctx.stack
    if st and st[0].strategy is None:   # a bottom frame made before the defaults existed
        st[0] = Frame(strategy, replica_context, st[0].device)


def _stack() -> list[Frame]:
    st = _current.ctx.stack
    if not st:
        st.append(Frame(_default_strategy, _default_replica_context, None))
    return st


def current() -> Frame:
    st = _current.ctx.stack
    return st[-1] if st else _stack()[-1]


def push(frame: Frame) -> None:
    _stack().append(frame)
    _current.ctx.device = frame.device


def pop(expected: Frame, nesting_message: str = _CREATOR_NESTING) -> None:
    st = _stack()
    if len(st) < 2 or st[-1] is not expected:
        raise RuntimeError(nesting_message)
    st.pop()
    _current.ctx.device = st[-1].device


def snapshot() -> list[Frame]:
    """A copy of this thread's stack, for replica threads to start from."""
    return list(_stack())


def adopt(frames: list[Frame]) -> None:
    """Install a stack copied from another thread (used at the start of a replica thread)."""
    c = _current.ctx
    c.stack = list(frames)
    c.device = frames[-1].device if frames else None


def get_strategy() -> Any:
    return current().strategy


# How many tf.function calls are running (simdist runs their Python eagerly; a few rules differ
# inside one because TF would be tracing a graph there: see semantics.gather.check_components).
_function_depth = 0
# the collectors of variable reads of the traces running (innermost last): a get_concrete_function dry run's
# list of the variables its Python reads, TF's FuncGraph.variables in capture order (tf/_concrete.py)
_variable_reads: list[list] = []


def function_state() -> tuple:
    """The running tf.function calls of this program (their depth, the graph tensors' state), as
    one value: the clients of simdist.launch take turns in one process, each keeping its own."""
    return _function_depth, _symbolic.state(), _graph_names.state()


def set_function_state(st: tuple) -> None:
    global _function_depth
    _function_depth = st[0]
    _symbolic.set_state(st[1])
    _graph_names.set_state(st[2])


NO_FUNCTION = (0, (0, False, None), None)   # (a client's start: set_function_state gives it its own marks)


class in_function_call:
    """Context manager marking a tf.function call."""

    def __enter__(self) -> None:
        global _function_depth
        _function_depth += 1
        _symbolic.DEPTH[0] = _function_depth + _data_function_depth
        _graph_names.begin()

    def __exit__(self, *exc: object) -> None:
        global _function_depth
        _function_depth -= 1
        _symbolic.DEPTH[0] = _function_depth + _data_function_depth
        _graph_names.end()
        if not _symbolic.DEPTH[0]:
            _symbolic.clear()


def in_function() -> bool:
    """Whether a tf.function call is running (where TF would be building a graph)."""
    return _function_depth > 0


# How many XLA-compiled tf.function calls (jit_compile=True) are running, or gradients of ops recorded in one:
# TF compiles such a function, and its gradient, with XLA, whose kernels take what some of TF's own CPU kernels
# refuse (a grouped convolution's gradients where oneDNN is off: Keras routes grouped convolutions through a
# jit-compiled function for that: docs/spec.md, "Grouped convolutions under XLA").
_xla_depth = [0]


# The device each running XLA-compiled call was entered on (innermost last): XLA compiles the call for that device.
_xla_devices: list[str] = []


class in_xla_call:
    """Context manager marking an XLA-compiled call (or the gradient of an op recorded in one)."""

    def __enter__(self) -> None:
        _xla_depth[0] += 1
        _xla_devices.append(current_device())

    def __exit__(self, *exc: object) -> None:
        _xla_depth[0] -= 1
        _xla_devices.pop()


def check_xla_resource(name: str, device: str | None) -> None:
    """A resource read inside an XLA-compiled call (clause function.xla-resource-device, kfuzz55): TF 2.21 compiles
    the call for the device it runs on and refuses a variable placed on another device of the same task,
    InvalidArgumentError "Trying to access resource <name>/<uid> located in device <variable's> from device <call's>"
    (measured on two logical CPUs: a captured or argument variable, in or out of a CentralStorage replica; simdist's
    message has no uid). Other tasks' variables (a parameter server's) are not measured and pass."""
    if not _xla_devices or not device:
        return
    here = _xla_devices[-1]
    if not here or here == device or here.rsplit("/device:", 1)[0] != device.rsplit("/device:", 1)[0]:
        return
    from simdist.runtime import errors
    raise errors.InvalidArgumentError(
        None, None, f"Trying to access resource {name} located in device {device} from device {here}\n"
                    " Cf. https://www.tensorflow.org/xla/known_issues#tfvariable_on_a_different_device")


def in_xla() -> bool:
    """Whether an XLA-compiled tf.function call (jit_compile=True) is running."""
    return _xla_depth[0] > 0


_placeholder_depth = [0]


class placeholder_run:
    """Context manager marking a dry run of a tf.function's Python on placeholder values (zeros,
    simdist/tf/_concrete.py): the values are simdist's stand-ins for a graph's unknown inputs, so a
    check TF makes only when the graph runs (a failed assertion on them) says nothing of the trace."""

    def __enter__(self) -> None:
        _placeholder_depth[0] += 1

    def __exit__(self, *exc: object) -> None:
        _placeholder_depth[0] -= 1


def in_placeholder_run() -> bool:
    """Whether a dry run on placeholder values is running (`placeholder_run`). Each yes is counted
    (`placeholder_answers`): code asks only where a dry run behaves otherwise than a call on values."""
    if _placeholder_depth[0] > 0:
        _placeholder_answers[0] += 1
        return True
    return False


# how many times `in_placeholder_run` said yes: a dry run whose count did not move ran every op as a call on values
# would, so its recording may serve the calls (tf/_concrete.py `trace`, clause function.trace-once)
_placeholder_answers = [0]


def placeholder_answers() -> int:
    """How many times so far a dry run's code took its placeholder path (`in_placeholder_run` said yes)."""
    return _placeholder_answers[0]


_data_function_depth = 0
_lifted: list[tuple[int, int]] = []   # (function depth, tf.data function depth) at each open tf.init_scope


class in_dataset_function:
    """Context manager marking a tf.data function's Python (map, filter, flat_map ...), which TF
    traces into a graph: not executing eagerly there (clause function.executing-eagerly), and
    the tensors it makes are graph tensors (runtime/symbolic.py, clause dataset.function-trace).
    `trace`: the function's build trace (random_graphs.Trace), which records the stateful ops made
    inside (`note_stateful_op`)."""

    def __init__(self, trace: Any = None) -> None:
        self._trace = trace

    def __enter__(self) -> None:
        global _data_function_depth
        _data_function_depth += 1
        _symbolic.DEPTH[0] = _function_depth + _data_function_depth
        _data_traces.append(self._trace)

    def __exit__(self, *exc: object) -> None:
        global _data_function_depth
        _data_function_depth -= 1
        _symbolic.DEPTH[0] = _function_depth + _data_function_depth
        _data_traces.pop()
        if not _symbolic.DEPTH[0]:
            _symbolic.clear()


_data_traces: list[Any] = []   # the build traces of the tf.data functions whose Python runs, innermost last


def note_stateful_op(name: str) -> None:
    """A stateful op (TF's name: RandomUniform, ReadVariableOp, EagerPyFunc ...) was made: when a
    tf.data function's Python is running, its build trace records it (TF's SerializeIterator refuses
    such a pipeline: clause dataset.iterator-checkpoint)."""
    for trace in reversed(_data_traces):
        if trace is not None:
            if name not in trace.stateful:
                trace.stateful.append(name)
            return


class lifted:
    """Context manager of tf.init_scope: executing eagerly again until a function is entered."""

    def __enter__(self) -> None:
        _lifted.append((_function_depth, _data_function_depth))

    def __exit__(self, *exc: object) -> None:
        _lifted.pop()


def executing_eagerly() -> bool:
    """`tf.executing_eagerly()`: False while a tf.function's or a tf.data function's Python runs
    (TF is building their graph), True outside them and under a tf.init_scope opened at the
    current depth (TF 2.21, observed: clause function.executing-eagerly)."""
    here = (_function_depth, _data_function_depth)
    if _lifted and _lifted[-1] == here:
        return True
    return here == (0, 0)


def has_strategy() -> bool:
    return current().strategy is not _default_strategy


def in_cross_replica_context() -> bool:
    """A strategy's scope or a merge_call's merge function (the default strategy's too: TF's
    merge_call enters its cross-replica mode; the default scope keeps the default replica context)."""
    return current().replica_context is None


def get_replica_context() -> Any:
    return current().replica_context


def current_device() -> str:
    """The device new tensors are placed on: the innermost device scope, else the default."""
    d = _current.ctx.device   # = the top frame's device
    return _default_device if d is None else d


def scoped_device() -> str | None:
    """The innermost device scope's device, None outside any (no default filled in)."""
    return _current.ctx.device


class device_scope:
    """`tf.device(name)`: ops created inside default to `name` (canonicalised by the caller)."""

    def __init__(self, name: str | None) -> None:
        self.name = name
        self._frame: Frame | None = None

    def __enter__(self) -> None:
        f = current()
        self._frame = Frame(f.strategy, f.replica_context, self.name)
        push(self._frame)

    def __exit__(self, *exc: object) -> None:
        assert self._frame is not None
        pop(self._frame, _DEVICE_NESTING)


NESTING_MESSAGES = {"device": _DEVICE_NESTING, "creator": _CREATOR_NESTING}


def require_replica_context(replica_context: Any) -> None:
    """TF's distribute_lib.require_replica_context: the current replica context must be
    `replica_context` (merge_call, and so a collective's gradient, runs only in its replica)."""
    f = current()
    if f.replica_context is replica_context:
        return
    if f.replica_context is None:
        raise RuntimeError("Need to be inside `call_for_each_replica()`")
    if f.strategy is replica_context.strategy:
        raise RuntimeError("Mismatching ReplicaContext.")
    raise RuntimeError(f"Mismatching tf.distribute.Strategy objects: {f.strategy} is not {replica_context.strategy}.")
