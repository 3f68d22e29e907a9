"""`tf.function`: a decorator whose functions run their Python once per input signature and
replay the recorded ops after, as TF traces a function once and runs its graph after.

A call records (simdist.runtime.graph.record_call) the first time it meets an input signature
(tensors by dtype, shape and device, distributed values by their components, Python scalars by
value) in a context (strategy and replica context, device scope); later calls with that
signature replay the recorded ops, collectives, variable writes and simulator charges, without
running the Python again: its side effects happen at trace time only, as on TF. A call whose
Python reads a tensor's value, takes other arguments, or does anything else the recorder
cannot see runs eagerly every time, as do calls inside another recorded call, an open cost
section or a ClusterCoordinator closure (the coordinator replays those itself: see
`Function._scheduled`). Calls under a GradientTape and inside a strategy.run replica trace
as TF's do (once per signature, and per replica, whose device is part of the context): under a
tape the first call records with the tapes set aside and hands them its ops after, and later
calls replay op by op through dispatch so the tapes see each op (runtime/interpret.py); in a
replica the call records and replays in the replica's execution context. The tapes around a
call see into the replicas of a strategy.run it runs, as TF's tape differentiates the
function's graph (runtime/function_tapes.py). `SIMDIST_TRACE_FUNCTIONS=0` runs every call eagerly.
"""

from __future__ import annotations

import collections
import contextlib
import functools
from typing import Any, Callable

from simdist.runtime import call_outputs
from simdist.runtime import facade_calls as _facade_calls
from simdist.runtime import context as _context
from simdist.runtime import execution as _execution
from simdist.runtime import variable_creation as _creation
from simdist.tf import _autograph_errors
from simdist.runtime import variables as _variables
from simdist.runtime.function_type import register_function_type


_UNSET = object()   # (no output yet: Function._invoke)
_SIGNED = ("signature", "a call")   # (the concrete side of an input_signature call's `_serving`)


def _pruning() -> Any:
    from simdist.runtime.ops import pruning
    return pruning


