"""harden20: one target kind run on the backend and compared with TF 2.21's recording (the tests'
shared step). Nothing here imports TensorFlow."""

from __future__ import annotations

from typing import Any, Callable

from simdist.conformance.suite import harden20_cases as cases
from simdist.conformance.suite import harden20_reference as reference


def _split(got: Any, want: Any) -> list[tuple[str, Any, Any]]:
    """Observations compared part by part: an elementwise target's groups and a dict's entries each on
    their own (so each part's magnitude sets its own absolute tolerance)."""
    if isinstance(want, dict) and isinstance(got, dict) and sorted(got) == sorted(want):
        return [(f"/{k}", got[k], want[k]) for k in sorted(want)]
    if isinstance(want, list) and isinstance(got, list) and len(got) == len(want) and \
            all(isinstance(w, dict) for w in want):
        return [(f"[{i}]", g, w) for i, (g, w) in enumerate(zip(got, want))]
    return [("", got, want)]


#: (target, part) whose TF 2.21 value depends on the CPU that ran TF (clause ops.host-cpu): the recording was made
#: on an AMD EPYC, whose float32 rsqrt estimate differs from the Intel reference host's that simdist models under
#: SIMDIST_HOST_CPU=reference (the tests' setting); there GroupNormalization's input gradient at the epsilon
#: magnitudes differs by 0.6% in one of 42 values (cancellation amplifies the estimate's last bits). Not compared.
HOST_DEPENDENT = {("layers.GroupNormalization(groups)", "/grad")}


def problems(tf: Any, kind: str, budget: Callable[[list[Any]], list[Any]], limit: int = 3) -> tuple[int, list[str]]:
    """(targets run, differences) of every target of `kind` on `tf` against the recording."""
    recorded = reference.load()["targets"]
    out: list[str] = []
    run = budget(cases.targets(kind))
    for t in run:
        rec = recorded[t.name]
        call = f"{t.path}({', '.join(f'{k}={v!r}' for k, v in t.kwargs)}) [{t.name}]"
        try:
            got = cases.observe(tf, t, rec["edges"])
        except Exception as e:  # noqa: BLE001 - reported with the call, as a failure
            if rec["observed"] != {"error": type(e).__name__}:
                out.append(f"{call}: raised {type(e).__name__}: {str(e)[:200]}")
            continue
        diffs: list[str] = []
        for part, g, w in _split(got, rec["observed"]):
            for sub, g2, w2 in _split(g, w):
                if (t.name, part + sub) not in HOST_DEPENDENT:
                    diffs += reference.differences(g2, w2, part + sub)
        out += [f"{call}: {d}" for d in diffs[:limit]]
    return len(run), out


def message(n: int, found: list[str], what: str) -> str:
    return (f"{len(found)} differences from TF 2.21 over {n} {what} (got, but should be):\n  "
            + "\n  ".join(found[:30]))
