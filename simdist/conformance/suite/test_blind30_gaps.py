"""Gaps the thirtieth blind batch of planted training bugs found (issue 29, docs/conformance.md "How strong is
the suite"): rules of the training layer that the suite stated for one spelling, one option value or one input
only (STFTSpectrogram's shapes but not its psd bins or its default fft_length, RandomGaussianBlur's single kernel
size but not a pair, DynamicPartition's gradient for vector partitions only, keras.ops' symbolic shapes for square or
symmetric cases, ...), so that a wrong implementation of the other case passed (TF 2.21 + Keras 3.15).

Each test checks a class of behaviour, not one planted bug. Every expected value is computed here with NumPy
(a transcription of TF's or Keras 3.15's rule) or is a relation TF's rule implies between two spellings, never
the backend's own implementation of the same rule.
"""

from __future__ import annotations

import zlib

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal, assert_true, raises, to_numpy
from simdist.conformance.tolerances import Tolerance

clause = pytest.mark.clause
TOL32 = Tolerance(rtol=2e-5, atol=2e-5)
TOL_SPEC = Tolerance(rtol=1e-4, atol=1e-4)


def _np(x):
    return np.asarray(to_numpy(x))


def _rng(name: str) -> np.random.Generator:
    return np.random.default_rng(zlib.crc32(name.encode()))


# -- Keras layers: RandomGaussianBlur's kernel_size pair ------------------------------------------------
@clause("keras.layer.image-erase-blur", ref="tf221")
@pytest.mark.parametrize("kernel_size", [(3, 4), (4, 3), (2, 2), 4])
def test_blind30_gaussian_blur_layer_refuses_any_even_kernel_size(tf, kernel_size):
    """keras.layers.RandomGaussianBlur(kernel_size=k): each size of a pair, like a single size, must be odd
    (ValueError "kernel_size must be an odd number"); (3, 5) and 5 are accepted."""
    keras = tf.keras
    with raises(ValueError, match="odd", call=f"keras.layers.RandomGaussianBlur(kernel_size={kernel_size})"):
        keras.layers.RandomGaussianBlur(kernel_size=kernel_size)
    for ok in ((3, 5), 5):
        keras.layers.RandomGaussianBlur(kernel_size=ok)


# -- Keras layers: STFTSpectrogram's psd bins and default fft_length ----------------------------------------------------
def _signal(name: str, n: int, channels: int) -> np.ndarray:
    return np.round(_rng(name).uniform(-1, 1, (2, n, channels)), 3).astype(np.float32)


@clause("keras.layer.audio", ref="tf221")
@pytest.mark.parametrize("frame_length,frame_step,fft_length", [(16, 8, None), (12, 4, 16), (10, 5, None)])
def test_blind30_stft_spectrogram_psd_doubles_only_the_inner_bins(tf, frame_length, frame_step, fft_length):
    """STFTSpectrogram(mode="psd") is the power re^2 + im^2 of mode="stft"'s real and imaginary bins (stacked
    on the bin axis) with the inner bins doubled: the DC bin and the Nyquist bin (the last) are not."""
    keras = tf.keras
    x = _signal(f"blind30-psd-{frame_length}", 64, 1)
    kw = dict(frame_length=frame_length, frame_step=frame_step, fft_length=fft_length)
    stft = _np(keras.layers.STFTSpectrogram(mode="stft", **kw)(x)).astype(np.float64)
    bins = stft.shape[-1] // 2
    power = stft[..., :bins] ** 2 + stft[..., bins:] ** 2
    want = power.copy()
    want[..., 1:-1] *= 2
    got = keras.layers.STFTSpectrogram(mode="psd", **kw)(x)
    assert_close(got, want, tolerance=TOL_SPEC, what="psd", call=f"STFTSpectrogram(mode='psd', {kw})")


