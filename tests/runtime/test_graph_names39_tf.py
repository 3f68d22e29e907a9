"""The names of a tf.function's graph nodes (Tensor.name inside the function's Python, tf.name_scope made
unique and validated there) and the order Grappler sums an AddN's inputs in (by those names), on simdist vs
TF 2.21. Clauses function.symbolic-tensors (the names) and function.grappler-rewrites (the sums). Its golden (tests/goldens/) is stamped with this file."""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import pytest

import case_results
import tf_workers
from case_wrappers import error_last_line

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _names(tf: Any, body: Callable[..., list], *args: Any) -> list:
    """The names body's tensors have while the function traces (body returns [tensor, ...])."""
    seen: list = []

    @tf.function
    def f(*a: Any) -> Any:
        ts = body(tf, *a)
        seen.extend(t.name for t in ts)
        return ts[-1]
    f(*args)
    return seen


def _operators(tf: Any, x: Any, c: Any) -> list:
    a = x * c[0]
    b = tf.multiply(x, c[1])
    d = x / 2.0
    e = 3.0 - x
    f = x ** 2
    g = x // 1.0
    h = tf.sin(a) + tf.cos(b)
    return [a, b, d, e, f, g, h, c[2], tf.add_n([a, b, d])]


def _scopes(tf: Any, x: Any, c: Any) -> list:
    out = []
    for _ in range(3):
        with tf.name_scope("blk"):
            y = x * c[0]
            with tf.name_scope("inner"):
                z = tf.square(y)
            out += [y, z]
    with tf.name_scope("abs/"):
        out.append(x + 1.0)
    with tf.name_scope("Mul"):   # (a scope named as an op type: names compare without case)
        out.append(tf.multiply(x, 2.0))
    out.append(tf.multiply(x, x))
    out.append(tf.identity(x, name="mine"))
    out.append(tf.matmul(tf.reshape(x, [1, 1]), tf.reshape(c[0], [1, 1])))
    return out


def _array_scopes(tf: Any, x: Any, c: Any) -> list:
    """Functions whose TF Python opens a scope or names its op (`transpose`, `concat`, `stack`, `Cast`, and
    their `name` argument; a concat of one value is Identity `concat_1/concat`; a cast to the same dtype
    makes no node but takes the name)."""
    m = tf.reshape(c[:2] * x, [1, 2])
    return [tf.transpose(m), tf.concat([m, m], 0), tf.stack([m, m]), tf.cast(m, tf.float64), tf.cast(m, tf.float32),
            tf.cast(m, tf.int32, name="ci"), tf.transpose(m, name="tt"), tf.concat([m, m], axis=1, name="cc"),
            tf.stack([m], 1), tf.concat([m], 0), tf.cast(m, tf.float64)]


def _gradients_names(tf: Any, x: Any, c: Any) -> list:
    s = tf.add_n([x * c[0], tf.multiply(x, c[1]), tf.sin(x) * c[2]])
    return [s, tf.gradients(s, x)[0], tf.gradients(s, x, name="mine")[0], tf.gradients(s * s, x)[0]]


def _matmuls(tf: Any, x: Any, c: Any) -> list:
    """tf.matmul's scope `MatMul` (or its name) for MatMul and BatchMatMulV3 alike; `@`'s `matmul`."""
    m = tf.reshape(c[:2] * x, [1, 2]) * tf.ones([2, 1])
    with tf.GradientTape() as t:
        t.watch(m)
        y = tf.reduce_sum(tf.matmul(m, m) @ m)
    return [tf.matmul(m, m), m @ m, tf.matmul(tf.stack([m, m]), m), tf.matmul(m, m, name="mm"), tf.stack([m, m]) @ m,
            m @ m, t.gradient(y, m)]


