"""Distributed variables, reduce/update results and strategy contexts the suite never ran before
the fifteenth session's coverage pass (cov14b; clauses mirrored.scatter, mirrored.variables,
mirrored.sync-on-read, optim.update, extended.reduce-to, reduce.*, scope.*).

Expected values are computed here with NumPy from each rule (TF 2.21's values.py and
values_util.py, observed on TF 2.21), never taken from the backend.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal, assert_true, assert_type_name, raises
from simdist.conformance.repro import Program

clause = pytest.mark.clause

AGGREGATIONS = ["NONE", "SUM", "MEAN", "ONLY_FIRST_REPLICA"]
SCATTERS = ["scatter_add", "scatter_sub", "scatter_mul", "scatter_div", "scatter_min", "scatter_max",
            "scatter_update"]
#: refused unless the aggregation is NONE or ONLY_FIRST_REPLICA (TF's values.MirroredVariable)
REPLACING = ("scatter_min", "scatter_max", "scatter_update")
INIT = [1.0, 2.0, 8.0]

SCATTER_PROGRAM = """
strategy = backend.make_strategy("mirrored", 2)
outcome = {}
for agg in aggregations:
    for method in methods:
        with strategy.scope():
            v = tf.Variable(init, aggregation=getattr(tf.VariableAggregation, agg))
        def replica_fn():
            rid = tf.cast(tf.distribute.get_replica_context().replica_id_in_sync_group, tf.float32)
            delta = tf.IndexedSlices(tf.reshape(delta_base * (rid + 1.0), [1]), tf.constant([index]),
                                     tf.constant([3]))
            getattr(v, method)(delta)
            return tf.constant(0.0)
        try:
            if in_replica:
                strategy.run(replica_fn)
            else:
                getattr(v, method)(tf.IndexedSlices(tf.constant([delta_base]), tf.constant([index]), tf.constant([3])))
            outcome[(agg, method)] = [c.numpy().tolist() for c in strategy.experimental_local_results(v)]
        except Exception as e:
            outcome[(agg, method)] = (type(e).__name__, str(e))
"""

_APPLY = {"scatter_add": np.add, "scatter_sub": np.subtract, "scatter_mul": np.multiply,
          "scatter_div": np.divide, "scatter_min": np.minimum, "scatter_max": np.maximum,
          "scatter_update": lambda a, b: b}


def _scattered(method: str, deltas: list[float], index: int) -> list[float]:
    """INIT with the deltas applied one after the other at `index` (float32 arithmetic)."""
    out = np.asarray(INIT, np.float32)
    for d in deltas:
        out[index] = _APPLY[method](out[index], np.float32(d))
    return out.tolist()


def _check_scatter(ns: dict, in_replica: bool, delta: float, index: int) -> None:
    where = "in replica context (replica r sends delta*(r+1))" if in_replica else "in cross-replica context"
    for agg in AGGREGATIONS:
        for method in SCATTERS:
            call = f"MirroredStrategy(2): tf.Variable({INIT}, aggregation={agg}).{method}(IndexedSlices([{delta}], " \
                   f"[{index}])) {where}"
            got = ns["outcome"][(agg, method)]
            if method in REPLACING and agg in ("SUM", "MEAN"):
                assert_true(isinstance(got, tuple) and got[0] == "NotImplementedError"
                            and f"{method} is only supported for mirrored variable" in got[1]
                            and f"got: VariableAggregationV2.{agg}" in got[1],
                            f"outcome={got!r}, but should be NotImplementedError('{method} is only supported for "
                            f"mirrored variable ... got: VariableAggregationV2.{agg}.')", call=call)
                continue
            assert_true(isinstance(got, list), f"outcome={got!r}, but should be the copies' values", call=call)
            per_replica = [delta * (r + 1) for r in range(2)]
            if not in_replica:
                copies = [_scattered(method, [delta], index)] * 2
            elif agg == "NONE":          # each replica changes its own copy
                copies = [_scattered(method, [d], index) for d in per_replica]
            elif agg == "ONLY_FIRST_REPLICA":
                copies = [_scattered(method, per_replica[:1], index)] * 2
            else:                        # the slices are concatenated (MEAN: values / 2), applied in order
                scale = 1.0 if agg == "SUM" else 0.5
                copies = [_scattered(method, [d * scale for d in per_replica], index)] * 2
            assert_close(got, copies, call=call, what="the copies")


@clause("mirrored.scatter", ref="tf221")
def test_mirrored_scatter_in_cross_replica_context(backend):
    ns = Program(backend, SCATTER_PROGRAM, aggregations=AGGREGATIONS, methods=SCATTERS, init=INIT,
                 delta_base=4.0, index=1, in_replica=False).run()
    _check_scatter(ns, False, 4.0, 1)


@clause("mirrored.scatter", ref="tf221")
def test_mirrored_scatter_in_replica_context_aggregates_slices(backend):
    ns = Program(backend, SCATTER_PROGRAM, aggregations=AGGREGATIONS, methods=SCATTERS, init=INIT,
                 delta_base=4.0, index=2, in_replica=True).run()
    _check_scatter(ns, True, 4.0, 2)


@clause("mirrored.scatter", ref="tf221")
def test_central_storage_scatter_applies_every_replicas_slices(backend):
    ns = Program(backend, SCATTER_PROGRAM.replace('make_strategy("mirrored", 2)', 'make_strategy("central_storage", 2)'),
                 aggregations=AGGREGATIONS, methods=SCATTERS, init=INIT, delta_base=4.0, index=1,
                 in_replica=True).run()
    for agg in AGGREGATIONS:
        for method in SCATTERS:
            call = f"CentralStorageStrategy(2): tf.Variable({INIT}, aggregation={agg}).{method}(IndexedSlices([4 * (r + 1)], " \
                   "[1])) in replica r of strategy.run"
            got = ns["outcome"][(agg, method)]
            assert_true(isinstance(got, list), f"outcome={got!r}, but should be the variable's value", call=call)
            assert_close(got, [_scattered(method, [4.0, 8.0], 1)], call=call,
                         what="the variable (each replica's slices applied in turn, whatever the aggregation)")


@clause("mirrored.sync-on-read", ref="tf221")
def test_on_read_subtract_read_and_scatter(backend):
    ns = Program(backend, """
