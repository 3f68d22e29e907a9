"""Index arguments by rule (sixty-seventh session, ixsweep67; ixsweep67_cases.py): negative, last, past-the-end,
empty, scalar, rank-2 and int16/uint8/int64 indices through the gathers (gather by axis and batch_dims, gather_nd,
embedding_lookup, tnp/keras take and take_along_axis), the scatters (tensor_scatter_nd_*, scatter_nd, keras scatter),
a tf.Variable's sparse reads and row and N-d scatters (scalar updates, duplicates, the rows a kernel writes before its
index error) eagerly, traced and on a MirroredVariable, one_hot/multi_hot, segment ops, strided slices, roll, reverse,
reverse_sequence and keras slices, optimizers applying IndexedSlices — each case's eager and traced result (or
refusal class) and the gradient (IndexedSlices by its parts), compared with TF 2.21's recorded answers by bits
(`python -m simdist.conformance.suite.test_ixsweep67 --record` rewrites ixsweep67_reference.json.gz)."""

from __future__ import annotations

from typing import Any

import pytest

from simdist.conformance.suite.ixsweep67_cases import REF

_check = REF.check


@pytest.mark.clause("ops.index-errors")
def test_ixsweep67_gathers_by_index_kind_and_dtype(backend: Any) -> None:
    """gather (axis 0/-1/-2, batch_dims), gather_nd, embedding_lookup, tnp and keras take/take_along_axis ×
    int32/int64/int16/uint8 × in range, last, negative, past the end, empty, scalar, rank 2: values, refusals, and
    the gradients (eager; traced, where TF prunes the failed gather and the gradient stands)."""
    _check(backend, "x-gather")


@pytest.mark.clause("ops.index-errors")
def test_ixsweep67_tensor_scatters_by_index_kind(backend: Any) -> None:
    """tensor_scatter_nd_update/add/sub/max/min, scatter_nd, keras scatter/scatter_update by index kind and dtype,
    duplicates (update: the last), scalar updates, rank-1 indices (a batch of depth-1 indices)."""
    _check(backend, "x-scatter")


@pytest.mark.clause("ops.variable-api")
def test_ixsweep67_variable_reads_and_scatters(backend: Any) -> None:
    """A tf.Variable's sparse_read, gather, gather_nd, getitem and the 7 row scatters, 3 N-d scatters and
    compat.v1 scatters by index kind, eager and traced, with full and scalar updates: the result and the variable
    after (the rows a kernel writes before an index error included); int16/uint8 indices; read gradients."""
    _check(backend, "x-variable")


@pytest.mark.clause("mirrored.scatter")
def test_ixsweep67_mirrored_variable_indices(backend: Any) -> None:
    """A MirroredVariable's sparse_read, gather, scatters (scatter_nd_update: variables.Variable's
    NotImplementedError) by index kind, each copy after; sparse_read and gather gradients in strategy.run."""
    _check(backend, "x-mirrored")


@pytest.mark.clause("ops.one-hot")
def test_ixsweep67_one_hot_out_of_range(backend: Any) -> None:
    """one_hot (axis, on/off values, depth 0, an int64 depth), keras one_hot/multi_hot × negative and past-depth
    indices × int32/int64/int16/uint8/int8."""
    _check(backend, "x-onehot")


@pytest.mark.clause("ops.segment-ids")
def test_ixsweep67_segment_ids(backend: Any) -> None:
    """segment_* (sorted, gaps, unsorted, negative ids), unsorted_segment_* (negative ids dropped, past
    num_segments), sparse_segment_* (negative and past indices), keras segment ops; gradients."""
    _check(backend, "x-segment")


@pytest.mark.clause("ops.index-errors")
def test_ixsweep67_slices_roll_reverse(backend: Any) -> None:
    """__getitem__ and strided_slice with negative begin/end/stride and ends out of range (int32/int64 tensors
    and NumPy scalars), tf.slice, roll, reverse, reverse_sequence, keras slice/slice_update/roll; gradients."""
    _check(backend, "x-slice")


@pytest.mark.clause("optim.sparse-updates")
def test_ixsweep67_optimizers_apply_indexed_slices(backend: Any) -> None:
    """SGD (with momentum), Adam, Adagrad, RMSprop applying IndexedSlices with duplicate, unsorted, empty, negative
    and past-the-end indices of int32/int64; convert_to_tensor and add_n of such IndexedSlices."""
    _check(backend, "x-optim")


if __name__ == "__main__":
    import sys
    if "--record" in sys.argv:
        REF.record()
