"""Where results live (fifty-sixth session): the devices of a tf.function call's outputs, of variable reads, of
strategy reductions along an axis and of Optional values, each observation compared with TF 2.21's recorded one
(clause function.output-device).

TF 2.21 places a function's return values on its call op's device (the innermost device scope at the call, else the
default device) whatever device computed them; `read_value()` is an Identity on the caller's device while `value()`
and an update's `_UnreadVariable` read stay on the variable's; OneDeviceStrategy's scope sets no device scope; a
strategy's run of a tf.function is one function call around the replicas; OneDevice's `_reduce_to` keeps the per-axis
SUM on its device; the MEAN along an axis inside a tf.function divides by a constant count (Grappler's reciprocal
product); an Optional's value lives where the Optional was made. Expected results are TF 2.21's (`python -m
simdist.conformance.suite.test_devices56 --record` rewrites devices56_reference.json.gz), recorded on an Intel Xeon
with AVX-512 and oneDNN on (no program here follows the CPU's kernels: sums and means of three floats)."""

from __future__ import annotations

import os
from typing import Any, Callable

import pytest

from simdist.conformance.suite.recorded_programs import (RecordedPrograms, avx512_with_onednn, bits, error,
                                                         reference_cpu)

PATH = os.path.join(os.path.dirname(__file__), "devices56_reference.json.gz")

REF = RecordedPrograms(PATH, (), recording_host=avx512_with_onednn, recording_cpu=reference_cpu)
_program, _ids, _check = REF.add, REF.ids, REF.check


def d(x: Any) -> Any:
    """A value's device name (the task-local part), or its class name when it has none."""
    dev = getattr(x, "device", None)
    return dev.split("/")[-1] if isinstance(dev, str) else type(x).__name__


def _functions(tf: Any, mk: Callable[[], Any]) -> Any:
    mk()   # (the backend's two logical CPUs)
    out: dict[str, Any] = {}
    x = tf.constant([1.0, 2.0])
    with tf.device("/cpu:1"):
        on1 = tf.constant([1.0])
        v1 = tf.Variable([1.0, 2.0], name="devices56_v1")

    @tf.function
    def made_on_1(a: Any) -> Any:
        with tf.device("/cpu:1"):
            return a * 2.0

    @tf.function
    def plain(a: Any) -> Any:
        return a * 2.0

    @tf.function
    def ident(a: Any) -> Any:
        return a

    @tf.function
    def two(a: Any) -> Any:
        with tf.device("/cpu:1"):
            b = a + 1.0
        return b, a + 2.0

    @tf.function
    def outer(a: Any) -> Any:
        return made_on_1(a)

    @tf.function
    def structure() -> Any:
        with tf.device("/cpu:1"):
            return {"a": tf.constant(1.0), "b": [tf.range(3), None]}

    @tf.function(jit_compile=True)
    def jitted(a: Any) -> Any:
        with tf.device("/cpu:1"):
            return a + 1.0

    @tf.function
    def square() -> Any:
        with tf.device("/cpu:1"):
            return v1 * v1

    out["made on 1"] = d(made_on_1(x))
    with tf.device("/cpu:1"):
        out["made on 1 under cpu1"] = d(made_on_1(x))
        out["plain under cpu1"] = d(plain(x))
        out["two under cpu1"] = [d(t) for t in two(x)]
    out["argument on cpu1"] = d(plain(on1))
    out["argument returned"] = d(ident(on1))
    out["two"] = [d(t) for t in two(x)]
    out["nested"] = d(outer(x))
    s = structure()
    out["structure"] = [d(s["a"]), d(s["b"][0]), s["b"][1] is None]
    out["jit"] = d(jitted(tf.constant([1.0])))
    out["concrete"] = d(square.get_concrete_function()())
    with tf.GradientTape() as tape:
        y = square()
    g = tape.gradient(y, v1)
    out["gradient"] = {"y": d(y), "g": d(g), "bits": bits(g)}
    return out


