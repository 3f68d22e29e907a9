"""harden16 (issue 29): metrics and losses bookkeeping for 1, 2 and 3 outputs, by enumeration.

For single, list and dict outputs (1, 2 and 3 of them), with and without loss_weights, with
compiled metrics and weighted_metrics per output, and with a layer's add_loss of a scalar, a
vector (one value per row) and a matrix: model.metrics_names and [m.name for m in model.metrics]
before and after fit, History's keys and values, evaluate's list and return_dict, and the shapes
of model.losses after a call, compared with TF 2.21 + Keras 3.15's run of the same program
(harden16_reference.json.gz; seeded weights, unshuffled batches, a partial last batch). A
compile or fit TF refuses must be refused with the same error class.
"""

from __future__ import annotations

import pytest

from simdist.conformance.assertions import assert_true
from simdist.conformance.suite import harden16_observe as observe
from simdist.conformance.suite import harden16_reference as reference

clause = pytest.mark.clause


@clause("keras.fit.logs", ref="tf221")
@pytest.mark.parametrize("name", sorted(observe.BOOK_CASES))
def test_harden16_metrics_names_history_and_evaluate_per_output(keras, name):
    """The metrics' names and order, History and evaluate (list and dict) of one model as TF's."""
    want = reference.load()["bookkeeping"][name]
    got = observe.observe_bookkeeping(keras, name)
    problems = observe.differences(got, want)
    assert_true(not problems, f"{len(problems)} differences from TF 2.21 (got, but should be):\n  "
                + "\n  ".join(problems[:20]),
                call=f"Model({observe.BOOK_CASES[name]['n']} outputs, {observe.BOOK_CASES[name]['form']})"
                     f".compile({observe.BOOK_CASES[name]['compile']}), add_loss={observe.BOOK_CASES[name].get('add_loss')}")
