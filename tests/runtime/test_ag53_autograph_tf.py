"""AutoGraph's conversion of Python control flow on tensors inside a tf.function, against real TensorFlow 2.21
(the fifty-third session's helper ag53; clause function.autograph): an `if` on a tensor is a tf.cond with both
branches traced (their Python side effects both happen at trace time; a variable they assign has the most
specific shape compatible with both; one left undefined in a branch, or of another dtype, is AutoGraph's error);
a `while` on a tensor and a `for` over a tf.range or a tensor are tf.while_loops over the variables the body
carries (a shape that changes without `set_loop_options(shape_invariants=...)` is AutoGraph's ValueError);
`break`, `continue` and a `return` inside a conditional are lowered as TF lowers them; `and`, `or`, `not` and
`a if c else b` on tensors are tf.cond / logical_not. Each case: a list of [label, value]; a value is a
result's [dtype, shape, value], the `str(t.shape)` read inside the trace, or an error's [class, first line,
the line `Class: message` of TF's "in user code:" frame].
"""

from __future__ import annotations

from typing import Any, Callable

import pytest

import tf_programs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _try(out: list, label: str, fn: Callable[[], Any]) -> None:
    try:
        out.append([label, _show(fn())])
    except BaseException as e:  # noqa: BLE001 - the class and text are what is compared
        lines = [x.strip() for x in str(e).strip().split("\n") if x.strip()]
        head = [x for x in lines if x.startswith(type(e).__name__ + ":")]   # (the message in "in user code:")
        out.append([label, [type(e).__name__, lines[0][:160] if lines else "", head[0][:200] if head else ""]])


def _show(v: Any) -> Any:
    if isinstance(v, (list, tuple)):
        return [_show(x) for x in v]
    if hasattr(v, "numpy") and hasattr(v, "dtype"):
        return [v.dtype.name, list(v.shape), v.numpy().tolist()]
    return v if v is None or isinstance(v, (int, float, str, bool)) else repr(v)


