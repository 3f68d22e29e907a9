"""Replica-context collectives of values every replica passes as the same object, the leaves'
checks before a batch all-reduce, the collective all-gather's axis rule and `reduce`'s eager axis
key, against TF 2.21 (clauses reduce.same-object-leaves, gather.axis-range, reduce.axis-key).

TF's merge_call regroups a leaf that every replica passed as the same object (a tensor captured
from outside `run`) into that object, not a PerReplica; `batch_reduce_to` and the gathers then
return it unreduced. Each program describes its result as Python data (values per replica, error
classes and the end of their messages). Needs the `tf` extra.
"""

from __future__ import annotations

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
    if isinstance(x, dict):
        return ("dict", [(k, _value(x[k])) for k in sorted(x)])
    if isinstance(x, (bool, int, float, str)):
        return (type(x).__name__, x)
    return (type(x).__name__, None)


def _outcome(fn: Callable[[], Any]) -> Any:
    try:
        return ("ok", _value(fn()))
    except Exception as e:  # noqa: BLE001 - the class (and the message's end) is the result
        name = type(e).__name__
        if name == "InvalidArgumentError":   # (TF adds its function node's name around the kernel's text)
            return ("error", name)
        return ("error", name, str(e).strip()[-90:])


def _strategy(tf: Any, kind: str) -> Any:
    if kind == "mirrored-rtod":
        make_strategy(tf, "mirrored", 2)
        return tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"], cross_device_ops=tf.distribute.ReductionToOneDevice())
    if kind == "mirrored-1":
        make_strategy(tf, "mirrored", 1)
        return tf.distribute.MirroredStrategy(["/cpu:0"])
    return make_strategy(tf, kind, 2)


def _local(s: Any, r: Any) -> Any:
    if isinstance(r, (list, tuple)):
        return [_local(s, p) for p in r]
    if isinstance(r, dict):
        return {k: _local(s, r[k]) for k in r}
    return list(s.experimental_local_results(r))


def _replica_value(tf: Any, dtype: str = "float32") -> Any:
    """A value of the replica's own: [1, 2] times (replica id + 1)."""
    ctx = tf.distribute.get_replica_context()
    return tf.constant([1, 2], dtype) * tf.cast(ctx.replica_id_in_sync_group + 1, dtype)


def _all_reduce(kind: str, make: Callable[[Any, Any], Any], op: str = "SUM", traced: bool = False,
                captured: str = "float32") -> Callable[[Any], Any]:
    """strategy.run of ctx.all_reduce(op, make(tf, x)), x = tf.constant([1, 2], captured) made outside run."""
    def prog(tf: Any) -> Any:
        s = _strategy(tf, kind)
        x = tf.constant([1, 2], captured)

        def step() -> Any:
            return tf.distribute.get_replica_context().all_reduce(op, make(tf, x))
        run = (lambda: s.run(step)) if not traced else tf.function(lambda: s.run(step))
        return _outcome(lambda: _local(s, run()))
    return prog


def _all_gather(kind: str, make: Callable[[Any, Any], Any], axis: int, traced: bool = False) -> Callable[[Any], Any]:
    def prog(tf: Any) -> Any:
        s = _strategy(tf, kind)
        x = tf.constant([[1.0, 2.0]])

        def step() -> Any:
            return tf.distribute.get_replica_context().all_gather(make(tf, x), axis)
        run = (lambda: s.run(step)) if not traced else tf.function(lambda: s.run(step))
        return _outcome(lambda: _local(s, run()))
    return prog


def _gather(kind: str, dtype: str, axis: int, rank: int = 2, traced: bool = False) -> Callable[[Any], Any]:
    """strategy.gather of a PerReplica of rank `rank` (each replica's own values) along `axis`."""
    def prog(tf: Any) -> Any:
        s = _strategy(tf, kind)
        shape = [2] * rank
        v = s.experimental_distribute_values_from_function(
            lambda c: tf.cast(tf.reshape(tf.range(2 ** rank) + 10 * c.replica_id_in_sync_group, shape), dtype))
        call = (lambda: s.gather(v, axis)) if not traced else tf.function(lambda: s.gather(v, axis))
        return _outcome(call)
    return prog


