"""tf.summary.scalar, histogram, image, text and audio: TensorBoard 2.21's summary_v2 functions
(tensorboard/plugins/<name>/summary_v2.py, which TF 2.21's tf.summary re-exports), the same ops run
on simdist's facade, and the plugins' own metadata builders (tensorboard/plugins/<name>/metadata.py).

- scalar: assert_scalar(data), written as float32 (plugin "scalars");
- histogram: float64 (buckets, 3) [left, right, count], 30 buckets by default: data flattened and
  cast to float64; none (no data, or buckets <= 0) all zeros; one value: every edge that value and
  the count in the last bucket; else width (max-min)/buckets, index floor((x-min)/width) clamped to
  the last bucket, edges linspace(min, max, buckets+1) with the last edge max (plugin "histograms");
- image: rank 4, convert_image_dtype(data, uint8, saturate=True), the first max_outputs images
  PNG-encoded after the strings width and height (plugin "images");
- text: a string tensor as it is (plugin "text");
- audio: rank 3 [k, t, c], the first max_outputs clips WAV-encoded at sample_rate, each with an empty
  label: a (k, 2) string tensor (plugin "audio", encoding WAV); only encoding "wav".
The histogram, image and audio tensors are made only when the summary is recorded (LazyTensorCreator).
"""

from __future__ import annotations

import functools
from typing import Any

from simdist.tf.summary._write import summary_scope, write


def _tf() -> Any:
    from simdist import tf
    return tf


def _metadata(plugin: str, **kw: Any) -> Any:
    import importlib
    try:
        module = importlib.import_module(f"tensorboard.plugins.{plugin}.metadata")
    except ImportError as e:
        from simdist.tf.summary._event_file import EXTRA_HINT
        raise ImportError(f"TensorBoard is not installed, missing implementation for tf.summary.{plugin} ({e}): "
                          f"{EXTRA_HINT}") from None
    return module.create_summary_metadata(**kw)


class _Lazy:
    """tensorboard's LazyTensorCreator: the tensor made on the first call, then kept."""

    def __init__(self, fn: Any) -> None:
        self._fn = fn
        self._made: Any = None

    def __call__(self) -> Any:
        if self._made is None:
            self._made = self._fn()
        return self._made


def scalar(name: str, data: Any, step: Any = None, description: Any = None) -> Any:
    """`tf.summary.scalar`: a scalar, written as float32."""
    tf = _tf()
    metadata = _metadata("scalar", display_name=None, description=description)
    with summary_scope(name, "scalar_summary", values=[data, step]) as (tag, _):
        tf.debugging.assert_scalar(data)
        return write(tag=tag, tensor=tf.cast(data, tf.float32), step=step, metadata=metadata)


def histogram(name: str, data: Any, step: Any = None, buckets: Any = None, description: Any = None) -> Any:
    """`tf.summary.histogram`: the (buckets, 3) float64 histogram of data's elements."""
    tf = _tf()
    data = tf.stop_gradient(data)
    metadata = _metadata("histogram", display_name=None, description=description)
    with summary_scope(name, "histogram_summary", values=[data, buckets, step]) as (tag, _):
        return write(tag=tag, tensor=_Lazy(lambda: _buckets(data, buckets)), step=step, metadata=metadata)


