"""Keras layers from a given base configuration (issue 29, kbase): the layers kargs leaves out (no input of its
shapes fits their defaults: the audio layers, the recurrent cells, the attention, lookup and hashing layers,
GroupNormalization, ConvLSTM3D, SpectralNormalization), each from a hand-given base with every constructor argument
at kargs' edges, kenum's documented values and reversed sequences, and every layer's typed None-defaulted arguments
(pooling strides, ReLU's max_value, lora_rank, max_freq) at numbers — clause keras.layer.arguments.

Expected: TF 2.21's recorded observation of each variant (kbase_reference): the constructor's or the call's error
class, or the outputs' shapes, dtypes and values (the global seed set before each construction).
"""

from __future__ import annotations

import pytest

from simdist.conformance.assertions import assert_true
from simdist.conformance.suite import kbase_cases as cases
from simdist.conformance.suite import kbase_reference as reference

clause = pytest.mark.clause


def _layers() -> list[str]:
    try:
        return sorted({v["layer"] for v in reference.load()["plan"]})
    except FileNotFoundError:
        return []


def test_kbase_recording_is_current() -> None:
    """The recording was made by these rules (BASES, the variants, the inputs, kargs' and kenum's rules)."""
    meta = reference.load()["meta"]
    assert_true(meta["tables"] == reference.tables_hash(),
                f"kbase_reference.json.gz was made by other rules (tables {meta['tables'][:12]}, but should be "
                f"{reference.tables_hash()[:12]}): re-record it with `{reference.RECORD_COMMAND}`", call="kbase recording")


@clause("keras.layer.arguments", ref="tf221")
@pytest.mark.parametrize("layer", _layers())
def test_layer_arguments_from_a_base(tf, layer: str) -> None:
    """Each variant of the layer's arguments: built and called as on TF 2.21."""
    data = reference.load()
    found: list[str] = []
    for variant, want in zip(data["plan"], data["observed"]):
        if variant["layer"] == layer:
            got = cases.observe(tf, variant)
            found += [f"{layer}({variant['kwargs']}): {d}" for d in reference.differences(got, want)]
    assert_true(not found, f"{len(found)} differences from TF 2.21 (got, but should be):\n  " + "\n  ".join(found[:15]),
                call=f"keras.layers.{layer} arguments from a base")
