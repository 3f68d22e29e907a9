"""The Keras training loop's arguments at their edges (issue 29, kfit): `Model.fit`, `evaluate`, `predict`,
`train_on_batch`, `test_on_batch` and `predict_on_batch` of one small compiled model on arrays, tf.data datasets
(with and without sample weights) and PyDatasets, each argument of TF 2.21's signatures that kfit_cases.EDGES lists
set to values at and beyond its range (batch sizes 0, -1, 2.5, larger than the data; epochs 0, -1; validation
splits 1 and 1.5; validation data of one, two and three parts; class weights missing or extra classes; sample
weights of another shape, length or sign; an initial epoch past the epochs; steps longer than the data; `y` beside
a dataset), and pairs whose rules meet — clause keras.fit.arguments.

Expected: TF 2.21's recorded observation of each case (kfit_reference): the error class, or fit's history,
epochs and weights' sums, the other methods' returned values (float32 training: within 1e-4 relative). A loop
that accepts what Keras refuses, refuses what it accepts, or trains on other batches, weights or epochs fails here.
"""

from __future__ import annotations

import pytest

from simdist.conformance.assertions import assert_true
from simdist.conformance.suite import kfit_cases as cases
from simdist.conformance.suite import kfit_reference as reference

clause = pytest.mark.clause


def _apart(case: dict) -> bool:
    """A case checked by its own test: fit or evaluate of arrays with a sample weight wider than the per-sample
    losses, whose broadcast fails only on the batch's size, which the trace of Keras's step does not know (TF:
    InvalidArgumentError when the step runs)."""
    return (case["args"].get("sample_weight") == {"data": "w_wide"} and case["kind"] == "arrays"
            and case["method"] in ("fit", "evaluate"))


def _groups() -> list[str]:
    try:
        plan = reference.load()["plan"]
    except FileNotFoundError:
        return []
    return list(dict.fromkeys(f"{c['method']}-{c['kind']}" for c in plan if not _apart(c)))


def _apart_cases() -> list:
    try:
        plan = reference.load()["plan"]
    except FileNotFoundError:
        return []
    return [pytest.param(i, id=f"{c['method']}-{c['kind']}") for i, c in enumerate(plan) if _apart(c)]


def _check(tf, indices: list[int], call: str) -> None:
    data = reference.load()
    found: list[str] = []
    for i in indices:
        case, want = data["plan"][i], data["observed"][i]
        got = cases.observe(tf, case["method"], case["args"])
        found += [f"{case['method']}({case['args']}): {d}" for d in reference.differences(got, want)]
    assert_true(not found, f"{len(found)} differences from TF 2.21 (got, but should be):\n  " + "\n  ".join(found[:15]),
                call=call)


def test_kfit_recording_is_current() -> None:
    """The recording was made by these rules (DATA, EDGES, PAIRS, the data, the base calls)."""
    meta = reference.load()["meta"]
    assert_true(meta["tables"] == reference.tables_hash(),
                f"kfit_reference.json.gz was made by other rules (tables {meta['tables'][:12]}, but should be "
                f"{reference.tables_hash()[:12]}): re-record it with `{reference.RECORD_COMMAND}`", call="kfit recording")


@clause("keras.fit.arguments", ref="tf221")
@pytest.mark.parametrize("group", _groups())
def test_training_loop_arguments_at_their_edges(tf, group: str) -> None:
    """Each case of the method on the data kind: as on TF 2.21."""
    plan = reference.load()["plan"]
    _check(tf, [i for i, c in enumerate(plan) if f"{c['method']}-{c['kind']}" == group and not _apart(c)],
           f"Model.{group}")


@clause("keras.fit.arguments", ref="tf221")
@pytest.mark.parametrize("case", _apart_cases())
def test_sample_weight_wider_than_the_losses_fails_when_the_step_runs(tf, case: int) -> None:
    """fit/evaluate with a (samples, 2) sample weight for per-sample losses: TF 2.21's error class."""
    _check(tf, [case], "Model sample_weight of another width")
