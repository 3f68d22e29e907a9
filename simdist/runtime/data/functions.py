"""tf.data functions traced once, as TF traces them (docs/spec.md `dataset.function-trace`).

TF traces the function of `map`, `filter`, `reduce` ... into a graph when the dataset is made
(data/ops/structured_function.py StructuredFunctionWrapper) and runs that graph for every
element: the Python body and its side effects (print, list appends, counters) run once, its
arguments are graph tensors (`.numpy()` fails, clause function.symbolic-tensors) and
`tf.executing_eagerly()` is False there.

simdist records the Python's ops (simdist.runtime.graph `record_call`, the recorder of
tf.function) on the first call for each input signature (the shapes and dtypes of the element's
tensors) and replays them for every later element of that signature, without running the Python.
The call that records is the build's first spec probe (runtime/data/map_filter.py), so a
function whose input spec is fully known runs its Python once, at build time, as on TF; the
probes are effect-free (TF's trace runs no op: no tf.print output, no variable write, no random
kernel moved). A replay
computes what the Python would (the same NumPy calls, variable reads and writes, FLOP tally);
its random ops draw from the running iterator's kernels (random_graphs.as_instance). Grappler's
value-changing rewrites do not apply (TF instantiates tf.data functions without them), also when the Python runs
inside a recorded tf.function (a dataset made or reduced there: the recorder's rewrites are off for its ops; until
tsweep56 `x / 7.0` in such a map was `x * (1/7)` on the first call and a division on later ones).

Where simdist differs from TF:
- Recorded graphs are specialised to their input shapes: a function whose input spec leaves
  dimensions unknown (a `batch` without drop_remainder before the `map`) runs its Python again
  for each distinct element shape (TF: once, with None dimensions), up to `MAX_SIGNATURES`.
- A call the recorder cannot record (graph/__init__.py: a Python read of a tensor's value, as an
  `if` on a tensor, which AutoGraph would make a tf.cond, a print of one, or an op whose front end
  reads a tensor argument's value, as tf.range(x); a returned dataset, as flat_map's;
  dataset values made inside) runs its Python for every element of that signature, side effects
  included, as simdist did before; so do calls inside a recorded tf.function, a cost section or a
  coordinator closure, and every call under SIMDIST_TRACE_FUNCTIONS=0.
- A replay does not flush subnormal results of its ops to zero (nor does a tf.function's).
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from simdist.runtime import context, execution, symbolic, variables
from simdist.runtime import variable_creation as _creation
from simdist.runtime.data import components
from simdist.runtime.ops import random_graphs
from simdist.runtime.tensor import Tensor

__all__ = ["DatasetFunction", "MAX_SIGNATURES"]

# Input signatures recorded per function, at most; elements of further signatures run the Python.
MAX_SIGNATURES = 16


class DatasetFunction:
    """A tf.data function: `call(arrays, instance)` runs it on one input (its flat arrays, in
    the order of `structure`'s leaves) as `instance` (random_graphs: the function's kernels),
    replaying the graph recorded for the input's signature, else running `invoke`."""

    __slots__ = ("invoke", "structure", "specs", "dtypes", "trace", "graphs", "retraced")

    def __init__(self, invoke: Callable[[Any], Any], structure: Any, trace: random_graphs.Trace) -> None:
        self.specs = components.flat_component_specs(structure)   # (a SparseTensor leaf: three components)
        if not all(hasattr(s, "dtype") for s in self.specs):
            raise NotImplementedError("simdist's traced tf.data functions take tensors only: a map/filter/scan/"
                                      "take_while/reduce function of dataset-valued elements (window's) is not "
                                      "supported; read windows with flat_map or interleave")
        self.invoke = invoke              # the packed input -> the Python function's raw result
        self.structure = structure        # the input's structure (its leaves: TensorSpecs, SparseTensorSpecs)
        self.dtypes = [s.dtype for s in self.specs]
        self.trace = trace
        # input signature -> (Graph, the trace it was recorded as) or None (not recordable: Python)
        self.graphs: dict[tuple, Any] = {}
        self.retraced = False   # (whether TF's second trace, variable creation refused, was run: `probe`)

    def probe(self, arrays: list[np.ndarray], device: str) -> Any:
        """A call at build time (a spec probe), as the function's trace: effect-free, as TF's
        tracing runs none of its ops (an execution.Discarded collector: tf.print writes nothing,
        random kernels do not move, charges are dropped; its variable writes go to a
        transaction never committed). Inside a coordinator closure (its own transaction and
        charges open) its writes stay in the closure's transaction and the Python runs as is."""
        c = execution.current()
        outer = bool(c.transactions or c.charges)
        dropped = execution.Discarded()
        txn = None if outer else variables.Transaction()
        c.charges.append(dropped)
        if txn is not None:
            c.transactions.append(txn)
        try:
            made = _creation.created()
            out = self.call(arrays, self.trace, device, None if outer else (txn, dropped))
            if _creation.created() > made and not self.retraced:
                self._second_trace(arrays, device)
            return out
        finally:
            _remove(c.charges, dropped)
            if txn is not None:
                _remove(c.transactions, txn)

    def _second_trace(self, arrays: list[np.ndarray], device: str) -> None:
        """TF's second trace of a dataset function whose first trace created variables: TF 2.21 traces it as a
        tf.function with an input signature (structured_function.py `trace_tf_function`, get_concrete_function),
        whose first trace, having created variables, is followed by one with a creator that refuses any
        (polymorphic_function.py `_initialize`, then `_no_variable_creation_config`). A function creating a variable
        on every run (a seeded Keras layer made inside the map function: its SeedGenerator's state) raises TF's
        singleton ValueError when the dataset is made; one whose second run creates none (the singleton pattern,
        a layer built on its first call) passes. Only that error is asked here (clause dataset.function-trace)."""
        self.retraced = True
        try:
            with _creation.refused():
                self._python(arrays, self.trace, device)
        except ValueError as e:
            if _creation.singleton(e):
                raise ValueError(_creation.SINGLETON_ERROR) from None
        except Exception:  # noqa: BLE001 - only the singleton rule is asked here
            pass

    def call(self, arrays: list[np.ndarray], instance: random_graphs.Trace, device: str,
             own: Any = None) -> Any:
        """The function's raw result on the input `arrays` (tensors on `device`). `own`: the
        transaction and collector of this function's own probe, which do not keep it from
        recording or replaying."""
        key = tuple((a.shape, a.dtype) for a in arrays)
        graphs = self.graphs
        entry = graphs.get(key, False)
        if entry is not False and entry is not None and _replayable(own):
            g, recorded = entry
            if recorded is instance:
                return g.run(*arrays, dev=device)
            with random_graphs.as_instance(recorded, instance):
                return g.run(*arrays, dev=device)
        if entry is False and len(graphs) < MAX_SIGNATURES and _recordable(own):
            g, out = self._record(arrays, instance, device)
            graphs[key] = g
            return out
        return self._python(arrays, instance, device)

    def _leaves(self, arrays: list[np.ndarray], device: str) -> list[Tensor]:
        return [Tensor(a, dt, device) for a, dt in zip(arrays, self.dtypes)]

    def _note(self, leaves: list[Tensor]) -> None:
        """Mark the arguments graph tensors named as TF's placeholders (`args_0`, `args_1` ... in
        the element's flattened order) with the element spec's shapes (function.symbolic-tensors)."""
        for i, (t, spec) in enumerate(zip(leaves, self.specs)):
            symbolic.note(t, f"args_{i}", spec.shape)

    def _python(self, arrays: list[np.ndarray], instance: random_graphs.Trace, device: str) -> Any:
        """A call running the Python (its arguments graph tensors, as the trace's would be)."""
        leaves = self._leaves(arrays, device)
        rec = execution.current().recorder   # (inside a recorded tf.function: its ops are recorded, not rewritten)
        was = rec.rewrites if rec is not None else None
        if rec is not None:
            rec.rewrites = False
        try:
            with random_graphs.running(instance), context.in_dataset_function(self.trace), symbolic.strictness(False):
                self._note(leaves)
                return self.invoke(components.pack(self.structure, leaves))
        finally:
            if rec is not None:
                rec.rewrites = was

    def _record(self, arrays: list[np.ndarray], instance: random_graphs.Trace, device: str) -> tuple[Any, Any]:
        """Run the Python on `arrays` while recording it: ((graph, instance) or None, its result)."""
        from simdist.runtime import graph
        leaves = self._leaves(arrays, device)
        structure, invoke = self.structure, self.invoke

        def body(*twins: Tensor) -> Any:
            return invoke(components.pack(structure, list(twins)))
        with random_graphs.running(instance), context.in_dataset_function(self.trace), symbolic.strictness(False):
            self._note(leaves)
            g, out = graph.record_call(body, tuple(leaves), {}, leaves, _same, rewrites=False)
        return ((g, instance) if type(g) is graph.Graph else None), out


def _same(out: Any) -> Any:
    return out


def _remove(items: list[Any], item: Any) -> None:
    """Drop `item` from `items` by identity (the innermost occurrence)."""
    for i in range(len(items) - 1, -1, -1):
        if items[i] is item:
            del items[i]
            return


def _outside(c: Any, own: Any) -> bool:
    """Whether context c has no open cost section, coordinator closure (transaction, charges)
    other than `own` (a probe's: (its transaction, its Discarded collector))."""
    if c.sections:
        return False
    if own is None:
        return not (c.transactions or c.charges)
    return all(t is own[0] for t in c.transactions) and all(x is own[1] for x in c.charges)


def _recordable(own: Any = None) -> bool:
    """Whether a call may record here: not inside another recording, an open cost section, a
    coordinator closure or under gradient tapes (as tf.function's calls), and with simdist's
    tracing on."""
    from simdist.runtime import graph
    c = execution.current()
    return graph.enabled and _outside(c, own) and not (execution.recording_anywhere() or c.observers)


def _replayable(own: Any = None) -> bool:
    """Whether a call may replay its recorded graph here (where it may record; under gradient
    tapes too: TF's tapes do not see into a dataset's functions)."""
    return _outside(execution.current(), own)
