"""Rules behind the twentieth fuzzer's classes that fz32a closed (fresh campaigns of session 32: seeds
3220261201-06 in every mode), each against real TensorFlow 2.21: the same raw call on both backends gives the
same dtype and values bit for bit (a NaN matching any NaN), or raises the same exception class. Eagerly,
inside a tf.function and with an input_signature. Needs the `tf` extra.
"""

from __future__ import annotations

from typing import Any, Callable

import pytest

import edge_compare
from edge_programs import eager as _eager, traced as _traced
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause

_K = "ops.fuzz-raw"
_T = "function.trace-time-errors"
_C = "ops.complex"
_S = "ops.special-more"


def _sig_trace(expr: str, specs: list[tuple[list[int | None] | None, str]]) -> Callable[[Any], Any]:
    """get_concrete_function of `lambda x0, ...: expr` with an input_signature of `specs` (its trace-time
    error, if any)."""
    def run(tf: Any) -> Any:
        fn = eval("lambda " + ", ".join(f"x{i}" for i in range(len(specs))) + ": " + expr, {"tf": tf})  # noqa: S307
        tf.function(fn, input_signature=[tf.TensorSpec(s, getattr(tf, d)) for s, d in specs],
                    autograph=False).get_concrete_function()
        return "traced"
    return run


# complex parts with subnormals, zeros, infinities and NaNs, and the pole of Atan at +-1j
_PARTS = ("0.0", "-0.0", "1e-40", "-1.401298464324817e-45", "1e-39", "0.5", "1.0", "-1.0", "1.5", "3e38",
          "float('inf')", "float('nan')", "1e-310")
_Z = ", ".join(f"complex({a}, {b})" for a in _PARTS for b in _PARTS)
_CX = "tf.constant(np.array([{z}], np.{dt}))"
_GLIBC = ("Atan", "Asin", "Acos", "Atanh", "Asinh", "Acosh", "Sin", "Cos", "Tan", "Sinh", "Cosh", "Tanh")

_MPG2 = "tf.raw_ops.MaxPoolGradGradV2(orig_input=x0, orig_output=x1, grad=x2, ksize={k}, strides={s}, padding='{p}')"
_MPV2 = "tf.raw_ops.MaxPoolV2(input=x0, ksize={k}, strides={s}, padding='{p}'{kw})"
_DW = "tf.raw_ops.DepthwiseConv2dNative(input=x0, filter=x1, strides={s}, padding='{p}', dilations={d}{kw})"
_F4 = ([2, 2, 2, 4], "float32")
_DWE = ("tf.raw_ops.DepthwiseConv2dNative(input=tf.cast(tf.reshape(tf.range(tf.reduce_prod({x})), {x}), tf.{dt}) / 7 - 3, "
        "filter=tf.cast(tf.reshape(tf.range(tf.reduce_prod({f})), {f}), tf.{dt}) / 5 - 1, strides={s}, padding='{p}', "
        "dilations={d}, data_format='{fmt}')")
_S2B = ("tf.raw_ops.SpaceToBatch(input=tf.reshape(tf.constant([b'a', b'1', b'', b'b', b'c', b'd'], tf.string), "
        "[1, 2, 3, 1]), block_size={b}, paddings=tf.constant({p}, tf.int32))")
_B2S = "tf.raw_ops.BatchToSpace(input=tf.ones({x}), block_size={b}, crops=tf.constant({c}, tf.int32))"
_BETA = "tf.raw_ops.Betainc(a=tf.constant({a}, tf.{dt}), b=tf.constant({b}, tf.{dt}), x=tf.constant({x}, tf.{dt}))"
_BETA_ABX = (
    [1e300, 1e300, 1e30, 1e17, 7.0, 0.5, 1e-3, 2.0, 1e20, 1e5, 200.0, 0.9999, 1.0, 1.0001, 25.839263342185756,
     3.25, 11.5, 0.75, 19.0, 4.0],
    [7.0, 1e300, 7.0, 7.0, 1e300, 0.5, 5.0, 1e-3, 1e20, 3.0, 150.0, 0.25, 1.0, 20.0, 3.538935072675249,
     8.5, 2.25, 30.0, 0.125, 4.0],
    [0.75, 0.5, 0.75, 0.75, 0.75, 0.5, 0.99, 0.01, 0.5, 0.999, 0.6, 0.3, 0.5, 0.02, 0.016232884012122417,
     0.4, 0.85, 0.05, 0.97, 0.5])

