"""What each strategy's reduce does with a value that is not distributed, or distributed over one
replica, and CentralStorageStrategy's `batch_reduce_to`, against TF 2.21 (clauses
reduce.plain-value, extended.reduce-to, reduce.same-object-leaves).

TF 2.21's MirroredStrategy, CentralStorageStrategy and MultiWorkerMirroredStrategy reduce a plain
value with `cross_device_ops_lib.reduce_non_distributed_value` even with one replica: a non-tensor
equal to 0 becomes `np.zeros(value.shape)` (AttributeError for a Python number), MEAN returns the
value, SUM with one replica is `simple_broadcast` (an identity: a Python or NumPy value becomes a
tensor). OneDevice and the default strategy return it as it is. A one-value PerReplica meets the
cross-device ops' device match first (`.device` of a Python number is AttributeError), then an
identity. CentralStorageStrategy's `batch_reduce_to` is CrossDeviceOps.batch_reduce: values that
are not PerReplica are converted into one-value PerReplicas, returned as they are when they sit on
their destinations, else reduced (MEAN divides: an int becomes float64). In a tf.function with one
replica, an all-reduced variable's read has no device: "destinations can not be empty". A MEAN
along an axis reads each replica's `v.shape.rank` after its reduce_sum: a NumPy value inside a
tf.function, a list in either mode, is AttributeError. Needs the `tf` extra.
"""

from __future__ import annotations

import re
from typing import Any, Callable

import numpy as np
import pytest

import tf_workers
from diff_helpers import make_strategy
from simdist import tf as sim_tf

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _value(x: Any) -> Any:
    if hasattr(x, "numpy") and hasattr(x, "dtype"):
        return ("T", x.dtype.name, np.asarray(x.numpy()).tolist())
    if isinstance(x, np.ndarray) or isinstance(x, np.generic):
        return ("np", x.dtype.name, np.asarray(x).tolist())
    if isinstance(x, (list, tuple)):
        return (type(x).__name__, [_value(v) for v in x])
    if isinstance(x, dict):
        return ("dict", [(k, _value(x[k])) for k in sorted(x)])
    if isinstance(x, (bool, int, float, str)) or x is None:
        return (type(x).__name__, x)
    return (type(x).__name__, None)


def _outcome(fn: Callable[[], Any]) -> Any:
    try:
        return ("ok", _value(fn()))
    except Exception as e:  # noqa: BLE001 - the class and the message's last line are the result
        lines = str(e).strip().splitlines() or [""]
        # (a class named in the message by its module path: the backends' modules differ)
        # and a tf.function's error ends with "<class>: <message>" where eager ends with the message
        last = re.sub(r"<class '(?:[\w.]+\.)?(\w+)'>", r"<class \1>", lines[-1].strip())
        last = last.removeprefix(f"{type(e).__name__}: ")
        return ("error", type(e).__name__, last[-100:])


def _strategy(tf: Any, kind: str) -> Any:
    n = 2 if kind.endswith("2") else 1
    return make_strategy(tf, kind[:-1], n)


PLAIN: dict[str, Callable[[Any], Any]] = {
    "2.5": lambda tf: 2.5,
    "0": lambda tf: 0,
    "np-2": lambda tf: np.float32(2),
    "np-zeros": lambda tf: np.zeros(2, np.float32),
    "tensor": lambda tf: tf.constant(3),
    "list": lambda tf: [1.0, 2.0],
    "None": lambda tf: None,
}


def _reduce_plain(kind: str, op: str, value: str, spelling: str, traced: bool = False) -> Callable[[Any], Any]:
    def prog(tf: Any) -> Any:
        s = _strategy(tf, kind)
        x = PLAIN[value](tf)
        call = (lambda: s.reduce(op, x, axis=None)) if spelling == "reduce" else \
            (lambda: s.extended.reduce_to(op, x, "/cpu:0"))
        return _outcome(tf.function(call) if traced else call)
    return prog


def _values_fn(kind: str, op: str, make: Callable[[Any, Any], Any]) -> Callable[[Any], Any]:
    def prog(tf: Any) -> Any:
        s = _strategy(tf, kind)
        v = s.experimental_distribute_values_from_function(lambda c: make(tf, c))
        return _outcome(lambda: s.reduce(op, v, axis=None))
    return prog


def _css_batch(pairs: Callable[[Any, Any], Any], op: str = "SUM", traced: bool = False) -> Callable[[Any], Any]:
    def prog(tf: Any) -> Any:
        s = _strategy(tf, "central_storage2")

        def call() -> Any:
            per_replica = s.run(lambda: tf.constant(1.0) * tf.cast(
                tf.distribute.get_replica_context().replica_id_in_sync_group + 1, tf.float32))
            return s.extended.batch_reduce_to(op, pairs(tf, per_replica))
        return _outcome(tf.function(call) if traced else call)
    return prog


