"""Differential tests of `tf.raw_ops.ImageProjectiveTransformV3` (clause
ops.image-projective-transform): four transforms (projective, per-image affine, a flip, a zoom
out) × both interpolations × the four fill modes × float32/uint8/int32 images × two output shapes,
and the gradient, against TF 2.21. Its golden (tests/goldens/) is stamped with this file."""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import pytest

import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

TRANSFORMS = [[[1, 0.3, -2, 0.1, 0.9, 1.5, 0.01, -0.02]], [[0.7, -0.5, 3.2, 0.4, 1.3, -4.1, 0, 0], [1, 0, 0.5, 0, 1, -0.5, 0, 0]],
              [[-1, 0, 6, 0, -1, 4, 0, 0]], [[2.5, 0, -12, 0, 2.5, -9, 0, 0]]]
CASES = [(t, interp, mode, dt, shp) for t in range(len(TRANSFORMS)) for interp in ("NEAREST", "BILINEAR")
         for mode in ("REFLECT", "WRAP", "CONSTANT", "NEAREST") for dt in ("float32", "uint8", "int32")
         for shp in ((5, 7), (3, 9))]


def _image() -> np.ndarray:
    return np.random.default_rng(0).uniform(0, 10, (2, 5, 7, 2)).astype("float32")


def _run(tf: Any, index: int) -> Any:
    img = _image()
    if index == len(CASES):   # the gradient
        x = tf.Variable(img)
        with tf.GradientTape() as g:
            y = tf.raw_ops.ImageProjectiveTransformV3(images=x, transforms=np.array(TRANSFORMS[1], "float32"),
                                                      output_shape=(5, 7), fill_value=0.0, interpolation="BILINEAR",
                                                      fill_mode="REFLECT")
            loss = tf.reduce_sum(y * y)
        return g.gradient(loss, x).numpy()
    t, interp, mode, dt, shp = CASES[index]
    try:
        return tf.raw_ops.ImageProjectiveTransformV3(images=tf.cast(img, dt), transforms=np.array(TRANSFORMS[t], "float32"),
                                                     output_shape=shp, fill_value=2.5, interpolation=interp,
                                                     fill_mode=mode).numpy()
    except Exception as e:  # noqa: BLE001 - the error class is the answer compared
        return type(e).__name__


def _tf_worker(indices: list[int]) -> dict[int, Any]:
    import tensorflow as tf
    return {i: _run(tf, i) for i in indices}


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return tf_workers.spawn(__file__, list(range(len(CASES) + 1)))


@pytest.mark.clause("ops.image-projective-transform")
@pytest.mark.parametrize("transform", range(len(TRANSFORMS)))
def test_image_projective_transform_matches_tf(transform: int, tf_results: dict[int, Any]) -> None:
    from simdist import tf
    bad = []
    for i, case in enumerate(CASES):
        if case[0] != transform:
            continue
        got, want = _run(tf, i), tf_results[i]
        if isinstance(want, str) or isinstance(got, str):
            if got != want:
                bad.append(f"{case}: simdist {got if isinstance(got, str) else 'values'}, TF 2.21 {want if isinstance(want, str) else 'values'}")
            continue
        same = np.array_equal(got, want) if want.dtype.kind != "f" else np.allclose(got, want, rtol=1e-5, atol=1e-6)
        if got.dtype != want.dtype or got.shape != want.shape or not same:
            bad.append(f"{case}: out={got.ravel()[:6]} ({got.dtype}, {got.shape}), but should be {want.ravel()[:6]} "
                       f"({want.dtype}, {want.shape})")
    assert not bad, f"{len(bad)} cases differ from TF 2.21:\n" + "\n".join(bad)


@pytest.mark.clause("ops.image-projective-transform")
def test_image_projective_transform_gradient(tf_results: dict[int, Any]) -> None:
    from simdist import tf
    got, want = _run(tf, len(CASES)), tf_results[len(CASES)]
    assert np.allclose(got, want, rtol=1e-5, atol=1e-5), f"gradient={got.ravel()[:6]}, but should be {want.ravel()[:6]}"


if __name__ == "__main__":  # TF worker
    tf_workers.serve(_tf_worker)
    os._exit(0)