CASES: list[tuple[str, str, Any]] = [
    # glibc's complex functions under the kernel thread's DAZ/FTZ: a "zero" argument (subnormal parts) returned
    # as it is, logf of a subnormal under DAZ (seed 3220261201 #180)
    *[(f"{op} {dt} of subnormal, signed, infinite and NaN parts", _C, _eager(f"tf.raw_ops.{op}(x={_CX.format(z=_Z, dt=dt)})"))
      for op in _GLIBC for dt in ("complex64", "complex128")],
    *[(f"{op} complex64 of one element {z}", _C, _eager(f"tf.raw_ops.{op}(x={_CX.format(z=z, dt='complex64')})"))
      for op in ("Atan", "Exp") for z in ("complex(0.0, 1e-40)", "complex(-1.401298464324817e-45, 1.0)",
                                           "complex(1e-39, 0.5)")],
    ("Atan complex64 in a tf.function", _C, _traced("tf.raw_ops.Atan(x=tf.constant(np.array([complex(0.0, 1e-40), "
                                                    "complex(-1.401298464324817e-45, 1.0)], np.complex64)))")),
    # SparseFillEmptyRowsGrad: each reverse index in [0, N_full), in order (tape seed 3220261201 #54)
    *[(f"SparseFillEmptyRowsGrad reverse_index_map {r}", _K, _eager(
        f"tf.raw_ops.SparseFillEmptyRowsGrad(reverse_index_map=tf.constant({r}, tf.int64), "
        "grad_values=tf.constant([3, 2, 1, 0], tf.uint16))")) for r in ([3, -4, 1, -4], [3, 4, 1], [3, 0, 1], [], [0, 0])],
    # MaxPoolV2Shape (sig seed 3220261201 #177)
    *[(f"MaxPoolGradGradV2 ksize {k} strides {s} {p} of {[x for x, _ in sp]} in an input_signature", _T,
       _sig_trace(_MPG2.format(k=k, s=s, p=p), sp)) for k, s, p, sp in (
        ("x3", "tf.constant([-1, 1, -2], tf.int32)", "VALID",
         [(None, "float32"), ([1, 2, 3], "float32"), ([1, 2, 3], "float32"), ([1, 1, 3], "int32")]),
        ("x3", "x4", "VALID", [([1, 4, 4, 1], "float32"), ([1, 2, 2, 1], "float32"), ([1, 4, 4, 1], "float32"),
                               ([4], "int32"), ([3], "int32")]),
        ("[1, 2, 2, 1]", "[1, 2, 2, 1]", "VALID", [([1, 4, 4, 1], "float32"), ([1, 3, 2, 1], "float32"),
                                                   ([1, 4, 4, 1], "float32")]),
        ("[1, 2, 2, 1]", "[1, 2, 2, 1]", "VALID", [([1, 4, 4, 1], "float32"), ([1, 2, 2, 1], "float32"),
                                                   ([1, 4, 5, 1], "float32")]),
        ("[1, 2, 2, 1]", "[1, 0, 2, 1]", "VALID", [([1, 4, 4, 1], "float32"), ([1, 2, 2, 1], "float32"),
                                                   ([1, 4, 4, 1], "float32")]),
        ("[1, 5, 2, 1]", "[1, 1, 1, 1]", "VALID", [([1, 4, 4, 1], "float32"), ([1, 2, 2, 1], "float32"),
                                                   ([1, 4, 4, 1], "float32")]),
        ("[1, 2, 2, 1]", "[1, 2, 2, 1]", "SAME", [([1, 5, 4, 1], "float32"), (None, "float32"), ([1, 5, 4, 1], "float32")]),
        ("[1, 2, 2, 1]", "x3", "SAME", [([1, 5, 4, 1], "float32"), ([1, 1, 1, 1], "float32"), ([1, 5, 4, 1], "float32"),
                                        ([4], "int32")]))],
    *[(f"MaxPoolV2 ksize {k} strides {s} {p}{kw} of {sp[0][0]} in an input_signature", _T,
       _sig_trace(_MPV2.format(k=k, s=s, p=p, kw=kw), sp)) for k, s, p, kw, sp in (
        ("[1, 2, 2, 1]", "[1, 2, 2, 1]", "VALID", "", [([1, 5, 4, 1], "float32")]),
        ("[1, 2, 2]", "[1, 2, 2, 1]", "VALID", "", [([1, 5, 4, 1], "float32")]),
        ("[1, 2, 2, 1]", "[1, 2, 2, 1]", "VALID", "", [([1, 5, 4], "float32")]),
        ("[1, 2, 2, 1]", "[1, -2, 2, 1]", "VALID", "", [([1, 5, 4, 1], "float32")]),
        ("[1, 2, 2, 2]", "[1, 2, 2, 1]", "VALID", "", [([1, 5, 4, 1], "float32")]),
        ("[1, 2, 2, 1]", "[1, 2, 2, 1]", "SAME", ", data_format='NCHW'", [([1, 1, 5, 4], "float32")]),
        ("x1", "[1, 2, 2, 1]", "VALID", "", [([1, 5, 4, 1], "float32"), ([4], "int32")]),
        ("x1", "[1, 2, 2, 1]", "VALID", "", [([1, 5, 4, 1], "float32"), ([4, 1], "int32")]))],
    # op_def_library: a type attr's first Python value takes its own conversion when that dtype is allowed
    # (sig seed 3220261202 #36)
    *[(f"MatrixBandPart num_lower {lo} num_upper {up} in an input_signature", _T, _sig_trace(
        f"tf.raw_ops.MatrixBandPart(num_upper={up}, num_lower={lo}, input=x0)", [([4, 4], "complex128")]))
      for lo, up in (("2", "tf.constant(1, tf.int32)"), ("2", "tf.constant(1, tf.int64)"),
                     ("tf.constant(2, tf.int64)", "1"), ("2", "1"), ("2.5", "tf.constant(1, tf.int64)"))],
    # StatelessShape of StatelessRandomPoisson and StatelessRandomBinomial (sig seed 3220261202 #142)
    *[(f"{name} shape {sh} in an input_signature", _T, _sig_trace(expr.format(sh=sh), [([None, None, 0, 3], "float32")]))
      for sh in ("[-2]", "[2, -1]", "[[2]]", "[2, 3]") for name, expr in (
          ("StatelessRandomPoisson", "tf.raw_ops.StatelessRandomPoisson(shape=tf.constant({sh}, tf.int64), seed=[7, -3], "
                                     "dtype=tf.float16, lam=x0)"),
          ("StatelessRandomBinomial", "tf.raw_ops.StatelessRandomBinomial(shape=tf.constant({sh}, tf.int64), "
                                      "seed=[7, -3], counts=x0, probs=x0)"))],
    # MulNoNan of two complex scalars keeps the scalar shape (function seed 3220261205 #143)
    *[(f"MulNoNan {dt} scalars {x} * {y}", _K, _eager(
        f"tf.raw_ops.MulNoNan(x=tf.constant({x}, tf.{dt}), y=tf.constant({y}, tf.{dt}))")) for dt, x, y in (
        ("complex128", "complex(1e-310, -1.0)", "complex(7.0, 0.0)"), ("complex64", "complex(1.0, -1.0)", "complex(0.0, 0.0)"),
        ("complex128", "[complex(1.0, -1.0)]", "complex(7.0, 0.0)"), ("float64", "2.0", "3.0"))],
    # the raw MatrixDiag family of bool in a tf.function: no array_ops bool() of padding_value (function seed
    # 3220261205 #141)
    *[(f"{name} of bool in a tf.function", _K, _traced(expr)) for name, expr in (
        ("MatrixDiag", "tf.raw_ops.MatrixDiag(diagonal=tf.constant([[True]]))"),
        ("MatrixDiagV3", "tf.raw_ops.MatrixDiagV3(diagonal=tf.constant([[True, False]]), k=0, num_rows=-1, "
                         "num_cols=-1, padding_value=False)"),
        ("MatrixDiagPartV3", "tf.raw_ops.MatrixDiagPartV3(input=tf.constant([[True, False], [True, True]]), k=0, "
                             "padding_value=False)"),
        ("MatrixDiagPart", "tf.raw_ops.MatrixDiagPart(input=tf.constant([[True]]))"))],
    ("tf.linalg.diag of bool with a tensor padding_value in a tf.function", _K, _traced(
        "tf.linalg.diag(tf.constant([[True]]), padding_value=tf.constant(False))")),
    # StatelessRandomGetKeyCounterAlg: its shape function at trace, its own name eagerly (function seed 3220261205 #6)
    *[(f"StatelessRandomGetKeyCounterAlg seed {s}{' in a tf.function' if fn else ''}", _T if fn else _K,
       (_traced if fn else _eager)(f"tf.raw_ops.StatelessRandomGetKeyCounterAlg(seed={s})"))
      for fn in (False, True) for s in ([0, 0, 1], [[0, 0]], [5, 7])],
    # SpaceToBatch / BatchToSpace: the ND helper of [block_size, block_size] at trace, before the kernel lookup
    # of a string input (function seed 3220261205 #30)
    *[(f"SpaceToBatch string block {b} paddings {p} in a tf.function", _T, _traced(_S2B.format(b=b, p=p)))
      for b, p in ((3, [[1, 1]]), (3, [[1, 1], [0, 0]]), (2, [[0, 0], [1, 0]]), (2, [[0, 0], [-1, 0]]))],
    *[(f"BatchToSpace [4, 1, 2, 1] block {b} crops {c} in a tf.function", _T,
       _traced(_B2S.format(x=[4, 1, 2, 1], b=b, c=c)))
      for b, c in ((2, [[0, 0], [0, 0]]), (2, [[0, 0]]), (3, [[0, 0], [0, 0]]), (2, [[0, 3], [0, 0]]),
                   (2, [[0, 0], [-1, 0]]), (2, [[0, 0], [0, 0], [0, 0]]))],
    ("BatchToSpace of rank 3 in a tf.function", _T, _traced(_B2S.format(x=[4, 2, 2], b=2, c=[[0, 0], [0, 0]]))),
    # DepthwiseConv2DNativeShapeImpl (function seed 3220261205 #198)
    *[(f"DepthwiseConv2dNative strides {s} {p} dilations {d}{kw} of {[x for x, _ in sp]} in an input_signature", _T,
       _sig_trace(_DW.format(s=s, p=p, d=d, kw=kw), sp)) for s, p, d, kw, sp in (
        ([1, 1, 1, 1], "SAME", [1, 3, 3, 1], "", [([2, 2, 1, 4], "float32"), ([2, 2, 1, 4], "float32")]),
        ([1, 1, 1, 1], "VALID", [1, 3, 3, 1], "", [([2, 2, 1, 4], "float32"), ([2, 2, 4, 1], "float32")]),
        ([1, 1, 1], "VALID", [1, 1, 1, 1], "", [_F4, ([2, 2, 4, 1], "float32")]),
        ([1, 1, 1, 1], "VALID", [1, 1, 1], "", [_F4, ([2, 2, 4, 1], "float32")]),
        ([1, 0, 1, 1], "VALID", [1, 1, 1, 1], "", [_F4, ([2, 2, 4, 1], "float32")]),
        ([1, 1, 1, 1], "VALID", [1, 1, 1, 1], ", explicit_paddings=[0, 0, 1, 1, 1, 1, 0, 0]",
         [_F4, ([2, 2, 4, 1], "float32")]),
        ([1, 1, 1, 1], "EXPLICIT", [1, 1, 1, 1], ", explicit_paddings=[0, 0, 1, 1, 1, 1, 0, 0]",
         [_F4, ([2, 2, 4, 1], "float32")]),
        ([1, 1, 1, 1], "VALID", [1, 1, 1, 1], ", data_format='NCHW'", [([2, 3, 2, 2], "float32"), ([2, 2, 4, 1], "float32")]),
        ([1, 1, 1, 1], "VALID", [1, 1, 1, 1], "", [([2, 2, 2], "float32"), ([2, 2, 4, 1], "float32")]),
        ([1, 1, 1, 1], "VALID", [1, 1, 1, 1], "", [([None, None, None, 4], "float32"), ([2, 2, 3, 1], "float32")]),
        ([1, 1, 1, 1], "VALID", [1, 1, 1, 1], "", [([2, 2, 2, 4], "float64"), ([2, 2, 3, 1], "float64")]),
        ([1, 1, 1, 1], "SAME", [1, 1, 1, 1], "", [_F4, ([2, 2, 4, 1], "float32")]))],
    # DepthwiseConv2dNative eagerly: oneDNN's (float32, bfloat16) list, dilation and grouped-depth rules and its
    # NCHW values; TF's own (float64) same-depth and no-dilation rules; oneDNN's NCHW backprops' depths (float16,
    # oneDNN's on the reference host and TF's own here, is left out)
    # (function seed 3220261205 #198, eager seed 3220261204 #41)
    *[(f"DepthwiseConv2dNative {dt} {fmt} strides {s} dilations {d}", _K, _eager(_DWE.format(
        dt=dt, x=[2, 5, 4, 3] if fmt == "NHWC" else [2, 3, 5, 4], s=s, d=d, fmt=fmt, f=[2, 2, 3, 2], p="SAME")))
      for dt in ("float32", "float64") for fmt in ("NHWC", "NCHW") for s, d in (
          ([1, 1, 1], [1, 1, 1, 1]), ([1, 1, 1, 1], [1, 1, 1]), ([1, 1, 1, 1, 1], [1, 1, 1, 1]),
          ([1, 1, 1, 1], [1, 1, 1, 1, 1]), ([1, 1, 1, 1], [2, 1, 1, 1]), ([1, 1, 1, 1], [1, 2, 1, 1]),
          ([1, 1, 1, 1], [1, 1, 1, 2]), ([1, 0, 1, 1], [1, 1, 1, 1]), ([1, 1, 1, 0], [1, 1, 1, 1]),
          ([1, 1, 1, 1], [1, 1, 0, 1]), ([1, 1, 1, 1], [1, 1, 1, 0]), ([1, 1, 1, 1], [1, 1, 1, 1]),
          ([1, 1, 2, 2], [1, 1, 1, 1]), ([1, 2, 2, 1], [1, 1, 1, 1]), ([1, 1, 2, 1], [1, 1, 1, 1]))],
    *[(f"DepthwiseConv2dNative {dt} {fmt} filter {f} {p}", _K, _eager(_DWE.format(
        dt=dt, x=[2, 2, 2, 4] if fmt == "NHWC" else [2, 4, 2, 2], s=[1, 1, 1, 1], d=[1, 1, 1, 1], fmt=fmt, f=f, p=p)))
      for dt in ("float32", "bfloat16", "float64") for fmt in ("NHWC", "NCHW") for f, p in (
          ([2, 2, 1, 4], "SAME"), ([2, 2, 1, 4], "VALID"), ([2, 2, 2, 1], "SAME"), ([3, 3, 1, 1], "VALID"),
          ([2, 2, 3, 1], "SAME"))],   # (an empty output's shape depends on the host's CPU vendor: conv.py)
    *[(f"DepthwiseConv2dNative{op} float32 NCHW depth 4 of a filter depth 3", _K, _eager(expr)) for op, expr in (
        ("BackpropInput", "tf.raw_ops.DepthwiseConv2dNativeBackpropInput(dilations=[1, 1, 3, 1], filter=tf.ones([4, 4, 3, 4]), "
                          "out_backprop=tf.ones([4, 4, 1, 4]), padding='SAME', strides=[1, 1, 3, 1], data_format='NCHW', "
                          "input_sizes=tf.constant([4, 4, 3, 4], tf.int32), explicit_paddings=[])"),
        ("BackpropFilter", "tf.raw_ops.DepthwiseConv2dNativeBackpropFilter(dilations=[1, 1, 3, 1], input=tf.ones([4, 4, 3, 4]), "
                           "out_backprop=tf.ones([4, 4, 1, 4]), padding='SAME', strides=[1, 1, 3, 1], data_format='NCHW', "
                           "filter_sizes=tf.constant([4, 4, 3, 4], tf.int32), explicit_paddings=[])"))],
    # AsString of unsigned integers: printf's "%u" ignores the " " and "+" flags (eager seed 3220261206 #178)
    *[(f"AsString {dt} fill {f!r} width {w}", _K, _eager(
        f"tf.raw_ops.AsString(input=tf.constant([0, 7, 100], tf.{dt}), fill={f!r}, width={w})"))
      for dt in ("uint8", "uint16", "uint32", "uint64", "int8", "int64") for f in (" ", "+", "0", "-", "#")
      for w in (-2, 4)],
    # FractionalAvgPoolGrad: out_backprop of rank 4, each pooling sequence at least its size + 1 elements, the first
    # that many read (sig seed 3220261207 #99)
    *[(f"FractionalAvgPoolGrad out_backprop {g} rows {r} cols {c}", _K, _eager(
        f"tf.raw_ops.FractionalAvgPoolGrad(out_backprop=tf.ones({g}, tf.float64), col_pooling_sequence={c}, "
        f"row_pooling_sequence={r}, orig_input_tensor_shape=[1, 7, 7, 1], overlapping=False)")) for g, r, c in (
        ([4], [[1, 3]], [0, 0, 1]), ([1, 2, 3, 1], [[1, 3]], [0, 0, 1]), ([1, 2, 3, 1], [0, 1, 2], [0, 0, 1]),
        ([1, 2, 3, 1], [0, 1, 2], [[0, 1, 2, 3]]), ([1, 2, 3, 1], [0, 2], [0, 1, 2, 3]),
        ([1, 2, 3, 1], [0, 1, 2, 3, 4], [0, 1, 2, 3]), ([1, 2, 3, 1], [0, 3, 7], [0, 2, 4, 7, 7]))],
    # MaxPool's NCHW_VECT_C shape function; ScatterNdShapeHelper's NumElements of [None, 0, 1, 0] (sig seed
    # 3220261207 #114, #189)
    *[(f"MaxPool NCHW_VECT_C of {sp} in an input_signature", _T, _sig_trace(
        "tf.raw_ops.MaxPool(strides=[1, 1, 2, 1], data_format='NCHW_VECT_C', input=x0, ksize=[1, 3, 2, 1], "
        "padding='VALID')", [(sp, "float32")])) for sp in ([None, 3, 3, None], [1, 3, 3, 2, 4], None, [1, 3, 3, 2, 8])],
    *[(f"TensorScatterSub of {t} and updates {u} in an input_signature", _T, _sig_trace(
        "tf.raw_ops.TensorScatterSub(tensor=x0, updates=x1, indices=[0, 1])", [(t, "int16"), (u, "int16")]))
      for t, u in (([None, 0, 1, 0], [1, 0]), ([None, 2, 1, 3], [1, 3]), ([5, 2, 1, 3], [1, 3]), ([0, None], [1]))],
    # TridiagonalMatMulShapeFn with inputs of unknown rank (sig seed 3220261211 #77)
    *[(f"TridiagonalMatMul {sp} in an input_signature", _T, _sig_trace(
        "tf.raw_ops.TridiagonalMatMul(superdiag=x0, maindiag=x1, subdiag=x2, rhs=x3)", [(s, "float64") for s in sp]))
      for sp in ([[1, 2, 2], [None, None, 2], None, [None, None, 2]], [None, None, [1, 2, 2], [None, None, 2]],
                 [[1, 1, 2], None, None, [3, 2, 2]], [[1, 1, 2], None, None, [1, 3, 2]], [None, None, None, [1, 3, 2]],
                 [[2, 1, 4], None, None, None], [None, [3, 1, 4], None, [2, 4, 3]])],
    # MaxPoolGradWithArgmax of an input_signature input of unknown rank traces (sig seed 3220261211 #40)
    *[(f"MaxPoolGradWithArgmax input {x} in an input_signature", _T, _sig_trace(
        "tf.raw_ops.MaxPoolGradWithArgmax(padding='VALID', grad=x1, input=x0, ksize=[1, 1, 3, 1], "
        "include_batch_in_index=False, argmax=tf.constant([0, 0, 2, 3], tf.int64), strides=[1, 3, 3, 1])",
        [(x, "float32"), ([1, 4], "float32")])) for x in (None, [2, 3, 3], [None, None, None, None])],
    # Eigen's betainc_impl (tape seed 3220261206 #143): NaN where lgamma(a + b) - lgamma(a) is inf - inf
    *[(f"Betainc {dt} of 20 (a, b, x)", _S, _eager(_BETA.format(a=_BETA_ABX[0], b=_BETA_ABX[1], x=_BETA_ABX[2], dt=dt)))
      for dt in ("float32", "float64")],
    ("Betainc float32 of NaN, 2, 0", _S, _eager("tf.raw_ops.Betainc(a=tf.constant(float('nan')), b=tf.constant(2.0), "
                                               "x=tf.constant(0.0))")),
    # Split's shape function: MakeDimForScalarInputWithNegativeIndexing (sig seed 3220261206 #233)
    *[(f"{name} in an input_signature", _T, _sig_trace(expr, sp)) for name, expr, sp in (
        ("Split axis [-2] of [None, None]", "tf.raw_ops.Split(axis=[-2], num_split=3, value=x0)", [([None, None], "float32")]),
        ("Split axis [0] of [3, 3]", "tf.raw_ops.Split(axis=[0], num_split=3, value=x0)", [([3, 3], "float32")]),
        ("Split axis 2 of [3, 3]", "tf.raw_ops.Split(axis=2, num_split=3, value=x0)", [([3, 3], "float32")]),
        ("Split axis -3 of [3, 3]", "tf.raw_ops.Split(axis=-3, num_split=3, value=x0)", [([3, 3], "float32")]),
        ("Split 2 ways of 3", "tf.raw_ops.Split(axis=1, num_split=2, value=x0)", [([3, 3], "float32")]),
        ("Split axis of a [1] signature", "tf.raw_ops.Split(axis=x1, num_split=2, value=x0)",
         [([3, 3], "float32"), ([1], "int32")]),
        ("Split axis of an unknown signature", "tf.raw_ops.Split(axis=x1, num_split=2, value=x0)",
         [([3, 3], "float32"), (None, "int32")]),
        ("Split of an unknown value", "tf.raw_ops.Split(axis=1, num_split=2, value=x0)", [(None, "float32")]),
        ("SplitV axis [1]", "tf.raw_ops.SplitV(axis=[1], size_splits=[1, 2], value=x0, num_split=2)",
         [([3, 3], "float32")]))],
]


EDGES = edge_compare.EdgeModule(__file__, CASES, agree=lambda case: edge_compare.parts_agree)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("ops.fuzz-raw")
@EDGES.parametrize("ops.fuzz-raw")
def test_raw_kernel_checks(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("function.trace-time-errors")
@EDGES.parametrize("function.trace-time-errors")
def test_trace_time_errors(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.complex")
@EDGES.parametrize("ops.complex")
def test_complex_functions_under_daz_ftz(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.special-more")
@EDGES.parametrize("ops.special-more")
def test_betainc_is_eigens(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


def test_every_case_has_a_test() -> None:
    untested = EDGES.untested()
    assert not untested, f"cases of groups {untested} have no test function above"


if __name__ == "__main__":  # TF worker: python test_fz32a_edges_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
