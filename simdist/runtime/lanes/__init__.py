"""Replica lanes of a recorded graph, fused into whole-batch ops.

A tf.function that calls MirroredStrategy.run records each replica's ops in turn: its *lane*
(Recorder.lane). The lanes are R copies of one computation, on R slices of the batch and R
mirrored copies of the variables. TF runs them as R kernels each. The replay built here runs
each op once for all lanes, on the lanes' values stacked along a new leading axis: the matmul of
the stacked activations by the (shared) weights is one whole-batch matmul. And the cross-replica
sum of a contraction over the batch rows (a weight gradient x^T·g, a bias gradient) is computed
as one contraction over all R·n rows, so the per-replica gradients are never materialised.

Values (docs/spec.md, clause function.trace-once): every op run stacked gives each lane exactly what the
lane's own op gives, bit for bit, checked against the recorded eager values when the graph is
built (an op whose stacked form does not reproduce them runs lane by lane instead). The fused
cross-replica sums add the same products in another order, so a summed gradient differs from the
sum of the per-replica gradients by float rounding (checked against the recorded sum: within
1e-4 relative to its largest element). Simulated time, FLOPs, traffic and the trace are the
recorded call's, as for every replay.

When: the lanes are isomorphic (the same ops, attributes, dtypes and shapes, and the same
collective points), no lane draws random numbers, fusing keeps every variable's reads and writes
in their order, and, each time it replays, the mirrored copies the lanes read as one are equal
(version counters; the arrays are compared when a copy was written elsewhere), no variable
observer or transaction is active (ParameterServer traffic) and no fault is attached. Otherwise
the graph replays lane by lane, exactly as recorded. SIMDIST_FUSE_REPLICAS=0 turns fusion off.

Modules: fuse.py (the pass over a recording's nodes), forms.py (the stacked forms of ops and the
fused contractions), mirrors.py (mirrored copies read as one and updated once), guard.py (when
a fused replay may run).
"""

from __future__ import annotations

import os

from simdist.runtime.lanes.fuse import Fusion, fuse
from simdist.runtime.lanes.guard import Guard

__all__ = ["Fusion", "Guard", "enabled", "fuse"]

enabled = os.environ.get("SIMDIST_FUSE_REPLICAS", "1") != "0"
