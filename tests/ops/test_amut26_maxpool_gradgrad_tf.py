"""MaxPoolGradGrad against TF 2.21 (clause autodiff.op-gradients): the CPU kernel
(SpatialMaxPoolGradGrad) gives each output g at the first in-bounds window position whose input
equals orig_output, 0 where none does: windows of only -inf (MaxPool's -FLT_MAX floor), NaN beside
the maximum (passed over), orig_output values not in the window (raw calls), padded borders; also
reached as max_pool's second derivative under nested tapes. Found by the seed-3 mutation sweep's
survivor at pooling.py's padded gradient windows (docs/conformance.md, twenty-sixth session)."""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import numpy as np
import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

_NAN_INF = np.array([np.nan, 1, 2, 0, 3, np.nan, -1, 5, 0, 0, 0, 0, -np.inf, np.nan, 7, 7],
                    np.float32).reshape(1, 4, 4, 1)
_CORNER = np.full((1, 3, 3, 1), -np.inf, np.float32)
_CORNER[0, 2, 2, 0] = 1.0


def _raw(x: np.ndarray, k: int, s: int, pad: str, y: np.ndarray | None = None) -> Callable[[Any], Any]:
    def case(tf: Any) -> Any:
        out = tf.nn.max_pool2d(x, k, s, pad) if y is None else y
        g = np.arange(1, x.size + 1, dtype=x.dtype).reshape(x.shape)
        return tf.raw_ops.MaxPoolGradGrad(orig_input=x, orig_output=out, grad=g, ksize=[1, k, k, 1],
                                          strides=[1, s, s, 1], padding=pad)
    return case


def _second(x: np.ndarray, k: int, s: int, pad: str) -> Callable[[Any], Any]:
    """d/dx of sum(R2 * d/dx sum(R1 * max_pool(x))) with x's second use through pool * x."""
    def case(tf: Any) -> Any:
        xt = tf.constant(x)
        r1 = tf.constant(np.linspace(-1.0, 2.0, int(np.prod(tf.nn.max_pool2d(x, k, s, pad).shape)))
                         .reshape(tf.nn.max_pool2d(x, k, s, pad).shape).astype(x.dtype))
        with tf.GradientTape() as outer:
            outer.watch(xt)
            with tf.GradientTape() as inner:
                inner.watch(xt)
                loss = tf.reduce_sum(r1 * tf.nn.max_pool2d(xt, k, s, pad))
            gx = inner.gradient(loss, xt)
            top = tf.reduce_sum(tf.nn.max_pool2d(gx * gx, k, s, pad))
        return [gx, outer.gradient(top, xt)]
    return case


def _cases() -> dict[str, Callable[[Any], Any]]:
    return {
        "raw/windows of only -inf under SAME padding": _raw(_CORNER, 2, 2, "SAME"),
        "raw/NaN beside the maximum, 2x2 stride 2": _raw(_NAN_INF, 2, 2, "VALID"),
        "raw/NaN and -inf, 3x3 stride 1 SAME": _raw(_NAN_INF, 3, 1, "SAME"),
        "raw/NaN and -inf, 2x2 stride 1": _raw(_NAN_INF, 2, 1, "VALID"),
        "raw/an orig_output of zeros": _raw(_NAN_INF, 2, 2, "VALID", np.zeros((1, 2, 2, 1), np.float32)),
        "raw/ties take the first": _raw(np.array([1, 5, 5, 2], np.float32).reshape(1, 2, 2, 1), 2, 2, "VALID"),
        "tape/second derivative over windows of -inf": _second(_CORNER.astype(np.float64), 2, 2, "SAME"),
        "tape/second derivative of a finite input": _second(np.linspace(-2, 3, 16).reshape(1, 4, 4, 1), 3, 1, "SAME"),
    }


_AUTO_NAME = re.compile(r"(max_pool_)\d+")
TABLE = case_results.Table(__file__, _cases(), _AUTO_NAME)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("autodiff.op-gradients")
@pytest.mark.parametrize("prefix", ["raw/", "tape/"])
def test_max_pool_grad_grad_takes_the_first_input_equal_to_the_output(tf_results: dict[int, Any],
                                                                     prefix: str) -> None:
    TABLE.check(tf_results, lambda lab: lab.startswith(prefix))


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)
