"""The tf.strings functions whose results are ragged (simdist/runtime/ragged_tensor.py): split,
bytes_split, unicode_decode, unicode_decode_with_offsets, unicode_split,
unicode_split_with_offsets, ngrams.

Each kernel works on the flat strings (or a RaggedTensor's flat values) and gives the pieces with
their row_splits, as TF's kernels give them (StringSplitV2, StringSplit, UnicodeDecodeWithOffsets,
StringNGrams); the Python functions shape the result as TF's wrappers do: a scalar string gives a
1-D tensor, a tensor of rank r a RaggedTensor of ragged_rank r (its r - 1 outer dimensions
uniform), a RaggedTensor one more ragged dimension.

- split: `sep` None (or "") splits at runs of ASCII whitespace, leading and trailing ones dropped;
  another `sep` as Python's bytes.split (empty pieces kept), at most `maxsplit` splits (-1: all);
- bytes_split: each byte a string;
- unicode_decode(_with_offsets): the code points of each string in `input_encoding` (int32;
  errors as unicode_codec.py), with each character's byte offset in the string (int64);
  unicode_split(_with_offsets): each character encoded back in `input_encoding`;
- ngrams: TF's StringNGrams (string_ngrams_op.cc) on each row of the last axis: `ngram_width` an
  int or a list of them (each >= 1: ValueError), `pad_values` None, a string or a (left, right)
  pair, `padding_width` (>= 1, needs pad_values; None: width - 1), `preserve_short_sequences` (a
  row too short for any n-gram gives one of all its padded tokens); a dense input's result is
  dense (its last axis the n-grams), a 1-D one a 1-D tensor, a RaggedTensor's ragged.
No gradients (TF: NotDifferentiable StringSplit; none registered for the others). Clause
ops.strings-ragged.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from simdist.runtime import dtypes
from simdist.runtime.ops import dispatch
from simdist.runtime.ops.attr_rules import make_bool as _make_bool   # (the wrappers' make_bool: ops.attr-types)
from simdist.runtime.ops.attr_rules import make_str as _make_str
from simdist.runtime.ops.counting import no_tf_gradient
from simdist.runtime.ops.registry import NotDifferentiable, lanes, register
from simdist.runtime.ops.string_args import STRING_COST, as_bytes, string_tensor, want_string
from simdist.runtime.ops.unicode_codec import check_attrs, codec_name, decode, encode
from simdist.runtime.ragged_tensor import RaggedTensor
from simdist.runtime.tensor import Tensor, convert_to_tensor

__all__ = ["split", "bytes_split", "unicode_decode", "unicode_decode_with_offsets", "unicode_split",
           "unicode_split_with_offsets", "ngrams"]

_PER_STRING = lanes("cuts each string in Python: no stacked form written")


def _pieces(x: np.ndarray, cut: Callable[[bytes], list]) -> tuple[np.ndarray, np.ndarray]:
    """(all pieces of the flat strings, row_splits int64) for a cut giving each string's pieces."""
    values: list = []
    splits = [0]
    for v in x.reshape(-1):
        got = cut(as_bytes(v))
        values.extend(got)
        splits.append(len(values))
    out = np.empty(len(values), dtype=object)
    for i, p in enumerate(values):
        out[i] = p
    return out, np.asarray(splits, np.int64)


_SPACE = b" \t\n\v\f\r"   # (absl's ascii_isspace)


