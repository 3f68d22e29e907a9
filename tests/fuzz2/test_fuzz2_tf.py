"""The second differential fuzzer against real TensorFlow 2.21 (docs/spec.md `ops.fuzz`, second
generator): seeded programs of independent expression trees over inputs of every dtype (Variables
too), run eagerly, inside tf.function (called twice), under a GradientTape (gradients to every
Variable, unconnected NONE or ZERO) and in MirroredStrategy.run with local results and reduce, on
simdist and on TF in a worker process (tests/fuzz/differ.py's). A bounded slice runs by default;
`-m slow` runs 2,000 programs. Needs the `tf` extra.
"""

from __future__ import annotations

import importlib.util
from typing import Iterator

import pytest

from fz2_campaign import failures_of, root_of, stream
from fz2_known import KNOWN_OPEN
from fz2_run import TFWorker2, disagreements_of, kind_of, run_simdist
from fz2_trees import MODES, generate

needs_tf = pytest.mark.skipif(importlib.util.find_spec("tensorflow") is None,
                              reason="real TensorFlow is not installed (pip install -e .[tf])")
clause = pytest.mark.clause
SEED = 20261129


@pytest.fixture(scope="module")
def worker() -> Iterator[TFWorker2]:
    w = TFWorker2()
    yield w
    w.close()


def _known_key(p, t: int, got, want):
    key = (root_of(p.exprs[t]) if t >= 0 else "program", kind_of(got, want))
    return key if key in KNOWN_OPEN else None


def _run(worker: TFWorker2, seed: int, indices: list[int], mode: str | None = None) -> tuple[list[str], dict]:
    return failures_of(stream(worker, seed, indices, mode, 20), worker, seed, _known_key)


@needs_tf
@pytest.mark.tf
@clause("ops.fuzz")
@pytest.mark.parametrize("mode,count", [("eager", 6), ("function", 3), ("grad", 4), ("dist", 1)])
def test_fuzz2_slice(worker: TFWorker2, mode: str, count: int) -> None:
    """A bounded slice of each mode."""
    failures, known = _run(worker, SEED, list(range(count)), mode)
    assert not failures, f"{len(failures)} of {count} {mode} programs disagree with TF 2.21 (open classes seen: " \
                         f"{known}):\n" + "\n\n".join(failures[:3])


@needs_tf
@pytest.mark.tf
@pytest.mark.slow
@clause("ops.fuzz")
@pytest.mark.parametrize("chunk", range(10))
def test_fuzz2_long(worker: TFWorker2, chunk: int) -> None:
    """2,000 programs of seed SEED + 1 in 10 chunks of 200 (mode drawn per program)."""
    failures, known = _run(worker, SEED + 1, list(range(chunk * 200, chunk * 200 + 200)))
    assert not failures, f"{len(failures)} of 200 programs disagree with TF 2.21 (open classes seen: {known}):\n" + \
        "\n\n".join(failures[:3])


def test_generation_is_deterministic() -> None:
    """A program depends only on (seed, index, mode): drawn twice, the same inputs and trees."""
    import numpy as np
    for i in range(4):
        a, b = generate(SEED, i), generate(SEED, i)
        assert a.exprs == b.exprs, f"program {i}'s trees differ between two draws: {a.exprs[:2]} vs {b.exprs[:2]}"
        assert all(np.array_equal(x[0], y[0], equal_nan=x[0].dtype.kind == "f") and x[1:] == y[1:]
                   for x, y in zip(a.inputs, b.inputs)), f"program {i}'s inputs differ between two draws"


def test_modes_and_dtypes_are_drawn() -> None:
    """The generator reaches every mode, the unsigned and 16-bit dtypes, Variables and operators."""
    progs = [generate(SEED, i) for i in range(40)]
    modes = {p.mode for p in progs}
    dts = {dt for p in progs for _, dt, _ in p.inputs}
    texts = " ".join(e for p in progs for e in p.exprs)
    assert modes == set(MODES), f"modes drawn {sorted(modes)}, expected {sorted(MODES)}"
    missing = {"uint16", "uint32", "uint64", "int16", "bfloat16", "float16"} - dts
    assert not missing, f"40 programs never draw inputs of {sorted(missing)}"
    assert any(var for p in progs for _, _, var in p.inputs), "no input is a Variable in 40 programs"
    for piece in ("name=", "keepdims=", "np.", "axis=-"):
        assert piece in texts, f"40 programs never use {piece.strip()!r}"
    ops = [s for s in (" + ", " - ", " * ", " / ", " // ", " % ", " < ", " == ", " & ", " | ", " ^ ") if s in texts]
    assert len(ops) >= 4, f"40 programs use only the operators {ops}"


def test_simdist_side_runs_every_mode() -> None:
    """Each mode's interpreter runs on simdist: one outcome per tree, no harness crash."""
    for mode in MODES:
        p = generate(SEED, 1, mode)
        got = run_simdist([p])[0]
        assert got[0] == "ran", f"the harness crashed on a {mode} program: {got}"
        assert len(got[1]) == len(p.exprs), f"{len(got[1])} outcomes for {len(p.exprs)} trees ({mode})"
    assert disagreements_of(p, got, got) == [], "a program's outcomes disagree with themselves"
