"""Raw ops the thirty-fourth session's survey found missing, added in the thirty-fifth (CholeskyGrad, clause
ops.linalg-more; the Ragged* kernels of tf.ragged's functions, clause ops.ragged; ExtractGlimpse V1, clause
ops.image-glimpse), each against real TensorFlow
2.21: the same raw call on both backends gives the same dtype and values bit for bit, or raises the same exception
class; eagerly, inside a tf.function (the shape functions' trace-time refusals) and under a GradientTape (TF's
registered gradient, or its LookupError where it registers none). Needs the `tf` extra.
"""

from __future__ import annotations

from typing import Any

import pytest

import edge_compare
from edge_programs import sig as _s, tape as _t
from raw_programs import eager as _eager, traced as _traced
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause

_LA = "ops.linalg-more"


def _sig(expr: str, spec: tuple, arg: str) -> Any:
    return _s(expr.replace("R.", "tf.raw_ops."), spec, arg)


def _tape(expr: str, src: str) -> Any:
    """The value and the gradient (densified: RaggedGather's is IndexedSlices on both backends)."""
    run = _t(expr.replace("R.", "tf.raw_ops."), src)

    def dense(tf: Any) -> Any:
        y, g = run(tf)
        return [y, g if g is None else tf.convert_to_tensor(g)]
    return dense


def _chol(n: int, batch: tuple = (), dtype: str = "float32", seed: int = 0) -> str:
    """A CholeskyGrad call on seeded random inputs: l a random matrix with n added to its diagonal (the kernel
    reads the lower triangle only; the value above it is noise), grad a full random matrix. Built elementwise (no
    BLAS or LAPACK), so the inputs do not depend on the host's CPU."""
    shape = tuple(batch) + (n, n)
    a = f"np.random.default_rng({seed}).normal(size={shape!r}) + {n} * np.eye({n})"
    g = f"np.random.default_rng({seed + 1}).normal(size={shape!r})"
    return f"R.CholeskyGrad(l=tf.constant({a}, tf.{dtype}), grad=tf.constant({g}, tf.{dtype}))"


_CHOL_CASES: list[tuple[str, str, Any]] = [
    ('CholeskyGrad float32 1x1', _LA, _eager('R.CholeskyGrad(l=[[2.0]], grad=[[3.0]])')),
    ('CholeskyGrad float32 3x3', _LA, _eager(_chol(3))),
    ('CholeskyGrad float32 batch of 8x8', _LA, _eager(_chol(8, (2,), seed=3))),
    ('CholeskyGrad float64 batch of 5x5', _LA, _eager(_chol(5, (2, 1), "float64", seed=5))),
    ('CholeskyGrad float32 19x19 (Eigen gemv from 19)', _LA, _eager(_chol(19, seed=7))),
    ('CholeskyGrad float64 32x32 (one block)', _LA, _eager(_chol(32, (), "float64", seed=9))),
    ('CholeskyGrad float32 33x33 (two blocks)', _LA, _eager(_chol(33, seed=11))),
    ('CholeskyGrad float64 34x34 (two blocks)', _LA, _eager(_chol(34, (), "float64", seed=13))),
    ('CholeskyGrad zero diagonal', _LA, _eager('R.CholeskyGrad(l=[[1.0, 0.0], [2.0, 0.0]], grad=[[1.0, 5.0], [2.0, 3.0]])')),
    ('CholeskyGrad reads lower triangles', _LA, _eager('R.CholeskyGrad(l=[[2.0, 9.0], [1.0, 3.0]], grad=[[1.0, -7.0], [0.5, 2.0]])')),
    ('CholeskyGrad empty', _LA, _eager('R.CholeskyGrad(l=tf.zeros([3, 0, 0]), grad=tf.zeros([3, 0, 0]))')),
    ('CholeskyGrad shapes differ', _LA, _eager('R.CholeskyGrad(l=tf.eye(2), grad=tf.eye(3))')),
    ('CholeskyGrad not square', _LA, _eager('R.CholeskyGrad(l=tf.ones([2, 3]), grad=tf.ones([2, 3]))')),
    ('CholeskyGrad rank 1', _LA, _eager('R.CholeskyGrad(l=tf.ones([2]), grad=tf.ones([2]))')),
    ('CholeskyGrad ranks differ', _LA, _eager('R.CholeskyGrad(l=tf.eye(2), grad=tf.ones([1, 2, 2]))')),
    ('CholeskyGrad batches differ', _LA, _eager('R.CholeskyGrad(l=tf.ones([2, 2, 2]), grad=tf.ones([3, 2, 2]))')),
    ('CholeskyGrad float16 no kernel', _LA, _eager('R.CholeskyGrad(l=tf.eye(2, dtype=tf.float16), grad=tf.eye(2, dtype=tf.float16))')),
    ('CholeskyGrad int32 refused', _LA, _eager('R.CholeskyGrad(l=[[1]], grad=[[1]])')),
    ('CholeskyGrad dtypes differ', _LA, _eager('R.CholeskyGrad(l=tf.eye(2), grad=tf.eye(2, dtype=tf.float64))')),
    ('CholeskyGrad in a tf.function', _LA, _traced(_chol(4, seed=15))),
    ('CholeskyGrad rank 1 in a tf.function', _LA, _traced('R.CholeskyGrad(l=tf.ones([2]), grad=tf.ones([2]))')),
    ('CholeskyGrad not square in a tf.function', _LA, _traced('R.CholeskyGrad(l=tf.ones([2, 3]), grad=tf.ones([2, 3]))')),
    ('CholeskyGrad grad not square in a tf.function', _LA, _traced('R.CholeskyGrad(l=tf.eye(2), grad=tf.ones([2, 3]))')),
    ('CholeskyGrad of unknown size', _LA, _sig('R.CholeskyGrad(l=x, grad=x)', ([None, None], "float32"), 'tf.eye(3) * 2.0')),
    ('CholeskyGrad under a tape (no gradient)', _LA, _tape('R.CholeskyGrad(l=x, grad=x)', 'tf.eye(2) * 2.0')),
]

