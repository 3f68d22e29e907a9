"""`tf.GradientTape`: records the ops it sees, as an observer of the op dispatch.

TF's imperative tape, in Python: a tape records an op when one of its inputs is watched (a
tensor passed to `watch`, a trainable variable read while the tape watches accessed variables,
or the output of an op it recorded) and that input's dtype is trainable (floating or complex).
Tapes are per execution context (runtime/execution.py: a replica of `strategy.run` starts with
none, as in TF, whose MirroredStrategy runs each replica on its own thread), innermost last;
every active tape of the context sees every op: what a tape records (`_Tape`) is one of the
context's interpreters of dispatch. `gradient` walks the recorded ops backwards (backprop.py) calling
each op's registered gradient, themselves dispatched ops: an outer tape records them, which
gives higher-order gradients, and the FLOP tally counts them as the backward pass.

Tensors are keyed by `id()`; a tape keeps every tensor it keys alive (in its entries or its
watched leaves), so no key is reused while the tape holds it.
"""

from __future__ import annotations

import contextlib
import enum
import logging
from typing import Any, Callable, Iterator, Sequence

import numpy as np

from simdist.runtime import context, cost, dtypes, execution, gc_phase, name_scopes
from simdist.runtime import nest
from simdist.runtime.variables import _UnreadVariable, in_creation_order
from simdist.runtime.autodiff import backprop
from simdist.runtime.ops.registry import OpCall, OpDef
from simdist.runtime.tensor import Tensor

__all__ = ["GradientTape", "UnconnectedGradients", "record_operation", "VariableWatcher", "trainable",
           "variable_key"]

_log = logging.getLogger("simdist")

TRAINABLE_KINDS = "fc"   # TF's IsTrainable: float16/32/64, bfloat16, complex (and resource handles)


def trainable(dt: dtypes.DType) -> bool:
    return dt.kind in TRAINABLE_KINDS


class UnconnectedGradients(enum.Enum):
    """`tf.UnconnectedGradients`: what `gradient` returns for a source the target does not reach. An Enum, as TF
    2.21's (`ZERO != "zero"`, `.value` is the string, `UnconnectedGradients("zero")` the member); the gradient
    functions take a member or its string (`_unconnected`)."""

    NONE = "none"
    ZERO = "zero"


def variable_key(v: Any) -> Any:
    """The object a variable's reads are keyed by: the replica's own copy of a mirrored variable
    (TF keys it by `handle`, the local copy's), the wrapped variable of an aggregating one.
    A wrapper that stands for a variable (a Keras variable: anything with a `_simdist_variable()`
    method, the runtime's side of that protocol) is keyed by the variable it returns."""
    resolve = getattr(v, "_simdist_variable", None)
    if resolve is not None:
        v = resolve()
    if type(v) is _UnreadVariable:
        # (assign*'s result shares its variable's handle, which TF's tape keys a variable by: `tape.gradient(
        # v.assign_sub(3.0), v)` is 1, the target being v's handle; fz53, fourth generator seed 5301 #11)
        v = v._parent
    local = getattr(v, "_local", None)
    if local is not None:
        return local()
    inner = getattr(v, "_v", None)
    if inner is not None and hasattr(inner, "_read_array"):
        return inner
    return v


def _is_variable(x: Any) -> bool:
    return (hasattr(x, "_read_array") or hasattr(x, "_local") or hasattr(x, "_simdist_variable")
            or (hasattr(x, "_as_tensor") and hasattr(x, "assign")))


class _Entry:
    """One recorded op: its inputs' and outputs' keys and how to compute its input gradients."""

    __slots__ = ("op_type", "input_ids", "output_ids", "backward", "outputs", "none_ok", "grad_scope")

    def __init__(self, op_type: str, input_ids: tuple, output_ids: tuple, backward: Callable[..., Any],
                 outputs: tuple, none_ok: tuple[int, ...] = ()) -> None:
        self.op_type = op_type
        self.input_ids = input_ids
        self.output_ids = output_ids
        self.backward = backward
        self.outputs = outputs          # (for zeros of an output nobody differentiated)
        self.none_ok = none_ok
        # inside a tf.function, the name scope its gradient's ops are named in (runtime/graph_names.py):
        # `gradient_tape/<the scope the op was made in>/` (TF's forward_pass_name_scope); tf.gradients
        # sets its own (graph_gradients.py)
        self.grad_scope = None
        if context._function_depth:
            scope = name_scopes.get_current_name_scope()
            self.grad_scope = f"gradient_tape/{scope}/" if scope else "gradient_tape/"


