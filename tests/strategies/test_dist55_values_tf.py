"""Distributed values as op inputs (fifty-fifth session, dist55; clause values.per-replica-conversion), against
TF 2.21 (values.py's registered conversion functions):

- per_replica: a PerReplica converts (`_per_replica_to_tensor`) only without a dtype: an op's later input or a
  dtype_hint asks one, and reading the PerReplica's `.dtype`, which it has not, is AttributeError; in cross-replica
  context (eagerly, in a strategy's scope, in a tf.function outside `run`) or without a strategy it is ValueError
  "It looks like you are using a PerReplica object while not inside a replica context ..." (in a tf.function
  with AutoGraph's "in user code:" frame); in a replica context it is the current replica's component, eagerly and
  traced (`strategy.run(lambda: tf.cast(pr, tf.float64))`). simdist refused every conversion with its generic
  ValueError "Attempt to convert a value (PerReplica ..." (TypeError "Failed to convert elements of ..." traced).
- mirrored: a Mirrored value that is not a variable converts (`_tensor_conversion_mirrored_val`) to its `_get()`:
  the current replica's component in a replica context, else the one on the current device, else the first; a
  dtype it does not have is the tensor conversion's ValueError. simdist refused it as a PerReplica.

- variable_strategy (clause run.per-replica): a MirroredVariable, a SyncOnReadVariable and CentralStorageStrategy's
  AggregatingVariable answer `distribute_strategy` with the strategy they were made under (a plain variable, and
  OneDeviceStrategy's, are AttributeError); simdist's MirroredVariable and AggregatingVariable were AttributeError.

Each case is a list of [label, outcome]; an outcome is a value's [class, dtype, shape, values] or [error class,
message] (of AutoGraph's "in user code:" frame, the error's own line).
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import tf_programs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _val(x: Any) -> Any:
    if isinstance(x, (list, tuple)):
        return [type(x).__name__, [_val(v) for v in x]]
    if hasattr(x, "numpy") and hasattr(x, "dtype"):
        a = np.asarray(x.numpy())
        return ["tensor", x.dtype.name, list(a.shape), a.tolist()]
    if type(x).__name__ in ("PerReplica", "Mirrored"):
        return [type(x).__name__, [_val(v) for v in x.values]]
    return [type(x).__name__, str(x)]


def _try(out: list, label: str, fn: Callable[[], Any]) -> None:
    try:
        out.append([label, _val(fn())])
    except Exception as e:  # noqa: BLE001 - the class and message are what is compared
        text = str(e)
        if text.startswith("in user code:"):
            # (AutoGraph's frame: kept as its mark and the error's own line; TF lists every converted frame, simdist
            # the innermost: another rule, function.trace-time-errors)
            text = "in user code: ... " + text.rstrip("\n").splitlines()[-1].strip()
        out.append([label, [type(e).__name__, text]])


def _values(tf: Any) -> tuple[Any, Any, Any]:
    s = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1", "/cpu:2"])
    pr = s.experimental_distribute_values_from_function(
        lambda ctx: tf.constant([1.5, 2.5]) * float(ctx.replica_id_in_sync_group + 1))
    return s, pr, s.extended.reduce_to("SUM", pr, destinations=pr)


def _per_replica(tf: Any, out: list, workdir: str) -> None:
    t = lambda label, fn: _try(out, label, fn)   # noqa: E731
    s, pr, _ = _values(tf)
    local = s.experimental_local_results

    def cast_argument(p: Any) -> Any:
        return tf.cast(p, tf.float64)

    def cast_captured() -> Any:
        return tf.cast(pr, tf.float64)

    def later_input() -> Any:
        return tf.add(1.0, pr)

    def add_later_input() -> Any:
        return s.run(later_input)

    def in_scope() -> Any:
        with s.scope():
            return tf.add(pr, 1.0)

    t("convert eagerly", lambda: tf.convert_to_tensor(pr))
    t("convert with its dtype", lambda: tf.convert_to_tensor(pr, dtype=tf.float32))
    t("convert with another dtype", lambda: tf.convert_to_tensor(pr, dtype=tf.int32))
    t("cast eagerly", lambda: tf.cast(pr, tf.float64))
    t("in the scope", in_scope)
    t("cast of an argument in a function", lambda: tf.function(cast_argument)(pr))
    t("cast of a capture in a function", lambda: tf.function(cast_captured)())
    t("run: add, first input", lambda: local(s.run(lambda: tf.add(pr, 1.0))))
    t("run: cast", lambda: local(s.run(lambda: tf.cast(pr, tf.float64))))
    t("run: cast in a function", lambda: local(tf.function(lambda: s.run(lambda: tf.cast(pr, tf.float64)))()))
    t("run: cast of an argument in a function",
      lambda: local(tf.function(lambda p: s.run(lambda: tf.cast(p, tf.float64)))(pr)))
    t("run: reduce_sum in a function", lambda: local(tf.function(lambda: s.run(lambda: tf.reduce_sum(pr)))()))
    t("run: add, later input", lambda: local(add_later_input()))
    t("run: add, later input, in a function", lambda: local(tf.function(add_later_input)()))
    t("run: tensor + PerReplica", lambda: local(s.run(lambda: tf.constant(1.0) + pr)))
    t("run: dtype_hint", lambda: local(s.run(lambda: tf.convert_to_tensor(pr, dtype_hint=tf.float32))))
    t("run: concat", lambda: local(s.run(lambda: tf.concat([pr, pr], 0))))


def _mirrored(tf: Any, out: list, workdir: str) -> None:
    t = lambda label, fn: _try(out, label, fn)   # noqa: E731
    s, _, mi = _values(tf)
    local = s.experimental_local_results
    t("convert eagerly", lambda: tf.convert_to_tensor(mi))
    t("convert with another dtype", lambda: tf.convert_to_tensor(mi, dtype=tf.int32))
    t("cast in a function", lambda: tf.function(lambda: tf.cast(mi, tf.float64))())
    t("under a device scope", lambda: tf.identity(tf.convert_to_tensor(mi)).device[-5:])
    t("run: add", lambda: local(s.run(lambda: tf.add(mi, 1.0))))
    t("run: add in a function", lambda: local(tf.function(lambda: s.run(lambda: tf.add(2.0, mi)))()))


def _variable_strategy(tf: Any, out: list, workdir: str) -> None:
    t = lambda label, fn: _try(out, label, fn)   # noqa: E731
    t("a plain variable", lambda: tf.Variable(1.0).distribute_strategy)
    for name, make in [("mirrored", lambda: tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])),
                       ("one device", lambda: tf.distribute.OneDeviceStrategy("/cpu:0")),
                       ("central storage", lambda: tf.distribute.experimental.CentralStorageStrategy(
                           ["/cpu:0", "/cpu:1"]))]:
        s = make()
        with s.scope():
            a = tf.Variable(1.0)
            b = tf.Variable(1.0, synchronization=tf.VariableSynchronization.ON_READ,
                            aggregation=tf.VariableAggregation.SUM)
        for label, v in [(name, a), (name + ", on read", b)]:
            t(label, lambda v=v, s=s: [type(v).__name__, v.distribute_strategy is s])


PROGRAMS = {"per_replica": _per_replica, "mirrored": _mirrored, "variable_strategy": _variable_strategy}


def program(tf: Any, case: dict, workdir: str) -> Any:
    out: list[Any] = []
    PROGRAMS[case["name"]](tf, out, workdir)
    return out


CASES: dict[str, dict] = {
    "per_replica": {"strategy": "mirrored3", "name": "per_replica"},
    "mirrored": {"strategy": "mirrored3", "name": "mirrored"},
    "variable_strategy": {"strategy": "mirrored2", "name": "variable_strategy"},
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


@pytest.mark.clause("values.per-replica-conversion")
@pytest.mark.parametrize("index", [NAMES.index("per_replica")])
def test_a_per_replica_converts_only_in_a_replica_context(index: int, tf_results: dict[int, Any],
                                                          tmp_path: Any) -> None:
    _check("per_replica", tf_results, tmp_path)


@pytest.mark.clause("run.per-replica")
@pytest.mark.parametrize("index", [NAMES.index("variable_strategy")])
def test_a_distributed_variable_names_its_strategy(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    _check("variable_strategy", tf_results, tmp_path)


@pytest.mark.clause("values.per-replica-conversion")
@pytest.mark.parametrize("index", [NAMES.index("mirrored")])
def test_a_mirrored_value_converts_to_its_component(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    _check("mirrored", tf_results, tmp_path)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(tf_programs.worker(CASES, program))
