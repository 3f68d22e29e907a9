"""The programs of ``test_survey21_*.py`` (issue 29, session 21): each sets options the option survey
(benchmarks/suite_options.py, stricter rule) found the suite never set, or set without changing the
output, to values that change it (a threshold inside the data, a stride that skips, a permutation that is
not the identity, several files, a falsy default ...). A case is `fn(tf) -> a nest of values`; its TF 2.21
output is recorded by survey21_record into survey21_reference.json.gz and compared by survey21_check.

Every case is deterministic on TF: its randomness is seeded (op seeds with a global seed set first).
Files are written under a fresh temporary directory and reported by their base names only.
"""

from __future__ import annotations

import gzip
import os
import tempfile
import zlib
from typing import Any, Callable

import numpy as np

Case = tuple[str, Callable[[Any], Any]]

_RAMP = np.arange(0, 48, dtype=np.float32).reshape(1, 4, 4, 3) * 5.0        # values 0..235
_SEQ = np.arange(20, dtype=np.float32).reshape(10, 2)


def _ds(x: Any) -> Any:
    """A dataset's elements as lists (datasets of nests too)."""
    return list(x.as_numpy_iterator())


def _tmp() -> str:
    return tempfile.mkdtemp(prefix="survey21_")


# -- tf.data ----------------------------------------------------------------------------------------------
def data_range_step_dtype(tf: Any) -> Any:
    return [_ds(tf.data.Dataset.range(10, 0, -3)), tf.data.Dataset.range(2, 8, 2, output_type=tf.int32).element_spec.dtype.name,
            _ds(tf.data.Dataset.range(1, 9, 3, output_type=tf.int32))]


def data_batch_drop_remainder(tf: Any) -> Any:
    ds = tf.data.Dataset.range(7)
    return [_ds(ds.batch(3, drop_remainder=True)), ds.batch(3, drop_remainder=True).element_spec.shape.as_list()]


def data_padded_batch_values(tf: Any) -> Any:
    rows = [[1], [2, 3], [4, 5, 6], [7]]
    ds = tf.data.Dataset.from_generator(lambda: iter(rows), output_signature=tf.TensorSpec([None], tf.int32))
    return [_ds(ds.padded_batch(2, padded_shapes=[4], padding_values=tf.constant(-1, tf.int32), drop_remainder=True)),
            _ds(ds.padded_batch(3, padding_values=tf.constant(9, tf.int32)))]


def data_window_shift_stride(tf: Any) -> Any:
    ds = tf.data.Dataset.range(10).window(3, shift=2, stride=2, drop_remainder=True)
    ds2 = tf.data.Dataset.range(7).window(3, shift=3)
    return [_ds(ds.flat_map(lambda w: w.batch(3))), _ds(ds2.flat_map(lambda w: w.batch(3)))]


def data_shuffle_no_reshuffle(tf: Any) -> Any:
    """simdist's shuffle order is not TF's (clause dataset.shuffle): only whether epochs repeat an order."""
    tf.random.set_seed(4)
    ds = tf.data.Dataset.range(8).shuffle(8, seed=7, reshuffle_each_iteration=False)
    e1, e2, both = [e.tolist() for e in _ds(ds)], [e.tolist() for e in _ds(ds)], [e.tolist() for e in _ds(ds.repeat(2))]
    re = tf.data.Dataset.range(8).shuffle(8, seed=7)
    r1, r2 = [e.tolist() for e in _ds(re)], [e.tolist() for e in _ds(re)]
    return [e1 == e2, both[:8] == both[8:], sorted(e1), r1 == r2]


def data_interleave_block_length(tf: Any) -> Any:
    ds = tf.data.Dataset.range(1, 4).interleave(lambda x: tf.data.Dataset.from_tensors(x).repeat(5),
                                                cycle_length=2, block_length=3)
    return _ds(ds)


def data_enumerate_start_shard_index(tf: Any) -> Any:
    return [_ds(tf.data.Dataset.range(3).enumerate(start=5)), _ds(tf.data.Dataset.range(10).shard(3, 2))]


def data_repeat_count_skip_take(tf: Any) -> Any:
    return [_ds(tf.data.Dataset.range(3).repeat(2)), _ds(tf.data.Dataset.range(6).skip(4).take(5))]


