"""Rules behind the classes of issue 29's fresh campaigns that fz25b ran (fourteenth generator seeds
1420262501, 1420262502 and the fresh 1420262503, fourth generator seed 2501), each against real
TensorFlow 2.21: the same call on both backends gives the same dtype and values, or raises the same exception class. Eagerly,
in a tf.function (`traced`), with an input_signature (`sig`: get_concrete_function on placeholders,
then a call), of a variable and under a tape. Needs the `tf` extra.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import edge_compare
from edge_programs import eager as _eager, traced as _traced, sig as _sig, var_traced as _var_traced
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause

_T = "function.trace-time-errors"
_C = "ops.conversion"
_A = "ops.attr-types"
_I = "ops.index-errors"
_G = "function.grappler-rewrites"
_S = "ops.linalg-spectral"
_O = "function.operation-results"
_B = "ops.image-boxes"
_IMG = "np.ones([2, 4, 4, 4], np.uint8)"
_IMG64 = "np.ones([2, 4, 4, 4], np.float64)"


def _captured_division(dt: str, c: Any, x: Any) -> Any:
    """`x / c` of a tensor c made outside the tf.function (a captured placeholder, never folded) and
    of the same constant made inside it (ReduceDivToReciprocalMul: x * (1 / c))."""
    def run(tf: Any) -> Any:
        cap = tf.constant(c, getattr(tf, dt))
        spec = [tf.TensorSpec([], getattr(tf, dt))]
        outside = tf.function(lambda v: v / cap, input_signature=spec, autograph=False)
        inside = tf.function(lambda v: v / tf.constant(c, getattr(tf, dt)), input_signature=spec, autograph=False)
        xv = tf.constant(x, getattr(tf, dt))
        return tf.stack([outside(xv), inside(xv), xv / cap])
    return run


def _mirrored(expr: str, var: str) -> Any:
    """`expr` of `v`, a variable made by `var` in a one-device MirroredStrategy `s`'s scope."""
    def run(tf: Any) -> Any:
        s = tf.distribute.MirroredStrategy(["/cpu:0"])
        with s.scope():
            v = eval(var, {"tf": tf, "np": np})  # noqa: S307 - our own text
        return eval(expr, {"tf": tf, "np": np, "v": v, "s": s})  # noqa: S307 - our own text
    return run


