"""Rules behind the twentieth fuzzer's classes that fz34a closed (fresh campaigns of session 34: seeds
3420261201- in every mode), each against real TensorFlow 2.21: the same call on both backends gives the same
dtype and values bit for bit (a NaN matching any NaN), or raises the same exception class. Eagerly, inside a
tf.function, with an input_signature and under a tape. Needs the `tf` extra.

TF's own Conv2D kernel runs where oneDNN does not take the dtype; the channels-first cases are built for the
dtypes the modelled CPU leaves to it (on this project's AVX2 host every dtype, on an AVX-512 host float64), as
simdist and TF on one host both choose (host_cpu.onednn_supports).
"""

from __future__ import annotations

from typing import Any, Callable

import pytest

import edge_compare
from edge_programs import eager as _eager, tape as _tape, traced as _traced
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause

_K = "ops.fuzz-raw"
_T = "function.trace-time-errors"
_L = "ops.linalg-more"


def _own_kernel_dtypes() -> list[str]:
    """The float dtypes TF 2.21 convolves with its own kernel on the modelled CPU (this host)."""
    from simdist.runtime import host_cpu
    return [d for d in ("float16", "bfloat16", "float32", "float64") if not host_cpu.current().onednn_supports(d)]


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
        return g(*[eval(a, {"tf": tf}) for a in args])  # noqa: S307
    return run


def _both(name: str, group: str, expr: str) -> list[tuple[str, str, Any]]:
    """The expression eagerly and inside a tf.function."""
    return [(name, group, _eager(expr)), (f"{name} in a tf.function", group, _traced(expr))]


# Conv2D's own kernel (conv2d_eigen): ComputeConv2DDimension, the output returned before the launcher, then the
# launcher's NCHW refusal and checks (seed 3420261201 #191: a rank-2 float16 input with NCHW)
_C2 = ("tf.raw_ops.Conv2D(input=tf.reshape(tf.range(tf.reduce_prod({x}), dtype=tf.{dt}), {x}), "
       "filter=tf.ones({f}, tf.{dt}), strides={s}, padding='{p}', data_format='{fmt}'{ex})")
_C2_CASES = [([1, 4], [3, 1], [1, 1, 1, 1], "SAME", ""), ([1, 1, 4, 4], [1, 1, 4, 1], [1, 1, 1, 1], "SAME", ""),
             ([1, 4, 4, 4], [1, 1, 0, 1], [1, 1, 1, 1], "SAME", ""), ([1, 3, 4, 4], [1, 1, 2, 1], [1, 1, 1, 1], "SAME", ""),
             ([1, 4, 4, 4], [1, 1, 2, 3], [1, 1, 1, 1], "SAME", ""), ([1, 4, 2, 2], [3, 3, 4, 1], [1, 1, 1, 1], "VALID", ""),
             ([0, 4, 2, 2], [1, 1, 4, 1], [1, 1, 1, 1], "VALID", ""), ([1, 4, 2, 2], [1, 1, 4, 0], [1, 1, 1, 1], "VALID", ""),
             ([1, 0, 2, 2], [1, 1, 1, 2], [1, 1, 1, 1], "VALID", ""), ([1, 0, 2, 2], [1, 1, 3, 2], [1, 1, 1, 1], "VALID", ""),
             ([1, 4, 0, 2], [1, 1, 4, 2], [1, 1, 1, 1], "SAME", ""),
             ([1, 4, 0, 2], [1, 1, 4, 2], [1, 1, 1, 1], "EXPLICIT", ", explicit_paddings=[0, 0, 0, 0, 1, 1, 0, 0]"),
             ([1, 2, 2, 2], [1, 1, 2, 2], [1, 1, 2, 1], "SAME", ""), ([1, 2, 2, 2], [1, 1, 1, 2], [1, 1, 1, 1], "SAME", ""),
             ([1, 2, 2, 2], [1, 1, 1, 3], [1, 1, 1, 1], "SAME", ""),
             ([1, 2, 2, 2], [1, 1, 2, 2], [1, 1, 1, 1], "EXPLICIT", ", explicit_paddings=[0, 0, 1, 1, 0, 0, 0, 0]"),
             ([1, 2, 2, 2], [1, 1, 2, 2], [1, 1, 1, 1], "EXPLICIT", ", explicit_paddings=[0, 0, 0, 0, 1, 1, 1, 1]"),
             ([1, 2, 2, 2], [0, 1, 2, 2], [1, 1, 1, 1], "VALID", ""),
             ([1, 2, 2, 2], [1, 1, 2, 2], [1, 1, 1, 1], "VALID", ", dilations=[1, 2, 1, 1]")]
