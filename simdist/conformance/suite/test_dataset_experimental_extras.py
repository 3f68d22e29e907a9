"""tf.data's error-dropping and experimental helpers — clauses dataset.ignore-errors and
dataset.experimental-extras (TF 2.21).

ignore_errors (IgnoreErrorsDatasetOp) asks its input again after an element's error; map, filter,
take, skip and prefetch go on after an element's error (their kernels do), so only that element is
lost, while a from_generator whose generator raised ends. assert_cardinality counts the elements it
reads (FailedPreconditionError beyond or short of the count), from_list makes a source of a list,
`at` reads one element by index (GetElementAtIndex), group_by_reducer folds each key's elements and
finalizes the keys in ascending order; pad_to_cardinality, shuffle_and_repeat and map_and_batch are
their TF compositions. Expected values were observed with TF 2.21 (and follow from the rules above:
1 / (x - 2) of range(5) fails at x = 2).
"""

from __future__ import annotations

import logging
import os
import tempfile

import numpy as np
import pytest

from simdist.conformance.assertions import assert_same, raises

clause = pytest.mark.clause


def _v(x):
    if isinstance(x, dict):
        return {k: _v(v) for k, v in sorted(x.items())}
    if isinstance(x, tuple):
        return tuple(_v(v) for v in x)
    return np.asarray(x).tolist()


def _values(ds) -> list:
    return [_v(x) for x in ds]


def _fails_at_2(tf):
    return tf.data.Dataset.range(5).map(lambda x: tf.debugging.check_numerics(1.0 / tf.cast(x - 2, tf.float32), "bad"))


@clause("dataset.ignore-errors", ref="tf221")
def test_ignore_errors_drops_the_failed_elements(tf):
    D = tf.data.Dataset
    ds = _fails_at_2(tf)
    cases = [
        ("map(1/(x-2)).ignore_errors()", lambda: ds.ignore_errors(), [-0.5, -1.0, 1.0, 0.5]),
        ("map(...).prefetch(2).ignore_errors()", lambda: ds.prefetch(2).ignore_errors(), [-0.5, -1.0, 1.0, 0.5]),
        ("map(...).take(4).ignore_errors() (the error is not counted)", lambda: ds.take(4).ignore_errors(),
         [-0.5, -1.0, 1.0, 0.5]),
        ("map(...).skip(1).ignore_errors()", lambda: ds.skip(1).ignore_errors(), [-1.0, 1.0, 0.5]),
        ("map(...).map(y*2).ignore_errors()", lambda: ds.map(lambda y: y * 2).ignore_errors(), [-1.0, -2.0, 2.0, 1.0]),
        ("map(...).filter(y>0).ignore_errors()", lambda: ds.filter(lambda y: y > 0).ignore_errors(), [1.0, 0.5]),
        ("range(5).filter(check_numerics(...) > 0).ignore_errors()",
         lambda: D.range(5).filter(lambda x: tf.debugging.check_numerics(1.0 / tf.cast(x - 2, tf.float32), "b") > 0)
         .ignore_errors(), [3, 4]),
        ("range(5).map(1/(x-2), num_parallel_calls=2).ignore_errors()",
         lambda: D.range(5).map(lambda x: tf.debugging.check_numerics(1.0 / tf.cast(x - 2, tf.float32), "bad"),
                                num_parallel_calls=2).ignore_errors(), [-0.5, -1.0, 1.0, 0.5]),
        ("apply(experimental.ignore_errors())", lambda: ds.apply(tf.data.experimental.ignore_errors()),
         [-0.5, -1.0, 1.0, 0.5]),
    ]
    for call, make, want in cases:
        out = make()
        assert_same(_values(out), want, call=call)
        assert_same(int(out.cardinality()), -2, call=f"{call}.cardinality() (UNKNOWN)")
    assert_same(str(ds.ignore_errors().element_spec.dtype.name), "float32", call="ignore_errors(): the input's spec")

    def gen():
        for i in range(5):
            if i == 2:
                raise ValueError("generator failed")
            yield i
    src = D.from_generator(gen, output_signature=tf.TensorSpec([], tf.int64))
    assert_same(_values(src.ignore_errors()), [0, 1],
                call="from_generator(raises at 2).ignore_errors(): the generator is finished")


