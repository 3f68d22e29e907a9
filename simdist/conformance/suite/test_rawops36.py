"""The fused RNN and audio-feature raw ops (issue 29, rawops36_cases): LSTMBlockCell, BlockLSTM, BlockLSTMV2 and
GRUBlockCell (clause ops.rnn-block), AudioSpectrogram and Mfcc (clause ops.audio-features) on fixed inputs and with a
refused shape. Expected: TF 2.21's recorded answers (rawops36_reference): values within 1e-5 relative plus 1e-6 of
the largest magnitude, shapes, dtypes and error classes exactly.
"""

from __future__ import annotations

import pytest

from simdist.conformance.assertions import assert_true
from simdist.conformance.suite import harden19_reference
from simdist.conformance.suite import rawops36_cases as cases
from simdist.conformance.suite import rawops36_reference as reference

clause = pytest.mark.clause


def test_rawops36_recording_is_current() -> None:
    """The recording was made from these programs."""
    meta = reference.load()["meta"]
    assert_true(meta["tables"] == reference.tables_hash(),
                f"rawops36_reference.json.gz was made by other programs (tables {meta['tables'][:12]}, but should "
                f"be {reference.tables_hash()[:12]}): re-record it with `{reference.RECORD_COMMAND}`",
                call="rawops36 recording")


def _check(tf, clause_id: str) -> None:
    want = reference.load()["observed"]
    found = []
    for name, cid, _ in cases.CASES:
        if cid == clause_id:
            found += [f"{name}: {d}" for d in harden19_reference.differences(cases.observe(tf, name), want[name])]
    assert_true(not found, f"{len(found)} differences from TF 2.21 (got, but should be):\n  " + "\n  ".join(found[:12]),
                call=clause_id)


@clause("ops.rnn-block", ref="tf221")
def test_fused_rnn_cells_and_blocks(tf) -> None:
    """LSTMBlockCell (with peepholes and a cell clip), BlockLSTM, BlockLSTMV2, GRUBlockCell: outputs as TF 2.21's; a
    weight of the wrong shape refused as TF refuses it."""
    _check(tf, "ops.rnn-block")


@clause("ops.audio-features", ref="tf221")
def test_audio_spectrogram_and_mfcc(tf) -> None:
    """AudioSpectrogram (magnitude and power, strides, a window longer than the input) and Mfcc: as TF 2.21's."""
    _check(tf, "ops.audio-features")
