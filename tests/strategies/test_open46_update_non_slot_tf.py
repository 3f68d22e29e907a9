"""`strategy.extended.update_non_slot` against TF 2.21 (the forty-sixth session, helper open46; clause
extended.v1-methods; simdist/strategies/base.py `StrategyExtended.update_non_slot`, the strategies'
`_update_non_slot`).

TF 2.21's StrategyExtendedV1.update_non_slot (distribute_lib.py) runs in cross-replica or the default context
only (a replica's call: RuntimeError), in the strategy's scope: the default strategy runs fn once where the caller
is; OneDeviceStrategy once on its device; MirroredStrategy (mirrored_strategy.py) once per device of the tuple
`colocate_with` (anything else: AssertionError) under that index's update context, the results regrouped
(Mirrored for several devices); CentralStorageStrategy (parameter_server_strategy.py) once on
`colocate_with.device` (a string: AttributeError). group=False gives each leaf as a tuple of its local results.
Each call: its result's kind, values and devices, or the error's class.
"""

from __future__ import annotations

from typing import Any

import pytest

import tf_programs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _desc(r: Any) -> Any:
    if r is None or isinstance(r, (int, float, str)):
        return r
    if isinstance(r, (list, tuple)):
        return [type(r).__name__, [_desc(x) for x in r]]
    n = type(r).__name__
    if n in ("Mirrored", "PerReplica"):
        return [n, [_desc(x) for x in r.values]]
    return ["value", float(r.numpy()), (r.device or "").split("/")[-1]]


def _attempt(f: Any) -> Any:
    try:
        return ["ok", f()]
    except Exception as e:  # noqa: BLE001 - the class is the observable
        return ["error", type(e).__name__]


def _strategy(tf: Any, name: str) -> Any:
    return {"default": lambda: tf.distribute.get_strategy(),
            "one device": lambda: tf.distribute.OneDeviceStrategy("/cpu:1"),
            "mirrored 2": lambda: tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"]),
            "mirrored 1": lambda: tf.distribute.MirroredStrategy(["/cpu:0"]),
            "central storage": lambda: tf.distribute.experimental.CentralStorageStrategy(["/cpu:0", "/cpu:1"])}[name]()


def program(tf: Any, case: dict, workdir: str) -> Any:
    s = _strategy(tf, case["name"])
    with s.scope():
        v = tf.Variable(2.0, name="zz")
        w = tf.Variable(3.0, name="aa")
    ext = s.extended
    cw = ext.non_slot_devices([v, w])
    calls = {
        "a constant": lambda: ext.update_non_slot(cw, lambda: tf.constant(1.0)),
        "a constant, group=False": lambda: ext.update_non_slot(cw, lambda: tf.constant(1.0), group=False),
        "args and kwargs": lambda: ext.update_non_slot(cw, lambda a, b=1.0: a * b + 1.0, args=(tf.constant(2.0),),
                                                       kwargs={"b": 3.0}),
        "a tuple with a Python number": lambda: ext.update_non_slot(cw, lambda: (tf.constant(1.0), 2.0)),
        "a tuple, group=False": lambda: ext.update_non_slot(cw, lambda: (tf.constant(1.0), 2.0), group=False),
        "None": lambda: ext.update_non_slot(cw, lambda: None),
        "an identity": lambda: ext.update_non_slot(cw, lambda: tf.identity(1.0)),
        "colocated with a variable": lambda: ext.update_non_slot(v, lambda: tf.constant(5.0)),
        "colocated with a device string": lambda: ext.update_non_slot("/cpu:1", lambda: tf.constant(5.0)),
        "colocated with a tuple of one device": lambda: ext.update_non_slot(("/cpu:1",), lambda: tf.constant(5.0)),
        "in a replica": lambda: s.run(lambda: ext.update_non_slot(cw, lambda: tf.constant(1.0))),
    }
    out = {k: _attempt(lambda: _desc(f())) for k, f in calls.items()}
    out["an assign_add, then the variable"] = [_attempt(lambda: ext.update_non_slot(cw, lambda: v.assign_add(1.0))) and
                                               None, [float(x.numpy()) for x in s.experimental_local_results(v)]]
    f = tf.function(lambda: ext.update_non_slot(cw, lambda: w.assign_add(1.0)))
    out["an assign_add in a tf.function"] = [_attempt(lambda: float(f().numpy())),
                                             [float(x.numpy()) for x in s.experimental_local_results(w)]]
    return out


NAMES = ["default", "one device", "mirrored 2", "mirrored 1", "central storage"]
CASES: dict[str, dict] = {n: {"strategy": "mirrored" + n[-1] if n.startswith("mirrored") else "default", "name": n}
                          for n in NAMES}


@pytest.fixture(scope="module")
def tf_results(request: Any) -> dict[int, Any]:
    return tf_programs.spawn(__file__, CASES, tf_programs.selected(request, __file__))


@pytest.mark.clause("extended.v1-methods")
@pytest.mark.parametrize("index", range(len(NAMES)), ids=NAMES)
def test_update_non_slot_as_tf(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    name = NAMES[index]
    got, want = tf_programs.on_simdist(program, CASES[name], str(tmp_path)), tf_results[index]
    assert sorted(got) == sorted(want), f"{name}: simdist's calls {sorted(got)}, TF 2.21's {sorted(want)}"
    bad = [k for k in want if got[k] != want[k]]
    assert not bad, f"{name}: " + "; ".join(f"{k}: simdist gives {got[k]}, TF 2.21 gives {want[k]}" for k in bad)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(tf_programs.worker(CASES, program))