class Function:
    """A `tf.function`-decorated callable. `python_function` is the undecorated function."""
    _simdist_trackable = True   # a TF Trackable: tf.train.Checkpoint takes it (runtime/trackable.py)

    def __init__(self, fn: Callable[..., Any], input_signature: Any = None, **options: Any) -> None:
        self.python_function = fn
        self.input_signature = input_signature
        self._options = options
        self._graph: Any = None    # simdist.runtime.graph: None (not recorded yet), a Graph or Untraceable
        self._replay: Any = None   # the Graph's run
        self._calls: dict[Any, Any] = {}   # (input signature, context) -> Graph or Untraceable (see __call__)
        self._machine: Any = None          # the simulated machine the recorded calls ran on
        # (TF's FunctionType of an input_signature, made here: its TypeErrors are the decorator's; tf/_signature.py)
        self._ftype: Any = None
        self._ftext: Any = None
        if isinstance(input_signature, (list, tuple)):
            from simdist.tf import _signature
            self._ftype = _signature.function_type(fn, input_signature)
            if self._ftype is not None:
                self._ftext = _signature.type_text(fn, self._ftype)
                self.input_signature = _signature.derived_signature(input_signature, self._ftype)
            # (a signature whose specs reach a keyword-only parameter: every trace's TypeError, _signature.py)
            self._trace_refusal = _signature.trace_refusal(self._ftype, self._ftext)
        functools.update_wrapper(self, fn)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if _execution.current().client.functions_eagerly:
            # tf.config.run_functions_eagerly(True): TF calls the Python as it is, before binding
            # the signature, converting arguments or counting a trace (polymorphic_function.py
            # `__call__`; clause function.run-eagerly)
            return self.python_function(*args, **kwargs)
        if _context._function_depth:   # (a call inside a function: the outermost call places the outputs)
            return self._checked_call(args, kwargs)
        return call_outputs.on_call_device(self._checked_call(args, kwargs))

    def _checked_call(self, args: tuple, kwargs: dict) -> Any:
        if _execution.current().tapes and not _context._function_depth:
            # (an eager call a tape records: TF builds the call's backward function first, whose op without a
            # gradient is LookupError; runtime/autodiff/tape.py `check_function_backward`)
            from simdist.runtime.autodiff import tape as _tape
            c = _execution.current()
            before, log = c.observers, _tape.CallOps((args, kwargs))
            c.observers = list(before) + [log]
            try:
                out = self._call_once(args, kwargs)
            finally:
                c.observers = before
            # (a later call replays the recording, whose ops the log does not see: the answer of the call that ran the
            # Python is kept per call kind, as TF builds the backward function of the one concrete function again)
            from simdist.tf import _tracing_count
            try:
                key: Any = _tracing_count.call_key(self.python_function, self.input_signature, args, kwargs)
                hash(key)
            except Exception:  # noqa: BLE001 - an unhashable kind is not remembered
                key = None
            known = self.__dict__.setdefault("_backward_errors", {})
            if log.ops:
                try:
                    _tape.check_function_backward(log, out)
                except LookupError as e:
                    if key is not None:
                        known[key] = str(e)
                    raise
                if key is not None:
                    known.pop(key, None)
            elif key is not None and key in known:
                raise LookupError(known[key])
            return out
        return self._call_once(args, kwargs)

    def _call_once(self, args: tuple, kwargs: dict) -> Any:
        if self._options.get("jit_compile"):   # (XLA's kernel rules, for the call and its ops' gradients)
            with _context.in_xla_call():
                return self._xla_call(args, kwargs)
        return self._invoke(args, kwargs)

    def _xla_call(self, args: tuple, kwargs: dict) -> Any:
        """A jit_compile=True call: XLA has no string type, so a graph whose arguments (_Arg) or results (_Retval)
        hold a string tensor fails its compilation after the trace, before anything runs: InvalidArgumentError
        "Detected unsupported operations ... on XLA_CPU_JIT: _Arg" (or _Retval), the trace counted, its variable
        writes never made; a later call of that trace raises again without tracing (TF 2.21 observed, fix66t's
        probe_jit.py; the ops inside are runtime/ops/xla_unsupported.py's; clause function.xla-unsupported-ops)."""
        from simdist.runtime.ops import xla_unsupported
        from simdist.tf import _tracing_count
        refused = self.__dict__.get("_xla_refused")
        try:
            key: Any = _tracing_count.call_key(self.python_function, self.input_signature, args, kwargs)
            hash(key)
        except TypeError:
            key = None
        if refused and key in refused:
            raise xla_unsupported.unsupported(refused[key])
        with _variables.trace_writes() as journal:
            out = self._invoke(args, kwargs)
            boundary = "_Arg" if _holds_string((args, kwargs)) else "_Retval" if _holds_string(out) else None
            if boundary is not None:
                _variables.undo_trace_writes(journal)
        if boundary is None:
            return out
        if key is not None:
            self.__dict__.setdefault("_xla_refused", {})[key] = boundary
        raise xla_unsupported.unsupported(boundary)

    def _invoke(self, args: tuple, kwargs: dict) -> Any:
        """A call as a traced function (whatever run_functions_eagerly says)."""
        if self.input_signature is not None:   # (TF binds the call to its signature first: tf/_signature.py)
            from simdist.tf import _signature
            args, kwargs = _signature.bind(self.python_function, self.input_signature, args, kwargs,
                                           self.__dict__.get("_ftype"), self.__dict__.get("_ftext"))
            if self.__dict__.get("_trace_refusal"):
                raise TypeError(self._trace_refusal)
        else:
            npos = self._positional()
            if npos >= 0 and (kwargs or len(args) != npos):
                # (TF binds the call to the Python's FunctionType before anything runs or traces: a call that does
                # not bind is its TypeError "Binding inputs to tf.function failed due to `too many positional
                # arguments`. ... for signature: (x).", not the Python's own; open47)
                try:
                    self._pysig.bind(*args, **kwargs)
                except TypeError as e:
                    from simdist.tf import _concrete, _signature
                    raise _concrete._binding(str(e), args, kwargs, _signature.type_text(self.python_function)) \
                        from None
            args, kwargs = _numpy_as_tensors(args, self._with_numpy_defaults(args, kwargs))
            _refuse_specs(self, args, kwargs)
        from simdist.runtime import symbolic
        # (a first call of its kind is a trace: when it raises, TF's graph with its variable writes
        # never runs, so the writes the Python made are undone)
        from simdist.tf import _tracing_count
        kind = concrete = _tracing_count.call_key(self.python_function, self.input_signature, args, kwargs)
        if self.input_signature is None:
            # (the trace TF runs the call with: an equal one, the most specific one taking it, or a new one,
            # relaxed with reduce_retracing; its unknown dimensions unknown to the Python: function.trace-once)
            concrete, kind = kind, self._dispatched(kind)
            args, kwargs = _tracing_count.relaxed_arguments(self.python_function, args, kwargs, concrete, kind)
        # (a function whose first call failed TF's singleton rule has no graph: each call traces again, and
        # its failed trace's writes never run)
        first = kind not in self.__dict__.get("_trace_keys", ()) or self.__dict__.get("_recreating", False)
        if not first and self.input_signature is None:
            # (an UnreadVariable argument of a call a trace serves: TF passes its variable's handle; a new trace's
            # Python sees the object itself, unreadable there when an eager update made it: _UnreadVariable._in_graph)
            args, kwargs = _variables.unread_as_variables(args, kwargs)
        # (placeholder names only for a trace: the Python of a later call of its kind does not run
        # in TF, and binding the signature on every call would cost the replay path)
        _mark_arguments(args, kwargs, symbolic.note, self.python_function if first else None)
        # (a call of a function with nothing recorded yet, after get_concrete_function, or only get_concrete_function's
        # recordings on placeholders, which a call of other concrete shapes need not replay (fix67t): its writes are
        # noted too, for a retry past an op TF prunes, runtime/ops/pruning.py)
        writes = _variables.trace_writes() if first or (_graph_mod().enabled and self._only_standins()) \
            else contextlib.nullcontext()
        journal = None
        pruned = self.__dict__.get("_pruned_keys", {}).get(kind)   # (errors a retry of this kind deferred)
        # (None before the first call; then whether that call created variables: TF's later traces
        # refuse any, runtime/variable_creation.py)
        creating = self.__dict__.get("_first_created")
        made = _creation.created()
        out: Any = _UNSET
        singleton = False
        serving = self.__dict__.get("_serving")
        # (the trace this call runs and the call's own key: a call a relaxed trace serves replays that
        # trace's recording when it is known to be shape-generic, `_polymorphic`)
        # (an input_signature's one trace serves every call it binds, whatever its concrete shapes: `_SIGNED`)
        self._serving = (kind, _SIGNED) if self.input_signature is not None else (kind, concrete)
        try:
            # (a first call's objects kept young while it runs: _creation.all_dropped asks about them after)
            watch = _creation.refused() if creating else _creation.watching([], first and creating is None)
            with symbolic.strictness(self._strict()), writes as journal, watch as watched, \
                    (_pruning().deferring(pruned) if pruned else contextlib.nullcontext()):
                with (contextlib.nullcontext() if first else _facade_calls.graph_built()):
                    out = _as_traced(self._call, args, kwargs)
                _unsliced(out)
                if pruned:
                    _pruning().check(out)
                if creating is None:
                    self._first_created = _creation.created() > made
                    if self._first_created and _creation.all_dropped(watched, journal) and \
                            self._recreates(args, kwargs):
                        # (TF's second trace of the first call, creation refused, created a variable
                        # again: the first call raises, its graph never ran; one trace counted)
                        self._count_trace(args, kwargs, kind)
                        singleton = self._recreating = True
                        raise ValueError(_creation.SINGLETON_ERROR)
        except Exception as e:
            if singleton:
                if journal is not None:
                    _variables.undo_trace_writes(journal)
                raise ValueError(_creation.SINGLETON_ERROR) from None
            from simdist.runtime import errors
            traced = journal if first else None   # (a trace's writes, undone when it fails)
            _autograph_errors.unframe(e, self.python_function, not self._strict())
            staged = _autograph_errors.staged(e, self.python_function, not self._strict())
            if staged is not None:   # (AutoGraph's re-raise of the trace's exception)
                if traced is not None:
                    _variables.undo_trace_writes(traced)
                raise staged from None
            # (an op error TF raises while it builds the graph, trace_errors.at_build, fails the trace
            # itself: no trace is counted, as for the marked ones; fz14 seed 14202612011 #1)
            if (isinstance(e, errors.OpError) or getattr(e, "_simdist_deferred_value", False)) and \
                    not getattr(e, "_simdist_trace_error", None) and not getattr(e, "_simdist_graph_build", False):
                if traced is not None:   # (a trace: a later op's graph-build error comes first)
                    from simdist.tf import _concrete
                    with symbolic.strictness(self._strict()):
                        built = _concrete.build_error(self, args, kwargs)
                    if built is not None:
                        _variables.undo_trace_writes(traced)
                        _autograph_errors.unframe(built, self.python_function, not self._strict())
                        raise built from None
                    if creating is None and _creation.created() > made and self._recreates(args, kwargs):
                        # (a first call that created variables: TF's second trace, creation refused, comes
                        # before the graph runs, so its singleton error before the run's op error)
                        _variables.undo_trace_writes(traced)
                        self._count_trace(args, kwargs, kind)
                        self._recreating = True
                        raise ValueError(_creation.SINGLETON_ERROR) from None
                if journal is not None and not pruned:
                    # (a stateless op TF prunes as unused: its kernel never runs; runtime/ops/pruning.py)
                    retried = self._pruned_retry(e, args, kwargs, journal, creating, made, kind)
                    if retried is not None:
                        if not retried[0]:
                            late = retried[1]
                            if isinstance(late, errors.OpError) or getattr(late, "_simdist_deferred_value", False):
                                self._count_trace(args, kwargs, kind)   # (an error of the graph's run)
                            # (else the Python's own error past the pruned op, the trace's: TF counts no trace;
                            # segment_min's refused segment_ids, then eig's UnboundLocalError of int64; fz42, fz14
                            # seed 1420423003 #201)
                            _autograph_errors.unframe(late, self.python_function, not self._strict())
                            raise late from None
                        out = retried[1]
                if out is _UNSET:
                    self._count_trace(args, kwargs, kind)   # (an error of the graph's run: the trace was made)
                    if journal is not None and getattr(e, "_simdist_no_kernel", False):
                        # (an op without a kernel for its dtype: TF's function instantiates every kernel before
                        # any op runs, so the call writes nothing; vsweep66's bool `assign` then `assign_add`)
                        _variables.undo_trace_writes(journal)
                    raise
            elif traced is not None:
                _variables.undo_trace_writes(traced)
            if out is _UNSET:
                raise
        finally:
            self._serving = serving
            if not symbolic.DEPTH[0]:
                symbolic.clear()
        if creating is False and _creation.created() > made:
            # (a later trace made with creation allowed, as the first call made none: TF runs it,
            # then raises; its later traces refuse creation)
            self._first_created = True
            if first:
                self._count_trace(args, kwargs, kind)
            raise ValueError(_creation.LATER_ERROR)
        if first:
            self._count_trace(args, kwargs, kind)
            if creating is None and self._first_created:
                # (TF's first call traces again with creation refused, and keeps both traces; the
                # Python of that second trace is simdist's next recording, so a function creating a
                # variable on every run raises on its second call here, on its first in TF)
                self._count_trace(args, kwargs, _NO_CREATION_TRACE)
        return out

    def _only_standins(self) -> bool:
        """Whether every recording kept is get_concrete_function's on placeholders (`_keep_placeholder_recording`),
        none yet a call's: a call then may record on its values, where a stateless op's kernel error that the
        placeholders' stand-in values did not meet comes first (eigvals of a [2, 3] matrix under a [None, None] spec,
        unused; TF prunes it), so `_invoke` notes its writes for `_pruned_retry`."""
        calls = self._calls
        if not calls:
            return True
        standins = self.__dict__.get("_standin_calls")
        return bool(standins) and len(calls) <= len(standins) and all(standins.get(k) is e for k, e in calls.items())

    def _recreates(self, args: tuple, kwargs: dict) -> bool:
        """Whether TF's second trace of a first call that created variables creates one again: TF
        2.21 traces the Python once with creation allowed and, when that trace created variables,
        again with a creator that refuses any (polymorphic_function.py `_initialize`, then
        `_no_variable_creation_config`); a function that creates a variable on every run raises
        ValueError on its first call (runtime/variable_creation.py). The second trace here is a dry
        run of the Python (tf/_concrete.py `dry_run`: its writes, charges and random draws undone)
        with creation refused; any other error it meets is left to the calls (fz44b, fz43_gen seeds
        43003, 43004). Asked only when no variable the first run created is kept after it: a kept one
        may be what a guard reads (the singleton pattern), whose second trace simdist runs at the
        next call's recording (an extra Python run now would be one more than TF's two)."""
        from simdist.tf import _concrete
        try:
            with _creation.refused():
                _concrete.dry_run(lambda: self._traced_python()(*args, **kwargs), [])
        except ValueError as e:
            return str(e) == _creation.SINGLETON_ERROR
        except Exception:  # noqa: BLE001 - only the singleton rule is asked here
            return False
        return False

    def _pruned_retry(self, err: BaseException, args: tuple, kwargs: dict, journal: Any, creating: Any,
                      made: int, kind: Any) -> tuple[bool, Any] | None:
        """A first call that `err`, a stateless op's kernel error, failed, run again with that error
        deferred (runtime/ops/pruning.py: TF prunes an op whose result nothing uses, so its kernel never
        runs), and again for each such error the retries meet (at most four): (True, outputs), or (False,
        the error the last retry met); None when `err` is no such error. Each retry's variable writes
        replace the failed run's (`journal`); the Python's own side effects happen again."""
        from simdist.runtime import errors, symbolic
        from simdist.runtime.ops import pruning
        key = pruning.prunable(err)
        if key is None:
            return None
        keys = [key]
        for _ in range(4):
            _variables.undo_trace_writes(journal)
            recorded = set(self._calls)
            try:
                with symbolic.strictness(self._strict()), _variables.trace_writes() as journal, \
                        pruning.deferring(keys), (_creation.refused() if creating else contextlib.nullcontext()):
                    out = _as_traced(self._call, args, kwargs)
                    pruning.check(out)
                    if creating is None:
                        self._first_created = _creation.created() > made
                # (a later call of the kind that runs the Python again defers the same errors)
                self.__dict__.setdefault("_pruned_keys", {})[kind] = keys
                return True, out
            except Exception as e:  # noqa: BLE001 - the call's error, or another op to prune
                for k in [k for k in self._calls if k not in recorded]:   # (a recording that holds a stand-in)
                    del self._calls[k]
                key = pruning.prunable(e) if isinstance(e, errors.OpError) or \
                    getattr(e, "_simdist_deferred_value", False) else None
                if key is None or key in keys:
                    return False, e
                keys.append(key)
        return False, err

    def _dispatched(self, key: Any) -> Any:
        """The trace key of a call of `key` (tf/_tracing_count.py `dispatch`: TF 2.21's function cache, with
        this function's reduce_retracing)."""
        from simdist.tf import _tracing_count
        seen = self.__dict__.get("_trace_keys", [])
        cache = self.__dict__.setdefault("_dispatch_cache", {})   # (key -> (traces then, their answer))
        try:
            hit = cache.get(key)
        except TypeError:   # (an unhashable key: asked afresh)
            hit, cache = None, None
        if hit is not None and hit[0] == len(seen):
            return hit[1]
        out = _tracing_count.dispatch(seen, key, bool(self._options.get("reduce_retracing")))
        if cache is not None:
            if len(cache) > 256:
                cache.clear()
            cache[key] = (len(seen), out)
        return out

    def _traced_python(self) -> Callable[..., Any]:
        """The Python a trace runs: python_function as AutoGraph converts it (autograph on; TF's converted
        function, tf/_autograph_convert.py, cached), or as it is."""
        fn = self.__dict__.get("_ag_fn")
        if fn is None or fn[0] is not self.python_function:
            from simdist.tf import _autograph_convert
            conv = self.python_function if self._strict() or not _autograph_errors._converted(
                self.python_function, True) else _autograph_convert.converted(self.python_function)
            fn = self._ag_fn = (self.python_function, conv)
        return fn[1]

    def _strict(self) -> bool:
        """Whether AutoGraph is off for this function (runtime/symbolic.py: graph tensors then
        refuse bool(), iteration, len() ... in any code, not only in code without a source)."""
        return not self._options.get("autograph", True)

    def _count_trace(self, args: tuple, kwargs: dict, kind: Any = None) -> None:
        """Note a call (or trace) that returned, for experimental_get_tracing_count (`kind`: its
        call key, when the caller has it)."""
        from simdist.tf import _tracing_count
        seen = self.__dict__.setdefault("_trace_keys", [])
        if kind is None:
            kind = _tracing_count.call_key(self.python_function, self.input_signature, args, kwargs)
            if self.input_signature is None:
                kind = self._dispatched(kind)
        _tracing_count.note(seen, kind)

    def experimental_get_tracing_count(self) -> int:
        """How many times TF would have traced this function so far (tf/_tracing_count.py)."""
        return len(self.__dict__.get("_trace_keys", ()))

    def _call(self, args: tuple, kwargs: dict) -> Any:
        from simdist.runtime import context, execution, function_tapes
        key = None
        if _graph_mod().enabled:
            traced = self._traced_call(args, kwargs)
            if type(traced) is not _Eager:
                return traced
            key = traced.key
        with context.in_function_call(), self._random_trace(key, args, kwargs), _arguments_marked(args, kwargs):
            c = execution.current()
            if not c.tapes:
                return _outputs_to_tensors(self._traced_python()(*args, **kwargs))
            # (as a traced call: the tapes see into the replicas of a strategy.run it runs)
            with function_tapes.seeing(c, c.tapes) as th:
                out = self._traced_python()(*args, **kwargs)
            function_tapes.check(th, th.tapes)
            return _outputs_to_tensors(out)

    def _random_trace(self, key: Any, args: tuple | None = None, kwargs: dict | None = None) -> Any:
        """A run of the Python as the trace of `key` (its graph seed, op seeds and kernels:
        runtime/ops/random_graphs.py, clause ops.random-in-function). A call that TF's function cache
        dispatches to a relaxed trace (reduce_retracing's, an input_signature's) runs as that one trace
        whatever its shapes: one set of kernels, their streams continuing across calls of any shape
        (nsweep62's n-fn-global-only)."""
        from simdist.runtime.ops import random_graphs
        traces = self.__dict__.get("_random_traces")
        if traces is None:
            traces = self._random_traces = {}
        if key is not None and args is not None and (self.input_signature is not None
                                                     or self._options.get("reduce_retracing")):
            from simdist.tf import _tracing_count
            try:
                kind = _tracing_count.call_key(self.python_function, self.input_signature, args, kwargs or {})
                tf_trace = kind if self.input_signature is not None else self._dispatched(kind)
                if tf_trace != kind or self.input_signature is not None:
                    relaxed = ("relaxed", tf_trace, key[1] if isinstance(key, tuple) and len(key) > 1 else None)
                    hash(relaxed)   # (only a check that it can key the traces: an unhashable one keeps `key`)
                    key = relaxed
            except TypeError:
                pass
        return random_graphs.scope(traces, key)

    def _with_numpy_defaults(self, args: tuple, kwargs: dict) -> dict:
        """kwargs plus the NumPy defaults of the parameters the call leaves out: TF binds a call's
        defaults into its arguments (FunctionType canonicalization), so a NumPy default reaches the
        Python as a tensor, like a NumPy argument (function.symbolic-tensors)."""
        found = self.__dict__.get("_np_defaults")
        if found is None:
            import inspect
            try:
                params = inspect.signature(self.python_function).parameters.values()
                found = tuple(p.name for p in params if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)
                              and p.default is not p.empty and _has_numpy(p.default))
            except (TypeError, ValueError):
                found = ()
            self._np_defaults = found
        if not found:
            return kwargs
        import inspect
        try:
            given = inspect.signature(self.python_function).bind_partial(*args, **kwargs).arguments
        except TypeError:
            return kwargs      # (the call raises Python's error)
        params = inspect.signature(self.python_function).parameters
        missing = {n: params[n].default for n in found if n not in given}
        return {**kwargs, **missing} if missing else kwargs

    def _positional(self) -> int:
        """How many positional parameters the Python function has when a call with that many
        positional arguments and no keywords is already canonical (else a number no call
        reaches: it has keyword-only parameters; -1: no signature)."""
        n = self.__dict__.get("_npos")
        if n is None:
            import inspect
            try:
                self._pysig = inspect.signature(self.python_function)
                params = self._pysig.parameters.values()
                n = sum(p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) for p in params)
                if any(p.kind is p.KEYWORD_ONLY for p in params):
                    n = 1 << 30
            except (TypeError, ValueError):
                n = -1
            self._npos = n
        return n

    def _canonical(self, args: tuple, kwargs: dict) -> tuple[tuple, dict] | None:
        """A call's arguments in the canonical form TF keys a call by: f(x, k=1) as f(x, 1), defaults filled in;
        None when they do not bind."""
        npos = self._positional()
        if npos >= 0 and (kwargs or len(args) < npos):
            try:
                bound = self._pysig.bind(*args, **kwargs)
            except TypeError:
                return None
            bound.apply_defaults()
            return bound.args, bound.kwargs
        return args, kwargs

    def _traced_call(self, args: tuple, kwargs: dict) -> Any:
        """The call's result from its recorded graph (recording it on the signature's first
        call), or _EAGER when it must run as plain Python (see the module's docstring)."""
        g = _graph_mod()
        mode = _trace_mode()
        if mode is None:
            return self._nested_call(g, args, kwargs)
        canonical = self._canonical(args, kwargs)
        if canonical is None:
            return _EAGER      # (the eager call raises Python's error)
        args, kwargs = canonical
        found = g.signature(args, kwargs)
        if found is None:
            # (a Python object among the arguments: TF traces such a call as any other, so its Python runs under a
            # recorder whose graph is not kept, where Grappler's rewrites apply; clause function.object-arguments)
            leaves = g.loose_leaves(args, kwargs)
            if leaves is None:
                return _EAGER
            return self._rerecorded(g, mode, None, args, kwargs, (None, leaves), arguments=True)
        from simdist import session
        if session._m is not self._machine:   # (a new simulated machine: simdist.configure/reset)
            self._calls.clear()
            self.__dict__.pop("_standin_calls", None)
            self.__dict__.pop("_random_traces", None)
            self.__dict__.pop("_nested", None)
            self._machine = session._m
        key = (found[0], _context_key())
        entry = self._calls.get(key)
        if entry is None:
            serving = self.__dict__.get("_serving")
            if serving is not None and serving[0] != serving[1] and serving[0] in self.__dict__.get("_trace_keys", ()):
                out = self._polymorphic(key, serving[0], found, args, kwargs, mode)
                if out is not _UNSET:
                    return out
            if serving is not None and serving[0] in self.__dict__.get("_trace_keys", ()) and \
                    self.__dict__.get("_arg_variables"):
                out = self._other_variables(key, serving[0], found, args, kwargs)
                if out is not _UNSET:
                    return out
            if len(self._calls) >= _MAX_TRACES:
                return _Eager(key)
            from simdist.runtime import context
            from simdist.strategies import timing
            # The call's own strategy.run FLOPs, counted from zero (not as a difference of the
            # process-long accumulator, which would round by its magnitude: by process history)
            run0, timing.run_flops_accum[0] = timing.run_flops_accum[0], 0.0
            try:
                with context.in_function_call(), self._random_trace(key, args, kwargs):
                    if mode is _UNDER_TAPE:
                        entry, result = _record_under_tapes(g, self._traced_python(), args, kwargs, found[1])
                    else:
                        fn, twins = self._traced_python(), None
                        kept = self.__dict__.get("_nested", {}).get(key, (None,))[0]
                        if kept is not None:   # (traced inside another function's trace: clause function.trace-once, "nested calls")
                            from simdist.runtime.graph import nested
                            twins = []
                            fn = functools.partial(_replay_kept, nested, kept, twins)
                        entry, result = g.record_call(fn, args, kwargs, found[1], _outputs_to_tensors, twins=twins,
                                                      keep_subnormal=True)
            finally:
                own = timing.run_flops_accum[0]
                timing.run_flops_accum[0] = run0 + own
            if serving is not None:
                self.__dict__.setdefault("_kinds", {})[key] = serving[0]
                held = _argument_variables((args, kwargs))
                if held:   # (the Variable arguments it was recorded with, for `_other_variables`)
                    self.__dict__.setdefault("_arg_variables", {})[key] = held
            if type(entry) is g.Graph:
                entry.run_flops = own
            elif entry.reason.startswith(_CREATES_VARIABLE) and not self.__dict__.get("_created_variables"):
                # TF lets a function create its variables on its first call (Keras's optimizer
                # slots and metrics built in the first step): that call ran eagerly, the next
                # call of the signature records again; later creations keep it eager.
                self._created_variables = True
                return _outputs_to_tensors(result)
            self._calls[key] = entry
            return _outputs_to_tensors(result)
        if type(entry) is not g.Graph:
            # (a call whose recording cannot be replayed runs its Python again, under a recorder whose graph is not
            # kept, so that Grappler's rewrites still apply, as TF runs the rewritten graph on every call: tf.gradients
            # reads the recording, a graph of subnormal values (fz14 seed 1420262201 #214), an iterator pulled inside
            # (`next(it)` of a captured iterator: the second call's `sum / 3.0` was the division's last bit, the first
            # call's the product by 1/3; clause function.object-arguments))
            return self._rerecorded(g, mode, key, args, kwargs, found)
        if entry.daz or any(t._sub for t in found[1]) or \
                (_variables.subnormal_seen[0] and any(v._sub for v in entry.reads)):
            # Subnormal values (its constants, the call's arguments, or a variable it reads that has held them since
            # it was recorded): TF's kernels read them as zeros, a compiled replay would not (ops.subnormals). TF
            # runs the graph it traced, its Python does not run again: the recording op by op through dispatch,
            # which models the kernels' rule (runtime/interpret.py); without one, the Python runs again.
            program = entry.program if mode is _UNDER_TAPE else entry.plain
            if program is None:
                return self._rerecorded(g, mode, key, args, kwargs, found)
            from simdist.runtime import interpret
            return _outputs_to_tensors(interpret.run(program, found[1]))
        if mode is _UNDER_TAPE:
            # (op by op through dispatch, so that the tapes record each op: runtime/interpret.py)
            if entry.program is None:
                return _Eager(key)
            from simdist.runtime import interpret
            return _outputs_to_tensors(interpret.run(entry.program, found[1]))
        out = entry.run(*[t._v if type(t) is _tensor_type() else t._a for t in found[1]])
        if entry.run_flops:
            from simdist.strategies import timing
            timing.run_flops_accum[0] += entry.run_flops
        return out

    def _nested_call(self, g: Any, args: tuple, kwargs: dict) -> Any:
        """A call inside another function's recording: TF traces the inner function into a function of its own
        (a call node of the outer graph), once per inner signature, and keeps the trace whatever becomes of the
        outer one. The first such call runs the Python under the outer recorder and keeps the ops it added as
        the inner trace's program; a later call of that signature (inside a recording, or eagerly: `_traced_call`)
        runs the kept program, or the eager recording's, through dispatch without the Python
        (runtime/graph/nested.py; clause function.trace-once, "nested calls"). Else _EAGER (plain Python)."""
        from simdist.runtime import context, execution
        from simdist.runtime.graph import nested
        c = execution.current()
        rec = c.recorder
        if rec is None or c.sections or c.transactions or c.charges or \
                any(o is not rec and not any(o is t for t in c.tapes) for o in c.observers):
            return _EAGER
        canonical = self._canonical(args, kwargs)
        if canonical is None:
            return _EAGER
        args, kwargs = canonical
        found = g.signature(args, kwargs)
        if found is None:
            return _EAGER
        from simdist import session
        if session._m is not self._machine:   # (a new simulated machine: simdist.configure/reset)
            self._calls.clear()
            self.__dict__.pop("_standin_calls", None)
            self.__dict__.pop("_random_traces", None)
            self.__dict__.pop("_nested", None)
            self._machine = session._m
        key = (found[0], _context_key())
        kept = self.__dict__.setdefault("_nested", {})
        programs = kept.get(key)
        if programs is None:
            entry = self._calls.get(key)
            if type(entry) is g.Graph and not entry.daz and nested.pure(entry.plain):
                programs = (entry.plain, entry.program if nested.pure(entry.program) else None)
        program = None if programs is None else programs[1] if c.tapes else programs[0]
        if program is not None:   # (the tapes around it see each op: interpret's taped program)
            with context.in_function_call():
                return _outputs_to_tensors(nested.replay(program, found[1]))
        if programs is not None or type(rec) is not g.Recorder:   # (in a cond's branch: plain Python)
            return _EAGER
        with context.in_function_call(), self._random_trace(key, args, kwargs), _arguments_marked(args, kwargs):
            result, programs = nested.capture(
                rec, found[1], lambda: _outputs_to_tensors(self._traced_python()(*args, **kwargs)))
        if programs is not None:
            kept[key] = programs
        return result

    def _polymorphic(self, key: Any, trace: Any, found: Any, args: tuple, kwargs: dict, mode: Any) -> Any:
        """A call of a new concrete signature that an existing trace `trace` serves (an input_signature's spec with
        unknown dimensions or rank, reduce_retracing's relaxed trace: TF 2.21 runs that trace's graph with the
        call's shapes, its Python does not run; clause function.trace-once): the result of replaying, op by op
        through dispatch on the call's tensors (runtime/interpret.py), a recording of that trace in this context
        that is shape-generic (`_generic`, else `_witnessed`); _UNSET when there is none (the Python then runs and
        records, as before)."""
        from simdist.runtime import interpret
        g = _graph_mod()
        if any(t._sub for t in found[1]):   # (subnormal arguments: recorded afresh, as for any replay)
            return _UNSET
        kinds = self.__dict__.get("_kinds", {})
        for k, e in self._calls.items():
            if k[1] != key[1] or type(e) is not g.Graph or e.program is None or kinds.get(k) != trace or \
                    not _same_but_shapes(k[0], key[0]):
                continue
            if _variables.subnormal_seen[0] and any(v._sub for v in e.reads):
                return _UNSET
            if self._generic(k, e) or self._witnessed(k, e, trace, args, kwargs, found, mode):
                return _outputs_to_tensors(interpret.run(e.program, found[1]))
        return _UNSET

    def _witnessed(self, k: Any, entry: Any, trace: Any, args: tuple, kwargs: dict, found: Any, mode: Any) -> bool:
        """Whether recording `entry` (of signature `k`, of trace `trace`) is the very program a recording of this
        call would be (`_same_program`), as `_generic` asks of two recordings, the second made here in a forked
        copy of the process (runtime/graph/witness.py), so that its Python's side effects are not this process's:
        TF runs a trace's Python once, whatever shapes its calls have. Asked once per trace and context; a `no`
        leaves the trace recording per concrete shape, as before (its Python once per shape). Not asked for a
        recording with a stateful op but tf.print's (`_generic`'s rule)."""
        done = self.__dict__.setdefault("_witness_asked", {})
        asked = (trace, k[1])
        if asked in done or any(st[0] == 1 and getattr(st[2], "stateful", False) and st[2].name != "PrintV2"
                                for st in entry.program[1]):
            return False
        from simdist.runtime.graph import witness
        g = _graph_mod()

        def same() -> bool:   # (a new trace's recording: its placeholders named, as `_invoke` names a first call's)
            from simdist.runtime import context, symbolic
            _mark_arguments(args, kwargs, symbolic.note, self.python_function)
            with context.in_function_call(), self._random_trace((found[0], k[1]), args, kwargs):
                if mode is _UNDER_TAPE:
                    other, _ = _record_under_tapes(g, self._traced_python(), args, kwargs, found[1])
                else:
                    other, _ = g.record_call(self._traced_python(), args, kwargs, found[1], _outputs_to_tensors,
                                             keep_subnormal=True)
            return type(other) is g.Graph and other.program is not None and not other.daz and \
                _same_program(entry.program, other.program)
        answer = witness.ask(same)
        done[asked] = bool(answer)
        if answer:
            self.__dict__.setdefault("_generic_keys", {})[k] = True
        return bool(answer)

    def _other_variables(self, key: Any, trace: Any, found: Any, args: tuple, kwargs: dict) -> Any:
        """A call whose Variable arguments are other variables of the same specs than those of a recording of the
        trace `trace` that serves it (no input_signature: TF 2.21's trace type of a Variable argument is its
        VariableSpec - shape, dtype and where it aliases another argument - so a second variable of the spec runs
        the first one's trace, its Python not again; clause function.trace-once): that recording replayed op by
        op through dispatch (runtime/interpret.py) with each recorded argument variable's reads and writes made on
        the call's variable in the same position; _UNSET when there is none (the Python then runs and records).
        A recording whose program holds an argument variable anywhere but in its reads and writes, draws random
        values or meets subnormals is not replayed so."""
        from simdist.runtime import interpret
        g = _graph_mod()
        new = _argument_variables((args, kwargs))
        if not new or any(type(v) is not _variables.ResourceVariable for v in new) or any(t._sub for t in found[1]) \
                or any(v._sub for v in new):
            return _UNSET
        done = self.__dict__.setdefault("_variable_programs", {})
        program = done.get(key)
        if program is None:
            held, kinds = self.__dict__.get("_arg_variables", {}), self.__dict__.get("_kinds", {})
            for k, e in self._calls.items():
                old = held.get(k)
                if old is None or k[1] != key[1] or type(e) is not g.Graph or e.program is None or \
                        kinds.get(k) != trace or not _same_but_variables(k[0], key[0]) or \
                        not _variables_alike(old, new) or _variable_ids(k[0]) != [id(v) for v in old] or \
                        _variable_ids(key[0]) != [id(v) for v in new]:
                    continue
                if _variables.subnormal_seen[0] and any(v._sub for v in e.reads) or \
                        any(st[0] == 1 and getattr(st[2], "stateful", False) and st[2].name != "PrintV2"
                            for st in e.program[1]):
                    return _UNSET   # (random kernels are their trace's: `_random_trace`, as `_generic` says)
                program = _with_variables(e.program, old, new)
                if program is not None:
                    break
            if program is None:
                return _UNSET
            if len(done) > 64:
                done.clear()
            done[key] = program
        return _outputs_to_tensors(interpret.run(program, found[1]))

    def _generic(self, key: Any, entry: Any) -> bool:
        """Whether recording `entry` (of signature `key`) computes the same for any concrete shape its trace
        takes: it has no stateful op but tf.print's (a random draw's kernel state is its graph's), and another recording
        of this function in the same context, made on other concrete shapes, has the very same steps (ops,
        attributes, constants, variables, devices and returned structure) - so no value the Python or an op
        wrapper took from a concrete dimension was baked into it (a recording on a static view that read
        `x.shape[0]` as 4, on a relaxed one that read None, differ, and such a trace keeps running its
        Python once per new shape, as before). Cached once known."""
        done = self.__dict__.setdefault("_generic_keys", {})
        if done.get(key):
            return True
        g = _graph_mod()
        if any(st[0] == 1 and getattr(st[2], "stateful", False) and st[2].name != "PrintV2" for st in entry.program[1]):
            return False
        for k, e in self._calls.items():
            if k != key and k[1] == key[1] and type(e) is g.Graph and e.program is not None and \
                    _same_program(entry.program, e.program):
                done[key] = True
                return True
        return False

    def _rerecorded(self, g: Any, mode: Any, key: Any, args: tuple, kwargs: dict, found: Any,
                    arguments: bool = False) -> Any:
        """The call's Python run under a recorder whose graph is not kept: what a graph the
        replay cannot model computes, with the graph's rewrites (runtime/ops/grappler.py).
        `arguments`: a call whose arguments the signature refused (an object among them), so that
        what they hold is marked as the graph's inputs, as `_call` marks them (composites' components
        the placeholders of their specs, ops.composite static shapes; no tensor in them a constant)."""
        from simdist.runtime import errors
        from simdist.runtime.ops import pruning
        if pruning._ACTIVE[0] is not None:   # (already a retry's run: its deferrals hold)
            return self._rerecorded_once(g, mode, key, args, kwargs, found, arguments)
        # (TF runs the pruned graph on every call, not only the tracing one: a stateless op whose result nothing
        # uses never runs, so its kernel error never comes; the Python run again defers it as the trace's retry
        # does, `_pruned_retry`, its variable writes undone first; fix67p)
        keys: list[Any] = []
        for _ in range(5):
            try:
                with _variables.trace_writes() as journal, \
                        (pruning.deferring(keys) if keys else contextlib.nullcontext()):
                    out = self._rerecorded_once(g, mode, key, args, kwargs, found, arguments)
                    if keys:
                        pruning.check(out)
                return out
            except Exception as e:  # noqa: BLE001 - an op TF prunes, else the call's error
                k = pruning.prunable(e) if isinstance(e, errors.OpError) or \
                    getattr(e, "_simdist_deferred_value", False) else None
                if k is None or k in keys:
                    raise
                _variables.undo_trace_writes(journal)
                keys.append(k)
        raise AssertionError("unreachable")   # pragma: no cover

    def _rerecorded_once(self, g: Any, mode: Any, key: Any, args: tuple, kwargs: dict, found: Any,
                         arguments: bool) -> Any:
        """`_rerecorded`'s one run of the Python."""
        from simdist.runtime import context
        with context.in_function_call(), self._random_trace(key, args, kwargs), \
                (_arguments_marked(args, kwargs) if arguments else contextlib.nullcontext()):
            if mode is _UNDER_TAPE:
                _, result = _record_under_tapes(g, self._traced_python(), args, kwargs, found[1])
            else:
                _, result = g.record_call(self._traced_python(), args, kwargs, found[1], _outputs_to_tensors)
            # (converted in the function, as func_graph converts: an eager update's _UnreadVariable returned
            # by a new trace is TypeError there, fz54d)
            return _outputs_to_tensors(result)

    def _scheduled(self, args: tuple, kwargs: dict) -> Any:
        """A call by the ClusterCoordinator on a worker. Without arguments it runs as TF runs a
        traced function: the Python body on the first call, its recorded graph after (see
        simdist.runtime.graph); otherwise eagerly."""
        return _as_traced(self._scheduled_call, args, kwargs)

    def _scheduled_call(self, args: tuple, kwargs: dict) -> Any:
        if self._graph is None and not args and not kwargs and _graph_mod().enabled:
            from simdist.runtime import context
            with context.in_function_call(), self._random_trace("scheduled"):
                graph, result = _graph_mod().record(self._traced_python(), _outputs_to_tensors)
            self._graph = graph
            if type(graph) is _graph_mod().Graph:
                self._replay = graph.run
            return _outputs_to_tensors(result)
        if self._replay is not None and not args and not kwargs:
            return self._replay()
        return self._invoke(args, kwargs)   # (a closure runs the traced function: not run_functions_eagerly)

    def _clone(self, python_function: Callable[..., Any]) -> "Function":
        """A tf.function of `python_function` with this one's decorator arguments (TF's Function._clone, by which
        mirrored_run lifts a tf.function given to strategy.run: strategies/replica_run.py `lifted`)."""
        return Function(python_function, self.input_signature, **self._options)

    def __get__(self, obj: Any, objtype: Any = None) -> Any:
        if obj is None:
            return self
        # One bound Function per instance, kept in the instance (so it records once, as TF traces
        # once per instance, and lives as long as the instance); objects without a __dict__ get
        # a fresh one each time.
        d = getattr(obj, "__dict__", None)
        if type(d) is not dict:
            d = None
        key = f"_simdist_tf_function_{id(self)}"
        f = d.get(key) if d is not None else None
        if f is None or getattr(f.python_function, "__self__", None) is not obj:   # (not one copied from another)
            f = Function(self.python_function.__get__(obj, objtype), self.input_signature, **self._options)
            if d is not None:
                d[key] = f
        return f

    def __copy__(self) -> "Function":
        """copy.copy: TF 2.21's shallow copy shares the original's traces (its function cache and
        tracing count), so a trace made through either serves both (clause function.trace-once)."""
        new = Function.__new__(Function)
        self.__dict__.setdefault("_trace_keys", [])   # (shared from now on, as TF's cache is from the start)
        new.__dict__.update(self.__dict__)
        return new

    def __deepcopy__(self, memo: dict) -> "Function":
        """copy.deepcopy: TF 2.21 deep-copies the function cache, whose traces hold FuncGraphs, which
        cannot be pickled: a traced function (called or get_concrete_function) is TypeError, an
        untraced one copies (clause function.trace-once). A method's per-instance Function kept in the
        instance's __dict__ (see __get__; TF keeps it outside) is copied untraced with its instance."""
        owner = getattr(self.python_function, "__self__", None)
        if self.__dict__.get("_trace_keys") and (owner is None or id(owner) not in memo):
            raise TypeError("cannot pickle 'FuncGraph' object")
        import copy
        new = Function.__new__(Function)
        memo[id(self)] = new
        new.__dict__.update(copy.deepcopy(self.__getstate__(), memo))
        return new

    def __getstate__(self) -> dict[str, Any]:
        # A recorded graph (generated code) stays in this process: a deep copy or a pickle records afresh.
        state = dict(self.__dict__)
        state["_graph"] = state["_replay"] = None
        state["_calls"] = {}
        state["_machine"] = None
        state.pop("_random_traces", None)
        state.pop("_pysig", None)
        state.pop("_created_variables", None)
        state.pop("_first_created", None)
        state.pop("_recreating", None)
        state.pop("_npos", None)
        state.pop("_np_defaults", None)
        state.pop("_trace_keys", None)
        state.pop("_dispatch_cache", None)
        state.pop("_serving", None)
        state.pop("_kinds", None)
        state.pop("_generic_keys", None)
        state.pop("_concretes", None)
        state.pop("_variable_programs", None)
        state.pop("_arg_variables", None)
        state.pop("_nested", None)
        return state

    def get_concrete_function(self, *args: Any, **kwargs: Any) -> Any:
        """TF traces here: a ConcreteFunction, or the trace-time error (tf/_concrete.py)."""
        from simdist.runtime import symbolic
        from simdist.tf import _concrete
        if self.__dict__.get("_trace_refusal"):   # (every trace's TypeError: tf/_signature.py trace_refusal)
            raise TypeError(self._trace_refusal)
        # (a trace an earlier get_concrete_function made serves this one: TF's function cache returns that concrete
        # function, its Python not run again; clause function.trace-once)
        trace_key = self._concrete_key(args, kwargs)
        made_before = self.__dict__.get("_concretes", {}).get(trace_key) if trace_key is not None else None
        if made_before is not None:
            return made_before
        creating = self.__dict__.get("_first_created")
        made = _creation.created()
        # (TF's trace here serves the calls it covers: the dry run on placeholders recorded, for the calls of its
        # shapes to replay, when the recorder may record here: `_keep_placeholder_recording`)
        recorded: list | None = [] if _graph_mod().enabled and _trace_mode() is _PLAIN and \
            not self._options.get("jit_compile") else None
        context_key = _context_key() if recorded is not None else None
        traced_args, traced_kwargs = self._trace_arguments(args, kwargs)
        if traced_args is not args or traced_kwargs is not kwargs:
            recorded = None   # (a relaxed trace: its placeholders are not the call's shapes)
        with symbolic.strictness(self._strict()), (_creation.refused() if creating else contextlib.nullcontext()):
            try:
                out = _concrete.trace(self, traced_args, traced_kwargs, record=recorded)
            except Exception as e:
                staged = _autograph_errors.staged(e, self.python_function, not self._strict())
                if staged is None:
                    raise
                raise staged from None
            if creating is None:
                self._first_created = _creation.created() > made
                if self._first_created:   # (TF's second trace, creation refused: runtime/variable_creation.py)
                    try:
                        with _creation.refused():
                            _concrete.trace(self, traced_args, traced_kwargs)
                    except ValueError as e:
                        if str(e) == _creation.SINGLETON_ERROR:
                            self._count_trace(args, kwargs)
                            raise ValueError(_creation.SINGLETON_ERROR) from None
                    except Exception:  # noqa: BLE001 - only the singleton rule is asked here
                        pass
        self._count_trace(args, kwargs)
        if self.__dict__.get("_first_created") and creating is None:
            self._count_trace(args, kwargs, _NO_CREATION_TRACE)
        if recorded:
            self._keep_placeholder_recording(recorded[-1][0], context_key, recorded[-1][1], trace_key)
        if trace_key is not None:
            kept = self.__dict__.setdefault("_concretes", {})
            if len(kept) < _MAX_TRACES:
                kept[trace_key] = out
                out._trace_key = trace_key
        return out

    def pretty_printed_concrete_signatures(self, verbose: bool = True) -> str:
        """TF 2.21's text of every concrete function its function cache holds, in trace order, joined by a blank line
        (verbose) or a newline; an input_signature's is made first (polymorphic_function.py
        `_list_all_concrete_functions`). A trace a call made has no ConcreteFunction in simdist (its Python ran on
        values): refused, NotImplementedError, rather than a list without it (fix67t)."""
        if self.input_signature is not None:
            self.get_concrete_function()
        made = self.__dict__.get("_concretes", {})
        traces = [k for k in self.__dict__.get("_trace_keys", ()) if k != _NO_CREATION_TRACE]
        missing = [k for k in traces if k not in made]
        if missing:
            raise NotImplementedError(
                f"simdist: pretty_printed_concrete_signatures of a function {len(missing)} of whose traces were made "
                f"by calls is not modelled (simdist keeps a ConcreteFunction for the traces get_concrete_function "
                f"made: call get_concrete_function for each signature first)")
        return ("\n\n" if verbose else "\n").join(made[k].pretty_printed_signature(verbose=verbose) for k in traces)

    def _concrete_key(self, args: tuple, kwargs: dict) -> Any:
        """The trace a get_concrete_function call gets from TF's function cache (`_dispatched`; an input_signature's
        one trace when no argument is given), for the concrete functions made so far; None when it is not known
        here (the call binds, relaxes or raises as a trace does)."""
        from simdist.tf import _tracing_count
        if self.input_signature is not None:
            # (arguments must bind to the signature, its one trace then: TF 2.21 returns the signature's concrete
            # function for get_concrete_function(TensorSpec([1, 4])) or a tensor under [None, 4], fix67t's pc.py)
            if args or kwargs:
                from simdist.tf import _concrete
                _concrete.specs_of(self, args, kwargs)   # (the binding's TypeError, as the trace raises it)
            return ("signature",)
        try:
            kind = _tracing_count.call_key(self.python_function, None, args, kwargs)
            hash(kind)
            if kind not in self.__dict__.get("_trace_keys", ()) and not self.__dict__.get("_concretes"):
                return kind
            return self._dispatched(kind)
        except (TypeError, IndexError):
            return None

    def _trace_arguments(self, args: tuple, kwargs: dict) -> tuple[tuple, dict]:
        """get_concrete_function's arguments as the trace TF's function cache gives the call sees them: without an
        input_signature the call is dispatched as a call is (an existing trace that covers it, or a new one relaxed
        against the others with reduce_retracing: `_dispatched`), and that trace's unknown dimensions are unknown
        to the concrete function (its structured_input_signature's TensorSpec([None]) after calls of [1], [2] and
        [3]: tsweep65's t-nest-jit `relaxed concrete`; clause function.trace-once); the arguments as given
        otherwise."""
        if self.input_signature is not None:
            return args, kwargs
        from simdist.tf import _tracing_count
        try:
            kind = _tracing_count.call_key(self.python_function, None, args, kwargs)
            hash(kind)
            trace = self._dispatched(kind)
        except (TypeError, IndexError):   # (an unhashable key; the relaxation's own IndexError is the call's)
            return args, kwargs
        if trace == kind:
            return args, kwargs
        return _tracing_count.relaxed_arguments(self.python_function, args, kwargs, kind, trace)

    def _placeholder_recording(self, args: tuple, kwargs: dict, into: list) -> Any:
        """The Python of get_concrete_function's first dry run (tf/_concrete.py `trace`) on placeholder tensors,
        recorded as a call of those tensors records (`_traced_call`): `into` receives (its signature, the
        recording); its raw result."""
        g = _graph_mod()
        canonical = self._canonical(args, kwargs)
        found = None if canonical is None else g.signature(*canonical)
        if found is None:
            return self._traced_python()(*args, **kwargs)
        args, kwargs = canonical
        raw: list = []

        def python(*a: Any, **k: Any) -> Any:
            raw.append(self._traced_python()(*a, **k))
            return raw[-1]
        entry, result = g.record_call(python, args, kwargs, found[1], _outputs_to_tensors, keep_subnormal=True)
        into.append((found[0], entry))
        # (the Python's own outputs describe the concrete function: their static shapes are what the graph knows (a
        # spec's unknown dimensions), where the result of a recording whose finished graph Grappler rewrote holds
        # new tensors of the stand-ins' concrete shapes; fix67t)
        return raw[-1] if raw else result

    def _keep_placeholder_recording(self, signature: Any, context_key: Any, entry: Any, trace: Any = None) -> None:
        """Keep get_concrete_function's recording on placeholders as the recorded call of their signature, so a call
        of those shapes and dtypes replays it, its Python not run again: TF 2.21 traces once there and the calls the
        trace covers run its graph (clause function.trace-once). Kept only when it computes what a recording on the
        call's values would: a graph with an op-by-op program (no strategy.run, no simulator charge), no variable
        write (a dry run's writes are buffered, where Grappler's finished-graph rewrites of a writing call are not
        made: graph/rewrite.py `allowed`), no stateful op but tf.print's (random kernels are their trace's, keyed by
        the call: `_random_trace`), no subnormal constant. `trace`: the trace it is (`_concrete_key`), whose calls of
        other concrete shapes (a spec's unknown dimensions) may replay it when it is shape-generic (`_polymorphic`)."""
        g = _graph_mod()
        if type(entry) is not g.Graph or entry.program is None or entry.daz or entry.writes or \
                not entry.rewritable or any(st[0] == 1 and getattr(st[2], "stateful", False) and
                                            st[2].name != "PrintV2" for st in entry.program[1]):
            return
        from simdist import session
        if session._m is not self._machine:   # (a new simulated machine: as `_traced_call`)
            self._calls.clear()
            self.__dict__.pop("_standin_calls", None)
            self.__dict__.pop("_random_traces", None)
            self._machine = session._m
        if len(self._calls) < _MAX_TRACES and (signature, context_key) not in self._calls:
            self._calls[(signature, context_key)] = entry
            self.__dict__.setdefault("_standin_calls", {})[(signature, context_key)] = entry
            if trace is not None:
                self.__dict__.setdefault("_kinds", {})[(signature, context_key)] = trace

    def __repr__(self) -> str:
        return f"<simdist tf.function {getattr(self.python_function, '__name__', '?')}>"


