"""Unseeded random functions of tf.keras.backend's legacy module take their op seed from
`np.random.randint` in Keras; simdist's `tf.random._simdist_numpy_seed` gives that draw after
keras.utils.set_random_seed and a root-seed stream otherwise (clause keras.backend.legacy)."""

from __future__ import annotations

import numpy as np
import pytest


@pytest.mark.clause("keras.backend.legacy")
def test_unseeded_legacy_draws_follow_the_root_seed_and_advance() -> None:
    import simdist
    from simdist import tf
    runs = []
    for _ in range(2):
        simdist.reset()
        K = tf.keras.backend
        runs.append([K.random_normal((3,)).numpy(), K.random_normal((3,)).numpy()])
    assert np.array_equal(runs[0][0], runs[1][0]) and np.array_equal(runs[0][1], runs[1][1]), \
        f"unseeded K.random_normal after simdist.reset() gave {runs[0]} then {runs[1]}, but should repeat"
    assert not np.array_equal(runs[0][0], runs[0][1]), \
        "two unseeded K.random_normal draws in one session should differ (the seed stream advances)"


@pytest.mark.clause("keras.backend.legacy")
def test_numpy_seed_after_set_random_seed_is_numpys_draw() -> None:
    import simdist
    from simdist import tf
    simdist.reset()
    tf.keras.utils.set_random_seed(11)
    got = [tf.random._simdist_numpy_seed(10e6) for _ in range(3)]
    rs = np.random.RandomState(11)
    want = [int(rs.randint(10e6)) for _ in range(3)]
    assert got == want, f"seeds after set_random_seed(11) are {got}, but should be NumPy's draws {want}"
