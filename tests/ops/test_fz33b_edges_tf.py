"""Rules behind the classes of issue 29's fresh campaigns that fz33b ran (fourteenth generator seeds
1420333001 and 1420333002, fourth generator seed 3301, second 3304, third 3302 --ext8), each
against real TensorFlow 2.21: the same call on both backends gives the same dtype and values (bit
for bit: -0.0 differs from 0.0, a kept subnormal from a flushed one), or raises the same exception
class. Eagerly, in a tf.function (`traced`, a one-expression body), with an input_signature
(`sig`: get_concrete_function, then a call), and of a variable made outside. Needs the `tf` extra.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import edge_compare
from edge_programs import eager as _eager, traced as _traced, var_traced as _var_traced
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause

_M = "ops.nn-morphology"
_T = "function.trace-time-errors"
_A = "ops.argument-errors"
_C = "ops.conversion"
_G = "function.grappler-rewrites"
_H = "ops.math-composites"
_R = "ops.random-gamma-poisson"
_AT = "ops.attr-types"


def _var_eager(expr: str, var: str) -> Callable[[Any], Any]:
    """`expr` of a variable `v` (made by `var`) eagerly."""
    def run(tf: Any) -> Any:
        tf.constant(1.0) + 1.0
        v = eval(var, {"tf": tf, "np": np})  # noqa: S307 - our own text
        return eval(expr, {"tf": tf, "np": np, "v": v})  # noqa: S307 - our own text
    return run


def _sig(expr: str, spec: list[int | None], dtype: str, arg: str) -> Callable[[Any], Any]:
    """`lambda x: expr` with a one-spec input_signature: get_concrete_function, then a call with `arg`."""
    def run(tf: Any) -> Any:
        fn = eval(f"lambda x: {expr}", {"tf": tf, "np": np})  # noqa: S307 - our own text
        g = tf.function(fn, input_signature=[tf.TensorSpec(spec, getattr(tf, dtype))], autograph=False)
        g.get_concrete_function()
        return g(eval(arg, {"tf": tf, "np": np}))  # noqa: S307 - our own text
    return run


_X4 = "tf.ones([1, 4, 4, 1])"
_F3 = "tf.ones([2, 2, 1])"
_XI = "tf.ones([1, 4, 4, 1], tf.int32)"
_SUBS = "np.array([5e-324, 1e-310, -0.0, 1.0, 1e-40, -2.5], np.float64)"
_CSUBS = "np.array([5e-324 + 1e-310j, 1e-40 + 0j, -0.0 - 0.0j, 1 + 2j, 1e-310 - 3j, -2.5 + 1e-320j], np.complex128)"


def _dil(strides: str, rates: str, x: str = _X4, f: str = _F3) -> str:
    return f"tf.nn.dilation2d({x}, {f}, {strides}, 'VALID', 'NHWC', {rates})"


CASES: list[tuple[str, str, Any]] = [
    # -- tf.nn.dilation2d is gen_nn_ops.dilation2d (fourteenth generator seed 1420333001 #2)
    ("dilation2d(int32, bool ndarray filter, strides [3]) traced", _M, _traced(
        "tf.nn.dilation2d(tf.constant([[3, 0, 3], [0, 3, 0], [5, -4, -1]], 'int32'), np.array([[True, False, False], "
        "[True, True, False], [True, True, False]]), strides=[3], padding='VALID', data_format='NHWC', "
        "dilations=[3, 3])")),
    ("dilation2d strides [1] eagerly", _M, _eager(_dil("[1]", "[1, 1, 1, 1]"))),
    ("dilation2d strides [1] traced", _M, _traced(_dil("[1]", "[1, 1, 1, 1]"))),
    ("dilation2d strides of 5 eagerly", _M, _eager(_dil("[1, 1, 1, 1, 1]", "[1, 1, 1, 1]"))),
    ("dilation2d strides of 5 traced", _M, _traced(_dil("[1, 1, 1, 1, 1]", "[1, 1, 1, 1]"))),
    ("dilation2d rates [1, 1] traced", _M, _traced(_dil("[1, 1, 1, 1]", "[1, 1]"))),
    ("dilation2d rates of 5 eagerly", _M, _eager(_dil("[1, 1, 1, 1]", "[1, 1, 1, 1, 1]"))),
    ("dilation2d rates of 5 traced", _M, _traced(_dil("[1, 1, 1, 1]", "[1, 1, 1, 1, 1]"))),
    ("dilation2d strides [2, 1, 1, 1], rates [1] traced", _M, _traced(_dil("[2, 1, 1, 1]", "[1]"))),
    ("dilation2d strides of 5, rates [2, 1, 1, 1] eagerly", _M, _eager(_dil("[1, 1, 1, 1, 1]", "[2, 1, 1, 1]"))),
    ("dilation2d strides [2, 1, 1, 1], rates of 5 eagerly", _M, _eager(_dil("[2, 1, 1, 1]", "[1, 1, 1, 1, 1]"))),
    ("dilation2d(int32, bool ndarray filter) eagerly", _M, _eager(
        _dil("[1, 1, 1, 1]", "[1, 1, 1, 1]", _XI, "np.ones([2, 2, 1], np.bool_)"))),
    ("dilation2d(int32, bool ndarray filter) traced", _M, _traced(
        _dil("[1, 1, 1, 1]", "[1, 1, 1, 1]", _XI, "np.ones([2, 2, 1], np.bool_)"))),
    ("dilation2d(int32, float32 1.5 ndarray filter) eagerly", _M, _eager(
        _dil("[1, 1, 1, 1]", "[1, 1, 1, 1]", _XI, "np.full([2, 2, 1], 1.5, np.float32)"))),
    ("dilation2d(float32, float64 1.5 ndarray filter) traced", _M, _traced(
        _dil("[1, 1, 1, 1]", "[1, 1, 1, 1]", _X4, "np.full([2, 2, 1], 1.5)"))),
    ("dilation2d(int32, bool tensor filter) traced", _M, _traced(
        _dil("[1, 1, 1, 1]", "[1, 1, 1, 1]", _XI, "tf.ones([2, 2, 1], tf.bool)"))),
    ("dilation2d strides TensorShape eagerly", _M, _eager(_dil("tf.TensorShape([1, 1, 1, 1])", "[1, 1, 1, 1]"))),
    ("dilation2d list input, strides TensorShape eagerly", _M, _eager(
        _dil("tf.TensorShape([1, 1, 1, 1])", "[1, 1, 1, 1]", "np.ones([1, 4, 4, 1]).tolist()"))),
    ("erosion2d(int32, bool ndarray filter) eagerly", _M, _eager(
        "tf.nn.erosion2d(tf.ones([1, 4, 4, 1], tf.int32), np.ones([2, 2, 1], np.bool_), [1, 1, 1, 1], 'VALID', "
        "'NHWC', [1, 1, 1, 1])")),
    ("raw MaxPool(ksize=TensorShape) eagerly", _M, _eager(
        f"tf.raw_ops.MaxPool(input={_X4}, ksize=tf.TensorShape([1, 2, 2, 1]), strides=[1, 1, 1, 1], padding='VALID')")),
    ("raw MaxPool(ksize=range(1, 2)) eagerly", _M, _eager(
        f"tf.raw_ops.MaxPool(input={_X4}, ksize=range(1, 2), strides=[1, 1, 1, 1], padding='VALID')")),
    # -- op_def_library's input types before the shape function (1420333001 #73, #237)
    ("conv2d(int64 [1, 2] ndarray, strides TensorShape) traced", _T, _traced(
        "tf.nn.conv2d(input=np.array([[-4, 1]], np.int64), filters=[[-9223372036854775808, 0]], "
        "strides=tf.TensorShape([1, 2]), padding='VALID')")),
    ("conv2d(int64 [1, 2] ndarray) traced", _T, _traced(
        "tf.nn.conv2d(np.array([[-4, 1]], np.int64), [[-92, 0]], strides=[1, 2], padding='VALID')")),
    ("conv2d(float32 [1, 2]) traced", _T, _traced(
        "tf.nn.conv2d(np.array([[-4.0, 1.0]], np.float32), [[-92.0, 0.0]], strides=[1, 2], padding='VALID')")),
    ("conv2d(int64 of a [1, 2] spec) sig", _T, _sig("tf.nn.conv2d(x, [[3, 0]], strides=[1, 2], padding='VALID')",
                                                   [1, 2], "int64", "tf.constant([[1, 2]], tf.int64)")),
    ("depthwise_conv2d_backprop_input(bool filter of a [None, 1] spec) sig", _T, _sig(
        "tf.nn.depthwise_conv2d_backprop_input([[False], [False], [False], [False]], np.array([[True], [True], "
        "[True], [True]]), x, (4, 1), 'VALID', data_format='NHWC', dilations=[])", [None, 1], "bool",
        "tf.constant([[False], [False], [False], [False]])")),
    ("depthwise_conv2d_backprop_input(float64 filter, float32 out_backprop) traced", _T, _traced(
        "tf.nn.depthwise_conv2d_backprop_input([4, 1], np.ones([4, 1]), tf.zeros([4, 1]), [1, 1, 1, 1], 'VALID')")),
    ("depthwise_conv2d_backprop_input(bool filter [4, 1]) eagerly", _T, _eager(
        "tf.nn.depthwise_conv2d_backprop_input([4, 1], np.ones([4, 1], np.bool_), tf.zeros([4, 1], tf.bool), "
        "[1, 1, 1, 1], 'VALID')")),
    # -- ResourceGather of a scalar variable (fourth generator seed 3301 #105)
    ("gather(scalar int64 variable, 1) traced", _T, _var_traced("tf.gather(v, tf.constant(1))",
                                                              "tf.Variable(tf.constant(2, tf.int64))")),
    ("gather(scalar int64 variable, 1) eagerly", _T, _var_eager("tf.gather(v, tf.constant(1))",
                                                              "tf.Variable(tf.constant(2, tf.int64))")),
    ("gather(scalar variable, 0, axis=0) traced", _T, _var_traced("tf.gather(v, 0, axis=0)", "tf.Variable(2.5)")),
    ("gather(scalar variable, float index) eagerly", _T, _var_eager("tf.gather(v, tf.constant(0.5))",
                                                                  "tf.Variable(2.5)")),
    ("gather(scalar constant, 1) traced", _T, _traced("tf.gather(tf.constant(2, tf.int64), tf.constant(1))")),
    ("gather([3] variable, [[2, 0]]) eagerly", _T, _var_eager("tf.gather(v, [[2, 0]])", "tf.Variable([1.0, 2.0, 3.0])")),
    # -- ValidateUpdateShape of a rank-1 indices (1420333001 #148)
    *[(f"{op}(int64 {t}, [0], updates {u}) eagerly", _A, _eager(
        f"tf.{op}(tf.reshape(tf.range(np.prod({t}), dtype=tf.int64), {t}), [0], -tf.ones({u}, tf.int64))"))
      for op in ("tensor_scatter_nd_min", "tensor_scatter_nd_update", "tensor_scatter_nd_add")
      for t, u in (("[4, 1, 3]", "[1, 3]"), ("[4, 1, 3]", "[1, 1, 3]"), ("[4, 2]", "[2]"), ("[4, 3]", "[1, 4]"))],
    ("tensor_scatter_nd_min(int64 [4, 1, 3], [0], float32 ndarray [1, 3]) traced", _A, _traced(
        "tf.tensor_scatter_nd_min(tf.zeros([4, 1, 3], tf.int64), [0], np.array([[-1.0, -1.5, -float('inf')]], "
        "np.float32))")),
    ("tensor_scatter_nd_min(int64 [4, 1, 3], [[0]], [1, 1, 3]) eagerly", _A, _eager(
        "tf.tensor_scatter_nd_min(tf.zeros([4, 1, 3], tf.int64), [[0]], -tf.ones([1, 1, 3], tf.int64))")),
    *[(f"scatter_nd([0], updates {u}, {t}) eagerly", _A, _eager(f"tf.scatter_nd([0], -tf.ones({u}), {t})"))
      for t, u in (("[4, 1, 3]", "[1, 3]"), ("[4, 1, 3]", "[1, 1, 3]"), ("[4]", "[2]"), ("[4, 2]", "[1, 2]"))],
    # -- a Python int before a uint64 variable (second generator seed 3304 #186); each int used once, no two of
    # equal hash (TF's scalar cache keeps a conversion's tensor for the process, and comparing a key with the
    # OverflowError pending aborts it: -1 and -2 share CPython's hash)
    ("right_shift(-1, uint64 variable) eagerly", _C, _var_eager(
        "tf.bitwise.right_shift(-1, v)", "tf.Variable(tf.constant([[9]], tf.uint64))")),
    ("maximum(-2**40, uint64 variable) eagerly", _C, _var_eager(
        "tf.maximum(-2 ** 40, v)", "tf.Variable(tf.constant([9], tf.uint64))")),
    ("maximum(2**70, uint64 variable) eagerly", _C, _var_eager(
        "tf.maximum(2 ** 70, v)", "tf.Variable(tf.constant([9], tf.uint64))")),
    ("floordiv(-5, uint64 variable) eagerly", _C, _var_eager(
        "tf.math.floordiv(-5, v)", "tf.Variable(tf.constant([9], tf.uint64))")),
    ("bitwise_or(-6, uint64 variable) eagerly", _C, _var_eager(
        "tf.bitwise.bitwise_or(-6, v)", "tf.Variable(tf.constant([9], tf.uint64))")),
    ("left_shift(-7, uint64 variable) eagerly", _C, _var_eager(
        "tf.bitwise.left_shift(-7, v)", "tf.Variable(tf.constant([[1]], tf.uint64))")),
    ("maximum(uint64 variable, -13) eagerly", _C, _var_eager(
        "tf.maximum(v, -13)", "tf.Variable(tf.constant([9], tf.uint64))")),
    ("maximum(-17, uint64 tensor) eagerly", _C, _eager("tf.maximum(-17, tf.constant([9], tf.uint64))")),
    ("maximum(-1.5, uint64 variable) eagerly", _C, _var_eager(
        "tf.maximum(-1.5, v)", "tf.Variable(tf.constant([9], tf.uint64))")),
    ("maximum(-3, uint8 variable) eagerly", _C, _var_eager(
        "tf.maximum(-3, v)", "tf.Variable(tf.constant([9], tf.uint8))")),
    ("math.add(-19, uint64 variable) eagerly", _C, _var_eager(
        "tf.math.add(-19, v)", "tf.Variable(tf.constant([9], tf.uint64))")),
    ("where([True], -5, uint64 variable) eagerly", _C, _var_eager(
        "tf.where([True], -23, v)", "tf.Variable(tf.constant([9], tf.uint64))")),
    # -- SimplifyArithmeticOperations of complex numbers and ones (third generator seed 3302 #279)
    ("complex128 x - 0j of a [4, 3] spec", _G, _sig(
        "tf.math.subtract(x=x, y=tf.constant(np.array(0j, np.complex128)))", [4, 3], "complex128",
        f"tf.constant(np.resize({_CSUBS}, [4, 3]))")),
    *[(f"{dt} {name} of a [6] spec", _G, _sig(body.replace("DT", f"tf.{dt}"), [6], dt,
                                               f"tf.constant({_CSUBS if dt.startswith('c') else _SUBS}, tf.{dt})"))
      for dt in ("complex128", "complex64", "float64", "float32")
      for name, body in (("x - 0", "x - tf.constant(0, DT)"), ("x + 0", "x + tf.constant(0, DT)"),
                         ("0 + x", "tf.constant(0, DT) + x"), ("0 - x", "tf.constant(0, DT) - x"),
                         ("x * 1", "x * tf.constant(1, DT)"), ("1 * x", "tf.ones([6], DT) * x"),
                         ("x / 1", "x / tf.ones([6], DT)"), ("x - zeros_like(x)", "x - tf.zeros_like(x)"),
                         ("x - (-0)", "x - tf.constant(-0.0, DT)"), ("x * 0", "x * tf.zeros([6], DT)"),
                         ("x * ones([2, 6])", "x * tf.ones([2, 6], DT)"), ("x - zeros([2, 6])", "x - tf.zeros([2, 6], DT)"),
                         ("[6, 1] - zeros([1, 3])", "tf.reshape(x, [6, 1]) - tf.zeros([1, 3], DT)"),
                         ("[6, 1] + zeros([1, 3])", "tf.reshape(x, [6, 1]) + tf.zeros([1, 3], DT)"),
                         ("[6, 1] * ones([1, 3])", "tf.reshape(x, [6, 1]) * tf.ones([1, 3], DT)"))
      # (float32's [6, 1] * ones([1, 3]) keeps its subnormals in TF 2.21's graph, float64's, bfloat16's and the
      # complex ones' do not: another rewrite, not analysed; left open, docs/spec.md function.grappler-rewrites)
      if not (dt == "float32" and name == "[6, 1] * ones([1, 3])")],
    ("complex128 x - 1e-320 of a [6] spec", _G, _sig("x - tf.constant(1e-320, tf.complex128)", [6], "complex128",
                                                     f"tf.constant({_CSUBS})")),
    ("float64 x - 1e-320 of a [6] spec", _G, _sig("x - tf.constant(1e-320, tf.float64)", [6], "float64",
                                                  f"tf.constant({_SUBS})")),
    ("float64 x / 1 eagerly", _G, _eager(f"tf.constant({_SUBS}) / 1.0")),
    # -- np.finfo of bfloat16 in random_gamma's wrapper (fourteenth generator seed 1420333002 #256)
    ("random.gamma(alpha=0, bfloat16) eagerly", _R, _eager("tf.random.gamma(shape=[1, 4], alpha=0, dtype=tf.bfloat16)")),
    ("random.gamma(alpha=0.5, beta=1, bfloat16) traced", _R, _traced(
        "tf.random.gamma(shape=[1, 4], alpha=0.5, beta=1, dtype=tf.bfloat16)")),
    ("random.gamma(int32) eagerly", _R, _eager("tf.random.gamma([2], 1, dtype=tf.int32)")),
    ("random.stateless_gamma(bfloat16) eagerly", _R, _eager(
        "tf.random.stateless_gamma([2], [1, 2], 1.0, dtype=tf.bfloat16)")),
    # -- DenseBincount's bool attr before its size (fourteenth generator seed 1420333002 #266)
    ("bincount(-2**63, maxlength=2, bfloat16, binary_output=np.bool_(True))", _AT, _eager(
        "tf.math.bincount(-(2 ** 63), maxlength=2, dtype=tf.bfloat16, binary_output=np.bool_(True))")),
    ("bincount([-3], binary_output=np.bool_(False))", _AT, _eager("tf.math.bincount([-3], binary_output=np.bool_(False))")),
    ("bincount([-3], binary_output=np.bool_(False)) traced", _AT, _traced(
        "tf.math.bincount([-3], binary_output=np.bool_(False))")),
    ("bincount(constant [-3], binary_output=np.bool_(True)) traced", _AT, _traced(
        "tf.math.bincount(tf.constant([-3]), binary_output=np.bool_(True))")),
    ("bincount([3], binary_output=1)", _AT, _eager("tf.math.bincount([3], binary_output=1)")),
    ("bincount([-2**63], maxlength=2, bfloat16)", _AT, _eager("tf.math.bincount([-(2 ** 63)], maxlength=2, dtype=tf.bfloat16)")),
    # -- HistogramFixedWidth's one bin (third generator seed 3302 #78)
    ("histogram_fixed_width(float64 variable [-inf, nan], nbins=1)", _H, _var_eager(
        "tf.histogram_fixed_width(values=v, value_range=[0.0, 5.0], nbins=1, dtype=tf.int32, name='a/b')",
        "tf.Variable(tf.constant([-float('inf'), float('nan')], tf.float64))")),
    ("histogram_fixed_width([nan], nbins=1)", _H, _eager(
        "tf.histogram_fixed_width(tf.constant([float('nan')]), [0.0, 5.0], nbins=1)")),
    ("histogram_fixed_width([nan], nbins=2)", _H, _eager(
        "tf.histogram_fixed_width(tf.constant([float('nan')]), [0.0, 5.0], nbins=2)")),
    ("histogram_fixed_width([nan, 1, +-1e300], nbins=1) int64", _H, _eager(
        "tf.histogram_fixed_width(tf.constant([float('nan'), 1.0, -1e300, 1e300], tf.float64), [0.0, 5.0], nbins=1, "
        "dtype=tf.int64)")),
    ("histogram_fixed_width([nan], [5, 0], nbins=1)", _H, _eager(
        "tf.histogram_fixed_width(tf.constant([float('nan')]), [5.0, 0.0], nbins=1)")),
    ("histogram_fixed_width([nan], nbins=1) traced", _H, _traced(
        "tf.histogram_fixed_width(tf.constant([float('nan')]), [0.0, 5.0], nbins=1)")),
    ("histogram_fixed_width([], nbins=1)", _H, _eager(
        "tf.histogram_fixed_width(tf.constant([], tf.float32), [0.0, 5.0], nbins=1)")),
]

EDGES = edge_compare.EdgeModule(__file__, CASES, agree=lambda case: edge_compare.parts_agree)   # (complex: part by part)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("ops.nn-morphology")
@EDGES.parametrize("ops.nn-morphology")
def test_dilation2d_as_its_raw_op(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("function.trace-time-errors")
@EDGES.parametrize("function.trace-time-errors")
def test_trace_time_errors(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.argument-errors")
@EDGES.parametrize("ops.argument-errors")
def test_scatter_update_shapes(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.conversion")
@EDGES.parametrize("ops.conversion")
def test_uint64_int_before_a_variable(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("function.grappler-rewrites")
@EDGES.parametrize("function.grappler-rewrites")
def test_arithmetic_simplifications(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.math-composites")
@EDGES.parametrize("ops.math-composites")
def test_histogram_one_bin(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.random-gamma-poisson")
@EDGES.parametrize("ops.random-gamma-poisson")
def test_gamma_finfo_of_bfloat16(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.attr-types")
@EDGES.parametrize("ops.attr-types")
def test_bincount_bool_attr_first(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


def test_every_case_has_a_test() -> None:
    untested = EDGES.untested()
    assert not untested, f"cases of groups {untested} have no test function above"


if __name__ == "__main__":  # TF worker: python test_fz33b_edges_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