@clause("dataset.ignore-errors", ref="tf221")
def test_an_iterator_goes_on_after_an_elements_error(tf):
    it = iter(_fails_at_2(tf))
    got = []
    for _ in range(6):
        try:
            got.append(float(next(it)))
        except StopIteration:
            got.append("stop")
            break
        except tf.errors.InvalidArgumentError:
            got.append("InvalidArgumentError")
    assert_same(got, [-0.5, -1.0, "InvalidArgumentError", 1.0, 0.5, "stop"],
                call="next() over range(5).map(check_numerics(1/(x-2))) past the failed element")


@clause("dataset.ignore-errors", ref="tf221")
def test_a_corrupted_tfrecord_file_is_left_for_the_next(tf):
    with tempfile.TemporaryDirectory() as d:
        p1, p2 = os.path.join(d, "r1.tfr"), os.path.join(d, "r2.tfr")
        for p, recs in ((p1, [b"a", b"bb", b"ccc"]), (p2, [b"x", b"y"])):
            with tf.io.TFRecordWriter(p) as w:
                for r in recs:
                    w.write(r)
        data = bytearray(open(p1, "rb").read())
        data[29] ^= 0xFF   # (the second record's data: its checksum fails)
        with open(p1, "wb") as f:
            f.write(bytes(data))
        got = [x.numpy() for x in tf.data.TFRecordDataset([p1, p2]).ignore_errors()]
        assert_same(got, [b"a", b"x", b"y"], call="TFRecordDataset([corrupted at record 2, ok]).ignore_errors()")
        it = iter(tf.data.TFRecordDataset([p1, p2]))
        seen = []
        for _ in range(6):
            try:
                seen.append(next(it).numpy())
            except StopIteration:
                seen.append("stop")
                break
            except tf.errors.DataLossError:
                seen.append("DataLossError")
        assert_same(seen, [b"a", "DataLossError", b"x", b"y", "stop"],
                    call="next() over TFRecordDataset([corrupted, ok]): the error, then the next file")


@clause("dataset.ignore-errors", ref="tf221")
def test_ignore_errors_log_warning_logs_each_error(tf, caplog, capfd):
    with caplog.at_level(logging.WARNING):
        out = _values(_fails_at_2(tf).ignore_errors(log_warning=True))
        quiet = _values(_fails_at_2(tf).ignore_errors())
    assert_same((out, quiet), ([-0.5, -1.0, 1.0, 0.5],) * 2, call="ignore_errors(log_warning=True) and without")
    # TF logs from C++ (LOG(WARNING) on stderr, hidden by TF_CPP_MIN_LOG_LEVEL >= 2, which the tensorflow
    # backend sets); simdist to the "tensorflow" logger under the same condition: one line per dropped error
    said = [r.getMessage() for r in caplog.records] + capfd.readouterr().err.splitlines()
    said = [line for line in said if "Error raised with error message" in line]
    level = os.environ.get("TF_CPP_MIN_LOG_LEVEL", "0")
    want = 0 if level.isdigit() and int(level) >= 2 else 1
    assert_same(len(said), want, call=f"ignore_errors(log_warning=True) then without, TF_CPP_MIN_LOG_LEVEL={level}: "
                                      f"warnings for x=2 ({said})")
    assert_same(all("Tensor had Inf values" in line for line in said), True, call=f"the warning names the error: {said}")


