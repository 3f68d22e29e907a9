"""The shape and index op argument sweep (sixtieth session, qsweep60; qsweep60_cases.py): squeeze, expand_dims,
transpose, reshape, tile, slice, strided_slice and __getitem__, concat, stack/unstack, split, gather, gather_nd,
scatter_nd and tensor_scatter_nd_*, one_hot, reverse, roll, pad, broadcast_to, boolean_mask, where, unique, sort/
argsort, range and the reductions, each argument in every form by rule (negative, repeated, out of range, empty,
omitted; a Python int, list, tuple, an int32 or int64 tensor, a function input), zero-size and rank-0 inputs,
eagerly, inside a tf.function with known shapes and inside one with unknown shapes, and the gradient of a non-uniform
upstream eagerly and traced: TF 2.21's values bit for bit and its error classes (with their messages' key words),
recorded (`python -m simdist.conformance.suite.test_qsweep60 --record` rewrites qsweep60_reference.json.gz). OPEN
(qsweep60_cases.py) lists the cases left out, with the evidence."""

from __future__ import annotations

from typing import Any

import pytest

from simdist.conformance.suite.qsweep60_cases import FAMILIES, REF

_check, _ids = REF.check, REF.ids

_AXES = ("q-squeeze", "q-expand", "q-transpose", "q-reshape", "q-tile", "q-reverse-roll")
_SLICES = ("q-slice", "q-strided", "q-getitem", "q-pad")
_PIECES = ("q-concat", "q-stack", "q-split")
_INDEX = ("q-gather", "q-gather-nd", "q-scatter", "q-one-hot", "q-bcast-mask-where")
_REDUCE = ("q-reduce-sum", "q-reduce-max", "q-reduce-prod", "q-reduce-mean", "q-reduce-euclidean-norm",
           "q-reduce-bool-arg", "q-cumulative")
_OTHER = ("q-unique-sort", "q-range")


@pytest.mark.clause("ops.shape-errors")
@pytest.mark.parametrize("name", _AXES)
def test_qsweep60_axis_and_shape_arguments(backend: Any, name: str) -> None:
    """squeeze/expand_dims/transpose/reshape/tile/reverse/roll: axes negative, named twice (-1 and its positive
    twin), out of range, empty, omitted, as lists, tuples, int32/int64 tensors and function inputs; results,
    error classes eager/traced/unknown-shape, gradients."""
    _check(backend, name)


@pytest.mark.clause("ops.index-errors")
@pytest.mark.parametrize("name", _SLICES)
def test_qsweep60_slices_every_mask_and_pad_mode(backend: Any, name: str) -> None:
    """slice (size -1), strided_slice (every mask, negative strides, clamps), __getitem__ (ellipsis, newaxis, tensor
    indices, out-of-range scalars) and pad (CONSTANT/REFLECT/SYMMETRIC, constant_values, too-large pads)."""
    _check(backend, name)


@pytest.mark.clause("ops.shape-errors")
@pytest.mark.parametrize("name", _PIECES)
def test_qsweep60_concat_stack_split(backend: Any, name: str) -> None:
    """concat (negative axis, one input, zero-size pieces), stack/unstack (axis, num), split (num, sizes with -1,
    a tensor of sizes, sizes that do not add up)."""
    _check(backend, name)


@pytest.mark.clause("ops.gather-batch-dims")
@pytest.mark.parametrize("name", _INDEX)
def test_qsweep60_gather_scatter_one_hot_mask(backend: Any, name: str) -> None:
    """gather (axis, batch_dims negative and both, out-of-range indices on CPU), gather_nd (batch_dims), scatter_nd
    and tensor_scatter_nd_* with duplicates, one_hot (axis, depth 0), broadcast_to, boolean_mask (axis), where."""
    _check(backend, name)


@pytest.mark.clause("ops.argument-errors")
@pytest.mark.parametrize("name", _REDUCE)
def test_qsweep60_reduction_axis_forms(backend: Any, name: str) -> None:
    """reduce_sum/max/prod/mean/euclidean_norm/any/all and argmax/argmin: axis repeated, negative, empty, None, out
    of range, keepdims, int32/int64 tensors and function inputs; cumsum/cumprod/cumulative_logsumexp (axis forms,
    exclusive, reverse) and top_k (k 0 to past the end, sorted, ties); gradients."""
    _check(backend, name)


@pytest.mark.clause("ops.sort")
@pytest.mark.parametrize("name", _OTHER)
def test_qsweep60_unique_sort_range(backend: Any, name: str) -> None:
    """unique/unique_with_counts (out_idx), sort/argsort (stable, direction, ties, NaN), range (dtypes, negative
    delta, empty, delta 0)."""
    _check(backend, name)


assert sorted(_AXES + _SLICES + _PIECES + _INDEX + _REDUCE + _OTHER) == sorted(FAMILIES) == sorted(REF.programs)

if __name__ == "__main__":
    import sys
    if "--record" in sys.argv:
        REF.record()
