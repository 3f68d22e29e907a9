"""keras.utils.image_dataset_from_directory, text_dataset_from_directory and the PIL helpers against
Keras 3 on real TF 2.21 (clause keras.dataset-from-directory), on a temporary directory tree built the
same way in both processes (class subdirectories with a nested folder, PNG and JPEG files of several
sizes, grey and RGB, a .txt file, a hidden directory): the file order for a seed (Keras's
index_directory and its NumPy shuffle), class_names, the split (training / validation / both),
labels (int, categorical, binary, None, a list), color modes, crop_to_aspect_ratio,
pad_to_aspect_ratio, batch_size None, and every batch's images (SHA-1 of their float32 bytes) and
labels. Where the pipeline shuffles with tf.data (shuffle=True, a seed), the order is TF's (clause
dataset.shuffle), so two epochs of (image, label) pairs are compared in order, as the batches are
with shuffle=False. Live only (a subprocess: this module is its
worker)."""

from __future__ import annotations

import hashlib
import os
import tempfile
from typing import Any

import numpy as np
import pytest

import tf_workers

pytestmark = [pytest.mark.tf, pytest.mark.skipif(not tf_workers.HAS_TF, reason="needs real TensorFlow (live only)")]


def _tree(root: str, binary: bool = False) -> str:
    """Class folders of small PNG and JPEG images (seeded), a nested folder, a text file each."""
    from PIL import Image
    rng = np.random.default_rng(2121)
    classes = (("cats", 5), ("dogs", 4)) if binary else (("cats", 5), ("dogs", 4), ("zebra", 3))
    for cls, n in classes:
        os.makedirs(os.path.join(root, cls, "sub"), exist_ok=True)
        for i in range(n):
            h, w = int(rng.integers(5, 30)), int(rng.integers(5, 30))
            a = rng.integers(0, 256, (h, w, 3), dtype=np.uint8)
            fmt = ("png", "jpg", "jpeg")[i % 3]
            path = os.path.join(root, cls, "sub" if i == 2 else "", f"img{i}.{fmt}")
            Image.fromarray(a if i % 2 == 0 else a[..., 0]).save(path, format="PNG" if fmt == "png" else "JPEG",
                                                                 quality=90)
        with open(os.path.join(root, cls, "notes.txt"), "w") as f:
            f.write(f"the text of {cls} " * 3)
    os.makedirs(os.path.join(root, ".hidden"), exist_ok=True)
    return root


def _h(a: Any) -> str:
    return hashlib.sha1(np.ascontiguousarray(a.numpy()).tobytes()).hexdigest()[:16]


def _epoch(ds: Any) -> list:
    out = []
    for el in ds:
        if isinstance(el, tuple):
            out.append([list(el[0].shape), el[0].dtype.name, _h(el[0]), el[1].numpy().tolist()])
        else:
            out.append([list(el.shape), el.dtype.name, _h(el)])
    return out


CASES = [
    ("ordered", dict(shuffle=False, batch_size=4, image_size=(8, 10)), False),
    ("categorical-grey", dict(shuffle=False, batch_size=None, image_size=(7, 7), label_mode="categorical",
                              color_mode="grayscale"), False),
    ("crop", dict(shuffle=False, batch_size=3, image_size=(9, 9), crop_to_aspect_ratio=True), False),
    ("pad-nearest", dict(shuffle=False, labels=None, batch_size=5, image_size=(6, 12), pad_to_aspect_ratio=True,
                         interpolation="nearest"), False),
    ("list-labels", dict(shuffle=False, labels=[3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8], batch_size=6,
                         image_size=(5, 5), interpolation="area"), False),
    ("seeded", dict(seed=3, batch_size=4, image_size=(8, 10)), True),
    ("split-both", dict(seed=11, validation_split=0.3, subset="both", batch_size=3, image_size=(9, 9)), True),
    ("split-validation", dict(seed=5, validation_split=0.25, subset="validation", image_size=(4, 4)), True),
    ("binary", dict(seed=7, label_mode="binary", batch_size=2, image_size=(6, 6)), True),
]


