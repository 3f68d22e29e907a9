"""fz17's rules on any backend: tf.strings.unicode_script's ICU script codes (clause
ops.strings-unicode-script: TF 2.21 links ICU 69.1, Unicode 13.0's data) and what assertions and
no_op/group return inside a tf.function (clause function.operation-results: an Operation, which a
function may not return). Expected values observed on TF 2.21."""

from __future__ import annotations

import pytest

from simdist.conformance.assertions import assert_same, raises

clause = pytest.mark.clause

# code point -> ICU 69's UScriptCode: Latin 25, Cyrillic 8, Arabic 2, Han 17, Common 0 (a space, an
# emoji, U+16FE2, Han only after Unicode 13), Inherited 1 (a combining accent), -1 outside
# 0..0x10FFFF, Unknown 103 (U+10570, Vithkuqi, assigned in Unicode 14)
_SCRIPTS = [(ord("a"), 25), (0x42F, 8), (0x627, 2), (0x4E00, 17), (0x20, 0), (0x300, 1), (0x1F600, 0),
            (-1, -1), (0x110000, -1), (0x16FE2, 0), (0x10570, 103)]


@clause("ops.strings-unicode-script", ref="tf221")
def test_unicode_script_gives_icu_69s_codes(tf):
    got = tf.strings.unicode_script(tf.constant([cp for cp, _ in _SCRIPTS])).numpy().tolist()
    assert_same(got, [code for _, code in _SCRIPTS], call=f"unicode_script({[hex(cp) for cp, _ in _SCRIPTS]})")


@clause("function.operation-results", ref="tf221")
def test_a_returned_operation_is_refused_at_trace(tf):
    x = tf.constant([1.0])
    assert tf.debugging.assert_equal(x, x) is None, "an eager assert_equal that holds should return None"
    for name, fn in (("assert_equal", lambda v: tf.debugging.assert_equal(v, v)), ("no_op", lambda v: tf.no_op()),
                     ("group", lambda v: tf.group(v + 1))):
        with raises(TypeError, call=f"tf.function(lambda v: {name}(...))(x)",
                    match="Python functions must return zero or more Tensors"):
            tf.function(fn)(x)


@clause("function.operation-results", ref="tf221")
def test_an_assertion_under_control_dependencies_runs_with_the_graph(tf):
    @tf.function
    def f(v):
        op = tf.debugging.assert_less(v, 5.0)
        with tf.control_dependencies([op]):
            return v * 2

    assert_same(float(f(tf.constant(1.0))), 2.0, call="f(1.0) with assert_less(v, 5) as a control dependency")
    with raises(tf.errors.InvalidArgumentError, call="f(9.0) with assert_less(v, 5) as a control dependency"):
        f(tf.constant(9.0))
