"""tf.keras.applications against TF 2.21 + Keras 3.15 (clause keras.applications): every model builder with
`weights=None` at a small input (each family's smallest member in the default run, the rest under `-m slow`)
gives Keras's model: the same parameter count, layer names in order, weight paths and shapes, output shape, the
same initial weights bit for bit after `keras.utils.set_random_seed`, and the same predictions (to float32
rounding: the convolutions add in another order); each module's preprocess_input and decode_predictions; the
builders' argument errors; and a frozen MobileNetV2 base under a new head trained by fit under the default strategy and MirroredStrategy.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
from typing import Any, Callable

import numpy as np
import pytest

import tf_programs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

#: (builder, keyword arguments, input side): each family's smallest member first (the default run)
DEFAULT_MODELS: list[tuple[str, dict, int]] = [
    ("MobileNet", {"alpha": 0.25}, 32),
    ("MobileNetV2", {"alpha": 0.35}, 32),
    ("MobileNetV3Small", {"alpha": 0.75, "minimalistic": True}, 32),
    ("EfficientNetB0", {}, 32),
    ("EfficientNetV2B0", {}, 32),
    ("NASNetMobile", {}, 32),
    ("DenseNet121", {}, 32),
    ("ResNet50", {}, 32),
    ("ResNet50V2", {"pooling": "avg", "include_top": False}, 32),
    ("InceptionV3", {}, 75),
    ("Xception", {"include_top": False, "pooling": "max"}, 71),
    ("VGG16", {"include_top": False, "pooling": "max"}, 32),
    ("ConvNeXtTiny", {}, 32),
]
SLOW_MODELS: list[tuple[str, dict, int]] = [
    ("MobileNetV3Large", {}, 32),
    ("InceptionResNetV2", {}, 75),
    ("EfficientNetB1", {}, 32), ("EfficientNetB2", {}, 32), ("EfficientNetB3", {}, 32),
    ("EfficientNetB4", {}, 32), ("EfficientNetB5", {}, 32), ("EfficientNetB6", {}, 32), ("EfficientNetB7", {}, 32),
    ("EfficientNetV2B1", {}, 32), ("EfficientNetV2B2", {}, 32), ("EfficientNetV2B3", {}, 32),
    ("EfficientNetV2S", {}, 32), ("EfficientNetV2M", {}, 32), ("EfficientNetV2L", {}, 32),
    ("DenseNet169", {}, 32), ("DenseNet201", {}, 32),
    ("ResNet101", {}, 32), ("ResNet152", {}, 32), ("ResNet101V2", {}, 32), ("ResNet152V2", {}, 32),
    ("VGG19", {}, 32), ("NASNetLarge", {}, 32),
    ("ConvNeXtSmall", {}, 32), ("ConvNeXtBase", {}, 32), ("ConvNeXtLarge", {}, 32), ("ConvNeXtXLarge", {}, 32),
]


def _digest(parts: list[Any]) -> str:
    h = hashlib.sha256()
    for p in parts:
        h.update(p if isinstance(p, bytes) else repr(p).encode())
    return h.hexdigest()[:16]


def _val(x: Any) -> Any:
    if isinstance(x, np.ndarray):
        return [str(x.dtype), list(x.shape), np.round(x.astype(np.float64), 4).tolist()]
    if isinstance(x, (list, tuple)):
        return [_val(v) for v in x]
    if isinstance(x, np.generic):
        return x.item()
    return x


def _try(out: list, label: str, fn: Callable[[], Any]) -> None:
    try:
        out.append([label, _val(fn())])
    except BaseException as e:  # noqa: BLE001 - the class and text are what is compared
        out.append([label, [type(e).__name__, str(e).split("\n")[0][:160]]])


def _model_program(tf: Any, case: dict) -> list:
    name, kwargs, side = case["model"]
    tf.keras.utils.set_random_seed(0)
    with contextlib.redirect_stdout(io.StringIO()):
        m = getattr(tf.keras.applications, name)(weights=None, input_shape=(side, side, 3),
                                                 **({"classes": 5} if kwargs.get("include_top", True) else {}),
                                                 **kwargs)
    ws = m.weights
    out: list = [
        ["name", m.name],
        ["params", int(m.count_params())],
        ["layers", [len(m.layers), _digest([(type(l).__name__, l.name) for l in m.layers]),
                    [l.name for l in m.layers[:4]], [l.name for l in m.layers[-4:]]]],
        ["weights", [len(ws), _digest([(w.path, tuple(w.shape), str(w.dtype)) for w in ws]),
                     [[w.path, list(w.shape)] for w in ws[:3]]]],
        ["trainable", len(m.trainable_weights)],
        ["output_shape", str(m.output_shape)],
        ["initial_bits", _digest([np.ascontiguousarray(w.numpy()).tobytes() for w in ws])],
    ]
    x = (np.random.RandomState(3).uniform(0, 255, (2, side, side, 3))).astype(np.float32)
    out.append(["predict", np.asarray(m.predict(x, verbose=0), np.float64).tolist()])
    return out


def _preprocess_program(tf: Any) -> list:
    apps = tf.keras.applications
    out: list = []
    x = np.random.RandomState(1).uniform(0, 255, (2, 4, 4, 3)).astype(np.float32)
    xf = np.random.RandomState(2).uniform(0, 255, (2, 3, 4, 4)).astype(np.float32)
    for mod in ["convnext", "densenet", "efficientnet", "efficientnet_v2", "imagenet_utils", "inception_resnet_v2",
                "inception_v3", "mobilenet", "mobilenet_v2", "mobilenet_v3", "nasnet", "resnet", "resnet50",
                "resnet_v2", "vgg16", "vgg19", "xception"]:
        m = getattr(apps, mod)
        _try(out, f"{mod} names", lambda: sorted(n for n in dir(m) if not n.startswith("_")))
        _try(out, f"{mod} preprocess", lambda: np.asarray(m.preprocess_input(x.copy())))
        _try(out, f"{mod} preprocess tensor", lambda: np.asarray(m.preprocess_input(tf.constant(x))))
        _try(out, f"{mod} preprocess channels_first",
             lambda: np.asarray(m.preprocess_input(xf.copy(), data_format="channels_first")))
        _try(out, f"{mod} preprocess float64", lambda: np.asarray(m.preprocess_input(x.astype(np.float64))))
        _try(out, f"{mod} decode bad shape", lambda: m.decode_predictions(np.zeros((2, 5), np.float32)))
    iu = apps.imagenet_utils
    for mode in ["caffe", "tf", "torch", "nonsense"]:
        _try(out, f"imagenet_utils mode {mode}", lambda: np.asarray(iu.preprocess_input(x.copy(), mode=mode)))
    _try(out, "imagenet_utils 3-d input", lambda: np.asarray(iu.preprocess_input(x[0].copy(), mode="caffe")))
    _try(out, "imagenet_utils bad data_format",
         lambda: np.asarray(iu.preprocess_input(x.copy(), data_format="channels_middle")))
    _try(out, "imagenet_utils int input", lambda: np.asarray(iu.preprocess_input(x.astype(np.int32), mode="tf")))
    return out


def _arguments_program(tf: Any) -> list:
    apps = tf.keras.applications
    out: list = []
    calls = [
        ("imagenet with 5 classes", lambda: apps.ResNet50(weights="imagenet", classes=5)),
        ("unknown weights file", lambda: apps.MobileNetV2(weights="no/such/file.h5")),
        ("input too small", lambda: apps.ResNet50(weights=None, input_shape=(16, 16, 3))),
        ("two channels", lambda: apps.VGG16(weights=None, input_shape=(32, 32, 2))),
        ("mobilenet bad alpha", lambda: apps.MobileNet(weights="imagenet", alpha=0.3, input_shape=(128, 128, 3))),
        ("mobilenetv2 bad alpha", lambda: apps.MobileNetV2(weights="imagenet", alpha=0.3)),
        ("mobilenetv3 bad alpha", lambda: apps.MobileNetV3Small(weights="imagenet", alpha=0.3)),
        ("inception small", lambda: apps.InceptionV3(weights=None, input_shape=(64, 64, 3))),
        ("xception small", lambda: apps.Xception(weights=None, input_shape=(64, 64, 3))),
        ("nasnet imagenet bad shape", lambda: apps.NASNetMobile(weights="imagenet", input_shape=(64, 64, 3))),
        ("classifier activation with weights",
         lambda: apps.MobileNet(weights="imagenet", classifier_activation="relu", input_shape=(128, 128, 3))),
    ]
    for label, fn in calls:
        _try(out, label, lambda: fn().name)
    with contextlib.redirect_stdout(io.StringIO()):
        tf.keras.utils.set_random_seed(1)
        inp = tf.keras.Input((32, 32, 3))
        _try(out, "input_tensor", lambda: [(m := apps.MobileNetV2(weights=None, input_tensor=inp, alpha=0.35,
                                                                  include_top=False, pooling="avg")).name,
                                           str(m.output_shape), len(m.layers), m.inputs[0] is inp])
        _try(out, "no input shape, no top", lambda: str(apps.MobileNet(weights=None, include_top=False,
                                                                       alpha=0.25).output_shape))
        _try(out, "channels multiplier name", lambda: apps.MobileNet(weights=None, alpha=0.5, depth_multiplier=2,
                                                                     input_shape=(32, 32, 3), classes=3).name)
    return out


def _fit_program(tf: Any, case: dict) -> list:
    """Transfer learning as the Keras guide writes it: a frozen MobileNetV2 base (its BatchNormalizations then
    run in inference mode) under a new Dense head, fit, evaluated and predicted. (Training the whole base on a
    few 32x32 images is not compared: its BatchNormalizations normalize over four values at the 1x1 stage,
    and float32 rounding grows 1,000-fold in one step on TF itself.)"""
    out: list = []
    x = np.random.RandomState(4).uniform(0, 255, (16, 32, 32, 3)).astype(np.float32)
    y = np.array([0, 1, 2, 0, 1, 2, 0, 1, 2, 2, 1, 0, 0, 1, 1, 2])
    strategy = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"]) if case["strategy"] == "mirrored2" \
        else tf.distribute.get_strategy()
    tf.keras.utils.set_random_seed(2)
    with contextlib.redirect_stdout(io.StringIO()), strategy.scope():
        base = tf.keras.applications.MobileNetV2(weights=None, input_shape=(32, 32, 3), alpha=0.35,
                                                 include_top=False, pooling="avg")
        base.trainable = False
        model = tf.keras.Sequential([tf.keras.Input((32, 32, 3)), base, tf.keras.layers.Dense(3, activation="softmax")])
        model.compile(optimizer=tf.keras.optimizers.Adam(0.01), loss="sparse_categorical_crossentropy",
                      metrics=["accuracy"])
    pre = tf.keras.applications.mobilenet_v2.preprocess_input(x.copy())
    hist = model.fit(pre, y, batch_size=4, epochs=3, verbose=0, shuffle=False)
    out.append(["trainable weights", [w.path for w in model.trainable_weights]])
    out.append(["loss", [float(v) for v in hist.history["loss"]]])
    out.append(["accuracy", [float(v) for v in hist.history["accuracy"]]])
    out.append(["evaluate", [float(v) for v in model.evaluate(pre, y, batch_size=8, verbose=0)]])
    out.append(["predict", np.asarray(model.predict(pre[:3], verbose=0), np.float64).tolist()])
    out.append(["weight norms", [float(np.linalg.norm(np.asarray(w, np.float64))) for w in model.get_weights()[-2:]]])
    return out


def _files_program(tf: Any, workdir: str) -> list:
    """get_file from a file:// origin (cache, hash check, archive extraction) and a builder's `weights=` file."""
    import os
    import tarfile
    out: list = []
    src = os.path.join(workdir, "src")
    os.makedirs(src)
    with open(os.path.join(src, "data.txt"), "w") as f:
        f.write("simdist and keras")
    with tarfile.open(os.path.join(src, "pack.tar.gz"), "w:gz") as t:
        t.add(os.path.join(src, "data.txt"), arcname="pack/data.txt")
    digest = hashlib.sha256(b"simdist and keras").hexdigest()
    rel = (lambda p: os.path.relpath(p, workdir))
    get = tf.keras.utils.get_file
    with contextlib.redirect_stdout(io.StringIO()):
        _try(out, "get_file", lambda: rel(get("d.txt", origin="file://" + os.path.join(src, "data.txt"),
                                              cache_dir=workdir, file_hash=digest)))
        _try(out, "get_file cached", lambda: rel(get("d.txt", origin="file:///no/such/origin", cache_dir=workdir,
                                                     cache_subdir="datasets")))
        _try(out, "get_file content", lambda: open(os.path.join(workdir, "datasets", "d.txt")).read())
        _try(out, "get_file wrong hash", lambda: rel(get("e.txt", origin="file://" + os.path.join(src, "data.txt"),
                                                         cache_dir=workdir, file_hash="0" * 64)))
        _try(out, "get_file extract", lambda: rel(get("pack.tar.gz", origin="file://" + os.path.join(src, "pack.tar.gz"),
                                                      cache_dir=workdir, extract=True)))
        _try(out, "get_file extracted", lambda: sorted(os.listdir(os.path.join(workdir, "datasets"))))
        _try(out, "get_file no origin", lambda: get("f.txt", cache_dir=workdir))
        tf.keras.utils.set_random_seed(5)
        model = tf.keras.applications.MobileNet(weights=None, alpha=0.25, input_shape=(32, 32, 3), classes=4)
        path = os.path.join(workdir, "mobilenet.weights.h5")
        model.save_weights(path)
        tf.keras.utils.set_random_seed(6)
        again = tf.keras.applications.MobileNet(weights=path, alpha=0.25, input_shape=(32, 32, 3), classes=4)
        x = np.random.RandomState(7).uniform(0, 255, (2, 32, 32, 3)).astype(np.float32)
        _try(out, "weights file restores", lambda: all(np.array_equal(a, b) for a, b in
                                                       zip(model.get_weights(), again.get_weights())))
        _try(out, "weights file predict", lambda: bool(np.array_equal(model.predict(x, verbose=0),
                                                                      again.predict(x, verbose=0))))
    return out


