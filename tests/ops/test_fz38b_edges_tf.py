"""Rules behind the classes of issue 29's campaigns that fz38b ran (fresh seeds 1420383001..3 of the
fourteenth generator, 3801 of the fourth, 3805 of the second, 3803 of the third) and the open items
fz37b left (depthwise_conv2d of NCHW with a tensor strides), each against real TensorFlow 2.21: the
same call on both backends gives the same dtype and values (bit for bit) or raises the same
exception class; the `text` cases compare the error's class and message (TF's NodeDef tail, its
function-node prefix and node names left out). Eagerly, in a tf.function (`traced`) and through an
input_signature (`sig`). Needs the `tf` extra.

The depthwise cases use float32, bfloat16 and float16, which oneDNN runs on the reference host and
this session's Intel host (AVX512-FP16; ops.host-cpu), and float64, which TF's own kernel runs on
every x86 host.
"""

from __future__ import annotations

import re
from typing import Any, Callable

import numpy as np
import pytest

import edge_compare
import edge_text
from edge_programs import eager as _eager, sig as _sig, traced as _traced
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause

_A = "ops.attr-types"
_AE = "ops.argument-errors"
_C = "ops.conversion"
_T = "function.trace-time-errors"


def _head(e: BaseException) -> str:
    """An error as 'Class: message': TF's function-node prefix, NodeDef tail, `[Op:...]` tail, the node a
    graph error names (and a missing kernel's attrs, listed in no fixed order) and the repr of a tensor
    (a graph's symbolic one in TF, simdist's eager one) left out; a tf.function's 'in user code:' frame
    reduced to its error line."""
    msg = re.sub(r"\{\{function_node [^}]*\}\}\s*", "", str(e))
    if "in user code:" in msg:
        lines = [ln.strip() for ln in msg.splitlines() if re.match(r"^\s*\w+(Error|Exception): ", ln)]
        msg = lines[-1].split(": ", 1)[1] if lines else msg
    for tail in ("\n\t; NodeDef", "\n\t [[", " [Op:", " for '{{node", " used by {{node", ", not <", " not <tf.Tensor",
                 "}} = "):
        msg = msg.split(tail)[0]
    msg = msg.strip()
    return f"{type(e).__name__}: {msg}"


