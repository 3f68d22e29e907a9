"""Variable creation as tf.function sees it (clause function.trace-once): TF 2.21's
Function traces its first call with variable creation allowed and, when that trace created
variables, traces the Python again with a creator that refuses any (polymorphic_function.py
`invalid_creator_scope`); every later trace runs under that creator too. So a function may create
its variables once (the singleton pattern, `if self.v is None: self.v = tf.Variable(...)`), and one
that creates a variable on every run raises ValueError, on its first call already. When the first
call created none, a later trace may create some, and its call raises ValueError after running.
(simdist runs the first call's Python once: the singleton check meets the second trace at the
next call's recording; clause function.trace-once.)"""

from __future__ import annotations

import contextlib
import weakref
from typing import Any, Iterator

# [variables created so far, whether creating one now is refused]
CREATION = [0, False]
SINGLETON_ERROR = ("tf.function only supports singleton tf.Variables created on the first call. Make sure the "
                   "tf.Variable is only created once or created outside tf.function. See "
                   "https://www.tensorflow.org/guide/function#creating_tfvariables for more information.")

LATER_ERROR = "Creating variables on a non-first call to a function decorated with tf.function."


# the weak references of the variables created while a first call runs (`watching`), or None
WATCH: list = [None]


def note(var: Any = None) -> None:
    """A variable is being created (before its initial value is read, as TF's creator scope)."""
    if CREATION[1]:
        raise ValueError(SINGLETON_ERROR)
    CREATION[0] += 1
    if WATCH[0] is not None and var is not None:
        try:
            WATCH[0].append(weakref.ref(var))
        except TypeError:   # (no weak reference: counted as kept)
            WATCH[0].append(lambda: var)


@contextlib.contextmanager
def watching(refs: list) -> Iterator[list]:
    """The variables created inside are noted in `refs` (weakly), and in an enclosing watch's."""
    before, WATCH[0] = WATCH[0], refs
    try:
        yield refs
    finally:
        WATCH[0] = before
        if before is not None:
            before.extend(refs)


def all_dropped(refs: list) -> bool:
    """Whether no variable of `refs` is kept any more (after a garbage collection): a variable
    nothing keeps is none a guard of the singleton pattern can read."""
    import gc
    if not refs:
        return False
    if all(r() is None for r in refs):
        return True
    # Only the young generations: the variables were made by the call that just ran, so a cycle that drops
    # them is young (a full collection cost 0.2 s a first call in a large process: 12 of the 15 s of
    # conformance's kfit fit grid, where Keras's train function keeps its optimizer's variables). A cycle
    # promoted to the oldest generation during the call counts as kept: the first call then runs as it does for
    # the singleton pattern.
    gc.collect(1)
    return all(r() is None for r in refs)


def created() -> int:
    """How many variables were created so far (compare two reads)."""
    return CREATION[0]


@contextlib.contextmanager
def refused() -> Iterator[None]:
    """Variables created inside raise TF's singleton ValueError."""
    before, CREATION[1] = CREATION[1], True
    try:
        yield
    finally:
        CREATION[1] = before

