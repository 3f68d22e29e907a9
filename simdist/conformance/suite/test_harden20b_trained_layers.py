"""harden20b (issue 29): layers with trainable weights or state over a PAIRWISE grid of their
options, trained — as TF 2.21's.

For BatchNormalization (momentum, epsilon, center, scale, renorm, renorm_momentum, renorm_clipping,
a constraint, training), Layer/GroupNormalization, Dense (activation, use_bias, regularizers,
constraints, lora_rank), Conv1D (strides, padding, dilation, groups), PReLU, Dot (per-input axes,
normalize), Attention (use_scale, score_mode, dropout, causal mask, training), AdditiveAttention,
MultiHeadAttention, SimpleRNN/GRU/LSTM (return_sequences, return_state, go_backwards, stateful,
unroll, dropout, recurrent_dropout, a mask, reset_after, ...), Embedding (mask_zero into a masked
pooling or LSTM, regularizer, constraint, lora_rank) and the seeded noise layers, options from
Keras 3.15's signatures at two values each are combined pairwise (harden20b_tables). Each case
seeds the layer's weights and trains it four steps (SGD 0.1 on its weights and its inputs): the
outputs, the loss with the layer's own losses, every gradient and every weight after each step
(moving statistics, RNN states, seed states) must be TF 2.21 + Keras 3.15's (harden20b_reference).
"""

from __future__ import annotations

import pytest

from simdist.conformance.suite import harden20b_check as check
from simdist.conformance.suite import harden20b_programs as programs

clause = pytest.mark.clause
FAMILIES = {
    "normalization_core": ["BatchNormalization", "LayerNormalization", "GroupNormalization", "Dense", "Conv1D",
                           "PReLU", "Embedding"],
    "attention_merging": ["Dot", "Attention", "AdditiveAttention", "MultiHeadAttention"],
    "recurrent": ["SimpleRNN", "GRU", "LSTM"],
    "noise": ["Dropout", "SpatialDropout1D", "GaussianNoise", "GaussianDropout", "AlphaDropout"],
}


@clause("keras.layer.forward-and-gradients", ref="tf221")
@clause("keras.layer.option-coverage", ref="tf221")
@pytest.mark.parametrize("family", list(FAMILIES))
def test_harden20b_trained_layer_option_pairs(tf, family, budget):
    """Each layer's pairwise option grid: four trained steps' outputs, gradients and weights as TF's."""
    check.check("layers", FAMILIES[family], lambda n, c: programs.observe_layer(tf, n, c), budget)