_NN = "tf.nn.conv2d(tf.ones({x}, tf.{dt}), tf.ones({f}, tf.{dt}), strides={s}, padding={p}, data_format='{fmt}')"
_NN_CASES = [([1, 1, 4, 4], [1, 1, 4, 1], 1, "'SAME'"), ([1, 4, 4, 4], [1, 1, 0, 1], 1, "'SAME'"),
             ([1, 4, 2, 2], [3, 3, 4, 1], 1, "'VALID'"), ([0, 4, 2, 2], [1, 1, 4, 1], 1, "'VALID'"),
             ([1, 4, 2, 2], [1, 1, 4, 0], 1, "'VALID'"), ([1, 0, 2, 2], [1, 1, 1, 2], 1, "'VALID'"),
             ([1, 4, 0, 2], [1, 1, 4, 2], 1, "[[0, 0], [0, 0], [1, 1], [0, 0]]"),
             ([1, 4, 2, 2], [1, 1, 2, 3], 1, "'VALID'"), ([2, 1, 3, 3], [2, 2, 1, 1], 2, "'SAME'")]


def _conv_cases() -> list[tuple[str, str, Any]]:
    out: list[tuple[str, str, Any]] = []
    for dt in _own_kernel_dtypes():
        for fmt in ("NCHW", "NHWC"):
            for x, f, s, p, ex in _C2_CASES:
                out += _both(f"Conv2D {dt} {fmt} input {x} filter {f} strides {s} {p}{ex}", _K,
                             _C2.format(x=x, f=f, s=s, p=p, fmt=fmt, ex=ex, dt=dt))
            for x, f, s, p in _NN_CASES:
                out += _both(f"tf.nn.conv2d {dt} {fmt} input {x} filter {f} strides {s} padding {p}", _K,
                             _NN.format(x=x, f=f, s=s, p=p, fmt=fmt, dt=dt))
        # (an NCHW output returned before the refusal: its gradient is the NCHW backprops, which TF's own kernels
        # refuse)
        for x, f, p, ex in (([1, 4, 2, 2], [3, 3, 4, 1], "VALID", "[]"), ([1, 0, 2, 2], [1, 1, 1, 2], "VALID", "[]"),
                            ([1, 4, 0, 2], [1, 1, 4, 2], "EXPLICIT", "[0, 0, 0, 0, 1, 1, 0, 0]")):
            out.append((f"Conv2D {dt} NCHW input {x} filter {f} {p} under a tape", _K, _tape(
                f"tf.raw_ops.Conv2D(input=x, filter=tf.ones({f}, tf.{dt}), strides=[1, 1, 1, 1], padding='{p}', "
                f"explicit_paddings={ex}, data_format='NCHW')", f"tf.ones({x}, tf.{dt})")))
    return out


# UnsortedSegmentReductionOp reads num_segments as the ids' type (static_cast<Index>; sig seed 3420261206 #250)
_USS = "tf.raw_ops.{op}(data=tf.constant([[1], [2]], tf.{dt}), segment_ids=tf.constant({ids}, tf.{it}), num_segments={n})"
_USS_CASES = [("UnsortedSegmentSum", "int16", "int16", [0, 1], n) for n in
              ("65539", "65536", "32768", "2147483647", "tf.constant(65538, tf.int64)", "tf.constant(2**32 + 2, tf.int64)",
               "tf.constant(-65534, tf.int32)", "tf.constant(-1, tf.int64)")] + \
    [("UnsortedSegmentSum", "int16", "int16", [0, -1], "65539"),
     ("UnsortedSegmentSum", "complex64", "int16", [0, 1], "tf.constant(65536 * 5 + 1, tf.int64)")] + \
    [(op, "float32", "int32", [0, 1], n) for op in ("UnsortedSegmentSum", "UnsortedSegmentMin", "UnsortedSegmentMax",
                                                    "UnsortedSegmentProd")
     for n in ("tf.constant(2**32 + 2, tf.int64)", "tf.constant(-2**32 + 3, tf.int64)", "tf.constant(2**33 + 1, tf.int64)")] + \
    [("UnsortedSegmentSum", "float32", "int64", [0, 1], "tf.constant(-1, tf.int64)")]