class _Tape(execution.Interpreter):
    """What one GradientTape has recorded: while the tape records, an interpreter of dispatch."""

    __slots__ = ("tensor_tape", "op_tape", "next_id", "leaves", "watched_vars", "watch_accessed", "persistent",
                 "kept", "kept_bytes", "function_depth", "__weakref__")

    def __init__(self, persistent: bool, watch_accessed: bool) -> None:
        self.tensor_tape: dict[int, int] = {}    # key -> id of the op that made it (-1: a watched leaf)
        self.op_tape: dict[int, _Entry] = {}
        self.next_id = 0
        self.leaves: dict[int, Any] = {}         # key -> the watched tensor or variable (kept alive)
        self.watched_vars: list[Any] = []
        self.watch_accessed = watch_accessed
        self.persistent = persistent
        self.kept: set[int] = set()              # keys of the tensors its entries keep (for their bytes)
        self.kept_bytes = 0                      # ... counted in runtime.cost's held bytes of this thread
        self.function_depth = 0                  # the tf.function depth it was last pushed at (GradientTape)

    def keep(self, tensors: Any) -> None:
        """Count the bytes of tensors an entry keeps alive for the backward pass (activations)."""
        new = 0
        kept = self.kept
        for t in tensors:
            k = id(t)
            if k not in kept and isinstance(t, Tensor):
                kept.add(k)
                if type(t) is Tensor:
                    new += t._v.nbytes
                elif type(t).__name__.startswith("_Pruned"):   # (a tf.function retry's stand-in: its zeros' bytes)
                    from simdist.runtime.ops import pruning
                    new += pruning.standin_array(t).nbytes
                else:
                    new += t._a.nbytes
        if new:
            self.kept_bytes += new
            cost.hold(new)

    def release(self) -> None:
        if self.kept_bytes:
            cost.release(self.kept_bytes)
            self.kept_bytes = 0

    # --- watching ---------------------------------------------------------------------------------
    def watch(self, x: Any) -> None:
        k = id(x)
        if k not in self.tensor_tape:
            self.tensor_tape[k] = -1
            self.leaves[k] = x

    def watch_variable(self, v: Any, shown: Any = None) -> None:
        key = variable_key(v)
        self.watch(key)
        shown = v if shown is None else shown
        if all(w is not shown for w in self.watched_vars):
            self.watched_vars.append(shown)

    # --- recording ---------------------------------------------------------------------------------
    def should_record(self, inputs: Sequence[Any]) -> bool:
        tt = self.tensor_tape
        for t in inputs:
            if id(t) in tt and trainable(t.dtype):
                return True
        return False

    def record(self, op_type: str, inputs: Sequence[Any], input_ids: tuple, outputs: tuple,
               backward: Callable[..., Any], none_ok: tuple[int, ...] = ()) -> None:
        op_id = self.next_id
        self.next_id += 1
        out_ids = tuple(id(o) for o in outputs)
        self.op_tape[op_id] = _Entry(op_type, input_ids, out_ids, backward, outputs, none_ok)
        for k in out_ids:
            self.tensor_tape[k] = op_id
        self.keep(inputs)
        self.keep(outputs)

    # --- interpreter of dispatch (execution.Interpreter) ------------------------------------------------
    def op(self, op: OpDef, tensors: Sequence[Tensor], outs: tuple, attrs: dict | None) -> tuple:
        if op.name == "StopGradient" or not self.should_record(tensors):
            # TF 2.21's tape never records StopGradient: its output is not watched, so the ops
            # that use it are not recorded either (a Unique after it is never walked)
            return outs
        tt = self.tensor_tape
        skip = tuple(i for i, t in enumerate(tensors) if id(t) not in tt or not trainable(t.dtype))
        call = OpCall(op, tuple(tensors), outs, attrs, skip)
        xla = context._xla_depth[0] > 0   # (recorded in an XLA-compiled call: TF compiles its gradient too)

        def backward(*out_grads: Any) -> Any:
            from simdist.runtime.ops.registry import NO_GRADIENT, gradient_function
            fn = gradient_function(op)
            if fn is NO_GRADIENT:
                return [None] * len(call.inputs)
            if op.name not in _SLICES_THROUGH:
                out_grads = _densify_slices(out_grads)
            if xla:
                with context.in_xla_call():
                    return fn(call, *out_grads)
            return fn(call, *out_grads)
        self.record(op.name, tensors, tuple(id(t) for t in tensors), outs, backward, op.none_grad_ok)
        return outs

    def _accessed(self, var: Any, t: Tensor) -> bool:
        """A variable was read into t: watch it if this tape watches accessed trainable
        variables; whether the read is to be recorded: whenever the variable is watched, of any
        dtype (TF's ReadVariableOp takes the resource handle, which the tape records: the
        gradient of an int32 variable's own read is ones, while ops on that read are not
        recorded, their inputs being integers; docs/spec.md ops.gradient-none-or-zeros)."""
        owner = getattr(var, "_distributed_container", None)
        if owner is None:
            owner = var
        if self.watch_accessed and getattr(owner, "trainable", True):
            self.watch_variable(var, owner)
        return id(var) in self.tensor_tape

    def read(self, var: Any, t: Tensor) -> Tensor:
        if self._accessed(var, t):
            self.record("ReadVariableOp", (var,), (id(var),), (t,), lambda g: [g])
        return t

    def gathered(self, var: Any, indices: Tensor, t: Tensor) -> Tensor:
        if not self._accessed(var, t):
            return t
        shape = var.shape.as_list()

        def backward(g: Any) -> list:
            # TF's _GatherGrad for ResourceGather: the rows' gradient as IndexedSlices
            from simdist.runtime.indexed_slices import IndexedSlices
            from simdist.runtime.ops import array
            n = int(np.prod(indices.shape.as_list(), dtype=np.int64))
            return [IndexedSlices(array.reshape(g, [n] + shape[1:]), array.reshape(indices, [n]),
                                  array.constant(shape, dtype="int32")), None]
        self.record("ResourceGather", (var, indices), (id(var), id(indices)), (t,), backward)
        return t



