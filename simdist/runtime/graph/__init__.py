"""Recorded graphs of tf.functions: run the Python once, replay its ops after.

TF traces a `tf.function` once into a graph and then runs the graph: the Python body (and its
side effects) runs at trace time only. simdist does the same for the functions a
ClusterCoordinator schedules without arguments (`record`) and for direct calls of a
tf.function, once per input signature (`record_call`: the tensor arguments become the graph's
parameters, see simdist/tf/_function.py): the first call runs eagerly while a `Recorder` notes
each op; later calls replay the recorded ops on NumPy arrays, without the facade's per-op
Python work. A replay computes exactly what the eager call would (the same NumPy calls
on the same inputs, the same variable reads and writes in the same order, the same FLOP tally),
so values, traffic and simulated time are bit-identical to running the Python again
(within a tf.function: Grappler's rewrites, below, apply to the recording call as well).

The recorder is an observer of the op dispatch (simdist.runtime.ops.dispatch): every op of the
registry is recorded with its attributes, as are variable reads and assigns of plain variables
(with tensors or Python values, which become constants as TF's tracing makes them) and the
constants the call makes. Stateful ops (random draws, tf.print's PrintV2) are replayed anew every time, in order.
A function may return tensors, Python numbers (made tensors, as tf.function does) and None, in
lists, tuples and dicts. A call is *not* recordable, and the function keeps running eagerly
every time, when it:
- creates a tensor outside the op registry (a strategy's or a dataset's values: counted at
  `Tensor.__init__`);
- reads a recorded tensor's value other than as an op's input (`numpy()`, `bool()`, `float()`,
  printing, tf.debugging assertions, an op attribute such as one_hot's depth), unless that value
  is the same in every replay (a constant, or computed from constants and shapes only);
- creates a variable (a tf.function's first call may: it runs eagerly and the next call
  records, as TF lets a function create its variables on its first call only), touches a
  variable that is not a plain ResourceVariable, or returns anything else;
- runs alongside another thread that makes tensors, writes variables or charges the simulator.
`explain(fn)` says which, for a tf.function that was not recorded. A tf.cond or tf.switch_case
whose predicate depends on the call's values, and a tf.while_loop, are recordable: each is one
node running graphs of its own (its branches; its cond and body), recorded once as TF traces them
(graph/branches.py).

Contexts entered inside the call (device scopes, strategy scopes, a ParameterServerStrategy's
`strategy.run` with its replica context and merge calls, `extended.update`) are resolved when it
records, as TF resolves them when it traces: the recorded ops are what ran in them. A returned
tensor keeps the device the eager call gave it when that is not the call's own device. The
simulator charges the call made while it recorded (a `strategy.run`'s phases) are kept with the
graph (`charges`, `run_flops`) for the coordinator to charge again on every replay; in a direct
call they are steps of the graph itself (`Recorder.charge`), made again at the same point of
every replay. A `strategy.run` inside is recorded replica by replica as it ran (the replicas'
greenlets switch at each collective), its all-reduce as one node whose result every replica
shares.

Grappler's value-changing rewrites (`x / sqrt(y)` as `x * rsqrt(y)` and their like) are rules
on the ops (simdist.runtime.ops.grappler) that dispatch asks while a call records, so what is
recorded is already the rewritten graph. Graph optimisations of the recording, as TF's grappler
does them, none of which changes a value: ops whose
inputs are all constants are folded (`tf.ones`), identical pure ops on the same inputs are
computed once, and pure ops whose results nobody uses are dropped; elementwise ops on uniform
values (`tf.ones(shape) + scalar`) replay on their one element where every consumer allows it,
as XLA sinks broadcasts (simdist.runtime.uniform). The FLOPs charged stay those of the eager
call (the cost model describes the simulated device, not this host).
"""

from __future__ import annotations

import os

from simdist.runtime.graph.ir import Untraceable
from simdist.runtime.graph.optimize import merge_identical
from simdist.runtime.graph.recording import Recorder, loose_leaves, record, record_call, signature
from simdist.runtime.graph.replay import Graph, explain

__all__ = ["Graph", "Recorder", "Untraceable", "enabled", "explain", "loose_leaves", "merge_identical", "record",
           "record_call", "signature"]

# SIMDIST_TRACE_FUNCTIONS=0 runs every tf.function call eagerly, scheduled or direct (a switch for comparisons).
enabled = os.environ.get("SIMDIST_TRACE_FUNCTIONS", "1") != "0"
