"""degen22c (issue 29, session 22): keras.utils off its degenerate points. The earlier programs ran
timeseries_dataset_from_array with sequence_stride == sampling_rate (or one of them at 1 beside the
other), pad_sequences with padding == truncating, and to_categorical on several labels only; a wrong
rule agrees with Keras 3.15's there. Every expected value is computed in the test from Keras's rule
(keras/src/utils/timeseries_dataset_utils.py, sequence_utils.py, numerical_utils.py, transcribed)."""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_equal

clause = pytest.mark.clause


def _np(x) -> np.ndarray:
    return np.asarray(x.numpy() if hasattr(x, "numpy") else x)


@clause("keras.utils.data-tools", ref="tf221")
def test_degen22c_timeseries_stride_and_sampling_rate_differ(keras, budget):
    """timeseries_dataset_from_array(data, targets, L, sequence_stride=s, sampling_rate=r, start_index,
    end_index) with s != r: windows data[b + i : b + i + L r : r] for i = 0, s, 2s, ... while
    i + (L - 1) r < end - b (and i < len(targets)), each with targets[b + i]; batches of 4."""
    data = np.arange(100, 123, dtype=np.int64)          # 23 steps (odd)
    targets = np.arange(23, dtype=np.int64) * 10
    cases = [(3, 2, 1, None, None), (3, 1, 2, None, None), (2, 3, 2, None, None), (4, 2, 3, None, None),
             (3, 5, 2, 1, 20), (2, 4, 1, 3, None)]
    for length, stride, rate, start, end in budget(cases):
        ds = keras.utils.timeseries_dataset_from_array(data, targets, length, sequence_stride=stride,
                                                       sampling_rate=rate, batch_size=4, start_index=start,
                                                       end_index=end)
        got_x, got_y = [], []
        for x, y in ds:
            got_x += _np(x).tolist()
            got_y += _np(y).tolist()
        b = start or 0
        e = end if end is not None else len(data)
        num = min(e - b - (length - 1) * rate, len(targets))
        want_x = [data[b + i:b + i + length * rate:rate].tolist() for i in range(0, num, stride)]
        want_y = [int(targets[b + i]) for i in range(0, num, stride)]
        call = (f"timeseries_dataset_from_array(23 steps, sequence_length={length}, sequence_stride={stride}, "
                f"sampling_rate={rate}, start_index={start}, end_index={end})")
        assert_equal(str(got_x), str(want_x), what="windows", call=call)
        assert_equal(str(got_y), str(want_y), what="targets", call=call)


def _pad_ref(seqs: list[list[int]], maxlen: int | None, padding: str, truncating: str, value: int) -> list:
    """sequence_utils.pad_sequences: truncate each sequence at `truncating`'s end to maxlen, then pad at
    `padding`'s end with value."""
    maxlen = max(len(s) for s in seqs) if maxlen is None else maxlen
    rows = []
    for s in seqs:
        t = s[-maxlen:] if truncating == "pre" else s[:maxlen]
        pad = [value] * (maxlen - len(t))
        rows.append(pad + t if padding == "pre" else t + pad)
    return rows


@clause("keras.utils.data-tools", ref="tf221")
def test_degen22c_pad_sequences_padding_and_truncating_differ(keras, budget):
    """pad_sequences with padding != truncating (and equal), maxlen below, equal to and above the longest
    sequence (and None): each row truncated at `truncating`'s end, padded at `padding`'s end."""
    seqs = [[1, 2, 3, 4, 5], [6, 7], [8, 9, 10, 11], [12, 13, 14]]
    cases = [(3, "post", "pre"), (3, "pre", "post"), (4, "post", "pre"), (4, "pre", "post"), (5, "post", "pre"),
             (5, "pre", "post"), (None, "post", "pre"), (6, "pre", "post"), (2, "pre", "pre"), (2, "post", "post")]
    for maxlen, padding, truncating in budget(cases):
        got = _np(keras.utils.pad_sequences(seqs, maxlen=maxlen, padding=padding, truncating=truncating,
                                            value=-1)).tolist()
        want = _pad_ref(seqs, maxlen, padding, truncating, -1)
        assert_equal(str(got), str(want), what="rows",
                     call=f"pad_sequences(lengths 5/2/4/3, maxlen={maxlen}, padding={padding!r}, "
                          f"truncating={truncating!r}, value=-1)")


@clause("keras.utils.to-categorical", ref="tf221")
def test_degen22c_to_categorical_of_one_label(keras, tf, budget):
    """to_categorical of one label ([2], shape (1,)), of a scalar, of [[2]] and of columns: the result's
    shape is the input's shape with a trailing axis of size 1 dropped only when the rank is above 1, plus
    (num_classes,) — an array and a tensor alike."""
    cases = [([2], (1, 4)), (2, (4,)), ([[2]], (1, 4)), ([[1], [3]], (2, 4)), ([1, 3, 0], (3, 4)),
             ([[1, 2]], (1, 2, 4)), ([[[3]]], (1, 1, 4))]
    for labels, shape in budget(cases):
        flat = np.asarray(labels).reshape(-1)
        want = np.eye(4)[flat].reshape(shape)
        got = _np(keras.utils.to_categorical(np.array(labels), num_classes=4))
        assert_equal(got.shape, shape, what="shape", call=f"to_categorical(np.array({labels}), 4)")
        assert_equal(got, want, what="values", call=f"to_categorical(np.array({labels}), 4)")
        got_t = _np(keras.utils.to_categorical(tf.constant(labels, dtype=tf.int32), num_classes=4))
        assert_equal(got_t.shape, shape, what="shape", call=f"to_categorical(tf.constant({labels}), 4)")
        assert_equal(got_t, want.astype(np.float32), what="values", call=f"to_categorical(tf.constant({labels}), 4)")
