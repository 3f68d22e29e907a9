"""tf.data's surface around training that the suite never ran before the fourteenth session's
coverage audit — clause dataset.api-surface (TF 2.21).

Argument and structure errors of the transformations (raised when the dataset is built, as TF's
Python or its op kernels do), the cardinality arithmetic of take/skip/repeat/zip/concatenate/
filter/unbatch/padded_batch and `len()`, zip/enumerate/apply/padded_batch values, iterators
(`next`, `get_next`, `get_next_as_optional`, `tf.experimental.Optional`, `as_numpy_iterator`),
`cache` replaying a finished pass, `tf.data.Options` and from_generator's conversions. Each
expectation follows TF's documentation or source (tensorflow/python/data/ops/*.py, the dataset
kernels' Cardinality()), quoted beside it, and was checked by running TF 2.21.
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_same, raises

clause = pytest.mark.clause


def _items(ds) -> list:
    """The elements as nested Python lists / dicts / tuples of ints, floats and bytes."""
    def py(v):
        if isinstance(v, dict):
            return {k: py(x) for k, x in v.items()}
        if isinstance(v, tuple):
            return tuple(py(x) for x in v)
        return np.asarray(v).tolist()
    return [py(e) for e in ds.as_numpy_iterator()]


@clause("dataset.api-surface", ref="tf221")
def test_cov13_data_argument_errors(tf):
    """Bad arguments fail when the dataset is built: TF's Python checks (ValueError/TypeError)
    or the dataset op's kernel (InvalidArgumentError, raised eagerly by the op)."""
    D = tf.data.Dataset
    IAE = tf.errors.InvalidArgumentError
    cases = [
        ("range()", ValueError, "between 1 and 3|1 to 3", lambda: D.range()),
        ("range(1, 2, 3, 4)", ValueError, "between 1 and 3|1 to 3", lambda: D.range(1, 2, 3, 4)),
        ("range(0, 5, 0)", IAE, "step must be a non-zero integer", lambda: D.range(0, 5, 0)),
        ("range(2.5)", TypeError, None, lambda: D.range(2.5)),
        ("batch(0)", IAE, "Batch size must be greater than zero", lambda: D.range(3).batch(0)),
        ("padded_batch(0)", IAE, "Batch size must be greater than zero", lambda: D.range(3).padded_batch(0)),
        ("shard(0, 0)", IAE, "Number of shards must be greater than zero", lambda: D.range(3).shard(0, 0)),
        ("shard(2, 2)", IAE, r"Index must be between 0 and 1 \(currently index = 2\)", lambda: D.range(3).shard(2, 2)),
        ("shard(2, -1)", IAE, r"Index must be between 0 and 1 \(currently index = -1\)",
         lambda: D.range(3).shard(2, -1)),
        ("shuffle(0)", IAE, "buffer_size must be greater than zero", lambda: D.range(3).shuffle(0)),
        ("prefetch(-2)", IAE, "buffer_size must be >= 0", lambda: D.range(3).prefetch(-2)),
        ("zip([a, b])", TypeError, "Python `list` is not supported", lambda: D.zip([D.range(2), D.range(3)])),
        ("zip()", TypeError, "at least one dataset", lambda: D.zip()),
        ("zip(a, datasets=...)", TypeError, "cannot be set", lambda: D.zip(D.range(2), datasets=(D.range(2),))),
        ("zip((ds, 3))", TypeError, "encountered object of type", lambda: D.zip((D.range(2), 3))),
        ("concatenate(int64, float32)", TypeError, "Incompatible dataset elements",
         lambda: D.range(2).concatenate(D.from_tensor_slices([1.0, 2.0]))),
        ("concatenate(scalar, pair)", TypeError, "Incompatible dataset elements",
         lambda: D.range(2).concatenate(D.zip((D.range(2), D.range(2))))),
        ("apply(-> 3)", TypeError, "must return a `tf.data.Dataset`", lambda: D.range(3).apply(lambda d: 3)),
        ("from_tensor_slices(3)", ValueError, "rank >= 1", lambda: D.from_tensor_slices(3)),
        ("from_tensor_slices(2 vs 3 rows)", ValueError, "Dimensions 2 and 3 are not compatible",
         lambda: D.from_tensor_slices((np.zeros(2), np.zeros(3)))),
        ("unbatch(scalars)", ValueError, "Cannot unbatch an input with scalar components",
         lambda: D.range(3).unbatch()),
        # unbatch_op.py: the components' leading dims are merged when the dataset is built
        ("unbatch(leading dims 2 and 3)", ValueError, "matching leading dimension. Encountered both 2 and 3",
         lambda: D.zip((D.from_tensors([1, 2]), D.from_tensors([1, 2, 3]))).unbatch()),
        ("padded_batch(unknown rank)", ValueError, "must provide `padded_shapes`",
         lambda: D.from_generator(lambda: iter([[1]]), output_types=tf.int32).padded_batch(2)),
        ("padded_batch([3] for [4])", ValueError, "not compatible with the shape",
         lambda: D.from_tensor_slices(np.zeros((3, 4), np.int32)).padded_batch(2, padded_shapes=[3])),
        ("filter(-> int64)", ValueError, "must return a `tf.bool` scalar tensor", lambda: D.range(3).filter(lambda x: x)),
        ("filter(-> bool[2])", ValueError, "must return a `tf.bool` scalar tensor",
         lambda: D.range(3).filter(lambda x: tf.fill([2], True))),
        ("from_generator(3)", TypeError, "must be a Python callable",
         lambda: D.from_generator(3, output_types=tf.int32)),
        ("from_generator(types and signature)", TypeError, None,
         lambda: D.from_generator(lambda: iter([1]), output_types=tf.int32,
                                  output_signature=tf.TensorSpec([], tf.int32))),
        ("from_generator(signature of dtypes)", TypeError, "subclass of `tf.TypeSpec`",
         lambda: D.from_generator(lambda: iter([1]), output_signature=(tf.int32,))),
        ("from_generator(no signature)", TypeError, "either the `output_signature` argument or the `output_types`",
         lambda: D.from_generator(lambda: iter([1]))),
    ]
    for call, exc, match, build in cases:
        with raises(exc, match=match, call=call):
            build()


