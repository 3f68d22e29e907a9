"""tsweep56's pipelines: every tf.data.Dataset constructor and transformation, each with its options off their
defaults, as named builders `fn(tf) -> Dataset` (test_tsweep56.py observes and records them).

A case is (name, builder, epochs): `epochs` passes over the same dataset object (cache, reshuffle_each_iteration,
an iterator's later epochs). Inputs: small integer ranges and np.random.RandomState arithmetic (rng(name))."""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from simdist.conformance.suite.recorded_programs import rng

Builder = Callable[[Any], Any]
CASES: list[tuple[str, Builder, int]] = []


def case(name: str, epochs: int = 1) -> Callable[[Builder], Builder]:
    def deco(fn: Builder) -> Builder:
        CASES.append((name, fn, epochs))
        return fn
    return deco


def f32(name: str, *shape: int) -> np.ndarray:
    r = rng(name)
    return (r.randint(-900, 900, size=shape) / 37.0).astype("float32")


def _fl(tf: Any, n: int = 10) -> Any:
    """range(n) as float32 values that are not small integers."""
    return tf.data.Dataset.range(n).map(lambda i: tf.cast(i, tf.float32) * 0.37 - 1.1)


# -- constructors --------------------------------------------------------------------------------------------------
case("slices-vector")(lambda tf: tf.data.Dataset.from_tensor_slices(f32("sv", 7)))
case("slices-tuple")(lambda tf: tf.data.Dataset.from_tensor_slices((f32("st", 5, 3), np.arange(5, dtype="int64") * 3)))
case("slices-dict")(lambda tf: tf.data.Dataset.from_tensor_slices(
    {"b": np.arange(4, dtype="int32") - 2, "a": f32("sd", 4, 2).astype("float64")}))
case("slices-nested")(lambda tf: tf.data.Dataset.from_tensor_slices(
    ((f32("sn", 3), np.array([True, False, True])), {"k": np.arange(6, dtype="int16").reshape(3, 2)})))
case("slices-scalar-error")(lambda tf: tf.data.Dataset.from_tensor_slices(np.float32(2.5)))
case("slices-mismatch-error")(lambda tf: tf.data.Dataset.from_tensor_slices((np.arange(3), np.arange(4))))
case("slices-mismatch-shorter-error")(lambda tf: tf.data.Dataset.from_tensor_slices((np.arange(4), np.arange(3))))
case("tensors")(lambda tf: tf.data.Dataset.from_tensors((f32("te", 2, 3), np.int32(5))))
case("tensors-ragged")(lambda tf: tf.data.Dataset.from_tensors(tf.ragged.constant([[1, 2], [], [3]])))
case("range-step")(lambda tf: tf.data.Dataset.range(3, 17, 4))
case("range-negative")(lambda tf: tf.data.Dataset.range(10, 0, -3))
case("range-empty")(lambda tf: tf.data.Dataset.range(0))
case("range-int32")(lambda tf: tf.data.Dataset.range(5, output_type=tf.int32))
case("range-zero-step-error")(lambda tf: tf.data.Dataset.range(0, 5, 0))


def _gen() -> Any:
    for i in range(5):
        yield np.arange(i, dtype="float32") * 0.5 - 0.75, np.int32(i * i)


case("generator")(lambda tf: tf.data.Dataset.from_generator(_gen, output_signature=(
    tf.TensorSpec((None,), tf.float32), tf.TensorSpec((), tf.int32))))
case("generator-shape-error")(lambda tf: tf.data.Dataset.from_generator(_gen, output_signature=(
    tf.TensorSpec((2,), tf.float32), tf.TensorSpec((), tf.int32))))
case("zip")(lambda tf: tf.data.Dataset.zip(tf.data.Dataset.range(5), tf.data.Dataset.from_tensor_slices(f32("zi", 7))))
case("zip-nested")(lambda tf: tf.data.Dataset.zip(((tf.data.Dataset.range(4), _fl(tf, 6)),
                                                   {"c": tf.data.Dataset.range(10, 13)})))