strategy = backend.make_strategy("mirrored", 2)
with strategy.scope():
    mean = tf.Variable([1.0, 2.0, 3.0], synchronization=tf.VariableSynchronization.ON_READ,
                       aggregation=tf.VariableAggregation.MEAN)
    first = tf.Variable([1.0, 2.0, 3.0], synchronization=tf.VariableSynchronization.ON_READ,
                        aggregation=tf.VariableAggregation.ONLY_FIRST_REPLICA)
    none = tf.Variable([1.0, 2.0, 3.0], synchronization=tf.VariableSynchronization.ON_READ)

def step():
    rid = tf.cast(tf.distribute.get_replica_context().replica_id_in_sync_group, tf.float32)
    mean.assign_sub((rid + 1.0) * tf.ones(3))
    first.assign_add((rid + 5.0) * tf.ones(3))
    return mean.read_value()

inside = [c.numpy().tolist() for c in strategy.experimental_local_results(strategy.run(step))]
after_run = [c.numpy().tolist() for c in strategy.experimental_local_results(mean)]
cross_read = mean.numpy().tolist()
sub_result = mean.assign_sub([1.0, 1.0, 1.0]).numpy().tolist()
no_read = mean.assign_sub([0.5, 0.5, 0.5], read_value=False)
copies = [c.numpy().tolist() for c in strategy.experimental_local_results(mean)]
first_read = first.numpy().tolist()
first_add = first.assign_add([1.0, 1.0, 1.0]).numpy().tolist()
first_copies = [c.numpy().tolist() for c in strategy.experimental_local_results(first)]
errors = {}
try:
    none.numpy()
except Exception as e:
    errors["read NONE"] = (type(e).__name__, str(e))
for m in ["scatter_add", "scatter_sub", "scatter_mul", "scatter_div", "scatter_min", "scatter_max", "scatter_update"]:
    try:
        getattr(mean, m)(tf.IndexedSlices(tf.constant([1.0]), tf.constant([0]), tf.constant([3])))
    except Exception as e:
        errors[m] = (type(e).__name__, str(e))
