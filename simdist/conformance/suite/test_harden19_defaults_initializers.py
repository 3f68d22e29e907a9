"""harden19a (issue 29): every initializer's seeded draw at its DEFAULTS, on shapes whose fans differ;
regularizers and constraints at their defaults.

Each initializer class of tf.keras (harden19_training.INITIALIZERS), with seed=1919 and defaults
otherwise, draws for the shapes (7,), (3, 5), (2, 3, 4, 5) and (3, 3, 2, 8) — fan_in, fan_out and
fan_avg all differ on the last three (a He initializer computing Glorot's fan_avg scales by
sqrt(fan_in / fan_avg) != 1) — or refuses the shape (Identity: only 2-D). simdist reproduces TF's
stateless seeded draws bit for bit, so the values are compared EXACTLY, except the QR-based
Orthogonal (LAPACK's rounding; harden19_reference's tolerance). Regularizers (their penalty and
its gradient on a 3x5 weight ~1 and ~1e-3) and constraints (on column norms either side of
MaxNorm's 2 and MinMaxNorm's 1) at their defaults. Expected: TF 2.21 + Keras 3.15's
(harden19_reference.json.gz).
"""

from __future__ import annotations

import pytest

from simdist.conformance.assertions import assert_true
from simdist.conformance.suite import harden19_reference as reference
from simdist.conformance.suite import harden19_training as training

clause = pytest.mark.clause


def _stats(values):
    """The statistics that define the draw's distribution, for the failure message."""
    import numpy as np  # noqa: PLC0415

    a = np.asarray(values, np.float64)
    return f"mean {a.mean():.4g}, std {a.std():.4g}, max|x| {np.abs(a).max():.4g}" if a.size else "empty"


@clause("keras.init.distributions", ref="tf221")
def test_harden19_defaults_initializer_draws(keras, budget):
    """Every initializer's seeded draw on four shapes: TF's values exactly (Orthogonal within 1e-5)."""
    recorded = reference.load()["initializers"]
    problems = []
    for name in budget(sorted(training.INITIALIZERS)):
        tol = {} if name in training.QR_INITIALIZERS else {"rtol": 0.0, "atol_frac": 0.0}
        try:
            got = training.observe_initializer(keras, name)
        except Exception as e:  # noqa: BLE001 - reported with the call, as a failure
            problems.append(f"tf.keras.initializers.{name}(seed={training.INIT_SEED}): raised "
                            f"{type(e).__name__}: {str(e)[:200]}")
            continue
        for shape, want in recorded[name].items():
            for d in reference.differences(got.get(shape), want, **tol)[:1]:
                extra = f" (drawn {_stats(got[shape])}; TF's {_stats(want)})" \
                    if isinstance(want, list) and isinstance(got.get(shape), list) else ""
                problems.append(f"tf.keras.initializers.{name}(seed={training.INIT_SEED})({shape}){d}{extra}")
    assert_true(not problems, f"{len(problems)} draws differ from TF 2.21 (got, but should be):\n  "
                + "\n  ".join(problems[:25]), call="every initializer's seeded draw at its defaults")


@clause("keras.reg.penalties", ref="tf221")
def test_harden19_defaults_regularizer_penalties_and_gradients(tf):
    """L1, L2, L1L2 and OrthogonalRegularizer at their defaults: penalty and gradient as TF's."""
    recorded = reference.load()["regularizers"]
    problems = [f"tf.keras.regularizers.{n}()(w): {d}" for n in training.REGULARIZERS
                for d in reference.differences(training.observe_regularizer(tf, n), recorded[n])[:4]]
    assert_true(not problems, f"{len(problems)} differences from TF 2.21 (got, but should be):\n  "
                + "\n  ".join(problems[:25]), call="every regularizer at its defaults")


@clause("keras.constraints", ref="tf221")
def test_harden19_defaults_constraints_project_as_tf(tf):
    """MaxNorm, MinMaxNorm, NonNeg and UnitNorm at their defaults: the projected weight as TF's."""
    recorded = reference.load()["constraints"]
    problems = [f"tf.keras.constraints.{n}()(w): {d}" for n in training.CONSTRAINTS
                for d in reference.differences(training.observe_constraint(tf, n), recorded[n])[:4]]
    assert_true(not problems, f"{len(problems)} differences from TF 2.21 (got, but should be):\n  "
                + "\n  ".join(problems[:25]), call="every constraint at its defaults")
