"""kops23 (issue 29): keras.ops.math and keras.ops.linalg (keras/src/ops/math.py, linalg.py): logsumexp, top_k, in_top_k, segment ops, fft family, stft/istft, extract_sequences, cdist; qr, inv, det, solve, cholesky, eigh, lstsq, lu_factor, matrix_rank, pinv, svd, every norm order — each case's result (kind, dtype, shape, values; or error class) and,
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
@pytest.mark.parametrize("mode", ("eager", "symbolic"))
@pytest.mark.parametrize("family", ('math', 'linalg'))
def test_kops23_math_linalg(keras, family, mode, budget):
    """Every math_linalg case of the table, in one mode, as TF 2.21 + Keras 3.15's."""
    problems = reference.family_problems(keras, family, mode, budget)
    assert_true(not problems, f"{len(problems)} keras calls differ from TF 2.21 (got, but should be):\n  "
                + "\n  ".join(problems[:30]), call=f"keras.ops {family} ({mode})")