# SparseSegmentGradOpBase and the CPU grad functors' order (sig seed 3420261202 #114)
_SSG = ("tf.raw_ops.{op}(grad=tf.reshape(tf.range(tf.reduce_prod({g}), dtype=tf.float32), {g}), {d0}={m}, "
        "indices=tf.constant({idx}, tf.int32), segment_ids=tf.constant({seg}, tf.int32))")
_SSG_CASES = [("[3, 2]", 5, [0, 1, 2], [-1, 0, 0]), ("[3, 2]", 5, [9, 1, 2], [-1, 0, 0]), ("[3, 2]", 5, [1, 1, 2], [0, 0, -2]),
              ("[3, 2]", 5, [1, 9, 2], [0, -1, 1]), ("[3, 2]", 0, [0, 1, 2], [0, 0, 9]), ("[3, 2]", -1, [0, 1, 2], [0, 0, 1]),
              ("[3, 2]", 5, [0, 1, 2], [0, 2, 1]), ("[3, 2]", 5, [4, 1, 4], [2, 1, 0]), ("[2, 2]", 3, [], []),
              ("[3, 2]", 5, [0, 1], [0, 0, 1]), ("[3, 2]", 0, [0, 1], [0, 0, 1]), ("[3, 1, 0]", 0, [0, 1, 2], [-1, 0, 0]),
              ("[3, 1, 0]", 5, [0, 1, 2], [-1, 0, 0]), ("[3, 1, 0]", 5, [0, 7, 2], [0, 0, 9]), ("[3, 0]", 4, [3, 1, 3], [0, 2, 1]),
              ("[3, 0]", 4, [3, -1, 3], [0, 2, 1]), ("[3, 1]", 4, [3, 1, 3], [0, 2, 7]), ("[0, 2]", 3, [0, 1, 2], [0, 0, 1]),
              ("[0, 2]", 3, [], []), ("[3, 2]", 5, [0, 1, 2], [0, 0, 5]), ("[3, 2]", 5, [0, 7, 2], [0, 0, 1])]


def _ssg_cases() -> list[tuple[str, str, Any]]:
    out: list[tuple[str, str, Any]] = []
    for op, d0 in (("SparseSegmentSumGrad", "output_dim0"), ("SparseSegmentMeanGrad", "output_dim0"),
                   ("SparseSegmentSqrtNGrad", "output_dim0"), ("SparseSegmentSumGradV2", "dense_output_dim0"),
                   ("SparseSegmentMeanGradV2", "dense_output_dim0"), ("SparseSegmentSqrtNGradV2", "dense_output_dim0")):
        for g, m, idx, seg in _SSG_CASES:
            if not idx and m > 0 and not op.endswith("V2"):
                continue   # (V1 returns its output unwritten: uninitialised memory, not compared)
            out.append((f"{op} grad {g} rows {m} indices {idx} segment_ids {seg}", _K,
                        _eager(_SSG.format(op=op, d0=d0, g=g, m=m, idx=idx, seg=seg))))
    return out


# ScatterNdNonAliasingAdd's rank-1 indices where the graph does not know every shape (sig seed 3420261207 #50)
_SND = "tf.raw_ops.ScatterNdNonAliasingAdd(indices=tf.constant({idx}, tf.int32), input=x0, updates=x1)"
_SND_X = ("tf.constant([1j, -1 + 0.75j, 4 + 4j, 0.5j], tf.complex64)",
          "tf.constant([-1.5 + 7j, -1.5j, 4 + 0.001j, -3 + 7j], tf.complex64)")

# QuantizeAndDequantizeV2/V3/V4/V4Grad's shape function: an axis below -1 refused after min and max (function seed
# 3420261210 #126)
_QDQ = "tf.raw_ops.{op}({g}input=tf.ones({x}), input_min=tf.ones({m}), input_max=tf.ones({m}){extra}, axis={axis})"
_QDQ_CASES = [(x, m, axis) for x, m, axis in (([3], [3], -2), ([3], [3], -1), ([3], [3], 1), ([3], [3], 0), ([3], [], -2),
                                              ([3], [3], -3), ([2, 3], [2], -2), ([2, 3], [3], 2), ([2, 3], [], -5),
                                              ([], [], -2), ([], [], 0))]


