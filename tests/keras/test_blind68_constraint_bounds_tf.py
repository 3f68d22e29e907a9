"""MaxNorm and MinMaxNorm of float64 weights against Keras 3.15 on TF 2.21 (clause keras.constraints): Keras clips the
norms with ops.clip, tf.clip_by_value of the Python bounds, which TF converts to the norms' dtype directly, so a float64
weight is clipped at max_value (and min_value) exactly; simdist cast the bounds through float32 (1.3 became
1.2999999523), moving every rescaled float64 column by ~4e-8 relative. Values compared by their bits (found by
blind55a's gaps probe, docs/conformance.md "a sixty-eighth blind batch")."""

from __future__ import annotations

import re
from typing import Any, Callable

import numpy as np
import pytest

from simdist.conformance.suite import portable

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _w(dtype: str) -> np.ndarray:
    return (portable.sin(np.arange(24) * 0.77 + 0.3) * 1.7).reshape(6, 4).astype(dtype)


def _case(make: Callable[[Any], Any], dtype: str) -> Callable[[Any], Any]:
    def case(tf: Any) -> Any:
        return [float(v).hex() for v in np.asarray(make(tf)(tf.constant(_w(dtype)))).ravel()]
    return case


def _cases() -> dict[str, Callable[[Any], Any]]:
    out = {}
    for dtype in ("float64", "float32"):
        out[f"{dtype}/MaxNorm(1.3)"] = _case(lambda tf: tf.keras.constraints.MaxNorm(1.3), dtype)
        out[f"{dtype}/MaxNorm(0.9, axis=-1)"] = _case(lambda tf: tf.keras.constraints.MaxNorm(0.9, axis=-1), dtype)
        out[f"{dtype}/MaxNorm() default 2"] = _case(lambda tf: tf.keras.constraints.MaxNorm(), dtype)
        for rate in (0.3, 1.0):
            out[f"{dtype}/MinMaxNorm(0.7, 1.1, rate={rate})"] = _case(
                lambda tf, rate=rate: tf.keras.constraints.MinMaxNorm(0.7, 1.1, rate=rate), dtype)
            out[f"{dtype}/MinMaxNorm(0.2, 0.9, rate={rate}, axis=-1)"] = _case(
                lambda tf, rate=rate: tf.keras.constraints.MinMaxNorm(0.2, 0.9, rate=rate, axis=-1), dtype)
    return out


TABLE = case_results.Table(__file__, _cases(), re.compile(r"(x_)\d+"))


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("keras.constraints")
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_norm_constraints_clip_at_exact_bounds(tf_results: dict[int, Any], dtype: str) -> None:
    TABLE.check(tf_results, lambda lab: lab.startswith(dtype + "/"))


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
