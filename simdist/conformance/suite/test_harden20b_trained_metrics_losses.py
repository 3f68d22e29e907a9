"""harden20b (issue 29): stateful metrics and losses with options over PAIRWISE grids — as TF 2.21's.

Metrics (AUC's num_thresholds/curve/summation_method/multi_label/from_logits, Precision/Recall's
thresholds/top_k/class_id, the confusion counts, PrecisionAtRecall, SensitivityAtSpecificity,
top-k accuracies, (Mean)IoU's ignore_class/sparse flags, F1/FBeta's average/threshold/beta,
R2Score, the probabilistic metrics), each with and without sample_weight: three update_state calls,
the result and every metric variable after each. Losses with options (from_logits,
label_smoothing, axis, reduction, focal alpha/gamma/class balancing, ignore_class, delta, q,
Circle's gamma/margin/remove_diagonal, ...) with and without sample_weight: y_pred trained four
gradient steps on the loss, the value, gradient and y_pred after each. All must be TF 2.21 + Keras
3.15's (harden20b_reference). Also: the recording is current, and the grids are pairwise and cover
every option of each class's signature but those harden20b_tables.SIGNATURE_EXCLUDED gives a
reason for.
"""

from __future__ import annotations

import pytest

from simdist.conformance.assertions import assert_true
from simdist.conformance.suite import harden20b_check as check
from simdist.conformance.suite import harden20b_pairwise as pairwise
from simdist.conformance.suite import harden20b_programs as programs
from simdist.conformance.suite import harden20b_reference as reference
from simdist.conformance.suite import harden20b_tables as tables

clause = pytest.mark.clause


@clause("keras.metric.option-coverage", ref="tf221")
def test_harden20b_trained_metric_option_pairs(tf, budget):
    """Each metric's pairwise option grid: three updates' results and variables as TF's."""
    check.check("metrics", check.names_of("metrics"), lambda n, c: programs.observe_metric(tf.keras, n, c), budget)


@clause("keras.loss.option-coverage", ref="tf221")
def test_harden20b_trained_loss_option_pairs(tf, budget):
    """Each loss's pairwise option grid: four gradient steps' values, gradients and y_pred as TF's."""
    check.check("losses", check.names_of("losses"), lambda n, c: programs.observe_loss(tf, n, c), budget)


@clause("optim.option-coverage", ref="tf221")
def test_harden20b_trained_grids_are_current_pairwise_and_cover_the_signatures():
    """The recording matches the tables; every grid covers every pair; every signature option is a
    factor or excluded with a reason."""
    data = reference.load()
    assert_true(data["meta"]["tables"] == reference.tables_hash(),
                f"harden20b recording is stale (tables hash {data['meta']['tables'][:12]}, but the tables are "
                f"{reference.tables_hash()[:12]}): re-run `{reference.RECORD_COMMAND}`", call="harden20b tables")
    factors = {"optimizers": {n: f for n, f in tables.OPTIMIZERS.items()},
               "layers": {n: v[2] for n, v in tables.LAYERS.items()},
               "metrics": {n: v[2] for n, v in tables.METRICS.items()},
               "losses": {n: v[1] for n, v in tables.LOSSES.items()}}
    problems = []
    for kind, grids in tables.all_cases().items():
        for name, cases in grids.items():
            valid = {"layers": tables._valid_layer(name)}.get(kind, tables._valid_metric_or_loss(name))
            missing = pairwise.covers(cases, factors[kind][name], valid)
            problems += [f"{kind}.{name}: no case holds {m}" for m in missing[:3]]
            names = {f.split(":", 1)[-1] for f, _ in factors[kind][name]}
            for option in data["signatures"][f"{kind}.{name}"]:
                if option not in names and option not in tables.SIGNATURE_EXCLUDED and (
                        f"{kind}.{name}.{option}" not in tables.SIGNATURE_EXCLUDED):
                    problems.append(f"{kind}.{name}: option {option!r} of Keras's signature is neither a factor "
                                    f"nor in SIGNATURE_EXCLUDED")
    assert_true(not problems, f"{len(problems)} gaps:\n  " + "\n  ".join(problems[:30]),
                call="harden20b_tables against Keras 3.15's signatures")