def _split_one(s: bytes, sep: bytes, maxsplit: int) -> list[bytes]:
    """string_split_op.cc SplitV2: maxsplit 0 keeps the string whole; an empty sep splits on whitespace runs
    after stripping the leading ones, and once maxsplit tokens are taken the rest (its leading whitespace
    stripped) is the last piece, an empty one too: 'AbC' with maxsplit 1 is ['AbC', ''], ' a b ' with maxsplit 2
    ['a', 'b', ''] (TF 2.21 observed; fz45b, fz44_gen seeds 44006, 44008-44010: Python's split keeps no empty
    piece and strips the leading whitespace of maxsplit 0's string)."""
    if maxsplit == 0:
        return [s]
    if sep:
        return s.split(sep, maxsplit)
    out: list[bytes] = []
    text = s.lstrip(_SPACE)
    while text:
        i = 0
        while i < len(text) and text[i] not in _SPACE:
            i += 1
        out.append(text[:i])
        text = text[i:].lstrip(_SPACE)
        if 0 < maxsplit == len(out):
            out.append(text)
            break
    return out


def _string_rule(op: str, *outs: dtypes.DType) -> Any:
    def rule(dts: Any, attrs: Any) -> tuple:
        want_string(op, dts)
        return outs
    return rule


SPLIT = register("StringSplitV2", lambda x, sep=b"", maxsplit=-1: _pieces(x, lambda s: _split_one(s, sep, maxsplit)),
                 _string_rule("StringSplitV2", dtypes.string, dtypes.int64), num_outputs=2, kind="gather/scatter",
                 fusion=_PER_STRING, **STRING_COST)
def _split_any(s: bytes, delimiter: bytes, skip_empty: bool) -> list[bytes]:
    """StringSplit's pieces of one string (string_split_op.cc Split): each byte when the delimiter
    is empty, else the pieces between any of its bytes (empty ones dropped with skip_empty); an
    empty string has none (observed on TF 2.21)."""
    if not s:
        return []
    if not delimiter:
        return [s[i:i + 1] for i in range(len(s))]
    pieces, start = [], 0
    for i, b in enumerate(s):
        if b in delimiter:
            pieces.append(s[start:i])
            start = i + 1
    pieces.append(s[start:])
    return [p for p in pieces if p] if skip_empty else pieces


BYTES_SPLIT = register("StringSplit", lambda x, delimiter=b"", skip_empty=False:
                       _pieces(x, lambda s: _split_any(s, delimiter, skip_empty)),
                       _string_rule("StringSplit", dtypes.string, dtypes.int64), num_outputs=2,
                       kind="gather/scatter", fusion=_PER_STRING, **STRING_COST)


def _decode_offsets(x: np.ndarray, input_encoding: str = "UTF-8", errors: str = "replace",
                    replacement_char: int = 0xFFFD, replace_control_characters: bool = False,
                    op: str = "UnicodeDecodeWithOffsets") -> tuple:
    codec_name(input_encoding, op)   # (the kernel's converter, before any string)
    cps: list[int] = []
    starts: list[int] = []
    splits = [0]
    for v in x.reshape(-1):
        s = as_bytes(v)
        chars, offs = _chars_with_offsets(s, input_encoding, errors, replacement_char, replace_control_characters,
                                          op)
        cps.extend(chars)
        starts.extend(offs)
        splits.append(len(cps))
    return (np.asarray(splits, np.int64), np.asarray(cps, np.int32), np.asarray(starts, np.int64))


def _chars_with_offsets(s: bytes, encoding: str, errors: str, rc: int, control: bool,
                        op: str) -> tuple[list, list]:
    """Code points of s and the byte offset where each starts (an error's offset: its first byte)."""
    width = {"utf-16-be": 2, "utf-32-be": 4}.get(codec_name(encoding))
    chars: list[int] = []
    offs: list[int] = []
    if width is None and codec_name(encoding) != "utf-8":          # single-byte encodings
        for i in range(len(s)):
            got = decode(s[i:i + 1], encoding, errors, rc, control, op, strict_controls=False)
            chars.extend(got)
            offs.extend([i] * len(got))
        return chars, offs
    i = 0
    while i < len(s):      # the shortest prefix that decodes to one character, or one ill-formed part
        j = i + 1
        while True:
            piece = s[i:j]
            try:
                piece.decode(codec_name(encoding))
            except UnicodeDecodeError as e:
                if e.reason in ("unexpected end of data", "truncated data") and j < len(s) and j - i < 4:
                    j += 1
                    continue
                piece = piece[:max(e.end, 1)]
            got = decode(piece, encoding, errors, rc, control, op, strict_controls=False)
            chars.extend(got)
            offs.extend([i] * len(got))
            i += len(piece)
            break
    return chars, offs


