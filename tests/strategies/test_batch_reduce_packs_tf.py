"""A cross-replica extended.batch_reduce_to in a tf.function rings over its packs, bit for bit with TF 2.21 (clause
reduce.ring-order).

MirroredStrategy on CPUs without cross_device_ops runs CollectiveAllReduce. Its batch_reduce_implementation, when
every value's devices match its destination's, is `_all_reduce_per_replica_values`: one `_all_reduce` per device
of the whole batch, which (as a replica's traced all_reduce of a nest) reverses the dense values, groups them by
`bytes_per_pack` (cross_device_utils.group_by_size) and, in a graph, all-reduces each pack as the concatenation of
its flattened values (CollectiveReplicaLauncher.batch_all_reduce): one ring whose chunks cut across the values.
Eagerly each value is all-reduced alone. The values are a small Dense model's gradient shapes and seven values of
5 to 48 floats (rsweep61's batch-reduce program), over 3 and 4 CPUs, with bytes_per_pack 0 (one pack), 1 (one
value per pack) and 40/64 (mixed packs), SUM and MEAN, traced and eager. The not-vacuous check says TF's traced
one pack differs from one value per pack and from the eager batch.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import pytest

import portable_inputs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

DEVICES = 4
DENSE = ((4, 3), (3,), (3, 3), (3,), (3, 1), (1,))
SEVEN = ((5,), (48,), (9,), (17,), (12,), (33,), (7,))
# (replicas, shapes, bytes_per_pack, reduce op, traced)
CASES = [(r, shapes, bpp, op, True) for r in (3, 4) for shapes in (DENSE, SEVEN)
         for bpp, op in ((0, "SUM"), (1, "SUM"), (40, "MEAN"), (64, "SUM"), (0, "MEAN"))] + \
        [(r, shapes, 0, "SUM", False) for r in (3, 4) for shapes in (DENSE, SEVEN)]


def _name(case: tuple) -> str:
    r, shapes, bpp, op, traced = case
    return f"R{r}-{'dense' if shapes is DENSE else 'seven'}-pack{bpp}-{op}-{'traced' if traced else 'eager'}"


def inputs(index: int) -> list[list[np.ndarray]]:
    r, shapes = CASES[index][:2]
    rng = np.random.default_rng([61, r, len(shapes)])
    return [[(rng.standard_normal(s) * portable_inputs.pow10(rng.integers(-3, 4, s))).astype("float32") for s in shapes]
            for _ in range(r)]


def compute(tf: Any, index: int, strategies: dict[int, Any] | None = None) -> list[list[str]]:
    """The same program on both backends: every replica's result of every value, as the hex of its floats."""
    r, shapes, bpp, op, traced = CASES[index]
    xs = inputs(index)
    make = lambda: tf.distribute.MirroredStrategy([f"/cpu:{i}" for i in range(r)])  # noqa: E731
    s = make() if strategies is None else strategies.setdefault(r, make())
    pers = [s.experimental_distribute_values_from_function(
        lambda ctx, k=k: tf.constant(xs[ctx.replica_id_in_sync_group][k])) for k in range(len(shapes))]
    options = tf.distribute.experimental.CommunicationOptions(bytes_per_pack=bpp)

    def go() -> Any:
        return s.extended.batch_reduce_to(op, [(p, p) for p in pers], options=options)
    outs = tf.function(go)() if traced else go()
    return [[float(v).hex() for c in s.experimental_local_results(o) for v in np.asarray(c.numpy()).ravel()]
            for o in outs]


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
    # one TF process per replica count (TF's MirroredStrategy objects of one process share collective group key 1)
    out: dict[int, Any] = {}
    for r in sorted({c[0] for c in CASES}):
        out.update(tf_workers.spawn(__file__, [i for i, c in enumerate(CASES) if c[0] == r]))
    return out


@pytest.mark.clause("reduce.ring-order", ref="tf221")
@pytest.mark.parametrize("index", range(len(CASES)), ids=[_name(c) for c in CASES])
def test_a_traced_batch_reduce_to_rings_over_its_packs(index: int, tf_results: dict[int, Any]) -> None:
    import simdist
    from simdist import tf
    simdist.reset()
    _setup(tf)
    name = _name(CASES[index])
    want = tf_results[index]
    got = compute(tf, index)
    assert len(got) == len(want), f"{len(got)} values, but TF 2.21 gives {len(want)} [{name}]"
    for k, (g, w) in enumerate(zip(got, want)):
        diff = [j for j, (a, b) in enumerate(zip(g, w)) if a != b]
        assert len(g) == len(w) and not diff, \
            (f"value {k}: {len(diff)} of {len(w)} elements (replicas' results in a row) differ, first "
             f"[{diff[0] if diff else len(g)}]: {g[diff[0]] if diff else len(g)}, but TF 2.21 gives "
             f"{w[diff[0]] if diff else len(w)} [{name}]")


def test_the_cases_show_the_packs(tf_results: dict[int, Any]) -> None:
    """Not vacuous: TF's traced one pack (SUM, bytes_per_pack 0) gives other bits than one value per pack
    (bytes_per_pack 1) and than the eager batch, for both replica counts and both value sets."""
    by = {CASES[i][:5]: tf_results[i] for i in range(len(CASES))}
    same = []
    for r in (3, 4):
        for shapes in (DENSE, SEVEN):
            packed = by[(r, shapes, 0, "SUM", True)]
            for other in ((r, shapes, 1, "SUM", True), (r, shapes, 0, "SUM", False)):
                if by[other] == packed:
                    same.append(_name(other))
    assert not same, f"TF 2.21's traced one pack gives the bits of {same}: the cases do not show the packs"


if __name__ == "__main__":  # TF worker
    tf_workers.serve(_tf_worker)
