"""Subnormal floats in cross-replica reductions, bit for bit against TF 2.21 (clause reduce.subnormals).

TF adds two or more replicas' values with a CPU kernel (AddN, the Sum kernel for an axis, the
division of MEAN), and its kernels run with denormals-are-zero and flush-to-zero: a subnormal input
is read as zero and a subnormal result, even an exact one, is written as a zero of its sign. One
replica's value along axis=None is passed on unchanged. The cases: subnormal inputs, normal inputs
whose sum cancels exactly to a subnormal, both signs, float32 and float64, one and three replicas,
Strategy.reduce (SUM/MEAN, axis None and 0) and ReplicaContext.all_reduce (TF's ring collective,
clause reduce.ring-order), small and >= 1 MiB values (simdist's blocked, threaded sum).
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import pytest

import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

DEVICES = 3
KINDS = ("subnormal", "cancel", "mixed")
CASES = [(kind, dt, r, n, how)
         for kind in KINDS for dt in ("float32", "float64") for r in (1, 3) for n in (6, 300_000)
         for how in ("SUM-none", "MEAN-none", "SUM-0", "MEAN-0", "all_reduce")
         if (n == 6 or (dt == "float32" and r == 3)) and not (how.endswith("-0") and (n > 6 or kind == "mixed"))]
# (sums along an axis of inexact values are left out: simdist's reduce_sum keeps NumPy's pairwise
# order where Eigen's would change only the last bit, clause ops.packet-paths; the cross-replica
# sums and the flushing are what this module checks)


def _name(case: tuple) -> str:
    kind, dt, r, n, how = case
    return f"{kind}-{dt}-R{r}-{how}" + ("-large" if n > 6 else "")


def inputs(index: int) -> list[np.ndarray]:
    """One array per replica. subnormal: subnormal values of both signs and some zeros; cancel:
    normal values whose sum over the replicas (or, on one replica, along axis 0) is an exact
    subnormal; mixed: normal values beside subnormal ones."""
    kind, dt, r, n, _ = CASES[index]
    rng = np.random.default_rng([7, index])
    tiny = np.finfo(dt).tiny
    sign = np.where(rng.random(n) < 0.5, -1.0, 1.0)
    if kind == "cancel" and r == 1:
        sign = np.ones(n)   # (one sign for the whole array, so that its sum along axis 0 is 0.5 tiny)
    out = []
    for i in range(r):
        if kind == "subnormal":
            x = sign * tiny * rng.uniform(0.01, 0.99, n) * (rng.random(n) < 0.9)
        elif kind == "cancel":   # 3, -1, -1.75 (x tiny): normal values, each sum exact on tiny's grid
            x = sign * tiny * ((3.0, -1.0, -1.75)[i] if r == 3 else np.resize([3.0, -1.0, -1.75], n))
        else:
            x = np.where(rng.random(n) < 0.5, sign * tiny * 0.5, rng.standard_normal(n))
        out.append(x.astype(dt))
    return out


def compute(tf: Any, index: int, strategies: dict[int, Any] | None = None) -> np.ndarray:
    """The same program on both backends. `strategies`: one strategy per replica count, reused (TF's
    fresh MirroredStrategy objects in one process reuse collective instance keys, and its
    all_reduce then fails on another case's shape)."""
    _, _, r, _, how = CASES[index]
    xs = inputs(index)
    if strategies is None:
        s = tf.distribute.MirroredStrategy([f"/cpu:{i}" for i in range(r)])
    else:
        s = strategies.setdefault(r, tf.distribute.MirroredStrategy([f"/cpu:{i}" for i in range(r)]))
    v = s.experimental_distribute_values_from_function(lambda ctx: tf.constant(xs[ctx.replica_id_in_sync_group]))
    if how == "all_reduce":
        out = s.run(lambda x: tf.distribute.get_replica_context().all_reduce("SUM", x), args=(v,))
        return np.asarray(s.experimental_local_results(out)[-1].numpy())
    op, axis = how.split("-")
    return np.asarray(s.reduce(op, v, axis=None if axis == "none" else 0).numpy())


def _setup(tf: Any) -> None:
    cpu = tf.config.list_physical_devices("CPU")[0]
    tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * DEVICES)


def _tf_worker(indices: list[int]) -> dict[int, Any]:
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import tensorflow as tf
    _setup(tf)
    strategies: dict[int, Any] = {}
    return {i: compute(tf, i, strategies) for i in indices}


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return tf_workers.spawn(__file__, list(range(len(CASES))))


@pytest.mark.clause("reduce.subnormals", ref="tf221")
@pytest.mark.parametrize("index", range(len(CASES)), ids=[_name(c) for c in CASES])
def test_reduction_flushes_subnormals_as_tf(index: int, tf_results: dict[int, Any]) -> None:
    import simdist
    from simdist import tf
    simdist.reset()
    _setup(tf)
    name = _name(CASES[index])
    want = tf_results[index]
    got = compute(tf, index)
    assert (got.dtype, got.shape) == (want.dtype, want.shape), (
        f"out={got.dtype}{got.shape}, but should be {want.dtype}{want.shape} [{name}]")
    bits = np.dtype(f"uint{got.dtype.itemsize * 8}")
    diff = np.flatnonzero(got.reshape(-1).view(bits) != want.reshape(-1).view(bits))
    assert diff.size == 0, (
        f"{diff.size} of {got.size} elements differ from TF's bits; first: out[{diff[0]}]="
        f"{got.reshape(-1)[diff[0]]!r}, but should be {want.reshape(-1)[diff[0]]!r} [{name}]")


def test_cases_exercise_subnormals(tf_results: dict[int, Any]) -> None:
    """Not vacuous: where TF flushes, a plain NumPy reduction keeps subnormals (or TF keeps them)."""
    flushed = sum(1 for i, c in enumerate(CASES) if c[2] == 3 and not np.any(
        (np.abs(tf_results[i]) < np.finfo(c[1]).tiny) & (tf_results[i] != 0)))
    kept = sum(1 for i, c in enumerate(CASES) if c[2] == 1 and c[4].endswith("none") and np.any(
        (np.abs(tf_results[i]) < np.finfo(c[1]).tiny) & (tf_results[i] != 0)))
    assert flushed >= 10 and kept >= 4, (
        f"{flushed} three-replica cases came back from TF without subnormals and {kept} one-replica axis=None "
        "cases with them, but the inputs should make at least 10 and 4: the cases no longer test flushing")


if __name__ == "__main__":  # TF worker
    tf_workers.serve(_tf_worker)
    os._exit(0)