# Op types whose gradient functions take an IndexedSlices gradient as it is (TF's _IdGrad,
# _CastGrad, Neg, _AddNGrad, _AddGrad/_SubGrad of a skipped scalar input, _ConcatGradHelper);
# every other gradient function gets it dense, as TF's ops convert IndexedSlices to a tensor
# (`tf.gather(tf.sqrt(v), ...)`: SqrtGrad of the dense gradient; second fuzzer, seed 7 #2)
_SLICES_THROUGH = frozenset({"Identity", "Cast", "Neg", "AddN", "AddV2", "Sub", "ConcatV2"})


class CallOps(execution.Interpreter):
    """The ops an eager tf.function call under a recording tape runs (`check_function_backward`): each op with its
    inputs' ids, its outputs, and whether an input is one of the graph's inputs or computed from one (graph_constants'
    VARYING: an argument, a variable read)."""

    __slots__ = ("ops", "sources", "kept")

    def __init__(self, args: Any = ()) -> None:
        self.ops: list[tuple[Any, tuple, tuple, bool]] = []
        self.kept: list[Any] = [t for t in nest.flatten(args) if isinstance(t, Tensor)]
        self.sources: set[int] = {id(t) for t in self.kept}   # (the call's tensor arguments and variable reads)

    def op(self, opdef: Any, tensors: Any, outs: tuple, attrs: dict | None) -> tuple:
        from simdist.runtime.ops import graph_constants
        fed = any(isinstance(t, Tensor) and (id(t) in self.sources or
                                             graph_constants.level(t) == graph_constants.VARYING) for t in tensors)
        if fed:   # (a replay's tensors carry no marks: what the inputs feed is fed too)
            self.sources.update(id(o) for o in outs)
            self.kept.extend(outs)
        self.ops.append((opdef, tuple(id(t) for t in tensors), outs, fed))
        return outs

    def read(self, var: Any, t: Any) -> Any:
        self.sources.add(id(t))
        self.kept.append(t)
        return t

    def gathered(self, var: Any, indices: Any, t: Any) -> Any:
        return self.read(var, t)


