"""A scheduled function that reads a ps variable after adding to it, on concurrent workers: simdist vs real
TF 2.21 on an in-process gRPC cluster (clause optim.pss-updates, its "Difference").

The program: `inside` (1.0) on the ps, `outside` (3.0) on the chief, three schedules of
`inside.assign_add(outside); return inside.read_value() + outside`. TF 2.21 runs the ps's part of each call
(the AssignAddVariableOp and the ReadVariableOp ordered after it by the automatic control dependencies) when
`outside`'s value reaches the ps, so each read sees its own add and every add that reached the ps before it:
the three fetches are 7, 10 and 13 in some order, with 1, 2 or 3 workers (observed, recorded in the goldens).
simdist runs a closure's function when its worker starts it and, because it read a ps variable after its
own write, again when its writes have reached the ps (strategies/worker.py `_reread`, variables.Reread): that
read sees the add applied there and the adds that arrived before it, as TF's. (Before the forty-second
session simdist fetched 7, 7, 13 with 2 workers and 7, 7, 7 with 3.) The variable ends at 10.0 on both.
Needs the `tf` extra (or its recorded goldens).
"""

from __future__ import annotations

from typing import Any

import pytest

import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__), pytest.mark.clause("optim.pss-updates")]

WORKERS = (1, 2, 3)
TF_ORDER = [7.0, 10.0, 13.0]


def fetches(tf: Any, strategy: Any, coordinator: Any) -> dict[str, Any]:
    """Three schedules of the add-then-read function: the fetched results (sorted) and the ps variable after."""
    outside = tf.Variable(3.0)
    with strategy.scope():
        inside = tf.Variable(1.0)

    @tf.function
    def step() -> Any:
        inside.assign_add(outside)
        return inside.read_value() + outside

    rs = [coordinator.schedule(step) for _ in range(3)]
    coordinator.join()
    return {"fetched": sorted(float(r.fetch()) for r in rs), "final": float(inside.numpy())}


def _tf_worker(indices: list[int]) -> dict[int, Any]:
    import tensorflow as tf

    from simdist.conformance.backends.tf_backend import start_in_process_servers
    out = {}
    for k in indices:
        spec, servers = start_in_process_servers(tf, WORKERS[k], 1)
        spec = dict(spec)
        resolver = tf.distribute.cluster_resolver.SimpleClusterResolver(tf.train.ClusterSpec(spec), rpc_layer="grpc")
        strategy = tf.distribute.experimental.ParameterServerStrategy(resolver)
        coordinator = tf.distribute.experimental.coordinator.ClusterCoordinator(strategy)
        out[k] = fetches(tf, strategy, coordinator)
        del servers
    return out


def _simdist(workers: int) -> dict[str, Any]:
    from ps_helpers import coordinator, pss

    from simdist import tf
    strategy = pss(workers=workers, ps=1)
    return fetches(tf, strategy, coordinator(strategy))


@pytest.fixture(scope="module")
def tf_answers() -> dict[int, Any]:
    return tf_workers.spawn(__file__, list(range(len(WORKERS))))


@pytest.mark.parametrize("k", range(len(WORKERS)), ids=[f"{w}_workers" for w in WORKERS])
def test_tf_reads_each_add_with_the_adds_before_it(tf_answers: dict[int, Any], k: int) -> None:
    got = tf_answers[k]
    assert got == {"fetched": TF_ORDER, "final": 10.0}, \
        f"TF 2.21 with {WORKERS[k]} workers fetched {got['fetched']} (ps variable {got['final']}), but the spec " \
        f"says {TF_ORDER} (10.0): each read sees its own add and the adds before it"


@pytest.mark.parametrize("k", range(len(WORKERS)), ids=[f"{w}_workers" for w in WORKERS])
def test_simdist_fetches_as_tf(tf_answers: dict[int, Any], k: int) -> None:
    got = _simdist(WORKERS[k])
    assert got["final"] == tf_answers[k]["final"], \
        f"the ps variable ended at {got['final']} on simdist, {tf_answers[k]['final']} on TF 2.21 " \
        f"({WORKERS[k]} workers)"
    assert got["fetched"] == tf_answers[k]["fetched"], \
        f"simdist fetched {got['fetched']} with {WORKERS[k]} workers, TF 2.21 {tf_answers[k]['fetched']}"


if __name__ == "__main__":
    tf_workers.serve(_tf_worker)
