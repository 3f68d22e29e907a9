"""tf.DeviceSpec and tf.variable_creator_scope against TF 2.21 (the forty-third session, clause api.namespaces).

DeviceSpec: from_string / to_string / repr over valid and invalid names (TF's parse errors), the constructor's
conversions, make_merged_spec, replace, equality and hashing, immutability, and tf.device taking one.
variable_creator_scope: the arguments tf.Variable hands a creator (every one, defaults filled), the order of
nested creators, a creator changing the arguments or returning something else, a creator inside a
MirroredStrategy's scope, Keras weights made under a creator, a misnested exit.

Each case is one program, the same on both backends, returning plain Python values (a raised error is its
class and message); TF runs it in a worker process (live or from the golden).
"""

from __future__ import annotations

import os
from typing import Any, Callable

import pytest

import tf_programs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def attempt(f: Callable[[], Any]) -> Any:
    try:
        return ["ok", f()]
    except Exception as e:  # noqa: BLE001 - the class and message are the observable
        return ["error", type(e).__name__, str(e)]


NAMES = ["", "/job:w/replica:1/task:2/device:GPU:3", "/cpu:0", "/CPU:*", "gpu", "/device:CPU:*", "/job:a/task:x",
         "/foo:1", "/cpu:0/gpu:1", "/device:CPU:1/cpu:0", "job:ps", "/replica:r", "/device:XLA_CPU:0", "/device:cpu:0",
         "//job:w//", "/tpu:2", "/custom:1", "/epu", "/job:a:b", "/device:CPU", "/cpu:1:2", "/Gpu:1", "/device:gpu:*"]


def device_spec(tf: Any) -> Any:
    D = tf.DeviceSpec
    out: dict[str, Any] = {f"parse {s!r}": attempt(lambda: [D.from_string(s).to_string(), repr(D.from_string(s))])
                           for s in NAMES}
    out["None"] = attempt(lambda: D.from_string(None).to_string())
    out["an int"] = attempt(lambda: D.from_string(5))
    out["constructor"] = [attempt(lambda: D(job=3, replica="2", task=1.7, device_type="cpu", device_index="4").to_string()),
                          attempt(lambda: D(device_type="tpu").to_string()), attempt(lambda: D(replica="x")),
                          attempt(lambda: D(device_type="Gpu").to_string())]
    a, b = D(job="w", device_type="CPU"), D(device_type="GPU", device_index=1)
    out["merge"] = [a.make_merged_spec(b).to_string(), b.make_merged_spec(a).to_string(),
                    a.replace(job=None, task=3).to_string(), attempt(lambda: a.replace(foo=1))]
    out["equality"] = [a == D.from_string("/job:w/device:CPU:*"), a == a.to_string(),
                       hash(a) == hash(D(job="w", device_type="CPU")), a != b, len({a, D(job="w", device_type="CPU")})]
    out["properties"] = [a.job, a.replica, a.task, a.device_type, a.device_index, type(D(task="3").task).__name__]
    out["parse_from_string"] = [a.parse_from_string("/gpu:0").to_string(), a.to_string()]
    out["immutable"] = attempt(lambda: setattr(a, "job", "x"))
    with tf.device(D(device_type="CPU", device_index=1)):
        out["tf.device(spec)"] = tf.constant(1).device
    return out


def _recorder(seen: list, tag: str) -> Callable[..., Any]:
    def creator(next_creator: Any, **kw: Any) -> Any:
        seen.append([tag, sorted(kw), {k: (v if isinstance(v, (bool, int, str, type(None))) else str(v))
                                       for k, v in kw.items() if k != "initial_value"}])
        return next_creator(**kw)
    return creator


