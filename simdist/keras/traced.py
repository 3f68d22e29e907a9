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
    static_batch = False
    elements = False


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


@contextlib.contextmanager
def data_batches(static: bool, elements: bool = False) -> Iterator[None]:
    """Run fit's or evaluate's loop over a dataset whose batches have a static size (`static`) or not.

    Keras 3.15's ArrayDataAdapter (NumPy arrays and tensors) batches the full batches by reshaping the
    sample indices to [num_full_batches, batch_size] and concatenates the partial last batch: the
    dataset's element spec, and so the traced step's inputs, have batch dimension `batch_size` when
    there is no partial batch, None when there is one; a MirroredStrategy's per-replica inputs
    batch_size / replicas when that divides evenly (TF 2.21: a custom train_step reads x.shape (4, 3)
    for 8 samples by 4s, (None, 3) for 10, (1, 3) for 6 by 3s over three replicas; kfuzz41).

    `elements`: the step's inputs are the dataset iterator's elements, as fit's and evaluate's loops give
    them (Keras's multi_step_on_iterator calls `iterator.get_next()` inside its tf.function), so user code
    in the step (a custom train_step or test_step) reads their batch dimension as the element spec has it
    (`batch_elements_unknown`; kfuzz42). train_on_batch, test_on_batch and predict pass the batches
    themselves: TF traces their first call with the concrete shapes."""
    before = _state.static_batch, _state.elements
    _state.static_batch, _state.elements = static, elements
    try:
        yield
    finally:
        _state.static_batch, _state.elements = before


def batch_view() -> tuple[bool, bool]:
    """(static, elements) of the loop running now (`data_batches`): what a step recorded under it read of
    the batch dimension, so the trainer keeps one recording per view (kfuzz43)."""
    return _state.static_batch, _state.elements


def batch_dim_unknown() -> bool:
    """True inside a traced step over batches without a static size (`data_batches`): static batch
    dimensions read as unknown."""
    return _state.depth > 0 and not _state.static_batch


def batch_elements_unknown() -> bool:
    """True inside a traced step of fit's or evaluate's loop (`data_batches(..., elements=True)`) over
    batches without a static size: the step's inputs are dataset elements whose batch dimension the
    graph does not know, so user code reading `x.shape` there sees None (TF 2.21: (None, 3) for 10
    samples by 4s, and for any tf.data.Dataset batched without drop_remainder; kfuzz42)."""
    return _state.depth > 0 and _state.elements and not _state.static_batch
