"""tf.fingerprint (TF's Fingerprint op: FarmHash64 of each batch row's bytes) against real
TensorFlow 2.21: every length class of farmhashna::Hash64 (0-16, 17-32, 33-64 and the 64-byte
loop), each memcpy-able dtype, strings (one and several per row), reshapes, errors. Needs the
`tf` extra (or its golden)."""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import edge_compare
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause


def _bytes_rows(tf: Any, n: int, rows: int = 2) -> Any:
    """rows × n bytes of a fixed pattern (uint8), so each row's buffer is n bytes long."""
    a = ((np.arange(rows * n, dtype=np.int64) * 37 + 11) % 256).astype(np.uint8).reshape(rows, n)
    return tf.fingerprint(tf.constant(a))


_CASES: list[tuple[str, Callable[[Any], Any]]] = [
    *[(f"bytes-{n}", (lambda n: lambda tf: _bytes_rows(tf, n))(n))
      for n in (0, 1, 2, 3, 4, 7, 8, 9, 15, 16, 17, 24, 31, 32, 33, 48, 63, 64, 65, 100, 127, 128, 129, 200, 640)],
    ("int32-rank3", lambda tf: tf.fingerprint(tf.reshape(tf.range(24), [2, 3, 4]))),
    ("int32-reshaped-same", lambda tf: tf.fingerprint(tf.reshape(tf.range(24), [2, 12]))),
    ("float32", lambda tf: tf.fingerprint(tf.constant([[1.5, -0.0], [0.0, np.inf]], tf.float32))),
    ("float64", lambda tf: tf.fingerprint(tf.constant([[1.5, -2.25, 3.0]], tf.float64))),
    ("float16", lambda tf: tf.fingerprint(tf.constant([[1.5, -2.25]], tf.float16))),
    ("bfloat16", lambda tf: tf.fingerprint(tf.constant([[1.5, -2.25]], tf.bfloat16))),
    ("int64", lambda tf: tf.fingerprint(tf.constant([[2**40, -1]], tf.int64))),
    ("uint16", lambda tf: tf.fingerprint(tf.constant([[7, 65535]], tf.uint16))),
    ("bool", lambda tf: tf.fingerprint(tf.constant([[True, False], [False, False]]))),
    ("complex64", lambda tf: tf.fingerprint(tf.constant([[1 + 2j, -3j]], tf.complex64))),
    ("rank1-floats", lambda tf: tf.fingerprint(tf.constant([0.5, 1.5, 2.5]))),
    ("empty-batch", lambda tf: tf.fingerprint(tf.zeros([0, 3]))),
    ("empty-rows", lambda tf: tf.fingerprint(tf.zeros([2, 0]))),
    ("string-rank1", lambda tf: tf.fingerprint(tf.constant(["", "a", "hello", "x" * 70]))),
    ("string-rank2", lambda tf: tf.fingerprint(tf.constant([["ab", "c"], ["", "x" * 80]]))),
    ("string-one-per-row", lambda tf: tf.fingerprint(tf.constant([["ab"], ["c"]]))),
    ("string-unicode", lambda tf: tf.fingerprint(tf.constant(["héllo", "日本"]))),
    ("method-explicit", lambda tf: tf.fingerprint(tf.constant([[1, 2]]), method="farmhash64")),
    ("method-unknown", lambda tf: tf.fingerprint(tf.constant([[1, 2]]), method="md5")),
    ("method-not-scalar", lambda tf: tf.fingerprint(tf.constant([[1, 2]]), method=["farmhash64"])),
    ("scalar-data", lambda tf: tf.fingerprint(tf.constant(3))),
    ("in-function", lambda tf: tf.function(tf.fingerprint)(tf.constant([[1, 2], [3, 4]]))),
    ("gradient-none", lambda tf: _gradient(tf)),
]


def _gradient(tf: Any) -> Any:
    x = tf.constant([[1.0, 2.0]])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.cast(tf.fingerprint(x), tf.float32)
    return tf.constant(tape.gradient(y, x) is None)


CASES: list[tuple[str, str, Callable[[Any], Any]]] = [(n, "ops.fingerprint", f) for n, f in _CASES]

EDGES = edge_compare.EdgeModule(__file__, CASES)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("ops.fingerprint")
@EDGES.parametrize("ops.fingerprint")
def test_fingerprint(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


def test_every_group_is_tested() -> None:
    assert EDGES.untested() == [], f"groups with no test function: {EDGES.untested()}"


if __name__ == "__main__":  # TF worker: python test_ops8_fingerprint_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