""").run()
    call = "MirroredStrategy(2): ON_READ variables [1, 2, 3]; replica r: mean.assign_sub(r + 1), first.assign_add(r + 5)"
    base = np.array([1.0, 2.0, 3.0])
    own = [(base - 1).tolist(), (base - 2).tolist()]
    assert_close(ns["inside"], own, call=call, what="each replica's read_value() after its assign_sub")
    assert_close(ns["after_run"], own, call=call, what="the MEAN variable's copies")
    assert_close(ns["cross_read"], (base - 1.5).tolist(), call=call, what="the MEAN read in cross-replica context")
    assert_close(ns["sub_result"], (base - 2.5).tolist(), call=call,
                 what="mean.assign_sub(1) in cross-replica context (every copy; the result is the MEAN read)")
    assert_equal(ns["no_read"], None, call=call, what="assign_sub(..., read_value=False)")
    assert_close(ns["copies"], [(base - 2.5).tolist(), (base - 3.5).tolist()], call=call, what="the copies after both")
    assert_close(ns["first_read"], (base + 5).tolist(), call=call, what="ONLY_FIRST_REPLICA read (copy 0)")
    assert_close(ns["first_add"], (base + 6).tolist(), call=call, what="ONLY_FIRST_REPLICA assign_add(1) cross-replica")
    assert_close(ns["first_copies"], [(base + 6).tolist(), (base + 7).tolist()], call=call,
                 what="ONLY_FIRST_REPLICA copies (cross-replica assign_add adds to each)")
    errs = ns["errors"]
    assert_equal(errs["read NONE"][0], "ValueError", call=call, what="reading an aggregation=NONE ON_READ variable")
    # (TF names the default aggregation VariableAggregation.NONE, the v1 enum, an explicit one VariableAggregationV2.NONE)
    assert_true(re.search(r"Could not convert from `tf.VariableAggregation` VariableAggregation(V2)?\.NONE to",
                          errs["read NONE"][1]) is not None,
                f"message={errs['read NONE'][1]!r}, but should name VariableAggregation.NONE", call=call)
    for m in ["scatter_add", "scatter_sub", "scatter_mul", "scatter_div", "scatter_min", "scatter_max", "scatter_update"]:
        assert_equal(list(errs.get(m, ("returned normally", ""))),
                     ["NotImplementedError", f"Variables with `synchronization=ON_READ` doesn't support `{m}`"],
                     call=call, what=f"mean.{m}(...)")


@clause("mirrored.variables", ref="tf221")
def test_mirrored_variable_python_protocol_slices_and_device_reads(backend):
    devs = backend.device_names(2)
    ns = Program(backend, """
strategy = backend.make_strategy("mirrored", 2)
with strategy.scope():
    v = tf.Variable([1.0, 2.0, 3.0])
try:
    len(v)
    length = "returned"
except TypeError as e:
    length = str(e)
truth = bool(v)
v[0].assign(9.0)            # cross-replica context: the first copy only
copies = [c.numpy().tolist() for c in strategy.experimental_local_results(v)]
with tf.device(devs[1]):
    on_second = v.read_value().numpy().tolist()
with tf.device(devs[0]):
    on_first = v.read_value().numpy().tolist()
errors = {}
with strategy.scope():
    try:
        tf.Variable(1.0, synchronization=tf.VariableSynchronization.NONE, name="nosync")
    except ValueError as e:
        errors["NONE"] = str(e)
try:
    tf.distribute.MirroredStrategy([devs[0], devs[0]])
except AssertionError as e:
    errors["duplicates"] = str(e)
""", devs=devs).run()
    call = "MirroredStrategy(2): v = tf.Variable([1, 2, 3]); v[0].assign(9.0) in cross-replica context"
    assert_equal(ns["length"], "object of type 'MirroredVariable' has no len()", call=call, what="len(v)")
    assert_equal(ns["truth"], True, call=call, what="bool(v)")
    assert_close(ns["copies"], [[9.0, 2.0, 3.0], [1.0, 2.0, 3.0]], call=call, what="the copies")
    assert_close(ns["on_second"], [1.0, 2.0, 3.0], call=call, what=f"v.read_value() under tf.device({devs[1]!r})")
    assert_close(ns["on_first"], [9.0, 2.0, 3.0], call=call, what=f"v.read_value() under tf.device({devs[0]!r})")
    assert_true("`NONE` variable synchronization mode is not supported with tf.distribute strategy. Please change "
                "the `synchronization` for variable: nosync" in ns["errors"].get("NONE", ""),
                f"errors={ns['errors']!r}: synchronization=NONE should raise TF's ValueError naming 'nosync'", call=call)
    assert_true(ns["errors"].get("duplicates", "").startswith("No duplicates allowed in `devices` argument"),
                f"errors={ns['errors']!r}: MirroredStrategy with a device twice should raise AssertionError",
                call="MirroredStrategy([d0, d0])")


@clause("optim.update", ref="tf221")
def test_extended_update_regroups_results(backend):
    ns = Program(backend, """