@clause("dataset.experimental-extras", ref="tf221")
def test_assert_cardinality_checks_the_count_while_iterating(tf):
    D, E = tf.data.Dataset, tf.data.experimental
    ds = D.range(5).filter(lambda x: True).apply(E.assert_cardinality(5))
    assert_same((int(ds.cardinality()), _values(ds)), (5, [0, 1, 2, 3, 4]),
                call="range(5).filter(...).apply(assert_cardinality(5))")
    assert_same(int(D.range(5).apply(E.assert_cardinality(E.INFINITE_CARDINALITY)).cardinality()), -1,
                call="assert_cardinality(INFINITE).cardinality()")
    bad = [
        ("range(5).apply(assert_cardinality(7))", lambda: D.range(5).apply(E.assert_cardinality(7)),
         "expected to contain 7 elements but contained only 5 elements."),
        ("range(5).apply(assert_cardinality(3))", lambda: D.range(5).apply(E.assert_cardinality(3)),
         "expected to contain 3 elements but contained at least 4 elements."),
        ("range(3).apply(assert_cardinality(1))", lambda: D.range(3).apply(E.assert_cardinality(1)),
         "expected to contain 1 element but contained at least 2 elements."),
        ("range(5).apply(assert_cardinality(INFINITE))", lambda: D.range(5).apply(E.assert_cardinality(-1)),
         "expected to contain an infinite number of elements but contained only 5 elements."),
    ]
    for call, make, match in bad:
        with raises(tf.errors.FailedPreconditionError, call=call, match=match):
            _values(make())
    it = iter(D.range(5).apply(E.assert_cardinality(3)))
    got = []
    for _ in range(6):
        try:
            got.append(int(next(it)))
        except StopIteration:
            got.append("stop")
            break
        except tf.errors.FailedPreconditionError as e:
            got.append(str(e).split("but contained ")[1].split(" element")[0])
    assert_same(got, [0, 1, 2, "at least 4", "at least 5", "only 5"],
                call="next() over range(5).apply(assert_cardinality(3)): each extra element, then the end")
    with raises(TypeError, call="assert_cardinality(2.5)", match="Cannot convert 2.5 to EagerTensor of dtype int64"):
        D.range(3).apply(E.assert_cardinality(2.5))


@clause("dataset.experimental-extras", ref="tf221")
def test_from_list_get_structure_and_get_next_as_optional(tf):
    E = tf.data.experimental
    ds = E.from_list([(1, "a"), (2, "b")])
    assert_same([(s.dtype.name, s.shape.as_list()) for s in ds.element_spec], [("int32", []), ("string", [])],
                call="from_list([(1, 'a'), (2, 'b')]).element_spec")
    assert_same((int(ds.cardinality()), _values(ds)), (2, [(1, b"a"), (2, b"b")]), call="from_list([(1, 'a'), ...])")
    ragged = E.from_list([np.array([1, 2]), np.array([3, 4, 5])])
    assert_same((ragged.element_spec.dtype.name, ragged.element_spec.shape.as_list(), _values(ragged)),
                ("int64", [None], [[1, 2], [3, 4, 5]]), call="from_list of int64 vectors of lengths 2 and 3")
    assert_same(E.from_list([np.zeros([2]), np.zeros([2, 2])]).element_spec.shape.rank, None,
                call="from_list of a vector and a matrix: unknown rank")
    assert_same(_values(E.from_list([{"a": 1, "b": 2.0}, {"a": 3, "b": 4.0}])),
                [{"a": 1, "b": 2.0}, {"a": 3, "b": 4.0}], call="from_list of dicts")
    for call, cls, match, fn in [
        ("from_list([])", ValueError, "`elements` should not be empty", lambda: E.from_list([])),
        ("from_list((1, 2))", ValueError, "`elements` must be a list", lambda: E.from_list((1, 2))),
        ("from_list([(1, 2), (1,)])", ValueError, "don't have the same nested structure",
         lambda: E.from_list([(1, 2), (1,)])),
        ("from_list([1, 2.0])", AttributeError, "_flat_tensor_specs", lambda: E.from_list([1, 2.0])),
        ("get_structure(3)", TypeError, "must be a `tf.data.Dataset` or tf.data.Iterator object",
         lambda: E.get_structure(3)),
    ]:
        with raises(cls, call=call, match=match):
            fn()
    r = tf.data.Dataset.range(2)
    assert_same((repr(E.get_structure(r)), repr(E.get_structure(iter(r)))), (repr(r.element_spec),) * 2,
                call="get_structure of a dataset and of its iterator: its element_spec")
    it = iter(r)
    opts = [E.get_next_as_optional(it) for _ in range(3)]
    assert_same([(bool(o.has_value()), int(o.get_value()) if o.has_value() else None) for o in opts],
                [(True, 0), (True, 1), (False, None)], call="get_next_as_optional(iter(range(2))) three times")
    assert_same(opts[2].element_spec.dtype.name, "int64", call="an empty Optional's element_spec")
    with raises(tf.errors.InvalidArgumentError, call="get_value() of an empty Optional"):
        opts[2].get_value()


