"""Grappler's value-changing rewrites of ops on tensors a tf.function captures, against TF 2.21 (the
forty-third session; clause function.grappler-rewrites).

A tensor captured from outside the function is a placeholder input of TF's graph, as an argument is: TF's
constant folding does not evaluate an op of it, so the arithmetic optimizer's and constant folding's rewrites
apply (`x / 3.0` of a captured x is x * (1 / 3), another last bit than x / 3). simdist had folded such ops
as constants (exact kernels). The probes are those of tests/runtime/test_grappler_options_tf.py, each with
its inputs captured, passed as arguments, and made inside the function (constants: folded, no rewrite);
values compare exactly (bits: sign of zero too), and `test_the_programs_differ` checks that the captured and
the folded forms differ on TF, so the comparison can fail.
"""

from __future__ import annotations

import os
from typing import Any, Callable

import numpy as np
import pytest

import tf_programs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

_X = np.array([1.0, 5.0, 7.0, 10.0, 0.1, 0.7, 1e-3, 3.3, 9.1, 11.0, 13.0, 0.3], np.float32)
_SMALL = np.array([1e-10, 1e-8, 3e-7, -2e-9], np.float32)
_Z = np.array([-0.0, 0.0, -0.0, 2.0], np.float32)
_N = np.array([np.nan, 0.5, 2.0, np.nan], np.float32)


def _bits(v: Any) -> Any:
    a = np.asarray(v.numpy())
    return [a.tolist(), np.signbit(a).tolist() if a.dtype.kind == "f" else None]


def _probe(tf: Any, x: Any, s: Any, z: Any, n: Any) -> dict[str, Any]:
    return {"reciprocal mul": x / 3.0, "zeros minus": tf.zeros([4]) - z, "plus zeros": z + tf.zeros([4]),
            "pow 3": x ** 3.0, "log1p": tf.math.log(1.0 + s), "expm1": tf.exp(s) - 1.0,
            "logical not": tf.logical_not(n < 1.0), "push down": 0.1 + (x + 0.2),
            "divide captured": x / tf.constant(np.float32(7.0))}


def captured(tf: Any) -> Any:
    x, s, z, n = (tf.constant(a) for a in (_X, _SMALL, _Z, _N))

    @tf.function
    def f() -> Any:
        return _probe(tf, x, s, z, n)
    return {k: _bits(v) for k, v in f().items()}


def argument(tf: Any) -> Any:
    @tf.function
    def f(x: Any, s: Any, z: Any, n: Any) -> Any:
        return _probe(tf, x, s, z, n)
    return {k: _bits(v) for k, v in f(*(tf.constant(a) for a in (_X, _SMALL, _Z, _N))).items()}


def folded(tf: Any) -> Any:
    @tf.function
    def f() -> Any:
        return _probe(tf, *(tf.constant(a) for a in (_X, _SMALL, _Z, _N)))
    return {k: _bits(v) for k, v in f().items()}


def captured_variable_read(tf: Any) -> Any:
    """A variable's value read inside, then an op with a constant: a read, never folded."""
    v = tf.Variable(_X)

    @tf.function
    def f() -> Any:
        return {"reciprocal mul": v / 3.0, "pow 3": v ** 3.0, "push down": 0.1 + (v + 0.2)}
    return {k: _bits(t) for k, t in f().items()}


PROGRAMS: dict[str, Callable[[Any], Any]] = {"captured": captured, "argument": argument, "folded": folded,
                                              "variable": captured_variable_read}
CASES: dict[str, dict] = {n: {"strategy": "default", "name": n} for n in PROGRAMS}


def program(tf: Any, case: dict, workdir: str) -> Any:
    return PROGRAMS[case["name"]](tf)


@pytest.fixture(scope="module")
def tf_results(request: Any) -> dict[int, Any]:
    return tf_programs.spawn(__file__, CASES, tf_programs.selected(request, __file__))


@pytest.mark.clause("function.grappler-rewrites")
@pytest.mark.parametrize("index", range(len(PROGRAMS)), ids=list(PROGRAMS))
def test_rewrites_of_captured_tensors_as_tf(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    name = list(CASES)[index]
    got, want = tf_programs.on_simdist(program, CASES[name], str(tmp_path)), tf_results[index]
    bad = [k for k in want if got.get(k) != want[k]]
    assert not bad, "; ".join(f"{name}: {k}: simdist gives {got.get(k)!r}, but TF 2.21 gives {want[k]!r}" for k in bad)
    assert sorted(got) == sorted(want), f"{name}: simdist's probes {sorted(got)}, TF 2.21's {sorted(want)}"


@pytest.mark.clause("function.grappler-rewrites")
def test_the_programs_differ(tf_results: dict[int, Any]) -> None:
    """On TF the captured form is rewritten where the folded one is not (so each comparison can fail)."""
    names = list(PROGRAMS)
    cap, fold = tf_results[names.index("captured")], tf_results[names.index("folded")]
    same = [k for k in ("reciprocal mul", "pow 3", "divide captured") if cap[k] == fold[k]]
    assert not same, f"probes {same} give the same bits captured and folded on TF 2.21: they cannot tell a rewrite"


if __name__ == "__main__":  # TF worker
    tf_workers.serve(tf_programs.worker(CASES, program))
    os._exit(0)