_RG = "ops.ragged"
_P = "params_nested_splits=[[0, 2, 2, 5]], params_dense_values=[1.0, 2.0, 3.0, 4.0, 5.0]"
_P2 = "params_nested_splits=[[0, 1, 3], [0, 2, 2, 5]], params_dense_values=[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0], [9.0, 10.0]]"

_GATHER_CASES: list[tuple[str, str, Any]] = [
    ('RaggedGather rows', _RG, _eager(f'R.RaggedGather({_P}, indices=[2, 0, 1, 2], OUTPUT_RAGGED_RANK=1)')),
    ('RaggedGather int32 splits, 2-D indices', _RG, _eager('R.RaggedGather(params_nested_splits=[tf.constant([0, 2, 2, 5], tf.int32)], params_dense_values=[1.0, 2.0, 3.0, 4.0, 5.0], indices=[[2, 0], [1, 2]], OUTPUT_RAGGED_RANK=2)')),
    ('RaggedGather int64 splits, 3-D indices', _RG, _eager('R.RaggedGather(params_nested_splits=[tf.constant([0, 2, 2, 5], tf.int64)], params_dense_values=tf.constant([1, 2, 3, 4, 5], tf.int64), indices=tf.constant([[[2], [0]], [[1], [1]]], tf.int64), OUTPUT_RAGGED_RANK=3)')),
    ('RaggedGather scalar index', _RG, _eager(f'R.RaggedGather({_P}, indices=2, OUTPUT_RAGGED_RANK=0)')),
    ('RaggedGather ragged rank 2, inner dims', _RG, _eager(f'R.RaggedGather({_P2}, indices=[1, 0, 1], OUTPUT_RAGGED_RANK=2)')),
    ('RaggedGather strings', _RG, _eager('R.RaggedGather(params_nested_splits=[[0, 1, 3], [0, 2, 2, 5]], params_dense_values=["a", "b", "c", "d", "e"], indices=tf.constant([1], tf.int64), OUTPUT_RAGGED_RANK=2)')),
    ('RaggedGather empty indices', _RG, _eager(f'R.RaggedGather({_P}, indices=tf.zeros([0], tf.int32), OUTPUT_RAGGED_RANK=1)')),
    ('RaggedGather index out of range', _RG, _eager(f'R.RaggedGather({_P}, indices=[0, 3], OUTPUT_RAGGED_RANK=1)')),
    ('RaggedGather negative index, 2-D', _RG, _eager(f'R.RaggedGather({_P}, indices=[[0], [-1]], OUTPUT_RAGGED_RANK=2)')),
    ('RaggedGather splits past values', _RG, _eager('R.RaggedGather(params_nested_splits=[[0, 2, 2, 6]], params_dense_values=[1.0, 2.0, 3.0, 4.0, 5.0], indices=[0], OUTPUT_RAGGED_RANK=1)')),
    ('RaggedGather splits unsorted', _RG, _eager('R.RaggedGather(params_nested_splits=[[0, 3, 2, 5]], params_dense_values=[1.0, 2.0, 3.0, 4.0, 5.0], indices=[0], OUTPUT_RAGGED_RANK=1)')),
    ('RaggedGather splits negative', _RG, _eager('R.RaggedGather(params_nested_splits=[[-1, 2, 2, 5]], params_dense_values=[1.0, 2.0, 3.0, 4.0, 5.0], indices=[0], OUTPUT_RAGGED_RANK=1)')),
    ('RaggedGather empty splits', _RG, _eager('R.RaggedGather(params_nested_splits=[tf.zeros([0], tf.int64)], params_dense_values=[1.0], indices=tf.zeros([0], tf.int32), OUTPUT_RAGGED_RANK=1)')),
    ('RaggedGather empty splits, an index', _RG, _eager('R.RaggedGather(params_nested_splits=[tf.zeros([0], tf.int64)], params_dense_values=[1.0], indices=[0], OUTPUT_RAGGED_RANK=1)')),
    ('RaggedGather scalar values', _RG, _eager('R.RaggedGather(params_nested_splits=[[0, 1]], params_dense_values=1.0, indices=[0], OUTPUT_RAGGED_RANK=1)')),
    ('RaggedGather float indices', _RG, _eager(f'R.RaggedGather({_P}, indices=[1.0], OUTPUT_RAGGED_RANK=1)')),
    ('RaggedGather no splits', _RG, _eager('R.RaggedGather(params_nested_splits=[], params_dense_values=[1.0], indices=[0], OUTPUT_RAGGED_RANK=1)')),
    ('RaggedGather negative output rank', _RG, _eager(f'R.RaggedGather({_P}, indices=[1], OUTPUT_RAGGED_RANK=-1)')),
    ('RaggedGather in a tf.function', _RG, _traced(f'R.RaggedGather({_P2}, indices=[[1, 0], [1, 1]], OUTPUT_RAGGED_RANK=3)')),
    ('RaggedGather output rank in a tf.function', _RG, _traced(f'R.RaggedGather({_P}, indices=[[1, 0]], OUTPUT_RAGGED_RANK=1)')),
    ('RaggedGather scalar values in a tf.function', _RG, _traced('R.RaggedGather(params_nested_splits=[[0, 1]], params_dense_values=1.0, indices=[0], OUTPUT_RAGGED_RANK=1)')),
    ('RaggedGather matrix splits in a tf.function', _RG, _traced('R.RaggedGather(params_nested_splits=[[[0, 1]]], params_dense_values=[1.0], indices=[0], OUTPUT_RAGGED_RANK=1)')),
    ('RaggedGather index out of range in a tf.function', _RG, _traced(f'R.RaggedGather({_P}, indices=[7], OUTPUT_RAGGED_RANK=1)')),
    ('RaggedGather under a tape', _RG, _tape('R.RaggedGather(params_nested_splits=[[0, 2, 2, 5]], params_dense_values=x, indices=[2, 0, 2], OUTPUT_RAGGED_RANK=1)[1] * tf.range(1.0, 9.0)', 'tf.constant([1.0, 2.0, 3.0, 4.0, 5.0])')),
]