@clause("dataset.api-surface", ref="tf221")
def test_cov13_data_cardinality_arithmetic(tf):
    """The kernels' Cardinality(): -1 infinite, -2 unknown (tf.data.INFINITE_CARDINALITY /
    UNKNOWN_CARDINALITY); `len()` raises TypeError for both."""
    D = tf.data.Dataset
    unknown = lambda n: D.range(n).filter(lambda x: x >= 0)   # noqa: E731 - filter: unknown cardinality
    cases = [
        # concatenate: infinite if either is, else unknown if either is, else the sum
        ("range(2).repeat().concatenate(range(3))", lambda: D.range(2).repeat().concatenate(D.range(3)), -1),
        ("unknown.concatenate(range(3))", lambda: unknown(2).concatenate(D.range(3)), -2),
        ("range(2).concatenate(range(3))", lambda: D.range(2).concatenate(D.range(3)), 5),
        # zip: unknown if any is, else the smallest finite one, infinite only if all are
        ("zip(range(4), unknown)", lambda: D.zip((D.range(4), unknown(3))), -2),
        ("zip(range(4).repeat(), range(3))", lambda: D.zip((D.range(4).repeat(), D.range(3))), 3),
        ("zip(inf, inf)", lambda: D.zip((D.range(4).repeat(), D.range(3).repeat())), -1),
        # repeat: count 0 -> 0; forever of an empty input -> 0; unknown/infinite inputs stay so
        ("range(4).repeat(0)", lambda: D.range(4).repeat(0), 0),
        ("range(0).repeat()", lambda: D.range(0).repeat(), 0),
        ("unknown.repeat(2)", lambda: unknown(3).repeat(2), -2),
        ("range(3).repeat().repeat(2)", lambda: D.range(3).repeat().repeat(2), -1),
        ("range(3).repeat(2)", lambda: D.range(3).repeat(2), 6),
        # take: unknown stays unknown, infinite input -> count, -1 -> all, other negatives as is
        ("unknown.take(2)", lambda: unknown(3).take(2), -2),
        ("range(3).repeat().take(5)", lambda: D.range(3).repeat().take(5), 5),
        ("range(3).take(-1)", lambda: D.range(3).take(-1), 3),
        ("range(3).take(-5)", lambda: D.range(3).take(-5), -5),
        ("range(3).take(2)", lambda: D.range(3).take(2), 2),
        # skip: infinite stays infinite, negative -> 0, never below 0
        ("range(3).repeat().skip(5)", lambda: D.range(3).repeat().skip(5), -1),
        ("range(3).skip(-1)", lambda: D.range(3).skip(-1), 0),
        ("range(3).skip(5)", lambda: D.range(3).skip(5), 0),
        ("range(5).skip(2)", lambda: D.range(5).skip(2), 3),
        ("range(3).filter(...)", lambda: unknown(3), -2),
        # unbatch: n * the static batch dim; unknown when the batch dim is not static
        ("range(6).batch(2, True).unbatch()", lambda: D.range(6).batch(2, drop_remainder=True).unbatch(), 6),
        ("range(6).batch(4).unbatch()", lambda: D.range(6).batch(4).unbatch(), -2),
        ("range(6).batch(2, True).repeat().unbatch()", lambda: D.range(6).batch(2, True).repeat().unbatch(), -1),
        ("range(7).padded_batch(3)", lambda: D.range(7).padded_batch(3), 3),
        ("range(7).padded_batch(3, drop_remainder=True)", lambda: D.range(7).padded_batch(3, drop_remainder=True), 2),
        ("range(5).shuffle(2)", lambda: D.range(5).shuffle(2), 5),
        ("range(5).prefetch(2)", lambda: D.range(5).prefetch(2), 5),
        ("range(5).cache()", lambda: D.range(5).cache(), 5),
        ("range(5, 0, -2)", lambda: D.range(5, 0, -2), 3),
    ]
    for call, build, expected in cases:
        assert_same(int(build().cardinality()), expected, call=f"{call}.cardinality()")
    assert_same(len(D.range(3).take(2)), 2, call="len(range(3).take(2))")
    with raises(TypeError, match="infinite", call="len(range(3).repeat())"):
        len(D.range(3).repeat())
    with raises(TypeError, match="unknown", call="len(range(3).filter(...))"):
        len(unknown(3))


