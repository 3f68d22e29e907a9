"""Grappler's rewrites in functions a ClusterCoordinator schedules with arguments: simdist vs real TF 2.21 on an
in-process gRPC cluster (the forty-eighth session, helper open48; clause function.grappler-rewrites;
simdist/strategies/worker.py `_run_function`, runtime/graph/dataflow.py `recorded(call, rewrites)`).

TF runs a scheduled tf.function as its traced, Grappler-rewritten graph on the worker, with arguments or without:
`schedule(f, args=(x,))` of `x / tf.constant(3.0)` gives the bits of x * (1 / 3) (ArithmeticOptimizer's
division by a constant), `x ** 3.0` those of x * x * x, `0.1 + (x + 0.2)` those of x + 0.3, on the first call
and every later one, as a plain call of f and a scheduled function without arguments. simdist ran a closure with
arguments as plain ops (x / 3 exactly): those calls now run under a recorder with the rewrites. Each program's
results are the float32 bit patterns of the fetched values, per call.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__), pytest.mark.clause("function.grappler-rewrites")]

VALUES = [1.0, 2.0, 5.0, 10.0, 0.7, 1e-3, 123.456, 7.0, -3.3, 1e20]
PROGRAMS = ["divide by a constant", "power, sums and a divide", "a keyword argument", "no arguments (replayed)"]
WORKERS = 2


def _bits(t: Any) -> list[int]:
    return [int(b) for b in np.asarray(t, np.float32).reshape(-1).view(np.uint32)]


def program(tf: Any, strategy: Any, coordinator: Any, name: str) -> list:
    x = tf.constant(np.array(VALUES, np.float32))
    with strategy.scope():
        v = tf.Variable(np.array(VALUES, np.float32))

    @tf.function
    def divide(a: Any) -> Any:
        return a / tf.constant(3.0)

    @tf.function
    def several(a: Any, b: Any) -> Any:
        return a ** 3.0, 0.1 + (a + 0.2), b / 7.0, a * 2.0 / 5.0

    @tf.function
    def keyword(a: Any, *, scale: Any) -> Any:
        return a / scale + a / 3.0

    @tf.function
    def none() -> Any:
        return v / 3.0, v ** 3.0

    calls = {"divide by a constant": (divide, (x,), {}),
             "power, sums and a divide": (several, (x, x + 1.0), {}),
             "a keyword argument": (keyword, (x,), {"scale": tf.constant(7.0)}),
             "no arguments (replayed)": (none, (), {})}
    fn, args, kwargs = calls[name]
    out = []
    for _ in range(3):   # (the first call of a signature, then calls of the same one)
        r = coordinator.schedule(fn, args=args, kwargs=kwargs)
        coordinator.join()
        got = r.fetch()
        out.append([_bits(t) for t in (got if isinstance(got, tuple) else (got,))])
    direct = fn(*args, **kwargs) if args or kwargs else None
    if direct is not None:
        out.append(["a plain call", [_bits(t) for t in (direct if isinstance(direct, tuple) else (direct,))]])
    return out


def _tf_worker(indices: list[int]) -> dict[int, Any]:
    import tensorflow as tf

    from simdist.conformance.backends.tf_backend import start_in_process_servers
    spec, servers = start_in_process_servers(tf, WORKERS, 1)
    resolver = tf.distribute.cluster_resolver.SimpleClusterResolver(tf.train.ClusterSpec(dict(spec)), rpc_layer="grpc")
    strategy = tf.distribute.experimental.ParameterServerStrategy(resolver)
    coordinator = tf.distribute.experimental.coordinator.ClusterCoordinator(strategy)
    out = {k: program(tf, strategy, coordinator, PROGRAMS[k]) for k in indices}
    del servers
    return out


@pytest.fixture(scope="module")
def tf_answers() -> dict[int, Any]:
    return tf_workers.spawn(__file__, list(range(len(PROGRAMS))))


@pytest.mark.parametrize("k", range(len(PROGRAMS)), ids=PROGRAMS)
def test_scheduled_functions_run_rewritten_as_tf(tf_answers: dict[int, Any], k: int) -> None:
    from ps_helpers import coordinator, pss

    from simdist import tf
    strategy = pss(workers=WORKERS, ps=1)
    got, want = program(tf, strategy, coordinator(strategy), PROGRAMS[k]), tf_answers[k]
    assert len(got) == len(want), f"{PROGRAMS[k]}: {len(got)} results, TF 2.21 {len(want)}"
    for i, (g, w) in enumerate(zip(got, want)):
        assert g == w, f"{PROGRAMS[k]}: call {i}: simdist gives the float32 bits {g}, TF 2.21 {w}"


if __name__ == "__main__":
    tf_workers.serve(_tf_worker)
