"""The third differential fuzzer against real TensorFlow 2.21 (docs/spec.md `ops.fuzz3`): seeded
programs of independent calls of public TF callables with arguments drawn by their signatures
(keywords, defaults varied, literal operands of every kind), run eagerly, in a tf.function with an
input_signature, under GradientTapes (persistent, watch_accessed_variables, second order) and in
MirroredStrategy.run with reduce and gather, on simdist and on TF in a worker process. A bounded
slice runs by default; `-m slow` runs 2,000 programs. Needs the `tf` extra.
"""

from __future__ import annotations

import importlib.util
from typing import Iterator

import pytest

from fz3_calls import MODES, generate
from fz2_campaign import failures_of
from fz3_campaign import root_of, stream
from fz3_known import KNOWN_OPEN
from fz3_run import TFWorker3, describe, disagreements_of, kind_of, minimize, run_simdist

needs_tf = pytest.mark.skipif(importlib.util.find_spec("tensorflow") is None,
                              reason="real TensorFlow is not installed (pip install -e .[tf])")
clause = pytest.mark.clause
SEED = 3_20261129


@pytest.fixture(scope="module")
def worker() -> Iterator[TFWorker3]:
    w = TFWorker3()
    yield w
    w.close()


def _known(expr: str, kind: str) -> bool:
    root = root_of(expr)
    return kind in KNOWN_OPEN or (root, kind) in KNOWN_OPEN or any(
        isinstance(k, str) and root.startswith(k + ".") for k in KNOWN_OPEN)


def _known_key(p, t: int, got, want):
    kind = kind_of(got, want)
    return (root_of(p.exprs[t]), kind) if t >= 0 and _known(p.exprs[t], kind) else None


def _run(worker: TFWorker3, seed: int, indices: list[int], mode: str | None = None) -> tuple[list[str], dict]:
    return failures_of(stream(worker, seed, indices, mode, 20), worker, seed, _known_key, minimize, describe)


@needs_tf
@pytest.mark.tf
@clause("ops.fuzz3")
@pytest.mark.parametrize("mode,count", [("eager", 6), ("sig", 3), ("tape", 4), ("dist", 1)])
def test_fuzz3_slice(worker: TFWorker3, mode: str, count: int) -> None:
    """A bounded slice of each mode."""
    failures, known = _run(worker, SEED, list(range(count)), mode)
    assert not failures, f"{len(failures)} of {count} {mode} programs disagree with TF 2.21 (open classes seen: " \
                         f"{known}):\n" + "\n\n".join(failures[:3])


@needs_tf
@pytest.mark.tf
@pytest.mark.slow
@clause("ops.fuzz3")
@pytest.mark.parametrize("chunk", range(10))
def test_fuzz3_long(worker: TFWorker3, chunk: int) -> None:
    """2,000 programs of seed SEED + 1 in 10 chunks of 200 (mode drawn per program)."""
    failures, known = _run(worker, SEED + 1, list(range(chunk * 200, chunk * 200 + 200)))
    assert not failures, f"{len(failures)} of 200 programs disagree with TF 2.21 (open classes seen: {known}):\n" + \
        "\n\n".join(failures[:3])


def test_generation_is_deterministic() -> None:
    """A program depends only on (seed, index, mode): drawn twice, the same inputs and calls."""
    import numpy as np
    for i in range(6):
        a, b = generate(SEED, i), generate(SEED, i)
        assert a.exprs == b.exprs, f"program {i}'s calls differ between two draws: {a.exprs[:2]} vs {b.exprs[:2]}"
        assert all(np.array_equal(x[0], y[0], equal_nan=x[0].dtype.kind == "f") and x[1:] == y[1:]
                   for x, y in zip(a.inputs, b.inputs)), f"program {i}'s inputs differ between two draws"


def test_calls_use_keywords_literals_and_every_mode() -> None:
    """The generator reaches every mode, passes arguments by keyword, and uses NumPy, list and
    tf.constant operands, dtype strings and name=."""
    progs = [generate(SEED, i) for i in range(60)]
    modes = {p.mode for p in progs}
    assert modes == set(MODES), f"modes drawn {sorted(modes)}, expected {sorted(MODES)}"
    texts = " ".join(e for p in progs for e in p.exprs)
    for piece in ("input_tensor=", "np.array(", "tf.constant(", "name=", "axis=", "keepdims=", "dtype="):
        assert piece in texts, f"60 programs never use {piece!r}"
    assert any(p.order == 2 for p in progs if p.mode == "tape"), "no second-order tape program in 60"
    assert any(None in (s or [None]) for p in progs for s in p.signature), "no None dimension in any signature"


def test_simdist_side_runs_every_mode() -> None:
    """Each mode's interpreter runs on simdist: one outcome per call, no harness crash."""
    for mode in MODES:
        p = generate(SEED, 2, mode)
        got = run_simdist([p])[0]
        assert got[0] == "ran", f"the harness crashed on a {mode} program: {got}"
        assert len(got[1]) == len(p.exprs), f"{len(got[1])} outcomes for {len(p.exprs)} calls ({mode})"
        assert disagreements_of(p, got, got) == [], f"a {mode} program's outcomes disagree with themselves"


def test_extended_catalogue_reaches_the_newer_ops() -> None:
    """With ext=True (issue 29's fz5) programs call complex numbers, tf.random's stateless samplers,
    tf.image and Eigen's newer kernels, while ext=False programs are the earlier stream's."""
    progs = [generate(SEED, i, ext=True) for i in range(60)]
    texts = " ".join(e for p in progs for e in p.exprs)
    for piece in ("complex64", "complex128", "tf.random.stateless_", "tf.image.", "tf.math.sin(", "tf.math.erf("):
        assert piece in texts, f"60 extended programs never use {piece!r}"
    assert any(dt.startswith("complex") for p in progs for _, dt, _ in p.inputs), "no complex input in 60 programs"
    base = [generate(SEED, i) for i in range(10)]
    assert all(a.exprs != b.exprs for a, b in zip(base, progs[:10])), "ext=True should draw another stream"
    assert not any("tf.image." in e or "complex" in e for p in base for e in p.exprs), \
        "the earlier stream (ext=False) drew an op of the extended catalogue"


def test_ext8_catalogue_reaches_the_eleventh_session_ops() -> None:
    """With ext=2 programs also call fz3_ops.EXT8_OPS (fingerprint, the CTC decoders and unique
    labels, the fractional pools, eigh_tridiagonal) in a stream of their own: ext=True's is unchanged."""
    progs = [generate(SEED, i, ext=2) for i in range(300)]
    texts = " ".join(e for p in progs for e in p.exprs)
    for piece in ("tf.fingerprint(", "tf.nn.ctc_greedy_decoder(", "tf.nn.ctc_beam_search_decoder(",
                  "tf.nn.ctc_unique_labels(", "tf.nn.fractional_max_pool(", "tf.nn.fractional_avg_pool(",
                  "tf.linalg.eigh_tridiagonal(", "tf.linalg.logm(", "tf.image.stateless_sample_distorted_bounding_box(",
                  "tf.is_symbolic_tensor("):
        assert piece in texts, f"300 ext=2 programs never use {piece!r}"
    ext1 = [generate(SEED, i, ext=True) for i in range(10)]
    assert all(a.exprs != b.exprs for a, b in zip(ext1, progs[:10])), "ext=2 should draw another stream than ext=True"
    assert not any(p in e for p in ("fingerprint", "ctc_", "fractional_", "eigh_tridiagonal")
                   for q in ext1 for e in q.exprs), "the ext=True stream drew an op of EXT8_OPS"
