"""tf.keras.preprocessing.image.ImageDataGenerator and its iterators against TF 2.21 + Keras 3.15 (clause
keras.preprocessing.image-generator): augmented batches of `flow` (every random transform, seeded; labels,
sample weights, extra inputs, subsets, shuffling, `next` and indexing, epochs), `fit`'s feature-wise statistics
and ZCA whitening, `flow_from_directory` over PNG files written by the program (class modes, colour modes,
target sizes, subsets), the argument errors, and a Keras model trained by `fit` on a `flow`. Each case: a list
of [label, value or [error class, first line]]; an array is [dtype, shape, values rounded to 4 decimals].
"""

from __future__ import annotations

import contextlib
import io
import os
from typing import Any, Callable

import numpy as np
import pytest

import tf_programs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _val(x: Any) -> Any:
    if isinstance(x, np.ndarray):
        return [str(x.dtype), list(x.shape), np.round(x.astype(np.float64), 4).tolist()]
    if isinstance(x, (list, tuple)):
        return [_val(v) for v in x]
    if isinstance(x, dict):
        return {k: _val(v) for k, v in sorted(x.items())}
    if isinstance(x, np.generic):
        return x.item()
    return x


def _try(out: list, label: str, fn: Callable[[], Any]) -> None:
    try:
        out.append([label, _val(fn())])
    except BaseException as e:  # noqa: BLE001 - the class and text are what is compared
        out.append([label, [type(e).__name__, _set_sorted(str(e).split("\n")[0])[:120]]])


def _set_sorted(msg: str) -> str:
    """Keras prints a set of class modes, in an order that changes with PYTHONHASHSEED: its items sorted."""
    head, sep, rest = msg.partition("expected one of: {")
    if not sep or "}" not in rest:
        return msg
    items, tail = rest.split("}", 1)
    return head + sep + ", ".join(sorted(i.strip() for i in items.split(","))) + "}" + tail


def _images(n: int, h: int, w: int, c: int, seed: int) -> np.ndarray:
    return (np.random.RandomState(seed).uniform(0, 1, (n, h, w, c)) * 255.0).astype(np.float32)


def _write_pngs(tf: Any, root: str) -> None:
    """Three class folders of small RGB PNGs of different sizes (one folder holds a non-image file)."""
    rng = np.random.RandomState(5)
    for k, (cls, count) in enumerate([("cat", 5), ("dog", 4), ("emu", 3)]):
        os.makedirs(os.path.join(root, cls), exist_ok=True)
        for i in range(count):
            arr = rng.randint(0, 256, (6 + i, 7 + k, 3)).astype(np.uint8)
            tf.keras.utils.save_img(os.path.join(root, cls, f"im{i}.png"), arr, scale=False)
        with open(os.path.join(root, cls, "notes.txt"), "w") as f:
            f.write("not an image")


