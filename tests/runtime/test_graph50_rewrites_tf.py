"""Grappler's consumer-dependent rewrites on the finished graph (the fiftieth session, helper graph50; clause
function.grappler-rewrites): TF 2.21 optimizes a tf.function's whole graph before its first call, so a rewrite
that needs an intermediate to have one consumer (SqrtDivToRsqrtMul, MinimizeBroadcasts' absorbed products,
ConstantPushDown's child) counts every consumer, the function's outputs and the ops tf.gradients added included,
while tf.gradients itself walks the graph as written. Each case returns the bits of its float results (int views,
compared exactly) from inputs that are exact ratios of integers; a variable's value after each call; the gradients.
"""

from __future__ import annotations

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
    return [str(a.dtype), list(a.shape), a.view({2: np.int16, 4: np.int32, 8: np.int64}[a.dtype.itemsize]).tolist()]


def _try(out: list, label: str, fn: Callable[[], Any]) -> None:
    try:
        r = fn()
        out.append([label, [_bits(v) for v in r] if isinstance(r, (list, tuple)) else _bits(r)])
    except Exception as e:  # noqa: BLE001 - the class and first line are what is compared
        out.append([label, [type(e).__name__, str(e).split("\n")[0][:120]]])


def _np(t: Any) -> Any:
    return None if t is None else t.numpy()


def program(tf: Any, case: dict, workdir: str) -> Any:
    out: list[Any] = []
    a, b, z = (tf.constant(_vals(N, k)) for k in (1, 2, 3))
    s = tf.constant(_vals(1, 4)[0])
    name = case["name"]
    if name == "sqrt":
        f1 = tf.function(lambda x, y: x / tf.sqrt(y))
        _try(out, "x / sqrt(y)", lambda: f1(a, b))
        f2 = tf.function(lambda x, y: (lambda r: (x / r, r))(tf.sqrt(y)))
        _try(out, "x / sqrt(y), sqrt(y) returned", lambda: [_np(t) for t in f2(a, b)])
        f3 = tf.function(lambda x, y: (lambda r: x / r + r)(tf.sqrt(y)))
        _try(out, "x / sqrt(y) + sqrt(y)", lambda: f3(a, b))
        f4 = tf.function(lambda x, y: (x / tf.sqrt(y)) * 2.0 + 1.0)
        _try(out, "x / sqrt(y) read on", lambda: f4(a, b))
        f5 = tf.function(lambda x, y: tf.reduce_sum(x / tf.sqrt(y)))
        _try(out, "3 calls: first", lambda: f5(a, b))
        _try(out, "3 calls: second", lambda: f5(b, z))
        _try(out, "3 calls: third", lambda: f5(z, a))

        @tf.function
        def grads(x: Any, y: Any) -> Any:
            r = tf.sqrt(y)
            q = x / r
            return q, tf.gradients(q, [x, y])

        _try(out, "x / sqrt(y) with tf.gradients", lambda: (lambda r: [r[0].numpy()] + [g.numpy() for g in r[1]])(
            grads(a, b)))

        @tf.function
        def taped_inside(x: Any, y: Any) -> Any:
            with tf.GradientTape() as g:
                g.watch(y)
                q = x / tf.sqrt(y)
            return q, g.gradient(q, y)
        _try(out, "x / sqrt(y) under a tape inside", lambda: [t.numpy() for t in taped_inside(a, b)])
        f6 = tf.function(lambda x, y: x / tf.sqrt(y))
        with tf.GradientTape() as tape:
            tape.watch(b)
            q = f6(a, b)
        _try(out, "x / sqrt(y) under an outer tape", lambda: [q.numpy(), tape.gradient(q, b).numpy()])
    elif name == "products":
        f1 = tf.function(lambda x, y, c: (x * y) * c)
        _try(out, "(a * b) * s", lambda: f1(a, b, s))
        f2 = tf.function(lambda x, y, c: (lambda p: p * c + p)(x * y))
        _try(out, "p = a * b; p * s + p", lambda: f2(a, b, s))
        f3 = tf.function(lambda x, y, c: (lambda p: (p * c, p))(x * y))
        _try(out, "p = a * b; (p * s, p)", lambda: [t.numpy() for t in f3(a, b, s)])
        f4 = tf.function(lambda x, y: (lambda p: (p * 0.3, p * 2.0))(x * y))
        _try(out, "p = a * b; (p * 0.3, p * 2.0)", lambda: [t.numpy() for t in f4(a, b)])

        @tf.function
        def stopped(x: Any) -> Any:
            p = x * x
            y = p * 3.0 + x
            return y, tf.gradients(y, x, stop_gradients=[p])[0]
        _try(out, "stop_gradients=[x * x] of (x * x) * 3.0 + x", lambda: [t.numpy() for t in stopped(a)])

        @tf.function
        def stopped_tree(x: Any, y: Any, c: Any) -> Any:
            p = x * y
            q = p * c
            ga, gc = tf.gradients(q, [x, c], stop_gradients=[p])
            return q, ga, gc
        _try(out, "stop_gradients=[a * b] of (a * b) * s", lambda: [_np(t) for t in stopped_tree(a, b, s)])

        @tf.function
        def tree_grads(x: Any, y: Any, c: Any) -> Any:
            q = (x * y) * c
            return [q] + tf.gradients(q, [x, y, c])
        _try(out, "(a * b) * s with tf.gradients", lambda: [t.numpy() for t in tree_grads(a, b, s)])
    elif name == "variables":
        v = tf.Variable(tf.zeros([N]))
        w = tf.Variable(tf.ones([N]))

        @tf.function
        def step(x: Any, y: Any, c: Any) -> Any:
            v.assign_add(x / tf.sqrt(y))
            w.assign(w + (x * y) * c)
            return v.read_value() * 1.0
        for k, (x, y) in enumerate([(a, b), (b, z), (z, a)]):
            _try(out, f"call {k}: result", lambda x=x, y=y: step(x, y, s))
            _try(out, f"call {k}: v", lambda: v.numpy())
            _try(out, f"call {k}: w", lambda: w.numpy())
    elif name == "control flow":
        @tf.function
        def branch(x: Any, y: Any, p: Any) -> Any:
            return tf.cond(p > 0, lambda: x / tf.sqrt(y) + 1.0, lambda: (x * y) * 0.5)
        _try(out, "cond, true branch", lambda: branch(a, b, tf.constant(1.0)))
        _try(out, "cond, false branch", lambda: branch(a, b, tf.constant(-1.0)))
        _try(out, "cond, true branch again", lambda: branch(b, z, tf.constant(1.0)))

        @tf.function
        def loop(x: Any, y: Any) -> Any:
            def body(i: Any, acc: Any) -> Any:
                return i + 1, acc * 0.5 + x / tf.sqrt(y + tf.cast(i, tf.float32))
            return tf.while_loop(lambda i, acc: i < 3, body, [tf.constant(0), tf.zeros([N])])[1]
        _try(out, "while_loop body", lambda: loop(a, b))
        _try(out, "while_loop body again", lambda: loop(b, z))

        u = tf.Variable(tf.zeros([N]))

        @tf.function
        def branch_write(x: Any, y: Any, p: Any) -> Any:
            def yes() -> Any:
                u.assign_add(x / tf.sqrt(y))
                return tf.constant(1.0)
            return tf.cond(p > 0, yes, lambda: tf.constant(0.0))
        for k in range(2):
            _try(out, f"cond writing a variable, call {k}", lambda: [branch_write(a, b, tf.constant(1.0)).numpy(),
                                                                     u.numpy()])
    elif name == "mirrored":
        if not hasattr(tf, "__path__") or "simdist" in tf.__name__:   # (simdist: a fresh machine of 4 CPUs; TF's
            import simdist                                              # worker configures its own at start)
            simdist.reset()
            cpu = tf.config.list_physical_devices("CPU")[0]
            tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 4)
        strategy = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])

        @tf.function
        def run(x: Any, y: Any, c: Any) -> Any:
            return strategy.run(lambda x, y, c: (x / tf.sqrt(y), (x * y) * c, tf.sqrt(y)), args=(x, y, c))
        for k in range(2):
            _try(out, f"strategy.run, call {k}", lambda: [r.numpy() for t in run(a, b, s)
                                                          for r in strategy.experimental_local_results(t)])
    return out


