"""The element_spec of tf.data map functions whose output shape depends on the element's values (the fifty-first
session, helper open51; clause dataset.function-trace): TF traces the function symbolically, simdist probes it on
elements of zeros, then ones (output dims that differ unknown); where a kernel refuses a probe's values
(`tf.image.resize` to a height of 0) the probes are made again with other values, where simdist fell back to a
real element with every dimension unknown. Each case: a list of [label, element_spec text and the first two
elements, or [error class, first line]].
"""

from __future__ import annotations

from typing import Any, Callable

import pytest

import tf_programs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def program(tf: Any, case: dict, workdir: str) -> Any:
    out: list[Any] = []

    def t(label: str, fn: Callable[[], Any]) -> None:
        try:
            ds = fn()
            out.append([label, repr(ds.element_spec), [e.numpy().tolist() for e in ds.take(2)]])
        except Exception as e:  # noqa: BLE001 - the class and text are what is compared
            out.append([label, [type(e).__name__, str(e).split("\n")[0][:120]]])
    r = tf.data.Dataset.range(1, 4)
    v = tf.data.Dataset.from_tensor_slices(tf.constant([[1, 2], [2, 1]], tf.int64))
    i32 = lambda x: tf.cast(x, tf.int32)   # noqa: E731
    t("range(x)", lambda: r.map(lambda x: tf.range(x)))
    t("range(1, x, 2)", lambda: r.map(lambda x: tf.range(1, x, 2)))
    t("zeros of a vector element", lambda: v.map(lambda x: tf.zeros(x)))
    t("fill [x, 2]", lambda: r.map(lambda x: tf.fill(tf.stack([x, 2]), 1.0)))
    t("reshape [x, -1]", lambda: r.map(lambda x: tf.reshape(tf.range(6), tf.stack([i32(x), -1]))))
    t("slice [:x]", lambda: r.map(lambda x: tf.range(5)[:x]))
    t("unique", lambda: v.map(lambda x: tf.unique(x).y))
    t("boolean_mask", lambda: v.map(lambda x: tf.boolean_mask(x, x > 1)))
    t("split [x, 3 - x]", lambda: r.map(lambda x: tf.split(tf.zeros([3]), tf.stack([x, 3 - x]))[0]))
    t("one_hot depth x", lambda: r.map(lambda x: tf.one_hot(0, i32(x))))
    t("unsorted_segment_sum x", lambda: r.map(lambda x: tf.math.unsorted_segment_sum([1.0, 2.0], [0, 0], i32(x))))
    t("image.resize [x, 2]", lambda: r.map(lambda x: tf.image.resize(tf.zeros([4, 4, 1]), tf.stack([i32(x), 2]))))
    t("pad [x, 0]", lambda: r.map(lambda x: tf.pad(tf.zeros([2]), tf.stack([tf.stack([x, 0])]))))
    t("signal.frame length x", lambda: r.map(lambda x: tf.signal.frame(tf.range(6), i32(x), 1)))
    t("gather range(x)", lambda: r.map(lambda x: tf.gather([1, 2, 3, 4], tf.range(x))))
    return out


NAMES = ["maps"]
CASES: dict[str, dict] = {n: {"strategy": "default", "name": n} for n in NAMES}


@pytest.fixture(scope="module")
def tf_results(request: Any) -> dict[int, Any]:
    return tf_programs.spawn(__file__, CASES, tf_programs.selected(request, __file__))


@pytest.mark.clause("dataset.function-trace")
@pytest.mark.parametrize("index", range(len(NAMES)), ids=NAMES)
def test_map_specs_as_tf(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    name = NAMES[index]
    got, want = tf_programs.on_simdist(program, CASES[name], str(tmp_path)), tf_results[index]
    assert [g[0] for g in got] == [w[0] for w in want], f"{name}: labels differ"
    bad = [(w[0], g[1:], w[1:]) for g, w in zip(got, want) if g != w]
    assert not bad, f"{name}: {len(bad)} entries differ (label, simdist, TF 2.21): {bad}"


if __name__ == "__main__":  # TF worker
    tf_workers.serve(tf_programs.worker(CASES, program))
