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
import gc
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
def watching(refs: list, young: bool = False) -> Iterator[list]:
    """The variables created inside are noted in `refs` (weakly), and in an enclosing watch's. `young`: the
    collector's automatic passes are held off inside, so every object the enclosed call makes is still in the young
    generations when `all_dropped` asks (whether a cycle of them is collected then depends on the call's own program,
    not on when the collector last ran: a Dense layer made in the function was kept or not by that, isweep62)."""
    before, WATCH[0] = WATCH[0], refs
    held = young and gc.isenabled()
    if held:
        gc.disable()
    try:
        yield refs
    finally:
        if held:
            gc.enable()
        WATCH[0] = before
        if before is not None:
            before.extend(refs)


def all_dropped(refs: list, journal: dict | None = None) -> bool:
    """Whether no variable of `refs` is kept any more (after a collection of the young generations, which hold every
    object of a call `watching(young=True)`): a variable nothing keeps is none a guard of the singleton pattern can
    read. `journal`: the call's own write journal (runtime/variables.py trace_writes), whose entries of these
    variables do not keep them (a SeedGenerator's state variable the call wrote, isweep62); the entries of the kept
    ones are put back."""
    if not refs:
        return False
    taken = _take_entries(refs, journal) if journal else []
    try:
        if all(r() is None for r in refs):
            return True
        # Only the young generations: the variables were made by the call that just ran, with the automatic passes
        # held off (a full collection cost 0.2 s a first call in a large process: 12 of the 15 s of conformance's
        # kfit fit grid, where Keras's train function keeps its optimizer's variables).
        gc.collect(1)
        return all(r() is None for r in refs)
    finally:
        for key, (ref, value, version) in taken:
            var = ref()
            if var is not None:
                journal[key] = (var, value, version)   # type: ignore[index]


def _take_entries(refs: list, journal: dict) -> list:
    """The entries of `journal` of the variables `refs` names, taken out with weak references to them."""
    ids = {id(v) for v in (r() for r in refs) if v is not None}   # (no name left holding one)
    taken = []
    for key in [k for k, entry in journal.items() if id(entry[0]) in ids]:
        var, value, version = journal.pop(key)
        try:
            ref: Any = weakref.ref(var)
        except TypeError:   # (no weak reference: kept)
            ref = (lambda v: lambda: v)(var)
        taken.append((key, (ref, value, version)))
        del var
    return taken


def singleton(err: BaseException) -> bool:
    """Whether `err` is the singleton rule's ValueError."""
    return isinstance(err, ValueError) and str(err) == SINGLETON_ERROR


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

