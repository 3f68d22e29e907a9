"""The fourth differential fuzzer against real TensorFlow 2.21 (docs/spec.md `ops.fuzz4`): seeded
programs of small snippets that call the API the way users write it (argument forms, Variables
and the Python protocol of tensors, conversions, keywords), run eagerly, in tf.function with and
without an input_signature (retraced with Python scalars, the tracing count compared), under
GradientTapes with list/dict/single sources, and in MirroredStrategy.run with reduce and gather,
on simdist and on TF in a worker process. A bounded slice runs by default; `-m slow` runs 2,000
programs. Needs the `tf` extra (skipped without it, as the other fuzzers).
"""

from __future__ import annotations

import importlib.util
import os
from typing import Iterator

import pytest

from fz2_campaign import failures_of
from fz4_campaign import stream
from fz4_known import KNOWN_OPEN, known_key
from fz4_progs import MODES, generate, label_of
from fz4_run import KeptWorker, describe, disagreements_of, minimize, normalise, run_simdist

needs_tf = pytest.mark.skipif(importlib.util.find_spec("tensorflow") is None,
                              reason="real TensorFlow is not installed (pip install -e .[tf])")
clause = pytest.mark.clause
SEED = 4_20261130


# TF's answers to the default slice, kept in the repository (tests/goldens/fuzz4-slice/, keyed by
# each program's content and TF's release): the slice runs without TensorFlow, and asks TF live
# (keeping its answers) only for programs whose text changed. Without TF the recorded release is used.
SLICE_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "goldens", "fuzz4-slice")
SLICE_RELEASE = "tensorflow-cpu 2.21.0"
_SLICE_SEEDS = {m: SEED * 10 + k for k, m in enumerate(MODES)}


@pytest.fixture(scope="module")
def worker() -> Iterator[KeptWorker]:
    has_tf = importlib.util.find_spec("tensorflow") is not None
    w = KeptWorker(SLICE_DIR, keep=True, release=None if has_tf else SLICE_RELEASE)
    yield w
    w.close()


def _run(worker: KeptWorker, seed: int, indices: list[int], mode: str | None = None) -> tuple[list[str], dict]:
    return failures_of(stream(worker, seed, indices, mode, 20), worker, seed, known_key, minimize, describe)


@clause("ops.fuzz4")
@pytest.mark.parametrize("mode,count", [("eager", 4), ("function", 2), ("sig", 2), ("tape", 3), ("dist", 1)])
def test_fuzz4_slice(worker: KeptWorker, mode: str, count: int) -> None:
    """A bounded slice of each mode, against TF's kept answers."""
    failures, known = _run(worker, _SLICE_SEEDS[mode], list(range(count)), mode)
    assert not failures, f"{len(failures)} of {count} {mode} programs disagree with TF 2.21 (open classes seen: " \
                         f"{known}):\n" + "\n\n".join(failures[:3])


@needs_tf
@pytest.mark.tf
@pytest.mark.slow
@clause("ops.fuzz4")
@pytest.mark.parametrize("chunk", range(10))
def test_fuzz4_long(chunk: int) -> None:
    """2,000 programs of seed SEED + 1 in 10 chunks of 200 (mode drawn per program); TF's answers
    kept under .cache/fuzz4-answers (a re-run asks TF only for programs it has not answered)."""
    w = KeptWorker(keep=True)
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
        assert all(np.array_equal(x[0], y[0], equal_nan=x[0].dtype.kind == "f") for x, y in zip(a.inputs, b.inputs))


def test_programs_vary_argument_forms_and_modes() -> None:
    """150 programs reach every mode and the argument forms the other fuzzers do not use."""
    progs = [generate(SEED, i) for i in range(150)]
    modes = {p.mode for p in progs}
    assert modes == set(MODES), f"modes drawn {sorted(modes)}, expected {sorted(MODES)}"
    text = "\n".join(e for p in progs for e in p.exprs)
    for piece in ("np.float64(", "np.array(", ".assign", "].assign(", "len(", ".numpy()",
                  "axis=tf.constant(", "keepdims=", "dtype_hint=", "shape=", "..., None", "::-1", "tf.cast(tf.cast(",
                  "for t in", "float(", "bool(", "name=", "tf.TensorShape("):
        assert piece in text, f"150 programs never use {piece!r}"
    labels = {label_of("operator", e) for p in progs for e in p.exprs if " ** " in e}
    assert labels, "no ** operator drawn in 150 programs"
    assert any(p.sources == "dict" for p in progs if p.mode == "tape"), "no tape program with dict sources in 150"


def test_simdist_side_runs_every_mode() -> None:
    """Each mode's interpreter runs on simdist: one outcome per snippet, no harness crash, and
    the outcomes agree with themselves."""
    for mode in MODES:
        p = generate(SEED, 3, mode)
        got = run_simdist([p])[0]
        assert got[0] == "ran", f"the harness crashed on a {mode} program: {got}"
        assert len(got[1]) == len(p.exprs), f"{len(got[1])} outcomes for {len(p.exprs)} snippets ({mode})"
        assert disagreements_of(p, got, got) == [], f"a {mode} program's outcomes disagree with themselves"


def test_python_values_have_a_normal_form() -> None:
    """What snippets return (floats with NaN, NumPy values, shapes, dtypes, lists) compares by value."""
    import numpy as np
    from simdist import tf
    a, b = normalise(tf, [float("nan"), np.float32(2), tf.TensorShape([2, None]), tf.float32, (1, True)]), \
        normalise(tf, [float("nan"), np.float32(2), tf.TensorShape([2, None]), tf.float32, (1, True)])
    from fz2_run import _differs
    assert not _differs(a, b, True), f"one value normalised twice differs: {a} vs {b}"
    assert _differs(normalise(tf, [1, 2]), normalise(tf, (1, 2)), True), "a list and a tuple compared equal"


def test_known_classes_say_what_each_side_does() -> None:
    for key, text in KNOWN_OPEN.items():
        assert "TF" in text and "simdist" in text, f"open class {key} does not say what TF and simdist do: {text}"
