"""Which elements of an elementwise result TF's Eigen CPU kernels compute in SIMD packets.

An Eigen tensor expression over n elements runs the first (n // P) * P of them (flat order) in
packets of P lanes, the remaining n mod P one at a time. The two paths agree on every value but,
for a few functors, on the sign of a zero: relu/relu6 give max(x, 0) = +0.0 for x = -0.0 in
packets and keep -0.0 in the scalar tail; xlogy/xdivy/xlog1py return x (-0.0) in packets and
+0.0 in the tail. P is what TF 2.21's x86-64 wheel uses (AVX2, 32-byte packets: 8 float32,
4 float64; float16 packets of 8 for the x-functions, none for relu, which Eigen runs through
float). Observed on TF 2.21 (tests/ops/test_op_edges_tf.py, clause ops.simd-signed-zeros);
another ISA (AVX-512: 16 float32 lanes) moves the boundary, a hardware dependence recorded in
docs/spec.md.
"""

from __future__ import annotations

import numpy as np

__all__ = ["packet_mask", "RELU_LANES", "XFUNC_LANES"]

RELU_LANES = {"float32": 8, "float64": 4}
XFUNC_LANES = {"float32": 8, "float64": 4, "float16": 8}


def packet_mask(shape: tuple[int, ...], dtype: np.dtype, lanes: dict[str, int]) -> np.ndarray | None:
    """A bool array of `shape`: True where the element is computed in a packet (None: no
    element is, for a dtype without packets in `lanes`)."""
    p = lanes.get(np.dtype(dtype).name)
    n = int(np.prod(shape, dtype=np.int64)) if shape else 1
    if not p or n < p:
        return None
    return (np.arange(n) < (n // p) * p).reshape(shape)
