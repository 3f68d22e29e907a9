"""harden20 (issue 29): losses, metrics, optimizers, schedules and split_dataset at their source's edges.

From the constants of TF 2.21 / Keras 3.15's own source (harden20_edges): losses on probabilities at each
epsilon and 1 - epsilon with one ulp either side and on errors at each threshold (Huber's delta, the
hinge's margin); metrics on scores at each threshold and one ulp either side, result() after each of
three updates (the last weighted); optimizers (at their defaults and at non-default option combinations)
on gradients at the epsilon magnitudes and thresholds, the variable and every optimizer variable after
each of three steps; schedules at every integer constant times 1, 2, 3 and 7 and one step either side;
split_dataset at fractions whose product with the length is a half or beside it. Expected: TF's
(harden20_reference).
"""

from __future__ import annotations

import pytest

from simdist.conformance.assertions import assert_true
from simdist.conformance.suite import harden20_compare as compare
from simdist.conformance.suite import harden20_reference as reference

clause = pytest.mark.clause


@clause("keras.loss.epsilon-clipping", ref="tf221")
def test_harden20_edges_loss_values_and_gradients(tf, budget):
    """Every loss target at its epsilons and thresholds: per-sample values and d loss / d y_pred."""
    n, found = compare.problems(tf, "loss", budget)
    assert_true(not found, compare.message(n, found, "losses"), call="loss edges")


@clause("keras.metric.update-result-reset", ref="tf221")
def test_harden20_edges_metric_results(tf, budget):
    """Every metric target on scores at its thresholds: result() after each of three updates."""
    n, found = compare.problems(tf, "metric", budget)
    assert_true(not found, compare.message(n, found, "metrics"), call="metric edges")


@clause("optim.update-rules", ref="tf221")
def test_harden20_edges_optimizer_steps(tf, budget):
    """Every optimizer target on gradients at its epsilon magnitudes and thresholds: three steps' state."""
    n, found = compare.problems(tf, "optimizer", budget)
    assert_true(not found, compare.message(n, found, "optimizers"), call="optimizer edges")


@clause("optim.schedules", ref="tf221")
def test_harden20_edges_schedule_boundaries(tf, budget):
    """Every schedule at each integer constant's multiples and one step either side."""
    n, found = compare.problems(tf, "schedule", budget)
    assert_true(not found, compare.message(n, found, "schedules"), call="schedule boundaries")


@clause("keras.utils.data-tools", ref="tf221")
def test_harden20_edges_split_dataset_rounding(tf, budget):
    """split_dataset(10 rows) at fractions whose product with 10 is k + 0.4, k + 0.5, k + 0.6: each part."""
    n, found = compare.problems(tf, "split", budget)
    assert_true(not found, compare.message(n, found, "split settings"), call="split rounding")


@clause("keras.callback.early-stopping", ref="tf221")
@clause("keras.callback.reduce-lr-on-plateau", ref="tf221")
def test_harden20_edges_callbacks_at_their_deltas(tf, budget):
    """EarlyStopping and ReduceLROnPlateau (defaults and option combinations: min_delta, patience, mode max
    with a baseline, cooldown, min_lr reached exactly) driven epoch by epoch over a monitored value that
    improves by exactly each delta of their source, one float64 ulp more and less, not at all, twice, and
    worsens: wait, best, stop flag, learning rate, cooldown counter and stopped epoch after each epoch."""
    n, found = compare.problems(tf, "callback", budget)
    assert_true(not found, compare.message(n, found, "callback settings"), call="callback deltas")


@clause("keras.fit.progress-bar", ref="tf221")
def test_harden20_edges_progbar_unit_steps(tf, budget):
    """keras.utils.Progbar fed updates advancing by 0, 1, 2 and 3 units (its max(current - seen, 1) edge),
    a stateless and a stateful value, then add(): the values each printed line shows."""
    n, found = compare.problems(tf, "progbar", budget)
    assert_true(not found, compare.message(n, found, "progress bars"), call="Progbar units")


@clause("keras.layer.forward-and-gradients", ref="tf221")
def test_harden20_edges_recording_is_current(tf):
    """The recording was made from these targets (else: stale, re-run the recorder); on the tensorflow
    backend, the edges derived now from the installed TF's source are the recorded ones."""
    data = reference.load()
    assert_true(data["meta"]["tables"] == reference.tables_hash(),
                f"stale: the targets changed since the recording; re-run `{reference.RECORD_COMMAND}`",
                call="harden20 recording")
    if tf.__name__.startswith("simdist"):
        return
    from simdist.conformance.suite import harden20_cases as cases  # noqa: PLC0415

    changed = [t.name for t in cases.TARGETS if cases.derive_edges(tf, t) != data["targets"][t.name]["edges"]]
    assert_true(not changed, f"edges derived from TF's source now differ from the recorded ones for {changed[:10]}; "
                f"re-run `{reference.RECORD_COMMAND}`", call="harden20 edges")