DECODE = register("UnicodeDecode", lambda x, **at: _decode_offsets(x, op="UnicodeDecode", **at)[:2],
                  _string_rule("UnicodeDecode", dtypes.int64, dtypes.int32), num_outputs=2,
                  kind="gather/scatter", fusion=_PER_STRING, **STRING_COST)
DECODE_OFFSETS = register("UnicodeDecodeWithOffsets", _decode_offsets,
                  _string_rule("UnicodeDecodeWithOffsets", dtypes.int64, dtypes.int32, dtypes.int64), num_outputs=3,
                  kind="gather/scatter", fusion=_PER_STRING, **STRING_COST)
NotDifferentiable("StringSplit")
no_tf_gradient("StringSplitV2")
no_tf_gradient("UnicodeDecode")
no_tf_gradient("UnicodeDecodeWithOffsets")


def _ragged_input(x: Any, how: str, op: str) -> Any:
    """x converted as the ragged wrappers convert their input (ragged_string_ops.py): a RaggedTensor
    is kept; "decode" converts without a dtype (a non-string tensor is the kernel's error);
    "split"/"ngrams" convert to a string tensor (a non-string tensor: ValueError "input: Tensor
    conversion requested dtype string for Tensor with dtype int64: ..."; a Python value as
    string_tensor, inside a tf.function TypeError "Expected string, but got 1 of type 'int'.");
    "bytes" converts without a dtype, then to string (ValueError eagerly; the graph build's
    TypeError inside a tf.function)."""
    from simdist.runtime import context
    if isinstance(x, RaggedTensor):
        return x
    if how == "decode":
        return x if isinstance(x, Tensor) else convert_to_tensor(x)
    if how == "bytes":
        t = x if isinstance(x, Tensor) else convert_to_tensor(x)
        if t.dtype != dtypes.string and not context.in_function():
            raise ValueError(f"Tensor conversion requested dtype string for Tensor with dtype {t.dtype.name}: {t!r}")
        return t
    from simdist.runtime.variables import Variable
    if isinstance(x, Variable):   # (a resource variable converts to its own dtype only)
        if x.dtype != dtypes.string:
            raise ValueError(f"Incompatible type conversion requested to type string for `tf.Variable of type "
                             f"{x.dtype.name}. (Variable: {x!r})")
        x = x.read_value()
    if isinstance(x, Tensor):
        if x.dtype != dtypes.string:
            arg = "data" if how == "ngrams" else "input"
            raise ValueError(f"{arg}: Tensor conversion requested dtype string for Tensor with dtype "
                             f"{x.dtype.name}: {x!r}")
        return x
    try:
        return string_tensor(x)
    except TypeError:
        leaf = x
        while isinstance(leaf, (list, tuple)) and leaf:
            leaf = leaf[0]
        if context.in_function() and isinstance(x, (list, tuple)):
            raise TypeError(f"Expected string, but got {leaf!r} of type '{type(leaf).__name__}'.") from None
        raise


def _shaped(x: Tensor, values: Tensor, splits: Tensor) -> Any:
    """The pieces of x's flat strings as TF's wrappers shape them (module docstring)."""
    shape = x.shape.as_list()
    if not shape:
        return values
    rt = RaggedTensor.from_row_splits(values, splits, validate=False)
    for d in range(len(shape) - 1, 0, -1):
        rt = RaggedTensor.from_uniform(rt, shape[d], ragged=False)
    return rt


