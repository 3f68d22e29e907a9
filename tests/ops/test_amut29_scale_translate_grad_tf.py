"""The gradient of tf.raw_ops.ScaleAndTranslate against TF 2.21 (clause autodiff.op-gradients): the raw op takes
size, scale and translation as its inputs 1-3 (TF's op def), and TF's _ScaleAndTranslateGrad reads scale and
translation from op.inputs[2:4]; simdist's gradient read them as attrs, which only its own scale_and_translate()
call sets, so a tape over the raw op raised ValueError "Operation 'ScaleAndTranslate' has no attr named 'scale'".
Cases: three kernels, antialias on and off, a different scale and translation on each axis, up- and downscaling;
the gradients of size, scale and translation are None. Found writing the seed-6 sweep's gap test for the survivor
scale_translate.py:175 (docs/conformance.md, twenty-ninth session)."""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import numpy as np
import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

_X = np.linspace(-1.0, 2.0, 12, dtype=np.float32).reshape(1, 3, 4, 1)
_W = ((np.arange(12, dtype=np.float32) * 7) % 11 / 4.0 - 1.25).reshape(1, 4, 3, 1)   # (exact values: portable_inputs)


def _grad(kernel: str, antialias: bool, scale: tuple, translation: tuple, size: tuple = (4, 3)) -> Callable[[Any], Any]:
    def case(tf: Any) -> Any:
        x = tf.constant(_X)
        sz, sc, tr = (tf.constant(np.array(v, dt)) for v, dt in ((size, np.int32), (scale, np.float32),
                                                                   (translation, np.float32)))
        with tf.GradientTape() as tape:
            tape.watch([x, sc, tr])
            y = tf.raw_ops.ScaleAndTranslate(images=x, size=sz, scale=sc, translation=tr, kernel_type=kernel,
                                             antialias=antialias)
            loss = tf.reduce_sum(y * _W[:, :size[0], :size[1], :])
        return [y] + list(tape.gradient(loss, [x, sc, tr]))
    return case


def _cases() -> dict[str, Callable[[Any], Any]]:
    out = {}
    for kernel in ("triangle", "lanczos3", "keyscubic"):
        for antialias in (True, False):
            out[f"{kernel}/antialias={antialias}, scale (1.5, 0.75), translation (0.3, -0.7)"] = _grad(
                kernel, antialias, (1.5, 0.75), (0.3, -0.7))
    out["triangle/downscale (0.5, 0.5), translation (0, 0)"] = _grad("triangle", True, (0.5, 0.5), (0.0, 0.0), (2, 2))
    return out


_AUTO_NAME = re.compile(r"(tensor_)\d+")
TABLE = case_results.Table(__file__, _cases(), _AUTO_NAME)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("autodiff.op-gradients")
def test_raw_scale_and_translate_gradients(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: True)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)
