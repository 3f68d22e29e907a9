"""Uniform values in recorded graphs, replayed as scalars (simdist.runtime.uniform).

A recorded graph replays `tf.ones(shape) + scalar` and the like on one element, and hands a
dense variable write a stride-0 view of it. The values, traffic, metrics and simulated time
must stay bit-identical to running the Python eagerly, and the rewrite must apply exactly
where every consumer of the value can take it (else the value is computed as recorded).
"""

from __future__ import annotations

import os
import subprocess
import sys
from typing import Any

import numpy as np
import pytest

import simdist
from simdist import tf
from simdist.runtime import graph, uniform
from graph_helpers import assert_same, run


@pytest.fixture(autouse=True)
def _without_grappler_rewrites():
    """These tests check that a replay computes what the Python computes eagerly: Grappler's
    value-changing rewrites (simdist.runtime.ops.grappler, checked against TF 2.21 in
    tests/ops/test_fuzz2_values_tf.py) are off while they record."""
    from simdist.runtime.ops import grappler
    old = grappler.set_enabled(False)
    yield
    grappler.set_enabled(old)


pytestmark = pytest.mark.clause("function.graph-rewrites")
S = [64, 64]     # 4,096 elements: over uniform.MIN_ELEMENTS


def _sunk(explain: str) -> int:
    """How many ops explain() says replay on uniform values as scalars."""
    if "on uniform values as scalars" not in explain:
        return 0
    return int(explain.split(", ")[1].split(" ")[0])


# --- programs: (build, ops expected on scalars) ----------------------------------------------------
def _benchmark() -> tuple[Any, dict[str, Any]]:
    """benchmarks/bench_ps.py's step: the update is ones + a scalar computed from the forward pass."""
    w = tf.Variable(tf.zeros(S), name="w")
    b = tf.Variable(tf.zeros(S[1:]), name="b")
    x = tf.ones([8] + S[:1])

    @tf.function
    def step():
        y = tf.matmul(x, w) + b
        w.assign_add(tf.ones(S) + tf.reduce_sum(y) * 0.5)
        b.assign_add(tf.ones(S[1:]))
        return tf.reduce_sum(y)
    return step, {"w": w, "b": b}


def _chain() -> tuple[Any, dict[str, Any]]:
    """A chain of uniform ops on a scalar that changes every closure, into assign_sub and assign."""
    k = tf.Variable(0.1, name="k")
    u = tf.Variable(tf.ones(S), name="u")
    z = tf.Variable(tf.zeros(S), name="z")

    @tf.function
    def step():
        c = k.read_value()
        u.assign_sub(tf.fill(S, 0.1) * c / (c + 3.0) - c)
        z.assign(tf.maximum(tf.zeros(S) - c, tf.fill(S, -0.25)))
        k.assign_add(0.3)
        return c
    return step, {"k": k, "u": u, "z": z}


def _special() -> tuple[Any, dict[str, Any]]:
    """Signed zeros, infinities, NaN and the smallest normal float32 through uniform ops (bit
    patterns must match). Not subnormals: TF's kernels flush them (ops.subnormals), which dispatch
    models and a replay does not, so a call holding one stays eager."""
    k = tf.Variable(-0.0, name="k")
    a = tf.Variable(tf.zeros(S), name="a")
    b = tf.Variable(tf.zeros(S), name="b")
    c = tf.Variable(tf.zeros(S), name="c")

    @tf.function
    def step():
        s = k.read_value()
        a.assign(tf.fill(S, -0.0) * s)                        # -0.0 * -0.0 = +0.0, then signs alternate
        b.assign_add(tf.fill(S, np.inf) * s)                  # inf * 0 = nan
        c.assign(tf.minimum(tf.fill(S, 1.1754944e-38), s + 1.1754944e-38))    # FLT_MIN
        k.assign(0.0 - s)
        return s
    return step, {"k": k, "a": a, "b": b, "c": c}


def _dtypes() -> tuple[Any, dict[str, Any]]:
    """float64 and float16 uniform updates (each dtype's own rounding)."""
    k = tf.Variable(np.float64(1.0) / 3.0, name="k")
    h = tf.Variable(np.float16(0.1), name="h")
    d = tf.Variable(tf.zeros(S, tf.float64), name="d")
    e = tf.Variable(tf.zeros(S, tf.float16), name="e")

    @tf.function
    def step():
        d.assign_add(tf.ones(S, tf.float64) * k + k)
        e.assign_add(tf.ones(S, tf.float16) / (h + tf.constant(1.0, tf.float16)))
        k.assign_add(tf.constant(0.1, tf.float64))
        h.assign_add(tf.constant(0.3, tf.float16))
        return k.read_value()
    return step, {"k": k, "h": h, "d": d, "e": e}


