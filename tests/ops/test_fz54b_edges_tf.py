"""Classes the fz54b generator (tests/fuzz54b, an independent differential generator written from issue 29) found,
each case observed on TF 2.21 (clause ops.subnormals).

- grappler_daz: a tf.function's first call on values holding subnormal floats whose product Grappler rewrote
  (ConstantPushDown: `0.5 * x * y` is x * (0.5 * y); tf.nn.gelu is 0.5 * x * (1 + erf(x / sqrt 2))): TF's
  rewritten Mul reads the subnormal x as zero (DAZ); simdist's evaluation of the rewritten nodes
  (graph/reevaluate.again) read it as it is and gave 0.5 * x, a subnormal (fz54b seed 54104 #0, `tf.nn.gelu`).
- gather_nd_policy (clause ops.gather-batch-dims): tf.gather_nd's bad_indices_policy argument (TF 2.21's signature; the
  facade lacked it: fz54b's check of every table function's parameters against TF's).
- cross_bfloat16 (clause ops.linalg-more): bfloat16 `tf.linalg.cross` rounds each product to bfloat16, then the
  difference (Eigen's bfloat16 operators); simdist rounded once from float32 (fz54b seeds 54105-54108).
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
    elif case["name"] == "cross_bfloat16":
        rng = np.random.RandomState(54106)
        a = (rng.randint(-40, 40, (64, 3)) / 8 + rng.randn(64, 3) * 3).astype(np.float32)
        b = (rng.randint(-40, 40, (64, 3)) / 8 + rng.randn(64, 3) * 3).astype(np.float32)
        edge = np.array([[np.inf, 1.0, -2.0], [np.nan, 0.0, -0.0], [3e38, -3e38, 2.0], [1e-39, 5.0, -0.5]], np.float32)
        for dt in ("bfloat16", "float16"):
            x, y = tf.cast(a, dt), tf.cast(b, dt)
            _try(out, f"{dt} cross of 64 seeded rows", lambda x=x, y=y: tf.linalg.cross(x, y))
            _try(out, f"{dt} cross of 64 seeded rows, batched", lambda x=x, y=y: tf.linalg.cross(
                tf.reshape(x, [4, 16, 3]), tf.reshape(y, [4, 16, 3])))
            _try(out, f"{dt} cross of edge rows", lambda dt=dt: tf.linalg.cross(tf.cast(edge, dt),
                                                                                tf.cast(edge[::-1], dt)))
            xv = tf.Variable(tf.cast(a[:8], dt))
            with tf.GradientTape() as tape:
                loss = tf.reduce_sum(tf.linalg.cross(xv, tf.cast(b[:8], dt)) * tf.cast(b[8:16], dt))
            _try(out, f"{dt} cross gradient", lambda tape=tape, loss=loss, xv=xv: tape.gradient(loss, xv))
    elif case["name"] == "gather_nd_policy":
        p = tf.constant([[1.0, 2.0], [3.0, -0.0]])
        for pol in ["", "DEFAULT", "ERROR", "IGNORE", "bogus"]:
            for idx in ([[0, 1], [1, 1]], [[0, 5], [1, 0]], [[-1, 0]], [[2]], [[1]]):
                _try(out, f"{pol!r} {idx}", lambda pol=pol, idx=idx: tf.gather_nd(p, idx, bad_indices_policy=pol))
        q = tf.reshape(tf.range(12.0), [2, 3, 2])
        _try(out, "IGNORE batch_dims 1", lambda: tf.gather_nd(q, [[[0], [3]], [[2], [-1]]], batch_dims=1,
                                                                bad_indices_policy="IGNORE"))
        f = tf.function(lambda i: tf.gather_nd(p, i, bad_indices_policy="IGNORE"))
        _try(out, "IGNORE in a tf.function", lambda: f(tf.constant([[0, 5], [1, 1]])))
    return out


NAMES = ["grappler_daz", "cross_bfloat16", "gather_nd_policy"]
CASES: dict[str, dict] = {n: {"strategy": "default", "name": n} for n in NAMES}


@pytest.fixture(scope="module")
def tf_results(request: Any) -> dict[int, Any]:
    return tf_programs.spawn(__file__, CASES, tf_programs.selected(request, __file__))


def _check(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    name = NAMES[index]
    got, want = tf_programs.on_simdist(program, CASES[name], str(tmp_path)), tf_results[index]
    assert [g[0] for g in got] == [w[0] for w in want], f"{name}: labels differ"
    for g, w in zip(got, want):
        assert g == w, f"{name}: {w[0]}: simdist gives {g[1]}, TF 2.21 gives {w[1]}"


@pytest.mark.clause("ops.subnormals")
@pytest.mark.parametrize("index", [0], ids=NAMES[:1])
def test_grappler_rewrites_read_subnormals_as_zeros(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    _check(index, tf_results, tmp_path)


@pytest.mark.clause("ops.linalg-more")
@pytest.mark.parametrize("index", [1], ids=NAMES[1:2])
def test_bfloat16_cross_rounds_each_product(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    _check(index, tf_results, tmp_path)


@pytest.mark.clause("ops.gather-batch-dims")
@pytest.mark.parametrize("index", [2], ids=NAMES[2:])
def test_gather_nd_bad_indices_policy(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    _check(index, tf_results, tmp_path)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(tf_programs.worker(CASES, program))