def program(tf: Any, case: dict, workdir: str) -> Any:
    if case["name"] == "files":
        return _files_program(tf, workdir)
    if case["name"] == "preprocess":
        return _preprocess_program(tf)
    if case["name"] == "arguments":
        return _arguments_program(tf)
    if case["name"].startswith("fit"):
        return _fit_program(tf, case)
    return _model_program(tf, case)


#: values compared with a tolerance (float32 convolutions summed in another order); all else exactly
CLOSE = {"predict": (1e-4, 1e-5), "loss": (1e-4, 1e-6), "evaluate": (1e-4, 1e-6), "weight norms": (1e-4, 1e-6)}

CASES: dict[str, dict] = {}
for _name, _kw, _side in DEFAULT_MODELS + SLOW_MODELS:
    CASES[_name] = {"strategy": "other", "name": _name, "model": [_name, _kw, _side]}
CASES["preprocess"] = {"strategy": "other", "name": "preprocess"}
CASES["arguments"] = {"strategy": "other", "name": "arguments"}
CASES["files"] = {"strategy": "other", "name": "files"}
CASES["fit_default"] = {"strategy": "other", "name": "fit_default"}
CASES["fit_mirrored"] = {"strategy": "mirrored2", "name": "fit_mirrored"}
NAMES = list(CASES)
SLOW = {n for n, _, _ in SLOW_MODELS}


@pytest.fixture(scope="module")
def tf_results(request: Any) -> dict[int, Any]:
    return tf_programs.spawn(__file__, CASES, tf_programs.selected(request, __file__))


@pytest.mark.clause("keras.applications")
@pytest.mark.parametrize("index", [pytest.param(i, id=n, marks=[pytest.mark.slow] if n in SLOW else [])
                                   for i, n in enumerate(NAMES)])
def test_applications_as_tf(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    name = NAMES[index]
    got, want = tf_programs.on_simdist(program, CASES[name], str(tmp_path)), tf_results[index]
    assert [g[0] for g in got] == [w[0] for w in want], f"{name}: labels differ"
    for g, w in zip(got, want):
        if g[0] in CLOSE:
            tf_programs.close(g[1], w[1], f"{name}: {g[0]}", *CLOSE[g[0]])
        else:
            assert g == w, f"{name}: {w[0]}: simdist gives {str(g[1])[:300]}, TF 2.21 gives {str(w[1])[:300]}"


if __name__ == "__main__":  # TF worker
    tf_workers.serve(tf_programs.worker(CASES, program))
