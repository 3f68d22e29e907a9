"""TensorArray.stack's dtype against TF 2.21 (clause ops.tensor-array): TF's eager `stack` is
`convert_to_tensor(elements, dtype=array's dtype)`, so elements `unstack` left in another dtype (unstack converts
its value without the array's dtype: Python ints are int32, a float64 tensor stays float64) are cast to the array's
dtype when the first element's dtype is not the array's (tf.cast's values: truncation, wrap-around, nonzero is
True; int32 to string is UnimplementedError), and Pack refuses them when the first element has the array's dtype.
simdist stacked the elements as they were (an int32 or float64 result from a float32 TensorArray). Seen probing
the seed-8 mutation sweep's survivor at tensor_array.py:110 (docs/conformance.md, thirty-first session)."""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _unstacked(dtype: str, value: Callable[[Any], Any], size: int = 2, then: Callable[[Any, Any], Any] | None = None,
               read: str = "stack") -> Callable[[Any], Any]:
    def case(tf: Any) -> Any:
        ta = tf.TensorArray(getattr(tf, dtype), size=size, dynamic_size=size == 0).unstack(value(tf))
        if then is not None:
            ta = then(tf, ta)
        if read == "stack":
            return ta.stack()
        if read == "read":
            return ta.read(0)
        return ta.gather([1, 0])
    return case


def _unnamed(case: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """The case's error as (class, message) without TF's " name: packed" tail (TF names the op convert_to_tensor packs
    a list with; simdist's errors carry no op names, a difference of every op and kept apart from this module)."""
    def run(tf: Any) -> Any:
        try:
            return case(tf)
        except Exception as e:  # noqa: BLE001 - the error is the result compared
            return [type(e).__name__, re.sub(r" name: packed$", "", str(e).strip())]
    return run


def _cases() -> dict[str, Callable[[Any], Any]]:
    return {
        "cast/float32 <- ints": _unstacked("float32", lambda tf: [1, 2]),
        "cast/float64 <- int rows": _unstacked("float64", lambda tf: [[1, 2], [3, 4]], size=0),
        "cast/float32 <- float64 tensor": _unstacked("float32", lambda tf: tf.constant([1.5, 2.25], tf.float64)),
        "cast/int32 <- floats": _unstacked("int32", lambda tf: [1.5, -2.5]),
        "cast/int32 <- float64 tensor": _unstacked("int32", lambda tf: tf.constant([1.75, -2.5], tf.float64)),
        "cast/float16 <- 1e6": _unstacked("float16", lambda tf: tf.constant([1e6, 1.0])),
        "cast/uint8 <- -1, 300": _unstacked("uint8", lambda tf: [-1, 300]),
        "cast/bool <- 0, 2": _unstacked("bool", lambda tf: [0, 2]),
        "cast/string <- ints": _unstacked("string", lambda tf: [0, 2]),
        "cast/float32 <- float32 (no cast)": _unstacked("float32", lambda tf: [1.5, 2.5]),
        "mixed/float32 written first": _unnamed(_unstacked("float32", lambda tf: [1, 2],
                                                           then=lambda tf, ta: ta.write(0, 5))),
        "mixed/float32 written last": _unstacked("float32", lambda tf: [1, 2], size=0,
                                                 then=lambda tf, ta: ta.write(2, 5.0)),
        "kept/read after unstack of ints": _unstacked("float32", lambda tf: [1, 2], read="read"),
        "kept/gather after unstack of ints": _unstacked("float32", lambda tf: [1, 2], read="gather"),
    }


_AUTO_NAME = re.compile(r"(tensor_)\d+")
TABLE = case_results.Table(__file__, _cases(), _AUTO_NAME)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("ops.tensor-array")
@pytest.mark.parametrize("prefix", ["cast/", "mixed/", "kept/"])
def test_tensor_array_stack_gives_the_arrays_dtype(tf_results: dict[int, Any], prefix: str) -> None:
    TABLE.check(tf_results, lambda lab: lab.startswith(prefix))


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)