def check_function_backward(ops: CallOps, outputs: Any) -> None:
    """TF's backward function of a tf.function called under a recording tape (concrete_function.py
    `_select_forward_and_backward_functions`: a first-order or higher-order tape's forward and backward pair is built
    at the call, `_build_functions_for_outputs`), which runs gradients_util._GradientsHelper from the function's
    trainable outputs to all its inputs (watched or not): an op between them whose trainable output receives a
    gradient and that has no gradient registered at all (not `NotDifferentiable`, whose inputs get None; a
    StopGradient before it does not matter) is LookupError "No gradient defined for operation'<op>' ..." at the
    call, where eagerly the tape gives None (tf.unique; observed on TF 2.21). `ops` are the call's ops (`CallOps`);
    an op is between when an input is VARYING, and receives a gradient when one of its trainable outputs reaches
    a trainable output of the call through ops with a gradient, along trainable tensors. Only ops marked with
    counting.no_tf_gradient count (a simdist op without a gradient of its own is not known to be one of TF's)
    (clause autodiff.op-gradients)."""
    from simdist.runtime.ops import registry
    from simdist.runtime.ops.registry import NO_GRADIENT, SYMBOLIC_GRADIENTS, gradient_function
    outs = {id(o) for o in nest.flatten(outputs) if isinstance(o, Tensor) and trainable(o.dtype)}
    if not outs:
        return
    for k, (op, _, made, fed) in enumerate(ops.ops):
        if not fed or not getattr(op.grad, "no_tf_gradient", False):   # (only the ops TF is known to register none for)
            continue
        reached = {id(o) for o in made if isinstance(o, Tensor) and trainable(o.dtype)}
        for lop, ids, lmade, _ in ops.ops[k + 1:]:
            if lop.grad is not NO_GRADIENT and any(i in reached for i in ids):
                reached.update(id(o) for o in lmade if isinstance(o, Tensor) and trainable(o.dtype))
        if not reached.isdisjoint(outs):
            token = SYMBOLIC_GRADIENTS.set(True)
            try:
                gradient_function(registry.OpDef(op.name, lambda: None, lambda d, a: None, kind="shape"))
            finally:
                SYMBOLIC_GRADIENTS.reset(token)


def _densify_slices(grads: tuple) -> tuple:
    from simdist.runtime.indexed_slices import IndexedSlices
    from simdist.runtime.tensor import convert_to_tensor
    return tuple(convert_to_tensor(g) if isinstance(g, IndexedSlices) else g for g in grads)


