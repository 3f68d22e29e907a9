"""ConstantPushDown's X leaf when the child is a sum of two non-constants (kopen57; clause function.grappler-rewrites).

constant_folding.cc's ConstantPushDown rewrites `(X + Y) - C` as X + (Y - C) and so on, X being the child's first
input; while the arithmetic optimizer runs, the child Add's inputs are in its canonical form (sorted by their nodes'
names) when the push-down sees them, so `(a + b) - C` of arguments a, b is a + (b - C) but of nodes named sub and
Softplus is Softplus + (sub - C): Keras's log_cosh, `x + softplus(x * -2) - log(2)`, so compile(loss=logcosh)'s loss
values (fsweep57's fs-loss-function with keras.losses.logcosh). Each case returns its results' bits (int views,
compared exactly) or [error class, first line].
"""

from __future__ import annotations

import re
from typing import Any, Callable

import numpy as np
import pytest

import tf_programs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

N = 400


def _vals(n: int, salt: int) -> np.ndarray:
    """Exact float32 inputs in [0.5, 2): distinct ratios k / 997, correctly rounded."""
    k = (np.arange(n) * (37 + 2 * salt) + 11 * salt) % 1497 + 499
    return (k.astype(np.float64) / 997.0).astype(np.float32)


def _bits(a: Any) -> Any:
    a = np.asarray(a)
    return [str(a.dtype), list(a.shape), a.view({2: np.int16, 4: np.int32, 8: np.int64}[a.dtype.itemsize]).tolist()]


def _try(out: list, label: str, fn: Callable[[], Any]) -> None:
    try:
        out.append([label, _bits(np.asarray(fn()))])
    except Exception as e:  # noqa: BLE001 - the class and first line are what is compared
        text = re.sub(r"^\{\{function_node [^}]*\}\} ", "", str(e).split("\n")[0])
        out.append([label, [type(e).__name__, text[:120]]])


def program(tf: Any, case: dict, workdir: str) -> Any:
    out: list[Any] = []
    fn = tf.function
    keras = tf.keras
    x = tf.constant((_vals(N, 1) - 1.25).reshape(-1, 2))
    s = tf.constant((_vals(N, 2) * 0.5).reshape(-1, 2))
    c = np.float32(0.6931472)
    name = case["name"]
    if name == "sum minus a constant":
        _try(out, "(sub + Softplus) - log(2.0)", lambda: fn(lambda a, b: (tf.identity(a, name="sub") + tf.identity(
            b, name="Softplus")) - tf.math.log(tf.constant(2.0)))(x, s))
        _try(out, "(sub + Softplus) - C", lambda: fn(lambda a, b: (tf.identity(a, name="sub") + tf.identity(
            b, name="Softplus")) - tf.constant(c))(x, s))
        _try(out, "(x + s) - C", lambda: fn(lambda a, b: (a + b) - c)(x, s))
        _try(out, "(s + x) - C", lambda: fn(lambda a, b: (b + a) - c)(x, s))
        _try(out, "C - (x + s)", lambda: fn(lambda a, b: c - (a + b))(x, s))
        _try(out, "C - (s + x)", lambda: fn(lambda a, b: c - (b + a))(x, s))
        _try(out, "(x * 2 + s) - C", lambda: fn(lambda a, b: (a * 2.0 + b) - c)(x, s))
        _try(out, "(s + x * 2) - C", lambda: fn(lambda a, b: (b + a * 2.0) - c)(x, s))
    if name == "keras log_cosh":
        y = tf.constant((_vals(N, 3) - 1.0).reshape(-1, 2))
        _try(out, "logcosh(y, x) traced", lambda: fn(keras.losses.logcosh)(y, x))
        _try(out, "logcosh(y, x) eager", lambda: keras.losses.logcosh(y, x))
        _try(out, "LogCosh()(y, x) traced", lambda: fn(lambda a, b: keras.losses.LogCosh()(a, b))(y, x))
    return out


NAMES = ["sum minus a constant", "keras log_cosh"]
CASES: dict[str, dict] = {n: {"strategy": "default", "name": n} for n in NAMES}


@pytest.fixture(scope="module")
def tf_results(request: Any) -> dict[int, Any]:
    return tf_programs.spawn(__file__, CASES, tf_programs.selected(request, __file__))


@pytest.mark.clause("function.grappler-rewrites")
@pytest.mark.parametrize("index", range(len(NAMES)), ids=NAMES)
def test_push_down_order_as_tf(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    name = NAMES[index]
    got = tf_programs.on_simdist(program, CASES[name], str(tmp_path))
    want = tf_results[index]
    assert [g[0] for g in got] == [w[0] for w in want], f"{name}: labels differ"
    bad = [f"{w[0]}: simdist gives {_summary(g[1])}, TF 2.21 gives {_summary(w[1])}"
           for g, w in zip(got, want) if g != w]
    assert not bad, f"{name}: " + "; ".join(bad)


def _summary(v: Any) -> str:
    """A result for a failure message: an error as it is, an array by its dtype, shape and first differing values."""
    if isinstance(v, list) and len(v) == 3 and isinstance(v[2], list):
        return f"{v[0]}{v[1]} first {v[2][:3]}"
    return repr(v)[:200]


if __name__ == "__main__":
    tf_workers.serve(tf_programs.worker(CASES, program))
