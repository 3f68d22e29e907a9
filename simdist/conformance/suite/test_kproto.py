"""The Keras layer protocol at its edges (issue 29, kproto): every layer kargs sweeps, in its default
configuration — `compute_output_shape` and a symbolic call on `keras.Input` for its input shape, with every
dimension unknown, a dimension fewer, one more and another last size; its weights after a call (names, shapes,
dtypes, trainability); its outputs' dtypes for float64, float16 and bfloat16 inputs and under the float64 and
mixed_float16 policies (with its weights' dtypes); a built layer called again on another batch size and another
last dimension — clause keras.layer.protocol.

Expected: TF 2.21's recorded answers (kproto_reference): shapes, dtypes, weight names, trainability and error
classes exactly. A layer whose shape inference, weights, dtype handling or input checks differ from Keras's fails
here even when its values on an ordinary call are right.
"""

from __future__ import annotations

import pytest

from simdist.conformance.assertions import assert_true
from simdist.conformance.suite import kargs_cases
from simdist.conformance.suite import kproto_cases as cases
from simdist.conformance.suite import kproto_reference as reference

clause = pytest.mark.clause


def _layers() -> list[str]:
    try:
        return [v["layer"] for v in reference.load()["plan"]]
    except FileNotFoundError:
        return []


def test_kproto_recording_is_current() -> None:
    """The recording was made by these questions (SHAPE_EDITS, INPUT_DTYPES, POLICIES)."""
    meta = reference.load()["meta"]
    assert_true(meta["tables"] == reference.tables_hash(),
                f"kproto_reference.json.gz was made by other questions (tables {meta['tables'][:12]}, but should be "
                f"{reference.tables_hash()[:12]}): re-record it with `{reference.RECORD_COMMAND}`", call="kproto recording")


@clause("keras.layer.protocol", ref="tf221")
@pytest.mark.parametrize("layer", _layers())
def test_layer_protocol_at_its_edges(tf, layer: str) -> None:
    """The layer's shape inference, weights, dtypes and input checks: as on TF 2.21."""
    data = reference.load()
    i = [v["layer"] for v in data["plan"]].index(layer)
    v, want = data["plan"][i], data["observed"][i]
    got = cases.observe(tf, layer, kargs_cases.as_kwargs(v["kwargs"]), tuple(v["shape"]), v["kind"])
    found = reference.differences(got, want)
    assert_true(not found, f"keras.layers.{layer}({v['kwargs']}) on {v['kind']}{tuple(v['shape'])}: "
                f"{len(found)} answers differ from TF 2.21 (got, but should be):\n  " + "\n  ".join(found[:12]),
                call=f"keras.layers.{layer} protocol")
