"""Rules issue 29's seventh campaign (fz7: the third fuzzer's seeds 81-83) found wrong outside
tf.image, each against real TensorFlow 2.21: the same call on both backends gives the same dtype
and bits, or raises the same exception class. stateless_gamma's op checks its dtype attr before
the wrapper's np.finfo; the categorical samplers refuse logits outside their op def's T with the
attr error and a negative constant num_samples with the shape function's ValueError at trace.
RGBToHSV's channel max/min follow Eigen's reducers with NaN; the colour ops convert a NumPy
image with its own dtype inside a tf.function and check channels at trace; adjust_hue checks
delta only eagerly. ConcatV2's and BiasAdd's shape functions merge an unknown dimension with
any; ArgMin checks its output_type before its axis; a Python bool converts to complex128 (not
complex64) eagerly. Needs the `tf` extra.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import edge_compare
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause


def _traced(build: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """build(tf) inside a tf.function without arguments, called once."""
    return lambda tf: tf.function(lambda: build(tf))()


def _taped(build: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """build(tf) under a GradientTape (the fuzzer's tape mode)."""
    def run(tf: Any) -> Any:
        with tf.GradientTape():
            return build(tf)
    return run


_GAMMA: list[tuple[str, Callable[[Any], Any]]] = [
    ("bfloat16", lambda tf: tf.random.stateless_gamma([2, 0, 1], [42, 2], 1e-3, dtype=tf.bfloat16)),
    ("bfloat16-beta", lambda tf: tf.random.stateless_gamma([], [7, -1], alpha=np.float32(0.25), beta=1e-3,
                                                            dtype=tf.bfloat16)),
    ("int32", lambda tf: tf.random.stateless_gamma(shape=(1, 2), seed=[1, 2], alpha=3, dtype=tf.int32)),
    ("int64", lambda tf: tf.random.stateless_gamma(shape=(1, 2), seed=[1, 2], alpha=3, dtype=tf.int64)),
    ("float16", lambda tf: tf.random.stateless_gamma(shape=(1, 2), seed=[1, 2], alpha=3, dtype=tf.float16)),
    ("bad-seed-first", lambda tf: tf.random.stateless_gamma([2], [1, 2, 3], 1.0, dtype=tf.bfloat16)),
    ("stateful-bfloat16-finfo", lambda tf: tf.random.gamma([2], 1.0, dtype=tf.bfloat16, seed=1)),
]
_CATEGORICAL: list[tuple[str, Callable[[Any], Any]]] = [
    ("stateless-complex-logits", lambda tf: tf.random.stateless_categorical(
        tf.constant(np.zeros((2, 2), np.complex64)), 3, seed=[1, -1], dtype=tf.int64)),
    ("stateless-complex-empty-logits", lambda tf: tf.random.stateless_categorical(
        tf.constant(np.zeros((2, 2, 0), np.complex64)), 3, seed=[1, -1], dtype=tf.int64)),
    ("stateful-complex-logits", lambda tf: tf.random.categorical(tf.constant(np.zeros((2, 2), np.complex128)), 3)),
    ("stateless-bool-logits", lambda tf: tf.random.stateless_categorical(tf.constant([[True, False]]), 3, seed=[1, 2])),
    ("stateless-int32-logits-no-kernel", lambda tf: tf.random.stateless_categorical(tf.constant([[1, 2]]), 3,
                                                                                    seed=[1, 2])),
    ("stateless-vector-logits", lambda tf: tf.random.stateless_categorical(
        np.array([-np.inf, -2.0]), 3, seed=[1, 0])),
    ("stateful-vector-logits", lambda tf: tf.random.categorical(tf.constant([0.5, 2.5]), 3)),
    ("stateless-negative-num-samples", lambda tf: tf.random.stateless_categorical(tf.zeros([2, 2]), -2, seed=[1, 2])),
]
RANDOM: list[tuple[str, str, Callable[[Any], Any]]] = [
    # -- StatelessRandomGammaV3's dtype attr (half, float, double) before np.finfo (fz3 ext seeds 81 #233, #263,
    #    82 #33, 83), eagerly, traced and under a tape
    *[(f"stateless-gamma-{label}-{mode}", "ops.random-gamma-poisson", wrap(build))
      for label, build in _GAMMA for mode, wrap in (("eager", lambda b: b), ("traced", _traced), ("tape", _taped))],
    # -- the categorical samplers' logits dtype and num_samples (fz3 ext seeds 81 #170, 82 #129, 83)
    *[(f"categorical-{label}-{mode}", "ops.random-bits", wrap(build))
      for label, build in _CATEGORICAL for mode, wrap in (("eager", lambda b: b), ("traced", _traced))],
]
CASES = RANDOM

_VALS = np.array([np.nan, np.inf, -np.inf, 1e30, -2.0, 0.5, 0.0, -0.0, 1e-40, 0.25], np.float32)
_RGB = np.stack(np.meshgrid(_VALS, _VALS, _VALS, indexing="ij"), axis=-1).reshape(10, 100, 3)
IMAGE: list[tuple[str, str, Callable[[Any], Any]]] = [
    # -- RGBToHSV's max/min over the channels (Eigen's reducers: a NaN channel replaces the accumulator, a later
    #    number replaces the NaN; fz3 ext seeds 81 #118, 82 #224, 83 #156): every triple of ten edge values
    *[(f"rgb-to-hsv-edges-{dt}", "ops.image", (lambda d: lambda tf: tf.image.rgb_to_hsv(tf.constant(_RGB.astype(d))))(dt))
      for dt in ("float32", "float64", "float16")],
    # -- traced, a NumPy image keeps its dtype (eagerly float32) and a wrong channel count is ValueError
    #    (fz3 ext seed 83 #35, #88)
    ("hsv-to-rgb-float64-numpy-traced", "ops.image",
     _traced(lambda tf: tf.image.hsv_to_rgb(np.array([[[0.5, 0.5, 0.25]], [[0.25, 0.75, 0.125]]], np.float64)))),
    ("hsv-to-rgb-float64-numpy-eager", "ops.image",
     lambda tf: tf.image.hsv_to_rgb(np.array([[[0.5, 0.5, 0.25]], [[0.25, 0.75, 0.125]]], np.float64))),
    ("rgb-to-hsv-float16-numpy-traced", "ops.image",
     _traced(lambda tf: tf.image.rgb_to_hsv(np.array([[[0.5, 0.5, 0.25]]], np.float16)))),
    *[(f"hsv-to-rgb-{dt}-numpy-traced", "ops.image",
       (lambda d: _traced(lambda tf: tf.image.hsv_to_rgb(np.array([[[127, 250, 3]]], d))))(dt))
      for dt in ("int64", "uint8", "bool", "float16")],
    ("rgb-to-hsv-float64-list-traced", "ops.image", _traced(lambda tf: tf.image.rgb_to_hsv([[[0.5, 0.25, 1.0]]]))),
    ("hsv-to-rgb-one-channel-traced", "ops.image", _traced(lambda tf: tf.image.hsv_to_rgb(tf.constant([[[-np.inf]]])))),
    ("rgb-to-hsv-scalar-traced", "ops.image", _traced(lambda tf: tf.image.rgb_to_hsv(tf.constant(1.0)))),
    # -- adjust_hue checks delta only eagerly (fz3 ext seed 83 #150)
    ("adjust-hue-delta-1.5-traced", "ops.image",
     _traced(lambda tf: tf.image.adjust_hue(np.array([[[0.5, 0.5, 0.25]], [[0.25, 0.75, 0.125]]], np.float32), 1.5))),
    ("adjust-hue-delta-1.5-eager", "ops.image",
     lambda tf: tf.image.adjust_hue(np.array([[[0.5, 0.5, 0.25]]], np.float32), 1.5)),
]
CASES = CASES + IMAGE


def _sig(fn: Callable[..., Any], specs: list[tuple[Any, str]], *values: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """fn(tf, *args) as a tf.function with input_signature TensorSpec(shape, dtype) per spec (None
    dimensions unknown to the graph): "at trace: <class>" when get_concrete_function raises, else
    its call on the values (made by `values` from tf)."""
    def run(tf: Any) -> Any:
        f = tf.function(lambda *a: fn(tf, *a), input_signature=[tf.TensorSpec(sh, getattr(tf, dt)) for sh, dt in specs])
        try:
            f.get_concrete_function()
        except Exception as e:  # noqa: BLE001 - the class is the result
            return f"at trace: {type(e).__name__}"
        return f(*[v(tf) for v in values])
    return run


_C0 = np.zeros((0, 4, 1), np.complex128)
_H = np.array([[-7.25, 1, 2, 0.5]] * 3, np.float16)
TRACED: list[tuple[str, str, Callable[[Any], Any]]] = [
    # -- shape functions merge an unknown dimension with any (fz3 ext seeds 81 #108, 82 #158)
    ("concat-unknown-dims", "function.trace-time-errors",
     _sig(lambda tf, x: tf.concat([x, tf.constant(_C0), tf.constant(_C0)], axis=1), [([None, None, None], "complex128")],
          lambda tf: tf.constant(_C0))),
    ("concat-known-dims-mismatch", "function.trace-time-errors",
     _sig(lambda tf, x: tf.concat([x, tf.constant(_C0)], axis=1), [([1, None, 1], "complex128")],
          lambda tf: tf.constant(np.zeros((1, 2, 1), np.complex128)))),
    ("bias-add-unknown-channels", "function.trace-time-errors",
     _sig(lambda tf, x: tf.nn.bias_add(x, tf.constant([1, 2, 3, 4], tf.float16)), [([None, None], "float16")],
          lambda tf: tf.constant(_H))),
    ("bias-add-known-channels-mismatch", "function.trace-time-errors",
     _sig(lambda tf, x: tf.nn.bias_add(x, tf.constant([1, 2, 3], tf.float16)), [([None, 4], "float16")],
          lambda tf: tf.constant(_H))),
    # -- matrix_transpose of a tensor of unknown rank builds its perm from rank(a): traced fine, refused at run
    #    time for rank < 2 (fz3 ext seed 83 #191)
    ("adjoint-unknown-rank-matrix", "function.trace-time-errors",
     _sig(lambda tf, x: tf.linalg.adjoint(x), [(None, "complex64")], lambda tf: tf.ones([3, 4], tf.complex64))),
    ("adjoint-unknown-rank-vector", "function.trace-time-errors",
     _sig(lambda tf, x: tf.linalg.adjoint(x), [(None, "complex64")], lambda tf: tf.ones([3], tf.complex64))),
    ("matrix-transpose-known-vector", "function.trace-time-errors",
     _sig(lambda tf, x: tf.linalg.matrix_transpose(x), [([3], "float32")], lambda tf: tf.ones([3]))),
    # -- ArgMin's output_type attr before the axis's shape and range (fz3 ext seed 83 #287)
    ("argmin-int16-empty-axis-traced", "function.trace-time-errors",
     _sig(lambda tf, x: tf.math.argmin(x, [], tf.int16), [([], "float16")], lambda tf: tf.constant(0.0, tf.float16))),
    ("argmin-int16-empty-axis-eager", "function.trace-time-errors",
     lambda tf: tf.math.argmin(tf.constant(0.0, tf.float16), [], tf.int16)),
    ("argmin-int16-axis-out-of-range-eager", "function.trace-time-errors",
     lambda tf: tf.math.argmin(tf.ones([2, 3]), 5, tf.int16)),
    ("argmax-float-axis-int16", "function.trace-time-errors", lambda tf: tf.math.argmax(tf.ones([2, 3]), 1.5, tf.int16)),
]
CASES = CASES + TRACED

CONVERSION: list[tuple[str, str, Callable[[Any], Any]]] = [
    # -- eagerly a Python bool converts to complex128 (1 + 0j), not to complex64 (fz3 ext seed 82 #12, #48)
    *[(f"bool-to-{label}", "ops.conversion", build) for label, build in (
        ("complex128-constant", lambda tf: tf.constant(True, tf.complex128)),
        ("complex128-convert", lambda tf: tf.convert_to_tensor(True, tf.complex128)),
        ("complex128-nested", lambda tf: tf.convert_to_tensor([[True], [False]], tf.complex128)),
        ("complex64-refused", lambda tf: tf.convert_to_tensor(True, tf.complex64)),
        ("complex64-list-refused", lambda tf: tf.convert_to_tensor([True, False], tf.complex64)),
        ("complex128-subtract", lambda tf: tf.math.subtract(tf.constant([1 + 2j], tf.complex128), True)),
        ("complex128-equal", lambda tf: tf.math.equal(tf.constant([1 + 2j, 1], tf.complex128), True)),
        ("complex64-add-refused", lambda tf: tf.math.add(tf.constant([1 + 2j], tf.complex64), True)),
        ("complex64-traced", _traced(lambda tf: tf.convert_to_tensor(True, tf.complex64))))],
]
CASES = CASES + CONVERSION

EDGES = edge_compare.EdgeModule(__file__, CASES)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("ops.random-gamma-poisson")
@EDGES.parametrize("ops.random-gamma-poisson")
def test_stateless_gamma_dtype_attr(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.random-bits")
@EDGES.parametrize("ops.random-bits")
def test_categorical_argument_errors(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.image")
@EDGES.parametrize("ops.image")
def test_image_colour_kernels(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("function.trace-time-errors")
@EDGES.parametrize("function.trace-time-errors")
def test_shape_functions_and_attr_order(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.conversion")
@EDGES.parametrize("ops.conversion")
def test_python_bool_to_complex(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


if __name__ == "__main__":  # TF worker: python test_fuzz7_edges_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
