"""A scheduled function that reads a ps variable after adding to it, on concurrent workers: simdist vs real
TF 2.21 on an in-process gRPC cluster (clause optim.pss-updates, its "Difference").

The program: `inside` (1.0) on the ps, `outside` (3.0) on the chief, three schedules of
`inside.assign_add(outside); return inside.read_value() + outside`, with `outside` captured, passed as an
argument, or drawn from a per-worker dataset's iterator. TF 2.21 runs the ps's part of each call
(the AssignAddVariableOp and the ReadVariableOp ordered after it by the automatic control dependencies) when
`outside`'s value reaches the ps, so each read sees its own add and every add that reached the ps before it:
the three fetches are 7, 10 and 13 in some order, with 1, 2 or 3 workers (observed, recorded in the goldens).
simdist runs a closure's function when its worker starts it and, because it read a ps variable after its
own write, evaluates it again when its writes have reached the ps (strategies/worker.py `_reread`,
variables.Reread: a recorded function's replay; an eager call's recorded nodes, runtime/graph/reevaluate.py,
without running its Python again): that read sees the add applied there and the adds that arrived before it,
as TF's, whether the function replays or runs eagerly (SIMDIST_TRACE_FUNCTIONS=0). (Before the forty-third
session simdist fetched 7, 7, 13 with 2 workers and 7, 7, 7 with 3.) The variable ends at 10.0 on both.
Needs the `tf` extra (or its recorded goldens).
"""

from __future__ import annotations

from typing import Any

import pytest

import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__), pytest.mark.clause("optim.pss-updates")]

WORKERS = (1, 2, 3)
# How the function gets its `outside`: captured (it replays a recorded graph on simdist), as an argument,
# and from a per-worker dataset's iterator (both run its Python on simdist: clause optim.pss-updates); and
# captured with a random draw in the step (`+ 0.0 * tf.random.uniform([])`: a replay evaluated again takes
# the draws its run made, runtime/graph/reevaluate.py STASH)
PROGRAMS = ("captured", "argument", "iterator", "random")
CASES = [(p, w) for p in PROGRAMS for w in WORKERS]
IDS = [f"{p}-{w}_workers" for p, w in CASES]
TF_ORDER = [7.0, 10.0, 13.0]


def fetches(tf: Any, strategy: Any, coordinator: Any, program: str) -> dict[str, Any]:
    """Three schedules of the add-then-read function: the fetched results (sorted) and the ps variable after."""
    outside = tf.Variable(3.0)
    with strategy.scope():
        inside = tf.Variable(1.0)

    @tf.function
    def step() -> Any:
        inside.assign_add(outside)
        return inside.read_value() + outside

    @tf.function
    def step_drawing() -> Any:
        inside.assign_add(outside)
        return inside.read_value() + outside + 0.0 * tf.random.uniform([])

    @tf.function
    def step_of(o: Any) -> Any:
        inside.assign_add(o)
        return inside.read_value() + o

    @tf.function
    def step_next(iterator: Any) -> Any:
        o = next(iterator)
        inside.assign_add(o)
        return inside.read_value() + o

    if program == "captured":
        rs = [coordinator.schedule(step) for _ in range(3)]
    elif program == "random":
        rs = [coordinator.schedule(step_drawing) for _ in range(3)]
    elif program == "argument":
        rs = [coordinator.schedule(step_of, args=(tf.constant(3.0),)) for _ in range(3)]
    else:
        per_worker = coordinator.create_per_worker_dataset(lambda: tf.data.Dataset.from_tensors(3.0).repeat())
        it = iter(per_worker)
        rs = [coordinator.schedule(step_next, args=(it,)) for _ in range(3)]
    coordinator.join()
    return {"fetched": sorted(float(r.fetch()) for r in rs), "final": float(inside.numpy())}


