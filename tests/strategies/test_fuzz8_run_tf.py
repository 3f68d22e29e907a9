"""What `MirroredStrategy.run` gives a replica function for a distributed-variable argument, and
what it regroups, against TF 2.21 (issue 29's fz8: fourth fuzzer seeds 21 #17, #125 and 22 #0,
#9, #35, where TF's `reduce(SUM, axis=None)` of the run's result was an AssertionError and
simdist summed per-replica values). TF's select_replica passes a distributed variable whole to
every replica; a replica returning it returns the one distributed variable (regroup's identity
rule), while an update's read value is the replica's own copy. Each program describes its result
as Python data (type names, values, error classes). Needs the `tf` extra.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import tf_workers
from diff_helpers import make_strategy
from simdist import tf as sim_tf

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


# TF's class names for what simdist names otherwise: an eager tensor; an update's read value (an
# _UnreadVariable of the component, which simdist returns as the component itself)
_NAMES = {"EagerTensor": "Tensor", "_UnreadVariable": "ResourceVariable"}


def _name(x: Any) -> str:
    return _NAMES.get(type(x).__name__, type(x).__name__)


def _value(x: Any) -> Any:
    if hasattr(x, "numpy") and hasattr(x, "dtype"):
        return (x.dtype.name, np.asarray(x.numpy()).tolist())
    if isinstance(x, (list, tuple)):
        return (type(x).__name__, [_value(v) for v in x])
    if type(x).__name__ == "TensorShape":
        return ("TensorShape", x.as_list())
    return (_name(x), repr(x) if isinstance(x, (int, float, str)) else None)


def _outcome(call: Callable[[], Any]) -> Any:
    try:
        return _value(call())
    except Exception as e:  # noqa: BLE001 - the class is the result
        return ("error", type(e).__name__)


def _describe(s: Any, out: Any) -> dict[str, Any]:
    """The run's result: its type, its local results' types and values, reduce SUM/MEAN over axis None."""
    local = s.experimental_local_results(out)
    return {"type": _name(out), "local": [(_name(v), _value(v)) for v in local],
            "SUM": _outcome(lambda: s.reduce("SUM", out, axis=None)),
            "MEAN": _outcome(lambda: s.reduce("MEAN", out, axis=None))}


def _run(replica_fn: Callable[[Any, Any], Any], sync: str = "mirrored") -> Callable[[Any, Any], Any]:
    """strategy.run(replica_fn(tf, v), args=(v,)) with v a float32 variable [1, 2] made in scope (a bool
    [False, True] for sync "bool", an ON_READ SUM variable for "on_read")."""
    def program(tf: Any, s: Any) -> Any:
        with s.scope():
            if sync == "bool":
                v = tf.Variable([False, True])
            elif sync == "on_read":
                v = tf.Variable([1.0, 2.0], synchronization=tf.VariableSynchronization.ON_READ,
                                aggregation=tf.VariableAggregation.SUM)
            else:
                v = tf.Variable([1.0, 2.0])
        out = s.run(lambda x: replica_fn(tf, x), args=(v,))
        return {**_describe(s, out), "after": np.asarray(v.numpy()).tolist()}
    return program


def _assign_then(x: Any, value: Any) -> Any:
    x.assign(value)
    return x


CASES: list[tuple[str, Callable[[Any, Any], Any]]] = [
    ("returns-the-argument", _run(lambda tf, x: x)),
    ("returns-the-argument-after-assign", _run(lambda tf, x: _assign_then(x, x * 2))),
    ("returns-assign-read-value", _run(lambda tf, x: x.assign(x * 3))),
    ("returns-assign-add-read-value", _run(lambda tf, x: x.assign_add([1.0, 1.0]))),
    ("returns-its-shape", _run(lambda tf, x: x.shape)),
    ("returns-its-type-name", _run(lambda tf, x: type(x).__name__)),
    ("returns-the-argument-twice", _run(lambda tf, x: [x, x])),
    ("returns-a-read", _run(lambda tf, x: x.read_value())),
    ("sync-on-read-returns-the-argument", _run(lambda tf, x: x, sync="on_read")),
    ("argument-times-two", _run(lambda tf, x: x * 2)),
    ("len-of-the-argument", _run(lambda tf, x: len(x))),
    ("slice-assign-in-replica", _run(lambda tf, x: (x[0].assign(3.0), x.read_value())[1])),
    ("iterate-the-argument", _run(lambda tf, x: [e * 1.0 for e in x])),
    ("not-of-the-argument", _run(lambda tf, x: not x)),
    ("tensor-less-than-the-argument", _run(lambda tf, x: tf.constant([1, 2], tf.int64) < x)),
    ("tensor-not-equal-to-the-argument", _run(lambda tf, x: tf.constant([0.0], tf.float64) != x)),
    ("tensor-plus-the-argument", _run(lambda tf, x: tf.constant([1, 2], tf.int64) + x)),
    ("the-argument-less-than-a-tensor", _run(lambda tf, x: x < tf.constant([1, 2], tf.int64))),
    ("bool-assign-add-on-the-argument", _run(lambda tf, x: x.assign_add([False, True]), sync="bool")),
]


def _cross_replica(tf: Any, s: Any) -> Any:
    """len() and slice assignment of a MirroredVariable in cross-replica context (TF writes the
    first copy only)."""
    with s.scope():
        v = tf.Variable([2.0, 1.0])
    out: dict[str, Any] = {"len": _outcome(lambda: len(v))}
    out["assign"] = _outcome(lambda: v[1].assign(7.0))
    out["copies"] = [np.asarray(c.numpy()).tolist() for c in s.experimental_local_results(v)]
    return out


CASES.append(("cross-replica-len-and-slice-assign", _cross_replica))


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


@pytest.mark.clause("run.distributed-variable-args")
@pytest.mark.parametrize("index", range(len(CASES)), ids=[c[0] for c in CASES])
def test_run_with_a_distributed_variable_argument(index: int, tf_results: dict[int, Any]) -> None:
    got, want = run_case(sim_tf, index), tf_results[index]
    assert got == want, f"strategy.run result={got!r}, but TF 2.21 gives {want!r} [{CASES[index][0]}]"


if __name__ == "__main__":  # TF worker: python test_fuzz8_run_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(_tf_worker)
