"""Gradient packs overlapping the backward pass, only where TF 2.21 overlaps them: a
MultiWorkerMirroredStrategy all-reduce of several packs (`bytes_per_pack` > 0) inside a
`tf.function` (docs/simulator.md, "Overlap of gradient communication with the backward pass";
TF's graphs: tests/validation/test_overlap_tf.py). Eager calls, one pack, and the CPU ring keep
the all-reduce after the backward pass; values never change."""

from __future__ import annotations

import pytest

from simdist import tf
from simdist.launch import launch
from simdist.sim import presets, roofline
from simdist.strategies.collective_options import CommunicationOptions

LAYERS, WIDTH, BATCH, STEPS = 6, 256, 512, 2
PACK = 2 * WIDTH * WIDTH * 4     # 256 KiB of gradient per layer: 3 layers per pack, 2 packs


def _job(pack: int, in_function: bool):
    def main():
        s = tf.distribute.MultiWorkerMirroredStrategy(communication_options=CommunicationOptions(bytes_per_pack=pack))
        with s.scope():
            ws = [tf.Variable(tf.ones([WIDTH, WIDTH]) * 0.001) for _ in range(LAYERS)]

        def step():
            with tf.GradientTape() as tape:
                h = tf.ones([BATCH, WIDTH])
                for w in ws:
                    h = tf.tanh(tf.matmul(h, w))
                loss = tf.reduce_sum(h)
            grads = tf.distribute.get_replica_context().all_reduce("SUM", tape.gradient(loss, ws))
            for w, g in zip(ws, grads):
                w.assign_sub(1e-6 * g)
            return loss
        f = tf.function(lambda: s.run(step)) if in_function else (lambda: s.run(step))
        return [float(s.reduce("SUM", f(), axis=None)) for _ in range(STEPS)]
    return main


def _times(gpus: int) -> dict:
    out = {}
    for pack in (0, PACK):
        for fn in (False, True):
            r = launch(_job(pack, fn), workers=2, gpus_per_worker=gpus)
            assert not r.errors, r.errors
            want = "roofline" if gpus else "flops"
            assert r.cost_model == want, f"cost model {r.cost_model}, but should be {want} (configure's default)"
            out[(pack, fn)] = (r.sim_time, r.results)
    return out


@pytest.mark.clause("mwms.communication-options")
def test_packs_overlap_the_backward_pass_only_in_a_tf_function():
    t = _times(gpus=2)
    values = {repr(v[1]) for v in t.values()}
    assert len(values) == 1, "overlap changed values"
    assert t[(0, True)][0] == t[(0, False)][0], \
        f"one pack: {t[(0, True)][0]}s in a tf.function, {t[(0, False)][0]}s eager: the same (no overlap)"
    saved = t[(PACK, False)][0] - t[(PACK, True)][0]
    # the backward pass under the roofline (configure's default on A100s): per layer and step, dX and dW
    # (float32 matmuls: TF32 tensor cores; each reads two arrays and writes one) and tanh's gradient
    # (reads y and dy, writes dx), each with its launch overhead
    gpu = presets.make_gpu_host(2).gpus[0]
    mm = roofline.seconds(gpu.rates, 2 * BATCH * WIDTH * WIDTH, 4 * (2 * BATCH * WIDTH + WIDTH * WIDTH), "float32",
                          "matmul")
    tanh_grad = roofline.seconds(gpu.rates, BATCH * WIDTH, 4 * 3 * BATCH * WIDTH, "float32", "elementwise")
    backward = STEPS * LAYERS * (2 * mm + tanh_grad + 3 * gpu.launch_overhead)
    assert 0 < saved <= backward, \
        f"two packs in a tf.function saved {saved}s against eager, but should save some of the backward pass " \
        f"(at most its {backward}s): pack 0 runs while the earlier layers' gradients are computed"


@pytest.mark.clause("mwms.communication-options")
def test_the_cpu_ring_does_not_overlap():
    """On CPU workers the ring's reduction runs on the CPUs the backward pass occupies (one queue
    per device in the model): the packs wait for it, in a tf.function as eagerly."""
    t = _times(gpus=0)
    assert t[(PACK, True)][0] == t[(PACK, False)][0], \
        f"CPU ring: {t[(PACK, True)][0]}s in a tf.function, {t[(PACK, False)][0]}s eager: should be equal"
