"""The fused RNN and audio-feature raw ops in the suite (issue 29, rawops36): LSTMBlockCell, BlockLSTM, BlockLSTMV2,
GRUBlockCell (clause ops.rnn-block) and AudioSpectrogram, Mfcc (clause ops.audio-features), each on fixed inputs
(multiples of 1/8, so that no sum depends on its order) and with a refused shape, observed as values or the error
class. The same programs run on the backend under test and, by ``python -m
simdist.conformance.suite.rawops36_record``, on TF 2.21, whose answers are the expected ones. Nothing here imports
TensorFlow.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np


def _grid(shape: tuple[int, ...], seed: int) -> np.ndarray:
    """Fixed float32 values in [-1, 1) that are multiples of 1/8."""
    n = int(np.prod(shape))
    return (((np.arange(n) * 5 + seed * 3) % 16 - 8) / 8.0).astype(np.float32).reshape(shape)


def _lstm_cell(tf: Any, b: int = 2, n: int = 3, c: int = 2, **attrs: Any) -> Any:
    return tf.raw_ops.LSTMBlockCell(x=_grid((b, n), 1), cs_prev=_grid((b, c), 2), h_prev=_grid((b, c), 3),
                                    w=_grid((n + c, 4 * c), 4), wci=_grid((c,), 5), wcf=_grid((c,), 6),
                                    wco=_grid((c,), 7), b=_grid((4 * c,), 8), **attrs)


def _block_lstm(tf: Any, v2: bool, **attrs: Any) -> Any:
    t, b, n, c = 3, 2, 3, 2
    op = tf.raw_ops.BlockLSTMV2 if v2 else tf.raw_ops.BlockLSTM
    return op(seq_len_max=np.int64(t), x=_grid((t, b, n), 1), cs_prev=_grid((b, c), 2), h_prev=_grid((b, c), 3),
              w=_grid((n + c, 4 * c), 4), wci=_grid((c,), 5), wcf=_grid((c,), 6), wco=_grid((c,), 7),
              b=_grid((4 * c,), 8), **attrs)


def _gru_cell(tf: Any, c: int = 2) -> Any:
    b, n = 2, 3
    return tf.raw_ops.GRUBlockCell(x=_grid((b, n), 1), h_prev=_grid((b, 2), 2), w_ru=_grid((n + c, 2 * c), 3),
                                   w_c=_grid((n + c, c), 4), b_ru=_grid((2 * c,), 5), b_c=_grid((c,), 6))


def _spectrogram(tf: Any, **attrs: Any) -> Any:
    audio = _grid((40, 1), 9)
    return tf.raw_ops.AudioSpectrogram(input=audio, **{"window_size": 16, "stride": 8, **attrs})


def _mfcc(tf: Any, **attrs: Any) -> Any:
    spec = tf.raw_ops.AudioSpectrogram(input=_grid((64, 1), 9), window_size=32, stride=16, magnitude_squared=True)
    return tf.raw_ops.Mfcc(spectrogram=spec, sample_rate=np.int32(8000),
                           **{"upper_frequency_limit": 3000.0, "lower_frequency_limit": 20.0,
                              "filterbank_channel_count": 10, "dct_coefficient_count": 5, **attrs})


#: (name, clause, program).
CASES: list[tuple[str, str, Callable[[Any], Any]]] = [
    ("LSTMBlockCell", "ops.rnn-block", lambda tf: _lstm_cell(tf)),
    ("LSTMBlockCell peephole clip", "ops.rnn-block", lambda tf: _lstm_cell(tf, use_peephole=True, cell_clip=0.5,
                                                                          forget_bias=0.5)),
    ("LSTMBlockCell w rows refused", "ops.rnn-block", lambda tf: tf.raw_ops.LSTMBlockCell(
        x=_grid((2, 3), 1), cs_prev=_grid((2, 2), 2), h_prev=_grid((2, 2), 3), w=_grid((4, 8), 4),
        wci=_grid((2,), 5), wcf=_grid((2,), 6), wco=_grid((2,), 7), b=_grid((8,), 8))),
    ("BlockLSTM", "ops.rnn-block", lambda tf: _block_lstm(tf, False)),
    ("BlockLSTMV2 peephole", "ops.rnn-block", lambda tf: _block_lstm(tf, True, use_peephole=True)),
    ("GRUBlockCell", "ops.rnn-block", lambda tf: _gru_cell(tf)),
    ("GRUBlockCell w_ru columns refused", "ops.rnn-block", lambda tf: _gru_cell(tf, c=3)),
    ("AudioSpectrogram", "ops.audio-features", lambda tf: _spectrogram(tf)),
    ("AudioSpectrogram magnitude squared", "ops.audio-features", lambda tf: _spectrogram(tf, magnitude_squared=True,
                                                                                       stride=5)),
    ("AudioSpectrogram window longer than input", "ops.audio-features", lambda tf: _spectrogram(tf, window_size=64)),
    ("Mfcc", "ops.audio-features", lambda tf: _mfcc(tf)),
    ("Mfcc more coefficients than channels", "ops.audio-features",
     lambda tf: _mfcc(tf, dct_coefficient_count=12)),
]


def observe(tf: Any, name: str) -> Any:
    """Case `name` run: each output's shape, dtype and values, or the error class."""
    fn = dict((n, f) for n, _, f in CASES)[name]
    try:
        out = fn(tf)
    except Exception as e:  # noqa: BLE001 - a refusal is what is observed
        return {"error": type(e).__name__}
    res = []
    for t in (out if isinstance(out, (tuple, list)) else [out]):
        a = np.asarray(t.numpy() if hasattr(t, "numpy") else t)
        res.append({"shape": list(a.shape), "dtype": a.dtype.name, "values": a.astype(np.float64).ravel().tolist()})
    return {"out": res}