def _on_strings(input: Any, op: str, run: Callable[[Tensor], tuple], how: str) -> Any:  # noqa: A002
    """run on a string tensor, or on a RaggedTensor's flat values with its row splits kept."""
    input = _ragged_input(input, how, op)
    if isinstance(input, RaggedTensor):
        flat = input.flat_values
        values, splits = run(flat)[:2]
        return input.with_flat_values(RaggedTensor.from_row_splits(values, splits, validate=False))
    values, splits = run(input)[:2]
    return _shaped(input, values, splits)


def split(input: Any, sep: Any = None, maxsplit: int = -1, name: str | None = None) -> Any:  # noqa: A002
    """`tf.strings.split`: each string's pieces at `sep` (None: whitespace runs)."""
    # (ragged_string_ops.string_split_v2 converts the input to strings before sep: an int32 tensor with sep=3 is
    # the conversion's ValueError; fz34b)
    input = _ragged_input(input, "split", "StringSplitV2")
    s = _split_sep(sep)
    from simdist.runtime.ops import attr_rules
    n = attr_rules.make_int(maxsplit, "maxsplit")
    return _on_strings(input, "StringSplitV2",
                       lambda x: dispatch.execute(SPLIT, (x,), {"sep": s, "maxsplit": n}), "split")


def _split_sep(sep: Any) -> bytes:
    """StringSplitV2's `sep`, a string input (not an attr): string_ops.string_split_v2 converts it with
    `convert_to_tensor(sep, dtype=string)` (None is ""): a string tensor or array is taken (a scalar
    tensor sep splits as its text), a tensor of another dtype is ValueError "Tensor conversion requested
    dtype string ...", a number TypeError; the kernel wants a scalar, "sep must be a scalar, got shape:
    [0]" InvalidArgumentError, the shape function's "Shape must be rank 0" ValueError in a graph (TF 2.21
    observed; fz44b, fz43_gen seeds 43003, 43004). The separator's bytes."""
    from simdist.runtime import context
    from simdist.runtime.ops import trace_errors
    from simdist.runtime.ops.args import dims as args_dims
    from simdist.runtime.variables import Variable
    if sep is None:
        return b""
    if isinstance(sep, (str, bytes)):
        return sep.encode() if isinstance(sep, str) else sep
    if isinstance(sep, Variable) and sep.dtype != dtypes.string:
        raise ValueError(f"Incompatible type conversion requested to type string for `tf.Variable of type "
                         f"{sep.dtype.name}. (Variable: {sep!r})")
    if isinstance(sep, Tensor) or isinstance(sep, Variable):
        t = sep.read_value() if isinstance(sep, Variable) else sep
        if t.dtype != dtypes.string:
            raise ValueError(f"Tensor conversion requested dtype string for Tensor with dtype {t.dtype.name}: {t!r}")
    else:
        try:
            t = convert_to_tensor(sep, dtype=dtypes.string)
        except (TypeError, ValueError):
            if context.in_function():
                leaf = sep
                while isinstance(leaf, (list, tuple)) and leaf:
                    leaf = leaf[0]
                raise TypeError(f"Expected string, but got {leaf!r} of type '{type(leaf).__name__}'.") from None
            raise TypeError(f"Cannot convert {sep!r} to EagerTensor of dtype string") from None
    if t.ndim != 0:
        raise trace_errors.shape_error(f"sep must be a scalar, got shape: {args_dims(t.shape.as_list())} "
                                       "[Op:StringSplitV2]", f"Shape must be rank 0 but is rank {t.ndim}",
                                       "StringSplitV2", ([None], t.shape.as_list()))
    v = np.asarray(t._v).reshape(()).item()
    return v.encode() if isinstance(v, str) else v