def data_rebatch_drop_remainder(tf: Any) -> Any:
    ds = tf.data.Dataset.range(10).batch(4)
    return [_ds(ds.rebatch(3)), _ds(ds.rebatch(3, drop_remainder=True))]


def data_bucket_by_sequence_length(tf: Any) -> Any:
    seqs = [[1], [2, 2], [3, 3, 3], [4, 4, 4, 4], [5], [6, 6, 6, 6, 6]]
    ds = tf.data.Dataset.from_generator(lambda: iter(seqs), output_signature=tf.TensorSpec([None], tf.int32))
    a = ds.bucket_by_sequence_length(lambda x: tf.shape(x)[0], bucket_boundaries=[3, 7], bucket_batch_sizes=[2, 2, 2],
                                     pad_to_bucket_boundary=True, padding_values=-1, drop_remainder=False)
    return [e.tolist() for e in _ds(a)]


def data_group_by_window_size_func(tf: Any) -> Any:
    ds = tf.data.Dataset.range(12).group_by_window(key_func=lambda x: x % 2, reduce_func=lambda k, w: w.batch(5),
                                                   window_size_func=lambda k: k + 2)
    return [e.tolist() for e in _ds(ds)]


def data_sample_and_choose_stop_on_empty(tf: Any) -> Any:
    tf.random.set_seed(1)
    a = tf.data.Dataset.range(3)
    b = tf.data.Dataset.range(10, 20)
    s = tf.data.Dataset.sample_from_datasets([a, b], weights=[0.5, 0.5], seed=3, stop_on_empty_dataset=True)
    c = tf.data.Dataset.choose_from_datasets([a, b], tf.data.Dataset.from_tensor_slices(
        tf.constant([0, 0, 0, 0, 1, 1], tf.int64)), stop_on_empty_dataset=False)
    return [_ds(s), _ds(c)]


def data_counter_and_random(tf: Any) -> Any:
    return [_ds(tf.data.Dataset.counter(start=3, step=-2, dtype=tf.int32).take(4)),
            _ds(tf.data.experimental.Counter(start=1, step=4).take(3))]


def data_unbatch_unique_padded_drop(tf: Any) -> Any:
    return [_ds(tf.data.Dataset.from_tensor_slices([[1, 2], [3, 4]]).unbatch()),
            _ds(tf.data.Dataset.from_tensor_slices([3, 1, 3, 2, 1]).unique())]


def data_fixed_length_record_header_footer(tf: Any) -> Any:
    d = _tmp()
    paths = []
    for i in range(2):
        p = os.path.join(d, f"r{i}.bin")
        with open(p, "wb") as f:
            f.write(b"HDR" + bytes(range(10 * i, 10 * i + 8)) + b"FT")
        paths.append(p)
    ds = tf.data.FixedLengthRecordDataset(paths, record_bytes=4, header_bytes=3, footer_bytes=2)
    return _ds(ds)


def data_text_line_gzip(tf: Any) -> Any:
    d = _tmp()
    p = os.path.join(d, "a.txt.gz")
    with gzip.open(p, "wb") as f:
        f.write(b"one\ntwo\r\nthree")
    return _ds(tf.data.TextLineDataset([p], compression_type="GZIP"))


def data_tfrecord_zlib(tf: Any) -> Any:
    d = _tmp()
    p = os.path.join(d, "a.tfrecord")
    with tf.io.TFRecordWriter(p, options=tf.io.TFRecordOptions(compression_type="ZLIB")) as w:
        for s in (b"x", b"yy", b"zzz"):
            w.write(s)
    return [_ds(tf.data.TFRecordDataset([p], compression_type="ZLIB")), len(open(p, "rb").read()) > 0]


def data_csv_dataset_options(tf: Any) -> Any:
    d = _tmp()
    paths = []
    for i in range(2):
        p = os.path.join(d, f"f{i}.csv")
        with open(p, "w") as f:
            f.write("a;b;c\n" + f'{i};"x;{i}";NA\n' + f"{i + 5};y;{i + 0.5}\n")
        paths.append(p)
    full = tf.data.experimental.CsvDataset(paths, [tf.int32, tf.string, tf.constant(-1.0)], header=True,
                                           field_delim=";", na_value="NA")
    sel = tf.data.experimental.CsvDataset(paths, [tf.int32, tf.constant(-1.0)], header=True, field_delim=";",
                                          na_value="NA", select_cols=[0, 2])
    exc = tf.data.experimental.CsvDataset(paths, [tf.string], header=True, field_delim=";", exclude_cols=[0, 2])
    return [_ds(full), _ds(sel), _ds(exc)]