CASES: list[tuple[str, str, Any]] = [
    # diag_part/diag of a bool input: array_ops' bool(padding_value) of a graph tensor (seed 1420262501 #4)
    ("diag_part of bools, a graph padding tensor, sig", _T, _sig(
        "tf.linalg.diag_part(x, padding_value=tf.constant(0.5))", ([None], "bool"), "tf.constant([True, False])")),
    ("diag of bools, a graph padding tensor, traced", _T, _traced(
        "tf.linalg.diag(tf.constant([True]), padding_value=tf.constant(0.5))")),
    ("diag of bools, an eager padding tensor", _T, _eager(
        "tf.linalg.diag(tf.constant([True, False]), padding_value=tf.constant(0.5))")),
    # Pool3DShape / MaxPoolShape at trace, MaxPool3D's padding attr in a graph (#13)
    ("max_pool3d of a [None] input, padding 'same', sig", _T, _sig(
        "tf.nn.max_pool3d(x, ksize=tf.TensorShape([3]), strides=tf.TensorShape([3]), padding='same')",
        ([None], "bfloat16"), "tf.constant([1.0, 2.0, 3.0], tf.bfloat16)")),
    ("max_pool3d of a [None] input, sig", _T, _sig(
        "tf.nn.max_pool3d(x, ksize=3, strides=3, padding='SAME')", ([None], "float32"), "tf.ones([3])")),
    ("avg_pool3d of a [None] input, sig", _T, _sig(
        "tf.nn.avg_pool3d(x, ksize=2, strides=2, padding='SAME')", ([None], "float32"), "tf.ones([3])")),
    ("max_pool2d of a [None] input, sig", _T, _sig(
        "tf.nn.max_pool2d(x, ksize=2, strides=2, padding='SAME')", ([None], "float32"), "tf.ones([3])")),
    ("avg_pool2d of a [None] input, sig", _T, _sig(
        "tf.nn.avg_pool2d(x, ksize=2, strides=2, padding='SAME')", ([None], "float32"), "tf.ones([3])")),
    ("max_pool3d of an unknown-rank input, sig", _T, _sig(
        "tf.nn.max_pool3d(x, ksize=2, strides=2, padding='VALID')", (None, "float32"), "tf.ones([1, 3, 3, 3, 1])")),
    ("avg_pool3d NCDHW of unknown dims, sig", _T, _sig(
        "tf.nn.avg_pool3d(x, ksize=2, strides=2, padding='SAME', data_format='NCDHW')",
        ([None, None, None, None, None], "float32"), "tf.ones([1, 1, 2, 2, 2])")),
    # the scan ops: every input converts before attr T eagerly; x's T first in a graph (#15)
    ("cumulative_logsumexp of int32, axis None", _C, _eager("tf.math.cumulative_logsumexp(tf.constant(5), axis=None)")),
    ("cumulative_logsumexp of int32, axis None, traced", _C, _traced(
        "tf.math.cumulative_logsumexp(tf.constant(5), axis=None)")),
    ("cumsum of bools, axis 0.5", _C, _eager("tf.math.cumsum(tf.constant([True]), axis=0.5)")),
    ("cumsum of bools, axis [0]", _C, _eager("tf.math.cumsum(tf.constant([True]), axis=[0])")),
    ("cumprod of bools, axis None", _C, _eager("tf.math.cumprod(tf.constant([True]), axis=None)")),
    # nextafter's Python x1 in a graph: its own dtype when T allows it, else T's default (#44)
    ("nextafter of True and a list, traced", _C, _traced("tf.math.nextafter(x1=True, x2=[[1.0, 4.0, -1.0, 0.25]])")),
    ("nextafter of True and a tensor, traced", _C, _traced(
        "tf.math.nextafter(x1=True, x2=tf.constant([[1.0, 4.0, -1.0, 0.25]]))")),
    ("nextafter of True and a float64 tensor, traced", _C, _traced(
        "tf.math.nextafter(True, tf.constant([1.0, 2.0], tf.float64))")),
    ("nextafter of an int list and a float64 tensor, traced", _C, _traced(
        "tf.math.nextafter([1, 2], tf.constant([1.0, 2.0], tf.float64))")),
    ("nextafter of bools, traced", _C, _traced("tf.math.nextafter([True, False], 2.0)")),
    ("nextafter of True and 1.0", _C, _eager("tf.math.nextafter(True, 1.0)")),
    # ints beyond int64 where py_seq_tensor infers first (#134)
    ("a bfloat16 tensor >= 2**64 - 1", _C, _eager("tf.constant(-1.5, tf.bfloat16) >= 18446744073709551615")),
    ("a bfloat16 tensor >= 2**31", _C, _eager("tf.constant(-1.5, tf.bfloat16) >= 2 ** 31")),
    ("a float16 tensor >= 2**64 - 1", _C, _eager("tf.constant(-1.5, tf.float16) >= 18446744073709551615")),
    ("2**63 as bfloat16", _C, _eager("tf.constant(2 ** 63, tf.bfloat16)")),
    ("-2**63 - 1 as bfloat16", _C, _eager("tf.constant(-2 ** 63 - 1, tf.bfloat16)")),
    ("[2**63, 1.5] as bfloat16", _C, _eager("tf.constant([2 ** 63, 1.5], tf.bfloat16)")),
    ("[1.5, 2**63] as bfloat16", _C, _eager("tf.constant([1.5, 2 ** 63], tf.bfloat16)")),
    ("[2**63, 1.5] as complex64", _C, _eager("tf.constant([2 ** 63, 1.5], tf.complex64)")),
    ("[1.5, 2**63] as complex64", _C, _eager("tf.constant([1.5, 2 ** 63], tf.complex64)")),
    ("[2**63, 1.5] as int8", _C, _eager("tf.constant([2 ** 63, 1.5], tf.int8)")),
    ("[1.5, 2**63] as int8", _C, _eager("tf.constant([1.5, 2 ** 63], tf.int8)")),
    ("[2**63, 1.5] as int64", _C, _eager("tf.constant([2 ** 63, 1.5], tf.int64)")),
    ("[1, 2**63, 1.5] as uint32", _C, _eager("tf.constant([1, 2 ** 63, 1.5], tf.uint32)")),
    ("[2**63, 1.5] as float16", _C, _eager("tf.constant([2 ** 63, 1.5], tf.float16)")),
    ("[2**63] as bfloat16, traced", _C, _traced("tf.constant([2 ** 63], tf.bfloat16)")),
    # the string converter gives up, then the inference's errors (#165)
    ("[int32, complex64, 2] as strings", _C, _eager(
        "tf.strings.unsorted_segment_join([np.int32(0), np.complex64(4 + 0.5j), 2], segment_ids=[1], "
        "num_segments=2)")),
    ("[0, 1j] as string", _C, _eager("tf.constant([0, 1j], tf.string)")),
    ("[2**64] as string", _C, _eager("tf.constant([2 ** 64], tf.string)")),
    ("[1e40] as string", _C, _eager("tf.constant([1e40], tf.string)")),
    ("[[1], [1, 2]] as string", _C, _eager("tf.constant([[1], [1, 2]], tf.string)")),
    ("[1, 2] as string", _C, _eager("tf.constant([1, 2], tf.string)")),
    # a MirroredVariable sends logical_and to the fallback: every input converts with dtype bool (fresh seed
    # 1420262503 #99)
    ("logical_and of a uint8 tensor and a MirroredVariable", _C, _mirrored(
        "tf.logical_and(tf.constant([[5], [3]], tf.uint8), v)", "tf.Variable([False])")),
    ("logical_and of a MirroredVariable and a uint8 tensor, in run", _C, _mirrored(
        "s.run(lambda: tf.logical_and(v, tf.constant([[5], [3]], tf.uint8)))", "tf.Variable([False])")),
    ("logical_or of a uint8 tensor and a MirroredVariable, in run", _C, _mirrored(
        "s.run(lambda: tf.logical_or(tf.constant([1], tf.uint8), v))", "tf.Variable([False])")),
    ("logical_and of a bool tensor and a MirroredVariable", _C, _mirrored(
        "tf.logical_and(tf.constant([True]), v)", "tf.Variable([False])")),
    # conv2d_transpose: op_def_library's inputs before the attrs in a graph (#148)
    ("conv2d_transpose of an int64 filter, padding 'same', NCHW, sig", _T, _sig(
        "tf.nn.conv2d_transpose(x, filters=tf.constant([[5, 0], [1, 0]], tf.int64), "
        "output_shape=np.array([2, 0], np.int64), strides=[3], padding='same', data_format='NCHW')",
        (None, "int64"), "tf.ones([2, 2], tf.int64)")),
    ("conv2d_transpose of an int64 filter, traced", _T, _traced(
        "tf.nn.conv2d_transpose(tf.ones([1, 2, 2, 1], tf.int64), filters=tf.ones([2, 2, 1, 1], tf.int64), "
        "output_shape=[1, 4, 4, 1], strides=2, padding='SAME')")),
    # a None bool attr is the OpDef's default (#249)
    ("extract_glimpse, centered None", _A, _eager(
        "tf.image.extract_glimpse(tf.reshape(tf.range(16.0), [1, 4, 4, 1]), [1, 1], [[0.5, 0.5]], centered=None)")),
    ("extract_glimpse, normalized None, traced", _A, _traced(
        "tf.image.extract_glimpse(tf.reshape(tf.range(16.0), [1, 4, 4, 1]), [1, 1], [[0.5, 0.5]], "
        "centered=False, normalized=None)")),
    ("extract_glimpse, noise None", _A, _eager(
        "tf.image.extract_glimpse(tf.ones([1, 2, 2, 1]), [1, 1], [[0.0, 0.0]], noise=None)")),
    ("extract_glimpse of an int32 variable, centered None", _A, _eager(
        "tf.image.extract_glimpse(tf.Variable(np.array([], np.int32)), np.array([0], np.int64), [], centered=None)")),
    ("decode_raw, little_endian None", _A, _eager("tf.io.decode_raw([b'ab'], tf.uint16, little_endian=None)")),
    ("encode_base64, pad None", _A, _eager("tf.io.encode_base64(['a'], pad=None)")),
    ("regex_replace, replace_global None", _A, _eager(
        "tf.strings.regex_replace(['aa'], 'a', 'b', replace_global=None)")),
    ("tridiagonal_solve, partial_pivoting None", _A, _eager(
        "tf.linalg.tridiagonal_solve(tf.constant([[1.0, 2.0, 0.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]), "
        "tf.ones([3, 1]), partial_pivoting=None)")),
    ("ctc_greedy_decoder, merge_repeated None", _A, _eager(
        "tf.nn.ctc_greedy_decoder(tf.constant([[[1.0, 0.0, 0.0]], [[1.0, 0.0, 0.0]]]), [2], "
        "merge_repeated=None)[0][0].values")),
    ("fractional_max_pool, pseudo_random None", _A, _eager(
        "tf.nn.fractional_max_pool(tf.ones([1, 4, 4, 1]), [1.0, 1.5, 1.5, 1.0], pseudo_random=None, "
        "overlapping=None, seed=1)[0]")),
    ("bincount, binary_output None", _A, _eager("tf.math.bincount([1, 2], binary_output=None)")),
    ("unicode_transcode, replace_control_characters None", _A, _eager(
        "tf.strings.unicode_transcode(['a'], 'UTF-8', 'UTF-16-BE', replace_control_characters=None)")),
    ("sparse.segment_sum, sparse_gradient None", _A, _eager(
        "tf.sparse.segment_sum(tf.ones([2, 2]), [0, 1], [0, 0], sparse_gradient=None)")),
    ("sparse_dense_matmul, adjoint_a None", _A, _eager(
        "tf.sparse.sparse_dense_matmul(tf.sparse.from_dense([[1.0, 0.0], [0.0, 2.0]]), tf.ones([2, 2]), "
        "adjoint_a=None)")),
    ("to_hash_bucket_fast, num_buckets None", _A, _eager("tf.strings.to_hash_bucket_fast(['a'], None)")),
    # broadcast_dynamic_shape in a graph: the first value fixes T (#262)
    ("broadcast_dynamic_shape of an int64 array and a TensorShape, traced", _T, _traced(
        "tf.broadcast_dynamic_shape(np.array([1, 2, 2], np.int64), shape_y=tf.TensorShape([2]))")),
    ("broadcast_dynamic_shape of an int64 array and a TensorShape", _T, _eager(
        "tf.broadcast_dynamic_shape(np.array([1, 2, 2], np.int64), shape_y=tf.TensorShape([2]))")),
    ("broadcast_dynamic_shape of an int64 array and a list, traced", _T, _traced(
        "tf.broadcast_dynamic_shape(np.array([1, 2, 2], np.int64), [2])")),
    ("broadcast_dynamic_shape of a TensorShape and an int64 array, traced", _T, _traced(
        "tf.broadcast_dynamic_shape(tf.TensorShape([2]), np.array([1, 2, 2], np.int64))")),
    ("broadcast_dynamic_shape of a list and an int64 array, traced", _T, _traced(
        "tf.broadcast_dynamic_shape([1, 2, 2], np.array([2]))")),
    # StridedSlice of a scalar through an ellipsis (seed 1420262502 #43)
    ("a scalar's x[..., 0, :]", _I, _eager("tf.constant(0, tf.uint8)[..., 0, :]")),
    ("a scalar's x[..., 0, :], traced", _I, _traced("tf.constant(0, tf.uint8)[..., 0, :]")),
    ("a scalar's x[..., 0]", _I, _eager("tf.constant(0, tf.uint8)[..., 0]")),
    ("a vector's x[..., 0, 0]", _I, _eager("tf.constant([1, 2])[..., 0, 0]")),
    ("a matrix's x[..., 5, 0]", _I, _eager("tf.ones([2, 2])[..., 5, 0]")),
    ("tridiagonal_matmul of a uint8 scalar, sig", _I, _sig(
        "tf.linalg.tridiagonal_matmul(x, 3)", ([], "uint8"), "tf.constant(0, tf.uint8)")),
    # draw_bounding_boxes: attr T before boxes and colors convert; a Variable on the fast path (#123)
    ("draw_bounding_boxes of a float64 Variable and int32 colours", _B, _eager(
        "tf.image.draw_bounding_boxes(tf.Variable(np.ones((3, 3, 4))), 255, tf.Variable(np.ones((3, 3, 4), np.int32)))")),
    ("draw_bounding_boxes of int32 Variable colours", _B, _eager(
        "tf.image.draw_bounding_boxes(tf.ones([1, 3, 3, 4]), 255, tf.Variable(np.ones((3, 3, 4), np.int32)))")),
    ("draw_bounding_boxes of a float32 Variable of colours", _B, _eager(
        "tf.image.draw_bounding_boxes(tf.ones([1, 3, 3, 1]), [[[0.0, 0.0, 1.0, 1.0]]], "
        "tf.Variable([[1.0, 1.0, 1.0, 1.0]]))")),
    # betainc of an infinite a or b: 0, NaN, 1 (seed 1420262501 #6)
    ("betainc of an infinite a or b, float32", "ops.special-more", _eager(
        "tf.math.betainc(tf.constant([np.inf, 1.0, np.inf, np.inf, np.nan, 2.0, np.inf]), "
        "tf.constant([np.inf, np.inf, 1.0, 0.5, np.inf, np.inf, -1.0]), "
        "tf.constant([0.0, 0.5, 0.5, 1.0, 0.0, 1.0, 0.5]))")),
    ("betainc of an infinite a or b, float64", "ops.special-more", _eager(
        "tf.math.betainc(tf.constant([np.inf, 1.0, 0.5], tf.float64), tf.constant([1.0, np.inf, np.inf], tf.float64), "
        "tf.constant([0.5, 0.25, 1.0], tf.float64))")),
    # eigh of a 1x1 matrix: Eigen's n == 1 case (#209)
    ("eigh of 1x1 matrices holding -inf", _S, _eager(
        "tf.linalg.eigh(tf.constant([[[-float('inf')]], [[0.5]], [[-0.0]]], tf.float64))")),
    ("eigh of 1x1 matrices holding -inf, traced", _S, _traced(
        "tf.linalg.eigh(tf.constant([[[-float('inf')]], [[0.5]], [[-0.0]]], tf.float64))")),
    ("eigh of a 1x1 NaN", _S, _eager("tf.linalg.eigh(tf.constant([[[float('nan')]], [[2.0]]]))")),
    ("eigvalsh of a 1x1 inf", _S, _eager("tf.linalg.eigvalsh(tf.constant([[float('inf')]]))")),
    ("eigh of a complex 1x1", _S, _eager("tf.linalg.eigh(tf.constant([[[1 + 2j]]], tf.complex64))")),
    # ReduceDivToReciprocalMul of complex numbers; a captured tensor is not folded (#12)
    ("complex64 x / c, captured and made inside", _G, _captured_division(
        "complex64", complex(0.25, -3.0), complex(-1.0, 0.0010000000474974513))),
    ("complex128 x / c, sig", _G, _sig("x / tf.constant([0.25 - 3j, 1e-30 + 1e30j, 0j], tf.complex128)",
                                      ([3], "complex128"), "tf.constant([-1 + 0.001j, 1 + 1j, 3 - 2j], tf.complex128)")),
    ("float32 x / 7, captured and made inside", _G, _captured_division("float32", 7.0, 0.1)),
    # ShapeN's one attr T; ssim's shape_n([img1, img2]) (#214)
    ("shape_n of uint8 and float64 tensors", _T, _eager("tf.shape_n([tf.ones([2], tf.uint8), tf.ones([2], tf.float64)])")),
    ("shape_n of uint8 and float64 tensors, traced", _T, _traced(
        "tf.shape_n([tf.ones([2], tf.uint8), tf.ones([2], tf.float64)])")),
    ("shape_n of a float32 tensor and an int32 Variable", _T, _eager("tf.shape_n([tf.ones([2]), tf.Variable([1, 2])])")),
    ("ssim_multiscale of uint8 and float64 images", _T, _eager(
        f"tf.image.ssim_multiscale({_IMG}, img2={_IMG64}, max_val=float('nan'), k2=2)")),
    ("ssim_multiscale of uint8 and float64 images, traced", _T, _traced(
        f"tf.image.ssim_multiscale({_IMG}, img2={_IMG64}, max_val=float('nan'), k2=2)")),
    ("ssim of uint8 and float64 images", _T, _eager(f"tf.image.ssim({_IMG}, {_IMG64}, max_val=1.0)")),
    # an assignment with read_value=False is an Operation in a graph (fourth generator seed 2501 #102)
    ("assign_add(read_value=False) returned from a tf.function", _O, _var_traced(
        "v.assign_add([3, -1], read_value=False)", "tf.Variable(np.array([2147483647, -2147483648], np.int32))")),
    ("assign(read_value=False) returned from a tf.function", _O, _var_traced(
        "[v[0], v.assign([3, -1], read_value=False)]", "tf.Variable(np.array([1, 2], np.int32))")),
    ("assign_sub(read_value=False) eagerly", _O, lambda tf: (lambda v: [v.assign_sub([1, 1], read_value=False) is None,
                                                                          v.read_value()])(tf.Variable([3, 4]))),
]


