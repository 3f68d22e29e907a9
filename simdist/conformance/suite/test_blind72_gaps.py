"""The classes around the seventy-second blind batch's mutants (tests/mutants.py TRAINING_BATCH72), each checked as a
class, and a rule its probes found simdist breaking: R2Score's residual sum of squares is Keras's `(y_true - y_pred)
** 2`, TF's Pow, whose float32 result is not always the rounded product x·x (clause keras.metric.r2-score).

Each program runs on the backend under test; its expected result is TF 2.21's, observed by running the same program on
TF (`python -m simdist.conformance.suite.test_blind72_gaps --record`, which rewrites blind72_reference.json.gz). The
recording host is this session's AVX-512 Xeon with oneDNN on (recorded_programs.avx512_with_onednn): the programs whose
bits follow the CPU's kernels are host-dependent, run by simdist under its model of that host (reference_cpu) on any
other CPU. Floats are compared by their bits (hex of the IEEE value)."""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import pytest

from simdist.conformance.suite.recorded_programs import (RecordedPrograms, avx512_with_onednn, bits as _bits,
                                                          reference_cpu, rng)

PATH = os.path.join(os.path.dirname(__file__), "blind72_reference.json.gz")

#: programs whose TF 2.21 bits follow the CPU's kernels (clause ops.host-cpu): the metrics' reductions and powers
HOST_DEPENDENT = ("metric-",)

REF = RecordedPrograms(PATH, HOST_DEPENDENT, recording_host=avx512_with_onednn, recording_cpu=reference_cpu)
_program, _ids, _check = REF.add, REF.ids, REF.check


# -- 1. metrics --------------------------------------------------------------------------------------------------------
def _r2_residuals(tf: Any, mk: Any) -> Any:
    """R2Score's variables and result over 5 to 40 rows of 1 to 4 outputs, weighted (per row and per entry) and not,
    in float32 and float64: the residual sum is Σw·(t − p)**2 with TF's Pow, which rounds some squares otherwise
    than x·x."""
    r = rng("metric-r2-residuals")
    out = {}
    for dtype in ("float32", "float64"):
        for rows in (5, 13, 29, 40):
            for outputs in (1, 3, 4):
                y = (r.randn(rows, outputs) * 3 + 1.5).astype(dtype)
                p = (y + r.randn(rows, outputs) * 2).astype(dtype)
                for weights in ("none", "rows", "entries"):
                    w = {"none": None, "rows": r.rand(rows).astype(dtype),
                         "entries": r.rand(rows, outputs).astype(dtype)}[weights]
                    m = tf.keras.metrics.R2Score(class_aggregation=None, dtype=dtype)
                    m.update_state(y, p, sample_weight=w)
                    out[f"{dtype} {rows}x{outputs} {weights}"] = [_bits(m.result())] + [
                        _bits(v) for v in sorted(m.variables, key=lambda v: v.name)]
    return out


_program("metric-r2-residuals", _r2_residuals)


# -- the tests -------------------------------------------------------------------------------------------------------
@pytest.mark.clause("keras.metric.r2-score")
@pytest.mark.parametrize("name", _ids("metric-r2"))
def test_blind72_r2_residuals_are_powers(backend: Any, name: str) -> None:
    """R2Score's residual sum (Keras's `** 2`, TF's Pow) and its result, per output, over several sizes, weights and
    dtypes."""
    _check(backend, name)


if __name__ == "__main__":
    import sys
    if "--record" in sys.argv:
        REF.record()
