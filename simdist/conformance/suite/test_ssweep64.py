"""Static shapes of traced ops from partially known inputs, and trace-time shape errors, by rule (sixty-fourth
session, ssweep64; ssweep64_cases.py): each family's inputs as TensorSpecs with every dimension known, each one
unknown in turn, all unknown and of unknown rank, traced by get_concrete_function; per output the static shape
(`shape.as_list()`, None for an unknown rank) and dtype the traced Python sees, or the trace's error class, compared
with TF 2.21's recorded answers (`python -m simdist.conformance.suite.test_ssweep64 --record` rewrites
ssweep64_reference.json.gz). Cases listed in ssweep64_open.txt are left out (OPEN)."""

from __future__ import annotations

from typing import Any

import pytest

from simdist.conformance.suite.ssweep64_cases import REF

_check = REF.check


@pytest.mark.clause("function.static-shapes")
@pytest.mark.parametrize("name", ["s-matmul-family", "s-cross-entropies", "s-join-split", "s-gather-select",
                                  "s-reductions", "s-conv-pool", "s-shapes-and-slices"])
def test_ssweep64_traced_static_shapes(backend: Any, name: str) -> None:
    """matmul (transposes, adjoints, batched), einsum, tensordot, matvec; the cross entropies; concat, stack,
    unstack, split, tile, pad, reshape, squeeze, expand_dims, transpose; gather (batch_dims), gather_nd,
    boolean_mask, where, one_hot; reductions (keepdims, tensor axes), arg ops, top_k, sort, scans, segments;
    convolutions, pooling, resize; broadcasting, fill, range, shape ops, slicing: TF 2.21's static shapes, dtypes and
    trace-time error classes."""
    _check(backend, name)


@pytest.mark.clause("keras.layer.symbolic")
def test_ssweep64_keras_compute_output_shape(backend: Any) -> None:
    """Dense, Conv1D/2D, pooling, DepthwiseConv2D, Conv2DTranspose, Reshape, Flatten, Concatenate, Dot and others'
    compute_output_shape on None dimensions, and the error class of incompatible ones: Keras 3's."""
    _check(backend, "s-keras-output-shapes")


if __name__ == "__main__":
    import sys
    if "--record" in sys.argv:
        REF.record()
