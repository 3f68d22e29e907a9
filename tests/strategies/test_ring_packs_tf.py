"""A nest's all-reduce in a tf.function rings over its packs, bit for bit with TF 2.21 (clause reduce.ring-order).

CollectiveAllReduce's traced all-reduce of several dense values (cross_device_ops.py `_all_reduce`) reverses
them, groups them by `bytes_per_pack` (cross_device_utils.group_by_size: a new pack once the last one holds
more than bytes_per_pack bytes; 0: one pack) and all-reduces each pack as the concatenation of its flattened
values (CollectiveReplicaLauncher.batch_all_reduce): one ring whose chunks cut across the values. The values
are issue 13's MLP gradients (784x256, 256, 256x10, 10 floats: tests/keras/test_mlp_training_tf.py, whose one
814 KB pack over 4 CPUs made the fifty-fourth session turn the rule off) and a small Dense model's, on 2, 3 and
4 CPUs, with pack sizes that make one pack, one value per pack and mixed packs, SUM and MEAN. The values mix
magnitudes so that the order shows; the not-vacuous check says one pack and one value per pack give TF other
bits.
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

DEVICES = 4
MLP = ((784, 256), (256,), (256, 10), (10,))
DENSE = ((4, 3), (3,), (3, 3), (3,), (3, 1), (1,))
# (replicas, shapes, bytes_per_pack, reduce op): for MLP, 1000 bytes makes [b2, w2], [b1], [w1] (reversed order),
# 4096 makes [b2, w2], [b1, w1], 802816 (w1's bytes) one pack as 0 does, 1 one value per pack
CASES = [(r, MLP, bpp, "SUM") for r in (2, 3, 4) for bpp in (0, 1)] + \
        [(4, MLP, bpp, "SUM") for bpp in (1000, 4096, 802816)] + \
        [(4, MLP, 0, "MEAN"), (3, MLP, 4096, "MEAN")] + \
        [(r, DENSE, bpp, op) for r in (3, 4) for bpp, op in ((0, "SUM"), (1, "SUM"), (40, "MEAN"))]


def _name(case: tuple) -> str:
    r, shapes, bpp, op = case
    return f"R{r}-{'mlp' if shapes is MLP else 'dense'}-pack{bpp}-{op}"


def inputs(index: int) -> list[list[np.ndarray]]:
    r, shapes, _, _ = CASES[index]
    rng = np.random.default_rng([55, r, len(shapes)])
    return [[(rng.standard_normal(s) * portable_inputs.pow10(rng.integers(-3, 4, s))).astype("float32") for s in shapes]
            for _ in range(r)]


def compute(tf: Any, index: int, strategies: dict[int, Any] | None = None) -> list[np.ndarray]:
    """The same program on both backends: replica 0's reduced values (every replica's are checked equal). TF
    reuses one strategy per replica count (fresh strategies in one process reuse collective instance keys)."""
    r, shapes, bpp, op = CASES[index]
    xs = inputs(index)
    make = lambda: tf.distribute.MirroredStrategy([f"/cpu:{i}" for i in range(r)])  # noqa: E731
    s = make() if strategies is None else strategies.setdefault(r, make())
    v = s.experimental_distribute_values_from_function(
        lambda ctx: [tf.constant(a) for a in xs[ctx.replica_id_in_sync_group]])
    options = tf.distribute.experimental.CommunicationOptions(bytes_per_pack=bpp)

    def step(values: Any) -> Any:
        return tf.distribute.get_replica_context().all_reduce(op, values, options=options)
    outs = tf.function(lambda v: s.run(step, args=(v,)))(v)
    per_replica = [[np.asarray(c.numpy()) for c in s.experimental_local_results(o)] for o in outs]
    for k, comps in enumerate(per_replica):
        assert all(np.array_equal(c.view(np.uint32), comps[0].view(np.uint32)) for c in comps), \
            f"value {k}: the replicas' results differ [{_name(CASES[index])}]"
    return [comps[0] for comps in per_replica]


SAMPLES = 512   # values kept per result beside its digest (the golden would hold 8.6 MB of whole results)


def summary(values: list[np.ndarray]) -> list[tuple[str, tuple, np.ndarray]]:
    """Each result as (SHA-256 of its bits, shape, every n-th element: at most SAMPLES of them) - what the golden
    keeps and the test compares."""
    out = []
    for v in values:
        flat = np.ascontiguousarray(v).reshape(-1)
        out.append((hashlib.sha256(flat.view(np.uint8)).hexdigest(), v.shape, flat[::-(-flat.size // SAMPLES)]))
    return out


def _setup(tf: Any) -> None:
    cpu = tf.config.list_physical_devices("CPU")[0]
    tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * DEVICES)


def _tf_worker(indices: list[int]) -> dict[int, Any]:
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import tensorflow as tf
    _setup(tf)
    strategies: dict[int, Any] = {}
    return {i: summary(compute(tf, i, strategies)) for i in indices}


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    # one TF process per replica count: TF's MirroredStrategy objects of one process share collective group
    # key 1, and a group of another size then aborts the collectives
    out: dict[int, Any] = {}
    for r in sorted({c[0] for c in CASES}):
        out.update(tf_workers.spawn(__file__, [i for i, c in enumerate(CASES) if c[0] == r]))
    return out


@pytest.mark.clause("reduce.ring-order", ref="tf221")
@pytest.mark.parametrize("index", range(len(CASES)), ids=[_name(c) for c in CASES])
def test_a_traced_nest_all_reduce_rings_over_its_packs(index: int, tf_results: dict[int, Any]) -> None:
    import simdist
    from simdist import tf
    simdist.reset()
    _setup(tf)
    name = _name(CASES[index])
    want = tf_results[index]
    got = summary(compute(tf, index))
    assert len(got) == len(want), f"{len(got)} values, but TF 2.21 gives {len(want)} [{name}]"
    for k, ((gd, gs, gv), (wd, ws, wv)) in enumerate(zip(got, want)):
        assert gs == ws, f"value {k}: shape {gs}, but should be {ws} [{name}]"
        if gd == wd:
            continue
        diff = np.flatnonzero(gv.view(np.uint32) != wv.view(np.uint32))
        step = -(-int(np.prod(gs)) // SAMPLES)
        where = (f"first sampled difference: out[{diff[0] * step}]={gv[diff[0]]!r}, but should be {wv[diff[0]]!r}"
                 if diff.size else "the sampled elements agree")
        raise AssertionError(f"value {k} {gs}: bits' SHA-256 {gd[:16]}, but TF 2.21's is {wd[:16]} ({diff.size} of "
                             f"{gv.size} sampled elements differ; {where}) [{name}]")


def test_the_cases_show_the_packs(tf_results: dict[int, Any]) -> None:
    """Not vacuous: for 3 and 4 replicas and both models, TF's one pack (bytes_per_pack 0) and one value per pack
    (1) give other bits (two replicas' ring adds x0 + x1 or x1 + x0, the same bits: packing cannot show)."""
    pairs = {}
    for i, (r, shapes, bpp, op) in enumerate(CASES):
        if op == "SUM" and bpp in (0, 1) and r >= 3:
            pairs.setdefault((r, shapes is MLP), {})[bpp] = tf_results[i]
    same = [key for key, p in pairs.items() if len(p) == 2 and [d for d, _, _ in p[0]] == [d for d, _, _ in p[1]]]
    assert len(pairs) == 4 and not same, \
        f"TF 2.21's one pack and one value per pack agree for (replicas, MLP?) {same} of {sorted(pairs)}: vacuous"


if __name__ == "__main__":  # TF worker
    tf_workers.serve(_tf_worker)
