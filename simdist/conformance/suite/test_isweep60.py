"""Elementwise and reduction gradients w.r.t. every operand at their range ends (sixtieth session, isweep60;
isweep60_cases.py): every differentiable binary op of tf.math and its operator x the operand differentiated (both,
the second alone, the same tensor as both) x broadcasting (equal shapes, scalars on either side, a row, a column,
size-1 dimensions) x values at range ends (+-0 ties, equal values, NaN, +-inf, subnormals, zero divisors, negative
bases) x float16/bfloat16/float32/float64 and complex64/complex128; unary ops' values and gradients at their range
ends; reductions (axis forms x keepdims), argmax/argmin over NaN and ties, cumulative ops exclusive x reverse,
segment ops with empty segments, reverse_sequence with its axes swapped, complex reductions, all with their
gradients, eager and inside a tf.function, compared bit for bit with TF 2.21's recorded results (`python -m
simdist.conformance.suite.test_isweep60 --record` rewrites isweep60_reference.json.gz). Recorded on this session's
AVX-512 Xeon with oneDNN on: simdist runs the programs under its reference model on any CPU. OPEN (isweep60_cases.py)
lists the cases left out, with the evidence."""

from __future__ import annotations

from typing import Any

import pytest

from simdist.conformance.suite.isweep60_cases import REF

_check, _ids = REF.check, REF.ids


@pytest.mark.clause("autodiff.op-gradients")
@pytest.mark.parametrize("name", _ids("i-bin-"))
def test_isweep60_binary_gradients_wrt_every_operand(backend: Any, name: str) -> None:
    """Each binary op's value and gradients w.r.t. both operands, the second alone and the same tensor as both, over
    every broadcasting form and range-end values, eager and traced: TF 2.21's bits."""
    _check(backend, name)


@pytest.mark.clause("autodiff.op-gradients")
@pytest.mark.parametrize("name", _ids("i-unary-"))
def test_isweep60_unary_gradients_at_range_ends(backend: Any, name: str) -> None:
    """Unary ops' values and gradients at +-0, subnormals, +-inf, NaN, poles, domain ends and tails: TF 2.21's
    bits."""
    _check(backend, name)


@pytest.mark.clause("autodiff.op-gradients")
@pytest.mark.parametrize("name", _ids("i-reduce-") + _ids("i-creduce-"))
def test_isweep60_reductions_and_their_gradients(backend: Any, name: str) -> None:
    """reduce_* x axis forms x keepdims over ties, NaN, +-inf, zeros, large offsets and subnormals with their
    gradients, argmax/argmin over NaN and ties, complex reductions' gradients: TF 2.21's bits."""
    _check(backend, name)


@pytest.mark.clause("autodiff.op-gradients")
@pytest.mark.parametrize("name", _ids("i-scan-"))
def test_isweep60_scans_segments_and_reverse_sequence(backend: Any, name: str) -> None:
    """cumsum/cumprod/cumulative_logsumexp exclusive x reverse, segment ops with empty segments and reverse_sequence
    with its axes swapped, with their gradients: TF 2.21's bits."""
    _check(backend, name)


if __name__ == "__main__":
    import sys
    if "--record" in sys.argv:
        REF.record()