@contextlib.contextmanager
def _arguments_marked(args: tuple, kwargs: dict) -> Any:
    """A call's arguments as its graph's inputs while its Python runs unrecorded or under an unkept recorder: no tensor
    among them a constant (graph_constants), composites' components and nested tensors the placeholders of their
    type specs (composite_shapes); undone after."""
    from simdist.runtime.ops import composite_shapes, graph_constants
    undo = graph_constants.arguments(list(args) + list(kwargs.values()))
    comp: list = []
    try:
        comp = composite_shapes.arguments((args, kwargs))
        yield
    finally:
        composite_shapes.restore(comp)
        graph_constants.restore(undo)


def _holds_string(x: Any) -> bool:
    """Whether a call's arguments or results hold a string tensor (in lists, tuples, dicts)."""
    from simdist.runtime import dtypes
    from simdist.runtime.tensor import Tensor
    if isinstance(x, Tensor):
        return x.dtype == dtypes.string
    if isinstance(x, (list, tuple)):
        return any(_holds_string(v) for v in x)
    if isinstance(x, dict):
        return any(_holds_string(v) for v in x.values())
    return False


def _argument_variables(x: Any, out: list | None = None) -> list:
    """The Variable arguments of a call, in the order graph.signature keys them (lists and tuples in order, a
    dict's values by sorted key)."""
    if out is None:
        out = []
    t = type(x)
    if t is tuple or t is list:
        for v in x:
            _argument_variables(v, out)
    elif t is dict:
        try:
            keys = sorted(x)
        except TypeError:
            keys = list(x)
        for k in keys:
            _argument_variables(x[k], out)
    elif isinstance(x, _variables.Variable):
        out.append(x)
    return out