case("concatenate")(lambda tf: tf.data.Dataset.range(3).concatenate(tf.data.Dataset.range(10, 12)))
case("concatenate-shapes")(lambda tf: tf.data.Dataset.from_tensors([1.5, 2.0]).concatenate(
    tf.data.Dataset.from_tensors([3.0, 4.0, 5.25])))
case("concatenate-dtype-error")(lambda tf: tf.data.Dataset.range(3).concatenate(_fl(tf, 2)))
case("choose")(lambda tf: tf.data.Dataset.choose_from_datasets(
    [tf.data.Dataset.range(0, 5), tf.data.Dataset.range(100, 103)],
    tf.data.Dataset.from_tensor_slices(np.array([0, 1, 1, 0, 1, 1, 0, 0, 0], "int64"))))
case("choose-no-stop")(lambda tf: tf.data.Dataset.choose_from_datasets(
    [tf.data.Dataset.range(0, 5), tf.data.Dataset.range(100, 103)],
    tf.data.Dataset.from_tensor_slices(np.array([0, 1, 1, 0, 1, 1, 0, 0, 0], "int64")), stop_on_empty_dataset=False))
case("choose-bad-index")(lambda tf: tf.data.Dataset.choose_from_datasets(
    [tf.data.Dataset.range(0, 5), tf.data.Dataset.range(100, 103)],
    tf.data.Dataset.from_tensor_slices(np.array([0, 2, 1], "int64"))))
case("sample")(lambda tf: tf.data.Dataset.sample_from_datasets(
    [tf.data.Dataset.range(0, 6), tf.data.Dataset.range(100, 110)], weights=[0.3, 0.7], seed=7))
case("sample-stop")(lambda tf: tf.data.Dataset.sample_from_datasets(
    [tf.data.Dataset.range(0, 3), tf.data.Dataset.range(100, 110)], seed=11, stop_on_empty_dataset=True))
case("counter")(lambda tf: tf.data.Dataset.counter(start=3, step=2).take(5))
case("counter-int32")(lambda tf: tf.data.Dataset.counter(-4, -3, dtype=tf.int32).take(4))

# -- element-wise transformations ----------------------------------------------------------------------------------
case("map")(lambda tf: _fl(tf, 7).map(lambda x: (x * 1.7 + 0.3, tf.cast(x > 0.0, tf.int32))))
case("map-parallel")(lambda tf: tf.data.Dataset.range(9).map(
    lambda i: tf.cast(i * i, tf.float32) / 7.0, num_parallel_calls=3, deterministic=True))
case("map-autotune")(lambda tf: tf.data.Dataset.from_tensor_slices(f32("ma", 6, 2)).map(
    lambda x: tf.reduce_sum(x * x), num_parallel_calls=tf.data.AUTOTUNE))
case("map-dict")(lambda tf: tf.data.Dataset.from_tensor_slices({"a": np.arange(4), "b": f32("md", 4)}).map(
    lambda d: d["b"] * tf.cast(d["a"], tf.float32)))
case("map-unpack")(lambda tf: tf.data.Dataset.from_tensor_slices((np.arange(4), f32("mu", 4))).map(
    lambda a, b: tf.cast(a, tf.float32) - b))
case("map-error")(lambda tf: _fl(tf, 6).map(lambda x: tf.debugging.check_numerics(1.0 / (x + 0.73), "m")))
case("map-gather-error")(lambda tf: tf.data.Dataset.range(5).map(lambda i: tf.gather([1, 2, 3], i)))
case("map-rewritable")(lambda tf: _fl(tf, 6).map(lambda x: (x / 7.0, tf.pow(x, 2.0) * 0.1 + x / 3.0)))
case("filter")(lambda tf: tf.data.Dataset.range(20).filter(lambda x: x % 3 == 0))
case("filter-float")(lambda tf: _fl(tf, 12).filter(lambda x: x * x < 1.0))
case("flat_map")(lambda tf: tf.data.Dataset.range(5).flat_map(lambda x: tf.data.Dataset.range(x)))
case("interleave-c2b2")(lambda tf: tf.data.Dataset.range(1, 5).interleave(
    lambda x: tf.data.Dataset.from_tensors(x).repeat(x), cycle_length=2, block_length=2))