@clause("dataset.experimental-extras", ref="tf221")
def test_at_reads_an_element_by_index(tf):
    D, E = tf.data.Dataset, tf.data.experimental
    good = [
        ("at(range(10), 3)", lambda: E.at(D.range(10), 3), 3),
        ("at(from_tensor_slices([5, 6, 7]), 1)", lambda: E.at(D.from_tensor_slices([5, 6, 7]), 1), 6),
        ("at(range(10).map(x*2), 3)", lambda: E.at(D.range(10).map(lambda x: x * 2), 3), 6),
        ("at(range(10).batch(3), 1)", lambda: E.at(D.range(10).batch(3), 1), [3, 4, 5]),
        ("at(range(10).batch(3), 3)", lambda: E.at(D.range(10).batch(3), 3), [9]),
        ("at(range(10).skip(5), 1)", lambda: E.at(D.range(10).skip(5), 1), 6),
        ("at(range(10).repeat(2), 12)", lambda: E.at(D.range(10).repeat(2), 12), 2),
        ("at(range(3).concatenate(range(3)), 4)", lambda: E.at(D.range(3).concatenate(D.range(3)), 4), 1),
        ("at(zip(range(3), range(3)), 1)", lambda: E.at(D.zip(D.range(3), D.range(3)), 1), (1, 1)),
        ("at(range(6).shard(2, 1), 1)", lambda: E.at(D.range(6).shard(2, 1), 1), 3),
        ("at(from_list([1, 2]), 1)", lambda: E.at(E.from_list([1, 2]), 1), 2),
        ("at(range(3).cache().prefetch(1), 2)", lambda: E.at(D.range(3).cache().prefetch(1), 2), 2),
    ]
    for call, fn, want in good:
        assert_same(_v(fn()), want, call=call)
    bad = [
        ("at(range(10), 10)", tf.errors.OutOfRangeError, r"Index out of range \[0, 10\):10", lambda: E.at(D.range(10), 10)),
        ("at(range(10), -1)", tf.errors.OutOfRangeError, r"Index out of range \[0, 10\):-1", lambda: E.at(D.range(10), -1)),
        ("at(range(10).batch(3, drop_remainder=True), 3)", tf.errors.OutOfRangeError, r"\[0, 3\):3",
         lambda: E.at(D.range(10).batch(3, drop_remainder=True), 3)),
        ("at(range(10).filter(...), 1)", tf.errors.UnimplementedError,
         "Random access is not implemented for dataset FilterDatasetOp::Dataset",
         lambda: E.at(D.range(10).filter(lambda x: x > 2), 1)),
        ("at(range(10).filter(...).take(3), 1)", tf.errors.FailedPreconditionError,
         "Dataset of type TakeDatasetOp::Dataset has unknown cardinality, which does not support random access",
         lambda: E.at(D.range(10).filter(lambda x: x > 2).take(3), 1)),
        ("at(range(10).repeat(), 1)", tf.errors.FailedPreconditionError,
         "RepeatDatasetOp::Dataset has infinite cardinality", lambda: E.at(D.range(10).repeat(), 1)),
        ("at(range(3).unique(), 1)", tf.errors.UnimplementedError, "UniqueDatasetOp::Dataset",
         lambda: E.at(D.range(3).unique(), 1)),
        ("at(range(10), int32 tensor)", tf.errors.InvalidArgumentError, "expected to be a int64 tensor but is a int32",
         lambda: E.at(D.range(10), tf.constant(3))),
        ("at(range(10), 2.5)", TypeError, "Cannot convert 2.5 to EagerTensor of dtype int64",
         lambda: E.at(D.range(10), 2.5)),
    ]
    for call, cls, match, fn in bad:
        with raises(cls, call=call, match=match):
            fn()


