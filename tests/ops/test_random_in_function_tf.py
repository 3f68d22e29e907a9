"""TF's random seeds and streams inside tf.function against real TensorFlow 2.21 (clause
ops.random-in-function): a traced function's seedless random ops take its graph seed (the global
seed when it was traced) and the graph's own op-seed counter, leave the eager op-seed sequence
alone, and each has its own kernel whose stream continues across calls; other functions, other
traces of one function, functions called inside another, tf.cond branches and while-loop bodies
(graphs of their own) and the replicas of strategy.run (one graph) as TF has them;
tf.random.set_seed restarts the streams without retracing. Every case sets its own global seed
first. Needs the `tf` extra (or its golden)."""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import edge_compare
import portable_inputs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause

_LOGITS = portable_inputs.log(np.array([[0.1, 0.2, 0.7], [0.5, 0.25, 0.25]], np.float32))
_STRATEGIES: dict[str, Any] = {}


def _two_cpus(tf: Any) -> None:
    """Two logical CPUs, set before the process's first op (TF refuses once its context is up),
    whichever case a worker runs first."""
    if tf.__name__ not in _STRATEGIES:
        cpu = tf.config.list_physical_devices("CPU")[0]
        tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 2)
        _STRATEGIES[tf.__name__] = None


def _strategy(tf: Any) -> Any:
    """MirroredStrategy on two logical CPUs: simdist's on a fresh simulation per case, TF's made
    once per worker (as tests/ops/test_fuzz2_edges_tf.py)."""
    if tf.__name__.startswith("simdist"):
        import simdist
        simdist.reset()
        cpu = tf.config.list_physical_devices("CPU")[0]
        tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 2)
        return tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
    _two_cpus(tf)
    if _STRATEGIES.get(tf.__name__) is None:
        _STRATEGIES[tf.__name__] = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
    return _STRATEGIES[tf.__name__]


def _seeded(gs: Any, fn: Callable[[Any], Any]) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        _two_cpus(tf)
        tf.random.set_seed(gs)
        return fn(tf)
    return run


def _three_draws(tf: Any) -> Any:
    return tf.function(lambda: [tf.random.uniform([2]), tf.random.normal([1]), tf.random.uniform([1], seed=7)])


def _calls_then_eager(tf: Any) -> list:
    f = _three_draws(tf)
    return [f(), f(), tf.random.uniform([2])]


def _two_functions(tf: Any) -> list:
    f, g = tf.function(lambda: tf.random.uniform([2])), tf.function(lambda: tf.random.uniform([2]))
    return [f(), g(), f(), g()]


def _per_signature(tf: Any) -> list:
    k = tf.function(lambda x: x + tf.random.uniform([2]))
    return [k(tf.constant(0.0)), k(tf.constant([0.0, 0.0])), k(tf.constant(0.0)), k(tf.constant([0.0, 0.0]))]


def _set_seed_restarts(tf: Any) -> list:
    f = _three_draws(tf)
    first = f()
    tf.random.set_seed(5)
    return [first, f(), f(), tf.function(lambda: tf.random.uniform([2]))()]


def _dropout(tf: Any) -> list:
    d = tf.function(lambda x: tf.nn.dropout(x, 0.5))
    return [d(tf.ones([8])) for _ in range(3)]


def _nested(tf: Any) -> list:
    inner = tf.function(lambda: tf.random.uniform([1]))
    outer = tf.function(lambda: [tf.random.uniform([1]), inner(), inner()])
    return [outer(), outer(), inner(), inner()]


def _cond(tf: Any) -> list:
    f = tf.function(lambda p: tf.cond(p, lambda: tf.random.uniform([2]), lambda: tf.random.normal([2]) + 10.0)
                    + tf.random.uniform([2]))
    return [f(tf.constant(True)), f(tf.constant(False)), f(tf.constant(True)), f(tf.constant(False))]


def _while(tf: Any) -> list:
    f = tf.function(lambda: tf.while_loop(lambda i, acc: i < 3,
                                          lambda i, acc: (i + 1, acc + tf.random.uniform([2])),
                                          (tf.constant(0), tf.zeros([2])))[1])
    return [f(), f()]


def _other_ops(tf: Any) -> list:
    f = tf.function(lambda: [tf.random.truncated_normal([3]), tf.random.categorical(_LOGITS, 4),
                             tf.random.shuffle(tf.range(6)), tf.random.uniform([3], 0, 9, tf.int32),
                             tf.random.gamma([3], 2.0), tf.random.poisson([3], 4.0)])
    return [f(), f()]


def _op_seed_only(tf: Any) -> list:
    f = tf.function(lambda: [tf.random.uniform([2], seed=4), tf.random.normal([2], seed=4)])
    return [f(), f(), tf.random.uniform([2], seed=4)]


def _run_in_function(tf: Any) -> list:
    s = _strategy(tf)
    tf.random.set_seed(2)
    step = tf.function(lambda: s.run(lambda: tf.random.uniform([2]) + tf.random.normal([1])))
    return [s.experimental_local_results(step()) for _ in range(2)]


def _run_of_function(tf: Any) -> list:
    s = _strategy(tf)
    tf.random.set_seed(2)
    f = tf.function(lambda: tf.random.uniform([1]) + tf.random.normal([1]))
    return [s.experimental_local_results(s.run(f)) for _ in range(2)]


_DRAWS: list[tuple[str, Callable[[Any], Any]]] = [
    ("calls-then-eager", _seeded(1, _calls_then_eager)),
    ("two-functions", _seeded(1, _two_functions)),
    ("per-signature", _seeded(1, _per_signature)),
    ("set-seed-restarts", _seeded(1, _set_seed_restarts)),
    ("dropout", _seeded(3, _dropout)),
    ("nested", _seeded(3, _nested)),
    ("cond-branches", _seeded(4, _cond)),
    ("while-body", _seeded(4, _while)),
    ("other-ops", _seeded(6, _other_ops)),
    ("op-seed-only", _seeded(None, _op_seed_only)),
    ("run-in-function", _run_in_function),
    ("run-of-function", _run_of_function),
]

CASES: list[tuple[str, str, Callable[[Any], Any], float]] = [(n, "ops.random-in-function", f, 0.0)
                                                             for n, f in _DRAWS]

EDGES = edge_compare.EdgeModule(__file__, CASES, agree=lambda case: edge_compare.within(case[3], atol_ratio=0.01))


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("ops.random-in-function")
@EDGES.parametrize("ops.random-in-function")
def test_random_in_function(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


def test_every_group_is_tested() -> None:
    assert EDGES.untested() == [], f"groups with no test function: {EDGES.untested()}"


if __name__ == "__main__":  # TF worker: python test_random_in_function_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
