"""The value-range sweep (fifty-eighth session, usweep58; usweep58_cases.py): elementwise math at the ends of its
value ranges crossed by rule — every unary op of tf.math/tf.nn in each float dtype (and complex) on the dtype's range
ends (+-0, subnormals, the smallest normal, the top binades, the largest finite value, +-inf, NaN) and the
thresholds of simdist's kernel paths, in whole packets and as a scalar tail, values and gradients, eager and traced;
the binary ops with range hazards over every pair of hazards (and integer extremes); tf.range, tf.linspace,
rounding half-way cases; tf.cast between every dtype pair at the range ends, Truncate, saturate_cast — compared bit
for bit with TF 2.21's recorded results (`python -m simdist.conformance.suite.test_usweep58 --record` rewrites
usweep58_reference.json.gz; recorded on an AVX-512 Xeon with oneDNN on, every program host-dependent: simdist runs
them under its reference model)."""

from __future__ import annotations

from typing import Any

import pytest

from simdist.conformance.suite.usweep58_cases import REF

_check, _ids = REF.check, REF.ids


@pytest.mark.clause("ops.packet-paths")
@pytest.mark.parametrize("name", _ids("u-unary-"))
def test_usweep58_unary_at_range_ends(backend: Any, name: str) -> None:
    """A unary op on each float dtype's range ends and the kernels' thresholds, in packets and the tail, values and
    gradients, traced; complex where TF takes it: TF 2.21's bits."""
    _check(backend, name)


@pytest.mark.clause("ops.packet-paths")
@pytest.mark.parametrize("name", _ids("u-binary-"))
def test_usweep58_binary_over_hazard_pairs(backend: Any, name: str) -> None:
    """A binary op with range hazards over every pair of hazards in each float dtype (integer extremes where it
    takes integers), with gradients, a tail and traced: TF 2.21's bits."""
    _check(backend, name)


@pytest.mark.clause("ops.nonfinite-silent")
@pytest.mark.parametrize("name", _ids("u-range") + _ids("u-linspace") + _ids("u-rounding"))
def test_usweep58_ranges_linspace_rounding(backend: Any, name: str) -> None:
    """tf.range (fractional, falling, int dtypes, inferred dtypes, near 2^24), tf.linspace (num, axis, batched),
    round/rint/floor/ceil half-way cases: TF 2.21's values, dtypes and shapes."""
    _check(backend, name)


@pytest.mark.clause("ops.cast-half-through-float")
@pytest.mark.parametrize("name", _ids("u-cast-"))
def test_usweep58_casts_at_range_ends(backend: Any, name: str) -> None:
    """tf.cast from one dtype to every dtype at the source's range ends, raw Cast with Truncate, saturate_cast,
    cast gradients: TF 2.21's values."""
    _check(backend, name)


if __name__ == "__main__":
    import sys
    if "--record" in sys.argv:
        REF.record()