def data_make_csv_dataset_options(tf: Any) -> Any:
    d = _tmp()
    p = os.path.join(d, "t.csv")
    with open(p, "w") as f:
        f.write("x,y,label\n1,2,0\n3,,1\n5,6,0\n")
    ds = tf.data.experimental.make_csv_dataset(p, batch_size=2, label_name="label", select_columns=["y", "label"],
                                               column_defaults=[tf.constant(-7, tf.int32), tf.constant(0, tf.int32)],
                                               shuffle=False, num_epochs=1)
    return [({k: v.tolist() for k, v in f.items()}, l.tolist()) for f, l in _ds(ds)]


# -- tf.io --------------------------------------------------------------------------------------------------
def io_decode_csv_options(tf: Any) -> Any:
    recs = ['1;"a;b";NA', '2;c;3.5']
    a = tf.io.decode_csv(recs, [tf.constant(0), tf.constant(""), tf.constant(-1.0)], field_delim=";", na_value="NA")
    b = tf.io.decode_csv(['1,"x",y', '2,a"b,"c"'], [tf.constant(0), tf.constant(""), tf.constant("")],
                         use_quote_delim=False)
    c = tf.io.decode_csv(["1,2,3,4"], [tf.constant(0), tf.constant(0)], select_cols=[1, 3])
    return [a, b, c]


def io_decode_raw_options(tf: Any) -> Any:
    return [tf.io.decode_raw([b"\x01\x02\x03\x04"], tf.int16, little_endian=False),
            tf.io.decode_raw([b"\x01\x00\x02", b"\x03"], tf.uint8, fixed_length=4),
            tf.io.decode_raw([b"\x01\x00\x02\x00\x03\x00"], tf.int16, fixed_length=4)]


def io_base64_and_compressed(tf: Any) -> Any:
    raw = b"hello world?"
    return [tf.io.encode_base64([raw], pad=True), tf.io.encode_base64([raw]),
            tf.io.decode_compressed([zlib.compress(raw)], compression_type="ZLIB"),
            tf.io.decode_compressed([gzip.compress(raw, mtime=0)], compression_type="GZIP")]


def _examples(tf: Any) -> list[bytes]:
    def ex(i: int, vals: list[float], ids: list[int]) -> bytes:
        f = {"v": tf.train.Feature(float_list=tf.train.FloatList(value=vals)),
             "ids": tf.train.Feature(int64_list=tf.train.Int64List(value=ids))}
        if i % 2 == 0:
            f["s"] = tf.train.Feature(float_list=tf.train.FloatList(value=[float(i) + 0.5]))
        return tf.train.Example(features=tf.train.Features(feature=f)).SerializeToString()
    return [ex(0, [1.0, 2.0], [3, 1]), ex(1, [], [2]), ex(2, [4.0], [])]


def io_parse_example_features(tf: Any) -> Any:
    ser = _examples(tf)
    spec = {"s": tf.io.FixedLenFeature([], tf.float32, default_value=0.0),
            "v": tf.io.FixedLenSequenceFeature([], tf.float32, allow_missing=True, default_value=-3.0),
            "ids": tf.io.RaggedFeature(tf.int64, row_splits_dtype=tf.int32)}
    out = tf.io.parse_example(ser, spec)
    out2 = tf.io.parse_example(ser, {"vr": tf.io.RaggedFeature(tf.float32, value_key="v")})
    return [{k: out[k] for k in sorted(out)}, out2["vr"]]


def io_parse_sparse_feature(tf: Any) -> Any:
    ex = tf.train.Example(features=tf.train.Features(feature={
        "i": tf.train.Feature(int64_list=tf.train.Int64List(value=[3, 0])),
        "x": tf.train.Feature(float_list=tf.train.FloatList(value=[1.5, 2.5]))})).SerializeToString()
    out = tf.io.parse_single_example(ex, {"sp": tf.io.SparseFeature("i", "x", tf.float32, 5, already_sorted=False)})
    return out["sp"]


