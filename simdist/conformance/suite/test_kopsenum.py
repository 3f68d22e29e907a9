"""keras.ops options (issue 29, kopsenum): every function of kops23's table, its first case with each option it
leaves at the default set, one at a time, to a negated bool or to each value the function's docstring names
(kopsenum_cases.option_values), eagerly and on KerasTensors — clause keras.ops.

Expected: TF 2.21's recorded observation of each variant (kopsenum_reference), compared as kops23 compares (values
within 1e-5 relative, dtypes, shapes and error classes exactly). A keras.ops function that ignores an option,
computes another branch for it, or gives another output spec under it, fails here.
"""

from __future__ import annotations

import pytest

from simdist.conformance.assertions import assert_true
from simdist.conformance.suite import kops23_cases, kops23_reference
from simdist.conformance.suite import kopsenum_cases as cases
from simdist.conformance.suite import kopsenum_reference as reference
from simdist.conformance.suite.host_model import runs_onednn

clause = pytest.mark.clause


def test_kopsenum_recording_is_current() -> None:
    """The recording was made from kops23's table and this rule."""
    meta = reference.load()["meta"]
    assert_true(meta["tables"] == reference.tables_hash(),
                f"kopsenum_reference.json.gz was made by other rules (tables {meta['tables'][:12]}, but should be "
                f"{reference.tables_hash()[:12]}): re-record it with `{reference.RECORD_COMMAND}`",
                call="kopsenum recording")


# variants whose recorded observation is oneDNN's kernel (the recording host ran float32 through oneDNN): an NCHW
# float32 convolution, which TF 2.21's own kernels refuse (UnimplementedError) where oneDNN is off, as on an
# AVX2-only AMD EPYC (observed: real TF and simdist's host model both raise there; clause ops.host-cpu)
_ONEDNN_ONLY = (("image/extract_patches", "data_format", "channels_first"),)


@clause("keras.ops", ref="tf221")
@pytest.mark.parametrize("family", kops23_cases.FAMILIES)
def test_ops_options_at_documented_values(tf, keras, family: str) -> None:
    """Each option variant of the family's functions: eagerly and symbolically as on TF 2.21 (the variants
    recorded from oneDNN's kernels only where the backend's CPU runs oneDNN: simdist's model, real TF's CPU)."""
    runs_onednn_float32 = runs_onednn(tf)
    data = reference.load()
    found = []
    for entry, want in zip(data["plan"], data["observed"]):
        if not entry["base"].startswith(family + "/"):
            continue
        if not runs_onednn_float32 and (entry["base"], entry["option"], entry["value"]) in _ONEDNN_ONLY:
            continue
        case = cases.variant(entry)
        got = kops23_cases.observe(keras, case)
        for mode in sorted(want):
            found += [f"{kops23_cases.call_text(case)} [{mode}]{d}"
                      for d in kops23_reference.differences(got.get(mode, {}), want[mode])[:1]]
    assert_true(not found, f"{len(found)} keras calls differ from TF 2.21 (got, but should be):\n  "
                + "\n  ".join(found[:30]), call=f"keras.ops {family} options")
