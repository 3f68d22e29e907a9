"""tf.function calls with Python objects among their arguments (fifty-sixth session), each observation compared with
TF 2.21's recorded one (clause function.object-arguments).

TF 2.21 keys an instance of the program's own class by identity (its TraceType a weak reference): a call with the same
object runs the trace made for it (the Python does not run again, an attribute changed since is not seen, a variable
it holds is read anew), another object traces anew. Whatever the arguments, the traced graph is what runs, so
Grappler's rewrites apply (a division by a constant is a product by its reciprocal), on every call (also one pulling from an iterator). Expected results are TF 2.21's
(`python -m simdist.conformance.suite.test_object_arguments56 --record` rewrites object_arguments56_reference.json.gz),
recorded on an Intel Xeon with AVX-512 and oneDNN on (no program here follows the CPU's kernels: a few elementwise
float32 operations and a sum of three)."""

from __future__ import annotations

import os
from typing import Any, Callable

import pytest

from simdist.conformance.suite.recorded_programs import RecordedPrograms, avx512_with_onednn, bits, reference_cpu

PATH = os.path.join(os.path.dirname(__file__), "object_arguments56_reference.json.gz")

REF = RecordedPrograms(PATH, (), recording_host=avx512_with_onednn, recording_cpu=reference_cpu)
_program, _ids, _check = REF.add, REF.ids, REF.check


class _Config:
    """A program's own class: hyperparameters and a variable."""

    def __init__(self, tf: Any, scale: float, name: str) -> None:
        self.scale = scale
        self.offset = tf.Variable(1.5, name=name)


def _config_object(tf: Any, mk: Callable[[], Any]) -> Any:
    runs: list[int] = []

    @tf.function
    def use(cfg: Any, x: Any) -> Any:
        runs.append(1)
        return x * cfg.scale / 7.0 + cfg.offset

    x = tf.constant([1.0, 2.0, 3.0])
    a, b = _Config(tf, 2.0, "objargs56_a"), _Config(tf, 3.0, "objargs56_b")
    out: dict[str, Any] = {"first": bits(use(a, x)), "again": bits(use(a, x + 1.0))}
    a.scale = 9.0            # (not seen: the trace made for `a` runs)
    a.offset.assign(2.5)     # (seen: the trace reads the variable)
    out["after changes"] = bits(use(a, x))
    out["another object"] = bits(use(b, x))
    out["runs"] = len(runs)
    out["traces"] = use.experimental_get_tracing_count()
    return out


def _rewrites(tf: Any, mk: Callable[[], Any]) -> Any:
    class Holder:
        pass

    h = Holder()
    x = tf.constant([1.5, -2.25, 0.1])

    @tf.function
    def divided(y: Any, o: Any) -> Any:
        return tf.reduce_sum(y) / 3.0

    @tf.function
    def divided_default(y: Any, o: Any = h) -> Any:
        return y / 7.0

    @tf.function
    def power(y: Any, o: Any) -> Any:
        return tf.pow(y, 3.0)

    return {"sum over 3": bits(divided(x, h)), "over 7, default object": bits(divided_default(x)),
            "cube": bits(power(x, h))}


def _strategy_argument(tf: Any, mk: Callable[[], Any]) -> Any:
    s = mk()
    o = tf.distribute.OneDeviceStrategy("/cpu:0")
    x = tf.constant([[1.5, -2.25, 0.1]])

    @tf.function
    def mean(st: Any, y: Any) -> Any:
        return st.reduce("MEAN", y, axis=1)

    return {"one device": bits(mean(o, x)), "mirrored": bits(mean(s, x))}


def _iterators(tf: Any, mk: Callable[[], Any]) -> Any:
    """A function pulling from an iterator (captured, or an argument) runs its traced graph on every call: each call's
    `sum / 3.0` is the product by 1/3."""
    import numpy as np
    x = np.array([[1.5, -2.25, 0.1]] * 4, np.float32) * np.arange(1, 5, dtype=np.float32)[:, None]
    it = iter(tf.data.Dataset.from_tensor_slices(x))

    @tf.function
    def captured() -> Any:
        return tf.reduce_sum(next(it)) / 3.0

    it2 = iter(tf.data.Dataset.from_tensor_slices(x))

    @tf.function
    def argument(i: Any) -> Any:
        return tf.reduce_sum(next(i)) / 3.0

    return {"captured": [bits(captured()) for _ in range(4)], "argument": [bits(argument(it2)) for _ in range(4)]}


_program("objects-config", _config_object)
_program("objects-iterators", _iterators)
_program("objects-rewrites", _rewrites)
_program("objects-strategy", _strategy_argument)


@pytest.mark.clause("function.object-arguments")
@pytest.mark.parametrize("name", _ids("objects-"))
def test_object_arguments56(backend: Any, name: str) -> None:
    """A tf.function called with Python objects among its arguments: values (bits), Python runs and traces as TF
    2.21's."""
    _check(backend, name)


if __name__ == "__main__":
    import sys
    if "--record" in sys.argv:
        REF.record()
