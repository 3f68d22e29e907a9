"""TF's sparse_csr_matrix_ops as Keras's TF backend uses them (numpy.matmul of two SparseTensors): a CSR SparseMatrix
made from a SparseTensor, SparseMatrixSparseMatMul, and back. simdist has no variant tensors, so the matrix is held as
the SparseTensor it was made from."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import numpy as np

from simdist import tf


class _CsrMatrix:
    """A CSR SparseMatrix as TF's sparse_csr_matrix_ops pass it between ops (simdist has no variant tensors: the
    matrix is held as the SparseTensor it was made from)."""

    def __init__(self, st: Any) -> None:
        self.st = st


def _csr_sparse_mat_mul(a: "_CsrMatrix", b: "_CsrMatrix", dtype: Any) -> "_CsrMatrix":
    """SparseMatrixSparseMatMul (Eigen's sparse product, kernels/sparse/sparse_mat_mul_op.cc): per batch, entry (i, j)
    is present when some k has A(i, k) and B(k, j) stored (a stored zero counts), its value the products summed in
    the value dtype over k ascending; the result's indices in row-major order."""
    ai, av, ash = (np.asarray(a.st.indices), np.asarray(a.st.values), np.asarray(a.st.dense_shape))
    bi, bv, bsh = (np.asarray(b.st.indices), np.asarray(b.st.values), np.asarray(b.st.dense_shape))
    if ash[-1] != bsh[-2] or len(ash) != len(bsh):
        raise tf.errors.InvalidArgumentError(
            None, None, f"Inner product dimensions of A and B do not match: shapes {ash.tolist()} vs {bsh.tolist()}")
    batched = len(ash) == 3
    out_idx: list[list[int]] = []
    out_val: list[Any] = []
    for batch in range(int(ash[0]) if batched else 1):
        rows_b: dict[int, list[tuple[int, Any]]] = {}
        for idx, v in zip(bi, bv):
            if batched and idx[0] != batch:
                continue
            rows_b.setdefault(int(idx[-2]), []).append((int(idx[-1]), v))
        entries = sorted(((int(idx[-2]), int(idx[-1]), v) for idx, v in zip(ai, av)
                          if not batched or idx[0] == batch), key=lambda e: (e[0], e[1]))
        acc: dict[tuple[int, int], Any] = {}
        for i, k, x in entries:
            for j, y in sorted(rows_b.get(k, [])):
                prod = av.dtype.type(x * y)
                acc[(i, j)] = prod if (i, j) not in acc else av.dtype.type(acc[(i, j)] + prod)
        for (i, j) in sorted(acc):
            out_idx.append(([batch] if batched else []) + [i, j])
            out_val.append(acc[(i, j)])
    shape = ([int(ash[0])] if batched else []) + [int(ash[-2]), int(bsh[-1])]
    indices = np.asarray(out_idx, np.int64).reshape(-1, len(shape))
    return _CsrMatrix(tf.SparseTensor(indices, np.asarray(out_val, av.dtype), shape))


#: TF's tensorflow.python.ops.linalg.sparse.sparse_csr_matrix_ops, as Keras's sparse-sparse matmul uses it.
sparse_csr_matrix_ops = SimpleNamespace(
    sparse_tensor_to_csr_sparse_matrix=lambda indices, values, dense_shape: _CsrMatrix(
        tf.sparse.reorder(tf.SparseTensor(indices, values, dense_shape))),
    sparse_matrix_sparse_mat_mul=_csr_sparse_mat_mul,
    csr_sparse_matrix_to_sparse_tensor=lambda m, dtype: m.st)
