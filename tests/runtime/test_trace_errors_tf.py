"""Errors inside tf.function against real TensorFlow 2.21 (clause function.trace-time-errors).

Each program runs as `tf.function(program)(x)` on both backends (and eagerly, which must keep
raising InvalidArgumentError). TF's trace-time messages read

    in user code:

        File "...", line N, in f  *
            source line

        ValueError: <text> for '{{node Name}} = Op[attrs](inputs)' with input shapes: [2,3], [1]
        [and with input tensors computed as ...].

The class, `<text>` (TF's shape function's or op_def_library's words, joined over lines) and the
input shapes are compared; node names and attributes are TF's graph's and not reproduced. Errors
TF raises at run time are compared by class and their first line less TF's decorations. Needs
the `tf` extra.
"""

from __future__ import annotations

import re
from typing import Any, Callable

import numpy as np
import pytest

import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause


def _unused_reshape(tf: Any, x: Any) -> Any:
    tf.reshape(x, [7])
    return x * 2.0


# (id, program(tf, x) with x = tf.ones([2, 3]))
CASES: list[tuple[str, Callable[[Any, Any], Any]]] = [
    # shape functions: ValueError at trace time
    ("reshape", lambda tf, x: tf.reshape(x, [5])),
    ("reshape-2d", lambda tf, x: tf.reshape(x, [7, 2])),
    ("reshape-unknown-dim", lambda tf, x: tf.reshape(x, [4, -1])),
    ("reshape-unused", _unused_reshape),
    ("matmul", lambda tf, x: tf.matmul(x, tf.ones([4, 2]))),
    ("matmul-transposed", lambda tf, x: tf.matmul(x, tf.ones([2, 4]), transpose_b=True)),
    ("batch-matmul-inner", lambda tf, x: tf.matmul(tf.ones([2, 2, 3]), tf.ones([2, 4, 5]))),
    ("batch-matmul-batch", lambda tf, x: tf.matmul(tf.ones([2, 2, 3]), tf.ones([3, 3, 5]))),
    ("batch-matmul-both", lambda tf, x: tf.matmul(tf.ones([2, 2, 3]), tf.ones([3, 4, 5]))),
    ("add-broadcast", lambda tf, x: x + tf.ones([4])),
    ("mul-broadcast", lambda tf, x: x * tf.ones([3, 3])),
    ("sub-broadcast-rank3", lambda tf, x: tf.ones([2, 3, 4]) - tf.ones([5, 4])),
    ("maximum-broadcast", lambda tf, x: tf.maximum(x, tf.ones([4]))),
    ("broadcast-two-dims", lambda tf, x: x + tf.ones([3, 4])),
    ("concat-dim", lambda tf, x: tf.concat([x, tf.ones([2, 4])], 0)),
    ("concat-dim-middle", lambda tf, x: tf.concat([tf.ones([2, 3, 4]), tf.ones([2, 5, 5])], 1)),
    ("concat-dim-before-axis", lambda tf, x: tf.concat([x, tf.ones([3, 4])], 1)),
    ("concat-third", lambda tf, x: tf.concat([x, x, tf.ones([2, 4])], 0)),
    ("concat-rank", lambda tf, x: tf.concat([x, tf.ones([2])], 0)),
    ("concat-axis", lambda tf, x: tf.concat([x, x], 5)),
    ("concat-negative-axis", lambda tf, x: tf.concat([x, x], -3)),
    ("concat-scalars", lambda tf, x: tf.concat([tf.constant(1.0), tf.constant(2.0)], 0)),
    ("stack", lambda tf, x: tf.stack([x, tf.ones([3, 2])])),
    ("stack-third", lambda tf, x: tf.stack([x, x, tf.ones([2, 4])])),
    ("stack-rank", lambda tf, x: tf.stack([x, tf.ones([2])])),
    ("stack-axis", lambda tf, x: tf.stack([x, x], axis=5)),
    ("transpose-range", lambda tf, x: tf.transpose(x, [0, 2])),
    ("transpose-length", lambda tf, x: tf.transpose(x, [0, 1, 2])),
    ("squeeze-not-one", lambda tf, x: tf.squeeze(x, [0])),
    ("squeeze-range", lambda tf, x: tf.squeeze(x, [4])),
    ("squeeze-negative-range", lambda tf, x: tf.squeeze(x, [-3])),
    ("gather-axis", lambda tf, x: tf.gather(x, [0], axis=3)),
    ("gather-negative-axis", lambda tf, x: tf.gather(x, [0], axis=-3)),
    ("squared-difference-broadcast", lambda tf, x: tf.math.squared_difference(x, tf.ones([4]))),
    ("truediv-broadcast", lambda tf, x: x / tf.ones([4])),
    ("where-broadcast", lambda tf, x: tf.where(tf.constant([True, False, True]), tf.ones([2]), tf.zeros([2]))),
    ("where-broadcast-else", lambda tf, x: tf.where(tf.constant([True, False]), tf.ones([2]), tf.zeros([3]))),
    ("add-n-shape", lambda tf, x: tf.add_n([x, tf.ones([3, 2])])),
    ("add-n-third", lambda tf, x: tf.add_n([x, x, tf.ones([2, 4])])),
    ("expand-dims-axis", lambda tf, x: tf.expand_dims(x, 5)),
    ("tile-length", lambda tf, x: tf.tile(x, [2])),
    ("bias-add", lambda tf, x: tf.nn.bias_add(x, tf.ones([4]))),
    # op construction: TypeError at trace time
    ("add-dtype", lambda tf, x: x + tf.constant([1, 2])),
    ("add-dtype-scalar", lambda tf, x: tf.add(x, tf.constant(1))),
    ("sub-dtype", lambda tf, x: tf.subtract(tf.constant([1.0]), tf.constant([1.0], tf.float64))),
    ("mul-dtype", lambda tf, x: tf.multiply(tf.constant([1]), tf.constant([1.0]))),
    ("int-minus-float", lambda tf, x: tf.constant([1]) - x),
    ("pow-dtype", lambda tf, x: tf.pow(x, tf.constant(2))),
    ("matmul-dtype", lambda tf, x: tf.matmul(x, tf.ones([3, 2], tf.int32))),
    ("batch-matmul-dtype", lambda tf, x: tf.matmul(tf.ones([2, 2, 3]), tf.ones([2, 3, 5], tf.int32))),
    ("concat-dtype", lambda tf, x: tf.concat([x, tf.ones([2, 3], tf.int32)], 0)),
    ("stack-dtype", lambda tf, x: tf.stack([x, tf.ones([2, 3], tf.int32)])),
    ("add-n-dtype", lambda tf, x: tf.add_n([x, tf.ones([2, 3], tf.int32)])),
    ("less-dtype", lambda tf, x: tf.less(x, tf.constant(1))),
    ("minimum-dtype", lambda tf, x: tf.minimum(x, tf.ones([3], tf.int32))),
    ("where-dtype", lambda tf, x: tf.where(tf.constant([True]), tf.constant([1.0]), tf.constant([1]))),
    # kernels: InvalidArgumentError at run time
    ("gather-index", lambda tf, x: tf.gather(x, [5])),
    ("floordiv-zero", lambda tf, x: tf.constant(1) // tf.constant(0)),
    ("transpose-repeated", lambda tf, x: tf.transpose(x, [0, 0])),
]

_TRACED = re.compile(r"^\s*(ValueError|TypeError): (.*)$", re.S | re.M)
_NODE = re.compile(r" for '\{\{node [^']*' with input shapes: (.*?)(?: and with .*)?\.?$", re.S)
_DECOR = re.compile(r"^\{\{function_node [^}]*\}\}\s*")
_OP = re.compile(r"\s*\[Op:[\w<>]+\](?: name: .*)?$")


def normalized(e: BaseException) -> dict[str, Any]:
    """An exception as compared: class name, TF's words, and the input shapes of a trace-time error."""
    msg = str(e)
    m = _TRACED.search(msg) if msg.startswith("in user code:") else None
    if m:
        body = " ".join(line.strip() for line in m.group(2).strip().split("\n"))
        shapes = None
        n = _NODE.search(body)
        if n:
            body, shapes = body[:n.start()], n.group(1).rstrip(".")
        return {"class": type(e).__name__, "message": body, "shapes": shapes}
    first = _OP.sub("", _DECOR.sub("", msg).split("\n")[0].strip())
    return {"class": type(e).__name__, "message": first, "shapes": None}


def _run(tf: Any, k: int, traced: bool) -> dict[str, Any]:
    x = tf.ones([2, 3])
    prog = CASES[k][1]
    try:
        out = tf.function(lambda x: prog(tf, x))(x) if traced else prog(tf, x)
    except Exception as e:  # noqa: BLE001 - the error is the result
        return normalized(e)
    return {"class": None, "message": f"returned {np.asarray(out)!r}", "shapes": None}


def _tf_worker(indices: list[int]) -> dict[int, Any]:
    import tensorflow as tf
    return {k: (_run(tf, k, True), _run(tf, k, False)) for k in indices}


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return tf_workers.spawn(__file__, list(range(len(CASES))))


@clause("function.trace-time-errors")
@pytest.mark.parametrize("k", range(len(CASES)), ids=[c[0] for c in CASES])
def test_errors_inside_tf_function_as_tf(k: int, tf_results: dict[int, Any]) -> None:
    from simdist import tf
    want, want_eager = tf_results[k]
    assert want["class"] is not None, f"TF 2.21 did not raise: {want['message']} [{CASES[k][0]}]"
    got = _run(tf, k, True)
    assert (got["class"], got["message"]) == (want["class"], want["message"]), \
        f"tf.function raised {got['class']}: {got['message']!r}, but TF 2.21 raises {want['class']}: " \
        f"{want['message']!r}"
    assert got["shapes"] == want["shapes"], \
        f"input shapes {got['shapes']!r} in the message, but TF 2.21 lists {want['shapes']!r}"
    got_eager = _run(tf, k, False)
    assert got_eager["class"] == want_eager["class"], \
        f"eagerly raised {got_eager['class']}: {got_eager['message']!r}, but TF 2.21 raises " \
        f"{want_eager['class']}: {want_eager['message']!r}"


if __name__ == "__main__":
    tf_workers.serve(_tf_worker)
