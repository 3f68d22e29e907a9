"""Argument validation and dtype acceptance by rule (sixty-second session, vsweep62; vsweep62_cases.py): split/
split_v, concat/stack/unstack, gather/gather_nd with batch_dims, scatter_nd and tensor_scatter_nd_*, the segment ops,
one_hot, reshape/slice/strided_slice/tile/pad/mirror_pad/transpose/reverse/roll, argmax/cumsum/reductions/
l2_normalize/softmax axes, matmul shapes, top_k, pools' and convolutions' window arguments, range/linspace/fill and
where/boolean_mask, each argument at its validity boundaries (axis -rank-1 .. rank, index -1 .. dim, counts size-1 ..
size+1, sizes 0 and 1), the integer arguments in every integer dtype and as Python/NumPy values, and the data
arguments in every TF dtype; eagerly and inside a tf.function (TF's shape inference at trace time), compared with TF
2.21's recorded results: values bit for bit, refusals by exception class (`python -m
simdist.conformance.suite.test_vsweep62 --record` rewrites vsweep62_reference.json.gz). Recorded on this session's
AVX-512 Xeon with oneDNN on: simdist runs the programs under its reference model on any CPU. OPEN (vsweep62_cases.py)
lists the cases left out, with the evidence."""

from __future__ import annotations

from typing import Any

import pytest

from simdist.conformance.suite.vsweep62_cases import REF

_check, _ids = REF.check, REF.ids


@pytest.mark.clause("ops.shape-errors")
@pytest.mark.parametrize("name", _ids("v-split") + _ids("v-join") + _ids("v-shape"))
def test_vsweep62_array_arguments_at_their_bounds(backend: Any, name: str) -> None:
    """split's num and size_splits (-1, zeros, sums off the size), concat/stack/unstack at every axis with shape,
    rank and dtype mismatches and num off the size, reshape/slice/strided_slice/tile/pad (mirror modes' limits)/
    transpose/reverse/roll at and past their bounds, integer arguments in every integer dtype, eager and traced:
    TF 2.21's values or refusal classes."""
    _check(backend, name)


@pytest.mark.clause("ops.index-errors")
@pytest.mark.parametrize("name", _ids("v-gather") + _ids("v-scatter") + _ids("v-segment") + _ids("v-onehot"))
def test_vsweep62_index_ops_at_their_bounds(backend: Any, name: str) -> None:
    """gather/gather_nd (indices -1, 0, dim-1, dim; axis against batch_dims), scatter_nd and tensor_scatter_nd_*
    (indices at the bounds, updates of the wrong shape), sorted and unsorted segment ops (ids unsorted, negative, at
    num_segments, num_segments 0 and -1), one_hot (depth, axis, on/off dtypes), indices in every integer dtype, eager
    and traced: TF 2.21's values or refusal classes."""
    _check(backend, name)


@pytest.mark.clause("ops.argument-errors")
@pytest.mark.clause("ops.index-dtypes")
@pytest.mark.parametrize("name", _ids("v-axis") + _ids("v-misc"))
def test_vsweep62_axes_shapes_and_windows(backend: Any, name: str) -> None:
    """argmax/argmin (output_type), cumsum/cumprod, the reductions, l2_normalize, softmax, expand_dims and squeeze
    at axes -rank-1 .. rank and duplicated; matmul/batch_matmul shape mismatches, top_k's k, pools' ksize/strides,
    conv strides/dilations, range/linspace, fill/zeros with negative dims, where/boolean_mask shapes, eager and
    traced: TF 2.21's values or refusal classes."""
    _check(backend, name)


@pytest.mark.clause("ops.dtype-refusal")
@pytest.mark.parametrize("name", _ids("v-datadt-"))
def test_vsweep62_data_dtypes_by_kernel_table(backend: Any, name: str) -> None:
    """~75 ops' data argument in bool, string, complex64/128, float16, bfloat16, float32/64 and every integer dtype:
    computed where TF 2.21 registers a kernel (the values bit for bit), refused by class where it does not, eager
    and traced."""
    _check(backend, name)


if __name__ == "__main__":
    import sys
    if "--record" in sys.argv:
        REF.record()
