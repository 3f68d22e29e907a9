"""Disagreement classes of the second fuzzer that are still open, keyed by (callable at the tree's
root, kind) as fz2_campaign.py counts them: a disagreement of such a class is counted by the
slow profile, not failed. Each entry says what TF does and what simdist does."""

from __future__ import annotations

KNOWN_OPEN: dict[tuple[str, str], str] = {
    ("math.digamma", "gradient"): "the gradient of float32 digamma at 1e30 (fz26b: seed 2604 #25) is polygamma(1, x), "
                                  "Eigen's Cephes zeta(2, x) computed in float32: pow(x, -2) is below float32's normal "
                                  "range for x above ~9.2e18 and flushed, so TF 2.21 gives 0 (and last-bit differences "
                                  "at 1e6, 1e7, 1e10: 9.9999994e-11 against 1e-10); simdist evaluates zeta in float64 "
                                  "and rounds (1e-30). Modelling it needs Eigen's float32 zeta under FTZ",
}