class GradientTape:
    """`tf.GradientTape(persistent=False, watch_accessed_variables=True)`."""

    def __init__(self, persistent: bool = False, watch_accessed_variables: bool = True) -> None:
        self._tape: _Tape | None = None
        self._persistent = bool(persistent)
        self._watch_accessed_variables = bool(watch_accessed_variables)
        self._watched_variables: tuple = ()
        self._recording = False

    def __del__(self) -> None:
        # A tape freed by reference counting gives its kept bytes back where the program drops it;
        # one freed by the cyclic collector keeps them booked: the collector runs when the process's
        # allocation counts say so, and a release then would change the held bytes (tape peaks, and
        # a tf.function or tf.data function being recorded at that moment, which checks them) at a
        # point set by everything the process ran before (runtime/gc_phase.py).
        tape = getattr(self, "_tape", None)
        if tape is not None and not gc_phase.collecting():
            try:
                tape.release()
            except Exception:  # noqa: BLE001 - at interpreter exit the modules may be gone
                pass

    # --- the context ----------------------------------------------------------------------------------
    def __enter__(self) -> "GradientTape":
        self._push_tape()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._recording:
            self._pop_tape()

    def _push_tape(self) -> None:
        if self._recording:
            raise ValueError("Tape is still recording, This can happen if you try to re-enter an already-active "
                             "tape.")
        if self._tape is None:
            self._tape = _Tape(self._persistent, self._watch_accessed_variables)
        # (the tf.function depth the tape records at: a tape of the function itself puts its gradient's ops in the
        # function's graph, whose kernels TF instantiates before any runs: conv2d_eigen.channels_first)
        self._tape.function_depth = context._function_depth
        execution.current().push_tape(self._tape)
        self._recording = True

    def _pop_tape(self) -> None:
        if not self._recording:
            raise ValueError("Tape is not recording.")
        execution.current().pop_tape(self._tape)
        self._recording = False

    @contextlib.contextmanager
    def _ensure_recording(self) -> Iterator[None]:
        if not self._recording:
            try:
                self._push_tape()
                yield
            finally:
                self._pop_tape()
        else:
            yield

    @contextlib.contextmanager
    def stop_recording(self) -> Iterator[None]:
        """Ops run inside are not recorded on this tape."""
        if self._tape is None:
            raise RuntimeError("Trying to stop recording a tape which is not recording.")
        self._pop_tape()
        try:
            yield
        finally:
            self._push_tape()

    def reset(self) -> None:
        """Forget everything recorded (as exiting and re-entering with a new tape)."""
        self._pop_tape()
        if self._tape is not None:
            self._tape.release()
        self._tape = None
        self._push_tape()

    # --- watching ----------------------------------------------------------------------------------------
    def watch(self, tensor: Any) -> None:
        """Record the ops that use `tensor` (a tensor, a variable, or a nested structure of them)."""
        for t in nest.flatten(tensor):
            if not isinstance(t, Tensor) and (not _is_variable(t) or hasattr(t, "_simdist_variable")):
                # (a Keras variable is refused, as TF 2.21 refuses keras.Variable: watch its `.value`)
                raise ValueError(f"Passed in object {t} of type {type(t).__name__!r}, not tf.Tensor or tf.Variable "
                                 "or ExtensionType.")
            if not trainable(t.dtype):
                _log.warning("The dtype of the watched tensor must be floating (e.g. tf.float32), got %r", t.dtype)
            assert self._tape is not None
            aside = execution.current().aside
            if aside is not None:   # (a tf.function recording under this tape: runtime/interpret.Deferred)
                aside.touch(self._tape)
            if isinstance(t, Tensor):
                self._tape.watch(t)
            else:
                self._tape.watch_variable(t)

    def watched_variables(self) -> tuple:
        """The variables this tape watches, in the order they were made (TF's set by handle id)."""
        if self._tape is not None:
            self._watched_variables = tuple(in_creation_order(self._tape.watched_vars))
        return self._watched_variables

    # --- gradients -------------------------------------------------------------------------------------------
    def gradient(self, target: Any, sources: Any, output_gradients: Any = None,
                 unconnected_gradients: Any = UnconnectedGradients.NONE) -> Any:
        """d(sum of targets)/d(source) for each source, in the structure of `sources`."""
        if self._tape is None:
            raise RuntimeError("A non-persistent GradientTape can only be used to compute one set of gradients "
                               "(or jacobians)")
        if self._recording:
            if not self._persistent:
                self._pop_tape()
            else:
                _log.warning("Calling GradientTape.gradient on a persistent tape inside its context is "
                             "significantly less efficient than calling it outside the context (it causes the "
                             "gradient ops to be recorded on the tape, leading to increased CPU and memory usage). "
                             "Only call GradientTape.gradient inside the context if you actually want to trace the "
                             "gradient in order to compute higher order derivatives.")
        if target is None:
            raise TypeError("Argument `target` should be a list or nested structure of Tensors, Variables or "
                            "CompositeTensors to be differentiated, but received None.")
        unconnected = _unconnected(unconnected_gradients)
        flat_targets = nest.flatten(target)
        flat_sources = nest.flatten(sources)
        from simdist.runtime.autodiff.gradient_args import check_targets_and_sources
        check_targets_and_sources(flat_targets, flat_sources,
                                  lambda x: isinstance(x, Tensor) or _is_variable(x) or hasattr(x, "_simdist_variable")
                                  or type(x).__name__ == "IndexedSlices")
        for s in flat_sources:
            if type(s).__name__ == "IndexedSlices":   # (TF 2.21 fails looking for a tensor id)
                raise AttributeError("'IndexedSlices' object has no attribute '_id'")
        if output_gradients is not None:
            flat_og = nest.flatten(output_gradients)
            if any(g is None for g in flat_og) and len(flat_og) > 1:
                # (TF 2.21 turns each entry into a tensor before looking at it)
                raise ValueError("Attempt to convert a value (None) with an unsupported type (<class 'NoneType'>) to "
                                 "a Tensor.")
            output_gradients = [None if g is None else _as_tensor(g) for g in flat_og]
        with cost.section("backward"):
            grads = backprop.imperative_grad(self._tape, flat_targets, flat_sources, output_gradients, unconnected,
                                             taped_sources=True)
        if not self._persistent:
            self._watched_variables = tuple(in_creation_order(self._tape.watched_vars))
            self._tape.release()
            self._tape = None
        return nest.pack_sequence_as(sources, grads)

    def _consumed(self) -> None:
        """A non-persistent tape after its one set of gradients (TF's jacobian calls `gradient`, which stops the
        tape's recording and drops it: a later gradient is RuntimeError)."""
        tape = self._tape
        if self._recording:
            self._pop_tape()
        self._watched_variables = tuple(in_creation_order(tape.watched_vars))
        tape.release()
        self._tape = None

    def jacobian(self, target: Any, sources: Any, unconnected_gradients: Any = UnconnectedGradients.NONE,
                 parallel_iterations: Any = None, experimental_use_pfor: bool = True) -> Any:
        """d target[i...] / d source[j...] for each source: shape target.shape + source.shape.
        (IndexedSlices gradients are made dense, as TF does.)"""
        if self._tape is None:
            raise RuntimeError("A non-persistent GradientTape can only be used to compute one set of gradients "
                               "(or jacobians)")
        if not experimental_use_pfor and not self._persistent:
            raise RuntimeError("GradientTape must be created with persistent=True to compute the jacobian with "
                               "eager execution enabled and  with experimental_use_pfor set to False.")
        from simdist.runtime.ops import array
        unconnected = _unconnected(unconnected_gradients)
        flat_sources = nest.flatten(sources)
        t_shape = target.shape.as_list()
        with self._ensure_recording():
            flat_target = array.reshape(target, [-1])
        n = int(flat_target.shape[0])
        if _pfor_refuses(parallel_iterations, experimental_use_pfor, n, self._persistent):
            if not self._persistent:
                self._consumed()
            raise ValueError(_VECTORIZING.format("jacobian"))
        if n == 0 and not experimental_use_pfor:
            # TF's for_loop of no iterations stacks (0,)-shaped outputs, reshaped to the target's shape:
            # set_shape(target.shape + source.shape) refuses the first source of rank 1 or more
            for src in flat_sources:
                s_shape = src.shape.as_list()
                if s_shape:
                    raise ValueError(f"Tensor's shape {tuple(t_shape)} is not compatible with supplied shape "
                                     f"{tuple(t_shape + s_shape)}.")
        rows: list[list[Any]] = [[] for _ in flat_sources]
        tape = self._tape
        for i in range(n):
            with self._ensure_recording():
                y = array.strided_slice(flat_target, i)
            with cost.section("backward"):
                g = backprop.imperative_grad(tape, [y], flat_sources, None, unconnected, taped_sources=True)
            for k, gk in enumerate(g):
                rows[k].append(None if gk is None else _dense(gk))
        if not self._persistent:
            self._consumed()
        out = []
        for k, src in enumerate(flat_sources):
            if any(r is None for r in rows[k]):
                out.append(None)
                continue
            s_shape = src.shape.as_list()
            out.append(array.reshape(array.stack(rows[k]) if rows[k] else array.zeros([0] + s_shape, src.dtype),
                                     t_shape + s_shape))
        return nest.pack_sequence_as(sources, out)

    def batch_jacobian(self, target: Any, source: Any, unconnected_gradients: Any = UnconnectedGradients.NONE,
                       parallel_iterations: Any = None, experimental_use_pfor: bool = True) -> Any:
        """Per-example jacobians: [b, y1.., x1..] where target[i] depends only on source[i]."""
        if self._tape is None:
            raise RuntimeError("A non-persistent GradientTape can only be used tocompute one set of gradients "
                               "(or jacobians)")
        t_shape, s_shape = target.shape.as_list(), source.shape.as_list()
        if len(t_shape) < 2 or len(s_shape) < 2 or t_shape[0] != s_shape[0]:
            raise ValueError(f"Need first dimension of target shape ({target.shape}) and source shape "
                             f"({source.shape}) to match.")
        if not experimental_use_pfor and not self._persistent:
            raise RuntimeError("GradientTape must be created with persistent=True to compute the batch_jacobian "
                               "with eager execution enabled and  with experimental_use_pfor set to False.")
        from simdist.runtime.ops import array
        unconnected = _unconnected(unconnected_gradients)
        b = t_shape[0]
        row = int(target.shape.num_elements()) // b
        if _pfor_refuses(parallel_iterations, experimental_use_pfor, row, self._persistent):
            if not self._persistent:
                self._consumed()
            if parallel_iterations is not None and parallel_iterations > 1:
                # (the loop function's own check on its second call, raised inside pfor's tf.function)
                raise RuntimeError("in user code:\n\n\n    RuntimeError: GradientTape must be created with "
                                   "persistent=True to compute the batch_jacobian with parallel_iterations.\n")
            raise ValueError(_VECTORIZING.format("batch_jacobian"))
        with self._ensure_recording():
            flat = array.reshape(target, [b, row])
        tape = self._tape
        cols = []
        for j in range(row):
            with self._ensure_recording():
                y = array.strided_slice(flat, (slice(None), j))
            with cost.section("backward"):
                g = backprop.imperative_grad(tape, [y], [source], None, unconnected, taped_sources=True)[0]
            cols.append(None if g is None else _dense(g))
        if not self._persistent:
            self._consumed()
        if not cols or cols[0] is None:     # unconnected: zeros, as TF's pfor gives them
            return array.zeros(t_shape + s_shape[1:], target.dtype)
        out = array.reshape(array.stack(cols), [row, b, -1])
        out = array.transpose(out, [1, 0, 2])
        return array.reshape(out, t_shape + s_shape[1:])


