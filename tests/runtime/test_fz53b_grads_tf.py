"""Automatic differentiation as people use it, against real TensorFlow 2.21 (the fifty-third session's generator
tests/fuzz53b/fz53b_gen.py, helper fz53b): tf.recompute_grad as TF builds it (its backward pass differentiates the
recomputation with unconnected_gradients=ZERO, and a tape that recorded that backward pass cannot take a second
gradient through a variable argument: NotImplementedError; clause autodiff.custom-gradient); inside a tf.function
two identical ops are one node before Grappler's SimplifyAggregation, so a complex gradient summed from the two
`grad * conj(x)` terms of `z * z` is `2 * term` (its signed zeros as TF's; clause function.grappler-rewrites); a
first call that creates a variable on every run raises TF's singleton ValueError before its graph's run-time
errors (clause function.trace-once); a ForwardAccumulator's JVP of an op sums every trainable input's term, one
without a tangent with zeros (clause autodiff.jacobian); tf.stack([]) is float32 [0], so a global norm of no tensors
is 0.0 (clause ops.clip-global-norm). Each case: a list of [label, value]; a value is a tensor's
[dtype, shape, values as text (repr keeps -0.0)] or an error's [class, first line (of ValueError and
NotImplementedError; of another its class only)].
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import tf_programs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _val(x: Any) -> Any:
    if x is None:
        return None
    if isinstance(x, (list, tuple)):
        return [_val(y) for y in x]
    a = np.asarray(x.numpy())
    return [x.dtype.name, list(a.shape), repr(a.tolist())]


def _try(out: list, label: str, fn: Callable[[], Any]) -> None:
    try:
        out.append([label, _val(fn())])
    except BaseException as e:  # noqa: BLE001 - the class and text are what is compared
        # (the text of the rules' own errors; of another (an op's run-time error, Python's IndexError) its class:
        # TF's graph-execution text and Python's wording are not modelled)
        text = str(e).split("\n")[0][:120] if type(e).__name__ in ("ValueError", "NotImplementedError") else ""
        out.append([label, [type(e).__name__, text]])


def program(tf: Any, case: dict, workdir: str) -> Any:
    out: list[Any] = []
    name = case["name"]
    if name == "recompute_grad":
        x = tf.constant([-0.0, 1.0, 2.0])
        y = tf.constant(3.0)

        def f(a: Any, b: Any) -> Any:
            return tf.math.sign(a) * a * a + 1.0 / a

        rf = tf.recompute_grad(f)

        def first() -> Any:
            with tf.GradientTape() as t:
                t.watch([x, y])
                r = rf(x, y)
            return t.gradient(r, [x, y])   # (y unused by f: zeros, not None)
        _try(out, "unused input zeros", first)
        _try(out, "unused input zeros in a function", lambda: tf.function(first)())
        v = tf.Variable([-0.0, 1.0, 2.0])

        def sq(a: Any) -> Any:
            return tf.einsum("a,a->", a, a)

        rs = tf.recompute_grad(sq)

        def second(src: Any) -> Any:
            with tf.GradientTape() as t2:
                t2.watch(src)
                with tf.GradientTape() as t:
                    t.watch(src)
                    r = rs(src)
                g = t.gradient(r, src)
                s = tf.reduce_sum(g)
            return t2.gradient(s, src)
        _try(out, "second order of a variable argument", lambda: second(v))
        _try(out, "second order of a tensor argument", lambda: second(x))
        w = tf.Variable([1.0, 2.0, 3.0])
        rv = tf.recompute_grad(lambda a: a * w * w)

        def third() -> Any:
            with tf.GradientTape() as t:
                t.watch(x)
                r = rv(x)
            return t.gradient(r, [x, w])
        _try(out, "variable read inside", third)
    elif name == "complex_aggregation":
        def grads(v2: Any) -> Any:
            z0 = tf.complex(v2, v2 * 0.5 - 0.25)
            c = tf.cast(v2, z0.dtype)
            with tf.GradientTape(persistent=True) as t:
                t.watch([z0, v2])
                z = z0 * c
                y = z * z
            return [t.gradient(y, z), t.gradient(y, [z0, v2])]
        v = tf.constant([-1.875, 0.0, -0.5])
        _try(out, "eager", lambda: grads(v))
        _try(out, "function", lambda: tf.function(grads, autograph=False)(v))

        def sums(v2: Any) -> Any:
            cz = tf.math.conj(tf.complex(v2, v2 * 0.5 - 0.25) * tf.cast(v2, tf.complex64))
            one = tf.ones([3], tf.complex64)
            return [one * cz + one * cz, tf.math.add_n([one * cz, one * cz, cz * one]), tf.math.conj(cz) + cz]
        _try(out, "duplicate products summed", lambda: tf.function(sums, autograph=False)(v))
    elif name == "singleton_before_run_error":
        x = tf.constant([1.0, 2.0])

        @tf.function(autograph=False)
        def g(x: Any) -> Any:
            tf.Variable(2.0)
            return tf.math.segment_prod(x, [0, 1]) * tf.ones([3])
        _try(out, "first call", lambda: g(x))
        _try(out, "second call", lambda: g(x))
        holder: list = []

        @tf.function(autograph=False)
        def h(x: Any) -> Any:
            if not holder:
                holder.append(tf.Variable(2.0))
            return tf.math.segment_prod(x, [0, 1]) * tf.ones([3]) * holder[0]
        _try(out, "singleton pattern keeps the run error", lambda: h(x))
    elif name == "jvp_zero_tangents":
        v1 = tf.constant(np.array([-0.875, 1.0], np.float64))
        v5 = tf.constant(np.array([0.0, -1.375, -0.5, -0.75], np.float64).reshape([2, 2]))
        c = tf.constant([-0.0, 2.0], tf.float64)
        w = tf.constant([1.0, float("inf")], tf.float64)
        t = tf.constant([-1.0, 0.0], tf.float64)
        with tf.autodiff.ForwardAccumulator(primals=v1, tangents=t) as acc:
            ys = [tf.einsum("a,az->z", v1, v5), tf.linalg.matvec(v5, v1, transpose_a=True), c - v1, v1 * w,
                  tf.linalg.matmul(tf.reshape(v1, [1, 2]), tf.reshape(w, [2, 1]))]
        for k, y in enumerate(ys):
            _try(out, f"jvp {k}", lambda y=y: acc.jvp(y))
    elif name == "empty_stack_and_norm":
        _try(out, "stack of no values", lambda: tf.stack([]))
        _try(out, "stack of no values axis 1", lambda: tf.stack([], axis=1))
        _try(out, "global norm of Nones", lambda: tf.linalg.global_norm([None, None]))
        _try(out, "clip of Nones", lambda: tf.clip_by_global_norm([None, None], 0.5))
        _try(out, "clip of nothing", lambda: tf.clip_by_global_norm([], 0.5))
    return out


NAMES = ["recompute_grad", "complex_aggregation", "singleton_before_run_error", "jvp_zero_tangents",
         "empty_stack_and_norm"]
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


@pytest.mark.clause("autodiff.custom-gradient")
@pytest.mark.parametrize("index", [0], ids=NAMES[:1])
def test_recompute_grad_as_tf(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    _check(index, tf_results, tmp_path)


@pytest.mark.clause("function.grappler-rewrites")
@pytest.mark.parametrize("index", [1], ids=NAMES[1:2])
def test_duplicate_nodes_aggregate_as_tf(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    _check(index, tf_results, tmp_path)


@pytest.mark.clause("function.trace-once")
@pytest.mark.parametrize("index", [2], ids=NAMES[2:3])
def test_singleton_error_before_run_error_as_tf(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    _check(index, tf_results, tmp_path)


@pytest.mark.clause("autodiff.jacobian")
@pytest.mark.parametrize("index", [3], ids=NAMES[3:4])
def test_jvp_zero_tangents_as_tf(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    _check(index, tf_results, tmp_path)


@pytest.mark.clause("ops.clip-global-norm")
@pytest.mark.parametrize("index", [4], ids=NAMES[4:5])
def test_empty_stack_and_global_norm_as_tf(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    _check(index, tf_results, tmp_path)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(tf_programs.worker(CASES, program))
