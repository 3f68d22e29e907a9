"""tf.config.set_visible_devices and soft placement on simulated GPUs (clauses
placement.visible-devices, placement.soft-placement): what TF 2.21 does on a machine with GPUs,
which the CPU-only TF of this repository's CI cannot show, applied to simdist's simulated ones.
The rules were read from TF 2.21's context.py (`set_visible_devices`) and context.cc
(`EagerContext::SelectDevice`) and checked on its CPU-only parts in the conformance suite."""

from __future__ import annotations

import pytest

import simdist
from simdist import session, tf


@pytest.fixture()
def two_gpus():
    simdist.configure(gpus=2)
    yield tf.config.list_physical_devices("GPU")
    simdist.reset()


@pytest.mark.clause("placement.visible-devices")
def test_hiding_a_gpu_renumbers_the_logical_ones(two_gpus) -> None:
    tf.config.set_visible_devices(two_gpus[1:], "GPU")
    logical = [d.name for d in tf.config.list_logical_devices()]
    assert logical == ["/device:CPU:0", "/device:GPU:0"], f"logical devices {logical}, but should be CPU:0 and GPU:0"
    runs_on = session.sim_device("/GPU:0")
    assert runs_on.endswith("device:GPU:1"), f"logical GPU:0 runs on {runs_on}, but should run on physical GPU:1"
    got = tf.config.get_visible_devices()
    assert [d.name for d in got] == ["/physical_device:CPU:0", "/physical_device:GPU:1"], \
        f"get_visible_devices() = {got}, but should be CPU:0 and GPU:1"
    with pytest.raises(RuntimeError, match="Visible devices cannot be modified after being initialized"):
        tf.config.set_visible_devices([], "GPU")


@pytest.mark.clause("placement.visible-devices")
def test_hidden_gpus_leave_the_cpu_as_default_and_for_mirrored(two_gpus) -> None:
    tf.config.set_visible_devices([], "GPU")
    y = tf.constant(1.0) + 1
    assert y.device.endswith("device:CPU:0"), f"an op ran on {y.device}, but should run on CPU:0 (no GPU visible)"
    devices = tf.distribute.MirroredStrategy().extended.worker_devices
    assert len(devices) == 1 and devices[0].endswith("device:CPU:0"), \
        f"MirroredStrategy() uses {devices}, but should use the CPU (no GPU visible)"


@pytest.mark.clause("placement.visible-devices")
def test_no_visible_cpu_fails_start_up_and_can_be_undone(two_gpus) -> None:
    cpus = tf.config.list_physical_devices("CPU")
    tf.config.set_visible_devices([], "CPU")
    with pytest.raises(tf.errors.NotFoundError, match="No CPU devices are available in this process"):
        tf.config.list_logical_devices()
    tf.config.set_visible_devices(cpus, "CPU")   # (start-up failed: the list can still change)
    assert len(tf.config.list_logical_devices("CPU")) == 1, "with the CPU visible again, start-up succeeds"


@pytest.mark.clause("placement.soft-placement")
def test_soft_placement_prefers_a_gpu_of_the_task(two_gpus) -> None:
    """With type and index dropped, the best device of the task is a GPU (ops with GPU kernels)."""
    for spec in ("/GPU:5", "/CPU:3"):
        with tf.device(spec):
            y = tf.constant([1.0]) + 1
        assert y.device.endswith("device:GPU:0"), f"with tf.device({spec!r}) the op ran on {y.device}, but should " \
                                                  "run on GPU:0 (soft placement drops type and index)"
    with tf.device("/GPU:1"):
        z = tf.constant([1.0]) + 1
    assert z.device.endswith("device:GPU:1"), f"an existing device is kept: {z.device}, but should be GPU:1"
