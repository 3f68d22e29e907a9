"""The attribute sweep's programs (fifty-eighth session, asweep58; test_asweep58.py): ops simdist registers, each
attribute of TF's op def (tensorflow/core/ops/*.cc) at the values it takes besides its default, through
tf.raw_ops.<Op> and through the public function that sets it, values bit for bit, gradients where the op has one,
eager and inside tf.function, and the error class where TF rejects a value (a refusal is a result too).

What is crossed (the class batch 73's survivors `cast-truncate-dropped` and `max-pool-explicit-paddings-dropped`
belong to: an attribute off its default that no test sets):
- Cast (Truncate), Bitcast (wider, narrower, same width);
- MaxPool/MaxPoolV2/AvgPool/MaxPool3D/AvgPool3D/MaxPoolWithArgmax (padding EXPLICIT with explicit_paddings,
  data_format NCHW, include_batch_in_index, Targmax) and tf.nn's pools;
- Conv2D/Conv3D/DepthwiseConv2dNative/Conv2DBackpropInput/Conv2DBackpropFilter (explicit paddings, dilations,
  strides per dimension, data_format);
- MatMul/BatchMatMulV2/BatchMatMulV3 (transpose/adjoint attributes, Tout), Sum/Prod/Max/Min/Mean/Any/All
  (keep_dims, Tidx), ArgMax/ArgMin (output_type), Cumsum/Cumprod/CumulativeLogsumexp (exclusive, reverse), TopKV2
  (sorted, index_type), Unique/UniqueV2/UniqueWithCounts (out_idx), Bincount/DenseBincount (binary_output);
- ResizeBilinear/ResizeNearestNeighbor/ResizeBicubic/ResizeArea (align_corners, half_pixel_centers) and their
  gradients; SoftmaxCrossEntropyWithLogits; LeakyRelu (alpha); gelu (approximate);
- StridedSlice (each mask), Pad/PadV2/MirrorPad (mode), OneHot (axis), Fill, Range (Tidx), LinSpace, ReverseV2,
  Roll, Tile, GatherV2 (batch_dims), ScatterNd, TensorScatterUpdate/Add/Sub/Min/Max, the segment ops
  (Tnumsegments), Transpose/ConjugateTranspose, Einsum (equation forms), RandomUniformInt (seed/seed2 pairs) and
  StatelessRandomUniformV2 (alg).

TF 2.21's answers are recorded by `python -m simdist.conformance.suite.test_asweep58 --record` on this session's
AVX-512 Xeon with oneDNN on. Programs named `af-` hold float values that oneDNN's or Eigen's kernels compute in a
CPU-chosen order (pools, convolutions, products, resizes, reductions): host-dependent, simdist runs them under its
reference model. Programs named `ai-` (integers, indices, masks, shapes, refusals, exact copies) are
host-independent. OPEN lists simdist's disagreements with TF 2.21 left out of the comparison (docs/conformance.md,
"Fifty-eighth session ... asweep58")."""

from __future__ import annotations

import json
import os
from typing import Any, Callable

import numpy as np

from simdist.conformance.suite.recorded_programs import (RecordedPrograms, avx512_with_onednn, error,
                                                         reference_cpu, rng)
from simdist.conformance.suite.rsweep57_cases import enc, packed

PATH = os.path.join(os.path.dirname(__file__), "asweep58_reference.json.gz")

REF = RecordedPrograms(PATH, ("af-",), recording_host=avx512_with_onednn, recording_cpu=reference_cpu)

#: simdist's disagreements with TF 2.21 that this sweep found and did not fix: program -> case labels left out of
#: the comparison ("<label>/traced": the traced result's only). Each is an open finding (docs/conformance.md,
#: "Fifty-eighth session, 2026-12-06: ... asweep58"), observed on TF 2.21 on this session's AVX-512 oneDNN Xeon:
#: - gelu (both forms, every float dtype) inside a tf.function: TF's traced value/gradient differs from its eager one
#:   by ulps (Grappler's rewrite of the graph; rsweep57's reduce_std class), simdist's traced equals its eager;
#: - the gradients of max_pool3d, avg_pool3d and avg_pool2d inside a tf.function (TF's traced gradient differs from
#:   its eager one), and avg_pool3d's eager gradient (AvgPool3DGrad, oneDNN's order): not modelled;
#: - BatchMatMulV2 of complex64 and BatchMatMulV3 of float32 [2, 3, 3] batches (every adj_x/adj_y): ulps off (the
#:   raw MatMul and tf.linalg.matmul of the same shapes agree), einsum 'abcd,cd->ab' (value and gradient) and the
#:   gradient of 'i,j->ij': ulps off (their contraction's product order);
#: - raw SoftmaxCrossEntropyWithLogits in float16: the loss an ulp off in two rows (its float16 log-sum-exp).
_GELU = tuple(f"gelu approximate={a} {d}/traced" for a in (False, True)
              for d in ("float32", "float64", "float16", "bfloat16"))
OPEN: dict[str, tuple[str, ...]] = {
    "af-activation-attrs": _GELU,
    "af-pool-3d": ("avg_pool3d SAME grad", "avg_pool3d VALID grad", "max_pool3d SAME grad/traced",
                   "max_pool3d VALID grad/traced"),
    "af-pool-formats": ("avg_pool2d SAME edges SAME grad/traced", "avg_pool2d SAME edges VALID grad/traced"),
    "af-matmul-attrs": tuple(f"raw BatchMatMulV2 adj_x={a} adj_y={b} complex" for a in (False, True)
                             for b in (False, True))
    + tuple(f"raw BatchMatMulV3 float adj_x={a} adj_y={b}" for a in (False, True) for b in (False, True)),
    "af-einsum-forms": ("einsum abcd,cd->ab", "raw Einsum abcd,cd->ab", "einsum i,j->ij"),
    "af-xent-attrs": ("raw SoftmaxCrossEntropyWithLogits float16",),
}

Case = tuple[str, Callable[..., Any], tuple[Any, ...], bool, bool]
_PROGRAMS: dict[str, list[Case]] = {}


def case(prog: str, label: str, fn: Callable[..., Any], *inputs: Any, grad: bool = False,
         traced: bool = True) -> None:
    """Add case `label` to program `prog`: fn(tf, *tensors) over the inputs (each (array, dtype)), eagerly and (if
    `traced`) in a tf.function taking the tensors as arguments; with `grad`, the gradient of fn's (single) output
    with respect to each floating input too, under a non-uniform upstream gradient."""
    _PROGRAMS.setdefault(prog, []).append((label, fn, inputs, grad, traced))


def const(tf: Any, a: Any, dt: str) -> Any:
    """A tensor of dtype dt holding a (bfloat16 through a float32 constant and a Cast)."""
    if dt == "bfloat16":
        return tf.cast(tf.constant(np.asarray(a, "float32")), dt)
    return tf.constant(np.asarray(a, dt))


def _upstream(tf: Any, y: Any) -> Any:
    n = tf.size(y)
    u = tf.cast(tf.reshape(tf.range(n) % 7, tf.shape(y)), tf.float32) * 0.5 - 1.25
    return tf.cast(u, y.dtype)


def _run(tf: Any, fn: Callable[..., Any], xs: list[Any], grad: bool, catch: bool = True) -> Any:
    if not grad:
        return fn(tf, *xs)
    src = [x for x in xs if x.dtype.is_floating or x.dtype.is_complex]
    with tf.GradientTape() as t:
        for x in src:
            t.watch(x)
        y = fn(tf, *xs)
    # (eagerly, a refused gradient leaves the forward value compared: a dilated Conv2D with EXPLICIT padding computes
    # where its backprop is refused on the oneDNN host; traced, the function's call raises as a whole on TF, where
    # the kernel runs)
    def gradient() -> Any:
        return [v if v is None else tf.convert_to_tensor(v)   # (IndexedSlices as dense)
                for v in t.gradient(y, src, output_gradients=_upstream(tf, y))]
    return {"y": y, "g": error(gradient) if catch else gradient()}


