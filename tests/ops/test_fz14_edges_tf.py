"""The rules issue 29's fourteenth generator (tests/fuzz14: TF's public API drawn by parameter
name) found wrong, each against real TensorFlow 2.21: the same call on both backends gives the
same dtype and bits, or raises the same exception class. A plain Variable's in-place operators,
and the namedtuples of ops with several outputs (their type name and fields, encoded as a tensor
of character codes so that edge_compare sees them). Needs the `tf` extra.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import edge_compare
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause


def _inplace(op: str, init: Any, other: Any) -> Callable[[Any], Any]:
    """`y = tf.Variable(init); y <op>= other; return y` (a RuntimeError, or the tensor y became)."""
    def run(tf: Any) -> Any:
        ns = {"y": tf.Variable(init), "o": other}
        exec(f"y {op}= o", {}, ns)  # noqa: S102 - our own text
        return ns["y"]
    return run


def _inplace_traced(op: str) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        v = tf.Variable([1.0, 2.0])

        @tf.function
        def f() -> Any:
            ns = {"y": v}
            exec(f"y {op}= 2.0", {}, ns)  # noqa: S102 - our own text
            return ns["y"]
        return f()
    return run


def _named(call: str) -> Callable[[Any], Any]:
    """The result's type name and fields (as character codes), then its first output's values
    (not for the decompositions, whose kernels differ in the last bits: LAPACK's against Eigen's)."""
    def run(tf: Any) -> Any:
        m = tf.constant([[2.0, 1.0], [1.0, 3.0]])
        img = tf.reshape(tf.range(16, dtype=tf.float32), [1, 4, 4, 1])
        r = eval(call, {"tf": tf, "np": np, "m": m, "img": img})  # noqa: S307 - our own text
        tag = f"{type(r).__name__}:{','.join(getattr(r, '_fields', ()))}"
        values = [] if call.startswith(("tf.linalg.qr", "tf.linalg.svd", "tf.linalg.eigh")) else [r[0]]
        return [tf.constant([ord(c) for c in tag], tf.int32)] + values
    return run


_TC = "tf.constant([[1]], tf.int64)"
CASES: list[tuple[str, str, Callable[[Any], Any]]] = [
    *[(f"variable {op}=", "ops.variable-inplace", _inplace(op, [1, 2], 2)) for op in
      ("+", "-", "*", "/", "**", "//", "%", "&", "|", "^")],
    ("variable float += list", "ops.variable-inplace", _inplace("+", [1.0, 2.0], [1.0, 1.0])),
    ("variable @= matrix", "ops.variable-inplace", _inplace("@", [[1.0, 2.0]], np.ones((2, 1), np.float32))),
    ("variable += in tf.function", "ops.variable-inplace", _inplace_traced("+")),
    ("variable //= in tf.function", "ops.variable-inplace", _inplace_traced("//")),
    *[(f"namedtuple {call}", "ops.output-namedtuples", _named(call)) for call in (
        "tf.unique([3, 3, 2])", "tf.unique_with_counts([3, 3, 2], out_idx=tf.int64)", "tf.linalg.slogdet(m)",
        "tf.nn.isotonic_regression([[1.0, 0.0]])", "tf.nn.isotonic_regression([[1.0], [0.0]], axis=0)",
        "tf.linalg.qr(m)", "tf.linalg.lu(m)", "tf.nn.max_pool_with_argmax(img, 2, 2, 'VALID')",
        "tf.nn.fractional_max_pool(img, [1.0, 1.5, 1.5, 1.0], seed=1)",
        "tf.nn.fractional_avg_pool(img, [1.0, 1.5, 1.5, 1.0], seed=1)", "tf.math.approx_max_k(m, 1)",
        "tf.approx_top_k(m, 1)", "tf.math.top_k(m)", "tf.linalg.svd(m)", "tf.linalg.eigh(m)", "tf.nn.moments(m, [0])",
        "tf.image.combined_non_max_suppression(tf.zeros([1, 2, 1, 4]), tf.ones([1, 2, 1]), 2, 2)",
        "tf.image.stateless_sample_distorted_bounding_box([4, 4, 1], tf.zeros([1, 1, 4]), seed=[1, 2], "
        "min_object_covered=0.1)",
        f"tf.random.uniform_candidate_sampler({_TC}, 1, 2, True, 5, seed=1)",
        f"tf.random.log_uniform_candidate_sampler({_TC}, 1, 2, True, 5, seed=1)",
        f"tf.random.learned_unigram_candidate_sampler({_TC}, 1, 2, True, 5, seed=1)",
        f"tf.nn.fixed_unigram_candidate_sampler({_TC}, 1, 2, True, 5, unigrams=[1, 1, 1, 1, 1], seed=1)",
        f"tf.random.all_candidate_sampler({_TC}, 1, 2, True, seed=1)",
        f"tf.nn.compute_accidental_hits({_TC}, tf.constant([1, 2], tf.int64), 1)")],
]

EDGES = edge_compare.EdgeModule(__file__, CASES)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("ops.variable-inplace")
@EDGES.parametrize("ops.variable-inplace")
def test_variable_inplace_operators(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.output-namedtuples")
@EDGES.parametrize("ops.output-namedtuples")
def test_output_namedtuples(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


def test_every_case_has_a_test() -> None:
    untested = EDGES.untested()
    assert not untested, f"cases of groups {untested} have no test function above"


if __name__ == "__main__":  # TF worker: python test_fz14_edges_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
