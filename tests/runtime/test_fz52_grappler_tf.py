"""Grappler items left open by fz51 (the fifty-second session, helper fz52; clause function.grappler-rewrites).

"chained push-down": constant folding repeats ConstantPushDown until nothing changes (constant_folding.cc), so a
constant C pushed into a product `X * Y` whose Y is itself a product is pushed again, and where it meets a constant
leaf K the two fold into one constant; MinimizeBroadcasts (arithmetic_optimizer.cc) then takes the tree's leaves in
the order the push-down left them. keras.ops.hard_silu(x) * 2.0 in a tf.function, `x * (relu6(x + 3) * (1/6)) *
2.0`, is (x * (2 * (1/6))) * relu6(x + 3) on TF 2.21 (fz51's hsilu2, g50b seed 51001 #0). Each case returns its
results' bits (int views, compared exactly) or [error class, first line].
"""

from __future__ import annotations

import re
from typing import Any, Callable

import numpy as np
import pytest

import tf_programs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

N = 600


def _vals(n: int, salt: int) -> np.ndarray:
    """Exact float32 inputs in [0.5, 2): distinct ratios k / 997, correctly rounded."""
    k = (np.arange(n) * (37 + 2 * salt) + 11 * salt) % 1497 + 499
    return (k.astype(np.float64) / 997.0).astype(np.float32)


def _bits(a: Any) -> Any:
    if a is None:
        return None
    a = np.asarray(a)
    if a.dtype == np.bool_ or a.dtype.kind in "iuSO":
        return [str(a.dtype), list(a.shape), a.tolist()]
    return [str(a.dtype), list(a.shape), a.view({2: np.int16, 4: np.int32, 8: np.int64}[a.dtype.itemsize]).tolist()]


def _try(out: list, label: str, fn: Callable[[], Any]) -> None:
    try:
        r = fn()
        r = [np.asarray(t) for t in r] if isinstance(r, (list, tuple)) else np.asarray(r)
        out.append([label, [_bits(v) for v in r] if isinstance(r, list) else _bits(r)])
    except Exception as e:  # noqa: BLE001 - the class and first line are what is compared
        text = re.sub(r"^\{\{function_node [^}]*\}\} ", "", str(e).split("\n")[0])   # (TF's function name: a counter)
        out.append([label, [type(e).__name__, text[:120]]])


def program(tf: Any, case: dict, workdir: str) -> Any:
    out: list[Any] = []
    fn = tf.function
    name = case["name"]
    if name == "chained push-down":
        big = tf.constant(np.array([1.23593185293854e+18, 1.152921504606847e+18, 2.305843009213694e+18,
                                    5.764607523034235e+17, 8.070450532247929e+18, 5.939851591734476e+18]).reshape(2, 3))
        a = tf.constant(_vals(N, 1) * 3.0 - 2.0)
        b = tf.constant(_vals(N, 2))
        a64 = tf.cast(a, tf.float64) * 1.7 + 0.25
        m23 = tf.constant(_vals(6, 3).reshape(2, 3))
        v3 = tf.constant(_vals(3, 4))

        def hs(x: Any) -> Any:   # (keras.ops.hard_silu's graph, its constants made by tf.constant as in hsilu2)
            return x * (tf.nn.relu6(x + tf.constant(3.0, x.dtype)) / tf.constant(6.0, x.dtype))
        _try(out, "hard_silu(y ** 0.5) * 2.0, y ** 0.5 returned, float64",
             lambda: fn(lambda y: (lambda x: (hs(x) * 2.0, x))(y ** 0.5))(big))
        _try(out, "hard_silu(y ** 0.5), y ** 0.5 returned, float64",
             lambda: fn(lambda y: (lambda x: (hs(x), x))(y ** 0.5))(big))
        _try(out, "hard_silu(sqrt y) * 2.0, float64", lambda: fn(lambda y: hs(tf.sqrt(y)) * 2.0)(big))
        _try(out, "hard_silu(sqrt y) * 3.0, sqrt y returned, float64",
             lambda: fn(lambda y: (lambda x: (hs(x) * 3.0, x))(tf.sqrt(y)))(big))
        _try(out, "hard_silu(x ** 0.5) * 2.0, x ** 0.5 returned, float32",
             lambda: fn(lambda y: (lambda x: (hs(x) * 2.0, x))(y ** 0.5))(b))
        _try(out, "hard_silu(a64 ** 0.5) * 2.0, a64 ** 0.5 returned, float64",
             lambda: fn(lambda y: (lambda x: (hs(x) * 2.0, x))(y ** 0.5))(a64 * a64))
        _try(out, "(m23 * (v3 * 0.3)) * 2.0", lambda: fn(lambda x, y: (x * (y * 0.3)) * 2.0)(m23, v3))
        _try(out, "(x * (y * 0.3)) * 2.0", lambda: fn(lambda x, y: (x * (y * 0.3)) * 2.0)(a, b))
    return out


NAMES = ["chained push-down"]
CASES: dict[str, dict] = {n: {"strategy": "default", "name": n} for n in NAMES}


@pytest.fixture(scope="module")
def tf_results(request: Any) -> dict[int, Any]:
    return tf_programs.spawn(__file__, CASES, tf_programs.selected(request, __file__))


@pytest.mark.clause("function.grappler-rewrites")
@pytest.mark.parametrize("index", range(len(NAMES)), ids=NAMES)
def test_fz52_grappler_as_tf(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
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
