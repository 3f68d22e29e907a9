"""Comparing an observation with its TF 2.21 recording (the suite families' JSON observations: dicts, lists,
numbers, strings): where they differ, as "got, but should be" lines. Numbers are close within a relative and an
absolute tolerance the family chooses; NaN and infinities are compared exactly. And the recorders' shared pass
(`observed_twice`). Nothing here imports TensorFlow."""

from __future__ import annotations

import json
import math
from typing import Any, Callable


def close(g: float, w: float, rtol: float, atol: float) -> bool:
    """`g` as recorded `w`: non-finite exactly, finite within rtol · |w| + atol."""
    if math.isnan(w) or math.isinf(w):
        return (math.isnan(g) and math.isnan(w)) or g == w
    return abs(g - w) <= rtol * abs(w) + atol


def differences(got: Any, want: Any, rtol: float, atol: float, where: str = "") -> list[str]:
    """Where observation `got` differs from the recorded `want` (got, but should be)."""
    if isinstance(want, float) and isinstance(got, float):
        return [] if close(got, want, rtol, atol) else [f"{where or 'value'}: {got!r}, but should be {want!r}"]
    if isinstance(want, dict) and isinstance(got, dict):
        if set(got) != set(want):
            return [f"{where or 'result'}: keys {sorted(got)}, but should be {sorted(want)}"]
        out: list[str] = []
        for k in sorted(want):
            out += differences(got[k], want[k], rtol, atol, f"{where}.{k}" if where else str(k))
        return out
    if isinstance(want, list) and isinstance(got, list):
        if len(got) != len(want):
            return [f"{where}: {len(got)} entries {got!r:.200}, but should be {len(want)} {want!r:.200}"]
        out = []
        for i, (g, w) in enumerate(zip(got, want)):
            out += differences(g, w, rtol, atol, f"{where}[{i}]")
        return out
    return [] if got == want else [f"{where or 'result'}: {got!r:.200}, but should be {want!r:.200}"]


def observed_twice(plan: list[Any], observe: Callable[[Any], Any]) -> dict[str, list[Any]]:
    """A recorder's pass over its plan on the reference: each case observed twice, kept with its observation when
    both are equal (compared as JSON: NaN equals NaN), else left out as not determined on the reference."""
    kept, observed, skipped = [], [], []
    for case in plan:
        first = observe(case)
        if json.dumps(observe(case), sort_keys=True) != json.dumps(first, sort_keys=True):
            skipped.append(case)
            continue
        kept.append(case)
        observed.append(first)
    return {"plan": kept, "skipped": skipped, "observed": observed}