case("interleave-c3b1")(lambda tf: tf.data.Dataset.range(1, 6).interleave(
    lambda x: tf.data.Dataset.range(10 * x, 10 * x + x), cycle_length=3, block_length=1))
case("interleave-parallel")(lambda tf: tf.data.Dataset.range(1, 5).interleave(
    lambda x: tf.data.Dataset.range(x).map(lambda y: y * 100 + x), cycle_length=2, block_length=3,
    num_parallel_calls=2, deterministic=True))
case("scan")(lambda tf: tf.data.Dataset.range(7).scan(tf.constant(1, tf.int64), lambda s, x: (s + x, s * x)))
case("scan-float")(lambda tf: _fl(tf, 6).scan(tf.constant(0.1), lambda s, x: (s * 0.9 + x, s - x)))
case("enumerate")(lambda tf: tf.data.Dataset.from_tensor_slices(f32("en", 4)).enumerate(start=3))
case("unique")(lambda tf: tf.data.Dataset.from_tensor_slices(np.array([3, 1, 3, 2, 1, 5, 2], "int32")).unique())
case("apply")(lambda tf: tf.data.Dataset.range(6).apply(lambda d: d.map(lambda x: x * 2).skip(1)))

# -- batching ------------------------------------------------------------------------------------------------------
case("batch")(lambda tf: tf.data.Dataset.range(10).batch(3))
case("batch-drop")(lambda tf: tf.data.Dataset.range(10).batch(3, drop_remainder=True))
case("batch-parallel")(lambda tf: _fl(tf, 11).batch(4, num_parallel_calls=2, deterministic=True))
case("batch-tuple")(lambda tf: tf.data.Dataset.from_tensor_slices((f32("bt", 5, 2), np.arange(5))).batch(2))
case("batch-zero-error")(lambda tf: tf.data.Dataset.range(4).batch(0))
case("batch-shape-error")(lambda tf: tf.data.Dataset.range(1, 4).map(lambda x: tf.range(x)).batch(2))
case("padded_batch")(lambda tf: tf.data.Dataset.range(1, 6).map(lambda x: tf.fill([x], x)).padded_batch(2))
case("padded_batch-shapes")(lambda tf: tf.data.Dataset.range(1, 6).map(
    lambda x: (tf.fill([x], tf.cast(x, tf.float32) * 0.5), x)).padded_batch(
        2, padded_shapes=([6], []), padding_values=(-1.25, tf.constant(-7, tf.int64)), drop_remainder=True))
case("padded_batch-2d")(lambda tf: tf.data.Dataset.range(1, 5).map(
    lambda x: tf.ones([x, 4 - x], tf.int32) * tf.cast(x, tf.int32)).padded_batch(3, padded_shapes=[None, 4]))
case("padded_batch-small-error")(lambda tf: tf.data.Dataset.range(1, 6).map(
    lambda x: tf.fill([x], x)).padded_batch(2, padded_shapes=[3]))
case("unbatch")(lambda tf: tf.data.Dataset.from_tensor_slices(f32("ub", 6, 2)).batch(4).unbatch())
case("unbatch-tuple")(lambda tf: tf.data.Dataset.from_tensors((np.arange(6).reshape(3, 2), f32("ut", 3))).unbatch())
case("rebatch")(lambda tf: tf.data.Dataset.range(10).batch(4).rebatch(3))
case("rebatch-list")(lambda tf: tf.data.Dataset.range(11).batch(4).rebatch([2, 3]))
case("rebatch-drop")(lambda tf: tf.data.Dataset.range(10).batch(4).rebatch(3, drop_remainder=True))
case("ragged_batch")(lambda tf: tf.data.Dataset.range(1, 6).map(lambda x: tf.range(x)).ragged_batch(2))
case("ragged_batch-drop")(lambda tf: tf.data.Dataset.range(0, 5).map(
    lambda x: tf.cast(tf.range(x), tf.float32) * 0.5).ragged_batch(3, drop_remainder=True))