@clause("dataset.experimental-extras", ref="tf221")
def test_group_by_reducer_folds_each_key(tf):
    D, E = tf.data.Dataset, tf.data.experimental
    count = E.Reducer(init_func=lambda k: (tf.constant(0, tf.int64), tf.constant(0, tf.int64)),
                      reduce_func=lambda s, x: (s[0] + x, s[1] + 1), finalize_func=lambda total, n: (total, n))
    xs = D.from_tensor_slices(np.array([5, 1, 3, 5, 9, 1, -4, 2], np.int64))
    ds = xs.apply(E.group_by_reducer(lambda x: x % 4, count))
    assert_same(_values(ds), [(-4, 1), (21, 5), (2, 1), (3, 1)],
                call="group_by_reducer(x % 4, (sum, count)): keys 0, 1, 2, 3 in ascending order")
    assert_same(int(ds.cardinality()), -2, call="group_by_reducer(...).cardinality() (UNKNOWN)")
    keys = D.from_tensor_slices(np.array([50, 10, 30, -40, 20, 7], np.int64)).apply(E.group_by_reducer(lambda x: x, count))
    assert_same([k for k, _ in _values(keys)], [-40, 7, 10, 20, 30, 50], call="group_by_reducer(identity key): order")
    grow = E.Reducer(lambda k: tf.zeros([0], tf.int64), lambda s, x: tf.concat([s, [x]], 0), lambda s: s)
    ds = D.range(7).apply(E.group_by_reducer(lambda x: x % 3, grow))
    assert_same((ds.element_spec.shape.as_list(), _values(ds)), ([None], [[0, 3, 6], [1, 4], [2, 5]]),
                call="group_by_reducer with a growing state: its spec relaxed to [None]")
    as_dict = E.Reducer(lambda k: k * 100, lambda s, x: s + x, lambda s: {"k": s, "d": tf.cast(s, tf.float32) / 2})
    assert_same(_values(D.range(6).apply(E.group_by_reducer(lambda x: x % 2, as_dict))),
                [{"d": 3.0, "k": 6}, {"d": 54.5, "k": 109}], call="group_by_reducer: init from the key, dict output")
    assert_same(_values(D.range(0).apply(E.group_by_reducer(lambda x: x, count))), [],
                call="group_by_reducer of an empty input")
    with raises(ValueError, call="group_by_reducer with an int32 key",
                match="Expected `key_func` to return a scalar tf.int64 tensor"):
        D.range(5).apply(E.group_by_reducer(lambda x: tf.cast(x % 2, tf.int32), count))