def _functions(tf: Any, x: Any, c: Any) -> list:
    """Public functions' nodes: a constant's `Const` (or its name), the scopes of zeros, ones, zeros_like,
    ones_like, range, one_hot and clip_by_value (its Minimum below it), and ops named by their types."""
    v = c[:2] * x
    return [tf.constant(1.0), tf.constant([1, 2], name="k"), tf.zeros([2]), tf.ones([2, 2]), tf.fill([2], 3.0),
            tf.zeros_like(v), tf.ones_like(v), tf.constant(2.0), tf.range(3), tf.reduce_sum(v), tf.reshape(v, [-1]),
            tf.expand_dims(v, 0), tf.nn.relu(v), tf.sigmoid(v), tf.abs(v), tf.reduce_mean(v), tf.square(v),
            tf.maximum(v, 0.0), tf.where(v > 0, v, 0.0), v > 0, -v, abs(v), tf.identity(v), tf.nn.softmax(v),
            tf.exp(v), tf.math.log(v), tf.gather(v, [0]), tf.squeeze(v), tf.tile(v, [2]), tf.clip_by_value(v, 0.0, 1.0),
            tf.nn.tanh(v), tf.one_hot([0, 1], 2), tf.argmax(v), tf.shape(v), tf.size(v), tf.rank(v),
            tf.zeros([2], name="z"), tf.range(1, 4, name="r")]


def _tape(tf: Any, x: Any, c: Any) -> list:
    with tf.GradientTape() as t:
        t.watch(x)
        ys = [x * c[0], tf.multiply(x, c[1]), tf.sin(x), x * x, tf.square(x)]
        with tf.name_scope("blk"):
            ys.append(x * c[2])
        s = tf.add_n(ys)
    return [s, t.gradient(s, x)]


def _scope_error(tf: Any, name: str) -> Any:
    @tf.function
    def f(x: Any) -> Any:
        with tf.name_scope("ok"):
            with tf.name_scope(name):
                return x + 1.0
    return f(tf.constant(1.0)).numpy()


def _root_scope_error(tf: Any, name: str) -> Any:
    @tf.function
    def f(x: Any) -> Any:
        with tf.name_scope(name):
            return x + 1.0
    return f(tf.constant(1.0)).numpy()


# --- the values: an AddN's inputs summed in the order of their nodes' names -------------------------------------
def _tape_sum(tf: Any, coeffs: list, n_ops: str = "operator") -> Any:
    """d/dx of sum_i x * c_i inside a tf.function (c an argument: nothing folds): the tape's AddN of the
    terms, which Grappler sorts by name (`gradient_tape/mul_10/...` before `gradient_tape/mul_2/...`)."""
    @tf.function
    def f(x: Any, c: Any) -> Any:
        with tf.GradientTape() as t:
            t.watch(x)
            terms = [x * c[i] if n_ops == "operator" else tf.multiply(x, c[i]) for i in range(len(coeffs))]
            s = tf.add_n(terms)
        return t.gradient(s, x)
    return f(tf.constant(1.0), tf.constant(coeffs, tf.float32)).numpy()


def _gradients_sum(tf: Any, coeffs: list) -> Any:
    """The same with tf.gradients (its own aggregation, the same sort)."""
    @tf.function
    def f(x: Any, c: Any) -> Any:
        s = tf.add_n([x * c[i] for i in range(len(coeffs))])
        return tf.gradients(s, x)[0]
    return f(tf.constant(1.0), tf.constant(coeffs, tf.float32)).numpy()


def _upstream_sum(tf: Any, coeffs: list, how: str) -> Any:
    """The same with an upstream gradient that is no constant (the sum times an argument w): no term is
    forwarded, each is its gradient node (`gradient_tape/mul_3/Mul`; tf.gradients' `gradients/mul_3_grad/Mul`,
    so `mul_10_grad` sorts before `mul_1_grad`)."""
    @tf.function
    def f(x: Any, c: Any, w: Any) -> Any:
        if how == "gradients":
            s = tf.add_n([x * c[i] for i in range(len(coeffs))]) * w
            return tf.gradients(s, x)[0]
        with tf.GradientTape() as t:
            t.watch(x)
            s = tf.add_n([x * c[i] for i in range(len(coeffs))]) * w
        return t.gradient(s, x)
    return f(tf.constant(1.0), tf.constant(coeffs, tf.float32), tf.constant(1.0)).numpy()


def _mixed_tape(tf: Any) -> Any:
    """_tape's program for its value: the terms `strided_slice`, `gradient_tape/Cos`, `gradient_tape/Mul_2`, ...
    after constant folding forwards the products by the tape's ones."""
    return tf.function(lambda x, c: _tape(tf, x, c)[1])(tf.constant(1.0), tf.constant([3.0, 1e8, -1e8])).numpy()


