"""Keras's directory loaders and the PIL helpers as a training script meets them: the datasets' element specs (what
`model.fit` builds a model from and users read), the labels' specs per label_mode, and set_shape refining a traced
function's static shape. Probed on TF 2.21 + Keras 3.15 beside simdist before this module was written (87 calls,
/work/wt/lead48_logs/probe/imgdata_probe.py, forty-eighth session): simdist's loaders gave element specs of unknown
dimensions everywhere (its tf.data functions read files, so its spec probes fell back to a real element and kept no
dimension), labels included, and img_to_array took any data_format."""

from __future__ import annotations

import struct
import wave

import numpy as np
import pytest

from simdist.conformance.assertions import raises

clause = pytest.mark.clause


def _spec(ds):
    """The element spec as ((shape, dtype name), ...) per leaf (a lone spec as one pair)."""
    def one(s):
        return (tuple(s.shape.as_list()), s.dtype.name)
    es = ds.element_spec
    return tuple(one(s) for s in es) if isinstance(es, tuple) else one(es)


def _images(root, shapes=((6, 4), (5, 7), (4, 4))):
    from PIL import Image
    rng = np.random.default_rng(7)
    for cls, size in zip(("cat", "dog", "emu"), shapes):
        (root / cls).mkdir()
        for i in range(2):
            Image.fromarray(rng.integers(0, 256, (*size, 3), dtype=np.uint8)).save(root / cls / f"{cls}{i}.png")
    return str(root)


def _wavs(root):
    rng = np.random.default_rng(3)
    for cls, lens in (("no", (5, 9)), ("yes", (7, 3))):
        (root / cls).mkdir()
        for i, n in enumerate(lens):
            with wave.open(str(root / cls / f"{cls}{i}.wav"), "wb") as w:
                w.setnchannels(1)
                w.setsampwidth(2)
                w.setframerate(8000)
                w.writeframes(struct.pack("<" + "h" * n, *rng.integers(-3000, 3000, n).tolist()))
    return str(root)


@clause("keras.dataset-from-directory", ref="tf221")
@pytest.mark.parametrize("kwargs, want", [
    ({}, (((None, 4, 3, 3), "float32"), ((None,), "int32"))),
    ({"label_mode": "categorical"}, (((None, 4, 3, 3), "float32"), ((None, 3), "float32"))),
    ({"labels": None}, ((None, 4, 3, 3), "float32")),
    ({"labels": [0, 1, 1, 0, 1, 0], "label_mode": "binary"}, (((None, 4, 3, 3), "float32"), ((None, 1), "float32"))),
    ({"color_mode": "grayscale"}, (((None, 4, 3, 1), "float32"), ((None,), "int32"))),
    ({"color_mode": "rgba"}, (((None, 4, 3, 4), "float32"), ((None,), "int32"))),
    ({"data_format": "channels_first"}, (((None, 3, 4, 3), "float32"), ((None,), "int32"))),
    ({"crop_to_aspect_ratio": True}, (((None, 4, 3, 3), "float32"), ((None,), "int32"))),
    ({"pad_to_aspect_ratio": True}, (((None, 4, 3, 3), "float32"), ((None,), "int32"))),
    ({"interpolation": "nearest"}, (((None, 4, 3, 3), "uint8"), ((None,), "int32"))),
    ({"batch_size": None, "label_mode": "categorical"}, (((4, 3, 3), "float32"), ((3,), "float32"))),
], ids=["int", "categorical", "no-labels", "binary", "grayscale", "rgba", "channels-first", "crop", "pad", "nearest",
        "unbatched"])
def test_image_dataset_element_spec_is_the_loaders_static_shape(keras, tmp_path, kwargs, want):
    """Keras 3.15's loader sets the decoded image's static shape (set_shape: image_size and the color mode's channels,
    in the data format's order; nearest-neighbour resizing keeps uint8) and zips the labels' own dataset: int32
    scalars, float32 one-hot vectors of the class count, float32 [1] for binary; batching adds a None dimension."""
    d = _images(tmp_path)
    ds = keras.utils.image_dataset_from_directory(d, image_size=(4, 3), batch_size=kwargs.pop("batch_size", 2),
                                                  shuffle=False, **kwargs)
    got = _spec(ds)
    assert got == want, f"element_spec {got}, but should be {want} [image_dataset_from_directory(**{kwargs})]"
    first = next(iter(ds))
    leaves = first if isinstance(first, tuple) else (first,)
    specs = (want,) if isinstance(want[1], str) else want
    for leaf, (shape, dtype) in zip(leaves, specs):
        assert leaf.dtype.name == dtype and all(s is None or s == g for s, g in zip(shape, leaf.shape)), (
            f"first element {leaf.dtype.name}{tuple(leaf.shape)}, but should fit the spec {shape} {dtype}")


@clause("keras.dataset-from-directory", ref="tf221")
@pytest.mark.parametrize("kwargs, want", [
    ({}, (((None, None, None), "float32"), ((None,), "int32"))),
    ({"output_sequence_length": 6}, (((None, 6, None), "float32"), ((None,), "int32"))),
    ({"output_sequence_length": 6, "label_mode": "categorical"}, (((None, 6, None), "float32"),
                                                                  ((None, 2), "float32"))),
    ({"label_mode": "binary"}, (((None, None, None), "float32"), ((None, 1), "float32"))),
    ({"labels": None, "output_sequence_length": 4}, ((None, 4, None), "float32")),
], ids=["int", "sequence-length", "categorical", "binary", "no-labels"])
def test_audio_dataset_element_spec(keras, tmp_path, kwargs, want):
    """Keras 3.15 decodes with tf.audio.decode_wav(desired_samples=output_sequence_length or -1), whose shape
    function gives [samples, channels] (unknown where -1; the channels always, the loader asks for none); labels
    as the image loader's."""
    ds = keras.utils.audio_dataset_from_directory(_wavs(tmp_path), batch_size=2, shuffle=False, **kwargs)
    got = _spec(ds)
    assert got == want, f"element_spec {got}, but should be {want} [audio_dataset_from_directory(**{kwargs})]"


