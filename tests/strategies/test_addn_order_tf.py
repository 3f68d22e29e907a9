"""TF 2.21's AddN order in Strategy.reduce (axis=None) and tf.add_n, bit for bit (clause reduce.axis-none).

TF's MirroredStrategy on CPUs reduces with ReductionToOneDevice, i.e. math_ops.add_n over the
replicas' values in replica order; its CPU kernel adds up to 9 inputs in one left-to-right chain
and more in groups of 8 (aggregate_ops.h). The values mix magnitudes so that the order shows; the
cases of 10 or more inputs also check that the plain chain would have differed from TF.
"""

from __future__ import annotations

import hashlib
import os
from typing import Any

import numpy as np
import pytest

import portable_inputs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

DEVICES = 17
# (name, op, inputs, dtype, elements per input)
CASES = [
    ("reduce-sum-4", "SUM", 4, "float32", 1000),
    ("reduce-sum-9", "SUM", 9, "float32", 1000),
    ("reduce-sum-10", "SUM", 10, "float32", 1000),
    ("reduce-sum-12", "SUM", 12, "float32", 1000),
    ("reduce-sum-17", "SUM", 17, "float32", 1000),
    ("reduce-mean-10", "MEAN", 10, "float32", 1000),
    ("reduce-sum-10-float64", "SUM", 10, "float64", 1000),
    ("reduce-sum-10-float16", "SUM", 10, "float16", 1000),
    ("reduce-sum-10-large", "SUM", 10, "float32", 300_000),   # simdist's blocked, threaded path
    ("add_n-10", "add_n", 10, "float32", 1000),
    ("add_n-17-float16", "add_n", 17, "float16", 1000),
    ("add_n-12-large", "add_n", 12, "float32", 300_000),
]


def inputs(index: int) -> list[np.ndarray]:
    """The case's inputs: normal values scaled by 10^-3..10^3 (float16: 10^-2..10^2)."""
    _, _, k, dt, n = CASES[index]
    rng = np.random.default_rng([2025, index])
    top = 3 if dt != "float16" else 2
    return [(rng.standard_normal(n) * portable_inputs.pow10(rng.integers(-top, top + 1, n))).astype(dt) for _ in range(k)]


def compute(tf: Any, index: int) -> np.ndarray:
    """The same program on both backends."""
    _, op, k, _, _ = CASES[index]
    xs = inputs(index)
    if op == "add_n":
        return np.asarray(tf.add_n([tf.constant(x) for x in xs]).numpy())
    s = tf.distribute.MirroredStrategy([f"/cpu:{i}" for i in range(k)])
    v = s.experimental_distribute_values_from_function(lambda ctx: tf.constant(xs[ctx.replica_id_in_sync_group]))
    return np.asarray(s.reduce(op, v, axis=None).numpy())


def summary(out: np.ndarray) -> tuple[str, str, tuple[int, ...], str, int, np.ndarray]:
    """What is compared (and kept in the golden): dtype, shape, the SHA-256 of the bytes, and the
    elements (every 1009th of the large cases, whose arrays would make a golden of megabytes) to
    show where two answers differ."""
    step = 1 if out.size <= 10_000 else 1009
    return ("summary", out.dtype.name, out.shape, hashlib.sha256(out.tobytes()).hexdigest(), step,
            out.reshape(-1)[::step].copy())


def _setup(tf: Any) -> None:
    cpu = tf.config.list_physical_devices("CPU")[0]
    tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * DEVICES)


def _tf_worker(indices: list[int]) -> dict[int, Any]:
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import tensorflow as tf
    _setup(tf)
    return {i: summary(compute(tf, i)) for i in indices}


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return tf_workers.spawn(__file__, list(range(len(CASES))))


def _plain_chain(xs: list[np.ndarray]) -> np.ndarray:
    out = np.add(xs[0], xs[1])
    for x in xs[2:]:
        np.add(out, x, out=out)
    return out


@pytest.mark.clause("reduce.axis-none", ref="tf221")
@pytest.mark.parametrize("index", range(len(CASES)), ids=[c[0] for c in CASES])
def test_sum_in_tfs_addn_order(index: int, tf_results: dict[int, Any]) -> None:
    import simdist
    from simdist import tf
    simdist.reset()
    _setup(tf)
    name, op, k, dt, n = CASES[index]
    _, want_dt, want_shape, want_sha, step, want_sample = tf_results[index]
    out = compute(tf, index)
    _, got_dt, got_shape, got_sha, _, got_sample = summary(out)
    assert (got_dt, got_shape) == (want_dt, want_shape), (
        f"out={got_dt}{got_shape}, but should be {want_dt}{want_shape} [{name}]")
    bits = np.dtype(f"uint{out.dtype.itemsize * 8}")
    diff = np.flatnonzero(got_sample.view(bits) != want_sample.view(bits))
    where = (f"first shown out[{diff[0] * step}]={got_sample[diff[0]]!r}, but should be {want_sample[diff[0]]!r}"
             if diff.size else "no element shown differs")
    assert got_sha == want_sha, f"the bits differ from TF's ({where}) [{name}: {op} of {k} x {n} {dt}]"
    if k >= 10 and op != "MEAN":   # the groups matter here: the plain chain is not TF's answer
        with np.errstate(all="ignore"):
            chained = _plain_chain(inputs(index))
        assert hashlib.sha256(chained.tobytes()).hexdigest() != want_sha, (
            f"the plain chain gives TF's answer too: a vacuous case [{name}]")


if __name__ == "__main__":  # TF worker
    tf_workers.serve(_tf_worker)
    os._exit(0)
