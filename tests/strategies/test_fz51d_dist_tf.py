"""The disagreement classes of fz51d (tests/fuzz51d/fz51d_gen.py, the fifty-first session's generator of the
tf.distribute API surface), each fixed at its root and checked here against TF 2.21:

- mean_int_variable (clause mirrored.aggregation): TF's DistributedVariable.__init__ refuses aggregation=MEAN for a
  non-floating dtype (MirroredVariable and SyncOnReadVariable; CentralStorageStrategy's AggregatingVariable and
  OneDeviceStrategy's plain variable accept it). simdist created the variable (fz51d seed 51203 #15, 51204 #18).
- mwms_reduce_nest (clause mwms.reduce): single-worker MultiWorkerMirroredStrategy.reduce(axis=None) of a nested
  structure treats it as one non-distributed value (MEAN: unchanged; SUM: an identity, a dict ValueError, a tuple of
  mixed dtypes the Pack's InvalidArgumentError), and a Python number reduced with SUM becomes a tensor. simdist
  mapped the reduce over the structure's leaves (fz51d seed 51203 #22).
- aggregation_enum (clause mirrored.aggregation): `tf.VariableAggregation` is TF's class VariableAggregationV2
  (`str` "VariableAggregationV2.MEAN"); a variable made without an aggregation reports the v1 enum's
  "VariableAggregation.NONE"; tf.compat.v1.VariableAggregation is the v1 enum (ONLY_FIRST_TOWER included), equal
  to the V2 member of the same value (fz51d seeds 51201 #9, 51202 #16 and 14 more programs).

Each case is a list of [label, outcome]; an outcome is a value's [class, dtype, shape, values] or [error class,
first line of the message].
"""

from __future__ import annotations

from typing import Any, Callable

import pytest

import tf_programs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _val(x: Any) -> Any:
    if isinstance(x, dict):
        return {k: _val(x[k]) for k in sorted(x)}
    if isinstance(x, (list, tuple)):
        return [type(x).__name__, [_val(v) for v in x]]
    if hasattr(x, "numpy") and hasattr(x, "dtype"):
        a = x.numpy()
        return ["tensor", x.dtype.name, list(getattr(a, "shape", ())), a.tolist()]
    if x is None or isinstance(x, (bool, int, float, str)):
        return [type(x).__name__, x]
    return [type(x).__name__, str(x)]


def _try(out: list, label: str, fn: Callable[[], Any]) -> None:
    try:
        out.append([label, _val(fn())])
    except Exception as e:  # noqa: BLE001 - the class and text are what is compared
        msg = str(e).strip()
        if msg.startswith("in user code:"):   # (TF's autograph frame: the error's own line is the last)
            msg = msg.split("\n")[-1].strip().split(": ", 1)[-1]
        out.append([label, [type(e).__name__, msg.split("\n")[0][:160]]])


