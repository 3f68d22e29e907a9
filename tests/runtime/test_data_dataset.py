"""simdist's tf.data.Dataset against TF 2.21's observed behaviour (dtypes, specs, cardinality, errors).

Every expected value below was observed on TensorFlow 2.21.0 (tensorflow-cpu, Python 3.11).
"""

from __future__ import annotations

import collections

import numpy as np
import pytest

from simdist.runtime import data, dtypes, errors
from simdist.runtime.spec import PerReplicaSpec, TensorSpec
from simdist.runtime.tensor import Tensor

D = data.Dataset
I64 = "tf.int64"


def spec_repr(ds: data.Dataset) -> str:
    return repr(ds.element_spec)


def vals(ds: data.Dataset) -> list:
    return [np.asarray(v).tolist() if not isinstance(v, (tuple, dict)) else v for v in ds.as_numpy_iterator()]


def card(ds: data.Dataset) -> int:
    c = ds.cardinality()
    assert isinstance(c, Tensor) and c.dtype.name == "int64", f"cardinality() should be an int64 tensor, got {c!r}"
    return int(c.numpy())


# --- TensorSpec -------------------------------------------------------------------------------------------
@pytest.mark.parametrize("spec,expected", [
    (TensorSpec([], "int64"), "TensorSpec(shape=(), dtype=tf.int64, name=None)"),
    (TensorSpec([None], "int64"), "TensorSpec(shape=(None,), dtype=tf.int64, name=None)"),
    (TensorSpec([None, 3], "float32", name="x"), "TensorSpec(shape=(None, 3), dtype=tf.float32, name='x')"),
    (TensorSpec(None, "float32"), "TensorSpec(shape=<unknown>, dtype=tf.float32, name=None)"),
    (TensorSpec([2]), "TensorSpec(shape=(2,), dtype=tf.float32, name=None)"),
])
def test_tensor_spec_repr(spec: TensorSpec, expected: str) -> None:
    assert repr(spec) == expected, f"repr = {spec!r}, but should be {expected}"


def test_tensor_spec_equality_and_compatibility() -> None:
    assert TensorSpec([2], "int64") == TensorSpec(shape=[2], dtype="int64"), "same shape/dtype/name should be equal"
    assert TensorSpec([2]) != TensorSpec([2], name="a"), "names take part in equality (TF 2.21)"
    assert TensorSpec([None], "int64") != TensorSpec([2], "int64"), "(None,) != (2,)"
    assert len({TensorSpec([None], "int64"), TensorSpec([None], "int64")}) == 1, "equal specs hash equal"
    assert TensorSpec([None]).is_compatible_with(TensorSpec([2])), "(None,) is compatible with (2,)"
    t32 = Tensor(np.asarray([1.0, 2.0], np.float32), dtypes.float32)
    assert TensorSpec([None]).is_compatible_with(t32), "float32 (2,) tensor is compatible with (None,) float32"
    t_int = Tensor(np.asarray([1, 2], np.int32), dtypes.int32)
    assert not TensorSpec([None]).is_compatible_with(t_int), "dtype must match"
    assert not TensorSpec([None], "int32").is_compatible_with([1, 2]), "lists are not tensors (TF 2.21: False)"
    assert repr(TensorSpec.from_tensor(t_int)) == "TensorSpec(shape=(2,), dtype=tf.int32, name=None)"


def test_per_replica_spec_repr() -> None:
    s = TensorSpec([None], "int64")
    got = repr(PerReplicaSpec(s, s))
    assert got == ("PerReplicaSpec(TensorSpec(shape=(None,), dtype=tf.int64, name=None), "
                   "TensorSpec(shape=(None,), dtype=tf.int64, name=None))"), got


