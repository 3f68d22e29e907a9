"""Random functions' arguments at their edges (issue 29, rargs): every sampling function of tf.random,
tf.random.experimental, tf.image's random ops, tf.random.Generator's methods and keras.random, with each argument
that picks another branch of its algorithm set to its edge values one at a time (rargs_cases.FUNCS: the binomial
above p = 1/2 and past BTRS's count · p, the gamma below alpha = 1, the Poisson's large rates, truncated normals on
one-sided and narrow intervals, candidate samplers at num_sampled == range_max, index_shuffle's small and huge
max_index, seeds of other dtypes and lengths, algorithms by name and number, zero-size and unknown shapes), eagerly
and inside a tf.function — clause ops.random-arguments.

Expected: TF 2.21's recorded observation of each case (rargs_reference): the error class, or the samples' dtype,
shape and values (floats within 1e-5 relative). The seeds fix every stream (stateful ops after
tf.random.set_seed), so a sampler that draws another number, another count, or accepts what TF refuses fails here.
"""

from __future__ import annotations

import pytest

from simdist.conformance.assertions import assert_true
from simdist.conformance.suite import rargs_cases as cases
from simdist.conformance.suite import rargs_reference as reference

clause = pytest.mark.clause


def _groups() -> list[str]:
    try:
        plan = reference.load()["plan"]
    except FileNotFoundError:
        return []
    return list(dict.fromkeys(c["fn"] for c in plan))


def test_rargs_recording_is_current() -> None:
    """The recording was made by these rules (FUNCS, COMMON, the seeds, the images)."""
    meta = reference.load()["meta"]
    assert_true(meta["tables"] == reference.tables_hash(),
                f"rargs_reference.json.gz was made by other rules (tables {meta['tables'][:12]}, but should be "
                f"{reference.tables_hash()[:12]}): re-record it with `{reference.RECORD_COMMAND}`",
                call="rargs recording")


@clause("ops.random-arguments", ref="tf221")
@pytest.mark.parametrize("fn", _groups())
def test_random_function_arguments_at_their_edges(tf, fn: str) -> None:
    """Each case of the function (both modes): as on TF 2.21."""
    data = reference.load()
    found: list[str] = []
    for case, want in zip(data["plan"], data["observed"]):
        if case["fn"] != fn:
            continue
        got = cases.observe(tf, fn, case["args"], case["mode"])
        found += [f"{case['mode']} {case['args']}: {d}" for d in reference.differences(got, want)]
    assert_true(not found, f"{len(found)} differences from TF 2.21 (got, but should be):\n  " + "\n  ".join(found[:15]),
                call=fn.split(":")[0])
