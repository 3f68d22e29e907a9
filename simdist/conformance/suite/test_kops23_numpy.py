"""kops23 (issue 29): keras.ops' NumPy-like functions (keras/src/ops/numpy.py; TF backend keras/src/backend/tensorflow/numpy.py): every unary function on float32 and int32 and on NaN/inf/-0.0, float16/uint8/int8/int64/float64/bool operands, every binary one on twelve operand pairs (int with float, Python scalars, broadcasting, bool, uint8 with int8, a zero divisor), reductions and scans with axis/keepdims, quantiles, shape and data movement, creation — each case's result (kind, dtype, shape, values; or error class) and,
on KerasTensors of the inputs' shapes, its output spec (shape and dtype; or error class), as TF 2.21
+ Keras 3.15's (kops23_reference.json.gz, ``python -m simdist.conformance.suite.kops23_record``):
exact for ints, bools, shapes and dtypes, floats within 1e-5 relative plus 1e-6 of the result's
largest value. On the tensorflow backend the test checks that the recording reproduces. The
case table: kops23_cases.py.
"""

from __future__ import annotations

import pytest

from simdist.conformance.assertions import assert_true
from simdist.conformance.suite import kops23_reference as reference

clause = pytest.mark.clause


@clause("keras.ops", ref="tf221")
def test_kops23_recording_is_current():
    """The recording was made from this checkout's case table (else re-record)."""
    meta = reference.load()["meta"]
    assert_true(meta["tables"] == reference.tables_hash(),
                f"kops23 reference data is stale (recorded from tables {meta['tables'][:12]}, these are "
                f"{reference.tables_hash()[:12]}): re-run `{reference.RECORD_COMMAND}`")


@clause("keras.ops", ref="tf221")
@pytest.mark.parametrize("mode", ("eager", "symbolic"))
@pytest.mark.parametrize("family", ('numpy',))
def test_kops23_numpy(keras, family, mode, budget):
    """Every numpy case of the table, in one mode, as TF 2.21 + Keras 3.15's."""
    problems = reference.family_problems(keras, family, mode, budget)
    assert_true(not problems, f"{len(problems)} keras calls differ from TF 2.21 (got, but should be):\n  "
                + "\n  ".join(problems[:30]), call=f"keras.ops {family} ({mode})")
