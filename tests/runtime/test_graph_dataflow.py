"""Which writes of a recorded call wait for its compute (runtime/graph/dataflow.py, clause
optim.pss-updates): a write whose value comes from reads and constants through cheap ops does not."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from simdist import tf
from simdist.runtime.graph.dataflow import CHEAP_KINDS, early_writes


def _graph(fn: Any, *args: Any) -> Any:
    """The recorded graph of fn's call on args (its first call records it)."""
    f = tf.function(fn)
    f(*args)
    graphs = [g for g in f._calls.values() if hasattr(g, "early")]
    assert len(graphs) == 1, f"one recorded graph expected, got {list(f._calls.values())}"
    return graphs[0]


def _named(g: Any) -> list[tuple[str, Any]]:
    """(variable name, its early reads' names or None) per write step."""
    return [(v.name, None if d is None else tuple(x.name for x in d)) for v, d in zip(g.write_vars, g.early)]


@pytest.mark.clause("optim.pss-updates")
def test_a_counter_increment_is_early_and_a_computed_update_is_not() -> None:
    it = tf.Variable(np.int64(0), name="it")
    w = tf.Variable(np.ones((4, 4), np.float32), name="w")
    lr = tf.Variable(0.5, name="lr")
    b = tf.Variable(np.zeros(4, np.float32), name="b")

    def step() -> None:
        w.assign_sub(lr * tf.matmul(w, w))          # a contraction: the step's compute
        it.assign(it + 1)                            # Keras's assign_add: read, add, assign
        b.assign_add(tf.ones([4]))                   # constants only
        b.assign(b * 0.5 + tf.reduce_sum(lr * 2.0))  # reads (its own write, lr) and cheap ops
    got = _named(_graph(step))
    want = [("w:0", None), ("it:0", ("it:0",)), ("b:0", ()), ("b:0", ("b:0", "lr:0"))]
    assert got == want, f"early writes {got}, but should be {want}"


@pytest.mark.clause("optim.pss-updates")
def test_a_write_stays_ordered_after_a_write_that_waits() -> None:
    w = tf.Variable(np.ones((3, 3), np.float32), name="w")
    c = tf.Variable(0.0, name="c")
    d = tf.Variable(0.0, name="d")

    def step(x: Any) -> None:
        c.assign(tf.reduce_sum(tf.matmul(w, w)))    # waits for the compute
        c.assign_add(1.0)                            # same variable after it: waits too
        d.assign(c + 1.0)                            # reads c as the call wrote it: waits too
        d.assign_add(x)                              # a call argument: waits
    got = _named(_graph(step, tf.constant(2.0)))
    assert got == [("c:0", None), ("c:0", None), ("d:0", None), ("d:0", None)], \
        f"early writes {got}, but every write should wait for the compute (ordering, an argument)"


@pytest.mark.clause("optim.pss-updates")
def test_random_draws_and_expensive_kinds_are_compute() -> None:
    v = tf.Variable(np.ones((2, 2), np.float32), name="v")
    r = tf.Variable(np.zeros((2, 2), np.float32), name="r")

    def step() -> None:
        r.assign(v + tf.random.uniform([2, 2], seed=1))   # a random draw
        v.assign(tf.nn.softmax(v))                         # an nn op (relu is elementwise: cheap)
    got = _named(_graph(step))
    assert got == [("r:0", None), ("v:0", None)], f"early writes {got}, but a draw and an nn op are compute"
    assert {"contraction", "window", "nn", "random", "collective", "custom", "sort"}.isdisjoint(CHEAP_KINDS), \
        f"CHEAP_KINDS={sorted(CHEAP_KINDS)} holds an expensive kind"
    assert early_writes([], []) == (), "a graph without writes has no early writes"


@pytest.mark.clause("optim.pss-updates")
def test_a_tensor_made_outside_the_call_is_an_input() -> None:
    """A captured tensor is fed to the call (as TF's captures are): a write of it waits, while
    the same value made inside the call is a constant."""
    v = tf.Variable(np.zeros(3, np.float32), name="v")
    u = tf.Variable(np.zeros(3, np.float32), name="u")
    outside = tf.ones([3])

    def step() -> None:
        v.assign_add(outside * 2.0)
        u.assign_add(tf.ones([3]) * 2.0)
    got = _named(_graph(step))
    assert got == [("v:0", None), ("u:0", ())], f"early writes {got}, but only the write of the call's own constant is"
