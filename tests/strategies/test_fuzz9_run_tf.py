"""Variables created inside `MirroredStrategy.run`, and `reduce`/`gather` of a PerReplica holding
Python values, against TF 2.21 (issue 29's fz9: fourth fuzzer seed 23 #139, where TF's replicas
read one MirroredVariable made from replica 0's value and simdist made one per replica; fz8's open
class of `reduce` of a PerReplica of Python floats, which TF refuses and simdist summed). Each
program describes its result as Python data (type names, values, error classes). Needs the `tf`
extra.
"""

from __future__ import annotations

import itertools
from typing import Any, Callable

import numpy as np
import pytest

import tf_workers
from diff_helpers import make_strategy
from simdist import tf as sim_tf

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _value(x: Any) -> Any:
    if hasattr(x, "numpy") and hasattr(x, "dtype"):
        return (x.dtype.name, np.asarray(x.numpy()).tolist())
    if isinstance(x, (list, tuple)):
        return (type(x).__name__, [_value(v) for v in x])
    if isinstance(x, (bool, int, float, str)):
        return (type(x).__name__, x)
    return (type(x).__name__, None)


def _outcome(fn: Callable[[], Any]) -> Any:
    try:
        return ("ok", _value(fn()))
    except Exception as e:  # noqa: BLE001 - the class is the result
        return ("error", type(e).__name__)


def _per_replica_input(tf: Any, s: Any, values: tuple) -> Any:
    return s.experimental_distribute_values_from_function(lambda c: tf.constant(values[c.replica_id_in_sync_group]))


def _created_in_run(tf: Any, s: Any) -> Any:
    x = _per_replica_input(tf, s, ([2], [7]))

    def f(x: Any) -> Any:
        v = tf.Variable(x)
        w = tf.Variable(x * 10, name="w")
        return v.read_value(), w.read_value(), type(v).__name__, v.name, w.name
    r = s.run(f, args=(x,))
    return [_value(part) for part in s.experimental_local_results(r)]


def _created_in_run_reduced(tf: Any, s: Any) -> Any:
    x = _per_replica_input(tf, s, ([2], [7]))
    r = s.run(lambda x: tf.Variable(x).read_value(), args=(x,))
    return [_outcome(lambda: s.reduce("SUM", r, axis=None)), _outcome(lambda: s.gather(r, 0))]


def _created_with_other_names(tf: Any, s: Any) -> Any:
    def g() -> Any:
        ctx = tf.distribute.get_replica_context()
        return tf.Variable(1.0, name="a" if ctx.replica_id_in_sync_group == 0 else "b").read_value()
    return _outcome(lambda: s.experimental_local_results(s.run(g)))


def _created_twice(tf: Any, s: Any) -> Any:
    x = _per_replica_input(tf, s, (1.0, 5.0))

    def f(x: Any) -> Any:
        a = tf.Variable(x)
        b = tf.Variable(x + 1)
        a.assign_add(10.0)
        return a.read_value(), b.read_value()
    return [_value(p) for p in s.experimental_local_results(s.run(f, args=(x,)))]


def _cast_mirrored(tf: Any, s: Any) -> Any:
    """tf.cast of a MirroredVariable to its own dtype inside run: TF reads it (a PerReplica of
    tensors, which SUM reduces), a plain variable it returns as it is."""
    with s.scope():
        v = tf.Variable([1.0, 2.0])
    r = s.run(lambda: tf.cast(v, tf.float32))
    plain = tf.Variable(1.0)
    return [type(r).__name__, _outcome(lambda: s.reduce("SUM", r, axis=None)),
            tf.cast(v, tf.float32) is v, tf.cast(plain, tf.float32) is plain]


