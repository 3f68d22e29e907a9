"""Rules behind the twentieth fuzzer's classes that fz37a closed (fresh campaigns of session 37: seeds
3720261201- in every mode, on an Intel Xeon with AVX-512), each against real TensorFlow 2.21: the same call on
both backends gives the same dtype and values bit for bit (a NaN matching any NaN), or raises the same exception
class. Needs the `tf` extra.

The convolution cases run float32 and bfloat16, which oneDNN takes on every AVX-512 host (the goldens' reference
host and this session's Intel Xeon alike: host_cpu.onednn_supports), and float64, which TF's own kernels take
everywhere; float16, which only an AVX512-FP16 host gives oneDNN, is left out. Strides of 3 are left out: TF 2.21's
oneDNN backprops abort the process there.
"""

from __future__ import annotations

from typing import Any

import pytest

import edge_compare
from edge_programs import eager as _eager, sig as _sig, traced as _traced
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause

_K = "ops.fuzz-raw"
_T = "function.trace-time-errors"


def _tape_var(expr: str, source: str) -> Any:
    """The expression of a variable `x` (made by `source`) under a GradientTape, and its gradient."""
    def run(tf: Any) -> Any:
        import numpy as np
        x = tf.Variable(eval(source, {"tf": tf, "np": np}))  # noqa: S307 - our own text
        with tf.GradientTape() as tape:
            y = eval(expr, {"tf": tf, "np": np, "x": x})  # noqa: S307 - our own text
        return [y, tape.gradient(y, x)]
    return run


# --- the sparse segment gradients: grad's shape with dimension 0 set to the rows (SetDimWithStatus: index first)
def _segment_grad_cases() -> list[tuple[str, str, Any]]:
    out = []
    for op in ("SparseSegmentSumGrad", "SparseSegmentMeanGrad", "SparseSegmentSqrtNGrad"):
        for v2 in (False, True):
            name, dim = (op + "V2", "dense_output_dim0") if v2 else (op, "output_dim0")
            for grad, ids, idx, rows in (("-3.0", "[0]", "[0]", 0), ("-3.0", "[0]", "[0]", 3), ("-3.0", "[0]", "[0]", -1),
                                         ("-3.0", "[]", "[]", 2), ("-3.0", "[0]", "[0, 1]", 2),
                                         ("-3.0", "[0]", "[[0]]", 2), ("[-3.0]", "[0]", "[0]", 0),
                                         ("[-3.0]", "[0]", "[0]", 2)):
                out.append((f"{name} grad {grad} segment_ids {ids} indices {idx} rows {rows}", _K, _eager(
                    f"tf.raw_ops.{name}(grad=tf.constant({grad}, tf.float64), indices=tf.constant({idx}, tf.int64), "
                    f"segment_ids=tf.constant({ids}, tf.int32), {dim}=tf.constant({rows}, tf.int32))")))
    return out


# --- the 2-D convolution backprops read their dilations' length after the strides' checks
_STRIDES_DILATIONS = (([1, 2, 1, 1], [2, 2, 1]), ([1, 1, 1, 1], [2, 2, 1]), ([1, 1, 1, 1], [1, 1, 1, 1, 1]),
                      ([2, 1, 1, 1], [1, 1, 1]), ([1, 1, 1, 1], [1, 1]), ([1, 0, 1, 1], [1, 1]), ([1, 1, 0, 1], [1]),
                      ([1, 1, 1, 2], [1, 1, 1]), ([1, 1, 1, 1], [2, 1, 1, 1]))


def _conv_dilation_cases() -> list[tuple[str, str, Any]]:
    out = []
    for op in ("Conv2DBackpropInput", "Conv2DBackpropFilter"):
        for dt in ("float32", "bfloat16", "float64"):
            for fmt in ("NHWC", "NCHW"):
                for st, dl in _STRIDES_DILATIONS:
                    if dl == [2, 1, 1, 1] and fmt == "NCHW" and dt != "float64":
                        continue   # (oneDNN's NCHW past the constructor: simdist's layout refusal, nn.conv-layouts)
                    first = (f"input_sizes=[1, 2, 2, 1], filter=tf.zeros([1, 1, 1, 1], tf.{dt})"
                             if op == "Conv2DBackpropInput" else
                             f"input=tf.zeros([1, 2, 2, 1], tf.{dt}), filter_sizes=[1, 1, 1, 1]")
                    out.append((f"{op} {dt} {fmt} strides {st} dilations {dl}", _K, _eager(
                        f"tf.raw_ops.{op}({first}, out_backprop=tf.zeros([1, 2, 2, 1], tf.{dt}), strides={st}, "
                        f"dilations={dl}, padding='SAME', data_format='{fmt}')")))
    return out