# --- sources and dtype inference -----------------------------------------------------------------------
@pytest.mark.parametrize("make,expected", [
    (lambda: D.range(3), "TensorSpec(shape=(), dtype=tf.int64, name=None)"),
    (lambda: D.range(3, output_type="int32"), "TensorSpec(shape=(), dtype=tf.int32, name=None)"),
    (lambda: D.from_tensor_slices([1.0, 2.0]), "TensorSpec(shape=(), dtype=tf.float32, name=None)"),
    (lambda: D.from_tensor_slices([1, 2.5]), "TensorSpec(shape=(), dtype=tf.float32, name=None)"),
    (lambda: D.from_tensor_slices(np.array([1.0, 2.0])), "TensorSpec(shape=(), dtype=tf.float64, name=None)"),
    (lambda: D.from_tensor_slices(np.array([1, 2])), "TensorSpec(shape=(), dtype=tf.int64, name=None)"),
    (lambda: D.from_tensor_slices([True, False]), "TensorSpec(shape=(), dtype=tf.bool, name=None)"),
    (lambda: D.from_tensor_slices(["a", "bc"]), "TensorSpec(shape=(), dtype=tf.string, name=None)"),
    (lambda: D.from_tensor_slices([]), "TensorSpec(shape=(), dtype=tf.float32, name=None)"),
    (lambda: D.from_tensor_slices([(1, 2), (3, 4)]), "TensorSpec(shape=(2,), dtype=tf.int32, name=None)"),
    (lambda: D.from_tensor_slices(([1, 2], [[1., 2.], [3., 4.]])),
     "(TensorSpec(shape=(), dtype=tf.int32, name=None), TensorSpec(shape=(2,), dtype=tf.float32, name=None))"),
    (lambda: D.from_tensor_slices({"b": [1, 2], "a": [3., 4.]}),
     "{'b': TensorSpec(shape=(), dtype=tf.int32, name=None), 'a': TensorSpec(shape=(), dtype=tf.float32, name=None)}"),
    (lambda: D.from_tensors(([1, 2], 3.0)),
     "(TensorSpec(shape=(2,), dtype=tf.int32, name=None), TensorSpec(shape=(), dtype=tf.float32, name=None))"),
    (lambda: D.from_tensors(1), "TensorSpec(shape=(), dtype=tf.int32, name=None)"),
    (lambda: D.from_tensor_slices(np.zeros((4, 2, 3), np.float32)).batch(2),
     "TensorSpec(shape=(None, 2, 3), dtype=tf.float32, name=None)"),
])
def test_element_spec_like_tf(make, expected: str) -> None:
    got = spec_repr(make())
    assert got == expected, f"element_spec = {got}, but TF 2.21 gives {expected}"


def test_namedtuple_structure() -> None:
    P = collections.namedtuple("P", "a b")
    ds = D.from_tensor_slices(P([1, 2], [3, 4]))
    assert repr(ds.element_spec) == ("P(a=TensorSpec(shape=(), dtype=tf.int32, name=None), "
                                     "b=TensorSpec(shape=(), dtype=tf.int32, name=None))"), repr(ds.element_spec)
    got = [int(v.numpy()) for v in D.from_tensor_slices(P([1, 2], [3, 4])).map(lambda p: p.a + p.b)]
    assert got == [4, 6], f"namedtuples are passed whole to map (not unpacked): got {got}"


def test_values_and_numpy_types() -> None:
    assert vals(D.range(2, 10, 3)) == [2, 5, 8], vals(D.range(2, 10, 3))
    assert vals(D.range(10, 2, -3)) == [10, 7, 4], vals(D.range(10, 2, -3))
    first = next(D.range(3).as_numpy_iterator())
    assert type(first) is np.int64, f"as_numpy_iterator scalar type {type(first)}, TF gives numpy.int64"
    d = list(D.from_tensor_slices({"b": [1, 2], "a": [3., 4.]}).as_numpy_iterator())
    assert d == [{"b": 1, "a": 3.0}, {"b": 2, "a": 4.0}] and list(d[0]) == ["b", "a"], d
    assert type(d[0]["b"]) is np.int32 and type(d[0]["a"]) is np.float32, d
    assert list(D.from_tensor_slices(["a", "bc"]).as_numpy_iterator()) == [b"a", b"bc"]
    t = next(iter(D.range(3)))
    assert repr(t) == "<tf.Tensor: shape=(), dtype=int64, numpy=0>", repr(t)
    assert t.device == "/job:localhost/replica:0/task:0/device:CPU:0", t.device


def test_repr_names_like_tf() -> None:
    assert repr(D.range(3)) == "<_RangeDataset element_spec=TensorSpec(shape=(), dtype=tf.int64, name=None)>"
    assert repr(D.range(3).take(2)).startswith("<_TakeDataset element_spec=")
    assert repr(D.range(3).shuffle(3)).startswith("<_ShuffleDataset element_spec=")
    assert repr(D.range(3).enumerate()).startswith("<_ZipDataset element_spec=(TensorSpec(shape=(), dtype=tf.int64")


