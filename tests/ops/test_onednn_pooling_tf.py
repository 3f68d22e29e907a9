"""oneDNN's float32 pooling (clause nn.max-pool-nan, its paragraph "oneDNN's float32 pooling"): where oneDNN is on
(an AVX-512 CPU with AVX512_VNNI or AMX: the reference model and the fifty-fifth session's Xeon), TF 2.21's float32
MaxPool compares under DAZ and copies the first maximum's bits (a subnormal maximum is kept, and a subnormal ties
with a zero), MaxPoolGrad adds the routed gradients in the outputs' flat order, and AvgPoolGrad adds each output's
share (its gradient divided by its window's valid count) in oneDNN's loop order: output rows, window rows, window
columns, output columns. Each case runs on TF 2.21 and on simdist (the golden's host model): the same dtype and
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

_SUB = 2.0 ** -130
# (input [H, W], ksize, strides, padding): overlapping windows, SAME borders, a rectangular window
_SHAPES = (((5, 5), 2, 1, "VALID"), ((6, 7), 3, 2, "SAME"), ((9, 8), 3, 1, "SAME"), ((7, 5), (3, 2), (2, 1), "SAME"),
           ((8, 8), 2, 2, "VALID"), ((4, 6), 3, 1, "VALID"))


def _grads(hw: tuple[int, int], k: Any, s: Any, pad: str, seed: int, fmt: str = "NHWC") -> Callable[[Any], Any]:
    """AvgPool's and MaxPool's values and input gradients under a non-uniform upstream gradient."""
    def run(tf: Any) -> Any:
        r = np.random.default_rng(seed)
        x = r.standard_normal((2, *hw, 3)).astype(np.float32)
        x.reshape(-1)[4::9] = x.reshape(-1)[3::9][:len(x.reshape(-1)[4::9])]   # ties inside windows
        if fmt == "NCHW":
            x = np.ascontiguousarray(x.transpose(0, 3, 1, 2))
        out = []
        for fn in (tf.nn.avg_pool2d, tf.nn.max_pool2d):
            xt = tf.constant(x)
            with tf.GradientTape() as tape:
                tape.watch(xt)
                y = fn(xt, k, s, pad, data_format=fmt)
            g = (r.standard_normal(tuple(y.shape)) * r.choice([0.5, 1.0, 3.0], tuple(y.shape))).astype(np.float32)
            out += [y, tape.gradient(y, xt, output_gradients=tf.constant(g))]
        return out
    return run


def _subnormal_windows(fmt: str) -> Callable[[Any], Any]:
    """MaxPool of windows holding ±2**-130 beside 0, -0 and negatives."""
    def run(tf: Any) -> Any:
        rows = np.array([[_SUB, -5.6, -0.59, -_SUB], [-_SUB, 0.0, -0.25, -36.0], [-24.0, -83.0, -_SUB, 0.0],
                         [0.0, -_SUB, -1.0, -2.0], [-0.0, _SUB, -3.0, -4.0], [_SUB, 0.0, -1.0, -1.0]], np.float32)
        x = rows.reshape(6, 2, 2, 1)
        if fmt == "NCHW":
            x = np.ascontiguousarray(x.transpose(0, 3, 1, 2))
        return [tf.nn.max_pool2d(tf.constant(x), 2, 1, "VALID", data_format=fmt),
                tf.nn.max_pool2d(tf.constant(x), 1, 1, "VALID", data_format=fmt)]
    return run


CASES = [(f"float32 {hw} ksize {k} strides {s} {pad}", "nn.max-pool-nan", _grads(hw, k, s, pad, 10 + i))
         for i, (hw, k, s, pad) in enumerate(_SHAPES)] + [
    ("float32 (9, 8) ksize 3 strides 1 SAME, NCHW", "nn.max-pool-nan", _grads((9, 8), 3, 1, "SAME", 30, "NCHW")),
    ("float32 max_pool2d of subnormal windows NHWC", "nn.max-pool-nan", _subnormal_windows("NHWC")),
    ("float32 max_pool2d of subnormal windows NCHW", "nn.max-pool-nan", _subnormal_windows("NCHW")),
]

EDGES = edge_compare.EdgeModule(__file__, CASES)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("nn.max-pool-nan")
@EDGES.parametrize("nn.max-pool-nan")
def test_onednn_pooling_bit_for_bit(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


def test_every_case_has_a_test() -> None:
    untested = EDGES.untested()
    assert not untested, f"cases of groups {untested} have no test function above"


if __name__ == "__main__":  # TF worker: python test_onednn_pooling_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
