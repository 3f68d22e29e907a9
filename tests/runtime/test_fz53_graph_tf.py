"""Graph items of the fifty-third session (helper fz53; clause function.grappler-rewrites), against TF 2.21.

"addn forwarding": AddNOp::Compute (aggregate_ops.cc) accumulates into the first input whose buffer it may take
over (made by an op of the graph for this AddN alone: not an argument, a constant, a returned or twice-read tensor,
nor a view of one) and swaps that input with input 0 before summing left to right, so inside tf.function
`add_n([a, b, z * 2.0])` of arguments a = 1e8, b = -1e8, z = 0.5 is 0 where eagerly it is 1. The order it starts
from is Grappler's sort by node name, in which an argument is its normalized name (`A` is `a`), an Identity or a
Reshape to the same shape is its input's node, and a reduction whose indices the graph computes from an unknown
rank keeps its own name (g51b seed 53001 #50: a loss one ulp apart in a tf.function returning every value).
Each case returns its results' bits (int views, compared exactly) or [error class, first line].
"""

from __future__ import annotations

import re
from typing import Any, Callable

import numpy as np
import pytest

import tf_programs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


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


def _addn_cases(tf: Any) -> dict[str, Callable[..., Any]]:
    v = tf.Variable(1.0)
    return {
        "fresh": lambda A, B, z: tf.math.add_n([A, B, z * 2.0]),
        "fresh, lowercase arguments": lambda a, b, z: tf.math.add_n([a, b, z * 2.0]),
        "fresh and returned (written twice)": lambda A, B, z: (tf.math.add_n([A, B, z * 2.0]), z * 2.0),
        "reshape of a fresh value": lambda A, B, z: tf.math.add_n([A, B, tf.reshape(z * 2.0, [1, 1])[0, 0] * 1.0]),
        "reshape to its own shape": lambda A, B, z: tf.math.add_n([A, B, tf.reshape(z * 2.0, [])]),
        "reshape of a returned value": lambda A, B, z: (lambda t: (tf.math.add_n([A, B, tf.reshape(t, [])]), t))(
            z * 2.0),
        # (not "two consumers", `(add_n([A, B, t]), sin(t))`: TF 2.21 gives 1 or 0 from run to run, as the executor
        # runs the Sin before or after the AddN)
        "identity of an argument": lambda A, B, z: tf.math.add_n([A, B, tf.identity(z)]),
        "trivial sum": lambda A, B, z: tf.math.add_n([A, B, tf.reduce_sum(tf.reshape(z * 2.0, [1]))]),
        "trivial sum of a returned value": lambda A, B, z: (lambda t: (tf.math.add_n([A, B, tf.reduce_sum(t)]), t))(
            tf.reshape(z * 2.0, [1])),
        "read_value": lambda A, B, z: tf.math.add_n([A, B, v.read_value()]),
        "fresh in the middle": lambda A, B, z: tf.math.add_n([A, z * 2.0, B, z * 4.0]),
        "first fresh": lambda A, B, z: tf.math.add_n([A * 1.5, -B * 1.5, z * 2.0]),
        "one value twice": lambda A, B, z: (lambda t: tf.math.add_n([A, B, t, t]))(z * 2.0),
        "negated argument": lambda A, B, z: tf.math.add_n([A, B, -z]),
        "nine inputs": lambda A, B, z: tf.math.add_n([A, B, A, B, A, B, A, B, z * 2.0]),
        "squeeze of a fresh value": lambda A, B, z: tf.math.add_n([A, B, tf.squeeze(tf.reshape(z * 2.0, [1, 1]))]),
        "tile by nothing": lambda A, B, z: tf.math.add_n([A, B, tf.tile(z * 2.0, [])]),
    }


