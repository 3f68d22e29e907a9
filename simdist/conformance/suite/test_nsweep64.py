"""NaN, infinity and payload propagation through Keras losses, metrics, merge and normalization layers and keras.ops
reductions, by rule (sixty-fourth session, nsweep64; nsweep64_cases.py): every keras.losses class and function ×
reduction × sample weights (none, a NaN and a zero, plain) × float32/float64, eager and traced; every keras.metrics
metric updated three times then read; the merge layers in every operand order; normalization layers, masked Softmax
and MultiHeadAttention; keras.ops reductions and statistics — on inputs holding NaNs of distinct payloads and signs,
±inf and -0.0, compared by raw bits (NaN payloads included) with TF 2.21's recorded results (`python -m
simdist.conformance.suite.test_nsweep64 --record` rewrites nsweep64_reference.json.gz). OPEN (nsweep64_cases.py)
lists the cases left out, with the evidence."""

from __future__ import annotations

from typing import Any

import pytest

from simdist.conformance.suite.nsweep64_cases import REF

_check, _ids = REF.check, REF.ids


@pytest.mark.clause("keras.loss.reductions")
@pytest.mark.parametrize("name", _ids("n-loss-"))
def test_nsweep64_losses_propagate_tagged_nans(backend: Any, name: str) -> None:
    """Every loss class × reduction None/sum_over_batch_size/sum × sample weights × float32/float64 (and traced),
    and the loss functions, on NaN-tagged, infinite and -0.0 inputs: TF 2.21's bits or refusal classes."""
    _check(backend, name)


@pytest.mark.clause("keras.loss.reductions")
@pytest.mark.parametrize("name", _ids("n-metric-"))
def test_nsweep64_metrics_accumulate_tagged_nans(backend: Any, name: str) -> None:
    """Every metric's result after one, two (a NaN and a zero sample weight) and three updates on NaN-tagged
    inputs: TF 2.21's bits or refusal classes."""
    _check(backend, name)


@pytest.mark.clause("keras.layer.forward-and-gradients")
@pytest.mark.parametrize("name", ["n-merge", "n-norm"])
def test_nsweep64_layers_keep_their_operands_nans(backend: Any, name: str) -> None:
    """Merge layers in every operand order of two/three NaN-tagged inputs; normalization layers, masked Softmax and
    MultiHeadAttention on NaN/inf inputs: TF 2.21's bits."""
    _check(backend, name)


@pytest.mark.clause("ops.packet-paths")
@pytest.mark.parametrize("name", ["n-ops-reductions"])
def test_nsweep64_ops_reductions_pick_tagged_nans(backend: Any, name: str) -> None:
    """keras.ops reductions, statistics, cumulative ops and softmaxes of NaN-tagged float16/32/64 inputs along each
    axis: TF 2.21's bits (which NaN comes out)."""
    _check(backend, name)


if __name__ == "__main__":
    import sys
    if "--record" in sys.argv:
        REF.record()