def _parts_agree(got: np.ndarray, want: np.ndarray) -> np.ndarray:
    """Complex values part by part (a NaN part matches any NaN part), others bit for bit."""
    if np.iscomplexobj(got) and np.iscomplexobj(want):
        return edge_compare.bits_agree(got.real.copy(), want.real.copy()) & \
            edge_compare.bits_agree(got.imag.copy(), want.imag.copy())
    return edge_compare.bits_agree(got, want)


EDGES = edge_compare.EdgeModule(__file__, CASES, agree=lambda case: _parts_agree)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("function.trace-time-errors")
@EDGES.parametrize("function.trace-time-errors")
def test_trace_time_errors(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.conversion")
@EDGES.parametrize("ops.conversion")
def test_conversions(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.attr-types")
@EDGES.parametrize("ops.attr-types")
def test_none_attrs_are_defaults(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.index-errors")
@EDGES.parametrize("ops.index-errors")
def test_scalar_slices(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.image-boxes")
@EDGES.parametrize("ops.image-boxes")
def test_draw_bounding_boxes_inputs(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.linalg-spectral")
@EDGES.parametrize("ops.linalg-spectral")
def test_eigh_of_one_by_one(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("function.grappler-rewrites")
@EDGES.parametrize("function.grappler-rewrites")
def test_division_by_constants(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("function.operation-results")
@EDGES.parametrize("function.operation-results")
def test_assign_without_read(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.special-more")
@EDGES.parametrize("ops.special-more")
def test_betainc_of_infinite_parameters(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


def test_every_case_has_a_test() -> None:
    untested = EDGES.untested()
    assert not untested, f"cases of groups {untested} have no test function above"


if __name__ == "__main__":  # TF worker: python test_fz25b_edges_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
