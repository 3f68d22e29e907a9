"""The distributed value surface against TF 2.21, enumerated: each strategy (MirroredStrategy over
two CPUs and over one, CentralStorageStrategy over two, OneDeviceStrategy) x each call x each
value a replica fn may return (its own tensors of several dtypes and ranks, scalars, an empty
tensor, rows that differ per replica, a captured tensor, nested lists, dicts and tuples, a Python
float, a MirroredVariable, a sync-on-read variable), eagerly and in a tf.function. Two rounds of
2,040 programs each (the twenty-sixth session): the first's calls are a replica-context
all_reduce or all_gather, `strategy.reduce` with and without an axis, `strategy.gather`, the run's
local results and a merge_call (simdist disagreed on 139, TF itself crashes on 8: an all-gather
of an empty tensor); the second's are `extended.reduce_to` / `batch_reduce_to`, reduce ops spelled
in lower case or as the enum, packed and MAX all-reduces, tf.identity in the replica fn, nested
local results, `experimental_distribute_values_from_function`, and a tensor axis (132, 2 crashes).
SELECTED holds the 236 of them that the session's fixes made agree (clauses
reduce.same-object-leaves, gather.same-object-leaves, gather.axis-range, reduce.plain-value,
gather.plain-value, extended.reduce-to, reduce.axis-key, function.operation-results,
ops.conversion), and the 35 more the twenty-seventh session's made agree (a plain value reduced
with one replica, `experimental_distribute_values_from_function` of Python numbers,
CentralStorageStrategy's `batch_reduce_to` of values that are not per-replica, a traced
one-replica all-reduce of a variable: tests/strategies/test_plain_value_reduce_tf.py). Each is
asked of TF in its own process, since a failed collective leaves TF's collective executor aborted
for the rest of a process. Of the 4,080 programs, simdist now answers every one as TF does except
those TF itself crashes on (an all-gather of an empty tensor, 10) and 8 whose only difference is
a NaN (MEAN over an empty tensor: NaN in both). Needs the `tf` extra.
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import pytest

import tf_workers
from simdist import tf as sim_tf

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

_AXES = {"None": None, "0": 0, "-1": -1, "(0,1)": (0, 1)}

KINDS = ["mirrored2", "css2", "one", "mirrored1"]
CALLS = ["all_reduce:SUM", "all_reduce:MEAN", "all_gather:0", "all_gather:1", "all_gather:-1",
         "reduce:SUM:None", "reduce:MEAN:None", "reduce:SUM:0", "reduce:MEAN:-1", "reduce:MEAN:(0,1)",
         "gather:0", "gather:-1", "gather:1", "local", "merge_call",
         # (the second round)
         "reduce_to:SUM", "reduce_to:MEAN", "batch_reduce_to:SUM", "batch_reduce_to:MEAN", "reduce_lower:sum",
         "reduce_enum:MEAN", "all_reduce_lower:mean", "all_reduce_enum:SUM", "all_reduce_packed:SUM",
         "identity_run", "local_nested", "values_fn", "all_reduce_max", "reduce_axis_tensor", "gather_axis_tensor"]
VALUES = ["own_f32_r1", "own_f32_r2", "own_i32_r1", "own_i64_r2", "own_f16_r1", "own_bool_r1", "own_f64_r0",
          "own_i32_r0", "captured_f32_r1", "nested_list", "nested_dict", "py_float", "own_empty", "ragged_rows",
          "variable", "onread_variable", "tuple_mixed"]
TRACED = [False, True]
CASES = list(itertools.product(KINDS, CALLS, VALUES, TRACED))


def describe(x: Any) -> Any:
    if hasattr(x, "numpy") and hasattr(x, "dtype"):
        try:
            return ["T", x.dtype.name, np.asarray(x.numpy()).tolist()]
        except Exception as e:  # noqa: BLE001 - the class is the result
            return ["T?", type(e).__name__]
    if type(x).__name__ in ("PerReplica", "Mirrored"):
        return [type(x).__name__, [describe(v) for v in x.values]]
    if isinstance(x, (list, tuple)):
        return [type(x).__name__, [describe(v) for v in x]]
    if isinstance(x, dict):
        return ["dict", [[k, describe(x[k])] for k in sorted(x)]]
    if isinstance(x, (bool, int, float, str)) or x is None:
        return [type(x).__name__, x]
    return [type(x).__name__]


def run(tf: Any, case: tuple) -> Any:
    kind, call, value, traced = case
    if kind == "mirrored2":
        s = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
    elif kind == "mirrored1":
        s = tf.distribute.MirroredStrategy(["/cpu:0"])
    elif kind == "css2":
        s = tf.distribute.experimental.CentralStorageStrategy(["/cpu:0", "/cpu:1"])
    else:
        s = tf.distribute.OneDeviceStrategy("/cpu:0")
    cap = tf.constant([1.0, 2.0])
    with s.scope():
        var = tf.Variable([1.0, 2.0])
        onread = tf.Variable([1.0, 2.0], synchronization=tf.VariableSynchronization.ON_READ,
                             aggregation=tf.VariableAggregation.SUM)

    def make():
        ctx = tf.distribute.get_replica_context()
        return make_with(ctx.replica_id_in_sync_group + 1)

    def make_with(r):
        if not hasattr(r, "dtype"):
            r = tf.constant(r, tf.int32)
        if value == "own_f32_r1":
            return tf.constant([1.0, 2.0]) * tf.cast(r, tf.float32)
        if value == "own_f32_r2":
            return tf.reshape(tf.range(6.0), [2, 3]) * tf.cast(r, tf.float32)
        if value == "own_i32_r1":
            return tf.constant([1, 2]) * r
        if value == "own_i64_r2":
            return tf.reshape(tf.range(4, dtype=tf.int64), [2, 2]) * tf.cast(r, tf.int64)
        if value == "own_f16_r1":
            return tf.constant([1.5, 2.5], tf.float16) * tf.cast(r, tf.float16)
        if value == "own_bool_r1":
            return tf.equal(tf.constant([1, 2]) * r, 2)
        if value == "own_f64_r0":
            return tf.cast(r, tf.float64) * 1.5
        if value == "own_i32_r0":
            return r * 3
        if value == "captured_f32_r1":
            return cap
        if value == "nested_list":
            return [tf.constant([1.0]) * tf.cast(r, tf.float32), tf.constant([[2.0, 3.0]]) * tf.cast(r, tf.float32)]
        if value == "nested_dict":
            return {"b": tf.constant([1.0]) * tf.cast(r, tf.float32), "a": tf.constant([4.0, 5.0])}
        if value == "py_float":
            return 2.5
        if value == "own_empty":
            return tf.zeros([0, 2]) + tf.cast(r, tf.float32)
        if value == "ragged_rows":
            return tf.ones(tf.stack([r, 2])) * tf.cast(r, tf.float32)
        if value == "variable":
            return var
        if value == "onread_variable":
            return onread
        if value == "tuple_mixed":
            return (tf.constant([1.0, 2.0]) * tf.cast(r, tf.float32), tf.constant([3, 4], tf.int64) * tf.cast(r, tf.int64))
        raise AssertionError(value)

    parts = call.split(":")

    def replica_fn():
        v = make()
        ctx = tf.distribute.get_replica_context()
        if parts[0] == "all_reduce":
            return ctx.all_reduce(parts[1], v)
        if parts[0] == "all_gather":
            return ctx.all_gather(v, int(parts[1]))
        if parts[0] == "merge_call":
            return ctx.merge_call(lambda strat, x: x, args=(v,))
        if parts[0] == "all_reduce_lower":
            return ctx.all_reduce(parts[1], v)
        if parts[0] == "all_reduce_enum":
            return ctx.all_reduce(tf.distribute.ReduceOp.SUM, v)
        if parts[0] == "all_reduce_packed":
            return ctx.all_reduce("SUM", v, options=tf.distribute.experimental.CommunicationOptions(bytes_per_pack=4))
        if parts[0] == "all_reduce_max":
            return ctx.all_reduce("MAX", v)
        if parts[0] == "identity_run":
            return tf.nest.map_structure(tf.identity, v)
        return v

    def body():
        if parts[0] == "values_fn":
            out = s.experimental_distribute_values_from_function(lambda c: make_with(c.replica_id_in_sync_group + 1))
            return s.reduce("SUM", out, axis=None)
        out = s.run(replica_fn)
        if parts[0] == "reduce":
            return s.reduce(parts[1], out, axis=_AXES[parts[2]])
        if parts[0] == "gather":
            return s.gather(out, int(parts[1]))
        if parts[0] == "reduce_to":
            return s.extended.reduce_to(parts[1], out, destinations="/cpu:0")
        if parts[0] == "batch_reduce_to":
            return s.extended.batch_reduce_to(parts[1], [(out, "/cpu:0")])
        if parts[0] == "reduce_lower":
            return s.reduce("sum", out, axis=None)
        if parts[0] == "reduce_enum":
            return s.reduce(tf.distribute.ReduceOp.MEAN, out, axis=None)
        if parts[0] == "reduce_axis_tensor":
            return s.reduce("SUM", out, axis=tf.constant(0))
        if parts[0] == "gather_axis_tensor":
            return s.gather(out, tf.constant(0))
        if parts[0] == "local_nested":
            return s.experimental_local_results({"x": out, "y": [out]})
        return out

    try:
        if traced:
            out = tf.function(body)()
        else:
            out = body()
        if parts[0] in ("all_reduce", "all_gather", "local", "merge_call", "all_reduce_lower", "all_reduce_enum",
                        "all_reduce_packed", "all_reduce_max", "identity_run"):
            return ["ok", [describe(p) for p in s.experimental_local_results(out)]] if not isinstance(out, (list, tuple, dict)) \
                else ["ok", describe(out)]
        return ["ok", describe(out)]
    except Exception as e:  # noqa: BLE001 - the class is the result
        return ["err", type(e).__name__]



#: indices into CASES of the programs simdist answered otherwise before the twenty-sixth session's
#: fixes (and, from 1614 on, before the twenty-seventh's: plain values, CentralStorageStrategy's
#: batch_reduce_to, a traced one-replica all-reduce of a variable)
SELECTED: list[int] = [
    30, 31, 64, 65, 98, 99, 129, 197, 231, 258, 259, 270, 271, 292, 293, 299, 304, 305, 326, 327,
    338, 339, 358, 359, 360, 361, 370, 371, 372, 373, 392, 393, 394, 395, 404, 405, 406, 407, 426,
    427, 428, 429, 435, 438, 439, 440, 441, 471, 473, 505, 507, 594, 595, 596, 597, 598, 599, 600,
    601, 606, 607, 610, 611, 630, 631, 632, 633, 634, 635, 644, 645, 912, 913, 914, 915, 953, 955,
    957, 959, 961, 965, 967, 969, 975, 977, 979, 981, 983, 1047, 1049, 1051, 1081, 1117, 1119, 1151,
    1153, 1185, 1187, 1217, 1242, 1243, 1244, 1245, 1251, 1256, 1257, 1278, 1279, 1290, 1291, 1312,
    1313, 1319, 1324, 1325, 1346, 1347, 1358, 1359, 1378, 1379, 1380, 1381, 1392, 1393, 1412, 1413,
    1414, 1415, 1426, 1427, 1446, 1447, 1448, 1449, 1460, 1461, 1582, 1583, 1584, 1585, 1596, 1597,
    1614, 1615, 1617, 1619, 1620, 1621, 1626, 1627, 1628, 1629, 1631, 1650, 1651, 1652, 1653, 1654,
    1664, 1665, 1926, 1927, 1973, 1975, 1977, 1979, 1981, 1985, 1987, 1989, 1995, 1997, 1999, 2001,
    2003, 2131, 2165, 2199, 2296, 2298, 2299, 2310, 2330, 2332, 2333, 2344, 2364, 2366, 2367, 2378,
    2993, 2995, 2997, 2999, 3001, 3005, 3007, 3009, 3015, 3017, 3019, 3021, 3023, 3089, 3091, 3123,
    3125, 3151, 3185, 3190, 3191, 3192, 3193, 3219, 3252, 3316, 3318, 3319, 3330, 3350, 3352, 3353,
    3364, 3384, 3386, 3387, 3398, 3592, 3656, 3657, 3658, 3659, 3660, 3661, 3666, 3667, 3670, 3671,
    3690, 3691, 3692, 3693, 3694, 3695, 3704, 3705, 3728, 3803, 3805, 3837, 3839, 3871, 3873, 3966,
    3967, 3972, 3973, 4013, 4015, 4017, 4019, 4021, 4025, 4027, 4029, 4035, 4037, 4039, 4041, 4043,
]


def run_case(tf: Any, k: int) -> Any:
    if tf is sim_tf:
        import simdist
        simdist.reset()
    cpu = tf.config.list_physical_devices("CPU")[0]
    tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 2)
    return run(tf, CASES[k])


def _tf_worker(indices: list[int]) -> dict[int, Any]:
    import tensorflow as real_tf
    return {i: run_case(real_tf, i) for i in indices}


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    # one TF process per program: a collective that fails leaves TF's collective executor aborted
    out: dict[int, Any] = {}
    for i in SELECTED:
        out.update(tf_workers.spawn(__file__, [i]))
    return out


#: the clause each call's family belongs to
_CLAUSE = {"all_reduce": "reduce.same-object-leaves", "all_gather": "gather.same-object-leaves",
           "reduce": "reduce.plain-value", "gather": "gather.plain-value", "local": "function.operation-results",
           "merge_call": "function.operation-results", "reduce_to": "extended.reduce-to",
           "batch_reduce_to": "extended.reduce-to", "reduce_lower": "reduce.plain-value",
           "reduce_enum": "reduce.plain-value", "all_reduce_lower": "reduce.same-object-leaves",
           "all_reduce_enum": "reduce.same-object-leaves", "all_reduce_packed": "reduce.same-object-leaves",
           "all_reduce_max": "reduce.same-object-leaves", "identity_run": "function.operation-results",
           "local_nested": "function.operation-results", "values_fn": "reduce.plain-value",
           "reduce_axis_tensor": "reduce.axis-key", "gather_axis_tensor": "gather.plain-value"}


def _ids(clause: str) -> list[int]:
    return [i for i in SELECTED if _CLAUSE[CASES[i][1].split(":")[0]] == clause]


def _check(index: int, tf_results: dict[int, Any]) -> None:
    got, want = run_case(sim_tf, index), tf_results[index]
    assert got == want, f"result={got!r}, but TF 2.21 gives {want!r} [{CASES[index]}]"


def _name(i: int) -> str:
    return "-".join(str(p) for p in CASES[i])


@pytest.mark.clause("reduce.same-object-leaves")
@pytest.mark.parametrize("index", _ids("reduce.same-object-leaves"), ids=_name)
def test_all_reduce_programs(index: int, tf_results: dict[int, Any]) -> None:
    _check(index, tf_results)


@pytest.mark.clause("gather.same-object-leaves")
@pytest.mark.parametrize("index", _ids("gather.same-object-leaves"), ids=_name)
def test_all_gather_programs(index: int, tf_results: dict[int, Any]) -> None:
    _check(index, tf_results)


@pytest.mark.clause("reduce.plain-value")
@pytest.mark.parametrize("index", _ids("reduce.plain-value"), ids=_name)
def test_reduce_programs(index: int, tf_results: dict[int, Any]) -> None:
    _check(index, tf_results)


@pytest.mark.clause("gather.plain-value")
@pytest.mark.parametrize("index", _ids("gather.plain-value"), ids=_name)
def test_gather_programs(index: int, tf_results: dict[int, Any]) -> None:
    _check(index, tf_results)


@pytest.mark.clause("function.operation-results")
@pytest.mark.parametrize("index", _ids("function.operation-results"), ids=_name)
def test_distributed_variable_outputs(index: int, tf_results: dict[int, Any]) -> None:
    _check(index, tf_results)


@pytest.mark.clause("extended.reduce-to")
@pytest.mark.parametrize("index", _ids("extended.reduce-to"), ids=_name)
def test_reduce_to_programs(index: int, tf_results: dict[int, Any]) -> None:
    _check(index, tf_results)


@pytest.mark.clause("reduce.axis-key")
@pytest.mark.parametrize("index", _ids("reduce.axis-key"), ids=_name)
def test_reduce_axis_tensor_programs(index: int, tf_results: dict[int, Any]) -> None:
    _check(index, tf_results)


if __name__ == "__main__":  # TF worker: python test_distributed_values_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(_tf_worker)
