"""The text codecs of TF's Unicode ops (unicode_ops.cc, ICU converters): bytes in an input
encoding to code points with TF's `errors` modes, and code points to bytes in an output encoding.

- decoding: UTF-8, UTF-16-BE, UTF-32-BE, and ICU's single-byte aliases ISO-8859-1 / latin1 /
  US-ASCII (other ICU converter names: NotImplementedError); each maximal ill-formed subpart is
  one error (ICU and Python's decoders agree on them: "\\xed\\xa0\\x80" is three, "\\xf0\\x9f\\x98"
  one, a UTF-16 odd byte or lone surrogate one), which `errors` "replace" makes
  `replacement_char`, "ignore" drops and "strict" refuses (InvalidArgumentError);
  `replace_control_characters` makes C0 controls (U+0000..U+001F) errors too ("ignore" drops
  them; under "strict" UnicodeDecode makes them `replacement_char`, UnicodeTranscode refuses them);
  a BOM is a character;
- encoding: UTF-8, UTF-16-BE (surrogate pairs above U+FFFF), UTF-32-BE; a code point outside
  [0, U+10FFFF] or a surrogate is an error for `errors` as above;
- `replacement_char` outside [0, U+10FFFF]: InvalidArgumentError "replacement_char out of
  unicode codepoint range"; `errors` and the output encoding are attrs with allowed lists.
"""

from __future__ import annotations

import codecs
from typing import Any

from simdist.runtime import errors as tf_errors
from simdist.runtime.ops import attr_rules

__all__ = ["decode", "encode", "check_attrs", "OUTPUT_ENCODINGS"]

OUTPUT_ENCODINGS = ("UTF-8", "UTF-16-BE", "UTF-32-BE")
_ERRORS = ("ignore", "replace", "strict")
_PY_CODECS = {"UTF-8": "utf-8", "UTF-16-BE": "utf-16-be", "UTF-32-BE": "utf-32-be", "ISO-8859-1": "latin-1",
              "LATIN1": "latin-1", "US-ASCII": "ascii"}
_MARK = "\ud800"        # what an ill-formed subpart decodes to (no decoder makes a lone surrogate)


def _mark(exc: UnicodeError) -> tuple[str, int]:
    return _MARK, exc.end  # type: ignore[attr-defined]


codecs.register_error("simdist_mark", _mark)


def _attr_list(op: str, attr: str, value: str, allowed: tuple[str, ...]) -> None:
    """`value` in the op's OpDef list for `attr` (its order: UnicodeDecode's errors are "strict",
    "replace", "ignore", UnicodeEncode's "ignore", "replace", "strict"), else the NodeDef's error,
    marked with op_def_library's ValueError for a graph build (trace_errors.string_attr; fz34b)."""
    if value in allowed:
        return
    from simdist.runtime.ops import raw_ops, trace_errors
    spec = raw_ops.opdefs()["ops"].get(op)
    listed = next((a["allowed"] for a in spec["args"] if a.get("attr") == attr), allowed) if spec else allowed
    raise trace_errors.string_attr(op, attr, value, listed)


def _text_attr(v: Any, name: str) -> str:
    if isinstance(v, bytes):
        return v.decode()
    if not isinstance(v, str):
        raise TypeError(f"Expected string for argument '{name}' not {v!r}.")
    return v


def check_attrs(op: str, errors: Any, replacement_char: Any, output_encoding: Any = None) -> tuple[str, int, str]:
    """(errors, replacement_char, output encoding) checked as TF's attrs and kernel check them: the generated
    wrapper converts every attr first, in its order (make_str of output_encoding, of errors; None as
    replacement_char is 65533, then make_int, which takes 1.5 as 1 and an eager scalar tensor, and refuses a
    string, a vector, a graph tensor with TypeError), and only then are the OpDef's allowed lists read (eager
    InvalidArgumentError, a graph's ValueError): `unicode_encode(x, 'latin1', replacement_char=<string
    tensor>)` is the TypeError (fz64, fz62gen seed 64402 #5; observed on TF 2.21)."""
    out = _text_attr(output_encoding, "output_encoding") if output_encoding is not None else "UTF-8"
    err = _text_attr(errors, "errors")
    rc = attr_rules.make_int(65533 if replacement_char is None else replacement_char, "replacement_char")
    if output_encoding is not None:
        _attr_list(op, "output_encoding", out, OUTPUT_ENCODINGS)
    _attr_list(op, "errors", err, _ERRORS)
    if not 0 <= rc <= 0x10FFFF:
        raise tf_errors.InvalidArgumentError(None, None, f"replacement_char out of unicode codepoint range [Op:{op}]")
    return err, rc, out


def codec_name(encoding: str, op: str = "UnicodeDecode") -> str:
    """Python's codec for an ICU input encoding name. A name no converter has ("", "a", "bogus": ICU's
    ucnv_open fails, and so does Python's codec lookup) is the kernel's InvalidArgumentError, raised
    before any string is read, an empty input too (observed on TF 2.21; fuzz20 seeds 2920261201 #25,
    2920261202 #41); a name Python knows but simdist does not model is NotImplementedError."""
    py = _PY_CODECS.get(encoding.upper())
    if py is None:
        try:
            codecs.lookup(encoding)
        except LookupError:
            raise tf_errors.InvalidArgumentError(
                None, None, f"Could not create converter for input encoding: {encoding} [Op:{op}]") from None
        raise NotImplementedError(f"simdist models the input encodings {sorted(_PY_CODECS)}, not ICU's {encoding!r}")
    return py


def decode(s: bytes, encoding: str, errors: str, replacement_char: int, control: bool, op: str,
           strict_controls: bool = True) -> list[int]:
    """The code points of s in `encoding`, ill-formed parts handled by `errors` (module docstring).
    `strict_controls` False: a C0 control that `control` replaces is replacement_char under "strict"
    too (UnicodeDecode's own replacement, after the converter; UnicodeTranscode's converter refuses it)."""
    text = s.decode(codec_name(encoding), "simdist_mark")
    out: list[int] = []
    for ch in text:
        if ch == _MARK or (control and ch < "\x20"):
            if errors == "strict" and ch != _MARK and not strict_controls:
                out.append(replacement_char)
                continue
            if errors == "strict":
                raise tf_errors.InvalidArgumentError(None, None, f"Invalid formatting on input string [Op:{op}]")
            if errors == "replace":
                out.append(replacement_char)
            continue
        out.append(ord(ch))
    return out


def valid(cp: int) -> bool:
    """A Unicode scalar value: in [0, U+10FFFF] and not a surrogate."""
    return 0 <= cp <= 0x10FFFF and not 0xD800 <= cp <= 0xDFFF


def encode(cps: list[int], encoding: str, errors: str, replacement_char: int, op: str) -> bytes:
    """Code points as bytes in `encoding` (an invalid one handled by `errors`)."""
    chars: list[str] = []
    for cp in cps:
        if not valid(cp):
            if errors == "strict":
                raise tf_errors.InvalidArgumentError(None, None, "Code point is out of range for Unicode, or is a "
                                                     f"surrogate. [Op:{op}]")
            if errors == "ignore":
                continue
            cp = replacement_char
        chars.append(chr(cp))
    return "".join(chars).encode(_PY_CODECS[encoding], "surrogatepass")
