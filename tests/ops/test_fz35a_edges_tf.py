"""Rules behind the twentieth fuzzer's classes that fz35a closed (fresh campaigns of session 35: seeds
3520261201- in every mode), each against real TensorFlow 2.21: the same call on both backends gives the same
dtype and values bit for bit (a NaN matching any NaN), or raises the same exception class. Needs the `tf` extra.

The oneDNN convolution cases run float32 and bfloat16, which oneDNN takes on every AVX-512 host (the goldens'
reference host and session 35's Intel Xeon alike: host_cpu.onednn_supports); none gives an output of no
elements, whose shape differs between those hosts (host_cpu.CPUModel.conv_empty_input_shaped). Their inputs
are small multiples of 1/4, so every sum is exact in either order.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

import pytest

import edge_compare
from edge_programs import eager as _eager, tape as _tape, traced as _traced
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause

_K = "ops.fuzz-raw"
_T = "function.trace-time-errors"
_L = "ops.linalg-more"

_X = {"NHWC": "tf.constant(np.arange(32, dtype=np.float32).reshape(1, 4, 4, 2) / 4)",
      "NCHW": "tf.constant(np.arange(32, dtype=np.float32).reshape(1, 2, 4, 4) / 4)"}
_F = {"Conv2D": "tf.constant(np.arange(24, dtype=np.float32).reshape(2, 2, 2, 3) / 4 - 2)",
      "DepthwiseConv2dNative": "tf.constant(np.arange(8, dtype=np.float32).reshape(2, 2, 2, 1) / 4 - 1)"}

# (padding, explicit_paddings, data_format): what oneDNN's eager forward reads (onednn_padding.py)
_PADDINGS = [
    ("EXPLICIT", [], "NHWC"),                          # no list: zero pads
    ("EXPLICIT", [0, 0, 0, 0, 0, 0], "NHWC"),          # zeros of any length
    ("EXPLICIT", [1, 1, 0, 0, 0, 0, 1, 1], "NHWC"),    # batch and depth places unread
    ("EXPLICIT", [0, 0, 1, 2, 0, 1, 5, 5], "NHWC"),
    ("EXPLICIT", [0, 0, 1, 0, 1, 0], "NHWC"),          # six values: the NHWC places 2-5
    ("EXPLICIT", [0, 0, 1, 0, 1, 0, 0, 0, 0, 0], "NHWC"),
    ("VALID", [0, 0, 1, 1, 1, 1, 0, 0], "NHWC"),       # a nonzero list pads whatever the padding attr
    ("SAME", [0, 0, 1, 1, 1, 1, 0, 0], "NHWC"),
    ("VALID", [0, 0, 0, 0, 0, 0, 0, 0], "NHWC"),
    ("EXPLICIT", [0, 0, 0, 0, 0, -1], "NHWC"),         # a negative pad: the primitive's AbortedError
    ("EXPLICIT", [0, 0, -1, 0, 0, 0, 0, 0], "NHWC"),
    ("EXPLICIT", [0, 0, -3, -3, 0, 0, 0, 0], "NHWC"),  # ... or the window sizes' error first
    ("EXPLICIT", [], "NCHW"),
    ("EXPLICIT", [0, 0, 0, 0, 1, 1, 1, 1], "NCHW"),
    ("EXPLICIT", [1, 0, 0, 0, 1, 2, 0, 1], "NCHW"),
]


def _conv(op: str, dt: str, padding: str, ex: list[int], fmt: str) -> str:
    return (f"tf.raw_ops.{op}(input=tf.cast({_X[fmt]}, tf.{dt}), filter=tf.cast({_F[op]}, tf.{dt}), "
            f"strides=[1, 1, 1, 1], padding='{padding}', explicit_paddings={ex}, data_format='{fmt}')")


def _conv_cases() -> list[tuple[str, str, Any]]:
    out: list[tuple[str, str, Any]] = []
    for op in ("Conv2D", "DepthwiseConv2dNative"):
        for dt in ("float32", "bfloat16"):
            for padding, ex, fmt in _PADDINGS:
                out.append((f"{op} {dt} {fmt} {padding} explicit_paddings={ex}", _K, _eager(_conv(op, dt, padding, ex,
                                                                                                   fmt))))
        # in a graph the shape function's CheckValidPadding refuses such lists at trace (ValueError)
        for padding, ex in (("EXPLICIT", []), ("VALID", [0, 0, 1, 1, 1, 1, 0, 0])):
            out.append((f"{op} float32 {padding} explicit_paddings={ex} in a tf.function", _K,
                        _traced(_conv(op, "float32", padding, ex, "NHWC"))))
    return out


_CAST_VALUES = ("[-1.5, 0.75, 0.0, -3.0, 2.5, -0.0, 1.1, 3.3, 1e300, 5e-324, 2.2250738585072014e-308, float('inf'), "
                "float('nan')]")


def _cast_cases() -> list[tuple[str, str, Any]]:
    """Cast with Truncate=True to a complex output (LSBZeroSetter's mantissa widths)."""
    out: list[tuple[str, str, Any]] = []
    for src, dst in (("float64", "complex64"), ("float64", "complex128"), ("float32", "complex64"),
                     ("float16", "complex64"), ("complex128", "complex64")):
        expr = f"tf.raw_ops.Cast(x=tf.cast(tf.constant({_CAST_VALUES}, tf.float64), tf.{src}), Truncate=True, DstT=tf.{dst})"
        out.append((f"Cast {src} to {dst} Truncate", _K, _eager(expr)))
        out.append((f"Cast {src} to {dst} Truncate in a tf.function", _K, _traced(expr)))
    return out


def _sig_trace(expr: str, specs: list[tuple[list[int | None] | None, str]]) -> Callable[[Any], Any]:
    """get_concrete_function of `lambda x0, ...: expr` with an input_signature of `specs` (its trace-time
    error, if any)."""
    def run(tf: Any) -> Any:
        fn = eval("lambda " + ", ".join(f"x{i}" for i in range(len(specs))) + ": " + expr, {"tf": tf})  # noqa: S307
        tf.function(fn, input_signature=[tf.TensorSpec(s, getattr(tf, d)) for s, d in specs],
                    autograph=False).get_concrete_function()
        return "traced"
    return run


def _sig_call(expr: str, specs: list[tuple[list[int | None] | None, str]], args: list[str]) -> Callable[[Any], Any]:
    """As _sig_trace, then a call of the concrete function on `args` (its error class, or its result)."""
    def run(tf: Any) -> Any:
        fn = eval("lambda " + ", ".join(f"x{i}" for i in range(len(specs))) + ": " + expr, {"tf": tf})  # noqa: S307
        g = tf.function(fn, input_signature=[tf.TensorSpec(s, getattr(tf, d)) for s, d in specs], autograph=False)
        g.get_concrete_function()
        return g(*[eval(a, {"tf": tf, "np": np}) for a in args])  # noqa: S307
    return run


def _shape_fn_cases() -> list[tuple[str, str, Any]]:
    out: list[tuple[str, str, Any]] = []
    # DrawBoundingBoxes: images of rank 4 and a known depth of 1, 3 or 4, boxes of rank 3 and last dimension 4
    # (V2's shape function checks only the images' rank >= 3)
    for op in ("DrawBoundingBoxes", "DrawBoundingBoxesV2"):
        extra = ", colors=tf.constant([[1.0, 0.0, 0.0, 1.0]])" if op.endswith("V2") else ""
        for si, sb in (([1, 1, 4, 2], [1, 1, 4]), ([None, None, None, 2], [None, None, None]), ([1, 1, 4, 3], [1, 2, 4]),
                       ([1, 1, 4, 3], [1, 2, 3]), (None, [1, 2, 3]), ([1, 1, 4, None], [1, 2, None]),
                       ([1, 1, 4, 5], [None, None, None]), ([1, 1, 4, 3], [1, 1, 4, 2])):
            out.append((f"{op} images {si} boxes {sb} in an input_signature", _T,
                        _sig_trace(f"tf.raw_ops.{op}(images=x0, boxes=x1{extra})", [(si, "float32"), (sb, "float32")])))
    # ReverseSequence's negative batch_dim: the shape function's only where the input's rank is known
    for spec in (None, [None, 2], [3, 2]):
        expr = "tf.raw_ops.ReverseSequence(input=x0, seq_lengths=tf.constant([0], tf.int32), seq_dim=1, batch_dim=-1)"
        out.append((f"ReverseSequence batch_dim=-1 of {spec} in an input_signature", _T, _sig_trace(expr, [(spec, "float32")])))
    out.append(("ReverseSequence batch_dim=-1 of an unknown rank, called", _T,
                _sig_call("tf.raw_ops.ReverseSequence(input=x0, seq_lengths=tf.constant([0], tf.int32), seq_dim=1, "
                          "batch_dim=-1)", [(None, "float32")], ["tf.ones([1, 2])"])))
    # Substr: pos's dimensions against len's, each unknown one -1 (a len of unknown rank: all unknown)
    for sp, sl in (([4], None), (None, [4]), (None, None), ([4], [None]), ([None], [4]), ([None], [None]), ([], None),
                   (None, []), ([2, 2], [2, None]), ([None, 2], None)):
        out.append((f"Substr pos {sp} len {sl} in an input_signature", _T, _sig_trace(
            "tf.raw_ops.Substr(input=tf.constant(['abcd'] * 4), pos=x0, len=x1, unit='UTF8_CHAR')",
            [(sp, "int32"), (sl, "int32")])))
    return out


def _resize_grad_cases() -> list[tuple[str, str, Any]]:
    """ImageResizerGradientState's checks: grads' and the original's sizes positive."""
    out: list[tuple[str, str, Any]] = []
    for op in ("ResizeBicubicGrad", "ResizeBilinearGrad"):
        for gs, os_ in (((3, 1, 0, 0), (3, 1, 0, 0)), ((1, 2, 2, 1), (1, 0, 2, 1)), ((1, 2, 2, 1), (1, 4, 0, 1)),
                        ((1, 0, 2, 1), (1, 4, 4, 1)), ((1, 2, 2, 0), (1, 4, 4, 0)), ((0, 2, 2, 1), (0, 4, 4, 1))):
            expr = (f"tf.raw_ops.{op}(grads=tf.ones({list(gs)}), original_image=tf.zeros({list(os_)}, tf.float64), "
                    "align_corners=False, half_pixel_centers=False)")
            out += [(f"{op} grads {gs} original {os_}", _K, _eager(expr)),
                    (f"{op} grads {gs} original {os_} in a tf.function", _K, _traced(expr))]
    for op in ("ResizeBicubicGrad", "ResizeBilinearGrad"):   # (the constructor's attr check comes first)
        for hp, ac, gs in ((True, True, [1, 2, 2, 1]), (True, True, [1, 0, 2, 1]), (True, False, [1, 2, 2, 1]),
                           (False, True, [1, 2, 2, 1])):
            out.append((f"{op} half_pixel_centers={hp} align_corners={ac} grads {gs}", _K, _eager(
                f"tf.raw_ops.{op}(grads=tf.ones({gs}), original_image=tf.ones([1, 3, 3, 1]), align_corners={ac}, "
                f"half_pixel_centers={hp})")))
    return out


def _pool_v2_cases() -> list[tuple[str, str, Any]]:
    """MaxPoolGradV2 / MaxPoolGradGradV2: Compute's three rank checks before ksize's and strides' (read from
    their tensors), eagerly and in a tf.function (where the shape function checks orig_input's rank)."""
    out: list[tuple[str, str, Any]] = []
    for op in ("MaxPoolGradV2", "MaxPoolGradGradV2"):
        for shapes in (((2, 2), (1, 1, 1, 1), (1, 1, 1, 1)), ((1, 1, 1, 1), (1, 1), (1, 1, 1, 1)),
                       ((1, 1, 1, 1), (1, 1, 1, 1), (1, 1)), ((1, 1, 1, 1), (1, 1, 1, 1), (1, 1, 1, 1))):
            for ks in ([2, 1, 1, 1], [1, 1], [1, 1, 1, 2], [1, 1, 1, 1]):
                expr = (f"tf.raw_ops.{op}(orig_input=tf.ones({list(shapes[0])}), orig_output=tf.ones({list(shapes[1])}), "
                        f"grad=tf.ones({list(shapes[2])}), ksize={ks}, strides=[-1, 1, 1, 1], padding='VALID')")
                out.append((f"{op} {shapes} ksize {ks}", _K, _eager(expr)))
                out.append((f"{op} {shapes} ksize {ks} in a tf.function", _K, _traced(expr)))
    return out


_INVERT = [(v, dt) for v in ("[[0]]", "0", "[[1, 0]]", "[[]]", "[1, 0]", "[0, 0]", "[2, 0]", "[]") for dt in ("int32", "int64")]


# LRN rows holding inf or NaN: the band-matrix contraction's inf * 0 makes every channel outside their windows NaN
# (the outputs here are NaN or 0 throughout, so their last bits are no question)
_LRN_X = "[[[[4.0, 0.5, -np.inf]], [[np.inf, np.nan, 2.5]]], [[[1e20, 3.0, 0.0]], [[np.nan, 0.0, 0.0]]]]"
_LRN = [(dt, r, beta) for dt in ("float32", "float16") for r in (0, 1, 2) for beta in (0.5, 1.0, 0.75)]


_STRONG = [(key, inp) for key in ([0], [1, 2], [1, 2, 3], []) for inp in ([], ["a"])]


_DIM_MAP = ("[-9223372036854775808, 9223372036854775807, 9223372036854775806, 9223372036854775805, -9, -8, -5, -4, -1, 0, "
            "1, 3, 4, 5, 8, 9]")
_DIM_MAP32 = "[2147483647, 2147483646, 2147483645, -2147483648, -9, -5, -4, -1, 0, 3, 4, 9]"


def _grouped_backprop_cases() -> list[tuple[str, str, Any]]:
    """TF's own (float64) Conv2D backprops compute no groups: after the window and out_backprop checks, the
    filter's "filter_size does not have enough elements", the input's "Gradients for grouped convolutions are not
    supported on CPU"."""
    out: list[tuple[str, str, Any]] = []
    for fs in ([4, 3, 1, 4], [4, 3, 2, 4], [2, 2, 1, 4], [1, 1, 1, 4], [1, 1, 4, 4]):
        for st in ([1, 1, 3, 1], [1, 1, 1, 1]):
            for pad in ("SAME", "VALID"):
                out.append((f"Conv2DBackpropFilter float64 filter_sizes {fs} strides {st} {pad}", _K, _eager(
                    f"tf.raw_ops.Conv2DBackpropFilter(input=tf.ones([4, 3, 1, 4], tf.float64), filter_sizes={fs}, "
                    f"out_backprop=tf.ones([4, 3, 1, 4], tf.float64), strides={st}, padding='{pad}')")))
    for fs, isz, dys in (([2, 2, 1, 4], [1, 4, 4, 2], [1, 3, 3, 4]), ([2, 2, 1, 4], [1, 4, 4, 3], [1, 3, 3, 4]),
                         ([2, 2, 1, 4], [1, 4, 4, 2], [1, 2, 2, 4]), ([2, 2, 2, 4], [1, 4, 4, 2], [1, 3, 3, 4]),
                         ([1, 1, 1, 2], [1, 2, 2, 2], [1, 2, 2, 2])):
        out.append((f"Conv2DBackpropInput float64 filter {fs} input_sizes {isz} out_backprop {dys}", _K, _eager(
            f"tf.raw_ops.Conv2DBackpropInput(input_sizes={isz}, filter=tf.ones({fs}, tf.float64), "
            f"out_backprop=tf.ones({dys}, tf.float64), strides=[1, 1, 1, 1], padding='VALID')")))
    return out


def _close(got: np.ndarray, want: np.ndarray) -> np.ndarray:
    """Elementwise |got - want| <= 1e-9 (1 + |want|), complex values by their modulus."""
    if got.dtype.kind not in "fc":
        return np.asarray(got == want)
    return np.abs(got.astype(np.complex128) - want.astype(np.complex128)) <= 1e-9 * (1 + np.abs(want))


# TridiagonalMatMul's gradient (linalg_grad._TridiagonalMatMulGrad) conjugates the diagonals and rhs
_TRI = {"superdiag": "[[[1 + 2j, -1j, 3]]]", "maindiag": "[[[2 - 1j, 1 + 1j, -2j]]]", "subdiag": "[[[0.5j, 2, 1 - 3j]]]",
        "rhs": "[[[1 - 1j, 2j], [3, -1 + 1j], [2 + 2j, -1]]]"}


def _tridiagonal_cases() -> list[tuple[str, str, Any]]:
    out: list[tuple[str, str, Any]] = []
    for dt in ("complex128", "complex64", "float64"):
        for watched in _TRI:
            args = ", ".join(f"{k}=x" if k == watched else
                             f"{k}=tf.cast(tf.constant({v}, tf.complex128), tf.{dt})" for k, v in _TRI.items())
            out.append((f"TridiagonalMatMul {dt} gradient of {watched}", _K, _tape(
                f"tf.raw_ops.TridiagonalMatMul({args}) * tf.cast(tf.constant([[[1 + 1j, 2], [-1j, 1], [3, 1 - 2j]]]), "
                f"tf.{dt})", f"tf.cast(tf.constant({_TRI[watched]}, tf.complex128), tf.{dt})")))
    return out


_HERMITIAN = ["[[1 - 1.5j, 0.001], [7 - 1j, -3j]]", "[[-1 - 3j, 0.75 + 7j], [-1 + 7j, -1 + 4j]]",
              "[[2 + 1j, 9], [1j, 3 - 2j]]", "[[0.5j, 0, 0], [1 - 1j, 2 + 3j, 0], [0.5 + 2j, -1j, -1 - 1j]]"]


_AS_STRING = ["np.array(complex(-1.401298464324817e-45, 0.0), np.complex64)", "np.array([1e-310 + 1e-310j, -5e-324j])",
              "np.array([complex(-1.4e-45, 3e-39)] * 9, np.complex64)", "np.array([1e-310, -5e-324])"]


_X3 = "tf.constant(np.arange(108, dtype=np.float32).reshape(2, 2, 3, 3, 3) / 4)"   # NCDHW
_F3 = "tf.constant(np.arange(48, dtype=np.float32).reshape(2, 2, 2, 2, 3) / 4 - 2)"   # DHWIO
_DY3 = "tf.constant(np.arange(48, dtype=np.float32).reshape(2, 3, 2, 2, 2) / 4)"


def _conv3d_cases() -> list[tuple[str, str, Any]]:
    """oneDNN's 3-D convolutions in NCDHW (float32, bfloat16: computed; float64: TF's own kernels' refusals)."""
    out: list[tuple[str, str, Any]] = []
    for dt in ("float32", "bfloat16", "float64"):
        c = (lambda t: f"tf.cast({t}, tf.{dt})")
        for st in ([1, 1, 1, 1, 1], [1, 1, 2, 1, 1]):
            out.append((f"Conv3D {dt} NCDHW strides {st}", _K, _eager(
                f"tf.raw_ops.Conv3D(input={c(_X3)}, filter={c(_F3)}, strides={st}, padding='VALID', data_format='NCDHW')")))
        out.append((f"Conv3DBackpropInputV2 {dt} NCDHW", _K, _eager(
            f"tf.raw_ops.Conv3DBackpropInputV2(input_sizes=[2, 2, 3, 3, 3], filter={c(_F3)}, out_backprop={c(_DY3)}, "
            "strides=[1, 1, 1, 1, 1], padding='VALID', data_format='NCDHW')")))
        for fs in ([2, 2, 2, 2, 3], [-2, 1], [2, 2, 2, 1, 3]):
            out.append((f"Conv3DBackpropFilterV2 {dt} NCDHW filter_sizes {fs}", _K, _eager(
                f"tf.raw_ops.Conv3DBackpropFilterV2(input={c(_X3)}, filter_sizes={fs}, out_backprop={c(_DY3)}, "
                "strides=[1, 1, 1, 1, 1], padding='VALID', data_format='NCDHW')")))
    return out


_CUDNN = ("tf.raw_ops.CudnnRNNCanonicalToParams(num_layers=1, num_units=1, input_size=1, weights=[tf.ones([2])] * 2, "
          "biases=[tf.ones([2])] * 2, rnn_mode='lstm', input_mode='skip_input', {})")


_POOL16 = [
    ("MaxPool", "tf.raw_ops.MaxPool(input=tf.ones([1, 2, 3, 3], tf.float16), ksize=[1, 1, 2, 2], strides=[1, 1, 1, 1], "
                "padding='VALID', data_format='NCHW')"),
    ("AvgPool", "tf.raw_ops.AvgPool(value=tf.ones([1, 2, 3, 3], tf.float16), ksize=[1, 1, 2, 2], strides=[1, 1, 1, 1], "
                "padding='VALID', data_format='NCHW')"),
    ("AvgPoolGrad", "tf.raw_ops.AvgPoolGrad(orig_input_shape=[1, 2, 3, 3], grad=tf.ones([1, 2, 2, 2], tf.float16), "
                    "ksize=[1, 1, 2, 2], strides=[1, 1, 1, 1], padding='VALID', data_format='NCHW')"),
    ("AvgPoolGrad of a wrong grad", "tf.raw_ops.AvgPoolGrad(orig_input_shape=[1], grad=tf.ones([1], tf.float16), "
                                    "ksize=[1, 3, 3, 1], strides=[1, 1, 3, 1], padding='SAME', data_format='NCHW')"),
]


def _conjugate_transpose_cases() -> list[tuple[str, str, Any]]:
    """ConjugateTranspose of an identity perm in a tf.function: grappler's Conj, complex only."""
    out: list[tuple[str, str, Any]] = []
    for dt in ("bfloat16", "float32", "int32", "bool", "complex64"):
        for perm in ([0, 1], [1, 0]):
            expr = f"tf.raw_ops.ConjugateTranspose(perm=tf.constant({perm}), x=tf.zeros([3, 1], tf.{dt}))"
            out += [(f"ConjugateTranspose {dt} perm {perm}", _K, _eager(expr)),
                    (f"ConjugateTranspose {dt} perm {perm} in a tf.function", _K, _traced(expr))]
    for dt in ("bfloat16", "float32", "int32", "complex64"):   # (x an argument: not folded)
        out.append((f"ConjugateTranspose {dt} of an argument, identity perm, in an input_signature", _K, _sig_call(
            "tf.raw_ops.ConjugateTranspose(perm=tf.constant([0, 1]), x=x0)", [([None, None], dt)],
            [f"tf.zeros([3, 1], tf.{dt})"])))
    for perm, spec, val in (([], None, "2"), ([0], [None], "[2]"), ([0], None, "[2]"), ([0, 1], None, "[[2]]"),
                            ([0, 1, 2], [None, None, None], "[[[2]]]")):   # (perms of 0 or 1 entries: no Conj)
        out.append((f"ConjugateTranspose int8 perm {perm} of a {spec} argument", _K, _sig_call(
            f"tf.raw_ops.ConjugateTranspose(perm={perm}, x=x0)", [(spec, "int8")], [f"tf.constant({val}, tf.int8)"])))
    out.append(("ConjugateTranspose float32 of an identity perm given as an argument", _K, _sig_call(
        "tf.raw_ops.ConjugateTranspose(perm=x1, x=x0)", [([None, None], "float32"), ([2], "int32")],
        ["tf.zeros([3, 1])", "tf.constant([0, 1])"])))
    return out


CASES: list[tuple[Any, ...]] = [
    *_conjugate_transpose_cases(),
    # float16 channels-first pools: MaxPool's oneDNN kernel takes half, AvgPool's and AvgPoolGrad's are float32 and
    # bfloat16 only (TF's own kernel refuses NCHW); the same on every CPU without oneDNN's half (the refusal too)
    *[(f"{n} float16 NCHW", _K, _eager(e)) for n, e in _POOL16],
    # every attr's make_* conversion (TypeError) before a string attr's allowed values
    *[(f"CudnnRNNCanonicalToParams {kw}{where}", _K, run(_CUDNN.format(kw)))
      for kw in ("dropout='x'", "direction='BOGUS'", "seed='a'", "dropout='x', direction='BOGUS'",
                 "direction='BOGUS', seed='a'")
      for where, run in (("", _eager), (" in a tf.function", _traced))],
    *_conv3d_cases(),
    # AsString reads subnormal parts of complex numbers as zeros of their sign (DAZ), as the real dtypes' values
    *[(f"AsString of {v} scientific={sci}", _K, _eager(
        f"tf.raw_ops.AsString(input=tf.constant({v}), precision=1, scientific={sci}, shortest=False, fill='')"))
      for v in _AS_STRING for sci in (True, False)],
    *_tridiagonal_cases(),
    # SelfAdjointEigV2 of a complex matrix reads the lower triangle and the diagonal's real part only (also in the
    # tridiagonalization's product): values to 1e-9 (the QR iteration's last bits are not the question here)
    *[(f"SelfAdjointEigV2 {dt} of {m} compute_v={cv}", _L, _eager(
        f"tf.raw_ops.SelfAdjointEigV2(input=tf.constant({m}, tf.{dt}), compute_v={cv})[{0 if not cv else ':'}]"),
       _close) for m in _HERMITIAN for dt in ("complex128",) for cv in (False, True)],
    *_grouped_backprop_cases(),
    # DataFormatDimMap: (x + n) % n in T, wrapping, the last place for every other remainder
    *[(f"DataFormatDimMap {dt} {sf} -> {df}", _K, _eager(
        f"tf.raw_ops.DataFormatDimMap(x=tf.constant({_DIM_MAP if dt == 'int64' else _DIM_MAP32}, tf.{dt}), "
        f"src_format='{sf}', dst_format='{df}')"))
      for dt in ("int64", "int32") for sf, df in (("NHWC", "NCHW"), ("NDHWC", "NCDHW"), ("NHWC", "HWNC"))],
    # StringToHashBucketStrong's constructor: a key of two elements
    *[(f"StringToHashBucketStrong key {key} of {inp}{where}", _K, run(
        f"tf.raw_ops.StringToHashBucketStrong(num_buckets=4, key={key}, input=tf.constant({inp}, tf.string))"))
      for key, inp in _STRONG for where, run in (("", _eager), (" in a tf.function", _traced))],
    ("tf.strings.to_hash_bucket_strong of a one-element key", _K,
     _eager("tf.strings.to_hash_bucket_strong(['a'], 3, [1])")),
    *[(f"LRN {dt} depth_radius {r} beta {beta} of rows with inf and NaN", _K, _eager(
        f"tf.raw_ops.LRN(input=tf.constant(np.array({_LRN_X}, np.float32), tf.{dt}), depth_radius={r}, bias=1.0, "
        f"alpha=0.25, beta={beta})")) for dt, r, beta in _LRN],
    # InvertPermutation's kernel: a vector first ("invert_permutation expects a 1D vector."), then its entries
    *[(f"InvertPermutation {dt} {v}", _K, _eager(f"tf.raw_ops.InvertPermutation(x=tf.constant({v}, tf.{dt}))"))
      for v, dt in _INVERT],
    *_pool_v2_cases(),
    *_conv_cases(),
    *_cast_cases(),
    *_shape_fn_cases(),
    *_resize_grad_cases(),
]


EDGES = edge_compare.EdgeModule(__file__, CASES, agree=lambda case: case[3] if len(case) > 3 else edge_compare.parts_agree)


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


@clause("ops.linalg-more")
@EDGES.parametrize("ops.linalg-more")
def test_self_adjoint_eig_of_complex_diagonals(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


def test_every_case_has_a_test() -> None:
    untested = EDGES.untested()
    assert not untested, f"cases of groups {untested} have no test function above"


if __name__ == "__main__":  # TF worker: python test_fz35a_edges_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