def _read_after_write() -> tuple[Any, dict[str, Any]]:
    """A read in the same closure sees the uniform write (the transaction folds the view)."""
    k = tf.Variable(0.5, name="k")
    v = tf.Variable(tf.ones(S), name="v")
    w = tf.Variable(tf.ones(S), name="w")

    @tf.function
    def step():
        v.assign(tf.ones(S) * k)
        w.assign_add(tf.ones(S) - k)
        r = v * 2.0 + w
        k.assign_add(0.25)
        return tf.reduce_sum(r)
    return step, {"k": k, "v": v, "w": w}


@pytest.mark.parametrize("build, ops", [(_benchmark, 1), (_chain, 5), (_special, 3), (_dtypes, 3),
                                        (_read_after_write, 2)],
                         ids=["benchmark", "chain", "special-values", "float64-float16", "read-after-write"])
def test_uniform_updates_replay_bit_for_bit(build: Any, ops: int) -> None:
    eager = run(build, traced=False)
    replayed = run(build, traced=True)
    assert _sunk(replayed["explain"]) == ops, \
        f"explain={replayed['explain']!r}, but should replay {ops} op(s) on uniform values as scalars [{build.__name__}]"
    assert_same(eager, replayed, build.__name__)


# --- a uniform operand beside a whole one ------------------------------------------------------------
def _mean_gradient() -> tuple[Any, dict[str, Any]]:
    """A train step with a mean loss: its gradient multiplies by a uniform 1/n (a folded constant),
    which the replay reads as one element."""
    rng = np.random.default_rng(5)
    a = tf.Variable(rng.normal(size=S).astype(np.float32), name="a")
    x = tf.constant(rng.normal(size=S).astype(np.float32))
    y = tf.constant(rng.normal(size=S).astype(np.float32))

    def replica() -> Any:
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(a * x - y))
        a.assign_sub(tape.gradient(loss, a) * 0.5)
        return loss

    @tf.function
    def step():
        strategy = tf.distribute.get_strategy()
        return strategy.run(replica)
    return step, {"a": a}


def _scaled() -> tuple[Any, dict[str, Any]]:
    """fill(v) * a variable's value, and a variable's value / fill(v): the fill read as its element."""
    k = tf.Variable(tf.ones(S) * 3.0, name="k")
    w = tf.Variable(tf.zeros(S), name="w")

    @tf.function
    def step():
        v = k.read_value()
        w.assign_add(tf.fill(S, 0.1) * v + v / tf.fill(S, 7.0))
        k.assign_add(tf.fill(S, 0.3))
        return tf.reduce_sum(w)
    return step, {"k": k, "w": w}


@pytest.mark.parametrize("build, operands", [(_mean_gradient, 1), (_scaled, 2)], ids=["mean-gradient", "scaled"])
def test_uniform_operands_beside_whole_ones_read_as_elements(build: Any, operands: int) -> None:
    eager = run(build, traced=False)
    replayed = run(build, traced=True)
    want = f"{operands} reading a uniform operand as its element"
    assert want in replayed["explain"], f"explain={replayed['explain']!r}, but should say {want!r} [{build.__name__}]"
    assert_same(eager, replayed, build.__name__)


# --- where a uniform value must stay an array -------------------------------------------------------
def _whole_for(consumer: str) -> Any:
    """A uniform update that a matmul, the call's result or a reduction also uses: they need the array."""
    def build() -> tuple[Any, dict[str, Any]]:
        k = tf.Variable(0.5, name="k")
        w = tf.Variable(tf.ones(S), name="w")

        @tf.function
        def step():
            u = tf.ones(S) * k
            w.assign_add(u)
            if consumer == "matmul":
                w.assign_sub(tf.matmul(u, tf.ones(S)) * 0.001)
                return k.read_value()
            return u if consumer == "returned" else tf.reduce_sum(u)
        return step, {"w": w}
    build.__name__ = f"_whole_for_{consumer}"
    return build


def _small() -> tuple[Any, dict[str, Any]]:
    k = tf.Variable(0.5, name="k")
    w = tf.Variable(tf.ones([4, 4]), name="w")

    @tf.function
    def step():
        w.assign_add(tf.ones([4, 4]) * k)                     # 16 elements: under MIN_ELEMENTS
        return k.read_value()
    return step, {"w": w}


