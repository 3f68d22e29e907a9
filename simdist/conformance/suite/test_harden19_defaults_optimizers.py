"""harden19a (issue 29): every optimizer and schedule at its DEFAULTS — updates as TF 2.21's.

Each optimizer class of tf.keras (harden19_training.OPTIMIZERS), built with no arguments, takes
three steps on two keras.Variables — a vector whose gradients are ~1e-6 (where an epsilon 1e-7 vs
1e-8 moves Adam's step by 10%) and a 3x4 matrix with gradients ~1 — on a fixed seeded gradient
sequence; after each step both variables and every optimizer variable (iterations, learning rate,
each slot, by name) must be TF 2.21 + Keras 3.15's (harden19_reference.json.gz, harden19_reference's
tolerance). Each learning-rate schedule with only its required arguments is evaluated at
steps 0..30 (before, at and after its decay steps and boundaries).
"""

from __future__ import annotations

import pytest

from simdist.conformance.assertions import assert_true
from simdist.conformance.suite import harden19_reference as reference
from simdist.conformance.suite import harden19_training as training

clause = pytest.mark.clause


@clause("optim.update-rules", ref="tf221")
def test_harden19_defaults_optimizer_three_steps(tf, budget):
    """Every optimizer at its defaults: variables and slots after each of three steps as TF's."""
    recorded = reference.load()["optimizers"]
    problems = []
    for name in budget(list(training.OPTIMIZERS)):
        try:
            got = training.observe_optimizer(tf, name)
        except Exception as e:  # noqa: BLE001 - reported with the call, as a failure
            problems.append(f"tf.keras.optimizers.{name}(): raised {type(e).__name__}: {str(e)[:200]}")
            continue
        problems += [f"tf.keras.optimizers.{name}(): {d}" for d in reference.differences(got, recorded[name])[:4]]
    assert_true(not problems, f"{len(problems)} differences from TF 2.21 (got, but should be):\n  "
                + "\n  ".join(problems[:25]), call="three apply_gradients steps of every optimizer at its defaults")


@clause("optim.schedules", ref="tf221")
def test_harden19_defaults_schedule_values(keras, budget):
    """Every learning-rate schedule with only its required arguments: its value at steps 0..30 as TF's."""
    recorded = reference.load()["schedules"]
    problems = []
    for name in budget(sorted(training.SCHEDULES)):
        call = f"tf.keras.optimizers.schedules.{name}(**{training.SCHEDULES[name]})"
        try:
            got = training.observe_schedule(keras, name)
        except Exception as e:  # noqa: BLE001
            problems.append(f"{call}: raised {type(e).__name__}: {str(e)[:200]}")
            continue
        problems += [f"{call} at steps {training.SCHEDULE_STEPS}: {d}"
                     for d in reference.differences(got, recorded[name])[:4]]
    assert_true(not problems, f"{len(problems)} differences from TF 2.21 (got, but should be):\n  "
                + "\n  ".join(problems[:25]), call="every schedule at its defaults")
