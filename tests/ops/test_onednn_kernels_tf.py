"""oneDNN's float32 softmax and NCHW pooling on TF 2.21's x86-64 wheel (clauses nn.softmax-nonfinite,
ops.host-cpu): where oneDNN is on, tf.nn.softmax of float32 (and of bfloat16/float16 where the CPU runs them
through oneDNN, computed in float32 and rounded once) is oneDNN v3.7.3's jit dense kernel, bit for bit: its
exp polynomial, its four accumulators and lane shuffles for the row sum, e · (1 / sum)
(simdist/runtime/ops/onednn_softmax.py); the NaNs it makes are x86's default NaN (sign set) whatever the
input's bits. MaxPool takes float16 NCHW through oneDNN where the CPU has AVX512-FP16, its gradient and
AvgPool do not; bfloat16 AvgPool and float16 Conv2DBackpropInput there compute in float32 and round once. Each case runs on TF 2.21 and on simdist (the goldens' host model): the same dtype and
bits, or the same exception class. Needs the `tf` extra.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import edge_compare
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause

_LENGTHS = (1, 2, 3, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 47, 48, 49, 63, 64, 65, 80, 96, 97, 127, 128, 129,
            192, 257, 1000)


def _rows(n: int, scale: float, seed: int) -> np.ndarray:
    return (np.random.default_rng(seed).standard_normal((3, n)) * scale).astype(np.float32)


def _softmaxes(scale: float, dtype: str) -> Callable[[Any], Any]:
    """softmax of three seeded rows of every length in _LENGTHS, cast to `dtype` first."""
    def run(tf: Any) -> Any:
        return [tf.nn.softmax(tf.cast(_rows(n, scale, 100 + n), dtype)) for n in _LENGTHS]
    return run


def _expr(text: str, **values: Any) -> Callable[[Any], Any]:
    """`text` evaluated with `values` as constants (tensors: TF converts a NumPy argument of MaxPool to its
    type attr's default, float32, after the first call in a process)."""
    def run(tf: Any) -> Any:
        return eval(text, {"tf": tf, "np": np, **{k: tf.constant(v) for k, v in values.items()}})  # noqa: S307
    return run


_INF = float("inf")
_FLUSH = np.array([[0.0, -86.8, -86.9, -87.0, -87.2, -87.33, -87.34, -86.64, -86.99, -88.0, -103.0, -104.0,
                    -50.0, 1e-40, -1e-40, 3e-39]], np.float32)
_X3 = (np.random.default_rng(3).standard_normal((5, 7, 19)) * 4).astype(np.float32)
_H16 = (np.random.default_rng(0).standard_normal((2, 3, 7, 6)) * 3).astype(np.float16)


def _nan_row(bits: int) -> Callable[[Any], Any]:
    row = [1.0] * 20 + [np.array([bits], np.uint32).view(np.float32)[0]] + [2.0] * 12
    return _expr("[tf.nn.softmax(x), tf.nn.softmax(tf.cast(x, 'float16')), tf.nn.softmax(tf.cast(x, 'bfloat16'))]",
                 x=np.array([row], np.float32))


def _max_pool_f16_nchw_gradient(tf: Any) -> Any:
    x = tf.constant(_H16[0:1, 0:2, 0:4])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.nn.max_pool2d(x, 2, 2, "SAME", data_format="NCHW")
    return tape.gradient(y, x)


def _fbn_shapes(version: str, dtype: str) -> Callable[[Any], Any]:
    """The shapes of FusedBatchNorm{version}'s outputs of a `dtype` x (the placeholders' follow the kernel that
    runs: oneDNN's or TF's own)."""
    def run(tf: Any) -> Any:
        x, s, o = tf.ones([2, 2, 2, 3], dtype), tf.ones([3]), tf.zeros([3])
        if version == "V3":
            out = tf.raw_ops.FusedBatchNormV3(x=x, scale=s, offset=o, mean=tf.zeros([0]), variance=tf.zeros([0]),
                                              is_training=True)
        else:
            kw = dict(y_backprop=x, x=x, scale=s, reserve_space_1=o, reserve_space_2=s, is_training=True)
            if version == "GradV3":
                kw["reserve_space_3"] = o
            out = getattr(tf.raw_ops, "FusedBatchNorm" + version)(**kw)
        return [tf.shape(t) for t in out]
    return run


_S = "nn.softmax-nonfinite"
_H = "ops.host-cpu"
#: Average pooling's input: seeded normal values (bfloat16 after the cast).
_AVG_IN = np.random.default_rng(3).standard_normal((2, 8, 8, 3)).astype(np.float32)
#: A transposed convolution's filter: [3, 3, out 3, in 2].
_CONV_W = np.random.default_rng(4).standard_normal((3, 3, 3, 2)).astype(np.float32)

CASES = [
    *[(f"softmax {dt} rows of 1..1000 at scale {s}", _S, _softmaxes(s, dt))
      for dt in ("float32", "bfloat16", "float16") for s in (0.01, 3.0, 40.0)],
    ("exp near ln FLT_MIN, subnormal inputs", _S, _expr("tf.nn.softmax(x)", x=_FLUSH)),
    ("a row of -inf, -inf beside finite values", _S,
     _expr("tf.nn.softmax([[-i, -i, -i], [-i, 0.0, 1.0]])", i=np.float32(_INF))),
    ("rows of +-3e38 (x - max overflows)", _S,
     _expr("tf.nn.softmax(tf.constant([[3e38, -3e38, 0.0], [3.4e38, 3.4e38, -1.0], [-3.4e38, -3.4e38, 1.0]]))")),
    ("softmax over axes 0 and 1 of a rank-3 tensor", _S, _expr("[tf.nn.softmax(x, axis=0), tf.nn.softmax(x, axis=1)]",
                                                             x=_X3)),
    ("softmax in a tf.function", _S, _expr("tf.function(lambda v: tf.nn.softmax(v * 2.0))(x)", x=_X3)),
    ("keras softmax activation and layer", _S,
     _expr("[tf.keras.activations.softmax(x), tf.keras.layers.Softmax()(x)]", x=_X3)),
    *[(f"the NaN a row with NaN 0x{b:08x} gives (exact bits)", _S, _nan_row(b))
      for b in (0x7FC00000, 0xFFC00000, 0x7FC12345, 0x7F800001)],
    ("a row with +inf gives x86's default NaN (exact bits)", _S,
     _expr("tf.nn.softmax([[1.0, -i, i], [i, 1.0, 3.0]])", i=np.float32(_INF))),
    ("float16 max_pool2d NCHW", _H, _expr("[tf.nn.max_pool2d(x, k, s, p, data_format='NCHW') for k, s, p in "
                                          "((2, 2, 'VALID'), (3, 1, 'SAME'), (3, 2, 'SAME'))]", x=_H16)),
    ("float16 avg_pool2d NCHW (no oneDNN kernel)", _H,
     _expr("tf.nn.avg_pool2d(x, 2, 2, 'VALID', data_format='NCHW')", x=_H16)),
    ("float16 max_pool1d NCW, max_pool3d NCDHW", _H,
     _expr("[tf.nn.max_pool1d(x[0], 2, 2, 'VALID', data_format='NCW'), "
           "tf.nn.max_pool3d(tf.reshape(x[:, :, :4, :4], [1, 2, 3, 4, 4]), 2, 2, 'VALID', data_format='NCDHW')]",
           x=_H16)),
    ("float16 max_pool2d NCHW traced", _H,
     _expr("tf.function(lambda v: tf.nn.max_pool2d(v, 2, 1, 'VALID', data_format='NCHW'))(x)", x=_H16)),
    ("the gradient of a float16 NCHW max_pool2d (MaxPoolGrad has no NCHW kernel)", _H, _max_pool_f16_nchw_gradient),
    *[(f"conv2d {dt} dilations {d} (batch or depth)", _H,
       _expr(f"tf.nn.conv2d(tf.ones([1, 4, 4, 2], '{dt}'), tf.ones([2, 2, 2, 2], '{dt}'), 1, 'VALID', dilations={d})"))
      for dt in ("float32", "float64") for d in ([2, 1, 1, 1], [1, 1, 1, 2])],
    *[(f"conv1d_transpose {dt} strides {st} (batch or depth)", _H,
       _expr(f"tf.nn.conv1d_transpose(tf.ones([1, 4, 2], '{dt}'), tf.ones([3, 2, 2], '{dt}'), [1, 8, 2], {st})"))
      for dt in ("float32", "float64") for st in ([1, 2, 2], [2, 1, 2])],
    ("conv2d_transpose float32 strides [1, 1, 1, 2] traced", _H,
     _expr("tf.function(lambda: tf.nn.conv2d_transpose(tf.ones([1, 2, 2, 2]), tf.ones([2, 2, 2, 2]), [1, 4, 4, 2], "
           "[1, 1, 1, 2]))()")),
    ("bfloat16 avg_pool2d NHWC (float32 sums, rounded once)", _H,
     _expr("[tf.nn.avg_pool2d(tf.cast(x, tf.bfloat16), k, s, p) for k, s, p in "
           "((2, 2, 'SAME'), (2, 1, 'VALID'), (3, 2, 'SAME'), (3, 1, 'VALID'))]", x=_AVG_IN)),
    ("bfloat16 avg_pool1d, avg_pool2d NCHW, traced", _H,
     _expr("[tf.nn.avg_pool1d(tf.cast(x[0], tf.bfloat16), 3, 2, 'SAME'), "
           "tf.nn.avg_pool2d(tf.cast(x, tf.bfloat16), 2, 2, 'SAME', data_format='NCHW'), "
           "tf.function(lambda v: tf.nn.avg_pool2d(tf.cast(v, tf.bfloat16), 3, 2, 'SAME'))(x)]", x=_AVG_IN)),
    ("float16 conv2d_transpose (float32 sums, rounded once)", _H,
     _expr("[tf.nn.conv2d_transpose(tf.cast(x, tf.float16), tf.cast(w, tf.float16), [2, 8 * s, 8 * s, 3], s, p) "
           "for s, p in ((1, 'SAME'), (2, 'SAME'))]", x=_AVG_IN[..., :2].copy(), w=_CONV_W)),
    *[(f"FusedBatchNorm{v} placeholder outputs' shapes, {dt}", _H, _fbn_shapes(v, dt))
      for v in ("V3", "GradV3", "Grad") for dt in ("float32", "bfloat16")],
]


def _exact_bits(got: np.ndarray, want: np.ndarray) -> np.ndarray:
    """The same bits, NaNs included (the sign and payload of a NaN count)."""
    width = f"u{got.dtype.itemsize}"
    return got.view(width) == want.view(width)


EDGES = edge_compare.EdgeModule(__file__, CASES,
                                agree=lambda case: _exact_bits if "exact bits" in case[0] else edge_compare.bits_agree)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("nn.softmax-nonfinite")
@EDGES.parametrize("nn.softmax-nonfinite")
def test_onednn_softmax_bit_for_bit(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.host-cpu")
@EDGES.parametrize("ops.host-cpu")
def test_onednn_pooling_float16_nchw(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


def test_every_case_has_a_test() -> None:
    untested = EDGES.untested()
    assert not untested, f"cases of groups {untested} have no test function above"


if __name__ == "__main__":  # TF worker: python test_onednn_kernels_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
