"""tf.linalg.eigh_tridiagonal with an empty select_range (clause ops.linalg-more; amut39, found beside the seed-16
mutant eigh_tridiagonal.py:91): TF checks the range with check_ops.assert_less_equal (select='i') or assert_less
(select='v'), whose eager InvalidArgumentError is the message followed by _make_assert_msg_data: "Got empty index
range in select_range.\nCondition x <= y did not hold.\nFirst 1 elements of x:\n[2]\nFirst 1 elements of y:\n[1]"
(simdist raised the message alone). Each case returns the error's class and text as a string; needs the `tf` extra.
"""

from __future__ import annotations

from typing import Any, Callable

import pytest

import edge_compare
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause

_LA = "ops.linalg-more"


def _text(call: str) -> Callable[[Any], Any]:
    """The class and text of the error `call` raises (eagerly), as a string tensor."""
    def run(tf: Any) -> Any:
        a = tf.constant([2.0, 3.0, 4.0, 5.0], tf.float64)
        b = tf.constant([1.0, 1.0, 1.0], tf.float64)
        try:
            eval(call, {"tf": tf, "a": a, "b": b})  # noqa: S307 - our own text
        except Exception as e:  # noqa: BLE001 - the error is the answer
            return tf.constant(f"{type(e).__name__}: {e}")
        return tf.constant("no error")
    return run


_E = "tf.linalg.eigh_tridiagonal(a, b, eigvals_only=True, "
CASES = [
    ("select 'i', range [2, 1]", _LA, _text(_E + "select='i', select_range=[2, 1])")),
    ("select 'i', range [3, 0]", _LA, _text(_E + "select='i', select_range=[3, 0])")),
    ("select 'v', range [2.0, 1.0]", _LA, _text(_E + "select='v', select_range=[2.0, 1.0])")),
    ("select 'v', range [1.5, 1.5]", _LA, _text(_E + "select='v', select_range=[1.5, 1.5])")),
]

EDGES = edge_compare.EdgeModule(__file__, CASES)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("ops.linalg-more")
@EDGES.parametrize("ops.linalg-more")
def test_eigh_tridiagonal_empty_range_texts(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


def test_every_case_has_a_test() -> None:
    untested = EDGES.untested()
    assert not untested, f"cases of groups {untested} have no test function above"


if __name__ == "__main__":  # TF worker: python test_amut39_eigh_range_text_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