def _program(tf: Any, keras: Any) -> dict:
    out: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as d:
        tree = _tree(os.path.join(d, "tree"))
        binary = _tree(os.path.join(d, "binary"), binary=True)
        for name, kw, shuffled in CASES:
            root = binary if name == "binary" else tree
            made = keras.utils.image_dataset_from_directory(root, verbose=False, **kw)
            for k, ds in enumerate(made if isinstance(made, list) else [made]):
                rec: dict[str, Any] = {"paths": [os.path.relpath(p, root) for p in ds.file_paths],
                                       "classes": ds.class_names}
                if shuffled:
                    batched = kw.get("batch_size", 32) is not None
                    for e in ("epoch", "epoch2"):   # two passes: tf.data's shuffle reshuffles each iteration
                        rec[e] = [[_h(x), y.numpy().tolist()] for x, y in (ds.unbatch() if batched else ds)]
                    rec["shapes"] = [list(x.shape) for x, _ in ds]
                else:
                    rec["epoch"] = _epoch(ds)
                out[f"{name}/{k}"] = rec
        text = keras.utils.text_dataset_from_directory(tree, shuffle=False, batch_size=2, max_length=12,
                                                       verbose=False)
        out["text"] = [[x.numpy().tolist(), y.numpy().tolist()] for x, y in text]
        text = keras.utils.text_dataset_from_directory(tree, seed=2, labels=None, batch_size=None, verbose=False)
        out["text_seeded"] = [x.numpy().decode() for x in text]
        errors = {}
        for key, kw in (("bad_mode", dict(label_mode="x")), ("bad_color", dict(color_mode="cmyk")),
                        ("split_no_seed", dict(validation_split=0.2, subset="training")),
                        ("binary_3", dict(label_mode="binary")), ("bad_subset", dict(validation_split=0.2,
                                                                                     subset="x", seed=1)),
                        ("bad_classes", dict(class_names=["cats", "lions"])),
                        ("bad_labels", dict(labels=[1, 2]))):
            try:
                keras.utils.image_dataset_from_directory(tree, verbose=False, **kw)
                errors[key] = "no error"
            except Exception as e:  # noqa: BLE001 - Keras's error is the answer
                errors[key] = [type(e).__name__, str(e).replace(d, "<tmp>")[:160]]
        out["errors"] = errors
        png = os.path.join(tree, "cats", "img0.png")
        for mode in ("rgb", "grayscale", "rgba"):
            for size, interp, keep in ((None, "nearest", False), ((5, 6), "bilinear", True), ((9, 4), "bicubic", False)):
                img = keras.utils.load_img(png, color_mode=mode, target_size=size, interpolation=interp,
                                           keep_aspect_ratio=keep)
                arr = keras.utils.img_to_array(img)
                out[f"load/{mode}/{size}/{interp}"] = [list(arr.shape), str(arr.dtype),
                                                       hashlib.sha1(arr.tobytes()).hexdigest()[:16]]
        arr = keras.utils.img_to_array(keras.utils.load_img(png))
        back = keras.utils.array_to_img(arr * 0.5 - 3)
        out["array_to_img"] = [back.mode, list(back.size), hashlib.sha1(back.tobytes()).hexdigest()[:16]]
        saved = os.path.join(d, "saved.png")
        keras.utils.save_img(saved, arr)
        with open(saved, "rb") as f:
            out["save_img"] = hashlib.sha1(f.read()).hexdigest()[:16]
    return out


def _tf_worker(indices: list[int]) -> dict[int, Any]:
    import warnings

    import keras
    import tensorflow as tf
    import contextlib
    import sys
    warnings.simplefilter("ignore")
    with contextlib.redirect_stdout(sys.stderr):   # (Keras prints "Using 9 files for training."; stdout is the pickle)
        return {0: _program(tf, keras)}


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return tf_workers.spawn(__file__, [0])


@pytest.mark.clause("keras.dataset-from-directory")
def test_dataset_from_directory_as_keras(tf_results: dict[int, Any]) -> None:
    import simdist
    from simdist import keras, tf
    simdist.reset()
    got, want = _program(tf, keras), tf_results[0]
    assert sorted(got) == sorted(want), f"cases {sorted(set(got) ^ set(want))}, but should match Keras's"
    bad = [f"{k}: {got[k]!r:.300}, but Keras on TF 2.21 gives {want[k]!r:.300}" for k in want if got[k] != want[k]]
    assert not bad, f"{len(bad)} of {len(want)} cases differ: " + "; ".join(bad[:3])


if __name__ == "__main__":  # TF worker
    tf_workers.serve(_tf_worker)
    os._exit(0)