# --- BandedTriangularSolve's pivot check: a complex diagonal entry's abs of parts read under DAZ
def _banded_cases() -> list[tuple[str, str, Any]]:
    out = []
    for ct, tiny in (("complex64", "1e-40"), ("complex64", "1e-40j"), ("complex64", "complex(1e-40, 1e-40)"),
                     ("complex64", "complex(-1.4e-45, 0)"), ("complex128", "1e-310"), ("complex128", "1e-310j"),
                     ("complex64", "1e-20"), ("complex128", "1e-300"), ("complex64", "complex(1e-40, 1)")):
        for lower in (True, False):
            for n, pos in ((3, 0), (3, 2), (9, 8)):
                diag = f"np.where(np.arange({n}) == {pos}, {tiny}, 1.0)"
                bands = f"np.stack([{diag}, np.full({n}, 0.5)])" if lower else f"np.stack([np.full({n}, 0.5), {diag}])"
                out.append((f"BandedTriangularSolve {ct} diagonal {tiny} at {pos} of {n}, lower={lower}", _K, _eager(
                    f"tf.raw_ops.BandedTriangularSolve(matrix=tf.constant({bands}.astype(np.{ct})), "
                    f"rhs=tf.ones([{n}, 2], tf.{ct}), lower={lower}, adjoint={not lower})")))
    return out


# --- ExtractImagePatches of complex images (the OpDef's types but bool have CPU kernels)
_PATCHES = "tf.raw_ops.ExtractImagePatches(images={x}, ksizes=[1, 2, 2, 1], strides=[1, 1, 2, 1], rates=[1, 1, 1, 1], " \
           "padding='{pad}')"


def _patch_cases() -> list[tuple[str, str, Any]]:
    out = []
    for ct in ("complex64", "complex128"):
        img = f"tf.constant((np.arange(18) + 1j * np.arange(18)[::-1]).reshape(1, 3, 3, 2).astype(np.{ct}))"
        for pad in ("VALID", "SAME"):
            out.append((f"ExtractImagePatches {ct} {pad}", _K, _eager(_PATCHES.format(x=img, pad=pad))))
            out.append((f"ExtractImagePatches {ct} {pad} in a tf.function", _K, _traced(_PATCHES.format(x=img, pad=pad))))
            out.append((f"ExtractImagePatches {ct} {pad} gradient", _K, _tape_var(
                _PATCHES.format(x="x", pad=pad), f"(np.arange(18) + 2j).reshape(1, 3, 3, 2).astype(np.{ct})")))
        out.append((f"ExtractImagePatches {ct} rates across depth", _K, _eager(
            f"tf.raw_ops.ExtractImagePatches(images={img}, ksizes=[1, 3, 1, 1], strides=[1, 3, 1, 1], "
            "rates=[2, 1, 1, 2], padding='SAME')")))
        out.append((f"ExtractImagePatches {ct} scalar", _K, _eager(
            f"tf.raw_ops.ExtractImagePatches(images=tf.constant(np.{ct}(-1 - 1j)), ksizes=[1, 3, 1, 1], "
            "strides=[1, 3, 1, 1], rates=[2, 1, 1, 2], padding='SAME')")))
        out.append((f"ExtractVolumePatches {ct}", _K, _eager(
            f"tf.raw_ops.ExtractVolumePatches(input=tf.zeros([1, 1, 3, 3, 1], tf.{ct}), ksizes=[1, 1, 2, 2, 1], "
            "strides=[1, 1, 1, 1, 1], padding='VALID')")))
    out.append(("ExtractImagePatches bool", _K, _eager(_PATCHES.format(x="tf.zeros([1, 3, 3, 1], tf.bool)", pad="VALID"))))
    return out


