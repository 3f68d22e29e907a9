"""Rules issue 29's fourteenth generator (tests/fuzz14) found in tf.image and tf.signal (fz16b's share),
each against real TensorFlow 2.21: the same call on both backends gives the same dtype and bits, or
raises the same exception class. Eagerly, in a tf.function (`traced`: its first call traces), in a
tf.function with an input_signature (`sig`: get_concrete_function traces on placeholders) and such a
function called (`sig_call`). Needs the `tf` extra (or the golden recorded from TF 2.21).
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import edge_compare
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause


def _listed(r: Any) -> Any:
    return list(r) if isinstance(r, tuple) else r


def _eager(expr: str) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        return _listed(eval(expr, {"tf": tf, "np": np}))  # noqa: S307 - our own text
    return run


def _traced(expr: str) -> Callable[[Any], Any]:
    """The expression inside a tf.function, called once (its trace runs the shape functions)."""
    def run(tf: Any) -> Any:
        return _listed(tf.function(lambda: eval(expr, {"tf": tf, "np": np}))())  # noqa: S307 - our own text
    return run


def _sig(expr: str, spec: list[int | None] | None, dtype: str) -> Callable[[Any], Any]:
    """get_concrete_function of `lambda x: expr` with an input_signature of one spec, then (when it
    traces) a length-1 marker."""
    def run(tf: Any) -> Any:
        fn = eval(f"lambda x: {expr}", {"tf": tf, "np": np})  # noqa: S307 - our own text
        tf.function(fn, input_signature=[tf.TensorSpec(spec, getattr(tf, dtype))]).get_concrete_function()
        return tf.constant([1])
    return run


def _sig_call(expr: str, spec: list[int | None] | None, dtype: str, value: str) -> Callable[[Any], Any]:
    """`lambda x: expr` in a tf.function with an input_signature of one spec, called on `value`."""
    def run(tf: Any) -> Any:
        fn = eval(f"lambda x: {expr}", {"tf": tf, "np": np})  # noqa: S307 - our own text
        f = tf.function(fn, input_signature=[tf.TensorSpec(spec, getattr(tf, dtype))])
        return _listed(f(eval(value, {"tf": tf, "np": np})))  # noqa: S307 - our own text
    return run


def _both(group: str, *calls: str) -> list[tuple[str, str, Callable[[Any], Any]]]:
    return [(f"{call} {how}", group, (_traced if how == "traced" else _eager)(call))
            for call in calls for how in ("eager", "traced")]


CASES: list[tuple[str, str, Callable[[Any], Any]]] = [
    # -- image ops' shape functions at trace, their kernels' checks eagerly (OpDef.trace_shape; fz14 seed
    # 1420261202 #453, 14 #791, #330, #375, #730, #658, 1420261202 #731, #635)
    *_both("function.trace-time-errors",
           "tf.image.adjust_contrast(tf.constant([1.0, 2.0]), 2.0)",
           "tf.image.adjust_contrast(tf.zeros([1, 1, 1]), [2.0])",
           "tf.image.adjust_contrast(tf.constant([1, 3], tf.uint64), float('nan'))",
           "tf.image.adjust_hue(tf.zeros([3, 2]), 0.1)",
           "tf.image.adjust_hue(tf.zeros([1, 1, 2]), 0.1)",
           "tf.image.adjust_saturation(tf.zeros([2]), 0.5)",
           "tf.image.stateless_random_hue(np.zeros([3, 2], np.float32), 0.5, seed=[7, 8])",
           "tf.image.random_contrast(tf.zeros([3, 3], tf.float64), lower=True, upper=float('nan'), seed=7)",
           "tf.image.rgb_to_hsv(tf.zeros([2, 2]))",
           "tf.image.draw_bounding_boxes(np.array([0, 0, 1], np.uint8), np.array([-1, 1, 2], np.int64), "
           "np.array([-1, -4, 3], np.int64))",
           "tf.image.non_max_suppression_with_scores(float('inf'), np.array(True), 2)",
           "tf.image.non_max_suppression_overlaps(255, 3, 0)",
           "tf.image.non_max_suppression_overlaps([[0.5, 0.1]], [1.0], 2)",
           "tf.image.non_max_suppression([[0.0, 0.0, 1.0]], [1.0], 2)",
           "tf.image.non_max_suppression([[0.0, 0.0, 1.0, 1.0]], [1.0, 0.5], 2)",
           "tf.image.combined_non_max_suppression(tf.zeros([1, 2, 1, 4]), tf.zeros([1, 3, 2]), 2, 2)",
           "tf.image.combined_non_max_suppression(tf.zeros([1, 2, 3, 4]), tf.zeros([1, 2, 2]), 2, 2)",
           "tf.image.crop_and_resize(tf.zeros([2, 2, 1]), [[0.0, 0.0, 1.0, 1.0]], [0], [1, 1])",
           "tf.image.crop_and_resize(tf.zeros([1, 2, 2, 1]), [[0.0, 0.0, 1.0, 1.0]], [0, 0], [1, 1])",
           "tf.image.stateless_sample_distorted_bounding_box([2], tf.zeros([1, 1, 4]), seed=[1, 2])",
           "tf.image.stateless_sample_distorted_bounding_box([2, 2, 1], tf.zeros([1, 1, 3]), seed=[1, 2])",
           "tf.space_to_batch(np.array([[0.5], [0.25]], np.float32), tf.constant([2, 1]), "
           "paddings=np.array([[0, 0], [1, 0]]))",
           "tf.space_to_batch(tf.zeros([1, 2, 2, 1]), [2, 2], paddings=[[0, 0]])",
           "tf.space_to_batch(tf.zeros([1, 2, 2, 1]), [[2, 2]], paddings=[[0, 0]])",
           "tf.space_to_batch(tf.zeros([1, 2, 2, 1]), [2, 2], paddings=[[0, 0], [0, 0]])",
           "tf.image.non_max_suppression_padded(-0.0, scores=2, max_output_size=2, iou_threshold=-1.0, "
           "pad_to_max_output_size=1)",
           "tf.image.non_max_suppression_padded(tf.constant([[0.0, 0, 1, 1], [0, 0, 1, 0.9]]), [1.0, 0.5], 2, "
           "pad_to_max_output_size=True)",
           "tf.image.sobel_edges(tf.constant(7, tf.int64))",
           "tf.image.sobel_edges(tf.reshape(tf.range(8.0), [1, 2, 2, 2]))",
           "tf.signal.mfccs_from_log_mel_spectrograms(255)",
           "tf.signal.mfccs_from_log_mel_spectrograms(np.complex128(0.25))",
           "tf.signal.mfccs_from_log_mel_spectrograms(tf.constant([[1.0, 2.0, 3.0]]))"),
    ("adjust_contrast sig [None]", "function.trace-time-errors",
     _sig("tf.image.adjust_contrast(x, 2.0)", [None], "float32")),
    ("adjust_contrast sig unknown rank", "function.trace-time-errors",
     _sig("tf.image.adjust_contrast(x, 2.0)", None, "float32")),
    ("space_to_batch bool sig [4, None, 4]", "function.trace-time-errors",   # (fz14 seed 1420261204 #8)
     _sig("tf.space_to_batch(x, (4, 1, 4), [[1, 1]])", [4, None, 4], "bool")),
    ("space_to_batch sig [None, 2]", "function.trace-time-errors",
     _sig("tf.space_to_batch(x, [2, 2], paddings=[[0, 0], [0, 0]])", [None, 2], "float32")),
    ("image_gradients sig unknown rank", "function.trace-time-errors",
     _sig("tf.image.image_gradients(x)", None, "float32")),
    ("image_gradients sig [None, 2, None, 1]", "function.trace-time-errors",
     _sig("tf.image.image_gradients(x)", [None, 2, None, 1], "float32")),
    # a dimension the signature leaves unknown: the kernel's error when the function runs, not the shape function's
    ("non_max_suppression sig_call [None, None] on [3, 3]", "function.trace-time-errors",
     _sig_call("tf.image.non_max_suppression(x, [1.0, 0.5, 0.2], 2)", [None, None], "float32", "tf.zeros([3, 3])")),
    ("adjust_contrast sig_call unknown rank on [3]", "function.trace-time-errors",
     _sig_call("tf.image.adjust_contrast(x, 2.0)", None, "float32", "tf.zeros([3])")),
    ("adjust_contrast sig_call unknown rank on [1, 1, 3]", "function.trace-time-errors",
     _sig_call("tf.image.adjust_contrast(x, 2.0)", None, "float32", "tf.zeros([1, 1, 3])")),
    ("mfccs sig [None, None]", "function.trace-time-errors",
     _sig("tf.signal.mfccs_from_log_mel_spectrograms(x)", [None, None], "float32")),
    # -- list attrs below their minimum: op_def_library's ValueError at trace (fz14 seed 14 #143)
    *_both("ops.attr-types",
           "tf.image.extract_patches(tf.constant(0.25, tf.bfloat16), sizes=(), strides=(1, 2, 2), rates=[3], "
           "padding='same')",
           "tf.image.extract_patches(tf.zeros([1, 2, 2, 1]), sizes=[1, 1], strides=[1, 1, 1, 1], rates=[1, 1, 1, 1], "
           "padding='VALID')",
           "tf.extract_volume_patches(tf.zeros([1, 2, 2, 2, 1]), [1, 1, 1], [1, 1, 1, 1, 1], 'VALID')",
           "tf.nn.conv3d(tf.zeros([1, 2, 2, 2, 1]), tf.zeros([1, 1, 1, 1, 1]), [1, 1, 1], 'VALID')",
           # fixed-dtype inputs given a tensor of another dtype; CropAndResize's method attr (seed 1420261202
           # #339, 14 #40)
           "tf.image.crop_and_resize(tf.zeros([1, 2, 2, 1]), tf.constant([[0, 0, 1, 1]], tf.float16), [0], [1, 1])",
           "tf.image.crop_and_resize(tf.zeros([1, 2, 2, 1]), [[0.0, 0, 1, 1]], [0], [1, 1], method='bicubic')",
           "tf.image.crop_and_resize(-1.0, tf.constant(float('inf'), tf.float16), np.array(4.0, np.float32), (2, 0), "
           "method='bicubic', extrapolation_value=2)",
           "tf.image.stateless_sample_distorted_bounding_box([2], tf.constant([0, 1], tf.uint8), "
           "seed=np.array([7, 8], np.int64), min_object_covered=1.0, aspect_ratio_range=(0.0, 5.0))",
           # random uniform bounds converted with the draw's dtype (seed 1420261202 #195, 14 #591, #564)
           "tf.image.random_saturation(tf.zeros([1, 1, 3]), lower=True, upper=tf.constant([3]), seed=1)",
           "tf.image.stateless_random_saturation(True, 1, tf.constant([[], []], tf.float64), seed=[0, 0])",
           "tf.image.stateless_random_saturation(tf.zeros([3, 3], tf.complex64), 1, tf.constant(32767, tf.int16), "
           "seed=[1, 2])",
           "tf.random.stateless_uniform([], minval=1, maxval=tf.constant(3, tf.int16), seed=[1, 2])",
           "tf.random.stateless_uniform([2], minval=tf.constant(1.0), maxval=tf.constant(3.0), seed=[1, 2])",
           # stateless_random_crop composed as TF's Python (seed 14 #475, #97)
           "tf.image.stateless_random_crop(np.array(1e-40), size=[], seed=tf.constant([1, 2]))",
           "tf.image.stateless_random_crop(-1, tf.TensorShape([2, 3]), seed=[1, 2])",
           "tf.image.stateless_random_crop(tf.zeros([1, 3]), [2, 3], seed=[1, 2])",
           "tf.image.stateless_random_crop(tf.reshape(tf.range(12.0), [3, 4]), [2, 3], seed=[1, 2])",
           # the FFT ops' and NMS's eager conversion of Python values (seed 1420261202 #100, #921)
           "tf.signal.fft([1.0, 1e300])", "tf.signal.fft2d([[7.0, 0.5], [1.0, 1e300]])", "tf.signal.fft([1 + 2j, 3])",
           "tf.signal.fft([1, 2])", "tf.signal.fft(np.array([1.0, 2.0]))",
           "tf.image.non_max_suppression([[0.0, 0, 1, 1e300]], [1.0], 2)",
           "tf.image.non_max_suppression([[0, 0, 1, 1]], [1], 2)",
           "tf.image.non_max_suppression(np.array([[0, 0, 1, 1]], np.int8), np.array([1.0], np.float16), 2)",
           "tf.image.non_max_suppression(np.array([[0, 0, 1, 1]], np.bool_), [1.0], 2)",
           "tf.image.non_max_suppression([[0, 0, 1, 1]], tf.constant([1.0], tf.float64), 2)",
           "tf.image.non_max_suppression_with_scores([[0.0, 0, 1, 1e300]], [1.0], 2)",
           # Python wrappers' reads (psnr's a.dtype, padded's boxes.get_shape(); seed 14 #168, 1420261202 #500, #19)
           "tf.image.psnr(5, float('nan'), np.float32(2))",
           "tf.image.psnr(np.zeros([2, 2, 1], np.float32), np.ones([2, 2, 1], np.float32), 2.0)",
           "tf.image.non_max_suppression_padded([[0.0, 0, 1, 1], [0, 0, 1, 0.9]], [1.0, 0.5], 2)",
           # signal.frame's int32 gcd (seed 1420261202 #458)
           "tf.signal.stft(tf.constant([False, False, False]), np.int64(2), 1)",
           "tf.signal.stft(tf.constant([1.0, 2, 3, 4]), 2, np.int64(1))",
           "tf.signal.frame(tf.constant([1.0, 2, 3, 4]), np.int64(2), 1)",
           "tf.signal.stft(tf.constant([1.0, 2, 3, 4]), 2, 1)"),
    # eagerly the fast path casts an ndarray to T (traced, TF refuses these: not modelled, see _t_inputs)
    *[(f"{call} eager", "ops.attr-types", _eager(call)) for call in (
        "tf.image.non_max_suppression(np.array([[0.0, 0, 1, 1]]), tf.constant([1.0], tf.float16), 2)",
        "tf.image.non_max_suppression_with_scores(np.array([[0, 0, 1, 1]], np.float16), [1.0], 2)")],
    # -- the stateless ops' alg: ThreeFry's counter refused by TF 2.21's CPU kernels (fz14 seed 1420261204 #31)
    *_both("ops.stateless-random",
           "tf.random.stateless_uniform([2], [1, 2], alg='threefry')",
           "tf.random.stateless_uniform([2], [1, 2], dtype=tf.int32, minval=0, maxval=5, alg='threefry')",
           "tf.random.stateless_normal([2], [1, 2], alg='threefry')",
           "tf.random.stateless_truncated_normal([2], [1, 2], alg=2)",
           "tf.random.stateless_uniform([2], [1, 2], alg='bogus')",
           "tf.random.stateless_uniform([2], [1, 2], alg='philox')"),
    # -- _CheckGrayscaleImage: static checks, run-time asserts when the shape is not fully known (seed 14 #128)
    *_both("ops.image", "tf.image.grayscale_to_rgb(tf.constant([1.0, 7.0]))",
           "tf.image.grayscale_to_rgb(tf.constant([[1.0, 7.0]]))", "tf.image.grayscale_to_rgb(tf.constant([[1.0], [7.0]]))"),
    ("grayscale_to_rgb sig unknown rank", "ops.image", _sig("tf.image.grayscale_to_rgb(x)", None, "float32")),
    ("grayscale_to_rgb sig_call [2]", "ops.image",
     _sig_call("tf.image.grayscale_to_rgb(x)", None, "float32", "tf.constant([1.0, 7.0])")),
    ("grayscale_to_rgb sig_call [2, 1]", "ops.image",
     _sig_call("tf.image.grayscale_to_rgb(x)", None, "float32", "tf.constant([[1.0], [7.0]])")),
    ("grayscale_to_rgb sig_call [1, 2, 1]", "ops.image",
     _sig_call("tf.image.grayscale_to_rgb(x)", None, "float32", "tf.constant([[[1.0], [7.0]]])")),
    ("grayscale_to_rgb sig [None, 2]", "ops.image", _sig("tf.image.grayscale_to_rgb(x)", [None, 2], "float32")),
    ("grayscale_to_rgb sig [None, 1]", "ops.image", _sig("tf.image.grayscale_to_rgb(x)", [None, 1], "float32")),
    ("grayscale_to_rgb sig [None, None, 1]", "ops.image",
     _sig("tf.image.grayscale_to_rgb(x)", [None, None, 1], "float32")),
]

EDGES = edge_compare.EdgeModule(__file__, CASES)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("function.trace-time-errors")
@EDGES.parametrize("function.trace-time-errors")
def test_image_shape_functions_at_trace(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.attr-types")
@EDGES.parametrize("ops.attr-types")
def test_wrapper_conversions_and_attrs(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.stateless-random")
@EDGES.parametrize("ops.stateless-random")
def test_stateless_alg(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.image")
@EDGES.parametrize("ops.image")
def test_grayscale_checks(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


def test_every_case_has_a_test() -> None:
    untested = EDGES.untested()
    assert not untested, f"cases of groups {untested} have no test function above"


if __name__ == "__main__":  # TF worker: python test_fz16b_edges_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