strategy = backend.make_strategy("mirrored", 2)
with strategy.scope():
    v = tf.Variable([1.0, 2.0])
a = tf.constant(3.0)

def fn(var, x):
    return {"x": var.read_value() * 2.0, "y": [x, x + 1.0]}

ungrouped = strategy.extended.update(v, fn, args=(a,), group=False)
shape = {"x": len(ungrouped["x"]), "y": [len(t) for t in ungrouped["y"]]}
values = {"x": [t.numpy().tolist() for t in ungrouped["x"]], "y": [[float(t) for t in p] for p in ungrouped["y"]]}
same_a = ungrouped["y"][0][0] is a
grouped = strategy.extended.update(v, lambda var, x: (var.read_value() + 1.0, x), args=(a,), group=True)
grouped_first = [t.numpy().tolist() for t in strategy.experimental_local_results(grouped[0])]
grouped_second_is_a = grouped[1] is a
nothing = strategy.extended.update(v, lambda var: None)
""").run()
    call = "MirroredStrategy(2): extended.update(v=[1, 2], fn, args=(a,))"
    assert_equal(ns["shape"], {"x": 2, "y": [1, 2]}, call=call + ", group=False",
                 what="local-result tuple lengths (a leaf each copy returned as the same object stays one value)")
    assert_close(ns["values"]["x"], [[2.0, 4.0], [2.0, 4.0]], call=call, what="ungrouped['x']")
    assert_close(ns["values"]["y"][1], [4.0, 4.0], call=call, what="ungrouped['y'][1]")
    assert_equal(ns["same_a"], True, call=call, what="ungrouped['y'][0][0] is a")
    assert_type_name(ns["grouped"][0], "Mirrored", call=call + ", group=True", what="grouped[0]")
    assert_close(ns["grouped_first"], [[2.0, 3.0], [2.0, 3.0]], call=call, what="grouped[0]'s copies")
    assert_equal(ns["grouped_second_is_a"], True, call=call + ", group=True", what="grouped[1] is a")
    assert_equal(ns["nothing"], None, call=call, what="update of a function returning None")


@clause("extended.reduce-to", ref="tf221")
def test_reduce_to_a_variable_gives_one_copy_per_device(backend):
    ns = Program(backend, """
strategy = backend.make_strategy("mirrored", 2)
with strategy.scope():
    v = tf.Variable([0.0, 0.0])
pr = strategy.experimental_distribute_values_from_function(
    lambda ctx: tf.constant([1.0, 2.0]) * float(ctx.replica_id_in_sync_group + 1))
out = strategy.extended.reduce_to("SUM", pr, destinations=v)
mean = strategy.extended.reduce_to(tf.distribute.ReduceOp.MEAN, pr, destinations=v)
local = [t.numpy().tolist() for t in strategy.experimental_local_results(out)]
mean_local = [t.numpy().tolist() for t in strategy.experimental_local_results(mean)]
""").run()
    call = "MirroredStrategy(2): extended.reduce_to(op, PerReplica([1, 2] * (r + 1)), destinations=mirrored variable)"
    assert_type_name(ns["out"], "Mirrored", call=call)
    assert_close(ns["local"], [[3.0, 6.0], [3.0, 6.0]], call=call, what="SUM's local results")
    assert_close(ns["mean_local"], [[1.5, 3.0], [1.5, 3.0]], call=call, what="MEAN's local results")


@clause("reduce.axis-batch", ref="tf221")
def test_reduce_argument_errors_and_bool_axis(backend):
    ns = Program(backend, """
strategy = backend.make_strategy("mirrored", 2)
pr = strategy.experimental_distribute_values_from_function(
    lambda ctx: tf.constant([[1.0, 2.0], [3.0, 4.0]]) * float(ctx.replica_id_in_sync_group + 1))
flat = strategy.experimental_distribute_values_from_function(
    lambda ctx: tf.constant([1.0, 2.0]) * float(ctx.replica_id_in_sync_group + 1))
