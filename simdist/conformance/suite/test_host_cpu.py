"""Clause ops.host-cpu (TF 2.21 only): which float16 kernel TF runs depends on the CPU's
features, by TF's own rule (tensorflow/core/util/util.cc `IsDataTypeSupportedByOneDNNOnThisCPU`:
float16 through oneDNN with AVX512BW and AVX512-FP16 or AMX-FP16, or with AVX-NE-CONVERT; Eigen's
kernels otherwise). The expected outcomes below are TF 2.21's, observed on both kinds of CPU.
The CPU a backend answers for is the machine's (`/proc/cpuinfo`, as TF reads cpuid); simdist's
is the one it models (SIMDIST_HOST_CPU: `host`, the default, or `reference`).
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_equal, assert_true, raises, to_numpy
from simdist.conformance.suite.host_model import backend_cpu

pytestmark = pytest.mark.clause("ops.host-cpu", ref="tf221")


def _float16_onednn(tf) -> tuple[bool, str]:
    """(does the backend's CPU run float16 through oneDNN, which CPU that is)."""
    cpu = backend_cpu(tf)
    return cpu.onednn("float16", ("float16",)), f"{cpu.name} CPU, {cpu.vendor}"


def test_float16_softmax_of_a_row_holding_nan_follows_the_cpus_kernel(tf):
    onednn, cpu = _float16_onednn(tf)
    got = to_numpy(tf.nn.softmax(tf.constant([np.nan, 1.0, 2.0], tf.float16)))
    nan = np.isnan(got.astype(np.float32))
    # oneDNN: NaN where the NaN was, 0 elsewhere; Eigen: NaN across the row
    want = [True, False, False] if onednn else [True, True, True]
    assert_true(nan.tolist() == want, f"NaN at {nan.tolist()}, but should be at {want} ({cpu}: float16 through "
                f"{'oneDNN' if onednn else 'Eigen'})", call="tf.nn.softmax(float16 [nan, 1, 2])")
    if onednn:
        assert_equal(got[1:].astype(np.float32), np.zeros(2, np.float32), call="tf.nn.softmax(float16 [nan, 1, 2])")


def test_float16_softmax_of_a_scalar_is_refused_by_the_cpus_kernel(tf):
    onednn, cpu = _float16_onednn(tf)
    err = tf.errors.AbortedError if onednn else tf.errors.InvalidArgumentError
    with raises(err, call=f"tf.nn.softmax(float16 scalar) ({cpu})"):
        tf.nn.softmax(tf.constant(1.0, tf.float16))


def test_float16_nchw_convolution_runs_only_in_onednn(tf):
    onednn, cpu = _float16_onednn(tf)
    x, w = tf.ones([1, 2, 4, 4], tf.float16), tf.ones([3, 3, 2, 3], tf.float16)
    call = f"tf.nn.conv2d(float16, data_format='NCHW') ({cpu})"
    if onednn:
        out = tf.nn.conv2d(x, w, 1, "VALID", data_format="NCHW")
        assert_equal(tuple(out.shape), (1, 3, 2, 2), what="out.shape", call=call)
        assert_equal(to_numpy(out).astype(np.float32), np.full((1, 3, 2, 2), 18.0, np.float32), call=call)
    else:
        with raises(tf.errors.UnimplementedError, call=call):
            tf.nn.conv2d(x, w, 1, "VALID", data_format="NCHW")


def test_float16_convolution_of_an_empty_batch_follows_the_cpus_kernel(tf):
    """oneDNN returns an input of zero elements as its output; Eigen computes the convolution's
    shape (clause nn.conv-empty-input)."""
    onednn, cpu = _float16_onednn(tf)
    out = tf.nn.conv2d(tf.zeros([0, 4, 4, 2], tf.float16), tf.ones([3, 3, 2, 3], tf.float16), 1, "VALID")
    want = (0, 4, 4, 2) if onednn else (0, 2, 2, 3)
    assert_equal(tuple(out.shape), want, what="out.shape", call=f"tf.nn.conv2d(float16 [0, 4, 4, 2]) ({cpu})")
