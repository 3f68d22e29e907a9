"""The Keras attention, recurrent and normalization layer sweep (fifty-seventh session): Attention, AdditiveAttention,
MultiHeadAttention (its dot-product fast path and its einsum path), GroupedQueryAttention, SimpleRNN/GRU (reset_after
both)/LSTM with their cells, stacked cells, Bidirectional and Masking, ConvLSTM1D/2D, BatchNormalization (synchronized
under MirroredStrategy too), LayerNormalization, RMSNormalization, GroupNormalization, UnitNormalization, the
Normalization preprocessing layer and SpectralNormalization, every option crossed by rule (off its default, and
omitted), masks with a fully masked row, float32/float64/mixed_float16, eagerly and inside a tf.function: outputs,
gradients w.r.t. every input and trainable weight, and the state a call moves, compared bit for bit with TF 2.21's
recorded results (lsweep57_cases.py; `python -m simdist.conformance.suite.test_lsweep57 --record` rewrites
lsweep57_reference.json.gz). Recorded on this session's AVX-512 Xeon with oneDNN on: simdist runs the programs
under its reference model on any CPU."""

from __future__ import annotations

from typing import Any

import pytest

from simdist.conformance.suite.lsweep57_cases import DTYPES, RECURRENT, REF

_check, _ids = REF.check, REF.ids


@pytest.mark.clause("keras.mha.masks")
@pytest.mark.parametrize("name", _ids("ls-attention-") + _ids("ls-additive-"))
def test_lsweep57_dot_and_additive_attention(backend: Any, name: str) -> None:
    """Attention (use_scale, score_mode dot/concat) and AdditiveAttention (use_scale) with and without a key, query and
    value masks (a fully masked value row), the causal mask, returned scores: outputs and gradients, TF 2.21's bits."""
    _check(backend, name)


@pytest.mark.clause("keras.mha.values")
@pytest.mark.parametrize("name", _ids("ls-mha-"))
def test_lsweep57_multi_head_attention_fast_and_einsum_paths(backend: Any, name: str) -> None:
    """MultiHeadAttention's options (heads, key_dim, value_dim, output_shape, use_bias, dropout at inference,
    attention_axes) and masks (attention_mask with a fully masked row, causal, query/value/key masks) on the
    dot-product fast path and on the einsum path (scores returned): outputs and gradients, TF 2.21's bits."""
    _check(backend, name)


@pytest.mark.clause("keras.layer.group-query-attention")
@pytest.mark.parametrize("name", _ids("ls-gqa-"))
def test_lsweep57_grouped_query_attention(backend: Any, name: str) -> None:
    """GroupedQueryAttention's key/value head counts, use_bias, use_gate, dropout at inference, masks, causal mask and
    sliding window on both paths: outputs and gradients, TF 2.21's bits."""
    _check(backend, name)


@pytest.mark.clause("keras.rnn.layers")
@pytest.mark.parametrize("name", _ids("ls-rnn-") + _ids("ls-convlstm"))
def test_lsweep57_recurrent_layers_every_option(backend: Any, name: str) -> None:
    """SimpleRNN, GRU (reset_after both), LSTM, their cells in RNN and stacked, Bidirectional (each merge_mode),
    Masking, ConvLSTM1D/2D: return_sequences/return_state/go_backwards/unroll/initial_state/masks/stateful over two
    calls: outputs, final states and gradients, TF 2.21's bits."""
    _check(backend, name)


@pytest.mark.clause("keras.layer.layernorm")
@pytest.mark.parametrize("name", _ids("ls-norm-"))
def test_lsweep57_layer_rms_group_unit_normalization(backend: Any, name: str) -> None:
    """LayerNormalization (axis lists, epsilon, center/scale off, rms_scaling), RMSNormalization, GroupNormalization
    (groups, axis) and UnitNormalization (axes, a zero row): outputs and gradients, TF 2.21's bits."""
    _check(backend, name)


@pytest.mark.clause("keras.layer.batchnorm")
@pytest.mark.parametrize("name", _ids("ls-bn-"))
def test_lsweep57_batch_normalization(backend: Any, name: str) -> None:
    """BatchNormalization in training and inference (momentum, epsilon, center/scale off, axis 1 and a list, renorm
    with and without clipping, a mask; synchronized and not under MirroredStrategy): outputs, gradients and the
    moving statistics after the call, TF 2.21's bits."""
    _check(backend, name)


@pytest.mark.clause("keras.layer.normalization-adapt")
@pytest.mark.parametrize("name", _ids("ls-normalization"))
def test_lsweep57_normalization_layer(backend: Any, name: str) -> None:
    """Normalization adapted on an array and on a dataset (axis -1, 1, a tuple, None; a constant feature), mean and
    variance given (scalars, lists, a zero variance), invert: outputs, gradients and statistics, TF 2.21's bits."""
    _check(backend, name)


@pytest.mark.clause("keras.layer.spectral-normalization")
@pytest.mark.parametrize("name", _ids("ls-spectral"))
def test_lsweep57_spectral_normalization(backend: Any, name: str) -> None:
    """SpectralNormalization of a Dense and a Conv2D, training and inference, 1 and 3 power iterations: outputs,
    gradients and the vector u, TF 2.21's bits."""
    _check(backend, name)


assert len(_ids("ls-rnn-")) == len(RECURRENT) + len(DTYPES) - 1 + 1
assert len(_ids("ls-mha-")) == len(_ids("ls-gqa-")) == len(DTYPES)

if __name__ == "__main__":
    import sys
    if "--record" in sys.argv:
        REF.record()