_S = "rt_nested_splits=[[0, 2, 2, 3], [0, 1, 1, 4]], rt_dense_values=[1.0, 2.0, 3.0, 4.0]"
_SPARSE_CASES: list[tuple[str, str, Any]] = [
    ('RaggedTensorToSparse ragged rank 2', _RG, _eager(f'R.RaggedTensorToSparse({_S})')),
    ('RaggedTensorToSparse inner dims', _RG, _eager('R.RaggedTensorToSparse(rt_nested_splits=[[0, 1, 3]], rt_dense_values=[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])')),
    ('RaggedTensorToSparse int32 splits, strings', _RG, _eager('R.RaggedTensorToSparse(rt_nested_splits=[tf.constant([0, 2, 2], tf.int32)], rt_dense_values=["a", "b"])')),
    ('RaggedTensorToSparse empty', _RG, _eager('R.RaggedTensorToSparse(rt_nested_splits=[[0]], rt_dense_values=tf.zeros([0, 2]))')),
    ('RaggedTensorToSparse matrix splits', _RG, _eager('R.RaggedTensorToSparse(rt_nested_splits=[[[0, 1, 2]]], rt_dense_values=[1.0, 2.0])')),
    ('RaggedTensorToSparse scalar values', _RG, _eager('R.RaggedTensorToSparse(rt_nested_splits=[[0, 1, 3]], rt_dense_values=1.0)')),
    ('RaggedTensorToSparse first split', _RG, _eager('R.RaggedTensorToSparse(rt_nested_splits=[[1, 2, 3]], rt_dense_values=[1.0, 2.0, 3.0])')),
    ('RaggedTensorToSparse decreasing', _RG, _eager('R.RaggedTensorToSparse(rt_nested_splits=[[0, 2, 1, 3]], rt_dense_values=[1.0, 2.0, 3.0])')),
    ('RaggedTensorToSparse values length', _RG, _eager('R.RaggedTensorToSparse(rt_nested_splits=[[0, 1, 2]], rt_dense_values=[1.0, 2.0, 3.0])')),
    ('RaggedTensorToSparse nested length', _RG, _eager('R.RaggedTensorToSparse(rt_nested_splits=[[0, 2, 3], [0, 1, 4]], rt_dense_values=[1.0, 2.0, 3.0, 4.0])')),
    ('RaggedTensorToSparse empty splits', _RG, _eager('R.RaggedTensorToSparse(rt_nested_splits=[tf.zeros([0], tf.int64)], rt_dense_values=tf.zeros([0]))')),
    ('RaggedTensorToSparse in a tf.function', _RG, _traced(f'R.RaggedTensorToSparse({_S})')),
    ('RaggedTensorToSparse scalar values in a tf.function', _RG, _traced('R.RaggedTensorToSparse(rt_nested_splits=[[0, 1, 3]], rt_dense_values=1.0)')),
    ('RaggedTensorToSparse matrix splits in a tf.function', _RG, _traced('R.RaggedTensorToSparse(rt_nested_splits=[[[0, 1, 3]]], rt_dense_values=[1.0])')),
    ('RaggedTensorToSparse under a tape', _RG, _tape('R.RaggedTensorToSparse(rt_nested_splits=[[0, 1, 3]], rt_dense_values=x)[1] * tf.range(1.0, 7.0)', 'tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])')),
]

def _rtt(shape: str, values: str, default: str, parts: str, types: str) -> str:
    return (f"R.RaggedTensorToTensor(shape={shape}, values={values}, default_value={default}, "
            f"row_partition_tensors={parts}, row_partition_types={types})")


