"""tf.image's stateful random augmentations and YIQ against real TensorFlow 2.21 (clause
ops.image-random): random_flip_left_right/up_down (rank 3 and 4), random_brightness,
random_contrast, random_hue, random_saturation and random_crop under tf.random.set_seed with and
without op seeds, called repeatedly (the kernels' streams continue) and inside a tf.function
called several times; their argument errors; rgb_to_yiq/yiq_to_rgb values, dtypes and gradients.
Values bit for bit (TF's Philox draws, ops.random-bits), but YIQ's tensordots within 2e-6 (a
float32 contraction: clause ops.image); ssim_multiscale (clause ops.image) within 1e-5: its
scales' ssim sums and the powers compound ssim's 2e-6. Needs the `tf` extra (golden-backed otherwise)."""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import edge_compare
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause

_R = np.random.default_rng(2907)
IMG = _R.uniform(0, 1, (4, 5, 6, 3)).astype(np.float32)
IMG3 = IMG[0]
U8 = _R.integers(0, 256, (3, 4, 5, 3)).astype(np.uint8)
BIG = _R.uniform(0, 1, (2, 181, 173, 3)).astype(np.float32)
NOISY = np.clip(BIG + _R.normal(0, 0.1, BIG.shape), 0, 1).astype(np.float32)


def _repeat(fn: Callable[[Any], Any], times: int = 3, global_seed: int | None = 17) -> Callable[[Any], Any]:
    """[fn(tf)] * times after tf.random.set_seed(global_seed) (None: no global seed set here)."""
    def run(tf: Any) -> Any:
        if global_seed is not None:
            tf.random.set_seed(global_seed)
        return [fn(tf) for _ in range(times)]
    return run


def _in_function(fn: Callable[[Any, Any], Any], x: np.ndarray, times: int = 4) -> Callable[[Any], Any]:
    """fn(tf, x) inside one tf.function called `times` times after tf.random.set_seed(5)."""
    def run(tf: Any) -> Any:
        tf.random.set_seed(5)
        f = tf.function(lambda a: fn(tf, a))
        return [f(tf.constant(x)) for _ in range(times)]
    return run


def _grad(fn: Callable[[Any, Any], Any], x: np.ndarray) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        v = tf.Variable(x)
        with tf.GradientTape() as tape:
            y = fn(tf, v)
            loss = tf.reduce_sum(y * y)
        return [y, tape.gradient(loss, v)]
    return run


