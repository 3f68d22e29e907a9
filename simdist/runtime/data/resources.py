"""Iterator resources: what one top-level iteration of a dataset owns (TF's IteratorResource).

TF instantiates a tf.data function's graph once per iterator resource (`iter(ds)`, a `for` loop,
`reduce`, a distributed dataset's iterator) and keeps that instance, with its stateful kernels, for
the resource's life: a `repeat` or a second pass of an inner pipeline inside one iterator continues
the kernels' random streams, a new iterator starts them afresh (docs/spec.md ops.random-in-function).
`owned(gen)` runs a top-level iteration as one resource; a dataset function's node asks `instance`
for its instance when its own iteration starts (inside the resource's `next`).
"""

from __future__ import annotations

from typing import Any, Callable, Iterator

from simdist.runtime.data.resumable import Steps

__all__ = ["owned", "instance", "options"]

# The resources whose `next` is running, innermost last (an iteration is synchronous: the nested
# generators of a pipeline run inside their top-level iterator's next()).
_ACTIVE: list[dict[Any, Any]] = []
_OPTIONS = object()   # (the key of a resource's pipeline options)
MADE = object()       # (the key of the shuffle epochs the iterator took as it was made: shuffle.py)


def owned(gen: Iterator[Any], options: Any = None, dataset: Any = None) -> Iterator[Any]:
    """`gen` (a dataset's `_iter_flat()`) as the iteration of one iterator resource. An element's
    error leaves it usable when `gen` is (resumable.Steps): the next call reads the next element.
    `options`: the iterated pipeline's tf.data.Options (what its nodes read with `options()`).
    `dataset`: the iterated pipeline, whose shuffles TF's MakeIterator initializes take their
    iteration's seeds now, as the iterator is made (shuffle.py `made_at_make`)."""
    res: dict[Any, Any] = {_OPTIONS: options}
    if dataset is not None:
        from simdist.runtime.data.shuffle import made_at_make
        res[MADE] = made_at_make(dataset)

    def step() -> Any:
        _ACTIVE.append(res)
        try:
            return next(gen)
        finally:
            _ACTIVE.pop()
    return Steps(step)


def instance(key: Any, make: Callable[[], Any]) -> Any:
    """The running resource's instance of `key` (made by `make` the first time); outside any
    resource a new one."""
    if not _ACTIVE:
        return make()
    res = _ACTIVE[-1]
    got = res.get(key)
    if got is None:
        got = res[key] = make()
    return got


def running(key: Any) -> Any:
    """The running resource's entry `key`, or None (outside any resource, or none kept)."""
    return _ACTIVE[-1].get(key) if _ACTIVE else None


def options() -> Any:
    """The tf.data.Options of the pipeline the running resource iterates (TF applies a pipeline's
    options, wherever they were set, to the whole of it); None when not known."""
    return _ACTIVE[-1].get(_OPTIONS) if _ACTIVE else None
