"""tf.signal's op types (clause ops.signal-fft), which the op table's real-valued matrices
(op_specs.py: float inputs, finite differences) do not exercise: forward values, dtypes, errors
and gradients are compared with TF 2.21 in tests/ops/test_signal_tf.py. Kept out of
op_specs.AREAS (that table's golden is stamped with every area module)."""

from __future__ import annotations

_WHY = ("a spectral op type (complex or real<->complex): forward, dtypes, errors and gradients against TF 2.21 in "
        "tests/ops/test_signal_tf.py; the op table's matrices are real-valued")

UNTESTED_OPS: dict[str, str] = {op: _WHY for op in ("FFT", "IFFT", "FFT2D", "IFFT2D", "FFT3D", "IFFT3D", "RFFT",
                                                     "IRFFT", "RFFT2D", "IRFFT2D", "RFFT3D", "IRFFT3D")}