@clause("dataset.api-surface", ref="tf221")
def test_cov13_data_transformation_values(tf):
    """Values of zip (varargs and `datasets=`), enumerate, apply, take(-1)/skip(-1), repeat of an
    empty input, negative range steps, tensor arguments, concatenate's merged spec."""
    D = tf.data.Dataset
    cases = [
        ("zip(datasets={'a': range(2), 'b': range(3)})", D.zip(datasets={"a": D.range(2), "b": D.range(3)}),
         [{"a": 0, "b": 0}, {"a": 1, "b": 1}]),
        ("zip(range(2), range(5, 9))", D.zip(D.range(2), D.range(5, 9)), [(0, 5), (1, 6)]),
        ("range(5, 8).enumerate(start=10)", D.range(5, 8).enumerate(start=10), [(10, 5), (11, 6), (12, 7)]),
        ("apply(map x*2)", D.range(3).apply(lambda d: d.map(lambda x: x * 2)), [0, 2, 4]),
        ("range(3).take(-1)", D.range(3).take(-1), [0, 1, 2]),
        ("range(3).skip(-1)", D.range(3).skip(-1), []),
        ("range(4).skip(1).take(2)", D.range(4).skip(1).take(2), [1, 2]),
        ("range(0).repeat()", D.range(0).repeat(), []),
        ("range(2).repeat(2)", D.range(2).repeat(2), [0, 1, 0, 1]),
        ("range(5, 0, -2)", D.range(5, 0, -2), [5, 3, 1]),
        ("range(5).batch(tensor 2, drop_remainder=tensor True)",
         D.range(5).batch(tf.constant(2, tf.int64), drop_remainder=tf.constant(True)), [[0, 1], [2, 3]]),
        ("range(5).take(np.int32(2))", D.range(5).take(np.int32(2)), [0, 1]),
        ("range(2).concatenate(range(7, 9))", D.range(2).concatenate(D.range(7, 9)), [0, 1, 7, 8]),
    ]
    for call, ds, expected in cases:
        assert_same(_items(ds), expected, call=call)
    spec = D.range(5, 8).enumerate().element_spec
    assert_same([(s.dtype.name, s.shape.as_list()) for s in spec], [("int64", []), ("int64", [])],
                 call="range(5, 8).enumerate().element_spec")
    merged = D.from_tensor_slices(np.zeros((2, 3), np.float32)).concatenate(
        D.from_tensor_slices(np.zeros((2, 4), np.float32))).element_spec
    assert_same(merged.shape.as_list(), [None], call="concatenate([3] rows, [4] rows).element_spec.shape")