def program(tf: Any, case: dict, workdir: str) -> Any:
    out: list[Any] = []
    fn = tf.function
    name = case["name"]
    if name == "addn forwarding":
        x, w, z = tf.constant(1e8), tf.constant(-1e8), tf.constant(0.5)
        for label, f in _addn_cases(tf).items():
            _try(out, label, lambda f=f: fn(f)(x, w, z))
            _try(out, label + ", eagerly", lambda f=f: f(x, w, z))
    elif name == "g51b 53001 #50":
        def f(dd: dict) -> Any:
            v1, v4, v6, v8, v10 = dd["v1"], dd["v4"], dd["v6"], dd["v8"], dd["v10"]
            v2 = tf.nn.relu(v1)
            v3 = tf.stack(tf.experimental.numpy.diag_indices(1, ndim=3))
            v5 = tf.keras.ops.cholesky_inverse(tf.linalg.cholesky(v4 @ tf.transpose(v4) + 1.0 * tf.eye(1)), upper=False)
            v7 = tf.keras.ops.absolute(v6)
            v9 = tf.keras.ops.inner([-0.25], v8)
            v12 = tf.keras.ops.tile(tf.math.tanh(v10), 2)
            loss = tf.math.add_n([tf.reduce_sum(tf.cast(t, tf.float32)) for t in (v3, v5, v7, v9, v12)])
            return [v2, v3, v5, v7, v9, v12, loss], loss
        dd = {"v1": tf.constant([[-2.0, -1.359]]), "v4": tf.constant([[-0.625]]), "v6": tf.constant(1.625),
              "v8": tf.constant([-0.465]), "v10": tf.constant([-0.25])}
        _try(out, "every value returned", lambda: fn(lambda d: f(d)[0], autograph=False)(dd))
        _try(out, "the loss alone", lambda: fn(lambda d: f(d)[1], autograph=False)(dd))
        _try(out, "eagerly", lambda: f(dd)[0])
    elif name == "unread variable as target":
        for meth in ("assign_sub", "assign_add", "assign"):
            x0, x1 = tf.Variable(tf.constant(-0.0, tf.float64)), tf.Variable(5.0)
            with tf.GradientTape(persistent=True) as t:
                r = getattr(x0, meth)(3.0)
                q = x0.read_value()
            _try(out, f"{meth}: d r / d x0", lambda: [t.gradient(r, {"s0": x0})["s0"]])
            _try(out, f"{meth}: d [r, q] / d x0", lambda: [t.gradient([r, q], x0)])
            _try(out, f"{meth}: d r / d r", lambda: [t.gradient(r, r)])
            _try(out, f"{meth}: d r / d [x0, x1]", lambda: [g for g in t.gradient(r, [x0, x1]) if g is not None])
    elif name == "read_value names":
        w, wi = tf.Variable(2.0), tf.Variable(3)
        names: list = []

        def f() -> Any:
            r, r2, ri, v = w.read_value(), w.read_value(), wi.read_value(), w.value()
            names.extend([r.name, r2.name, ri.name, v.name, tf.identity(w).name, (r * 2.0).name])
            return r
        _try(out, "value", lambda: fn(f)())
        out.append(["names", names])
        with tf.GradientTape() as t:
            y = fn(lambda: w.read_value() * 3.0)()
        _try(out, "gradient", lambda: [t.gradient(y, w)])
    elif name == "lu_matrix_inverse of an unknown rank":
        for val in (0.001, [[2.0, 1.0], [0.5, 3.0]]):
            x = tf.constant(val, tf.float64)
            g = fn(lambda a: tf.linalg.lu_matrix_inverse(lower_upper=a, perm=tf.constant([1, 0])),
                   input_signature=[tf.TensorSpec(None, tf.float64)])
            _try(out, f"{val} through a signature of unknown rank", lambda: g(x))
            _try(out, f"{val} eagerly", lambda: tf.linalg.lu_matrix_inverse(lower_upper=x, perm=tf.constant([1, 0])))
    return out


NAMES = ["addn forwarding", "g51b 53001 #50", "unread variable as target", "read_value names",
         "lu_matrix_inverse of an unknown rank"]
CASES: dict[str, dict] = {n: {"strategy": "default", "name": n} for n in NAMES}


@pytest.fixture(scope="module")
def tf_results(request: Any) -> dict[int, Any]:
    return tf_programs.spawn(__file__, CASES, tf_programs.selected(request, __file__))


@pytest.mark.clause("function.grappler-rewrites")
@pytest.mark.clause("autodiff.targets")
@pytest.mark.clause("function.symbolic-tensors")
@pytest.mark.parametrize("index", range(len(NAMES)), ids=NAMES)
def test_fz53_graph_as_tf(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
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