def _traced_all_reduce(kind: str, make: Callable[[Any, Any], Any]) -> Callable[[Any], Any]:
    def prog(tf: Any) -> Any:
        s = _strategy(tf, kind)
        with s.scope():
            v = tf.Variable([1.0, 2.0])

        def step() -> Any:
            return s.run(lambda: tf.distribute.get_replica_context().all_reduce("SUM", make(tf, v)))
        return _outcome(lambda: s.experimental_local_results(tf.function(step)()))
    return prog


CASES: list[tuple[str, str, Callable[[Any], Any]]] = []
for _kind in ("mirrored1", "central_storage1", "one_device1", "default1", "mirrored2"):
    for _op in ("SUM", "MEAN"):
        for _v in PLAIN:
            for _spelling in ("reduce", "reduce_to"):
                CASES.append((f"{_kind}-{_spelling}-{_op}-{_v}", "reduce.plain-value",
                              _reduce_plain(_kind, _op, _v, _spelling)))
        CASES.append((f"{_kind}-traced-reduce-{_op}-2.5", "reduce.plain-value",
                      _reduce_plain(_kind, _op, "2.5", "reduce", traced=True)))
    CASES += [
        (f"{_kind}-values_fn-float-SUM", "reduce.plain-value", _values_fn(_kind, "SUM", lambda tf, c: 2.5)),
        (f"{_kind}-values_fn-float-MEAN", "reduce.plain-value", _values_fn(_kind, "MEAN", lambda tf, c: 2.5)),
        (f"{_kind}-values_fn-int-SUM", "reduce.plain-value",
         _values_fn(_kind, "SUM", lambda tf, c: c.replica_id_in_sync_group + 1)),
        (f"{_kind}-values_fn-numpy-SUM", "reduce.plain-value",
         _values_fn(_kind, "SUM", lambda tf, c: np.float32(c.replica_id_in_sync_group + 1))),
        (f"{_kind}-values_fn-list-SUM", "reduce.plain-value", _values_fn(_kind, "SUM", lambda tf, c: [1.0, 2.0])),
    ]
CASES += [
    ("central_storage2-values_fn-float-SUM", "reduce.plain-value",
     _values_fn("central_storage2", "SUM", lambda tf, c: 2.5)),
    ("central_storage2-values_fn-int-MEAN", "reduce.plain-value",
     _values_fn("central_storage2", "MEAN", lambda tf, c: c.replica_id_in_sync_group + 1)),
    ("central_storage2-values_fn-list-SUM", "reduce.plain-value",
     _values_fn("central_storage2", "SUM", lambda tf, c: [1.0, 2.0])),
    # CentralStorageStrategy's batch_reduce_to (CrossDeviceOps.batch_reduce)
    ("css-batch-per-replica-and-float-SUM", "extended.reduce-to",
     _css_batch(lambda tf, p: [(p, "/cpu:0"), (2.5, "/cpu:0")])),
    ("css-batch-per-replica-and-float-MEAN", "extended.reduce-to",
     _css_batch(lambda tf, p: [(p, "/cpu:0"), (2.5, "/cpu:0")], "MEAN")),
    ("css-batch-float-and-per-replica-SUM", "extended.reduce-to",
     _css_batch(lambda tf, p: [(2.5, "/cpu:0"), (p, "/cpu:0")])),
    ("css-batch-int-SUM", "extended.reduce-to", _css_batch(lambda tf, p: [(3, "/cpu:0")])),
    ("css-batch-int-MEAN", "extended.reduce-to", _css_batch(lambda tf, p: [(3, "/cpu:0")], "MEAN")),
    ("css-batch-int-MEAN-other-device", "extended.reduce-to", _css_batch(lambda tf, p: [(3, "/cpu:1")], "MEAN")),
    ("css-batch-int-SUM-other-device", "extended.reduce-to", _css_batch(lambda tf, p: [(3, "/cpu:1")])),
    ("css-batch-floats-two-devices", "extended.reduce-to",
     _css_batch(lambda tf, p: [(3.0, "/cpu:0"), (4.0, "/cpu:1")])),
    ("css-batch-None", "extended.reduce-to", _css_batch(lambda tf, p: [(None, "/cpu:0")])),
    ("css-batch-numpy", "extended.reduce-to", _css_batch(lambda tf, p: [(np.array([1, 2]), "/cpu:0")])),
    ("css-batch-list-pair", "extended.reduce-to", _css_batch(lambda tf, p: [[2.5, "/cpu:0"]])),
    ("css-batch-empty", "extended.reduce-to", _css_batch(lambda tf, p: [])),
    ("css-batch-structure-of-per-replica", "extended.reduce-to", _css_batch(lambda tf, p: [([p, p], "/cpu:0")])),
    ("css-batch-structure-of-per-replica-traced", "extended.reduce-to",
     _css_batch(lambda tf, p: [([p, p], "/cpu:0")], traced=True)),
    ("css-batch-float-and-per-replica-MEAN-traced", "extended.reduce-to",
     _css_batch(lambda tf, p: [(2.5, "/cpu:0"), (p, "/cpu:0")], "MEAN", traced=True)),
    ("css-batch-int-MEAN-other-device-traced", "extended.reduce-to",
     _css_batch(lambda tf, p: [(3, "/cpu:1")], "MEAN", traced=True)),
]
def _reduce_axis(kind: str, op: str, make: Callable[[Any], Any], traced: bool) -> Callable[[Any], Any]:
    def prog(tf: Any) -> Any:
        s = _strategy(tf, kind)
        call = lambda: s.reduce(op, s.run(lambda: make(tf)), axis=0)   # noqa: E731
        return _outcome(tf.function(call) if traced else call)
    return prog