case("window-flat")(lambda tf: tf.data.Dataset.range(7).window(3, shift=2).flat_map(lambda w: w.batch(3)))
case("window-stride")(lambda tf: tf.data.Dataset.range(10).window(3, shift=1, stride=2).flat_map(lambda w: w.batch(3)))
case("window-drop")(lambda tf: tf.data.Dataset.range(8).window(3, shift=3, drop_remainder=True).flat_map(
    lambda w: w.batch(5)))
case("window-tuple")(lambda tf: tf.data.Dataset.from_tensor_slices((np.arange(5), f32("wt", 5))).window(2).flat_map(
    lambda a, b: tf.data.Dataset.zip(a.batch(2), b.batch(2))))
case("group_by_window")(lambda tf: tf.data.Dataset.range(20).group_by_window(
    key_func=lambda x: x % 3, reduce_func=lambda k, w: w.batch(4), window_size=4))
case("group_by_window-size-fn")(lambda tf: tf.data.Dataset.range(15).group_by_window(
    key_func=lambda x: x % 2, reduce_func=lambda k, w: w.batch(5).map(lambda b: b + 100 * k),
    window_size_func=lambda k: k + 2))


def _seqs(tf: Any) -> Any:
    return tf.data.Dataset.from_tensor_slices(np.array([1, 4, 2, 6, 3, 5, 2, 7], "int64")).map(
        lambda n: tf.range(n) + n)


case("bucket")(lambda tf: _seqs(tf).bucket_by_sequence_length(
    lambda x: tf.shape(x)[0], bucket_boundaries=[3, 5], bucket_batch_sizes=[2, 2, 2]))
case("bucket-pad-boundary")(lambda tf: _seqs(tf).bucket_by_sequence_length(
    lambda x: tf.shape(x)[0], bucket_boundaries=[3, 8], bucket_batch_sizes=[3, 2, 1], pad_to_bucket_boundary=True,
    padding_values=tf.constant(-1, tf.int64)))
case("bucket-drop")(lambda tf: _seqs(tf).bucket_by_sequence_length(
    lambda x: tf.shape(x)[0], bucket_boundaries=[4], bucket_batch_sizes=[3, 3], drop_remainder=True))

# -- shuffle, repeat, take, skip, shard, cache, prefetch -----------------------------------------------------------
for _b in (1, 4, 10, 20):
    case(f"shuffle-b{_b}")(lambda tf, b=_b: tf.data.Dataset.range(10).shuffle(b, seed=5))
case("shuffle-reshuffle", epochs=2)(lambda tf: tf.data.Dataset.range(8).shuffle(8, seed=3))
case("shuffle-no-reshuffle", epochs=2)(lambda tf: tf.data.Dataset.range(8).shuffle(
    8, seed=3, reshuffle_each_iteration=False))
case("shuffle-repeat")(lambda tf: tf.data.Dataset.range(6).shuffle(4, seed=9).repeat(3))
case("shuffle-repeat-fixed")(lambda tf: tf.data.Dataset.range(6).shuffle(
    6, seed=9, reshuffle_each_iteration=False).repeat(2))
case("repeat-shuffle")(lambda tf: tf.data.Dataset.range(5).repeat(2).shuffle(3, seed=21))
case("shuffle-floats")(lambda tf: tf.data.Dataset.from_tensor_slices(f32("sf", 9, 2)).shuffle(5, seed=1234))
case("shuffle-zero-error")(lambda tf: tf.data.Dataset.range(5).shuffle(0))
case("repeat-none")(lambda tf: tf.data.Dataset.range(3).repeat().take(8))
case("repeat-zero")(lambda tf: tf.data.Dataset.range(3).repeat(0))
case("repeat-n")(lambda tf: tf.data.Dataset.range(3).repeat(3))
case("repeat-minus-one")(lambda tf: tf.data.Dataset.range(2).repeat(-1).take(5))
case("take-negative")(lambda tf: tf.data.Dataset.range(5).take(-1))
case("take-more")(lambda tf: tf.data.Dataset.range(5).take(20))
case("take-zero")(lambda tf: tf.data.Dataset.range(5).take(0))
case("skip-negative")(lambda tf: tf.data.Dataset.range(5).skip(-1))
case("skip-more")(lambda tf: tf.data.Dataset.range(5).skip(20))
case("skip-take")(lambda tf: tf.data.Dataset.range(9).skip(2).take(4))
case("take_while")(lambda tf: tf.data.Dataset.range(9).take_while(lambda x: x * x < 20))
for _i in (0, 1, 2):
    case(f"shard-3-{_i}")(lambda tf, i=_i: tf.data.Dataset.range(11).shard(3, i))
