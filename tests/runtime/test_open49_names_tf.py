"""Public names of TF 2.21 the facade lacked, added where simdist can honour them (the forty-ninth session,
helper open49; clause keras.preprocessing.legacy): tf.keras.preprocessing.image's Keras 1 NumPy transforms
(apply_affine_transform, apply_channel_shift, apply_brightness_shift and their random_* forms, which draw from
NumPy's global generator: each case seeds it). Each case: a list of [label, value or [error class, first line]];
an image is [dtype, shape, values rounded to 4 decimals].
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import tf_programs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _try(out: list, label: str, fn: Callable[[], Any]) -> None:
    try:
        out.append([label, _img(fn())])
    except BaseException as e:  # noqa: BLE001 - the class and text are what is compared
        out.append([label, [type(e).__name__, str(e).split("\n")[0][:120]]])


def _img(x: Any) -> Any:
    if isinstance(x, np.ndarray):
        return [str(x.dtype), list(x.shape), np.round(x.astype(np.float64), 4).tolist()]
    return x


def _image(shape: tuple, seed: int = 0, scale: float = 255.0) -> np.ndarray:
    return (np.random.RandomState(seed).uniform(0, 1, shape) * scale).astype(np.float32)


def program(tf: Any, case: dict, workdir: str) -> Any:
    out: list[Any] = []
    im = tf.keras.preprocessing.image
    last = _image((5, 6, 3))        # channels last: row_axis 0, col_axis 1, channel_axis 2
    first = _image((2, 4, 5), 1)    # channels first (Keras 1's default axes 1, 2, 0)
    if case["name"] == "apply_affine_transform":
        kw_last = {"row_axis": 0, "col_axis": 1, "channel_axis": 2}
        for label, kw in [("theta 30", {"theta": 30}), ("theta -90", {"theta": -90}), ("tx 1 ty -2", {"tx": 1, "ty": -2}),
                          ("shear 20", {"shear": 20}), ("zoom 0.8 1.3", {"zx": 0.8, "zy": 1.3}),
                          ("all", {"theta": 15, "tx": 0.5, "ty": 1.0, "shear": 10, "zx": 1.1, "zy": 0.9}),
                          ("identity", {})]:
            _try(out, "last " + label, lambda kw=kw: im.apply_affine_transform(last, **kw, **kw_last))
            _try(out, "first " + label, lambda kw=kw: im.apply_affine_transform(first, **kw))
        for mode in ["nearest", "constant", "reflect", "wrap", "mirror"]:
            _try(out, "fill " + mode, lambda mode=mode: im.apply_affine_transform(
                last, theta=40, tx=1, fill_mode=mode, cval=7.0, **kw_last))
        for order in [0, 3]:
            _try(out, f"order {order}", lambda order=order: im.apply_affine_transform(last, theta=25, order=order,
                                                                                       **kw_last))
        _try(out, "col before row", lambda: im.apply_affine_transform(last, theta=30, row_axis=1, col_axis=0,
                                                                       channel_axis=2))
        _try(out, "float64 input", lambda: im.apply_affine_transform(last.astype(np.float64), zx=2, **kw_last))
        _try(out, "uint8 input", lambda: im.apply_affine_transform(last.astype(np.uint8), theta=10, **kw_last))
        _try(out, "axes not distinct", lambda: im.apply_affine_transform(last, theta=1, row_axis=0, col_axis=0))
        _try(out, "axis 3", lambda: im.apply_affine_transform(last, theta=1, row_axis=3, col_axis=1, channel_axis=0))
        _try(out, "2-D input", lambda: im.apply_affine_transform(last[:, :, 0], theta=1))
        _try(out, "channel axis 1", lambda: im.apply_affine_transform(last, theta=1, row_axis=0, col_axis=2,
                                                                       channel_axis=1))
    elif case["name"] == "random_transforms":
        for k, (label, fn) in enumerate([
                ("rotation", lambda: im.random_rotation(first, 45)),
                ("rotation last", lambda: im.random_rotation(last, 45, row_axis=0, col_axis=1, channel_axis=2,
                                                             fill_mode="constant", cval=1.0)),
                ("shift", lambda: im.random_shift(first, 0.3, 0.2)),
                ("shift last", lambda: im.random_shift(last, 0.2, 0.4, 0, 1, 2, interpolation_order=0)),
                ("shear", lambda: im.random_shear(first, 30)),
                ("zoom", lambda: im.random_zoom(first, (0.7, 1.4))),
                ("zoom (1, 1)", lambda: im.random_zoom(first, [1, 1])),
                ("zoom one value", lambda: im.random_zoom(first, (0.5,))),
                ("channel shift", lambda: im.random_channel_shift(first, 40.0)),
                ("channel shift last", lambda: im.random_channel_shift(last, 40.0, channel_axis=2)),
                ("brightness", lambda: im.random_brightness(last, (0.5, 1.5))),
                ("brightness no scale", lambda: im.random_brightness(last, [0.2, 0.4], scale=False)),
                ("brightness three values", lambda: im.random_brightness(last, (0.2, 0.4, 0.6)))]):
            np.random.seed(100 + k)
            _try(out, label, fn)
            out.append([label + ": next draw", round(float(np.random.uniform()), 8)])
    elif case["name"] == "shifts":
        _try(out, "channel shift 30 axis 0", lambda: im.apply_channel_shift(first, 30.0))
        _try(out, "channel shift -500 axis 2", lambda: im.apply_channel_shift(last, -500.0, channel_axis=2))
        _try(out, "channel shift int image", lambda: im.apply_channel_shift(last.astype(np.int32), 3, channel_axis=2))
        for b in [0.0, 0.5, 1.0, 1.7]:
            _try(out, f"brightness {b}", lambda b=b: im.apply_brightness_shift(last, b))
        wide = _image((4, 4, 3), 2, scale=600.0) - 100.0   # outside [0, 255]: scaled back when scale=False
        _try(out, "brightness wide scale", lambda: im.apply_brightness_shift(wide, 1.3))
        _try(out, "brightness wide no scale", lambda: im.apply_brightness_shift(wide, 1.3, scale=False))
        _try(out, "brightness small no scale", lambda: im.apply_brightness_shift(last / 10, 0.8, scale=False))
        _try(out, "brightness gray", lambda: im.apply_brightness_shift(last[:, :, :1], 1.2))
        _try(out, "brightness rgba", lambda: im.apply_brightness_shift(_image((3, 3, 4), 3), 0.6))
        _try(out, "brightness two channels", lambda: im.apply_brightness_shift(_image((3, 3, 2), 3), 0.6))
    return out


NAMES = ["apply_affine_transform", "random_transforms", "shifts"]
CASES: dict[str, dict] = {n: {"strategy": "default", "name": n} for n in NAMES}


@pytest.fixture(scope="module")
def tf_results(request: Any) -> dict[int, Any]:
    return tf_programs.spawn(__file__, CASES, tf_programs.selected(request, __file__))


@pytest.mark.clause("keras.preprocessing.legacy")
@pytest.mark.parametrize("index", range(len(NAMES)), ids=NAMES)
def test_names_as_tf(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    name = NAMES[index]
    got, want = tf_programs.on_simdist(program, CASES[name], str(tmp_path)), tf_results[index]
    assert [g[0] for g in got] == [w[0] for w in want], f"{name}: labels differ"
    for g, w in zip(got, want):
        assert g == w, f"{name}: {w[0]}: simdist gives {g[1]}, TF 2.21 gives {w[1]}"


if __name__ == "__main__":  # TF worker
    tf_workers.serve(tf_programs.worker(CASES, program))
