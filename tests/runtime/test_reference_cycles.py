"""Running programs leaves no reference cycles behind.

A cycle frees its objects only when Python's cyclic collector runs, at moments set by everything
the process did before; simdist does not book frees made by the collector (simdist/runtime/gc_phase.py),
so an object that one code path frees by reference counting and another leaves in a cycle gives
different memory counters and traces (CI found one: a recursive closure in graph.dataflow kept a
traced call's variables alive). Cycles are also garbage made on every call. Each case runs a
program's step a few times with the collector off and then counts what only the collector can
reclaim: nothing.
"""

from __future__ import annotations

import gc
from collections import Counter
from typing import Any, Callable

import numpy as np
import pytest


def _cycles_left(step: Callable[[], Any], calls: int = 3) -> list[str]:
    """The types of the objects `calls` calls of step leave in reference cycles (warmed up first)."""
    step()
    for _ in range(10):     # (until nothing is left: a cycle freed with a finalizer can
        if not gc.collect():  # release another cycle, freed by the next collection)
            break
    was = gc.isenabled()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        for _ in range(calls):
            step()
        gc.collect()
        found = [type(o).__name__ for o in gc.garbage]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        if was:
            gc.enable()
    return found


def _two_cpus(tf: Any) -> Any:
    cpu = tf.config.list_physical_devices("CPU")[0]
    tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 2)
    return tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])


def _traced_mirrored_step(tf: Any) -> Callable[[], Any]:
    strategy = _two_cpus(tf)
    with strategy.scope():
        w = tf.Variable([[0.5], [-1.0]])

    @tf.function
    def step(x: Any) -> Any:
        def replica(x: Any) -> Any:
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean(tf.square(tf.matmul(x, w) - 1.0))
            return loss, tape.gradient(loss, w)
        loss, g = strategy.run(replica, args=(x,))
        w.assign_sub(0.1 * strategy.reduce("SUM", g, axis=None))
        return strategy.reduce("MEAN", loss, axis=None)

    x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    return lambda: step(x)


def _eager_run(tf: Any) -> Callable[[], Any]:
    strategy = _two_cpus(tf)
    return lambda: strategy.reduce("SUM", strategy.run(lambda a: a * 2.0, args=(tf.constant(1.0),)), axis=None)


def _keras_fit(tf: Any) -> Callable[[], Any]:
    strategy = _two_cpus(tf)
    with strategy.scope():
        model = tf.keras.Sequential([tf.keras.layers.Dense(4, activation="relu"), tf.keras.layers.Dense(1)])
        model.compile(optimizer=tf.keras.optimizers.Adam(0.01), loss="mse")
    x = np.arange(32, dtype=np.float32).reshape(16, 2) / 10
    y = x[:, :1] * 2
    return lambda: model.fit(x, y, batch_size=8, epochs=1, verbose=0)


def _eager_tape(tf: Any) -> Callable[[], Any]:
    w = tf.Variable([1.0, 2.0])

    def step() -> None:
        with tf.GradientTape() as t:
            loss = tf.reduce_sum(tf.nn.relu(w * 3.0))
        w.assign_sub(0.1 * t.gradient(loss, w))
    return step


@pytest.mark.parametrize("program", [_traced_mirrored_step, _eager_run, _keras_fit, _eager_tape],
                         ids=lambda f: f.__name__.strip("_"))
def test_a_step_leaves_no_reference_cycles(program: Callable[[Any], Callable[[], Any]]) -> None:
    import simdist
    from simdist import tf
    simdist.configure()
    try:
        left = _cycles_left(program(tf))
    finally:
        simdist.reset()
    assert not left, (f"3 calls left {len(left)} objects only the cyclic collector frees, but should leave "
                      f"none [{program.__name__}]: {Counter(left).most_common(8)}. Find the cycle with "
                      "gc.get_referents on gc.garbage under gc.DEBUG_SAVEALL")
