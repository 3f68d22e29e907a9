"""Rules behind the classes of issue 29's fresh campaigns that fz24b ran (fourteenth generator seeds
1420262401 and 1420262402, fourth generator seed 2401, third generator --ext8 seed 2402), each against
real TensorFlow 2.21: the same call on both backends gives the same dtype and values, or raises the
same exception class. Eagerly, in a tf.function (`traced`), with an input_signature (`sig`:
get_concrete_function on placeholders, then a call), of a variable and under a tape. Needs the `tf`
extra.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import edge_compare
from edge_programs import eager as _eager, traced as _traced, sig as _sig, tape as _tape
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause

_T = "function.trace-time-errors"
_C = "ops.conversion"
_G = "function.grappler-rewrites"
_V = "ops.array-more"
_L = "ops.linalg-logm"
_U64 = "np.array([[3, 1], [3, 0]], dtype=np.uint64)"
_F22 = "tf.ones((2, 2))"
_IMG = "tf.ones((2, 4, 1, 4))"

CASES: list[tuple[str, str, Any]] = [
    # BatchMatMulV3's OpDef lists (Ta, Tb, Tout) before its shape function and kernel lookup (seed 1420262401 #7)
    ("matmul of uint64 to int64", _T, _eager(f"tf.linalg.matmul({_U64}, {_U64}, output_type=tf.int64)")),
    ("matmul of uint64 to int64, traced", _T, _traced(f"tf.linalg.matmul({_U64}, {_U64}, output_type=tf.int64)")),
    ("matmul of a uint64 scalar b, adjoint_b", _T, _eager(
        f"tf.linalg.matmul({_U64}, np.float64(0.0), adjoint_b=True, output_type=tf.int64)")),
    ("matmul to uint8", _T, _eager(f"tf.linalg.matmul({_F22}, {_F22}, output_type=tf.uint8)")),
    ("matmul to uint8, traced", _T, _traced(f"tf.linalg.matmul({_F22}, {_F22}, output_type=tf.uint8)")),
    ("matmul of uint8 to int8", _T, _eager(
        "tf.linalg.matmul(tf.ones((2, 2), tf.uint8), tf.ones((2, 2), tf.uint8), output_type=tf.int8)")),
    ("matmul of a uint64 vector, traced", _T, _traced(
        "tf.linalg.matmul(tf.ones((2,), tf.uint64), tf.ones((2, 2)), output_type=tf.int32)")),
    ("matmul of a float vector to uint32, traced", _T, _traced(
        "tf.linalg.matmul(tf.ones((2,)), tf.ones((2, 2)), output_type=tf.uint32)")),
    ("matmul of bool to int32", _T, _eager(
        "tf.linalg.matmul(tf.ones((2, 2), tf.bool), tf.ones((2, 2)), output_type=tf.int32)")),
    # ones of a string dtype (constant(1)'s TypeError), OnesLike's list, zeros' b''
    ("ones of string", _C, _eager("tf.ones((2, 2), tf.string)")),
    ("ones of string, traced", _C, _traced("tf.ones((2, 2), tf.string)")),
    ("zeros of string", _C, _eager("tf.zeros((2,), tf.string)")),
    ("zeros of string, traced", _C, _traced("tf.zeros(tf.constant([2]), tf.string)")),
    ("ones_like of strings", _C, _eager("tf.ones_like(['a'])")),
    ("ones_like of strings, traced", _C, _traced("tf.ones_like(['a'])")),
    ("ones_like of strings, sig", _C, _sig("tf.ones_like(x)", (None, "string"), "tf.constant(['a'])")),
    ("ones_like of int32 as string", _C, _eager("tf.ones_like(tf.constant([1]), dtype=tf.string)")),
    ("ones_like of strings as float32", _C, _eager("tf.ones_like(['a'], dtype=tf.float32)")),
    ("a string target's gradient", _C, _tape("tf.as_string(x, width=2)", "tf.constant([0.5 + 1.0j], tf.complex64)")),
    # Diag/DiagPart: the OpDef list, then the shape function, before a graph looks for a kernel (#59)
    ("tensor_diag of a bfloat16 scalar, traced", _T, _traced("tf.linalg.tensor_diag(tf.constant(0.5, tf.bfloat16))")),
    ("tensor_diag of a bfloat16 scalar", _T, _eager("tf.linalg.tensor_diag(tf.constant(0.5, tf.bfloat16))")),
    ("tensor_diag of a bfloat16 vector, traced", _T, _traced(
        "tf.linalg.tensor_diag(tf.constant([0.5], tf.bfloat16))")),
    ("tensor_diag of an int8 scalar, traced", _T, _traced("tf.linalg.tensor_diag(tf.constant(5, tf.int8))")),
    ("tensor_diag_part of a bfloat16 [2, 3], traced", _T, _traced(
        "tf.linalg.tensor_diag_part(tf.ones((2, 3), tf.bfloat16))")),
    ("tensor_diag_part of a uint8 vector, traced", _T, _traced("tf.linalg.tensor_diag_part(tf.ones((2,), tf.uint8))")),
    # RFFTShape's fft_length (#111); _maybe_pad_for_rfft's eager scalar fft_length
    ("rfft2d of a one-entry fft_length, traced", _T, _traced(
        "tf.signal.rfft2d(tf.ones((1, 3, 4, 1)), fft_length=tf.constant([3], tf.int32))")),
    ("rfft2d of a one-entry fft_length", _T, _eager(
        "tf.signal.rfft2d(tf.ones((1, 3, 4, 1)), fft_length=tf.constant([3], tf.int32))")),
    ("irfft of a two-entry fft_length, traced", _T, _traced(
        "tf.signal.irfft(tf.ones((1, 3, 4, 1), tf.complex64), fft_length=[3, 3])")),
    ("raw RFFT of a two-entry fft_length, traced", _T, _traced(
        "tf.raw_ops.RFFT(input=tf.ones((1, 3, 4, 1)), fft_length=[3, 3])")),
    ("rfft of a scalar fft_length", _T, _eager("tf.signal.rfft(tf.ones((1, 3, 4, 1)), fft_length=3)")),
    ("rfft of a scalar fft_length, traced", _T, _traced("tf.signal.rfft(tf.ones((1, 3, 4, 1)), fft_length=3)")),
    # a type attr's default on the eager fast path, op_def_library's rule in a graph (#128, #296, #154)
    ("invert_permutation of True, traced", _C, _traced("tf.math.invert_permutation(True)")),
    ("invert_permutation of 0.5", _C, _eager("tf.math.invert_permutation(0.5)")),
    ("invert_permutation of [0.0]", _C, _eager("tf.math.invert_permutation([0.0])")),
    ("invert_permutation of a float64 array", _C, _eager("tf.math.invert_permutation(np.array([0.0]))")),
    ("invert_permutation of an int64 array", _C, _eager("tf.math.invert_permutation(np.array([0], np.int64))")),
    ("invert_permutation of an int64 array, traced", _C, _traced(
        "tf.math.invert_permutation(np.array([0], np.int64))")),
    ("invert_permutation of [True, False]", _C, _eager("tf.math.invert_permutation([True, False])")),
    ("invert_permutation of 1j", _C, _eager("tf.math.invert_permutation(1j)")),
    ("transpose of a float32 empty perm", _C, _eager("tf.transpose(1, perm=tf.constant([]))")),
    ("transpose of a float32 empty perm, traced", _C, _traced("tf.transpose(1, perm=tf.constant([]))")),
    ("transpose of a float list perm", _C, _eager("tf.transpose([1.0], perm=[0.0])")),
    ("transpose of a float array perm", _C, _eager("tf.transpose([1.0], perm=np.array([0.0]))")),
    ("transpose of a scalar perm", _C, _eager("tf.transpose([[1.0]], perm=0)")),
    ("transpose of a scalar perm, traced", _C, _traced("tf.transpose([[1.0]], perm=0)")),
    ("transpose of a matrix perm", _C, _eager("tf.transpose([1.0], perm=[[0]])")),
    ("unravel_index of two int64 arrays", _C, _eager(
        "tf.unravel_index(np.array([0, 0], np.int64), dims=np.array([2, 4, 1], np.int64))")),
    ("unravel_index of two int64 arrays, traced", _C, _traced(
        "tf.unravel_index(np.array([0, 0], np.int64), dims=np.array([2, 4, 1], np.int64))")),
    ("unravel_index of an int64 array and a list", _C, _eager(
        "tf.unravel_index(np.array([0, 0], np.int64), dims=[2, 4, 1])")),
    ("unravel_index of a float array and a list", _C, _eager(
        "tf.unravel_index(np.array([0.0, 0.0]), dims=[2, 4, 1])")),
    ("fft of True", _C, _eager("tf.signal.fft(True)")),
    ("fft of 1e300", _C, _eager("tf.signal.fft(1e300)")),
    ("ifft3d of False", _C, _eager("tf.signal.ifft3d(False)")),
    # generated ops' distributed-variable rule through gen_operands (#82; fourth generator #165): in a graph
    # as op_def_library matches them
    ("polygamma of 3 and a float32 tensor, traced", _C, _traced("tf.math.polygamma(3, x=tf.constant([0.5]))")),
    # random_ops converts mean, then stddev, to dtype (#134); RandomGamma's T after np.finfo (#26)
    ("truncated_normal of a float64 mean as uint16", _C, _eager(
        "tf.random.truncated_normal([1, 2, 2], mean=tf.constant(0.25, tf.float64), dtype=tf.uint16)")),
    ("truncated_normal of a float64 mean", _C, _eager(
        "tf.random.truncated_normal([2], mean=tf.constant(0.25, tf.float64))")),
    ("normal of a float64 stddev, traced", _C, _traced("tf.random.normal([2], stddev=tf.constant(0.25, tf.float64))")),
    ("gamma of complex64", _C, _eager("tf.random.gamma([2, 3], -1.0, dtype=tf.complex64)")),
    ("gamma of complex64, traced", _C, _traced("tf.random.gamma([2, 3], -1.0, dtype=tf.complex64)")),
    ("gamma of complex128", _C, _eager("tf.random.gamma([2, 3], 1.0, dtype=tf.complex128)")),
    # fftshift's `axes + rank` on axes as given (#193)
    ("fftshift of bools, axes []", _C, _eager("tf.signal.fftshift(x=tf.constant([[False, True]]), axes=[])")),
    ("fftshift of bools, axes [], sig", _C, _sig("tf.signal.fftshift(x=x, axes=[])", ([1, 2], "bool"),
                                                 "tf.constant([[False, True]])")),
    ("ifftshift, axes [-1]", _C, _eager("tf.signal.ifftshift(x=tf.constant([[1.0, 2.0, 3.0]]), axes=[-1])")),
    # pad_to_bounding_box's _assert (#271)
    ("pad_to_bounding_box, tensor offset, height beyond", _T, _eager(
        f"tf.image.pad_to_bounding_box({_IMG}, offset_height=tf.constant(2), offset_width=1, target_height=-1, "
        "target_width=2)")),
    ("pad_to_bounding_box, tensor offset, height beyond, traced", _T, _traced(
        f"tf.image.pad_to_bounding_box({_IMG}, offset_height=tf.constant(2), offset_width=1, target_height=-1, "
        "target_width=2)")),
    ("pad_to_bounding_box, tensor offset -2 then a Python failure, traced", _T, _traced(
        f"tf.image.pad_to_bounding_box({_IMG}, offset_height=tf.constant(-2), offset_width=-1, target_height=9, "
        "target_width=2)")),
    ("pad_to_bounding_box, tensor offset within", _T, _eager(
        "tf.image.pad_to_bounding_box(tf.ones((4, 1, 4)), tf.constant(1), 1, 6, 3)")),
    # ShapeN's list as one type attr (seed 1420262402 #97)
    ("shape_n of lists, the second beyond float32", _C, _eager(
        "tf.shape_n(input=[[[1.0, 2.0]], [[3.0, 1e300]]], out_type=tf.int64)")),
    ("shape_n of an int list and a float list", _C, _eager("tf.shape_n([[1, 2], [2.5]])")),
    ("shape_n of a float list and an int variable", _C, _eager("tf.shape_n([[1.0, 2], tf.Variable([2])])")),
    # unstack (#179)
    ("unstack of axis None, num 2", _C, _eager("tf.unstack(tf.constant([[1.0], [0.25]]), num=2, axis=None)")),
    ("unstack of axis None", _C, _eager("tf.unstack(tf.constant([[1.0], [0.25]]), axis=None)")),
    ("unstack of axis 1.0", _C, _eager("tf.unstack(tf.constant([[1.0], [0.25]]), axis=1.0)")),
    # moments squeezes by axes as given (fresh seed 1420262403 #20, #25)
    ("moments of axes None", _C, _eager("tf.nn.moments(tf.constant([[3], [2]], tf.int64), None, shift=0)")),
    ("moments of a vector tensor axes", _C, _eager("tf.nn.moments(tf.ones((4, 3, 1, 2), tf.float64), tf.constant([3]))")),
    ("moments of a scalar tensor axes, traced", _C, _traced(
        "tf.nn.moments(tf.ones((4, 3, 1, 2), tf.float64), tf.constant(3), shift=-1)")),
    ("moments of a NumPy integer axis", _C, _eager("tf.nn.moments(tf.ones((4, 3)), np.int64(1))")),
    # op_def_library's inputs before the shape function (#49, #51, #57)
    ("scatter_nd of int64 indices and an int32 shape, traced", _T, _traced(
        "tf.scatter_nd(np.array([1, 2, 2], np.int64), np.ones((2, 3), np.float32), tf.constant([0], tf.int32))")),
    ("crop_and_resize of a uint64 image, traced", _T, _traced(
        "tf.image.crop_and_resize(image=tf.constant([2, 3, 1, 7], tf.uint64), boxes=np.uint16(0), "
        "box_indices=np.uint16(1), crop_size=tf.TensorShape([2, 2, 4, 4]), extrapolation_value=0)")),
    ("conv of complex64 and True, traced", _T, _traced(
        "tf.conv(tf.constant(2.5 + 0.25j, tf.complex64), True, strides=[3], padding='SAME')")),
    ("conv of complex64 and True", _T, _eager(
        "tf.conv(tf.constant(2.5 + 0.25j, tf.complex64), True, strides=[3], padding='SAME')")),
    ("conv of a scalar filter, traced", _T, _traced(
        "tf.conv(tf.ones((1, 3, 3, 1)), 1, strides=[1, 1, 1, 1], padding='SAME')")),
    ("conv of a rank-5 filter, traced", _T, _traced(
        "tf.conv(tf.ones((1, 3, 3, 1)), tf.ones((1, 1, 1, 1, 1)), strides=[1, 1, 1, 1], padding='SAME')")),
    ("conv of a list filter, traced", _T, _traced(
        "tf.conv(tf.ones((1, 3, 3, 1)), [[[[1]]]], strides=[1, 1, 1, 1], padding='SAME')")),
    # dropout's set_shape and SelectV2's shape function in a graph (#216)
    ("dropout of a scalar with noise_shape [2, 3], traced", _T, _traced(
        "tf.shape(tf.nn.dropout(1.0, np.float64(0.1), noise_shape=tf.TensorShape([2, 3])))")),
    ("dropout with a noise_shape of another rank, traced", _T, _traced(
        "tf.shape(tf.nn.dropout(tf.ones((2, 3)), 0.5, noise_shape=[1, 2, 3]))")),
    ("dropout with a noise_shape that does not broadcast, traced", _T, _traced(
        "tf.nn.dropout(tf.ones((2, 3)), 0.5, noise_shape=[3, 3])")),
    ("dropout with a noise_shape that broadcasts, traced", _T, _traced(
        "tf.shape(tf.nn.dropout(tf.ones((2, 3)), 0.5, noise_shape=[1, 3]))")),
    # sufficient_statistics iterates axes (#238)
    ("sufficient_statistics of a graph tensor axes, traced", _T, _traced(
        "tf.nn.sufficient_statistics(np.int16(2), axes=tf.constant(0))")),
    ("sufficient_statistics of a vector tensor axes", _T, _eager(
        "tf.nn.sufficient_statistics(tf.ones((2, 2)), axes=tf.constant([0]))")),
    # Grappler's ConvertPowStage (fourth generator seed 2401 #130)
    ("int64 ** -1, traced", _G, _traced("tf.constant(7, tf.int64) ** np.array(-1, np.int64)")),
    ("int64 ** -1", _G, _eager("tf.constant(7, tf.int64) ** np.array(-1, np.int64)")),
    ("int32 ** -2, traced", _G, _traced("tf.constant(7) ** -2")),
    ("scalar ** a constant [2, 2.0], traced", _G, _traced("tf.constant(4.0) ** np.full([2], 2.0, np.float32)")),
    ("vector ** a constant [3, 2] of -1, traced", _G, _traced(
        "tf.constant([4.0, 2.0], tf.float64) ** np.full([3, 2], -1.0)")),
    # Range's size and values in T (seed 1420262402 #59)
    ("range 1e-6 to 2 by 1e-6, size", _V, _eager("tf.shape(tf.range(start=1e-6, limit=2, delta=1e-6))")),
    ("range 1e-6 to 2 by 1e-6, last", _V, _eager("tf.range(start=1e-6, limit=2, delta=1e-6)[-3:]")),
    ("range -3.3 to 7.7 by 0.37", _V, _eager("tf.range(-3.3, 7.7, 0.37)")),
    ("range of bfloat16", _V, _eager("tf.range(0.0, 10.0, 1.1, dtype=tf.bfloat16)")),
    ("range 1 down to 0 by -0.3", _V, _eager("tf.range(1.0, 0.0, -0.3)")),
    # TanhGrad's and SigmoidGrad's gradients on conjugated inputs (third generator --ext8 seed 2402 #277)
    ("TanhGrad's gradient, complex128", "ops.complex", _tape(
        "tf.raw_ops.TanhGrad(y=x, dy=tf.constant(1.0 + 2.0j, tf.complex128))",
        "tf.constant(0.5 - 0.25j, tf.complex128)")),
    ("SigmoidGrad's gradient, complex128", "ops.complex", _tape(
        "tf.raw_ops.SigmoidGrad(y=x, dy=tf.constant(1.0 + 2.0j, tf.complex128))",
        "tf.constant(0.5 - 0.25j, tf.complex128)")),
    # logm of a non-finite 1x1 matrix (#261)
    ("logm of [[inf]], complex128", _L, _eager("tf.linalg.logm(tf.constant([[complex(float('inf'), 0.0)]]))")),
    ("logm of [[inf + 1j]], complex64", _L, _eager(
        "tf.linalg.logm(tf.constant([[complex(float('inf'), 1.0)]], tf.complex64))")),
    ("logm of [[nan + inf j]], complex64", _L, _eager(
        "tf.linalg.logm(tf.constant([[complex(float('nan'), float('inf'))]], tf.complex64))")),
    ("logm of [[nan]], complex64", _L, _eager(
        "tf.linalg.logm(tf.constant([[complex(float('nan'), 0.0)]], tf.complex64))")),
    ("logm of [[-inf + 2j]], complex128", _L, _eager(
        "tf.linalg.logm(tf.constant([[complex(-float('inf'), 2.0)]]))")),
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


@clause("function.grappler-rewrites")
@EDGES.parametrize("function.grappler-rewrites")
def test_pow_rewrites(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.array-more")
@EDGES.parametrize("ops.array-more")
def test_range_in_its_dtype(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.complex")
@EDGES.parametrize("ops.complex")
def test_complex_second_order_gradients(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.linalg-logm")
@EDGES.parametrize("ops.linalg-logm")
def test_logm_of_non_finite(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


def test_every_case_has_a_test() -> None:
    untested = EDGES.untested()
    assert not untested, f"cases of groups {untested} have no test function above"


if __name__ == "__main__":  # TF worker: python test_fz24b_edges_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
