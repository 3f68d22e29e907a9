"""Differential tests of ParameterServerStrategy + ClusterCoordinator: simdist vs real TF 2.21.

TF runs on an in-process gRPC cluster (tf.distribute.Server per worker and ps task on
localhost ports, the test process as chief), in a worker subprocess per cluster shape, so the
servers die with it. Compared: placement, shard names and shapes, final values after
commutative updates, and exception classes. Needs the `tf` extra.
"""

from __future__ import annotations

import os
from typing import Any, Callable

import numpy as np
import pytest

import simdist
import tf_workers
from simdist import tf as sim_tf

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _norm(x: Any) -> Any:
    if isinstance(x, dict):
        return {k: _norm(v) for k, v in sorted(x.items())}
    if isinstance(x, (list, tuple)):
        return [_norm(v) for v in x]
    if hasattr(x, "numpy"):
        return np.asarray(x.numpy()).tolist()
    if isinstance(x, np.ndarray):
        return x.tolist()
    if isinstance(x, np.generic):
        return x.item()
    return x


def _describe(v: Any) -> Any:
    """Placement and shape of a (possibly sharded) variable."""
    if hasattr(v, "variables") and isinstance(v.variables, list):
        return {"shards": [(p.name, list(p.shape), p.device) for p in v.variables]}
    return {"name": v.name, "shape": list(v.shape), "device": v.device}


def run(tf: Any, resolver: Any, program: Callable[..., Any]) -> Any:
    try:
        return ("ok", _norm(program(tf, resolver)))
    except Exception as e:  # noqa: BLE001 - the class is the result
        return ("error", type(e).__name__)


# --- programs: (name, workers, ps, program(tf, resolver)) --------------------------------------
def _pss(tf: Any, resolver: Any, partitioner: Any = None) -> Any:
    return tf.distribute.experimental.ParameterServerStrategy(resolver, variable_partitioner=partitioner)


def placement(tf, r):
    s = _pss(tf, r)
    v1 = tf.Variable(0.0)
    with s.scope():
        vs = [tf.Variable(float(i)) for i in range(5)]
    return {"outside": v1.device, "inside": [v.device for v in vs]}


def partition_case(kind: str, arg: Any, shape: list[int], dtype: str = "float32"):
    def prog(tf, r):
        P = tf.distribute.experimental.partitioners
        part = {"fixed": lambda: P.FixedShardsPartitioner(arg),
                "min": lambda: P.MinSizePartitioner(min_shard_bytes=arg[0], max_shards=arg[1]),
                "max": lambda: P.MaxSizePartitioner(max_shard_bytes=arg[0], max_shards=arg[1])}[kind]()
        s = _pss(tf, r, part)
        with s.scope():
            a = tf.Variable(tf.zeros(shape, dtype=getattr(tf, dtype)), name="w")
            b = tf.Variable(1.0, name="s")
            c = tf.Variable(tf.zeros([3]), name="z")
        return {"w": _describe(a), "s": _describe(b), "z": _describe(c)}
    return prog


def bad_partitioner(result):
    def prog(tf, r):
        s = _pss(tf, r, lambda shape, dtype: result)
        with s.scope():
            return _describe(tf.Variable(tf.zeros([4, 4])))
    return prog


def colocate(tf, r):
    s = _pss(tf, r, tf.distribute.experimental.partitioners.FixedShardsPartitioner(2))
    with s.scope():
        a = tf.Variable(1.0)
        with s.extended.colocate_vars_with(a):
            b = tf.Variable(tf.zeros([6, 2]))
        c = tf.Variable(2.0)
    return [_describe(a), _describe(b), _describe(c)]


def commutative(closures: int, shards: int):
    def prog(tf, r):
        s = _pss(tf, r, tf.distribute.experimental.partitioners.FixedShardsPartitioner(shards))
        with s.scope():
            v = tf.Variable(0.0)
            w = tf.Variable(tf.zeros([7, 3]))
        c = tf.distribute.experimental.coordinator.ClusterCoordinator(s)

        @tf.function
        def step():
            v.assign_add(1.0)
            w.assign_add(tf.ones([7, 3]))
            return v.read_value() * 0.0 + 1.0
        rvs = [c.schedule(step) for _ in range(closures)]
        c.join()
        return {"v": v.numpy(), "w": tf.convert_to_tensor(w).numpy(), "fetched": [rv.fetch() for rv in rvs]}
    return prog


def uniform_updates(tf, r):
    """The benchmark's kind of update (a uniform tensor and a scalar; runtime/uniform.py replays it
    on the scalar) from every closure: the ps values after the closures, bit for bit."""
    s = _pss(tf, r)
    with s.scope():
        c = tf.Variable(0.5)                      # read by every closure, never written: any order gives the same sums
        w = tf.Variable(tf.zeros([64, 64]))
        u = tf.Variable(tf.ones([64, 64]))
    coord = tf.distribute.experimental.coordinator.ClusterCoordinator(s)

    @tf.function
    def step():
        x = c.read_value()
        w.assign_add(tf.ones([64, 64]) * x + x * 0.25)
        u.assign_sub(tf.fill([64, 64], 0.75) / (x + 0.5))
        return x * 0.0 + 1.0
    rvs = [coord.schedule(step) for _ in range(9)]
    coord.join()
    return {"w": w.numpy(), "u": u.numpy(), "fetched": [rv.fetch() for rv in rvs]}