def io_parse_sequence_example(tf: Any) -> Any:
    se = tf.train.SequenceExample(
        context=tf.train.Features(feature={"c": tf.train.Feature(int64_list=tf.train.Int64List(value=[7]))}),
        feature_lists=tf.train.FeatureLists(feature_list={"f": tf.train.FeatureList(feature=[
            tf.train.Feature(float_list=tf.train.FloatList(value=[1.0, 2.0])),
            tf.train.Feature(float_list=tf.train.FloatList(value=[3.0, 4.0]))])})).SerializeToString()
    ctx, seq = tf.io.parse_single_sequence_example(
        se, context_features={"c": tf.io.FixedLenFeature([], tf.int64), "d": tf.io.FixedLenFeature([], tf.int64, default_value=0)},
        sequence_features={"f": tf.io.FixedLenSequenceFeature([2], tf.float32)})
    return [{k: ctx[k] for k in sorted(ctx)}, {k: seq[k] for k in sorted(seq)}]


# -- tf.random ---------------------------------------------------------------------------------------------
def random_stateful_options(tf: Any) -> Any:
    tf.random.set_seed(11)
    return [tf.random.uniform([4], minval=-3, maxval=9, dtype=tf.int32, seed=2),
            tf.random.uniform([3], minval=2.0, maxval=5.0, dtype=tf.float64, seed=3),
            tf.random.normal([3], mean=10.0, stddev=0.5, dtype=tf.float64, seed=4),
            tf.random.truncated_normal([3], mean=-2.0, stddev=3.0, seed=5),
            tf.random.categorical([[0.0, 1.0, 2.0]], 5, dtype=tf.int32, seed=6),
            tf.random.poisson([3], [2.0, 9.0], dtype=tf.int32, seed=7),
            tf.random.gamma([2], [1.5], beta=[4.0], dtype=tf.float64, seed=8),
            tf.random.shuffle(tf.range(6), seed=9)]


def random_stateless_options(tf: Any) -> Any:
    s = [3, 4]
    return [tf.random.stateless_uniform([4], s, minval=-5, maxval=5, dtype=tf.int32),
            tf.random.stateless_uniform([3], s, minval=1.0, maxval=2.0, dtype=tf.float64),
            tf.random.stateless_normal([3], s, mean=4.0, stddev=0.25),
            tf.random.stateless_truncated_normal([3], s, mean=1.0, stddev=2.0, dtype=tf.float64),
            tf.random.stateless_categorical([[0.0, 0.5, 1.0]], 4, s, dtype=tf.int32),
            tf.random.stateless_poisson([3], s, 3.0, dtype=tf.float32),
            tf.random.stateless_gamma([3], s, alpha=2.0, beta=0.5),
            tf.random.stateless_binomial([3], s, counts=10.0, probs=0.3, output_dtype=tf.float32),
            tf.random.stateless_parameterized_truncated_normal([4], s, means=1.0, stddevs=0.5, minvals=0.5, maxvals=1.2)]


# -- tf.image ----------------------------------------------------------------------------------------------
def image_resize_options(tf: Any) -> Any:
    img = _RAMP[0]
    return [tf.image.resize(img, [3, 6], method="nearest"), tf.image.resize(img, [6, 3], preserve_aspect_ratio=True),
            tf.image.resize(img, [2, 2], antialias=True), tf.image.resize(img, [3, 3], method="area"),
            tf.image.resize_with_pad(img, 3, 6, method="nearest"), tf.image.resize_with_pad(img, 2, 3, antialias=True)]


def image_crop_and_resize_options(tf: Any) -> Any:
    boxes = [[0.0, 0.0, 1.0, 1.0], [-0.5, 0.25, 0.75, 1.5]]
    return [tf.image.crop_and_resize(_RAMP, boxes, [0, 0], [3, 3], method="nearest"),
            tf.image.crop_and_resize(_RAMP, boxes, [0, 0], [2, 2], extrapolation_value=-9.0)]


def image_gamma_rot_convert(tf: Any) -> Any:
    x = _RAMP / 255.0
    return [tf.image.adjust_gamma(x, gamma=2.0, gain=0.5), tf.image.rot90(_RAMP, k=3),
            tf.image.convert_image_dtype(tf.constant([[[1.5, -0.2, 0.5]]]), tf.uint8, saturate=True),
            tf.image.convert_image_dtype(tf.constant([[[300, -5, 70000]]], tf.int32), tf.int16, saturate=True)]