_AXIS_VALUES: dict[str, Callable[[Any], Any]] = {
    "numpy": lambda tf: np.array([1.0, 2.0], np.float32),
    "list": lambda tf: [1.0, 2.0],
    "tensor": lambda tf: tf.constant([1.0, 2.0]),
}
for _kind in ("one_device1", "mirrored2", "central_storage2"):
    for _op in ("MEAN", "SUM"):
        for _v, _make in _AXIS_VALUES.items():
            for _traced in (False, True):
                CASES.append((f"{_kind}-reduce-{_op}-axis0-{_v}{'-traced' if _traced else ''}", "reduce.axis-key",
                              _reduce_axis(_kind, _op, _make, _traced)))
for _kind in ("mirrored1", "central_storage1", "one_device1", "default1"):
    CASES += [
        (f"{_kind}-traced-all_reduce-variable", "reduce.same-object-leaves", _traced_all_reduce(_kind, lambda tf, v: v)),
        (f"{_kind}-traced-all_reduce-tensor-and-variable", "reduce.same-object-leaves",
         _traced_all_reduce(_kind, lambda tf, v: [tf.constant(1.0), v])),
        (f"{_kind}-traced-all_reduce-read_value", "reduce.same-object-leaves",
         _traced_all_reduce(_kind, lambda tf, v: v.read_value())),
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
    # (no collective runs here: MirroredStrategy reduces onto a CPU with ReductionToOneDevice)
    return tf_workers.spawn(__file__, list(range(len(CASES))))


def _ids(clause: str) -> list[int]:
    return [i for i, c in enumerate(CASES) if c[1] == clause]


def _check(index: int, tf_results: dict[int, Any]) -> None:
    got, want = run_case(sim_tf, index), tf_results[index]
    assert got == want, f"result={got!r}, but TF 2.21 gives {want!r} [{CASES[index][0]}]"


@pytest.mark.clause("reduce.plain-value")
@pytest.mark.parametrize("index", _ids("reduce.plain-value"), ids=[CASES[i][0] for i in _ids("reduce.plain-value")])
def test_reduce_of_plain_and_one_replica_values(index: int, tf_results: dict[int, Any]) -> None:
    _check(index, tf_results)


@pytest.mark.clause("extended.reduce-to")
@pytest.mark.parametrize("index", _ids("extended.reduce-to"), ids=[CASES[i][0] for i in _ids("extended.reduce-to")])
def test_central_storage_batch_reduce_to(index: int, tf_results: dict[int, Any]) -> None:
    _check(index, tf_results)


@pytest.mark.clause("reduce.same-object-leaves")
@pytest.mark.parametrize("index", _ids("reduce.same-object-leaves"),
                         ids=[CASES[i][0] for i in _ids("reduce.same-object-leaves")])
def test_traced_one_replica_all_reduce_of_a_variable(index: int, tf_results: dict[int, Any]) -> None:
    _check(index, tf_results)


@pytest.mark.clause("reduce.axis-key")
@pytest.mark.parametrize("index", _ids("reduce.axis-key"), ids=[CASES[i][0] for i in _ids("reduce.axis-key")])
def test_mean_along_an_axis_reads_the_values_shape(index: int, tf_results: dict[int, Any]) -> None:
    _check(index, tf_results)


if __name__ == "__main__":  # TF worker: python test_plain_value_reduce_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(_tf_worker)