_V3 = "[1.0, 2.0, 3.0]"
_RS = "['ROW_SPLITS']"
_FV = "['FIRST_DIM_SIZE', 'VALUE_ROWIDS']"
_TO_TENSOR_CASES: list[tuple[str, str, Any]] = [
    ('RaggedTensorToTensor row splits', _RG, _eager(_rtt('[-1, -1]', _V3, '0.0', '[[0, 1, 3]]', _RS))),
    ('RaggedTensorToTensor cropped and padded', _RG, _eager(_rtt('[3, 1]', _V3, '9.0', '[[0, 1, 3]]', _RS))),
    ('RaggedTensorToTensor unknown rank', _RG, _eager(_rtt('-1', _V3, '9.0', '[[0, 1, 3]]', _RS))),
    ('RaggedTensorToTensor value rowids', _RG, _eager(_rtt('[-1, -1]', _V3, '0.0', '[4, [0, 1, 1]]', _FV))),
    ('RaggedTensorToTensor unsorted value rowids', _RG, _eager(_rtt('[-1, -1]', _V3, '0.0', '[3, [1, 0, 1]]', _FV))),
    ('RaggedTensorToTensor value rowids, fewer rows', _RG, _eager(_rtt('[5, 1]', _V3, '0.0', '[2, [0, 1, 1]]', _FV))),
    ('RaggedTensorToTensor ragged rank 2', _RG, _eager(_rtt('[-1, -1, -1]', '[1.0, 2.0, 3.0, 4.0]', '0.0', '[[0, 2, 3], [0, 1, 1, 4]]', "['ROW_SPLITS', 'ROW_SPLITS']"))),
    ('RaggedTensorToTensor splits then rowids', _RG, _eager(_rtt('[-1, -1, -1]', _V3, '0.0', '[[0, 1, 3], [0, 0, 2]]', "['ROW_SPLITS', 'VALUE_ROWIDS']"))),
    ('RaggedTensorToTensor inner dims, vector default', _RG, _eager(_rtt('[-1, -1, 2]', '[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]', '[7.0, 8.0]', '[[0, 1, 3]]', _RS))),
    ('RaggedTensorToTensor int64 splits, strings', _RG, _eager(_rtt('[-1, 2]', "['a', 'b', 'c']", "'z'", '[tf.constant([0, 3, 3], tf.int64)]', _RS))),
    ('RaggedTensorToTensor bool', _RG, _eager(_rtt('[-1, -1]', '[True, False, True]', 'True', '[[0, 0, 3]]', _RS))),
    ('RaggedTensorToTensor int32', _RG, _eager(_rtt('tf.constant([-1, -1], tf.int64)', '[1, 2, 3]', '0', '[[0, 1, 3]]', _RS))),
    ('RaggedTensorToTensor empty values', _RG, _eager(_rtt('[-1, -1]', 'tf.zeros([0])', '0.0', '[[0, 0]]', _RS))),
    ('RaggedTensorToTensor default shape', _RG, _eager(_rtt('[-1, -1, 2]', '[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]', '[7.0, 8.0, 9.0]', '[[0, 1, 3]]', _RS))),
    ('RaggedTensorToTensor default rank', _RG, _eager(_rtt('[2, 2]', _V3, '[0.0, 0.0]', '[[0, 1, 3]]', _RS))),
    ('RaggedTensorToTensor default broadcast', _RG, _eager(_rtt('[-1, -1, 2, 3]', 'tf.ones([3, 2, 3])', '[5.0, 6.0]', '[[0, 1, 3]]', _RS))),
    ('RaggedTensorToTensor rowids first', _RG, _eager(_rtt('[-1, -1]', _V3, '0.0', '[[0, 1, 3]]', "['VALUE_ROWIDS']"))),
    ('RaggedTensorToTensor row lengths', _RG, _eager(_rtt('[-1, -1]', _V3, '0.0', '[[0, 1, 3]]', "['ROW_LENGTHS']"))),
    ('RaggedTensorToTensor unknown type', _RG, _eager(_rtt('[-1, -1]', _V3, '0.0', '[[0, 1, 3]]', "['BAD']"))),
    ('RaggedTensorToTensor no types', _RG, _eager(_rtt('[-1, -1]', _V3, '0.0', '[[0, 1, 3]]', '[]'))),
    ('RaggedTensorToTensor rank', _RG, _eager(_rtt('[-1]', _V3, '0.0', '[[0, 1, 3]]', _RS))),
    ('RaggedTensorToTensor inner shape', _RG, _eager(_rtt('[-1, -1, 3]', '[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]', '0.0', '[[0, 1, 3]]', _RS))),
    ('RaggedTensorToTensor unsorted splits', _RG, _eager(_rtt('[-1, -1]', _V3, '0.0', '[[0, 2, 1]]', _RS))),
    ('RaggedTensorToTensor splits from 1', _RG, _eager(_rtt('[-1, -1]', _V3, '0.0', '[[1, 2, 3]]', _RS))),
    ('RaggedTensorToTensor row id too big', _RG, _eager(_rtt('[-1, -1]', _V3, '0.0', '[3, [0, 1, 5]]', _FV))),
    ('RaggedTensorToTensor negative row id', _RG, _eager(_rtt('[-1, -1]', _V3, '0.0', '[2, [0, -1, 1]]', _FV))),
    ('RaggedTensorToTensor negative first dim', _RG, _eager(_rtt('[-1, -1]', _V3, '0.0', '[-2, [0, 1, 1]]', _FV))),
    ('RaggedTensorToTensor shape -2', _RG, _eager(_rtt('[-2, -1]', _V3, '0.0', '[[0, 1, 3]]', _RS))),
    ('RaggedTensorToTensor scalar shape 5', _RG, _eager(_rtt('5', _V3, '0.0', '[[0, 1, 3]]', _RS))),
    ('RaggedTensorToTensor matrix shape', _RG, _eager(_rtt('[[-1, -1]]', _V3, '0.0', '[[0, 1, 3]]', _RS))),
    ('RaggedTensorToTensor empty first partition', _RG, _eager(_rtt('[-1, -1]', '[1.0]', '0.0', '[tf.zeros([0], tf.int64)]', _RS))),
    ('RaggedTensorToTensor partition past output', _RG, _eager(_rtt('[-1, -1, -1]', _V3, '0.0', '[[0, 1, 3], [0, 1, 1, 1, 3]]', "['ROW_SPLITS', 'ROW_SPLITS']"))),
    ('RaggedTensorToTensor in a tf.function', _RG, _traced(_rtt('[-1, -1, -1]', '[1.0, 2.0, 3.0, 4.0]', '0.0', '[[0, 2, 3], [0, 1, 1, 4]]', "['ROW_SPLITS', 'ROW_SPLITS']"))),
    ('RaggedTensorToTensor rowids first in a tf.function', _RG, _traced(_rtt('[-1, -1]', _V3, '0.0', '[[0, 1, 3]]', "['VALUE_ROWIDS']"))),
    ('RaggedTensorToTensor rank in a tf.function', _RG, _traced(_rtt('[-1]', _V3, '0.0', '[[0, 1, 3]]', _RS))),
    ('RaggedTensorToTensor default rank in a tf.function', _RG, _traced(_rtt('[-1, -1]', _V3, '[0.0]', '[[0, 1, 3]]', _RS))),
    ('RaggedTensorToTensor matrix partition in a tf.function', _RG, _traced(_rtt('[-1, -1]', _V3, '0.0', '[[[0, 1, 3]]]', _RS))),
    ('RaggedTensorToTensor unknown type in a tf.function', _RG, _traced(_rtt('[-1, -1]', _V3, '0.0', '[[0, 1, 3]]', "['BAD']"))),
    ('RaggedTensorToTensor vector first dim in a tf.function', _RG, _traced(_rtt('[-1, -1]', _V3, '0.0', '[[3], [0, 1, 1]]', _FV))),
    ('RaggedTensorToTensor row lengths in a tf.function', _RG, _traced(_rtt('[-1, -1]', _V3, '0.0', '[[0, 1, 3]]', "['ROW_LENGTHS']"))),
    ('RaggedTensorToTensor unknown values in a tf.function', _RG, _sig(_rtt('[-1, -1]', 'x', '0.0', '[[0, 1, 3]]', _RS), ([None], "float32"), '[1.0, 2.0, 3.0]')),
    ('RaggedTensorToTensor under a tape', _RG, _tape(_rtt('[-1, 3, 2]', 'x', '[5.0, 6.0]', '[[0, 1, 3]]', _RS) + ' * tf.reshape(tf.range(1.0, 13.0), [2, 3, 2])', 'tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])')),
    ('RaggedTensorToTensor default under a tape', _RG, _tape(_rtt('[-1, 3, 2]', 'tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])', 'x', '[[0, 1, 3]]', _RS) + ' * tf.reshape(tf.range(1.0, 13.0), [2, 3, 2])', 'tf.constant([5.0, 6.0])')),
]

