"""tf.summary.trace_on, trace_off and trace_export (TF 2.21 summary_ops_v2.py).

As TF: trace_on inside a tf.function or while a trace is on only warns ("Cannot enable trace inside
a tf.function.", "Trace already enabled") to the "tensorflow" logger; trace_export without a trace
is ValueError "Must enable trace before export through tf.summary.trace_on.", else it writes
summary `name` (plugin "graph_run_metadata_graph", content b"1") at `step` with write's rules and
turns the trace off; trace_off without a trace does nothing. Difference: simdist keeps no GraphDef
of the functions it runs, so the exported RunMetadata is empty (TF's holds the function graphs run
while tracing); `profiler=True` is NotImplementedError (simdist has no TF profiler).
"""

from __future__ import annotations

import logging
from typing import Any

from simdist.tf.summary._write import summary_scope, write

_trace: list[Any] = []   # the current trace's (graph, profiler), at most one


def _warn(text: str) -> None:
    logging.getLogger("tensorflow").warning(text)


def trace_on(graph: bool = True, profiler: bool = False, profiler_outdir: Any = None) -> None:
    """`tf.summary.trace_on`: start collecting the graphs of the functions run (see the module's difference)."""
    from simdist.runtime import context
    if context.in_function():
        _warn("Cannot enable trace inside a tf.function.")
        return
    if profiler:
        raise NotImplementedError("tf.summary.trace_on(profiler=True): simdist has no TensorFlow profiler")
    if _trace:
        _warn("Trace already enabled")
        return
    _trace.append((graph, profiler))


def trace_off() -> None:
    """`tf.summary.trace_off`: stop the trace, discarding what it collected."""
    _trace.clear()


def trace_export(name: str, step: Any = None, profiler_outdir: Any = None) -> Any:
    """`tf.summary.trace_export`: write the trace as summary `name` at `step`, then stop it."""
    from simdist.runtime import context
    from simdist.tf.summary._write import _choose_step
    if step is not None:
        _choose_step(step)
    if context.in_function():
        _warn("Cannot export trace inside a tf.function.")
        return None
    if not _trace:
        raise ValueError("Must enable trace before export through tf.summary.trace_on.")
    from tensorboard.compat.proto import summary_pb2
    metadata = summary_pb2.SummaryMetadata()
    metadata.plugin_data.plugin_name = "graph_run_metadata_graph"
    metadata.plugin_data.content = b"1"
    from simdist.runtime.ops import constant
    from simdist.runtime import dtypes
    with summary_scope(name, "graph_run_metadata_graph_summary", [step]) as (tag, _):
        write(tag=tag, tensor=constant(b"", dtype=dtypes.string), step=step, metadata=metadata)
    trace_off()
    return None