@clause("dataset.api-surface", ref="tf221")
def test_cov13_data_padded_batch(tf):
    """padded_batch: unknown dims pad to the batch's longest, given dims to the padded shape
    (which may exceed a static input dim: padded_batch_op's `_is_padded_shape_compatible_with`
    only refuses a smaller one), padding values per component, b'' for strings; a runtime
    element longer than its padded shape is DataLossError."""
    D = tf.data.Dataset
    ragged = D.range(1, 4).map(lambda n: tf.fill([n], n))
    pairs = D.zip((ragged, D.range(3))).padded_batch(
        2, padding_values=(tf.constant(-1, tf.int64), tf.constant(0, tf.int64)))
    assert_same(_items(pairs), [([[1, -1], [2, 2]], [0, 1]), ([[3, 3, 3]], [2])],
                 call="zip(fill(n), range).padded_batch(2, padding_values=(-1, 0))")
    given = ragged.padded_batch(2, padded_shapes=[5], padding_values=tf.constant(9, tf.int64))
    assert_same(_items(given), [[[1, 9, 9, 9, 9], [2, 2, 9, 9, 9]], [[3, 3, 3, 9, 9]]],
                 call="fill(n).padded_batch(2, padded_shapes=[5], padding_values=9)")
    spec = ragged.padded_batch(2, padded_shapes=[5], drop_remainder=True).element_spec
    assert_same(spec.shape.as_list(), [2, 5], call="padded_batch(2, [5], drop_remainder=True).element_spec.shape")
    strings = D.from_tensor_slices([["a", "b"], ["c", "d"]]).padded_batch(2, padded_shapes=[3])
    assert_same(_items(strings), [[[b"a", b"b", b""], [b"c", b"d", b""]]],
                 call="from_tensor_slices(str[2, 2]).padded_batch(2, padded_shapes=[3])")
    long = D.from_generator(lambda: iter([[1, 2, 3]]), output_types=tf.int32, output_shapes=[None])
    with raises(tf.errors.DataLossError, match="pad to a smaller size", call="[1, 2, 3] padded_batch to [2]"):
        _items(long.padded_batch(1, padded_shapes=[2]))