def _same_but_variables(a: Any, b: Any) -> bool:
    """Whether two call signatures (graph.signature's keys) differ at most in which variables they pass (each a
    ("var", id) part)."""
    if type(a) is tuple and type(b) is tuple and len(a) == 2 == len(b) and a[0] == "var" == b[0] and \
            type(a[1]) is int and type(b[1]) is int:
        return True
    if type(a) is tuple and type(b) is tuple:
        return len(a) == len(b) and all(_same_but_variables(x, y) for x, y in zip(a, b))
    return type(a) is type(b) and a == b


def _variable_ids(sig: Any, out: list | None = None) -> list:
    """The ids of the variables a call signature (graph.signature's key) names, in its order."""
    if out is None:
        out = []
    if type(sig) is tuple:
        if len(sig) == 2 and sig[0] == "var" and type(sig[1]) is int:
            out.append(sig[1])
        else:
            for x in sig:
                _variable_ids(x, out)
    return out


def _variables_alike(old: list, new: list) -> bool:
    """Whether two calls' Variable arguments have the same VariableSpecs, position by position: dtype, shape,
    trainable, and the same aliasing among them (TF's alias ids)."""
    if len(old) != len(new):
        return False
    for i, (u, v) in enumerate(zip(old, new)):
        if u.dtype != v.dtype or tuple(u.shape.as_list()) != tuple(v.shape.as_list()) or u.trainable != v.trainable:
            return False
        if any((u is old[j]) != (v is new[j]) for j in range(i)):
            return False
    return True