def _fill(rowids: str, values: str, nrows: str, default: str = '9.0') -> str:
    return (f"R.RaggedFillEmptyRows(value_rowids=tf.constant({rowids}, tf.int64), values={values}, "
            f"nrows=tf.constant({nrows}, tf.int64), default_value={default})")


def _fill_grad(rev: str, grad: str) -> str:
    return f"R.RaggedFillEmptyRowsGrad(reverse_index_map=tf.constant({rev}, tf.int64), grad_values={grad})"


_FILL_CASES: list[tuple[str, str, Any]] = [
    ('RaggedFillEmptyRows', _RG, _eager(_fill('[0, 0, 2, 2, 4]', '[1.0, 2.0, 3.0, 4.0, 5.0]', '6'))),
    ('RaggedFillEmptyRows unordered', _RG, _eager(_fill('[2, 0, 0]', '[1.0, 2.0, 3.0]', '4'))),
    ('RaggedFillEmptyRows full and ordered', _RG, _eager(_fill('[0, 1]', '[1.0, 2.0]', '2'))),
    ('RaggedFillEmptyRows bool', _RG, _eager(_fill('[1, 1]', '[True, False]', '2', 'True'))),
    ('RaggedFillEmptyRows strings', _RG, _eager(_fill('[1]', "['a']", '3', "'z'"))),
    ('RaggedFillEmptyRows no values', _RG, _eager(_fill('[]', 'tf.zeros([0])', '2'))),
    ('RaggedFillEmptyRows no rows', _RG, _eager(_fill('[]', 'tf.zeros([0])', '0'))),
    ('RaggedFillEmptyRows row too big', _RG, _eager(_fill('[0, 5]', '[1.0, 2.0]', '3'))),
    ('RaggedFillEmptyRows negative row', _RG, _eager(_fill('[0, -1]', '[1.0, 2.0]', '3'))),
    ('RaggedFillEmptyRows lengths', _RG, _eager(_fill('[0, 1]', '[1.0, 2.0, 3.0]', '3'))),
    ('RaggedFillEmptyRows vector nrows', _RG, _eager(_fill('[0]', '[1.0]', '[2]'))),
    ('RaggedFillEmptyRows vector default', _RG, _eager(_fill('[0]', '[1.0]', '2', '[9.0]'))),
    ('RaggedFillEmptyRows matrix rowids', _RG, _eager(_fill('[[0]]', '[1.0]', '2'))),
    ('RaggedFillEmptyRows matrix values', _RG, _eager(_fill('[0]', '[[1.0]]', '2'))),
    ('RaggedFillEmptyRows zero rows with values', _RG, _eager(_fill('[0]', "['a']", '0', "'z'"))),
    ('RaggedFillEmptyRows negative nrows', _RG, _eager(_fill('[0]', '[1.0]', '-1'))),
    ('RaggedFillEmptyRows in a tf.function', _RG, _traced(_fill('[2, 0, 0]', '[1.0, 2.0, 3.0]', '4'))),
    ('RaggedFillEmptyRows lengths in a tf.function', _RG, _traced(_fill('[0, 1]', '[1.0, 2.0, 3.0]', '2'))),
    ('RaggedFillEmptyRows matrix rowids in a tf.function', _RG, _traced(_fill('[[0]]', '[1.0]', '2'))),
    ('RaggedFillEmptyRows vector nrows in a tf.function', _RG, _traced(_fill('[0]', '[1.0]', '[2]'))),
    ('RaggedFillEmptyRows under a tape', _RG, _tape(_fill('[2, 0, 0]', 'x', '4') + '[1] * tf.constant([1.0, 2.0, 3.0, 4.0, 5.0])', 'tf.constant([1.0, 2.0, 3.0])')),
    ('RaggedFillEmptyRows default under a tape', _RG, _tape(_fill('[2, 0, 0]', 'tf.constant([1.0, 2.0, 3.0])', '5', 'x') + '[1] * tf.constant([1.0, 2.0, 3.0, 4.0, 5.0, 6.0])', 'tf.constant(9.0)')),
    ('RaggedFillEmptyRowsGrad', _RG, _eager(_fill_grad('[0, 2, 3]', '[1.0, 2.0, 3.0, 4.0, 5.0]'))),
    ('RaggedFillEmptyRowsGrad repeated', _RG, _eager(_fill_grad('[1, 1]', '[1.0, 2.0, 3.0]'))),
    ('RaggedFillEmptyRowsGrad int32', _RG, _eager(_fill_grad('[0]', 'tf.constant([1, 2], tf.int32)'))),
    ('RaggedFillEmptyRowsGrad string no kernel', _RG, _eager(_fill_grad('[0]', "tf.constant(['a', 'b'])"))),
    ('RaggedFillEmptyRowsGrad index out of range', _RG, _eager(_fill_grad('[0, 7]', '[1.0, 2.0, 3.0]'))),
    ('RaggedFillEmptyRowsGrad matrix map', _RG, _eager(_fill_grad('[[0]]', '[1.0, 2.0, 3.0]'))),
    ('RaggedFillEmptyRowsGrad matrix grad', _RG, _eager(_fill_grad('[0]', '[[1.0, 2.0, 3.0]]'))),
    ('RaggedFillEmptyRowsGrad matrix map in a tf.function', _RG, _traced(_fill_grad('[[0]]', '[1.0, 2.0, 3.0]'))),
    ('RaggedFillEmptyRowsGrad under a tape (no gradient)', _RG, _tape(_fill_grad('[0, 2]', 'x') + '[0]', 'tf.constant([1.0, 2.0, 3.0])')),
]

