"""keras.layers.Softmax's mask against Keras 3.15 on TF 2.21 (clause keras.layer.forward-and-gradients):
the mask must broadcast to the inputs, else Keras's ValueError before any op runs (a mask of the
steps, shape (batch, steps), on (batch, steps, features) inputs included: TF's where would refuse it
with InvalidArgumentError); masks that broadcast (trailing 1s, fewer dimensions, float masks > 0.5)
keep Softmax's values. Found by the seed-3 mutation sweep (docs/conformance.md, twenty-sixth session)."""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import numpy as np
import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

_X = np.linspace(-2.0, 2.0, 24, dtype=np.float32).reshape(2, 3, 4)


def _softmax(mask: np.ndarray, axis: Any = -1) -> Callable[[Any], Any]:
    def case(tf: Any) -> Any:
        return tf.keras.layers.Softmax(axis=axis)(tf.constant(_X), mask=tf.constant(mask))
    return case


def _cases() -> dict[str, Callable[[Any], Any]]:
    steps = np.array([[True, False, True], [True, True, False]])
    return {
        "refused/a mask of the steps (2, 3) on (2, 3, 4)": _softmax(steps),
        "refused/a mask of more dimensions": _softmax(np.ones((1, 2, 3, 4), bool)),
        "refused/a mask whose last axis is neither 1 nor 4": _softmax(np.ones((2, 3, 2), bool)),
        "kept/a mask of trailing 1: (2, 3, 1)": _softmax(steps[..., None]),
        "kept/a mask of the features (4,)": _softmax(np.array([True, False, True, True])),
        "kept/a float mask (> 0.5 kept) of shape (3, 4)": _softmax((np.arange(12).reshape(3, 4) % 3 / 2.0)
                                                                     .astype(np.float32)),
        "kept/a full mask on axis 1": _softmax(np.arange(24).reshape(2, 3, 4) % 5 != 0, axis=1),
    }


_AUTO_NAME = re.compile(r"((?:softmax)_)\d+")
TABLE = case_results.Table(__file__, _cases(), _AUTO_NAME)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("keras.layer.forward-and-gradients")
@pytest.mark.parametrize("prefix", ["refused/", "kept/"])
def test_softmax_masks_must_broadcast_to_the_inputs(tf_results: dict[int, Any], prefix: str) -> None:
    TABLE.check(tf_results, lambda lab: lab.startswith(prefix))


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)