@clause("dataset.experimental-extras", ref="tf221")
def test_pad_shuffle_and_repeat_map_and_batch_compositions(tf):
    D, E = tf.data.Dataset, tf.data.experimental
    dd = D.from_tensor_slices({"a": [1, 2, 3], "b": [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]})
    padded = dd.apply(E.pad_to_cardinality(5))
    assert_same(_values(padded), [{"a": 1, "b": [1.0, 2.0], "valid": True}, {"a": 2, "b": [3.0, 4.0], "valid": True},
                                  {"a": 3, "b": [5.0, 6.0], "valid": True}, {"a": 0, "b": [0.0, 0.0], "valid": False},
                                  {"a": 0, "b": [0.0, 0.0], "valid": False}], call="pad_to_cardinality(5)")
    assert_same((int(padded.cardinality()), padded.element_spec["valid"].dtype.name), (5, "bool"),
                call="pad_to_cardinality(5): cardinality and the mask's dtype")
    assert_same([x["m"] for x in _values(dd.apply(E.pad_to_cardinality(4, mask_key="m")))], [True, True, True, False],
                call="pad_to_cardinality(4, mask_key='m')")
    for call, match, fn in [
        ("pad_to_cardinality(2) of 3 elements", "must have a cardinalty less than the target cardinality",
         lambda: dd.apply(E.pad_to_cardinality(2))),
        ("pad_to_cardinality of an unknown cardinality", "must have a known cardinalty",
         lambda: dd.filter(lambda x: True).apply(E.pad_to_cardinality(5))),
        ("pad_to_cardinality of scalars", "requires its input dataset to be a dictionary",
         lambda: D.range(3).apply(E.pad_to_cardinality(5))),
    ]:
        with raises(ValueError, call=call, match=match):
            fn()
    sar = _values(D.range(5).apply(E.shuffle_and_repeat(5, count=2, seed=1)))
    assert_same((sorted(sar[:5]), sorted(sar[5:]), sar[:5] != sar[5:]), ([0, 1, 2, 3, 4], [0, 1, 2, 3, 4], True),
                call="shuffle_and_repeat(5, count=2, seed=1): each pass a permutation, reshuffled")
    assert_same((int(D.range(5).apply(E.shuffle_and_repeat(5, count=2)).cardinality()),
                 int(D.range(5).apply(E.shuffle_and_repeat(5)).cardinality())), (10, -1),
                call="shuffle_and_repeat cardinality (count=2, count=None)")
    mab = D.range(7).apply(E.map_and_batch(lambda x: x * 2, 3))
    assert_same((mab.element_spec.shape.as_list(), int(mab.cardinality()), _values(mab)),
                ([None], 3, [[0, 2, 4], [6, 8, 10], [12]]), call="map_and_batch(x*2, 3)")
    mab = D.range(7).apply(E.map_and_batch(lambda x: (x, x * 2), 3, drop_remainder=True))
    assert_same(([s.shape.as_list() for s in mab.element_spec], int(mab.cardinality()), _values(mab)),
                ([[3], [3]], 2, [([0, 1, 2], [0, 2, 4]), ([3, 4, 5], [6, 8, 10])]),
                call="map_and_batch((x, x*2), 3, drop_remainder=True)")
    with raises(ValueError, call="map_and_batch(num_parallel_batches=1, num_parallel_calls=2)",
                match="allows only one of `num_parallel_batches` and `num_parallel_calls`"):
        E.map_and_batch(lambda x: x, 3, num_parallel_batches=1, num_parallel_calls=2)
    with raises(tf.errors.InvalidArgumentError, call="map_and_batch(batch_size=0)",
                match="batch_size must be greater than zero"):
        D.range(7).apply(E.map_and_batch(lambda x: x, 0))


