"""keras.ops on empty tensors and with rank-changing arguments, by rule (sixty-seventh session, esweep67;
esweep67_cases.py): every one-tensor function of keras.ops on empty float32/int32/bool tensors; every reduction,
scan, sort and statistic × axis × keepdims on empties (max/min's eager-only refusal); joins, splits and products of
empties; tile/repeat/reshape/broadcast_to/expand_dims/squeeze/pad/moveaxis/swapaxes/transpose/roll/rot90/flip with
shape arguments of other ranks than the input's; one_hot/multi_hot by index rank and axis; arange/linspace/eye/
identity/tri/full/zeros/ones by argument kind with dtype None; result dtypes of joins, selects and pads meeting mixed
dtypes; the same calls in a Lambda and a custom layer under Model.predict — eagerly and inside a tf.function,
compared with TF 2.21 + Keras 3's recorded answers (`python -m simdist.conformance.suite.test_esweep67 --record`
rewrites esweep67_reference.json.gz)."""

from __future__ import annotations

from typing import Any

import pytest

from simdist.conformance.suite.esweep67_cases import REF

_check, _ids = REF.check, REF.ids


@pytest.mark.clause("keras.ops")
@pytest.mark.parametrize("name", _ids("e-unary-"))
def test_esweep67_one_tensor_functions_on_empties(backend: Any, name: str) -> None:
    """Every elementwise, activation, shape-query, scan, sort and creation-like function of keras.ops on empty
    tensors of shapes (0,), (2, 0), (0, 3): TF 2.21's dtypes, shapes and static shapes, or refusal classes."""
    _check(backend, name)


@pytest.mark.clause("keras.ops")
def test_esweep67_reductions_and_statistics_on_empties(backend: Any) -> None:
    """Reductions, scans, sorts, quantiles × axis None/0/-1/tuples × keepdims on empties, eagerly and traced (max/
    min refused eagerly only; `initial`), top_k/searchsorted/bincount/histogram/unique of empties: TF 2.21's."""
    _check(backend, "e-reduce")


@pytest.mark.clause("keras.ops")
@pytest.mark.parametrize("name", ["e-join", "e-shape"])
def test_esweep67_joins_and_rank_changing_shape_arguments(backend: Any, name: str) -> None:
    """Joins/splits/products of empties; tile and repeat with fewer and more repeats than dimensions, reshape with
    -1 and 0, broadcast_to, expand_dims/squeeze tuples, pad widths per axis/one pair/scalar, negative axes: TF's."""
    _check(backend, name)


@pytest.mark.clause("keras.ops")
@pytest.mark.parametrize("name", ["e-onehot"])
def test_esweep67_one_hot_multi_hot_by_index_rank_and_axis(backend: Any, name: str) -> None:
    """one_hot and multi_hot of rank-0..3 indices (empty and negative among them) × axis × num_classes × dtype,
    sparse too: TF 2.21's shapes and values (multi_hot reduces axis 1 of rank ≥ 2 indices)."""
    _check(backend, name)


@pytest.mark.clause("keras.ops.dtype-promotion")
@pytest.mark.parametrize("name", ["e-create", "e-promote"])
def test_esweep67_creation_argument_kinds_and_result_dtypes(backend: Any, name: str) -> None:
    """arange/linspace/logspace/geomspace/eye/identity/tri/full/zeros/ones/empty with Python, NumPy scalar and
    tensor arguments, dtype None (arange(0, 2.5) float32); join/select/where/clip/pad of mixed dtypes: TF 2.21's."""
    _check(backend, name)


@pytest.mark.clause("keras.ops")
def test_esweep67_in_layers_under_predict(backend: Any) -> None:
    """The same calls in a custom layer and in keras.layers.Lambda under Model.predict (the Lambda's output spec
    from the scratch graph: argmax of an empty axis builds and its predict is the kernel's InvalidArgumentError)."""
    _check(backend, "e-layer")


if __name__ == "__main__":
    import sys
    if "--record" in sys.argv:
        REF.record()
