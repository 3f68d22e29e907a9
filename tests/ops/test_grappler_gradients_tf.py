"""Grappler's rewrites change a tf.function's values, never what its gradients are taken of (clause
function.grappler-rewrites): TF differentiates the graph as the Python built it and optimizes the result
afterwards. So inside a tf.function, a tape watching the ones of `ones * x` or the zeros of `zeros + x`
gets x or ones back (not None, as if the op had been forwarded), and a ForwardAccumulator, whose JVP
differentiates an op's gradient with respect to the ones it makes, gets the op's JVP on every call, the
first (the trace, where the rules fire) and the replays. Each case runs on TF 2.21 and on simdist; the
same dtype and values, or the same exception class. Also (`test_mul_by_ones_as_a_tile`) the arithmetic
optimizer's ReplaceMulWithBroadcastByTile: float32 `x * ones` whose ones broadcast x is Tile(x), which keeps x's
subnormals where the Mul kernel flushes them (not compared: `reshape(x) * tf.fill(shape, 1.0)`, whose Mul TF keeps
because Grappler sorts the inputs by node name and "Fill" comes before "Reshape"; simdist keeps no names). Needs the `tf` extra.
"""

from __future__ import annotations

from typing import Any, Callable

import pytest

import edge_compare
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause

_G = "function.grappler-rewrites"


def _watched(op: str, const: str, dtype: str) -> Callable[[Any], Any]:
    """d(`const` `op` x)/d const inside a tf.function, the constant watched by a tape, twice
    (the trace and a replay with other values)."""
    def run(tf: Any) -> Any:
        dt = getattr(tf, dtype)

        @tf.function(autograph=False)
        def f(x: Any) -> Any:
            c = getattr(tf, const)([3], dt)
            with tf.GradientTape() as tape:
                tape.watch(c)
                y = c * x if op == "*" else (c + x if op == "+" else c - x)
            return tape.gradient(y, c)
        return [f(tf.constant([1.5, -2.0, 0.25], dt)), f(tf.constant([3.0, 0.5, -1.0], dt))]
    return run


def _jvp(expr: str, dtype: str) -> Callable[[Any], Any]:
    """The JVP of `expr` (of x) inside a tf.function, tangent [1, 0.5, -2], three calls (a trace and two
    replays, the last with other values)."""
    def run(tf: Any) -> Any:
        dt = getattr(tf, dtype)

        @tf.function(autograph=False)
        def f(x: Any) -> Any:
            with tf.autodiff.ForwardAccumulator(x, tf.constant([1.0, 0.5, -2.0], dt)) as acc:
                y = eval(expr, {"tf": tf, "x": x, "dt": dt})  # noqa: S307 - our own text
            return acc.jvp(y)
        a = tf.constant([1.0, 2.0, -0.5], dt)
        return [f(a), f(a), f(tf.constant([3.0, -1.0, 0.75], dt))]
    return run


CASES = [
    *[(f"d({const} {op} x)/d {const}, {dt}", _G, _watched(op, const, dt))
      for dt in ("float32", "float64") for op, const in (("*", "ones"), ("+", "zeros"), ("-", "zeros"))],
    *[(f"jvp of {expr}, {dt}", _G, _jvp(expr, dt)) for dt in ("float32", "float64")
      for expr in ("tf.sin(x) * x", "tf.ones([3], dt) * x + tf.zeros([3], dt)", "x / tf.ones([3], dt)",
                   "tf.zeros([3], dt) - tf.exp(x) * tf.ones([3], dt)")],
]

_SUBS = "[5e-42, 1e-40, -0.0, 1.0, 1e-39, -2.5]"


def _tile(expr: str, dtype: str, spec: list) -> Callable[[Any], Any]:
    """`expr` of x (a [6] argument given by an input_signature of `spec`) inside a tf.function."""
    def run(tf: Any) -> Any:
        dt = getattr(tf, dtype)
        g = tf.function(lambda x: eval(expr, {"tf": tf, "x": x, "dt": dt}),  # noqa: S307 - our own text
                        input_signature=[tf.TensorSpec(spec, dt)], autograph=False)
        return g(tf.constant(eval(_SUBS), dt))  # noqa: S307 - our own text
    return run


_T = "function.grappler-rewrites/tile"
_TILES = {
    "[6, 1] * ones([1, 3])": "tf.reshape(x, [6, 1]) * tf.ones([1, 3], dt)",
    "ones([1, 3]) * [6, 1]": "tf.ones([1, 3], dt) * tf.reshape(x, [6, 1])",
    "[6, 1] * ones([2, 1, 3])": "tf.reshape(x, [6, 1]) * tf.ones([2, 1, 3], dt)",
    "[1, 6] * ones([4, 1])": "tf.reshape(x, [1, 6]) * tf.ones([4, 1], dt)",
    "[6, 1] * twos([1, 3])": "tf.reshape(x, [6, 1]) * tf.fill([1, 3], tf.constant(2.0, dt))",
    "[6, 1] * ones([1, 3]) * 3": "(tf.reshape(x, [6, 1]) * tf.ones([1, 3], dt)) * 3.0",
    "[6, 1, 1] * ones([1, 40, 30]) (a Fill node)": "tf.reshape(x, [6, 1, 1]) * tf.ones([1, 40, 30], dt)",
}
CASES += [(f"{dt} {name}, spec {spec}", _T, _tile(e, dt, spec)) for dt in ("float32", "float64", "bfloat16")
          for name, e in _TILES.items() for spec in ([6],) if dt != "bfloat16" or name == "[6, 1] * ones([1, 3])"]
CASES += [("float32 [6, 1] * ones([1, 3]), spec [None]", _T, _tile(_TILES["[6, 1] * ones([1, 3])"], "float32", [None]))]

EDGES = edge_compare.EdgeModule(__file__, CASES)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("function.grappler-rewrites")
@EDGES.parametrize("function.grappler-rewrites")
def test_rewrites_leave_gradients_alone(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("function.grappler-rewrites")
@EDGES.parametrize(_T)
def test_mul_by_ones_as_a_tile(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


def test_every_case_has_a_test() -> None:
    untested = EDGES.untested()
    assert not untested, f"cases of groups {untested} have no test function above"


if __name__ == "__main__":  # TF worker: python test_grappler_gradients_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