def _evaluate(tf: Any, prog: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    skip = OPEN.get(prog, ())
    for label, fn, inputs, grad, traced in _PROGRAMS[prog]:
        if label in skip:
            continue
        xs = [const(tf, a, dt) for a, dt in inputs]
        eager = json.loads(json.dumps(enc(error(lambda: _run(tf, fn, xs, grad)))))
        res: dict[str, Any] = {"eager": eager}
        if traced and f"{label}/traced" not in skip:
            def body(*ys: Any, fn: Callable[..., Any] = fn, grad: bool = grad) -> Any:
                return _run(tf, fn, list(ys), grad, catch=False)
            f = tf.function(body, autograph=False)   # a fresh function per case (autograph caches lambdas by code)
            got = json.loads(json.dumps(enc(error(lambda: f(*xs)))))
            res["traced"] = "same" if got == eager else got
        out[label] = res
    return packed(out)


def register() -> None:
    """Register every program with the recorder (after the cases are added)."""
    for prog in _PROGRAMS:
        REF.add(prog, lambda tf, mk, p=prog: _evaluate(tf, p))


def f32(name: str, shape: tuple[int, ...], lo: float = -4.0, hi: float = 4.0, dt: str = "float32",
        step: float = 0.25) -> tuple[np.ndarray, str]:
    """Values on a grid of `step` in [lo, hi) (ties and exact sums where the grid is coarse), seeded by name."""
    r = rng(f"{name}/{shape}/{dt}")
    n = int(np.prod(shape))
    a = np.floor(r.uniform(lo, hi, n) / step) * step
    return a.reshape(shape), dt


def fine(name: str, shape: tuple[int, ...], dt: str = "float32") -> tuple[np.ndarray, str]:
    """Normal values with every mantissa bit in use (sums whose order shows), seeded by name."""
    r = rng(f"fine/{name}/{shape}/{dt}")
    return r.standard_normal(int(np.prod(shape))).reshape(shape), dt


def ints(name: str, shape: tuple[int, ...], lo: int, hi: int, dt: str = "int32") -> tuple[np.ndarray, str]:
    r = rng(f"ints/{name}/{shape}/{dt}")
    return r.randint(lo, hi, int(np.prod(shape))).reshape(shape), dt


def arr(a: Any, dt: str) -> tuple[np.ndarray, str]:
    return np.asarray(a), dt


def _raw(tf: Any) -> Any:
    return tf.raw_ops


# -- 1. Cast (Truncate) and Bitcast ----------------------------------------------------------------------------------
def _cast_inputs() -> tuple[np.ndarray, str]:
    # float32 values whose dropped bits round up (bfloat16: low 16 bits past 0x8000; float16: past half an ulp),
    # ties, overflow edges, subnormals, signed zeros, inf and NaN
    u = np.array([0x3F808001, 0x3F80FFFF, 0x3F818000, 0x3F828000, 0x477FF000, 0x477FEFFF, 0x7F7FFFFF, 0xFF7FFFFF,
                  0x00000001, 0x80400000, 0x33800001, 0x387FC000, 0x00000000, 0x80000000, 0x7F800000, 0xFF800000,
                  0x7FC00000, 0x3EAAAAAB, 0xBF7FFFFF, 0x3FC00001], np.uint32)
    return u.view(np.float32).astype(np.float32), "float32"


def _cast64_inputs() -> tuple[np.ndarray, str]:
    u = np.array([0x3FF0000010000001, 0x3FF000001FFFFFFF, 0x3FF0000030000000, 0x47EFFFFFF0000000,
                  0x47EFFFFFE0000001, 0x36A0000000000001, 0x3810000000000000, 0x380FFFFFF0000000,
                  0xBFEFFFFFFFFFFFFF, 0x7FEFFFFFFFFFFFFF, 0x0000000000000001, 0x8000000000000000], np.uint64)
    return u.view(np.float64).astype(np.float64), "float64"


for _dst in ("bfloat16", "float16", "int32", "int8", "uint8", "bool", "complex64", "float64"):
    for _tr in (False, True):
        case("ai-cast-truncate", f"raw f32->{_dst} Truncate={_tr}",
             lambda tf, x, d=_dst, t=_tr: tf.raw_ops.Cast(x=x, DstT=d, Truncate=t), _cast_inputs())
for _dst in ("float32", "bfloat16", "float16", "int64"):
    for _tr in (False, True):
        case("ai-cast-truncate", f"raw f64->{_dst} Truncate={_tr}",
             lambda tf, x, d=_dst, t=_tr: tf.raw_ops.Cast(x=x, DstT=d, Truncate=t), _cast64_inputs())
for _dst in ("float16", "bfloat16", "float32"):
    case("ai-cast-truncate", f"tf.cast f32->{_dst}", lambda tf, x, d=_dst: tf.cast(x, d), _cast_inputs())
    case("ai-cast-truncate", f"saturate_cast f64->{_dst}", lambda tf, x, d=_dst: tf.dtypes.saturate_cast(x, d),
         _cast64_inputs())
case("ai-cast-truncate", "raw complex64->float32 Truncate=True",
     lambda tf, x: tf.raw_ops.Cast(x=tf.complex(x, -x), DstT="float32", Truncate=True), _cast_inputs())
for _dst in ("complex64", "float32"):
    case("ai-cast-truncate", f"raw complex128->{_dst} Truncate=True",
         lambda tf, x, d=_dst: tf.raw_ops.Cast(x=tf.complex(x, -x * 0.5), DstT=d, Truncate=True), _cast64_inputs())
case("ai-cast-truncate", "grad raw Cast Truncate f32->f64",
     lambda tf, x: tf.raw_ops.Cast(x=x, DstT="float64", Truncate=True) * 3.0, f32("cg", (6,)), grad=True)

for _src, _dst in (("float32", "int32"), ("float32", "uint8"), ("float32", "int16"), ("float64", "int32"),
                   ("int64", "float32"), ("uint8", "float32"), ("float16", "int16"), ("bfloat16", "uint16"),
                   ("int32", "complex64"), ("float32", "float64")):
    if _src in ("uint8",):
        _x = ints("bc", (3, 4), 0, 255, "uint8")
    elif _src == "int64":
        _x = ints("bc64", (3,), -2**40, 2**40, "int64")
    elif _src == "int32":
        _x = ints("bc32", (3, 2), -2**30, 2**30, "int32")
    else:
        _x = f32("bc", (3, 4), dt=_src)
    case("ai-bitcast", f"raw {_src}->{_dst}", lambda tf, x, d=_dst: tf.raw_ops.Bitcast(input=x, type=d), _x)
    case("ai-bitcast", f"tf.bitcast {_src}->{_dst}", lambda tf, x, d=_dst: tf.bitcast(x, d), _x)


# -- 2. pools: explicit paddings, data formats, argmax attributes ----------------------------------------------------
_EXPLICIT = ([[0, 0], [1, 1], [0, 1], [0, 0]], [[0, 0], [1, 0], [1, 0], [0, 0]], [[0, 0], [0, 0], [0, 0], [0, 0]])
for _i, _pads in enumerate(_EXPLICIT):
    for _k, _s in (((1, 2, 2, 1), (1, 1, 1, 1)), ((1, 3, 2, 1), (1, 2, 1, 1)), ((1, 2, 3, 1), (1, 3, 2, 1))):
        _flat = [p for pr in _pads for p in pr]
        case("af-pool-explicit", f"raw MaxPool EXPLICIT {_i} k{_k[1:3]} s{_s[1:3]}",
             lambda tf, x, k=_k, s=_s, e=_flat: tf.raw_ops.MaxPool(input=x, ksize=k, strides=s, padding="EXPLICIT",
                                                                     explicit_paddings=e),
             f32("mpx", (2, 5, 6, 3)), grad=True)
        case("af-pool-explicit", f"max_pool2d explicit {_i} k{_k[1:3]} s{_s[1:3]}",
             lambda tf, x, k=_k, s=_s, p=_pads: tf.nn.max_pool2d(x, k[1:3], s[1:3], p), f32("mpx", (2, 5, 6, 3)),
             grad=True)
case("af-pool-explicit", "max_pool2d explicit pads 2 window 3",
     lambda tf, x: tf.nn.max_pool2d(x, 3, [2, 1], [[0, 0], [2, 0], [0, 2], [0, 0]]), f32("mpx", (2, 5, 6, 3)),
     grad=True)
case("af-pool-explicit", "max_pool2d explicit negative x",
     lambda tf, x: tf.nn.max_pool2d(x, 3, 1, [[0, 0], [1, 1], [1, 1], [0, 0]]), f32("mpn", (1, 4, 4, 2), -8, -1),
     grad=True)
case("af-pool-explicit", "max_pool explicit NCHW",
     lambda tf, x: tf.nn.max_pool2d(x, 2, 1, [[0, 0], [0, 0], [1, 0], [0, 1]], data_format="NCHW"),
     f32("mpc", (1, 2, 4, 4)), traced=False)
case("af-pool-explicit", "raw MaxPool EXPLICIT pads too large",
     lambda tf, x: tf.raw_ops.MaxPool(input=x, ksize=[1, 2, 2, 1], strides=[1, 1, 1, 1], padding="EXPLICIT",
                                      explicit_paddings=[0, 0, 2, 2, 0, 0, 0, 0]), f32("mpx", (1, 3, 3, 1)),
     traced=False)
case("af-pool-explicit", "raw MaxPool EXPLICIT batch padded",
     lambda tf, x: tf.raw_ops.MaxPool(input=x, ksize=[1, 2, 2, 1], strides=[1, 1, 1, 1], padding="EXPLICIT",
                                      explicit_paddings=[1, 0, 0, 0, 0, 0, 0, 0]), f32("mpx", (1, 3, 3, 1)),
     traced=False)
case("af-pool-explicit", "avg_pool2d explicit refused",
     lambda tf, x: tf.nn.avg_pool2d(x, 2, 1, [[0, 0], [1, 1], [1, 1], [0, 0]]), f32("mpx", (1, 3, 3, 1)),
     traced=False)
case("af-pool-explicit", "max_pool_v2 raw SAME k(3,2) s(2,2)",
     lambda tf, x: tf.raw_ops.MaxPoolV2(input=x, ksize=tf.constant([1, 3, 2, 1]), strides=tf.constant([1, 2, 2, 1]),
                                        padding="SAME"), f32("mp2", (2, 5, 5, 2)), grad=True)
case("af-pool-explicit", "max_pool_v2 raw VALID NCHW",
     lambda tf, x: tf.raw_ops.MaxPoolV2(input=x, ksize=[1, 1, 2, 2], strides=[1, 1, 1, 1], padding="VALID",
                                        data_format="NCHW"), f32("mp2c", (1, 2, 3, 3)), traced=False)

for _fmt in ("NHWC", "NCHW"):
    for _pad in ("VALID", "SAME"):
        _k = [1, 2, 3, 1] if _fmt == "NHWC" else [1, 1, 2, 3]
        _s = [1, 2, 1, 1] if _fmt == "NHWC" else [1, 1, 2, 1]
        _shape = (2, 5, 4, 3) if _fmt == "NHWC" else (2, 3, 5, 4)
        case("af-pool-formats", f"raw MaxPool {_fmt} {_pad}",
             lambda tf, x, k=_k, s=_s, p=_pad, f=_fmt: tf.raw_ops.MaxPool(input=x, ksize=k, strides=s, padding=p,
                                                                            data_format=f),
             f32("pf", _shape), traced=False)
        case("af-pool-formats", f"raw AvgPool {_fmt} {_pad}",
             lambda tf, x, k=_k, s=_s, p=_pad, f=_fmt: tf.raw_ops.AvgPool(value=x, ksize=k, strides=s, padding=p,
                                                                            data_format=f),
             fine("pf", _shape), traced=False)
        case("af-pool-formats", f"avg_pool2d {_fmt} {_pad}",
             lambda tf, x, k=_k, s=_s, p=_pad, f=_fmt: tf.nn.avg_pool2d(x, k, s, p, data_format=f),
             fine("pf", _shape), traced=False)
for _pad in ("VALID", "SAME"):
    case("af-pool-formats", f"avg_pool2d SAME edges {_pad} grad",
         lambda tf, x, p=_pad: tf.nn.avg_pool2d(x, [3, 2], [2, 2], p), fine("pa", (2, 5, 5, 2)), grad=True)
    for _fmt in ("NDHWC", "NCDHW"):
        _k = [1, 2, 2, 3, 1] if _fmt == "NDHWC" else [1, 1, 2, 2, 3]
        _s = [1, 1, 2, 1, 1] if _fmt == "NDHWC" else [1, 1, 1, 2, 1]
        _shape = (1, 3, 4, 5, 2) if _fmt == "NDHWC" else (1, 2, 3, 4, 5)
        case("af-pool-3d", f"raw MaxPool3D {_fmt} {_pad}",
             lambda tf, x, k=_k, s=_s, p=_pad, f=_fmt: tf.raw_ops.MaxPool3D(input=x, ksize=k, strides=s, padding=p,
                                                                              data_format=f),
             f32("p3", _shape), traced=False)
        case("af-pool-3d", f"raw AvgPool3D {_fmt} {_pad}",
             lambda tf, x, k=_k, s=_s, p=_pad, f=_fmt: tf.raw_ops.AvgPool3D(input=x, ksize=k, strides=s, padding=p,
                                                                              data_format=f),
             fine("p3", _shape), traced=False)
    case("af-pool-3d", f"max_pool3d {_pad} grad", lambda tf, x, p=_pad: tf.nn.max_pool3d(x, [2, 3, 2], [1, 2, 2], p),
         f32("p3g", (2, 3, 5, 4, 2)), grad=True)
    case("af-pool-3d", f"avg_pool3d {_pad} grad", lambda tf, x, p=_pad: tf.nn.avg_pool3d(x, [2, 2, 3], [2, 1, 2], p),
         fine("p3g", (1, 4, 4, 5, 2)), grad=True)

for _ibi in (False, True):
    for _targ in ("int64", "int32"):
        for _pad in ("VALID", "SAME"):
            case("ai-argmax-pool", f"raw MaxPoolWithArgmax {_targ} ibi={_ibi} {_pad}",
                 lambda tf, x, t=_targ, b=_ibi, p=_pad: tf.raw_ops.MaxPoolWithArgmax(
                     input=x, ksize=[1, 2, 2, 1], strides=[1, 2, 1, 1], padding=p, Targmax=t,
                     include_batch_in_index=b), f32("pwa", (2, 4, 3, 2), step=1.0))
        case("ai-argmax-pool", f"max_pool_with_argmax {_targ} ibi={_ibi}",
             lambda tf, x, t=_targ, b=_ibi: tf.nn.max_pool_with_argmax(x, [3, 2], [2, 2], "SAME", output_dtype=t,
                                                                        include_batch_in_index=b),
             f32("pwa2", (3, 5, 4, 2), step=1.0))
        case("ai-argmax-pool", f"max_pool_with_argmax grad {_targ} ibi={_ibi}",
             lambda tf, x, t=_targ, b=_ibi: tf.nn.max_pool_with_argmax(x, 2, 1, "VALID", output_dtype=t,
                                                                        include_batch_in_index=b)[0],
             f32("pwa3", (2, 3, 3, 2), step=0.125), grad=True)
case("ai-argmax-pool", "max_pool_with_argmax NCHW refused",
     lambda tf, x: tf.nn.max_pool_with_argmax(x, 2, 1, "VALID", data_format="NCHW"), f32("pwa", (1, 2, 3, 3)),
     traced=False)


# -- 3. convolutions: explicit paddings, dilations, strides per dimension, data formats ------------------------------
def _w(name: str, shape: tuple[int, ...]) -> tuple[np.ndarray, str]:
    return f32(name, shape, -2.0, 2.0, step=0.5)


for _pads, _st, _dil in (([0, 0, 1, 2, 0, 1, 0, 0], [1, 1, 1, 1], [1, 1, 1, 1]),
                         ([0, 0, 2, 0, 1, 1, 0, 0], [1, 2, 1, 1], [1, 1, 1, 1]),
                         ([0, 0, 1, 1, 1, 1, 0, 0], [1, 1, 1, 1], [1, 2, 1, 1]),
                         ([0, 0, 0, 0, 0, 0, 0, 0], [1, 1, 2, 1], [1, 1, 2, 1])):
    _lab = f"p{_pads[2:6]} s{_st[1:3]} d{_dil[1:3]}"
    case("af-conv-attrs", f"raw Conv2D EXPLICIT {_lab}",
         lambda tf, x, w, p=_pads, s=_st, d=_dil: tf.raw_ops.Conv2D(input=x, filter=w, strides=s, padding="EXPLICIT",
                                                                      explicit_paddings=p, dilations=d),
         f32("cx", (2, 5, 6, 3)), _w("cw", (2, 3, 3, 2)), grad=True)
    case("af-conv-attrs", f"conv2d explicit {_lab}",
         lambda tf, x, w, p=_pads, s=_st, d=_dil: tf.nn.conv2d(x, w, s[1:3], [p[0:2], p[2:4], p[4:6], p[6:8]],
                                                                 dilations=d[1:3]),
         f32("cx", (2, 5, 6, 3)), _w("cw", (2, 3, 3, 2)), grad=True)
    case("af-conv-attrs", f"raw DepthwiseConv2dNative EXPLICIT {_lab}",
         lambda tf, x, w, p=_pads, s=_st, d=_dil: tf.raw_ops.DepthwiseConv2dNative(
             input=x, filter=w, strides=s, padding="EXPLICIT", explicit_paddings=p, dilations=d),
         f32("dx", (2, 5, 6, 3)), _w("dw", (2, 3, 3, 2)), grad=True)
    case("af-conv-attrs", f"raw Conv2DBackpropInput EXPLICIT {_lab}",
         lambda tf, w, dy, p=_pads, s=_st, d=_dil: tf.raw_ops.Conv2DBackpropInput(
             input_sizes=[2, 5, 6, 3], filter=w, out_backprop=dy, strides=s, padding="EXPLICIT",
             explicit_paddings=p, dilations=d),
         _w("cw", (2, 3, 3, 2)), f32("dy", (2, (5 + _pads[2] + _pads[3] - (2 - 1) * _dil[1] - 1) // _st[1] + 1,
                                            (6 + _pads[4] + _pads[5] - (3 - 1) * _dil[2] - 1) // _st[2] + 1, 2)),
         grad=True)
    case("af-conv-attrs", f"raw Conv2DBackpropFilter EXPLICIT {_lab}",
         lambda tf, x, dy, p=_pads, s=_st, d=_dil: tf.raw_ops.Conv2DBackpropFilter(
             input=x, filter_sizes=[2, 3, 3, 2], out_backprop=dy, strides=s, padding="EXPLICIT",
             explicit_paddings=p, dilations=d),
         f32("cx", (2, 5, 6, 3)), f32("dy", (2, (5 + _pads[2] + _pads[3] - (2 - 1) * _dil[1] - 1) // _st[1] + 1,
                                            (6 + _pads[4] + _pads[5] - (3 - 1) * _dil[2] - 1) // _st[2] + 1, 2)),
         grad=True)
for _fmt in ("NHWC", "NCHW"):
    case("af-conv-attrs", f"raw Conv2D {_fmt} SAME",
         lambda tf, x, w, f=_fmt: tf.raw_ops.Conv2D(input=x, filter=w, strides=[1, 1, 1, 1], padding="SAME",
                                                     data_format=f),
         f32("cf", (1, 3, 4, 4) if _fmt == "NCHW" else (1, 4, 4, 3)), _w("cw", (2, 2, 3, 2)), traced=False)
case("af-conv-attrs", "raw Conv2D dilation in batch refused",
     lambda tf, x, w: tf.raw_ops.Conv2D(input=x, filter=w, strides=[1, 1, 1, 1], padding="VALID",
                                        dilations=[2, 1, 1, 1]), f32("cx", (1, 4, 4, 3)), _w("cw", (2, 2, 3, 2)),
     traced=False)
case("af-conv-attrs", "raw Conv2D stride in batch refused",
     lambda tf, x, w: tf.raw_ops.Conv2D(input=x, filter=w, strides=[2, 1, 1, 1], padding="VALID"),
     f32("cx", (1, 4, 4, 3)), _w("cw", (2, 2, 3, 2)), traced=False)
case("af-conv-attrs", "raw Conv2D SAME with explicit_paddings refused",
     lambda tf, x, w: tf.raw_ops.Conv2D(input=x, filter=w, strides=[1, 1, 1, 1], padding="SAME",
                                        explicit_paddings=[0, 0, 1, 1, 1, 1, 0, 0]), f32("cx", (1, 4, 4, 3)),
     _w("cw", (2, 2, 3, 2)), traced=False)
for _st, _dil, _pad in (([1, 1, 2, 1, 1], [1, 1, 1, 1, 1], "SAME"), ([1, 2, 1, 1, 1], [1, 1, 1, 1, 1], "VALID"),
                        ([1, 1, 1, 1, 1], [1, 2, 1, 1, 1], "VALID"), ([1, 1, 1, 1, 1], [1, 1, 1, 2, 1], "SAME")):
    case("af-conv3d-attrs", f"raw Conv3D s{_st[1:4]} d{_dil[1:4]} {_pad}",
         lambda tf, x, w, s=_st, d=_dil, p=_pad: tf.raw_ops.Conv3D(input=x, filter=w, strides=s, padding=p,
                                                                    dilations=d),
         f32("c3", (1, 4, 5, 5, 2)), _w("c3w", (2, 2, 2, 2, 3)), grad=True)
    case("af-conv3d-attrs", f"conv3d s{_st[1:4]} d{_dil[1:4]} {_pad}",
         lambda tf, x, w, s=_st, d=_dil, p=_pad: tf.nn.conv3d(x, w, s, p, dilations=d),
         f32("c3", (1, 4, 5, 5, 2)), _w("c3w", (2, 2, 2, 2, 3)), grad=True)
case("af-conv3d-attrs", "raw Conv3D NCDHW",
     lambda tf, x, w: tf.raw_ops.Conv3D(input=x, filter=w, strides=[1, 1, 1, 1, 1], padding="VALID",
                                        data_format="NCDHW"), f32("c3c", (1, 2, 3, 3, 3)), _w("c3w", (2, 2, 2, 2, 3)),
     traced=False)
case("af-conv-attrs", "depthwise_conv2d dilation (2,1) SAME",
     lambda tf, x, w: tf.nn.depthwise_conv2d(x, w, [1, 1, 1, 1], "SAME", dilations=[2, 1]),
     f32("dx", (2, 5, 6, 3)), _w("dw", (2, 3, 3, 2)), grad=True)
case("af-conv-attrs", "depthwise_conv2d explicit",
     lambda tf, x, w: tf.nn.depthwise_conv2d(x, w, [1, 2, 1, 1], [[0, 0], [1, 0], [0, 2], [0, 0]]),
     f32("dx", (2, 5, 6, 3)), _w("dw", (2, 3, 3, 2)), grad=True)


# -- 4. products, reductions, scans, arg, top-k, unique, bincount ----------------------------------------------------
for _ta in (False, True):
    for _tb in (False, True):
        case("af-matmul-attrs", f"raw MatMul ta={_ta} tb={_tb}",
             lambda tf, a, b, ta=_ta, tb=_tb: tf.raw_ops.MatMul(a=a, b=b, transpose_a=ta, transpose_b=tb),
             fine("ma", (3, 5) if not _ta else (5, 3)), fine("mb", (5, 4) if not _tb else (4, 5)), grad=True)
        case("af-matmul-attrs", f"raw BatchMatMulV2 adj_x={_ta} adj_y={_tb} complex",
             lambda tf, a, b, ta=_ta, tb=_tb: tf.raw_ops.BatchMatMulV2(
                 x=tf.complex(a, a * 0.5), y=tf.complex(b, -b), adj_x=ta, adj_y=tb),
             fine("bma", (2, 3, 4)), fine("bmb", (1, 4, 3) if _ta == _tb else (1, 3, 4)), grad=True)
        case("af-matmul-attrs", f"raw BatchMatMulV3 float adj_x={_ta} adj_y={_tb}",
             lambda tf, a, b, ta=_ta, tb=_tb: tf.raw_ops.BatchMatMulV3(x=a, y=b, Tout=tf.float32, adj_x=ta,
                                                                        adj_y=tb),
             fine("bma", (2, 3, 3)), fine("bmb", (2, 3, 3)), grad=True)
        case("af-matmul-attrs", f"matmul adjoint_a={_ta} adjoint_b={_tb} float64",
             lambda tf, a, b, ta=_ta, tb=_tb: tf.linalg.matmul(a, b, adjoint_a=ta, adjoint_b=tb),
             fine("m64a", (2, 4, 4), "float64"), fine("m64b", (4, 4), "float64"), grad=True)
for _tout in ("int32", "int16", "float32"):
    case("ai-matmul-tout", f"raw BatchMatMulV3 int8 Tout={_tout}",
         lambda tf, a, b, t=_tout: tf.raw_ops.BatchMatMulV3(x=a, y=b, Tout=t), ints("i8a", (2, 3, 4), -128, 128, "int8"),
         ints("i8b", (4, 2), -128, 128, "int8"), traced=False)
case("ai-matmul-tout", "raw BatchMatMulV3 uint8 x int8 Tout=int32",
     lambda tf, a, b: tf.raw_ops.BatchMatMulV3(x=a, y=b, Tout="int32"), ints("u8a", (3, 4), 0, 256, "uint8"),
     ints("i8b", (4, 2), -128, 128, "int8"), traced=False)
case("ai-matmul-tout", "matmul int8 output_type int32",
     lambda tf, a, b: tf.linalg.matmul(a, b, output_type=tf.int32), ints("i8a", (3, 4), -128, 128, "int8"),
     ints("i8b", (4, 2), -128, 128, "int8"), traced=False)
case("ai-matmul-tout", "raw MatMul int32 transpose_b", lambda tf, a, b: tf.raw_ops.MatMul(a=a, b=b, transpose_b=True),
     ints("i32a", (3, 4), -1000, 1000), ints("i32b", (2, 4), -1000, 1000))

for _op in ("Sum", "Prod", "Max", "Min", "Mean"):
    for _kd in (False, True):
        for _ax, _tidx in (([1], "int32"), ([-1, 0], "int64"), ([], "int32")):
            case(f"af-reduce-keepdims", f"raw {_op} keep_dims={_kd} axis={_ax} {_tidx}",
                 lambda tf, x, o=_op, k=_kd, a=_ax, t=_tidx: getattr(tf.raw_ops, o)(
                     input=x, axis=tf.constant(a, t), keep_dims=k), fine(f"red{_op}", (3, 4, 5)),
                 grad=_op not in ("Prod",))
for _op in ("Any", "All"):
    for _kd in (False, True):
        case("ai-reduce-bool", f"raw {_op} keep_dims={_kd}",
             lambda tf, x, o=_op, k=_kd: getattr(tf.raw_ops, o)(input=x > 0, axis=tf.constant([0, 2], tf.int64),
                                                                keep_dims=k), ints("rb", (2, 3, 4), -1, 2))
for _op in ("Sum", "Prod", "Max", "Min", "Mean"):
    for _kd in (False, True):
        case("ai-reduce-int", f"raw {_op} int32 keep_dims={_kd}",
             lambda tf, x, o=_op, k=_kd: getattr(tf.raw_ops, o)(input=x, axis=[0], keep_dims=k),
             ints("ri", (3, 4), -50, 50))
case("ai-reduce-int", "raw Sum axis out of range", lambda tf, x: tf.raw_ops.Sum(input=x, axis=[3], keep_dims=True),
     ints("ri", (3, 4), -50, 50), traced=False)
case("ai-reduce-int", "raw Sum duplicate axes", lambda tf, x: tf.raw_ops.Sum(input=x, axis=[1, -1], keep_dims=True),
     ints("ri", (3, 4), -50, 50), traced=False)

for _op in ("ArgMax", "ArgMin"):
    for _ot in ("int64", "int32", "int16", "uint16"):
        case("ai-argmax-output-type", f"raw {_op} output_type={_ot}",
             lambda tf, x, o=_op, t=_ot: getattr(tf.raw_ops, o)(input=x, dimension=tf.constant(1, tf.int64),
                                                                 output_type=t), f32("am", (3, 7), step=1.0))
        case("ai-argmax-output-type", f"tf.math.{_op.lower()} output_type={_ot}",
             lambda tf, x, o=_op, t=_ot: getattr(tf.math, o.lower())(x, axis=0, output_type=t),
             f32("am", (3, 7), step=1.0))

for _op in ("Cumsum", "Cumprod", "CumulativeLogsumexp"):
    for _ex in (False, True):
        for _rv in (False, True):
            case("af-scan-attrs", f"raw {_op} exclusive={_ex} reverse={_rv}",
                 lambda tf, x, o=_op, e=_ex, r=_rv: getattr(tf.raw_ops, o)(x=x, axis=tf.constant(-1, tf.int64),
                                                                            exclusive=e, reverse=r),
                 fine(f"scan{_op}", (3, 9)), grad=True)
    case("af-scan-attrs", f"raw {_op} float64 axis 0 exclusive reverse",
         lambda tf, x, o=_op: getattr(tf.raw_ops, o)(x=x, axis=0, exclusive=True, reverse=True),
         fine(f"scan{_op}", (5, 2), "float64"), grad=True)
for _ex in (False, True):
    for _rv in (False, True):
        case("ai-scan-int", f"raw Cumsum int32 exclusive={_ex} reverse={_rv}",
             lambda tf, x, e=_ex, r=_rv: tf.raw_ops.Cumsum(x=x, axis=1, exclusive=e, reverse=r),
             ints("csi", (2, 6), -100, 100))
        case("ai-scan-int", f"raw Cumprod int64 exclusive={_ex} reverse={_rv}",
             lambda tf, x, e=_ex, r=_rv: tf.raw_ops.Cumprod(x=x, axis=0, exclusive=e, reverse=r),
             ints("cpi", (5, 2), -9, 9, "int64"))

for _sorted in (True, False):
    for _k in (0, 1, 4, 7):
        case("ai-topk-attrs", f"raw TopKV2 sorted={_sorted} k={_k}",
             lambda tf, x, s=_sorted, k=_k: tf.raw_ops.TopKV2(input=x, k=k, sorted=s), f32("tk", (2, 7), step=0.5))
        case("ai-topk-attrs", f"top_k sorted={_sorted} k={_k} int32",
             lambda tf, x, s=_sorted, k=_k: tf.math.top_k(x, k, sorted=s), ints("tki", (3, 7), -3, 3))
    case("ai-topk-attrs", f"top_k sorted={_sorted} grad", lambda tf, x, s=_sorted: tf.math.top_k(x, 3, sorted=s)[0],
         f32("tkg", (2, 6), step=0.5), grad=True)
for _it in ("int16", "int32", "int64"):
    case("ai-topk-attrs", f"raw TopKV2 index_type={_it}",
         lambda tf, x, t=_it: tf.raw_ops.TopKV2(input=x, k=tf.constant(3, t), index_type=t),
         f32("tk", (2, 7), step=0.5))
    case("ai-topk-attrs", f"top_k index_type={_it}", lambda tf, x, t=_it: tf.math.top_k(x, 2, index_type=t),
         f32("tk", (2, 7), step=0.5))
case("ai-topk-attrs", "raw TopKV2 k > n refused", lambda tf, x: tf.raw_ops.TopKV2(input=x, k=8),
     f32("tk", (2, 7), step=0.5), traced=False)

for _oi in ("int32", "int64"):
    _u = ints("uq", (9,), -3, 3)
    case("ai-unique-attrs", f"raw Unique out_idx={_oi}", lambda tf, x, o=_oi: tf.raw_ops.Unique(x=x, out_idx=o), _u)
    case("ai-unique-attrs", f"unique out_idx={_oi}", lambda tf, x, o=_oi: tf.unique(x, out_idx=o), _u)
    case("ai-unique-attrs", f"raw UniqueWithCounts out_idx={_oi}",
         lambda tf, x, o=_oi: tf.raw_ops.UniqueWithCounts(x=x, out_idx=o), _u)
    case("ai-unique-attrs", f"unique_with_counts out_idx={_oi}",
         lambda tf, x, o=_oi: tf.unique_with_counts(x, out_idx=o), _u)
    for _ax in (0, 1, -1):
        case("ai-unique-attrs", f"raw UniqueV2 axis={_ax} out_idx={_oi}",
             lambda tf, x, a=_ax, o=_oi: tf.raw_ops.UniqueV2(x=x, axis=tf.constant([a], tf.int64), out_idx=o),
             ints("uq2", (4, 3), 0, 2))
        case("ai-unique-attrs", f"raw UniqueWithCountsV2 axis={_ax} out_idx={_oi}",
             lambda tf, x, a=_ax, o=_oi: tf.raw_ops.UniqueWithCountsV2(x=x, axis=[a], out_idx=o),
             ints("uq2", (4, 3), 0, 2))
case("ai-unique-attrs", "raw UniqueV2 axis empty", lambda tf, x: tf.raw_ops.UniqueV2(x=x, axis=tf.constant([], tf.int32)),
     ints("uq2", (4, 3), 0, 2))

for _bo in (False, True):
    case("ai-bincount-attrs", f"raw DenseBincount 1-D binary_output={_bo}",
         lambda tf, x, b=_bo: tf.raw_ops.DenseBincount(input=x, size=6, weights=tf.constant([], tf.int32),
                                                       binary_output=b), ints("bin", (12,), 0, 8))
    case("ai-bincount-attrs", f"raw DenseBincount 2-D weights binary_output={_bo}",
         lambda tf, x, w, b=_bo: tf.raw_ops.DenseBincount(input=x, size=tf.constant(5, tf.int64), weights=w,
                                                          binary_output=b),
         ints("bin2", (3, 4), 0, 5, "int64"), f32("binw", (3, 4), 0.0, 2.0, step=0.5))
    case("ai-bincount-attrs", f"bincount binary_output={_bo}",
         lambda tf, x, b=_bo: tf.math.bincount(x, minlength=4, binary_output=b), ints("bin", (12,), 0, 8))
    case("ai-bincount-attrs", f"bincount axis=-1 binary_output={_bo}",
         lambda tf, x, b=_bo: tf.math.bincount(x, axis=-1, binary_output=b, dtype=tf.int64),
         ints("bin2", (3, 4), 0, 5))
case("ai-bincount-attrs", "raw Bincount float weights",
     lambda tf, x, w: tf.raw_ops.Bincount(arr=x, size=7, weights=w), ints("bin", (12,), 0, 8),
     f32("bw", (12,), step=0.5))
case("ai-bincount-attrs", "bincount weights with binary_output refused",
     lambda tf, x, w: tf.math.bincount(x, weights=w, binary_output=True), ints("bin", (12,), 0, 8),
     f32("bw", (12,), step=0.5), traced=False)


# -- 5. resizes (align_corners, half_pixel_centers), softmax cross entropy, activations -------------------------------
for _ac, _hp in ((False, False), (True, False), (False, True), (True, True)):
    for _op in ("ResizeBilinear", "ResizeNearestNeighbor", "ResizeBicubic"):
        for _size in ((5, 7), (2, 3)):
            case("af-resize-attrs", f"raw {_op} {_size} align={_ac} half={_hp}",
                 lambda tf, x, o=_op, s=_size, a=_ac, h=_hp: getattr(tf.raw_ops, o)(
                     images=x, size=list(s), align_corners=a, half_pixel_centers=h),
                 fine("rz", (2, 4, 5, 2)), grad=_size == (5, 7) and _op != "ResizeBicubic" and not (_ac and _hp),
                 traced=not (_ac and _hp))
    case("af-resize-attrs", f"raw ResizeArea align={_ac} half={_hp}",
         lambda tf, x, a=_ac: tf.raw_ops.ResizeArea(images=x, size=[3, 7], align_corners=a),
         fine("rz", (2, 4, 5, 2)), traced=False)
for _m in ("bilinear", "nearest", "bicubic", "area", "lanczos3", "mitchellcubic", "gaussian"):
    for _aa in (False, True):
        case("af-resize-public", f"image.resize {_m} antialias={_aa}",
             lambda tf, x, m=_m, a=_aa: tf.image.resize(x, [3, 7], method=m, antialias=a),
             fine("rzp", (1, 5, 5, 2)), traced=False)
    case("af-resize-public", f"image.resize {_m} preserve_aspect_ratio",
         lambda tf, x, m=_m: tf.image.resize(x, [6, 6], method=m, preserve_aspect_ratio=True),
         fine("rzp", (1, 5, 4, 2)), traced=False)
for _m in ("bilinear", "nearest_neighbor", "bicubic", "area"):
    case("af-resize-public", f"compat.v1 resize {_m} align_corners",
         lambda tf, x, m=_m: tf.compat.v1.image.resize(x, [5, 7], method=getattr(tf.image.ResizeMethod,
                                                                                 m.upper()), align_corners=True),
         fine("rzp", (1, 4, 5, 2)), traced=False)
for _m in (0, 1, 2, 3):
    case("af-resize-public", f"compat.v1 resize_images method {_m} 3-D uint8",
         lambda tf, x, m=_m: tf.compat.v1.image.resize_images(tf.cast(x, tf.uint8), [3, 7], method=m,
                                                              align_corners=m == 1),
         ints("rzu", (4, 5, 3), 0, 255), traced=False)
case("af-resize-public", "compat.v1 resize same size, preserve_aspect_ratio",
     lambda tf, x: [tf.compat.v1.image.resize(x, [4, 5]), tf.compat.v1.image.resize(x, [8, 8],
                                                                                   preserve_aspect_ratio=True)],
     fine("rzp", (1, 4, 5, 2)), traced=False)
case("af-resize-public", "compat.v1 resize_bilinear/nearest_neighbor/bicubic/area",
     lambda tf, x: [tf.compat.v1.image.resize_bilinear(x, [3, 3], half_pixel_centers=True),
                    tf.compat.v1.image.resize_nearest_neighbor(x, [7, 3], align_corners=True),
                    tf.compat.v1.image.resize_bicubic(x, [7, 3]), tf.compat.v1.image.resize_area(x, [3, 3])],
     fine("rzp", (1, 4, 5, 2)), traced=False)
case("af-resize-public", "resize_with_pad", lambda tf, x: tf.image.resize_with_pad(x, 7, 5),
     fine("rzp", (1, 4, 5, 2)), traced=False)

for _dt in ("float32", "float64", "float16"):
    case("af-xent-attrs", f"raw SoftmaxCrossEntropyWithLogits {_dt}",
         lambda tf, x, y: tf.raw_ops.SoftmaxCrossEntropyWithLogits(features=x, labels=tf.nn.softmax(y)),
         fine("xe", (4, 6), _dt), fine("xl", (4, 6), _dt))
    case("af-xent-attrs", f"raw SoftmaxCrossEntropyWithLogits broadcast labels {_dt}",
         lambda tf, x, y: tf.raw_ops.SoftmaxCrossEntropyWithLogits(features=x, labels=tf.nn.softmax(y)),
         fine("xe", (4, 6), _dt), fine("xl", (1, 6), _dt))
    case("af-xent-attrs", f"raw SparseSoftmaxCrossEntropyWithLogits int64 {_dt}",
         lambda tf, x, y: tf.raw_ops.SparseSoftmaxCrossEntropyWithLogits(features=x, labels=y),
         fine("xe", (4, 6), _dt), ints("xs", (4,), 0, 6, "int64"))
    for _ax in (-1, 0, 1):
        case("af-xent-attrs", f"softmax_cross_entropy_with_logits axis={_ax} {_dt}",
             lambda tf, x, y, a=_ax: tf.nn.softmax_cross_entropy_with_logits(tf.nn.softmax(y, axis=a), x, axis=a),
             fine("xe", (4, 6), _dt), fine("xl", (4, 6), _dt), grad=True)

_ACT = (np.array([-3.5, -1.0, -0.0, 0.0, 0.5, 2.25, -1e-3, 7.0, -7.0, 1e-40, -1e-40, 33.0, -0.25, 3.0, -2.0,
                  0.75, 1.5]), "float32")
for _alpha in (0.2, 0.0, 1.0, -0.5, 2.0, 0.01):
    case("af-activation-attrs", f"raw LeakyRelu alpha={_alpha}",
         lambda tf, x, a=_alpha: tf.raw_ops.LeakyRelu(features=x, alpha=a), _ACT, grad=True)
    case("af-activation-attrs", f"leaky_relu alpha={_alpha}", lambda tf, x, a=_alpha: tf.nn.leaky_relu(x, alpha=a),
         _ACT, grad=True)
    case("af-activation-attrs", f"leaky_relu alpha={_alpha} float64",
         lambda tf, x, a=_alpha: tf.nn.leaky_relu(x, alpha=a), (_ACT[0], "float64"), grad=True)
    case("af-activation-attrs", f"leaky_relu alpha={_alpha} float16",
         lambda tf, x, a=_alpha: tf.nn.leaky_relu(x, alpha=a), (_ACT[0], "float16"), grad=True)
case("af-activation-attrs", "raw LeakyReluGrad alpha=0.3",
     lambda tf, g, x: tf.raw_ops.LeakyReluGrad(gradients=g, features=x, alpha=0.3), (_ACT[0] * 0 + 1.5, "float32"),
     _ACT)
for _ap in (False, True):
    for _dt in ("float32", "float64", "float16", "bfloat16"):
        case("af-activation-attrs", f"gelu approximate={_ap} {_dt}",
             lambda tf, x, a=_ap: tf.nn.gelu(x, approximate=a), (_ACT[0], _dt), grad=True)


# -- 6. indexing, padding, shapes: masks, modes, axes, Tidx, batch_dims ---------------------------------------------
_SS = (("begin_mask", dict(begin=[1, 0, 2], end=[3, 2, 4], strides=[1, 1, 1], begin_mask=0b101)),
       ("end_mask", dict(begin=[1, 0, 1], end=[2, 2, 3], strides=[1, 1, 1], end_mask=0b110)),
       ("ellipsis_mask", dict(begin=[0, 1], end=[0, 3], strides=[1, 1], ellipsis_mask=0b01)),
       ("new_axis_mask", dict(begin=[0, 1, 0], end=[0, 3, 2], strides=[1, 1, 1], new_axis_mask=0b001)),
       ("shrink_axis_mask", dict(begin=[1, 0, -1], end=[2, 3, 0], strides=[1, 1, 1], shrink_axis_mask=0b101)),
       ("negative strides", dict(begin=[-1, 2, 4], end=[0, 0, 0], strides=[-1, -2, -3], end_mask=0b100)),
       ("all masks", dict(begin=[0, 1, 0, 2], end=[0, 2, 0, 0], strides=[1, 1, 1, -1], begin_mask=0b0001,
                          ellipsis_mask=0b0100, new_axis_mask=0b1000, shrink_axis_mask=0b0010)),
       ("ellipsis and new axis", dict(begin=[0, 0, 1], end=[0, 0, 2], strides=[1, 1, 1], ellipsis_mask=0b001,
                                      new_axis_mask=0b010, shrink_axis_mask=0b100)),
       ("empty slice", dict(begin=[2, 0, 0], end=[1, 3, 5], strides=[1, 1, 1])),
       ("int64 bounds", dict(begin=np.array([0, 1, 1], np.int64), end=np.array([3, 3, 5], np.int64),
                             strides=np.array([2, 1, 2], np.int64))))
for _lab, _kw in _SS:
    case("af-strided-slice", f"raw StridedSlice {_lab}",
         lambda tf, x, kw=_kw: tf.raw_ops.StridedSlice(input=x, **kw), fine("ss", (3, 3, 5)), grad=True)
    case("af-strided-slice", f"strided_slice {_lab}", lambda tf, x, kw=_kw: tf.strided_slice(x, **kw),
         fine("ss", (3, 3, 5)), grad=True)
case("af-strided-slice", "getitem forms",
     lambda tf, x: [x[1], x[..., 2], x[:, tf.newaxis, 1:, ::-2], x[-1:, ..., 0], x[::2, 1], x[1, ..., tf.newaxis]],
     fine("ss", (3, 3, 5)))
case("af-strided-slice", "getitem grad", lambda tf, x: x[:, tf.newaxis, 1:, ::-2] * 2.0, fine("ss", (3, 3, 5)),
     grad=True)
case("af-strided-slice", "raw StridedSlice zero stride refused",
     lambda tf, x: tf.raw_ops.StridedSlice(input=x, begin=[0], end=[2], strides=[0]), fine("ss", (3, 3, 5)),
     traced=False)
case("af-strided-slice", "raw StridedSlice two ellipses refused",
     lambda tf, x: tf.raw_ops.StridedSlice(input=x, begin=[0, 0], end=[0, 0], strides=[1, 1], ellipsis_mask=0b11),
     fine("ss", (3, 3, 5)), traced=False)

_PADS = [[1, 2], [0, 1]]
for _mode in ("REFLECT", "SYMMETRIC"):
    case("af-pad-modes", f"raw MirrorPad {_mode}",
         lambda tf, x, m=_mode: tf.raw_ops.MirrorPad(input=x, paddings=tf.constant(_PADS, tf.int64), mode=m),
         fine("pad", (3, 4)), grad=True)
    case("af-pad-modes", f"pad {_mode}", lambda tf, x, m=_mode: tf.pad(x, [[2, 2], [1, 3]], mode=m),
         fine("pad", (3, 4)), grad=True)
    case("af-pad-modes", f"pad {_mode} lower case", lambda tf, x, m=_mode: tf.pad(x, [[0, 1], [2, 0]], mode=m.lower()),
         ints("padi", (2, 3), -9, 9))
    case("af-pad-modes", f"raw MirrorPad {_mode} too wide refused",
         lambda tf, x, m=_mode: tf.raw_ops.MirrorPad(input=x, paddings=[[3, 0], [0, 0]], mode=m),
         fine("pad", (3, 4)), traced=False)
case("af-pad-modes", "raw PadV2 constant_values", lambda tf, x: tf.raw_ops.PadV2(input=x, paddings=_PADS,
                                                                                 constant_values=-2.5),
     fine("pad", (3, 4)), grad=True)
case("af-pad-modes", "pad CONSTANT constant_values int", lambda tf, x: tf.pad(x, _PADS, constant_values=7),
     ints("padi", (2, 3), -9, 9))
case("af-pad-modes", "pad bad mode refused", lambda tf, x: tf.pad(x, _PADS, mode="WRAP"), fine("pad", (3, 4)),
     traced=False)

for _ax in (-1, 0, 1, 2):
    case("ai-one-hot-axis", f"raw OneHot axis={_ax}",
         lambda tf, i, a=_ax: tf.raw_ops.OneHot(indices=i, depth=4, on_value=2.5, off_value=-1.0, axis=a),
         ints("oh", (2, 3), -1, 5))
    case("ai-one-hot-axis", f"one_hot axis={_ax} int64 uint8",
         lambda tf, i, a=_ax: tf.one_hot(i, 3, axis=a, dtype=tf.uint8), ints("oh", (2, 3), -1, 5, "int64"))
case("ai-one-hot-axis", "one_hot on/off int32", lambda tf, i: tf.one_hot(i, 5, on_value=9, off_value=3),
     ints("oh", (2, 3), -1, 5, "uint8"))
case("ai-one-hot-axis", "raw OneHot axis=-2 refused",
     lambda tf, i: tf.raw_ops.OneHot(indices=i, depth=4, on_value=1.0, off_value=0.0, axis=-2),
     ints("oh", (2, 3), -1, 5), traced=False)

case("ai-shapes-attrs", "raw Fill int64 dims", lambda tf: tf.raw_ops.Fill(dims=tf.constant([2, 3], tf.int64),
                                                                          value=tf.constant(-0.0)))
case("ai-shapes-attrs", "fill bool and string", lambda tf: [tf.fill([2], True), tf.fill([1, 2], "s")])
for _tidx in ("int32", "int64", "float32", "float64", "int16", "int8", "uint16", "uint32", "bfloat16", "float16"):
    case("ai-shapes-attrs", f"raw Range Tidx={_tidx}",
         lambda tf, t=_tidx: tf.raw_ops.Range(start=tf.cast(tf.constant(2), t), limit=tf.cast(tf.constant(11), t),
                                              delta=tf.cast(tf.constant(3), t)))
    case("ai-shapes-attrs", f"range dtype={_tidx} fractional",
         lambda tf, t=_tidx: tf.range(1, 9, 1.5 if t in ("float32", "float64", "bfloat16", "float16") else 2,
                                      dtype=t))
case("ai-shapes-attrs", "range negative delta float32", lambda tf: tf.range(3.0, -2.1, -0.3))
# (Tidx omitted: the widest of start, limit and delta)
case("ai-shapes-attrs", "range Tidx inferred", lambda tf: [tf.range(0, 2.5), tf.range(2, 7.0, 2), tf.range(5),
                                                          tf.range(1.5), tf.range(3, 0.5, -1),
                                                          tf.range(tf.constant(4, tf.int64)),
                                                          tf.range(tf.constant(1.0, tf.float64), 3)])
case("ai-shapes-attrs", "raw Range Tidx from inputs",
     lambda tf: tf.raw_ops.Range(start=tf.constant(1, tf.int64), limit=tf.constant(9, tf.int64),
                                 delta=tf.constant(4, tf.int64)))
case("ai-shapes-attrs", "range zero delta refused", lambda tf: tf.range(0, 3, 0), traced=False)
for _nt, _dt in (("int32", "float32"), ("int64", "float64"), ("int32", "float64")):
    for _n in (1, 2, 7):
        case("ai-shapes-attrs", f"raw LinSpace num={_n} {_nt} {_dt}",
             lambda tf, n=_n, nt=_nt, d=_dt: tf.raw_ops.LinSpace(start=tf.constant(-1.5, d), stop=tf.constant(2.0, d),
                                                                 num=tf.constant(n, nt)))
case("ai-shapes-attrs", "linspace batched axis=1", lambda tf: tf.linspace([0.0, 1.0], [1.0, -3.0], 5, axis=1))
case("ai-shapes-attrs", "linspace num=0 refused", lambda tf: tf.linspace(0.0, 1.0, 0), traced=False)
for _ax, _t in (([0], "int32"), ([-1], "int64"), ([0, 2], "int64"), ([], "int32")):
    case("ai-shapes-attrs", f"raw ReverseV2 axis={_ax} {_t}",
         lambda tf, x, a=_ax, t=_t: tf.raw_ops.ReverseV2(tensor=x, axis=tf.constant(a, t)), ints("rv", (2, 3, 2), 0, 99))
    case("ai-shapes-attrs", f"reverse axis={_ax}", lambda tf, x, a=_ax: tf.reverse(x, a), ints("rv", (2, 3, 2), 0, 99))
case("af-shapes-grad", "reverse grad", lambda tf, x: tf.reverse(x, [-1, 0]), fine("rvg", (2, 3, 2)), grad=True)
for _sh, _ax in ((2, 0), (-1, 1), ([1, -2], [0, 1]), ([7, 3], [1, 1]), (0, -1)):
    case("ai-shapes-attrs", f"raw Roll shift={_sh} axis={_ax} int64",
         lambda tf, x, s=_sh, a=_ax: tf.raw_ops.Roll(input=x, shift=tf.constant(s, tf.int64),
                                                     axis=tf.constant(a, tf.int64)), ints("roll", (3, 4), 0, 99))
    case("ai-shapes-attrs", f"roll shift={_sh} axis={_ax}", lambda tf, x, s=_sh, a=_ax: tf.roll(x, s, a),
         ints("roll", (3, 4), 0, 99))
case("af-shapes-grad", "roll grad", lambda tf, x: tf.roll(x, [1, -2], [0, 1]), fine("rlg", (3, 4)), grad=True)
for _m, _t in (([2, 1], "int32"), ([1, 3], "int64"), ([0, 2], "int64")):
    case("ai-shapes-attrs", f"raw Tile multiples={_m} {_t}",
         lambda tf, x, m=_m, t=_t: tf.raw_ops.Tile(input=x, multiples=tf.constant(m, t)), ints("tile", (2, 2), 0, 9))
    case("af-shapes-grad", f"tile {_m} grad", lambda tf, x, m=_m: tf.tile(x, m), fine("tlg", (2, 2)), grad=True)
for _perm, _t in (([1, 0, 2], "int32"), ([2, 0, 1], "int64")):
    case("ai-shapes-attrs", f"raw Transpose perm={_perm} {_t}",
         lambda tf, x, p=_perm, t=_t: tf.raw_ops.Transpose(x=x, perm=tf.constant(p, t)), ints("tr", (2, 3, 2), 0, 99))
    case("ai-shapes-attrs", f"raw ConjugateTranspose perm={_perm} {_t}",
         lambda tf, x, p=_perm, t=_t: tf.raw_ops.ConjugateTranspose(x=tf.complex(x, -x * 0.5), perm=tf.constant(p, t)),
         f32("ctr", (2, 3, 2)))
    case("af-shapes-grad", f"transpose conjugate={True} perm={_perm} grad",
         lambda tf, x, p=_perm: tf.math.real(tf.transpose(tf.complex(x, x * 2.0), p, conjugate=True) *
                                             tf.complex(x[0, 0, 0], 1.0)), fine("trg", (2, 3, 2)), grad=True)
case("ai-shapes-attrs", "raw Transpose bad perm refused",
     lambda tf, x: tf.raw_ops.Transpose(x=x, perm=[0, 0, 1]), ints("tr", (2, 3, 2), 0, 99), traced=False)

for _bd, _ax in ((0, 0), (0, 1), (1, 1), (1, 2), (-1, -1), (2, 2), (1, -1)):
    _idx = ints("gi", (2, 3, 2) if _bd == 2 else (2, 4), 0, 2)
    case("af-gather-batch-dims", f"raw GatherV2 batch_dims={_bd} axis={_ax}",
         lambda tf, x, i, b=_bd, a=_ax: tf.raw_ops.GatherV2(params=x, indices=i, axis=tf.constant(a, tf.int64),
                                                            batch_dims=b), fine("gp", (2, 3, 3)), _idx, grad=True)
    case("af-gather-batch-dims", f"gather batch_dims={_bd} axis={_ax}",
         lambda tf, x, i, b=_bd, a=_ax: tf.gather(x, i, axis=a, batch_dims=b), fine("gp", (2, 3, 3)), _idx,
         grad=True)
case("af-gather-batch-dims", "gather batch_dims > axis refused",
     lambda tf, x, i: tf.gather(x, i, axis=0, batch_dims=1), fine("gp", (2, 3, 3)), ints("gi", (2, 4), 0, 3),
     traced=False)
case("af-gather-batch-dims", "raw Gather validate_indices=False",
     lambda tf, x, i: tf.raw_ops.Gather(params=x, indices=i, validate_indices=False), fine("gp", (3, 3)),
     ints("gi", (4,), 0, 3))
case("af-gather-batch-dims", "gather_nd batch_dims=1",
     lambda tf, x, i: tf.gather_nd(x, i, batch_dims=1), fine("gp", (2, 3, 3)), ints("gnd", (2, 2, 1), 0, 3),
     grad=True)

_SI = arr([[0, 1], [2, 0], [0, 1], [1, 2]], "int32")
_SI64 = arr([[0, 1], [2, 0], [0, 1], [1, 2]], "int64")
case("af-scatter-attrs", "raw ScatterNd int64 indices duplicates",
     lambda tf, i, u: tf.raw_ops.ScatterNd(indices=i, updates=u, shape=tf.constant([3, 3], tf.int64)), _SI64,
     fine("su", (4,)), grad=True)
case("af-scatter-attrs", "scatter_nd", lambda tf, i, u: tf.scatter_nd(i, u, [3, 3]), _SI, fine("su", (4,)),
     grad=True)
_SIU = arr([[0, 1], [2, 0], [1, 2]], "int32")
for _op in ("TensorScatterUpdate", "TensorScatterAdd", "TensorScatterSub", "TensorScatterMin", "TensorScatterMax"):
    _ix = _SIU if _op == "TensorScatterUpdate" else _SI
    case("af-scatter-attrs", f"raw {_op}",
         lambda tf, x, i, u, o=_op: getattr(tf.raw_ops, o)(tensor=x, indices=i, updates=u), fine("st", (3, 3)), _ix,
         fine("su", (_ix[0].shape[0],)), grad=_op in ("TensorScatterUpdate", "TensorScatterAdd", "TensorScatterSub"))
    case("ai-scatter-int", f"raw {_op} int64 indices int32 values",
         lambda tf, x, i, u, o=_op: getattr(tf.raw_ops, o)(tensor=x, indices=i, updates=u),
         ints("sti", (3, 3), -9, 9), _SI64 if _op != "TensorScatterUpdate" else arr(_SIU[0], "int64"),
         ints("sui", (4 if _op != "TensorScatterUpdate" else 3,), -20, 20))
for _fn in ("tensor_scatter_nd_min", "tensor_scatter_nd_max", "tensor_scatter_nd_add", "tensor_scatter_nd_sub"):
    case("ai-scatter-int", f"{_fn} slices", lambda tf, x, i, u, f=_fn: getattr(tf, f)(x, i, u),
         ints("sts", (3, 2), -9, 9), arr([[2], [0], [2]], "int32"), ints("sus", (3, 2), -20, 20))
case("ai-scatter-int", "tensor_scatter_nd_update out of range refused",
     lambda tf, x: tf.tensor_scatter_nd_update(x, [[3, 0]], [1]), ints("sti", (3, 3), -9, 9), traced=False)

_SEG = arr([0, 0, 1, 3, 3, 3], "int32")
for _op in ("UnsortedSegmentSum", "UnsortedSegmentProd", "UnsortedSegmentMax", "UnsortedSegmentMin"):
    for _nt in ("int32", "int64"):
        case("af-segment-attrs", f"raw {_op} Tnumsegments={_nt}",
             lambda tf, x, s, o=_op, t=_nt: getattr(tf.raw_ops, o)(data=x, segment_ids=s,
                                                                    num_segments=tf.constant(5, t)),
             fine("sg", (6, 2)), _SEG, grad=_op == "UnsortedSegmentSum")
for _op in ("SegmentSum", "SegmentMean", "SegmentProd", "SegmentMax", "SegmentMin"):
    case("af-segment-attrs", f"raw {_op} int64 ids", lambda tf, x, s, o=_op: getattr(tf.raw_ops, o)(data=x,
                                                                                                    segment_ids=s),
         fine("sg", (6, 2)), arr(_SEG[0], "int64"), grad=_op in ("SegmentSum", "SegmentMean"))
for _op in ("SegmentSumV2", "SegmentProdV2", "SegmentMaxV2", "SegmentMinV2"):
    case("af-segment-attrs", f"raw {_op} num_segments int64",
         lambda tf, x, s, o=_op: getattr(tf.raw_ops, o)(data=x, segment_ids=s, num_segments=tf.constant(6, tf.int64)),
         fine("sg", (6, 2)), _SEG, traced=False)
for _op in ("SparseSegmentSum", "SparseSegmentMean", "SparseSegmentSqrtN"):
    case("af-segment-attrs", f"raw {_op}WithNumSegments int64",
         lambda tf, x, s, o=_op: getattr(tf.raw_ops, o + "WithNumSegments")(
             data=x, indices=tf.constant([0, 2, 3, 5, 1, 4], tf.int64), segment_ids=s,
             num_segments=tf.constant(5, tf.int64)), fine("sg", (6, 2)), _SEG, grad=True)
for _op in ("unsorted_segment_sum", "unsorted_segment_max", "unsorted_segment_prod"):
    case("af-segment-attrs", f"{_op} 2-D ids int64", lambda tf, x, s, o=_op: getattr(tf.math, o)(x, s, 4),
         fine("sg2", (2, 3, 2)), arr([[0, 3, 0], [2, 2, 1]], "int64"), grad=_op != "unsorted_segment_prod")
case("af-segment-attrs", "unsorted_segment_sum num_segments int64 tensor",
     lambda tf, x, s: tf.math.unsorted_segment_sum(x, s, tf.constant(4, tf.int64)), fine("sg", (6, 2)), _SEG,
     grad=True)

for _eq, _shapes in (("ij,jk->ik", ((3, 4), (4, 2))), ("ij,jk", ((3, 4), (4, 2))), ("ii->i", ((3, 3),)),
                     ("ii", ((3, 3),)), ("ij->ji", ((2, 3),)), ("...ij,...jk->...ik", ((2, 3, 4), (4, 2))),
                     ("bij,bkj->bik", ((2, 3, 4), (2, 2, 4))), ("i,i", ((5,), (5,))), ("i,j->ij", ((3,), (2,))),
                     ("ij->", ((3, 4),)), ("a...,...b->ab", ((2, 3, 4), (3, 4, 2))), ("ijk->kj", ((2, 3, 4),)),
                     ("ij,ij->ij", ((2, 3), (2, 3))), ("bhd,bkd->bhk", ((1, 2, 16), (1, 3, 16))),
                     ("abcd,cd->ab", ((2, 2, 3, 4), (3, 4))), ("i,i->i", ((4,), (4,))), ("iij->j", ((2, 2, 3),))):
    _ins = tuple(fine(f"es{_eq}{k}", s) for k, s in enumerate(_shapes))
    case("af-einsum-forms", f"einsum {_eq}", lambda tf, *xs, e=_eq: tf.einsum(e, *xs), *_ins, grad=True)
    case("af-einsum-forms", f"raw Einsum {_eq}",
         lambda tf, *xs, e=_eq: tf.raw_ops.Einsum(inputs=list(xs), equation=e if "->" in e else e + "->" +
                                                  "".join(sorted(c for c in set(e.replace(",", "").replace(".", ""))
                                                                 if e.replace(",", "").count(c) == 1))),
         *_ins, traced=False)
for _eq in ("i...,i...->i", "...i,...i->i"):
    case("af-einsum-forms", f"einsum {_eq} refused", lambda tf, a, b, e=_eq: tf.einsum(e, a, b),
         fine("esr", (2, 1)), fine("esr2", (2, 1)))
case("af-einsum-forms", "einsum bad equation refused", lambda tf, x: tf.einsum("ij,jk->ik", x), fine("es", (2, 2)),
     traced=False)


# -- 7. random ops: seed pairs and algorithms ------------------------------------------------------------------------
for _s, _s2 in ((1, 0), (0, 1), (3, 5), (5, 3), (-1, 7), (2**31 - 1, 0)):
    case("ai-random-attrs", f"raw RandomUniformInt seed={_s} seed2={_s2}",
         lambda tf, s=_s, s2=_s2: tf.raw_ops.RandomUniformInt(shape=[7], minval=-5, maxval=9, seed=s, seed2=s2),
         traced=False)
    case("ai-random-attrs", f"raw RandomUniformInt int64 seed={_s} seed2={_s2}",
         lambda tf, s=_s, s2=_s2: tf.raw_ops.RandomUniformInt(shape=tf.constant([2, 3], tf.int64),
                                                              minval=tf.constant(-2**40, tf.int64),
                                                              maxval=tf.constant(2**40, tf.int64), seed=s, seed2=s2),
         traced=False)
    case("ai-random-attrs", f"raw RandomUniform seed={_s} seed2={_s2} float64",
         lambda tf, s=_s, s2=_s2: tf.raw_ops.RandomUniform(shape=[5], dtype="float64", seed=s, seed2=s2),
         traced=False)
    case("ai-random-attrs", f"raw RandomStandardNormal seed={_s} seed2={_s2} half",
         lambda tf, s=_s, s2=_s2: tf.raw_ops.RandomStandardNormal(shape=[9], dtype="float16", seed=s, seed2=s2),
         traced=False)
case("ai-random-attrs", "raw RandomUniformInt minval >= maxval refused",
     lambda tf: tf.raw_ops.RandomUniformInt(shape=[3], minval=4, maxval=4, seed=1, seed2=2), traced=False)
for _alg in (1, 3, 2):
    for _dt in ("float32", "float64", "float16", "bfloat16"):
        case("ai-random-attrs", f"raw StatelessRandomUniformV2 alg={_alg} {_dt}",
             lambda tf, a=_alg, d=_dt: tf.raw_ops.StatelessRandomUniformV2(
                 shape=[6], key=tf.constant([17], tf.uint64), counter=tf.constant([3, 0], tf.uint64),
                 alg=tf.constant(a), dtype=d))
    case("ai-random-attrs", f"raw StatelessRandomUniformIntV2 alg={_alg} int64",
         lambda tf, a=_alg: tf.raw_ops.StatelessRandomUniformIntV2(
             shape=[5], key=tf.constant([5], tf.uint64), counter=tf.constant([2**64 - 1, 0], tf.uint64),
             alg=tf.constant(a), minval=tf.constant(-7, tf.int64), maxval=tf.constant(2**35, tf.int64)))
    case("ai-random-attrs", f"raw StatelessRandomNormalV2 alg={_alg}",
         lambda tf, a=_alg: tf.raw_ops.StatelessRandomNormalV2(
             shape=[7], key=tf.constant([9], tf.uint64), counter=tf.constant([0, 1], tf.uint64), alg=tf.constant(a)))
    case("ai-random-attrs", f"raw StatelessRandomUniformFullIntV2 alg={_alg} uint32",
         lambda tf, a=_alg: tf.raw_ops.StatelessRandomUniformFullIntV2(
             shape=[5], key=tf.constant([1], tf.uint64), counter=tf.constant([1, 2], tf.uint64), alg=tf.constant(a),
             dtype=tf.uint32))
case("ai-random-attrs", "raw StatelessRandomGetKeyCounterAlg",
     lambda tf: tf.raw_ops.StatelessRandomGetKeyCounterAlg(seed=tf.constant([7, -3], tf.int64)))
case("ai-random-attrs", "raw StatelessRandomGetKeyCounter", lambda tf: tf.raw_ops.StatelessRandomGetKeyCounter(
    seed=tf.constant([2**31, 4], tf.int64)))

register()