def _bc(splits: str, values: str, size: str, weights: str = 'tf.zeros([0])', extra: str = '') -> str:
    return (f"R.RaggedBincount(splits=tf.constant({splits}, tf.int64), values={values}, size={size}, "
            f"weights={weights}{extra})")


def _cso(splits: str, values: str, weights: str = 'tf.zeros([0])', extra: str = '') -> str:
    return (f"R.RaggedCountSparseOutput(splits=tf.constant({splits}, tf.int64), values={values}, weights={weights}, "
            f"binary_output=False{extra})")


_V5 = '[1, 1, 3, 0, 7]'
_COUNT_CASES: list[tuple[str, str, Any]] = [
    ('RaggedBincount', _RG, _eager(_bc('[0, 2, 5]', _V5, '5'))),
    ('RaggedBincount weights', _RG, _eager(_bc('[0, 2, 5]', _V5, '5', '[0.5, 1.5, 2.0, 3.0, 4.0]'))),
    ('RaggedBincount float weights in order', _RG, _eager(_bc('[0, 3]', '[2, 2, 2]', '3', '[1e8, 1.0, -1e8]'))),
    ('RaggedBincount binary', _RG, _eager(_bc('[0, 2, 5]', _V5, '5', extra=', binary_output=True'))),
    ('RaggedBincount int32 weights, int64 values', _RG, _eager(_bc('[0, 2, 5]', 'tf.constant([1, 1, 3, 0, 7], tf.int64)', 'tf.constant(5, tf.int64)', 'tf.zeros([0], tf.int32)'))),
    ('RaggedBincount splits out of order', _RG, _eager(_bc('[0, 3, 2, 5]', _V5, '5'))),
    ('RaggedBincount matrix values', _RG, _eager(_bc('[0, 2, 5]', '[[1, 1, 3, 0, 7]]', '5'))),
    ('RaggedBincount size 0', _RG, _eager(_bc('[0, 2, 5]', _V5, '0'))),
    ('RaggedBincount negative value', _RG, _eager(_bc('[0, 2, 5]', '[1, -1, 3, 0, 7]', '5'))),
    ('RaggedBincount negative size', _RG, _eager(_bc('[0, 2, 5]', _V5, '-1'))),
    ('RaggedBincount vector size', _RG, _eager(_bc('[0, 2, 5]', _V5, '[5]'))),
    ('RaggedBincount splits end', _RG, _eager(_bc('[0, 2, 4]', _V5, '5'))),
    ('RaggedBincount splits start', _RG, _eager(_bc('[1, 2, 5]', _V5, '5'))),
    ('RaggedBincount empty splits', _RG, _eager(_bc('[]', 'tf.constant([], tf.int32)', '5'))),
    ('RaggedBincount in a tf.function', _RG, _traced(_bc('[[0, 2, 5]]', _V5, '5'))),
    ('RaggedBincount vector size in a tf.function', _RG, _traced(_bc('[0, 2, 5]', _V5, '[5]'))),
    ('RaggedBincount under a tape (no gradient)', _RG, _tape(_bc('[0, 2, 5]', _V5, '5', 'x'), 'tf.constant([0.5, 1.5, 2.0, 3.0, 4.0])')),
    ('RaggedCountSparseOutput', _RG, _eager(_cso('[0, 2, 5]', _V5))),
    ('RaggedCountSparseOutput weights, maxlength', _RG, _eager(_cso('[0, 2, 5]', _V5, '[0.5, 1.5, 2.0, 3.0, 4.0]', ', maxlength=4'))),
    ('RaggedCountSparseOutput binary, minlength', _RG, _eager(_cso('[0, 2, 5]', _V5, extra=', minlength=10').replace('binary_output=False', 'binary_output=True'))),
    ('RaggedCountSparseOutput maxlength 0', _RG, _eager(_cso('[0, 2, 5]', _V5, extra=', maxlength=0'))),
    ('RaggedCountSparseOutput splits out of order', _RG, _eager(_cso('[0, 3, 2, 5]', _V5))),
    ('RaggedCountSparseOutput matrix values, int32 weights', _RG, _eager(_cso('[0, 5]', '[[1, 1, 3, 0, 7]]', 'tf.zeros([0], tf.int32)'))),
    ('RaggedCountSparseOutput negative value', _RG, _eager(_cso('[0, 2, 5]', '[1, -1, 3, 0, 7]'))),
    ('RaggedCountSparseOutput one split', _RG, _eager(_cso('[0]', 'tf.constant([], tf.int32)'))),
    ('RaggedCountSparseOutput splits start', _RG, _eager(_cso('[1, 5]', _V5))),
    ('RaggedCountSparseOutput splits end', _RG, _eager(_cso('[0, 4]', _V5))),
    ('RaggedCountSparseOutput weights shape', _RG, _eager(_cso('[0, 5]', _V5, '[1.0, 2.0]'))),
    ('RaggedCountSparseOutput minlength attr', _RG, _eager(_cso('[0, 5]', _V5, extra=', minlength=-5'))),
    ('RaggedCountSparseOutput in a tf.function', _RG, _traced(_cso('[[0, 5]]', _V5))),
    ('RaggedCountSparseOutput minlength attr in a tf.function', _RG, _traced(_cso('[0, 5]', _V5, extra=', minlength=-5'))),
    ('RaggedCountSparseOutput under a tape (no gradient)', _RG, _tape(_cso('[0, 2, 5]', _V5, 'x') + '[1]', 'tf.constant([0.5, 1.5, 2.0, 3.0, 4.0])')),
]

