"""Runtime settings on a simulated GPU machine (clauses config.runtime-initialization and
config.runtime-settings), where TF on this CPU-only host has nothing to compare: memory growth of
simulated GPUs follows TF 2.21's context.set_memory_growth / get_memory_growth (read in
tensorflow/python/eager/context.py), and the TF32 switch changes the roofline time of a float32
matmul on an A100 by the roofline's FP32 - TF32 kernel time (simdist/sim/hardware.py's datasheet
figures), and nothing else."""

from __future__ import annotations

import pytest

import simdist
from simdist import tf
from simdist.sim import roofline

clause = pytest.mark.clause


@pytest.fixture(autouse=True)
def _fresh_machine():
    simdist.configure(gpus=2, gpu="A100")
    yield
    simdist.configure()


@clause("config.runtime-initialization")
def test_gpu_memory_growth_before_and_after_initialisation() -> None:
    gpu0, gpu1 = tf.config.list_physical_devices("GPU")
    exp = tf.config.experimental
    assert exp.get_memory_growth(gpu0) is None, f"get_memory_growth of a GPU never set={exp.get_memory_growth(gpu0)!r}, but should be None"
    exp.set_memory_growth(gpu0, True)
    assert exp.get_memory_growth(gpu0) is True, "get_memory_growth after set_memory_growth(gpu, True) should be True"
    tf.constant(1.0)   # the runtime initialises
    exp.set_memory_growth(gpu0, True)   # the value it has: accepted
    with pytest.raises(RuntimeError, match="Physical devices cannot be modified after being initialized"):
        exp.set_memory_growth(gpu1, False)
    assert exp.get_memory_growth(gpu1) is None, "a refused set_memory_growth should leave the GPU unset (None)"


@clause("config.runtime-initialization")
def test_memory_growth_refuses_a_split_gpu_and_strangers() -> None:
    gpu0 = tf.config.list_physical_devices("GPU")[0]
    tf.config.set_logical_device_configuration(gpu0, [tf.config.LogicalDeviceConfiguration(memory_limit=1024)] * 2)
    with pytest.raises(ValueError, match="Cannot set memory growth on device when virtual devices configured"):
        tf.config.experimental.set_memory_growth(gpu0, True)
    with pytest.raises(ValueError, match="Setting memory limit is required for GPU virtual devices"):
        tf.config.set_logical_device_configuration(tf.config.list_physical_devices("GPU")[1],
                                                   [tf.config.LogicalDeviceConfiguration()])
    stranger = tf.config.PhysicalDevice("/physical_device:GPU:7", "GPU")
    with pytest.raises(ValueError, match="Unrecognized device"):
        tf.config.experimental.set_memory_growth(stranger, True)


def _matmul_seconds(dtype) -> float:
    strategy = tf.distribute.OneDeviceStrategy("/gpu:0")
    a = tf.ones([1024, 1024], dtype)
    t0 = simdist.now()
    strategy.run(lambda: tf.matmul(a, a))
    return simdist.now() - t0


@clause("config.runtime-settings")
def test_tf32_switch_sets_the_float32_matmul_rate() -> None:
    assert simdist.cost_model() == "roofline", f"cost model={simdist.cost_model()!r}, but an A100 machine should use roofline"
    on32, on16 = _matmul_seconds(tf.float32), _matmul_seconds(tf.float16)
    simdist.configure(gpus=2, gpu="A100")
    tf.config.experimental.enable_tensor_float_32_execution(False)
    off32, off16 = _matmul_seconds(tf.float32), _matmul_seconds(tf.float16)
    flops, nbytes = 2.0 * 1024**3, 3 * 1024 * 1024 * 4.0
    dev_rates = simdist.session.cluster().device("/job:localhost/replica:0/task:0/device:GPU:0").rates
    want = roofline.seconds(dev_rates, flops, nbytes, "float32", "matmul", False) - \
        roofline.seconds(dev_rates, flops, nbytes, "float32", "matmul", True)
    assert off32 - on32 == pytest.approx(want, rel=1e-3), \
        f"float32 matmul time with TF32 off - on={(off32 - on32) * 1e6:.3f} us, but should be the roofline's " \
        f"FP32 - TF32 kernel time {want * 1e6:.3f} us"
    assert off16 == pytest.approx(on16, rel=1e-9), f"float16 matmul time changed with the TF32 switch: {on16!r} -> {off16!r}"