def _text(program: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """The program's error as `_head` gives it, or 'ok <dtype> <shape>'."""
    def run(tf: Any) -> Any:
        try:
            out = program(tf)
        except Exception as e:  # noqa: BLE001 - the error's class and message are the result
            return _head(e)
        return f"ok {getattr(out, 'dtype', type(out).__name__)} {getattr(out, 'shape', '')}"
    return run


def _both_text(group: str, name: str, expr: str) -> list[tuple[str, str, Callable[[Any], Any]]]:
    return [(name, group, _text(_eager(expr))), (f"{name} traced", group, _text(_traced(expr)))]


# -- a type attr's allowed values before the kernel's input types (type_attr_first.py)
_ORDER = (
    ("raw DepthwiseConv2dNative(int32, float32)", "tf.raw_ops.DepthwiseConv2dNative(input=tf.ones([1, 3, 3, 3], "
     "tf.int32), filter=tf.ones([1, 1, 3, 1]), strides=[1, 1, 1, 1], padding='VALID')"),
    ("raw Conv2D(int8, float32)", "tf.raw_ops.Conv2D(input=tf.ones([1, 3, 3, 3], tf.int8), filter=tf.ones([1, 1, 3, "
     "1]), strides=[1, 1, 1, 1], padding='VALID')"),
    ("conv2d(int8, float32)", "tf.nn.conv2d(tf.ones([1, 3, 3, 3], tf.int8), tf.ones([1, 1, 3, 1]), 1, 'VALID')"),
    ("raw MatMul(bool, float32)", "tf.raw_ops.MatMul(a=tf.ones([2, 2], tf.bool), b=tf.ones([2, 2]))"),
    ("raw Atan2(int32, float32)", "tf.raw_ops.Atan2(y=tf.ones([2], tf.int32), x=tf.ones([2]))"),
    ("atan2(int32, float32)", "tf.math.atan2(tf.ones([2], tf.int32), tf.ones([2]))"),
    ("raw Atan2(int32, a float list)", "tf.raw_ops.Atan2(y=tf.ones([2], tf.int32), x=[1.0, 2.0])"),
    ("raw MaxPoolGrad(bool, float32, float32)", "tf.raw_ops.MaxPoolGrad(orig_input=tf.ones([1, 2, 2, 1], tf.bool), "
     "orig_output=tf.ones([1, 1, 1, 1]), grad=tf.ones([1, 1, 1, 1]), ksize=[1, 2, 2, 1], strides=[1, 1, 1, 1], "
     "padding='VALID')"),
    ("depthwise_conv2d(int32, a float list)", "tf.nn.depthwise_conv2d(tf.ones([1, 3, 3, 3], tf.int32), "
     "[[[[1.0], [1.0], [1.0]]]], [1, 1, 1, 1], 'VALID')"),
    ("raw BiasAdd(bool, float32)", "tf.raw_ops.BiasAdd(value=tf.ones([2, 2], tf.bool), bias=tf.ones([2]))"),
    ("raw AddN([bool, float32])", "tf.raw_ops.AddN(inputs=[tf.ones([2], tf.bool), tf.ones([2])])"),
    ("add_n([bool, float32])", "tf.add_n([tf.ones([2], tf.bool), tf.ones([2])])"),
    ("polygamma(int32, float32)", "tf.math.polygamma(tf.ones([2], tf.int32), tf.ones([2]))"),
    ("raw FusedBatchNormV3(int32 x, float32 scale)", "tf.raw_ops.FusedBatchNormV3(x=tf.ones([1, 2, 2, 2], tf.int32), "
     "scale=tf.ones([2]), offset=tf.ones([2]), mean=tf.ones([2]), variance=tf.ones([2]), is_training=False)[0]"),
    ("raw FusedBatchNormV3(float16 x, float32 scale): U its own", "tf.raw_ops.FusedBatchNormV3(x=tf.ones([1, 2, 2, "
     "2], tf.float16), scale=tf.ones([2]), offset=tf.ones([2]), mean=tf.ones([2]), variance=tf.ones([2]), "
     "is_training=False)[0]"),
    ("raw SelectV2(int32, float32): T unconstrained", "tf.raw_ops.SelectV2(condition=[True, False], t=tf.ones([2], "
     "tf.int32), e=tf.ones([2]))"),
    ("raw AddV2(int32, int8): T allowed", "tf.raw_ops.AddV2(x=tf.ones([2], tf.int32), y=tf.ones([2], tf.int8))"),
    ("raw Conv2D(float32, float64, padding 'BAD')", "tf.raw_ops.Conv2D(input=tf.ones([1, 2, 2, 1]), filter=tf.ones("
     "[1, 1, 1, 1], tf.float64), strides=[1, 1, 1, 1], padding='BAD')"),
)

CASES: list[tuple[str, str, Callable[[Any], Any]]] = [
    *[c for name, expr in _ORDER for c in _both_text(_A, name, expr)],
    ("sig None, None: atan2(int32, float32)", _A, _text(lambda tf: tf.function(
        lambda a, b: tf.math.atan2(a, b), autograph=False)(tf.ones([2], tf.int32), tf.ones([2])))),
]

# -- depthwise_conv2d's checks in every layout, and oneDNN's NCHW values (fz14_seen seed 1420373006 #131)
_X = "tf.ones([1, 3, 4, 4], tf.{dt})"
_F = "tf.ones([2, 2, 3, 1], tf.{dt})"


def _dw(dt: str, strides: str, padding: str = "'VALID'", fmt: str = "NCHW", x: str = _X, f: str = _F) -> str:
    return f"tf.nn.depthwise_conv2d({x.format(dt=dt)}, {f.format(dt=dt)}, {strides}, {padding}, data_format='{fmt}')"


_DW = [
    ("seed 1420373006 #131: bfloat16 NCHW, a tensor strides", "tf.nn.depthwise_conv2d(tf.ones([1, 3, 2, 4], "
     "tf.bfloat16), tf.ones([1, 1, 3, 1], tf.bfloat16), tf.constant([2, 3]), 'VALID', data_format='NCHW')"),
    *[(f"{dt} {fmt} strides {s}", _dw(dt, s, fmt=fmt)) for dt in ("float32", "float64") for fmt in ("NCHW", "NHWC")
      for s in ("tf.constant([1, 1, 1, 1])", "np.array([1, 1, 1, 1])", "[1, 1, 1]", "(1, 1, 1, 1, 1)")],
    *[(f"{dt} NCHW strides [1, 1, 1], padding 'valid'", _dw(dt, "[1, 1, 1]", "'valid'")) for dt in ("float32", "float64")],
    ("int32 NCHW input, float32 filter", _dw("float32", "[1, 1, 1, 1]", x="tf.ones([1, 3, 4, 4], tf.int32)")),
    ("float32 NCHW input, float64 filter, strides [1, 1, 1]", _dw("float32", "[1, 1, 1]",
                                                                   f="tf.ones([2, 2, 3, 1], tf.float64)")),
    ("float32 NCHW, a rank-3 filter", _dw("float32", "[1, 1, 1, 1]", f="tf.ones([2, 2, 3], tf.{dt})")),
    *[(f"{dt} {fmt} strides {s}", _dw(dt, s, fmt=fmt, x="tf.ones([1, 3, 5, 6] if '{fmt}' == 'NCHW' else "
                                      "[1, 5, 6, 3], tf.{dt})".replace("{fmt}", fmt)))
      for dt in ("float16", "float32", "float64") for fmt, s in (
          ("NHWC", "[1, 1, 1, 3]"), ("NHWC", "[2, 1, 1, 1]"), ("NCHW", "[1, 2, 1, 1]"), ("NCHW", "[2, 1, 1, 1]"),
          ("NHWC", "[1, 2, 3, 1]"), ("NCHW", "[1, 1, 2, 3]"))],
]

_RNG = np.random.default_rng(38)
_XV = np.round(_RNG.standard_normal((2, 3, 5, 6)), 3).tolist()
_FV = np.round(_RNG.standard_normal((2, 3, 3, 2)), 3).tolist()

CASES += [
    *[c for name, expr in _DW for c in _both_text(_AE, f"depthwise {name}", expr)],
    *[(f"depthwise {dt} NCHW strides {s} SAME values", _AE, _eager(
        f"tf.nn.depthwise_conv2d(tf.constant({_XV}, tf.{dt}), tf.constant({_FV}, tf.{dt}), {s}, 'SAME', "
        "data_format='NCHW')"))
      for dt in ("float16", "float32", "bfloat16") for s in ("[1, 1, 2, 1]", "[1, 1, 1, 3]", "[1, 1, 2, 2]")],
]

# -- Conv2DBackpropInput's out_backprop rank first; a graph's Python out_backprop in the filter's T (seed 1420383001 #286)
_CT = (
    ("conv2d_transpose of seed 1420383001 #286", "tf.nn.conv2d_transpose(input=[[True], [False], [False]], "
     "filters=[0.0], output_shape=tf.TensorShape([3, 1]), strides=np.array([2, 0], dtype=np.int64))"),
    ("conv2d_transpose(bool list, [0.0], [1, 3, 1, 1])", "tf.nn.conv2d_transpose(input=[[True], [False], [False]], "
     "filters=[0.0], output_shape=[1, 3, 1, 1], strides=1)"),
    ("conv2d_transpose(float32 [3, 1], [1], [3, 1])", "tf.nn.conv2d_transpose(tf.ones([3, 1]), tf.ones([1]), [3, 1], 1)"),
    ("conv2d_transpose(float32 [3, 1], [1, 1, 1, 1], [1, 3, 1, 1])", "tf.nn.conv2d_transpose(tf.ones([3, 1]), "
     "tf.ones([1, 1, 1, 1]), [1, 3, 1, 1], 1)"),
    ("conv2d_transpose(float32 [1, 3, 1, 1], [1], [1, 3, 1, 1])", "tf.nn.conv2d_transpose(tf.ones([1, 3, 1, 1]), "
     "tf.ones([1]), [1, 3, 1, 1], 1)"),
    ("conv2d_transpose(float64 [3, 1], [1], [3, 1])", "tf.nn.conv2d_transpose(tf.ones([3, 1], tf.float64), "
     "tf.ones([1], tf.float64), [3, 1], 1)"),
    ("raw Conv2DBackpropInput float64, out_backprop of rank 5", "tf.raw_ops.Conv2DBackpropInput(input_sizes=[1, 3, 3, "
     "1], filter=tf.ones([1], tf.float64), out_backprop=tf.ones([1, 3, 3, 1, 1], tf.float64), strides=[1, 1, 1, 1], "
     "padding='SAME')"),
    ("raw Conv2DBackpropInput float32, out_backprop of rank 3", "tf.raw_ops.Conv2DBackpropInput(input_sizes=[1, 3, 3, "
     "1], filter=tf.ones([1, 1, 1, 1]), out_backprop=tf.ones([1, 3, 3]), strides=[1, 1, 1, 1], padding='SAME')"),
)

# -- MatrixTriangularSolve's kernel and shape function (seed 1420383001 #165)
_TS = [(f"triangular_solve({a}, {b}{', adjoint' if adj else ''})",
        f"tf.linalg.triangular_solve(tf.ones({a}), tf.ones({b}), adjoint={adj})")
       for a, b, adj in (([1, 1], [2, 1], False), ([2, 3, 3], [3, 3, 1], False), ([3, 3], [3], False),
                         ([2, 3], [3, 1], True), ([3, 3], [2, 1], True), ([2, 3, 3], [3, 2, 1], False),
                         ([3], [3, 1], False), ([2, 1, 3, 3], [4, 3, 2], False))]

CASES += [
    *[c for name, expr in _CT for c in _both_text(_T, name, expr)],
    *[c for name, expr in _TS for c in _both_text(_T, name, expr)],
    *_both_text(_T, "lu_solve of seed 1420383001 #165", "tf.linalg.lu_solve([[5.0]], [1, 0], [[5.0]])"),
    ("sig [1, 1]: lu_solve(x, [1, 0], [[5.0]])", _T, _text(_sig("tf.linalg.lu_solve(x, [1, 0], [[5.0]])",
                                                                ([1, 1], "float32"), "tf.ones([1, 1])"))),
    # (the call's class only: which of GatherV2's and MatrixSetDiagV3's kernels fails first is TF's executor's order)
    ("sig [None, None]: lu_solve(x, [1, 0], [[5.0]]), called with [1, 1]", _T, _sig(
        "tf.linalg.lu_solve(x, [1, 0], [[5.0]])", ([None, None], "float32"), "tf.ones([1, 1])")),
    ("sig [None, None]: lu_solve(x, [1, 0], [[5.0]]), called with [2, 2]", _T, _text(_sig(
        "tf.linalg.lu_solve(x, [1, 0], [[5.0]])", ([None, None], "float32"), "tf.ones([2, 2])"))),
    ("sig [None, 2]: triangular_solve of a [2, 2], called with [3, 2]", _T, _text(_sig(
        "tf.linalg.triangular_solve(tf.ones([2, 2]), x)", ([None, 2], "float32"), "tf.ones([3, 2])"))),
    # sparse_softmax_cross_entropy_with_logits: the op's types before its runtime assert (seed 1420383001 #84)
    *[(f"sig None: sparse_softmax_cross_entropy_with_logits({lab}, {dt} logits)", _T, _text(_sig(
        f"tf.nn.sparse_softmax_cross_entropy_with_logits({lab}, x)", (None, dt), f"tf.ones([4, 4, 5], tf.{dt})")))
      for lab, dt in (("np.ones([4, 4, 1])", "int16"), ("np.ones([4, 4, 1])", "float32"),
                      ("np.ones([4, 4], np.int32)", "int16"), ("np.ones([4, 4], np.int32)", "float32"))],
    # a missing kernel past a dimension the graph does not know (seed 1420383001 #48)
    *[(f"sig {spec}: {dt} x @ a [2, 4, 2, 1] list, called with [2, 4, 2, 1]", _T, _text(_sig(
        "x @ np.ones([2, 4, 2, 1], np.int64).tolist()", (spec, dt), f"tf.ones([2, 4, 2, 1], tf.{dt})")))
      for spec in (None, [None, None, None, None], [2, 4, 2, 1]) for dt in ("uint16", "int32")],
]

# -- the eager fallback converts a list before a variable alone (seed 1420383001 #49)
_CONV = (
    ("polygamma of seed 1420383001 #49", "tf.math.polygamma([[0.5, -3.0, 4.0], [1e+300, 5e-324, -3.4e+38], [0.0, 0.5, "
     "65504.0]], tf.Variable(tf.ones([3, 3, 3])))"),
    ("polygamma([1e300, 1.0], float32 variable)", "tf.math.polygamma([1e300, 1.0], tf.Variable(tf.ones([2])))"),
    ("polygamma([1e300, 1.0], float32 tensor)", "tf.math.polygamma([1e300, 1.0], tf.ones([2]))"),
    ("polygamma(1e300, float32 variable)", "tf.math.polygamma(1e300, tf.Variable(tf.ones([2])))"),
    ("atan2([1e300, 1.0], float32 variable)", "tf.math.atan2([1e300, 1.0], tf.Variable(tf.ones([2])))"),
    ("igamma([1e300, 1.0], float32 variable)", "tf.math.igamma([1e300, 1.0], tf.Variable(tf.ones([2])))"),
    ("zeta([1e300, 1.0], float64 variable)", "tf.math.zeta([1e300, 1.0], tf.Variable([1.0, 2.0], dtype=tf.float64))"),
    ("float32 variable + [1e300, 1.0]", "tf.Variable(tf.ones([2])) + [1e300, 1.0]"),
    ("tf.constant([1e300, 1.0], tf.float32)", "tf.constant([1e300, 1.0], tf.float32)"),
    ("tf.constant([1e300, 1.0])", "tf.constant([1e300, 1.0])"),
)

CASES += [(name, _C, _text(_eager(expr))) for name, expr in _CONV]
CASES += [(f"{name} values", _C, _eager(expr)) for name, expr in _CONV[2:4] + _CONV[7:9]]

# -- seed 1420383003: make_bool before the conversions (#120), DenseBincount's T first (#157), an empty data
# list's missing T (#176, its class: TF's KernelDef text varies between debugstr and debugproto), complex Pow's
# Grappler rewrite (#241)
_A300 = "[[1e300, 1.0], [1.0, 1.0]]"
CASES += [
    *[c for name, expr in (
        ("triangular_solve(1e300 list, lower=np.bool_(True))", f"tf.linalg.triangular_solve({_A300}, [[1.0], [1.0]], "
         "lower=np.bool_(True))"),
        ("triangular_solve(1e300 list, lower=True)", f"tf.linalg.triangular_solve({_A300}, [[1.0], [1.0]], lower=True)"),
        ("triangular_solve(lower=1)", "tf.linalg.triangular_solve([[1.0, 0.0], [1.0, 1.0]], [[1.0], [1.0]], lower=1)"),
        ("bincount of seed 1420383003 #157", "tf.math.bincount(-1, weights=np.array([[2, 1, 1], [1, 1, 3], [0, 2, 0]], "
         "dtype=np.uint64), minlength=-1)"),
        ("bincount([1, 2], uint64 weights of 3)", "tf.math.bincount([1, 2], weights=np.array([1, 2, 3], np.uint64))"),
        ("bincount([1, 2], float32 weights of 3)", "tf.math.bincount([1, 2], weights=np.array([1, 2, 3], np.float32))"),
    ) for c in _both_text(_A, name, expr)],
    ("dynamic_stitch of seed 1420383003 #176", _AE, _eager(
        "tf.dynamic_stitch([0], data=tf.constant([], dtype='complex128'))")),
    ("dynamic_stitch([0, 1], an empty float32 tensor)", _AE, _eager(
        "tf.dynamic_stitch([0, 1], data=tf.constant([], dtype='float32'))")),
    *[(f"sig {spec}: complex64 x ** {c}", "function.grappler-rewrites", _sig(
        f"x ** {c}", (spec, "complex64"), "tf.constant(np.array([0, complex('nan'), complex('inf'), "
        "complex(1, float('inf')), 2 + 3j], np.complex64))"))
      for spec in ([5], None, [None]) for c in ("-0.0", "0.0", "1.0", "0j", "np.zeros([5])", "np.zeros([2, 5])")],
    ("sig [2, 3]: complex128 x ** -0.0 of seed 1420383003 #241", "function.grappler-rewrites", _sig(
        "x ** -0.0", ([2, 3], "complex128"), "tf.constant(np.array([[0, 1j, -0.0], [2.5, -1.5j, 0.25]], np.complex128))")),
]

# -- fresh seeds 1420383005 (#108, #228) and second generator 3806 (#186)
_W = "tf.constant(np.array([-4, -1], np.int64))"
CASES += [
    *[(name, _A, _text(_eager(expr))) for name, expr in (
        ("where of seed 1420383005 #228: an int64 condition, a uint64 variable, np.int64(0)", f"tf.where({_W}, "
         "tf.Variable(np.array([5, 1], np.uint64)), np.int64(0))"),
        ("where(int64 condition, uint64 tensor, np.int64(0))", f"tf.where({_W}, tf.constant(np.array([5, 1], np.uint64)), "
         "np.int64(0))"),
        ("where(int64 condition, uint64 tensor, uint64 tensor)", f"tf.where({_W}, tf.constant(np.array([5, 1], "
         "np.uint64)), tf.constant(np.array([0, 0], np.uint64)))"),
        ("where(int64 condition, 1.5, 2.5)", f"tf.where({_W}, 1.5, 2.5)"),
        ("where(bool list, uint64 variable, np.int64(0))", "tf.where([True, False], tf.Variable(np.array([5, 1], "
         "np.uint64)), np.int64(0))"),
    )],
    *_both_text(_T, "dynamic_partition(num_partitions=tf.constant(2)) of seed 1420383005 #108",
                "tf.dynamic_partition(tf.ones([1, 1]), [[0]], num_partitions=tf.constant(2))"),
    *_both_text(_T, "tensordot of bool [3, 3, 2] operands, axes=1 (sizes 2 and 3) of seed 3806 #186",
                "tf.tensordot(tf.ones([3, 3, 2], tf.bool), tf.ones([3, 3, 2], tf.bool), axes=1)"),
    *_both_text(_T, "tensordot of uint16 [3, 3, 2] operands, axes=1", "tf.tensordot(tf.ones([3, 3, 2], tf.uint16), "
                "tf.ones([3, 3, 2], tf.uint16), axes=1)"),
    *_both_text(_T, "tensordot of float32 [3, 3, 2] operands, axes=1", "tf.tensordot(tf.ones([3, 3, 2]), "
                "tf.ones([3, 3, 2]), axes=1)"),
]

EDGES = edge_text.TextEdgeModule(__file__, CASES, agree=lambda case: edge_compare.parts_agree)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("ops.attr-types")
@EDGES.parametrize("ops.attr-types")
def test_type_attr_before_input_types(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.argument-errors")
@EDGES.parametrize("ops.argument-errors")
def test_depthwise_checks(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("function.trace-time-errors")
@EDGES.parametrize("function.trace-time-errors")
def test_graph_build_order(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.conversion")
@EDGES.parametrize("ops.conversion")
def test_fallback_conversion_alone(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("function.grappler-rewrites")
@EDGES.parametrize("function.grappler-rewrites")
def test_complex_pow_rewrite(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


def test_every_case_has_a_test() -> None:
    untested = EDGES.untested()
    assert not untested, f"cases of groups {untested} have no test function above"


if __name__ == "__main__":  # TF worker: python test_fz38b_edges_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
