"""Raw forms of string, CSV and JPEG ops whose forward takes the raw arguments otherwise (clause ops.raw-ops).

StringNGrams' string attrs are bytes to simdist's op and its kernel checks the row splits
(string_ngrams_op.cc); StringSplit (V1) splits on any byte of `delimiter` (each byte when it is
empty, which is the only split simdist's op made: tf.strings.bytes_split) and returns a sparse
[rows, longest] matrix; DecodeCSV takes its defaults as a list input; DecodeJpeg and
DecodeAndCropJpeg take `try_recover_truncated` and `acceptable_fraction`, which the public
functions accept and do not use (clause ops.codecs). Each raw form is the public function or the
op run with the raw arguments (session 28).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import errors
from simdist.runtime.ops import registry
from simdist.runtime.ops.raw_args import RawArgs

__all__ = ["declare", "string_ngrams", "string_split", "decode_csv", "decode_jpeg", "decode_and_crop_jpeg"]


def _invalid(op: str, text: str) -> errors.InvalidArgumentError:
    return errors.InvalidArgumentError(None, None, f"{text} [Op:{op}]")


def _bytes(v: Any) -> bytes:
    return v.encode() if isinstance(v, str) else bytes(v)


def string_ngrams(data: Any, data_splits: Any, separator: str, ngram_widths: Any, left_pad: str, right_pad: str,
                  pad_width: int, preserve_short_sequences: bool) -> Any:
    """StringNGrams: the kernel's checks (positive widths; splits from 0, non-decreasing, within and
    ending at the data's size), then the op."""
    from simdist.runtime.ops import dispatch, math, string_ragged
    op = "StringNGrams"
    for w in ngram_widths:
        if w <= 0:
            raise _invalid(op, "ngram_widths must contain positive values")
    size = int(np.prod(data.shape.as_list(), dtype=np.int64))
    s = [int(v) for v in np.asarray(dispatch.static_value(data_splits)).reshape(-1)]
    if s:
        if s[0] != 0:
            raise _invalid(op, f"First split value must be 0, got {s[0]}")
        for prev, v in zip(s, s[1:]):
            if not prev <= v <= size:
                raise _invalid(op, f"Invalid split value {v}, must be in [{prev}, {size}]")
        if s[-1] != size:
            raise _invalid(op, f"Last split value must be data size. Expected {size}, got {s[-1]}")
    if not s or size == 0:   # (the kernel's empty result: empty strings of the data's shape, every split 0)
        from simdist.runtime import dtypes
        from simdist.runtime.ops.array import constant
        blank = np.full(data.shape.as_list(), b"", dtype=object)
        return constant(blank, dtype=dtypes.string), math.multiply(data_splits, 0)
    return dispatch.execute(string_ragged.STRING_NGRAMS, (data, data_splits),
                            {"separator": _bytes(separator), "ngram_widths": tuple(int(w) for w in ngram_widths),
                             "left_pad": _bytes(left_pad), "right_pad": _bytes(right_pad), "pad_width": pad_width,
                             "preserve_short_sequences": preserve_short_sequences})


def string_split(input: Any, delimiter: Any, skip_empty: bool) -> Any:  # noqa: A002 - TF's name
    """StringSplit: input a vector, delimiter a scalar (the kernel's checks), the pieces of each
    string (string_ragged.BYTES_SPLIT with the delimiter's bytes) as sparse (indices, values, shape)."""
    from simdist.runtime.ops import dispatch, raw_forms_more, string_ragged
    from simdist.runtime.ops.args import dims
    from simdist.runtime.ops.string_args import as_bytes
    op = "StringSplit"
    if input.ndim != 1:
        raise _invalid(op, f"input must be a vector, got shape: {dims(input.shape.as_list())}")
    if delimiter.ndim != 0:
        raise _invalid(op, f"delimiter must be a scalar, got shape: {dims(delimiter.shape.as_list())}")
    values, splits = dispatch.execute(string_ragged.BYTES_SPLIT, (input,),
                                      {"delimiter": as_bytes(dispatch.static_value(delimiter).item()),
                                       "skip_empty": skip_empty})
    return raw_forms_more.sparse_of_rows(values, splits)


def decode_csv(records: Any, record_defaults: list, field_delim: str, use_quote_delim: bool, na_value: str,
               select_cols: Any) -> Any:
    """DecodeCSV: tf.io.decode_csv on the raw arguments (one output per default)."""
    from simdist.runtime.ops import decode_csv as csv
    return csv.decode_csv(records, record_defaults, field_delim, use_quote_delim, na_value,
                          list(select_cols) or None)


def decode_jpeg(contents: Any, channels: int, ratio: int, fancy_upscaling: bool, try_recover_truncated: bool,
                acceptable_fraction: float, dct_method: str) -> Any:
    """DecodeJpeg: tf.io.decode_jpeg on the raw arguments."""
    from simdist.runtime.ops import image_codecs
    return image_codecs.decode_jpeg(contents, channels, ratio, fancy_upscaling, try_recover_truncated,
                                    acceptable_fraction, dct_method)


def decode_and_crop_jpeg(contents: Any, crop_window: Any, channels: int, ratio: int, fancy_upscaling: bool,
                         try_recover_truncated: bool, acceptable_fraction: float, dct_method: str) -> Any:
    """DecodeAndCropJpeg: tf.io.decode_and_crop_jpeg on the raw arguments."""
    from simdist.runtime.ops import image_codecs
    return image_codecs.decode_and_crop_jpeg(contents, crop_window, channels, ratio, fancy_upscaling,
                                             try_recover_truncated, acceptable_fraction, dct_method)


def declare() -> None:
    """Set the raw forms above on their ops (idempotent)."""
    for op, fn in (("StringNGrams", string_ngrams), ("StringSplit", string_split), ("DecodeCSV", decode_csv),
                   ("DecodeJpeg", decode_jpeg), ("DecodeAndCropJpeg", decode_and_crop_jpeg)):
        registry.set_raw_args(op, RawArgs(via=fn))
