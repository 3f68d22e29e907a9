"""A strategy's training step under the roofline cost model, and where the gradient all-reduce
starts relative to the backward pass (TF 2.21: after it, with the default single pack)."""

from __future__ import annotations

import io
from typing import Any

import pytest

import simdist
from simdist import tf
from simdist.sim import hardware
from tests.test_training_cost import _trace_spans


def _step_spans(cost_model: str, graph: bool, gpu: str = "A100") -> list[dict[str, Any]]:
    buf = io.BytesIO()
    simdist.configure(gpus=2, gpu=gpu, trace=buf, cost_model=cost_model)
    s = tf.distribute.MirroredStrategy()
    with s.scope():
        w1 = tf.Variable(tf.ones([256, 128]))
        w2 = tf.Variable(tf.ones([128, 128]))
    x = tf.ones([64, 256])

    def step() -> Any:
        with tf.GradientTape() as t:
            loss = tf.reduce_sum(tf.matmul(tf.matmul(x, w1), w2))
        g = t.gradient(loss, [w1, w2])
        return tf.distribute.get_replica_context().all_reduce("sum", g)
    run = tf.function(lambda: s.run(step)) if graph else (lambda: s.run(step))
    run()
    run()
    return _trace_spans(buf)


@pytest.mark.parametrize("graph", [False, True], ids=["eager", "tf.function"])
def test_gradient_all_reduce_starts_after_the_backward_pass(graph: bool) -> None:
    """TF 2.21 all-reduces the gradients as one pack (CommunicationOptions.bytes_per_pack = 0:
    cross_device_utils.group_by_size returns one pack), which needs every gradient: no overlap
    with the backward pass, eager or in a tf.function (docs/simulator.md)."""
    spans = _step_spans("flops", graph)
    for r in (0, 1):
        bwd = [e for e in spans if e["name"] == f"step/backward[replica {r}]"]
        ar = [e for e in spans if e["name"] == f"all_reduce[replica {r}]"]
        assert bwd and len(ar) == len(bwd), f"replica {r}: spans {sorted({e['name'] for e in spans})}"
        for b, a in zip(bwd, ar):
            assert b["ts"] + b["dur"] <= a["ts"] + 1e-9, f"all-reduce starts before backward ends: {b}, {a}"


@pytest.mark.parametrize("gpu, rate", [("A100", 156e12 * hardware.TENSOR_EFFICIENCY),
                                       ("V100", 15.7e12 * hardware.CUDA_EFFICIENCY)])
def test_roofline_charges_float32_steps_at_tf32_on_a100_and_fp32_on_v100(gpu: str, rate: float) -> None:
    """Float32 matmuls: TF32 tensor cores on Ampere (TF's default), FP32 CUDA cores on V100."""
    flops_spans = _step_spans("flops", False, gpu)
    roof_spans = _step_spans("roofline", False, gpu)
    lo = hardware.GPUS[gpu].launch_overhead
    nominal = hardware.GPUS[gpu].flops
    for name in ("step/forward[replica 0]", "step/backward[replica 0]"):
        f = next(e for e in flops_spans if e["name"] == name)
        r = next(e for e in roof_spans if e["name"] == name)
        flops = (f["dur"] * 1e-6 - lo) * nominal   # the section's FLOPs, from the FLOP model's span
        want = (flops / rate + lo) * 1e6
        assert r["dur"] == pytest.approx(want, rel=1e-3, abs=2e-3), f"{gpu} {name}: {r['dur']} us, expected {want}"