def _with_variables(program: tuple, old: list, new: list) -> tuple | None:
    """`program` (runtime/interpret.py) with its reads and writes of each `old` variable made on the `new` one in
    its position, captures of the same variable object included (TF's trace resolves a captured variable that is
    also an argument to the argument's handle: `h(v)` returning `v + g` traced with g itself, called with another
    variable c, gives c + c; fix66t's probe_var.py); None when an old variable appears anywhere else in it."""
    swap = {id(u): v for u, v in zip(old, new)}
    steps = []
    named = _interp_kinds()
    for st in program[1]:
        if _holds(st[3:] if st[0] in named else st, old, 3):
            return None
        if st[0] in named and id(st[2]) in swap:
            st = (st[0], st[1], swap[id(st[2])]) + tuple(st[3:])
        steps.append(st)
    if _holds(program[2], old, 4):
        return None
    return (program[0], steps, program[2])


def _interp_kinds() -> tuple:
    """The program steps that name a variable: reads, writes, scatters (runtime/interpret.py)."""
    from simdist.runtime import interpret
    return (interpret._READ, interpret._WRITE, interpret._SCATTER)


def _holds(x: Any, targets: list, depth: int) -> bool:
    """Whether x is one of `targets` or holds one in a tuple, list or dict up to `depth` levels."""
    if any(x is t for t in targets):
        return True
    if depth <= 0:
        return False
    if isinstance(x, (tuple, list)):
        return any(_holds(v, targets, depth - 1) for v in x)
    if isinstance(x, dict):
        return any(_holds(v, targets, depth - 1) for v in x.values())
    return False


