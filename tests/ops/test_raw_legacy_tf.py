"""The older versions of TF's ops and its helper kernels that `tf.raw_ops` still offers (Add, Div, Mod,
Gather, Concat, Reverse, BatchMatMul, MatrixDiag/V2, the V1 stateless random ops, MaxPoolV2, InplaceAdd,
ConcatOffset, UniqueV2, NthElement, PopulationCount, Bincount, LinSpace, ...), each against real TensorFlow
2.21: the same raw call on both backends gives the same dtype and values bit for bit, or raises the same
exception class. Eagerly, a few inside a tf.function and under a GradientTape (simdist records the
successor's ops; the gradient's values are TF's registered gradient's). Needs the `tf` extra. Rule:
docs/spec.md `ops.raw-ops` (simdist/runtime/ops/raw_legacy.py).
"""

from __future__ import annotations

from typing import Any

import pytest

import edge_compare
from edge_programs import eager as _e, tape as _t, traced as _tr
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause

_R = "ops.raw-ops"
_SRC = "tf.reshape(tf.range(1.0, 9.0), [2, 2, 2])"


def _eager(expr: str) -> Any:
    return _e(expr.replace("R.", "tf.raw_ops."))


def _traced(expr: str) -> Any:
    return _tr(expr.replace("R.", "tf.raw_ops."))


def _tape(expr: str, src: str) -> Any:
    """The value and the gradient (densified: Gather's is IndexedSlices on both backends)."""
    run = _t(expr.replace("R.", "tf.raw_ops."), src)

    def dense(tf: Any) -> Any:
        y, g = run(tf)
        return [y, tf.convert_to_tensor(g)]
    return dense