def _reduce_axis(kind: str, op: str, axis: Any, traced: bool = False) -> Callable[[Any], Any]:
    def prog(tf: Any) -> Any:
        s = _strategy(tf, kind)
        v = s.experimental_distribute_values_from_function(
            lambda c: tf.reshape(tf.range(4.0) + 10.0 * tf.cast(c.replica_id_in_sync_group, tf.float32), [2, 2]))
        a = axis(tf) if callable(axis) else axis
        call = (lambda: s.reduce(op, v, axis=a)) if not traced else tf.function(lambda: s.reduce(op, v, axis=a))
        return _outcome(call)
    return prog


def _variable_all_reduce(kind: str) -> Callable[[Any], Any]:
    def prog(tf: Any) -> Any:
        s = _strategy(tf, kind)
        with s.scope():
            v = tf.Variable([1.0, 2.0])
        return _outcome(lambda: _local(s, s.run(lambda: tf.distribute.get_replica_context().all_reduce("SUM", v))))
    return prog


def _dtypes(*names: str) -> Callable[[Any, Any], Any]:
    return lambda tf, x: [_replica_value(tf, n) for n in names]


CAPTURED = lambda tf, x: x   # noqa: E731
OWN = lambda tf, x: _replica_value(tf)   # noqa: E731
CASES: list[tuple[str, str, Callable[[Any], Any]]] = [
    # (id, clause, program)
    ("mirrored-captured-sum", "reduce.same-object-leaves", _all_reduce("mirrored", CAPTURED)),
    ("mirrored-captured-mean", "reduce.same-object-leaves", _all_reduce("mirrored", CAPTURED, "MEAN")),
    ("mirrored-captured-int32-mean", "reduce.same-object-leaves",
     _all_reduce("mirrored", CAPTURED, "MEAN", captured="int32")),
    ("mirrored-captured-traced", "reduce.same-object-leaves", _all_reduce("mirrored", CAPTURED, traced=True)),
    ("mirrored-own-sum", "reduce.same-object-leaves", _all_reduce("mirrored", OWN)),
    ("mirrored-captured-first-of-two", "reduce.same-object-leaves",
     _all_reduce("mirrored", lambda tf, x: [x, _replica_value(tf)])),
    ("mirrored-captured-second-of-two", "reduce.same-object-leaves",
     _all_reduce("mirrored", lambda tf, x: {"a": _replica_value(tf), "b": x})),
    ("mirrored-two-captured", "reduce.same-object-leaves", _all_reduce("mirrored", lambda tf, x: {"a": x, "b": x})),
    ("mirrored-rtod-captured-first-of-two", "reduce.same-object-leaves",
     _all_reduce("mirrored-rtod", lambda tf, x: [x, _replica_value(tf)])),
    ("central-captured-sum", "reduce.same-object-leaves", _all_reduce("central_storage", CAPTURED)),
    ("central-captured-first-of-two", "reduce.same-object-leaves",
     _all_reduce("central_storage", lambda tf, x: [x, _replica_value(tf)])),
    ("central-captured-traced", "reduce.same-object-leaves", _all_reduce("central_storage", CAPTURED, traced=True)),
    ("central-variable", "reduce.same-object-leaves", _variable_all_reduce("central_storage")),
    ("mirrored-variable", "reduce.same-object-leaves", _variable_all_reduce("mirrored")),
    ("mirrored-python-float", "reduce.same-object-leaves", _all_reduce("mirrored", lambda tf, x: 1.0)),
    ("mirrored-python-int-mean", "reduce.same-object-leaves", _all_reduce("mirrored", lambda tf, x: 2, "MEAN")),
    ("mirrored-python-float-traced", "reduce.same-object-leaves",
     _all_reduce("mirrored", lambda tf, x: 1.0, traced=True)),
    ("mirrored-python-after-tensor", "reduce.same-object-leaves",
     _all_reduce("mirrored", lambda tf, x: [_replica_value(tf), 3.0])),
    ("mirrored-1-python-float", "reduce.same-object-leaves", _all_reduce("mirrored-1", lambda tf, x: 1.0)),
    ("central-python-float", "reduce.same-object-leaves", _all_reduce("central_storage", lambda tf, x: 1.0)),
    ("one-device-python-int-mean", "reduce.same-object-leaves", _all_reduce("one_device", lambda tf, x: 2, "MEAN")),
    ("mirrored-int32-and-float32", "reduce.same-object-leaves", _all_reduce("mirrored", _dtypes("int32", "float32"))),
    ("mirrored-float32-and-int32", "reduce.same-object-leaves", _all_reduce("mirrored", _dtypes("float32", "int32"))),
    ("mirrored-two-int32", "reduce.same-object-leaves", _all_reduce("mirrored", _dtypes("int32", "int32"))),
    ("mirrored-one-int32", "reduce.same-object-leaves", _all_reduce("mirrored", _dtypes("int32"))),
    ("mirrored-int32-traced", "reduce.same-object-leaves",
     _all_reduce("mirrored", _dtypes("int64", "int32"), traced=True)),
    ("mirrored-float32-and-int64", "reduce.same-object-leaves", _all_reduce("mirrored", _dtypes("float32", "int64"))),
    ("mirrored-float32-and-int64-traced", "reduce.same-object-leaves",
     _all_reduce("mirrored", _dtypes("float32", "int64"), traced=True)),
    ("mirrored-three-dtypes-traced", "reduce.same-object-leaves",
     _all_reduce("mirrored", _dtypes("float64", "float32", "int64"), traced=True)),
    ("mirrored-two-float32-traced", "reduce.same-object-leaves",
     _all_reduce("mirrored", _dtypes("float32", "float32"), "MEAN", traced=True)),
    ("central-int32-and-float32", "reduce.same-object-leaves",
     _all_reduce("central_storage", _dtypes("int32", "float32"))),
    ("mirrored-all-gather-captured-axis-0", "gather.same-object-leaves", _all_gather("mirrored", CAPTURED, 0)),
    ("mirrored-all-gather-captured-axis-2", "gather.same-object-leaves", _all_gather("mirrored", CAPTURED, 2)),
    ("mirrored-all-gather-captured-traced", "gather.same-object-leaves",
     _all_gather("mirrored", CAPTURED, -1, traced=True)),
    ("mirrored-all-gather-captured-beside-own", "gather.same-object-leaves",
     _all_gather("mirrored", lambda tf, x: [x, tf.ones([1, 2])], 0)),
    ("central-all-gather-captured-axis-minus-3", "gather.same-object-leaves",
     _all_gather("central_storage", CAPTURED, -3)),
    ("mirrored-all-gather-python-float", "gather.same-object-leaves", _all_gather("mirrored", lambda tf, x: 1.0, 0)),
    ("mirrored-1-all-gather-axis-2", "gather.same-object-leaves",
     _all_gather("mirrored-1", lambda tf, x: tf.ones([1, 2]), 2)),
    ("one-device-all-gather-axis-minus-3", "gather.same-object-leaves",
     _all_gather("one_device", lambda tf, x: tf.ones([1, 2]), -3)),
    ("mirrored-all-gather-own-axis-minus-1", "gather.axis-range", _all_gather("mirrored", OWN, -1)),
    ("mirrored-all-gather-own-axis-1-traced", "gather.axis-range", _all_gather("mirrored", OWN, 1, traced=True)),
    ("mirrored-gather-float32-axis-minus-1", "gather.axis-range", _gather("mirrored", "float32", -1)),
    ("mirrored-gather-float32-axis-minus-2", "gather.axis-range", _gather("mirrored", "float32", -2)),
    ("mirrored-gather-float32-axis-1", "gather.axis-range", _gather("mirrored", "float32", 1)),
    ("mirrored-gather-float32-axis-2", "gather.axis-range", _gather("mirrored", "float32", 2)),
    ("mirrored-gather-int64-axis-minus-1", "gather.axis-range", _gather("mirrored", "int64", -1)),
    ("mirrored-gather-float64-axis-3-rank-3", "gather.axis-range", _gather("mirrored", "float64", 3, rank=3)),
    ("mirrored-gather-float32-axis-minus-1-traced", "gather.axis-range",
     _gather("mirrored", "float32", -1, traced=True)),
    ("mirrored-gather-int32-axis-minus-1", "gather.axis-range", _gather("mirrored", "int32", -1)),
    ("mirrored-gather-int32-axis-2", "gather.axis-range", _gather("mirrored", "int32", 2)),
    ("mirrored-rtod-gather-float32-axis-minus-1", "gather.axis-range", _gather("mirrored-rtod", "float32", -1)),
    ("central-gather-float32-axis-minus-2", "gather.axis-range", _gather("central_storage", "float32", -2)),
    ("mirrored-gather-rank-0-axis-minus-1", "gather.axis-range", _gather("mirrored", "float32", -1, rank=0)),
    ("mirrored-reduce-list-axis-sum", "reduce.axis-key", _reduce_axis("mirrored", "SUM", [0])),
    ("mirrored-reduce-list-axis-mean", "reduce.axis-key", _reduce_axis("mirrored", "MEAN", [0, 1])),
    ("mirrored-reduce-tuple-axis-mean", "reduce.axis-key", _reduce_axis("mirrored", "MEAN", (0, 1))),
    ("mirrored-reduce-tensor-axis", "reduce.axis-key", _reduce_axis("mirrored", "SUM", lambda tf: tf.constant(0))),
    ("mirrored-reduce-array-axis", "reduce.axis-key", _reduce_axis("mirrored", "SUM", np.array([1]))),
    ("central-reduce-list-axis-sum", "reduce.axis-key", _reduce_axis("central_storage", "SUM", [1])),
    ("mirrored-reduce-list-axis-traced", "reduce.axis-key", _reduce_axis("mirrored", "SUM", [0, 1], traced=True)),
    ("mirrored-reduce-list-axis-mean-traced", "reduce.axis-key",
     _reduce_axis("mirrored", "MEAN", [0, 1], traced=True)),
]