flags = strategy.experimental_distribute_values_from_function(
    lambda ctx: tf.constant([True, ctx.replica_id_in_sync_group == 0]))
along_true = strategy.reduce("SUM", pr, axis=True).numpy().tolist()
out = {}
for name, f in [("axis float", lambda: strategy.reduce("SUM", flat, axis=0.5)),
                ("axis True rank 1", lambda: strategy.reduce("SUM", flat, axis=True)),
                ("op int with axis", lambda: strategy.reduce(1, flat, axis=0)),
                ("op int", lambda: strategy.reduce(1, flat, axis=None)),
                ("bool axis None", lambda: strategy.reduce("SUM", flags, axis=None)),
                ("bool axis 0", lambda: strategy.reduce("SUM", flags, axis=0))]:
    try:
        f()
        out[name] = ("returned", "")
    except Exception as e:
        out[name] = (type(e).__name__, str(e))
""").run()
    call = "MirroredStrategy(2): strategy.reduce"
    x = np.array([[1.0, 2.0], [3.0, 4.0]])
    assert_close(ns["along_true"], (x.sum(axis=1) + 2 * x.sum(axis=1)).tolist(), call=call + "('SUM', pr, axis=True)",
                 what="axis=True reduces along axis 1 (a bool is an int)")
    # (axis 0.5, not 0.0: TF runs the axis reduction through a tf.function cached per strategy, and a
    # float equal to an int reuses that int's trace)
    expected = {
        "axis float": ("TypeError", "Value passed to parameter 'reduction_indices' has DataType float32"),
        "axis True rank 1": ("ValueError", "Invalid reduction dimension 1 for input with 1 dimensions"),
        "op int with axis": ("TypeError", "Expected `reduce_op` to be a `tf.distribute.ReduceOp`, not: 1"),
        "op int": ("AssertionError", ""),
        "bool axis None": ("InvalidArgumentError", "Value for attr 'T' of bool is not in the list of allowed values"),
        "bool axis 0": ("TypeError", "Value passed to parameter 'input' has DataType bool not in list of allowed"),
    }
    for name, (cls, text) in expected.items():
        got = ns["out"][name]
        assert_true(got[0] == cls and text in got[1], f"outcome={got!r}, but should be {cls} containing {text!r}",
                    call=f"{call}: {name}")


@clause("reduce.plain-value", ref="tf221")
def test_reduce_of_mirrored_and_zero_plain_values(backend):
    ns = Program(backend, """
strategy = backend.make_strategy("mirrored", 2)
with strategy.scope():
    v = tf.Variable([1.0, 5.0])
mean_of_var = strategy.reduce("MEAN", v, axis=None).numpy().tolist()
out = {}
for name, f in [("SUM of a mirrored variable", lambda: strategy.reduce("SUM", v, axis=None)),
                ("SUM of 0.0", lambda: strategy.reduce("SUM", 0.0, axis=None))]:
    try:
        f()
        out[name] = ("returned", "")
    except Exception as e:
        out[name] = (type(e).__name__, str(e))
zeros = strategy.reduce("SUM", np.zeros(3, np.float32), axis=None)
zeros_type = type(zeros).__name__
zeros_value = np.asarray(zeros).tolist()
c = strategy.experimental_distribute_values_from_function(
    lambda ctx: tf.constant([1 + 2j, 3 - 1j], tf.complex64) * tf.cast(ctx.replica_id_in_sync_group + 1, tf.complex64))
cmean = strategy.reduce("MEAN", c, axis=None).numpy()
""").run()
    call = "MirroredStrategy(2): strategy.reduce(op, value, axis=None)"
    assert_close(ns["mean_of_var"], [1.0, 5.0], call=call, what="MEAN of a MirroredVariable (its value)")
    assert_equal(ns["out"]["SUM of a mirrored variable"][0], "AssertionError", call=call,
                 what="SUM of a MirroredVariable (TF asserts it is not mirrored)")
    assert_equal(list(ns["out"]["SUM of 0.0"]), ["AttributeError", "'float' object has no attribute 'shape'"],
                 call=call, what="SUM of the Python number 0.0")
    assert_equal(ns["zeros_type"], "ndarray", call=call, what="type of the SUM of np.zeros(3)")
    assert_close(ns["zeros_value"], [0.0, 0.0, 0.0], call=call, what="the SUM of np.zeros(3)")
    expected = (np.array([1 + 2j, 3 - 1j], np.complex64) * 3) / 2
    assert_close(np.real(ns["cmean"]), np.real(expected), call=call, what="real part of a complex64 MEAN")
    assert_close(np.imag(ns["cmean"]), np.imag(expected), call=call, what="imaginary part of a complex64 MEAN")


@clause("scope.current", ref="tf221")
def test_experimental_set_strategy(backend):
    ns = Program(backend, """
