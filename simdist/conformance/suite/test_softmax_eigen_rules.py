"""The softmax family's last bits — clause nn.softmax-eigen (TF 2.21 only).

TF 2.21's CPU kernels of LogSoftmax, float64 Softmax and the sparse cross-entropy are Eigen's
(softmax_op_functor.h, sparse_xent_op.h): Eigen's packet exp and log, its SumReducer order. The
bits expected here were observed on TF 2.21 (tensorflow-cpu, x86-64, 2026-12-01) for one fixed
input; NumPy's exp, log and pairwise sum give other last bits on 14 of these 23 values.
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_true, to_numpy

clause = pytest.mark.clause

_X = (np.sin(np.arange(30, dtype=np.float64) * 0.7) * 5).reshape(3, 10).astype(np.float32)
_LABELS = np.array([1, 9, 4])
# observed on TF 2.21: tf.nn.sparse_softmax_cross_entropy_with_logits(labels=_LABELS, logits=_X)
_SPARSE_LOSS = ("0x1.242de8p+1", "0x1.218a48p+1", "0x1.4ce6eap+3")
# tf.nn.log_softmax(_X)[1]
_LOG_SOFTMAX_ROW1 = ("-0x1.2997e8p+1", "-0x1.568c6cp-1", "-0x1.563e36p+0", "-0x1.00ebc2p+2", "-0x1.dc4e44p+2",
                     "-0x1.40447cp+3", "-0x1.502f44p+3", "-0x1.166b0ap+3", "-0x1.5c45e6p+2", "-0x1.218a48p+1")
# tf.nn.softmax(_X as float64)[2]
_SOFTMAX64_ROW2 = ("0x1.7418efdcc662dp-2", "0x1.68aee7fdce99cp-3", "0x1.7ec651edd1cf5p-7", "0x1.8e4fa9fa52979p-12",
                   "0x1.fcf2791ee0274p-16", "0x1.47af14ce6f2f8p-16", "0x1.0589550783e38p-13", "0x1.b0cb5809a912dp-9",
                   "0x1.3e0ea8768bc65p-4", "0x1.7822d12bd643ep-2")


def _check_bits(got, want_hex, what: str) -> None:
    got = np.asarray(got, dtype=np.float64).ravel()
    want = np.array([float.fromhex(h) for h in want_hex])
    bad = [i for i in range(len(want)) if got[i] != want[i]]
    assert_true(not bad, f"out[{bad[:3]}]={[float(got[i]).hex() for i in bad[:3]]}, but should be "
                         f"{[want_hex[i] for i in bad[:3]]} (TF 2.21's bits)", call=what)


@clause("nn.softmax-eigen", ref="tf221")
def test_sparse_cross_entropy_and_log_softmax_bits(tf):
    loss = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=_LABELS, logits=tf.constant(_X))
    _check_bits(to_numpy(loss), _SPARSE_LOSS, "sparse_softmax_cross_entropy_with_logits(float32 [3, 10])")
    _check_bits(to_numpy(tf.nn.log_softmax(tf.constant(_X)))[1], _LOG_SOFTMAX_ROW1, "log_softmax(float32 [3, 10])[1]")


@clause("nn.softmax-eigen", ref="tf221")
def test_float64_softmax_bits(tf):
    _check_bits(to_numpy(tf.nn.softmax(tf.constant(_X.astype(np.float64))))[2], _SOFTMAX64_ROW2,
                "softmax(float64 [3, 10])[2]")
