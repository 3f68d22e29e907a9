"""`tf.data.Dataset.from_generator` when the generator raises — clause dataset.from-generator
(TF 2.21: the generator runs in a PyFunc kernel, py_func.cc, whose status is the iterator's
error)."""

from __future__ import annotations

import re

import numpy as np
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


def _gen(*values):
    def gen():
        yield from values
    return gen


def _rows(x):
    """An element as Python lists (a RaggedTensor's rows, a SparseTensor's dense form)."""
    if hasattr(x, "to_list"):
        return x.to_list()
    if hasattr(x, "dense_shape"):
        return x.__class__.__name__, x.indices.numpy().tolist(), x.values.numpy().tolist(), x.dense_shape.numpy().tolist()
    return x.numpy().tolist()


@clause("dataset.from-generator", ref="tf221")
def test_from_generator_takes_composite_signatures(tf):
    """RaggedTensorSpec and SparseTensorSpec leaves, alone or nested in dicts: the element_spec is the
    signature and the elements are the yielded composites (batch and map carry them on)."""
    R = tf.RaggedTensorSpec(shape=(None, None), dtype=tf.int32)
    ds = tf.data.Dataset.from_generator(_gen(tf.ragged.constant([[1, 2]]), tf.ragged.constant([[1, 2], [3]])),
                                        output_signature=R)
    assert_equal(repr(ds.element_spec), "RaggedTensorSpec(TensorShape([None, None]), tf.int32, 1, tf.int64)",
                 call="from_generator(RaggedTensorSpec)", what="element_spec")
    assert_equal([_rows(x) for x in ds], [[[1, 2]], [[1, 2], [3]]], call="from_generator(RaggedTensorSpec)",
                 what="elements")
    assert_equal([_rows(x) for x in ds.batch(2)], [[[[1, 2]], [[1, 2], [3]]]],
                 call="from_generator(RaggedTensorSpec).batch(2)", what="elements")
    assert_equal(repr(ds.batch(2).element_spec),
                 "RaggedTensorSpec(TensorShape([None, None, None]), tf.int32, 2, tf.int64)",
                 call="from_generator(RaggedTensorSpec).batch(2)", what="element_spec")
    assert_equal([_rows(x) for x in ds.map(lambda x: x * 2)], [[[2, 4]], [[2, 4], [6]]],
                 call="from_generator(RaggedTensorSpec).map(x * 2)", what="elements")
    sig = {"a": R, "b": {"c": tf.TensorSpec((), tf.float32), "s": tf.SparseTensorSpec([4], tf.int32)}}
    ds = tf.data.Dataset.from_generator(
        _gen(*[{"a": tf.ragged.constant([[i], [1, 2]]), "b": {"c": float(i), "s": tf.sparse.SparseTensor([[1]], [i], [4])}}
               for i in range(2)]), output_signature=sig)
    assert_equal(repr(ds.element_spec),
                 "{'a': RaggedTensorSpec(TensorShape([None, None]), tf.int32, 1, tf.int64), 'b': {'c': "
                 "TensorSpec(shape=(), dtype=tf.float32, name=None), 's': SparseTensorSpec(TensorShape([4]), tf.int32)}}",
                 call="from_generator(nested dict signature)", what="element_spec")
    got = [(_rows(x["a"]), _rows(x["b"]["c"]), _rows(x["b"]["s"])) for x in ds]
    assert_equal(got, [([[0], [1, 2]], 0.0, ("SparseTensor", [[1]], [0], [4])),
                       ([[1], [1, 2]], 1.0, ("SparseTensor", [[1]], [1], [4]))],
                 call="from_generator(nested dict signature)", what="elements")
    ds = tf.data.Dataset.from_generator(_gen(tf.ragged.constant([[[1, 2]], [[3, 4], [5, 6]]], ragged_rank=1)),
                                        output_signature=tf.RaggedTensorSpec((None, None, 2), tf.int32, 1))
    assert_equal([_rows(x) for x in ds], [[[[1, 2]], [[3, 4], [5, 6]]]],
                 call="from_generator(RaggedTensorSpec((None, None, 2), ragged_rank=1))", what="elements")


