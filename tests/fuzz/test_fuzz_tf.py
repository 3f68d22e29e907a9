"""The differential fuzzer against real TensorFlow 2.21 (docs/spec.md `ops.fuzz`): seeded random
programs of 20-150 calls over the facade's math, reductions, matmul/einsum, shape ops, tf.nn,
segment ops, sort/top_k and casts, with edge values, run eagerly, under a GradientTape and in
MirroredStrategy.run with reduce/gather, on simdist and on TF in a worker process. A bounded slice
runs by default; `-m slow` runs 20,000 programs. Disagreements of the classes in KNOWN_OPEN (each
with the reason it is still open) are counted but do not fail; any other fails with the minimized
program and its reproducer. Needs the `tf` extra.
"""

from __future__ import annotations

import importlib.util
import os
from typing import Any, Iterator

import numpy as np
import pytest

from answers import Answers
from catalogue import OPS
from differ import TFWorker, _ancestors, describe, disagreements, first_disagreement, minimize, run_simdist, subset
from known import open_class
from programs import Program, generate

needs_tf = pytest.mark.skipif(importlib.util.find_spec("tensorflow") is None,
                              reason="real TensorFlow is not installed (pip install -e .[tf])")
clause = pytest.mark.clause
SEED = 20261129


@pytest.fixture(scope="module")
def worker() -> Iterator[TFWorker]:
    w = TFWorker()
    yield w
    w.close()


def _run(worker: TFWorker, seed: int, indices: list[int], mode: str | None = None,
         answers: Answers | None = None) -> tuple[list[str], dict[str, int]]:
    failures, known = [], {}
    for p, where in disagreements(worker, seed, indices, mode, answers=answers):
        cls = open_class(p, where)
        if cls is not None:
            known[cls] = known.get(cls, 0) + 1
            continue
        small, small_where = minimize(p, worker, budget=60)
        failures.append(f"program seed={seed} index={p.index} mode={p.mode}: {describe(small, small_where)}\n"
                        f"{small.source()}")
    return failures, known


@needs_tf
@pytest.mark.tf
@clause("ops.fuzz")
@pytest.mark.parametrize("mode,count", [("eager", 10), ("grad", 6), ("dist", 2)])
def test_fuzz_slice(worker: TFWorker, mode: str, count: int) -> None:
    """A bounded slice (MirroredStrategy programs are the slow ones on TF: about 1.3 s of CPU each)."""
    failures, known = _run(worker, SEED, list(range(count)), mode)
    assert not failures, f"{len(failures)} of {count} {mode} programs disagree with TF 2.21 (open classes seen: {known}):\n" + \
        "\n\n".join(failures[:3])


@needs_tf
@pytest.mark.tf
@pytest.mark.slow
@clause("ops.fuzz")
@pytest.mark.parametrize("chunk", range(40))
def test_fuzz_long(worker: TFWorker, chunk: int) -> None:
    """20,000 programs in 40 chunks of 500 (mode drawn per program). TF's answers are kept
    (answers.py): a re-run asks TF only for the programs whose text changed since."""
    failures, known = _run(worker, SEED + 1, list(range(chunk * 500, chunk * 500 + 500)), answers=Answers())
    assert not failures, f"{len(failures)} of 500 programs disagree with TF 2.21 (open classes seen: {known}):\n" + \
        "\n\n".join(failures[:3])


@needs_tf
@pytest.mark.tf
@clause("reduce.dtypes")
def test_reduce_of_bool_per_replica_values(worker: TFWorker) -> None:
    """strategy.reduce(SUM/MEAN, axis=None) of bool per-replica values: TF's AddN refuses bools."""
    prog = Program(0, 0, "dist", [np.array([True, False])], [np.array([False, False])],
                   [("identity", (("v", 0, None),), {})])
    got, want = run_simdist([prog])[0], worker.run([prog])[0]
    assert want[0] == "ran", f"TF 2.21 failed to run the program: {want}"
    cross = dict(want[1][1:])
    assert cross["sum"] == ("err", "InvalidArgumentError"), f"TF 2.21 gives {cross['sum']} for SUM (test premise)"
    where = first_disagreement(prog, got, want)
    assert where is None, f"simdist disagrees with TF 2.21: {describe(prog, where)}"


def test_generation_is_seeded() -> None:
    a, b = generate(SEED, 3), generate(SEED, 3)
    assert a.source() == b.source(), "the same seed and index gave two different programs"
    assert generate(SEED, 4).source() != a.source(), "programs 3 and 4 of a stream are identical"
    lengths = [len(generate(SEED, i, "eager").steps) for i in range(6)]
    assert all(20 <= n <= 150 for n in lengths), f"program lengths {lengths}, expected 20..150 steps"