def _buckets(data: Any, bucket_count: Any = None) -> Any:
    tf = _tf()
    if bucket_count is None:
        bucket_count = 30   # (histogram summary_v2.DEFAULT_BUCKET_COUNT)
    tf.debugging.assert_scalar(bucket_count)
    tf.debugging.assert_type(bucket_count, tf.int32)
    bucket_count = tf.math.maximum(0, bucket_count)
    data = tf.reshape(data, shape=[-1])
    data = tf.cast(data, tf.float64)
    data_size = tf.size(input=data)
    is_empty = tf.logical_or(tf.equal(data_size, 0), tf.less_equal(bucket_count, 0))

    def when_empty() -> Any:
        return tf.zeros((bucket_count, 3), dtype=tf.float64)

    def when_nonempty() -> Any:
        min_ = tf.reduce_min(input_tensor=data)
        max_ = tf.reduce_max(input_tensor=data)
        range_ = max_ - min_
        has_single_value = tf.equal(range_, 0)

        def when_multiple_values() -> Any:
            bucket_width = range_ / tf.cast(bucket_count, tf.float64)
            offsets = data - min_
            bucket_indices = tf.cast(tf.floor(offsets / bucket_width), dtype=tf.int32)
            clamped_indices = tf.minimum(bucket_indices, bucket_count - 1)
            one_hots = tf.one_hot(clamped_indices, depth=bucket_count, dtype=tf.float64)
            bucket_counts = tf.cast(tf.reduce_sum(input_tensor=one_hots, axis=0), dtype=tf.float64)
            edges = tf.linspace(min_, max_, bucket_count + 1)
            edges = tf.concat([edges[:-1], [max_]], 0)
            return tf.transpose(a=tf.stack([edges[:-1], edges[1:], bucket_counts]))

        def when_single_value() -> Any:
            edges = tf.fill([bucket_count], max_)
            zeroes = tf.fill([bucket_count], 0)
            bucket_counts = tf.cast(tf.concat([zeroes[:-1], [data_size]], 0)[:bucket_count], dtype=tf.float64)
            return tf.transpose(a=tf.stack([edges, edges, bucket_counts]))

        return tf.cond(has_single_value, when_single_value, when_multiple_values)

    return tf.cond(is_empty, when_empty, when_nonempty)


def image(name: str, data: Any, step: Any = None, max_outputs: Any = 3, description: Any = None) -> Any:
    """`tf.summary.image`: width, height and the first max_outputs images as PNG."""
    tf = _tf()
    metadata = _metadata("image", display_name=None, description=description)
    with summary_scope(name, "image_summary", values=[data, max_outputs, step]) as (tag, _):
        def lazy_tensor() -> Any:
            tf.debugging.assert_rank(data, 4)
            tf.debugging.assert_non_negative(max_outputs)
            images = tf.image.convert_image_dtype(data, tf.uint8, saturate=True)
            limited_images = images[:max_outputs]
            encoded_images = tf.image.encode_png(limited_images)
            image_shape = tf.shape(input=images)
            dimensions = tf.stack([tf.as_string(image_shape[2], name="width"),
                                   tf.as_string(image_shape[1], name="height")], name="dimensions")
            return tf.concat([dimensions, encoded_images], axis=0)

        return write(tag=tag, tensor=_Lazy(lazy_tensor), step=step, metadata=metadata)


def text(name: str, data: Any, step: Any = None, description: Any = None) -> Any:
    """`tf.summary.text`: a string tensor."""
    tf = _tf()
    metadata = _metadata("text", display_name=None, description=description)
    with summary_scope(name, "text_summary", values=[data, step]) as (tag, _):
        tf.debugging.assert_type(data, tf.string)
        return write(tag=tag, tensor=data, step=step, metadata=metadata)


def audio(name: str, data: Any, sample_rate: Any, step: Any = None, max_outputs: Any = 3, encoding: Any = None,
          description: Any = None) -> Any:
    """`tf.summary.audio`: the first max_outputs clips of [k, t, c] data as WAV, each with an empty label."""
    tf = _tf()
    if encoding is None:
        encoding = "wav"
    if encoding != "wav":
        raise ValueError("Unknown encoding: %r" % encoding)
    from tensorboard.plugins.audio import metadata as audio_metadata
    metadata = _metadata("audio", display_name=None, description=description,
                         encoding=audio_metadata.Encoding.Value("WAV"))
    with summary_scope(name, "audio_summary", values=[data, sample_rate, max_outputs, step]) as (tag, _):
        def lazy_tensor() -> Any:
            tf.debugging.assert_rank(data, 3)
            tf.debugging.assert_non_negative(max_outputs)
            limited_audio = data[:max_outputs]
            encode_fn = functools.partial(tf.audio.encode_wav, sample_rate=sample_rate)
            encoded_audio = tf.map_fn(encode_fn, limited_audio, dtype=tf.string, name="encode_each_audio")
            encoded_audio = tf.cond(tf.shape(input=encoded_audio)[0] > 0, lambda: encoded_audio,
                                    lambda: tf.constant([], tf.string))
            limited_labels = tf.tile([""], tf.shape(input=limited_audio)[:1])
            return tf.transpose(a=tf.stack([encoded_audio, limited_labels]))

        return write(tag=tag, tensor=_Lazy(lazy_tensor), step=step, metadata=metadata)
