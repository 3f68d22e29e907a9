"""The last disagreements of the second fuzzer's slow profile (issue 29, seed 20261130), each
against real TensorFlow 2.21: the same call on both backends gives the same dtype and values,
or raises the same exception class. Type-attr refusals checked before a kernel's axis checks
(eager InvalidArgumentError, traced op_def_library TypeError), Pad's paddings conversion and
shape function, a Python bool converted by a graph (every numeric dtype), the logical ops' eager
fallback, `tensor / numpy_value` handed to NumPy, GradientTape.gradient of non-tensors,
float64 Exp's packet lanes (Eigen's pexp_double) and Grappler's Pack-of-copies to Tile rewrite.
Needs the `tf` extra.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import edge_compare
import tf_workers
from edge_compare import traced

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause


def _eager(fn: Callable[..., Any], make: Callable[[Any], Any]) -> Callable[[Any], Any]:
    return lambda tf: fn(tf, make(tf))


def _c(values: Any, dt: str) -> Callable[[Any], Any]:
    return lambda tf: tf.constant(np.array(values), dtype=getattr(tf, dt))


def _both(name: str, cid: str, fn: Callable[..., Any], make: Callable[[Any], Any]) -> list[tuple[str, str, Any]]:
    return [(f"{name}-traced", cid, traced(fn, make)), (f"{name}-eager", cid, _eager(fn, make))]


TRACE = "function.trace-time-errors"
PACKETS = "ops.packet-paths"
GRAPPLER = "function.grappler-rewrites"
_EXP_INPUTS = np.concatenate([np.random.default_rng(20261129).uniform(-30.0, 30.0, 2000),
                              -np.square(np.random.default_rng(7).uniform(0.0, 3.0, 2001))])


def _gradient_of(tf: Any, target: Any, source: Any) -> Any:
    """tape.gradient(target, [source]) with a variable standing in for whichever is None; "divide":
    the target is `(v > 1.5) / np.float16(0.5)` (an ndarray on both backends)."""
    v = tf.Variable([1.0, 2.0])
    with tf.GradientTape() as tape:
        y = v * 2.0
        t = tf.math.divide(v > 1.5, np.float16(0.5)) if isinstance(target, str) and target == "divide" else target
    return tape.gradient(y if t is None else t, [v if source is None else source])


def _erfc_grad(tf: Any) -> Any:
    """fuzz2 seed 20261130 #473: d/dx0 erfc((x0 + False) / x0), exact zero but for exp's packet lanes."""
    x0 = tf.Variable(tf.constant(np.array([[[[4.0, -1.5, -3e38], [1.0, 1.5, 1.5]]]], np.float64)))
    with tf.GradientTape() as tape:
        y = tf.math.erfc(tf.math.add(x0, False) / x0)
    return tape.gradient(y, x0, unconnected_gradients=tf.UnconnectedGradients.ZERO)   # (erfc's own packets: not modelled)
