"""tf.function's tracing count of distributed variables against TF 2.21 (clause function.tracing-count):
a MirroredVariable or a sync-on-read variable passed to a tf.function is traced by its dtype and shape,
so two of one spec share a trace whatever their synchronization or aggregation, while a plain variable
of that spec, or one of another dtype or shape, takes a trace of its own. Found triaging the seed-4
mutation sweep survivor simdist/tf/_tracing_count.py:52 (docs/conformance.md, twenty-seventh session).
Needs the `tf` extra."""

from __future__ import annotations

from typing import Any, Callable

import pytest

import tf_workers
from diff_helpers import make_strategy
from simdist import tf as sim_tf

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _count(tf: Any, args: list[Any]) -> int:
    @tf.function
    def f(x: Any) -> Any:
        return x * 2

    for a in args:
        f(a)
    return int(f.experimental_get_tracing_count())


def _vars(tf: Any, s: Any) -> dict[str, Any]:
    on_read, VA = tf.VariableSynchronization.ON_READ, tf.VariableAggregation
    with s.scope():
        out = {"a": tf.Variable(1.0), "b": tf.Variable(2.0), "c": tf.Variable([1.0, 2.0]), "i": tf.Variable(1),
               "r": tf.Variable(1.0, synchronization=on_read, aggregation=VA.SUM),
               "r2": tf.Variable(3.0, synchronization=on_read, aggregation=VA.SUM),
               "r3": tf.Variable(3.0, synchronization=on_read, aggregation=VA.MEAN)}
    out["p"] = tf.Variable(1.0)
    return out


def _case(names: str, in_scope: bool = False) -> Callable[[Any, Any], Any]:
    def case(tf: Any, s: Any) -> Any:
        v = _vars(tf, s)
        args = [v[n] for n in names.split()]
        if in_scope:
            with s.scope():
                return _count(tf, args)
        return _count(tf, args)
    return case


CASES: list[tuple[str, Callable[[Any, Any], Any]]] = [
    ("two MirroredVariables of one spec", _case("a b a")),
    ("MirroredVariables of two shapes", _case("a c")),
    ("MirroredVariables of two dtypes", _case("a i")),
    ("a MirroredVariable and a plain variable of one spec", _case("a p")),
    ("a MirroredVariable and a sync-on-read one of one spec", _case("a r")),
    ("sync-on-read variables of two aggregations", _case("r r2 r3")),
    ("two MirroredVariables of one spec inside the scope", _case("a b", in_scope=True)),
]


def run_case(tf: Any, k: int) -> Any:
    try:
        return CASES[k][1](tf, make_strategy(tf, "mirrored", 2))
    except Exception as e:  # noqa: BLE001 - the class is the result
        return ("error", type(e).__name__)


def _tf_worker(indices: list[int]) -> dict[int, Any]:
    import tensorflow as real_tf
    cpu = real_tf.config.list_physical_devices("CPU")[0]
    real_tf.config.set_logical_device_configuration(cpu, [real_tf.config.LogicalDeviceConfiguration()] * 4)
    return {i: run_case(real_tf, i) for i in indices}


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return tf_workers.spawn(__file__, list(range(len(CASES))))


@pytest.mark.clause("function.tracing-count")
@pytest.mark.parametrize("index", range(len(CASES)), ids=[c[0] for c in CASES])
def test_tracing_count_of_distributed_variables(index: int, tf_results: dict[int, Any]) -> None:
    got, want = run_case(sim_tf, index), tf_results[index]
    assert got == want, f"experimental_get_tracing_count()={got!r}, but TF 2.21 gives {want!r} [{CASES[index][0]}]"


if __name__ == "__main__":  # TF worker: python test_amut27_tracing_count_tf.py 0,1,... -> pickled results on stdout
    tf_workers.serve(_tf_worker)