def _rc(order: str, ragged: str = "", dense: str = "", sparse: str = "", out: str = "tf.string", splits_t: str = "tf.int64",
        hashed: str = "False", buckets: str = "0", key: str = "0") -> str:
    r = ragged or "[], ragged_row_splits=[]"
    sp = sparse or "sparse_indices=[], sparse_values=[], sparse_shape=[]"
    return (f"R.RaggedCross(ragged_values={r}, {sp}, dense_inputs=[{dense}], input_order='{order}', "
            f"hashed_output={hashed}, num_buckets={buckets}, hash_key={key}, out_values_type={out}, "
            f"out_row_splits_type={splits_t})")


_RAB = "[tf.constant(['a', 'b', 'c'])], ragged_row_splits=[tf.constant([0, 2, 3], tf.int64)]"
_D12 = "tf.constant([[1], [2]], tf.int64)"
_SP = ("sparse_indices=[tf.constant([[0, 0], [1, 0], [1, 1]], tf.int64)], sparse_values=[tf.constant([5, 6, 7], tf.int64)], "
       "sparse_shape=[tf.constant([2, 2], tf.int64)]")
_CROSS_CASES: list[tuple[str, str, Any]] = [
    ('RaggedCross strings', _RG, _eager(_rc('RD', _RAB, _D12))),
    ('RaggedCross sparse first', _RG, _eager(_rc('SR', _RAB, sparse=_SP))),
    ('RaggedCross dense, ragged, sparse', _RG, _eager(_rc('DRS', _RAB, "tf.constant([['x', 'y'], ['z', 'w']])", _SP))),
    ('RaggedCross hashed', _RG, _eager(_rc('DR', _RAB, _D12, out='tf.int64', hashed='True', buckets='10', key='7'))),
    ('RaggedCross hashed, no buckets', _RG, _eager(_rc('RD', _RAB, _D12, out='tf.int64', hashed='True'))),
    ('RaggedCross int64 output unhashed', _RG, _eager(_rc('RD', _RAB, _D12, out='tf.int64'))),
    ('RaggedCross string output hashed', _RG, _eager(_rc('RD', _RAB, _D12, hashed='True', buckets='3'))),
    ('RaggedCross int32 splits', _RG, _eager(_rc('R', "[tf.constant([4, 5, 6], tf.int64)], ragged_row_splits=[tf.constant([0, 0, 3], tf.int32)]", splits_t='tf.int32'))),
    ('RaggedCross batches differ', _RG, _eager(_rc('RD', _RAB, "tf.constant([[1], [2], [3]], tf.int64)"))),
    ('RaggedCross input order letter', _RG, _eager(_rc('RX', _RAB, _D12))),
    ('RaggedCross input order length', _RG, _eager(_rc('R', _RAB, _D12))),
    ('RaggedCross int32 values', _RG, _eager(_rc('R', "[tf.constant([1, 2, 3], tf.int32)], ragged_row_splits=[tf.constant([0, 2, 3], tf.int64)]"))),
    ('RaggedCross splits end', _RG, _eager(_rc('R', "[tf.constant(['a', 'b', 'c'])], ragged_row_splits=[tf.constant([0, 2, 4], tf.int64)]"))),
    ('RaggedCross dense rank', _RG, _eager(_rc('RD', _RAB, "tf.constant([1, 2], tf.int64)"))),
    ('RaggedCross in a tf.function', _RG, _traced(_rc('DRS', _RAB, "tf.constant([['x', 'y'], ['z', 'w']])", _SP))),
    ('RaggedCross dense rank in a tf.function', _RG, _traced(_rc('RD', _RAB, "tf.constant([1, 2], tf.int64)"))),
    ('RaggedCross matrix ragged values in a tf.function', _RG, _traced(_rc('R', "[tf.constant([['a', 'b', 'c']])], ragged_row_splits=[tf.constant([0, 2, 3], tf.int64)]"))),
    ('RaggedCross batches differ in a tf.function', _RG, _traced(_rc('RD', _RAB, "tf.constant([[1], [2], [3]], tf.int64)"))),
    ('RaggedCross hashed in a tf.function', _RG, _traced(_rc('SD', dense=_D12, sparse=_SP, out='tf.int64', hashed='True', buckets='100', key='12345'))),
]

