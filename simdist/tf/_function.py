"""`tf.function`: a decorator whose functions run as plain Python (eagerly), but are
recognisable as TF functions (the coordinator only schedules those, and replays what it can:
see `Function._scheduled`)."""

from __future__ import annotations

import functools
from typing import Any, Callable


class Function:
    """A `tf.function`-decorated callable. `python_function` is the undecorated function."""

    def __init__(self, fn: Callable[..., Any], input_signature: Any = None, **options: Any) -> None:
        self.python_function = fn
        self.input_signature = input_signature
        self._options = options
        self._graph: Any = None    # simdist.runtime.graph: None (not recorded yet), a Graph or Untraceable
        self._replay: Any = None   # the Graph's run
        functools.update_wrapper(self, fn)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        from simdist.runtime import context
        with context.in_function_call():
            return _outputs_to_tensors(self.python_function(*args, **kwargs))

    def _scheduled(self, args: tuple, kwargs: dict) -> Any:
        """A call by the ClusterCoordinator on a worker. Without arguments it runs as TF runs a
        traced function: the Python body on the first call, its recorded graph after (see
        simdist.runtime.graph); otherwise eagerly."""
        if self._graph is None and not args and not kwargs and _graph_mod().enabled:
            from simdist.runtime import context
            with context.in_function_call():
                graph, result = _graph_mod().record(self.python_function, _outputs_to_tensors)
            self._graph = graph
            if type(graph) is _graph_mod().Graph:
                self._replay = graph.run
            return _outputs_to_tensors(result)
        if self._replay is not None and not args and not kwargs:
            return self._replay()
        return self(*args, **kwargs)

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

    def __getstate__(self) -> dict[str, Any]:
        # A recorded graph (generated code) stays in this process: a copy records afresh.
        state = dict(self.__dict__)
        state["_graph"] = state["_replay"] = None
        return state

    def get_concrete_function(self, *args: Any, **kwargs: Any) -> "Function":
        return self

    def __repr__(self) -> str:
        return f"<simdist tf.function {getattr(self.python_function, '__name__', '?')}>"


_PASS: tuple[type, ...] = ()
_GRAPH: Any = None


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


def _outputs_to_tensors(out: Any) -> Any:
    """A tf.function returns tensors: Python and NumPy numbers become tensors, variables their
    values; None, tensors, distributed values and other objects pass through."""
    if out is None or isinstance(out, _passthrough()):
        return out
    import numpy as np

    from simdist.runtime.tensor import convert_to_tensor
    from simdist.runtime.variables import Variable
    if isinstance(out, (bool, int, float, np.ndarray, np.generic)):
        return convert_to_tensor(out)
    if isinstance(out, Variable):
        return out.read_value()
    if isinstance(out, dict):
        return type(out)((k, _outputs_to_tensors(v)) for k, v in out.items())
    if isinstance(out, tuple) and hasattr(out, "_fields"):
        return type(out)(*[_outputs_to_tensors(v) for v in out])
    if isinstance(out, (list, tuple)):
        return type(out)(_outputs_to_tensors(v) for v in out)
    return out


def function(func: Callable[..., Any] | None = None, input_signature: Any = None, autograph: bool = True,
             jit_compile: Any = None, reduce_retracing: bool = False, experimental_relax_shapes: Any = None,
             **kwargs: Any) -> Any:
    """Decorator form `@tf.function` or `@tf.function(input_signature=...)`."""
    if func is None:
        return lambda f: Function(f, input_signature)
    return Function(func, input_signature)
