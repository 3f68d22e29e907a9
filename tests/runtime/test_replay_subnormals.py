"""A replayed tf.function flushes the subnormal results of its own arithmetic as TF 2.21's kernels do
(clause ops.subnormals: flush-to-zero). The recording call met no subnormal (it would stay eager); the
values a later call computes underflow, and the replay writes zeros where the eager ops write zeros.

TF 2.21 observed (2026-12-05, /work/wt/lead48_logs/probe_replay_ftz.py, this file's first program):
v*v of float32 1e-5 called three times gives 1e-10, 1e-20, then 0.0 (1e-40 flushed); exp of -40·1.5ᵏ
gives 8.76e-27, then 0.0 where NumPy's exp is 8.19e-40. The expected values below are computed with
NumPy in float32 and TF's flush rule, not copied."""

from __future__ import annotations

import numpy as np
import pytest

import simdist
from simdist import tf
from simdist.runtime import graph

pytestmark = pytest.mark.clause("ops.subnormals")

TINY = np.finfo(np.float32).tiny


def _ftz(a: np.ndarray) -> np.ndarray:
    a = np.asarray(a, np.float32)
    return np.where(np.abs(a) < TINY, np.copysign(np.float32(0), a), a).astype(np.float32)


def _program(eager: bool) -> tuple[list, str]:
    tf.config.run_functions_eagerly(eager)
    try:
        v = tf.Variable(np.full(4, 1e-5, np.float32))
        w = tf.Variable(np.full(4, -40.0, np.float32))

        @tf.function
        def step():
            v.assign(v * v)
            w.assign(w * 1.5)
            return v * 3.0, tf.exp(w), tf.nn.sigmoid(w)
        outs = [tuple(x.numpy() for x in step()) for _ in range(5)]
        return outs, ("" if eager else graph.explain(step))
    finally:
        tf.config.run_functions_eagerly(False)


def test_a_replay_flushes_the_subnormals_its_own_arithmetic_makes() -> None:
    """v*v and v*3 are correctly rounded float32 products, computed here and flushed; exp and sigmoid are
    Eigen's kernels (their last bit is the eager op's): zero exactly where their value is subnormal."""
    simdist.reset()
    replayed, explain = _program(eager=False)
    assert explain.startswith("replays"), f"explain={explain!r}, but the step (no subnormal when recorded) should replay"
    simdist.reset()
    eager, _ = _program(eager=True)
    v, w = np.full(4, 1e-5, np.float32), np.full(4, -40.0, np.float32)
    for call, (r, e) in enumerate(zip(replayed, eager)):
        with np.errstate(all="ignore"):
            v = _ftz(v * v)
            w = _ftz(w * np.float32(1.5))
            exact = np.exp(w.astype(np.float64))
        want = _ftz(v * np.float32(3.0))
        assert r[0].tobytes() == want.tobytes(), \
            f"call {call}: v*3={r[0].tolist()} replayed, but should be {want.tolist()} (TF's flush-to-zero)"
        for name, got in (("exp(w)", r[1]), ("sigmoid(w)", r[2])):
            zero = exact < TINY
            assert np.array_equal(got == 0, zero), \
                f"call {call}: {name}={got.tolist()} replayed, but should be 0 exactly where exp(w)={exact.tolist()} " \
                f"is below float32's smallest normal (TF flushes the subnormal result)"
        for name, got, eg in zip(("v*3", "exp(w)", "sigmoid(w)"), r, e):
            assert got.tobytes() == eg.tobytes(), f"call {call}: {name}={got.tolist()} replayed, {eg.tolist()} eagerly"


def test_fused_replica_lanes_flush_as_each_replica() -> None:
    """MirroredStrategy's replicas, fused into stacked lanes in the replay (simdist.runtime.lanes), flush
    as each replica's eager ops do."""
    simdist.reset()
    replicas = 2
    cpu = tf.config.list_physical_devices("CPU")[0]
    tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * replicas)
    strategy = tf.distribute.MirroredStrategy([f"/cpu:{i}" for i in range(replicas)])
    with strategy.scope():
        v = tf.Variable(np.full(4, 1e-5, np.float32))

    xs = strategy.experimental_distribute_values_from_function(
        lambda ctx: tf.constant(np.full(4, float(ctx.replica_id_in_sync_group + 1), np.float32)))

    @tf.function
    def step(x):
        def body(x):
            y = v * v * x
            return y * y
        return strategy.run(body, args=(x,))
    got = []
    for _ in range(3):
        out = step(xs)
        v.assign(v * v)
        got.append([t.numpy() for t in strategy.experimental_local_results(out)])
    explain = graph.explain(step)
    assert explain.startswith("replays") and "replicas fused" in explain, \
        f"explain={explain!r}, but the replica step should replay with its replicas fused"
    vv = np.full(4, 1e-5, np.float32)
    with np.errstate(all="ignore"):
        for call in range(3):
            for r in range(replicas):
                x = _ftz(_ftz(vv * vv) * np.float32(r + 1))
                want = _ftz(x * x)
                assert got[call][r].tobytes() == want.tobytes(), \
                    f"call {call} replica {r}: {got[call][r].tolist()}, but should be {want.tolist()} (flushed) " \
                    f"[{explain}]"
            vv = _ftz(vv * vv)