def embedding(tf, r):
    s = _pss(tf, r, tf.distribute.experimental.partitioners.FixedShardsPartitioner(3))
    with s.scope():
        emb = tf.Variable(tf.reshape(tf.range(20, dtype=tf.float32), [10, 2]))
    return {"lookup": tf.nn.embedding_lookup(emb, tf.constant([9, 0, 4])), "dense": tf.convert_to_tensor(emb)}


def app_error(tf, r):
    s = _pss(tf, r)
    with s.scope():
        v = tf.Variable(0.0)
    c = tf.distribute.experimental.coordinator.ClusterCoordinator(s)

    @tf.function
    def fail():
        v.assign_add(1.0)
        return tf.gather(tf.constant([1.0, 2.0]), tf.constant(5))   # out of range: fails at run time
    c.schedule(fail)
    try:
        c.join()
    except Exception as e:  # noqa: BLE001
        first = type(e).__name__
    else:
        first = None
    c.join()
    return {"join": first, "second_join": "ok"}


def schedule_plain_function(tf, r):
    c = tf.distribute.experimental.coordinator.ClusterCoordinator(_pss(tf, r))
    return c.schedule(lambda: 1)


def remote_value_arg(tf, r):
    c = tf.distribute.experimental.coordinator.ClusterCoordinator(_pss(tf, r))
    f = tf.function(lambda: tf.constant(1.0))
    rv = c.schedule(f)
    return c.schedule(tf.function(lambda x: x), args=(rv,))


def needs_initial_value(tf, r):
    s = _pss(tf, r, tf.distribute.experimental.partitioners.FixedShardsPartitioner(2))
    with s.scope():
        return _describe(tf.Variable(shape=[4], dtype=tf.float32))


def fetch_nest(tf, r):
    s = _pss(tf, r)
    c = tf.distribute.experimental.coordinator.ClusterCoordinator(s)
    rv = c.schedule(tf.function(lambda: tf.constant(2.5)))
    return c.fetch({"a": rv, "b": 3})


def _grads(g: Any) -> Any:
    """Gradients as plain values: IndexedSlices as (rows in index order, indices, dense shape)."""
    if g is None:
        return None
    if isinstance(g, (list, tuple)):
        return [_grads(x) for x in g]
    if type(g).__name__ == "IndexedSlices":
        idx, vals = np.asarray(g.indices.numpy()), np.asarray(g.values.numpy())
        order = np.argsort(idx, kind="stable")
        return {"indices": idx[order].tolist(), "values": vals[order].tolist(),
                "dense_shape": np.asarray(g.dense_shape.numpy()).tolist()}
    return np.asarray(g.numpy()).tolist()


def sharded_gradients(shards: int, ids: list[int]):
    """The PSS page's caveat: a partitioned variable is differentiated through `.variables`
    (each shard: IndexedSlices of its local rows for a lookup, dense for a conversion); the
    ShardedVariable itself fails (TF 2.21: AttributeError on its missing handle)."""
    def prog(tf, r):
        s = _pss(tf, r, tf.distribute.experimental.partitioners.FixedShardsPartitioner(shards))
        with s.scope():
            emb = tf.Variable(tf.reshape(tf.range(14, dtype=tf.float32), [7, 2]), name="emb")
        with tf.GradientTape(persistent=True) as t:
            looked = tf.reduce_sum(tf.nn.embedding_lookup(emb, tf.constant(ids)) * tf.constant([1.0, 3.0]))
            dense = tf.reduce_sum(tf.convert_to_tensor(emb) * 2.0)
            both = looked + dense
        try:
            whole = type(t.gradient(looked, emb)).__name__
        except Exception as e:  # noqa: BLE001 - the class is the result
            whole = type(e).__name__
        return {"lookup": _grads(t.gradient(looked, emb.variables)), "dense": _grads(t.gradient(dense, emb.variables)),
                "both": [np.asarray(tf.convert_to_tensor(g).numpy()).tolist()
                         for g in t.gradient(both, emb.variables)],
                "whole": whole, "watched": [v.name for v in t.watched_variables()]}
    return prog


PROGRAMS: list[tuple[str, int, int, Callable[..., Any]]] = [("placement", 2, 3, placement)]
for _k, _arg, _shape in [("fixed", 4, [13, 2]), ("fixed", 5, [13]), ("fixed", 2, [10, 3]), ("fixed", 5, [3, 3]),
                         ("fixed", 1, [8, 2]), ("fixed", 3, [1, 4]), ("min", (4, 2), [6, 1]), ("min", (40, 6), [6, 1]),
                         ("min", (256 << 10, 3), [2048, 64]), ("min", (256 << 10, 3), [100, 64]),
                         ("min", (1, 100), [1024, 1024]), ("max", (4, None), [6, 1]), ("max", (8, None), [6, 1]),
                         ("max", (12, 3), [6, 2]), ("max", (1024, None), [6, 1])]:
    PROGRAMS.append((f"partition-{_k}-{_arg}-{_shape}", 2, 3, partition_case(_k, _arg, _shape)))
