"""Rules behind the classes of issue 29's twentieth generator (tests/fuzz20: tf.raw_ops calls drawn from TF's
OpDefs, seeds 2020261201 and 2020261202), each against real TensorFlow 2.21: the same raw call on both backends
gives the same dtype and values, or raises the same exception class. Eagerly, in a tf.function (`traced`) and
with an input_signature (`sig`: get_concrete_function on placeholders, then a call). The rules live in
simdist/runtime/ops/raw_rules.py (clause ops.fuzz-raw). Needs the `tf` extra (or the module's golden).
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import edge_compare
from edge_programs import eager as _eager, traced as _traced, sig as _sig
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause


def _both(label: str, group: str, expr: str) -> list[tuple[str, str, Callable[[Any], Any]]]:
    """The case eagerly and traced."""
    return [(label, group, _eager(expr)), (f"{label}, traced", group, _traced(expr))]


_A = "ops.fuzz-raw"
_M = "tf.constant([[1., 2.], [3., 4.]])"
_I64 = "tf.constant(np.arange(16, dtype=np.float64).reshape(1, 1, 4, 4))"
_I64_5 = "tf.constant(np.arange(64, dtype=np.float64).reshape(1, 1, 4, 4, 4))"

CASES: list[tuple[str, str, Callable[[Any], Any]]] = [
    # the OpDef's allowed_values for inferred and given type attrs (seed 2020261201 #77, #149)
    *_both("Mul of bools", _A, "tf.raw_ops.Mul(x=tf.constant([True]), y=tf.constant([False]))"),
    *_both("Cumsum with a float axis", _A, f"tf.raw_ops.Cumsum(x={_M}, axis=tf.constant(0., tf.float32))"),
    *_both("ArgMax output_type float32", _A, f"tf.raw_ops.ArgMax(input={_M}, dimension=0, output_type=tf.float32)"),
    *_both("Abs of uint16", _A, "tf.raw_ops.Abs(x=tf.constant([1, 2], tf.uint16))"),
    ("Sqrt of int8", _A, _eager("tf.raw_ops.Sqrt(x=tf.constant([4], tf.int8))")),
    # int and list attr minimums
    *_both("SplitV num_split 0", _A, f"tf.raw_ops.SplitV(value={_M}, size_splits=[1, 1], axis=0, num_split=0)"),
    *_both("AvgPool ksize of length 2", _A,
           f"tf.raw_ops.AvgPool(value={_I64}, ksize=[1, 1], strides=[1, 1, 1, 1], padding='VALID')"),
    # None for a required list attr (eagerly an empty list) and for a required type attr
    *_both("MaxPool ksize None", _A,
           f"tf.raw_ops.MaxPool(input={_I64}, ksize=None, strides=[1, 1, 1, 1], padding='VALID')"),
    *_both("Cast DstT None", _A, f"tf.raw_ops.Cast(x={_M}, DstT=None)"),
    ("Cast DstT given", _A, _eager(f"tf.raw_ops.Cast(x={_M}, DstT=tf.int32)")),
    # TF's CPU kernel registry (seed 2020261201 #86, #47)
    *_both("MatrixSetDiagV3 of strings", _A,
           "tf.raw_ops.MatrixSetDiagV3(input=tf.constant([['a', 'b'], ['c', 'd']]), diagonal=tf.constant(['x', 'y'])"
           ", k=0)"),
    *_both("GatherNd bad_indices_policy x", _A, f"tf.raw_ops.GatherNd(params={_M}, indices=[[0]], "
                                                "bad_indices_policy='x')"),
    *_both("TensorScatterAdd bad_indices_policy x", _A,
           f"tf.raw_ops.TensorScatterAdd(tensor={_M}, indices=[[0]], updates=[[1., 1.]], bad_indices_policy='x')"),
    *_both("SparseSparseMinimum of strings", _A,
           "tf.raw_ops.SparseSparseMinimum(a_indices=[[0]], a_values=tf.constant(['a']), a_shape=[2], "
           "b_indices=[[1]], b_values=tf.constant(['b']), b_shape=[2])"),
    ("IdentityN (a DEFAULT-device kernel)", _A, _eager(f"tf.raw_ops.IdentityN(input=[{_M}, tf.constant([1, 2])])")),
    # a kernel's failure: InvalidArgumentError eagerly, the shape function's ValueError in a graph that knows
    # the shapes, the kernel's error when a dimension is unknown (seed 2020261201 #2, #4, #75)
    *_both("DiagPart of [2,3]", _A, "tf.raw_ops.DiagPart(input=tf.zeros([2, 3]))"),
    ("DiagPart of [None,3], sig", _A, _sig("tf.raw_ops.DiagPart(input=x)", ([None, 3], "float32"),
                                           "tf.zeros([2, 3])")),
    *_both("DynamicPartition of a rank-2 partition", _A,
           "tf.raw_ops.DynamicPartition(data=tf.zeros([3]), partitions=tf.zeros([4, 2], tf.int32), num_partitions=1)"),
    *_both("SobolSample of a vector dim", _A,
           "tf.raw_ops.SobolSample(dim=tf.constant([3]), num_results=2, skip=tf.constant(2), dtype=tf.float32)"),
    ("EditDistance of rank-1 indices", _A, _eager(
        "tf.raw_ops.EditDistance(hypothesis_indices=tf.constant([1, 1, 2], tf.int64), hypothesis_values=tf.constant("
        "[1., 2., 3.]), hypothesis_shape=tf.constant([3, 1], tf.int64), truth_indices=tf.constant([1, 2, 2], "
        "tf.int64), truth_values=tf.constant([1., 2., 3.]), truth_shape=tf.constant([4, 4], tf.int64))")),
    # a channels-first layout: TF's own CPU kernels' refusal (float64: no oneDNN kernel on any CPU)
    *_both("AvgPool NCHW", _A,
           f"tf.raw_ops.AvgPool(value={_I64}, ksize=[1, 1, 2, 2], strides=[1, 1, 1, 1], padding='VALID', "
           "data_format='NCHW')"),
    *_both("MaxPool3D NCDHW", _A,
           f"tf.raw_ops.MaxPool3D(input={_I64_5}, ksize=[1, 1, 2, 2, 2], strides=[1, 1, 1, 1, 1], padding='VALID', "
           "data_format='NCDHW')"),
    ("Conv3D NCDHW", _A, _eager(
        f"tf.raw_ops.Conv3D(input={_I64_5}, filter=tf.zeros([2, 2, 2, 1, 1], tf.float64), strides=[1, 1, 1, 1, 1], "
        "padding='VALID', data_format='NCDHW')")),
    ("Conv2DBackpropFilter NCHW", _A, _eager(
        f"tf.raw_ops.Conv2DBackpropFilter(input={_I64}, filter_sizes=[2, 2, 1, 1], out_backprop=tf.zeros([1, 1, 3, 3]"
        ", tf.float64), strides=[1, 1, 1, 1], padding='VALID', data_format='NCHW')")),
    ("DepthwiseConv2dNative NCHW", _A, _eager(
        f"tf.raw_ops.DepthwiseConv2dNative(input={_I64}, filter=tf.zeros([2, 2, 1, 1], tf.float64), strides=[1, 1, 1, "
        "1], padding='VALID', data_format='NCHW')")),
    # inputs of one shape (seed 2020261201 #23, #5, #119)
    *_both("AddN of [2] and [3]", _A, "tf.raw_ops.AddN(inputs=[tf.ones([2]), tf.ones([3])])"),
    *_both("AddN of [2,2,1,3] and [2,1,3]", _A,
           "tf.raw_ops.AddN(inputs=(tf.ones([2, 2, 1, 3], tf.int32), tf.ones([2, 1, 3], tf.int32)))"),
    ("AddN of [None] and [3], sig", _A, _sig("tf.raw_ops.AddN(inputs=[x, tf.ones([3])])", ([None], "float32"),
                                             "tf.ones([2])")),
    *_both("ReluGrad of [2,3] and [3]", _A, "tf.raw_ops.ReluGrad(gradients=tf.ones([2, 3]), features=tf.ones([3]))"),
    *_both("EluGrad of [3] and [2,3]", _A, "tf.raw_ops.EluGrad(gradients=tf.ones([3]), outputs=tf.ones([2, 3]))"),
    *_both("SigmoidGrad of 6 and 3 elements", _A, "tf.raw_ops.SigmoidGrad(y=tf.ones([2, 3]), dy=tf.ones([3]))"),
    # kernel checks simdist's public functions make, reached by the raw call too (seed 2020261201 #62, #157,
    # #176; seed 2020261202 #37, #96)
    *_both("SplitV num_split 1 of two sizes", _A,
           "tf.raw_ops.SplitV(value=tf.constant([1., 2., 3.]), size_splits=[2, 1], axis=0, num_split=1)"),
    ("SplitV num_split 2 of two sizes", _A, _eager(
        "tf.raw_ops.SplitV(value=tf.constant([1., 2., 3.]), size_splits=[2, 1], axis=0, num_split=2)")),
    *_both("StringUpper UTF-16-BE", _A, "tf.raw_ops.StringUpper(input=tf.constant(['ab']), encoding='UTF-16-BE')"),
    ("StringLower utf-8", _A, _eager("tf.raw_ops.StringLower(input=tf.constant(['AB', 'Ét']), encoding='utf-8')")),
    *_both("MatrixBandPart num_lower 5 of 3 rows", _A,
           "tf.raw_ops.MatrixBandPart(input=tf.ones([3, 4]), num_lower=5, num_upper=1)"),
    *_both("LRN of rank 2", _A, "tf.raw_ops.LRN(input=tf.ones([2, 1]))"),
    # shape functions of ListDiff and SparseToSparseSetOperation (the slice's seed 20202612012 #7, #10)
    *_both("ListDiff of a matrix", _A, "tf.raw_ops.ListDiff(x=tf.ones([2, 2]), y=tf.ones([2]))"),
    *_both("SparseToSparseSetOperation of rank-1 indices", _A,
           "tf.raw_ops.SparseToSparseSetOperation(set1_indices=tf.constant([0, 0, 1], tf.int64), set1_values="
           "tf.constant([1, 2, 3]), set1_shape=tf.constant([3, 3], tf.int64), set2_indices=tf.constant([[0, 0]], "
           "tf.int64), set2_values=tf.constant([1]), set2_shape=tf.constant([3, 3], tf.int64), set_operation='union')"),
    *_both("SparseToSparseSetOperation of rank-1 sets", _A,
           "tf.raw_ops.SparseToSparseSetOperation(set1_indices=tf.constant([[0]], tf.int64), set1_values=tf.constant("
           "[1]), set1_shape=tf.constant([3], tf.int64), set2_indices=tf.constant([[0]], tf.int64), set2_values="
           "tf.constant([1]), set2_shape=tf.constant([3], tf.int64), set_operation='union')"),
    *_both("SparseToSparseSetOperation of ranks 2 and 3", _A,
           "tf.raw_ops.SparseToSparseSetOperation(set1_indices=tf.constant([[0, 0]], tf.int64), set1_values="
           "tf.constant([1]), set1_shape=tf.constant([3, 3], tf.int64), set2_indices=tf.constant([[0, 0, 0]], "
           "tf.int64), set2_values=tf.constant([1]), set2_shape=tf.constant([3, 3, 3], tf.int64), "
           "set_operation='union')"),
    *_both("SparseToSparseSetOperation union", _A,
           "tf.raw_ops.SparseToSparseSetOperation(set1_indices=tf.constant([[0, 0]], tf.int64), set1_values="
           "tf.constant([1]), set1_shape=tf.constant([3, 3], tf.int64), set2_indices=tf.constant([[0, 1]], "
           "tf.int64), set2_values=tf.constant([2]), set2_shape=tf.constant([3, 3], tf.int64), "
           "set_operation='union')"),
    # the square-matrix ops' check (seed 2020261201 #195, 2020261202 #274)
    *_both("MatrixSquareRoot of [2,3]", _A, "tf.raw_ops.MatrixSquareRoot(input=tf.ones([2, 3]))"),
    *_both("SelfAdjointEigV2 of [3]", _A, "tf.raw_ops.SelfAdjointEigV2(input=tf.ones([3]), compute_v=False)"),
    ("MatrixInverse of [None,3], sig", _A, _sig("tf.raw_ops.MatrixInverse(input=x)", ([None, 3], "float32"),
                                                "tf.ones([2, 3])")),
    # ReverseSequence's and the resize ops' kernel checks (seed 2020261201 #6, #38; 2020261202 #158)
    *_both("ResizeBicubic size [-2,0]", _A,
           "tf.raw_ops.ResizeBicubic(images=tf.reshape(tf.range(16.), [1, 4, 4, 1]), size=[-2, 0])"),
    *_both("ResizeNearestNeighbor size of three", _A,
           "tf.raw_ops.ResizeNearestNeighbor(images=tf.reshape(tf.range(16.), [1, 4, 4, 1]), size=[2, 3, 1])"),
    *_both("ResizeArea of rank 3", _A, "tf.raw_ops.ResizeArea(images=tf.ones([4, 4, 1]), size=[2, 2])"),
    ("ResizeNearestNeighbor values", _A, _eager(
        "tf.raw_ops.ResizeNearestNeighbor(images=tf.reshape(tf.range(16.), [1, 4, 4, 1]), size=[3, 3], "
        "half_pixel_centers=True)")),
    *_both("ReverseSequence of a scalar", _A, "tf.raw_ops.ReverseSequence(input=tf.constant(1), seq_lengths="
                                              "tf.constant([0], tf.int64), batch_dim=1, seq_dim=0)"),
    *_both("ReverseSequence seq_dim -1", _A, "tf.raw_ops.ReverseSequence(input=tf.reshape(tf.range(6), [3, 2]), "
                                             "seq_lengths=[1, 1, 1], seq_dim=-1)"),
    *_both("ReverseSequence batch_dim -1", _A, "tf.raw_ops.ReverseSequence(input=tf.reshape(tf.range(6), [3, 2]), "
                                               "seq_lengths=[1, 2], seq_dim=0, batch_dim=-1)"),
    *_both("tf.reverse_sequence seq_axis -1", _A,
           "tf.reverse_sequence(tf.reshape(tf.range(6), [3, 2]), [0, 0, 2], seq_axis=-1, batch_axis=0)"),
    ("ReverseSequence values", _A, _eager("tf.raw_ops.ReverseSequence(input=tf.reshape(tf.range(6), [2, 3]), "
                                          "seq_lengths=[2, 3], seq_dim=1, batch_dim=0)")),
    # a graph's shape function before a missing kernel (seed 2020261201 #195: float16 MatrixSquareRoot)
    *_both("float16 MatrixSquareRoot of [2,3]", _A, "tf.raw_ops.MatrixSquareRoot(input=tf.ones([2, 3], tf.float16))"),
    *_both("float16 MatrixSquareRoot of [3,3]", _A, "tf.raw_ops.MatrixSquareRoot(input=tf.ones([3, 3], tf.float16))"),
    # GatherV2's batch_dims range (seed 2020261202 #162)
    *_both("GatherV2 batch_dims -2 of rank-1 indices", _A, "tf.raw_ops.GatherV2(params=tf.constant([1, 2, 3], "
                                                           "tf.uint8), axis=0, indices=[0], batch_dims=-2)"),
    *_both("GatherV2 batch_dims 1 of rank-1 params", _A, "tf.raw_ops.GatherV2(params=tf.constant([1, 2, 3], "
                                                         "tf.uint8), axis=0, indices=[0], batch_dims=1)"),
    ("GatherV2 batch_dims 1", _A, _eager("tf.raw_ops.GatherV2(params=tf.reshape(tf.range(6), [2, 3]), axis=1, "
                                         "indices=[[0, 2], [1, 1]], batch_dims=1)")),
    ("tf.gather batch_dims -2", _A, _eager("tf.gather(tf.constant([1, 2, 3], tf.uint8), [0], axis=0, "
                                           "batch_dims=-2)")),
    # a string tensor's zeros are empty strings (seed 2020261202 #275)
    *_both("ZerosLike of strings", _A, "tf.raw_ops.ZerosLike(x=tf.constant([['a', 'b'], ['c', '']]))"),
    ("tf.zeros_like of strings", _A, _eager("tf.zeros_like(tf.constant(['a']))")),
    ("TanhGrad of [2,3] and [2]", _A, _eager("tf.raw_ops.TanhGrad(y=tf.ones([2, 3]), dy=tf.ones([2]))")),
]

EDGES = edge_compare.EdgeModule(__file__, CASES)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("ops.fuzz-raw")
@EDGES.parametrize("ops.fuzz-raw")
def test_raw_call_rules(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


def test_every_case_has_a_test() -> None:
    untested = EDGES.untested()
    assert not untested, f"cases of groups {untested} have no test function above"


if __name__ == "__main__":  # TF worker: python test_rawfz20_rules_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