def _variables(tf: Any, mk: Callable[[], Any]) -> Any:
    mk()
    out: dict[str, Any] = {}
    with tf.device("/cpu:1"):
        v = tf.Variable([1.0], name="devices56_v")
    out["eager read"] = [d(v.read_value()), d(v + 1.0), d(tf.identity(v)), d(v.value()), d(tf.convert_to_tensor(v))]
    with tf.device("/cpu:0"):
        out["read under cpu0"] = [d(v.read_value()), d(v.value())]
    u = v.assign_add([1.0])
    out["unread"] = [type(u).__name__ == type(v).__name__ or "Unread" in type(u).__name__, d(u), d(tf.identity(u)),
                     d(u + 1.0), d(u.read_value()), d(u.value())]
    with tf.device("/cpu:0"):
        out["unread read under cpu0"] = d(u.read_value())
    s = mk()
    with s.scope():
        mv = tf.Variable([1.0, 2.0], name="devices56_mv")
    r = s.extended.update(mv, lambda a, b: a.assign_add(b), args=(tf.constant([0.5, 0.5]),))
    out["update grouped"] = [d(c) for c in s.experimental_local_results(r)]
    r = s.extended.update(mv, lambda a, b: a.assign_add(b), args=(tf.constant([0.5, 0.5]),), group=False)
    out["update ungrouped"] = [d(c) for c in r]
    with tf.device("/cpu:1"):
        out["read_var under cpu1"] = d(s.extended.read_var(mv))
    out["read_var"] = d(s.extended.read_var(mv))
    m = s.extended.reduce_to("MEAN", mv, destinations=mv)
    out["reduce_to MEAN mirrored"] = [d(c) for c in s.experimental_local_results(m)]
    with s.scope():
        so = tf.Variable([1.0], name="devices56_so", synchronization=tf.VariableSynchronization.ON_READ,
                         aggregation=tf.VariableAggregation.ONLY_FIRST_REPLICA)
    with tf.device("/cpu:1"):
        out["sync-on-read first replica assign under cpu1"] = d(so.assign([3.0]))
    out["sync-on-read first replica assign"] = d(so.assign([4.0]))
    return out


def _one_device(tf: Any, mk: Callable[[], Any]) -> Any:
    mk()
    out: dict[str, Any] = {}
    o1 = tf.distribute.OneDeviceStrategy("/cpu:1")
    x = tf.constant([1.5, -2.25, 0.1])
    with o1.scope():
        w = tf.Variable([1.0], name="devices56_w")
        out["in scope"] = [d(tf.constant(1.0) * 2), d(x * 2), d(w), d(w.read_value()), d(w + 1.0),
                           d(tf.function(lambda: tf.constant(1.0) * 2)())]
    out["out of scope"] = [d(w.read_value()), d(w + 1.0)]
    for op in ("SUM", "MEAN"):
        for ax in (None, 0):
            r = o1.reduce(op, x, axis=ax)
            with tf.device("/cpu:1"):
                r1 = o1.reduce(op, x, axis=ax)
            with o1.scope():
                r2 = o1.reduce(op, x, axis=ax)
            out[f"reduce {op} {ax}"] = [d(r), d(r1), d(r2), bits(r)]
    out["run function"] = d(o1.run(tf.function(lambda: tf.constant(1.0) * 2)))
    out["run python"] = d(o1.run(lambda: tf.constant(1.0) * 2))
    with tf.device("/cpu:1"):
        out["run function under cpu1"] = d(o1.run(tf.function(lambda: tf.constant(1.0) * 2)))
    ds = o1.experimental_distribute_dataset(tf.data.Dataset.range(4).batch(2))
    out["dataset element"] = d(next(iter(ds)))
    return out


def _mirrored(tf: Any, mk: Callable[[], Any]) -> Any:
    s = mk()
    out: dict[str, Any] = {}
    x = tf.constant([1.5, -2.25, 0.1])

    @tf.function
    def step(a: Any) -> Any:
        return s.run(lambda: tf.identity(a) * 2.0)

    out["run in function"] = [d(c) for c in s.experimental_local_results(step(tf.constant([1.0])))]
    with tf.device("/cpu:1"):
        out["run in function under cpu1"] = [d(c) for c in s.experimental_local_results(step(tf.constant([1.0])))]
        r = s.run(tf.function(lambda: tf.constant(1.0) * 2))
        out["function run under cpu1"] = [d(c) for c in s.experimental_local_results(r)]
    r = s.run(tf.function(lambda: tf.constant([3.0]) + 1.0))
    out["function run"] = [d(c) for c in s.experimental_local_results(r)]
    pr = s.run(lambda: tf.identity(x))
    r = s.run(tf.function(lambda a: a * 2), args=(pr,))
    out["function run per-replica args"] = [d(c) for c in s.experimental_local_results(r)]
    for op in ("SUM", "MEAN"):
        for ax in (None, 0):
            r = s.reduce(op, pr, axis=ax)
            with tf.device("/cpu:1"):
                r1 = s.reduce(op, pr, axis=ax)
            out[f"reduce {op} {ax}"] = [d(r), d(r1), bits(r)]
    return out


def _means_in_functions(tf: Any, mk: Callable[[], Any]) -> Any:
    s = mk()
    out: dict[str, Any] = {}
    x = tf.constant([1.5, -2.25, 0.1])
    o1 = tf.distribute.OneDeviceStrategy("/cpu:1")
    o0 = tf.distribute.OneDeviceStrategy("/cpu:0")
    for name, st in (("one cpu1", o1), ("one cpu0", o0), ("mirrored", s)):
        out[name] = _means(tf, st, x)
    return out


