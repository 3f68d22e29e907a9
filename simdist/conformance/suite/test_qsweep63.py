"""keras.ops functions whose TF backend composes several TF ops, crossed by rule (sixty-third session, qsweep63;
qsweep63_cases.py): the binary chains (logaddexp, logaddexp2, hypot, arctan2, heaviside, nextafter, fmod, fmax/fmin,
ldexp, isclose/allclose, divide_no_nan) over every pair of a hazard list, the unary ones (deg2rad, rad2deg, sinc,
signbit, i0, exp2, log2/log10, cbrt, round with decimals, nan_to_num with its replacements, real/imag/angle, diff,
trapezoid, nancumsum/nancumprod), integer and bool operands, the contractions and matrix functions (cdist, kron,
outer, inner, vdot, tensordot, cross, trace, diagonal, diag, diagflat, tri/tril/triu, corrcoef, correlate, vander),
the nan-reductions, linspace/logspace/geomspace, histogram, bincount, digitize, searchsorted, the window functions,
ops.nn's normalizations (normalize, rms/layer/batch normalization, moments, log_softmax) and crossentropies, each with its options
off their defaults, in float16/bfloat16/float32/float64, eagerly, traced, their gradients and inside a Keras model's
call and predict: values bit for bit against TF 2.21's recorded results (`python -m
simdist.conformance.suite.test_qsweep63 --record` rewrites qsweep63_reference.json.gz; every program host-dependent,
recorded on this session's AVX-512 Xeon with oneDNN on). OPEN (qsweep63_cases.py) lists the cases left out."""

from __future__ import annotations

from typing import Any

import pytest

from simdist.conformance.suite.qsweep63_cases import REF

_check, _ids = REF.check, REF.ids


@pytest.mark.clause("keras.ops", "ops.host-cpu")
@pytest.mark.parametrize("name", _ids("q-bin-") + _ids("q-un-") + ["q-int"])
def test_qsweep63_elementwise_chains(backend: Any, name: str) -> None:
    """Binary and unary keras.ops functions written as several TF ops, over hazard pairs, seeded operands and
    broadcast forms, with their options; integer and bool operands; eager, traced and gradients."""
    _check(backend, name)


@pytest.mark.clause("keras.ops", "ops.host-cpu")
@pytest.mark.parametrize("name", _ids("q-lin-"))
def test_qsweep63_contractions_and_matrix_functions(backend: Any, name: str) -> None:
    """cdist, kron, outer, inner, vdot, tensordot, cross, trace/diagonal/diag/diagflat, tri/tril/triu, corrcoef,
    correlate and vander over their options and ranks: values, gradients, traced."""
    _check(backend, name)


@pytest.mark.clause("keras.ops", "ops.host-cpu")
@pytest.mark.parametrize("name", _ids("q-nan-") + ["q-gen"])
def test_qsweep63_nan_reductions_generators_and_counting(backend: Any, name: str) -> None:
    """The nan-reductions and percentiles over data with NaN and infinities, linspace/logspace/geomspace, histogram,
    bincount, digitize, searchsorted and the window functions over their arguments."""
    _check(backend, name)


@pytest.mark.clause("keras.ops", "ops.host-cpu")
@pytest.mark.parametrize("name", _ids("q-nn-") + _ids("q-xent-") + ["q-model", "q-spec"])
def test_qsweep63_normalizations_and_model_calls(backend: Any, name: str) -> None:
    """ops.nn's normalize, rms/layer/batch normalization, moments, softmax/log_softmax/logsumexp over their options;
    the crossentropies over normalized and unnormalized probabilities, exact 0/1, logits, the softmax/sigmoid logits
    shortcut (eager and traced), axis and label ranks, and their gradients; every function's output spec on
    KerasTensors; a chain of composed functions inside a Keras model's call, predict and a tf.function."""
    _check(backend, name)


assert sorted(_ids("q-bin-") + _ids("q-un-") + ["q-int"] + _ids("q-lin-") + _ids("q-nan-") + ["q-gen"]
              + _ids("q-nn-") + _ids("q-xent-") + ["q-model", "q-spec"]) == sorted(REF.programs)

if __name__ == "__main__":
    import sys
    if "--record" in sys.argv:
        REF.record()
