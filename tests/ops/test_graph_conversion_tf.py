"""Converting a value NumPy can hold only as an object (a dict, a set, an arbitrary object, a list
of such) to a tensor, eagerly and inside a tf.function, against TF 2.21 (clause ops.conversion):
eagerly ValueError "Attempt to convert a value ... with an unsupported type"; in a graph
make_tensor_proto's TypeErrors, or NumPy's conversion of the whole value when a dtype is given.
Each case reports the result (dtype, value) or the error class and message. Needs the `tf` extra.
"""

from __future__ import annotations

import re
from typing import Any, Callable

import numpy as np
import pytest

import tf_workers
from simdist import tf as sim_tf

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


class Thing:
    """An object no conversion knows."""

    def __repr__(self) -> str:
        return "Thing()"


def _values(tf: Any) -> dict[str, Callable[[], Any]]:
    return {
        "dict-of-tensor": lambda: {"b": tf.constant([1.0])},
        "dict-of-float": lambda: {"b": 1.0},
        "dict-of-int": lambda: {"a": 1, "b": 2},
        "dict-of-bool": lambda: {"a": True},
        "dict-of-str": lambda: {"a": "x"},
        "set": lambda: {1.0, 2.0},
        "object": lambda: Thing(),
        "list-of-object": lambda: [Thing()],
        "list-of-number-then-object": lambda: [1.0, Thing()],
        "list-of-none": lambda: [None],
        "none": lambda: None,
        "empty-dict": lambda: {},
    }


DTYPES = [None, "float32", "int32", "bool", "string"]
VALUES = ["dict-of-tensor", "dict-of-float", "dict-of-int", "dict-of-bool", "dict-of-str", "set", "object",
          "list-of-object", "list-of-number-then-object", "list-of-none", "none", "empty-dict"]
CASES = [(v, d, traced, how) for v in VALUES for d in DTYPES for traced in (False, True)
         for how in ("convert_to_tensor", "reduce_sum")
         if not (how == "reduce_sum" and d is not None)]


def _message(e: BaseException) -> str:
    text = str(e)
    if "in user code:" in text:   # (TF's trace-time frame names files and lines: keep the error's own text)
        text = text.rsplit("Error: ", 1)[-1]
    text = re.sub(r"<class '[\w.]*\.Thing'>", "<class 'Thing'>", text)   # (TF's worker runs as __main__)
    return " ".join(text.split())[:160]


def run_case(tf: Any, k: int) -> Any:
    value, dtype, traced, how = CASES[k]
    make = _values(tf)[value]
    dt = None if dtype is None else getattr(tf, dtype)

    def body() -> Any:
        if how == "reduce_sum":
            return tf.reduce_sum(make())
        return tf.convert_to_tensor(make(), dtype=dt)
    try:
        out = tf.function(body, autograph=False)() if traced else body()
        return ("ok", out.dtype.name, np.asarray(out.numpy()).tolist())
    except Exception as e:  # noqa: BLE001 - the class and message are the result
        return ("error", type(e).__name__, _message(e))


def _tf_worker(indices: list[int]) -> dict[int, Any]:
    import tensorflow as real_tf
    return {i: run_case(real_tf, i) for i in indices}


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return tf_workers.spawn(__file__, list(range(len(CASES))))


# Known difference (docs/spec.md ops.conversion): TF names a graph tensor by its node
# ('Tensor("Const:0", ...) of type SymbolicTensor'), simdist by its value. Same class.
_MESSAGE_ONLY = {("dict-of-tensor", "float32", True), ("dict-of-tensor", "int32", True),
                 ("dict-of-tensor", "bool", True), ("dict-of-tensor", "string", True)}


@pytest.mark.clause("ops.conversion")
@pytest.mark.parametrize("index", range(len(CASES)), ids=["-".join(str(p) for p in c) for c in CASES])
def test_object_values_convert_as_tensorflow(index: int, tf_results: dict[int, Any]) -> None:
    got, want = run_case(sim_tf, index), tf_results[index]
    value, dtype, traced, _ = CASES[index]
    if (value, dtype, traced) in _MESSAGE_ONLY:
        got, want = got[:2], want[:2]
    assert got == want, f"result={got!r}, but TF 2.21 gives {want!r} [{CASES[index]}]"


if __name__ == "__main__":  # TF worker: python test_graph_conversion_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(_tf_worker)
