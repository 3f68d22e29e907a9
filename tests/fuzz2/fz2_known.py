"""Disagreement classes of the second fuzzer that are still open, keyed by (callable at the tree's
root, kind) as fz2_campaign.py counts them: a disagreement of such a class is counted by the
slow profile, not failed. Each entry says what TF does and what simdist does."""

from __future__ import annotations

KNOWN_OPEN: dict[tuple[str, str], str] = {
}