# --- source errors -------------------------------------------------------------------------------------
@pytest.mark.parametrize("make,exc,msg", [
    (lambda: D.from_tensor_slices(([1, 2], [1, 2, 3])), ValueError, "Dimensions 2 and 3 are not compatible"),
    (lambda: D.from_tensor_slices(5), ValueError, "Unbatching a tensor is only supported for rank >= 1"),
    (lambda: D.from_tensor_slices(((1, 2), ([3, 4], [5, 6]))), ValueError,
     "Unbatching a tensor is only supported for rank >= 1"),
    (lambda: D.from_tensor_slices([[1, 2], [3]]), ValueError, "Can't convert non-rectangular Python sequence to Tensor."),
    (lambda: D.range(0, 10, 0), errors.InvalidArgumentError, "step must be a non-zero integer."),
    (lambda: D.range(2.5), TypeError, "Cannot convert 2.5 to EagerTensor of dtype int64"),
    (lambda: D.range(3).batch(0), errors.InvalidArgumentError, "Batch size must be greater than zero."),
    (lambda: D.range(3).batch(-1), errors.InvalidArgumentError, "Batch size must be greater than zero."),
    (lambda: D.range(3).unbatch(), ValueError, "Cannot unbatch an input with scalar components."),
    (lambda: D.range(3).shard(0, 0), errors.InvalidArgumentError,
     "Number of shards must be greater than zero (currently num_shards = 0)."),
    (lambda: D.range(3).shard(2, 2), errors.InvalidArgumentError, "Index must be between 0 and 1 (currently index = 2)."),
    (lambda: D.range(10).shuffle(0), errors.InvalidArgumentError,
     "buffer_size must be greater than zero or UNKNOWN_CARDINALITY"),
    (lambda: D.range(10).prefetch(-2), errors.InvalidArgumentError,
     "buffer_size must be >= 0 or set buffer_size to be -1 for auto-tuning"),
    (lambda: D.range(10).filter(lambda x: x), ValueError,
     "Invalid `predicate`. `predicate` must return a `tf.bool` scalar tensor, but its return type is "
     "TensorSpec(shape=(), dtype=tf.int64, name=None)."),
    (lambda: D.range(10).batch(2).filter(lambda x: x > 1), ValueError,
     "Invalid `predicate`. `predicate` must return a `tf.bool` scalar tensor, but its return type is "
     "TensorSpec(shape=(None,), dtype=tf.bool, name=None)."),
    (lambda: D.zip([D.range(2), D.range(2)]), TypeError,
     "Invalid input to `zip`. Inputs are expected to be (nested) structures of `tf.data.Dataset` objects. "
     "Python `list` is not supported and you should use `tuple` instead."),
    (lambda: D.zip((D.range(2), 3)), TypeError,
     "Invalid input to `zip`. Inputs are expected to be (nested) structures of `tf.data.Dataset` objects but "
     "encountered object of type <class 'int'>."),
    (lambda: D.range(3).concatenate(D.from_tensor_slices([1.0])), TypeError,
     "Incompatible dataset elements:\n  TensorSpec(shape=(), dtype=tf.int64, name=None) vs.   "
     "TensorSpec(shape=(), dtype=tf.float32, name=None)"),
    (lambda: D.from_generator(lambda: iter([1])), TypeError,
     "To specify the output signature you need to provide either the `output_signature` argument or the "
     "`output_types` argument."),
    (lambda: D.range(3).rebatch(2), ValueError,
     "Invalid `batch_sizes`. Expected dataset with rank of >= 1 but found a dataset with scalar elements. Fix "
     "the issue by adding the `batch` transformation to the dataset."),
])
def test_construction_errors_like_tf(make, exc: type, msg: str) -> None:
    with pytest.raises(exc) as e:
        make()
    assert str(e.value) == msg, f"{exc.__name__} message {str(e.value)!r}, but TF 2.21 says {msg!r}"


