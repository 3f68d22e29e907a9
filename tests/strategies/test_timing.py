"""Simulated time charged by the strategies through the facade, checked against the simulator's
own primitives on an identical fresh cluster (so expectations follow from the model)."""

from __future__ import annotations

import numpy as np
import pytest

import simdist
from simdist import tf
from simdist.sim import Simulator, presets

GPU = "/job:localhost/replica:0/task:0/device:GPU:{}"
CPU0 = "/job:localhost/replica:0/task:0/device:CPU:0"


def fresh(gpus: int) -> Simulator:
    return Simulator(presets.gpu_host(gpus=gpus), seed=0)


def test_clock_is_readable_and_run_charges_annotated_compute():
    simdist.configure(gpus=2)
    s = tf.distribute.MirroredStrategy()
    assert simdist.now() == 0.0

    @simdist.sim.flops(1e12)
    def fn():
        return tf.constant(1.0)
    s.run(fn)
    ref = fresh(2)
    ref.drive(ref.all_of([ref.compute(GPU.format(i), 1e12, "fn") for i in range(2)]))
    assert simdist.now() == pytest.approx(ref.now, rel=1e-12), (simdist.now(), ref.now)


@pytest.mark.parametrize("algo,name", [(tf.distribute.NcclAllReduce, "ring"),
                                       (tf.distribute.ReductionToOneDevice, "reduce_to_one")])
def test_mirrored_update_is_an_all_reduce_of_the_chosen_algorithm(algo, name):
    simdist.configure(gpus=8)
    s = tf.distribute.MirroredStrategy(cross_device_ops=algo())
    with s.scope():
        w = tf.Variable(tf.zeros([1024, 1024]), aggregation=tf.VariableAggregation.SUM)
    ones = tf.ones([1024, 1024])

    @simdist.sim.flops(0)
    def update():
        w.assign_add(ones * 1.0)   # a tensor per replica (one shared tensor with SUM is TF's ValueError)
    t0 = simdist.now()
    s.run(update)
    took = simdist.now() - t0
    ref = fresh(8)
    gpus = [GPU.format(i) for i in range(8)]
    # phase 0 (up to the update's merge), the all-reduce, phase 1 (after it): a kernel launch each
    ref.drive(ref.all_of([ref.compute(g, 0, "update") for g in gpus]))
    ref.drive(ref.all_reduce(gpus, 1024 * 1024 * 4, algorithm=name))
    ref.drive(ref.all_of([ref.compute(g, 0, "update") for g in gpus]))
    assert took == pytest.approx(ref.now, rel=1e-9), f"{name}: facade {took}, model {ref.now}"
    assert float(w.numpy()[0, 0]) == 8.0


def test_reduce_charges_copies_to_the_destination_then_the_sum():
    simdist.configure(gpus=4)
    s = tf.distribute.MirroredStrategy()
    # (each replica's value made on its device, as the API's documented example 4 does: TF 2.21 calls value_fn
    # under no device scope of its own)
    vals = []
    for d in s.extended.worker_devices:
        with tf.device(d):
            vals.append(tf.ones([1 << 20]))
    v = s.experimental_distribute_values_from_function(lambda c: vals[c.replica_id_in_sync_group])
    t0 = simdist.now()
    s.reduce("SUM", v, axis=None)
    took = simdist.now() - t0
    ref = fresh(4)
    ref.drive(ref.all_of([ref.transfer(GPU.format(i), CPU0, 4 << 20) for i in range(4)]))
    ref.drive(ref.compute(CPU0, 4 * (1 << 20), "reduce"))
    assert took == pytest.approx(ref.now, rel=1e-9), (took, ref.now)


@pytest.mark.parametrize("gpus", [1, 2, 4, 8])
def test_central_storage_step_time_follows_from_the_model(gpus):
    """One step: every replica reads the variable from the parameter device, computes, and the
    MEAN-aggregated update is gathered to the parameter device and applied there. With one GPU
    the variable lives on it: no copies, no aggregation. (docs/simulator.md tabulates these.)"""
    simdist.configure(gpus=gpus)
    s = tf.distribute.experimental.CentralStorageStrategy()
    n = 1 << 20
    with s.scope():
        w = tf.Variable(tf.zeros([n]), aggregation=tf.VariableAggregation.MEAN)
    grad = tf.ones([n])

    @simdist.sim.flops(2e11)
    def step():
        w.assign_sub(grad * 0.0 + w * 0.0 + 0.1)
    t0 = simdist.now()
    s.run(step)
    took = simdist.now() - t0

    ref = fresh(gpus)
    param = GPU.format(0) if gpus == 1 else CPU0
    replicas = [GPU.format(i) for i in range(gpus)]
    if gpus > 1:   # variable copies to each GPU
        ref.drive(ref.all_of([ref.transfer(param, g, 4 * n) for g in replicas]))
    ref.drive(ref.all_of([ref.compute(g, 2e11, "step") for g in replicas]))
    if gpus > 1:   # the aggregation on the parameter device, then each replica resumes (a launch)
        ref.drive(ref.all_of([ref.transfer(g, param, 4 * n) for g in replicas]))
        ref.drive(ref.compute(param, gpus * n, "reduce"))
        ref.drive(ref.all_of([ref.compute(g, 0, "step") for g in replicas]))
    assert took == pytest.approx(ref.now, rel=1e-9), f"{gpus} GPUs: facade {took}, model {ref.now}"


def test_variable_memory_is_charged_and_oom_is_clear():
    from simdist.sim import Cluster, Device, Host
    small_gpu = Device("GPU", 0, flops="10TFLOPS", memory="64MiB", launch_overhead="5us")
    simdist.configure(cluster=Cluster([Host(cpus=1, gpus=[small_gpu])]))
    s = tf.distribute.OneDeviceStrategy("/gpu:0")
    block = np.zeros((4, 1024, 1024), np.float32)  # 16 MiB
    with s.scope():
        keep = [tf.Variable(block) for _ in range(4)]   # 64 MiB: exactly full
        assert simdist.session.simulator().memory_in_use(GPU.format(0)) == 64 << 20
        with pytest.raises(tf.errors.ResourceExhaustedError,
                           match=r"16\.00 MiB for 'Variable:0' on .*GPU:0: 64\.00 MiB of 64\.00 MiB in use"):
            keep.append(tf.Variable(block))
    del keep
    assert simdist.session.simulator().memory_in_use(GPU.format(0)) == 0, "freed with the variables"
