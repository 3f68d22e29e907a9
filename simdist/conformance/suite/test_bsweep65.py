"""NaN, infinity and signalling-NaN bits through elementwise ops by dtype, by rule (sixty-fifth session, bsweep65;
bsweep65_cases.py): every unary math and activation op, the binary arithmetic, min/max, pow, x-functions,
comparisons, where and clip, the reductions and the casts between float dtypes and complex × float16, bfloat16,
float32, float64, complex64, complex128 × quiet NaNs of distinct payloads and signs, signalling NaNs, ±inf, ±0, the
smallest subnormal, the largest finite, ±1 and domain edges × lengths 1, 7, 8, 9, 16, 17, 33 (packets and tails),
eager and traced, compared by raw bits with TF 2.21's recorded results (`python -m
simdist.conformance.suite.test_bsweep65 --record` rewrites bsweep65_reference.json.gz). OPEN (bsweep65_cases.py)
lists the cases left out, with the evidence."""

from __future__ import annotations

from typing import Any

import pytest

from simdist.conformance.suite.bsweep65_cases import REF

_check, _ids = REF.check, REF.ids


@pytest.mark.clause("ops.packet-paths")
@pytest.mark.parametrize("name", _ids("b-unary-"))
def test_bsweep65_unary_ops_keep_tf_nan_bits(backend: Any, name: str) -> None:
    """Every unary op of one dtype on its special values at seven lengths, eager and traced: TF 2.21's bits (a
    signalling NaN quieted or kept, plog/pasin's all-ones NaN, bfloat16's packet 0x7fc0 and tail sign) or refusal
    classes."""
    _check(backend, name)


@pytest.mark.clause("ops.packet-paths")
@pytest.mark.parametrize("name", _ids("b-binary-"))
def test_bsweep65_binary_ops_pick_tf_nan(backend: Any, name: str) -> None:
    """Every binary op of one dtype on pairs of special-value vectors (NaN against NaN of another payload, both
    operand orders), eager and traced: TF 2.21's bits (which NaN, quieted) or refusal classes."""
    _check(backend, name)


@pytest.mark.clause("ops.simd-signed-zeros")
@pytest.mark.parametrize("name", ["b-reduce"])
def test_bsweep65_reductions_keep_tf_nan_bits(backend: Any, name: str) -> None:
    """reduce_max/min/sum/prod/mean/logsumexp and argmax/argmin of special-value vectors of every dtype at eleven
    lengths: TF 2.21's bits."""
    _check(backend, name)


@pytest.mark.clause("ops.cast-half-through-float")
@pytest.mark.parametrize("name", ["b-cast"])
def test_bsweep65_casts_carry_tf_nan_bits(backend: Any, name: str) -> None:
    """Casts between float16, bfloat16, float32, float64, complex64 and complex128 of special values: TF 2.21's bits
    (a float16 signalling NaN widened quieted, vcvtps2ph's payload, bfloat16's sign-only NaN)."""
    _check(backend, name)


if __name__ == "__main__":
    import sys
    if "--record" in sys.argv:
        REF.record()