@pytest.mark.parametrize("make,exc,msg", [
    (lambda: D.from_generator(lambda: iter([[1, 2, 3], [1, 2]]), output_signature=TensorSpec([None], "int32")).batch(2),
     errors.InvalidArgumentError, "Cannot batch tensors with different shapes in component 0. First element had "
     "shape [3] and element 1 had shape [2]."),
    (lambda: D.range(10).shard(data.experimental.SHARD_HINT, 0), errors.FailedPreconditionError,
     "`tf.data.Dataset.shard(SHARD_HINT, ...)` can only be used in "
     "`tf.distribute.Strategy.experimental_distribute_dataset()` with `tf.data.experimental.AutoShardPolicy.HINT` "
     "policy, or tf.data service with `tf.data.experimental.service.ShardingPolicy.HINT` processing mode."),
    (lambda: D.from_generator(lambda: iter([[1, 2, 3]]), output_signature=TensorSpec([2], "int32")),
     errors.InvalidArgumentError,
     "TypeError: `generator` yielded an element of shape (3,) where an element of shape (2,) was expected."),
])
def test_iteration_errors_like_tf(make, exc: type, msg: str) -> None:
    ds = make()
    with pytest.raises(exc) as e:
        list(ds)
    assert str(e.value) == msg, f"{exc.__name__} message {str(e.value)!r}, but TF 2.21 says {msg!r}"


# --- cardinality ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("make,expected", [
    (lambda: D.range(10, 2, -3), 3),
    (lambda: D.from_tensors(([1, 2], 3.0)), 1),
    (lambda: D.range(10).batch(3), 4),
    (lambda: D.range(10).batch(3, drop_remainder=True), 3),
    (lambda: D.range(10).batch(2).unbatch(), -2),
    (lambda: D.range(10).batch(2, drop_remainder=True).unbatch(), 10),
    (lambda: D.from_tensor_slices(np.zeros((3, 4))).unbatch(), 12),
    (lambda: D.range(10).batch(2).repeat().unbatch(), -1),
    (lambda: D.range(3).repeat(), -1),
    (lambda: D.range(3).repeat(2), 6),
    (lambda: D.range(0).repeat(), 0),
    (lambda: D.range(3).repeat(0), 0),
    (lambda: D.range(10).filter(lambda x: True).repeat(), -1),
    (lambda: D.range(10).filter(lambda x: True).repeat(2), -2),
    (lambda: D.range(10).take(3), 3),
    (lambda: D.range(10).take(-1), 10),
    (lambda: D.range(10).take(20), 10),
    (lambda: D.range(3).repeat().take(5), 5),
    (lambda: D.range(10).filter(lambda x: True).take(3), -2),
    (lambda: D.range(10).take(-5), -5),
    (lambda: D.range(10).skip(3), 7),
    (lambda: D.range(10).skip(-1), 0),
    (lambda: D.range(10).skip(20), 0),
    (lambda: D.range(3).repeat().skip(5), -1),
    (lambda: D.range(10).filter(lambda x: x > 3), -2),
    (lambda: D.range(10).map(lambda x: x), 10),
    (lambda: D.zip(D.range(3), D.range(5)), 3),
    (lambda: D.zip(D.range(3).repeat(), D.range(5).repeat()), -1),
    (lambda: D.zip(D.range(3).repeat(), D.range(5)), 5),
    (lambda: D.zip(D.range(3).filter(lambda x: True), D.range(5)), -2),
    (lambda: D.range(10).shuffle(3), 10),
    (lambda: D.range(3).concatenate(D.range(4)), 7),
    (lambda: D.from_generator(lambda: iter([1, 2]), output_types="int64"), -2),
    (lambda: D.range(10).batch(4).rebatch([2, 2]), -2),
    (lambda: D.range(3).cache(), 3),
])
def test_cardinality_like_tf(make, expected: int) -> None:
    got = card(make())
    assert got == expected, f"cardinality = {got}, but TF 2.21 gives {expected}"


@pytest.mark.parametrize("n,b,shard,batched,batched_drop", [
    (8, 3, -8, -1, -2), (9, 2, -9, -3, -4), (9, 4, -9, -1, -2), (10, 4, -10, -1, -2), (0, 3, 0, 0, 0),
])
def test_shard_hint_cardinality_quirk_like_tf(n: int, b: int, shard: int, batched: int, batched_drop: int) -> None:
    """TF 2.21 computes shard(SHARD_HINT) cardinality with C++ arithmetic: -n, and batch() of that can be -1."""
    ds = D.range(n).shard(data.experimental.SHARD_HINT, 0)
    got = (card(ds), card(ds.batch(b)), card(ds.batch(b, drop_remainder=True)))
    assert got == (shard, batched, batched_drop), f"cardinalities {got}, TF 2.21 gives {(shard, batched, batched_drop)}"