def program(tf: Any, case: dict, workdir: str) -> Any:
    out: list[Any] = []
    seen: list[Any] = []
    name = case["name"]
    pos = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    neg = -pos
    if name == "if_state":
        @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32)])
        def f(x: Any) -> Any:
            if tf.reduce_sum(x) > 0:
                seen.append("main")
                y = x * 2.0
                z = x[:1]
            else:
                seen.append("else")
                y = -x
                z = tf.zeros([3, 2])
            seen.extend([str(y.shape), str(z.shape)])
            w = z + tf.zeros([1, 2])
            return y, w
        _try(out, "pos", lambda: f(pos))
        # (the first trace's side effects: a tf.cond whose branches differ in shape is not replayed by simdist's
        # recording, so a later call runs the Python again, where TF runs its graph)
        out.append(["seen", list(seen)])
        _try(out, "neg", lambda: f(neg))

        @tf.function
        def elifs(x: Any) -> Any:
            if x > 2:
                r = x * 10
            elif x > 0:
                r = x + 100
            else:
                r = tf.constant(-1)
            k = 0
            if k > 0:   # (a Python condition: plain Python)
                r = r * 0
            return r
        for v in (3, 1, -5):
            _try(out, f"elif{v}", lambda v=v: elifs(tf.constant(v)))

        @tf.function
        def temp_only(x: Any) -> Any:
            if tf.reduce_sum(x) > 0:
                t = x * 3.0   # (assigned in one branch, not used after: no loop state)
                seen.append(str(t.shape))
            return x + 1.0
        _try(out, "temp_only", lambda: temp_only(pos))
    elif name == "if_errors":
        @tf.function
        def undefined_else(x: Any) -> Any:
            if tf.reduce_sum(x) > 0:
                z = x * 2.0
            return z
        _try(out, "undefined_else", lambda: undefined_else(pos))

        @tf.function
        def undefined_main(x: Any) -> Any:
            if tf.reduce_sum(x) > 0:
                pass
            else:
                z = x
            return z
        _try(out, "undefined_main", lambda: undefined_main(pos))

        @tf.function
        def dtypes_differ(x: Any) -> Any:
            if tf.reduce_sum(x) > 0:
                t = tf.cast(x, tf.float64)
            else:
                t = x
            return t
        _try(out, "dtypes_differ", lambda: dtypes_differ(pos))

        @tf.function
        def not_bool(x: Any) -> Any:
            y = x
            if tf.reduce_sum(x):
                y = x * 2.0
            return y
        _try(out, "not_bool", lambda: not_bool(pos))

        @tf.function
        def structure(x: Any) -> Any:
            if tf.reduce_sum(x) > 0:
                s = [x, x]
            else:
                s = [x]
            return s
        _try(out, "structure", lambda: structure(pos))

        @tf.function
        def none_branch(x: Any) -> Any:
            if tf.reduce_sum(x) > 0:
                s = x
            else:
                s = None
            return s
        _try(out, "none_branch", lambda: none_branch(pos))
    elif name == "while_loops":
        @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32)])
        def grow(x: Any) -> Any:
            a = x
            i = tf.constant(0)
            while i < 2:
                tf.autograph.experimental.set_loop_options(shape_invariants=[(a, tf.TensorShape([None, 2]))])
                a = tf.concat([a, a[:1]], 0)
                i += 1
            seen.append(str(a.shape))
            return a, i
        _try(out, "grow", lambda: grow(pos))

        @tf.function
        def no_invariant(x: Any) -> Any:
            a = x
            i = tf.constant(0)
            while i < 2:
                a = tf.concat([a, a[:1]], 0)
                i += 1
            return a
        _try(out, "no_invariant", lambda: no_invariant(pos))

        @tf.function
        def dtype_change(x: Any) -> Any:
            n = 0
            i = tf.constant(0)
            while i < 3:
                n = n + 0.5
                i += 1
            return n
        _try(out, "dtype_change", lambda: dtype_change(pos))

        @tf.function
        def count(x: Any) -> Any:
            s = tf.constant(0.0)
            while s < tf.reduce_sum(x):
                s = s + 1.5
            k = 0
            while k < 3:   # (a Python condition: plain Python)
                k += 1
            return s, k
        _try(out, "count", lambda: count(pos))

        @tf.function
        def capped(x: Any) -> Any:
            i = tf.constant(0)
            while i < 100:
                tf.autograph.experimental.set_loop_options(maximum_iterations=4)
                i += 1
            return i
        _try(out, "capped", lambda: capped(pos))

        @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32)])
        def unknown_rows(x: Any) -> Any:
            a = x   # (its static shape (None, 2) is kept by the body: no invariant needed)
            i = tf.constant(0)
            while i < 2:
                a = tf.concat([a[1:], a[:1]], 0) * 2.0
                i += 1
            seen.append(str(a.shape))
            return a
        _try(out, "unknown_rows", lambda: unknown_rows(pos))
        out.append(["seen", list(seen)])
    elif name == "while_loop_invariants":
        @tf.function(reduce_retracing=True)
        def f(x: Any) -> Any:
            _, a = tf.while_loop(lambda i, a: i < 1, lambda i, a: (i + 1, tf.concat([a, a[:1]], 0)),
                                 (tf.constant(0), x), shape_invariants=(tf.TensorShape([]), tf.TensorShape([None, 2])))
            _, b = tf.while_loop(lambda i, b: i < 2, lambda i, b: (i + 1, b * 2.0), (tf.constant(0), x))
            _, c = tf.while_loop(lambda i, c: i < 2, lambda i, c: (i + 1, c * 2.0), (tf.constant(0), x),
                                 shape_invariants=(tf.TensorShape([]), tf.TensorShape(None)))
            seen.append([str(a.shape), str(b.shape), str(c.shape)])
            return a, b, c
        _try(out, "first", lambda: f(pos))
        _try(out, "relaxed", lambda: f(tf.ones([3, 2])))   # (the second shape: a trace of x (None, 2))
        out.append(["seen", list(seen)])
    elif name == "for_loops":
        @tf.function
        def ranged(x: Any) -> Any:
            acc = tf.zeros_like(x[0])
            for i in tf.range(tf.shape(x)[0] + 3):
                if i > 2:
                    break
                if i == 1:
                    continue
                seen.append("body")   # (traced once)
                acc = acc + tf.cast(i, x.dtype) * x[0]
            seen.append(str(acc.shape))
            return acc
        _try(out, "ranged", lambda: ranged(pos))

        @tf.function
        def rows(x: Any) -> Any:
            total = tf.zeros([2])
            n = tf.constant(0)
            for row in x:
                total = total + row * 2.0
                n += 1
            return total, n
        _try(out, "rows", lambda: rows(pos))

        @tf.function
        def builtin_range(x: Any) -> Any:
            s = tf.constant(0)
            for j in range(tf.shape(x)[0]):
                s = s + j
            t = 0
            for j in range(4):   # (a Python range: unrolled)
                t += j
            return s, t
        _try(out, "builtin_range", lambda: builtin_range(pos))

        @tf.function
        def defined_inside(x: Any) -> Any:
            for i in tf.range(3):
                last = tf.cast(i, tf.float32) * 2.0
            return last
        _try(out, "defined_inside", lambda: defined_inside(pos))

        @tf.function
        def iterate_after(x: Any) -> Any:
            for i in tf.range(4):
                pass
            return i
        _try(out, "iterate_after", lambda: iterate_after(pos))

        @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32)])
        def lens(x: Any) -> Any:
            n = len(x)   # (a tensor where the graph does not know the dimension)
            seen.append(["len", hasattr(n, "dtype"), len(x[0])])
            s = tf.constant(0.0)
            for j in range(len(x)):   # (so range(len(x)) is a tf.range loop)
                seen.append("range body")
                s += tf.cast(j, tf.float32)
            return n, s
        _try(out, "lens", lambda: lens(tf.ones([3, 2])))
        _try(out, "lens2", lambda: lens(tf.ones([3, 2]) * 2.0))

        @tf.function
        def grows(x: Any) -> Any:
            a = x
            for _ in tf.range(2):
                a = tf.concat([a, a], 0)
            return a
        _try(out, "grows", lambda: grows(pos))
        out.append(["seen", list(seen)])
    elif name == "returns_logic":
        @tf.function
        def early(x: Any) -> Any:
            outs = [x[0]]
            if tf.reduce_sum(x) > 0:
                return outs + [x * 2.0]
            acc = tf.nn.relu(x)
            return outs + [acc]
        _try(out, "early_pos", lambda: early(pos))
        _try(out, "early_neg", lambda: early(neg))

        @tf.function
        def one_return(x: Any) -> Any:
            if tf.reduce_sum(x) > 0:
                return x
        _try(out, "one_return", lambda: one_return(pos))

        @tf.function
        def both_return(x: Any) -> Any:
            if tf.reduce_sum(x) > 0:
                return x[:1]
            else:
                return x
        _try(out, "both_return", lambda: both_return(pos))

        @tf.function
        def logic(x: Any) -> Any:
            a = tf.reduce_sum(x) > 0
            b = tf.reduce_max(x) < 3.0
            c = a and b
            d = a or b
            e = not a
            f = x[:1] if a else x
            seen.append(str(f.shape))
            if a and not b:
                g = tf.constant(1)
            else:
                g = tf.constant(2)
            return c, d, e, f, g
        _try(out, "logic", lambda: logic(pos))

        def helper(x: Any) -> Any:   # (a user function called from a converted one: converted too)
            if tf.reduce_sum(x) > 0:
                seen.append("helper main")
                y = x[:1]
            else:
                seen.append("helper else")
                y = x
            return y

        class Box:
            def scale(self, x: Any) -> Any:
                if tf.reduce_max(x) > 10.0:
                    return x * 0.0
                return x * 2.0

        @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32)])
        def calls(x: Any) -> Any:
            y = helper(x)
            seen.append(str(y.shape))
            return Box().scale(y)
        _try(out, "calls", lambda: calls(pos))
        out.append(["seen", list(seen)])
    return out


