"""What a training step costs on the simulator: the backward pass's FLOPs (its gradient ops),
forward / backward / all-reduce as separate trace spans, and the activations a tape keeps
counted against device memory."""

from __future__ import annotations

import io
import json
from typing import Any

import numpy as np
import pytest

import simdist
from simdist import tf
from simdist.runtime.cost import tally
from simdist.sim.topology import Cluster, Device, Host


def test_backward_of_a_dense_layer_costs_two_matmuls() -> None:
    """d/dw and d/dx of y = x @ w are two matmuls of the forward's size: backward = 2 x forward
    (x is watched here; an unwatched x gets no gradient, as below)."""
    x = tf.constant(np.ones((32, 64), np.float32))
    w = tf.Variable(np.ones((64, 16), np.float32))
    f0, b0 = tally.flops, tally.backward
    with tf.GradientTape() as t:
        t.watch(x)
        y = tf.matmul(x, w)
    forward = tally.flops - f0
    gx, gw = t.gradient(y, [x, w])
    backward = tally.backward - b0
    matmul = 2.0 * 32 * 64 * 16
    assert forward == matmul, f"forward FLOPs={forward}, but should be one matmul ({matmul})"
    assert backward == 2 * matmul, f"backward FLOPs={backward}, but should be two matmuls ({2 * matmul})"
    assert tally.flops - f0 == forward + backward, "the backward pass's FLOPs are not in the total tally"


def test_an_input_no_tape_watches_gets_no_gradient_matmul() -> None:
    """TF's skip_input_indices: with x unwatched, d/dw of x @ w is one matmul, not two."""
    x = tf.constant(np.ones((32, 64), np.float32))
    w = tf.Variable(np.ones((64, 16), np.float32))
    with tf.GradientTape() as t:
        y = tf.matmul(x, w)
    b0 = tally.backward
    t.gradient(y, w)
    backward = tally.backward - b0
    assert backward == 2.0 * 32 * 64 * 16, f"backward FLOPs={backward}, but should be one matmul ({2.0 * 32 * 64 * 16})"


def _trace_spans(buf: io.BytesIO) -> list[dict[str, Any]]:
    simdist.session.simulator().close()
    spans = []
    for line in buf.getvalue().decode().splitlines():
        line = line.strip().rstrip(",")
        if line.startswith("{") and '"ph":"X"' in line:
            spans.append(json.loads(line))
    return spans


def two_layer_step_spans(graph: bool = False, calls: int = 1, **configure: Any) -> list[dict[str, Any]]:
    """The trace spans of ``calls`` MirroredStrategy(2 GPUs) steps of a two-layer model whose
    gradients are all-reduced (in a tf.function when ``graph``); ``configure``: simdist.configure's."""
    buf = io.BytesIO()
    simdist.configure(gpus=2, trace=buf, **configure)
    s = tf.distribute.MirroredStrategy()
    with s.scope():
        w1 = tf.Variable(tf.ones([256, 128]))
        w2 = tf.Variable(tf.ones([128, 128]))
    x = tf.ones([64, 256])

    def step() -> Any:
        # two layers: the backward pass has three matmuls (dw2, dh, dw1; x needs none) to the forward's two
        with tf.GradientTape() as t:
            loss = tf.reduce_sum(tf.matmul(tf.matmul(x, w1), w2))
        g = t.gradient(loss, [w1, w2])
        return tf.distribute.get_replica_context().all_reduce("sum", g)
    run = tf.function(lambda: s.run(step)) if graph else (lambda: s.run(step))
    for _ in range(calls):
        run()
    return _trace_spans(buf)


def test_a_training_step_shows_forward_backward_and_all_reduce_spans_in_order() -> None:
    spans = two_layer_step_spans()
    for r in (0, 1):
        fwd = [e for e in spans if e["name"] == f"step/forward[replica {r}]"]
        bwd = [e for e in spans if e["name"] == f"step/backward[replica {r}]"]
        ar = [e for e in spans if e["name"] == f"all_reduce[replica {r}]"]
        assert len(fwd) == len(bwd) == 1 and ar, \
            f"replica {r}: spans {sorted({e['name'] for e in spans})}, but should have one forward, one backward, an all_reduce"
        assert fwd[0]["ts"] + fwd[0]["dur"] <= bwd[0]["ts"] + 1e-9, f"backward starts before forward ends: {fwd}, {bwd}"
        assert bwd[0]["ts"] + bwd[0]["dur"] <= ar[0]["ts"] + 1e-9, f"all-reduce starts before backward ends: {bwd}, {ar}"
        assert bwd[0]["dur"] > fwd[0]["dur"], f"backward ({bwd[0]['dur']}) should take longer than forward ({fwd[0]['dur']})"


def _tiny_gpus(memory: str) -> Cluster:
    gpus = [Device("GPU", i, flops="10TFLOPS", memory=memory) for i in range(2)]
    return Cluster([Host(cpus=1, gpus=gpus)])


def _activation_step(record: bool) -> Any:
    s = tf.distribute.MirroredStrategy()
    with s.scope():
        w = tf.Variable(tf.ones([1024, 1024]))          # 4 MiB
    x = tf.ones([512, 1024])                             # 2 MiB

    def step() -> Any:
        if not record:
            return tf.reduce_sum(tf.matmul(tf.matmul(x, w), w))
        with tf.GradientTape() as t:
            loss = tf.reduce_sum(tf.matmul(tf.matmul(x, w), w))   # keeps x, w, two 2 MiB activations
        return t.gradient(loss, w)
    return s.run(step)


def test_activations_a_tape_keeps_count_against_device_memory() -> None:
    # 4 MiB of weights + 2 MiB of input fit in 8 MiB; the tape's kept tensors (about 10 MiB) do not
    simdist.configure(cluster=_tiny_gpus("8MiB"))
    _activation_step(record=False)        # the forward alone fits
    simdist.configure(cluster=_tiny_gpus("8MiB"))
    with pytest.raises(tf.errors.ResourceExhaustedError, match="activations"):
        _activation_step(record=True)
    simdist.configure(cluster=_tiny_gpus("64MiB"))
    _activation_step(record=True)         # with room, the same step runs
