"""No stray RuntimeWarning from simdist's own arithmetic (issue 28 item 8: one showed in the test
suite's output). TF 2.21 gives NaN for the mean over no elements, silently."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from simdist import tf


@pytest.mark.parametrize("shape,axis", [((0,), None), ((2, 0), 1), ((0, 3), 0), ((0, 3), None)])
def test_mean_over_no_elements_is_nan_without_a_warning(shape, axis):
    x = tf.zeros(shape)
    want = np.full(np.sum(np.zeros(shape), axis=axis).shape, np.nan, "float32")
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        got = tf.reduce_mean(x, axis=axis).numpy()
    assert got.shape == want.shape and np.isnan(got).all() and got.dtype == np.float32, (got, want)