def creator_scope(tf: Any) -> Any:
    out: dict[str, Any] = {}
    seen: list = []
    with tf.variable_creator_scope(_recorder(seen, "a")):
        v = tf.Variable(1.0)
    out["plain"] = [seen[:], v.numpy().item(), type(v).__name__]
    seen.clear()
    with tf.variable_creator_scope(_recorder(seen, "outer")):
        with tf.variable_creator_scope(_recorder(seen, "inner")):
            v = tf.Variable([1, 2], name="x", trainable=False, dtype=tf.int64)
    out["nested"] = [seen[:], v.name, v.trainable, v.dtype.name]
    seen.clear()

    def changes(next_creator: Any, **kw: Any) -> Any:
        kw["trainable"] = False
        kw["initial_value"] = 5.0
        kw["name"] = "renamed"
        return next_creator(**kw)
    with tf.variable_creator_scope(changes):
        v = tf.Variable(1.0)
    out["changed arguments"] = [v.numpy().item(), v.trainable, v.name]
    with tf.variable_creator_scope(lambda next_creator, **kw: "not a variable"):
        out["replaced"] = tf.Variable(1.0)

    def extra(next_creator: Any, **kw: Any) -> Any:
        return next_creator(**kw, foo=1)
    with tf.variable_creator_scope(extra):
        out["an unknown argument"] = attempt(lambda: tf.Variable(1.0).numpy().item())
    s = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
    with s.scope():
        with tf.variable_creator_scope(_recorder(seen, "in scope")):
            v = tf.Variable(2.0)
    out["inside a MirroredStrategy scope"] = [seen[:], type(v).__name__, [x.numpy().item() for x in v.values]]
    seen.clear()
    with tf.variable_creator_scope(_recorder(seen, "keras")):
        layer = tf.keras.layers.Dense(2)
        layer.build((None, 3))
    # (not compared: `name`, "kernel" in Keras 3, whose TF name scope makes the variable "dense/kernel:0";
    # simdist's Keras hands the creator its path, "dense/kernel"; nor `aggregation`, Keras's a
    # VariableAggregationV2 member where tf.Variable's default is the v1 enum's: open, spec api.namespaces names43)
    out["keras"] = [[[t, names, {k: d[k] for k in ("trainable", "dtype", "validate_shape")}]
                     for t, names, d in seen], [[int(d) for d in w.shape] for w in layer.weights],
                    [w.value.name for w in layer.weights]]
    seen.clear()
    c1, c2 = tf.variable_creator_scope(_recorder(seen, "x")), tf.variable_creator_scope(_recorder(seen, "y"))
    c1.__enter__()
    c2.__enter__()
    out["misnested exit"] = attempt(lambda: c1.__exit__(None, None, None))
    out["then the inner"] = attempt(lambda: c2.__exit__(None, None, None))
    tf.Variable(0.0)
    out["still open"] = [t for t, _, _ in seen]
    out["then the outer"] = attempt(lambda: c1.__exit__(None, None, None))
    seen.clear()
    tf.Variable(0.0)
    out["closed"] = len(seen)
    return out


PROGRAMS: dict[str, Callable[[Any], Any]] = {"device-spec": device_spec, "variable-creator-scope": creator_scope}
CASES: dict[str, dict] = {n: {"strategy": "default", "name": n} for n in PROGRAMS}


def program(tf: Any, case: dict, workdir: str) -> Any:
    return PROGRAMS[case["name"]](tf)


@pytest.fixture(scope="module")
def tf_results(request: Any) -> dict[int, Any]:
    return tf_programs.spawn(__file__, CASES, tf_programs.selected(request, __file__))


@pytest.mark.clause("api.namespaces")
@pytest.mark.parametrize("index", range(len(PROGRAMS)), ids=list(PROGRAMS))
def test_creator_and_device_spec_as_tf(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    name = list(CASES)[index]
    got, want = tf_programs.on_simdist(program, CASES[name], str(tmp_path)), tf_results[index]
    assert sorted(got) == sorted(want), f"{name}: simdist's keys {sorted(got)}, TF 2.21's {sorted(want)}"
    bad = [k for k in want if got[k] != want[k]]
    assert not bad, "; ".join(f"{name}: {k}: simdist gives {got[k]!r}, but TF 2.21 gives {want[k]!r}" for k in bad)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(tf_programs.worker(CASES, program))
    os._exit(0)
