"""A variable's device memory is given back when reference counting deletes it, never when
Python's cyclic collector happens to run (simdist.runtime.gc_phase; strategies/timing.py)."""

from __future__ import annotations

import gc

import numpy as np

import simdist
from simdist import tf
from simdist.sim import Cluster, Device, Host
from simdist.runtime.gc_phase import collecting

GPU0 = "/job:localhost/replica:0/task:0/device:GPU:0"
MIB = 1 << 20


def _machine() -> None:
    simdist.configure(cluster=Cluster([Host(cpus=1, gpus=[Device("GPU", 0, flops="10TFLOPS", memory="64MiB",
                                                                  launch_overhead="5us")])]))


def _in_use() -> int:
    return simdist.session.simulator().memory_in_use(GPU0)


def test_collecting_is_true_only_inside_a_collection():
    seen = []

    class Cyclic:
        def __init__(self) -> None:
            self.me = self

        def __del__(self) -> None:
            seen.append(collecting())

    assert collecting() is False, "collecting() outside a collection"
    Cyclic()
    gc.collect()
    assert seen == [True], f"collecting() in a finalizer the collector ran: {seen}, but should be [True]"
    assert collecting() is False, "collecting() after the collection"


def test_reference_counting_frees_a_variable_the_collector_does_not():
    _machine()
    block = np.zeros((1024, 1024), np.float32)   # 4 MiB
    with tf.distribute.OneDeviceStrategy("/gpu:0").scope():
        plain = tf.Variable(block)
        holder = {"v": tf.Variable(block)}
        holder["self"] = holder                    # a reference cycle: only the collector frees it
    assert _in_use() == 8 * MIB, f"in use {_in_use()}, but should be {8 * MIB} (two 4 MiB variables)"
    del plain
    assert _in_use() == 4 * MIB, f"in use {_in_use()} after del, but should be {4 * MIB} (reference counting)"
    del holder
    assert gc.collect() > 0, "the collector found no garbage; the test needs the cycle"
    assert _in_use() == 4 * MIB, \
        f"in use {_in_use()} after gc.collect(), but should be {4 * MIB} (a collector's free is not charged)"
