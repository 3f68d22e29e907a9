"""tf.strings.unicode_encode and unicode_transcode (TF's UnicodeEncode and UnicodeTranscode
kernels; the codecs: unicode_codec.py).

- unicode_encode: int32 code points (a dense tensor of rank >= 1: ValueError "input_tensor's
  rank must be at least 1." else; another dtype the kernel's InvalidArgumentError), each row of
  the last axis one string in `output_encoding`: a string tensor of shape input.shape[:-1]; a
  RaggedTensor's innermost rows each one string (ragged_rank 1: a 1-D tensor, else a RaggedTensor
  one ragged dimension less);
- unicode_transcode: each string decoded from `input_encoding` and encoded in `output_encoding`
  (the input's shape).
Not differentiable (TF registers no gradient: LookupError). Clause ops.strings-unicode.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import dtypes
from simdist.runtime.ops import dispatch, trace_errors
from simdist.runtime.ops.attr_rules import make_bool as _make_bool   # (the wrappers' make_bool: ops.attr-types)
from simdist.runtime.ops.args import dtype_error
from simdist.runtime.ops.counting import no_tf_gradient
from simdist.runtime.ops.registry import lanes, register
from simdist.runtime.ops.string_args import STRING_COST, as_bytes, string_tensor, want_string
from simdist.runtime.ops.unicode_codec import check_attrs, codec_name, decode, encode
from simdist.runtime.tensor import Tensor, convert_to_tensor

__all__ = ["unicode_encode", "unicode_transcode"]

_PER_STRING = lanes("codes each string in Python: no stacked form written")


def _encode(x: np.ndarray, output_encoding: str = "UTF-8", errors: str = "replace",
            replacement_char: int = 0xFFFD) -> np.ndarray:
    rows = x.reshape(-1, x.shape[-1]) if x.size or x.shape[-1] else np.zeros((int(np.prod(x.shape[:-1])), 0), x.dtype)
    out = np.empty(rows.shape[0], dtype=object)
    for i, row in enumerate(rows):
        out[i] = encode([int(v) for v in row], output_encoding, errors, replacement_char, "UnicodeEncode")
    return out.reshape(x.shape[:-1])


def _encode_rule(dts: Any, attrs: Any) -> dtypes.DType:
    if dts[0] != dtypes.int32:
        raise trace_errors.static(dtype_error("UnicodeEncode", 0, dtypes.int32, dts[0]), TypeError,
                                  f"Input 'input_values' of 'UnicodeEncode' Op has type {dts[0].name} that does not "
                                  "match expected type of int32.")
    return dtypes.string


def _transcode(x: np.ndarray, input_encoding: str = "UTF-8", output_encoding: str = "UTF-8",
               errors: str = "replace", replacement_char: int = 0xFFFD,
               replace_control_characters: bool = False) -> np.ndarray:
    codec_name(input_encoding, "UnicodeTranscode")   # (the kernel's converter, before any string)
    out = np.empty(x.shape, dtype=object)
    flat, res = x.reshape(-1), out.reshape(-1)
    for i, v in enumerate(flat):
        cps = decode(as_bytes(v), input_encoding, errors, replacement_char, replace_control_characters,
                     "UnicodeTranscode")
        res[i] = encode(cps, output_encoding, "replace", replacement_char, "UnicodeTranscode")
    return out


def _transcode_rule(dts: Any, attrs: Any) -> dtypes.DType:
    want_string("UnicodeTranscode", dts)
    return dtypes.string


UNICODE_ENCODE = register("UnicodeEncode", _encode, _encode_rule, kind="reduction", fusion=_PER_STRING, **STRING_COST)
UNICODE_TRANSCODE = register("UnicodeTranscode", _transcode, _transcode_rule, kind="elementwise", fusion=_PER_STRING,
                             **STRING_COST)
no_tf_gradient("UnicodeEncode")
no_tf_gradient("UnicodeTranscode")


def unicode_encode(input: Any, output_encoding: Any, errors: Any = "replace",  # noqa: A002
                   replacement_char: Any = 65533, name: str | None = None) -> Tensor:
    """`tf.strings.unicode_encode`: rows of int32 code points as strings in `output_encoding`."""
    from simdist.runtime.ragged_tensor import RaggedTensor
    if isinstance(input, RaggedTensor):     # (each innermost row one string, the outer rows kept)
        err, rc, enc = check_attrs("UnicodeEncode", errors, replacement_char, output_encoding)
        splits = input.nested_row_splits[-1]._v.tolist()
        flat = input.flat_values._v.tolist()
        rows = np.empty(len(splits) - 1, dtype=object)
        for i, (a, b) in enumerate(zip(splits, splits[1:])):
            rows[i] = encode(flat[a:b], enc, err, rc, "UnicodeEncode")
        out = convert_to_tensor(rows, dtype=dtypes.string)
        return out if input.ragged_rank == 1 else _drop_last(input, out)
    x = input if isinstance(input, Tensor) else convert_to_tensor(input)
    if x.shape.rank is not None and x.shape.rank < 1:
        raise ValueError("input_tensor's rank must be at least 1.")
    from simdist.runtime import context
    if context.in_function():   # (op_def_library: the int32 input_values before the attrs' lists; fz34b)
        trace_errors.fixed_operand(x, dtypes.int32, "UnicodeEncode", "input_values")
    err, rc, enc = check_attrs("UnicodeEncode", errors, replacement_char, output_encoding)
    return dispatch.execute(UNICODE_ENCODE, (x,), {"output_encoding": enc, "errors": err, "replacement_char": rc})


def _drop_last(rt: Any, strings: Tensor) -> Any:
    """rt with its innermost ragged dimension replaced by `strings` (one per innermost row)."""
    from simdist.runtime.ragged_tensor import RaggedTensor
    if not isinstance(rt.values.values, RaggedTensor):
        return RaggedTensor.from_row_splits(strings, rt.row_splits, validate=False)
    return RaggedTensor.from_row_splits(_drop_last(rt.values, strings), rt.row_splits, validate=False)


def unicode_transcode(input: Any, input_encoding: Any, output_encoding: Any, errors: Any = "replace",  # noqa: A002
                      replacement_char: Any = 65533, replace_control_characters: bool = False,
                      name: str | None = None) -> Tensor:
    """`tf.strings.unicode_transcode`: each string re-encoded from `input_encoding` to `output_encoding`."""
    # (the input converts to strings before the attrs' allowed lists, eagerly and traced; fz34b)
    # (make_str of input_encoding, the wrapper's first attr, before any input: a uint64 ndarray is its TypeError
    # beside an input that does not convert to strings; fz36b, fz14 seed 1420363004 #273)
    src = input_encoding.decode() if isinstance(input_encoding, bytes) else input_encoding
    if not isinstance(src, str):
        raise TypeError(f"Expected string for argument 'input_encoding' not {input_encoding!r}.")
    if not isinstance(output_encoding, (str, bytes)):   # (make_str of output_encoding, the next)
        raise TypeError(f"Expected string for argument 'output_encoding' not {output_encoding!r}.")
    x = string_tensor(input, "UnicodeTranscode")
    err, rc, enc = check_attrs("UnicodeTranscode", errors, replacement_char, output_encoding)
    codec_name(src, "UnicodeTranscode")
    return dispatch.execute(UNICODE_TRANSCODE, (x,),
                            {"input_encoding": src, "output_encoding": enc, "errors": err, "replacement_char": rc,
                             "replace_control_characters": _make_bool(replace_control_characters, "replace_control_characters", "UnicodeTranscode")})
