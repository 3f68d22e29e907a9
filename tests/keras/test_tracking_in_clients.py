"""Keras attribute tracking (`no_tracking`, Keras's DotNotTrackScope) is per thread of control:
the in-process clients of `simdist.launch` (greenlets switching at collectives) each have their
own, and none leaks into the process after the launch.

Regression: `Model.compile` runs in `no_tracking`; under MultiWorkerMirroredStrategy its
optimizer's variables meet the other workers at a broadcast, so two clients were inside the
block at once, and a process-wide flag saved and restored around it stayed off after the
launch: every later model had no weights (conformance test_keras_sharded after the MWMS keras
program)."""

from __future__ import annotations

import json
import os

from simdist import tf
from simdist.keras.tracking import is_tracking_enabled, no_tracking
from simdist.launch import launch


def _all_reduce(strategy):
    return strategy.run(lambda: tf.distribute.get_replica_context().all_reduce("SUM", tf.constant(1.0)))


def test_clients_parked_inside_no_tracking_leave_tracking_on():
    def main():
        s = tf.distribute.MultiWorkerMirroredStrategy()
        seen = {"before": is_tracking_enabled()}
        with no_tracking():
            seen["inside"] = is_tracking_enabled()
            _all_reduce(s)   # every client parks here, inside the block
            seen["inside_after_collective"] = is_tracking_enabled()
        seen["after"] = is_tracking_enabled()
        _all_reduce(s)
        return seen

    r = launch(main, workers=2)
    assert not r.errors, f"the launch failed: {r.errors}"
    want = {"before": True, "inside": False, "inside_after_collective": False, "after": True}
    for i in (0, 1):
        got = r.results[("worker", i)]
        assert got == want, f"worker {i} saw tracking {got}, but should see {want}"
    assert is_tracking_enabled(), "tracking is off in the process after the launch, but should be on"
    keras = tf.keras
    keras.backend.clear_session()
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
    shapes = [tuple(w.shape) for w in model.weights]
    assert shapes == [(2, 1), (1,)], \
        f"a Dense(1) model built after the launch has weights of shapes {shapes}, but should have [(2, 1), (1,)]"


def test_one_client_inside_no_tracking_does_not_turn_it_off_for_another():
    def main():
        s = tf.distribute.MultiWorkerMirroredStrategy()
        if json.loads(os.environ["TF_CONFIG"])["task"]["index"] == 0:
            with no_tracking():
                _all_reduce(s)   # worker 0 parks inside the block; worker 1 takes its turn
            return None
        seen = is_tracking_enabled()   # (worker 0 is waiting inside its block now)
        _all_reduce(s)
        return seen

    r = launch(main, workers=2)
    assert not r.errors, f"the launch failed: {r.errors}"
    got = r.results[("worker", 1)]
    assert got is True, f"worker 1 saw tracking {got} while worker 0 was inside no_tracking, but should see True"