@clause("dataset.experimental-extras", ref="tf221")
def test_parallel_interleave_is_interleaves_order(tf):
    R, E = tf.data.Dataset.range, tf.data.experimental

    def mk(x):   # x elements: x, 10 + x, 20 + x, ...
        return R(x).map(lambda y: y * 10 + x)
    for cyc, blk, start, stop in [(2, 1, 1, 5), (2, 2, 1, 5), (3, 2, 0, 7), (1, 1, 1, 4), (3, 1, 0, 7)]:
        call = f"range({start}, {stop}).apply(parallel_interleave(mk, cycle_length={cyc}, block_length={blk}))"
        got = [int(v) for v in R(start, stop).apply(E.parallel_interleave(mk, cycle_length=cyc, block_length=blk))]
        want = [int(v) for v in R(start, stop).interleave(mk, cycle_length=cyc, block_length=blk)]
        assert_same(got, want, call=f"{call} against interleave's order")
    assert_same(int(R(1, 5).apply(E.parallel_interleave(mk, cycle_length=2)).cardinality()), -2,
                call="parallel_interleave(...).cardinality() (UNKNOWN)")
    with raises(tf.errors.InvalidArgumentError, call="parallel_interleave(cycle_length=0)",
                match="`cycle_length` must be > 0"):
        R(3).apply(E.parallel_interleave(mk, cycle_length=0))


@clause("dataset.experimental-extras", ref="tf221")
def test_lookup_tables_from_datasets(tf):
    D, E = tf.data.Dataset, tf.data.experimental
    pairs = D.zip(D.from_tensor_slices(["a", "b", "c"]), D.range(3))
    table = E.table_from_dataset(pairs, key_dtype=tf.string)
    assert_same((table.lookup(tf.constant(["b", "z", "a"])).numpy().tolist(), int(table.size())), ([1, -1, 0], 3),
                call="table_from_dataset(zip(['a', 'b', 'c'], range(3))): lookups of b, z, a and its size")
    index = E.index_table_from_dataset(D.from_tensor_slices(["x", "y", "w"]))
    assert_same(index.lookup(tf.constant(["y", "x", "q"])).numpy().tolist(), [1, 0, -1],
                call="index_table_from_dataset(['x', 'y', 'w']): lookups of y, x, q")
    small = E.table_from_dataset(D.zip(D.range(3), D.range(10, 13)), vocab_size=2, key_dtype=tf.int64)
    assert_same(small.lookup(tf.constant([0, 1, 2], tf.int64)).numpy().tolist(), [10, 11, -1],
                call="table_from_dataset(vocab_size=2): the first two pairs")
    init = tf.lookup.StaticHashTable(E.DatasetInitializer(pairs), -7)
    assert_same(init.lookup(tf.constant(["c", "q"])).numpy().tolist(), [2, -7],
                call="StaticHashTable(DatasetInitializer(pairs), -7)")
    for call, cls, match, fn in [
        ("table_from_dataset(vocab_size=5) of 3 pairs", tf.errors.FailedPreconditionError,
         "expected to contain 5 elements but contained only 3 elements",
         lambda: E.table_from_dataset(D.zip(D.range(3), D.range(10, 13)), vocab_size=5, key_dtype=tf.int64)),
        ("table_from_dataset of 3-component elements", ValueError, "must produce elements in the form \\(key, value\\)",
         lambda: E.table_from_dataset(D.zip(D.range(3), D.range(3), D.range(3)))),
        ("table_from_dataset of string values without default_value", ValueError, "`default_value` must be specified",
         lambda: E.table_from_dataset(D.zip(D.range(3), D.from_tensor_slices(["a", "b", "c"])), key_dtype=tf.int64)),
        ("table_from_dataset(num_oov_buckets=-1)", ValueError, "`num_oov_buckets` must be greater than or equal to 0",
         lambda: E.table_from_dataset(pairs, num_oov_buckets=-1)),
        ("table_from_dataset(key_dtype=float32)", TypeError, "`key_dtype` must be either an integer or string type",
         lambda: E.table_from_dataset(pairs, key_dtype=tf.float32)),
        ("index_table_from_dataset(['x', 'y', 'x'])", tf.errors.FailedPreconditionError,
         "HashTable has different value for same key. Key x has 0 and trying to add value 2",
         lambda: E.index_table_from_dataset(D.from_tensor_slices(["x", "y", "x"]))),
    ]:
        with raises(cls, call=call, match=match):
            fn()