@clause("dataset.from-generator", ref="tf221")
def test_from_generator_checks_elements_against_a_composite_signature(tf):
    """With a composite leaf (or a lone unknown-rank TensorSpec) TF takes the output_signature path:
    each leaf is normalized for its spec (a SparseTensorSpec takes only a SparseTensor, a TensorSpec
    converts to its dtype: a Python float is refused for int32), then the yielded element's spec must be
    compatible with the signature."""
    R = tf.RaggedTensorSpec(shape=(None, None), dtype=tf.int32)
    S = tf.SparseTensorSpec(shape=(None, 3), dtype=tf.float32)
    U = tf.TensorSpec(None, tf.int32)
    structure = "did not match the expected structure. The expected structure was "
    cases = [
        ("a dense tensor for a RaggedTensorSpec", [tf.constant([[1, 2]])], R,
         "yielded an element of TensorSpec(shape=(1, 2), dtype=tf.int32, name=None) where an element of "
         "RaggedTensorSpec(TensorShape([None, None]), tf.int32, 1, tf.int64) was expected."),
        ("a non-rectangular list for a RaggedTensorSpec", [[[1, 2], [3]]], R, structure),
        ("int32 row splits", [tf.RaggedTensor.from_row_splits(tf.constant([1, 2]), tf.constant([0, 2], tf.int32))], R,
         "yielded an element of RaggedTensorSpec(TensorShape([1, None]), tf.int32, 1, tf.int32) where"),
        ("ragged_rank 2 for 1", [tf.ragged.constant([[[1]], [[2, 3]]])], R,
         "yielded an element of RaggedTensorSpec(TensorShape([2, None, None]), tf.int32, 2, tf.int64) where"),
        ("float ragged for int32", [tf.ragged.constant([[1.0], [2.0, 3.0]])], R,
         "yielded an element of RaggedTensorSpec(TensorShape([2, None]), tf.float32, 1, tf.int64) where"),
        ("a dense tensor for a SparseTensorSpec", [tf.constant([[1., 2., 3.]])], S,
         structure + "SparseTensorSpec(TensorShape([None, 3]), tf.float32), but the yielded element was [[1. 2. 3.]]."),
        ("a rank-1 SparseTensor for rank 2", [tf.sparse.SparseTensor([[0]], [1.], [3])], S,
         "yielded an element of SparseTensorSpec(TensorShape([3]), tf.float32) where an element of "
         "SparseTensorSpec(TensorShape([None, 3]), tf.float32) was expected."),
        ("a RaggedTensor for an unknown-rank TensorSpec", [tf.ragged.constant([[1], [2, 3]])], U,
         "yielded an element of RaggedTensorSpec(TensorShape([2, None]), tf.int32, 1, tf.int64) where an element "
         "of TensorSpec(shape=<unknown>, dtype=tf.int32, name=None) was expected."),
        ("a Python float for an unknown-rank int32 TensorSpec", [1.5], U,
         structure + "TensorSpec(shape=<unknown>, dtype=tf.int32, name=None), but the yielded element was 1.5."),
        ("a one-tuple for a pair", [(1,)], (tf.TensorSpec((), tf.int32), R), structure),
    ]
    for label, values, sig, match in cases:
        ds = tf.data.Dataset.from_generator(_gen(*values), output_signature=sig)
        with raises(tf.errors.InvalidArgumentError, match=re.escape(match), call=f"from_generator: {label}"):
            next(iter(ds))
    # what the output_types path (every leaf a TensorSpec of known rank, or a tuple) converts
    for label, kw, value, want in [
            ("output_types=(int32,) yielding (1.5,)", {"output_types": (tf.int32,)}, (1.5,), (1,)),
            ("output_signature=TensorSpec((), int32) yielding 1.5", {"output_signature": tf.TensorSpec((), tf.int32)},
             1.5, 1),
            ("output_signature=TensorSpec(None, int32) yielding np.float32(1.5)", {"output_signature": U},
             np.float32(1.5), 1)]:
        got = next(iter(tf.data.Dataset.from_generator(_gen(value), **kw)))
        assert_equal(tuple(int(t) for t in got) if isinstance(got, tuple) else int(got), want,
                     call=f"from_generator({label})", what="element")
    ds = tf.data.Dataset.from_generator(_gen(1.5), output_types=tf.int32)
    with raises(tf.errors.InvalidArgumentError, match=re.escape(structure), call="from_generator(output_types=int32) "
                "yielding 1.5 (a lone unknown-rank shape: the signature path)"):
        next(iter(ds))
