"""Keras masks on symbolic tensors: Keras 3.15's Layer.__call__ sets `_keras_mask` on a symbolic call's outputs from
compute_mask, run on the KerasTensors, as on real tensors. simdist computed masks only for real tensors before the
forty-eighth session (probe /work/wt/lead48_logs/probe/mask_probe.py: 8 of 10 symbolic outputs differed)."""

from __future__ import annotations

import pytest

clause = pytest.mark.clause


def _mask(t):
    m = getattr(t, "_keras_mask", None)
    return None if m is None else (tuple(m.shape), str(getattr(m.dtype, "name", m.dtype)))


@clause("keras.mask.propagation", ref="tf221")
def test_symbolic_layer_outputs_carry_keras_masks(keras):
    """An Embedding(mask_zero=True) output's mask is a bool (None, 3) KerasTensor; layers that support masking and
    keep the timesteps pass it on (Dense, LSTM(return_sequences=True), Add, Concatenate, Dropout: the same object for
    the default compute_mask); LSTM without return_sequences and GlobalAveragePooling1D end it; Masking makes one."""
    L = keras.layers
    i = keras.Input((3,), dtype="int32")
    e = L.Embedding(5, 2, mask_zero=True)(i)
    outs = {"embedding": e, "dense": L.Dense(4)(e), "lstm_seq": L.LSTM(3, return_sequences=True)(e),
            "lstm_last": L.LSTM(3)(e), "gap": L.GlobalAveragePooling1D()(e), "add": L.Add()([e, e]),
            "concat": L.Concatenate()([e, e]), "dropout": L.Dropout(0.5)(e),
            "masking": L.Masking(0.0)(keras.Input((4, 2)))}
    got = {k: _mask(v) for k, v in outs.items()}
    seq = ((None, 3), "bool")
    want = {"embedding": seq, "dense": seq, "lstm_seq": seq, "lstm_last": None, "gap": None, "add": seq,
            "concat": seq, "dropout": seq, "masking": ((None, 4), "bool")}
    assert got == want, f"symbolic masks {got}, but should be {want}"
    assert outs["dense"]._keras_mask is e._keras_mask, \
        "Dense's default compute_mask should pass the Embedding's mask KerasTensor on as it is"


@clause("keras.mask.propagation", ref="tf221")
def test_a_functional_model_of_masked_layers_skips_the_padded_steps(keras):
    """Built on symbolic tensors that now carry masks, a model still computes with the real ones: an LSTM after an
    Embedding(mask_zero=True) stops at the last unpadded step, so [[1, 2, 0, 0]] gives what the same layers give for
    [[1, 2]]."""
    import numpy as np
    L = keras.layers
    keras.utils.set_random_seed(3)
    emb, lstm, dense = L.Embedding(6, 3, mask_zero=True), L.LSTM(2), L.Dense(1)
    i4, i2 = keras.Input((4,), dtype="int32"), keras.Input((2,), dtype="int32")
    m4 = keras.Model(i4, dense(lstm(emb(i4))))
    m2 = keras.Model(i2, dense(lstm(emb(i2))))
    padded = np.asarray(m4(np.array([[1, 2, 0, 0]])))
    short = np.asarray(m2(np.array([[1, 2]])))
    np.testing.assert_allclose(padded, short, rtol=1e-6, atol=1e-7,
                               err_msg="the padded sequence's output, but should be the unpadded one's")