@clause("keras.dataset-from-directory", ref="tf221")
@pytest.mark.parametrize("label_mode, want", [
    ("int", ((None,), "int32")), ("categorical", ((None, 2), "float32")), ("binary", ((None, 1), "float32"))])
def test_text_dataset_label_spec(keras, tmp_path, label_mode, want):
    for cls, docs in (("neg", ("bad movie", "awful")), ("pos", ("great fun", "nice"))):
        (tmp_path / cls).mkdir()
        for i, doc in enumerate(docs):
            (tmp_path / cls / f"{cls}{i}.txt").write_text(doc)
    ds = keras.utils.text_dataset_from_directory(str(tmp_path), batch_size=2, shuffle=False, label_mode=label_mode)
    got = _spec(ds)
    assert got == (((None,), "string"), want), f"element_spec {got}, but should be (((None,), 'string'), {want})"


@clause("dataset.function-trace", ref="tf221")
def test_a_mapped_function_that_reads_files_keeps_its_static_shapes(tf, tmp_path):
    """A tf.data function is traced once into a graph: its element spec is the static shapes its ops give (an input
    returned as it is keeps its spec; set_shape refines a decoded image's unknown height and width), whatever the
    files hold."""
    from PIL import Image
    paths = []
    for i, size in enumerate(((5, 7), (3, 2))):
        p = tmp_path / f"{i}.png"
        Image.fromarray(np.full((*size, 3), 9 * i, np.uint8)).save(p)
        paths.append(str(p))
    pairs = tf.data.Dataset.zip((tf.data.Dataset.from_tensor_slices(paths),
                                 tf.data.Dataset.from_tensor_slices([0, 1]).map(lambda y: tf.one_hot(y, 4))))

    def load(path, y):
        img = tf.io.decode_png(tf.io.read_file(path), channels=3)
        anyc = tf.io.decode_png(tf.io.read_file(path))
        anyc.set_shape((None, None, 3))
        kept = tf.io.decode_png(tf.io.read_file(path), channels=3)
        kept.set_shape((None, None, None))   # (a merge: the known channels stay)
        return img, anyc, kept, y
    got = _spec(pairs.map(load))
    want = (((None, None, 3), "uint8"), ((None, None, 3), "uint8"), ((None, None, 3), "uint8"), ((4,), "float32"))
    assert got == want, f"element_spec {got}, but should be {want}"

    def load_fixed(path):
        img = tf.io.decode_png(tf.io.read_file(path), channels=3)
        img = tf.image.resize_with_crop_or_pad(img, 4, 4)
        img.set_shape((4, 4, 3))
        return img
    got = _spec(tf.data.Dataset.from_tensor_slices(paths).map(load_fixed).batch(2))
    assert got == ((None, 4, 4, 3), "float32") or got == ((None, 4, 4, 3), "uint8"), \
        f"element_spec {got}, but should be ((None, 4, 4, 3), 'uint8')"


@clause("function.symbolic-tensors", ref="tf221")
def test_set_shape_refines_a_traced_functions_static_shape(tf):
    """In a tf.function TF's set_shape merges the given shape into the static one: unknown dimensions it knows
    become known, the others stay; an incompatible one is ValueError."""
    seen = {}

    @tf.function(input_signature=[tf.TensorSpec([None, None, 3], tf.float32)])
    def f(x):
        seen["before"] = x.shape.as_list()
        x.set_shape([2, None, 3])
        seen["after"] = x.shape.as_list()
        y = x * 2.0
        seen["derived"] = y.shape.as_list()
        return y
    f(tf.zeros((2, 5, 3)))
    assert seen == {"before": [None, None, 3], "after": [2, None, 3], "derived": [2, None, 3]}, \
        f"static shapes {seen}, but should be before [None, None, 3], after and derived [2, None, 3]"

    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
    def g(x):
        x.set_shape([None, 4])
        return x
    with raises(ValueError, call="x.set_shape([None, 4]) of a [None, 3] tensor in a tf.function"):
        g(tf.zeros((1, 3)))


@clause("keras.dataset-from-directory", ref="tf221")
@pytest.mark.parametrize("fn", ["img_to_array", "array_to_img", "save_img"])
def test_image_helpers_check_the_data_format(keras, tmp_path, fn):
    """Keras's image helpers standardize data_format: anything but channels_first/channels_last is a ValueError."""
    msg = "The `data_format` argument must be one of {'channels_first', 'channels_last'}. Received: data_format=nhwc"
    x = np.zeros((2, 3, 3), "float32")
    call = {"img_to_array": lambda: keras.utils.img_to_array(x, data_format="nhwc"),
            "array_to_img": lambda: keras.utils.array_to_img(x, data_format="nhwc"),
            "save_img": lambda: keras.utils.save_img(str(tmp_path / "a.png"), x, data_format="nhwc")}[fn]
    import re
    with raises(ValueError, match="^" + re.escape(msg) + "$", call=f"keras.utils.{fn}(..., data_format='nhwc')"):
        call()