mirrored = backend.make_strategy("mirrored", 2)
one = backend.make_strategy("one_device")
tf.distribute.experimental_set_strategy(mirrored)
set_facts = [tf.distribute.get_strategy() is mirrored, tf.distribute.has_strategy(),
             tf.distribute.in_cross_replica_context()]
tf.distribute.experimental_set_strategy(one)
replaced = tf.distribute.get_strategy() is one
tf.distribute.experimental_set_strategy(None)
cleared = [tf.distribute.has_strategy(), tf.distribute.get_strategy() is mirrored]
try:
    with one.scope():
        tf.distribute.experimental_set_strategy(mirrored)
    in_scope = "returned"
except RuntimeError as e:
    in_scope = str(e)
after = tf.distribute.has_strategy()
try:
    mirrored.run(lambda: mirrored.scope().__enter__())
    scope_in_run = "returned"
except RuntimeError as e:
    scope_in_run = str(e)
""").run()
    call = "tf.distribute.experimental_set_strategy"
    assert_equal(ns["set_facts"], [True, True, True], call=call + "(mirrored)",
                 what="[get_strategy() is mirrored, has_strategy(), in_cross_replica_context()]")
    assert_equal(ns["replaced"], True, call=call + "(one) after (mirrored)", what="get_strategy() is one")
    assert_equal(ns["cleared"], [False, False], call=call + "(None)", what="[has_strategy(), get_strategy() is mirrored]")
    assert_equal(ns["in_scope"], "Must not be called inside a `tf.distribute.Strategy` scope.", call=call +
                 "(mirrored) inside `with one.scope()`", what="the RuntimeError")
    assert_equal(ns["after"], False, call=call, what="has_strategy() after the refused call")
    assert_equal(ns["scope_in_run"], "Method requires being in cross-replica context, use "
                 "get_replica_context().merge_call()", call="strategy.scope() entered inside strategy.run",
                 what="the RuntimeError")


@clause("cluster.tf-config", ref="tf221")
def test_cluster_spec_and_resolvers_api(backend, monkeypatch):
    monkeypatch.delenv("TF_CONFIG", raising=False)
    ns = Program(backend, """
import os, json
CS = tf.train.ClusterSpec
spec = CS({"worker": {1: "w1:2222", 3: "w3:2222"}, "ps": ["p0:1"]})
facts = {"task_indices": spec.task_indices("worker"), "num_tasks": spec.num_tasks("worker"),
         "address": spec.task_address("worker", 3), "jobs": list(spec.jobs), "as_dict": spec.as_dict(),
         "copy_jobs": list(CS(spec).as_dict()), "empty_bool": bool(CS({})), "bool": bool(spec),
         "eq": CS({"ps": ["p0:1"]}) == CS({"ps": ["p0:1"]}), "ne": CS({"ps": ["p0:1"]}) == CS({"ps": ["p1:1"]})}
errors = {}
for name, f in [("not a dict", lambda: CS("bad")), ("tasks a string", lambda: CS({"worker": "a:1"})),
                ("unknown job", lambda: spec.task_address("chief", 0)),
                ("unknown task", lambda: spec.task_address("worker", 5)),
                ("SimpleClusterResolver of a dict",
                 lambda: tf.distribute.cluster_resolver.SimpleClusterResolver({"worker": ["a:1"]}))]:
    try:
        f()
        errors[name] = ["returned", ""]
    except Exception as e:
        errors[name] = [type(e).__name__, str(e)]
r = tf.distribute.cluster_resolver.SimpleClusterResolver(CS({"worker": ["a:1", "b:2"]}), task_type="worker",
                                                         task_id=0, rpc_layer="grpc")
