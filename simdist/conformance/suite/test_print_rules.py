"""tf.print and tf.strings.format — clause ops.print (TF 2.21 only).

Each test runs on the backend's `tf` alone; the texts expected are the format docs/spec.md states
(TF's Tensor::SummarizeValue with print_v2, print_v2's pprint template), observed on TF 2.21. The
case-by-case comparison with TF is tests/ops/test_print_tf.py.
"""

from __future__ import annotations

import sys

import numpy as np
import pytest

from simdist.conformance.assertions import assert_true, raises, to_numpy

clause = pytest.mark.clause


def _text(t) -> str:
    return to_numpy(t).item().decode()


@clause("ops.print", ref="tf221")
def test_strings_format_summarizes_each_dimension(tf):
    cases = [
        (tf.reshape(tf.range(24), [2, 3, 4]), 3,
         "[[[0 1 2 3]\n  [4 5 6 7]\n  [8 9 10 11]]\n\n [[12 13 14 15]\n  [16 17 18 19]\n  [20 21 22 23]]]"),
        (tf.reshape(tf.range(100), [10, 10]), 1, "[[0 ... 9]\n ...\n [90 ... 99]]"),
        (tf.constant([0.1, 1 / 3, np.inf, -np.nan]), -1, "[0.1 0.333333343 inf -nan]"),
        (tf.constant([True, False]), 3, "[1 0]"),
        (tf.constant(["a", "b\n\""]), 3, '["a" "b\\n\\""]'),
        (tf.constant([1 + 2j, 3j, 4j]), 2, "[? ?...]"),
        (tf.zeros([3, 0]), 3, "[\n ...]"),
    ]
    for x, k, want in cases:
        got = _text(tf.strings.format("<{}>", x, summarize=k))
        assert_true(got == f"<{want}>", f"out={got!r}, but should be {'<' + want + '>'!r}",
                    call=f"strings.format(shape={tuple(x.shape)}, summarize={k})")
    with raises(ValueError, call="strings.format('{} {}', [t])"):
        tf.strings.format("{} {}", [tf.constant(1)])


@clause("ops.print", ref="tf221")
def test_print_writes_to_the_file_descriptors_at_every_call(tf, capfd):
    @tf.function
    def f(x):
        print("traced", file=sys.stdout, flush=True)
        tf.print("x =", x, {"b": [x, 1], "a": "s"}, sep="|")
        tf.print(tf.constant("to stdout"), output_stream=sys.stdout, end=";")

    capfd.readouterr()
    for v in ([1, 2], [3, 4]):
        f(tf.constant(v))
    out, err = capfd.readouterr()
    want_err = "x =|[1 2]|{'a': 's', 'b': [[1 2], 1]}\nx =|[3 4]|{'a': 's', 'b': [[3 4], 1]}\n"
    assert_true(err == want_err, f"stderr={err!r}, but should be {want_err!r}", call="tf.print in a tf.function")
    assert_true(out == "traced\nto stdout;to stdout;", f"stdout={out!r}, but should be 'traced\\nto stdout;to stdout;'",
                call="tf.print(output_stream=sys.stdout) in a tf.function")
    with raises(ValueError, call="tf.print(output_stream='nowhere')"):
        tf.print(1, output_stream="nowhere")