# --- oneDNN's AvgPool3D checks the input's rank before the depth window (MaxPool3D the window first)
def _pool3d_cases() -> list[tuple[str, str, Any]]:
    out = []
    for op in ("AvgPool3D", "MaxPool3D"):
        for dt in ("float32", "bfloat16"):
            for shape in ([2, 2], [2, 2, 2, 2, 2, 2]):
                for ks, st in (([1, 2, 1, 1, 2], [1, 1, 2, 2, 1]), ([1, 1, 1, 1, 2], [1, 1, 1, 1, 1]),
                               ([1, 1, 1, 1, 1], [1, 1, 1, 1, 2]), ([2, 1, 1, 1, 1], [1, 1, 1, 1, 2])):
                    out.append((f"{op} {dt} of {shape} ksize {ks} strides {st}", _K, _eager(
                        f"tf.raw_ops.{op}(input=tf.ones({shape}, tf.{dt}), ksize={ks}, strides={st}, padding='SAME')")))
    return out


# --- RGBToHSV: each step's subnormal result flushed (a huge range's reciprocal is 0)
def _rgb_cases() -> list[tuple[str, str, Any]]:
    out = []
    for dt in ("float32", "float64"):
        for px in ("[-1.401298464324817e-45, -3.4e38, -0.0]", "[-0.0, -3.4e38, -0.0]", "[3.4e38, 0.0, -3.4e38]",
                   "[1e-40, 0.5, 0.25]", "[0.5, 0.25, -1e-40]", "[2e-38, 1e-38, 0.0]", "[1e300, -1e300, 0.0]"):
            out.append((f"RGBToHSV {dt} {px}", _K, _eager(f"tf.raw_ops.RGBToHSV(images=tf.constant({px}, tf.{dt}))")))
        out.append((f"RGBToHSV {dt} of 200 pixels across magnitudes", _K, _eager(
            # (scaled by powers of two, exactly: NumPy's float64 power is SVML's on an AVX-512 CPU and the C library's
            # elsewhere, so 10.0 ** k made other inputs on the golden's Intel host than on an AMD one)
            "tf.raw_ops.RGBToHSV(images=tf.constant((lambda r: np.ldexp(r.standard_normal((200, 3)), "
            f"r.integers(-133, 130, (200, 3))))(np.random.default_rng(5)), tf.{dt}))")))
    return out


# --- StridedSlice's shape function checks nothing where the graph does not know the input's rank
_SS = "tf.raw_ops.StridedSlice(input=x, begin=[-1, -1, 1], end=tf.constant([1, 0, -1], tf.int32), strides=[-1, 1, 1], " \
      "ellipsis_mask={e}, new_axis_mask={n}, shrink_axis_mask={s})"


def _strided_slice_cases() -> list[tuple[str, str, Any]]:
    out = []
    for e, n, s in ((5, 5, 0), (3, 0, 0), (0, 0, 1)):
        for spec, arg in ((None, "tf.zeros([0, 0, 0], tf.int8)"), (None, "tf.zeros([2, 3, 4], tf.int8)"),
                          ([None, None, None], "tf.zeros([2, 3, 4], tf.int8)"), ([2, 3, 4], "tf.zeros([2, 3, 4], tf.int8)")):
            out.append((f"StridedSlice ellipsis_mask {e} new_axis_mask {n} shrink_axis_mask {s} of {spec} called on {arg}",
                        _T, _sig(_SS.format(e=e, n=n, s=s), (spec, "int8"), arg)))
    return out


# --- DynamicPartition in a tf.function whose kernel refuses: the call raises (its outputs were none)
def _partition_cases() -> list[tuple[str, str, Any]]:
    out = []
    for parts, n in (("[-1, 0, 0]", 4), ("[1, 0, 0]", 4), ("[0, 0, 4]", 4), ("[[0], [1], [0]]", 2)):
        for arg in ("tf.constant([5], tf.int32)", "tf.constant([5, 6, 7], tf.int32)", "tf.zeros([3, 0], tf.int32)"):
            out.append((f"DynamicPartition partitions {parts} of {n} called on {arg}", _T, _sig(
                f"tf.raw_ops.DynamicPartition(data=x, partitions={parts}, num_partitions={n})", (None, "int32"), arg)))
    return out


CASES: list[tuple] = [
    *_segment_grad_cases(),
    *_conv_dilation_cases(),
    *_banded_cases(),
    *_patch_cases(),
    *_pool3d_cases(),
    *_rgb_cases(),
    *_strided_slice_cases(),
    *_partition_cases(),
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


if __name__ == "__main__":  # TF worker: python test_fz37a_edges_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