def bytes_split(input: Any, name: str | None = None) -> Any:  # noqa: A002
    """`tf.strings.bytes_split`: each string's bytes as strings of one byte."""
    from simdist.runtime.ops import static_shapes
    if isinstance(input, Tensor) and static_shapes.rank_unknown(input):
        # (ragged_string_ops.string_bytes_split converts without a dtype and checks the rank before any
        # op sees the dtype; fz20: fz14 seed 1420262001 #199)
        raise ValueError("input must have a statically-known rank.")
    return _on_strings(input, "StringSplit", lambda x: dispatch.execute(BYTES_SPLIT, (x,)), "bytes")


def _string_input(x: Any, op: str, arg: str) -> None:
    """A graph build (op_def_library) checks the op's fixed string input before its attrs: a float32
    input of unicode_decode with errors='bad' is TypeError "Input 'input' of 'UnicodeDecode' Op has
    type float32 that does not match expected type of string." (eagerly the attrs' errors; fz34b)."""
    from simdist.runtime import context
    from simdist.runtime.ops import trace_errors
    if context.in_function():
        flat = x.flat_values if isinstance(x, RaggedTensor) else x
        trace_errors.fixed_operand(flat, dtypes.string, op, arg)


def _decoded(input: Any, input_encoding: Any, errors: Any, replacement_char: Any,  # noqa: A002
             replace_control_characters: bool, with_offsets: bool = True) -> tuple[Any, Any, Tensor]:
    """(code points, offsets or None) shaped, and the flat code points."""
    opname = "UnicodeDecodeWithOffsets" if with_offsets else "UnicodeDecode"
    from simdist.runtime.ops import static_shapes
    # (ragged_string_ops._unicode_decode converts the input without a dtype, then checks its rank, before the
    # generated op reads any attr: `[1e300]` eagerly is the conversion's ValueError whatever input_encoding is;
    # fz33b's open #28, fz34b)
    input = _ragged_input(input, "decode", opname)
    if isinstance(input, Tensor) and static_shapes.rank_unknown(input):
        raise ValueError("Rank of `input` must be statically known.")
    _string_input(input, opname, "input")
    err, rc, _ = check_attrs(opname, errors, replacement_char)
    enc = input_encoding.decode() if isinstance(input_encoding, bytes) else input_encoding
    if not isinstance(enc, str):
        raise TypeError(f"Expected string for argument 'input_encoding' not {input_encoding!r}.")
    codec_name(enc, opname)
    attrs = {"input_encoding": enc, "errors": err, "replacement_char": rc,
             "replace_control_characters": _make_bool(replace_control_characters, "replace_control_characters", "UnicodeDecode")}
    ragged = isinstance(input, RaggedTensor)
    x = input.flat_values if ragged else _ragged_input(input, "decode", opname)
    if with_offsets:
        splits, cps, offs = dispatch.execute(DECODE_OFFSETS, (x,), attrs)
    else:
        (splits, cps), offs = dispatch.execute(DECODE, (x,), attrs), None
    if ragged:
        wrap = [None if v is None else input.with_flat_values(RaggedTensor.from_row_splits(v, splits, validate=False))
                for v in (cps, offs)]
        return wrap[0], wrap[1], cps
    return _shaped(x, cps, splits), None if offs is None else _shaped(x, offs, splits), cps


def unicode_decode(input: Any, input_encoding: Any, errors: Any = "replace",  # noqa: A002
                   replacement_char: Any = 65533, replace_control_characters: bool = False,
                   name: str | None = None) -> Any:
    """`tf.strings.unicode_decode`: each string's code points (int32)."""
    return _decoded(input, input_encoding, errors, replacement_char, replace_control_characters, False)[0]


def unicode_decode_with_offsets(input: Any, input_encoding: Any, errors: Any = "replace",  # noqa: A002
                                replacement_char: Any = 65533, replace_control_characters: bool = False,
                                name: str | None = None) -> tuple[Any, Any]:
    """`tf.strings.unicode_decode_with_offsets`: code points and the byte offset each starts at."""
    cps, offs, _ = _decoded(input, input_encoding, errors, replacement_char, replace_control_characters)
    return cps, offs


