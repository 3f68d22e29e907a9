"""Dataset.scan / counter / take_while / unique / get_single_element — clause
dataset.scan-take-while-unique — and Dataset.window — clause dataset.window (TF 2.21).

Every expected value, spec, cardinality and error below was observed with TF 2.21 (tensorflow-cpu)
running the same calls. Window orders follow WindowDatasetOp: window i starts at element i * shift
and holds `size` elements `stride` apart, cut short by the input's end (dropped with
drop_remainder).
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_same, raises

clause = pytest.mark.clause


def _values(ds) -> list:
    out = []
    for x in ds:
        if isinstance(x, tuple):
            out.append(tuple(np.asarray(t).tolist() for t in x))
        else:
            out.append(np.asarray(x).tolist())
    return out


def _spec(s) -> tuple:
    return (s.dtype.name, s.shape.as_list() if s.shape.rank is not None else None)


@clause("dataset.scan-take-while-unique", ref="tf221")
def test_scan_carries_a_state_across_the_elements(tf):
    R = tf.data.Dataset.range
    ds = R(5).scan(tf.constant(0, tf.int64), lambda s, x: (s + x, s * 10))
    assert_same(_values(ds), [0, 0, 10, 30, 60], call="range(5).scan(0, (s + x, s * 10))")
    assert_same(int(ds.cardinality()), 5, call="range(5).scan(...).cardinality() (the input's)")
    ds = tf.data.Dataset.from_tensor_slices(([1, 2, 3], [4, 5, 6])).scan(0, lambda s, x: (s + x[0] * x[1], (s, x[1])))
    assert_same(_values(ds), [(0, 4), (4, 5), (14, 6)], call="scan over a tuple element: passed whole as x")
    ds = R(3).scan(tf.constant([], tf.int64), lambda s, x: (tf.concat([s, [x]], 0), s))
    assert_same(_spec(ds.element_spec), ("int64", [None]), call="a growing state: its output spec relaxed to [None]")
    assert_same(_values(ds), [[], [0], [0, 1]], call="range(3).scan([], (concat(s, [x]), s))")
    ds = R(3).scan(0.5, lambda s, x: (s * 2., s))
    assert_same((_spec(ds.element_spec), _values(ds)), (("float32", []), [0.5, 1.0, 2.0]),
                 call="range(3).scan(0.5, (s * 2., s))")
    ds = R(3).repeat().scan(0, lambda s, x: (s, s))
    assert_same(int(ds.cardinality()), -1, call="scan of an infinite input: INFINITE")
    with raises(TypeError, call="range(3).scan(0, lambda s, x: s)", match="should return a pair"):
        R(3).scan(0, lambda s, x: s)
    with raises(TypeError, call="range(3).scan(0, (s * 1.5, s)): a float new state for an int32 one",
                match="element types for the new state must match"):
        R(3).scan(0, lambda s, x: (tf.cast(s, tf.float32) * 1.5, s))


@clause("dataset.scan-take-while-unique", ref="tf221")
def test_counter_counts_from_start_by_step(tf):
    C = tf.data.Dataset.counter
    assert_same(_values(C().take(3)), [0, 1, 2], call="counter().take(3)")
    assert_same(_values(C(5, 2).take(3)), [5, 7, 9], call="counter(5, 2).take(3)")
    ds = C(5, -2, dtype=tf.int32).take(3)
    assert_same((_spec(ds.element_spec), _values(ds)), (("int32", []), [5, 3, 1]),
                 call="counter(5, -2, dtype=int32).take(3)")
    assert_same((int(C().cardinality()), _spec(C().element_spec)), (-1, ("int64", [])),
                 call="counter(): cardinality INFINITE, int64 scalars")


@clause("dataset.scan-take-while-unique", ref="tf221")
def test_take_while_stops_at_the_first_refused_element(tf):
    R = tf.data.Dataset.range
    ds = R(10).take_while(lambda x: x < 4)
    assert_same((_values(ds), int(ds.cardinality())), ([0, 1, 2, 3], -2), call="range(10).take_while(x < 4)")
    ds = R(10).take_while(lambda x: x % 3 != 2)
    assert_same(_values(ds), [0, 1], call="range(10).take_while(x % 3 != 2): stops, does not filter")
    ds = tf.data.Dataset.from_tensor_slices(([1, 2, 3], [4, 5, 6])).take_while(lambda a, b: a < 3)
    assert_same(_values(ds), [(1, 4), (2, 5)], call="take_while over a tuple element: unpacked into arguments")
    with raises(ValueError, call="range(10).take_while(lambda x: x)", match="must return a `tf.bool` scalar"):
        R(10).take_while(lambda x: x)


@clause("dataset.scan-take-while-unique", ref="tf221")
def test_unique_keeps_first_occurrences(tf):
    S = tf.data.Dataset.from_tensor_slices
    ds = S([1, 1, 2, 3, 2, 5, 1]).unique()
    assert_same((_values(ds), int(ds.cardinality())), ([1, 2, 3, 5], -2), call="unique of [1, 1, 2, 3, 2, 5, 1]")
    assert_same(_values(S([[1, 2], [1, 2], [2, 1]]).unique()), [[1, 2], [2, 1]],
                 call="unique of vectors: compared whole")
    assert_same([x.numpy() for x in S([b"a", b"b", b"a"]).unique()], [b"a", b"b"], call="unique of strings")
    with raises(TypeError, call="unique of float32", match="does not support type"):
        S([1., 1.]).unique()
    with raises(tf.errors.InvalidArgumentError, call="unique of a tuple",
                match="only supports inputs with a single component"):
        S(([1, 1, 2], [3, 3, 4])).unique()


@clause("dataset.scan-take-while-unique", ref="tf221")
def test_get_single_element_returns_the_only_element(tf):
    R = tf.data.Dataset.range
    assert_same(int(R(1).get_single_element()), 0, call="range(1).get_single_element()")
    a, b = tf.data.Dataset.from_tensors((1, [2., 3.])).get_single_element()
    assert_same((int(a), b.numpy().tolist()), (1, [2.0, 3.0]), call="from_tensors((1, [2., 3.])).get_single_element()")
    assert_same(int(tf.data.experimental.get_single_element(R(5).skip(4))), 4,
                 call="tf.data.experimental.get_single_element(range(5).skip(4))")
    with raises(tf.errors.InvalidArgumentError, call="range(0).get_single_element()", match="Dataset was empty"):
        R(0).get_single_element()
    with raises(tf.errors.InvalidArgumentError, call="range(2).get_single_element()",
                match="Dataset had more than one element"):
        R(2).get_single_element()
    with raises(TypeError, call="tf.data.experimental.get_single_element(5)", match="Expected a `tf.data.Dataset`"):
        tf.data.experimental.get_single_element(5)


@clause("dataset.window", ref="tf221")
def test_window_values_and_cardinality(tf):
    R = tf.data.Dataset.range
    cases = [
        ((3,), [[0, 1, 2], [3, 4, 5], [6]], 3),
        ((3, 2), [[0, 1, 2], [2, 3, 4], [4, 5, 6], [6]], 4),
        ((3, 1, 2), [[0, 2, 4], [1, 3, 5], [2, 4, 6], [3, 5], [4, 6], [5], [6]], 7),
        ((3, 2, 1, True), [[0, 1, 2], [2, 3, 4], [4, 5, 6]], 3),
        ((2, 3), [[0, 1], [3, 4], [6]], 3),
        ((2, 3, 1, True), [[0, 1], [3, 4]], 2),
        ((4, 1, 3), [[0, 3, 6], [1, 4], [2, 5], [3, 6], [4], [5], [6]], 7),
        ((4, 1, 3, True), [], 0),
        ((7, 1, 1, True), [[0, 1, 2, 3, 4, 5, 6]], 1),
        ((8, 1, 1, True), [], 0),
    ]
    for args, want, card in cases:
        call = f"range(7).window{args}"
        assert_same(_values(R(7).window(*args).flat_map(lambda w: w.batch(10))), want,
                     call=f"{call}.flat_map(lambda w: w.batch(10))")
        assert_same(int(R(7).window(*args).cardinality()), card, call=f"{call}.cardinality()")
    assert_same(int(R(3).repeat().window(2).cardinality()), -1, call="window of an infinite input: INFINITE")
    assert_same(int(R(3).filter(lambda x: x > 0).window(2).cardinality()), -2,
                 call="window of an unknown-cardinality input: UNKNOWN")
    assert_same(_values(R(3).repeat().window(2, 3).flat_map(lambda w: w.batch(2)).take(3)), [[0, 1], [0, 1], [0, 1]],
                 call="range(3).repeat().window(2, 3): windows of an infinite input")


@clause("dataset.window", ref="tf221")
def test_window_elements_are_datasets(tf):
    R = tf.data.Dataset.range
    spec = R(7).window(3).element_spec
    assert_same(_spec(spec.element_spec), ("int64", []), call="range(7).window(3).element_spec.element_spec")
    got = [[int(v) for v in w] for w in R(4).window(2)]
    assert_same(got, [[0, 1], [2, 3]], call="iterating range(4).window(2): each element a dataset")
    ds = tf.data.Dataset.from_tensor_slices(([1, 2, 3], [4., 5., 6.])).window(2).flat_map(
        lambda a, b: tf.data.Dataset.zip((a.batch(2), b.batch(2))))
    assert_same(_values(ds), [([1, 2], [4.0, 5.0]), ([3], [6.0])], call="window of a tuple: a dataset per component")
    ds = tf.data.Dataset.from_tensor_slices({"a": [1, 2, 3]}).window(2).flat_map(lambda d: d["a"].batch(2))
    assert_same(_values(ds), [[1, 2], [3]], call="window of a dict: a dict of datasets")
    ds = R(6).window(2).interleave(lambda w: w, cycle_length=2)
    assert_same(_values(ds), [0, 2, 1, 3, 4, 5], call="range(6).window(2).interleave(lambda w: w, cycle_length=2)")


@clause("dataset.window", ref="tf221")
def test_window_argument_errors(tf):
    R = tf.data.Dataset.range
    for args, match in [((0,), "Window size must be greater than zero"), ((-1,), "Window size must be greater than zero"),
                        ((3, 0), "Window shift must be greater than zero"),
                        ((3, 1, 0), "Window stride must be greater than zero")]:
        with raises(tf.errors.InvalidArgumentError, call=f"range(7).window{args}", match=match):
            R(7).window(*args)
    with raises(TypeError, call="range(7).window(2.5)", match="Cannot convert 2.5 to EagerTensor of dtype int64"):
        R(7).window(2.5)


@clause("dataset.scan-take-while-unique", ref="tf221")
def test_experimental_forms_are_the_methods(tf):
    tf.random.set_seed(None)   # (op seeds alone: get_seed's (87654321, seed); an earlier test may set one)
    E, R = tf.data.experimental, tf.data.Dataset.range
    assert_same(_values(R(5).apply(E.scan(tf.constant(0, tf.int64), lambda s, x: (s + x, s)))), [0, 0, 1, 3, 6],
                 call="range(5).apply(tf.data.experimental.scan(0, (s + x, s)))")
    assert_same(_values(R(5).apply(E.take_while(lambda x: x < 2))), [0, 1], call="apply(experimental.take_while)")
    assert_same(_values(tf.data.Dataset.from_tensor_slices([1, 1, 2]).apply(E.unique())), [1, 2],
                 call="apply(experimental.unique())")
    assert_same(_values(R(6).apply(E.group_by_window(lambda x: x % 2, lambda k, w: w.batch(3), window_size=3))),
                 [[0, 2, 4], [1, 3, 5]], call="apply(experimental.group_by_window)")
    assert_same(_values(E.Counter(3).take(2)), [3, 4], call="experimental.Counter(3).take(2)")
    assert_same(_values(E.RandomDataset(42).take(2)), [2985944072, 4132877644], call="experimental.RandomDataset(42)")
    assert_same(_values(R(3).apply(E.enumerate_dataset(5))), [(5, 0), (6, 1), (7, 2)],
                 call="apply(experimental.enumerate_dataset(5))")
    assert_same(_values(R(4).batch(2).apply(E.unbatch())), [0, 1, 2, 3], call="apply(experimental.unbatch())")
    assert_same(isinstance(R(2).as_numpy_iterator(), tf.data.NumpyIterator), True,
                 call="as_numpy_iterator() is a tf.data.NumpyIterator")