def test_shard_hint_fails_when_the_iterator_is_created() -> None:
    ds = D.range(4).shard(data.experimental.SHARD_HINT, 0).map(lambda x: x)
    with pytest.raises(errors.FailedPreconditionError):
        iter(ds)


def test_shard_cardinality_and_values() -> None:
    got = [card(D.range(10).shard(3, i)) for i in range(3)]
    assert got == [4, 3, 3], f"shard cardinalities {got}, TF gives [4, 3, 3]"
    assert vals(D.range(10).shard(3, 1)) == [1, 4, 7], vals(D.range(10).shard(3, 1))


def test_len_like_tf() -> None:
    assert len(D.range(5)) == 5
    with pytest.raises(TypeError, match="^The dataset is infinite.$"):
        len(D.range(5).repeat())
    with pytest.raises(TypeError, match="^The dataset length is unknown.$"):
        len(D.range(5).filter(lambda x: True))


def test_constants() -> None:
    got = (data.INFINITE_CARDINALITY, data.UNKNOWN_CARDINALITY, data.AUTOTUNE, data.experimental.SHARD_HINT)
    assert got == (-1, -2, -1, -1), got
    assert int(data.experimental.cardinality(D.range(5)).numpy()) == 5


# --- transformations --------------------------------------------------------------------------------------
def test_batch_specs_and_values() -> None:
    assert spec_repr(D.range(3).batch(2, drop_remainder=True)) == "TensorSpec(shape=(2,), dtype=tf.int64, name=None)"
    assert spec_repr(D.range(10).batch(3, True).batch(2)) == "TensorSpec(shape=(None, 3), dtype=tf.int64, name=None)"
    assert vals(D.range(5).batch(2)) == [[0, 1], [2, 3], [4]]
    assert vals(D.range(5).batch(2, drop_remainder=True)) == [[0, 1], [2, 3]]
    assert vals(D.range(5).batch(2).unbatch()) == [0, 1, 2, 3, 4]
    assert spec_repr(D.range(10).batch(2).unbatch()) == "TensorSpec(shape=(), dtype=tf.int64, name=None)"


def test_map_specs_like_tf() -> None:
    cases = [
        (D.range(3).map(lambda x: [x, x]),
         "(TensorSpec(shape=(), dtype=tf.int64, name=None), TensorSpec(shape=(), dtype=tf.int64, name=None))"),
        (D.range(3).map(lambda x: 1.5), "TensorSpec(shape=(), dtype=tf.float32, name=None)"),
        (D.range(3).map(lambda x: np.float64(2.0)), "TensorSpec(shape=(), dtype=tf.float64, name=None)"),
        (D.range(3).map(lambda x: "s"), "TensorSpec(shape=(), dtype=tf.string, name=None)"),
        (D.from_tensor_slices(([1, 2], [3, 4])).map(lambda a, b: a + b),
         "TensorSpec(shape=(), dtype=tf.int32, name=None)"),
        (D.from_tensor_slices({"a": [1, 2]}).map(lambda d: d["a"] * 2), "TensorSpec(shape=(), dtype=tf.int32, name=None)"),
        (D.range(3).map(lambda x: {"z": x, "a": x * 2}),
         "{'z': TensorSpec(shape=(), dtype=tf.int64, name=None), 'a': TensorSpec(shape=(), dtype=tf.int64, name=None)}"),
        (D.range(3).map(lambda x: (x, (x, x))),
         "(TensorSpec(shape=(), dtype=tf.int64, name=None), (TensorSpec(shape=(), dtype=tf.int64, name=None), "
         "TensorSpec(shape=(), dtype=tf.int64, name=None)))"),
        (D.range(10).batch(3).map(lambda x: x * 2), "TensorSpec(shape=(None,), dtype=tf.int64, name=None)"),
    ]
    for ds, expected in cases:
        assert spec_repr(ds) == expected, f"map element_spec = {spec_repr(ds)}, but TF 2.21 gives {expected}"


def test_map_wrong_arity_is_type_error() -> None:
    with pytest.raises(TypeError, match="takes 1 positional argument but 2 were given"):
        D.from_tensor_slices(([1, 2], [3, 4])).map(lambda a: a)


