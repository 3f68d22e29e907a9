"""`tf.data.Dataset.from_generator` when the generator raises — clause dataset.from-generator
(TF 2.21: the generator runs in a PyFunc kernel, py_func.cc, whose status is the iterator's
error)."""

from __future__ import annotations

import pytest

from simdist.conformance.assertions import assert_equal, raises

clause = pytest.mark.clause


@clause("dataset.from-generator", ref="tf221")
def test_from_generator_turns_the_generators_exception_into_an_op_error(tf):
    cases = [(ValueError("bad value"), tf.errors.InvalidArgumentError),
             (TypeError("bad type"), tf.errors.InvalidArgumentError),
             (NotImplementedError("later"), tf.errors.UnimplementedError),
             (MemoryError("full"), tf.errors.ResourceExhaustedError),
             (RuntimeError("broken"), tf.errors.UnknownError),
             (KeyError("key"), tf.errors.UnknownError),
             (tf.errors.NotFoundError(None, None, "gone"), tf.errors.UnknownError)]
    for exc, want in cases:
        def gen(exc=exc):
            yield 1
            raise exc

        ds = tf.data.Dataset.from_generator(gen, output_signature=tf.TensorSpec((), tf.int32))
        it = iter(ds)
        assert_equal(int(next(it)), 1, call=f"from_generator(yield 1; raise {type(exc).__name__})",
                     what="first element")
        with raises(want, match=type(exc).__name__, call=f"from_generator: the generator raises {exc!r}"):
            next(it)


@clause("dataset.from-generator", ref="tf221")
def test_from_generator_checks_each_element_against_the_signature(tf):
    def gen():
        yield [1.0, 2.0]
        yield [1.0, 2.0, 3.0]

    ds = tf.data.Dataset.from_generator(gen, output_signature=tf.TensorSpec((2,), tf.float32))
    it = iter(ds)
    assert_equal(next(it).numpy().tolist(), [1.0, 2.0], call="from_generator(spec (2,))", what="first element")
    with raises(tf.errors.InvalidArgumentError, match="yielded an element of shape",
                call="from_generator(spec (2,)) yielding 3 values"):
        next(it)
