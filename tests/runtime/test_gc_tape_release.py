"""A gradient tape freed by Python's cyclic collector keeps its bytes booked (runtime/gc_phase.py).

The collector runs when the process's allocation counts say so. Before the fifteenth session a
tape it freed gave its kept bytes back at that moment, in whatever execution context was current;
when that moment fell inside the recording of a tf.data function, the recording saw the held bytes
move and was abandoned ("gradient tapes it opened still keep tensors"), so `Dataset.reduce` ran
its Python once per element instead of once (CI's partial-backend conformance run caught it:
{'reduce': 6}, flaky with the machine's allocation history)."""

from __future__ import annotations

import gc

import numpy as np

from simdist import tf
from simdist.runtime import execution


def _garbage_tape_holding_bytes() -> int:
    """Leave a persistent tape that keeps tensors in a reference cycle; its kept bytes."""
    x = tf.constant(np.arange(256, dtype=np.float32))
    tape = tf.GradientTape(persistent=True)
    with tape:
        tape.watch(x)
        _ = tf.reduce_sum(x * x)
    tape.cycle = tape   # (only the cyclic collector can free it now)
    kept = tape._tape.kept_bytes
    del tape
    return kept


def test_a_collection_inside_a_dataset_reduce_does_not_stop_its_function_recording():
    gc.collect()
    kept = _garbage_tape_holding_bytes()
    assert kept > 0, f"the persistent tape kept {kept} bytes, but should keep its tensors' bytes [setup]"
    runs = [0]

    def add(s, x):
        runs[0] += 1
        gc.collect()        # the collector frees the garbage tape while the function records
        return s + x

    total = tf.data.Dataset.range(6).reduce(tf.constant(0, tf.int64), add)
    assert int(total) == 15, f"range(6).reduce(0, s + x)={int(total)}, but should be 15"
    assert runs[0] == 1, (f"reduce's Python ran {runs[0]} times, but should run once (its recording must not "
                          "be abandoned because the cyclic collector freed a tape meanwhile)")


def test_held_bytes_do_not_follow_the_collector():
    gc.collect()
    before = execution.current().held_bytes
    kept = _garbage_tape_holding_bytes()
    held = execution.current().held_bytes
    assert held == before + kept, f"held bytes {held}, but should be {before} + the tape's {kept} [tape alive]"
    gc.collect()
    after = execution.current().held_bytes
    assert after == held, (f"held bytes {after} after the collector freed the tape, but should stay {held} "
                           "(a collector's free is not booked: runtime/gc_phase.py)")


def test_a_tape_dropped_by_reference_counting_gives_its_bytes_back():
    before = execution.current().held_bytes
    x = tf.constant(np.arange(256, dtype=np.float32))
    tape = tf.GradientTape(persistent=True)
    with tape:
        tape.watch(x)
        _ = tf.reduce_sum(x * x)
    assert execution.current().held_bytes > before, "the persistent tape should hold its tensors' bytes [setup]"
    del tape
    after = execution.current().held_bytes
    assert after == before, f"held bytes {after} after `del tape`, but should be back to {before}"
