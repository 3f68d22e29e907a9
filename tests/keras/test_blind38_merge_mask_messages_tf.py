"""A merge layer's compute_mask argument checks against Keras 3.15 on TF 2.21 (clause keras.mask.propagation):
a mask that is not a list, inputs that are not a list and lists of different lengths are ValueErrors, with
Concatenate's own text for the first ("Received mask=", no colon; simdist printed Merge's "Received: mask=" for
Concatenate too: found writing a probe of the thirty-eighth blind batch, docs/conformance.md)."""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import numpy as np
import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

_LAYERS = ("Add", "Subtract", "Multiply", "Average", "Maximum", "Minimum", "Concatenate")


def _case(name: str, how: str) -> Callable[[Any], Any]:
    def case(tf: Any) -> Any:
        a = np.ones((2, 3), "float32")
        m1, m2 = np.array([True, False]), np.array([True, True])
        inputs, mask = {"mask not a list": ([a, a], m1), "inputs not a list": (a, [m1, m2]),
                        "one mask for two inputs": ([a, a], [m1]), "three masks for two inputs": ([a, a], [m1, m2, m1]),
                        "two masks": ([a, a], [m1, m2]), "one mask None": ([a, a], [None, m2]),
                        "mask None": ([a, a], None)}[how]
        out = getattr(tf.keras.layers, name)().compute_mask(inputs, mask)
        return None if out is None else np.asarray(out)
    return case


def _cases() -> dict[str, Callable[[Any], Any]]:
    return {f"merge-mask/{name} {how}": _case(name, how) for name in _LAYERS
            for how in ("mask not a list", "inputs not a list", "one mask for two inputs",
                        "three masks for two inputs", "two masks", "one mask None", "mask None")}


TABLE = case_results.Table(__file__, _cases(), re.compile(r"(dummy_)\d+"))


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("keras.mask.propagation")
def test_merge_layers_compute_mask_argument_checks_as_tf(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: lab.startswith("merge-mask/"))


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)