simple = {"master": r.master(), "master_w1": r.master("worker", 1), "master_empty_layer": r.master("worker", 1, rpc_layer="")}
r.task_type, r.task_id, r.rpc_layer = "ps", 3, "x"
simple["set"] = [r.task_type, r.task_id, r.rpc_layer]
simple["given"] = tf.distribute.cluster_resolver.SimpleClusterResolver(CS({"worker": ["a:1"]}), master="m:9").master()
os.environ["TF_CONFIG"] = json.dumps({"cluster": {"worker": ["a:1", "b:2"]}, "task": {"type": "worker", "index": 1},
                                      "session_master": "sm:1", "environment": "cloud", "rpc_layer": "grpc"})
t = tf.distribute.cluster_resolver.TFConfigClusterResolver()
tfc = {"master": t.master(), "master_w0": t.master("worker", 0), "environment": t.environment,
       "task": [t.task_type, t.task_id, t.rpc_layer]}
t.task_type, t.task_id, t.rpc_layer = "ps", 7, "foo"
tfc["set"] = [t.task_type, t.task_id, t.rpc_layer]
os.environ["TF_CONFIG"] = json.dumps({"cluster": {"worker": ["a:1", "b:2"]}, "task": {"type": "worker", "index": 1},
                                      "rpc_layer": "grpc"})
t = tf.distribute.cluster_resolver.TFConfigClusterResolver()
tfc["no_session_master"] = [t.master(), t.master("worker", 0), t.master("worker", 0, rpc_layer="")]
os.environ["TF_CONFIG"] = json.dumps({"cluster": {"worker": ["a:1", "b:2"]}})
t = tf.distribute.cluster_resolver.TFConfigClusterResolver()
try:
    t.master()
    tfc["no_task"] = ["returned", ""]
except Exception as e:
    tfc["no_task"] = [type(e).__name__, str(e)]
del os.environ["TF_CONFIG"]
""").run()
    call = "tf.train.ClusterSpec({'worker': {1: 'w1:2222', 3: 'w3:2222'}, 'ps': ['p0:1']})"
    f = ns["facts"]
    assert_equal([f["task_indices"], f["num_tasks"], f["address"], f["jobs"]], [[1, 3], 2, "w3:2222", ["worker", "ps"]],
                 call=call, what="[task_indices('worker'), num_tasks('worker'), task_address('worker', 3), jobs]")
    assert_equal(f["as_dict"], {"worker": {1: "w1:2222", 3: "w3:2222"}, "ps": ["p0:1"]}, call=call, what="as_dict()")
    assert_equal(f["copy_jobs"], ["ps", "worker"], call="ClusterSpec(spec).as_dict()",
                 what="its jobs (sorted by name: the copy goes through a ClusterDef)")
    assert_equal([f["empty_bool"], f["bool"], f["eq"], f["ne"]], [False, True, True, False], call=call,
                 what="[bool(ClusterSpec({})), bool(spec), equal specs ==, different specs ==]")
    expected = {
        "not a dict": ["TypeError", "`cluster` must be a dictionary mapping one or more job names to lists of network "
                                    "addresses, or a `ClusterDef` protocol buffer"],
        "tasks a string": ["TypeError", "The tasks for job 'worker' must be a list or a dictionary from integers to "
                                        "strings."],
        "unknown job": ["ValueError", "No such job in cluster: 'chief'"],
        "unknown task": ["ValueError", "No task with index 5 in job 'worker'"],
        "SimpleClusterResolver of a dict": ["TypeError", "cluster_spec must be a `tf.train.ClusterSpec`."],
    }
    for name, exp in expected.items():
        assert_equal(list(ns["errors"][name]), exp, call=call, what=name)
    call = "SimpleClusterResolver(ClusterSpec({'worker': ['a:1', 'b:2']}), task_type='worker', task_id=0, rpc_layer='grpc')"
    s = ns["simple"]
    assert_equal([s["master"], s["master_w1"], s["master_empty_layer"]], ["grpc://", "grpc://b:2", "grpc://b:2"],
                 call=call, what="[master() (no master given), master('worker', 1), master('worker', 1, rpc_layer='')]")
    assert_equal(s["set"], ["ps", 3, "x"], call=call, what="task_type, task_id, rpc_layer after setting them")
    assert_equal(s["given"], "m:9", call="SimpleClusterResolver(spec, master='m:9')", what="master()")
    call = "TFConfigClusterResolver() with TF_CONFIG session_master 'sm:1', environment 'cloud', rpc_layer 'grpc'"
    t = ns["tfc"]
    assert_equal([t["master"], t["master_w0"]], ["sm:1", "sm:1"], call=call,
                 what="[master(), master('worker', 0)] (session_master wins)")
    assert_equal(t["environment"], None, call=call, what="environment (the constructor's, not TF_CONFIG's)")
    assert_equal(t["task"], ["worker", 1, "grpc"], call=call, what="[task_type, task_id, rpc_layer]")
    assert_equal(t["set"], ["ps", 7, "foo"], call=call, what="after setting them")
    assert_equal(t["no_session_master"], ["grpc://b:2", "grpc://a:1", "a:1"], call="TFConfigClusterResolver() without "
                 "session_master", what="[master(), master('worker', 0), master('worker', 0, rpc_layer='')]")
    assert_equal(list(t["no_task"]), ["ValueError", "No such job in cluster: None"],
                 call="TFConfigClusterResolver().master() with a two-task cluster and no task", what="the outcome")


@clause("run.replica-context", ref="tf221")
def test_default_strategy_input_run_and_nested_all_reduce(backend):
    ns = Program(backend, """
