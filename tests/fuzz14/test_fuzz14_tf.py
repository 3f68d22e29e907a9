"""The fourteenth differential fuzzer against real TensorFlow 2.21 (docs/spec.md `ops.fuzz4`,
"A fourteenth generator"): seeded programs whose snippets call TF's public API drawn from TF's own
function list by parameter name (tests/fuzz14/fz14_vocab.py), operators on tensors, Variables,
ndarrays and scalars, chains of two calls and seeded random ops, run eagerly, in tf.function with
and without an input_signature, under nested tapes and in MirroredStrategy.run, on simdist and on
TF in a worker process. A bounded slice runs by default against TF's answers kept in
tests/goldens/fuzz14-slice/; `-m slow` runs 1,000 programs. Needs the `tf` extra for the slow
profile only (the slice runs without TensorFlow).
"""

from __future__ import annotations

import importlib.util
import os
from typing import Iterator

import pytest

from fz2_campaign import failures_of
from fz14_campaign import stream
from fz14_known import KNOWN_OPEN, known_key
from fz14_progs import MODES, generate
from fz14_run import KeptWorker14, describe, disagreements_of, minimize, run_simdist
from fz14_vocab import OPS

needs_tf = pytest.mark.skipif(importlib.util.find_spec("tensorflow") is None,
                              reason="real TensorFlow is not installed (pip install -e .[tf])")
clause = pytest.mark.clause
SEED = 14_20261201

SLICE_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "goldens", "fuzz14-slice")
SLICE_RELEASE = "tensorflow-cpu 2.21.0"
_SLICE_SEEDS = {m: SEED * 10 + k for k, m in enumerate(MODES)}


@pytest.fixture(scope="module")
def worker() -> Iterator[KeptWorker14]:
    has_tf = importlib.util.find_spec("tensorflow") is not None
    w = KeptWorker14(SLICE_DIR, keep=True, release=None if has_tf else SLICE_RELEASE)
    yield w
    w.close()


def _run(worker: KeptWorker14, seed: int, indices: list[int], mode: str | None = None) -> tuple[list[str], dict]:
    return failures_of(stream(worker, seed, indices, mode, 20), worker, seed, known_key, minimize, describe)


@clause("ops.fuzz4")
@pytest.mark.parametrize("mode,count", [("eager", 12), ("function", 6), ("sig", 6), ("tape", 8), ("dist", 4)])
def test_fuzz14_slice(worker: KeptWorker14, mode: str, count: int) -> None:
    """A bounded slice of each mode (36 programs), against TF's kept answers."""
    failures, known = _run(worker, _SLICE_SEEDS[mode], list(range(count)), mode)
    assert not failures, f"{len(failures)} of {count} {mode} programs disagree with TF 2.21 (open classes seen: " \
                         f"{known}):\n" + "\n\n".join(failures[:3])


@needs_tf
@pytest.mark.tf
@pytest.mark.slow
@clause("ops.fuzz4")
@pytest.mark.parametrize("chunk", range(5))
def test_fuzz14_long(chunk: int) -> None:
    """1,000 programs of seed SEED + 1 in 5 chunks of 200 (mode drawn per program); TF's answers
    kept under .cache/fuzz14-answers (a re-run asks TF only for programs it has not answered)."""
    w = KeptWorker14(keep=True)
    try:
        failures, known = _run(w, SEED + 1, list(range(chunk * 200, chunk * 200 + 200)))
    finally:
        w.close()
    assert not failures, f"{len(failures)} of 200 programs disagree with TF 2.21 (open classes seen: {known}):\n" + \
        "\n\n".join(failures[:3])


def test_generation_is_deterministic() -> None:
    """A program depends only on (seed, index, mode): drawn twice, the same inputs and snippets."""
    import numpy as np
    for i in range(8):
        a, b = generate(SEED, i), generate(SEED, i)
        assert a.source() == b.source(), f"program {i} differs between two draws:\n{a.source()}\n{b.source()}"
        assert all(np.array_equal(x[0], y[0], equal_nan=x[0].dtype.kind in "fc") for x, y in zip(a.inputs, b.inputs))


def test_programs_reach_every_mode_and_namespace() -> None:
    """200 programs reach every mode, every namespace of the vocabulary, keywords, seeds, nested
    tapes, operators on Variables and every dtype family among the inputs."""
    progs = [generate(SEED, i) for i in range(200)]
    assert {p.mode for p in progs} == set(MODES), f"modes drawn {sorted({p.mode for p in progs})}"
    text = "\n".join(e for p in progs for e in p.exprs)
    for ns in ("tf.math.", "tf.nn.", "tf.linalg.", "tf.signal.", "tf.image.", "tf.strings.", "tf.bitwise.",
               "tf.random.", "tf.dtypes."):
        assert ns in text, f"200 programs never call {ns}*"
    for piece in ("seed=", "axis=", "dtype=", "np.array(", "tf.random.set_seed(", "Generator.from_seed(", " += ",
                  "float('nan')", "1e-40", "np.uint16", "np.complex128"):
        assert piece in text, f"200 programs never use {piece!r}"
    assert any(p.order == 2 for p in progs if p.mode == "tape"), "no nested tape in 200 programs"
    assert any(not p.watch_accessed for p in progs if p.mode == "tape"), "no watch_accessed_variables=False tape"
    dts = {dt for p in progs for _, dt, _ in p.inputs}
    for dt in ("bfloat16", "uint64", "complex64", "bool", "int8"):
        assert dt in dts, f"no {dt} input in 200 programs (drawn: {sorted(dts)})"


def test_vocabulary_exists_in_the_facade() -> None:
    """Every function of the vocabulary the facade should have exists in simdist.tf; the ones
    it lacks are the known list's `missing op` entries (AttributeError on simdist's side)."""
    from simdist import tf
    missing = []
    for path, _ in OPS:
        obj = tf
        for part in path.split("."):
            obj = getattr(obj, part, None)
            if obj is None:
                missing.append(path)
                break
    listed = sorted(k[0][len("call:"):] for k in KNOWN_OPEN if k[1] == "missing")
    assert sorted(missing) == listed, f"missing from the facade {sorted(missing)}, but fz14_known.py lists {listed}"


def test_simdist_side_runs_every_mode() -> None:
    """Each mode's interpreter runs on simdist: one outcome per snippet, no harness crash."""
    for mode in MODES:
        p = generate(SEED, 3, mode)
        got = run_simdist([p])[0]
        assert got[0] == "ran", f"the harness crashed on a {mode} program: {got}"
        assert len(got[1]) == len(p.exprs), f"{len(got[1])} outcomes for {len(p.exprs)} snippets ({mode})"
        assert disagreements_of(p, got, got) == [], f"a {mode} program's outcomes disagree with themselves"


def test_known_classes_say_what_each_side_does() -> None:
    for key, text in KNOWN_OPEN.items():
        assert "TF" in text and "simdist" in text, f"open class {key} does not say what TF and simdist do: {text}"
