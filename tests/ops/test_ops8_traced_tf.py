"""The eleventh session's ops inside a tf.function with an input signature, against real
TensorFlow 2.21: the errors TF's shape functions raise while tracing (ValueError; a shape the
graph does not know leaves the check to the kernel at run time), and the gradient TF does not
register (Fingerprint: LookupError). Needs the `tf` extra (or its golden)."""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import edge_compare
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause


def _traced(fn: Callable[[Any, Any], Any], spec: Callable[[Any], list], value: Any) -> Callable[[Any], Any]:
    """Trace fn(tf, x) with the signature spec(tf), then call it on value."""
    def run(tf: Any) -> Any:
        f = tf.function(lambda x: fn(tf, x), input_signature=spec(tf))
        f.get_concrete_function()
        out = f(value)
        return [p for o in tf.nest.flatten(out, expand_composites=True) for p in [o]]
    return run


def _f32(shape: Any) -> Callable[[Any], list]:
    return lambda tf: [tf.TensorSpec(shape, tf.float32)]


def _decoded_target(tf: Any) -> Any:
    """A decoder's SparseTensor output as a tape's target: the C tape's ValueError."""
    x = tf.constant(np.arange(24, dtype=np.float32).reshape(4, 2, 3) % 5)
    with tf.GradientTape() as tape:
        tape.watch(x)
        out = tf.nn.ctc_beam_search_decoder(x, [4, 2])
    return tape.gradient(out, x)


def _fingerprint_gradient(tf: Any) -> Any:
    x = tf.constant([[1.0, 2.0]])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.fingerprint(x)
    return tape.gradient(y, x)


def _symbolic(tf: Any) -> Any:
    """tf.is_symbolic_tensor eagerly and inside a traced tf.function."""
    v = tf.Variable(1.0)
    eager = [tf.is_symbolic_tensor(x) for x in (tf.constant(1.0), 1.0, np.ones(2), v,
                                                 tf.sparse.SparseTensor([[0]], [1.0], [2]))]
    seen: list = []

    @tf.function
    def f(x: Any) -> Any:
        seen.extend([tf.is_symbolic_tensor(x), tf.is_symbolic_tensor(x * 2), tf.is_symbolic_tensor(tf.constant(3.0)),
                     tf.is_symbolic_tensor(v)])
        return x
    f(tf.constant(1.0))
    return tf.constant(eager + seen)