def _encode_each(cps: Tensor, encoding: str, err: str, rc: int) -> Tensor:
    """Each code point as a string in `encoding` (unicode_split's unicode_encode of [n, 1] rows:
    an input encoding that is not an output one is UnicodeEncode's attr error)."""
    from simdist.runtime.ops.unicode_ops import unicode_encode
    return unicode_encode(convert_to_tensor(cps._v.reshape(-1, 1), dtype=dtypes.int32), encoding, err, rc)


def _split_chars(input: Any, input_encoding: Any, errors: Any, replacement_char: Any,  # noqa: A002
                 with_offsets: bool = True) -> tuple[Any, Any]:
    cps, offs, flat = _decoded(input, input_encoding, errors, replacement_char, False, with_offsets)
    err, rc, _ = check_attrs("UnicodeDecodeWithOffsets", errors, replacement_char)
    enc = input_encoding.decode() if isinstance(input_encoding, bytes) else input_encoding
    chars = _encode_each(flat, enc, err, rc)
    from simdist.runtime.ops import graph_constants, static_shapes
    if isinstance(input, Tensor) and graph_constants.level(input) == graph_constants.VARYING:
        # (traced on an input the graph does not know: the characters' count is [?]; of a constant C++ constant
        # folding knows it; TF 2.21 observed, fz55b_gen seed 56203 #125)
        static_shapes.mark(chars, (True,) * chars.ndim)
    if isinstance(cps, RaggedTensor):
        return cps.with_flat_values(chars), offs
    return chars, offs


def unicode_split(input: Any, input_encoding: Any, errors: Any = "replace", replacement_char: Any = 65533,  # noqa: A002
                  name: str | None = None) -> Any:
    """`tf.strings.unicode_split`: each string's characters, each encoded in `input_encoding`."""
    return _split_chars(input, input_encoding, errors, replacement_char, False)[0]


def unicode_split_with_offsets(input: Any, input_encoding: Any, errors: Any = "replace",  # noqa: A002
                               replacement_char: Any = 65533, name: str | None = None) -> tuple[Any, Any]:
    """`tf.strings.unicode_split_with_offsets`: the characters and the byte offset each starts at."""
    return _split_chars(input, input_encoding, errors, replacement_char)


# --- ngrams ---------------------------------------------------------------------------------------------------------
def _ngrams_row(row: list[bytes], widths: list[int], sep: bytes, left: bytes, right: bytes, pad_width: int,
                preserve: bool) -> list[bytes]:
    def pad_of(width: int) -> int:
        return min(width - 1 if pad_width < 0 else pad_width, width - 1)

    def count(width: int) -> int:
        return max(0, len(row) + 2 * pad_of(width) - width + 1)

    def make(width: int, n: int, out: list[bytes]) -> None:
        pw = pad_of(width)
        for k in range(n):
            lpad = max(0, pw - k)
            rpad = max(0, pw - (n - (k + 1)))
            tokens = width - (lpad + rpad)
            start = 0 if lpad > 0 else k - pw
            out.append(sep.join([left] * lpad + row[start:start + tokens] + [right] * rpad))
    out: list[bytes] = []
    for w in widths:
        make(w, count(w), out)
    if preserve and not out and row:
        make(len(row) + 2 * pad_width, 1, out)
    return out


def _string_ngrams(data: np.ndarray, splits: np.ndarray, separator: bytes = b" ", ngram_widths: tuple = (1,),
                   left_pad: bytes = b"", right_pad: bytes = b"", pad_width: int = 0,
                   preserve_short_sequences: bool = False) -> tuple[np.ndarray, np.ndarray]:
    flat = [as_bytes(v) for v in data.reshape(-1)]
    s = splits.tolist()
    values: list[bytes] = []
    out_splits = [0]
    for a, b in zip(s, s[1:]):
        values.extend(_ngrams_row(flat[a:b], list(ngram_widths), separator, left_pad, right_pad, pad_width,
                                  preserve_short_sequences))
        out_splits.append(len(values))
    arr = np.empty(len(values), dtype=object)
    for i, v in enumerate(values):
        arr[i] = v
    return arr, np.asarray(out_splits, np.int64)


