"""The mutation catalogue (tests/mutants.py) stays in step with the code, and the conformance
suite detects at least 97% of its mutants (benchmarks/mutation_score.py; the full run is `slow`)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import mutants

ROOT = Path(__file__).resolve().parents[1]
#: The op layer's kernels and the graph recorder change often (fuzzer fixes): distribution mutants stay
#: out of them; training mutants may live in runtime/ops/ (gradient functions and random streams only).
MOVING = ("simdist/runtime/tensor.py", "simdist/runtime/graph/", "simdist/runtime/cost.py", "simdist/runtime/ops/")


def test_every_mutant_still_applies():
    """Each mutant's snippet occurs in its file exactly as often as the catalogue says; a refactor
    that moves the code fails here, naming the mutant, instead of leaving a mutant that tests nothing."""
    problems = []
    for m in mutants.CATALOGUE:
        try:
            mutants.apply((ROOT / m.path).read_text(encoding="utf-8"), m)
        except (mutants.AnchorGone, FileNotFoundError) as e:
            problems.append(str(e).splitlines()[0])
    assert not problems, "\n".join(problems)


def test_catalogue_shape():
    ids = [m.id for m in mutants.CATALOGUE]
    assert len(ids) == len(set(ids)), f"duplicate mutant ids: {sorted({i for i in ids if ids.count(i) > 1})}"
    assert len(ids) >= 40, f"the catalogue has {len(ids)} mutants, issue 17 asks for at least 40"
    kinds = {m.kind for m in mutants.CATALOGUE}
    assert not kinds - set(mutants.KINDS), f"unknown kinds {sorted(kinds - set(mutants.KINDS))}"
    wanted = {"denominator", "order", "axis", "placement", "shard-size", "missing-error", "error-class", "retry"}
    assert wanted <= kinds, f"no mutant of kind(s) {sorted(wanted - kinds)}"
    for m in mutants.CATALOGUE:
        assert m.layer in mutants.LAYERS, f"mutant {m.id} has unknown layer {m.layer!r}, not one of {mutants.LAYERS}"
        if m.layer != "training":
            assert not m.path.startswith(MOVING), f"mutant {m.id} lives in the op layer: {m.path}"
        assert m.why, f"mutant {m.id} says nothing about the bug it models"


def test_training_mutants_cover_the_training_layer():
    """Issue 29: 30-50 training mutants across gradients, the tape, optimizers, losses, metrics,
    fit, weight files and random ops, reported apart (plus the blind batches: 21 in the third,
    25 in the fourth, 30 in the fifth, 30 in the sixth, 30 in the seventh, 30 in the eighth, 30 in the ninth, 30 in the tenth, 30 in the eleventh, 30 in the twelfth, 30 in the thirteenth, 30 in the fourteenth, 30 in the fifteenth, 30 in the sixteenth, 30 in the seventeenth, 30 in the eighteenth; 8 and 10 of the fourteenth session's coverage work (cov13b, cov13a), 6 of kprep; 10 of each of the fifteenth session's cov14b, cov14d, cov14a and cov14c;
    15 gradient mutants of the gradient-coverage table, each killed within a minute)."""
    training = [m for m in mutants.CATALOGUE if m.layer == "training"]
    assert 30 <= len(training) <= 3068, (f"{len(training)} training mutants, but issue 29 asks for 30-50 (plus the "
                                        "blind batches, the coverage helpers' and the sweeps' mutants: at most 3068 "
                                        "keep a full training run within about 6 hours)")
    assert training == mutants.TRAINING, "every training mutant is in mutants.TRAINING, and only those"
    areas = {"simdist/runtime/ops/", "simdist/runtime/autodiff/", "simdist/keras/optimizers/",
             "simdist/keras/losses/", "simdist/keras/metrics/", "simdist/keras/trainers/",
             "simdist/keras/callbacks/", "simdist/keras/models/saving.py"}
    missing = {a for a in areas if not any(m.path.startswith(a) for m in training)}
    assert not missing, f"no training mutant in {sorted(missing)}"


def test_a_missing_anchor_fails_loudly():
    m = mutants.Mutant("demo", "order", "x.py", "return a + b", "return b + a", "swapped")
    assert mutants.apply("def f(a, b):\n    return a + b\n", m).endswith("return b + a\n")
    with pytest.raises(mutants.AnchorGone, match=r"mutant demo: its snippet occurs 0 time\(s\) in x.py"):
        mutants.apply("def f(a, b):\n    return a - b\n", m)
    with pytest.raises(mutants.AnchorGone, match="occurs 2 time"):
        mutants.apply("return a + b\nreturn a + b\n", m)


@pytest.mark.slow
def test_mutation_score_at_least_97_percent(tmp_path):
    out = tmp_path / "score.json"
    proc = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "mutation_score.py"), "--jobs", "2",
                           "--json", str(out)], cwd=ROOT, capture_output=True, text=True, timeout=3600)
    assert out.exists(), proc.stdout[-4000:] + proc.stderr[-4000:]
    r = json.loads(out.read_text())
    survived = [o["id"] for o in r["outcomes"] if o["status"] == "survived"]
    assert r["score"] >= 0.97, f"mutation score {r['score']:.1%} < 97%; survived: {survived}"
    assert proc.returncode == 0, proc.stdout[-4000:]
