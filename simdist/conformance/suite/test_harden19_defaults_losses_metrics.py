"""harden19a (issue 29): every loss and metric at its DEFAULTS — values (and losses' gradients) as TF 2.21's.

Each loss class of tf.keras (harden19_training.LOSS_CASES) is built with no arguments and applied to
seeded (y_true, y_pred) of its kind at two scales: probabilities typical and at their edges (exactly
0 and 1, and within 1e-7 of them, where the epsilon clipping of the cross-entropies, KLD and Poisson
shows), regression values ~1 and ~1e-3 (MAPE's epsilon, Huber's delta, the cosine's norm): the loss
and its gradient w.r.t. y_pred. Each metric class (METRIC_CASES; required arguments only) gets two
update_state calls per scale: result() after each. Expected: TF 2.21 + Keras 3.15's
(harden19_reference.json.gz), within harden19_reference's tolerance.
"""

from __future__ import annotations

import pytest

from simdist.conformance.assertions import assert_true
from simdist.conformance.suite import harden19_reference as reference
from simdist.conformance.suite import harden19_training as training

clause = pytest.mark.clause


def _compare(area, names, observe, call_of):
    recorded = reference.load()[area]
    problems = []
    for name in names:
        try:
            got = observe(name)
        except Exception as e:  # noqa: BLE001 - reported with the call, as a failure
            problems.append(f"{call_of(name)}: raised {type(e).__name__}: {str(e)[:200]}")
            continue
        problems += [f"{call_of(name)}: {d}" for d in reference.differences(got, recorded[name])[:4]]
    return problems


@clause("keras.loss.epsilon-clipping", ref="tf221")
def test_harden19_defaults_loss_values_and_gradients(tf, budget):
    """Every loss at its defaults on two scales: value and d loss / d y_pred as TF's."""
    problems = _compare("losses", budget(sorted(training.LOSS_CASES)), lambda n: training.observe_loss(tf, n),
                        lambda n: f"tf.keras.losses.{n}()(y_true, y_pred) [{training.LOSS_CASES[n]}]")
    assert_true(not problems, f"{len(problems)} differences from TF 2.21 (got, but should be):\n  "
                + "\n  ".join(problems[:25]), call="every loss at its defaults")


@clause("keras.metric.update-result-reset", ref="tf221")
def test_harden19_defaults_metric_results(keras, budget):
    """Every metric at its defaults: result() after each of two update_state calls, on two scales, as TF's."""
    problems = _compare("metrics", budget(sorted(training.METRIC_CASES)), lambda n: training.observe_metric(keras, n),
                        lambda n: f"tf.keras.metrics.{n}(**{training.METRIC_CASES[n][0]}) "
                                  f"[{training.METRIC_CASES[n][1]}]")
    assert_true(not problems, f"{len(problems)} differences from TF 2.21 (got, but should be):\n  "
                + "\n  ".join(problems[:25]), call="every metric at its defaults")