def _forward_add_n(tf: Any, order: list) -> Any:
    """A user's add_n of ops' outputs inside a tf.function: summed in their names' order."""
    @tf.function
    def f(x: Any, c: Any) -> Any:
        ys = {"mul": x * c[0], "Abs": tf.abs(c[1]), "sub": c[2] - x}
        with tf.name_scope("blk"):
            ys["blk"] = x * c[3]
        return tf.add_n([ys[k] for k in order])
    return f(tf.constant(1.0), tf.constant([3.0, 1e8, 2.0, -1e8])).numpy()


_SIX = [1e8, 1.0, -1e8, 1.0, 3.0, 1e-3]
_TWELVE = [1e8, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -1e8, 3.0]


def _cases() -> dict[str, Callable[[Any], Any]]:
    c: dict[str, Callable[[Any], Any]] = {}
    x, cs = (lambda tf: tf.constant(1.0)), (lambda tf: tf.constant([2.0, 3.0, 4.0]))
    c["names/operators"] = lambda tf: _names(tf, _operators, x(tf), cs(tf))
    c["names/scopes"] = lambda tf: _names(tf, _scopes, x(tf), cs(tf))
    c["names/tape"] = lambda tf: _names(tf, _tape, x(tf), cs(tf))
    c["names/array_scopes"] = lambda tf: _names(tf, _array_scopes, x(tf), cs(tf))
    c["names/gradients"] = lambda tf: _names(tf, _gradients_names, x(tf), cs(tf))
    c["names/matmul"] = lambda tf: _names(tf, _matmuls, x(tf), cs(tf))
    c["names/functions"] = lambda tf: _names(tf, _functions, x(tf), cs(tf))
    c["scope/invalid_nested"] = error_last_line(lambda tf: _scope_error(tf, "a b"))
    c["scope/valid_nested_underscore"] = error_last_line(lambda tf: _scope_error(tf, "_a"))
    c["scope/invalid_root_underscore"] = error_last_line(lambda tf: _root_scope_error(tf, "_a"))
    c["scope/invalid_root_dash"] = error_last_line(lambda tf: _root_scope_error(tf, "-a"))
    for name, coeffs in (("six", _SIX), ("six_b", [1.0, 1e8, 1.0, -1e8, 3.0, 1e-3]),
                         ("six_c", [3.0, 1e-3, 1e8, 1.0, -1e8, 1.0]), ("twelve", _TWELVE),
                         ("twelve_b", list(reversed(_TWELVE)))):
        c[f"tape/{name}"] = lambda tf, coeffs=coeffs: _tape_sum(tf, coeffs)
        c[f"tape_multiply/{name}"] = lambda tf, coeffs=coeffs: _tape_sum(tf, coeffs, "multiply")
        c[f"gradients/{name}"] = lambda tf, coeffs=coeffs: _gradients_sum(tf, coeffs)
    c["tape/mixed_ops"] = _mixed_tape
    for name, coeffs in (("twelve", _TWELVE), ("twelve_c", [1e8, 1.0, 1.0, 0.0, -1e8, 0.0, 0.0, 0.0, 0.0, 0.0, 3.0, 5.0])):
        c[f"tape_upstream/{name}"] = lambda tf, coeffs=coeffs: _upstream_sum(tf, coeffs, "tape")
        c[f"gradients_upstream/{name}"] = lambda tf, coeffs=coeffs: _upstream_sum(tf, coeffs, "gradients")
    for order in (["mul", "Abs", "blk", "sub"], ["sub", "blk", "mul", "Abs"], ["blk", "mul", "sub", "Abs"]):
        c["add_n/" + "_".join(order)] = lambda tf, order=order: _forward_add_n(tf, order)
    return c


TABLE = case_results.Table(__file__, _cases(), re.compile(r"(graph_names_auto_)\d+"))   # (no auto-named objects)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("function.symbolic-tensors")
def test_node_names_match_tf(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: lab.startswith(("names/", "scope/")))


@pytest.mark.clause("function.grappler-rewrites")
def test_add_n_sums_in_name_order_as_tf(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: not lab.startswith(("names/", "scope/")))


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)
