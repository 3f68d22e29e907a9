"""Iterators that stay usable after an element's error (clause dataset.ignore-errors).

TF's dataset iterators return an error status for one element and go on with the next when asked
again (`next(it)` after an InvalidArgumentError from a map function gives the following element;
`ignore_errors` drops the failed elements this way). A Python generator is finished once it raises,
so the nodes whose kernels continue after an error (map, filter, take, skip, prefetch, ignore_errors)
iterate with a `Steps`: an iterator calling a step function per element, which may raise and be
called again. A node still iterating with a generator ends its iteration at an input's error.
"""

from __future__ import annotations

from typing import Any, Callable, Iterator

__all__ = ["Steps"]


class Steps:
    """An iterator of `step()`'s results; `step` raises StopIteration at the end, and any other
    exception leaves the iterator usable (the next call is the next element's step)."""

    __slots__ = ("_step",)

    def __init__(self, step: Callable[[], Any]) -> None:
        self._step = step

    def __iter__(self) -> Iterator[Any]:
        return self

    def __next__(self) -> Any:
        return self._step()