_IMG = "tf.reshape(tf.range(1.0, 61.0), [2, 6, 5, 1])"


def _eg(size: str, offsets: str, centered: str = "True", normalized: str = "True", noise: str = "'zero'",
        uniform: str = "False", image: str = _IMG) -> str:
    return (f"R.ExtractGlimpse(input={image}, size={size}, offsets=tf.constant({offsets}), centered={centered}, "
            f"normalized={normalized}, uniform_noise={uniform}, noise={noise})")


_GL = "ops.image-glimpse"
_GLIMPSE_CASES: list[tuple[str, str, Any]] = [
    ('ExtractGlimpse normalized centered', _GL, _eager(_eg('[3, 2]', '[[0.1, -0.3], [0.5, 0.5]]'))),
    ('ExtractGlimpse unnormalized centered', _GL, _eager(_eg('[3, 2]', '[[0.5, -0.5], [2.0, 1.0]]', normalized='False'))),
    ('ExtractGlimpse normalized, not centered', _GL, _eager(_eg('[2, 3]', '[[1.0, 1.0], [0.33, -0.71]]', centered='False'))),
    ('ExtractGlimpse pixel offsets', _GL, _eager(_eg('[3, 2]', '[[0.0, 0.0], [2.7, 1.2]]', 'False', 'False'))),
    ('ExtractGlimpse whole image', _GL, _eager(_eg('[6, 5]', '[[0.0, 0.0], [-1.0, 0.0]]', 'False', 'False'))),
    ('ExtractGlimpse inside, default noise', _GL, _eager("R.ExtractGlimpse(input=" + _IMG + ", size=[2, 2], offsets=tf.constant([[0.0, 0.0], [0.1, 0.1]]))")),
    ('ExtractGlimpse noise and uniform_noise', _GL, _eager(_eg('[3, 2]', '[[0.0, 0.0], [0.0, 0.0]]', uniform='True'))),
    ('ExtractGlimpse unknown noise', _GL, _eager(_eg('[3, 2]', '[[0.0, 0.0], [0.0, 0.0]]', noise="'pink'"))),
    ('ExtractGlimpse input rank', _GL, _eager(_eg('[3, 2]', '[[0.0, 0.0]]', image='tf.ones([6, 5, 1])'))),
    ('ExtractGlimpse offsets batch', _GL, _eager(_eg('[3, 2]', '[[0.0, 0.0]]'))),
    ('ExtractGlimpse negative size', _GL, _eager(_eg('[-3, 2]', '[[0.0, 0.0], [0.0, 0.0]]'))),
    ('ExtractGlimpse in a tf.function', _GL, _traced(_eg('[3, 2]', '[[0.5, -0.5], [2.0, 1.0]]', normalized='False'))),
    ('ExtractGlimpse offsets batch in a tf.function', _GL, _traced(_eg('[3, 2]', '[[0.0, 0.0]]'))),
    ('ExtractGlimpse under a tape (not differentiable)', _GL, _tape(_eg('[3, 2]', '[[0.0, 0.0], [1.0, 1.0]]', 'False', 'False', image='x'), _IMG)),
]

_SIG_CASES: list[tuple[str, str, Any]] = [
    ('RaggedGather of unknown indices', _RG, _sig(f'R.RaggedGather({_P}, indices=x, OUTPUT_RAGGED_RANK=1)', ([None], "int32"), 'tf.constant([2, 0])')),
    ('RaggedTensorToTensor of unknown values', _RG, _sig(_rtt('[-1, -1]', 'x', '0.0', '[tf.constant([0, 1, 3], tf.int64)]', _RS), ([None], "float32"), 'tf.constant([1.0, 2.0, 3.0])')),
    ('RaggedCross of unknown splits', _RG, _sig(_rc('R', "[tf.constant(['a', 'b', 'c'])], ragged_row_splits=[x]"), ([None], "int64"), 'tf.constant([0, 2, 3], tf.int64)')),
]

CASES: list[tuple[str, str, Any]] = (_CHOL_CASES + _GATHER_CASES + _SPARSE_CASES + _TO_TENSOR_CASES + _FILL_CASES
                                     + _COUNT_CASES + _CROSS_CASES + _GLIMPSE_CASES + _SIG_CASES)

EDGES = edge_compare.EdgeModule(__file__, CASES, agree=lambda case: edge_compare.parts_agree)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("ops.linalg-more")
@EDGES.parametrize("ops.linalg-more")
def test_cholesky_grad(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.ragged")
@EDGES.parametrize("ops.ragged")
def test_ragged_kernels(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.image-glimpse")
@EDGES.parametrize("ops.image-glimpse")
def test_extract_glimpse_v1(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


def test_every_case_has_a_test() -> None:
    untested = EDGES.untested()
    assert not untested, f"cases of groups {untested} have no test function above"


if __name__ == "__main__":  # TF worker: python test_rawops35_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