def _integers() -> tuple[Any, dict[str, Any]]:
    k = tf.Variable(3, name="k")
    w = tf.Variable(tf.zeros(S, tf.int32), name="w")

    @tf.function
    def step():
        w.assign_add(tf.ones(S, tf.int32) * k)                # integers: not rewritten
        return k.read_value()
    return step, {"w": w}


def _not_uniform() -> tuple[Any, dict[str, Any]]:
    k = tf.Variable(0.5, name="k")
    w = tf.Variable(tf.ones(S), name="w")
    ramp = tf.reshape(tf.range(64 * 64, dtype=tf.float32), S)

    @tf.function
    def step():
        w.assign_add(ramp * k)                                # a constant that is not uniform
        return k.read_value()
    return step, {"w": w}


@pytest.mark.parametrize("build", [_whole_for("matmul"), _whole_for("returned"), _whole_for("reduced"), _small,
                                   _integers, _not_uniform],
                         ids=["matmul-consumer", "returned", "reduced", "under-min-elements", "int32", "not-uniform"])
def test_uniform_values_stay_arrays_where_a_consumer_needs_one(build: Any) -> None:
    eager = run(build, traced=False)
    replayed = run(build, traced=True)
    assert replayed["explain"].startswith("replays") and _sunk(replayed["explain"]) == 0, \
        f"explain={replayed['explain']!r}, but no op should replay on scalars [{build.__name__}]"
    assert_same(eager, replayed, build.__name__)


def test_direct_calls_update_in_place_as_eager() -> None:
    """A tf.function called directly (no coordinator, no transaction) writes the view in place."""
    def values(traced: bool) -> tuple[bytes, bytes, str]:
        simdist.reset()
        old, graph.enabled = graph.enabled, traced
        try:
            k = tf.Variable(0.1)
            w = tf.Variable(tf.ones(S) * 0.7)

            @tf.function
            def step():
                w.assign_add(tf.ones(S) * k - 0.05)
                k.assign_add(0.2)
            for _ in range(7):
                step()
            return w.numpy().tobytes(), k.numpy().tobytes(), graph.explain(step)
        finally:
            graph.enabled = old
    eager, replayed = values(False), values(True)
    assert "2 ops on uniform values as scalars" in replayed[2], \
        f"explain={replayed[2]!r}, but the update should replay on scalars"
    assert replayed[:2] == eager[:2], "w and k after 7 replays differ from the eager calls' bits"


@pytest.mark.parametrize("switch, ops", [("1", 1), ("0", 0)])
def test_switch_off_by_environment(switch: str, ops: int) -> None:
    """SIMDIST_SINK_UNIFORM=0 replays uniform values as full arrays, as recorded."""
    code = ("import sys; sys.path[:0] = [{tests!r}, {here!r}]\n"
            "import test_graph_uniform as T\nfrom graph_helpers import run\n"
            "print(run(T._benchmark, traced=True)['explain'])\n").format(tests=os.path.dirname(os.path.dirname(__file__)), here=os.path.dirname(__file__))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                         env={**os.environ, "SIMDIST_SINK_UNIFORM": switch})
    assert out.returncode == 0, f"exit {out.returncode}: {out.stderr[-1500:]}"
    got = _sunk(out.stdout.strip().splitlines()[-1])
    assert got == ops, f"{got} op(s) replayed on scalars, but should be {ops} [SIMDIST_SINK_UNIFORM={switch}]"


def test_uniform_element_is_compared_bit_for_bit() -> None:
    """-0.0 and 0.0, or two NaN payloads, are different elements; a uniform array's element is read-only."""
    n = uniform.MIN_ELEMENTS
    mixed = np.zeros(n, np.float32)
    mixed[3] = -0.0
    assert uniform.element(mixed) is None, "zeros with one -0.0 were taken as uniform"
    nan2 = np.full(n, np.nan, np.float32)
    nan2.view(np.uint32)[5] ^= 1          # another NaN payload
    assert uniform.element(nan2) is None, "NaNs of two payloads were taken as uniform"
    e = uniform.element(np.full(n, -0.0, np.float32))
    assert e is not None and e.shape == () and np.signbit(e) and not e.flags.writeable, \
        f"element of a -0.0 array={e!r}, but should be a read-only 0-d -0.0"
    assert uniform.element(np.full(n - 1, 1.0, np.float32)) is None, "an array under MIN_ELEMENTS was taken as uniform"
