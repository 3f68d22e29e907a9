"""The vrcpps/vrsqrtps tables simdist carries (simdist/runtime/ops/rcp.py, clause ops.eigen-kernels):
every entry within Intel's documented bound |relative error| <= 1.5 * 2**-12, monotonic as the
instruction's results are, the special values of the estimates, and the refined reciprocal of
2.0 that TF 2.21 computes in a packet (0.49999997, observed; tests/ops/test_eigen_kernels_tf.py
compares the kernels with TF bit for bit)."""

from __future__ import annotations

import numpy as np
import pytest

from simdist.runtime.ops import rcp

clause = pytest.mark.clause
_BOUND = 1.5 * 2.0 ** -12


@clause("ops.eigen-kernels")
def test_the_estimates_stay_within_intels_bound_and_are_monotonic() -> None:
    x = (np.float32(1) + np.arange(2048, dtype=np.float32) / np.float32(2048)).astype(np.float32)
    r = rcp.rcp_estimate(x).astype(np.float64)
    err = np.abs(r * x - 1.0)
    assert err.max() <= _BOUND, f"vrcpps's relative error reaches {err.max():.3g} at x={x[err.argmax()]}, " \
                                f"but should be <= {_BOUND:.3g}"
    assert np.all(np.diff(r) <= 0), "vrcpps's estimates over [1, 2) should not increase with x"
    y = np.concatenate([x, x * 2]).astype(np.float32)
    s = rcp.rsqrt_estimate(y).astype(np.float64)
    err = np.abs(s * np.sqrt(y.astype(np.float64)) - 1.0)
    assert err.max() <= _BOUND, f"vrsqrtps's relative error reaches {err.max():.3g} at x={y[err.argmax()]}, " \
                                f"but should be <= {_BOUND:.3g}"
    assert np.all(np.diff(s) <= 0), "vrsqrtps's estimates over [1, 4) should not increase with x"


@clause("ops.eigen-kernels")
def test_special_values_and_the_refined_reciprocal_of_two() -> None:
    x = np.array([0.0, -0.0, 1e-39, np.inf, -np.inf, np.nan, 2.0 ** 126, 2.0 ** 125], np.float32)
    got = rcp.rcp_estimate(x)
    want = np.array([np.inf, -np.inf, np.inf, 0.0, -0.0, np.nan, 0.0, 0.0], np.float32)
    same = (got == want) & (np.signbit(got) == np.signbit(want)) | (np.isnan(got) & np.isnan(want))
    assert same[:7].all(), f"vrcpps({x[:7]}) = {got[:7]}, but should be {want[:7]}"
    assert got[7] > 0 and np.isfinite(got[7]), f"vrcpps(2**125) = {got[7]}, but should be a normal number"
    s = rcp.rsqrt_estimate(np.array([0.0, -0.0, np.inf, -1.0, 4.0], np.float32))
    assert s[0] == np.inf and s[1] == -np.inf and s[2] == 0 and np.isnan(s[3]) and 0.4998 < s[4] <= 0.5, \
        f"vrsqrtps([0, -0, inf, -1, 4]) = {s}, but should be [inf, -inf, 0, nan, ~0.5]"
    two = rcp.reciprocal(np.full(9, 2.0, np.float32))
    assert two[:8].tolist() == [float(np.float32(0.49999997))] * 8 and two[8] == 0.5, \
        f"reciprocal([2.0] * 9) = {two}, but should be 0.49999997 in the 8 packet lanes and 0.5 in the tail"
