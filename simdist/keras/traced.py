"""Whether Keras code is running inside a step function that TF would trace.

Keras 3's TF trainer runs train/test/predict steps as `tf.function`s (unless
`compile(run_eagerly=True)`); inside the trace a batch's first dimension is unknown (None),
because the input dataset's element spec leaves it unknown. Keras code that branches on a
static shape then takes the unknown-shape branch: e.g. a loss over an empty replica batch is
`divide_no_nan(0, 0) = 0` inside fit, but the empty values themselves when called eagerly
(losses/loss.py `reduce_values`). simdist records the step from a run on concrete batches (clause
keras.fit.step-replay), so the trainer says when a step runs "traced" and such shape checks ask
`batch_dim_unknown()` (clause keras.fit.traced-shapes).
"""

from __future__ import annotations

import contextlib
import threading
from typing import Iterator


class _State(threading.local):
    depth = 0


_state = _State()


@contextlib.contextmanager
def traced_step(traced: bool = True) -> Iterator[None]:
    """Run the body as the inside of a traced step (when `traced`)."""
    if not traced:
        yield
        return
    _state.depth += 1
    try:
        yield
    finally:
        _state.depth -= 1


def batch_dim_unknown() -> bool:
    """True inside a traced step: static batch dimensions read as unknown."""
    return _state.depth > 0