def run_case(tf: Any, k: int) -> Any:
    try:
        return CASES[k][2](tf)
    except Exception as e:  # noqa: BLE001 - the class is the result
        return ("setup error", type(e).__name__, str(e)[-90:])


def _tf_worker(indices: list[int]) -> dict[int, Any]:
    import tensorflow as real_tf
    cpu = real_tf.config.list_physical_devices("CPU")[0]
    real_tf.config.set_logical_device_configuration(cpu, [real_tf.config.LogicalDeviceConfiguration()] * 4)
    return {i: run_case(real_tf, i) for i in indices}


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    # one TF process per case: a collective that fails leaves TF's collective executor aborted for
    # the rest of its process, so later cases' collectives would fail there too
    out: dict[int, Any] = {}
    for i in range(len(CASES)):
        out.update(tf_workers.spawn(__file__, [i]))
    return out


def _ids(clause: str) -> list[int]:
    return [i for i, c in enumerate(CASES) if c[1] == clause]


@pytest.mark.clause("reduce.same-object-leaves")
@pytest.mark.parametrize("index", _ids("reduce.same-object-leaves"),
                         ids=[CASES[i][0] for i in _ids("reduce.same-object-leaves")])
def test_all_reduce_of_same_object_leaves(index: int, tf_results: dict[int, Any]) -> None:
    got, want = run_case(sim_tf, index), tf_results[index]
    assert got == want, f"all_reduce result={got!r}, but TF 2.21 gives {want!r} [{CASES[index][0]}]"


