"""Keras layer arguments at their edges (issue 29, kargs): every public layer class of TF 2.21's tf.keras (Keras
3.15) whose required arguments kargs_cases.REQUIRED covers, built with each simple constructor argument set to
values at and beyond its range (ints 0, -1, 1, 2, default + 1; floats 0, -0.5, 1, 1.5; bools negated; strings
"bogus" and upper-cased; int tuples all 0, -1, 1, 2) and called on a fixed input — clause keras.layer.arguments.

Expected: TF 2.21's recorded observation of each variant (kargs_reference): the constructor's or the call's
error class, or the outputs' shapes, dtypes and values (the global seed set before each construction). A layer
that accepts what Keras refuses, refuses what it accepts, checks at the wrong time, or computes another output
for an unusual argument fails here.
"""

from __future__ import annotations

import pytest

from simdist.conformance.assertions import assert_true
from simdist.conformance.suite import kargs_cases as cases
from simdist.conformance.suite import kargs_reference as reference
from simdist.conformance.suite.host_model import runs_onednn

clause = pytest.mark.clause


def _layers() -> list[str]:
    try:
        return sorted({v["layer"] for v in reference.load()["plan"]})
    except FileNotFoundError:
        return []


def test_kargs_recording_is_current() -> None:
    """The recording was made by these rules (REQUIRED, INPUT_SHAPES, SKIP, the variants, the inputs)."""
    meta = reference.load()["meta"]
    assert_true(meta["tables"] == reference.tables_hash(),
                f"kargs_reference.json.gz was made by other rules (tables {meta['tables'][:12]}, but should be "
                f"{reference.tables_hash()[:12]}): re-record it with `{reference.RECORD_COMMAND}`", call="kargs recording")


def _dilated_transpose(layer: str, kwargs: dict) -> bool:
    """A transposed convolution (a dilated Conv2DBackpropInput) with a dilation rate above 1."""
    rate = kwargs.get("dilation_rate", 1)
    rates = rate if isinstance(rate, (list, tuple)) else [rate]
    return layer.endswith("Transpose") and any(isinstance(r, int) and r > 1 for r in rates)


@clause("keras.layer.arguments", ref="tf221")
@pytest.mark.parametrize("layer", _layers())
def test_layer_arguments_at_their_edges(tf, layer: str) -> None:
    """Each variant of the layer's arguments: built and called as on TF 2.21."""
    data = reference.load()
    found: list[str] = []
    onednn = runs_onednn(tf)
    for variant, want in zip(data["plan"], data["observed"]):
        if variant["layer"] != layer:
            continue
        if not onednn and _dilated_transpose(layer, variant["kwargs"]):
            # (the recording's host ran float32 through oneDNN, which has the dilated Conv2DBackpropInput; on a CPU
            # without it TF 2.21 refuses it, "Current CPU implementations do not yet support dilation rates larger
            # than 1", and so does simdist's model of that CPU: ops.host-cpu)
            continue
        got = cases.observe(tf, layer, cases.as_kwargs(variant["kwargs"]), tuple(variant["shape"]), variant["kind"])
        found += [f"{layer}({variant['kwargs']}) on {variant['kind']}{tuple(variant['shape'])}: {d}"
                  for d in reference.differences(got, want)]
    assert_true(not found, f"{len(found)} differences from TF 2.21 (got, but should be):\n  " + "\n  ".join(found[:15]),
                call=f"keras.layers.{layer} arguments")