def test_filter_map_values() -> None:
    got = vals(D.range(10).filter(lambda x: x % 2 == 0).map(lambda x: x * 10))
    assert got == [0, 20, 40, 60, 80], got


def test_take_skip_repeat_values() -> None:
    assert vals(D.range(5).take(-5)) == [0, 1, 2, 3, 4]
    assert vals(D.range(3).repeat(-2).take(7)) == [0, 1, 2, 0, 1, 2, 0]
    assert vals(D.range(5).skip(2)) == [2, 3, 4]
    assert vals(D.range(5).skip(-1)) == []
    assert vals(D.range(3).repeat(2)) == [0, 1, 2, 0, 1, 2]
    assert vals(D.range(0).repeat()) == [], "repeating an empty dataset forever ends at once"


def test_enumerate_zip_concatenate() -> None:
    assert list(D.range(3).enumerate(5).as_numpy_iterator()) == [(5, 0), (6, 1), (7, 2)]
    z = D.zip({"a": D.range(3), "b": D.range(5)})
    assert spec_repr(z) == ("{'a': TensorSpec(shape=(), dtype=tf.int64, name=None), "
                            "'b': TensorSpec(shape=(), dtype=tf.int64, name=None)}"), spec_repr(z)
    assert list(D.zip(D.range(2), D.range(5).map(lambda x: x * 3)).as_numpy_iterator()) == [(0, 0), (1, 3)]
    c = D.range(3).batch(2, True).concatenate(D.range(3).batch(3, True))
    assert spec_repr(c) == "TensorSpec(shape=(None,), dtype=tf.int64, name=None)", spec_repr(c)
    assert vals(c) == [[0, 1], [0, 1, 2]], vals(c)


def test_rebatch_public_like_tf() -> None:
    assert vals(D.range(7).batch(4).rebatch(3)) == [[0, 1, 2], [3, 4, 5], [6]]
    assert vals(D.range(7).batch(4).rebatch(3, drop_remainder=True)) == [[0, 1, 2], [3, 4, 5]]
    assert vals(D.range(3).batch(2).rebatch([1, 0])) == [[0], [], [1], [], [2], []]
    specs = [spec_repr(d) for d in (D.range(8).batch(4, True).rebatch(2), D.range(8).batch(4).rebatch(2),
                                    D.range(8).batch(4).rebatch([2, 1, 1]), D.range(8).batch(4, True).rebatch(3),
                                    D.range(8).batch(4, True).rebatch(3, drop_remainder=True))]
    shapes = [s.split("shape=")[1].split(",", 1)[0] + ")" if "(None" not in s else "(None,)" for s in specs]
    assert specs == [f"TensorSpec(shape={x}, dtype=tf.int64, name=None)" for x in ("(2,)", "(None,)", "(None,)", "(None,)", "(3,)")], shapes


def test_generator_values_and_specs() -> None:
    g = D.from_generator(lambda: iter([(1, 2.0)]), output_signature=(TensorSpec([], "int32"), TensorSpec([], "float32")))
    got = [(a.dtype.name, float(a.numpy()), b.dtype.name, float(b.numpy())) for a, b in g]
    assert got == [("int32", 1.0, "float32", 2.0)], got
    g2 = D.from_generator(lambda: iter([(1, [2.0])]), output_types=("int32", "float32"), output_shapes=((), (None,)))
    assert spec_repr(g2) == ("(TensorSpec(shape=(), dtype=tf.int32, name=None), "
                             "TensorSpec(shape=(None,), dtype=tf.float32, name=None))"), spec_repr(g2)
    g3 = D.from_generator(lambda: iter([1, 2]), output_types="int64")
    assert spec_repr(g3) == "TensorSpec(shape=<unknown>, dtype=tf.int64, name=None)", spec_repr(g3)
    assert vals(g3) == [1, 2] and vals(g3) == [1, 2], "a generator dataset can be iterated again"