def _qdq_cases() -> list[tuple[str, str, Any]]:
    out: list[tuple[str, str, Any]] = []
    for op, extra in (("QuantizeAndDequantizeV2", ""), ("QuantizeAndDequantizeV3", ", num_bits=8"),
                      ("QuantizeAndDequantizeV4", ""), ("QuantizeAndDequantizeV4Grad", "")):
        for x, m, axis in _QDQ_CASES:
            g = f"gradients=tf.ones({x}), " if op.endswith("Grad") else ""
            expr = _QDQ.format(op=op, g=g, x=x, m=m, extra=extra, axis=axis)
            if op.endswith("Grad"):
                out += _both(f"{op} input {x} min/max {m} axis {axis}", _T, expr)
            elif axis < -1:   # (only where the shape function refuses at trace: V3's kernel aborts TF's process on
                # some of these calls, CHECK failures "d >= 0" and "Must have a one element tensor")
                out.append((f"{op} input {x} min/max {m} axis {axis} in a tf.function", _T, _traced(expr)))
    return out


_INPLACE = [
    "tf.raw_ops.InplaceAdd(i=tf.constant([-4, 0]), x=tf.constant([b'AbC', b'123']), v=tf.constant([b' x y ', b'nan']))",
    "tf.raw_ops.InplaceAdd(i=tf.constant([1, 0]), x=tf.constant([b'AbC', b'123']), v=tf.constant([b' x y ', b'nan']))",
    "tf.raw_ops.InplaceSub(i=tf.constant([1, 0]), x=tf.constant([b'AbC', b'123']), v=tf.constant([b' x y ', b'nan']))",
    "tf.raw_ops.InplaceUpdate(i=tf.constant([1, 0]), x=tf.constant([b'AbC', b'123']), v=tf.constant([b' x y ', b'nan']))",
    "tf.raw_ops.InplaceUpdate(i=tf.constant([-4, 0]), x=tf.constant([b'AbC', b'123']), v=tf.constant([b' x y ', b'nan']))",
    'tf.raw_ops.InplaceAdd(i=tf.constant([-4, 0]), x=tf.constant([1.0, 2.0]), v=tf.constant([3.0, 4.0]))',
    'tf.raw_ops.InplaceAdd(i=tf.constant([1, 0]), x=tf.constant([True, False]), v=tf.constant([True, True]))',
    "tf.raw_ops.InplaceAdd(i=tf.constant([[1, 0]]), x=tf.constant([b'AbC', b'123']), v=tf.constant([b' x y ', b'nan']))",
    "tf.raw_ops.InplaceAdd(i=tf.constant([1, 0]), x=tf.constant([b'AbC', b'123']), v=tf.constant([[b' x y ', b'nan']]))",
    "tf.raw_ops.InplaceAdd(i=tf.constant([1]), x=tf.constant([b'AbC', b'123']), v=tf.constant([b' x y ', b'nan']))",
    "tf.raw_ops.InplaceAdd(i=tf.zeros([0], tf.int32), x=tf.constant([b'AbC', b'123']), v=tf.zeros([0], tf.string))",
    'tf.raw_ops.InplaceAdd(i=tf.zeros([0], tf.int32), x=tf.zeros([0], tf.string), v=tf.zeros([0], tf.string))',
    'tf.raw_ops.InplaceSub(i=tf.zeros([0], tf.int32), x=tf.constant([True]), v=tf.zeros([0], tf.bool))',
    'tf.raw_ops.InplaceSub(i=tf.constant([0]), x=tf.constant([True]), v=tf.constant([True]))',
    'tf.raw_ops.InplaceAdd(i=tf.constant([0]), x=tf.constant([1], tf.uint16), v=tf.constant([3], tf.uint16))',
    'tf.raw_ops.InplaceAdd(i=tf.constant([0]), x=tf.constant([1], tf.int8), v=tf.constant([3], tf.int8))',
    'tf.raw_ops.InplaceAdd(i=tf.constant([0]), x=tf.constant([1j], tf.complex128), v=tf.constant([3], tf.complex128))',
]

