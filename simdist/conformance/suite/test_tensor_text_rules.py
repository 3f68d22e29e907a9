"""str, repr and format() of eager tensors — clause ops.tensor-text (TF 2.21 only).

The texts expected are TF's ops.numpy_text rule (str: the NumPy value's str; repr: a scalar's
`.item()` repr) and EagerTensor.__format__ (the NumPy value's own format), computed here from the
backend's `numpy()` and checked against TF 2.21 by running the suite on it.
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_true, raises, to_numpy

clause = pytest.mark.clause


def _cases(tf):
    return [tf.constant(0.1, tf.float32), tf.constant(0.1, tf.float16), tf.constant(1 / 3, tf.float64),
            tf.constant(123456789.0, tf.float32), tf.constant(-0.0, tf.float32), tf.constant(np.nan, tf.float32),
            tf.constant(0.1 + 0.2j, tf.complex64), tf.constant(3, tf.int8), tf.constant(2 ** 40, tf.int64),
            tf.constant(True), tf.constant([0.1, 0.2], tf.float32)]


@clause("ops.tensor-text", ref="tf221")
def test_str_of_a_scalar_is_its_numpy_values_str(tf):
    for t in _cases(tf):
        v = to_numpy(t)[()]   # a NumPy scalar for a 0-d tensor (its str, not an f-string's format)
        want = "tf.Tensor(" + str(v) + f", shape={t.shape}, dtype={t.dtype.name})"
        assert_true(str(t) == want, f"str(t)={str(t)!r}, but should be {want!r}", call=f"str({t.dtype.name} {v!r})")
    got = str(tf.constant(0.1, tf.float32))
    assert_true(got == "tf.Tensor(0.1, shape=(), dtype=float32)",
                f"str(t)={got!r}, but should be 'tf.Tensor(0.1, shape=(), dtype=float32)' (float32's shortest digits)",
                call="str(tf.constant(0.1))")


@clause("ops.tensor-text", ref="tf221")
def test_repr_of_a_float_scalar_shows_the_python_float(tf):
    got = repr(tf.constant(0.1, tf.float32))
    want = "<tf.Tensor: shape=(), dtype=float32, numpy=0.10000000149011612>"
    assert_true(got == want, f"repr(t)={got!r}, but should be {want!r}", call="repr(tf.constant(0.1))")


@clause("ops.tensor-text", ref="tf221")
def test_format_of_a_tensor_is_its_numpy_values_format(tf):
    loss = tf.constant(0.123456, tf.float32)
    for spec in ("", ".3f", ".2e", "10.4f", "g"):
        want = format(to_numpy(loss), spec)
        got = format(loss, spec)
        assert_true(got == want, f"format(t, {spec!r})={got!r}, but should be {want!r}", call="f'{loss:...}'")
    got = f"loss={loss:.4f} step={tf.constant(7):>3}"
    assert_true(got == "loss=0.1235 step=  7", f"out={got!r}, but should be 'loss=0.1235 step=  7'",
                call="an f-string of a float32 and an int32 scalar")
    got = f"{tf.constant(0.1)}"
    assert_true(got == "0.10000000149011612", f"out={got!r}, but should be '0.10000000149011612' (the Python float)",
                call="f'{tf.constant(0.1)}'")
    vec = tf.constant([0.5, 0.25])
    assert_true(f"{vec}" == str(to_numpy(vec)), f"f'{{vec}}'={vec!s}, but should be {to_numpy(vec)!s}",
                call="f'{vector}'")
    with raises(TypeError, call="format(vector, '.2f')"):
        format(vec, ".2f")