CASES: list[tuple[str, str, Callable[[Any], Any], float]] = [
    ("flip-lr-rank3-seeded", "random", _repeat(lambda tf: tf.image.random_flip_left_right(IMG3, seed=1), 6), 0.0),
    ("flip-lr-rank4-seeded", "random", _repeat(lambda tf: tf.image.random_flip_left_right(IMG, seed=2)), 0.0),
    ("flip-ud-rank4-uint8", "random", _repeat(lambda tf: tf.image.random_flip_up_down(U8, seed=3)), 0.0),
    ("flip-ud-rank3-no-op-seed", "random", _repeat(lambda tf: tf.image.random_flip_up_down(IMG3), 5), 0.0),
    ("flip-rank2-error", "random", lambda tf: tf.image.random_flip_left_right(IMG3[0], seed=1), 0.0),
    ("brightness", "random", _repeat(lambda tf: tf.image.random_brightness(IMG, 0.3, seed=4)), 0.0),
    ("brightness-uint8", "random", _repeat(lambda tf: tf.image.random_brightness(U8, 0.2, seed=4), 2), 0.0),
    ("brightness-negative", "random", lambda tf: tf.image.random_brightness(IMG, -0.1), 0.0),
    ("contrast", "random", _repeat(lambda tf: tf.image.random_contrast(IMG, 0.5, 1.5, seed=6)), 0.0),
    ("contrast-bad-range", "random", lambda tf: tf.image.random_contrast(IMG, 1.5, 0.5), 0.0),
    ("contrast-negative", "random", lambda tf: tf.image.random_contrast(IMG, -0.5, 0.5), 0.0),
    ("hue", "random", _repeat(lambda tf: tf.image.random_hue(IMG, 0.2, seed=8)), 0.0),
    ("hue-too-large", "random", lambda tf: tf.image.random_hue(IMG, 0.6), 0.0),
    ("saturation", "random", _repeat(lambda tf: tf.image.random_saturation(IMG3, 0.3, 1.7, seed=9)), 0.0),
    ("saturation-bad-range", "random", lambda tf: tf.image.random_saturation(IMG3, 1.0, 1.0), 0.0),
    ("crop", "random", _repeat(lambda tf: tf.image.random_crop(IMG, [2, 3, 4, 3], seed=10)), 0.0),
    ("crop-rank3", "random", _repeat(lambda tf: tf.image.random_crop(IMG3, [2, 2, 3]), 4), 0.0),
    ("crop-full", "random", lambda tf: tf.image.random_crop(IMG3, [5, 6, 3], seed=1), 0.0),
    ("crop-too-big", "random", lambda tf: tf.image.random_crop(IMG3, [6, 6, 3], seed=1), 0.0),
    ("crop-wrong-rank", "random", lambda tf: tf.image.random_crop(IMG3, [2, 2], seed=1), 0.0),
    ("mixed-ops-one-stream", "random", _repeat(lambda tf: [tf.image.random_flip_left_right(IMG, seed=1),
                                                            tf.image.random_brightness(IMG3, 0.1, seed=1),
                                                            tf.image.random_crop(IMG3, [3, 3, 3], seed=1)], 2), 0.0),
    ("fn-flip-rank3", "functions", _in_function(lambda tf, a: tf.image.random_flip_left_right(a, seed=1), IMG3), 0.0),
    ("fn-flip-rank4", "functions", _in_function(lambda tf, a: tf.image.random_flip_up_down(a, seed=2), IMG), 0.0),
    ("fn-crop-brightness", "functions", _in_function(
        lambda tf, a: tf.image.random_brightness(tf.image.random_crop(a, [3, 3, 3], seed=3), 0.2, seed=4), IMG3), 0.0),
    ("ms-ssim", "msssim", lambda tf: tf.image.ssim_multiscale(BIG, NOISY, 1.0), 1e-5),
    ("ms-ssim-rank3-factors", "msssim", lambda tf: tf.image.ssim_multiscale(
        BIG[0], NOISY[0], 1.0, power_factors=(0.5, 0.5), filter_size=7), 1e-5),
    ("ms-ssim-uint8", "msssim", lambda tf: tf.image.ssim_multiscale(
        (BIG[:, :96, :100] * 255).astype(np.uint8), (NOISY[:, :96, :100] * 255).astype(np.uint8), 255,
        power_factors=(0.3, 0.3, 0.4)), 1e-5),
    ("ms-ssim-too-small", "msssim", lambda tf: tf.image.ssim_multiscale(BIG[:, :60, :60], NOISY[:, :60, :60], 1.0),
     0.0),
    ("ms-ssim-shape-mismatch", "msssim", lambda tf: tf.image.ssim_multiscale(BIG[:, :90], NOISY, 1.0), 0.0),
    ("yiq", "yiq", lambda tf: [tf.image.rgb_to_yiq(IMG), tf.image.yiq_to_rgb(IMG3)], 2e-6),
    ("yiq-float64", "yiq", lambda tf: tf.image.rgb_to_yiq(IMG.astype(np.float64)), 0.0),
    ("yiq-roundtrip", "yiq", lambda tf: tf.image.yiq_to_rgb(tf.image.rgb_to_yiq(IMG3)), 2e-6),
    ("yiq-int-error", "yiq", lambda tf: tf.image.rgb_to_yiq(tf.constant(U8)), 0.0),
    ("yiq-grad", "yiq", _grad(lambda tf, v: tf.image.rgb_to_yiq(v), IMG3), 2e-6),
]

EDGES = edge_compare.EdgeModule(__file__, CASES, agree=lambda case: edge_compare.within(case[3], atol_ratio=1.0))


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("ops.image-random")
@EDGES.parametrize("random")
def test_random_augmentations(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.image-random")
@EDGES.parametrize("functions")
def test_random_augmentations_inside_function(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.image")
@EDGES.parametrize("msssim")
def test_ssim_multiscale(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.image-random")
@EDGES.parametrize("yiq")
def test_yiq(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


def test_every_group_is_tested() -> None:
    assert EDGES.untested() == [], f"groups with no test function: {EDGES.untested()}"


if __name__ == "__main__":  # TF worker: python test_image_random_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
