"""The twentieth differential fuzzer against real TensorFlow 2.21 (docs/spec.md `ops.fuzz-raw`): seeded
programs that call tf.raw_ops drawn from TF's OpDefs (tests/fuzz20/fz20_progs.py: every type attr from its
allowed_values and now and then one it refuses, attrs from their OpDef types, inputs of rank 0-4 with edge
values), run eagerly, under a GradientTape, in tf.function and with an input_signature, on simdist and on TF in
a worker process (fz14's runner and comparison). A bounded slice runs by default against TF's answers kept in
tests/goldens/fuzz20-slice/ (programs of host-independent ops only: fz20_progs.host_independent); `-m slow`
runs 600 programs of every op. The slice runs without TensorFlow.
"""

from __future__ import annotations

import importlib.util
import os
from typing import Iterator

import pytest

from fz2_campaign import failures_of
from fz14_run import KeptWorker14, describe, disagreements_of, minimize, run_simdist
from fz20_campaign import ANSWERS_DIR, stream
from fz20_known import KNOWN_OPEN, known_key
from fz20_progs import DTYPES, MODES, OPS, generate, host_independent, op_of, spec

needs_tf = pytest.mark.skipif(importlib.util.find_spec("tensorflow") is None,
                              reason="real TensorFlow is not installed (pip install -e .[tf])")
clause = pytest.mark.clause
SEED = 20_20261201

SLICE_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "goldens", "fuzz20-slice")
SLICE_RELEASE = "tensorflow-cpu 2.21.0"
_SLICE_SEEDS = {m: SEED * 10 + k for k, m in enumerate(MODES)}


def slice_indices(mode: str, count: int) -> list[int]:
    """The first `count` programs of the mode's slice seed that call a host-independent op."""
    out: list[int] = []
    i = 0
    while len(out) < count:
        if host_independent(op_of(_SLICE_SEEDS[mode], i)):
            out.append(i)
        i += 1
    return out


@pytest.fixture(scope="module")
def worker() -> Iterator[KeptWorker14]:
    has_tf = importlib.util.find_spec("tensorflow") is not None
    w = KeptWorker14(SLICE_DIR, keep=True, release=None if has_tf else SLICE_RELEASE)
    yield w
    w.close()


def _run(worker: KeptWorker14, seed: int, indices: list[int], mode: str | None = None) -> tuple[list[str], dict]:
    return failures_of(stream(worker, seed, indices, mode, 20), worker, seed, known_key, minimize, describe)


@clause("ops.fuzz-raw")
@pytest.mark.parametrize("mode,count", [("eager", 12), ("tape", 8), ("function", 6), ("sig", 6)])
def test_fuzz20_slice(worker: KeptWorker14, mode: str, count: int) -> None:
    """A bounded slice of each mode (32 programs), against TF's kept answers."""
    failures, known = _run(worker, _SLICE_SEEDS[mode], slice_indices(mode, count), mode)
    assert not failures, f"{len(failures)} of {count} {mode} programs disagree with TF 2.21 (open classes seen: " \
                         f"{known}):\n" + "\n\n".join(failures[:3])


@needs_tf
@pytest.mark.tf
@pytest.mark.slow
@clause("ops.fuzz-raw")
@pytest.mark.parametrize("chunk", range(3))
def test_fuzz20_long(chunk: int) -> None:
    """600 programs of seed SEED + 1 in 3 chunks of 200 (mode drawn per program); TF's answers kept under
    .cache/fuzz20-answers (a re-run asks TF only for programs it has not answered)."""
    w = KeptWorker14(ANSWERS_DIR, keep=True)
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


def test_programs_reach_every_mode_dtype_and_attr_kind() -> None:
    """400 programs reach every mode, every dtype TF has (as an input or a type attr), every OpDef attr
    kind, rejected dtypes and invalid attr values, edge values, zero-size shapes and the tape's sources."""
    progs = [generate(SEED, i) for i in range(400)]
    assert {p.mode for p in progs} == set(MODES), f"modes drawn {sorted({p.mode for p in progs})}"
    text = "\n".join(e for p in progs for e in p.exprs)
    dts = {dt for p in progs for _, dt, _ in p.inputs} | {d for d in DTYPES if f"tf.{d}" in text}
    assert dts == set(DTYPES), f"dtypes never drawn: {sorted(set(DTYPES) - dts)}"
    for piece in ("padding='", "=True", "=-1", "tf.TensorShape(", "name='op'", "'BOGUS'",
                  "strides=[", "tf.constant([", "x0, x1"):
        assert piece in text, f"400 programs never use {piece!r}"
    values = [x[0] for p in progs for x in p.inputs]
    import numpy as np
    assert any(a.size == 0 for a in values), "no zero-size input in 400 programs"
    assert any(a.dtype.kind == "f" and np.isinf(a).any() for a in values), "no infinity among the inputs"
    assert any(a.dtype.kind == "f" and np.isnan(a).any() for a in values), "no NaN among the inputs"
    assert any(a.dtype.kind == "i" and (a == np.iinfo(a.dtype).min).any() for a in values), "no int minimum"
    assert any(a.dtype.kind == "f" and (np.signbit(a) & (a == 0)).any() for a in values), "no -0.0 among the inputs"
    assert any(p.watched for p in progs if p.mode == "tape"), "no watched float input in a tape program"
    drawn = {p.labels[0][len("raw:"):] for p in progs}
    assert len(drawn) > len(OPS) * 0.6, f"400 programs reach only {len(drawn)} of {len(OPS)} raw ops"


def test_every_drawn_op_exists_in_the_facade() -> None:
    """Every raw op the generator draws is bound in simdist's tf.raw_ops, with TF's OpDef recorded."""
    from simdist import tf
    missing = [op for op in OPS if not callable(getattr(tf.raw_ops, op, None))]
    assert not missing, f"tf.raw_ops lacks {missing}, which fz20_ops.OPS draws"
    assert all(spec(op)["args"] is not None for op in OPS)


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