_VECTORIZING = ("Encountered an exception while vectorizing the {} computation. Vectorization can be disabled by "
                "setting experimental_use_pfor to False.")


def _pfor_refuses(parallel_iterations: Any, use_pfor: bool, n: int, persistent: bool) -> bool:
    """Whether TF 2.21's pfor (parallel_for/control_flow_ops.py `_pfor_impl`, run by jacobian over the target's n
    elements and by batch_jacobian over a row's) fails, after its first call of the loop function (a gradient, which
    consumes a non-persistent tape): parallel_iterations below 2 always ("Found `parallel_iterations == 1`. Use
    `for_loop` instead.", a ValueError jacobian and batch_jacobian re-raise as "Encountered an exception while
    vectorizing ..."); 2 <= parallel_iterations <= n on a non-persistent tape, where pfor tiles the loop and calls the
    loop function again (jacobian's second gradient is None, whose stacking is ValueError; batch_jacobian's function
    refuses a second call, RuntimeError). Above n pfor computes as without the argument. Observed (lead61)."""
    if not use_pfor or parallel_iterations is None:
        return False
    if parallel_iterations <= 1:
        return True
    return not persistent and parallel_iterations <= n


def _unconnected(value: Any) -> str:
    v = getattr(value, "value", value)
    if v not in (UnconnectedGradients.NONE.value, UnconnectedGradients.ZERO.value):
        raise ValueError(f"Unknown value for unconnected_gradients: {value!r}")
    return v