PROGRAMS.append(("partition-min-int64", 2, 3, partition_case("min", (16, 3), [10, 2], "int64")))
for _res in ([2, 2], [0, 1], None, []):
    PROGRAMS.append((f"bad-partitioner-{_res}", 2, 2, bad_partitioner(_res)))
PROGRAMS += [("colocate", 2, 2, colocate), ("embedding", 2, 3, embedding), ("app-error", 2, 2, app_error),
             ("schedule-plain-function", 2, 2, schedule_plain_function),
             ("remote-value-arg", 2, 2, remote_value_arg), ("needs-initial-value", 2, 2, needs_initial_value),
             ("fetch-nest", 2, 2, fetch_nest), ("uniform-updates", 2, 2, uniform_updates)]
for _sh, _ids in [(2, [0, 4, 4, 1]), (3, [6, 6, 0]), (3, [[2, 5], [5, 3]]), (1, [3, 3])]:
    PROGRAMS.append((f"sharded-gradients-{_sh}-{_ids}", 2, 2, sharded_gradients(_sh, _ids)))
for _n, _sh in [(1, 1), (5, 2), (12, 3), (20, 1)]:
    PROGRAMS.append((f"commutative-{_n}-closures-{_sh}-shards", 2, 2, commutative(_n, _sh)))
    PROGRAMS.append((f"commutative-{_n}-closures-{_sh}-shards-3w", 3, 2, commutative(_n, _sh)))


# --- TF side: a worker process per cluster shape ------------------------------------------------
def _tf_worker(indices: list[int]) -> dict[int, Any]:
    import tensorflow as tf

    from simdist.conformance.backends.tf_backend import start_in_process_servers
    workers, ps = PROGRAMS[indices[0]][1], PROGRAMS[indices[0]][2]
    assert all((PROGRAMS[i][1], PROGRAMS[i][2]) == (workers, ps) for i in indices), indices
    spec, servers = start_in_process_servers(tf, workers, ps, inter_op_threads=max(8, workers + ps + 1))
    resolver = tf.distribute.cluster_resolver.SimpleClusterResolver(tf.train.ClusterSpec(spec), rpc_layer="grpc")
    out = {i: run(tf, resolver, PROGRAMS[i][3]) for i in indices}
    del servers
    return out


def _spawn(indices: list[int]) -> dict[int, Any]:
    return tf_workers.spawn(__file__, indices)


# Programs whose remote errors leave TF's coordinator believing a worker failed (it then waits up
# to an hour for it to "recover"): each runs in a cluster of its own.
ISOLATED = {"app-error", "remote-value-arg"}


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    groups: dict[tuple[int, int, str], list[int]] = {}
    for i, (name, w, p, _) in enumerate(PROGRAMS):
        groups.setdefault((w, p, name if name in ISOLATED else ""), []).append(i)
    results: dict[int, Any] = {}
    for key in sorted(groups):
        results.update(_spawn(groups[key]))
    return results


def simdist_run(index: int) -> Any:
    _, workers, ps, program = PROGRAMS[index]
    simdist.reset()
    spec = sim_tf.train.ClusterSpec({"worker": [f"w{i}:1" for i in range(workers)],
                                     "ps": [f"p{i}:1" for i in range(ps)]})
    resolver = sim_tf.distribute.cluster_resolver.SimpleClusterResolver(spec, rpc_layer="grpc")
    return run(sim_tf, resolver, program)


@pytest.mark.parametrize("index", [i for i, p in enumerate(PROGRAMS) if not p[0].startswith("sharded-gradients")],
                         ids=[p[0] for p in PROGRAMS if not p[0].startswith("sharded-gradients")])
def test_same_as_tensorflow(index: int, tf_results: dict[int, Any]) -> None:
    name = PROGRAMS[index][0]
    got, want = simdist_run(index), tf_results[index]
    assert got == want, f"{name}: simdist gave {got!r}, but TF 2.21 gives {want!r}"


SHARDED = [i for i, p in enumerate(PROGRAMS) if p[0].startswith("sharded-gradients")]


@pytest.mark.clause("pss.sharded-gradients")
@pytest.mark.parametrize("index", SHARDED, ids=[PROGRAMS[i][0] for i in SHARDED])
def test_sharded_gradients_same_as_tensorflow(index: int, tf_results: dict[int, Any]) -> None:
    test_same_as_tensorflow(index, tf_results)


if __name__ == "__main__":  # TF worker: python test_ps_differential_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(_tf_worker)
    os._exit(0)  # servers and coordinator threads never shut down cleanly in-process

