"""Rules behind the twentieth fuzzer's classes that fz36a closed (fresh campaigns of session 36: seeds
3620261201- in every mode), each against real TensorFlow 2.21: the same call on both backends gives the same
dtype and values bit for bit (a NaN matching any NaN), or raises the same exception class. Needs the `tf` extra.

The oneDNN convolution cases run float32 and bfloat16, which oneDNN takes on every AVX-512 host (the goldens'
reference host and session 36's Intel Xeon alike: host_cpu.onednn_supports); float16, which only an AVX512-FP16
host gives oneDNN, is left out. None gives an output of no elements whose shape differs between hosts.
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


def _grad_in_function(expr: str, source: str) -> Callable[[Any], Any]:
    """The expression of a variable `x` (made by `source`) under a GradientTape inside a tf.function, and its
    gradient."""
    def run(tf: Any) -> Any:
        x = eval(source, {"tf": tf, "np": np})  # noqa: S307

        def f() -> Any:
            with tf.GradientTape() as tape:
                y = eval(expr, {"tf": tf, "np": np, "x": x})  # noqa: S307
            return tape.gradient(y, x)
        return tf.function(f, autograph=False)()
    return run


# --- Xlogy of a subnormal y in the scalar tail (glibc's logf under DAZ: log(2**-150)), broadcast, bfloat16
_XLOGY = [
    ("[0.25, -1, 1e-40, 0, -0.0, 2]", "[1e-40, 1e-40, 1e-40, 1e-40, 1e-40, -1e-40]"),
    ("[0.25, -1, 1]", "[1e-40]"), ("[0.25]", "[1e-40, 1, -1e-40]"), ("[[0.25], [2]]", "[[1e-40, 1, -1e-40]]"),
    ("np.ones(9)", "np.full(9, 1e-40)"), ("np.ones([3, 3])", "np.full([3], 1e-40)"), ("0.5", "1e-40"),
    ("[[-1.0, 0.25, 0.75]]", "[[4.0, 1e-40, -1.0]]"),
]


def _xlogy_cases() -> list[tuple[str, str, Any]]:
    return [(f"Xlogy {dt} x={x} y={y}", _K, _eager(
        f"tf.raw_ops.Xlogy(x=tf.constant(np.array({x}, np.float32), tf.{dt}), "
        f"y=tf.constant(np.array({y}, np.float32), tf.{dt}))")) for dt in ("float32", "bfloat16") for x, y in _XLOGY]


# --- Angle: atan2f/atan2 of every element under DAZ/FTZ
def _angle_values(part: str) -> str:
    tiny = "1e-40" if part == "float32" else "1e-310"
    least = "1.4e-45" if part == "float32" else "5e-324"
    parts = ["0.0", "-0.0", "1.0", "-1.0", "2.0", tiny, f"-{tiny}", least, "0.5", "-3e38", "float('inf')",
             "float('nan')"]
    return "[" + ", ".join(f"complex({a}, {b})" for a in parts for b in parts) + "]"


def _angle_cases() -> list[tuple[str, str, Any]]:
    out = []
    for ct, ft in (("complex64", "float32"), ("complex128", "float64")):
        expr = f"tf.raw_ops.Angle(input=tf.constant(np.array({_angle_values(ft)}, np.{ct})), Tout=tf.{ft})"
        out.append((f"Angle {ct} of subnormal, infinite and NaN parts", _K, _eager(expr)))
        out.append((f"Angle {ct} of subnormal, infinite and NaN parts in a tf.function", _K, _traced(expr)))
    return out


# --- SparseSlice: the TensorShape's checks, then the output dimensions with C++'s wrapping int64 sums
_SLICE = [([[0]], [-1], [0], [1]), ([[0]], [3], [9223372036854775806], [1]), ([[0]], [3], [2], [9223372036854775806]),
          ([[0]], [-1], [-1], [1]), ([[0]], [3], [-1], [1]), ([[0]], [3], [0], [-1]), ([[0]], [3], [5], [1]),
          ([[1]], [3], [1], [9223372036854775807]), ([[1]], [3], [-2], [9223372036854775807]),
          ([[0]], [3], [-9223372036854775807], [-9223372036854775807]), ([[0, 0]], [2**62, 4], [0, 0], [1, 1]),
          ([[0, 0]], [-1, -2], [0, 0], [1, 1]), ([[0, 0]], [3, 3], [0, 0], [-1, -2]),
          ([[0, 0]], [3, 3], [0, 0], [2**62, 2**62]), ([[2]], [3], [2], [-9223372036854775807]),
          ([[0]], [9223372036854775807], [0], [9223372036854775807]), ([[5]], [3], [6], [-9223372036854775807])]


def _sparse_slice_cases() -> list[tuple[str, str, Any]]:
    return [(f"SparseSlice indices {i} shape {s} start {a} size {b}", _K, _eager(
        f"tf.raw_ops.SparseSlice(indices=tf.constant({i}, tf.int64), values=tf.constant([1.0]), "
        f"shape=tf.constant({s}, tf.int64), start=tf.constant({a}, tf.int64), size=tf.constant({b}, tf.int64))"))
        for i, s, a, b in _SLICE]


# --- Split/SplitV of one output: Grappler's Identity in a graph; SplitV's size check and shape function
def _split_cases() -> list[tuple[str, str, Any]]:
    out = []
    for v, ax in (("tf.constant(1, tf.uint32)", -1), ("tf.constant(1, tf.uint32)", 0),
                  ("tf.constant(np.arange(6.).reshape(2, 3))", 5), ("tf.constant(np.arange(6.).reshape(2, 3))", -3),
                  ("tf.constant(np.arange(6.).reshape(2, 3))", 1)):
        split = f"tf.raw_ops.Split(value={{v}}, num_split=1, axis={ax})"
        split_v = f"tf.raw_ops.SplitV(value={{v}}, num_split=1, axis={ax}, size_splits=[-1])"
        dt = "uint32" if "uint32" in v else "float64"
        for op, text in (("Split", split), ("SplitV", split_v)):
            out.append((f"{op} of one output of {v} axis {ax}", _K, _eager(text.format(v=v))))
            out.append((f"{op} of one output of {v} axis {ax} in a tf.function", _T, _traced(text.format(v=v))))
            out.append((f"{op} of one output of {v} axis {ax} of an unknown rank", _T,
                        _sig_call(text.format(v="x0"), [(None, dt)], [v])))
    for ss in ("[3]", "[2]", "[-1]"):
        out.append((f"SplitV of one output, size_splits {ss}", _K, _eager(
            f"tf.raw_ops.SplitV(value=tf.ones([2, 3]), num_split=1, axis=1, size_splits={ss})")))
    return out


# --- oneDNN's backprops: an operand of no elements (zeros of filter_sizes), an out_backprop of another shape
def _conv_backprop_cases() -> list[tuple[str, str, Any]]:
    out = []
    for dt in ("float32", "bfloat16", "float64"):
        z = f"tf.{dt}"
        for label, kw in (
                ("rank-4 empty input", f"filter_sizes=[1, 3, 0, 2], out_backprop=tf.zeros([0], {z}), "
                                       f"input=tf.zeros([3, 2, 0, 0], {z}), strides=[1, 3, 2, 1, 1], "
                                       "dilations=[1, 2, 2, 1, 1]"),
                ("rank-4 input, empty filter", f"filter_sizes=[1, 3, 0, 2], out_backprop=tf.zeros([0], {z}), "
                                               f"input=tf.ones([3, 2, 1, 1], {z}), strides=[1, 1, 1, 1, 1]"),
                ("empty input, filter_sizes [1, 3, 1, 2]", f"filter_sizes=[1, 3, 1, 2], out_backprop=tf.ones([2], {z}), "
                                                           f"input=tf.zeros([3, 0], {z}), strides=[1, 1, 1, 1, 1]"),
                ("a filter depth of 0", f"filter_sizes=[1, 1, 1, 0, 2], out_backprop=tf.ones([1, 2, 2, 2, 2], {z}), "
                                        f"input=tf.zeros([1, 2, 2, 2, 0], {z}), strides=[1, 1, 1, 1, 1]")):
            out.append((f"Conv3DBackpropFilterV2 {dt} {label}", _K, _eager(
                f"tf.raw_ops.Conv3DBackpropFilterV2(padding='SAME', {kw})")))
        out.append((f"Conv2DBackpropFilter {dt} empty rank-2 input", _K, _eager(
            f"tf.raw_ops.Conv2DBackpropFilter(input=tf.zeros([3, 0], {z}), filter_sizes=[1, 2, 1, 2], "
            f"out_backprop=tf.ones([2], {z}), strides=[1, 1, 1, 1], padding='SAME')")))
        for pad in ("VALID", "SAME"):
            good = [2, 4, 4, 4] if pad == "VALID" else [2, 5, 5, 4]
            for label, ob in (("good", good), ("rows", [2, 3, 4, 4]), ("batch", [1] + good[1:]),
                              ("depth", good[:3] + [2]), ("larger", [2, 6, 6, 4])):
                out.append((f"Conv2DBackpropInput {dt} {pad} out_backprop {label}", _K, _eager(
                    f"tf.raw_ops.Conv2DBackpropInput(input_sizes=[2, 5, 5, 3], filter=tf.ones([2, 2, 3, 4], {z}), "
                    f"out_backprop=tf.ones({ob}, {z}), strides=[1, 1, 1, 1], padding='{pad}')")))
                out.append((f"Conv2DBackpropFilter {dt} {pad} out_backprop {label}", _K, _eager(
                    f"tf.raw_ops.Conv2DBackpropFilter(input=tf.ones([2, 5, 5, 3], {z}), filter_sizes=[2, 2, 3, 4], "
                    f"out_backprop=tf.ones({ob}, {z}), strides=[1, 1, 1, 1], padding='{pad}')")))
    return out


# --- TridiagonalMatMul's complex products: std::complex's operator* (Annex G) on every element
def _tridiagonal_cases() -> list[tuple[str, str, Any]]:
    out = []
    for ct in ("complex64", "complex128"):
        for m, n in ((1, 1), (1, 5), (3, 4), (5, 9)):
            rhs = f"np.where(np.arange({m})[:, None] == {m // 2}, complex(float('nan'), -float('inf')), " \
                  f"np.ones(({m}, {n}))).astype(np.{ct})"
            out.append((f"TridiagonalMatMul {ct} [{m}, {n}] of a NaN-inf row", _K, _eager(
                f"tf.raw_ops.TridiagonalMatMul(superdiag=tf.constant(np.full((1, {m}), 0.5, np.{ct})), "
                f"maindiag=tf.constant(np.full((1, {m}), 0.75j, np.{ct})), "
                f"subdiag=tf.constant(np.full((1, {m}), complex(0.25, float('inf')), np.{ct})), rhs=tf.constant({rhs}))")))
    return out


# --- trace-time shape functions (Gather, MatrixTriangularSolve, AddN, ScatterNd, ParseSequenceExampleV2)
_PSE = ("context_ragged_keys=tf.constant(['a', 'b'], tf.string), serialized=tf.constant(['a', 'b', 'c']), "
        "context_sparse_keys=tf.constant(['x']), feature_list_dense_keys=tf.constant(['e']), "
        "debug_name=tf.constant(['1', '2', '3']), feature_list_sparse_keys=tf.constant(['s']), "
        "context_dense_keys=tf.constant(['d']), feature_list_ragged_keys=tf.constant(['r']), "
        "feature_list_dense_missing_assumed_empty=tf.constant(False), context_dense_defaults=[tf.zeros([4, 3, 3])]")
_PSE_ATTRS = ["Ncontext_sparse=1", "Ncontext_sparse=0", "Ncontext_sparse=0, context_dense_shapes=[[4, 3, 3]], "
              "Nfeature_list_sparse=1", "Ncontext_sparse=0, context_dense_shapes=[[4, 3, 3]], Nfeature_list_sparse=1, "
              "feature_list_sparse_types=[tf.int64], Nfeature_list_dense=1",
              "Ncontext_sparse=0, context_dense_shapes=[[4, 3, 3]], Nfeature_list_sparse=1, "
              "feature_list_sparse_types=[tf.int64], Nfeature_list_dense=1, feature_list_dense_types=[tf.float32]"]


def _shape_fn_cases() -> list[tuple[str, str, Any]]:
    out: list[tuple[str, str, Any]] = []
    for spec in ([], [None], None, [2]):
        out.append((f"Gather of params {spec} in an input_signature", _T,
                    _sig_trace("tf.raw_ops.Gather(params=x0, indices=[0])", [(spec, "float64")])))
    out.append(("Gather of a scalar in a tf.function", _T, _traced("tf.raw_ops.Gather(params=tf.constant(7.0), "
                                                                   "indices=[0])")))
    for ms, rs in (([2, None, 4, None], [None, 1, 1, None]), ([None, 4, None], [None, 1, None]), ([None, None], [1, None]),
                   ([4, None], [1, None]), ([4, None], [4, None])):
        out.append((f"MatrixTriangularSolve matrix {ms} rhs {rs} in an input_signature", _T, _sig_trace(
            "tf.raw_ops.MatrixTriangularSolve(matrix=x0, rhs=x1, adjoint=False)", [(ms, "complex64"), (rs, "complex64")])))
    for sigs in ([[3, None], None, [None, 3, 0, 1]], [[3, None], [3, 2], [None, 3]], [None, [3, 2], [3, None, 1]],
                 [[3, None], None, [2, None]], [[3, None], None, [None, 2]]):
        specs = [(s, "uint8") for s in sigs]
        out.append((f"AddN of {sigs} in an input_signature", _T, _sig_trace("tf.raw_ops.AddN(inputs=[x0, x1, x2])", specs)))
        out.append((f"tf.math.add_n of {sigs} in an input_signature", _T, _sig_trace("tf.math.add_n([x0, x1, x2])", specs)))
    for ix, spec, u, shape in (("[0]", None, "np.zeros((1, 0, 3, 0), bool)", "[]"), ("[0]", None, "np.zeros((1, 3), bool)", "[]"),
                               ("[[0]]", None, "np.array(True)", "[2]"), ("[[0]]", [], "np.array(True)", "[]"),
                               ("[[0], [1]]", None, "np.zeros((2,), bool)", "[]"),
                               ("[[0], [1]]", None, "np.zeros((2,), bool)", "[0]")):
        out.append((f"ScatterNd indices {ix} updates {spec} shape {shape}", _T, _sig_call(
            f"tf.raw_ops.ScatterNd(indices={ix}, updates=x0, shape={shape})", [(spec, "bool")], [f"tf.constant({u})"])))
    # a VALID window longer than an input dimension: the shape function's error where the graph knows the
    # dimension, else the kernel's empty output when the graph runs
    for spec in ([1, 0, None, 2], None, [1, 0, 0, 2]):
        out.append((f"AvgPool NCHW of {spec} in an input_signature, called", _T, _sig_call(
            "tf.raw_ops.AvgPool(ksize=[1, 1, 1, 1], value=x0, data_format='NCHW', strides=[1, 1, 1, 1], "
            "padding='VALID')", [(spec, "float32")], ["tf.zeros([1, 0, 0, 2])"])))
    for spec in ([1, None, None, 2], [1, None, 5, 2], [1, 2, None, 2]):
        out.append((f"MaxPool 3x3 VALID of {spec} in an input_signature, called on [1, 2, 5, 2]", _T, _sig_call(
            "tf.nn.max_pool2d(x0, 3, 1, 'VALID')", [(spec, "float32")], ["tf.zeros([1, 2, 5, 2])"])))
    # LowerBound/UpperBound: the shape function's rank checks see only ranks the graph knows
    for op in ("LowerBound", "UpperBound"):
        for s0, arg in ((None, "tf.constant([[7], [0], [4], [3]])"), (None, "tf.constant([[1, 5, 9]])"),
                        ([None, None], "tf.constant([[1, 5, 9]])"), ([3], "tf.constant([1, 5, 9])"),
                        (None, "tf.constant([1, 5, 9])")):
            out.append((f"{op} sorted_inputs {s0} called on {arg}", _T, _sig_call(
                f"tf.raw_ops.{op}(sorted_inputs=x0, values=tf.constant([[0, 5]]), out_type=tf.int32)",
                [(s0, "int32")], [arg])))
    for attrs in _PSE_ATTRS:
        out.append((f"ParseSequenceExampleV2 {attrs} in a tf.function", _T, _traced(
            f"tf.raw_ops.ParseSequenceExampleV2({_PSE}, {attrs})")))
    # a graph build checks the attrs in the OpDef's order: MaxPoolWithArgmax's ksize, strides, Targmax, padding
    for kw in ("padding='BOGUS', Targmax=tf.float64", "padding='BOGUS', Targmax=tf.int64", "padding='VALID', Targmax=tf.float64",
               "padding='BOGUS', Targmax=tf.int64, ksize=[1, 1, 2]"):
        expr = f"tf.raw_ops.MaxPoolWithArgmax(**dict(dict(ksize=[1, 1, 2, 1], input=tf.zeros([1, 2, 2, 1]), " \
               f"strides=[1, 1, 3, 1]), {kw}))"
        out.append((f"MaxPoolWithArgmax {kw} in a tf.function", _T, _traced(expr)))
        out.append((f"MaxPoolWithArgmax {kw}", _K, _eager(expr)))
    return out


_STITCH = "tf.raw_ops.DynamicStitch(indices=([-1, 0, 3], [1, 2, 2], tf.constant([0, 2, 2], tf.int32)), data=[{0}, {0}, {0}])"
_NGRAMS = ("tf.raw_ops.StringNGrams(data={0}, data_splits={1}, separator='a', ngram_widths={2}, left_pad='', right_pad='a', "
           "pad_width=5, preserve_short_sequences=False)")

CASES: list[tuple[Any, ...]] = [
    *_xlogy_cases(),
    *_angle_cases(),
    *_sparse_slice_cases(),
    *_split_cases(),
    *_conv_backprop_cases(),
    *_tridiagonal_cases(),
    *_shape_fn_cases(),
    # StringNGrams' empty result: the data's shape (an empty object array converted keeps its shape)
    *[(f"StringNGrams widths {w} data {d} splits {s}", _K, _eager(_NGRAMS.format(d, s, w)))
      for w in ("[]", "[2, 1]")
      for d in ("tf.reshape(tf.constant([], tf.string), [1, 0, 3, 1])", "tf.constant(['a', 'b'])")
      for s in ("tf.zeros([1, 0, 3, 1], tf.int32)", "tf.constant([], tf.int64)")],
    ("tf.constant of an empty [1, 0, 3, 1] object array", _K, _eager("tf.constant(np.full([1, 0, 3, 1], b'', object))")),
    ("tf.constant of an empty [2, 0, 3] text array", _K, _eager("tf.constant(np.empty([2, 0, 3], 'U3'))")),
    # the real FFTs' fft_length must be a vector of the FFT's rank (a scalar is refused, eagerly and at trace)
    *[(f"{op} fft_length {fl}{where}", _K if not where else _T, run(
        f"tf.raw_ops.{op}(input={inp}, fft_length={fl}, {attr})"))
      for op, inp, attr in (("IRFFT", "tf.ones([1, 2, 4], tf.complex64)", "Treal=tf.float32"),
                            ("RFFT", "tf.ones([2, 4])", "Tcomplex=tf.complex64"))
      for fl in ("3", "[3]", "tf.constant(3)")
      for where, run in (("", _eager), (" in a tf.function", _traced))],
    # DynamicStitch's negative index: the kernel's error when a graph runs too
    (f"DynamicStitch of a negative index", _K, _eager(_STITCH.format("tf.ones([3, 3], tf.uint8)"))),
    (f"DynamicStitch of a negative index in a tf.function", _K, _traced(_STITCH.format("tf.ones([3, 3], tf.uint8)"))),
    ("DynamicStitch of a negative index in an input_signature", _K, _sig_call(
        _STITCH.format("x0"), [([3, None], "uint8")], ["tf.ones([3, 3], tf.uint8)"])),
    # the sparse segment reductions allocate their output first: TF's OOM
    ("SparseSegmentSqrtNWithNumSegments of 2**31 - 1 segments", _K, _eager(
        "tf.raw_ops.SparseSegmentSqrtNWithNumSegments(data=tf.ones([2, 4, 2, 3], tf.float16), "
        "num_segments=tf.constant(2147483647, tf.int32), segment_ids=[0, 1], indices=tf.constant([1, 1], tf.int64))")),
    # oneDNN's AvgPool3DGrad: an orig_input_shape of no elements gives that empty output before any check
    *[(f"AvgPool3DGrad {dt} orig_input_shape {ois} grad {g}", _K, _eager(
        f"tf.raw_ops.AvgPool3DGrad(orig_input_shape={ois}, grad=tf.zeros({g}, tf.{dt}), ksize=[1, 1, 2, 1, 1], "
        "strides=[1, 1, 1, 3, 1], padding='VALID', data_format='NDHWC')"))
      for dt in ("float32", "bfloat16")
      for ois, g in (([0, 2, 0], [0, 2, 0]), ([0, 2, 0], [1, 2]), ([1, 2, 2, 2, 0], [1, 2, 2, 2, 0]),
                     ([1, 0, 2, 2, 1], [1, 0, 2, 2, 1]))],
    # the TensorScatter ops copy the tensor (its subnormal bits kept) and compute the addressed slices under DAZ/FTZ
    *[(f"{op} {dt} of subnormal entries", _K, _eager(
        f"tf.raw_ops.{op}({'input' if op.startswith('ScatterNd') else 'tensor'}=tf.constant([0.25, {a}, {b}, 1.0], "
        f"tf.{dt}), indices=[[0], [3]], updates=tf.constant([1.0, {b}], tf.{dt}))"))
      for op in ("TensorScatterAdd", "TensorScatterSub", "TensorScatterMax", "TensorScatterMin", "TensorScatterUpdate",
                 "ScatterNdNonAliasingAdd")
      for dt, a, b in (("float64", "5e-324", "1e-310"), ("float32", "1e-45", "1e-40"))],
    # raw SpaceToDepth/DepthToSpace: the kernels' divisibility checks, empty inputs too
    *[(f"{op} block 4 of {shape}", _K, _eager(f"tf.raw_ops.{op}(input=tf.zeros({shape}), block_size=4)"))
      for op in ("SpaceToDepth", "DepthToSpace")
      for shape in ([2, 3, 0, 3], [2, 4, 0, 3], [2, 0, 4, 3], [2, 4, 4, 0], [0, 3, 4, 3], [2, 8, 4, 1], [1, 4, 4, 16])],
    # Where of complex entries: their parts read under DAZ
    *[(f"Where {ct}{where}", _K, run(
        f"tf.raw_ops.Where(condition=tf.constant(np.array([complex({t}, 0), complex(0, {t}), complex({t}, {t}), "
        f"complex(-{t}, 0), complex(1, 0), complex(0, 0), complex(float('nan'), 0), complex(0, -0.0)], np.{ct})))"))
      for ct, t in (("complex64", "1e-40"), ("complex128", "1e-310"))
      for where, run in (("", _eager), (" in a tf.function", _traced))],
    # MaxPoolWithArgmax's gradient: MaxPoolGradWithArgmax has kernels for an int64 argmax only
    *[(f"MaxPoolWithArgmax {dt} Targmax {am} gradient{where}", _K, run(
        f"tf.raw_ops.MaxPoolWithArgmax(Targmax=tf.{am}, strides=[1, 1, 2, 1], padding='VALID', input=x, "
        "ksize=[1, 1, 2, 1])[0]", f"tf.Variable(tf.constant(np.arange(8.0).reshape(1, 2, 4, 1), tf.{dt}))"))
      for dt in ("float32", "bfloat16") for am in ("int32", "int64")
      for where, run in (("", _tape), (" in a tf.function", _grad_in_function))],
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


def test_every_case_has_a_test() -> None:
    untested = EDGES.untested()
    assert not untested, f"cases of groups {untested} have no test function above"


if __name__ == "__main__":  # TF worker: python test_fz36a_edges_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
