"""The complex dtypes' own op types (clause ops.complex), which the op table's real-valued
matrices (op_specs.py: float32/float64 inputs, finite differences) do not exercise. They are
compared with TF 2.21, forward values, dtypes, errors and gradients under TF's conjugate
convention, in tests/ops/test_complex_tf.py. Kept out of op_specs.AREAS: that table feeds
test_op_differential_tf.py, whose golden is stamped with every area module."""

from __future__ import annotations

_WHY = ("a complex op type: forward, dtypes, errors and gradients (TF's conjugate convention) against TF 2.21 in "
        "tests/ops/test_complex_tf.py; the op table's matrices are real-valued")

UNTESTED_OPS: dict[str, str] = {op: _WHY for op in ("Complex", "Real", "Imag", "Conj", "Angle", "ComplexAbs", "Eig")}
