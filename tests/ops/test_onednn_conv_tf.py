"""oneDNN's float32 Conv2D and its filter gradient (clause ops.packet-paths, its paragraph "oneDNN's float32 Conv2D"):
where oneDNN runs float32 (an AVX-512 CPU with AVX512_VNNI or AMX: the reference model and the fifty-fifth session's
Xeon), TF 2.21 computes each output of a forward convolution over the window's rows, columns and input channels in
that order with fused multiply-adds from +0, and Conv2DBackpropFilter in two threads over the images, each adding
x·dy over its output pixels in order with fused multiply-adds, the two sums then added, for up to 9 input channels
(simdist/runtime/ops/conv.py, `_onednn_in_order`, `_onednn_filter_sums`). The input gradient's order, and the filter
gradient's for more input channels, are not modelled and not compared. Each case
runs on TF 2.21 and on simdist (the golden's host model): the same bits. Needs the `tf` extra.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import edge_compare
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause

# (input, filter, stride, padding, dilation)
_SHAPES = (((1, 5, 5, 1), (3, 3, 1, 1), 1, "SAME", 1), ((1, 7, 6, 9), (2, 2, 9, 4), 2, "SAME", 1),
           ((1, 9, 9, 5), (5, 5, 5, 3), 3, "VALID", 1), ((2, 6, 7, 3), (3, 2, 3, 8), 1, "VALID", 1),
           ((1, 5, 5, 17), (2, 2, 17, 2), 1, "VALID", 1), ((1, 6, 6, 32), (3, 3, 32, 8), 1, "VALID", 1),
           ((1, 8, 8, 64), (3, 3, 64, 16), 1, "SAME", 1), ((1, 8, 8, 2), (3, 3, 2, 17), 1, "SAME", 2),
           ((3, 5, 5, 4), (2, 2, 4, 2), 1, "SAME", 1), ((2, 6, 6, 2), (3, 3, 2, 3), 1, "VALID", 1))


def _conv(xs: tuple, fs: tuple, s: int, pad: str, d: int, seed: int) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        r = np.random.default_rng(seed)
        x = tf.constant(r.standard_normal(xs).astype(np.float32))
        w = tf.constant((r.standard_normal(fs) * r.choice([0.1, 1.0, 10.0], fs)).astype(np.float32))
        with tf.GradientTape() as tape:
            tape.watch(w)
            y = tf.nn.conv2d(x, w, s, pad, dilations=d)
        dy = tf.constant(r.standard_normal(tuple(y.shape)).astype(np.float32))
        # (the filter gradient's order is modelled for up to 9 input channels)
        return [y, tape.gradient(y, w, output_gradients=dy)] if fs[2] <= 9 else [y]
    return run


CASES = [(f"float32 conv2d {xs} * {fs} stride {s} {pad} dilation {d}, and its filter gradient", "ops.packet-paths",
          _conv(xs, fs, s, pad, d, 40 + i)) for i, (xs, fs, s, pad, d) in enumerate(_SHAPES)]

EDGES = edge_compare.EdgeModule(__file__, CASES)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("ops.packet-paths")
@EDGES.parametrize("ops.packet-paths")
def test_onednn_conv2d_bit_for_bit(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


def test_every_case_has_a_test() -> None:
    untested = EDGES.untested()
    assert not untested, f"cases of groups {untested} have no test function above"


if __name__ == "__main__":  # TF worker: python test_onednn_conv_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