def program(tf: Any, case: dict, workdir: str) -> Any:
    out: list[Any] = []
    name = case["name"]
    if name == "mean_int_variable":
        strategies = [("mirrored2", tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])),
                      ("mirrored1", tf.distribute.MirroredStrategy(["/cpu:0"])),
                      ("one_device", tf.distribute.OneDeviceStrategy("/cpu:0")),
                      ("central", tf.distribute.experimental.CentralStorageStrategy(["/cpu:0", "/cpu:1"]))]
        for sname, s in strategies:
            for dt, init in [("int32", 3), ("int64", 3), ("bool", True), ("float16", 1.5), ("complex64", 1 + 2j)]:
                for sync in ["AUTO", "ON_READ"]:
                    for agg in ["MEAN", "SUM"]:
                        def make(s=s, dt=dt, init=init, sync=sync, agg=agg) -> Any:  # noqa: ANN001
                            with s.scope():
                                v = tf.Variable(tf.constant(init, getattr(tf, dt)),
                                                synchronization=getattr(tf.VariableSynchronization, sync),
                                                aggregation=getattr(tf.VariableAggregation, agg))
                            return [type(v).__name__, v.dtype.name]
                        _try(out, f"{sname} {dt} {sync} {agg}", make)
    elif name == "mwms_reduce_nest":
        s = tf.distribute.MultiWorkerMirroredStrategy()
        for op in ["SUM", "MEAN"]:
            _try(out, f"{op} dict run", lambda op=op: s.reduce(op, s.run(lambda: {"f": tf.constant(1.0)}), axis=None))
            _try(out, f"{op} tuple mixed", lambda op=op: s.reduce(op, s.run(lambda: (tf.constant(1.0), tf.constant(2))),
                                                                  axis=None))
            _try(out, f"{op} tuple float", lambda op=op: s.reduce(op, (tf.constant(1.0), tf.constant(3.0)), axis=None))
            _try(out, f"{op} tuple one", lambda op=op: s.reduce(op, s.run(lambda: (tf.constant(1.0),)), axis=None))
            _try(out, f"{op} dict plain", lambda op=op: s.reduce(op, {"a": tf.constant(2.0)}, axis=None))
            _try(out, f"{op} python float", lambda op=op: s.reduce(op, 3.0, axis=None))
            _try(out, f"{op} python zero", lambda op=op: s.reduce(op, 0, axis=None))
            _try(out, f"{op} tensor", lambda op=op: s.reduce(op, s.run(lambda: tf.constant([1, 2])), axis=None))
            _try(out, f"{op} list axis 0", lambda op=op: s.reduce(op, s.run(lambda: [tf.constant([1.0, 2.0])]), axis=0))
    elif name == "aggregation_enum":
        VA = tf.VariableAggregation
        V1 = tf.compat.v1.VariableAggregation
        out.append(["names", [VA.__name__, V1.__name__, str(VA.MEAN), repr(VA.SUM), str(V1.ONLY_FIRST_TOWER)]])
        out.append(["equal", [VA.SUM == V1.SUM, V1.SUM == VA.SUM, VA.NONE == V1.SUM, V1.MEAN != VA.MEAN,
                              hash(VA.MEAN) == hash(V1.MEAN), len({VA.SUM, V1.SUM})]])
        s = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
        for where in ["plain", "mirrored"]:
            for agg in [None, VA.NONE, VA.SUM, VA.ONLY_FIRST_REPLICA, V1.MEAN, V1.ONLY_FIRST_TOWER]:
                def make(where=where, agg=agg) -> Any:  # noqa: ANN001
                    if where == "plain":
                        v = tf.Variable(1.0, aggregation=agg)
                    else:
                        with s.scope():
                            v = tf.Variable(1.0, aggregation=agg)
                    return [str(v.aggregation), type(v.aggregation).__name__, v.aggregation == VA.NONE]
                _try(out, f"{where} {agg}", make)

        def on_read_none() -> Any:
            with s.scope():
                v = tf.Variable(1.0, synchronization=tf.VariableSynchronization.ON_READ)
            return v.read_value()
        _try(out, "on_read default read", on_read_none)
    return out


CASES: dict[str, dict] = {
    "mean_int_variable": {"strategy": "mirrored2", "name": "mean_int_variable"},
    "mwms_reduce_nest": {"strategy": "other", "name": "mwms_reduce_nest"},
    "aggregation_enum": {"strategy": "mirrored2", "name": "aggregation_enum"},
}
NAMES = list(CASES)


@pytest.fixture(scope="module")
def tf_results(request: Any) -> dict[int, Any]:
    return tf_programs.spawn(__file__, CASES, tf_programs.selected(request, __file__))


def _check(name: str, tf_results: dict[int, Any], tmp_path: Any) -> None:
    got, want = tf_programs.on_simdist(program, CASES[name], str(tmp_path)), tf_results[NAMES.index(name)]
    assert [g[0] for g in got] == [w[0] for w in want], f"{name}: labels differ"
    bad = [f"{w[0]}: TF {w[1]!r}, simdist {g[1]!r}" for g, w in zip(got, want) if g[1] != w[1]]
    assert not bad, f"{name}: {len(bad)} of {len(want)} outcomes differ from TF 2.21:\n" + "\n".join(bad[:12])


@pytest.mark.clause("mirrored.aggregation")
@pytest.mark.parametrize("index", [NAMES.index("mean_int_variable")])
def test_mean_aggregation_needs_a_floating_dtype(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    _check("mean_int_variable", tf_results, tmp_path)


@pytest.mark.clause("mwms.reduce")
@pytest.mark.parametrize("index", [NAMES.index("mwms_reduce_nest")])
def test_mwms_reduce_of_a_structure_is_one_value(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    _check("mwms_reduce_nest", tf_results, tmp_path)


@pytest.mark.clause("mirrored.aggregation")
@pytest.mark.parametrize("index", [NAMES.index("aggregation_enum")])
def test_aggregation_enums_v2_and_v1(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    _check("aggregation_enum", tf_results, tmp_path)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(tf_programs.worker(CASES, program))