@pytest.mark.clause("gather.same-object-leaves")
@pytest.mark.parametrize("index", _ids("gather.same-object-leaves"),
                         ids=[CASES[i][0] for i in _ids("gather.same-object-leaves")])
def test_all_gather_of_same_object_leaves(index: int, tf_results: dict[int, Any]) -> None:
    got, want = run_case(sim_tf, index), tf_results[index]
    assert got == want, f"all_gather result={got!r}, but TF 2.21 gives {want!r} [{CASES[index][0]}]"


@pytest.mark.clause("gather.axis-range")
@pytest.mark.parametrize("index", _ids("gather.axis-range"), ids=[CASES[i][0] for i in _ids("gather.axis-range")])
def test_gather_axis_by_path(index: int, tf_results: dict[int, Any]) -> None:
    got, want = run_case(sim_tf, index), tf_results[index]
    assert got == want, f"gather result={got!r}, but TF 2.21 gives {want!r} [{CASES[index][0]}]"


@pytest.mark.clause("reduce.axis-key")
@pytest.mark.parametrize("index", _ids("reduce.axis-key"), ids=[CASES[i][0] for i in _ids("reduce.axis-key")])
def test_reduce_axis_is_a_key_eagerly(index: int, tf_results: dict[int, Any]) -> None:
    got, want = run_case(sim_tf, index), tf_results[index]
    assert got == want, f"reduce result={got!r}, but TF 2.21 gives {want!r} [{CASES[index][0]}]"


if __name__ == "__main__":  # TF worker: python test_same_object_leaves_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(_tf_worker)
