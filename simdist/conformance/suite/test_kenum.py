"""Keras's documented option values (issue 29, kenum): every public layer, loss and metric of TF 2.21's tf.keras
(Keras 3.15) that kargs' plan, STRING_LAYERS or harden19's loss and metric tables cover, built with each string or
None-defaulted constructor argument set, one at a time, to each value its docstring names for it
(kenum_cases.documented_values: `data_format="channels_first"`, `interpolation="bicubic"`,
`standardize="strip_punctuation"`, `reduction="mean_with_sample_weight"`, `average="weighted"` ...) —
clauses keras.layer.arguments, keras.loss.option-coverage, keras.metric.option-coverage.

Expected: TF 2.21's recorded observation of each variant (kenum_reference): the constructor's or the call's error
class, or the outputs (a layer's on kargs' fixed input; a loss's value, weighted value and gradient; a metric's
result after two updates). A class that ignores a documented mode, computes another branch for it, or accepts or
refuses it where Keras does not, fails here.
"""

from __future__ import annotations

import pytest

from simdist.conformance.assertions import assert_true
from simdist.conformance.suite import kenum_cases as cases
from simdist.conformance.suite import kenum_reference as reference
from simdist.conformance.suite.host_model import runs_onednn

clause = pytest.mark.clause
_CLAUSES = {"layer": "keras.layer.arguments", "string_layer": "keras.layer.arguments",
            "loss": "keras.loss.option-coverage", "metric": "keras.metric.option-coverage"}


def _classes(kind: str) -> list[str]:
    try:
        return sorted({v["cls"] for v in reference.load()["plan"] if _CLAUSES[v["kind"]] == _CLAUSES[kind]})
    except FileNotFoundError:
        return []


def test_kenum_recording_is_current() -> None:
    """The recording was made by these rules (the docstring rule, the tables, the inputs)."""
    meta = reference.load()["meta"]
    assert_true(meta["tables"] == reference.tables_hash(),
                f"kenum_reference.json.gz was made by other rules (tables {meta['tables'][:12]}, but should be "
                f"{reference.tables_hash()[:12]}): re-record it with `{reference.RECORD_COMMAND}`",
                call="kenum recording")


def _check(tf, cls: str) -> None:
    data = reference.load()
    onednn = runs_onednn(tf)
    found: list[str] = []
    for variant, want in zip(data["plan"], data["observed"]):
        if variant["cls"] != cls:
            continue
        if not onednn and variant["kwargs"].get("data_format") == "channels_first":
            # (an NCHW convolution or pooling runs through oneDNN on the recording's host; elsewhere TF 2.21 refuses
            # some of them: ops.host-cpu)
            continue
        got = cases.observe(tf, variant)
        found += [f"{cls}({variant['kwargs']}): {d}" for d in reference.differences(got, want)]
    assert_true(not found, f"{len(found)} differences from TF 2.21 (got, but should be):\n  " + "\n  ".join(found[:15]),
                call=f"keras {cls} documented option values")


@clause("keras.layer.arguments", ref="tf221")
@pytest.mark.parametrize("cls", _classes("layer"))
def test_layer_documented_option_values(tf, cls: str) -> None:
    """Each documented value of the layer's string arguments: built and called as on TF 2.21."""
    _check(tf, cls)


@clause("keras.loss.option-coverage", ref="tf221")
@pytest.mark.parametrize("cls", _classes("loss"))
def test_loss_documented_option_values(tf, cls: str) -> None:
    """Each documented value of the loss's string arguments: value, weighted value and gradient as on TF 2.21."""
    _check(tf, cls)


@clause("keras.metric.option-coverage", ref="tf221")
@pytest.mark.parametrize("cls", _classes("metric"))
def test_metric_documented_option_values(tf, cls: str) -> None:
    """Each documented value of the metric's string arguments: results as on TF 2.21."""
    _check(tf, cls)