NAMES = ["if_state", "if_errors", "while_loops", "for_loops", "returns_logic", "while_loop_invariants"]
CASES: dict[str, dict] = {n: {"strategy": "default", "name": n} for n in NAMES}


@pytest.fixture(scope="module")
def tf_results(request: Any) -> dict[int, Any]:
    return tf_programs.spawn(__file__, CASES, tf_programs.selected(request, __file__))


def _check(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    name = NAMES[index]
    got, want = tf_programs.on_simdist(program, CASES[name], str(tmp_path)), tf_results[index]
    assert [g[0] for g in got] == [w[0] for w in want], f"{name}: labels differ: simdist {got}, TF {want}"
    for g, w in zip(got, want):
        assert g == w, f"{name}: {w[0]}: simdist gives {g[1]}, TF 2.21 gives {w[1]}"


@pytest.mark.clause("function.autograph")
@pytest.mark.parametrize("index", range(5), ids=NAMES[:5])
def test_autograph_control_flow_as_tf(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    _check(index, tf_results, tmp_path)


@pytest.mark.clause("function.traced-while-loop")
@pytest.mark.parametrize("index", [5], ids=NAMES[5:])
def test_while_loop_results_have_their_invariants_shapes(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    _check(index, tf_results, tmp_path)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(tf_programs.worker(CASES, program))
