"""Program builders of the differential edge modules (tests/ops/test_fz*_edges_tf.py, test_rawfz*_tf.py):
each turns an expression's text into a function of a TF-shaped module (`tf`), run on both backends by
tf_workers: eagerly, inside a tf.function, with an input_signature, of a variable inside a tf.function,
and under a GradientTape. Identical in every module that used them, so they live here once.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np


def eager(expr: str) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        tf.constant(1.0) + 1.0   # (a first op: TF's very first call in a process takes the slow path)
        return eval(expr, {"tf": tf, "np": np})  # noqa: S307 - our own text
    return run


def traced(expr: str) -> Callable[[Any], Any]:
    """The expression inside a tf.function (AutoGraph off), called once."""
    def run(tf: Any) -> Any:
        return tf.function(lambda: eval(expr, {"tf": tf, "np": np}), autograph=False)()  # noqa: S307
    return run


def sig(expr: str, spec: tuple[list[int | None] | None, str], arg: str) -> Callable[[Any], Any]:
    """get_concrete_function of `lambda x: expr` with a one-spec input_signature (its trace-time
    error, if any), then a call with `arg` (its error class, or its result)."""
    def run(tf: Any) -> Any:
        fn = eval(f"lambda x: {expr}", {"tf": tf, "np": np})  # noqa: S307 - our own text
        g = tf.function(fn, input_signature=[tf.TensorSpec(spec[0], getattr(tf, spec[1]))], autograph=False)
        g.get_concrete_function()
        return g(eval(arg, {"tf": tf, "np": np}))  # noqa: S307 - our own text
    return run


def var_traced(expr: str, var: str) -> Callable[[Any], Any]:
    """`lambda: expr` of a variable `v` (made by `var` outside) inside a tf.function, called once."""
    def run(tf: Any) -> Any:
        v = eval(var, {"tf": tf, "np": np})  # noqa: S307 - our own text
        return tf.function(lambda: eval(expr, {"tf": tf, "np": np, "v": v}), autograph=False)()  # noqa: S307
    return run


def tape(expr: str, source: str) -> Callable[[Any], Any]:
    """The expression of a watched `x` (made by `source`) under a GradientTape, and its gradient."""
    def run(tf: Any) -> Any:
        x = eval(source, {"tf": tf, "np": np})  # noqa: S307 - our own text
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = eval(expr, {"tf": tf, "np": np, "x": x})  # noqa: S307 - our own text
        return [y, tape.gradient(y, x)]
    return run
