"""Keras layers' call arguments (issue 29, kcall): every layer of kargs' plan and the attention layers
(MultiHeadAttention, GroupQueryAttention) in the default configuration, called with each argument of its `call`
signature set, one at a time, to the values that pick another branch (kcall_cases.call_variants: a bool negated,
`training` True and False, a mask with steps off) — clauses keras.layer.call, keras.mha.masks.

Expected: TF 2.21's recorded observation of each variant (kcall_reference): the call's error class or its outputs,
and for a mask the layer's compute_mask. A layer that ignores a mask or a flag, builds a mask the wrong way round,
or propagates a mask Keras consumes, fails here.
"""

from __future__ import annotations

import pytest

from simdist.conformance.assertions import assert_true
from simdist.conformance.suite import kcall_cases as cases
from simdist.conformance.suite import kcall_reference as reference

clause = pytest.mark.clause


def _layers(attention: bool) -> list[str]:
    try:
        return sorted({v["layer"] for v in reference.load()["plan"] if (v["kind"] == "attention") == attention})
    except FileNotFoundError:
        return []


def test_kcall_recording_is_current() -> None:
    """The recording was made by these rules (the variants, the masks, the inputs)."""
    meta = reference.load()["meta"]
    assert_true(meta["tables"] == reference.tables_hash(),
                f"kcall_reference.json.gz was made by other rules (tables {meta['tables'][:12]}, but should be "
                f"{reference.tables_hash()[:12]}): re-record it with `{reference.RECORD_COMMAND}`",
                call="kcall recording")


def _check(tf, layer: str) -> None:
    data = reference.load()
    found: list[str] = []
    for variant, want in zip(data["plan"], data["observed"]):
        if variant["layer"] == layer:
            got = cases.observe(tf, variant)
            found += [f"{layer}(...)({variant['call']}): {d}" for d in reference.differences(got, want)]
    assert_true(not found, f"{len(found)} differences from TF 2.21 (got, but should be):\n  " + "\n  ".join(found[:15]),
                call=f"keras.layers.{layer} call arguments")


@clause("keras.layer.call", ref="tf221")
@pytest.mark.parametrize("layer", _layers(False))
def test_layer_call_arguments(tf, layer: str) -> None:
    """The layer called plainly and with each call-argument variant: outputs (and compute_mask) as on TF 2.21."""
    _check(tf, layer)


@clause("keras.mha.masks", ref="tf221")
@pytest.mark.parametrize("layer", _layers(True))
def test_attention_call_arguments(tf, layer: str) -> None:
    """MultiHeadAttention and GroupQueryAttention with each mask and flag of their call: as on TF 2.21."""
    _check(tf, layer)
