"""A bounded slice of fz51d (tests/fuzz51d/fz51d_gen.py, the generator of the tf.distribute API surface: strategies,
run with nested args, reduce/gather, local results, distributed datasets, replica-context collectives, merge_call,
variables of every synchronization/aggregation, error paths) in the default run: the first programs of seed 51201
whose every statement agrees with TF 2.21, each program's record (every statement's outcome) compared with TF's
answers kept in tests/goldens/ (recorded by running this module with TensorFlow installed). The whole campaign:

    python tests/fuzz51d/fz51d_gen.py SEED N     (seeds 51201.., fresh processes, disagreements printed)
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import fz51d_gen as F
import tf_programs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

SEED = 51201
# the programs of SEED kept out of the slice: the open class of `assign*` results (TF's _UnreadVariable, simdist's
# variable itself: docs/spec.md clause run.per-replica, fz51d)
OPEN = {7}
PROGRAMS = [k for k in range(20) if k not in OPEN]


def program(tf: Any, case: dict, workdir: str) -> Any:
    if tf.__name__.startswith("tensorflow"):
        # (a fresh eager context per program: TF's collective instance keys restart with each strategy and
        # collide across programs in one process)
        from tensorflow.python.eager import context
        context._reset_context()
        tf_programs.four_cpus(tf)
    return F.run_program(tf, np, F.program(SEED, case["k"], 10))["rec"]


CASES: dict[str, dict] = {f"p{k}": {"strategy": "other", "k": k} for k in PROGRAMS}
NAMES = list(CASES)


@pytest.fixture(scope="module")
def tf_results(request: Any) -> dict[int, Any]:
    return tf_programs.spawn(__file__, CASES, tf_programs.selected(request, __file__))


@pytest.mark.clause("run.per-replica")
@pytest.mark.parametrize("index", range(len(NAMES)), ids=NAMES)
def test_fz51d_slice(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    name = NAMES[index]
    got, want = tf_programs.on_simdist(program, CASES[name], str(tmp_path)), tf_results[index]
    prog = F.program(SEED, CASES[name]["k"], 10)
    for i, ((st, w), (_, g)) in enumerate(zip(want, got)):
        assert F.same(w, g), (f"program {name} statement {i}:\nstrategy = {prog['strategy']}\n{st}\n"
                              f"TF 2.21: {str(w)[:400]}\nsimdist: {str(g)[:400]}")
    assert len(want) == len(got), f"program {name}: TF recorded {len(want)} statements, simdist {len(got)}"


if __name__ == "__main__":  # TF worker
    tf_workers.serve(tf_programs.worker(CASES, program))
