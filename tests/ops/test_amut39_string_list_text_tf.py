"""A Python list converted to a string input inside a tf.function (clause ops.conversion; amut39, found beside the
seed-16 mutant example_parsing.py:235): op_def_library's TypeError "Expected string passed to parameter 'input' of
op 'StringLength', got [...] of type 'list' instead. Error: ..." ends with make_tensor_proto's _AssertCompatible
text, which names the first nest.flatten leaf that is not text, printed with str() and its own type name
("Expected string, but got 2 of type 'int64'."). simdist named the first leaf whatever it was. Each case returns the
error's class and the last line of its text (TF's AutoGraph frame lines above it name this file) as a string;
needs the `tf` extra.
"""

from __future__ import annotations

from typing import Any, Callable

import pytest

import edge_compare
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause

_CONV = "ops.conversion"


def _traced_text(call: str) -> Callable[[Any], Any]:
    """The class and last text line of the error `call` raises inside a tf.function, as a string tensor."""
    def run(tf: Any) -> Any:
        import numpy as np

        @tf.function
        def f() -> Any:
            return eval(call, {"tf": tf, "np": np})  # noqa: S307 - our own text
        try:
            f()
        except Exception as e:  # noqa: BLE001 - the error is the answer
            last = str(e).strip().splitlines()[-1].strip()
            return tf.constant(f"{type(e).__name__}: {last.removeprefix('TypeError: ')}")
        return tf.constant("no error")
    return run


CASES = [
    ("strings.length of ['x', 2]", _CONV, _traced_text("tf.strings.length(['x', 2])")),
    ("strings.length of [['x'], [np.int64(2)]]", _CONV, _traced_text("tf.strings.length([['x'], [np.int64(2)]])")),
    ("strings.length of ['a', None]", _CONV, _traced_text("tf.strings.length(['a', None])")),
    ("strings.length of [b'a', 'b', 3.5]", _CONV, _traced_text("tf.strings.length([b'a', 'b', 3.5])")),
    ("strings.length of [1]", _CONV, _traced_text("tf.strings.length([1])")),
    ("io.parse_example with example_names ['x', 2]", _CONV,
     _traced_text("tf.io.parse_example(tf.constant([b'']), {'a': tf.io.FixedLenFeature([], tf.int64, 0)}, "
                  "example_names=['x', 2])")),
]

EDGES = edge_compare.EdgeModule(__file__, CASES)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("ops.conversion")
@EDGES.parametrize("ops.conversion")
def test_string_list_conversion_error_texts(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


def test_every_case_has_a_test() -> None:
    untested = EDGES.untested()
    assert not untested, f"cases of groups {untested} have no test function above"


if __name__ == "__main__":  # TF worker: python test_amut39_string_list_text_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
