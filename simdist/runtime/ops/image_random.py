"""tf.image's stateful random augmentations and the YIQ colour space, as image_ops_impl.py and
random_crop_ops.py compose them: random_flip_left_right/up_down, random_brightness,
random_contrast, random_hue, random_saturation and random_crop draw tf.random.uniform with the
op seed given (TF's Philox streams and seed rule, ops.random-bits, so the same values as TF for a
given tf.random.set_seed and seed), then apply the deterministic adjustment (ops.image);
rgb_to_yiq/yiq_to_rgb are tensordots with TF's kernels. Clause ops.image-random.
"""

from __future__ import annotations

from typing import Any

from simdist.runtime import dtypes
from simdist.runtime.symbolic import truth_taken
from simdist.runtime.ops.image_basic import (_color, adjust_brightness, adjust_contrast,  # noqa: F401
                                             random_flip)
from simdist.runtime.tensor import Tensor

__all__ = ["random_flip_left_right", "random_flip_up_down", "random_brightness", "random_contrast", "random_hue",
           "random_saturation", "random_crop", "rgb_to_yiq", "yiq_to_rgb"]

_RGB_TO_YIQ = [[0.299, 0.59590059, 0.2115], [0.587, -0.27455667, -0.52273617], [0.114, -0.32134392, 0.31119955]]
_YIQ_TO_RGB = [[1, 1, 1], [0.95598634, -0.27201283, -1.10674021], [0.6208248, -0.64720424, 1.70423049]]


def _uniform(shape: Any, minval: Any, maxval: Any, seed: Any, dtype: Any = dtypes.float32) -> Tensor:
    from simdist.runtime.ops.random import uniform
    return uniform(shape, minval=minval, maxval=maxval, dtype=dtype, seed=seed)


def random_flip_left_right(image: Any, seed: Any = None) -> Tensor:
    """`tf.image.random_flip_left_right`: flipped when tf.random.uniform([], seed=seed) < 0.5 (rank 4: per image)."""
    return random_flip(image, 1, lambda shape: _uniform(shape, 0, 1.0, seed))


def random_flip_up_down(image: Any, seed: Any = None) -> Tensor:
    """`tf.image.random_flip_up_down`: as random_flip_left_right over the height axis."""
    return random_flip(image, 0, lambda shape: _uniform(shape, 0, 1.0, seed))


def random_brightness(image: Any, max_delta: Any, seed: Any = None) -> Tensor:
    """`tf.image.random_brightness`: adjust_brightness by a uniform delta in [-max_delta, max_delta)."""
    if truth_taken(max_delta < 0):
        raise ValueError("max_delta must be non-negative.")
    return adjust_brightness(image, _uniform([], -max_delta, max_delta, seed))


def random_contrast(image: Any, lower: Any, upper: Any, seed: Any = None) -> Tensor:
    """`tf.image.random_contrast`: adjust_contrast by a uniform factor in [lower, upper)."""
    if truth_taken(upper <= lower):
        raise ValueError("upper must be > lower.")
    if truth_taken(lower < 0):
        raise ValueError("lower must be non-negative.")
    return adjust_contrast(image, _uniform([], lower, upper, seed))


def random_hue(image: Any, max_delta: Any, seed: Any = None) -> Tensor:
    """`tf.image.random_hue`: adjust_hue by a uniform delta in [-max_delta, max_delta) (max_delta ≤ 0.5)."""
    from simdist.runtime.ops.image_color import adjust_hue
    if truth_taken(max_delta > 0.5):
        raise ValueError("max_delta must be <= 0.5.")
    if truth_taken(max_delta < 0):
        raise ValueError("max_delta must be non-negative.")
    return adjust_hue(image, _uniform([], -max_delta, max_delta, seed))


def random_saturation(image: Any, lower: Any, upper: Any, seed: Any = None) -> Tensor:
    """`tf.image.random_saturation`: adjust_saturation by a uniform factor in [lower, upper)."""
    from simdist.runtime.ops.image_color import adjust_saturation
    if truth_taken(upper <= lower):
        raise ValueError("upper must be > lower.")
    if truth_taken(lower < 0):
        raise ValueError("lower must be non-negative.")
    return adjust_saturation(image, _uniform([], lower, upper, seed))


def random_crop(value: Any, size: Any, seed: Any = None, name: str | None = None) -> Tensor:
    """`tf.image.random_crop` (= tf.random_crop): a Slice of `size` at offsets
    uniform int32 draws in [0, 2³¹ - 1) mod (shape - size + 1); Assert when size exceeds the shape
    (image_basic.crop_at, shared with stateless_random_crop)."""
    from simdist.runtime.ops.image_basic import crop_at
    return crop_at(value, size, lambda n: _uniform([n], 0, 2**31 - 1, seed, dtypes.int32))


def rgb_to_yiq(images: Any) -> Tensor:
    """`tf.image.rgb_to_yiq`: tensordot with TF's kernel over the channel axis."""
    return _color(images, _RGB_TO_YIQ)


def yiq_to_rgb(images: Any) -> Tensor:
    """`tf.image.yiq_to_rgb`: tensordot with TF's inverse kernel."""
    return _color(images, _YIQ_TO_RGB)
