"""get_concrete_function of a tf.function whose dry run meets a kernel's error on a placeholder's probe value
(the fifty-first session, helper open51; clause function.static-shapes): TF traces symbolically, so
`tf.range(1, n, 2)` or `tf.split(x, [n, 2])` of a scalar int placeholder n builds, with the shape functions'
static shapes, where simdist's dry run on n = 0 met the kernel's error and left the outputs unknown. Also the
static shapes of ops whose output shape comes from values the graph does not know (unsorted_segment_sum's
num_segments, image.resize's size, raw Empty's shape, signal.frame's length and step, SplitV's sizes), and a
nested tf.function's argument (the caller's constant has no static value in the callee's graph). Each case: a
list of [label, output shapes or [error class, first line]].
"""

from __future__ import annotations

from typing import Any, Callable

import pytest

import tf_programs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _shapes(o: Any) -> Any:
    if o is None:
        return None
    if isinstance(o, (list, tuple)):
        return [_shapes(x) for x in o]
    return None if o.shape.rank is None else o.shape.as_list()


def program(tf: Any, case: dict, workdir: str) -> Any:
    out: list[Any] = []
    sig = [tf.TensorSpec([4, 3]), tf.TensorSpec([], tf.int32)]

    def show(label: str, fn: Callable) -> None:
        try:
            out.append([label, _shapes(tf.function(fn, input_signature=sig).get_concrete_function()
                                       .structured_outputs)])
        except Exception as e:  # noqa: BLE001 - the class and text are what is compared
            out.append([label, [type(e).__name__, str(e).split("\n")[0][:100]]])
    if case["name"] == "probe_values":
        show("range(1, n, 2)", lambda x, n: tf.range(1, n, 2))
        show("range(0, 10, n)", lambda x, n: tf.range(0, 10, n))
        show("range(1, n + 1, 2)", lambda x, n: tf.range(1, n + 1, 2))
        show("unsorted_segment_sum n", lambda x, n: tf.math.unsorted_segment_sum(x, [0, 0, 1, 1], n))
        show("unsorted_segment_max n + 2", lambda x, n: tf.math.unsorted_segment_max(x, [0, 0, 1, 1], n + 2))
        show("transpose perm [n, 0, 2]", lambda x, n: tf.transpose(tf.zeros([4, 3, 2]), tf.stack([n, 0, 2])))
        show("image.resize [n, 2]", lambda x, n: tf.image.resize(tf.zeros([1, 4, 4, 3]), tf.stack([n, 2])))
        show("image.resize 3-D [2, n]", lambda x, n: tf.image.resize(tf.zeros([4, 4, 3]), tf.stack([2, n])))
        show("split [n, 2]", lambda x, n: tf.split(tf.zeros([4, 6]), [n, 2], axis=1))
        show("split [n, -1]", lambda x, n: tf.split(tf.zeros([4, 6]), [n, -1], axis=1))
        show("split [n + 4, 2]", lambda x, n: tf.split(tf.zeros([4, 6]), [n + 4, 2], axis=1))
        show("split [1, 5]", lambda x, n: tf.split(tf.zeros([4, 6]), [1, 5], axis=1))
        show("raw Empty [n, 2]", lambda x, n: tf.raw_ops.Empty(shape=[n, 2], dtype=tf.float32))
        show("diag num_rows=n", lambda x, n: tf.linalg.diag(tf.zeros([3]), num_rows=n, num_cols=n))
        show("frame length n", lambda x, n: tf.signal.frame(tf.zeros([10]), n, 2))
        show("frame step n", lambda x, n: tf.signal.frame(tf.zeros([10]), 3, n))
        show("frame step n pad_end", lambda x, n: tf.signal.frame(tf.zeros([10]), 3, n, pad_end=True))
        show("frame of x", lambda x, n: tf.signal.frame(x, 2, 1))
    elif case["name"] == "nested_constant":
        @tf.function
        def inner(x: Any, n: Any) -> Any:
            return x + tf.constant(tf.get_static_value(n) is None, tf.float32)

        @tf.function
        def inner_kw(x: Any, *, n: Any) -> Any:
            return x + tf.constant(tf.get_static_value(n) is None, tf.float32)

        @tf.function
        def outer(x: Any) -> Any:
            c = tf.constant(3)
            return [inner(x, c), inner_kw(x, n=tf.constant(3)), tf.constant(tf.get_static_value(c) is None,
                                                                            tf.float32)]
        out.append(["nested", [float(v) for v in outer(tf.constant(1.0))]])
    return out


NAMES = ["probe_values", "nested_constant"]
CASES: dict[str, dict] = {n: {"strategy": "default", "name": n} for n in NAMES}


@pytest.fixture(scope="module")
def tf_results(request: Any) -> dict[int, Any]:
    return tf_programs.spawn(__file__, CASES, tf_programs.selected(request, __file__))


@pytest.mark.clause("function.static-shapes")
@pytest.mark.parametrize("index", range(len(NAMES)), ids=NAMES)
def test_probe_values_as_tf(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    name = NAMES[index]
    got, want = tf_programs.on_simdist(program, CASES[name], str(tmp_path)), tf_results[index]
    assert [g[0] for g in got] == [w[0] for w in want], f"{name}: labels differ"
    bad = [(w[0], g[1], w[1]) for g, w in zip(got, want) if g != w]
    assert not bad, f"{name}: {len(bad)} entries differ (label, simdist, TF 2.21): {bad}"


if __name__ == "__main__":  # TF worker
    tf_workers.serve(tf_programs.worker(CASES, program))
