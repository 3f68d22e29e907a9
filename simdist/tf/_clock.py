"""tf.timestamp on the simulated clock (names44, clause api.namespaces).

TF 2.21's tf.timestamp (logging_ops: the stateful Timestamp op) is the wall clock: a float64 scalar of seconds since
the Unix epoch, read each time the op runs (in a tf.function, at each call). simdist is deterministic: its clock
is the simulated one, whose seconds count from 0 when the machine is configured — the epoch of simdist's other
clock readings (tf.summary's event wall_time, a Keras file's save date), so a program sees a float64 scalar that
does not decrease between calls and advances with the simulated work in between, never the host's date.
"""

from __future__ import annotations

from typing import Any


def timestamp(name: Any = None) -> Any:
    """The simulated time in seconds (a float64 scalar); a tf.function holding it runs its Python at each call
    (a recorded call would replay the first call's reading)."""
    from simdist.runtime import execution
    from simdist.runtime.tensor import convert_to_tensor
    from simdist.runtime import dtypes
    from simdist.session import now
    rec = execution._current.ctx.recorder
    if rec is not None:
        rec.invalidate("it reads the clock (tf.timestamp)")
    return convert_to_tensor(float(now()), dtype=dtypes.float64)
