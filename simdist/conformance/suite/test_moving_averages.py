"""tf.train.ExponentialMovingAverage under MirroredStrategy — clause training.moving-average: the
average of a mirrored variable is mirrored; `apply` in cross-replica context updates each copy from
the variable's copy on its device; inside `strategy.run` (eagerly or in a tf.function) it reduces
the variable's per-replica values with MEAN onto the average first. Expected values computed here
from the rule avg -= (avg - value) * (1 - decay)."""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal, assert_type_name, to_numpy

clause = pytest.mark.clause


def _move(avg: np.ndarray, value: np.ndarray, decay: float) -> np.ndarray:
    one_minus = np.float32(1.0) - np.float32(decay)
    return (avg - (avg - value) * one_minus).astype(np.float32)


@clause("training.moving-average", ref="tf221")
@pytest.mark.parametrize("traced", [False, True], ids=["eager", "tf.function"])
def test_moving_average_of_mirrored_variables(backend, tf, traced):
    strategy = backend.make_strategy("mirrored", 2)
    with strategy.scope():
        v = tf.Variable([1.0, 2.0])
        ema = tf.train.ExponentialMovingAverage(0.75)
        ema.apply([v])
    avg = ema.average(v)
    call = "MirroredStrategy(2): ema.apply([v]) in the scope"
    assert_type_name(avg, "MirroredVariable", call=call, what="the average")
    assert_close(to_numpy(avg), np.array([1.0, 2.0], np.float32), call=call, what="the first average (v's value)")

    def step():
        v.assign_add([1.0, 1.0])
        ema.apply([v])

    run = tf.function(lambda: strategy.run(step)) if traced else (lambda: strategy.run(step))
    want, value = np.array([1.0, 2.0], np.float32), np.array([1.0, 2.0], np.float32)
    for k in range(3):
        run()
        value = value + 1.0
        want = _move(want, value, 0.75)
        copies = [to_numpy(c) for c in strategy.experimental_local_results(avg)]
        for i, c in enumerate(copies):
            assert_close(c, want, call=f"{call}, then {k + 1} strategy.run steps of v += 1; ema.apply([v])",
                         what=f"the average's copy {i}")


@clause("training.moving-average", ref="tf221")
def test_moving_average_reduces_replica_values_with_mean(backend, tf):
    strategy = backend.make_strategy("mirrored", 2)
    with strategy.scope():
        sv = tf.Variable(1.0, synchronization=tf.VariableSynchronization.ON_READ,
                         aggregation=tf.VariableAggregation.SUM)
        ema = tf.train.ExponentialMovingAverage(0.625, name="sync_avg")
        ema.apply([sv])
    # the average starts at sv's read value (the SUM of its copies), then moves towards the copy on
    # each device (the cross-replica update reads the local copy)
    start = float(to_numpy(sv))
    locals0 = [float(to_numpy(c)) for c in strategy.experimental_local_results(sv)]
    got0 = [float(to_numpy(c)) for c in strategy.experimental_local_results(ema.average(sv))]
    assert_close(np.array(got0, np.float32), np.array([_move(np.float32(start), np.float32(c), 0.625) for c in locals0],
                                                      np.float32),
                 call="a SUM sync-on-read variable: ema.apply([sv]) in the scope", what="the average's copies")

    def set_and_apply():
        rid = tf.distribute.get_replica_context().replica_id_in_sync_group
        sv.assign(tf.cast(rid, tf.float32) * 4.0 + 2.0)
        ema.apply([sv])

    strategy.run(set_and_apply)
    mean = np.float32(np.mean([2.0, 6.0]))
    want = np.array([_move(np.float32(g), mean, 0.625) for g in got0], np.float32)
    got = np.array([to_numpy(c) for c in strategy.experimental_local_results(ema.average(sv))], np.float32)
    assert_close(got, want, call="strategy.run: replica r sets sv = 4r + 2, then ema.apply([sv])",
                 what="the average's copies (moved towards the MEAN of the replicas' values)")
    assert_equal(float(to_numpy(sv)), 8.0, call="strategy.run: replica r sets sv = 4r + 2", what="sv (the SUM)")