def test_padded_batch_like_tf() -> None:
    from simdist.runtime import ops
    g = D.range(1, 5).map(lambda x: ops.fill([x], x))
    assert spec_repr(g) == "TensorSpec(shape=(None,), dtype=tf.int64, name=None)", "value-dependent shape is unknown"
    assert spec_repr(g.padded_batch(2)) == "TensorSpec(shape=(None, None), dtype=tf.int64, name=None)"
    assert vals(g.padded_batch(2)) == [[[1, 0], [2, 2]], [[3, 3, 3, 0], [4, 4, 4, 4]]], vals(g.padded_batch(2))
    assert vals(g.padded_batch(2, padded_shapes=[5]))[0] == [[1, 0, 0, 0, 0], [2, 2, 0, 0, 0]]
    assert spec_repr(g.padded_batch(2, padded_shapes=[5], drop_remainder=True)) == \
        "TensorSpec(shape=(2, 5), dtype=tf.int64, name=None)"
    assert vals(g.padded_batch(2, padding_values=np.int64(-1)))[0] == [[1, -1], [2, 2]]
    assert card(g.padded_batch(3)) == 2
    with pytest.raises(errors.DataLossError, match="^Attempted to pad to a smaller size than the input element.$"):
        list(g.padded_batch(2, padded_shapes=[2]))
    with pytest.raises(ValueError) as e:
        g.padded_batch(2, padded_shapes=[2, 2])
    assert str(e.value) == ("The padded shape (2, 2) is not compatible with the shape (None,) of the corresponding "
                            "input component."), str(e.value)


def test_reduce_like_tf() -> None:
    a, b = D.range(5).reduce((np.int64(0), np.int64(1)), lambda s, x: (s[0] + x, s[1] * (x + 1)))
    assert (int(a.numpy()), int(b.numpy())) == (10, 120), (a, b)


def test_iterators_end_like_tf() -> None:
    it = iter(D.range(1))
    assert int(next(it).numpy()) == 0
    with pytest.raises(StopIteration):
        next(it)
    it = iter(D.range(1))
    it.get_next()
    with pytest.raises(errors.OutOfRangeError, match="^End of sequence$"):
        it.get_next()
    it = iter(D.range(1))
    assert bool(it.get_next_as_optional().has_value().numpy()) is True
    opt = it.get_next_as_optional()
    assert bool(opt.has_value().numpy()) is False
    with pytest.raises(errors.InvalidArgumentError, match="^The given optional does not have a value.$"):
        opt.get_value()
    assert repr(iter(D.range(1)).element_spec) == "TensorSpec(shape=(), dtype=tf.int64, name=None)"


# --- shuffle: deterministic ----------------------------------------------------------------------------
def test_shuffle_is_a_deterministic_permutation() -> None:
    a = vals(D.range(50).shuffle(10, seed=7))
    b = vals(D.range(50).shuffle(10, seed=7))
    assert a == b, "the same seed must give the same order"
    assert sorted(a) == list(range(50)), "shuffle must be a permutation"
    assert a != list(range(50)), "a 10-element buffer over 50 elements should move something"
    unseeded_1 = vals(D.range(50).shuffle(50))
    unseeded_2 = vals(D.range(50).shuffle(50))
    assert unseeded_1 == unseeded_2, "unseeded shuffle is deterministic in simdist (fixed name-derived root)"


def test_shuffle_reshuffles_each_iteration_unless_told_not_to() -> None:
    ds = D.range(30).shuffle(30, seed=1)
    first, second = vals(ds), vals(ds)
    assert sorted(first) == sorted(second) == list(range(30))
    assert first != second, "reshuffle_each_iteration defaults to True: a second pass gets a new order"
    fixed = D.range(30).shuffle(30, seed=1, reshuffle_each_iteration=False)
    assert vals(fixed) == vals(fixed), "reshuffle_each_iteration=False keeps the order"
    rep = vals(D.range(10).shuffle(10, seed=3).repeat(2))
    assert sorted(rep[:10]) == sorted(rep[10:]) == list(range(10)) and rep[:10] != rep[10:], rep


def test_shuffle_buffer_of_one_is_identity() -> None:
    assert vals(D.range(6).shuffle(1, seed=4)) == [0, 1, 2, 3, 4, 5]


# --- options --------------------------------------------------------------------------------------------
def test_options_like_tf() -> None:
    o = data.Options()
    P = data.experimental.AutoShardPolicy
    assert o.experimental_distribute.auto_shard_policy is P.AUTO
    assert [(p.name, int(p)) for p in P] == [("OFF", -1), ("AUTO", 0), ("FILE", 1), ("DATA", 2), ("HINT", 3)]
    assert repr(P.OFF) == "<AutoShardPolicy.OFF: -1>"
    with pytest.raises(AttributeError, match="^Cannot set the property foo on Options.$"):
        o.foo = 1
    with pytest.raises(TypeError) as e:
        o.experimental_distribute.auto_shard_policy = 1
    assert str(e.value) == ('Property "auto_shard_policy" must be of type <enum \'AutoShardPolicy\'>, got: 1 '
                            "(type: <class 'int'>)"), str(e.value)
    assert data.Options() == data.Options()
    assert isinstance(data.experimental.DistributeOptions(), data.experimental.DistributeOptions)