case("shard-index-error")(lambda tf: tf.data.Dataset.range(11).shard(3, 3))
case("shard-zero-error")(lambda tf: tf.data.Dataset.range(11).shard(0, 0))
case("cache", epochs=2)(lambda tf: _fl(tf, 5).cache())
case("cache-shuffle", epochs=2)(lambda tf: tf.data.Dataset.range(6).shuffle(6, seed=17).cache())
case("prefetch")(lambda tf: _fl(tf, 5).prefetch(2))
case("prefetch-autotune")(lambda tf: tf.data.Dataset.range(5).batch(2).prefetch(tf.data.AUTOTUNE))
case("iterator-epochs", epochs=3)(lambda tf: tf.data.Dataset.range(4).map(lambda x: x * 3).shuffle(3, seed=2))

# -- cardinality of the endless and the unknown --------------------------------------------------------------------
case("card-infinite")(lambda tf: tf.data.Dataset.range(4).repeat().skip(3).take(6))
case("card-unknown")(lambda tf: tf.data.Dataset.range(10).filter(lambda x: x > 6).repeat(2))
case("card-assert")(lambda tf: tf.data.Dataset.range(10).filter(lambda x: x > 6).apply(
    tf.data.experimental.assert_cardinality(3)))
case("card-assert-error")(lambda tf: tf.data.Dataset.range(10).filter(lambda x: x > 6).apply(
    tf.data.experimental.assert_cardinality(2)))

# -- (second round: rules the first measurement showed missing) -----------------------------------------------------
case("take_while-refuses-midway")(lambda tf: tf.data.Dataset.range(9).take_while(lambda x: x % 4 != 3))
case("window-size-zero-error")(lambda tf: tf.data.Dataset.range(5).window(0))
case("window-shift-zero-error")(lambda tf: tf.data.Dataset.range(5).window(2, shift=0))
case("window-stride-zero-error")(lambda tf: tf.data.Dataset.range(5).window(2, stride=0))
case("ragged_batch-two-unknown-axes")(lambda tf: tf.data.Dataset.range(1, 5).map(
    lambda x: tf.ones(tf.stack([x, 5 - x]), tf.int64) * x).ragged_batch(3))
case("filter-vector-predicate-error")(lambda tf: tf.data.Dataset.range(4).filter(lambda x: tf.stack([x > 1, x > 2])))
case("slices-batch-drop")(lambda tf: tf.data.Dataset.from_tensor_slices(f32("sb", 8, 2)).batch(3, drop_remainder=True))
case("slices-padded_batch-drop")(lambda tf: tf.data.Dataset.from_tensor_slices(np.arange(8)).padded_batch(
    3, drop_remainder=True))
case("slices-rebatch-drop")(lambda tf: tf.data.Dataset.from_tensor_slices(np.arange(11)).batch(4).rebatch(
    3, drop_remainder=True))
case("group_by_window-keys-unsorted")(lambda tf: tf.data.Dataset.range(11).group_by_window(
    key_func=lambda x: (x * 2 + 1) % 3, reduce_func=lambda k, w: w.batch(4), window_size=4))
case("group_by_reducer-keys-unsorted")(lambda tf: tf.data.Dataset.range(11).apply(tf.data.experimental.group_by_reducer(
    lambda x: (x * 2 + 1) % 3, tf.data.experimental.Reducer(lambda k: tf.constant(0, tf.int64) + k * 100,
                                                             lambda s, x: s + x, lambda s: s))))