def _same_but_shapes(a: Any, b: Any) -> bool:
    """Whether two call signatures (graph.signature's keys) differ at most in their tensors' shapes (each
    tensor leaf is (dtype, shape, device): dtypes and devices equal)."""
    from simdist.runtime.dtypes import DType
    if type(a) is tuple and type(b) is tuple and len(a) == 3 == len(b) and isinstance(a[0], DType) and \
            type(a[1]) is tuple and type(b[1]) is tuple:
        return a[0] == b[0] and a[2] == b[2]
    if type(a) is tuple and type(b) is tuple:
        return len(a) == len(b) and all(_same_but_shapes(x, y) for x, y in zip(a, b))
    return type(a) is type(b) and a == b


def _same_program(a: tuple, b: tuple) -> bool:
    """Whether two op-by-op programs (runtime/interpret.py `build`) have the very same steps: op definitions,
    attributes, inputs and devices; constants (captured ones the same object, the call's equal in dtype, shape
    and value); variables read and written; argument positions; and the returned structure."""
    if a[0] != b[0] or len(a[1]) != len(b[1]) or not _same_value(a[2], b[2]):
        return False
    for x, y in zip(a[1], b[1]):
        if len(x) != len(y) or x[0] != y[0]:
            return False
        for u, v in zip(x[1:], y[1:]):
            if not _same_value(u, v):
                return False
    return True


def _same_value(u: Any, v: Any) -> bool:
    """Equality of program parts: arrays by dtype, shape and bits; tensors, variables, op definitions and
    other objects by identity; containers item by item."""
    import numpy as np
    if isinstance(u, np.ndarray) or isinstance(v, np.ndarray):
        return isinstance(u, np.ndarray) and isinstance(v, np.ndarray) and u.dtype == v.dtype and \
            u.shape == v.shape and u.tobytes() == v.tobytes()
    if type(u) is not type(v):
        return False
    if isinstance(u, (list, tuple)):
        return len(u) == len(v) and all(_same_value(x, y) for x, y in zip(u, v))
    if isinstance(u, dict):
        return list(u) == list(v) and all(_same_value(u[k], v[k]) for k in u)
    if u is None or isinstance(u, (bool, int, float, complex, str, bytes, np.generic)):
        return bool(u == v) or (u != u and v != v)   # (NaN attributes alike)
    return u is v or (isinstance(u, type) and u == v) or type(u).__name__ == "DType" and u == v


