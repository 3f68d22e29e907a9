"""Keras's scratch FuncGraph as a trace (clause keras.reg.scratch-graph-trace, fix63q): the run of a layer's call on
probe tensors that Keras 3.15's `backend.compute_output_spec` makes in a fresh FuncGraph without AutoGraph.

TF calls the function on `tf.compat.v1.placeholder`s of the KerasTensors' specs, so its Python meets symbolic tensors
(a tensor's truth and iteration OperatorNotAllowedInGraphError, `.numpy()` AttributeError, len()/int()/float()
TypeError, NumPy's conversion NotImplementedError, tf.executing_eagerly() False, None for an unknown dimension).
simdist runs the Python on zeros as a tf.function's with AutoGraph off (runtime/symbolic.py's graph tensors), the
probes noted as the graph's placeholders ("Placeholder", as TF names them) and their unknown dimensions unknown to
the graph (runtime/ops/static_shapes.py). simdist.keras reaches it through `tf._simdist_scratch_trace`."""

from __future__ import annotations

from typing import Any, Sequence

from simdist.runtime import context, symbolic
from simdist.runtime.ops import static_shapes
from simdist.runtime.tensor import Tensor, TensorShape

__all__ = ["trace", "run", "argument", "unknown"]


class trace:
    """`with trace(probes):` the probes' run as the scratch graph's trace (`probes`: the placeholders' tensors)."""

    def __init__(self, probes: Sequence[Any]) -> None:
        self.probes = list(probes)

    def __enter__(self) -> None:
        self.call = context.in_function_call()
        self.call.__enter__()
        self.strict = symbolic.strictness(True)   # (the scratch graph is not AutoGraph-converted)
        self.strict.__enter__()
        for t in self.probes:
            if isinstance(t, Tensor):
                symbolic.note(t, "Placeholder")

    def __exit__(self, *exc: object) -> None:
        self.strict.__exit__(*exc)
        self.call.__exit__(*exc)


def run(fn: Any, args: Any, kwargs: Any) -> Any:
    """fn(*args, **kwargs) inside `trace`: a stateless op's kernel error (one TF's scratch graph never meets, as it
    never runs: ArgMax over an empty axis) deferred as tf.function's pruning retry defers it (runtime/ops/
    pruning.py), the failing op's output a stand-in whose static shape, where its shape function gives one, is
    the spec's (esweep67: keras.ops.argmax of a (None, 0) slice in a Lambda builds, as in TF, and its predict
    raises). Errors a retry meets again, or of a stateful op, stand; the Python runs again on each retry."""
    from simdist.runtime.ops import pruning
    try:
        return fn(*args, **kwargs)
    except Exception as e:  # noqa: BLE001 - re-raised unless a stateless kernel's error to defer
        key = pruning.prunable(e)
        if key is None:
            raise
        keys, err = [key], e
    for _ in range(4):
        try:
            with pruning.deferring(keys, probed=True):
                return fn(*args, **kwargs)
        except Exception as e:  # noqa: BLE001
            key = pruning.prunable(e)
            if key is None or key in keys:
                raise
            keys.append(key)
            err = e
    raise err


def argument(t: Any, shape: Sequence[int | None]) -> Any:
    """Probe t as a placeholder of `shape` (None: unknown): an alias whose unknown dimensions the graph does not know."""
    return static_shapes.argument(t, TensorShape(list(shape)))


def unknown(t: Any) -> tuple[bool, ...] | None:
    """The dimensions of t (an output, read while the trace is open) its graph does not know, or None."""
    if not isinstance(t, Tensor):
        return None
    if static_shapes.rank_unknown(t):
        return (True,) * t.ndim
    return static_shapes.unknown(t)
