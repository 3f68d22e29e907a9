"""The order tf.nn's pooling and convolution wrappers check their arguments — clause
ops.nn-wrapper-order (TF 2.21's nn_ops.py: which error a wrong call raises).

max_pool2d/avg_pool2d read ksize, then strides, before the padding (a bad ksize length is
ValueError even with a bad padding); max_pool_with_argmax refuses a non-NHWC data_format before
anything else; max_pool1d/avg_pool1d pool over the width of an NWC input; convolution takes its
spatial rank from the filters.
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, raises

clause = pytest.mark.clause


@clause("ops.nn-wrapper-order", ref="tf221")
def test_pool_wrappers_read_ksize_then_strides_before_padding(tf):
    x = tf.constant(np.arange(32, dtype=np.float32).reshape(1, 4, 4, 2))
    for fn in (tf.nn.max_pool2d, tf.nn.avg_pool2d):
        with raises(ValueError, call=f"{fn.__name__}(x, ksize=[2, 2, 2], strides=1, padding='BAD')",
                    match="ksize should be of length 1, 2 or 4"):
            fn(x, ksize=[2, 2, 2], strides=1, padding="BAD")
        with raises(ValueError, call=f"{fn.__name__}(x, ksize=2, strides=[1, 1, 1], padding='BAD')",
                    match="strides should be of length 1, 2 or 4"):
            fn(x, ksize=2, strides=[1, 1, 1], padding="BAD")
    with raises(ValueError, call="max_pool_with_argmax(x, 2, 2, 'VALID', data_format='NCHW')",
                match="NHWC"):
        tf.nn.max_pool_with_argmax(x, 2, 2, "VALID", data_format="NCHW")


@clause("ops.nn-wrapper-order", ref="tf221")
def test_one_dimensional_pools_and_convolution_ranks(tf):
    a = np.arange(12, dtype=np.float32).reshape(1, 6, 2)
    got = tf.nn.max_pool1d(tf.constant(a), ksize=2, strides=2, padding="VALID")
    assert_close(got, a.reshape(1, 3, 2, 2).max(axis=2), call="max_pool1d(NWC [1, 6, 2], 2, 2, 'VALID')")
    got = tf.nn.avg_pool1d(tf.constant(a), ksize=3, strides=3, padding="VALID")
    assert_close(got, a.reshape(1, 2, 3, 2).mean(axis=2), call="avg_pool1d(NWC [1, 6, 2], 3, 3, 'VALID')")
    # the number of spatial dimensions comes from the filters: a rank-3 filter makes a 1-D convolution
    f = np.ones((2, 2, 1), np.float32)
    got = tf.nn.convolution(tf.constant(a), tf.constant(f), padding="VALID")
    want = np.stack([a[:, i:i + 2, :].sum(axis=(1, 2)) for i in range(5)], axis=1)[..., None]
    assert_close(got, want, call="convolution(NWC [1, 6, 2], filters [2, 2, 1], 'VALID')")