CASES: list[tuple[str, str, Any]] = [
    *_conv_cases(),
    *_qdq_cases(),
    # Conv2DShapeImpl's guards before its divisions: a filter depth of 0, no groups (an input depth of 0)
    *[(f"Conv2D {fmt} input {x} filter {f} in an input_signature", _T, _sig_trace(
        f"tf.raw_ops.Conv2D(input=x0, filter=x1, strides=[1, 1, 1, 1], padding='VALID', data_format='{fmt}')",
        [(x, "float64"), (f, "float64")]))
      for fmt, x, f in (("NHWC", [1, 4, 4, 4], [1, 1, 0, 1]), ("NCHW", [1, 4, 4, 4], [1, 1, 0, 1]),
                        ("NCHW", [1, 0, 2, 2], [1, 1, 1, 2]), ("NHWC", [1, 2, 2, 0], [1, 1, 3, 2]),
                        ("NHWC", [1, 2, 2, 0], [1, 1, 3, None]), ("NHWC", [1, 2, 2, 0], [1, 1, 0, 2]),
                        ("NHWC", [1, 2, 2, None], [1, 1, 0, 2]), ("NHWC", [1, 2, 2, 4], [1, 1, 2, 3]),
                        ("NHWC", [1, 2, 2, 2], [1, 1, 2, 0]))],
    *[c for op, dt, it, ids, n in _USS_CASES for c in _both(f"{op} {dt} ids {it} {ids} num_segments {n}", _K, _USS.format(
        op=op, dt=dt, it=it, ids=ids, n=n))],
    *[(f"UnsortedSegmentSum int16 ids, num_segments {n} in an input_signature", _K, _sig_call(
        "tf.raw_ops.UnsortedSegmentSum(data=x0, segment_ids=tf.constant([0, 1], tf.int16), num_segments=x1)",
        [([None, 1], "int16"), ([], "int32")], ["tf.constant([[7], [5]], tf.int16)", f"tf.constant({n}, tf.int32)"]))
      for n in (2147483647, 65538, 65536)],
    ("tf.math.unsorted_segment_sum of int16 ids, 65540 segments", _K, _eager(
        "tf.math.unsorted_segment_sum(tf.constant([[1.0], [2.0]]), tf.constant([0, 1], tf.int16), 65540)")),
    *_ssg_cases(),
    *[(f"ScatterNdNonAliasingAdd indices {idx} updates of {us} in an input_signature", _K, _sig_call(
        _SND.format(idx=idx), [([4], "complex64"), (us, "complex64")], list(_SND_X)))
      for idx in ([0, 2, 3, 3], [[0], [2], [3], [3]], [1, 2, 3, 3], [0]) for us in (None, [None], [4])],
    *[(f"ScatterNdNonAliasingAdd indices {idx}, input {si} updates {su} in an input_signature", _K, _sig_call(
        _SND.format(idx=idx), [(si, "float32"), (su, "float32")], ["tf.ones([4, 3, 2, 4])", "tf.ones([4, 3, 2, 4])"]))
      for si, su in (([4, None, 2, 4], [4, 3, None, None]), ([4, None, 2, 4], None), (None, [4, 3, None, None]),
                     ([None, None, 2, 4], [None, 3, 2, 4]), ([4, 3, 2, 4], [4, 3, 2, 4]))
      for idx in ([0, 1, 3, 3], [[0], [1], [3], [3]], [0])],
    # a rank the graph does not know leaves LRN's and GatherV2's checks to the kernel; GatherV2's batch_dims range
    # needs the indices' rank only (sig seed 3420261211 #25, #65)
    *[(f"LRN depth_radius {r} of a [4, 1, 2] input as {sh} in an input_signature", _K, _sig_call(
        f"tf.raw_ops.LRN(depth_radius={r}, input=x0, bias=1e-6, beta=1.0)", [(sh, "float32")],
        ["tf.reshape(tf.range(8, dtype=tf.float32), [4, 1, 2])"])) for r in (0, -1) for sh in (None, [None, None, None])],
    *[(f"GatherV2 params as {sh} batch_dims {bd} axis {ax} in an input_signature", _K, _sig_call(
        f"tf.raw_ops.GatherV2(indices=[-1, 0], params=x0, axis={ax}, batch_dims={bd})", [(sh, "uint64")],
        ["tf.constant([[0, 3, 7, 3], [9, 3, 1, 9]], tf.uint64)"]))
      for sh in (None, [None, None], [2, 4]) for bd in (-3, -2, -1, 0, 1, 2) for ax in (1, 0, -1)],
    # TensorStridedSliceUpdate's shape function is its input's: the slice's checks are the kernel's (sig seed
    # 3420261211 #81)
    *[(f"TensorStridedSliceUpdate of {si} and {sv} in an input_signature", _K, _sig_call(
        "tf.raw_ops.TensorStridedSliceUpdate(value=x1, input=x0, strides=[-1], end_mask=2, begin=[-1], begin_mask=2, "
        "shrink_axis_mask=3, end=[-1])", [(si, "uint32"), (sv, "uint32")],
        ["tf.constant([2], tf.uint32)", "tf.zeros([2, 0, 0], tf.uint32)"]))
      for si, sv in (([1], [2, 0, 0]), (None, None), ([1], None), (None, [2, 0, 0]))],
    *[c for v, st, b, e, sh in (("tf.zeros([], tf.float32)", [0], [0], [1], 0), ("tf.zeros([1], tf.float32)", [1], [0], [1], 0),
                                ("tf.zeros([1], tf.float32)", [1, 1], [0], [1], 0), ("tf.zeros([], tf.float32)", [-1], [0], [1], 1),
                                ("tf.zeros([], tf.float32)", [1], [3], [4], 1))
      for c in _both(f"TensorStridedSliceUpdate strides {st} begin {b} end {e} shrink {sh}", _K,
                     f"tf.raw_ops.TensorStridedSliceUpdate(value={v}, input=tf.constant([2.0, 3.0]), strides={st}, "
                     f"begin={b}, end={e}, shrink_axis_mask={sh})")],
    # half and bfloat16 hash by their bits: -0.0 and 0.0 are two values (sig seed 3420261211 #199)
    *[c for dt in ("bfloat16", "float16", "float32") for expr in (
        f"tf.raw_ops.UniqueWithCounts(x=tf.constant([-0.0, 0.0, 7.0, -0.0], tf.{dt}), out_idx=tf.int32)",
        f"tf.raw_ops.Unique(x=tf.constant([float('nan'), -0.0, float('nan'), 0.0], tf.{dt}))",
        f"tf.raw_ops.UniqueV2(x=tf.constant([[-0.0, 1], [0.0, 1]], tf.{dt}), axis=[0])",
        f"tf.raw_ops.UniqueWithCountsV2(x=tf.constant([[-0.0, 1], [0.0, 1]], tf.{dt}), axis=[1])",
        f"tf.raw_ops.UniqueV2(x=tf.constant([[-0.0], [0.0]], tf.{dt}), axis=[0])",
        f"tf.raw_ops.UniqueV2(x=tf.constant([[[-0.0]], [[0.0]]], tf.{dt}), axis=[0])",
        f"tf.raw_ops.UniqueV2(x=tf.constant([[1, -0.0], [1, 0.0]], tf.{dt}), axis=[0])",
        f"tf.unique(tf.constant([-0.0, 0.0, 7.0], tf.{dt}))") for c in _both(expr, _K, expr)],
    # Reshape's MakeShapeFromShapeTensor reads a known shape whatever the input's (sig seed 3420261212 #38)
    *[(f"Reshape of {sh} to {shape} in an input_signature", _K, _sig_call(
        f"tf.raw_ops.Reshape(tensor=x0, shape=tf.constant({shape}, tf.int64))", [(sh, "float32")],
        ["tf.ones([2, 3])" if sh != [None] else "tf.ones([6])"]))
      for sh in (None, [None, None], [2, 3], [None]) for shape in ([-2], [-1, -2], [3, -3], [-1], [6], [2, -1])],
    *[c for shape in ([-2], [3, -3]) for c in _both(f"tf.reshape to {shape}", _K, f"tf.reshape(tf.ones([2, 3]), {shape})")],
    # MatrixDiag/MatrixDiagPart/MatrixSetDiag's shape functions at trace, before a string kernel's absence (sig seed
    # 3420261212 #173)
    *[(f"{op} of a {dt} scalar in a tf.function", _T, _traced(expr.format(v=v, dt=dt)))
      for dt, v in (("string", "b'a'"), ("float32", "1.0"), ("int32", "1"), ("bool", "True"))
      for op, expr in (("MatrixSetDiag", "tf.raw_ops.MatrixSetDiag(input=tf.constant({v}, tf.{dt}), "
                                         "diagonal=tf.fill([2, 3, 2], tf.constant({v}, tf.{dt})))"),
                       ("MatrixDiagPart", "tf.raw_ops.MatrixDiagPart(input=tf.fill([3], tf.constant({v}, tf.{dt})))"),
                       ("MatrixDiag", "tf.raw_ops.MatrixDiag(diagonal=tf.constant({v}, tf.{dt}))"),
                       ("MatrixSetDiagV2", "tf.raw_ops.MatrixSetDiagV2(input=tf.constant({v}, tf.{dt}), "
                                           "diagonal=tf.fill([2, 3, 2], tf.constant({v}, tf.{dt})), k=0)"))],
    *[(f"MatrixSetDiag input {si} diagonal {sd} in an input_signature", _T, _sig_trace(
        "tf.raw_ops.MatrixSetDiag(input=x0, diagonal=x1)", [(si, "float32"), (sd, "float32")]))
      for si, sd in (([3, 3], [3]), ([3, 3], [2]), ([2, 3, 4], [2, 3]), ([2, 3, 4], [3]), ([2, 3, 4], [2, 4]),
                     ([None, 3], [3]), (None, [2, 2]), ([2, 3, 3], None), ([3, None], [2]))],
    # InplaceAdd/InplaceSub: DoInplace's add and subtract take the number types only, after the shape checks and
    # the return of an empty update (seed 3420261216 #12)
    *[c for line in _INPLACE for c in _both(line, _K, line)],
    # SegmentMean of unsigned integers: the wrapped sum divided as it is (tape seed 3420261216 #283)
    *[c for dt, rows in (("uint64", "[[18446744073709551615, 1], [18446744073709551614, 2], [5, 7]]"),
                         ("uint32", "[[4294967295, 1], [4294967294, 3], [5, 7]]"), ("uint8", "[[255, 1], [2, 2], [5, 7]]"),
                         ("int64", "[[-7, 1], [2, 2], [5, 7]]"), ("uint16", "[[65535, 65535], [65535, 2], [5, 7]]"))
      for c in _both(f"SegmentMean {dt}", _K, f"tf.raw_ops.SegmentMean(data=tf.constant({rows}, tf.{dt}), "
                                             "segment_ids=[0, 0, 1])")],
    # NMSShapeFn at trace: the ranks, then boxes' rows and 4 columns (sig seed 3420261219 #153)
    *[(f"NonMaxSuppression{op} boxes {bs} scores {ss} thresholds {ts} in an input_signature", _K, _sig_call(
        f"tf.raw_ops.NonMaxSuppression{op}(boxes=x0, scores=x1, max_output_size=2, iou_threshold=x2{extra})",
        [(bs, "float32"), (ss, "float32"), (ts, "float32")],
        ["tf.constant([[0, 0, 1, 1], [0, 0.1, 1, 1.1], [0, 2, 1, 3]], tf.float32)", "tf.constant([0.9, 0.8, 0.7])",
         "tf.constant(0.5)"]))
      for op, extra in (("V2", ""), ("V3", ", score_threshold=x2"), ("V4", ", score_threshold=x2, pad_to_max_output_size=True"),
                        ("V5", ", score_threshold=x2, soft_nms_sigma=x2"))
      for bs, ss, ts in (([None, None, 4], [], [4, None, 1]), ([None, 4], [None], []), ([3, 4], [3], []), ([3, 5], [3], []),
                         ([3, 4], [2], []), ([None, None], None, None), (None, [None], [1]))],
    # Lu's column divided by its pivot as Eigen's pdiv_complex: 0 under an infinite pivot is NaN (sig seed 3420261207 #91)
    *[c for dt in ("complex64", "complex128") for m in (
        "[[[-0.0 + 0j, -3.4e38j], [complex(float('inf'), 0.75), 0.001j]]]", "[[[1 + 0j, 2j], [complex(float('inf'), 0), 1]]]",
        "[[[complex(float('inf'), 1), 1], [0.5j, 2]], [[2, 1j], [complex(0, float('inf')), 3]]]")
      for c in [(f"Lu {dt} of {m}", _L, _eager(f"tf.raw_ops.Lu(input=tf.constant({m}, tf.{dt}))")),
                (f"Lu {dt} of {m} in a tf.function", _L, _traced(f"tf.raw_ops.Lu(input=tf.constant({m}, tf.{dt}))"))]],
    ("Lu float32 of an infinite pivot", _L, _eager("tf.raw_ops.Lu(input=tf.constant([[1.0, 2], [float('inf'), 1]]))")),
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


@clause("ops.linalg-more")
@EDGES.parametrize("ops.linalg-more")
def test_lu_pivot_division(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


def test_every_case_has_a_test() -> None:
    untested = EDGES.untested()
    assert not untested, f"cases of groups {untested} have no test function above"


if __name__ == "__main__":  # TF worker: python test_fz34a_edges_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
