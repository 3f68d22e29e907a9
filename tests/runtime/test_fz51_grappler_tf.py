"""Grappler's consumer-reading rewrites moved onto the finished graph (the fifty-first session, helper fz51; clause
function.grappler-rewrites): ConstantPushDown (constant_folding.cc, its nodes first to last), RemoveLogicalNot, the
monotonic Max/Min/ArgMax/ArgMin stage, FuseSquaredDiff and AddOpsRewrite (arithmetic_optimizer.cc) apply only where
the intermediate they absorb has one consumer in the whole graph: a function's output, or an op recorded after the
rewritten one, keeps it. Until this session simdist decided while recording, counting only the consumers recorded
so far. Each case returns its results' bits (int views, compared exactly), booleans, or [error class, first line].
"""

from __future__ import annotations

import re
from typing import Any, Callable

import numpy as np
import pytest

import tf_programs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

N = 1000


def _vals(n: int, salt: int) -> np.ndarray:
    """Exact float32 inputs in [0.5, 2): distinct ratios k / 997, correctly rounded."""
    k = (np.arange(n) * (37 + 2 * salt) + 11 * salt) % 1497 + 499
    return (k.astype(np.float64) / 997.0).astype(np.float32)


def _bits(a: Any) -> Any:
    if a is None:
        return None
    a = np.asarray(a)
    if a.dtype == np.bool_ or a.dtype.kind in "iu":
        return [str(a.dtype), list(a.shape), a.tolist()]
    return [str(a.dtype), list(a.shape), a.view({2: np.int16, 4: np.int32, 8: np.int64}[a.dtype.itemsize]).tolist()]


def _try(out: list, label: str, fn: Callable[[], Any]) -> None:
    try:
        r = fn()
        r = [t.numpy() for t in r] if isinstance(r, (list, tuple)) else r.numpy()
        out.append([label, [_bits(v) for v in r] if isinstance(r, list) else _bits(r)])
    except Exception as e:  # noqa: BLE001 - the class and first line are what is compared
        text = re.sub(r"^\{\{function_node [^}]*\}\} ", "", str(e).split("\n")[0])   # (TF's function name: a counter)
        out.append([label, [type(e).__name__, text[:120]]])