def program(tf: Any, case: dict, workdir: str) -> Any:
    out: list[Any] = []
    im = tf.keras.preprocessing.image
    name = case["name"]
    x = _images(10, 5, 6, 3, 0)
    y = np.arange(10) % 3
    if name == "flow_transforms":
        for label, kw in [
                ("rotation", {"rotation_range": 40}),
                ("shifts float", {"width_shift_range": 0.3, "height_shift_range": 0.2}),
                ("shifts int list", {"width_shift_range": [1, 2], "height_shift_range": 2}),
                ("shear zoom", {"shear_range": 25, "zoom_range": 0.3, "fill_mode": "constant", "cval": 9.0}),
                ("zoom pair", {"zoom_range": [0.8, 1.1], "fill_mode": "reflect"}),
                ("flips", {"horizontal_flip": True, "vertical_flip": True}),
                ("channel shift", {"channel_shift_range": 30.0}),
                ("brightness", {"brightness_range": (0.5, 1.5)}),
                ("rescale samplewise", {"rescale": 1 / 255.0, "samplewise_center": True,
                                        "samplewise_std_normalization": True}),
                ("preprocessing function", {"preprocessing_function": lambda a: a * 2.0 - 1.0}),
                ("everything order 0", {"rotation_range": 20, "width_shift_range": 0.1, "shear_range": 5,
                                        "zoom_range": 0.1, "horizontal_flip": True, "channel_shift_range": 10.0,
                                        "interpolation_order": 0, "fill_mode": "wrap"}),
                ("channels first", {"rotation_range": 30, "data_format": "channels_first"})]:
            gen = im.ImageDataGenerator(**kw)
            data = np.transpose(x, (0, 3, 1, 2)) if kw.get("data_format") == "channels_first" else x
            it = gen.flow(data, y, batch_size=4, seed=7)
            _try(out, label + " next", lambda it=it: next(it))
            _try(out, label + " next 2", lambda it=it: next(it))
            _try(out, label + " [2]", lambda it=it: it[2])
    elif name == "flow_bookkeeping":
        gen = im.ImageDataGenerator(rotation_range=10)
        it = gen.flow(x, y, batch_size=4, shuffle=True, seed=3, sample_weight=np.linspace(0.1, 1.0, 10))
        _try(out, "len", lambda: len(it))
        for k in range(4):
            _try(out, f"next {k} y and weights", lambda: next(it)[1:])
        _try(out, "total_batches_seen", lambda: it.total_batches_seen)
        _try(out, "batch_index", lambda: it.batch_index)
        it.on_epoch_end()
        _try(out, "after on_epoch_end index_array", lambda: it.index_array)
        it.reset()
        _try(out, "after reset batch_index", lambda: it.batch_index)
        _try(out, "no shuffle no seed no y", lambda: im.ImageDataGenerator().flow(x, batch_size=3, shuffle=False)[3])
        _try(out, "misc inputs", lambda: im.ImageDataGenerator().flow(
            (x, [np.arange(10.0), np.ones((10, 2))]), y, batch_size=3, shuffle=False)[1])
        _try(out, "one misc input", lambda: im.ImageDataGenerator().flow((x, np.arange(10.0)), y, batch_size=4,
                                                                         shuffle=False)[2])
        split = im.ImageDataGenerator(validation_split=0.3)
        _try(out, "training subset", lambda: split.flow(x, y, batch_size=20, shuffle=False, subset="training")[0])
        _try(out, "validation subset", lambda: split.flow(x, y, batch_size=20, shuffle=False, subset="validation")[0])
        _try(out, "class split mismatch", lambda: split.flow(x, np.sort(y), subset="training"))
        _try(out, "class split ignored", lambda: len(split.flow(x, np.sort(y), subset="training",
                                                                ignore_class_split=True)))
        _try(out, "bad subset", lambda: split.flow(x, y, subset="test"))
        _try(out, "rank 3", lambda: im.ImageDataGenerator().flow(x[0], None))
        _try(out, "y length", lambda: im.ImageDataGenerator().flow(x, y[:4]))
        _try(out, "weight length", lambda: im.ImageDataGenerator().flow(x, y, sample_weight=np.ones(3)))
        _try(out, "misc length", lambda: im.ImageDataGenerator().flow((x, np.ones(3)), y))
        _try(out, "index past the end", lambda: im.ImageDataGenerator().flow(x, y, batch_size=4)[3])
        _try(out, "zoom_range three", lambda: im.ImageDataGenerator(zoom_range=[0.1, 0.2, 0.3]))
        _try(out, "brightness_range one", lambda: im.ImageDataGenerator(brightness_range=0.5))
        _try(out, "validation_split 1.5", lambda: im.ImageDataGenerator(validation_split=1.5))
        _try(out, "data_format", lambda: im.ImageDataGenerator(data_format="channels_middle"))
        gen2 = im.ImageDataGenerator(rotation_range=15, zoom_range=0.2)
        _try(out, "get_random_transform seeded", lambda: gen2.get_random_transform((5, 6, 3), seed=11))
        _try(out, "random_transform seeded", lambda: gen2.random_transform(x[0], seed=12))
        _try(out, "apply_transform", lambda: gen2.apply_transform(x[1], {"theta": 10, "flip_horizontal": True,
                                                                          "channel_shift_intensity": 5.0}))
    elif name == "fit_statistics":
        for label, kw, fit_kw in [
                ("featurewise", {"featurewise_center": True, "featurewise_std_normalization": True}, {}),
                ("zca", {"zca_whitening": True, "zca_epsilon": 0.1}, {}),
                ("augmented rounds", {"featurewise_center": True, "rotation_range": 30, "rescale": 0.5},
                 {"augment": True, "rounds": 2, "seed": 4})]:
            gen = im.ImageDataGenerator(**kw)
            small = x[:, :3, :4, :]
            _try(out, label + " fit", lambda gen=gen, small=small, fit_kw=fit_kw: gen.fit(small, **fit_kw))
            _try(out, label + " mean", lambda gen=gen: gen.mean)
            _try(out, label + " std", lambda gen=gen: gen.std)
            _try(out, label + " zca matrix", lambda gen=gen: gen.zca_whitening_matrix)
            _try(out, label + " flags", lambda gen=gen: [gen.featurewise_center, gen.featurewise_std_normalization])
            _try(out, label + " batch", lambda gen=gen, small=small: gen.flow(small, batch_size=3, shuffle=False)[0])
            _try(out, label + " standardize", lambda gen=gen, small=small: gen.standardize(small[0].copy()))
        _try(out, "fit rank 3", lambda: im.ImageDataGenerator(featurewise_center=True).fit(x[0]))
    elif name == "flow_from_directory":
        root = os.path.join(workdir, "images")
        _write_pngs(tf, root)
        for label, kw in [
                ("categorical", {}),
                ("sparse grayscale", {"class_mode": "sparse", "color_mode": "grayscale"}),
                ("binary two classes", {"class_mode": "binary", "classes": ["dog", "cat"]}),
                ("input rgba", {"class_mode": "input", "color_mode": "rgba", "target_size": (3, 4)}),
                ("none bilinear", {"class_mode": None, "interpolation": "bilinear", "target_size": (5, 5)}),
                ("keep aspect", {"keep_aspect_ratio": True, "target_size": (4, 8)})]:
            gen = im.ImageDataGenerator(rescale=1 / 255.0, rotation_range=20)
            full = {"target_size": (6, 6), "batch_size": 5, "seed": 2, **kw}
            printed = io.StringIO()
            with contextlib.redirect_stdout(printed):
                it = gen.flow_from_directory(root, **full)
            out.append([label + " printed", printed.getvalue()])
            _try(out, label + " attrs", lambda it=it: [it.samples, it.num_classes, it.class_indices, it.filenames,
                                                        it.classes, it.image_shape])
            _try(out, label + " batch", lambda it=it: next(it))
            _try(out, label + " [1]", lambda it=it: it[1])
        split = im.ImageDataGenerator(validation_split=0.4)
        for subset in ["training", "validation"]:
            with contextlib.redirect_stdout(io.StringIO()):
                it = split.flow_from_directory(root, target_size=(4, 4), shuffle=False, subset=subset, batch_size=12)
            _try(out, subset + " subset", lambda it=it: [it.filenames, it[0]])
        out.append(["directory errors printed nothing", True])
        _try(out, "bad class_mode", lambda: split.flow_from_directory(root, class_mode="raw"))
        _try(out, "bad color_mode", lambda: split.flow_from_directory(root, color_mode="cmyk"))
        _try(out, "bad subset", lambda: split.flow_from_directory(root, subset="test"))
    elif name == "model_fit":
        tf.keras.utils.set_random_seed(1)
        gen = im.ImageDataGenerator(rotation_range=15, horizontal_flip=True, rescale=1 / 255.0)
        model = tf.keras.Sequential([tf.keras.Input((5, 6, 3)), tf.keras.layers.Flatten(),
                                     tf.keras.layers.Dense(3, activation="softmax")])
        model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="sparse_categorical_crossentropy")
        hist = model.fit(gen.flow(x, y, batch_size=4, seed=9), epochs=3, verbose=0)
        _try(out, "losses", lambda: np.array(hist.history["loss"]))
        _try(out, "weights", lambda: [np.asarray(w) for w in model.get_weights()])
        _try(out, "evaluate", lambda: np.array(model.evaluate(gen.flow(x, y, batch_size=5, shuffle=False, seed=2),
                                                              verbose=0)))
    return out


NAMES = ["flow_transforms", "flow_bookkeeping", "fit_statistics", "flow_from_directory", "model_fit"]
CASES: dict[str, dict] = {n: {"strategy": "default", "name": n} for n in NAMES}


@pytest.fixture(scope="module")
def tf_results(request: Any) -> dict[int, Any]:
    return tf_programs.spawn(__file__, CASES, tf_programs.selected(request, __file__))


@pytest.mark.clause("keras.preprocessing.image-generator")
@pytest.mark.parametrize("index", range(len(NAMES)), ids=NAMES)
def test_image_data_generator_as_tf(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    name = NAMES[index]
    got, want = tf_programs.on_simdist(program, CASES[name], str(tmp_path)), tf_results[index]
    assert [g[0] for g in got] == [w[0] for w in want], f"{name}: labels differ"
    for g, w in zip(got, want):
        assert g == w, f"{name}: {w[0]}: simdist gives {str(g[1])[:300]}, TF 2.21 gives {str(w[1])[:300]}"


if __name__ == "__main__":  # TF worker
    tf_workers.serve(tf_programs.worker(CASES, program))