def _mark_arguments(args: tuple, kwargs: dict, note: Callable[..., None], fn: Any = None) -> None:
    """Mark the call's tensors (also inside lists, tuples and dicts) as the graph's inputs
    (runtime/symbolic.py: symbolic while the call's Python runs), each with its placeholder's name
    when `fn`'s signature gives one (`_placeholder_names`)."""
    from simdist.runtime.tensor import Tensor
    names = _placeholder_names(fn, args, kwargs) if fn is not None else {}
    todo = list(args) + list(kwargs.values())
    while todo:
        x = todo.pop()
        if isinstance(x, Tensor):
            note(x, names.get(id(x)))
        elif type(x) in (list, tuple):
            todo.extend(x)
        elif type(x) is dict:
            todo.extend(x.values())


def _placeholder_names(fn: Any, args: tuple, kwargs: dict) -> dict[int, str]:
    """id(tensor) -> the name TF 2.21 gives its placeholder when the call traces (observed): a
    parameter's name; a nested argument's leaves `p`, `p_1`, `p_2` ... in the order the trace makes its
    placeholders (a dict's in its insertion order, not nest's sorted keys: blind53); `*args` entries `args_0`, `args_1` ...; a `**kwargs` entry its key. {} when the
    signature does not bind."""
    import inspect
    try:
        bound = inspect.signature(fn).bind(*args, **kwargs)
    except (TypeError, ValueError):
        return {}
    named: list[tuple[str, Any]] = []
    params = bound.signature.parameters
    for pname, value in bound.arguments.items():
        kind = params[pname].kind
        if kind is inspect.Parameter.VAR_POSITIONAL:
            named.extend((f"{pname}_{i}", v) for i, v in enumerate(value))
        elif kind is inspect.Parameter.VAR_KEYWORD:
            named.extend((str(k), value[k]) for k in sorted(value))
        else:
            named.append((pname, value))
    out: dict[int, str] = {}
    for base, value in named:
        for i, leaf in enumerate(_nest_leaves(value)):
            out.setdefault(id(leaf), base if i == 0 else f"{base}_{i}")
    return out


def _unsliced(out: Any) -> None:
    """The call's returned tensors as a concrete function's outputs: no `variable[key]` slice among them keeps its
    variable and `.assign` (TF's outputs are new tensors: `tf.function(lambda: v[0])()` has no `assign`,
    AttributeError), so a variable the function made and sliced into its result is not kept by it (the singleton
    rule's liveness, runtime/variable_creation.py: `tf.function(lambda: tf.Variable(x)[0])()` is TF's ValueError;
    TF 2.21 observed, covsweep64)."""
    from simdist.runtime.tensor import Tensor
    for leaf in _nest_leaves(out):
        if isinstance(leaf, Tensor):
            try:
                del leaf._slice_of
            except AttributeError:
                pass


def _nest_leaves(v: Any) -> list:
    """v's leaves in the order TF 2.21's trace makes their placeholders: lists and tuples in order, a dict's
    values in its insertion order (observed: `{"b": x, "a": y}` names b's leaf `d`, a's `d_1`; blind53); a
    module function, since a nested function
    calling itself would be a reference cycle per call (tests/runtime/test_reference_cycles.py)."""
    if type(v) in (list, tuple):
        return [y for x in v for y in _nest_leaves(x)]
    if type(v) is dict:
        return [y for k in v for y in _nest_leaves(v[k])]
    return [v]


def _refuse_specs(function: Any, args: tuple, kwargs: dict) -> None:
    """A call given a tf.TensorSpec as an argument: TF 2.21 takes the spec's trace type (the spec itself), so the
    call traces as get_concrete_function of that spec does (or finds that trace), then passes the spec to the
    concrete function as an input, whose conversion is convert_to_tensor's ValueError "Attempt to convert a value
    (TensorSpec(...)) with an unsupported type ... to a Tensor" (a trace-time error of the Python first; tsweep65,
    clause function.input-signature)."""
    from simdist.runtime import nest
    from simdist.runtime.spec import TensorSpec
    top = (*args, *kwargs.values())
    if not any(isinstance(v, (TensorSpec, list, tuple, dict)) for v in top):
        return   # (the common call: tensors and Python scalars)
    specs = [v for v in nest.flatten(top) if isinstance(v, TensorSpec)]
    if not specs:
        return
    function.get_concrete_function(*args, **kwargs)
    from simdist.runtime.tensor import convert_to_tensor
    convert_to_tensor(specs[0])   # (its ValueError)
    raise ValueError(f"Attempt to convert a value ({specs[0]!r}) with an unsupported type ({type(specs[0])!r}) to a "
                     "Tensor.")


def _numpy_as_tensors(args: tuple, kwargs: dict) -> tuple[tuple, dict]:
    """The call's NumPy arrays and scalars (also inside lists, tuples and dicts) as tensors of
    their dtype: TF's tf.function passes them to the Python function as tensors (a float64
    array stays float64; function.symbolic-tensors); a Mirrored value as its tensor (`_is_mirrored_value`)."""
    if not any(_has_numpy(a) for a in args) and not any(_has_numpy(v) for v in kwargs.values()):
        return args, kwargs
    return tuple(_as_tensor(a) for a in args), {k: _as_tensor(v) for k, v in kwargs.items()}


def _has_numpy(x: Any) -> bool:
    import numpy as np
    if isinstance(x, (np.ndarray, np.generic)) or _is_mirrored_value(x) or _has_unread_components(x):
        return True
    if type(x) in (list, tuple):
        return any(_has_numpy(v) for v in x)
    if type(x) is dict:
        return any(_has_numpy(v) for v in x.values())
    return False


def _is_mirrored_value(x: Any) -> bool:
    """A `Mirrored` of values (not a variable): TF's tf.function takes it as a tensor, its value on the current
    device or the primary's (the Mirrored conversion function; not a composite: fz53d, observed on TF 2.21 for a
    group=True extended.update result and a MirroredVariable's cross-replica assign result)."""
    return type(x).__name__ == "Mirrored" and type(x) is _passthrough_mirrored()


def _has_unread_components(x: Any) -> bool:
    """A PerReplica holding `_UnreadVariable`s (a run's update results): TF's trace type of a PerReplica is a
    PerReplicaSpec of its components' TensorSpecs, so tf.function passes the variables' values (read at the
    call), not the variables (dist54, observed on TF 2.21: `x.assign_add` inside is an AttributeError)."""
    return type(x).__name__ == "PerReplica" and type(x) is _passthrough_per_replica() and \
        any(type(c) is _variables._UnreadVariable for c in x.values)


def _passthrough_per_replica() -> type:
    from simdist.runtime.values import PerReplica
    return PerReplica


def _passthrough_mirrored() -> type:
    from simdist.runtime.values import Mirrored
    return Mirrored


def _as_tensor(x: Any) -> Any:
    import numpy as np
    if isinstance(x, (np.ndarray, np.generic)):
        from simdist.runtime.tensor import convert_to_tensor
        return convert_to_tensor(x)
    if _is_mirrored_value(x):   # (the primary's value: the cross-replica context's current device is not a copy's)
        from simdist.runtime.tensor import convert_to_tensor
        return convert_to_tensor(x.values[0])
    if _has_unread_components(x):
        from simdist.strategies.base import unread_components_read
        return unread_components_read(x)
    if type(x) in (list, tuple):
        return type(x)(_as_tensor(v) for v in x)
    if type(x) is dict:
        return {k: _as_tensor(v) for k, v in x.items()}
    return x


_PASS: tuple[type, ...] = ()
_GRAPH: Any = None
register_function_type(Function)   # the strategies recognise tf.functions through the runtime


class _Eager:
    """A call that runs as plain Python, as the trace of `key` (None: no recorded signature)."""

    __slots__ = ("key",)

    def __init__(self, key: Any) -> None:
        self.key = key


_EAGER = _Eager(None)
# (the key of the first call's second trace, creation refused, which TF's tracing count includes)
_NO_CREATION_TRACE = ("no-variable-creation trace",)
_CREATES_VARIABLE = "it creates a variable"    # (runtime/variables.py: ResourceVariable.__init__)
# Recorded signatures per function, at most (TF warns about retracing long before this); calls
# with further signatures run eagerly.
_MAX_TRACES = 64


def _tensor_type() -> type:
    from simdist.runtime.tensor import Tensor
    return Tensor


_PLAIN, _UNDER_TAPE = "plain", "under tape"


def _subnormal_reason() -> str:
    """The start of the reason a recording that met subnormal values gives (dispatch._SUBNORMAL)."""
    from simdist.runtime.ops import dispatch
    return dispatch._SUBNORMAL.split(" (")[0]


def _replay_kept(nested: Any, program: tuple, twins: list, *args: Any, **kwargs: Any) -> Any:
    """A kept inner trace's program run on the recording's twins of the call's tensors (record_call's fn)."""
    return nested.replay(program, twins)


def _trace_mode() -> Any:
    """How a call may record or replay here: None inside another recording, an open cost
    section, or a coordinator closure (transaction or collected charges), where the call must
    run as plain Python; _UNDER_TAPE under gradient tapes (or a variable watcher), whose
    interpreters must see its ops; else _PLAIN. A strategy.run replica is a context like any
    other: a call there records and replays in the replica's context."""
    from simdist.runtime import execution
    c = execution.current()
    if execution.recording_anywhere() or c.sections or c.transactions or c.charges:
        return None
    return _UNDER_TAPE if c.observers else _PLAIN


def _record_under_tapes(g: Any, fn: Callable[..., Any], args: tuple, kwargs: dict, leaves: list) -> tuple:
    """record_call with the context's tapes set aside (the recording's own accounting of kept
    bytes is then the call's, as without a tape), handing them what they would have seen when
    the call returns (runtime/interpret.Deferred)."""
    from simdist.runtime import execution, function_tapes, interpret
    c = execution.current()
    tapes, observers = c.tapes, c.observers
    deferred = interpret.Deferred(observers, leaves)
    c.tapes, c.observers, c.aside = [], [deferred], deferred
    try:
        # (the deferred tapes see into the replicas of a strategy.run the call runs)
        with function_tapes.seeing(c, [deferred]) as th:
            out = g.record_call(fn, args, kwargs, leaves, _outputs_to_tensors, deferred.twins, keep_subnormal=True)
    finally:
        c.tapes, c.observers, c.aside = tapes, observers, None
        for t in deferred.targets:      # (stopped inside the call and not restarted)
            if all(a is not t for a in deferred.active):
                c.pop_tape(t)
        deferred.hand_to_targets()
    function_tapes.check(th, observers)
    return out


