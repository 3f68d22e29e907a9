"""Rules behind the disagreement classes fz52 closed (session 52: the fourteenth, twentieth, fourth, second and third
generators' new seeds, and the throwaway generators fz47b, fz50b, fz51b at seeds 52001-52003), each against real
TensorFlow 2.21: the same call on both backends gives the same dtype and values bit for bit, or raises the same
exception class, eagerly and in a tf.function. Needs the `tf` extra.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import edge_compare
from edge_programs import eager as _eager, traced as _traced
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause


def _both(calls: tuple[str, ...], group: str) -> list[tuple[str, str, object]]:
    out = []
    for call in calls:
        out.append((call, group, _eager(call)))
        out.append((f"{call} in a tf.function", group, _traced(call)))
    return out


# --- A reduction's Python float axis eagerly: the fast path converts every input (the axis with Tidx's int32:
# TypeError "Cannot convert 1.0 to EagerTensor of dtype int32") before the op's attr T, or Any/All's bool input, is
# checked (fourth generator seed 5201 #25: `tf.reduce_all(float16, axis=1.0)` under a tape).
_H = "tf.constant([[1.0, 0.0], [2.5, -1.0]], tf.float16)"
_S = "tf.constant([['a', 'b']])"
_B = "tf.constant([[True, False]])"


def _float_axis_cases() -> list[tuple[str, str, object]]:
    calls = (f"tf.reduce_all({_H}, axis=1.0)", f"tf.reduce_any({_H}, axis=1.0)", f"tf.reduce_all({_H}, axis=1)",
             f"tf.reduce_sum({_S}, axis=1.0)", f"tf.reduce_prod({_S}, axis=1.0)", f"tf.reduce_max({_B}, axis=1.0)",
             f"tf.reduce_mean({_B}, axis=1.0)", f"tf.reduce_sum({_S}, axis=[1.0])", f"tf.reduce_all({_B}, axis=1.0)",
             f"tf.reduce_sum({_H}, axis=1.0)", f"tf.math.reduce_euclidean_norm({_S}, axis=1.0)")
    return _both(calls, "ops.conversion")


# --- Einsum's list input in a replica (fz50b_gen seed 52002 #46): gen_linalg_ops.einsum with a MirroredVariable takes
# the eager fallback, which converts every operand to the first eager tensor's dtype: a variable of another dtype is
# ValueError "Incompatible type conversion requested to type float32 for `tf.Variable of type float16" (simdist: the
# Einsum dtype's InvalidArgumentError).
_STRATEGIES: dict[str, Any] = {}


def _strategy(tf: Any) -> Any:
    """MirroredStrategy on two logical CPUs: simdist's on a fresh simulation for each case, TF's made once per worker
    (tests/ops/test_fz32b_edges_tf.py's helper)."""
    simdist_tf = tf.__name__.startswith("simdist")
    if simdist_tf or tf.__name__ not in _STRATEGIES:
        if simdist_tf:
            import simdist
            simdist.reset()
        cpu = tf.config.list_physical_devices("CPU")[0]
        tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 2)
        _STRATEGIES[tf.__name__] = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
    return _STRATEGIES[tf.__name__]


def _in_replicas(expr: str, var: str) -> Callable[[Any], Any]:
    """`expr` of a variable `v` (made by `var` in the strategy's scope) in each replica, summed across them."""
    def run(tf: Any) -> Any:
        s = _strategy(tf)
        env = {"tf": tf, "np": np}
        with s.scope():
            v = eval(var, env)  # noqa: S307 - our own text
        per = s.run(lambda: tf.cast(eval(expr, {**env, "v": v}), tf.float32))  # noqa: S307 - our own text
        return s.reduce("SUM", per, axis=None)
    return run


def _einsum_cases() -> list[tuple[str, str, object]]:
    x = "tf.constant(np.ones((4, 2), np.float32))"
    out = []
    for var in ("tf.Variable(np.ones((2, 3), np.float16))", "tf.Variable(np.ones((2, 3), np.float32))",
                "tf.Variable(np.ones((2, 3), np.float64))"):
        for expr in (f"tf.einsum('...i,ij->...j', {x}, v)", f"tf.einsum('ij,ki->kj', v, {x})", "tf.einsum('ij->j', v)"):
            out.append((f"{expr} in replicas, v = {var}", "ops.conversion", _in_replicas(expr, var)))
    return out


# --- keras.ops.slice_update is XlaDynamicUpdateSlice on TF's backend, which registers no gradient: a tape reaching it
# is LookupError "gradient registry has no entry for: XlaDynamicUpdateSlice" (fz51b_gen seed 52001 #0).
def _slice_update_tape(source: str) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        a = tf.constant(np.array([1.125, 2.0, -0.5], np.float32))
        b = tf.constant(np.array([-1.5], np.float32))
        w = tf.constant([3.0])
        with tf.GradientTape() as tape:
            tape.watch([a, b, w])
            y = tf.reduce_sum(tf.keras.ops.slice_update(a, [1], b)) + tf.reduce_sum(w)
        return tape.gradient(y, {"a": a, "b": b, "w": w}[source])
    return run


def _slice_update_cases() -> list[tuple[str, str, object]]:
    out = [(f"slice_update under a tape, gradient of {s}", "ops.gradient-none-or-zeros", _slice_update_tape(s))
           for s in ("a", "b", "w")]
    return out + _both(("tf.keras.ops.slice_update(tf.constant([1.0, 2.0, 3.0]), [2], tf.constant([7.0]))",),
                       "ops.gradient-none-or-zeros")


CASES: list[tuple] = [   # (the replica cases first: TF's worker configures its logical CPUs before any op)
    *_einsum_cases(),
    *_float_axis_cases(),
    *_slice_update_cases(),
]


EDGES = edge_compare.EdgeModule(__file__, CASES, agree=lambda case: case[3] if len(case) > 3 else edge_compare.parts_agree)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, object]:
    return EDGES.tf_answers()


@clause("ops.conversion")
@EDGES.parametrize("ops.conversion")
def test_reduction_float_axis_converts_first(k: int, tf_results: dict[int, object]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.gradient-none-or-zeros")
@EDGES.parametrize("ops.gradient-none-or-zeros")
def test_xla_dynamic_update_slice_has_no_gradient(k: int, tf_results: dict[int, object]) -> None:
    EDGES.check(k, tf_results)


def test_every_case_has_a_test() -> None:
    untested = EDGES.untested()
    assert not untested, f"cases of groups {untested} have no test function above"


if __name__ == "__main__":  # TF worker: python test_fz52_edges_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
