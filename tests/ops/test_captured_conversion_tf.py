"""`tf.convert_to_tensor(t, dtype=...)` of a tensor another dtype than `dtype` (clause ops.conversion):
eagerly, and inside a tf.function for a tensor made in the function or an argument of it, ValueError
"Tensor conversion requested dtype ..."; inside a tf.function for a tensor made outside it (an
EagerTensor, which the function graph captures), the captured tensor itself, its dtype kept:
EagerTensor.__tf_tensor__ captures and returns before convert() checks the dtype (TF 2.21's
framework/ops.py; observed). A tensor of an enclosing function's graph is a graph tensor there. Each
case runs on TF 2.21 and on simdist: the same dtype and values, or the same exception class. Needs
the `tf` extra.
"""

from __future__ import annotations

from typing import Any, Callable

import pytest

import edge_compare
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause

_C = "ops.conversion"
_F = "[1.5, -2.0, 0.25]"


def _captured(dtype: str, hint: bool = False, then: str = "y") -> Callable[[Any], Any]:
    """convert_to_tensor(c, dtype or dtype_hint) of a float32 tensor c made outside, in a tf.function,
    then `then` of the result y (twice: the trace and a call again)."""
    def run(tf: Any) -> Any:
        c = tf.constant(eval(_F))  # noqa: S307 - our own text

        @tf.function(autograph=False)
        def f() -> Any:
            kw = {"dtype_hint": getattr(tf, dtype)} if hint else {"dtype": getattr(tf, dtype)}
            y = tf.convert_to_tensor(c, **kw)
            return eval(then, {"tf": tf, "y": y})  # noqa: S307 - our own text
        return [f(), f()]
    return run


def _inside(dtype: str) -> Callable[[Any], Any]:
    """convert_to_tensor(x, dtype) in a tf.function of a float32 tensor x made in it."""
    def run(tf: Any) -> Any:
        return tf.function(lambda: tf.convert_to_tensor(tf.constant(1.5) * 2.0, dtype=getattr(tf, dtype)),
                           autograph=False)()
    return run


def _argument(dtype: str) -> Callable[[Any], Any]:
    """convert_to_tensor(x, dtype) in a tf.function of its float32 argument x."""
    def run(tf: Any) -> Any:
        return tf.function(lambda x: tf.convert_to_tensor(x, dtype=getattr(tf, dtype)), autograph=False)(
            tf.constant([1.5, 2.0]))
    return run


def _eager(dtype: str) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        return tf.convert_to_tensor(tf.constant([1.5, 2.0]), dtype=getattr(tf, dtype))
    return run


def _nested(dtype: str) -> Callable[[Any], Any]:
    """A tf.function calling another that converts a tensor of the outer one's graph."""
    def run(tf: Any) -> Any:
        @tf.function(autograph=False)
        def outer() -> Any:
            t = tf.constant([1.5, 2.0]) + 1.0
            return tf.function(lambda: tf.convert_to_tensor(t, dtype=getattr(tf, dtype)), autograph=False)()
        return outer()
    return run


def _variable(dtype: str) -> Callable[[Any], Any]:
    """A float32 variable made outside, converted in a tf.function (a variable is no EagerTensor)."""
    def run(tf: Any) -> Any:
        v = tf.Variable([1.5, 2.0])
        return tf.function(lambda: tf.convert_to_tensor(v, dtype=getattr(tf, dtype)), autograph=False)()
    return run


CASES = [
    *[(f"captured float32 as {dt}", _C, _captured(dt)) for dt in ("int32", "float64", "float16", "bool", "string")],
    ("captured float32 as float32", _C, _captured("float32")),
    ("captured float32 with dtype_hint int32", _C, _captured("int32", hint=True)),
    ("captured float32 as int32, then + 1", _C, _captured("int32", then="y + 1")),
    ("captured float32 as int32, then + 1.0", _C, _captured("int32", then="y + 1.0")),
    ("captured float32 as float64, then cast", _C, _captured("float64", then="tf.cast(y, tf.float64) * 2")),
    *[(f"made inside, as {dt}", _C, _inside(dt)) for dt in ("int32", "float64")],
    *[(f"an argument, as {dt}", _C, _argument(dt)) for dt in ("int32", "float64")],
    *[(f"eagerly, as {dt}", _C, _eager(dt)) for dt in ("int32", "float64")],
    *[(f"the outer function's tensor in an inner one, as {dt}", _C, _nested(dt)) for dt in ("int32", "float64")],
    *[(f"a float32 variable made outside, as {dt}", _C, _variable(dt)) for dt in ("int32", "float64")],
]

EDGES = edge_compare.EdgeModule(__file__, CASES)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("ops.conversion")
@EDGES.parametrize("ops.conversion")
def test_convert_to_tensor_of_a_captured_tensor(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


def test_every_case_has_a_test() -> None:
    untested = EDGES.untested()
    assert not untested, f"cases of groups {untested} have no test function above"


if __name__ == "__main__":  # TF worker: python test_captured_conversion_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