CASES: list[tuple[str, str, Any]] = [
    ('Div int32 by zero', _R, _eager('R.Div(x=tf.constant([-7, 7, -7]), y=tf.constant([2, -2, 0]))')),
    ('Div int32 truncates', _R, _eager('R.Div(x=tf.constant([-7, 7, 7]), y=tf.constant([2, -2, 3]))')),
    ('Div uint8', _R, _eager('R.Div(x=tf.constant([7, 255], tf.uint8), y=tf.constant([2, 3], tf.uint8))')),
    ('Div float32 by zero', _R, _eager('R.Div(x=tf.constant([1.0, -1.0, 0.0]), y=tf.constant([0.0, 0.0, 0.0]))')),
    ('Div bfloat16', _R, _eager('R.Div(x=tf.constant([1.0], tf.bfloat16), y=tf.constant([3.0], tf.bfloat16))')),
    ('Div complex128 by zero', _R, _eager('R.Div(x=tf.constant([1+1j, 2-1j]), y=tf.constant([0j, 1+2j]))')),
    ('Div uint64', _R, _eager('R.Div(x=tf.constant([7], tf.uint64), y=tf.constant([2], tf.uint64))')),
    ('Div int8 min by -1', _R, _eager('R.Div(x=tf.constant([-128], tf.int8), y=tf.constant([-1], tf.int8))')),
    ('Div int32 min by -1', _R, _eager('R.Div(x=tf.constant([-2**31], tf.int32), y=tf.constant([-1], tf.int32))')),
    ('Div broadcast', _R, _eager('R.Div(x=tf.constant([[6.0], [3.0]]), y=tf.constant([2.0, 4.0]))')),
    ('Div bool refused', _R, _eager('R.Div(x=tf.constant([True]), y=tf.constant([True]))')),
    ('Mod int32 truncated', _R, _eager('R.Mod(x=tf.constant([-7, 7]), y=tf.constant([2, -2]))')),
    ('Mod int32 by zero', _R, _eager('R.Mod(x=tf.constant([-7, 7]), y=tf.constant([2, 0]))')),
    ('Mod float32 fmod', _R, _eager('R.Mod(x=tf.constant([-7.5, 7.5, 1.0, np.inf]), y=tf.constant([2.0, -2.0, 0.0, 2.0]))')),
    ('Mod int32 min', _R, _eager('R.Mod(x=tf.constant([-2**31], tf.int32), y=tf.constant([-1], tf.int32))')),
    ('Mod int8 no kernel', _R, _eager('R.Mod(x=tf.constant([3], tf.int8), y=tf.constant([2], tf.int8))')),
    ('Add strings', _R, _eager('R.Add(x=tf.constant(["a", "b"]), y=tf.constant("c"))')),
    ('Add strings shapes', _R, _eager('R.Add(x=tf.constant(["a", "b"]), y=tf.constant(["c", "d", "e"]))')),
    ('Add broadcast', _R, _eager('R.Add(x=tf.constant([[1, 2]]), y=tf.constant([[1], [2]]))')),
    ('Add uint32 refused', _R, _eager('R.Add(x=tf.constant([1], tf.uint32), y=tf.constant([1], tf.uint32))')),
    ('Add bool refused', _R, _eager('R.Add(x=tf.constant([True]), y=tf.constant([True]))')),
    ('Add float16', _R, _eager('R.Add(x=tf.constant([65504.0, 1.0], tf.float16), y=tf.constant([65504.0, 1e-4], tf.float16))')),
    ('Inv float32', _R, _eager('R.Inv(x=tf.constant([2.0, 0.0, -0.0, 3.0]))')),
    ('Inv int32 no kernel', _R, _eager('R.Inv(x=tf.constant([2]))')),
    ('InvGrad', _R, _eager('R.InvGrad(y=tf.constant([2.0, 0.5]), dy=tf.constant([1.0, 3.0]))')),
    ('SoftplusGrad', _R, _eager('R.SoftplusGrad(gradients=tf.constant([1.0, 2.0]), features=tf.constant([0.0, 1.0]))')),
    ('SoftplusGrad extremes', _R, _eager('R.SoftplusGrad(gradients=tf.constant([1.0, 1.0, 1.0, 3.0]), features=tf.constant([-100.0, 100.0, np.nan, -0.5]))')),
    ('SoftplusGrad float64', _R, _eager('R.SoftplusGrad(gradients=tf.constant([0.3, 2.0], tf.float64), features=tf.constant([0.7, -1.3], tf.float64))')),
    ('SoftplusGrad shapes', _R, _eager('R.SoftplusGrad(gradients=tf.constant([1.0, 1.0]), features=tf.constant([1.0]))')),
    ('ApproximateEqual', _R, _eager('R.ApproximateEqual(x=tf.constant([1.0, 2.0]), y=tf.constant([1.000001, 2.1]))')),
    ('ApproximateEqual shapes', _R, _eager('R.ApproximateEqual(x=tf.constant([1.0, 2.0]), y=tf.constant([1.0]))')),
    ('ApproximateEqual nonfinite', _R, _eager('R.ApproximateEqual(x=tf.constant([np.nan, np.inf, 0.0]), y=tf.constant([np.nan, np.inf, -0.0]), tolerance=0.5)')),
    ('ApproximateEqual float64 tolerance', _R, _eager('R.ApproximateEqual(x=tf.constant([1.0, 1.0], tf.float64), y=tf.constant([1.5, 1.4], tf.float64), tolerance=0.5)')),
    ('ApproximateEqual int32 refused', _R, _eager('R.ApproximateEqual(x=tf.constant([1]), y=tf.constant([1]))')),
    ('PopulationCount int16', _R, _eager('R.PopulationCount(x=tf.constant([-1, 7, 0], tf.int16))')),
    ('PopulationCount int64', _R, _eager('R.PopulationCount(x=tf.constant([-1, 2**40], tf.int64))')),
    ('PopulationCount uint64', _R, _eager('R.PopulationCount(x=tf.constant([2**64-1, 5], tf.uint64))')),
    ('PopulationCount int8 matrix', _R, _eager('R.PopulationCount(x=tf.constant([[-128, 127], [3, -3]], tf.int8))')),
    ('PopulationCount float refused', _R, _eager('R.PopulationCount(x=tf.constant([1.0]))')),
    ('ToBool scalars', _R, _eager('[R.ToBool(input=v) for v in (tf.constant(0), tf.constant(2.0), tf.constant(np.nan), tf.constant(False), tf.constant(""), tf.constant("a"), tf.constant(-0.0))]')),
    ('ToBool tensors', _R, _eager('[R.ToBool(input=v) for v in (tf.constant([0]), tf.constant([]), tf.zeros([2, 0]), tf.constant([[1, 2]]), tf.constant([""]))]')),
    ('ToBool complex', _R, _eager('R.ToBool(input=tf.constant(1j))')),
    ('ConjugateTranspose complex', _R, _eager('R.ConjugateTranspose(x=tf.constant([[1 + 2j, 3j]]), perm=[1, 0])')),
    ('ConjugateTranspose real', _R, _eager('R.ConjugateTranspose(x=tf.constant([[1.0, 2.0]]), perm=[1, 0])')),
    ('ConjugateTranspose bad perm', _R, _eager('R.ConjugateTranspose(x=tf.constant([[1 + 2j, 3j]]), perm=[0, 0])')),
    ('BiasAddV1', _R, _eager('R.BiasAddV1(value=tf.ones([2, 3]), bias=tf.constant([1.0, 2.0, 3.0]))')),
    ('BiasAddV1 rank 1', _R, _eager('R.BiasAddV1(value=tf.ones([3]), bias=tf.ones([3]))')),
    ('BiasAddV1 wrong bias', _R, _eager('R.BiasAddV1(value=tf.ones([2, 3]), bias=tf.ones([2]))')),
    ('LinSpace float32', _R, _eager('R.LinSpace(start=0.1, stop=0.7, num=7)')),
    ('LinSpace float64', _R, _eager('R.LinSpace(start=tf.constant(0.1, tf.float64), stop=tf.constant(0.7, tf.float64), num=7)')),
    ('LinSpace one', _R, _eager('R.LinSpace(start=3.0, stop=1.0, num=1)')),
    ('LinSpace zero', _R, _eager('R.LinSpace(start=0.0, stop=1.0, num=0)')),
    ('LinSpace vector start', _R, _eager('R.LinSpace(start=[0.0], stop=1.0, num=3)')),
    ('LinSpace decreasing int64 num', _R, _eager('R.LinSpace(start=5.0, stop=-2.5, num=tf.constant(4, tf.int64))')),
    ('LinSpace thirds', _R, _eager('R.LinSpace(start=-1.0, stop=1.0, num=4)')),
    ('NthElement', _R, _eager('R.NthElement(input=tf.constant([[3.0, 1.0, 2.0], [0.5, -1.0, 4.0]]), n=1)')),
    ('NthElement reverse', _R, _eager('R.NthElement(input=tf.constant([[3.0, 1.0, 2.0]]), n=0, reverse=True)')),
    ('NthElement int32 3d', _R, _eager('R.NthElement(input=tf.reshape(tf.constant([5, 1, 4, 2, 3, 0, 9, 7]), [2, 2, 2]), n=1, reverse=True)')),
    ('NthElement n too big', _R, _eager('R.NthElement(input=tf.constant([[3.0, 1.0, 2.0]]), n=3)')),
    ('NthElement negative n', _R, _eager('R.NthElement(input=tf.constant([[3.0, 1.0, 2.0]]), n=-1)')),
    ('NthElement scalar', _R, _eager('R.NthElement(input=tf.constant(3.0), n=0)')),
    ('NthElement vector n', _R, _eager('R.NthElement(input=tf.constant([[1.0, 2.0]]), n=[0])')),
    ('Concat', _R, _eager('R.Concat(concat_dim=0, values=[tf.constant([1]), tf.constant([2, 3])])')),
    ('Concat axis 1', _R, _eager('R.Concat(concat_dim=1, values=[tf.ones([2, 1]), tf.zeros([2, 2]), tf.ones([2, 1])])')),
    ('Concat vector dim', _R, _eager('R.Concat(concat_dim=[0], values=[tf.constant([1]), tf.constant([2, 3])])')),
    ('Concat one value', _R, _eager('R.Concat(concat_dim=0, values=[tf.constant([1])])')),
    ('Concat mismatch', _R, _eager('R.Concat(concat_dim=0, values=[tf.ones([1, 2]), tf.ones([1, 3])])')),
    ('Gather', _R, _eager('R.Gather(params=tf.constant([[1, 2], [3, 4]]), indices=[1, 0, 1])')),
    ('Gather out of range', _R, _eager('R.Gather(params=tf.constant([[1, 2], [3, 4]]), indices=[2])')),
    ('Gather scalar params', _R, _eager('R.Gather(params=tf.constant(3), indices=[0])')),
    ('Gather negative index', _R, _eager('R.Gather(params=tf.constant([1, 2]), indices=[-1], validate_indices=False)')),
    ('Gather matrix of indices', _R, _eager('R.Gather(params=tf.constant(["a", "b", "c"]), indices=[[2, 0], [1, 1]])')),
    ('Reverse', _R, _eager('R.Reverse(tensor=tf.constant([[1, 2], [3, 4]]), dims=[False, True])')),
    ('Reverse both', _R, _eager('R.Reverse(tensor=tf.reshape(tf.range(6.0), [2, 3]), dims=[True, True])')),
    ('Reverse wrong length', _R, _eager('R.Reverse(tensor=tf.constant([[1, 2], [3, 4]]), dims=[True])')),
    ('Reverse scalar', _R, _eager('R.Reverse(tensor=tf.constant(3), dims=[])')),
    ('Reverse rank 9', _R, _eager('R.Reverse(tensor=tf.ones([1]*9), dims=[True]*9)')),
    ('BatchToSpace', _R, _eager('R.BatchToSpace(input=tf.reshape(tf.range(4.0), [4, 1, 1, 1]), crops=[[0, 0], [0, 0]], block_size=2)')),
    ('BatchToSpace cropped', _R, _eager('R.BatchToSpace(input=tf.reshape(tf.range(16.0), [4, 2, 2, 1]), crops=[[0, 1], [1, 0]], block_size=2)')),
    ('BatchToSpace block 1', _R, _eager('R.BatchToSpace(input=tf.ones([4, 1, 1, 1]), crops=[[0, 0], [0, 0]], block_size=1)')),
    ('BatchToSpace rank 3', _R, _eager('R.BatchToSpace(input=tf.ones([4, 1, 1]), crops=[[0, 0], [0, 0]], block_size=2)')),
    ('MatrixDiag', _R, _eager('R.MatrixDiag(diagonal=tf.constant([[1, 2], [3, 4]]))')),
    ('MatrixDiagPart', _R, _eager('R.MatrixDiagPart(input=tf.constant([[1, 2, 3], [4, 5, 6]]))')),
    ('MatrixSetDiag', _R, _eager('R.MatrixSetDiag(input=tf.zeros([2, 3]), diagonal=tf.constant([1.0, 2.0]))')),
    ('MatrixSetDiag wrong diagonal', _R, _eager('R.MatrixSetDiag(input=tf.zeros([2, 3]), diagonal=tf.constant([1.0, 2.0, 3.0]))')),
    ('MatrixDiagV2 band', _R, _eager('R.MatrixDiagV2(diagonal=tf.constant([[1, 2, 0], [3, 4, 5]]), k=[-1, 0], num_rows=-1, num_cols=-1, padding_value=0)')),
    ('MatrixDiagPartV2 band', _R, _eager('R.MatrixDiagPartV2(input=tf.reshape(tf.range(9), [3, 3]), k=[-1, 1], padding_value=-1)')),
    ('MatrixDiagPartV2 wide', _R, _eager('R.MatrixDiagPartV2(input=tf.reshape(tf.range(12.0), [3, 4]), k=[-2, 2], padding_value=9.0)')),
    ('MatrixSetDiagV2 band', _R, _eager('R.MatrixSetDiagV2(input=tf.zeros([3, 3], tf.int32), diagonal=tf.constant([[1, 2, 0], [3, 4, 5]]), k=[-1, 0])')),
    ('InplaceAdd', _R, _eager('R.InplaceAdd(x=tf.zeros([3, 2]), i=[0, 2], v=tf.ones([2, 2]))')),
    ('InplaceAdd repeated row', _R, _eager('R.InplaceAdd(x=tf.zeros([3, 2]), i=[0, 0], v=tf.ones([2, 2]))')),
    ('InplaceAdd row out of range', _R, _eager('R.InplaceAdd(x=tf.zeros([3, 2]), i=[5, -1], v=tf.constant([[1.0, 1.0], [2.0, 2.0]]))')),
    ('InplaceAdd rows mismatch', _R, _eager('R.InplaceAdd(x=tf.zeros([3, 2]), i=[0], v=tf.ones([2, 2]))')),
    ('InplaceAdd columns mismatch', _R, _eager('R.InplaceAdd(x=tf.zeros([3, 2]), i=[0], v=tf.ones([1, 3]))')),
    ('InplaceAdd scalar i', _R, _eager('R.InplaceAdd(x=tf.zeros([3, 2]), i=1, v=tf.ones([2]))')),
    ('InplaceUpdate repeated row', _R, _eager('R.InplaceUpdate(x=tf.zeros([3, 2]), i=[0, 0], v=tf.constant([[1.0, 1.0], [2.0, 2.0]]))')),
    ('InplaceUpdate strings', _R, _eager('R.InplaceUpdate(x=tf.constant(["a", "b"]), i=[1], v=tf.constant(["c"]))')),
    ('InplaceSub int32', _R, _eager('R.InplaceSub(x=tf.zeros([3, 2], tf.int32), i=[2], v=tf.ones([1, 2], tf.int32))')),
    ('ConcatOffset', _R, _eager('R.ConcatOffset(concat_dim=1, shape=[tf.constant([2, 3]), tf.constant([2, 5]), tf.constant([2, 1])])')),
    ('ConcatOffset mismatch', _R, _eager('R.ConcatOffset(concat_dim=1, shape=[tf.constant([2, 3]), tf.constant([3, 5])])')),
    ('ConcatOffset negative dim', _R, _eager('R.ConcatOffset(concat_dim=-1, shape=[tf.constant([2, 3]), tf.constant([2, 5])])')),
    ('ConcatOffset dim out of range', _R, _eager('R.ConcatOffset(concat_dim=2, shape=[tf.constant([2, 3]), tf.constant([2, 5])])')),
    ('ConcatOffset int64', _R, _eager('R.ConcatOffset(concat_dim=0, shape=[tf.constant([2, 3], tf.int64), tf.constant([2, 3], tf.int64)])')),
    ('UniqueV2 axis 0', _R, _eager('R.UniqueV2(x=tf.constant([[1, 2], [1, 2], [3, 4]]), axis=[0])')),
    ('UniqueV2 axis 1', _R, _eager('R.UniqueV2(x=tf.constant([[1, 1, 2], [3, 3, 4]]), axis=[1])')),
    ('UniqueV2 axis -1', _R, _eager('R.UniqueV2(x=tf.constant([[1, 1, 2], [3, 3, 4]]), axis=[-1])')),
    ('UniqueV2 no axis of a matrix', _R, _eager('R.UniqueV2(x=tf.constant([[1, 1, 2], [3, 3, 4]]), axis=[])')),
    ('UniqueV2 axis out of range', _R, _eager('R.UniqueV2(x=tf.constant([[1, 1, 2], [3, 3, 4]]), axis=[2])')),
    ('UniqueV2 two axes', _R, _eager('R.UniqueV2(x=tf.constant([[1, 1, 2], [3, 3, 4]]), axis=[0, 1])')),
    ('UniqueV2 int64 axis and idx', _R, _eager('R.UniqueV2(x=tf.constant([3, 1, 3]), axis=tf.constant([0], tf.int64), out_idx=tf.int64)')),
    ('UniqueV2 NaN and signed zeros', _R, _eager('R.UniqueV2(x=tf.constant([np.nan, np.nan, 0.0, -0.0]), axis=[0])')),
    ('UniqueV2 empty rows', _R, _eager('R.UniqueV2(x=tf.zeros([0, 2]), axis=[0])')),
    ('UniqueV2 rank 3 axis 1', _R, _eager('R.UniqueV2(x=tf.constant([[[1], [1], [2]], [[1], [1], [3]]]), axis=[1])')),
    ('UniqueWithCountsV2 axis 0', _R, _eager('R.UniqueWithCountsV2(x=tf.constant([[1, 2], [1, 2], [0, 0]]), axis=[0])')),
    ('UniqueWithCountsV2 vector', _R, _eager('R.UniqueWithCountsV2(x=tf.constant([1, 2, 1]), axis=[])')),
    ('ScatterNdNonAliasingAdd', _R, _eager('R.ScatterNdNonAliasingAdd(input=tf.zeros([4]), indices=[[1], [1]], updates=[1.0, 2.0])')),
    ('ScatterNdNonAliasingAdd out of range', _R, _eager('R.ScatterNdNonAliasingAdd(input=tf.zeros([4]), indices=[[5]], updates=[1.0])')),
    ('ScatterNdNonAliasingAdd bool', _R, _eager('R.ScatterNdNonAliasingAdd(input=tf.constant([True, False]), indices=[[1]], updates=[True])')),
    ('BatchMatMul', _R, _eager('R.BatchMatMul(x=tf.reshape(tf.range(12.0), [2, 2, 3]), y=tf.reshape(tf.range(12.0), [2, 3, 2]))')),
    ('BatchMatMul no broadcasting', _R, _eager('R.BatchMatMul(x=tf.ones([2, 2, 3]), y=tf.ones([1, 3, 2]))')),
    ('BatchMatMul ranks differ', _R, _eager('R.BatchMatMul(x=tf.ones([2, 2, 3]), y=tf.ones([3, 2]))')),
    ('BatchMatMul rank 1', _R, _eager('R.BatchMatMul(x=tf.ones([3]), y=tf.ones([3]))')),
    ('BatchMatMul inner mismatch', _R, _eager('R.BatchMatMul(x=tf.ones([2, 3]), y=tf.ones([2, 2]))')),
    ('BatchMatMul adjoint', _R, _eager('R.BatchMatMul(x=tf.reshape(tf.range(6.0), [1, 3, 2]), y=tf.reshape(tf.range(6.0), [1, 3, 2]), adj_x=True)')),
    ('BatchMatMul complex adjoint', _R, _eager('R.BatchMatMul(x=tf.constant([[1 + 1j, 2j], [3, 4 - 1j]]), y=tf.constant([[1j, 1], [2, 0]]), adj_y=True)')),
    ('BatchMatMulV3 int8 to int32', _R, _eager('R.BatchMatMulV3(x=tf.constant([[-128, -128]], tf.int8), y=tf.constant([[127], [-128]], tf.int8), Tout=tf.int32)')),
    ('BatchMatMulV3 uint8', _R, _eager('R.BatchMatMulV3(x=tf.constant([[200, 200]], tf.uint8), y=tf.constant([[200], [200]], tf.uint8), Tout=tf.int32)')),
    ('BatchMatMulV3 bfloat16 with int8', _R, _eager('R.BatchMatMulV3(x=tf.ones([2, 3], tf.bfloat16), y=tf.constant([[1, 2], [3, 4], [5, -6]], tf.int8), Tout=tf.bfloat16)')),
    ('BatchMatMulV3 broadcast', _R, _eager('R.BatchMatMulV3(x=tf.reshape(tf.range(12.0), [2, 2, 3]), y=tf.ones([3, 2]), Tout=tf.float32)')),
    ('BatchMatMulV3 no kernel', _R, _eager('R.BatchMatMulV3(x=tf.ones([2, 3]), y=tf.ones([3, 2]), Tout=tf.float64)')),
    ('TopK v1', _R, _eager('R.TopK(input=tf.constant([3.0, 1.0, 2.0]), k=2)')),
    ('TopK v1 int32', _R, _eager('R.TopK(input=tf.constant([3, 1, 2]), k=1)')),
    ('TileGrad', _R, _eager('R.TileGrad(input=tf.ones([2, 6]), multiples=[2, 3])')),
    ('SelfAdjointEig', _R, _eager('R.SelfAdjointEig(input=tf.constant([[2.0, 1.0], [1.0, 2.0]]))')),
    ('SelfAdjointEig float16', _R, _eager('R.SelfAdjointEig(input=tf.constant([[2.0, 1.0], [1.0, 2.0]], tf.float16))')),
    ('MatrixExponential', _R, _eager('R.MatrixExponential(input=tf.constant([[0.0, 1.0], [0.0, 0.0]]))')),
    ('SegmentSumV2 no kernel', _R, _eager('R.SegmentSumV2(data=tf.ones([3]), segment_ids=[0, 0, 1], num_segments=2)')),
    ('SegmentMaxV2 no kernel', _R, _eager('R.SegmentMaxV2(data=tf.ones([3]), segment_ids=[0, 0, 1], num_segments=2)')),
    ('AccumulateNV2 no kernel', _R, _eager('R.AccumulateNV2(inputs=[tf.ones([2]), tf.ones([2])], shape=[2])')),
    ('DeepCopy', _R, _eager('R.DeepCopy(x=tf.constant([1.5, -2.0]))')),
    ('Copy', _R, _eager('R.Copy(input=tf.constant([[1, 2]], tf.int64))')),
    ('Bincount', _R, _eager('R.Bincount(arr=[1, 1, 3], size=4, weights=[])')),
    ('Bincount weights', _R, _eager('R.Bincount(arr=[1, 1, 3], size=4, weights=[0.5, 1.0, 2.0])')),
    ('Bincount negative', _R, _eager('R.Bincount(arr=[1, -1, 3], size=4, weights=[])')),
    ('Bincount beyond size', _R, _eager('R.Bincount(arr=[1, 5], size=4, weights=[])')),
    ('Bincount negative size', _R, _eager('R.Bincount(arr=[1], size=-1, weights=[])')),
    ('Bincount int32 weights', _R, _eager('R.Bincount(arr=[1, 1], size=3, weights=tf.constant([2, 3]))')),
    ('Bincount weights mismatch', _R, _eager('R.Bincount(arr=[1, 1], size=3, weights=tf.constant([2.0]))')),
    ('Bincount matrix', _R, _eager('R.Bincount(arr=[[1, 1]], size=3, weights=[])')),
    ('InTopK', _R, _eager('R.InTopK(predictions=tf.constant([[0.1, 0.9], [0.8, 0.2]]), targets=[1, 1], k=1)')),
    ('InTopK k 2', _R, _eager('R.InTopK(predictions=tf.constant([[0.1, 0.9, 0.5], [0.8, 0.2, 0.5]]), targets=[2, 2], k=2)')),
    ('InTopK target out of range', _R, _eager('R.InTopK(predictions=tf.constant([[0.1, 0.9]]), targets=[5], k=1)')),
    ('MaxPoolV2', _R, _eager('R.MaxPoolV2(input=tf.reshape(tf.range(16.0), [1, 4, 4, 1]), ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], padding="VALID")')),
    ('MaxPoolV2 SAME', _R, _eager('R.MaxPoolV2(input=tf.reshape(tf.range(25.0), [1, 5, 5, 1]), ksize=[1, 3, 3, 1], strides=[1, 2, 2, 1], padding="SAME")')),
    ('MaxPoolV2 ksize of 3', _R, _eager('R.MaxPoolV2(input=tf.ones([1, 4, 4, 1]), ksize=[1, 2, 2], strides=[1, 2, 2, 1], padding="VALID")')),
    ('MaxPoolV2 NCHW', _R, _eager('R.MaxPoolV2(input=tf.ones([1, 1, 4, 4]), ksize=[1, 1, 2, 2], strides=[1, 1, 2, 2], padding="VALID", data_format="NCHW")')),
    ('MaxPoolGradV2', _R, _eager('R.MaxPoolGradV2(orig_input=tf.reshape(tf.range(16.0), [1, 4, 4, 1]), orig_output=tf.constant([[[[5.0], [7.0]], [[13.0], [15.0]]]]), grad=tf.ones([1, 2, 2, 1]), ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], padding="VALID")')),
    ('MaxPoolGradGradV2', _R, _eager('R.MaxPoolGradGradV2(orig_input=tf.reshape(tf.range(16.0), [1, 4, 4, 1]), orig_output=tf.constant([[[[5.0], [7.0]], [[13.0], [15.0]]]]), grad=tf.reshape(tf.range(16.0), [1, 4, 4, 1]), ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], padding="VALID")')),
    ('StatelessRandomNormal', _R, _eager('R.StatelessRandomNormal(shape=[3], seed=[1, 2])')),
    ('StatelessRandomNormal float64 int64 seed', _R, _eager('R.StatelessRandomNormal(shape=[2, 2], seed=tf.constant([7, -3], tf.int64), dtype=tf.float64)')),
    ('StatelessRandomNormal seed of 3', _R, _eager('R.StatelessRandomNormal(shape=[3], seed=[1, 2, 3])')),
    ('StatelessRandomUniform', _R, _eager('R.StatelessRandomUniform(shape=[4], seed=[5, 6], dtype=tf.float16)')),
    ('StatelessRandomUniformInt', _R, _eager('R.StatelessRandomUniformInt(shape=[3], seed=[1, 2], minval=0, maxval=10)')),
    ('StatelessRandomUniformInt empty range', _R, _eager('R.StatelessRandomUniformInt(shape=[3], seed=[1, 2], minval=5, maxval=5)')),
    ('StatelessRandomUniformInt vector minval', _R, _eager('R.StatelessRandomUniformInt(shape=[3], seed=[1, 2], minval=[0], maxval=5)')),
    ('StatelessRandomUniformFullInt', _R, _eager('R.StatelessRandomUniformFullInt(shape=[3], seed=[1, 2], dtype=tf.int64)')),
    ('StatelessTruncatedNormal', _R, _eager('R.StatelessTruncatedNormal(shape=[5], seed=[9, 9], dtype=tf.bfloat16)')),
    ('StatelessRandomGetAlg', _R, _eager('R.StatelessRandomGetAlg()')),
    ('Div int32 by zero in a tf.function', _R, _traced('R.Div(x=tf.constant([-7, 7, -7]), y=tf.constant([2, -2, 0]))')),
    ('LinSpace float32 in a tf.function', _R, _traced('R.LinSpace(start=0.1, stop=0.7, num=7)')),
    ('NthElement in a tf.function', _R, _traced('R.NthElement(input=tf.constant([[3.0, 1.0, 2.0], [0.5, -1.0, 4.0]]), n=1)')),
    ('MaxPoolGradV2 NCHW', _R, _eager('R.MaxPoolGradV2(orig_input=tf.ones([1, 1, 4, 4]), orig_output=tf.ones([1, 1, 2, 2]), grad=tf.ones([1, 1, 2, 2]), ksize=[1, 1, 2, 2], strides=[1, 1, 2, 2], padding="VALID", data_format="NCHW")')),
    ('MaxPoolGradGradV2 NCHW', _R, _eager('R.MaxPoolGradGradV2(orig_input=tf.ones([1, 1, 4, 4]), orig_output=tf.ones([1, 1, 2, 2]), grad=tf.ones([1, 1, 4, 4]), ksize=[1, 1, 2, 2], strides=[1, 1, 2, 2], padding="VALID", data_format="NCHW")')),
    ('MaxPoolV2 NCHW float64', _R, _eager('R.MaxPoolV2(input=tf.ones([1, 1, 4, 4], tf.float64), ksize=[1, 1, 2, 2], strides=[1, 1, 2, 2], padding="VALID", data_format="NCHW")')),
    ('MaxPoolV2 batch window', _R, _eager('R.MaxPoolV2(input=tf.ones([1, 4, 4, 1]), ksize=[2, 2, 2, 1], strides=[1, 1, 1, 1], padding="VALID")')),
    ('Div int32 broadcast zero', _R, _eager('R.Div(x=tf.constant([[1], [2]]), y=tf.constant([0, 1]))')),
    ('Div int32 empty by zero', _R, _eager('R.Div(x=tf.zeros([0], tf.int32), y=tf.constant([0]))')),
    ('Div int32 shapes and zero', _R, _eager('R.Div(x=tf.constant([1, 2]), y=tf.constant([0, 1, 2]))')),
    ('Mod int64 broadcast zero', _R, _eager('R.Mod(x=tf.constant([[5], [7]], tf.int64), y=tf.constant([0, 3], tf.int64))')),
    ('ScatterNdNonAliasingAdd bool repeated', _R, _eager('R.ScatterNdNonAliasingAdd(input=tf.constant([False, False, True]), indices=[[1], [1], [2]], updates=[True, False, False])')),
    ('BatchMatMul ranks differ in a tf.function', _R, _traced('R.BatchMatMul(x=tf.ones([2, 2, 3]), y=tf.ones([3, 2]))')),
    ('BatchMatMul inner mismatch in a tf.function', _R, _traced('R.BatchMatMul(x=tf.ones([2, 3]), y=tf.ones([2, 2]))')),
    ('BatchMatMul rank 1 in a tf.function', _R, _traced('R.BatchMatMul(x=tf.ones([3]), y=tf.ones([3]))')),
    ('ApproximateEqual float64 default tolerance', _R, _eager('R.ApproximateEqual(x=tf.constant([1.0, 1.0], tf.float64), y=tf.constant([1.0 + 9.99999974737875e-06, 1.0 + 1e-5], tf.float64))')),
    ('Bucketize', _R, _eager('R.Bucketize(input=tf.constant([-1.0, 0.0, 0.5, 1.0, 5.0, np.nan]), boundaries=[0.0, 1.0, 2.0])')),
    ('Bucketize int32', _R, _eager('R.Bucketize(input=tf.constant([[-1, 3], [1, 2]]), boundaries=[0.5, 2.0])')),
    ('Bucketize unsorted', _R, _eager('R.Bucketize(input=tf.constant([1.0]), boundaries=[2.0, 1.0])')),
    ('Bucketize equal boundaries', _R, _eager('R.Bucketize(input=tf.constant([1.0, 2.0]), boundaries=[1.0, 1.0, 2.0])')),
    ('Bucketize int64 through float32', _R, _eager('R.Bucketize(input=tf.constant([2**40, 16777217], tf.int64), boundaries=[16777216.0, 1e12])')),
    ('Bucketize float64 against a float boundary', _R, _eager('R.Bucketize(input=tf.constant([0.1, 0.10000000149011612], tf.float64), boundaries=[0.1])')),
    ('Bucketize no boundaries', _R, _eager('R.Bucketize(input=tf.constant([0.1, -3.0]), boundaries=[])')),
    ('Bucketize float16 refused', _R, _eager('R.Bucketize(input=tf.constant([0.1], tf.float16), boundaries=[0.1])')),
    ('SpaceToBatch', _R, _eager('R.SpaceToBatch(input=tf.reshape(tf.range(4.0), [1, 2, 2, 1]), paddings=[[0, 0], [0, 0]], block_size=2)')),
    ('SpaceToBatch padded', _R, _eager('R.SpaceToBatch(input=tf.reshape(tf.range(9.0), [1, 3, 3, 1]), paddings=[[0, 1], [1, 0]], block_size=2)')),
    ('SpaceToBatch rank 3', _R, _eager('R.SpaceToBatch(input=tf.ones([1, 2, 2]), paddings=[[0, 0], [0, 0]], block_size=2)')),
    ('DataFormatDimMap', _R, _eager('R.DataFormatDimMap(x=tf.constant([0, 1, 2, 3, -1]))')),
    ('DataFormatDimMap NDHWC', _R, _eager('R.DataFormatDimMap(x=tf.constant([0, 1, 2, 3, 4]), src_format="NDHWC", dst_format="NCDHW")')),
    ('DataFormatDimMap lengths differ', _R, _eager('R.DataFormatDimMap(x=tf.constant([0]), src_format="NHWC", dst_format="NCDHW")')),
    ('DataFormatDimMap length 3', _R, _eager('R.DataFormatDimMap(x=tf.constant([0]), src_format="NHW", dst_format="NWH")')),
    ('DataFormatDimMap wraps', _R, _eager('R.DataFormatDimMap(x=tf.constant([5, -5, 7]), src_format="NHWC", dst_format="NCHW")')),
    ('DataFormatDimMap int64 matrix', _R, _eager('R.DataFormatDimMap(x=tf.constant([[1, 2]], tf.int64), src_format="NHWC", dst_format="HWNC")')),
    ('DataFormatVecPermute', _R, _eager('R.DataFormatVecPermute(x=tf.constant([1, 2, 3, 4]))')),
    ('DataFormatVecPermute spatial', _R, _eager('R.DataFormatVecPermute(x=tf.constant([7, 9]), src_format="NHWC", dst_format="NCHW")')),
    ('DataFormatVecPermute size 3', _R, _eager('R.DataFormatVecPermute(x=tf.constant([7, 9, 1]))')),
    ('DataFormatVecPermute NDHWC', _R, _eager('R.DataFormatVecPermute(x=tf.constant([1, 2, 3, 4, 5]), src_format="NDHWC", dst_format="NCDHW")')),
    ('DataFormatVecPermute rows', _R, _eager('R.DataFormatVecPermute(x=tf.constant([[1, 2], [3, 4], [5, 6], [7, 8]]))')),
    ('DataFormatVecPermute spatial rows', _R, _eager('R.DataFormatVecPermute(x=tf.constant([[1, 2], [3, 4]]))')),
    ('DataFormatVecPermute scalar', _R, _eager('R.DataFormatVecPermute(x=tf.constant(1))')),
    ('DataFormatVecPermute HWNC', _R, _eager('R.DataFormatVecPermute(x=tf.constant([1, 2, 3, 4]), src_format="NHWC", dst_format="HWNC")')),
    ('Empty int32', _R, _eager('R.Empty(shape=[2, 3], dtype=tf.int32, init=True)')),
    ('Empty strings', _R, _eager('R.Empty(shape=[2], dtype=tf.string, init=True)')),
    ('Empty no elements', _R, _eager('R.Empty(shape=[0, 4], dtype=tf.float32)')),
    ('Empty matrix shape', _R, _eager('R.Empty(shape=[[2]], dtype=tf.float32, init=True)')),
    ('Empty negative dimension', _R, _eager('R.Empty(shape=[-1], dtype=tf.float32, init=True)')),
    ('ParallelConcat', _R, _eager('R.ParallelConcat(values=[tf.ones([1, 2]), tf.zeros([1, 2])], shape=[2, 2])')),
    ('ParallelConcat one', _R, _eager('R.ParallelConcat(values=[tf.constant([[3, 4]])], shape=[1, 2])')),
    ('ParallelConcat row of two', _R, _eager('R.ParallelConcat(values=[tf.ones([2, 2]), tf.zeros([1, 2])], shape=[3, 2])')),
    ('TensorStridedSliceUpdate', _R, _eager('R.TensorStridedSliceUpdate(input=tf.zeros([4]), begin=[1], end=[3], strides=[1], value=tf.ones([2]))')),
    ('TensorStridedSliceUpdate shape mismatch', _R, _eager('R.TensorStridedSliceUpdate(input=tf.zeros([4]), begin=[1], end=[3], strides=[1], value=tf.ones([3]))')),
    ('TensorStridedSliceUpdate broadcast', _R, _eager('R.TensorStridedSliceUpdate(input=tf.zeros([4]), begin=[1], end=[3], strides=[1], value=tf.constant([5.0]))')),
    ('TensorStridedSliceUpdate int32 strided', _R, _eager('R.TensorStridedSliceUpdate(input=tf.zeros([3, 3], tf.int32), begin=[0, 1], end=[3, 3], strides=[2, 1], value=tf.constant([[1, 2], [3, 4]]))')),
    ('TensorStridedSliceUpdate shrink', _R, _eager('R.TensorStridedSliceUpdate(input=tf.zeros([3, 3]), begin=[1, 0], end=[2, 3], strides=[1, 1], value=tf.constant([1.0, 2.0, 3.0]), shrink_axis_mask=1)')),
    ('TensorStridedSliceUpdate strings reversed', _R, _eager('R.TensorStridedSliceUpdate(input=tf.constant(["a", "b", "c"]), begin=[2], end=[0], strides=[-1], value=tf.constant(["x", "y"]))')),
    ('TensorStridedSliceUpdate dtypes differ', _R, _eager('R.TensorStridedSliceUpdate(input=tf.zeros([4]), begin=[1], end=[3], strides=[1], value=tf.ones([2], tf.float64))')),
    ('CheckNumericsV2 all', _R, _eager('R.CheckNumericsV2(tensor=tf.constant([np.nan, np.inf, -np.inf]), message="m")')),
    ('CheckNumericsV2 -inf and nan', _R, _eager('R.CheckNumericsV2(tensor=tf.constant([np.nan, -np.inf]), message="m")')),
    ('CheckNumericsV2 both infinities', _R, _eager('R.CheckNumericsV2(tensor=tf.constant([np.inf, -np.inf], tf.float64), message="m")')),
    ('CheckNumericsV2 finite', _R, _eager('R.CheckNumericsV2(tensor=tf.constant([1.0, 2.0]), message="m")')),
    ('SparseMatMul', _R, _eager('R.SparseMatMul(a=tf.constant([[1.0, 0.0], [0.1, 2.0]]), b=tf.constant([[3.0, 1.0], [0.0, 0.7]]), a_is_sparse=True)')),
    ('SparseMatMul bfloat16 with float32', _R, _eager('R.SparseMatMul(a=tf.constant([[1.0, 0.0]], tf.bfloat16), b=tf.constant([[3.0], [0.5]]))')),
    ('SparseMatMul transposed', _R, _eager('R.SparseMatMul(a=tf.constant([[1.0, 2.0], [0.0, 4.0]]), b=tf.constant([[3.0, 1.0], [0.0, 0.7]]), transpose_a=True, transpose_b=True, b_is_sparse=True)')),
    ('SparseMatMul incompatible', _R, _eager('R.SparseMatMul(a=tf.ones([2, 3]), b=tf.ones([2, 3]))')),
    ('NonMaxSuppression', _R, _eager('R.NonMaxSuppression(boxes=[[0, 0, 1, 1], [0, 0.1, 1, 1.1], [0, 2, 1, 3.0]], scores=[0.9, 0.8, 0.7], max_output_size=3)')),
    ('NonMaxSuppression iou above 1', _R, _eager('R.NonMaxSuppression(boxes=[[0, 0, 1, 1]], scores=[0.9], max_output_size=3, iou_threshold=1.5)')),
    ('NonMaxSuppressionV2', _R, _eager('R.NonMaxSuppressionV2(boxes=[[0, 0, 1, 1], [0, 0.1, 1, 1.1], [0, 2, 1, 3.0]], scores=[0.9, 0.8, 0.7], max_output_size=2, iou_threshold=0.95)')),
    ('NonMaxSuppressionV4 padded', _R, _eager('R.NonMaxSuppressionV4(boxes=[[0, 0, 1, 1], [0, 0.1, 1, 1.1], [0, 2, 1, 3.0]], scores=[0.9, 0.8, 0.7], max_output_size=3, iou_threshold=0.5, score_threshold=0.0, pad_to_max_output_size=True)')),
    ('NonMaxSuppressionV4 score threshold', _R, _eager('R.NonMaxSuppressionV4(boxes=[[0, 0, 1, 1], [0, 0.1, 1, 1.1], [0, 2, 1, 3.0]], scores=[0.9, 0.8, 0.7], max_output_size=5, iou_threshold=0.5, score_threshold=0.75)')),
    ('DrawBoundingBoxes', _R, _eager('R.DrawBoundingBoxes(images=tf.zeros([1, 4, 4, 1]), boxes=[[[0.0, 0.0, 1.0, 1.0]]])')),
    ('DrawBoundingBoxes rgb two boxes', _R, _eager('R.DrawBoundingBoxes(images=tf.zeros([1, 5, 5, 3]), boxes=[[[0.0, 0.0, 0.5, 0.5], [0.25, 0.25, 1.0, 1.0]]])')),
    ('ImageProjectiveTransformV2', _R, _eager('R.ImageProjectiveTransformV2(images=tf.reshape(tf.range(16.0), [1, 4, 4, 1]), transforms=[[1.0, 0, 1, 0, 1, 0, 0, 0]], output_shape=[4, 4], interpolation="NEAREST")')),
    ('ImageProjectiveTransformV2 bilinear reflect', _R, _eager('R.ImageProjectiveTransformV2(images=tf.reshape(tf.range(16.0), [1, 4, 4, 1]), transforms=[[1.0, 0.2, 0.5, 0.1, 1, -0.5, 0, 0]], output_shape=[3, 5], interpolation="BILINEAR", fill_mode="REFLECT")')),
    ('ApproxTopK', _R, _eager('R.ApproxTopK(input=tf.constant([[3.0, 1.0, 2.0]]), k=2)')),
    ('ApproxTopK min', _R, _eager('R.ApproxTopK(input=tf.constant([[3.0, 1.0, 2.0], [0.5, -1.0, 7.0]]), k=1, is_max_k=False)')),
    ('StatelessRandomGammaV2', _R, _eager('R.StatelessRandomGammaV2(shape=[3], seed=[1, 2], alpha=tf.constant(2.0))')),
    ('StatelessRandomGammaV2 float64 alphas', _R, _eager('R.StatelessRandomGammaV2(shape=[2, 2], seed=[4, 5], alpha=tf.constant([0.5, 3.0], tf.float64))')),
    ('BatchMatrixInverse removed', _R, _eager('R.BatchMatrixInverse(input=tf.eye(2))')),
    ('BatchMatrixBandPart removed', _R, _eager('R.BatchMatrixBandPart(input=tf.ones([3, 3]), num_lower=0, num_upper=1)')),
    ('BatchSvd removed', _R, _eager('R.BatchSvd(input=tf.eye(2))')),
    ('Conv3DBackpropInput removed', _R, _eager('R.Conv3DBackpropInput(input=tf.ones([1, 3, 3, 3, 1]), filter=tf.ones([2, 2, 2, 1, 1]), out_backprop=tf.ones([1, 2, 2, 2, 1]), strides=[1, 1, 1, 1, 1], padding="VALID")')),
    ('FFTND no kernel', _R, _eager('R.FFTND(input=tf.ones([2], tf.complex64), fft_length=[2], axes=[0])')),
    ('CudnnRNN no kernel', _R, _eager('R.CudnnRNN(input=tf.ones([1, 1, 1]), input_h=tf.ones([1, 1, 1]), input_c=tf.ones([1, 1, 1]), params=tf.ones([4]))')),
    ('CrossReplicaSum no kernel', _R, _eager('R.CrossReplicaSum(input=tf.ones([2]), group_assignment=[[0]])')),
    ('BatchFFT no kernel', _R, _eager('R.BatchFFT(input=tf.ones([2], tf.complex64))')),
    ('TensorStridedSliceUpdate under a tape', _R, _tape('R.TensorStridedSliceUpdate(input=x, begin=[0, 1], end=[2, 2], strides=[1, 1], value=x[:, :1, :] * 3.0)', _SRC)),
    ('Bucketize in a tf.function', _R, _traced('R.Bucketize(input=tf.constant([0.5, 1.5]), boundaries=[1.0])')),
    ('FFTND no kernel in a tf.function', _R, _traced('R.FFTND(input=tf.ones([2], tf.complex64), fft_length=[2], axes=[0])')),
    ('BatchSvd removed in a tf.function', _R, _traced('R.BatchSvd(input=tf.eye(2))')),
    ('RandomUniformInt', _R, _eager('[R.RandomUniformInt(shape=[4], minval=0, maxval=10, seed=28, seed2=2801), R.RandomUniformInt(shape=[4], minval=0, maxval=10, seed=28, seed2=2801)]')),
    ('RandomUniformInt int64 wide', _R, _eager('R.RandomUniformInt(shape=[2, 2], minval=tf.constant(-5, tf.int64), maxval=tf.constant(2**40, tf.int64), seed=28, seed2=2802)')),
    ('RandomUniformInt empty range', _R, _eager('R.RandomUniformInt(shape=[3], minval=5, maxval=5, seed=1, seed2=1)')),
    ('RandomUniformInt empty range no elements', _R, _eager('R.RandomUniformInt(shape=[0], minval=5, maxval=5, seed=1, seed2=1)')),
    ('RandomUniformInt vector bound', _R, _eager('R.RandomUniformInt(shape=[3], minval=[0], maxval=5, seed=1, seed2=2)')),
    ('Gather in a tf.function', _R, _traced('R.Gather(params=tf.constant([[1, 2], [3, 4]]), indices=[1, 0, 1])')),
    ('Reverse in a tf.function', _R, _traced('R.Reverse(tensor=tf.constant([[1, 2], [3, 4]]), dims=[False, True])')),
    ('MatrixDiagPartV2 band in a tf.function', _R, _traced('R.MatrixDiagPartV2(input=tf.reshape(tf.range(9), [3, 3]), k=[-1, 1], padding_value=-1)')),
    ('InplaceAdd in a tf.function', _R, _traced('R.InplaceAdd(x=tf.zeros([3, 2]), i=[0, 2], v=tf.ones([2, 2]))')),
    ('ConcatOffset in a tf.function', _R, _traced('R.ConcatOffset(concat_dim=1, shape=[tf.constant([2, 3]), tf.constant([2, 5]), tf.constant([2, 1])])')),
    ('UniqueV2 axis 1 in a tf.function', _R, _traced('R.UniqueV2(x=tf.constant([[1, 1, 2], [3, 3, 4]]), axis=[1])')),
    ('BatchMatMul in a tf.function', _R, _traced('R.BatchMatMul(x=tf.reshape(tf.range(12.0), [2, 2, 3]), y=tf.reshape(tf.range(12.0), [2, 3, 2]))')),
    ('BatchMatMul no broadcasting in a tf.function', _R, _traced('R.BatchMatMul(x=tf.ones([2, 2, 3]), y=tf.ones([1, 3, 2]))')),
    ('StatelessRandomNormal in a tf.function', _R, _traced('R.StatelessRandomNormal(shape=[3], seed=[1, 2])')),
    ('Gather under a tape', _R, _tape('R.Gather(params=x, indices=[1, 0, 1])', _SRC)),
    ('BatchMatMul under a tape', _R, _tape('R.BatchMatMul(x=x, y=tf.reshape(x, [2, 4, 2]))', _SRC)),
    ('Add under a tape', _R, _tape('R.Add(x=x, y=x * x)', _SRC)),
    ('Div under a tape', _R, _tape('R.Div(x=x, y=x + 1.0)', _SRC)),
    ('MatrixDiagPart under a tape', _R, _tape('R.MatrixDiagPart(input=x)', _SRC)),
    ('Reverse under a tape', _R, _tape('R.Reverse(tensor=x, dims=[True, False, True])', _SRC)),
    ('Concat under a tape', _R, _tape('R.Concat(concat_dim=1, values=[x, 2.0 * x])', _SRC)),
    ('NthElement under a tape', _R, _tape('R.NthElement(input=x, n=1, reverse=True)', _SRC)),
    ('ConjugateTranspose under a tape', _R, _tape('R.ConjugateTranspose(x=x, perm=[2, 0, 1])', _SRC)),
    ('BiasAddV1 under a tape', _R, _tape('R.BiasAddV1(value=x, bias=tf.constant([1.0, 2.0]))', _SRC)),
]


def _bits(got: Any, want: Any) -> Any:
    """bits_agree, part by part for complex values (a NaN part matching any NaN)."""
    if got.dtype.kind == "c":
        return (edge_compare.bits_agree(got.real.copy(), want.real.copy())
                & edge_compare.bits_agree(got.imag.copy(), want.imag.copy()))
    return edge_compare.bits_agree(got, want)


EDGES = edge_compare.EdgeModule(__file__, CASES, agree=lambda case: _bits)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("ops.raw-ops")
@EDGES.parametrize("ops.raw-ops")
def test_legacy_raw_ops(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


def test_every_case_has_a_test() -> None:
    untested = EDGES.untested()
    assert not untested, f"cases of groups {untested} have no test function above"


if __name__ == "__main__":  # TF worker: python test_raw_legacy_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