def _as_traced(call: Callable[[tuple, dict], Any], args: tuple, kwargs: dict) -> Any:
    """call(args, kwargs), raising an op error TF finds while it builds the graph as TF's
    trace-time ValueError/TypeError (runtime/ops/trace_errors.py; clause
    function.trace-time-errors). Only a call whose Python runs meets one: a replayed graph met
    its shapes and dtypes when it was recorded."""
    try:
        return call(args, kwargs)
    except Exception as e:  # noqa: BLE001 - re-raised as it is unless it is a marked op error
        from simdist.runtime.ops import trace_errors
        traced = trace_errors.at_trace(e)
        if traced is None:
            raise
        # (the op's traceback kept: it leads to the user's code, as TF's "in user code" frame does)
        raise traced.with_traceback(e.__traceback__) from None


def _context_key() -> Any:
    """What a recorded call depends on besides its arguments: the distribution context stack
    (strategy, replica context, device scope) and the copy an extended.update is updating."""
    from simdist.runtime import context
    from simdist.strategies.dist_variables import update_replica_id
    return (tuple(_frame_key(f) for f in context._stack()), update_replica_id())


def _frame_key(f: Any) -> Any:
    """A context frame as a key: a replica context by its strategy and replica id (each
    strategy.run makes new ReplicaContext objects; TF keys a replica's trace by its device)."""
    rc = f.replica_context
    rid = getattr(rc, "_replica_id", None) if rc is not None else None
    if rid is None:
        return f
    return (f.strategy, type(rc), rid, f.device)


def _graph_mod() -> Any:
    """simdist.runtime.graph, imported on first use (this module loads before the runtime)."""
    global _GRAPH
    if _GRAPH is None:
        from simdist.runtime import graph
        _GRAPH = graph
    return _GRAPH


def _passthrough() -> tuple[type, ...]:
    """(Tensor, DistributedValues), imported on first use (this module loads before them)."""
    global _PASS
    if not _PASS:
        from simdist.runtime.tensor import Tensor
        from simdist.runtime.values import DistributedValues
        _PASS = (Tensor, DistributedValues)
    return _PASS


def _returned_constant(out: Any) -> Any:
    """func_graph's convert of a returned Python or NumPy value: convert_to_tensor in the graph being built
    (make_tensor_proto's rules, convert.py, whatever call path returns it: a Python int in [2**63, 2**64) is
    uint64, `[1, 2**64 - 1]` returned is int32 1 and uint64 2**64 - 1, each leaf apart), whose ValueError or
    TypeError is func_graph's TypeError ("must return zero or more Tensors": 2**64, -2**63 - 1; fz14 seed
    1420443004 #14, a returned get_static_value of such a list)."""
    from simdist.runtime import context
    from simdist.runtime.tensor import convert_to_tensor
    try:
        if context.in_function():
            return convert_to_tensor(out)
        with context.in_function_call():
            return convert_to_tensor(out)
    except (ValueError, TypeError):
        raise TypeError("To be compatible with tf.function, Python functions must return zero or more Tensors or "
                        f"ExtensionTypes or None values; found return value of type {type(out).__name__}, which is "
                        "not a Tensor or ExtensionType.") from None


def _outputs_to_tensors(out: Any) -> Any:
    """A tf.function returns tensors: Python and NumPy numbers become tensors, variables their
    values (a distributed variable its read in the calling context: a MirroredVariable's value,
    a sync-on-read variable's aggregate across replicas); None, tensors, other distributed values
    (a PerReplica) and other objects pass through."""
    from simdist.runtime.variables import Variable
    if out is None or isinstance(out, _passthrough()[0]):
        return out
    if isinstance(out, _passthrough()[1]) and not isinstance(out, Variable):
        from simdist.runtime.values import Mirrored, PerReplica
        if type(out) is Mirrored:
            # (not a composite tensor: func_graph converts it, the Mirrored conversion function's
            # value on the current device or the primary; observed: reduce_to(MEAN, v, destinations=v)
            # in a tf.function returns one tensor)
            first = out.values[0]
            if type(first).__name__ == "IndexedSlices":   # (the conversion densifies it)
                from simdist.runtime.tensor import convert_to_tensor
                return convert_to_tensor(first)
            return _outputs_to_tensors(first)
        if type(out) is PerReplica:
            # (a composite: its components are the function's outputs, NumPy values made tensors)
            comps = [_outputs_to_tensors(c) for c in out.values]
            return out if all(c is o for c, o in zip(comps, out.values)) else PerReplica(comps)
        return out
    import numpy as np

    from simdist.runtime.tensor import convert_to_tensor
    if isinstance(out, (bool, int, float, complex, str, np.ndarray, np.generic)):   # (a Python complex: complex128)
        return _returned_constant(out)
    name = type(out).__name__
    if name == "TensorProto":   # (func_graph converts it as tf.constant does: its value; fz14 seed 1420261219 #90)
        from simdist.runtime.tensor_proto_message import make_ndarray
        return convert_to_tensor(make_ndarray(out))
    if name == "GraphOperation":   # (an Assert, NoOp or group: func_graph's convert; function.operation-results)
        raise TypeError("To be compatible with tf.function, Python functions must return zero or more Tensors or "
                        "ExtensionTypes or None values; found return value of type Operation, which is not a Tensor "
                        "or ExtensionType.")
    if name == "TensorShape" or name == "DType":
        # a fully known shape converts (int32, as convert_to_tensor of a TensorShape); a dtype or
        # a partly known shape is trace-time TypeError (function.symbolic-tensors)
        if name == "TensorShape" and out.is_fully_defined():
            from simdist.runtime import dtypes
            return convert_to_tensor(out.as_list(), dtype=dtypes.int32)
        raise TypeError("To be compatible with tf.function, Python functions must return zero or more Tensors or "
                        "ExtensionTypes or None values; found return value of type {name}, which is not a Tensor "
                        "or ExtensionType.".replace("{name}", name))
    if name == "Dimension":   # (a known one converts, int32; an unknown one is no tensor)
        if out.value is not None:
            return convert_to_tensor(out)
        raise TypeError("To be compatible with tf.function, Python functions must return zero or more Tensors or "
                        "ExtensionTypes or None values; found return value of type Dimension, which is not a Tensor "
                        "or ExtensionType.")
    if isinstance(out, Variable):
        return out.read_value()
    if isinstance(out, type) or (callable(out) and not isinstance(out, (dict, list, tuple))):
        # (a class, `x.dtype.as_numpy_dtype`: nest sees one leaf, not a tensor; fz4 seed 23 #37; a
        # function, `tf.signal.inverse_stft_window_fn(2)`, or any callable: nothing converts it,
        # fz14 seed 14 #557)
        raise TypeError("To be compatible with tf.function, Python functions must return zero or more Tensors or "
                        f"ExtensionTypes or None values; found return value of type {type(out).__name__}, which is "
                        "not a Tensor or ExtensionType.")
    if isinstance(out, dict):
        if isinstance(out, collections.defaultdict):   # (TF 2.21 returns a dict: observed, open46)
            return {k: _outputs_to_tensors(v) for k, v in out.items()}
        return type(out)((k, _outputs_to_tensors(v)) for k, v in out.items())
    if isinstance(out, tuple) and hasattr(out, "_fields"):
        return type(out)(*[_outputs_to_tensors(v) for v in out])
    if isinstance(out, (list, tuple)):
        return type(out)(_outputs_to_tensors(v) for v in out)
    return _other_output(out)


def _other_output(out: Any) -> Any:
    """func_graph's rule for a returned value that is no tensor, number, list, tuple or dict (TF 2.21:
    `nest.map_structure(convert, outputs)`, then the outputs' TraceType; observed, open46): nest flattens
    a mapping view (dict.keys(), .values(), .items()) and a `range`, which come back lists of tensors; a
    deque flattens too, but the output's TraceType refuses it (TypeError "Could not generate a generic
    TraceType"); a set or frozenset, a generator, a slice, Ellipsis, a TypeSpec and an object of a class
    of the program's own that nothing converts are no nest structure and no tensor: func_graph's TypeError
    "must return zero or more Tensors". simdist's own values (distributed values, composites: classes of
    simdist's modules) pass through as before (clause function.symbolic-tensors)."""
    import types
    from collections.abc import ItemsView, KeysView, ValuesView
    if isinstance(out, (KeysView, ValuesView, ItemsView, range)):
        return [_outputs_to_tensors(v) for v in out]
    if isinstance(out, collections.deque):
        raise TypeError(f"Could not generate a generic TraceType for {out!r}.Please verify that it is "
                        "immutable/hashable. Otherwise, consider implementing the Tracing Protocol for it.")
    from simdist.runtime import context
    # (a spec stands for its value in a dry run on placeholders, tf/_concrete.py: passed through there)
    refused = isinstance(out, (set, frozenset, types.GeneratorType, slice)) or out is Ellipsis or \
        type(out).__name__.endswith("Spec") and hasattr(out, "is_compatible_with") and not context.in_placeholder_run()
    if not refused and not _simdist_class(type(out)) and not hasattr(type(out), "__attrs_attrs__"):
        from simdist.runtime.tensor import convert_to_tensor
        try:
            return convert_to_tensor(out)   # (a registered conversion, `__tf_tensor__`)
        except (TypeError, ValueError):
            refused = True
    if refused:
        raise TypeError("To be compatible with tf.function, Python functions must return zero or more Tensors or "
                        f"ExtensionTypes or None values; found return value of type {type(out).__name__}, which is "
                        "not a Tensor or ExtensionType.")
    return out


def _simdist_class(cls: type) -> bool:
    """Whether `cls` or a base class (other than object) is simdist's (a composite, an ExtensionType)."""
    return any((getattr(c, "__module__", "") or "").startswith("simdist") for c in cls.__mro__ if c is not object)


def function(func: Callable[..., Any] | None = None, input_signature: Any = None, autograph: bool = True,
             jit_compile: Any = None, reduce_retracing: bool = False, experimental_relax_shapes: Any = None,
             **kwargs: Any) -> Any:
    """Decorator form `@tf.function` or `@tf.function(input_signature=...)`."""
    # (experimental_relax_shapes: TF 2.21's deprecated alias of reduce_retracing, or-ed with it)
    options = {"autograph": autograph, "jit_compile": jit_compile}
    if reduce_retracing or experimental_relax_shapes:
        options["reduce_retracing"] = True
    if func is None:
        return lambda f: Function(f, input_signature, **options)
    return Function(func, input_signature, **options)
