"""Rules behind the classes of issue 29's fresh campaigns that fz22 ran (fourteenth generator seed
1420262201, fourth generator seed 2201, the twentieth generator's SEEN BatchMatMulV2 class), each
against real TensorFlow 2.21: the same call on both backends gives the same dtype and values, or
raises the same exception class. Eagerly, in a tf.function (`traced`), with an input_signature
(`sig`: get_concrete_function on placeholders, then a call), of a variable, and called twice in a
tf.function (`twice`). Needs the `tf` extra.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import edge_compare
from edge_programs import eager as _eager, traced as _traced, sig as _sig, var_traced as _var_traced
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause


def _raw_var(expr: str, var: str) -> Callable[[Any], Any]:
    """`expr` of a variable `v` (made by `var`), eagerly."""
    def run(tf: Any) -> Any:
        tf.constant(1.0) + 1.0
        v = eval(var, {"tf": tf, "np": np})  # noqa: S307 - our own text
        return eval(expr, {"tf": tf, "np": np, "v": v})  # noqa: S307 - our own text
    return run


def _twice(expr: str, arg: str) -> Callable[[Any], Any]:
    """`lambda x: expr` as a tf.function called twice on `arg` (the second call runs the graph)."""
    def run(tf: Any) -> Any:
        x = eval(arg, {"tf": tf, "np": np})  # noqa: S307 - our own text
        g = tf.function(eval(f"lambda x: {expr}", {"tf": tf, "np": np}))  # noqa: S307 - our own text
        return [g(x), g(x)]
    return run


_T = "function.trace-time-errors"
_C = "ops.conversion"
_ATTR = "ops.attr-types"
_SUB = "ops.subnormals"
_V8 = "tf.Variable(np.array([1, 2], np.int8))"
_VF = "tf.Variable(np.ones((1, 2, 2, 1), np.float32))"
_P = "tf.constant([complex(0.5, -1.5), complex(1e-40, 1.0), complex(-1.0, -3.0)], dtype=np.complex128)"
_SUBS = "tf.constant(np.array([9.99994610111476e-41, -1.401298464324817e-45, 0.5], np.float32))"

CASES: list[tuple[str, str, Callable[[Any], Any]]] = [
    # BatchMatMulV2's shape function broadcasts the batch dimensions the graph knows (fuzz20 seed 20202612013 #4)
    ("bmm sig, unknown batch dim of x", _T, _sig(
        "tf.raw_ops.BatchMatMulV2(adj_x=True, x=x, y=tf.ones((3, 4, 3, 3), tf.complex128))", ([2, 4, 3, None],
                                                                                             "complex128"),
        "tf.ones((2, 4, 3, 3), tf.complex128)")),
    ("bmm sig, unknown batch dim of y", _T, _sig("tf.raw_ops.BatchMatMulV2(x=tf.ones((2, 4, 3, 3)), y=x)",
                                                 ([None, 4, None, None], "float32"), "tf.ones((3, 4, 3, 3))")),
    ("bmm sig, known clash", _T, _sig("tf.raw_ops.BatchMatMulV2(x=tf.ones((2, 4, 3, 3)), y=x)",
                                      ([3, 4, None, None], "float32"), "tf.ones((3, 4, 3, 3))")),
    ("matmul sig, unknown batch dim", _T, _sig("tf.matmul(tf.ones((2, 4, 3, 3)), x)", ([None, 4, None, None],
                                                                                        "float32"),
                                               "tf.ones((3, 4, 3, 3))")),
    # tensordot of an operand whose rank the graph does not know: Shape/Gather ops (fourth generator seed 2201 #88)
    ("tensordot unknown rank, scalar call", _T, _sig("tf.tensordot(x, x, axes=([0], [0]))", (None, "float32"),
                                                     "tf.constant(-0.0)")),
    ("tensordot unknown rank, vector call", _T, _sig("tf.tensordot(x, x, axes=([0], [0]))", (None, "float32"),
                                                     "tf.constant([1.0, 2.0])")),
    ("tensordot unknown rank, axes 1, scalar call", _T, _sig("tf.tensordot(x, x, axes=1)", (None, "float32"),
                                                             "tf.constant(-0.0)")),
    ("tensordot unknown rank of b only", _T, _sig("tf.tensordot(tf.ones((2,)), x, axes=([0], [1]))",
                                                  (None, "float32"), "tf.ones((2,))")),
    ("tensordot unknown rank of a, int axes 2, vector call", _T, _sig("tf.tensordot(x, tf.ones((2, 2)), axes=2)",
                                                                      (None, "float32"), "tf.ones((2,))")),
    ("tensordot unknown rank, negative axis", _T, _sig("tf.tensordot(x, x, axes=([-3], [0]))", (None, "float32"),
                                                       "tf.ones((2, 2))")),
    ("tensordot [None], axes [1]", _T, _sig("tf.tensordot(x, x, axes=([1], [0]))", ([None], "float32"),
                                            "tf.ones((2,))")),
    # shape functions of the fresh sig campaign's raw ops (fuzz20 seed 2220261202 #22, #23, #47, #127, #138)
    ("Tile of negative multiples, sig", _T, _sig("tf.raw_ops.Tile(multiples=[-2, 0], input=x)", ([None, None],
                                                                                                "float32"),
                                                 "tf.ones((2, 2))")),
    ("Tile of too many multiples, sig", _T, _sig("tf.raw_ops.Tile(multiples=[2, 1, 1], input=x)", ([None, None],
                                                                                                   "float32"),
                                                 "tf.ones((2, 2))")),
    ("tile of an unknown rank, too few multiples", _T, _sig("tf.tile(x, [2, 1])", (None, "float32"),
                                                            "tf.ones((2, 2, 2))")),
    ("Unique of a matrix, sig", _T, _sig("tf.raw_ops.Unique(x=x)", ([4, None], "float32"), "tf.ones((4, 2))")),
    ("InvertPermutation of a matrix, sig", _T, _sig("tf.raw_ops.InvertPermutation(x=x)", ([4, None], "int32"),
                                                    "tf.zeros((4, 1), tf.int32)")),
    ("Cross of [None] and [0], sig", _T, _sig("tf.raw_ops.Cross(a=x, b=tf.zeros((0,), tf.int8))", ([None], "int8"),
                                              "tf.zeros((0,), tf.int8)")),
    ("Cross of [3, 2] and [3, 3], traced", _T, _traced("tf.raw_ops.Cross(a=tf.ones((3, 2)), b=tf.ones((3, 3)))")),
    ("Cross of [2, 3], traced", _T, _traced("tf.raw_ops.Cross(a=tf.ones((2, 3)), b=tf.ones((2, 3)))")),
    ("DiagPart of a scalar, traced", _T, _traced("tf.raw_ops.DiagPart(input=tf.ones(()))")),
    ("DiagPart of [1], sig", _T, _sig("tf.raw_ops.DiagPart(input=x)", ([1], "float32"), "tf.ones((1,))")),
    ("DiagPart of [None, None], sig", _T, _sig("tf.raw_ops.DiagPart(input=x)", ([None, None], "float32"),
                                               "tf.ones((2, 3))")),
    ("AvgPool3D of rank 3, sig", _T, _sig("tf.raw_ops.AvgPool3D(input=x, padding='VALID', strides=[1, 2, 1, 2, 1], "
                                          "ksize=[1, 3, 1, 2, 1])", ([4, 4, 1], "float32"), "tf.ones((4, 4, 1))")),
    ("MaxPool3D VALID window beyond a known plane, sig", _T, _sig(
        "tf.raw_ops.MaxPool3D(input=x, padding='VALID', strides=[1, 1, 1, 1, 1], ksize=[1, 3, 1, 1, 1])",
        ([1, 2, None, None, 1], "float32"), "tf.ones((1, 2, 2, 2, 1))")),
    ("MaxPool3D SAME, sig", _T, _sig("tf.raw_ops.MaxPool3D(input=x, padding='SAME', strides=[1, 1, 1, 1, 1], "
                                     "ksize=[1, 2, 1, 1, 1])", ([1, None, 2, 2, 1], "float32"),
                                     "tf.ones((1, 2, 2, 2, 1))")),
    ("MirrorPad of an unknown rank, sig", _T, _sig("tf.raw_ops.MirrorPad(input=x, paddings=[[1, 1]], mode='REFLECT')",
                                                   (None, "float32"), "tf.ones((1,))")),
    ("MirrorPad of an unknown rank, fitting call", _T, _sig(
        "tf.raw_ops.MirrorPad(input=x, paddings=[[1, 1]], mode='REFLECT')", (None, "float32"), "tf.ones((3,))")),
    ("pad of an unknown rank, call of another rank", _T, _sig("tf.pad(x, [[1, 1]])", (None, "float32"),
                                                              "tf.ones((3, 1))")),
    ("log_softmax of an unknown rank, scalar call", _T, _sig("tf.nn.log_softmax(x)", (None, "float32"),
                                                             "tf.constant(1.0)")),
    # ResizeBilinearGrad's and ResizeBicubicGrad's shape functions check nothing (fuzz20 SEEN seed 2020261201 #42, #46)
    ("ResizeBicubicGrad of rank 1, sig", _T, _sig("tf.raw_ops.ResizeBicubicGrad(grads=x, original_image=tf.ones((3,)))",
                                                  ([3], "float32"), "tf.ones((3,))")),
    ("ResizeBilinearGrad of rank 1, traced", _T, _traced(
        "tf.raw_ops.ResizeBilinearGrad(grads=tf.ones((3,)), original_image=tf.ones((3,)))")),
    # Betainc merges its inputs of known non-zero rank (fuzz20 SEEN seed 2020261201 #184)
    ("Betainc of [2, 1, 3] and [3], traced", _T, _traced(
        "tf.raw_ops.Betainc(a=tf.ones((2, 1, 3)), b=tf.ones((3,)), x=tf.ones((2, 1, 3)))")),
    ("Betainc of a scalar b, traced", _T, _traced("tf.raw_ops.Betainc(a=tf.ones((2, 3)), b=1.0, x=tf.ones((2, 3)))")),
    ("Betainc of [None, 3] and [2, 4], sig", _T, _sig("tf.raw_ops.Betainc(a=x, b=tf.ones((2, 4)), x=tf.ones((2, 4)))",
                                                      ([None, 3], "float32"), "tf.ones((2, 3))")),
    ("Betainc of an unknown rank, sig", _T, _sig("tf.raw_ops.Betainc(a=x, b=tf.ones((2, 4)), x=tf.ones((2, 4)))",
                                                 (None, "float32"), "tf.ones((2, 3))")),
    # raw EnsureShape is tf.ensure_shape's op: its shape function in a graph, its kernel check (seed 2220261202 #36)
    ("EnsureShape of shape None, traced", _T, _traced("tf.raw_ops.EnsureShape(input=tf.ones((2,)), shape=None)")),
    ("EnsureShape of shape [3], traced", _T, _traced("tf.raw_ops.EnsureShape(input=tf.ones((2,)), shape=[3])")),
    ("EnsureShape of [None, 3] against [None, 2], sig", _T, _sig("tf.raw_ops.EnsureShape(input=x, shape=[None, 2])",
                                                                 ([None, 3], "float32"), "tf.ones((2, 3))")),
    ("EnsureShape of an unknown rank, sig", _T, _sig("tf.raw_ops.EnsureShape(input=x, shape=[2])", (None, "float32"),
                                                     "tf.ones((2, 3))")),
    # Roll's shift and axis convert with no preferred dtype (fftshift of a scalar, seed 1420262201 #107)
    ("roll of an empty tuple axis", _C, _eager("tf.roll(tf.ones((2,)), tf.zeros((0,), tf.int32), ())")),
    ("roll of an empty tuple axis, traced", _C, _traced("tf.roll(tf.ones((2,)), tf.zeros((0,), tf.int32), ())")),
    ("roll of an empty tuple shift, traced", _C, _traced("tf.roll(tf.ones((2,)), (), tf.zeros((0,), tf.int32))")),
    ("ifftshift of a float, sig", _C, _sig("tf.signal.ifftshift(x=1e-40)", (None, "float32"), "1.0")),
    ("fftshift of a float, traced", _C, _traced("tf.signal.fftshift(1.0)")),
    ("fftshift of a vector, traced", _C, _traced("tf.signal.fftshift(tf.ones((3,)))")),
    # op_def_library's first-input type rule while a graph is built (seed 1420262201 #130, #151)
    ("triangular_solve of inf beside bfloat16, traced", _C, _traced(
        "tf.linalg.triangular_solve(matrix=float('inf'), rhs=tf.ones((4, 4, 3, 2), tf.bfloat16))")),
    ("triangular_solve of a list beside float64, traced", _C, _traced(
        "tf.linalg.triangular_solve(matrix=[[1.0]], rhs=tf.ones((1, 2), tf.float64))")),
    ("solve of an array beside float64, traced", _C, _traced(
        "tf.linalg.solve(np.ones((1, 1), np.float32), tf.ones((1, 2), tf.float64))")),
    ("solve of float32 beside a float64 array, traced", _C, _traced("tf.linalg.solve(tf.ones((1, 1)), np.ones((1, 2)))")),
    ("set_diag of a list beside float64, traced", _C, _traced(
        "tf.linalg.set_diag([[1.0, 2.0], [3.0, 4.0]], tf.ones((2,), tf.float64))")),
    ("conv3d of an array beside float64, traced", _C, _traced(
        "tf.nn.conv3d(np.ones((1, 2, 2, 2, 1), np.float32), tf.ones((1, 1, 1, 1, 1), tf.float64), [1, 1, 1, 1, 1], "
        "'SAME')")),
    ("tensor_scatter_nd_sub float64 array, int32 updates, traced", _C, _traced(
        "tf.tensor_scatter_nd_sub(tensor=np.array([-3.0, 0.001]), indices=tf.constant([[0], [0]]), "
        "updates=tf.constant([1, 2], dtype=tf.int32))")),
    ("tensor_scatter_nd_add int list, float32 updates, traced", _C, _traced(
        "tf.tensor_scatter_nd_add([1, 2], [[0]], tf.constant([1.5]))")),
    ("tensor_scatter_nd_sub float64 array, int32 updates", _C, _eager(
        "tf.tensor_scatter_nd_sub(tensor=np.array([-3.0, 0.001]), indices=tf.constant([[0], [0]]), "
        "updates=tf.constant([1, 2], dtype=tf.int32))")),
    # a generated op's type group eagerly: the fast path reads tensors and variables, the fallback
    # converts every non-EagerTensor (seed 1420262201 #88, #205)
    ("tensor_scatter_nd_update variable, uint16 updates, list indices", _C, _raw_var(
        "tf.tensor_scatter_nd_update(v, [[0]], tf.constant([3], tf.uint16))", _V8)),
    ("tensor_scatter_nd_update variable, variable updates, list indices", _C, _raw_var(
        "tf.tensor_scatter_nd_update(v, [[0]], tf.Variable(np.array([3], np.uint16)))", _V8)),
    ("tensor_scatter_nd_update variable, uint16 updates, tensor indices", _C, _raw_var(
        "tf.tensor_scatter_nd_update(v, tf.constant([[0]]), tf.constant([3], tf.uint16))", _V8)),
    ("tensor_scatter_nd_update array, variable updates, tensor indices", _C, _raw_var(
        "tf.tensor_scatter_nd_update(np.array([1, 2], np.uint16), tf.constant([[0]]), v)", _V8)),
    ("tensor_scatter_nd_update uint16 tensor, variable updates, list indices", _C, _raw_var(
        "tf.tensor_scatter_nd_update(tf.constant([1, 2], tf.uint16), [[0]], v)", _V8)),
    ("tensor_scatter_nd_update variable, array updates", _C, _raw_var(
        "tf.tensor_scatter_nd_update(v, [[0]], np.array([1], np.uint16))", _V8)),
    ("tensor_scatter_nd_update variable, uint16 updates, traced", _C, _var_traced(
        "tf.tensor_scatter_nd_update(v, [[0]], tf.constant([3], tf.uint16))", _V8)),
    ("conv2d_transpose int8 variable, uint8 filter", _C, _raw_var(
        "tf.nn.conv2d_transpose(v, np.array(2, dtype=np.uint8), [], np.array([0], dtype=np.int64))",
        "tf.Variable(np.array([0, 1, -4], np.int8))")),
    ("conv2d_transpose variable, float64 filter, tensor shape", _C, _raw_var(
        "tf.nn.conv2d_transpose(v, tf.ones((1, 1, 1, 1), tf.float64), tf.constant([1, 2, 2, 1]), 1)", _VF)),
    ("conv2d_transpose variable, float64 array filter, list shape", _C, _raw_var(
        "tf.nn.conv2d_transpose(v, np.ones((1, 1, 1, 1)), [1, 2, 2, 1], 1)", _VF)),
    ("conv2d_transpose float64 variable filter, tensor shape", _C, _raw_var(
        "tf.nn.conv2d_transpose(tf.ones((1, 2, 2, 1)), v, tf.constant([1, 2, 2, 1]), 1)",
        "tf.Variable(np.ones((1, 1, 1, 1)))")),
    ("conv2d_transpose variable, NumPy strides", _C, _raw_var(
        "tf.nn.conv2d_transpose(v, tf.ones((1, 1, 1, 1), tf.float64), tf.constant([1, 2, 2, 1]), np.array([1, 1]))",
        _VF)),
    # fixed-dtype inputs on the fast path reach EagerExecute's input check (#185, #201, #64)
    ("extract_glimpse of int8 offsets", _C, _eager(
        "tf.image.extract_glimpse(tf.ones((2, 4, 4, 1)), tf.constant([2, 2], tf.int32), "
        "offsets=tf.constant([[0, 0], [0, 0]], dtype=np.int8))")),
    ("extract_glimpse of int8 offsets, list size", _C, _eager(
        "tf.image.extract_glimpse(tf.ones((2, 4, 4, 1)), [2, 2], offsets=tf.constant([[0, 0], [0, 0]], np.int8))")),
    ("extract_glimpse of int8 offsets, traced", _C, _traced(
        "tf.image.extract_glimpse(tf.ones((2, 4, 4, 1)), tf.constant([2, 2]), "
        "offsets=tf.constant([[0, 0], [0, 0]], dtype=np.int8))")),
    ("crop_and_resize of float64 boxes", _C, _eager(
        "tf.image.crop_and_resize(tf.ones((1, 4, 4, 1)), tf.constant([[0.0, 0.0, 1.0, 1.0]], tf.float64), "
        "tf.constant([0]), tf.constant([2, 2]))")),
    ("crop_and_resize of float64 boxes, list crop_size", _C, _eager(
        "tf.image.crop_and_resize(tf.ones((1, 4, 4, 1)), tf.constant([[0.0, 0.0, 1.0, 1.0]], tf.float64), "
        "tf.constant([0]), [2, 2])")),
    ("generate_bounding_box_proposals of an int64 variable", _C, _raw_var(
        "tf.image.generate_bounding_box_proposals(v, np.array([[0]], dtype=np.int64), np.array([[7.0]], "
        "dtype=np.float32), 1.0)", "tf.Variable(np.array([[5]], np.int64))")),
    ("generate_bounding_box_proposals of an int64 variable beside a list", _C, _raw_var(
        "tf.image.generate_bounding_box_proposals(v, [[0]], np.array([[7.0]], dtype=np.float32), 1.0)",
        "tf.Variable(np.array([[5]], np.int64))")),
    ("unicode_script of a uint64 variable", _C, _raw_var("tf.strings.unicode_script(input=v)",
                                                         "tf.Variable(np.array([[0, 5]], np.uint64))")),
    ("unicode_script of a uint64 variable, traced", _C, _var_traced("tf.strings.unicode_script(input=v)",
                                                                    "tf.Variable(np.array([[0, 5]], np.uint64))")),
    # in_top_k: the fast path converts targets, checks T, then the kernel's input check; the fallback
    # converts predictions with float32 (#149, #222)
    ("in_top_k float targets, complex predictions", _C, _eager(f"tf.math.in_top_k(-0.0, {_P}, 5)")),
    ("in_top_k int targets, complex predictions", _C, _eager(f"tf.math.in_top_k(1, {_P}, 5)")),
    ("in_top_k list targets, complex predictions", _C, _eager(f"tf.math.in_top_k([1], {_P}, 5)")),
    ("in_top_k int targets, float64 predictions", _C, _eager(
        "tf.math.in_top_k(0, tf.constant([[1.0, 2.0]], tf.float64), 5)")),
    ("in_top_k uint8 targets, int32 predictions, NumPy k", _C, _eager(
        "tf.math.in_top_k(targets=tf.constant([[5, 5, 2, 3], [3, 0, 1, 1]], dtype='uint8'), "
        "predictions=tf.constant([[2, -1, 3, 0], [0, 2, 1, 1]], dtype=np.int32), k=np.int64(2))")),
    ("in_top_k int32 targets, int32 predictions, NumPy k", _C, _eager(
        "tf.math.in_top_k(targets=tf.constant([1, 3]), predictions=tf.ones((2, 4), tf.int32), k=np.int64(2))")),
    # wrapper orders (#43, #149, #192, #237, #110, #180)
    ("shape_n of a tensor, string out_type", _ATTR, _eager("tf.shape_n(tf.constant([7.0, 1.0, 2.5]), out_type='int64')")),
    ("shape_n of a tensor, DType out_type", _ATTR, _eager("tf.shape_n(tf.ones((4, 2, 1)), out_type=tf.int64)")),
    ("shape_n of a list, string out_type", _ATTR, _eager("tf.shape_n([tf.ones((4, 2, 1))], out_type='int64')")),
    ("trace of True", _C, _eager("tf.linalg.trace(x=True)")),
    ("trace of [True]", _C, _eager("tf.linalg.trace(x=[True])")),
    ("reduce_join of a mixed list, np.bool_ keepdims", _ATTR, _eager(
        "tf.strings.reduce_join([np.array(complex(-0.0, -3.0), dtype=np.complex64), -0.0, np.array(False)], "
        "axis=[], keepdims=np.bool_(True))")),
    ("reduce_join of strings, np.bool_ keepdims", _ATTR, _eager(
        "tf.strings.reduce_join(['a', 'b'], axis=[], keepdims=np.bool_(True))")),
    ("with_space_to_batch of an inf rate matrix", _C, _eager(
        "tf.nn.with_space_to_batch(input=tf.constant([[-1]], tf.int16), dilation_rate=np.array([[np.inf]]), "
        "padding='VALID', op='sum')")),
    ("with_space_to_batch of a float rate vector", _C, _eager(
        "tf.nn.with_space_to_batch(input=tf.ones((1, 2, 1)), dilation_rate=np.array([2.5]), padding='VALID', "
        "op=lambda input, num_spatial_dims, padding: input)")),
    ("random.uniform of a NumPy complex maxval", _C, _eager(
        "tf.random.uniform([2], True, np.array(complex(2.0, 4.0), dtype=np.complex64), seed=1) * 0.0")),
    ("random_saturation of a complex image", _C, _eager(
        "tf.image.random_saturation(image=tf.constant(complex(0.001, 1.0), tf.complex64), lower=True, "
        "upper=np.array(complex(1e+300, 4.0), dtype=np.complex64))")),
    ("lrn of a list beyond float32", _C, _eager("tf.nn.local_response_normalization([[[[1e300, 0.001, 0.5, -3.0]]]], "
                                                "depth_radius=1)")),
    ("lrn of a list beyond float32, traced", _C, _traced(
        "tf.nn.local_response_normalization([[[[1e300, 0.001, 0.5, -3.0]]]], depth_radius=1)")),
    # linalg_impl.normalize casts the norm to the tensor's dtype (third generator --ext8 seed 2202 #134)
    ("normalize of a complex scalar, ord 1", _C, _eager("tf.linalg.normalize(tensor=np.array(1j, np.complex128), "
                                                        "ord=1)")),
    ("normalize of a complex vector, ord 1", _C, _eager("tf.linalg.normalize(tensor=np.array([1j, 2.0], "
                                                        "np.complex128), ord=1)")),
    # in a graph the kernels refuse as the graph runs, the wrappers' Python first (#160, #216, #172)
    ("learned_unigram_candidate_sampler of a tensor range_max, traced", _T, _traced(
        "tf.nn.learned_unigram_candidate_sampler(true_classes=2, num_true=3, num_sampled=5, unique=True, "
        "range_max=tf.constant(2))")),
    ("learned_unigram_candidate_sampler of a tensor range_max", _T, _eager(
        "tf.nn.learned_unigram_candidate_sampler(true_classes=2, num_true=3, num_sampled=5, unique=True, "
        "range_max=tf.constant(2))")),
    ("learned_unigram_candidate_sampler of a range_max beyond int32", _T, _eager(
        "tf.nn.learned_unigram_candidate_sampler(tf.constant([[1]], tf.int64), 1, 1, True, 2**31)")),
    ("sampled_softmax_loss of a list inputs, traced", _T, _traced(
        "tf.nn.sampled_softmax_loss(np.array([[1.0, 2.0, 0.5, 4.0]]), np.array([[0.25, 1.0, 3.0, -3.0]]), "
        "tf.constant([[7.0, 3.0, 1.0, 1.0]], tf.float64), [np.array(4.0)], 1, num_classes=2, "
        "remove_accidental_hits=True)")),
    # a recording that met subnormals runs again with Grappler's rewrites (#214)
    ("0 - subnormals, called twice", _SUB, _twice("tf.constant(0.0) - x", _SUBS)),
    ("False - subnormals, called twice", _SUB, _twice("False - x", _SUBS)),
    ("-subnormals, called twice", _SUB, _twice("-x", _SUBS)),
]


EDGES = edge_compare.EdgeModule(__file__, CASES)


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
def test_attr_orders(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.subnormals")
@EDGES.parametrize("ops.subnormals")
def test_subnormals_in_a_graph_called_again(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


def test_every_case_has_a_test() -> None:
    untested = EDGES.untested()
    assert not untested, f"cases of groups {untested} have no test function above"


if __name__ == "__main__":  # TF worker: python test_fz22_edges_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