import collections
default = tf.distribute.get_strategy()
contexts = []
def dataset_fn(ctx):
    contexts.append([ctx.num_input_pipelines, ctx.input_pipeline_id, ctx.num_replicas_in_sync])
    return tf.data.Dataset.range(3)
made = default.distribute_datasets_from_function(dataset_fn)
made_values = [int(x) for x in made]
try:
    default.run(lambda x: x, args=tf.constant(1.0))
    run_args = "returned"
except ValueError as e:
    run_args = str(e)
run_kwargs = float(default.run(lambda x, y: x + y, args=(1.0,), kwargs={"y": 2.0}))
axis_sum = float(default.reduce("SUM", tf.constant([1.0, 2.0]), axis=0))

strategy = backend.make_strategy("mirrored", 2)
Pair = collections.namedtuple("Pair", ["a", "b"])
def replica_fn():
    ctx = tf.distribute.get_replica_context()
    r = tf.cast(ctx.replica_id_in_sync_group + 1, tf.float32)
    out = ctx.all_reduce("SUM", {"g": Pair(r * tf.ones(2), r), "h": [r * 10.0]})
    return out["g"].a, out["g"].b, out["h"][0], tf.constant(type(out["g"]).__name__)
a, b, h, kind = strategy.run(replica_fn)
nested = [[backend.to_numpy(x).tolist() for x in strategy.experimental_local_results(t)] for t in (a, b, h)]
kinds = [backend.to_numpy(x).item() for x in strategy.experimental_local_results(kind)]
""").run()
    call = "tf.distribute.get_strategy() (the default strategy)"
    assert_equal(ns["contexts"], [[1, 0, 1]], call=call + ".distribute_datasets_from_function(fn)",
                 what="[num_input_pipelines, input_pipeline_id, num_replicas_in_sync] of the one call")
    assert_equal(ns["made_values"], [0, 1, 2], call=call + ".distribute_datasets_from_function(fn)",
                 what="the elements (the dataset itself)")
    assert_true(ns["run_args"].startswith("positional args must be a list or tuple, got"),
                f"run_args={ns['run_args']!r}, but should be ValueError 'positional args must be a list or tuple, got ...'",
                call=call + ".run(fn, args=tensor)")
    assert_close(ns["run_kwargs"], 3.0, call=call + ".run(lambda x, y: x + y, args=(1.0,), kwargs={'y': 2.0})")
    assert_close(ns["axis_sum"], 3.0, call=call + ".reduce('SUM', [1, 2], axis=0)")
    call = "MirroredStrategy(2): ctx.all_reduce('SUM', {'g': Pair(r * ones(2), r), 'h': [10 * r]}), r = replica + 1"
    assert_close(ns["nested"][0], [[3.0, 3.0], [3.0, 3.0]], call=call, what="out['g'].a on each replica")
    assert_close(ns["nested"][1], [3.0, 3.0], call=call, what="out['g'].b on each replica")
    assert_close(ns["nested"][2], [30.0, 30.0], call=call, what="out['h'][0] on each replica")
    assert_equal(ns["kinds"], [b"Pair", b"Pair"], call=call, what="type(out['g']).__name__ (the namedtuple kept)")