def _update_results(update: str) -> Callable[[Any, Any], Any]:
    """strategy.run(lambda x: <update>, args=(v,)) of a MirroredVariable v: the result's type,
    gather along 0 (TF: the update results are _UnreadVariables its all-gather cannot convert,
    TypeError) and reduce SUM along 0."""
    def run(tf: Any, s: Any) -> Any:
        with s.scope():
            v = tf.Variable([1.0, 4.0])
        r = s.run(eval(f"lambda x: {update}"), args=(v,))  # noqa: S307 - our text
        return [type(r).__name__, _outcome(lambda: s.gather(r, 0)), _outcome(lambda: s.reduce("SUM", r, axis=0))]
    return run


def _python_values(values: tuple) -> Callable[[Any, Any], Any]:
    """A run whose replicas return values[0] and values[1]; then reduce and gather."""
    def run(tf: Any, s: Any) -> Any:
        c = itertools.count()
        r = s.run(lambda: values[next(c)])
        out = [_value(s.experimental_local_results(r))]
        for op, axis in (("SUM", None), ("MEAN", None), ("SUM", 0)):
            out.append(_outcome(lambda: s.reduce(op, r, axis=axis)))
        out.append(_outcome(lambda: s.gather(r, 0)))
        return out
    return run


CASES: list[tuple[str, str, Callable[[Any, Any], Any]]] = [
    ("variable-created-in-run", "mirrored.variables", _created_in_run),
    ("variable-created-in-run-reduced", "mirrored.variables", _created_in_run_reduced),
    ("variables-created-in-run-with-other-names", "mirrored.variables", _created_with_other_names),
    ("two-variables-created-in-run", "mirrored.variables", _created_twice),
    ("cast-of-mirrored-variable", "reduce.axis-none", _cast_mirrored),
    ("gather-of-slice-assign-results", "gather.dense-only", _update_results("x[:1].assign([-1.0])")),
    ("gather-of-assign-add-results", "gather.dense-only", _update_results("x.assign_add([1.0, 1.0])")),
    ("gather-of-the-variable-itself", "gather.dense-only", _update_results("x")),
    ("python-floats", "reduce.axis-none", _python_values((2.5, 1.5))),
    ("python-ints", "reduce.axis-none", _python_values((1, 2))),
    ("python-bools", "reduce.axis-none", _python_values((True, False))),
    ("numpy-scalars", "reduce.axis-none", _python_values((np.float32(1), np.float32(2)))),
    ("one-python-float", "reduce.axis-none", _python_values((2.5, 2.5))),
]


def run_case(tf: Any, k: int) -> Any:
    try:
        return CASES[k][2](tf, make_strategy(tf, "mirrored", 2))
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


def _ids(group: str) -> list[int]:
    return [i for i, c in enumerate(CASES) if c[1] == group]


@pytest.mark.clause("mirrored.variables")
@pytest.mark.parametrize("index", _ids("mirrored.variables"), ids=[CASES[i][0] for i in _ids("mirrored.variables")])
def test_variables_created_in_run_are_replica_0s(index: int, tf_results: dict[int, Any]) -> None:
    got, want = run_case(sim_tf, index), tf_results[index]
    assert got == want, f"strategy.run result={got!r}, but TF 2.21 gives {want!r} [{CASES[index][0]}]"


@pytest.mark.clause("reduce.axis-none")
@pytest.mark.parametrize("index", _ids("reduce.axis-none"), ids=[CASES[i][0] for i in _ids("reduce.axis-none")])
def test_reduce_and_gather_of_python_components(index: int, tf_results: dict[int, Any]) -> None:
    got, want = run_case(sim_tf, index), tf_results[index]
    assert got == want, f"reduce/gather result={got!r}, but TF 2.21 gives {want!r} [{CASES[index][0]}]"


@pytest.mark.clause("gather.dense-only")
@pytest.mark.parametrize("index", _ids("gather.dense-only"), ids=[CASES[i][0] for i in _ids("gather.dense-only")])
def test_gather_of_update_results(index: int, tf_results: dict[int, Any]) -> None:
    got, want = run_case(sim_tf, index), tf_results[index]
    assert got == want, f"gather/reduce result={got!r}, but TF 2.21 gives {want!r} [{CASES[index][0]}]"


if __name__ == "__main__":  # TF worker: python test_fuzz9_run_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(_tf_worker)