def image_nms_options(tf: Any) -> Any:
    boxes = tf.constant([[0, 0, 1, 1], [0, 0.1, 1, 1.1], [0, 0.5, 1, 1.5], [0, 2, 1, 3]], tf.float32)
    scores = tf.constant([0.9, 0.75, 0.6, 0.3])
    return [tf.image.non_max_suppression(boxes, scores, 4, iou_threshold=0.3),
            tf.image.non_max_suppression(boxes, scores, 4, score_threshold=0.5),
            tf.image.non_max_suppression(boxes, scores, 4, score_threshold=0.6),   # a score at the threshold
            tf.image.non_max_suppression_with_scores(boxes, scores, 4, iou_threshold=0.9, soft_nms_sigma=0.5),
            tf.image.non_max_suppression_padded(boxes, scores, 3, iou_threshold=0.3, pad_to_max_output_size=True)]


def image_ssim_options(tf: Any) -> Any:
    a = np.linspace(0, 1, 2 * 16 * 16 * 1, dtype=np.float32).reshape(2, 16, 16, 1)
    b = np.sqrt(a)
    return [tf.image.ssim(a, b, 1.0, filter_size=5, filter_sigma=0.8, k1=0.05, k2=0.1),
            tf.image.ssim(a, b, 2.0, filter_size=3)]


def image_glimpse_patches(tf: Any) -> Any:
    return [tf.image.extract_glimpse(_RAMP, [2, 2], [[1.0, 1.0]], centered=False, normalized=False, noise="zero"),
            tf.image.extract_patches(_RAMP, [1, 2, 2, 1], [1, 1, 1, 1], [1, 2, 2, 1], "VALID")]


def image_random_ops_seeded(tf: Any) -> Any:
    tf.random.set_seed(5)
    x = _RAMP / 255.0
    return [tf.image.random_flip_left_right(_RAMP, seed=3), tf.image.random_brightness(x, 0.3, seed=4),
            tf.image.random_contrast(x, 0.2, 1.8, seed=5), tf.image.random_crop(_RAMP, [1, 2, 3, 3], seed=6),
            tf.image.stateless_random_saturation(x, 0.5, 1.5, seed=[1, 2])]


# -- initializers ------------------------------------------------------------------------------------------
def init_tf_defaults(tf: Any) -> Any:
    tf.random.set_seed(2)
    return [tf.random_normal_initializer(seed=1)([3]), tf.random_uniform_initializer(seed=1)([3]),
            tf.random_normal_initializer(mean=1.0, stddev=0.1, seed=2)([2]),
            tf.random_uniform_initializer(minval=-2.0, maxval=-1.0, seed=2)([2], dtype=tf.float64),
            tf.constant_initializer(3)([2], dtype=tf.int32), tf.ones_initializer()([2], dtype=tf.int64),
            tf.zeros_initializer()([2], dtype=tf.float16)]


def init_keras_options(tf: Any) -> Any:
    I = tf.keras.initializers
    return [I.VarianceScaling(scale=2.0, mode="fan_out", distribution="uniform", seed=3)([3, 4]),
            I.VarianceScaling(mode="fan_avg", distribution="untruncated_normal", seed=3)([2, 5]),
            I.Orthogonal(gain=2.0, seed=4)([3, 3]), I.Identity(gain=3.0)([2, 3]),
            I.TruncatedNormal(mean=1.0, stddev=0.5, seed=5)([3]), I.RandomUniform(minval=2.0, maxval=3.0, seed=6)([3]),
            I.RandomNormal(mean=-1.0, stddev=0.1, seed=7)([2]), I.Constant(value=2.5)([2]),
            I.GlorotNormal(seed=8)([2, 2]), I.HeUniform(seed=9)([2, 2]), I.LecunNormal(seed=10)([3, 1]),
            I.Zeros()([2], dtype="int32"), I.Ones()([2], dtype="float64")]