def test_options_propagate_and_merge() -> None:
    P = data.experimental.AutoShardPolicy
    o1 = data.Options()
    o1.experimental_distribute.auto_shard_policy = P.OFF
    o2 = data.Options()
    o2.deterministic = False
    ds = D.range(3).with_options(o1).with_options(o2)
    assert ds.options().experimental_distribute.auto_shard_policy is P.OFF and ds.options().deterministic is False
    later = data.Options()
    later.experimental_distribute.auto_shard_policy = P.DATA
    assert D.range(3).with_options(o1).with_options(later).options().experimental_distribute.auto_shard_policy is P.DATA
    down = D.range(3).with_options(o1).map(lambda x: x).batch(2)
    assert down.options().experimental_distribute.auto_shard_policy is P.OFF, "options propagate downstream"
    assert o1.experimental_distribute.auto_shard_policy is P.OFF, "with_options must not mutate its argument"


def test_prefetch_reads_ahead_deterministically() -> None:
    produced = []

    def gen():
        for i in range(20):
            produced.append(i)
            yield i

    it = iter(D.from_generator(gen, output_types="int64").prefetch(3))
    first = next(it)
    assert int(first.numpy()) == 0 and produced == [0, 1, 2, 3], f"after one element the source gave {produced}"
    assert [int(next(it).numpy()) for _ in range(2)] == [1, 2] and len(produced) == 6, produced
    produced.clear()
    it = iter(D.from_generator(gen, output_types="int64").prefetch(0))
    next(it)
    assert produced == [0], f"prefetch(0) reads nothing ahead, got {produced}"


# --- pipeline introspection ----------------------------------------------------------------------------
def test_nodes_keep_kind_params_inputs() -> None:
    src = D.range(10)
    ds = src.batch(4, drop_remainder=True).prefetch(2)
    assert ds.kind == "PrefetchDataset" and ds.params["buffer_size"] == 2, (ds.kind, dict(ds.params))
    b = ds.inputs[0]
    assert b.kind == "BatchDatasetV2" and dict(b.params)["batch_size"] == 4 and b.params["drop_remainder"] is True
    assert b.inputs[0] is src and src.kind == "RangeDataset" and src.inputs == ()
    with pytest.raises(TypeError):
        ds.params["buffer_size"] = 3  # read-only view


@pytest.mark.parametrize("calls", [0, -2, -3, "tensor0"])
def test_batch_parallel_calls_that_never_answer_on_tf_refuse_the_first_element(calls: object) -> None:
    """batch(num_parallel_calls=0 / below -1): TF 2.21 builds it (spec [None], cardinality 3 of 7 rows) and then
    hangs (0) or aborts (-2, -3) at the first get_next; simdist builds it alike and refuses the first element with
    InvalidArgumentError (dsweep65; docs/spec.md dataset.api-surface)."""
    n = Tensor(np.asarray(0, np.int64), dtypes.int64) if calls == "tensor0" else calls
    ds = data.Dataset.range(7).batch(3, num_parallel_calls=n)
    assert ds.element_spec.shape.as_list() == [None] and int(ds.cardinality()) == 3
    with pytest.raises(errors.InvalidArgumentError, match="num_parallel_calls"):
        next(iter(ds))
    assert [e.numpy().tolist() for e in data.Dataset.range(7).batch(3, num_parallel_calls=2)] == [[0, 1, 2], [3, 4, 5],
                                                                                                  [6]]


def test_rebatch_of_a_negative_size_refuses_the_first_element() -> None:
    """rebatch(-1): TF 2.21 builds it and its iteration ends the process (SIGSEGV); simdist refuses the first element
    (dsweep65)."""
    ds = data.Dataset.range(7).batch(4).rebatch(-1)
    assert int(ds.cardinality()) == -2
    with pytest.raises(errors.InvalidArgumentError, match="batch sizes"):
        next(iter(ds))
