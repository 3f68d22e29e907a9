"""Rules issue 29's seventh campaign (fz7: the third fuzzer's seeds 81-83, `--ext`) found wrong in
tf.image, each against real TensorFlow 2.21: the same call on both backends gives the same dtype
and bits, or raises the same exception class. tf.image.resize runs every method's kernel
(ResizeBilinear, ResizeNearestNeighbor, ResizeBicubic, ResizeArea, ScaleAndTranslate with
antialias and for lanczos3/5, gaussian, mitchellcubic) and their gradients; traced psnr converts
20 with log(max_val)'s dtype; MirrorPad's shape function checks the paddings' rows against the
input's rank at trace (sobel_edges of a rank-3 image). Needs the `tf` extra.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import edge_compare
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause

_RNG = np.random.default_rng(20261130)
IMAGES: dict[str, np.ndarray] = {
    "f32-batch": _RNG.uniform(-3, 3, (2, 5, 7, 3)).astype(np.float32),
    "u8-hwc": _RNG.integers(0, 255, (4, 3, 2)).astype(np.uint8),
    "f32-edges": np.array([[[1.0, np.inf], [np.nan, -2.0]], [[1e30, 1e-40], [0.5, -0.0]], [[3, 4], [5, 6]]],
                          np.float32),
    "f64-column": _RNG.normal(size=(1, 9, 4, 1)),
    "f16-hwc": _RNG.uniform(-2, 2, (3, 4, 1)).astype(np.float16),
    "i64-hwc": np.array([[[2 ** 62], [-5]], [[7], [9223372036854775807]]], np.int64),
}
METHODS = ("bilinear", "nearest", "bicubic", "area", "lanczos3", "lanczos5", "gaussian", "mitchellcubic")
SIZES = ((2, 3), (7, 11), (1, 1), (13, 5))


def _resize(image: str, size: Any, method: str, antialias: bool, **kw: Any) -> Callable[[Any], Any]:
    return lambda tf: tf.image.resize(IMAGES[image], size, method, antialias=antialias, **kw)


def _grad(image: str, size: Any, method: str, antialias: bool) -> Callable[[Any], Any]:
    """The gradient of sum(resize(x)^2) with respect to a variable x holding the image."""
    def run(tf: Any) -> Any:
        x = tf.Variable(IMAGES[image])
        with tf.GradientTape() as tape:
            y = tf.image.resize(x, size, method, antialias=antialias)
            loss = tf.reduce_sum(y * y)
        return tape.gradient(loss, x)
    return run


RESIZE: list[tuple[str, str, Callable[[Any], Any]]] = [
    # -- every method and antialias on float, integer and edge-valued images (fz3 ext seeds 81 #11, #15,
    #    82, 83 #0, #37: gaussian, lanczos, antialias were NotImplementedError)
    *[(f"resize-{m}-{'aa' if aa else 'plain'}-{img}-{h}x{w}", "ops.image-resize", _resize(img, [h, w], m, aa))
      for m in METHODS for aa in (False, True)
      for img in ("f32-batch", "u8-hwc", "f32-edges", "f64-column")
      for h, w in SIZES[:2 if img == "f32-batch" else 4]],
    *[(f"resize-{m}-{img}", "ops.image-resize", _resize(img, [5, 3], m, False))
      for m in METHODS for img in ("f16-hwc", "i64-hwc")],
    ("resize-bilinear-same-size-keeps-inf", "ops.image-resize", _resize("f32-edges", [3, 2], "bilinear", False)),
    *[(f"resize-{m}-preserve-aspect", "ops.image-resize",
       _resize("f32-batch", [4, 4], m, False, preserve_aspect_ratio=True)) for m in ("bilinear", "area", "lanczos3")],
    # -- the kernels' checks (fz3 ext seed 82: complex images; size [0, 2] with antialias)
    *[(f"resize-{m}-{'aa-' if aa else ''}zero-height", "ops.image-resize", _resize("f32-batch", [0, 2], m, aa))
      for m in ("bilinear", "nearest", "bicubic", "area", "gaussian") for aa in (False, True)],
    *[(f"resize-{m}-complex", "ops.image-resize",
       (lambda mm: lambda tf: tf.image.resize(np.ones((2, 2, 1), np.complex64), [3, 3], mm))(m))
      for m in ("bilinear", "nearest", "bicubic", "area", "lanczos5")],
    *[(f"resize-{m}-empty-image", "ops.image-resize",
       (lambda mm: lambda tf: tf.image.resize(np.ones((0, 2, 1), np.float32), [3, 3], mm))(m))
      for m in ("bilinear", "nearest", "bicubic", "area", "mitchellcubic")],
    ("resize-unknown-method", "ops.image-resize", _resize("f32-batch", [2, 2], "cubic", False)),
    ("resize-size-of-three", "ops.image-resize", _resize("f32-batch", [2, 2, 2], "area", False)),
    ("resize-float-size", "ops.image-resize", _resize("f32-batch", [2.5, 2.0], "area", False)),
    ("resize-rank-2", "ops.image-resize", lambda tf: tf.image.resize(np.ones((3, 3), np.float32), [2, 2])),
    ("resize-gaussian-traced", "ops.image-resize",
     edge_compare.traced(lambda tf, x: tf.image.resize(x, [3, 4], "gaussian"),
                         lambda tf: tf.constant(IMAGES["f32-batch"]))),
]
GRADS: list[tuple[str, str, Callable[[Any], Any]]] = [
    # -- the gradients: ResizeBilinearGrad's per-pixel order, ResizeNearestNeighborGrad, ResizeBicubicGrad,
    #    ScaleAndTranslateGrad (float32 images only), ResizeArea's missing gradient (LookupError)
    *[(f"grad-{m}-{'aa' if aa else 'plain'}-{img}-{h}x{w}", "ops.image-resize", _grad(img, [h, w], m, aa))
      for m in METHODS for aa in (False, True)
      for img in ("f32-batch", "f64-column")
      for h, w in SIZES[:2]],
    *[(f"grad-{m}-edges", "ops.image-resize", _grad("f32-edges", [5, 3], m, False)) for m in METHODS],
]
CASES = RESIZE + GRADS

IMAGE_TRACED: list[tuple[str, str, Callable[[Any], Any]]] = [
    # -- traced psnr: 20 * log(max_val) takes log's dtype (fz3 ext seeds 81 #33, #87, 82, 83 #0, #8)
    ("psnr-traced", "ops.image",
     edge_compare.traced(lambda tf, a, b: tf.image.psnr(a, b, 0.5),
                         lambda tf: tf.constant(IMAGES["f32-batch"][..., :1] / 6 + 0.5),
                         lambda tf: tf.constant(IMAGES["f32-batch"][..., 1:2] / 6 + 0.5))),
    ("psnr-traced-constants", "ops.image",
     lambda tf: tf.function(lambda: tf.image.psnr(IMAGES["f32-batch"], IMAGES["f32-batch"][::-1], 1e-3))()),
    # -- MirrorPad's shape function: paddings of 4 rows for a rank-3 input is ValueError at trace
    #    (sobel_edges of a rank-3 image; fz3 ext seeds 81 #97, #135, 82, 83)
    ("sobel-rank-3-traced", "function.trace-time-errors",
     lambda tf: tf.function(lambda: tf.image.sobel_edges(tf.constant([[[218]], [[441]]], tf.int32)))()),
    ("sobel-rank-3-eager", "function.trace-time-errors",
     lambda tf: tf.image.sobel_edges(tf.constant([[[218.0]], [[441.0]]]))),
    ("mirror-pad-rank-mismatch-traced", "function.trace-time-errors",
     lambda tf: tf.function(lambda: tf.pad(tf.ones([2, 2]), [[1, 1]], "REFLECT"))()),
    ("pad-rank-mismatch-traced", "function.trace-time-errors",
     lambda tf: tf.function(lambda: tf.pad(tf.ones([2, 2]), [[1, 1], [0, 0], [0, 0]]))()),
]
CASES = CASES + IMAGE_TRACED

EDGES = edge_compare.EdgeModule(__file__, CASES)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("ops.image-resize")
@EDGES.parametrize("ops.image-resize")
def test_image_resize(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.image")
@EDGES.parametrize("ops.image")
def test_psnr_traced(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("function.trace-time-errors")
@EDGES.parametrize("function.trace-time-errors")
def test_pad_rank_at_trace(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


if __name__ == "__main__":  # TF worker: python test_fuzz7_resize_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