# -- keras.utils -------------------------------------------------------------------------------------------
def utils_sequences_and_categorical(tf: Any) -> Any:
    U = tf.keras.utils
    seqs = [[1, 2, 3, 4], [5], [6, 7]]
    return [U.pad_sequences(seqs, maxlen=3, padding="post", truncating="post", value=-1),
            U.pad_sequences(seqs, maxlen=2, dtype="float32", value=0.5), U.to_categorical([0, 2, 1], num_classes=4),
            U.normalize(np.array([[3.0, 4.0], [1.0, 0.0]]), axis=0, order=1)]


def utils_timeseries_options(tf: Any) -> Any:
    U = tf.keras.utils
    ds = U.timeseries_dataset_from_array(_SEQ, np.arange(10), sequence_length=3, sequence_stride=2, sampling_rate=2,
                                         batch_size=2, start_index=1, end_index=9, shuffle=False)
    return [(x.tolist(), y.tolist()) for x, y in _ds(ds)]


def utils_split_dataset_options(tf: Any) -> Any:
    U = tf.keras.utils
    a, b = U.split_dataset(np.arange(10), left_size=0.3, right_size=0.5)
    c, d = U.split_dataset(np.arange(6), right_size=2)
    return [_ds(a), _ds(b), _ds(c), _ds(d)]


# -- tf.train ----------------------------------------------------------------------------------------------
def train_checkpoint_manager_options(tf: Any) -> Any:
    d = _tmp()
    v = tf.Variable(1.0)
    ckpt = tf.train.Checkpoint(v=v)
    m = tf.train.CheckpointManager(ckpt, d, max_to_keep=2, checkpoint_name="model")
    names = []
    for i in range(4):
        v.assign(float(i))
        names.append(os.path.basename(m.save(checkpoint_number=10 * i)))
    kept = [os.path.basename(p) for p in m.checkpoints]
    v.assign(-1.0)
    ckpt.restore(m.latest_checkpoint)
    return [names, kept, os.path.basename(tf.train.latest_checkpoint(d)), float(v.numpy())]


def train_checkpoint_write_read(tf: Any) -> Any:
    d = _tmp()
    v = tf.Variable([1.0, 2.0])
    ckpt = tf.train.Checkpoint(v=v)
    p = ckpt.write(os.path.join(d, "w"))
    v.assign([0.0, 0.0])
    ckpt.read(p)
    m = tf.train.CheckpointManager(ckpt, os.path.join(d, "m"), max_to_keep=None)
    for _ in range(3):
        m.save()
    return [os.path.basename(p), v.numpy(), [os.path.basename(c) for c in m.checkpoints]]


# -- tf.raw_ops --------------------------------------------------------------------------------------------
def raw_python_values_beside_tensors(tf: Any) -> Any:
    R = tf.raw_ops
    f16 = tf.constant([1.5, 2.5], tf.float16)
    i64 = tf.constant([4, 5], tf.int64)
    return [R.AddV2(x=2, y=f16), R.Mul(x=i64, y=3), R.Maximum(x=[1.0, 9.0], y=tf.constant(2.0, tf.float64)),
            R.Sub(x=tf.constant(7, tf.int8), y=1), R.AddN(inputs=[1, tf.constant(0.25, tf.float64), 2]),
            R.ConcatV2(values=[[1, 2], tf.constant([3], tf.int64)], axis=0),
            R.Pack(values=[tf.constant(1.5, tf.float16), 2.0], axis=0), R.Pow(x=2, y=tf.constant(0.5, tf.float64))]


# -- keras preprocessing / augmentation layers -------------------------------------------------------------
def layers_augmentation_options(tf: Any) -> Any:
    L = tf.keras.layers
    x = np.tile(_RAMP, (3, 1, 1, 1))
    return [L.Solarization(threshold_factor=(0.3, 0.6), seed=3)(x, training=True),
            L.Solarization(addition_factor=(0.1, 0.1), threshold_factor=(0.5, 0.5), value_range=(0, 255), seed=4)(x, training=True),
            L.RandomInvert(factor=(1.0, 1.0), value_range=(-50, 300), seed=2)(x, training=True),
            L.RandomInvert(factor=0.5, seed=7)(x, training=True),
            L.RandomBrightness(factor=(0.2, 0.2), value_range=(10, 200), seed=1)(x, training=True),
            L.RandomContrast(factor=(0.5, 0.5), value_range=(0, 100), seed=1)(x, training=True),
            L.RandomGrayscale(factor=1.0, seed=3)(x, training=True),
            L.AutoContrast(value_range=(-10, 300))(x)]