def test_generator_reaches_every_op() -> None:
    called = {s[0] for i in range(40) for s in generate(SEED, i, "eager").steps}
    missing = sorted(op.name for op in OPS if op.name not in called)
    assert not missing, f"40 programs never call {missing}"


def test_subset_keeps_a_runnable_program() -> None:
    from simdist import tf
    prog = generate(SEED, 5, "eager")
    k = len(prog.steps) - 1
    small = subset(prog, _ancestors(prog, k))
    assert small.steps[-1][0] == prog.steps[k][0], \
        f"the last kept step is {small.steps[-1][0]}, expected the target {prog.steps[k][0]}"
    got = run_simdist([small])[0]
    full = run_simdist([prog])[0]
    assert got[0] == "ran", f"the subset program crashed: {got}"
    np.testing.assert_equal(got[1][-1], full[1][k], err_msg="the target step's result changed in the subset")
    assert tf is not None


def test_eager_steps_use_earlier_results() -> None:
    """Eager programs pass each step's result on (a step that reads one must not fail to find it)."""
    from simdist import tf
    from programs import execute
    lost = []
    for i in range(6):
        prog = generate(SEED, i, "eager")
        lost += [(i, k) for k, r in enumerate(execute(tf, prog)) if r == ("err", "IndexError")]
    assert not lost, f"steps {lost[:5]} raised IndexError: they read a value the interpreter did not keep"


def test_order_probe_flags_only_cancelling_sums() -> None:
    """The comparison rule for gradient sums whose order moves them (differ._OrderProbe)."""
    from differ import _order_sensitive
    from simdist import tf
    big = float(np.finfo(np.float32).max)
    cases = {"+-FLT_MAX around 1": ([[big], [-big], [1.0]], True), "ordinary terms": ([[1.0], [2.5], [-3.0]], False),
             "two terms (order-free)": ([[big], [-big]], False), "exact cancellation of small terms": ([[1.0], [-1.0], [0.5]], False)}
    for name, (terms, want) in cases.items():
        got = len(terms) >= 3 and _order_sensitive([tf.constant(t, tf.float32) for t in terms])
        assert got == want, f"order-sensitive={got} for {name}, but should be {want}"


def test_kept_answers_follow_the_program(tmp_path) -> None:
    """A kept TF answer is returned for the same program only: a changed step or input bit misses."""
    prog = generate(SEED, 2, "eager")
    answers = Answers(str(tmp_path))
    assert answers.get(prog) is None, "an empty directory returned an answer"
    answers.put(prog, ("ran", ["tf's result"]))
    answers.flush()
    again = Answers(str(tmp_path))
    assert again.get(generate(SEED, 2, "eager")) == ("ran", ["tf's result"]), "the kept answer was not read back"
    changed = generate(SEED, 2, "eager")
    changed.steps = changed.steps[:-1]
    assert again.get(changed) is None, "a program with one step fewer got the kept answer"
    flipped = generate(SEED, 2, "eager")
    flipped.inputs[0] = flipped.inputs[0].copy()
    flipped.inputs[0].reshape(-1).view(np.uint8)[:1] ^= 1 if flipped.inputs[0].size else 0
    if flipped.inputs[0].size:
        assert again.get(flipped) is None, "a program whose input changed by one bit got the kept answer"


def test_kept_answers_of_two_hosts_live_side_by_side(tmp_path) -> None:
    """Each CPU signature keeps its own answer to a program (clause ops.host-cpu: TF's answer may depend on the CPU), so
    a committed slice answers a run on every host the project records it on, and a run that finds its host's answer
    writes nothing: the files are read, never rewritten."""
    prog = generate(SEED, 3, "eager")
    intel, amd = Answers(str(tmp_path)), Answers(str(tmp_path))
    intel.release, amd.release = "tf on intel", "tf on amd"
    intel.put(prog, ("ran", ["intel's"]))
    intel.flush()
    amd = Answers(str(tmp_path))
    amd.release = "tf on amd"
    assert amd.get(prog) is None, "a host without its own answer was given another host's"
    amd.put(prog, ("ran", ["amd's"]))
    amd.flush()
    path = os.path.join(str(tmp_path), os.listdir(str(tmp_path))[0])
    before = open(path, "rb").read()
    for release, want in (("tf on intel", ["intel's"]), ("tf on amd", ["amd's"])):
        reader = Answers(str(tmp_path))
        reader.release = release
        got = reader.get(prog)
        assert got == ("ran", want), f"{release} read {got}, but should read ('ran', {want})"
        reader.flush()
    assert open(path, "rb").read() == before, "reading the kept answers rewrote their file"
