"""The reduction-kernel sweep (fifty-seventh session, rsweep57; rsweep57_cases.py): reductions, scans, segment, arg,
sort, top-k, bincount and unique kernels crossed by rule at every boundary size of simdist's sum order (packet,
block, leaf, row preserver, thread split: -1, exactly, +1, x2), over every float, complex, integer and boolean dtype
TF accepts, every axis form (omitted, None, each, negative, lists, empty list) with keepdims both ways, eager and
traced, values -0.0, subnormal, inf and NaN of either sign (compared with its sign and payload), with gradients;
tf.math's and keras.ops' reductions (norm with every ord). Expected results are TF 2.21's, recorded on an AVX-512
Xeon with oneDNN on (`python -m simdist.conformance.suite.test_rsweep57 --record` rewrites
rsweep57_reference.json.gz); programs `rk-` (float sums, means, norms, scans) are host-dependent."""

from __future__ import annotations

from typing import Any

import pytest

from simdist.conformance.suite.rsweep57_cases import REF

_check, _ids = REF.check, REF.ids


@pytest.mark.clause("ops.sum-order")
@pytest.mark.parametrize("name", _ids("rk-sum-"))
def test_rsweep57_sums_at_every_boundary(backend: Any, name: str) -> None:
    """Full sums and means, rows and columns, of every float and complex dtype at each boundary of the sum's order
    (packet, 4-packet block, leaf, 16 preserved rows, the full reduction's thread split) -1, exactly, +1 and x2."""
    _check(backend, name)


@pytest.mark.clause("ops.packet-paths")
@pytest.mark.parametrize("name", [n for n in _ids("rk-axes-") if not n.startswith("rk-axes-prod-")])
def test_rsweep57_every_reduction_every_axis_form(backend: Any, name: str) -> None:
    """reduce_sum/mean/prod/max/min/logsumexp/euclidean_norm/variance/std of a [3, 5, 6] tensor of each float dtype
    (and complex64 where TF has the op) over every axis form, keepdims both ways, eager and traced, with gradients."""
    _check(backend, name)


@pytest.mark.clause("autodiff.op-gradients")
@pytest.mark.parametrize("name", _ids("rk-axes-prod-"))
def test_rsweep57_prod_gradient_axis_order(backend: Any, name: str) -> None:
    """reduce_prod over every axis form (lists in a given order: [-1, 0] is TF's permutation [2, 0, 1]), keepdims
    both ways, eager and traced, forward and gradient: TF 2.21's bits (its _ProdGrad keeps the axes' order)."""
    _check(backend, name)


@pytest.mark.clause("ops.nan-folds")
@pytest.mark.parametrize("name", _ids("rk-specials-"))
def test_rsweep57_special_values_and_empty_reductions(backend: Any, name: str) -> None:
    """Every reduction and argmax/argmin of -0.0, subnormals, +-inf and NaN of either sign (sign and payload
    compared), and of empty tensors (each reduction's identity): TF 2.21's bits."""
    _check(backend, name)


@pytest.mark.clause("ops.integer-mean")
@pytest.mark.parametrize("name", _ids("ri-int-"))
def test_rsweep57_integer_and_boolean_reductions(backend: Any, name: str) -> None:
    """Every reduction over every integer dtype (wrap-around at the extremes, the mean's truncation, refusals) and
    reduce_any/all over every axis form: TF 2.21's."""
    _check(backend, name)


@pytest.mark.clause("keras.ops")
@pytest.mark.parametrize("name", _ids("rk-keras-"))
def test_rsweep57_keras_ops_reductions_and_norms(backend: Any, name: str) -> None:
    """keras.ops sum/mean/var/std/logsumexp/max/min/prod/amax/amin/any/all over every axis form and keepdims, and
    norm with every vector and matrix ord, with gradients: TF 2.21's (Keras 3's TensorFlow backend)."""
    _check(backend, name)


@pytest.mark.clause("ops.reverse-norm-scan")
@pytest.mark.parametrize("name", _ids("rk-scans-"))
def test_rsweep57_scans(backend: Any, name: str) -> None:
    """cumsum/cumprod/cumulative_logsumexp with exclusive and reverse, each axis and the default, eager and traced,
    with gradients, long scans, keras.ops' cumsum/cumprod: TF 2.21's bits."""
    _check(backend, name)


@pytest.mark.clause("ops.segment-ids")
@pytest.mark.parametrize("name", _ids("rk-segment"))
def test_rsweep57_segment_reductions(backend: Any, name: str) -> None:
    """segment_* and unsorted_segment_* (every reduction; empty segments, num_segments larger, negative ids, 2-D ids,
    errors), eager and traced, with gradients: TF 2.21's bits."""
    _check(backend, name)


@pytest.mark.clause("ops.argmax")
@pytest.mark.parametrize("name", _ids("ri-argmax"))
def test_rsweep57_argmax_argmin(backend: Any, name: str) -> None:
    """argmax/argmin with the axis omitted, each axis, output_type, ties at packet boundaries, NaN, signed zeros,
    every dtype, keras.ops': TF 2.21's."""
    _check(backend, name)


@pytest.mark.clause("ops.sort")
@pytest.mark.parametrize("name", _ids("ri-sort"))
def test_rsweep57_sort_top_k(backend: Any, name: str) -> None:
    """sort/argsort (direction, stable, axis), top_k (k 0/1/n, sorted, ties, NaN, gradient), in_top_k: TF 2.21's."""
    _check(backend, name)


@pytest.mark.clause("ops.counting")
@pytest.mark.parametrize("name", _ids("ri-bincount"))
def test_rsweep57_bincount_unique(backend: Any, name: str) -> None:
    """math.bincount (weights, minlength/maxlength, dtype, binary_output, axis) and unique/unique_with_counts
    (out_idx, signed zeros, NaN, strings, empty): TF 2.21's."""
    _check(backend, name)


if __name__ == "__main__":
    import sys
    if "--record" in sys.argv:
        REF.record()
