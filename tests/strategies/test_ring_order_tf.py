"""The order in which TF 2.21's ring collective adds replicas' values, bit for bit (clause reduce.ring-order).

MirroredStrategy over CPU devices all-reduces with CollectiveReduceV2's RingReducer: the flattened
tensor is cut into one chunk per replica (ceil(n / R) elements rounded up to whole 64-byte units,
plus one unit when already whole), and chunk c is x[c] + x[c+1] + ... + x[c-1] in ring order. The
values mix magnitudes so that the order shows; sizes put chunk boundaries where 32- and 64-byte
alignment would differ, leave trailing chunks empty, and split a tensor of 2-d shape. Eager and
traced (a tf.function) all_reduce, and extended.batch_reduce_to; the not-vacuous check says AddN's
order gives other bits.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import pytest

import portable_inputs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

DEVICES = 5
CASES = [(r, dt, shape, traced)
         for r, dt, shape in [(3, "float32", (7,)), (3, "float32", (1000,)), (3, "float32", (40, 25)),
                              (4, "float32", (1003,)), (5, "float32", (999,)), (3, "float64", (1001,)),
                              (4, "float16", (515,)), (3, "float32", (300_000,)), (5, "float64", (3, 7, 11))]
         for traced in (False, True) if not traced or shape == (1000,)] + \
        [(3, "float32", (1000,), "batch"), (4, "float16", (515,), "batch")]


def _name(case: tuple) -> str:
    r, dt, shape, traced = case
    return f"R{r}-{dt}-{'x'.join(map(str, shape))}" + ({True: "-traced", "batch": "-batch_reduce_to"}.get(traced, ""))


def inputs(index: int) -> list[np.ndarray]:
    r, dt, shape, _ = CASES[index]
    rng = np.random.default_rng([11, index])
    top = 2 if dt == "float16" else 4
    return [(rng.standard_normal(shape) * portable_inputs.pow10(rng.integers(-top, top + 1, shape))).astype(dt) for _ in range(r)]


def compute(tf: Any, index: int, strategies: dict[int, Any] | None = None) -> np.ndarray:
    """The same program on both backends (TF reuses one strategy per replica count: fresh
    strategies in one process reuse collective instance keys)."""
    r, _, _, traced = CASES[index]
    xs = inputs(index)
    make = lambda: tf.distribute.MirroredStrategy([f"/cpu:{i}" for i in range(r)])  # noqa: E731
    s = make() if strategies is None else strategies.setdefault(r, make())
    v = s.experimental_distribute_values_from_function(lambda ctx: tf.constant(xs[ctx.replica_id_in_sync_group]))

    if traced == "batch":   # extended.batch_reduce_to onto the values' own devices
        out = s.extended.batch_reduce_to("SUM", [(v, v)])[0]
        return np.stack([np.asarray(o.numpy()) for o in s.experimental_local_results(out)])

    def step(x: Any) -> Any:
        return tf.distribute.get_replica_context().all_reduce("SUM", x)
    fn = tf.function(lambda v: s.run(step, args=(v,))) if traced else (lambda v: s.run(step, args=(v,)))
    outs = s.experimental_local_results(fn(v))
    return np.stack([np.asarray(o.numpy()) for o in outs])


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
    # one TF process per replica count: TF's MirroredStrategy objects of one process share
    # collective group key 1, and a group of another size then aborts the collectives
    out: dict[int, Any] = {}
    for r in sorted({c[0] for c in CASES}):
        out.update(tf_workers.spawn(__file__, [i for i, c in enumerate(CASES) if c[0] == r]))
    return out


def _chain(xs: list[np.ndarray]) -> np.ndarray:
    out = xs[0] + xs[1]
    for x in xs[2:]:
        out = out + x
    return out


@pytest.mark.clause("reduce.ring-order", ref="tf221")
@pytest.mark.parametrize("index", range(len(CASES)), ids=[_name(c) for c in CASES])
def test_all_reduce_adds_in_the_ring_order(index: int, tf_results: dict[int, Any]) -> None:
    import simdist
    from simdist import tf
    simdist.reset()
    _setup(tf)
    name = _name(CASES[index])
    want = tf_results[index]
    got = compute(tf, index)
    assert (got.dtype, got.shape) == (want.dtype, want.shape), (
        f"out={got.dtype}{got.shape}, but should be {want.dtype}{want.shape} [{name}: every replica's result]")
    bits = np.dtype(f"uint{got.dtype.itemsize * 8}")
    g, w = got.reshape(got.shape[0], -1), want.reshape(want.shape[0], -1)
    diff = np.argwhere(g.view(bits) != w.view(bits))
    assert diff.size == 0, (
        f"{len(diff)} elements differ from TF's bits; first: replica {diff[0][0]} out[{diff[0][1]}]="
        f"{g[tuple(diff[0])]!r}, but should be {w[tuple(diff[0])]!r} [{name}]")


def test_the_cases_show_the_order(tf_results: dict[int, Any]) -> None:
    """Not vacuous: for most cases the left-to-right (AddN) chain gives other bits than TF."""
    shown = [_name(c) for i, c in enumerate(CASES)
             if not np.array_equal(_chain(inputs(i)).reshape(-1).view(np.uint8),
                                   tf_results[i][-1].reshape(-1).view(np.uint8))]
    assert len(shown) >= len(CASES) - 2, (
        f"only {shown} of {len(CASES)} cases give other bits in AddN's order than in TF's ring order: the "
        "values no longer show the order")


if __name__ == "__main__":  # TF worker
    tf_workers.serve(_tf_worker)
    os._exit(0)
