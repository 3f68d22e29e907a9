"""Rules fresh campaigns of the other fuzz generators found (issue 29's fresh16: fz4 seed 61, fz3 seeds
81 and 91), each against real TensorFlow 2.21: the same call on both backends gives the same dtype and
bits, or raises the same exception class. Eagerly, in a tf.function (`traced`) and in a tf.function with
an input_signature (`sig`: get_concrete_function traces on placeholders, then the function is called on
a value). Needs the `tf` extra (or this module's golden).
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import edge_compare
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause


def _eager(expr: str) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        return eval(expr, {"tf": tf, "np": np})  # noqa: S307 - our own text
    return run


def _traced(expr: str) -> Callable[[Any], Any]:
    """The expression inside a tf.function, called once (its trace runs the shape functions)."""
    def run(tf: Any) -> Any:
        return tf.function(lambda: eval(expr, {"tf": tf, "np": np}))()  # noqa: S307 - our own text
    return run


def _sig(body: str, spec: list[int | None] | None, dtype: str, value: str | None) -> Callable[[Any], Any]:
    """`lambda x: body` as a tf.function with input_signature [TensorSpec(spec, dtype)]: its
    get_concrete_function, then (with `value`) its call on that value, whose result is returned."""
    def run(tf: Any) -> Any:
        fn = tf.function(eval(f"lambda x: {body}", {"tf": tf, "np": np}),  # noqa: S307 - our own text
                         input_signature=[tf.TensorSpec(spec, getattr(tf, dtype))])
        fn.get_concrete_function()
        if value is None:
            return tf.constant([1])
        return fn(tf.constant(eval(value, {"np": np}), getattr(tf, dtype)))  # noqa: S307 - our own text
    return run


CASES: list[tuple] = []

# -- reductions: op_def_library checks the input's dtype (TypeError traced) before Mean/Sum/Max/Min's shape
# function looks at the axes, and eagerly the kernel's attr check comes first too (fz4 seed 61 #12:
# nn.moments of a bool scalar over [0, 1] in sig mode)
CASES += [(f"{fn}({x}, {axis}) {how}", "reduce.axes-dtype", (_traced if how == "traced" else _eager)(
    f"tf.{fn}({x}, {axis})"))
    for fn in ("reduce_mean", "reduce_sum", "reduce_max", "reduce_min", "math.reduce_prod")
    for x in ("np.array(True)", "tf.constant(['a', 'b'])", "tf.constant([True, False])")
    for axis in ("[0, 1]", "5", "0") for how in ("eager", "traced")]
CASES += [("nn.moments(bool scalar, [0, 1]) traced", "reduce.axes-dtype",
           _traced("tf.nn.moments(np.array(True, dtype=np.bool_), axes=[0, 1], keepdims=True)")),
          ("nn.moments(bool scalar, [0, 1]) sig", "reduce.axes-dtype",
           _sig("tf.nn.moments(np.array(True, dtype=np.bool_), axes=[0, 1], keepdims=True)[0] + x", [], "float32",
                "1.0"))]

# -- Transpose of a graph input of unknown rank (TransposeShapeFn): the default perm (from Rank(x)) gives an
# unknown rank; an explicit perm of n >= 2 entries gives rank n with unknown dimensions, and its values are
# checked against n at trace; a perm of fewer than 2 entries leaves the input's unknown shape (fz4 seed 61 #23:
# `x @ tf.transpose(x)` of an int64 vector; MatMul's rank check is then the kernel's, when the graph runs)
_V, _M, _C = "[1.0, 2.0, 3.0]", "np.ones([2, 3])", "np.ones([2, 3, 4])"
CASES += [(f"sig None: {body} on {value}", "function.trace-time-errors", _sig(body, None, "float32", value))
          for body in ("x @ tf.transpose(x)", "tf.transpose(x, [1, 0])", "tf.transpose(x, [0]) @ tf.ones([2, 3])",
                       "tf.transpose(x, [1, 0]) @ tf.ones([5, 5])", "tf.transpose(x) + tf.ones([4])",
                       "tf.transpose(x, [0, 2])", "tf.transpose(x, [0, -5])", "tf.transpose(x, [0, -2])",
                       "tf.transpose(x, [0, 0])", "tf.transpose(x, [-1, 0])", "tf.transpose(x, [2, 0, 1])",
                       "tf.transpose(x, [0]) + tf.ones([4])", "tf.transpose(x, [5])")
          for value in (_V, _M, _C)]
CASES += [("sig None int64: x @ tf.transpose(x) + [0, 1, -1]", "function.trace-time-errors",
           _sig("(x @ tf.transpose(x)) + tf.constant([0, 1, -1], dtype=tf.int64)", None, "int64", "[0, 7, 3]")),
          ("sig [None, 3]: tf.transpose(x, [0]) + 1", "function.trace-time-errors",
           _sig("tf.transpose(x, [0]) + 1.0", [None, 3], "float32", None)),
          ("sig [None, 3]: tf.transpose(x, [0, 2])", "function.trace-time-errors",
           _sig("tf.transpose(x, [0, 2])", [None, 3], "float32", None))]

# -- Squeeze, ExpandDims, Identity and StopGradient keep the unknown dimensions and rank of a graph input; a
# Squeeze without axes of an unknown dimension has an unknown rank (fz3 seed 81 #61: confusion_matrix of
# [None, None] labels beside a vector squeezes the labels' unknown last dimension)
_CM = "tf.math.confusion_matrix(x, [2, 1, 0], 5)"
_LABELS = ("[[-2147483647, -1, 3, -2147483647], [-2147483648, -1, 4, -2147483648], "
           "[-2147483648, 2147483647, -2147483647, 2]]")
CASES += [(f"sig {spec}: confusion_matrix on {value[:12]}", "function.trace-time-errors",
           _sig(_CM, spec, "int32", value))
          for spec in ([None, None], [3, None], None) for value in (_LABELS, "[[1], [0], [2]]")]
CASES += [(f"sig {spec}: {body} on {value}", "function.trace-time-errors", _sig(body, spec, "float32", value))
          for body in ("tf.squeeze(x) + tf.ones([5, 5, 5])", "tf.squeeze(x, 0) + tf.ones([4, 4])",
                       "tf.expand_dims(x, 0) + tf.ones([4, 1, 4])", "tf.expand_dims(x, -1) + tf.ones([4, 4, 4])",
                       "tf.identity(x) + tf.ones([4, 4])", "tf.stop_gradient(x) + tf.ones([4, 4])",
                       "tf.squeeze(x, [1]) + tf.ones([4, 4])")
          for spec in ([None, 3], [1, None], None) for value in ("np.ones([1, 3])", "np.ones([1, 1])")
          if not (spec == [None, 3] and value == "np.ones([1, 1])") and not (spec == [1, None] and value ==
                                                                           "np.ones([1, 3])")]

# -- subnormal inputs that TF's kernels return with their bits: glibc's scalar functions return a tiny x
# before any arithmetic, Eigen's generic expm1 selects x where exp(x) == 1 under DAZ, Elu selects x where
# x < 0 is false; per dtype and path (the scalar tail: the last n mod 8 float32/bfloat16, n mod 4 float64
# elements; packets the rest). fz3 seed 91 #23 (bfloat16 log1p); bitcast results are subnormals too.
_BITS = {"float32": ("uint32", 0x00011000), "float64": ("uint64", 0x0000126000000000), "bfloat16": ("uint16", 0x0011)}
_SIGN = {"uint32": 0x80000000, "uint64": 0x8000000000000000, "uint16": 0x8000}


def _subnormal_call(fn: str, dt: str, n: int) -> Callable[[Any], Any]:
    """fn of an n-element dt tensor cycling (s, -s, 0.5) for a subnormal s made by bitcast, returned as bits."""
    def run(tf: Any) -> Any:
        u, s = _BITS[dt]
        half = {"float32": 0x3F000000, "float64": 0x3FE0000000000000, "bfloat16": 0x3F00}[dt]
        bits = np.array([s, s | _SIGN[u], half] * 6, dtype=u)[:n]
        x = tf.bitcast(tf.constant(bits), getattr(tf, dt))
        f = getattr(tf.math, fn, None) or getattr(tf.nn, fn)
        return tf.bitcast(f(x), getattr(tf, u))
    return run


CASES += [(f"{fn} {dt} n={n}", "ops.subnormals", _subnormal_call(fn, dt, n))
          for fn in ("log1p", "expm1", "tan", "asin", "asinh", "atanh", "elu", "atan", "relu6", "sign", "sqrt",
                     "floor", "sin", "tanh", "abs")
          for dt in ("float32", "float64", "bfloat16") for n in (1, 3, 9, 11, 17)
          if not (fn == "asin" and dt == "float32" and n >= 8)]   # (Eigen's float32 asin packets: a last-bit value class)


def _bf16_xfunc(fn: str, mode: str) -> Callable[[Any], Any]:
    """bfloat16 xlogy/xlog1py of x = (s, -s, s, s, 0.5), y = (0, 0, 2, -1, 0) for a subnormal s, as bits."""
    def run(tf: Any) -> Any:
        xb = np.array([0x0011, 0x8011, 0x0011, 0x0011, 0x3F00], np.uint16)
        yb = np.array([0x0000, 0x0000, 0x4000, 0xBF80, 0x0000], np.uint16)
        f = getattr(tf.math, fn)

        def call() -> Any:
            return tf.bitcast(f(tf.bitcast(tf.constant(xb), tf.bfloat16), tf.bitcast(tf.constant(yb), tf.bfloat16)),
                              tf.uint16)
        return tf.function(call)() if mode == "traced" else call()
    return run


CASES += [(f"{fn} bfloat16 subnormal x {mode}", "ops.subnormals", _bf16_xfunc(fn, mode))
          for fn in ("xlogy", "xlog1py", "xdivy") for mode in ("eager", "traced")]

# -- float64 erfinv is ndtri((x + 1) / 2) * sqrt(1/2) in Eigen (fz3 seed 97 #114, #170): tiny x lose their bits in
# the halving (erfinv(1e-40) is 0); ndtri's last bit is Eigen's (within one ulp of SciPy's)
_ERFINV_X = ("[1e-40, 6e-08, -6e-08, 1e-10, 0.5, -0.999999, 0.9999999999, 0.0, -0.0, 1.0, -1.0, 5e-324, 1e-300, "
             "float('nan'), 2.0, -float('inf')]")
CASES += [(f"erfinv float64 {how}", "ops.special-more", (_traced if how == "traced" else _eager)(
    f"tf.math.erfinv(tf.constant({_ERFINV_X}, tf.float64))"), edge_compare.within(1e-15))
    for how in ("eager", "traced")]
CASES += [("erfinv float64 uniform", "ops.special-more", _eager(
    "tf.math.erfinv(tf.constant(np.random.default_rng(16).uniform(-1, 1, 500)))"), edge_compare.within(1e-15))]

# -- OneHot's indices: a non-tensor converts with TI's default int64 as the preferred dtype, so Python and NumPy
# bools are 0/1 while a bool tensor is refused (fz3 seed 97 #69: one_hot([False], 0, dtype=np.int16))
CASES += [(f"one_hot({ind}, {depth}) {how}", "ops.conversion", (_traced if how == "traced" else _eager)(
    f"tf.one_hot({ind}, {depth}, dtype=np.int16)"))
    for ind in ("[False]", "[False, True]", "np.array([True, False])", "True", "tf.constant([False, True])", "[1.5]",
                "[1, 0]") for depth in (0, 2) for how in ("eager", "traced")]

EDGES = edge_compare.EdgeModule(__file__, CASES,
                                agree=lambda case: case[3] if len(case) > 3 else edge_compare.bits_agree)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("function.trace-time-errors")
@EDGES.parametrize("reduce.axes-dtype")
def test_reduction_dtype_before_axes(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("function.trace-time-errors")
@EDGES.parametrize("function.trace-time-errors")
def test_unknown_shapes_through_transpose_and_squeeze(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.subnormals")
@EDGES.parametrize("ops.subnormals")
def test_subnormals_kept_by_tiny_x_paths(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.special-more")
@EDGES.parametrize("ops.special-more")
def test_erfinv_float64(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.conversion")
@EDGES.parametrize("ops.conversion")
def test_one_hot_indices_conversion(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


def test_every_case_has_a_test() -> None:
    untested = EDGES.untested()
    assert not untested, f"cases of groups {untested} have no test function above"


if __name__ == "__main__":  # TF worker: python test_fresh16_edges_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