@clause("dataset.api-surface", ref="tf221")
def test_cov13_data_iterators_and_optional(tf):
    """`iter(ds)`: element_spec, next/get_next, get_next_as_optional (empty at the end), then
    OutOfRangeError from get_next and StopIteration from next; an empty Optional's get_value is
    InvalidArgumentError; Optional.from_value/empty; as_numpy_iterator keeps the structure."""
    D = tf.data.Dataset
    it = iter(D.range(2))
    assert_same((it.element_spec.dtype.name, it.element_spec.shape.as_list()), ("int64", []),
                 call="iter(range(2)).element_spec")
    assert_same([int(next(it)), int(it.get_next())], [0, 1], call="next(it), it.get_next()")
    end = it.get_next_as_optional()
    assert_same(bool(end.has_value()), False, call="get_next_as_optional() at the end .has_value()")
    assert_same(end.element_spec.dtype.name, "int64", call="get_next_as_optional() at the end .element_spec")
    with raises(tf.errors.OutOfRangeError, call="it.get_next() at the end"):
        it.get_next()
    with raises(StopIteration, call="next(it) at the end"):
        next(it)
    with raises(tf.errors.InvalidArgumentError, call="empty Optional.get_value()"):
        end.get_value()
    it2 = iter(D.range(3, 5))
    got = it2.get_next_as_optional()
    assert_same([bool(got.has_value()), int(got.get_value())], [True, 3], call="get_next_as_optional() of range(3, 5)")
    assert_same(int(next(it2)), 4, call="next after get_next_as_optional")
    opt = tf.experimental.Optional.from_value((1, tf.constant([1.5, 2.0])))
    assert_same([bool(opt.has_value()), [(s.dtype.name, s.shape.as_list()) for s in opt.element_spec],
                  [np.asarray(v).tolist() for v in opt.get_value()]],
                 [True, [("int32", []), ("float32", [2])], [1, [1.5, 2.0]]], call="Optional.from_value((1, [1.5, 2]))")
    empty = tf.experimental.Optional.empty(tf.TensorSpec([2], tf.int32))
    assert_same([bool(empty.has_value()), empty.element_spec.shape.as_list()], [False, [2]],
                 call="Optional.empty(TensorSpec([2], int32))")
    rows = list(D.from_tensor_slices({"a": [1, 2], "b": [[1.0], [2.0]]}).as_numpy_iterator())
    assert_same([(type(r["a"]).__name__, r["a"].tolist(), type(r["b"]).__name__, r["b"].tolist()) for r in rows],
                 [("int32", 1, "ndarray", [1.0]), ("int32", 2, "ndarray", [2.0])],
                 call="as_numpy_iterator of {'a': int scalars, 'b': float rows}")
    assert_same(list(D.from_tensor_slices(["x", "yz"]).as_numpy_iterator()), [b"x", b"yz"],
                 call="as_numpy_iterator of strings")


@clause("dataset.api-surface", ref="tf221")
def test_cov13_data_cache_replays_a_finished_pass(tf):
    """`cache()` (in memory): a pass that reached the end is replayed without reading the input
    again; a pass stopped early (take) caches nothing, so the next pass reads the input anew."""
    D = tf.data.Dataset
    for stop_early, expected_calls in ((False, 1), (True, 2)):
        calls = []

        def gen():
            calls.append(1)
            yield from range(3)

        ds = D.from_generator(gen, output_signature=tf.TensorSpec([], tf.int64)).cache()
        first = _items(ds.take(2) if stop_early else ds)
        second = _items(ds)
        call = f"cache(), first pass {'take(2)' if stop_early else 'whole'}, then whole"
        assert_same([first, second, len(calls)], [[0, 1] if stop_early else [0, 1, 2], [0, 1, 2], expected_calls],
                     call=call)