def _means(tf: Any, st: Any, x: Any) -> Any:
    """(The strategy a closure's, not a parameter's default: a Python object among a call's arguments is a case of
    its own, programs-with-objects below.)"""
    def captured() -> Any:
        return st.reduce("MEAN", x, axis=0)

    def argument(y: Any) -> Any:
        return st.reduce("MEAN", y, axis=0)

    return {
        "eager": bits(st.reduce("MEAN", x, axis=0)),
        "captured": bits(tf.function(captured)()),
        "argument": bits(tf.function(argument)(x)),
        "unknown length": error(lambda: bits(tf.function(
            argument, input_signature=[tf.TensorSpec([None], tf.float32)])(x))),
        "float64": bits(tf.function(argument)(tf.cast(x, tf.float64))),
    }


def _means_at_edges(tf: Any, mk: Callable[[], Any]) -> Any:
    """A traced MEAN along an axis at edge values and every dtype class: NaN, inf, -0.0, an empty input (0 * 1/0),
    float near its limits, float16/bfloat16/complex64, and integers, whose mean TF divides in float64 (float32 for
    8- and 16-bit ones) by the folded count's reciprocal too (an int32 sum that wraps included)."""
    import numpy as np
    s = mk()
    o = tf.distribute.OneDeviceStrategy("/cpu:1")
    cases = {
        "nan": ([1.5, float("nan"), 0.1], "float32"), "inf": ([float("inf"), -2.0, 0.1], "float32"),
        "-0": ([-0.0, -0.0, -0.0], "float32"), "empty": (np.zeros([0], np.float32), "float32"),
        "float64": ([1.5, -2.25, 0.1], "float64"), "float16": ([1.5, -2.25, 0.1], "float16"),
        "bfloat16": ([1.5, -2.25, 0.1], "bfloat16"), "complex64": ([1.5 + 1j, -2.25, 0.1j], "complex64"),
        "tiny": ([1e-38, 2e-38, 3e-39], "float32"), "huge": ([3e38] * 7, "float32"),
        "int32 wraps": ([2**31 - 1, 1, 5], "int32"), "int32": ([7, 1, 5], "int32"), "int64": ([2**62, 3, 5], "int64"),
        "int8": ([100, 27, 5], "int8"), "uint8": ([200, 27, 5], "uint8"), "int16": ([3, 1, 7], "int16"),
        "int64 empty": (np.zeros([0], np.int64), "int64"),
    }
    out: dict[str, Any] = {}
    for name, (v, dt) in cases.items():
        x = tf.constant(v, dtype=dt)
        for sn, st in (("mirrored", s), ("one", o)):
            out[f"{name} {sn}"] = error(lambda st=st, x=x: _mean_observed(tf, st, x))
    return out


def _mean_observed(tf: Any, st: Any, x: Any) -> Any:
    import numpy as np

    def mean(y: Any) -> Any:
        return st.reduce("MEAN", y, axis=0)

    r = tf.function(mean)(x)
    a = np.asarray(r.numpy())
    return [a.dtype.name, a.tobytes().hex(), d(r)]


def _optionals(tf: Any, mk: Callable[[], Any]) -> Any:
    s = mk()
    out: dict[str, Any] = {}
    with tf.device("/cpu:1"):
        t = tf.constant([1.0])
    o = tf.experimental.Optional.from_value(t)
    out["from value"] = d(o.get_value())
    with tf.device("/cpu:1"):
        out["from value, read under cpu1"] = d(o.get_value())
        o2 = tf.experimental.Optional.from_value(tf.constant(2.0))
    out["made under cpu1"] = d(o2.get_value())
    it = iter(tf.data.Dataset.range(3))
    with tf.device("/cpu:1"):
        out["iterator under cpu1"] = [d(next(it)), d(it.get_next_as_optional().get_value())]
    dist = iter(s.experimental_distribute_dataset(tf.data.Dataset.range(8).batch(4)))
    out["distributed optional"] = [d(c) for c in s.experimental_local_results(dist.get_next_as_optional().get_value())]
    with tf.device("/cpu:1"):
        out["distributed optional under cpu1"] = [
            d(c) for c in s.experimental_local_results(dist.get_next_as_optional().get_value())]
    return out


_program("devices-functions", _functions)
_program("devices-variables", _variables)
_program("devices-one-device", _one_device)
_program("devices-mirrored", _mirrored)
_program("devices-means-in-functions", _means_in_functions)
_program("devices-optionals", _optionals)
_program("devices-means-at-edges", _means_at_edges)


@pytest.mark.clause("function.output-device")
@pytest.mark.parametrize("name", _ids("devices-"))
def test_devices56(backend: Any, name: str) -> None:
    """The devices (and, for the means, the bits) of function outputs, variable reads, strategy reductions and
    Optional values as TF 2.21's."""
    _check(backend, name)


if __name__ == "__main__":
    import sys
    if "--record" in sys.argv:
        REF.record()