@clause("keras.layer.audio", ref="tf221")
@pytest.mark.parametrize("frame_length,want_fft", [(12, 16), (10, 16), (16, 16), (20, 32)])
@pytest.mark.parametrize("mode", ["magnitude", "real"])
def test_blind30_stft_spectrogram_default_fft_length_is_the_next_power_of_two(tf, frame_length, want_fft, mode):
    """STFTSpectrogram's fft_length defaults to the smallest power of two >= frame_length: fft_length // 2 + 1
    bins, the same spectrogram as fft_length given explicitly."""
    keras = tf.keras
    x = _signal(f"blind30-fft-{frame_length}", 80, 1)
    default = keras.layers.STFTSpectrogram(mode=mode, frame_length=frame_length, frame_step=frame_length // 2)(x)
    explicit = keras.layers.STFTSpectrogram(mode=mode, frame_length=frame_length, frame_step=frame_length // 2,
                                            fft_length=want_fft)(x)
    call = f"STFTSpectrogram(mode={mode!r}, frame_length={frame_length}) vs fft_length={want_fft}"
    assert_equal(tuple(_np(default).shape)[-1], want_fft // 2 + 1, what="bins", call=call)
    assert_close(default, _np(explicit), tolerance=TOL32, what="spectrogram", call=call)


# -- tf.keras.losses.Reduction ---------------------------------------------------------------------------------------
@clause("keras.loss.reduction-legacy", ref="tf221")
def test_blind30_legacy_reduction_all_and_validate(tf):
    """tf.keras.losses.Reduction.all() is (AUTO, NONE, SUM, SUM_OVER_BATCH_SIZE) = ("auto", "none", "sum",
    "sum_over_batch_size"); validate(key) accepts each of them and raises ValueError for anything else."""
    R = tf.keras.losses.Reduction
    assert_equal(tuple(R.all()), ("auto", "none", "sum", "sum_over_batch_size"), what="Reduction.all()",
                 call="tf.keras.losses.Reduction.all()")
    for key in ("auto", "none", "sum", "sum_over_batch_size"):
        R.validate(key)
    with raises(ValueError, call="tf.keras.losses.Reduction.validate('mean')"):
        R.validate("mean")


# -- Keras layers: MaxNumBoundingBoxes pads boxes and labels with fill_value --------------------------------------------
@clause("keras.layer.image-preprocessing", ref="tf221")
@pytest.mark.parametrize("max_number,num_boxes,fill_value", [(3, 1, -1), (4, 2, -7), (2, 3, -1), (2, 2, 5)])
def test_blind30_max_num_bounding_boxes_pads_boxes_and_labels_with_fill_value(tf, max_number, num_boxes, fill_value):
    """keras.layers.MaxNumBoundingBoxes(max_number, fill_value) cuts each image's boxes and labels to max_number
    or pads both with fill_value up to it (batched, and a single image's boxes as a batch of one); the images
    pass through."""
    keras = tf.keras
    rng = _rng(f"blind30-maxboxes-{max_number}-{num_boxes}")
    boxes = np.round(rng.uniform(0, 8, (2, num_boxes, 4)), 1).astype(np.float32)
    labels = rng.integers(0, 5, (2, num_boxes)).astype(np.float32)
    images = rng.uniform(0, 1, (2, 8, 8, 3)).astype(np.float32)
    keep = min(max_number, num_boxes)
    want_boxes = np.full((2, max_number, 4), fill_value, np.float64)
    want_boxes[:, :keep] = boxes[:, :keep]
    want_labels = np.full((2, max_number), fill_value, np.float64)
    want_labels[:, :keep] = labels[:, :keep]
    layer = keras.layers.MaxNumBoundingBoxes(max_number=max_number, fill_value=fill_value,
                                             bounding_box_format="xyxy")
    call = f"MaxNumBoundingBoxes(max_number={max_number}, fill_value={fill_value}) of {num_boxes} boxes per image"
    out = layer({"images": images, "bounding_boxes": {"boxes": boxes, "labels": labels}})
    assert_close(out["bounding_boxes"]["boxes"], want_boxes, tolerance=TOL32, what="boxes", call=call)
    assert_close(out["bounding_boxes"]["labels"], want_labels, tolerance=TOL32, what="labels", call=call)
    assert_close(out["images"], images, tolerance=TOL32, what="images", call=call)
    one = layer({"images": images[0], "bounding_boxes": {"boxes": boxes[0], "labels": labels[0]}})
    assert_close(one["bounding_boxes"]["labels"], want_labels[0], tolerance=TOL32, what="one image's labels",
                 call=call + " (a single image)")


# -- keras.optimizers.deserialize: class names in any case ------------------------------------------------------------
@clause("keras.saving.json-and-serialize", ref="tf221")
@pytest.mark.parametrize("class_name,want", [("adam", "Adam"), ("sgd", "SGD"), ("rmsprop", "RMSprop"),
                                             ("ADAMW", "AdamW"), ("Adagrad", "Adagrad"), ("nadam", "Nadam")])
def test_blind30_optimizers_deserialize_takes_a_class_name_in_any_case(tf, class_name, want):
    """keras.optimizers.deserialize({"class_name": name, "config": ...}) looks the name up lower-cased among the
    optimizers (Keras 3.15: `config["class_name"].lower() in all_classes`): "adam", "ADAMW", "rmsprop" give the
    optimizer with the config's hyperparameters."""
    keras = tf.keras
    opt = keras.optimizers.deserialize({"class_name": class_name, "config": {"learning_rate": 0.25}})
    call = f"keras.optimizers.deserialize({{'class_name': {class_name!r}, 'config': {{'learning_rate': 0.25}}}})"
    assert_equal(type(opt).__name__, want, what="the optimizer's class", call=call)
    assert_close(float(_np(opt.learning_rate)), 0.25, tolerance=TOL32, what="learning_rate", call=call)


# -- gradients: DynamicPartition with partitions of rank 2 and more -----------------------------------------------------
@clause("autodiff.op-gradients", ref="tf221")
@pytest.mark.parametrize("parts_shape,extra", [((2, 3), ()), ((2, 3), (2,)), ((2, 2, 2), ()), ((5,), (3,))])
def test_blind30_dynamic_partition_gradient_for_any_partitions_rank(tf, parts_shape, extra):
    """The gradient of sum_k w_k * sum(dynamic_partition(data, partitions, n)[k]) with respect to data is
    w[partitions] over each partitioned element (broadcast over data's trailing axes), for partitions of any rank
    (TF's _DynamicPartitionGrads stitches the positions' pieces back into partitions' shape)."""
    rng = _rng(f"blind30-partition-{parts_shape}-{extra}")
    n = 3
    parts = rng.integers(0, n, parts_shape).astype(np.int32)
    data = rng.uniform(-1, 1, parts_shape + extra).astype(np.float32)
    w = np.array([2.0, -3.0, 0.5], np.float32)
    x = tf.constant(data)
    with tf.GradientTape() as tape:
        tape.watch(x)
        pieces = tf.dynamic_partition(x, tf.constant(parts), n)
        loss = tf.add_n([w[k] * tf.reduce_sum(pieces[k]) for k in range(n)])
    want = np.broadcast_to(w[parts].reshape(parts_shape + (1,) * len(extra)), parts_shape + extra)
    assert_close(tape.gradient(loss, x), want, tolerance=TOL32, what="gradient",
                 call=f"d/d data of weighted sums of dynamic_partition(data {parts_shape + extra}, partitions "
                      f"{parts_shape}, {n})")


# -- keras.ops: symbolic results have the eager results' shapes and dtypes ----------------------------------------------
def _spec_cases(ops):
    return {
        "conv_transpose same s2": (lambda x, k: ops.conv_transpose(x, k, strides=2, padding="same"),
                                   [(2, 5, 5, 3), (3, 3, 4, 3)], "float32"),
        "conv_transpose same s3 k2": (lambda x, k: ops.conv_transpose(x, k, strides=3, padding="same"),
                                      [(2, 4, 3), (2, 5, 3)], "float32"),
        "conv_transpose valid s2": (lambda x, k: ops.conv_transpose(x, k, strides=2, padding="valid"),
                                    [(2, 5, 5, 3), (3, 3, 4, 3)], "float32"),
        "svd reduced wide": (lambda x: ops.svd(x, full_matrices=False), [(2, 3, 5)], "float32"),
        "svd reduced tall": (lambda x: ops.svd(x, full_matrices=False), [(2, 5, 3)], "float32"),
        "svd full": (lambda x: ops.svd(x), [(2, 3, 4)], "float32"),
        "unstack axis 1": (lambda x: ops.unstack(x, axis=1), [(2, 3, 4)], "float32"),
        "unstack axis -1": (lambda x: ops.unstack(x, axis=-1), [(2, 3, 4)], "float32"),
        "digitize": (lambda x: ops.digitize(x, np.array([0.2, 0.5, 0.8], np.float32)), [(2, 4)], "float32"),
        "digitize float64": (lambda x: ops.digitize(x, np.array([0.2, 0.5], np.float64)), [(2, 3, 2)], "float64"),
        "crop_images": (lambda x: ops.image.crop_images(x, top_cropping=1, left_cropping=2, bottom_cropping=1,
                                                        right_cropping=3), [(2, 10, 12, 3)], "float32"),
        "crop_images channels_first": (lambda x: ops.image.crop_images(x, top_cropping=2, left_cropping=1,
                                                                       bottom_cropping=0, right_cropping=4,
                                                                       data_format="channels_first"),
                                       [(2, 3, 10, 12)], "float32"),
    }


def _flat_shapes_dtypes(result):
    items = result if isinstance(result, (list, tuple)) else [result]
    return [(tuple(t.shape), getattr(t.dtype, "name", None) or str(t.dtype)) for t in items]


@clause("keras.ops", ref="tf221")
@pytest.mark.parametrize("name", ["conv_transpose same s2", "conv_transpose same s3 k2", "conv_transpose valid s2",
                                  "svd reduced wide", "svd reduced tall", "svd full", "unstack axis 1",
                                  "unstack axis -1", "digitize", "digitize float64", "crop_images",
                                  "crop_images channels_first"])
def test_blind30_symbolic_specs_match_eager_results(keras, name):
    """keras.ops.conv_transpose ("same": n * s), svd (full_matrices=False: u (.., m, k), v (.., k, n)), unstack
    (as many outputs as the axis's size), digitize (int32 indices) and image.crop_images (height and width less
    their two croppings) called on KerasTensors give the shapes and dtypes of their eager call on arrays of the
    same shapes and dtypes (every output: svd's three, each of unstack's); two spellings compared."""
    ops = keras.ops
    fn, shapes, dt = _spec_cases(ops)[name]
    rng = _rng(f"blind30-spec-{name}")
    sym = fn(*[keras.KerasTensor(s, dtype=dt) for s in shapes])
    eag = fn(*[ops.cast(rng.uniform(0.1, 0.9, s).astype(np.float32), dt) for s in shapes])
    call = f"keras.ops {name} on {dt} inputs of shapes {shapes}"
    assert_equal(_flat_shapes_dtypes(sym), _flat_shapes_dtypes(eag), call=call,
                 what="the KerasTensor results' (shape, dtype) (the eager results')")


# -- keras.ops: conv_transpose's output length ------------------------------------------------------------------------
@clause("keras.ops", ref="tf221")
@pytest.mark.parametrize("padding", ["same", "valid"])
@pytest.mark.parametrize("length,kernel,stride", [(5, 3, 2), (4, 2, 3), (3, 3, 1), (4, 1, 2), (2, 4, 2)])
def test_blind30_conv_transpose_output_length_follows_the_keras_rule(keras, padding, length, kernel, stride):
    """keras.ops.conv_transpose without output_padding makes each spatial length n * s for "same" and
    (n - 1) * s + max(k, s) for "valid" (Keras 3.15's compute_conv_transpose_output_shape), eagerly and on a
    KerasTensor, in 1-D and 2-D."""
    ops = keras.ops
    want = length * stride if padding == "same" else (length - 1) * stride + max(kernel, stride)
    rng = _rng(f"blind30-convt-{padding}-{length}-{kernel}-{stride}")
    for rank in (1, 2):
        xs = (2,) + (length,) * rank + (3,)
        ks = (kernel,) * rank + (4, 3)
        k = rng.uniform(-1, 1, ks).astype(np.float32)
        call = f"keras.ops.conv_transpose(x {xs}, kernel {ks}, strides={stride}, padding={padding!r})"
        eager = ops.conv_transpose(rng.uniform(-1, 1, xs).astype(np.float32), k, strides=stride, padding=padding)
        assert_equal(tuple(_np(eager).shape), (2,) + (want,) * rank + (4,), what="the eager result's shape",
                     call=call)
        sym = ops.conv_transpose(keras.KerasTensor((None,) + xs[1:]), k, strides=stride, padding=padding)
        assert_equal(tuple(sym.shape), (None,) + (want,) * rank + (4,), what="the KerasTensor result's shape",
                     call=call)


# -- keras.utils: image_dataset_from_directory's crop_to_aspect_ratio takes the centre --------------------------------
@clause("keras.dataset-from-directory", ref="tf221")
@pytest.mark.parametrize("height,width,size", [(8, 2, (2, 2)), (7, 2, (2, 2)), (3, 9, (3, 3)), (4, 11, (4, 8))])
def test_blind30_image_dataset_crop_to_aspect_ratio_takes_the_centre(tf, tmp_path, height, width, size):
    """image_dataset_from_directory(crop_to_aspect_ratio=True) crops each image to the target aspect ratio around
    its centre (Keras's smart_resize: crop_h = min(h, int(w * th / tw)), offset int((h - crop_h) / 2), the same
    for the width) before resizing; here the crop already has the target size (nearest resize: the crop)."""
    keras = tf.keras
    th, tw = size
    img = (np.arange(height)[:, None] * 20 + np.arange(width)[None, :] * 3).astype(np.uint8)[..., None]
    d = tmp_path / "imgs" / "a"
    d.mkdir(parents=True)
    tf.io.write_file(str(d / "x.png"), tf.io.encode_png(tf.constant(img)))
    crop_h = max(min(height, int(width * th / tw)), 1)
    crop_w = max(min(width, int(height * tw / th)), 1)
    h0, w0 = int((height - crop_h) / 2), int((width - crop_w) / 2)
    assert_true((crop_h, crop_w) == size, f"test set-up: the crop {crop_h}x{crop_w} should be the target {size}")
    want = img[h0:h0 + crop_h, w0:w0 + crop_w].astype(np.float32)[None]
    ds = keras.utils.image_dataset_from_directory(str(tmp_path / "imgs"), labels=None, image_size=size,
                                                  crop_to_aspect_ratio=True, shuffle=False, batch_size=1,
                                                  color_mode="grayscale", interpolation="nearest")
    got = next(iter(ds))
    assert_close(got, want, tolerance=TOL32, what="the image",
                 call=f"image_dataset_from_directory(image_size={size}, crop_to_aspect_ratio=True) of a "
                      f"{height}x{width} image")


# -- keras.utils: audio_dataset_from_directory's sampling_rate check ---------------------------------------------------
@clause("keras.dataset-from-directory", ref="tf221")
@pytest.mark.parametrize("sampling_rate,match", [(0, "higher than 0"), (-8000, "higher than 0"),
                                                 (16000.0, "integer")])
def test_blind30_audio_dataset_sampling_rate_must_be_a_positive_integer(tf, tmp_path, sampling_rate, match):
    """audio_dataset_from_directory(sampling_rate=s) checks s before anything else: a non-integer is ValueError
    "`sampling_rate` should have an integer value", zero or a negative ValueError "`sampling_rate` should be
    higher than 0"."""
    keras = tf.keras
    (tmp_path / "a").mkdir()
    with raises(ValueError, match=match, call=f"audio_dataset_from_directory(sampling_rate={sampling_rate})"):
        keras.utils.audio_dataset_from_directory(str(tmp_path), sampling_rate=sampling_rate)