def program(tf: Any, case: dict, workdir: str) -> Any:
    out: list[Any] = []
    a, b = tf.constant(_vals(N, 1)), tf.constant(_vals(N, 2))
    a64, b64 = tf.cast(a, tf.float64) * 7.0 - 6.0, tf.cast(b, tf.float64) * 3.0 + 0.25
    fn = tf.function
    name = case["name"]
    if name == "push-down":
        _try(out, "(x * 0.7) * 3.1, x * 0.7 returned", lambda: fn(lambda x: (lambda p: (p * 3.1, p))(x * 0.7))(a))
        _try(out, "(x * 0.7) * 3.1 alone", lambda: fn(lambda x: (x * 0.7) * 3.1)(a))

        @fn
        def later(x: Any) -> Any:
            p = x * 0.7
            q = p * 3.1
            r = p + 1.0   # (recorded after q: p has two consumers)
            return q + r
        _try(out, "(x * 0.7) * 3.1, x * 0.7 read later", lambda: later(a))

        @fn
        def sub_later(x: Any, y: Any) -> Any:
            v = x - y
            return v + 0.1, v * 2.0
        _try(out, "(x - y) + 0.1, x - y read later (float64)", lambda: sub_later(a64, b64))
        _try(out, "(x - y) + 0.1 alone (float64)", lambda: fn(lambda x, y: (x - y) + 0.1)(a64, b64))
        _try(out, "((x + 0.1) + 0.2) + 0.3", lambda: fn(lambda x: ((x + 0.1) + 0.2) + 0.3)(a))

        @fn
        def chain_mid(x: Any) -> Any:
            p = (x + 0.1) + 0.2
            return p + 0.3, p
        _try(out, "((x + 0.1) + 0.2) + 0.3, middle returned", lambda: chain_mid(a))
        _try(out, "0.3 - (x - 0.1), x - 0.1 returned (float64)",
             lambda: fn(lambda x: (lambda p: (0.3 - p, p))(x - 0.1))(a64))
        v = tf.Variable(tf.zeros([N]))

        @fn
        def write(x: Any) -> Any:
            p = x * 0.7
            v.assign(p * 3.1)
            return p * 1.5
        _try(out, "v.assign((x * 0.7) * 3.1), x * 0.7 read later: result", lambda: write(a))
        _try(out, "v.assign((x * 0.7) * 3.1), x * 0.7 read later: v", lambda: v.read_value())
    elif name == "logical not":
        x = tf.constant([float("nan"), 1.0, 4.0, 3.0], tf.float64)
        y = tf.constant([2.0, float("nan"), 1.0, 3.0], tf.float64)
        _try(out, "~(x >= 3), x >= 3 returned", lambda: fn(lambda x: (lambda m: (m, ~m))(x >= np.float64(3.0)))(x))
        _try(out, "~(x >= 3) alone", lambda: fn(lambda x: ~(x >= np.float64(3.0)))(x))

        @fn
        def later(x: Any, y: Any) -> Any:
            m = tf.less(x, y)
            n = tf.logical_not(m)
            return n, tf.cast(m, tf.int32)
        _try(out, "logical_not(x < y), x < y read later", lambda: later(x, y))
        _try(out, "logical_not(x == y) alone", lambda: fn(lambda x, y: tf.logical_not(tf.equal(x, y)))(x, y))
    elif name == "monotonic":
        e = tf.zeros([0], tf.float32)
        _try(out, "reduce_min(sign(empty)), sign returned", lambda: fn(lambda x: (lambda s: (tf.reduce_min(s), s))(
            tf.sign(x)))(e))
        _try(out, "reduce_min(sign(empty)) alone", lambda: fn(lambda x: tf.reduce_min(tf.sign(x)))(e))

        @fn
        def later(x: Any) -> Any:
            r = tf.nn.relu(x)
            return tf.reduce_max(r), tf.reduce_sum(r)   # (the sum recorded after the max)
        _try(out, "reduce_max(relu(empty)), relu read later", lambda: later(e))
        _try(out, "reduce_max(relu(empty)) alone", lambda: fn(lambda x: tf.reduce_max(tf.nn.relu(x)))(e))
        z = tf.constant([-1.0, 4.0, -9.0, 2.0])

        @fn
        def arg_later(x: Any) -> Any:
            s = tf.sqrt(x)
            return tf.argmax(s), s
        _try(out, "argmax(sqrt(x)) of negatives, sqrt returned", lambda: arg_later(z))
        _try(out, "argmax(sqrt(x)) of negatives alone", lambda: fn(lambda x: tf.argmax(tf.sqrt(x)))(z))
    elif name == "squared difference":
        u, w = tf.constant([7, 3, 9], tf.uint32), tf.constant([2, 5, 1], tf.uint32)
        _try(out, "square(x - y) of uint32, x - y returned", lambda: fn(lambda x, y: (lambda d: (tf.square(d), d))(
            x - y))(u, w))
        _try(out, "square(x - y) of uint32 alone", lambda: fn(lambda x, y: tf.square(x - y))(u, w))

        @fn
        def later(x: Any, y: Any) -> Any:
            d = x - y
            s = tf.square(d)
            return s + d
        _try(out, "square(x - y) of uint32, x - y read later", lambda: later(u, w))
    elif name == "add ops":
        h = tf.constant(np.array([0.0010004, 0.0009995, 0.003], np.float16))

        @fn
        def later(x: Any) -> Any:
            p = x + 2.5
            q = p + x
            return q, p * 2.0
        _try(out, "(x + 2.5) + x of float16, x + 2.5 read later", lambda: later(h))
        _try(out, "(x + 2.5) + x of float16, x + 2.5 returned", lambda: fn(lambda x: (lambda p: (p + x, p))(
            x + 2.5))(h))
        _try(out, "(x + 2.5) + x of float16 alone", lambda: fn(lambda x: (x + 2.5) + x)(h))
    elif name == "variable leaves":
        s = tf.constant(_vals(1, 4)[0])
        w = tf.Variable(_vals(N, 5))
        u = tf.Variable(_vals(1, 6)[0])
        _try(out, "(w * y) * c", lambda: fn(lambda y, c: (w * y) * c)(b, s))
        _try(out, "(y * w) * c", lambda: fn(lambda y, c: (y * w) * c)(b, s))
        _try(out, "tf.multiply(w, y) * c", lambda: fn(lambda y, c: tf.multiply(w, y) * c)(b, s))
        _try(out, "(y * u) * x, u a scalar variable", lambda: fn(lambda x, y: (y * u) * x)(a, b))
        _try(out, "((x * w) * y) * c", lambda: fn(lambda x, y, c: ((x * w) * y) * c)(a, b, s))
    return out


NAMES = ["push-down", "logical not", "monotonic", "squared difference", "add ops", "variable leaves"]
CASES: dict[str, dict] = {n: {"strategy": "default", "name": n} for n in NAMES}


@pytest.fixture(scope="module")
def tf_results(request: Any) -> dict[int, Any]:
    return tf_programs.spawn(__file__, CASES, tf_programs.selected(request, __file__))


@pytest.mark.clause("function.grappler-rewrites")
@pytest.mark.parametrize("index", range(len(NAMES)), ids=NAMES)
def test_consumer_rules_on_the_finished_graph_as_tf(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    name = NAMES[index]
    got = tf_programs.on_simdist(program, CASES[name], str(tmp_path))
    want = tf_results[index]
    assert [g[0] for g in got] == [w[0] for w in want], f"{name}: labels differ"
    bad = [f"{w[0]}: simdist gives {_summary(g[1])}, TF 2.21 gives {_summary(w[1])}"
           for g, w in zip(got, want) if g != w]
    assert not bad, f"{name}: " + "; ".join(bad)


def _summary(v: Any) -> str:
    """A result for a failure message: an error as it is, an array by its dtype, shape and first values (bits)."""
    if isinstance(v, list) and v and isinstance(v[0], list) and len(v[0]) == 3 and isinstance(v[0][2], list):
        return "[" + ", ".join(f"{x[0]}{x[1]} first {x[2][:3]}" for x in v) + "]"
    if isinstance(v, list) and len(v) == 3 and isinstance(v[2], list):
        return f"{v[0]}{v[1]} first {v[2][:3]}"
    return repr(v)[:200]


if __name__ == "__main__":
    tf_workers.serve(tf_programs.worker(CASES, program))