@clause("dataset.api-surface", ref="tf221")
def test_cov13_data_options(tf):
    """tf.data.Options: typed properties (TypeError on a wrong type, AttributeError on an unknown
    name), defaults read as None/AUTO, `merge` and `ds.options()` taking later settings over
    earlier ones, nested groups merged field by field."""
    o = tf.data.Options()
    assert_same([o.deterministic, o.experimental_distribute.auto_shard_policy == tf.data.experimental.AutoShardPolicy.AUTO,
                  o.threading.private_threadpool_size], [None, True, None], call="Options() defaults")
    with raises(TypeError, call="Options().deterministic = 1"):
        o.deterministic = 1
    with raises(AttributeError, call="Options().no_such_option = True"):
        o.no_such_option = True
    a, b = tf.data.Options(), tf.data.Options()
    a.deterministic = False
    a.threading.private_threadpool_size = 2
    b.threading.max_intra_op_parallelism = 1
    b.experimental_distribute.auto_shard_policy = tf.data.experimental.AutoShardPolicy.DATA
    m = a.merge(b)
    assert_same([m.deterministic, m.threading.private_threadpool_size, m.threading.max_intra_op_parallelism,
                  m.experimental_distribute.auto_shard_policy == tf.data.experimental.AutoShardPolicy.DATA],
                 [False, 2, 1, True], call="a.merge(b) (disjoint settings)")
    c = tf.data.Options()
    c.deterministic = True
    ds = tf.data.Dataset.range(3).with_options(a).map(lambda x: x).with_options(c)
    got = ds.options()
    assert_same([got.deterministic, got.threading.private_threadpool_size], [True, 2],
                 call="range.with_options(a).map.with_options(c).options()")
    assert_same([tf.data.Options() == tf.data.Options(), a == tf.data.Options()], [True, False],
                 call="Options equality")


@clause("dataset.from-generator", ref="tf221")
def test_cov13_data_from_generator_conversions(tf):
    """from_generator: output_types alone give unknown shapes; output_shapes follow a dict's keys;
    `args` reach the generator; an element of another structure (a list where the types are a
    tuple: nest.flatten_up_to checks sequence types), type or shape is InvalidArgumentError at
    the iterator; an exception of the generator call itself is the PyFunc status (UnknownError)."""
    D = tf.data.Dataset
    spec = D.from_generator(lambda: iter([(1, [2.0])]), output_types=(tf.int32, tf.float32)).element_spec
    assert_same([s.shape.rank for s in spec], [None, None], call="from_generator(output_types=(int32, float32)) ranks")
    spec = D.from_generator(lambda: iter([{"a": 1, "b": [2.0]}]), output_types={"a": tf.int32, "b": tf.float32},
                            output_shapes={"a": [], "b": [None]}).element_spec
    assert_same({k: (s.dtype.name, s.shape.as_list()) for k, s in spec.items()},
                 {"a": ("int32", []), "b": ("float32", [None])}, call="from_generator(dict types, dict shapes)")
    ds = D.from_generator(lambda a, b: iter(range(int(a), int(b))), output_types=tf.int64, args=(2, 5))
    assert_same(_items(ds), [2, 3, 4], call="from_generator(range(a, b), args=(2, 5))")
    IAE = tf.errors.InvalidArgumentError
    bad = [
        ("yields (1, 2, 3) for (int32, int32)", lambda: iter([(1, 2, 3)]), (tf.int32, tf.int32), None),
        ("yields [1, 2.5] for (int32, float32)", lambda: iter([[1, 2.5]]), (tf.int32, tf.float32), None),
        ("yields 'x' for int32", lambda: iter(["x"]), tf.int32, None),
        ("yields [1, 2] for shape [3]", lambda: iter([[1, 2]]), tf.int32, [3]),
    ]
    for call, gen, types_, shapes in bad:
        with raises(IAE, match="`generator` yielded an element", call=f"from_generator {call}"):
            _items(D.from_generator(gen, output_types=types_, output_shapes=shapes))
    with raises(tf.errors.UnknownError, match="ZeroDivisionError", call="from_generator(generator raising 1/0)"):
        _items(D.from_generator(lambda: 1 / 0, output_types=tf.int32))
