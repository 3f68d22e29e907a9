"""Rules behind the twentieth fuzzer's classes that fz28a closed (the fresh campaigns eager seed
2820261201, tape seed 2820261202, sig seed 2820261203, eager seed 2820261204, fresh seed 2820261205,
and the two classes left in tests/fuzz20/fz20_seen.py), each against real TensorFlow 2.21: the same
raw call on both backends gives the same dtype and values bit for bit (a NaN matching any NaN), or
raises the same exception class. Eagerly, inside a tf.function, with an input_signature, and under a
GradientTape. Needs the `tf` extra.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import edge_compare
from edge_programs import eager as _eager, sig as _sig, tape as _tape
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause

_T = "function.trace-time-errors"
_K = "ops.fuzz-raw"
_G = "autodiff.op-gradients"

# EuclideanNorm: x * conj(x) with Eigen's product (packets textbook, scalars Annex G), SumReducer, Eigen's sqrt
_Z = "complex('nan+infj')"
_EN = "tf.raw_ops.EuclideanNorm(input=tf.reshape(tf.constant(np.array({v}, np.complex128), tf.{dt}), {shape}), " \
      "axis={axis}, keep_dims={keep})"


def _en(v: str, shape: list, axis: Any, dt: str = "complex64", keep: bool = False) -> Callable[[Any], Any]:
    return _eager(_EN.format(v=v, shape=shape, axis=axis, dt=dt, keep=keep))


def _en_random(seed: int, shape: tuple, axis: Any, dt: str) -> Callable[[Any], Any]:
    """EuclideanNorm of seeded parts drawn from specials (NaN, infinities, 3e38, subnormals) and normals."""
    pool = "[1.0, -3.0, 3e38, -3e38, np.nan, np.inf, -np.inf, 0.0, -0.0, 1e-40, 2.5, 1e20, 1e-25]"
    n = int(np.prod(shape))
    part = "tf.constant(np.random.default_rng({s}).choice(" + pool + ", {n}), tf.{p})"
    p = "float32" if dt == "complex64" else "float64"
    return _eager(f"tf.raw_ops.EuclideanNorm(input=tf.reshape(tf.complex({part.format(s=seed, n=n, p=p)}, "
                  f"{part.format(s=seed + 1, n=n, p=p)}), {list(shape)}), axis={axis})")


def _traced_tape(expr: str, source: str, spec: Any = None) -> Callable[[Any], Any]:
    """The gradient of `expr` (of a watched `x`, made by `source`) under a GradientTape inside a
    tf.function (with a one-spec input_signature when `spec` is given: (shape, dtype name))."""
    def run(tf: Any) -> Any:
        def grad(x: Any) -> Any:
            with tf.GradientTape() as tape:
                tape.watch(x)
                y = eval(expr, {"tf": tf, "np": np, "x": x})  # noqa: S307 - our own text
            return tape.gradient(y, x)
        sig = None if spec is None else [tf.TensorSpec(spec[0], getattr(tf, spec[1]))]
        return tf.function(grad, input_signature=sig, autograph=False)(eval(source, {"tf": tf, "np": np}))  # noqa: S307
    return run


def _grad(expr: str, source: str) -> Callable[[Any], Any]:
    """Only the gradient of `expr` (of a watched `x` made by `source`) under a GradientTape."""
    def run(tf: Any) -> Any:
        return _tape(expr, source)(tf)[1]
    return run


_V3 = "tf.constant([7.0, 0.5, 1.0])"
_M23 = "tf.reshape(tf.range(6.0), [2, 3])"
_SS16 = "tf.raw_ops.StridedSlice(input=x, begin=tf.constant([0], tf.int16), end=tf.constant([2], tf.int16), " \
        "strides=tf.constant([1], tf.int16))"
_IG = "tf.raw_ops.{op}(a=tf.constant({a}, tf.{dt}), x=tf.constant({x}, tf.{dt}))"
_IG_A = "[1e-05, 0.001, 0.3, 2.0, 1e-05, 0.5, 3.0, 0.001]"
_IG_X64 = "[1e-310, -1e-310, 1e-320, 1e-310, -5e-324, 2.2e-308, 2.3e-308, 1e-310]"
_IG_X32 = "[1e-40, -1e-40, 1e-45, 1e-40, -1e-45, 1e-39, 1.2e-38, 1e-40]"
_CAST_V = "[float('inf'), float('-inf'), float('nan'), 3e9, -3e9, 1e10, -1e10, 2.5, -2.5, 65504.0, -65504.0, 1e20, " \
          "4.3e9, 1.8e19, -1e-40, 1e-40, 3.3e38, -3.4e38]"
_P3 = "tf.raw_ops.{op}(input=tf.ones({shape}, tf.{dt}), ksize={k}, strides={s}, padding='{p}')"
_BETA_GRAD = "tf.raw_ops.Betainc(a={a}, b={b}, x=x)"

CASES: list[tuple[str, str, Callable[[Any], Any]]] = [
    # EuclideanNorm of complex (eager seed 2820261201 #44): no FMA in the product, packets by the layout
    ("EuclideanNorm complex64 -3+3e38j", _K, _en("[-3.0 + 3.0000000054977558e+38j]", [1], 0, keep=True)),
    ("EuclideanNorm complex64 3e38+3e38j full", _K, _en("[3e38 + 3e38j] * 5", [5], 0)),
    ("EuclideanNorm complex64 nan+infj in the tail", _K, _en(f"[1, 1, 1, 1, {_Z}]", [5], 0)),
    ("EuclideanNorm complex64 nan+infj in a packet", _K, _en(f"[{_Z}, 1, 1, 1, 1]", [5], 0)),
    ("EuclideanNorm complex64 nothing reduced", _K, _en(f"[{_Z}, 1, 1, 1, 1]", [5], [])),
    ("EuclideanNorm complex64 rows", _K, _en(f"[1, 1, 1, 1, {_Z}] * 2", [2, 5], 1)),
    ("EuclideanNorm complex64 kept inner", _K, _en(f"[1] * 4 + [{_Z}] * 6", [2, 5], 0)),
    ("EuclideanNorm complex64 kept inner, scalar outputs", _K, _en(f"[1] * 8 + [{_Z}] + [1] * 21", [1, 3, 1, 10], [1])),
    ("EuclideanNorm complex64 axes 0 and 2", _K, _en(f"[{_Z}] + [1] * 29", [2, 5, 3], [0, 2])),
    ("EuclideanNorm complex64 middle axis", _K, _en(f"[{_Z}] + [1] * 29", [2, 5, 3], [1])),
    ("EuclideanNorm complex64 transposed rows", _K, _en(f"[1] * 11 + [{_Z}] + [1] * 36", [2, 2, 3, 4], [0, 2])),
    ("EuclideanNorm complex128 tail", _K, _en(f"[1, 1, {_Z}]", [3], 0, "complex128")),
    ("EuclideanNorm complex128 kept inner", _K, _en(f"[{_Z}, {_Z}, 1, 1]", [2, 2], 0, "complex128")),
    ("EuclideanNorm complex64 random [5, 1, 5] axis 1", _K, _en_random(101, (5, 1, 5), [1], "complex64")),
    ("EuclideanNorm complex64 random [3, 4, 5] axes 0, 2", _K, _en_random(102, (3, 4, 5), [0, 2], "complex64")),
    ("EuclideanNorm complex128 random [4, 3, 2, 3] axes 1, 2", _K, _en_random(103, (4, 3, 2, 3), [1, 2], "complex128")),
    ("EuclideanNorm complex128 random [4, 4] nothing", _K, _en_random(104, (4, 4), [], "complex128")),
    ("EuclideanNorm complex64 random [9] full", _K, _en_random(105, (9,), 0, "complex64")),
    # StridedSlice with an int16 Index: _StridedSliceGrad's shape(x, out_type=int16) (tape seed 2820261202 #10)
    ("StridedSlice int16 gradient", _G, _tape(_SS16, _V3)),
    ("StridedSlice int16 gradient, masks", _G, _tape(
        "tf.raw_ops.StridedSlice(strides=tf.constant([2], tf.int16), new_axis_mask=1, input=x, end_mask=2, "
        "end=tf.constant([2], tf.int16), begin=tf.constant([2], tf.int16), shrink_axis_mask=1)",
        "tf.constant([7.0, 0.5], tf.float16)")),
    ("StridedSlice int64 gradient", _G, _tape(_SS16.replace("int16", "int64"), _V3)),
    ("t[int16 tensor] gradient", _G, _tape("x[tf.constant(1, tf.int16)]", _M23)),
    ("t[:int16 tensor] gradient", _G, _tape("x[:tf.constant(1, tf.int16), 0]", _M23)),
    ("tf.strided_slice NumPy int16 gradient", _G, _tape(
        "tf.strided_slice(x, np.array([0], np.int16), np.array([1], np.int16))", _M23)),
    ("StridedSlice int16 gradient in a tf.function", _T, _traced_tape(_SS16, _V3)),
    ("StridedSlice int16 gradient, input_signature [None]", _T, _traced_tape(_SS16, _V3, ([None], "float32"))),
    ("StridedSlice int32 gradient, input_signature [None]", _T, _traced_tape(
        _SS16.replace("int16", "int32"), _V3, ([None], "float32"))),
    # Igamma family of float64 subnormals: log@GLIBC_2.2.5 is -inf under DAZ (eager seed 2820261204 #2)
    ("Igammac float64 subnormal x", _K, _eager(_IG.format(op="Igammac", a=_IG_A, x=_IG_X64, dt="float64"))),
    ("Igamma float64 subnormal x", _K, _eager(_IG.format(op="Igamma", a=_IG_A, x=_IG_X64, dt="float64"))),
    ("IgammaGradA float64 subnormal x", _K, _eager(_IG.format(op="IgammaGradA", a=_IG_A, x=_IG_X64, dt="float64"))),
    ("Igammac float32 subnormal x", _K, _eager(_IG.format(op="Igammac", a=_IG_A, x=_IG_X32, dt="float32"))),
    ("Igammac float64 seed 2820261204 #2", _K, _eager(
        "tf.raw_ops.Igammac(x=tf.constant([[-1.0, 1.0], [1e-310, 1e-40], [2.5, -0.5], [0.5, -3.4e+38]], tf.float64), "
        "a=tf.constant([[0.001, -0.5], [0.001, 0.0], [-1.0, 1.0], [0.5, 0.001]], tf.float64))")),
    # oneDNN's 3-D pools of a rank-4 input: depth 0, an empty output (eager seed 2820261204 #52)
    ("AvgPool3D rank 4 non-empty", _K, _eager(_P3.format(op="AvgPool3D", shape=[2, 4, 2, 3], dt="float32",
                                                         k=[1, 1, 3, 1, 1], s=[1, 2, 2, 1, 1], p="VALID"))),
    ("AvgPool3D rank 4 bfloat16 SAME", _K, _eager(_P3.format(op="AvgPool3D", shape=[2, 4, 5, 3], dt="bfloat16",
                                                             k=[1, 1, 2, 2, 1], s=[1, 1, 2, 2, 1], p="SAME"))),
    ("AvgPool3D rank 4 depth window 5 stride 3", _K, _eager(_P3.format(
        op="AvgPool3D", shape=[2, 4, 2, 3], dt="float32", k=[1, 5, 1, 1, 1], s=[1, 3, 1, 1, 1], p="VALID"))),
    ("AvgPool3D rank 4 depth window 2", _K, _eager(_P3.format(op="AvgPool3D", shape=[2, 4, 2, 3], dt="float32",
                                                              k=[1, 2, 6, 1, 1], s=[1, 1, 1, 1, 1], p="VALID"))),
    ("AvgPool3D rank 4 rows window 6", _K, _eager(_P3.format(op="AvgPool3D", shape=[2, 4, 2, 3], dt="float32",
                                                             k=[1, 1, 6, 1, 1], s=[1, 1, 1, 1, 1], p="VALID"))),
    ("MaxPool3D rank 4 empty depth window 2", _K, _eager(_P3.format(
        op="MaxPool3D", shape=[0, 4, 2, 3], dt="float32", k=[1, 2, 1, 1, 1], s=[1, 1, 1, 1, 1], p="VALID"))),
    ("AvgPool3DGrad rank-4 shape, empty grad", _K, _eager(
        "tf.raw_ops.AvgPool3DGrad(orig_input_shape=tf.constant([2, 4, 2, 3]), grad=tf.ones([2, 0, 1, 2, 3]), "
        "ksize=[1, 1, 3, 1, 1], strides=[1, 2, 2, 1, 1], padding='VALID')")),
    ("AvgPool3D rank 4 under a tape", _G, _tape(_P3.replace("tf.ones({shape}, tf.{dt})", "x").format(
        op="AvgPool3D", k=[1, 1, 3, 1, 1], s=[1, 2, 2, 1, 1], p="VALID"), "tf.ones([2, 4, 2, 3])")),
    ("AvgPool3D rank 4 in a tf.function", _T, _traced_tape(_P3.replace("tf.ones({shape}, tf.{dt})", "x").format(
        op="AvgPool3D", k=[1, 1, 3, 1, 1], s=[1, 2, 2, 1, 1], p="VALID"), "tf.ones([2, 4, 2, 3])")),
    # Cast of bfloat16 to int32/int64: x86's truncation through float32 (fz20_seen seed 2720261205 #185)
    ("Cast bfloat16 to int32", _K, _eager(f"tf.raw_ops.Cast(x=tf.constant({_CAST_V}, tf.bfloat16), DstT=tf.int32)")),
    ("Cast bfloat16 to int64", _K, _eager(f"tf.raw_ops.Cast(x=tf.constant({_CAST_V}, tf.bfloat16), DstT=tf.int64)")),
    ("Cast bfloat16 to int32, one element", _K, _eager("tf.raw_ops.Cast(x=tf.constant([-3.4e38], tf.bfloat16), "
                                                       "DstT=tf.int32)")),
    ("tf.cast bfloat16 NaN to int32", _K, _eager("tf.cast(tf.constant([float('nan'), 7.5], tf.bfloat16), tf.int32)")),
    # Betainc's gradient: reduced over shape(a) vs shape(x) only, reshaped to shape(x) (fz20_seen seed 2720261205 #20)
    ("Betainc gradient, b broadcast beyond a and x", _G, _grad(
        _BETA_GRAD.format(a="tf.constant(0.5)", b="tf.constant([[2.5, 0.001], [0.75, 3.0], [1.0, 0.5]])"),
        "tf.constant(0.25)")),
    ("Betainc gradient, seed 2720261205 #20", _G, _grad(
        _BETA_GRAD.format(a="tf.constant(0.0)", b="tf.constant([[2.5, 0.001], [0.75, -3.0], [-1.0, -0.5]])"),
        "tf.constant(4.0)")),
    ("Betainc gradient, x scalar under a", _G, _grad(
        _BETA_GRAD.format(a="tf.constant([[0.5, 1.5], [2.0, 3.0]])", b="tf.constant([[2.5, 0.25], [0.75, 3.0]])"),
        "tf.constant(0.25)")),
    ("Betainc gradient, same shapes", _G, _grad(
        _BETA_GRAD.format(a="tf.constant([0.5, 1.5, 2.0])", b="tf.constant([2.5, 0.25, 0.75])"),
        "tf.constant([0.25, 0.5, 0.75])")),
    ("Betainc gradient in a tf.function, b broadcast", _T, _traced_tape(
        _BETA_GRAD.format(a="tf.constant(0.5)", b="tf.constant([1.5, 2.5, 0.5])"), "tf.constant(0.25)")),
    ("Betainc gradient, input_signature", _T, _traced_tape(
        _BETA_GRAD.format(a="tf.constant(0.5)", b="tf.constant([1.5, 2.5, 0.5])"), "tf.constant(0.25)", ([], "float32"))),
    # AvgPoolGrad of a gradient whose size is not the pool's output (fresh seed 2820261205 #23): TF's own
    # kernel loops over the gradient (GetBroadcastSize), oneDNN's reads the buffer as [N, OH, OW, C]
    ("AvgPoolGrad float64 wider gradient", _K, _eager(
        "tf.raw_ops.AvgPoolGrad(padding='SAME', strides=[1, 2, 2, 1], grad=tf.constant([[[[0.0], [-3.0]]]], "
        "tf.float64), ksize=[1, 1, 1, 1], orig_input_shape=[1, 1, 2, 1])")),
    ("AvgPoolGrad float64 3x3 gradient of a 2x2 pool", _K, _eager(
        "tf.raw_ops.AvgPoolGrad(padding='VALID', strides=[1, 1, 1, 1], grad=tf.reshape(tf.range(18.0, dtype=tf.float64)"
        " * 0.37 + 0.1, [1, 3, 3, 2]), ksize=[1, 2, 2, 1], orig_input_shape=[1, 3, 3, 2])")),
    ("AvgPoolGrad float64 3x3 gradient of a 2x2 pool, batch 2", _K, _eager(
        "tf.raw_ops.AvgPoolGrad(padding='VALID', strides=[1, 1, 1, 1], grad=tf.reshape(tf.range(36.0, dtype=tf.float64)"
        " * 0.37 + 0.1, [2, 3, 3, 2]), ksize=[1, 2, 2, 1], orig_input_shape=[2, 3, 3, 2])")),
    ("AvgPoolGrad float64 row past the input", _K, _eager(
        "tf.raw_ops.AvgPoolGrad(padding='VALID', strides=[1, 2, 2, 1], grad=tf.ones([1, 3, 3, 1], tf.float64), "
        "ksize=[1, 1, 1, 1], orig_input_shape=[1, 3, 3, 1])")),
    ("AvgPoolGrad float32 wider gradient", _K, _eager(   # (float16 is oneDNN's on the reference host, not here)
        "tf.raw_ops.AvgPoolGrad(padding='SAME', strides=[1, 2, 2, 1], grad=tf.constant([[[[1.0], [-3.0]]]]), "
        "ksize=[1, 1, 1, 1], orig_input_shape=[1, 1, 2, 1])")),
    ("AvgPoolGrad float32 gradient read as the pool's output", _K, _eager(
        "tf.raw_ops.AvgPoolGrad(padding='SAME', strides=[1, 2, 2, 1], grad=tf.reshape(tf.range(1.0, 7.0) * 36.0, "
        "[1, 3, 2, 1]), ksize=[1, 3, 3, 1], orig_input_shape=[1, 4, 5, 1])")),   # (exact sums: oneDNN's order aside)
    # oneDNN's DepthwiseConv2dNative: the batch and channel strides first, UnimplementedError (fresh seed 2820261205 #62)
    ("DepthwiseConv2dNative float32 NCHW channel stride", _K, _eager(
        "tf.raw_ops.DepthwiseConv2dNative(filter=tf.constant([7.0, 0.5]), padding='EXPLICIT', data_format='NCHW', "
        "strides=[1, 3, 2, 1], explicit_paddings=[], input=tf.constant([-0.0, float('inf')]), dilations=[1, 1, 1, 1])")),
    ("DepthwiseConv2dNative bfloat16 NHWC channel stride", _K, _eager(
        "tf.raw_ops.DepthwiseConv2dNative(filter=tf.ones([2, 2, 2, 1], tf.bfloat16), padding='SAME', "
        "strides=[1, 1, 2, 2], input=tf.ones([1, 4, 4, 2], tf.bfloat16))")),
    ("DepthwiseConv2dNative float64 NCHW channel stride", _K, _eager(
        "tf.raw_ops.DepthwiseConv2dNative(filter=tf.ones([2, 2, 2, 1], tf.float64), padding='SAME', data_format='NCHW',"
        " strides=[1, 3, 2, 1], input=tf.ones([1, 2, 4, 4], tf.float64))")),
    # bfloat16 segment extremes keep the chosen subnormal's bits (extra fresh seed 2820261206 #30)
    ("UnsortedSegmentMax bfloat16 subnormal", _K, _eager(
        "tf.raw_ops.UnsortedSegmentMax(num_segments=5, data=tf.constant([[[-3.0], [0.0], [-0.5]], [[0.0], "
        "[float('inf')], [0.001]], [[9.99994610111476e-41], [65504.0], [float('inf')]], [[-1.5], [float('nan')], "
        "[65504.0]]], tf.bfloat16), segment_ids=tf.constant([1, 3, 3, 3], tf.int32))")),
    ("SegmentMin bfloat16 subnormals", _K, _eager(
        "tf.raw_ops.SegmentMin(data=tf.constant([[0.0, 9.18e-41], [-9.18e-41, 0.0], [1.5, -0.0], [9.18e-41, 2.0]], "
        "tf.bfloat16), segment_ids=tf.constant([0, 0, 1, 1]))")),
    # MaxPoolWithArgmax of unknown rank: the kernel's rank error when the graph runs (extra seed 2820261206 #167)
    ("MaxPoolWithArgmax unknown rank, a matrix", _T, _sig(
        "tf.raw_ops.MaxPoolWithArgmax(strides=[1, 1, 2, 1], include_batch_in_index=True, ksize=[1, 3, 2, 1], "
        "padding='SAME', Targmax=tf.int64, input=x)", (None, "uint8"), "tf.constant([[2, 0, 2, 0], [1, 0, 3, 0]], tf.uint8)")),
    ("MaxPoolWithArgmax rank 2 known", _T, _sig(
        "tf.raw_ops.MaxPoolWithArgmax(strides=[1, 1, 2, 1], ksize=[1, 3, 2, 1], padding='SAME', input=x)",
        ([2, None], "uint8"), "tf.constant([[2, 0, 2, 0], [1, 0, 3, 0]], tf.uint8)")),
    ("MaxPoolWithArgmax window larger, rows unknown", _T, _sig(
        "tf.raw_ops.MaxPoolWithArgmax(strides=[1, 1, 1, 1], ksize=[1, 5, 5, 1], padding='VALID', input=x)",
        ([1, None, None, 1], "float32"), "tf.ones([1, 3, 3, 1])")),
    # Python lists to tensors eagerly (py_seq_tensor.cc): the first leaf's converter takes the bools
    # after a number; a complex after a number is "mixed types" for any dtype but complex128
    ("tf.constant [1, True]", _K, _eager("tf.constant([1, True])")),
    ("tf.constant [1.5, True, 2]", _K, _eager("tf.constant([1.5, True, 2])")),
    ("tf.constant [2j, True]", _K, _eager("tf.constant([2j, True])")),
    ("tf.constant [[1, 2], [True, 3]]", _K, _eager("tf.constant([[1, 2], [True, 3]])")),
    ("tf.constant [True, 1]", _K, _eager("tf.constant([True, 1])")),
    ("tf.constant [1, np.bool_(True)]", _K, _eager("tf.constant([1, np.bool_(True)])")),
    ("tf.constant [1.5, 0-d bool array] as string", _K, _eager("tf.constant([1.5, np.array(False)], tf.string)")),
    ("tf.constant [1, True] as string", _K, _eager("tf.constant([1, True], tf.string)")),
    ("tf.constant [1, 2j] as complex64", _K, _eager("tf.constant([1, 2j], tf.complex64)")),
    ("tf.constant [1.5, 2j] as float32", _K, _eager("tf.constant([1.5, 2j], tf.float32)")),
    ("tf.constant [1, 2j] as complex128", _K, _eager("tf.constant([1, 2j], tf.complex128)")),
    ("tf.constant [2j, 1] as complex64", _K, _eager("tf.constant([2j, 1], tf.complex64)")),
    ("tf.constant [1, 2j] as complex64 in a tf.function", _T, lambda tf: tf.function(
        lambda: tf.constant([1, 2j], tf.complex64), autograph=False)()),
    ("EuclideanNorm complex64 in a tf.function", _T, _sig(
        "tf.raw_ops.EuclideanNorm(input=x, axis=0)", ([None], "complex64"),
        f"tf.constant(np.array([1, 1, 1, 1, {_Z}]), tf.complex64)")),
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


@clause("autodiff.op-gradients")
@EDGES.parametrize("autodiff.op-gradients")
def test_gradients(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


def test_every_case_has_a_test() -> None:
    untested = EDGES.untested()
    assert not untested, f"cases of groups {untested} have no test function above"


if __name__ == "__main__":  # TF worker: python test_fz28a_edges_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
