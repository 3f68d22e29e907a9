"""Which NaN an x86 arithmetic instruction returns, where NumPy's choice is not the CPU's (clause ops.packet-paths).

An SSE/AVX add or multiply returns its first NaN source operand (quieted), and the default NaN (0xffc00000 in
float32: negative, quiet) only when no operand is a NaN but the operation is invalid (inf - inf, inf · 0); a fused
multiply-add's operands count in the order a, b, c of a·b + c (observed on TF 2.21's oneDNN MatMul,
tests/ops/test_fma_nan58_tf.py). NumPy's loops pick by how they are vectorised: `a[None, :] * b` takes a's NaN for
b's first rows and b's for the last one, so a kernel that models a NaN's sign bit for bit sets it here.
"""

from __future__ import annotations

import numpy as np

__all__ = ["first_nan"]


def first_nan(result: np.ndarray, *operands: np.ndarray) -> np.ndarray:
    """`result` (an elementwise function of `operands`, broadcast to its shape) with each NaN replaced by the first
    NaN operand's value at that element, where one is a NaN; a NaN result with no NaN operand (the default NaN of
    an invalid operation) is kept. Costs one pass over `result` when it holds no NaN."""
    nan = np.isnan(result)
    if not nan.any():
        return result
    out = np.array(result, copy=True)
    done = ~nan
    for v in operands:
        v = np.broadcast_to(np.asarray(v), out.shape)
        take = ~done & np.isnan(v)
        out[take] = v[take].astype(out.dtype)
        done |= take
    return out
