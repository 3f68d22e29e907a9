"""The classes around the seventy-fourth blind batch's mutants (tests/mutants.py TRAINING_BATCH74) that the suite's
first contact missed, each checked as a class, not only the mutant.

Each program runs on the backend under test; its expected result is TF 2.21's, observed by running the same program on
TF (`python -m simdist.conformance.suite.test_blind74_gaps --record`, which rewrites blind74_reference.json.gz). The
recording host is this session's AVX-512 Xeon with oneDNN on (recorded_programs.avx512_with_onednn): the programs whose
bits follow the CPU's kernels are host-dependent, run by simdist under its model of that host (reference_cpu) on any
other CPU. Floats are compared by their bits (hex of the IEEE value)."""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import pytest

from simdist.conformance.suite.recorded_programs import (RecordedPrograms, avx512_with_onednn, bits as _bits,
                                                          reference_cpu, rng)

PATH = os.path.join(os.path.dirname(__file__), "blind74_reference.json.gz")

#: programs whose TF 2.21 bits follow the CPU's kernels (clause ops.host-cpu): the schedules' cosines,
#: normalize's powers and reciprocal square roots
HOST_DEPENDENT = ("schedule-", "util-")

REF = RecordedPrograms(PATH, HOST_DEPENDENT, recording_host=avx512_with_onednn, recording_cpu=reference_cpu)
_program, _ids, _check = REF.add, REF.ids, REF.check


# -- 1. Discretization.adapt's quantile summaries ----------------------------------------------------------------------
def _discretization_epsilons(tf: Any, mk: Any) -> Any:
    """Discretization.adapt's bin boundaries over epsilons other than the default 0.01 (0.003 to 0.1), samples of 97 to
    2,400 values (one summary step of n / (1 / epsilon) values, whose integer part picks every step-th sorted value,
    and compressions of long summaries), adapted at once, from a batched dataset (summaries merged) and from a list of
    arrays; num_bins 3, 7 and 10."""
    r = rng("adapt-discretization-epsilons")
    out = {}
    for eps in (0.003, 0.01, 0.03, 0.05, 0.07, 0.1):
        for n in (97, 500, 900, 1700, 2400):
            data = (r.rand(n) * 14.0 - 3.0).astype(np.float32)
            for bins in (3, 7, 10):
                d = tf.keras.layers.Discretization(num_bins=bins, epsilon=eps)
                d.adapt(data)
                out[f"{eps} {n} {bins} array"] = _bits(np.asarray(d.bin_boundaries, np.float64))
            d = tf.keras.layers.Discretization(num_bins=7, epsilon=eps)
            d.adapt(tf.data.Dataset.from_tensor_slices(data).batch(n // 3 + 1))
            out[f"{eps} {n} dataset"] = _bits(np.asarray(d.bin_boundaries, np.float64))
    return out


_program("adapt-discretization-epsilons", _discretization_epsilons)


# -- 2. learning-rate schedules at their phase boundaries --------------------------------------------------------------
def _warmup_boundaries(tf: Any, mk: Any) -> Any:
    """CosineDecay with a linear warmup at every step from 0 past the end of the decay, for initial/target pairs whose
    difference does not round-trip in float32 ((target − initial) + initial ≠ target: the step at warmup_steps is the
    decay's first value, target · 1, not the warmup's last), warming up and down, alpha 0 and 0.1, warmup and decay
    step counts 1 to 7, steps as Python ints and int64/float32 tensors."""
    keras = tf.keras
    out = {}
    pairs = ((0.1, 0.3), (0.01, 0.05), (0.02, 0.1), (0.04, 0.2), (0.09, 0.7), (0.007, 0.03), (0.2, 0.07), (0.3, 0.02),
             (0.0, 0.1), (0.001, 1.0))
    for a, b in pairs:
        for warm, decay in ((1, 3), (4, 4), (5, 10), (7, 2)):
            for alpha in (0.0, 0.1):
                s = keras.optimizers.schedules.CosineDecay(a, decay, alpha=alpha, warmup_target=b, warmup_steps=warm)
                out[f"{a} {b} {warm} {decay} {alpha}"] = [_bits(s(i)) for i in range(warm + decay + 2)]
        s = keras.optimizers.schedules.CosineDecay(a, 6, warmup_target=b, warmup_steps=3)
        out[f"{a} {b} tensors"] = [_bits(s(tf.constant(i, "int64"))) for i in (2, 3, 4)] + [
            _bits(s(tf.constant(x, "float32"))) for x in (2.5, 3.0, 3.5)]
    return out


_program("schedule-warmup-boundaries", _warmup_boundaries)


# -- 3. keras.utils.normalize ------------------------------------------------------------------------------------------
def _utils_normalize(tf: Any, mk: Any) -> Any:
    """keras.utils.normalize of tensors and arrays, bit for bit: order 2 is x · min(rsqrt(Σx²), 1/ε) (not x / ‖x‖),
    orders 1 and 3 x / max(‖x‖ₚ, ε); rows of every scale (1e-3 to 1e3), a zero row, axes 0, 1 and -1, float32 and
    float64 tensors, and float64 arrays (axes 1 and -1)."""
    r = rng("util-normalize")
    out = {}
    x = (r.rand(7, 5) * 2.0 - 1.0) * np.array([[1e-3], [0.1], [1.0], [3.0], [10.0], [1e3], [0.0]])
    for dtype in ("float32", "float64"):
        t = tf.constant(x.astype(dtype))
        for order in (1, 2, 3):
            for axis in (0, 1, -1):
                out[f"tensor {dtype} {order} {axis}"] = _bits(tf.keras.utils.normalize(t, axis=axis, order=order))
    for order in (1, 2):
        for axis in (1, -1):   # (an array's axis 0 is taken as -1 by Keras: `axis or -1`)
            out[f"array {order} {axis}"] = _bits(tf.keras.utils.normalize(x, axis=axis, order=order))
    return out


_program("util-normalize", _utils_normalize)


# -- the tests -------------------------------------------------------------------------------------------------------
@pytest.mark.clause("keras.layer.normalization-adapt")
@pytest.mark.parametrize("name", _ids("adapt-discretization"))
def test_blind74_discretization_adapt_over_epsilons(backend: Any, name: str) -> None:
    """Discretization.adapt's boundaries over non-default epsilons, sample sizes, batched datasets and bin counts."""
    _check(backend, name)


@pytest.mark.clause("optim.schedules")
@pytest.mark.parametrize("name", _ids("schedule-warmup"))
def test_blind74_warmup_schedules_at_their_phase_boundaries(backend: Any, name: str) -> None:
    """CosineDecay's warmup and decay phases at and around warmup_steps, for target/initial pairs whose difference does
    not round-trip, warming up and down, with alpha, over int and tensor steps."""
    _check(backend, name)


@pytest.mark.clause("keras.utils.data-tools")
@pytest.mark.parametrize("name", _ids("util-normalize"))
def test_blind74_utils_normalize_bit_for_bit(backend: Any, name: str) -> None:
    """keras.utils.normalize over orders, axes, dtypes, scales and a zero row, tensors and arrays."""
    _check(backend, name)


if __name__ == "__main__":
    import sys
    if "--record" in sys.argv:
        REF.record()
