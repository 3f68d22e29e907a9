"""What an iterator checkpoint reads of its pipeline (clause dataset.iterator-checkpoint).

TF 2.21 saves an iterator's state (SerializeIterator: every node's buffers, counters and random
state) and refuses a pipeline whose functions hold a stateful op other than Assert and PrintV2
(FailedPreconditionError "RandomUniform is stateful.", found from the last node up). simdist saves
the position instead and replays it: the pipeline's node kinds (a restore into another pipeline is
TF's NotFoundError), the epochs its shuffles started from (their order is a function of the epoch)
and the number of elements returned. Nodes are visited from the iterated node up its inputs, depth
first, in input order.
"""

from __future__ import annotations

import contextlib
from typing import Any, Iterator

__all__ = ["pipeline", "kinds", "epochs", "set_epochs", "kept_epochs", "stateful_ops"]


def pipeline(dataset: Any) -> Iterator[Any]:
    """The nodes of `dataset`'s pipeline: itself, then each input's pipeline in order."""
    yield dataset
    for node in dataset.inputs:
        yield from pipeline(node)


def kinds(dataset: Any) -> list[str]:
    """The pipeline's TF op kinds, in `pipeline` order."""
    return [node._KIND for node in pipeline(dataset)]


def epochs(dataset: Any) -> list[int]:
    """The epoch counter of each shuffle in the pipeline (what its next iteration reads)."""
    return [node._epoch for node in pipeline(dataset) if hasattr(node, "_epoch")]


def set_epochs(dataset: Any, values: list[int]) -> None:
    """Set the shuffles' epoch counters (in `epochs` order)."""
    nodes = [node for node in pipeline(dataset) if hasattr(node, "_epoch")]
    for node, value in zip(nodes, values):
        node._epoch = value


@contextlib.contextmanager
def kept_epochs(dataset: Any) -> Iterator[None]:
    """A build-time probe's iteration of `dataset` is no pass of it: its shuffles' epoch counters are
    put back afterwards (TF builds without iterating, so the first real pass draws the first
    iteration's seeds, clause dataset.shuffle)."""
    saved = epochs(dataset)
    try:
        yield
    finally:
        set_epochs(dataset, saved)


def stateful_ops(node: Any) -> list[str]:
    """The stateful ops TF would find in the node: those its function's Python made (its build trace
    records them, context.note_stateful_op) and a source's own (`_STATEFUL_OPS`: from_generator's PyFunc)."""
    trace = getattr(node, "_trace", None)
    made = list(trace.stateful) if trace is not None else []
    return list(getattr(node, "_STATEFUL_OPS", ())) + made