def _as_tensor(x: Any) -> Tensor:
    from simdist.runtime.tensor import convert_to_tensor
    return convert_to_tensor(x)


def _dense(g: Any) -> Tensor:
    if isinstance(g, Tensor):
        return g
    return g._as_tensor()


# --- recording user-defined ops (tf.custom_gradient) -----------------------------------------------------
def keyed(inputs: Sequence[Any]) -> list[Any]:
    """Inputs of a custom-gradient op as the tapes key them: tensors themselves, a variable by
    the object its reads are keyed by (variable_key: the replica's own copy)."""
    return [variable_key(x) if _is_variable(x) else x for x in inputs]


def record_operation(op_type: str, outputs: Sequence[Tensor], inputs: Sequence[Any],
                     backward: Callable[..., Any]) -> None:
    """Record an op on every active tape that watches one of its inputs (TF's
    record.record_operation): `backward(*output_grads)` returns one gradient per input. It is
    the CustomGradient op (runtime/ops/custom.py), bound through dispatch like any other op."""
    from simdist.runtime.ops import custom
    custom.bind(op_type, keyed(inputs), outputs, backward)


class VariableWatcher(execution.Interpreter):
    """Notes the variables read inside (TF's record.VariableWatcher), whether or not a tape records."""

    def __enter__(self) -> "VariableWatcher":
        self._seen: list[Any] = []
        execution.current().push_tape(self)
        return self

    def __exit__(self, *exc: object) -> None:
        execution.current().pop_tape(self)

    def read(self, var: Any, t: Tensor) -> Tensor:
        owner = getattr(var, "_distributed_container", None)
        if owner is None:
            owner = var
        if getattr(owner, "trainable", True) and all(s is not owner for s in self._seen):
            self._seen.append(owner)
        return t

    def watched_variables(self) -> list[Any]:
        """The trainable variables read while watching, in the order they were made (as a tape's)."""
        return in_creation_order(self._seen)
