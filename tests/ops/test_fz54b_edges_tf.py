"""Classes the fz54b generator (tests/fuzz54b, an independent differential generator written from issue 29) found,
each case observed on TF 2.21 (clause ops.subnormals).

- grappler_daz: a tf.function's first call on values holding subnormal floats whose product Grappler rewrote
  (ConstantPushDown: `0.5 * x * y` is x * (0.5 * y); tf.nn.gelu is 0.5 * x * (1 + erf(x / sqrt 2))): TF's
  rewritten Mul reads the subnormal x as zero (DAZ); simdist's evaluation of the rewritten nodes
  (graph/reevaluate.again) read it as it is and gave 0.5 * x, a subnormal (fz54b seed 54104 #0, `tf.nn.gelu`).
Each case: a list of [label, [dtype, shape, the result's bits]] or [label, [error class]].
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import tf_programs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _bits(x: Any) -> list:
    a = np.asarray(x.numpy())
    u = {2: np.uint16, 4: np.uint32, 8: np.uint64}[a.dtype.itemsize]
    return [x.dtype.name, list(a.shape), [int(b) for b in a.view(u).ravel()]]


def _try(out: list, label: str, fn: Callable[[], Any]) -> None:
    try:
        out.append([label, _bits(fn())])
    except Exception as e:  # noqa: BLE001 - the class is what is compared
        out.append([label, [type(e).__name__]])


def program(tf: Any, case: dict, workdir: str) -> Any:
    out: list[Any] = []
    if case["name"] == "grappler_daz":
        for dt in ("float32", "float64"):
            tiny = 1e-39 if dt == "float32" else 1e-310
            x = tf.constant(np.array([tiny, -2.571, -3 * tiny, 0.0], dt))
            y = tf.constant(np.array([1.0, 2.0, 1.0, -1.0], dt))
            for label, fn in [
                    ("0.5 * x * y", lambda x, y: 0.5 * x * y),
                    ("x * 0.5 * y", lambda x, y: x * 0.5 * y),
                    ("(0.5 * x) * (1 + x)", lambda x, y: (0.5 * x) * (1.0 + x)),
                    ("0.5 * x * (1 + erf(x / c))", lambda x, y: 0.5 * x * (1.0 + tf.math.erf(x / 1.4142135))),
                    ("gelu", lambda x, y: tf.nn.gelu(x)),
                    ("gelu approximate", lambda x, y: tf.nn.gelu(x, approximate=True)),
                    ("x * 0.5 alone", lambda x, y: x * 0.5)]:
                f = tf.function(fn)
                _try(out, f"{dt} {label}: first call", lambda f=f: f(x, y))
                _try(out, f"{dt} {label}: second call", lambda f=f: f(x, y))
                _try(out, f"{dt} {label}: eager", lambda fn=fn: fn(x, y))
            g = tf.function(lambda d: {"g": tf.nn.gelu(d["x"]), "x": d["x"] * 1.0})
            _try(out, f"{dt} gelu of a dict argument", lambda g=g: g({"x": x})["g"])
    return out


NAMES = ["grappler_daz"]
CASES: dict[str, dict] = {n: {"strategy": "default", "name": n} for n in NAMES}


@pytest.fixture(scope="module")
def tf_results(request: Any) -> dict[int, Any]:
    return tf_programs.spawn(__file__, CASES, tf_programs.selected(request, __file__))


@pytest.mark.clause("ops.subnormals")
@pytest.mark.parametrize("index", range(len(NAMES)), ids=NAMES)
def test_fz54b_edges_as_tf(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    name = NAMES[index]
    got, want = tf_programs.on_simdist(program, CASES[name], str(tmp_path)), tf_results[index]
    assert [g[0] for g in got] == [w[0] for w in want], f"{name}: labels differ"
    for g, w in zip(got, want):
        assert g == w, f"{name}: {w[0]}: simdist gives {g[1]}, TF 2.21 gives {w[1]}"


if __name__ == "__main__":  # TF worker
    tf_workers.serve(tf_programs.worker(CASES, program))
