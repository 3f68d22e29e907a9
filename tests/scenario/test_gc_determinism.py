"""A scenario's metrics and trace do not depend on when Python's cyclic collector runs.

The quick 16x8 MWMS training scenario failed `check_determinism` in the full test module only:
its optimizer's `iteration` and `learning_rate` variables (one per replica, 256) sit in reference
cycles, become garbage when the training returns, and a collection that the process's history
happened to trigger before the simulator closed freed them into the trace (256 memory events
after "checkpoint save (step 4)"). Here the collection is forced at that point (`observe` runs
after the metrics, before the teardown), so the test does not depend on the history."""

from __future__ import annotations

import gc
import io

from scenario_helpers import ROOT

from simdist.scenario import load
from simdist.scenario.metrics import canonical
from simdist.scenario.runner import run


def _probe(sc, observe=None) -> tuple[str, str]:
    buf = io.StringIO()
    res = run(sc, trace=buf, observe=observe)
    return canonical(res.metrics), buf.getvalue()


def _first_difference(a: str, b: str) -> str:
    i = next((k for k in range(min(len(a), len(b))) if a[k] != b[k]), min(len(a), len(b)))
    line = a[:i].count("\n") + 1
    return f"first difference at char {i} (line {line}; sizes {len(a)} vs {len(b)}): " \
        f"{a[i - 80:i + 80]!r} vs {b[i - 80:i + 80]!r}"


def test_a_collection_before_teardown_changes_nothing_mwms_16x8():
    sc = load(ROOT / "scenarios/train_mwms_16x8.toml", quick=True)
    collected = []

    def collect(ctx, metrics):
        collected.append(gc.collect())

    m1, t1 = _probe(sc)
    m2, t2 = _probe(sc, observe=collect)
    assert collected and collected[0] > 0, f"gc.collect() found {collected} objects; the test needs garbage"
    assert m1 == m2, "metrics differ when the collector runs before the teardown"
    assert t1 == t2, f"trace differs when the collector runs before the teardown: {_first_difference(t1, t2)}"
