"""Every differentiable raw op's gradient at random valid calls (issue 29, rgrads): each op of TF 2.21's gradient
registry that tf.raw_ops exposes and that takes a floating input, called with inputs drawn from its OpDef until TF
accepted up to three (ordinary values; tied small integers and zeros; NaN, infinities and signed zeros), under a
GradientTape eagerly and inside a tf.function, with upstream gradients that are neither uniform nor free of zeros —
clause autodiff.op-gradients.

Expected: TF 2.21's recorded observation of each case (rgrads_reference): the outputs' and the watched inputs'
gradients' dtypes, shapes and values (floats within 1e-5 relative), or the error's class. A gradient rule that
transposes, drops a branch (ties, zeros, an attribute), ignores its upstream gradient, or is missing fails here.
"""

from __future__ import annotations

import pytest

from simdist.conformance.assertions import assert_true
from simdist.conformance.suite import rgrads_cases as cases
from simdist.conformance.suite import rgrads_reference as reference

clause = pytest.mark.clause


def _ops() -> list[str]:
    try:
        plan = reference.load()["plan"]
    except FileNotFoundError:
        return []
    return list(dict.fromkeys(c["case"]["op"] for c in plan))


def test_rgrads_recording_is_current() -> None:
    """The recording was made by this planner (its seed, counts, kinds and name tables)."""
    meta = reference.load()["meta"]
    assert_true(meta["tables"] == reference.tables_hash(),
                f"rgrads_reference.json.gz was made by another planner (tables {meta['tables'][:12]}, but should be "
                f"{reference.tables_hash()[:12]}): re-record it with `{reference.RECORD_COMMAND}`",
                call="rgrads recording")


@clause("autodiff.op-gradients", ref="tf221")
@pytest.mark.parametrize("op", _ops())
def test_raw_op_gradients_at_random_valid_calls(tf, op: str) -> None:
    """Each case of the op (both modes): as on TF 2.21."""
    data = reference.load()
    found: list[str] = []
    for entry, want in zip(data["plan"], data["observed"]):
        case = entry["case"]
        if case["op"] != op:
            continue
        got = cases.observe(tf, case, entry["mode"])
        shapes = {k: v["shape"] if isinstance(v, dict) else [s["shape"] for s in v] for k, v in case["inputs"].items()}
        found += [f"{entry['mode']} {shapes} {case['attrs']}: {d}" for d in reference.differences(got, want)]
    assert_true(not found, f"{len(found)} differences from TF 2.21 (got, but should be):\n  " + "\n  ".join(found[:12]),
                call=f"raw_ops.{op}")