CASES: list[tuple[str, str, Callable[[Any], Any]]] = [
    # -- attr T refused before the kernel checks the axis (#190, #336, #1382, #1427, #1450, #1476)
    *_both("squared-difference-int16", TRACE, lambda tf, x: tf.math.squared_difference(x, x), _c([[2], [3]], "int16")),
    *_both("squared-difference-uint8", TRACE, lambda tf, x: tf.math.squared_difference(x, x), _c([2, 3], "uint8")),
    *_both("reduce-any-int32-scalar-axis0", TRACE, lambda tf, x: tf.math.reduce_any(x, axis=0, keepdims=True),
           _c(0, "int32")),
    *_both("reduce-all-float-axis5", TRACE, lambda tf, x: tf.math.reduce_all(x, axis=5), _c([1.0], "float32")),
    *_both("cumulative-logsumexp-int32-scalar", TRACE, lambda tf, x: tf.math.cumulative_logsumexp(x, axis=0),
           _c(3, "int32")),
    *_both("cumulative-logsumexp-float-scalar", TRACE, lambda tf, x: tf.math.cumulative_logsumexp(x, axis=0),
           _c(3.0, "float32")),
    *_both("cumsum-bool-scalar", TRACE, lambda tf, x: tf.cumsum(x, axis=0), _c(False, "bool")),
    *_both("cumprod-bool-vector", TRACE, lambda tf, x: tf.math.cumprod(x, axis=0), _c([True, False], "bool")),
    *_both("cumsum-int32-scalar", TRACE, lambda tf, x: tf.cumsum(x, axis=0), _c(3, "int32")),
    # -- Pad's paddings: Tpaddings default int32, a matrix of 2 columns (#1729)
    *_both("pad-empty-list-scalar", TRACE, lambda tf, x: tf.pad(x, []), _c(3, "int64")),
    *_both("pad-empty-list-vector", TRACE, lambda tf, x: tf.pad(x, []), _c([3], "int64")),
    *_both("pad-rank1-paddings", TRACE, lambda tf, x: tf.pad(x, [1, 2]), _c([3.0], "float32")),
    *_both("pad-empty-row", TRACE, lambda tf, x: tf.pad(x, [[]]), _c(3.0, "float32")),
    *_both("pad-numpy-float-paddings", TRACE, lambda tf, x: tf.pad(x, np.array([[1.0, 1.0]])), _c([3.0], "float32")),
    *_both("pad-numpy-empty-float", TRACE, lambda tf, x: tf.pad(x, np.zeros((0,))), _c(3.0, "float32")),
    *_both("pad-list-float-paddings", TRACE, lambda tf, x: tf.pad(x, [[1.0, 1.0]]), _c([3.0], "float32")),
    *_both("pad-float-tensor-paddings", TRACE, lambda tf, x: tf.pad(x, tf.constant([[1.0, 1.0]])), _c([3.0], "float32")),
    *_both("pad-false-constant-false", TRACE, lambda tf, x: tf.pad(x, [], constant_values=False), _c(False, "bool")),
    *_both("pad-reflect-rank1", TRACE, lambda tf, x: tf.pad(x, [1, 1], mode="REFLECT"), _c([3.0, 4.0], "float32")),
    # -- a graph converts a Python bool to every numeric dtype (#1361)
    *[case for dt in ("int8", "uint8", "int16", "uint16", "uint32", "bfloat16")
      for case in _both(f"add-true-{dt}", "ops.conversion", lambda tf, x: tf.math.add(x, True), _c([5, 1], dt))],
    *_both("floormod-true-int16", "ops.conversion", lambda tf, x: tf.math.floormod(x, True), _c([[5], [-1]], "int16")),
    *_both("floormod-true-first-int16", "ops.conversion", lambda tf, x: tf.math.floormod(True, x), _c([5], "int16")),
    *_both("maximum-list-bools-int8", "ops.conversion", lambda tf, x: tf.maximum(x, [True, False]), _c([-5, 0], "int8")),
    *_both("operator-plus-true-uint16", "ops.conversion", lambda tf, x: x + True, _c([5], "uint16")),
    # -- logical ops' eager fallback converts x before a list y (#534, #668)
    *[(f"logical-{fn}-{dt}-{y!r}", "ops.conversion", lambda tf, fn=fn, dt=dt, y=y: getattr(tf, f"logical_{fn}")(
        _c([1.5, 0.0], dt)(tf), y)) for fn in ("and", "or") for dt in ("float32", "int32", "bool")
      for y in ([2.0], [True, False], (2,), 2.0)],
    ("logical-and-variable-list", "ops.conversion", lambda tf: tf.logical_and(tf.Variable([-np.inf]), [2.0])),
    ("logical-and-list-float", "ops.conversion", lambda tf: tf.logical_and([True], tf.constant([1.5]))),
    ("logical-and-list-variable-traced", "ops.conversion",
     traced(lambda tf, x: tf.logical_and(x, [2]), _c([-2, 5], "int32"))),
    # -- `tensor / o`: a refused pair goes to o's __rtruediv__ (#990)
    *[(f"divide-bool-by-{name}", "ops.conversion", lambda tf, y=y: tf.math.divide(_c([True, False], "bool")(tf), y))
      for name, y in (("np-float16", np.float16(0.5)), ("np-float32", np.float32(2)), ("np-int32", np.int32(2)),
                      ("np-array", np.array([0.5])), ("python-float", 0.5), ("list", [0.5]))],
    ("operator-bool-by-np-float16", "ops.conversion", lambda tf: _c([True, False], "bool")(tf) / np.float16(0.5)),
    ("divide-named-bool-by-np-float16", "ops.conversion",
     lambda tf: tf.math.divide(_c([True, False], "bool")(tf), np.float16(0.5), name="d")),
    ("divide-variable-compare-by-np-float16", "ops.conversion",
     lambda tf: tf.math.divide(tf.Variable([1.0, 2.0]) > 1.5, np.float16(0.5))),
    ("divide-bool-by-np-float16-traced", "ops.conversion",
     traced(lambda tf, x: tf.math.divide(x, np.float16(0.5)), _c([True, False], "bool"))),
    ("truediv-bool-by-np-float16", "ops.conversion", lambda tf: tf.math.truediv(_c([True], "bool")(tf), np.float16(0.5))),
    # -- GradientTape.gradient of a target or source that is not a tensor (#990's ndarray)
    *[(f"gradient-target-{name}", "autodiff.targets", lambda tf, tgt=tgt: _gradient_of(tf, tgt, None))
      for name, tgt in (("ndarray", np.array([1.0])), ("np-float16", np.float16(1.0)), ("python-int-3", 3),
                        ("python-float-1", 1.0), ("python-float-2.5", 2.5), ("true", True), ("false", False),
                        ("string", "s"), ("np-int32-3", np.int32(3)), ("nan", float("nan")))],
    *[(f"gradient-source-{name}", "autodiff.targets", lambda tf, src=src: _gradient_of(tf, None, src))
      for name, src in (("ndarray", np.array([1.0])), ("python-float", 1.0), ("string", "s"), ("int-3", 3))],
    ("gradient-target-divided-bool", "autodiff.targets", lambda tf: _gradient_of(tf, "divide", None)),
    # -- Grappler's ReplacePackWithTileReshape: a traced stack of copies is a Tile (no uint16 kernel)
    *[(f"stack-copies-{name}", GRAPPLER, traced(fn, make)) for name, fn, make in (
        ("uint16-rank1-axis0", lambda tf, x: tf.stack([x, x, x], axis=0), _c([1, 2], "uint16")),
        ("uint16-rank2-axis1", lambda tf, x: tf.stack([x, x], axis=1), _c([[1, 2], [3, 4]], "uint16")),
        ("uint16-rank2-axis2", lambda tf, x: tf.stack([x, x], axis=2), _c([[1, 2], [3, 4]], "uint16")),
        ("uint16-negative-axis", lambda tf, x: tf.stack([x, x], axis=-2), _c([[1, 2], [3, 4]], "uint16")),
        ("uint16-scalar", lambda tf, x: tf.stack([x, x]), _c(7, "uint16")),
        ("uint16-empty", lambda tf, x: tf.stack([x, x]), _c(np.zeros([0], np.uint16), "uint16")),
        ("uint16-one", lambda tf, x: tf.stack([x]), _c([1, 2], "uint16")),
        ("uint16-distinct", lambda tf, x: tf.stack([x, x + 1, x]), _c([1, 2], "uint16")),
        ("uint16-chain-refused", lambda tf, x: (lambda s: tf.stack([s, s]))(tf.stack([x, x], axis=1)),
         _c([1, 2], "uint16")),
        ("uint16-nested", lambda tf, x: tf.stack([tf.stack([x, x]), tf.stack([x, x])]), _c([1, 2], "uint16")),
        ("uint16-literal", lambda tf, x: tf.stack([tf.constant([1, 2], tf.uint16)] * 2), _c([1], "uint16")),
        ("int16", lambda tf, x: tf.stack([x, x, x]), _c([1, 2], "int16")),
        ("float32-values", lambda tf, x: tf.stack([x, x], axis=1), _c([[1.5, 2.5], [3.0, -0.0]], "float32")))],
    # -- float64 Exp: Eigen's pexp_double in packet lanes, std::exp in the tail (#473)
    *[(f"exp-float64-n{n}", PACKETS, lambda tf, n=n: tf.exp(tf.constant(_EXP_INPUTS[:n]))) for n in (1, 3, 4, 6, 9, 4001)],
    ("exp-float64-minus-one-6", PACKETS, lambda tf: tf.exp(tf.constant([-1.0] * 6, tf.float64))),
    ("exp-float64-beyond-708-in-packet", PACKETS,
     lambda tf: tf.exp(tf.constant([-1.0, -1.0, -1.0, -710.0, -1.0, -1.0, -1.0, -1.0], tf.float64))),
    ("exp-float64-nonfinite", PACKETS,
     lambda tf: tf.exp(tf.constant([-np.inf, np.inf, np.nan, -1.0, 0.5, 800.0, -800.0, -1.0], tf.float64))),
    ("exp-float64-subnormal-results", PACKETS,
     lambda tf: tf.exp(tf.constant([-708.5, -720.25, -740.0, -745.1, -745.6, -709.0, -1.0, 709.5], tf.float64))),
    ("exp-float64-2d", PACKETS, lambda tf: tf.exp(tf.reshape(tf.constant(_EXP_INPUTS[:30]), [5, 6]))),
    ("erfc-grad-float64", PACKETS, lambda tf: _erfc_grad(tf)),
]
EDGES = edge_compare.EdgeModule(__file__, CASES)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("function.trace-time-errors")
@EDGES.parametrize(TRACE)
def test_refusals_before_kernel_checks(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.packet-paths")
@EDGES.parametrize(PACKETS)
def test_float64_exp_packets(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("autodiff.targets")
@EDGES.parametrize("autodiff.targets")
def test_gradient_of_non_tensors(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("function.grappler-rewrites")
@EDGES.parametrize(GRAPPLER)
def test_stack_of_copies_is_a_tile(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.conversion")
@EDGES.parametrize("ops.conversion")
def test_graph_converts_python_bools(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


def test_every_case_has_a_test() -> None:
    untested = EDGES.untested()
    assert not untested, f"cases of clauses {untested} have no test function above"


if __name__ == "__main__":  # TF worker: python test_fuzz2_tail_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
