"""Differential test of keras.random's categorical, randint, shuffle, gamma, binomial and beta
(Keras 3.15's TF backend: TF's stateless ops on the drawn seed) against TF 2.21 + Keras 3.15, bit
for bit. Clause keras.random.distributions. Its golden (tests/goldens/) is stamped with this file."""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import pytest

import portable_inputs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _draws(tf: Any) -> dict[str, Any]:
    r = tf.keras.random
    out: dict[str, Any] = {}
    out["categorical"] = r.categorical(portable_inputs.log(np.array([[0.2, 0.3, 0.5], [0.7, 0.2, 0.1]], "float32")), 6, seed=3)
    out["categorical-int64"] = r.categorical(portable_inputs.log(np.array([[0.2, 0.3, 0.5]], "float32")), 4, dtype="int64", seed=4)
    out["randint"] = r.randint((3, 4), 0, 10, seed=5)
    out["randint-int8"] = r.randint((5,), -3, 3, dtype="int8", seed=6)
    out["shuffle"] = r.shuffle(np.arange(10), seed=7)
    out["shuffle-axis1"] = r.shuffle(np.arange(12).reshape(3, 4), axis=1, seed=8)
    out["gamma"] = r.gamma((4,), 2.0, seed=9)
    out["binomial"] = r.binomial((5,), 10.0, 0.3, seed=10)
    out["beta"] = r.beta((2, 3), 2.0, 3.0, seed=11)
    gen = r.SeedGenerator(42)
    out["seed-generator-1"] = r.randint((3,), 0, 100, seed=gen)
    out["seed-generator-2"] = r.randint((3,), 0, 100, seed=gen)
    return {k: np.asarray(v.numpy()) for k, v in out.items()}


def _tf_worker(indices: list[int]) -> dict[int, Any]:
    import tensorflow as tf
    return {0: _draws(tf)}


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return tf_workers.spawn(__file__, [0])


@pytest.mark.clause("keras.random.distributions")
def test_keras_random_distributions_match_tf_bit_for_bit(tf_results: dict[int, Any]) -> None:
    from simdist import tf
    got, want = _draws(tf), tf_results[0]
    bad = [f"keras.random {k}: out={got[k].ravel()[:6]} ({got[k].dtype}), but should be {w.ravel()[:6]} ({w.dtype})"
           for k, w in want.items() if got[k].dtype != w.dtype or not np.array_equal(got[k], w)]
    assert not bad, "\n".join(bad)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(_tf_worker)
    os._exit(0)