def _tf_worker(indices: list[int]) -> dict[int, Any]:
    import tensorflow as tf

    from simdist.conformance.backends.tf_backend import start_in_process_servers
    out = {}
    for k in indices:
        program, workers = CASES[k]
        spec, servers = start_in_process_servers(tf, workers, 1)
        spec = dict(spec)
        resolver = tf.distribute.cluster_resolver.SimpleClusterResolver(tf.train.ClusterSpec(spec), rpc_layer="grpc")
        strategy = tf.distribute.experimental.ParameterServerStrategy(resolver)
        coordinator = tf.distribute.experimental.coordinator.ClusterCoordinator(strategy)
        out[k] = fetches(tf, strategy, coordinator, program)
        del servers
    return out


def _simdist(k: int, traced: bool = True) -> dict[str, Any]:
    from ps_helpers import coordinator, pss

    from simdist import tf
    from simdist.runtime import graph
    program, workers = CASES[k]
    old, graph.enabled = graph.enabled, traced
    try:
        strategy = pss(workers=workers, ps=1)
        return fetches(tf, strategy, coordinator(strategy), program)
    finally:
        graph.enabled = old


@pytest.fixture(scope="module")
def tf_answers() -> dict[int, Any]:
    return tf_workers.spawn(__file__, list(range(len(CASES))))


@pytest.mark.parametrize("k", range(len(CASES)), ids=IDS)
def test_tf_reads_each_add_with_the_adds_before_it(tf_answers: dict[int, Any], k: int) -> None:
    got = tf_answers[k]
    assert got == {"fetched": TF_ORDER, "final": 10.0}, \
        f"TF 2.21 fetched {got['fetched']} (ps variable {got['final']}) [{IDS[k]}], but the spec says " \
        f"{TF_ORDER} (10.0): each read sees its own add and the adds before it"


@pytest.mark.parametrize("traced", [True, False], ids=["traced", "SIMDIST_TRACE_FUNCTIONS=0"])
@pytest.mark.parametrize("k", range(len(CASES)), ids=IDS)
def test_simdist_fetches_as_tf(tf_answers: dict[int, Any], k: int, traced: bool) -> None:
    got = _simdist(k, traced)
    assert got["final"] == tf_answers[k]["final"], \
        f"the ps variable ended at {got['final']} on simdist, {tf_answers[k]['final']} on TF 2.21 [{IDS[k]}]"
    assert got["fetched"] == tf_answers[k]["fetched"], \
        f"simdist fetched {got['fetched']}, TF 2.21 {tf_answers[k]['fetched']} [{IDS[k]}]"


@pytest.mark.parametrize("workers", [1, 3])
def test_draws_are_taken_once_replayed_or_eager(workers: int) -> None:
    """A contended closure with a random draw, evaluated again at its end: the fetched value holds the draw its
    run made, replayed or eager (the draws advance the generator once per closure, alike on both)."""
    from ps_helpers import coordinator, pss

    from simdist import tf
    from simdist.runtime import graph

    def run(traced: bool) -> list[float]:
        old, graph.enabled = graph.enabled, traced
        try:
            strategy = pss(workers=workers, ps=1)
            coord = coordinator(strategy)
            outside = tf.Variable(3.0)
            with strategy.scope():
                inside = tf.Variable(1.0)
            tf.random.set_seed(7)

            @tf.function
            def step() -> Any:
                inside.assign_add(outside)
                return inside.read_value() + tf.random.uniform([])

            rs = [coord.schedule(step) for _ in range(4)]
            coord.join()
            return [float(r.fetch()) for r in rs]
        finally:
            graph.enabled = old
    traced, eager = run(True), run(False)
    assert traced == eager, f"replayed closures fetched {traced}, eager ones {eager}: they should agree [{workers} workers]"
    base = sorted(int(v // 1) for v in traced)
    assert base == [4, 7, 10, 13], \
        f"fetched {traced}: each should be its add's value (4, 7, 10, 13) plus a draw in [0, 1) [{workers} workers]"
    assert len({v % 1 for v in traced}) == 4, f"fetched {traced}: the four draws should differ [{workers} workers]"


if __name__ == "__main__":
    tf_workers.serve(_tf_worker)
