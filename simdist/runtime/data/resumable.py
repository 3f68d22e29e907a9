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

__all__ = ["Steps", "expand", "lazy"]


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


def lazy(make_step: Callable[[], Callable[[], Any]]) -> Steps:
    """A `Steps` whose step function `make_step()` builds at the first call, as a generator's body
    starts at its first `next` (the input iterators it opens, a shuffle's epoch, start then)."""
    made: list[Callable[[], Any]] = []

    def step() -> Any:
        if not made:
            made.append(make_step())
        return made[0]()
    return Steps(step)


class Ended(Exception):
    """Raised by an `expand` handler: the iteration ends here (take_while's refused element)."""


def expand(open_input: Callable[[], Iterator[Any]], handle: Callable[[Any], Iterator[Any]]) -> Steps:
    """The outputs of each input element in order, `handle(element)` giving an iterator of them (a
    list, or a dataset's own resumable iterator, flat_map's); `handle` raising `Ended` ends it. An
    error of the input, of `handle` or of an output iterator is passed on and the next call goes on
    from where it was (the input opened by `open_input` at the first call)."""
    state: dict[str, Any] = {"src": None, "out": iter(()), "ended": False}

    def step() -> Any:
        if state["ended"]:
            raise StopIteration
        if state["src"] is None:
            state["src"] = open_input()
        while True:
            try:
                return next(state["out"])
            except StopIteration:
                pass
            flat = next(state["src"])
            try:
                state["out"] = iter(handle(flat))
            except Ended:
                state["ended"] = True
                raise StopIteration from None
    return Steps(step)