NAMES = ["sqrt", "products", "variables", "control flow", "mirrored"]
CASES: dict[str, dict] = {n: {"strategy": "default", "name": n} for n in NAMES}


@pytest.fixture(scope="module")
def tf_results(request: Any) -> dict[int, Any]:
    return tf_programs.spawn(__file__, CASES, tf_programs.selected(request, __file__))


@pytest.mark.clause("function.grappler-rewrites")
@pytest.mark.parametrize("index", range(len(NAMES)), ids=NAMES)
def test_rewrites_on_the_finished_graph_as_tf(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    name = NAMES[index]
    from simdist.runtime import host_cpu
    with host_cpu.using(tf_workers.answers_model(__file__)):   # (TF's Rsqrt bits follow the CPU: ops.host-cpu)
        got = tf_programs.on_simdist(program, CASES[name], str(tmp_path))
    want = tf_results[index]
    assert [g[0] for g in got] == [w[0] for w in want], f"{name}: labels differ"
    bad = []
    for g, w in zip(got, want):
        if g != w:
            bad.append(f"{w[0]}: simdist gives {_summary(g[1])}, TF 2.21 gives {_summary(w[1])}")
    assert not bad, f"{name}: " + "; ".join(bad)


def _summary(v: Any) -> str:
    """A result for a failure message: an error as it is, bits as how many elements of each array differ."""
    if isinstance(v, list) and v and isinstance(v[0], list) and len(v[0]) == 3 and isinstance(v[0][2], list):
        return "[" + ", ".join(f"{x[0]}{x[1]} first bits {x[2][:2]}" for x in v) + "]"
    if isinstance(v, list) and len(v) == 3 and isinstance(v[2], list):
        return f"{v[0]}{v[1]} first bits {v[2][:2]}"
    return repr(v)[:200]


if __name__ == "__main__":  # TF worker: 4 logical CPUs before TF initializes them (the mirrored case)
    import tensorflow as _tf
    _cpu = _tf.config.list_physical_devices("CPU")[0]
    _tf.config.set_logical_device_configuration(_cpu, [_tf.config.LogicalDeviceConfiguration()] * 4)
    tf_workers.serve(tf_programs.worker(CASES, program))
