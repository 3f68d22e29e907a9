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
from typing import Iterator

# [variables created so far, whether creating one now is refused]
CREATION = [0, False]
SINGLETON_ERROR = ("tf.function only supports singleton tf.Variables created on the first call. Make sure the "
                   "tf.Variable is only created once or created outside tf.function. See "
                   "https://www.tensorflow.org/guide/function#creating_tfvariables for more information.")

LATER_ERROR = "Creating variables on a non-first call to a function decorated with tf.function."


def note() -> None:
    """A variable is being created (before its initial value is read, as TF's creator scope)."""
    if CREATION[1]:
        raise ValueError(SINGLETON_ERROR)
    CREATION[0] += 1


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