def layers_mix_options(tf: Any) -> Any:
    L = tf.keras.layers
    x = np.tile(_RAMP, (4, 1, 1, 1)) + np.arange(4, dtype=np.float32).reshape(4, 1, 1, 1) * 7.0
    y = np.eye(4, dtype=np.float32)
    mix = L.MixUp(alpha=0.7, seed=11)({"images": x, "labels": y}, training=True)
    cut = L.CutMix(factor=(0.5, 0.5), seed=12)({"images": x, "labels": y}, training=True)
    return [mix["images"], mix["labels"], cut["images"], cut["labels"]]


def layers_color_options(tf: Any) -> Any:
    L = tf.keras.layers
    x = np.tile(_RAMP, (2, 1, 1, 1))
    return [L.RandomHue(factor=(0.3, 0.3), value_range=(0, 255), seed=3)(x, training=True),
            L.RandomSaturation(factor=(0.2, 0.2), value_range=(0, 255), seed=4)(x, training=True)]


def layers_preprocessing_options(tf: Any) -> Any:
    L = tf.keras.layers
    x = np.array([[1.0, -2.0, 5.0], [3.0, 0.0, 7.0]], np.float32)
    disc = L.Discretization(bin_boundaries=[0.0, 2.0], output_mode="one_hot")(np.array([-1.0, 0.0, 2.5]))
    cat = L.CategoryEncoding(num_tokens=5, output_mode="count")(np.array([[0, 1, 1], [4, 4, 2]]),
                                                                count_weights=np.array([[1.0, 2.0, 3.0], [0.5, 0.5, 1.0]]))
    hsh = L.Hashing(num_bins=7, mask_value="bb", output_mode="one_hot")(np.array(["a", "bb", "c"]))
    look = L.StringLookup(vocabulary=["x", "y"], num_oov_indices=2, mask_token="", output_mode="int")(
        np.array([["x", "", "q", "y"]]))
    il = L.IntegerLookup(vocabulary=[5, 9], invert=True)(np.array([0, 1, 2]))
    norm = L.Normalization(mean=[1.0, 2.0, 3.0], variance=[4.0, 1.0, 0.25], invert=True)(x)
    res = L.Rescaling(scale=0.5, offset=-1.0)(x)
    return [disc, cat, hsh, look, il, norm, res]


FAMILIES: dict[str, list[Case]] = {
    "data": [(f.__name__, f) for f in (
        data_range_step_dtype, data_batch_drop_remainder, data_padded_batch_values, data_window_shift_stride,
        data_shuffle_no_reshuffle, data_interleave_block_length, data_enumerate_start_shard_index,
        data_repeat_count_skip_take, data_rebatch_drop_remainder, data_bucket_by_sequence_length,
        data_group_by_window_size_func, data_sample_and_choose_stop_on_empty, data_counter_and_random,
        data_unbatch_unique_padded_drop, data_fixed_length_record_header_footer, data_text_line_gzip,
        data_tfrecord_zlib, data_csv_dataset_options, data_make_csv_dataset_options)],
    "io": [(f.__name__, f) for f in (
        io_decode_csv_options, io_decode_raw_options, io_base64_and_compressed, io_parse_example_features,
        io_parse_sparse_feature, io_parse_sequence_example)],
    "random": [(f.__name__, f) for f in (random_stateful_options, random_stateless_options)],
    "image": [(f.__name__, f) for f in (
        image_resize_options, image_crop_and_resize_options, image_gamma_rot_convert, image_nms_options,
        image_ssim_options, image_glimpse_patches, image_random_ops_seeded)],
    "initializers": [(f.__name__, f) for f in (init_tf_defaults, init_keras_options)],
    "utils": [(f.__name__, f) for f in (utils_sequences_and_categorical, utils_timeseries_options,
                                        utils_split_dataset_options)],
    "train": [(f.__name__, f) for f in (train_checkpoint_manager_options, train_checkpoint_write_read)],
    "raw_ops": [(f.__name__, f) for f in (raw_python_values_beside_tensors,)],
    "layers": [(f.__name__, f) for f in (layers_augmentation_options, layers_mix_options,
                                         layers_color_options, layers_preprocessing_options)],
}