_Z3 = np.zeros((2, 3, 4), np.float32)
_CASES: list[tuple[str, str, Callable[[Any], Any]]] = [
    ("greedy-rank-2", "ops.nn-ctc", _traced(lambda tf, x: tf.nn.ctc_greedy_decoder(x, [1]), _f32([3, 4]),
                                            np.zeros((3, 4), np.float32))),
    ("greedy-batch-mismatch", "ops.nn-ctc", _traced(lambda tf, x: tf.nn.ctc_greedy_decoder(x, [1]),
                                                    _f32([2, 3, 4]), _Z3)),
    ("greedy-batch-unknown", "ops.nn-ctc", _traced(lambda tf, x: tf.nn.ctc_greedy_decoder(x, [1]),
                                                   _f32([2, None, 4]), _Z3)),
    ("greedy-rank-unknown", "ops.nn-ctc", _traced(lambda tf, x: tf.nn.ctc_greedy_decoder(x, [1]), _f32(None), _Z3)),
    ("greedy-ok", "ops.nn-ctc", _traced(lambda tf, x: tf.nn.ctc_greedy_decoder(x, [2, 1, 0]), _f32([None, 3, 4]),
                                        np.arange(24, dtype=np.float32).reshape(2, 3, 4) % 5)),
    ("beam-rank-1", "ops.nn-ctc", _traced(lambda tf, x: tf.nn.ctc_beam_search_decoder(x, [0]), _f32([4]),
                                          np.zeros(4, np.float32))),
    ("fractional-max-rank-3", "ops.nn-fractional-pool",
     _traced(lambda tf, x: tf.nn.fractional_max_pool(x, 1.5, seed=1), _f32([4, 4, 3]), np.zeros((4, 4, 3), np.float32))),
    ("fractional-avg-rank-unknown", "ops.nn-fractional-pool",
     _traced(lambda tf, x: tf.nn.fractional_avg_pool(x, [1.0, 1.5, 1.5, 1.0], seed=1), _f32(None),
             np.zeros((4, 4, 3), np.float32))),
    ("fractional-max-ok", "ops.nn-fractional-pool",
     _traced(lambda tf, x: tf.nn.fractional_max_pool(x, [1.0, 1.5, 1.5, 1.0], seed=3), _f32([1, None, 6, 1]),
             np.arange(36, dtype=np.float32).reshape(1, 6, 6, 1))),
    ("fractional-avg-half-short-ratio", "ops.nn-fractional-pool",
     _traced(lambda tf, x: tf.nn.fractional_avg_pool(x, [1.0, 2.0], seed=3),
             lambda tf: [tf.TensorSpec([1, 4, 4, 3], tf.float16)], np.zeros((1, 4, 4, 3), np.float16))),
    ("fractional-avg-short-ratio", "ops.nn-fractional-pool",
     _traced(lambda tf, x: tf.nn.fractional_avg_pool(x, [1.0, 2.0], seed=3), _f32([1, 4, 4, 3]),
             np.zeros((1, 4, 4, 3), np.float32))),
    *[(f"fractional-avg-ratio-{k}", "ops.nn-fractional-pool",
       _traced((lambda r: lambda tf, x: tf.nn.fractional_avg_pool(x, r, seed=3))(r), _f32(shape),
               np.zeros(shape or [1, 4, 4, 1], np.float32)))
      for k, (r, shape) in enumerate([([1.0, 0.5, 1.5, 1.0], [1, 4, 4, 1]), ([1.0, 1.5, 1.5, 1.0, 1.0], [1, 4, 4, 1]),
                                      ([2.0, 1.5, 1.5, 1.0], [1, 4, 4, 1]), ([1.0, 0.5, 1.5, 1.0], [4, 4, 1]),
                                      ([2.0, 1.5, 1.5, 1.0], [4, 4, 1]), ([1.0, 0.5, 1.5, 1.0], None)])],
    ("logm-non-finite", "ops.linalg-logm", lambda tf: [tf.math.real(y) for y in [tf.linalg.logm(
        np.array([[[np.nan, 1], [0, 1]], [[np.inf, 0], [0, 2]]], np.complex128))]]),
    ("logm-one-by-one", "ops.linalg-logm", lambda tf: [f(tf.linalg.logm(
        np.array([[[1 + 6e-8j]], [[-7.25 + np.inf * 1j]], [[2.0 + 0j]]], np.complex64))) for f in (tf.math.real,
                                                                                               tf.math.imag)]),
    ("logm-diagonal-non-finite", "ops.linalg-logm", lambda tf: tf.math.real(tf.linalg.logm(
        np.diag([np.inf, 2.0]).astype(np.complex128)))),
    ("decoded-as-gradient-target", "autodiff.targets", lambda tf: _decoded_target(tf)),
    ("fingerprint-rank-0", "ops.fingerprint", _traced(lambda tf, x: tf.fingerprint(x), _f32([]), np.float32(1))),
    ("fingerprint-rank-unknown", "ops.fingerprint", _traced(lambda tf, x: tf.fingerprint(x), _f32(None),
                                                            np.float32(1))),
    ("fingerprint-gradient", "ops.fingerprint", _fingerprint_gradient),
    ("is-symbolic-tensor", "ops.tf-utilities", _symbolic),
    ("eigh-tridiagonal-length-unknown", "ops.linalg-eigh-tridiagonal",
     _traced(lambda tf, a: tf.linalg.eigh_tridiagonal(a, a[1:]), lambda tf: [tf.TensorSpec([None], tf.float64)],
             np.ones(3))),
    ("eigh-tridiagonal-vectors-traced", "ops.linalg-eigh-tridiagonal",
     _traced(lambda tf, a: tf.linalg.eigh_tridiagonal(a, a[1:] * 0.5, eigvals_only=False),
             lambda tf: [tf.TensorSpec([4], tf.float32)], np.array([1.0, 2.0, 3.0, 5.0], np.float32))),
]

EDGES = edge_compare.EdgeModule(__file__, _CASES)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("ops.nn-ctc")
@EDGES.parametrize("ops.nn-ctc")
def test_ctc_decoders_traced(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.nn-fractional-pool")
@EDGES.parametrize("ops.nn-fractional-pool")
def test_fractional_pools_traced(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.fingerprint")
@EDGES.parametrize("ops.fingerprint")
def test_fingerprint_traced_and_gradient(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.linalg-eigh-tridiagonal")
@EDGES.parametrize("ops.linalg-eigh-tridiagonal")
def test_eigh_tridiagonal_traced(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.tf-utilities")
@EDGES.parametrize("ops.tf-utilities")
def test_is_symbolic_tensor(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("autodiff.targets")
@EDGES.parametrize("autodiff.targets")
def test_sparse_tensor_gradient_target(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.linalg-logm")
@EDGES.parametrize("ops.linalg-logm")
def test_logm_non_finite(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


def test_every_group_is_tested() -> None:
    assert EDGES.untested() == [], f"groups with no test function: {EDGES.untested()}"


if __name__ == "__main__":  # TF worker: python test_ops8_traced_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