def _ngrams_rule(dts: Any, attrs: Any) -> tuple:
    want_string("StringNGrams", dts, 0, "data")
    return dtypes.string, dts[1]


STRING_NGRAMS = register("StringNGrams", _string_ngrams, _ngrams_rule, num_outputs=2, kind="gather/scatter",
                         fusion=_PER_STRING, **STRING_COST)
no_tf_gradient("StringNGrams")


def _text(v: Any) -> bytes:
    return v.encode() if isinstance(v, str) else v


def ngrams(data: Any, ngram_width: Any, separator: Any = " ", pad_values: Any = None, padding_width: Any = None,
           preserve_short_sequences: bool = False, name: str | None = None) -> Any:
    """`tf.strings.ngrams`: the n-grams of each row of the last axis (ragged_string_ops.ngrams)."""
    if pad_values is None:
        left, right = b"", b""
    elif isinstance(pad_values, (list, tuple)):
        if not isinstance(pad_values[0], (str, bytes)) or not isinstance(pad_values[1], (str, bytes)):
            raise TypeError("pad_values must be a string, tuple of strings, or None.")
        left, right = _text(pad_values[0]), _text(pad_values[1])
    else:
        if not isinstance(pad_values, (str, bytes)):
            raise TypeError("pad_values must be a string, tuple of strings, or None.")
        left = right = _text(pad_values)
    if padding_width is not None and padding_width < 1:
        raise ValueError("padding_width must be greater than 0.")
    if padding_width is not None and pad_values is None:
        raise ValueError("pad_values must be provided if padding_width is set.")
    args = (ngram_width, separator, pad_values, padding_width, preserve_short_sequences)
    if not isinstance(data, RaggedTensor):
        x = _ragged_input(data, "ngrams", "StringNGrams")
        shape = x.shape.as_list()
        if not shape:
            raise ValueError("Data must have rank>0")
        rt = RaggedTensor.from_row_splits(x, [0, shape[0]], validate=False) if len(shape) == 1 else \
            RaggedTensor.from_tensor(x, ragged_rank=len(shape) - 1)
        out = ngrams(rt, *args)
        if len(shape) == 1:
            return out.flat_values
        flat = out.flat_values
        res = convert_to_tensor(flat._v.reshape(tuple(shape[:-1]) + (-1,)), dtype=dtypes.string)
        from simdist.runtime.ops import partial_values   # (TF's to_tensor of the ragged n-grams: last dim unknown)
        if partial_values.in_trace():
            partial_values.mark(res, [x.shape[0]] + [None] * (len(shape) - 1))
        return res
    if data.ragged_rank > 1:
        return RaggedTensor.from_row_splits(ngrams(data.values, *args), data.row_splits, validate=False)
    pw = 0 if pad_values is None else -1 if padding_width is None else int(padding_width)
    widths = list(ngram_width) if isinstance(ngram_width, (list, tuple)) else [ngram_width]
    from simdist.runtime import symbolic
    for w in widths:
        if symbolic.truth_taken(w < 1):   # (TF's `if width < 1`: a graph tensor's truth is refused)
            raise ValueError(f"All ngram_widths must be greater than 0. Got {ngram_width}")
    vals, sp = dispatch.execute(STRING_NGRAMS, (data.values, data.row_splits),
                                {"separator": _text(_make_str(separator, "separator")), "ngram_widths": tuple(int(w) for w in widths),
                                 "left_pad": left, "right_pad": right, "pad_width": pw,
                                 "preserve_short_sequences": bool(preserve_short_sequences)})
    return RaggedTensor.from_row_splits(vals, sp, validate=False)
