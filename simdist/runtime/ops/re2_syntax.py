"""RE2's pattern syntax (TF's regex ops compile with RE2 in UTF-8 mode) checked and translated to
an equivalent Python `re` pattern over text decoded with surrogateescape (an ill-formed byte is
one lone surrogate U+DC80..U+DCFF that no `.` nor negated class matches, as RE2's UTF-8 matching
skips such bytes).

Refused as RE2 refuses them, with RE2's error text (TF: InvalidArgumentError "Invalid pattern:
<p>, error: <text>"): lookarounds, atomic groups, comments and other "(?x" operators ("invalid
perl operator: (?="), backreferences and unknown escapes ("invalid escape sequence: \\1"), a
repetition of a repetition ("bad repetition operator: **", also Python's possessive "*+"), a
repetition of nothing ("no argument for repetition operator: *"), counts above 1000 or reversed
("invalid repetition size: {2,1}"), reversed class ranges, unknown POSIX classes ("invalid
character class range: [:foo:]"), an unclosed "[" ("missing ]: [a"), unbalanced parentheses
("missing ): ...", "unexpected ): ..."), a trailing backslash ("trailing \\").

Translated where Python's meaning differs: `.` and negated classes skip ill-formed bytes; `$`
(without (?m)) is the end of the text only (`\\Z`), `\\z` too; `\\d \\w \\s` are ASCII ([0-9],
[0-9A-Za-z_], [\\t\\n\\f\\r ]: no \\v) and `\\b \\B` ASCII word boundaries; octal escapes
(`\\0`, `\\12`), `\\x{...}`; a `{` that is not a counted repetition is a literal.
RE2 syntax simdist does not model (NotImplementedError): `\\p`/`\\P` Unicode classes, POSIX
classes `[[:alpha:]]`, `\\C`, `\\Q...\\E`, the U (ungreedy) flag, flag groups "(?i)" not at the
start of the pattern, and \\D \\S \\W inside a class.
"""

from __future__ import annotations

import functools
import re

__all__ = ["compile_re2", "RE2Error"]

_NOT_BAD = "(?![\\udc80-\\udcff])"
_DIGIT, _WORD, _SPACE = "0-9", "0-9A-Za-z_", "\\t\\n\\f\\r "
_POSIX = ("alnum", "alpha", "ascii", "blank", "cntrl", "digit", "graph", "lower", "print", "punct", "space",
          "upper", "word", "xdigit")
_COUNT = re.compile(r"\{(\d+)(,(\d*))?\}")
_FLAGS = re.compile(r"\(\?([imsU]*)(?:-([imsU]*))?([:)])")


class RE2Error(ValueError):
    """A pattern RE2 refuses: `text` is RE2's error ("missing ): (a")."""


def _unmodelled(what: str) -> NotImplementedError:
    return NotImplementedError(f"simdist does not model RE2's {what} (TF accepts it)")


def _escape(p: str, i: int, in_class: bool) -> tuple[str, int]:
    """The escape at p[i] == "\\": (its Python text, the index after it)."""
    if i + 1 >= len(p):
        raise RE2Error("trailing \\")
    c = p[i + 1]
    if c in "1234567" and not (i + 2 < len(p) and p[i + 2] in "01234567") or c in "89":
        raise RE2Error(f"invalid escape sequence: \\{c}")
    if c in "01234567":
        j = i + 2
        while j < len(p) and j < i + 4 and p[j] in "01234567":
            j += 1
        return re.escape(chr(int(p[i + 1:j], 8))), j
    if c == "x":
        if i + 2 < len(p) and p[i + 2] == "{":
            end = p.find("}", i + 3)
            digits = p[i + 3:end] if end > 0 else ""
            if end < 0 or not digits or any(d not in "0123456789abcdefABCDEF" for d in digits) \
                    or int(digits, 16) > 0x10FFFF:
                raise RE2Error(f"invalid escape sequence: {p[i:end + 1 if end > 0 else len(p)]}")
            return re.escape(chr(int(digits, 16))), end + 1
        digits = p[i + 2:i + 4]
        if len(digits) < 2 or any(d not in "0123456789abcdefABCDEF" for d in digits):
            raise RE2Error(f"invalid escape sequence: {p[i:i + 4]}")
        return re.escape(chr(int(digits, 16))), i + 4
    if c in "afnrtv":
        return "\\" + c, i + 2
    if c in "dws":
        body = {"d": _DIGIT, "w": _WORD, "s": _SPACE}[c]
        return (body if in_class else f"[{body}]"), i + 2
    if c in "DWS":
        if in_class:
            raise _unmodelled(f"\\{c} inside a character class")
        return f"[^{ {'D': _DIGIT, 'W': _WORD, 'S': _SPACE}[c]}]", i + 2
    if c in "bB" and not in_class:
        return f"(?a:\\{c})", i + 2
    if c == "A" and not in_class:
        return "\\A", i + 2
    if c == "z" and not in_class:
        return "\\Z", i + 2
    if c in "pP":
        raise _unmodelled(f"Unicode class \\{c}")
    if c == "C":
        raise _unmodelled("\\C (any byte)")
    if c == "Q":
        raise _unmodelled("\\Q...\\E quoting")
    if ord(c) < 128 and not c.isalnum():
        return re.escape(c), i + 2
    raise RE2Error(f"invalid escape sequence: \\{c}")


def _class(p: str, i: int) -> tuple[str, int]:
    """The class opening at p[i] == "[": (its Python text, the index after it)."""
    start, j = i, i + 1
    negated = j < len(p) and p[j] == "^"
    j += negated
    items: list[str] = []
    first = True
    while True:
        if j >= len(p):
            raise RE2Error(f"missing ]: {p[start:]}")
        c = p[j]
        if c == "]" and not first:
            j += 1
            break
        first = False
        if p.startswith("[:", j):
            end = p.find(":]", j + 2)
            name = p[j + 2:end].lstrip("^") if end > 0 else None
            if name is not None and name in _POSIX:
                raise _unmodelled(f"POSIX class [:{name}:]")
            if end > 0:
                raise RE2Error(f"invalid character class range: {p[j:end + 2]}")
        lo_text, lo, j = _class_char(p, j)
        if lo is not None and j + 1 < len(p) and p[j] == "-" and p[j + 1] != "]":
            hi_text, hi, k = _class_char(p, j + 1)
            if hi is None:
                raise RE2Error(f"invalid character class range: {p[j - 1:k]}")
            if hi < lo:
                raise RE2Error(f"invalid character class range: {p[j - len(lo_text):k]}")
            items.append(f"{re.escape(chr(lo))}-{re.escape(chr(hi))}")
            j = k
        else:
            items.append(lo_text if lo is None else re.escape(chr(lo)))
    body = "".join(items)
    return (f"(?:{_NOT_BAD}[^{body}])" if negated else f"[{body}]"), j


def _class_char(p: str, j: int) -> tuple[str, int | None, int]:
    """One class member at p[j]: (its text, its code point or None for a class escape, the next index)."""
    if p[j] == "\\":
        text, k = _escape(p, j, True)
        plain = text[1:] if text.startswith("\\") and len(text) == 2 and not text[1].isalnum() else text
        if len(plain) == 1:
            return p[j:k], ord(plain), k
        if text in ("\\a", "\\f", "\\n", "\\r", "\\t", "\\v"):
            return p[j:k], ord({"a": "\a", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "v": "\v"}[text[1]]), k
        return text, None, k
    return p[j], ord(p[j]), j + 1


def translate(p: str) -> str:
    """The Python pattern of RE2 pattern p (RE2Error or NotImplementedError as the module says)."""
    out: list[str] = []
    depth, i = 0, 0
    multiline = False
    last = "none"          # what precedes: "none" (nothing to repeat), "atom", "rep" (a repetition)
    rep_text = ""
    while i < len(p):
        c = p[i]
        if c == "\\":
            text, i = _escape(p, i, False)
            out.append(text)
            last = "atom"
        elif c == "[":
            text, i = _class(p, i)
            out.append(text)
            last = "atom"
        elif c == "(":
            if p.startswith("(?", i):
                m = _FLAGS.match(p, i)
                if p.startswith("(?P<", i):
                    out.append("(?P<")
                    i += 4
                elif m and (m.group(1) or m.group(2) or m.group(3) == ":"):
                    flags = m.group(1) + (m.group(2) or "")
                    if "U" in flags:
                        raise _unmodelled("U (ungreedy) flag")
                    if m.group(3) == ")":
                        if i != 0:
                            raise _unmodelled("flag group (?flags) after the start of the pattern")
                        multiline = "m" in m.group(1)
                        out.append(m.group(0))
                        i = m.end()
                        last = "none"
                        continue
                    out.append(m.group(0))
                    i = m.end()
                else:
                    raise RE2Error(f"invalid perl operator: {p[i:i + 3]}")
            else:
                out.append("(")
                i += 1
            depth += 1
            last = "none"
        elif c == ")":
            if depth == 0:
                raise RE2Error(f"unexpected ): {p}")
            depth -= 1
            out.append(")")
            i += 1
            last = "atom"
        elif c == "|":
            out.append("|")
            i += 1
            last = "none"
        elif c in "*+?" or (c == "{" and _COUNT.match(p, i)):
            if c == "{":
                m = _COUNT.match(p, i)
                lo, hi = int(m.group(1)), (m.group(3) if m.group(2) else m.group(1))
                if lo > 1000 or (hi not in ("", None) and (int(hi) > 1000 or int(hi) < lo)):
                    raise RE2Error(f"invalid repetition size: {m.group(0)}")
                op, i = m.group(0), m.end()
            else:
                op, i = c, i + 1
            if i < len(p) and p[i] == "?":
                op, i = op + "?", i + 1
            if last == "none":
                raise RE2Error(f"no argument for repetition operator: {op[0] if op[0] != '{' else op}")
            if last == "rep":
                raise RE2Error(f"bad repetition operator: {rep_text}{op}")
            out.append(op)
            last, rep_text = "rep", op
        elif c == ".":
            out.append(f"(?:{_NOT_BAD}.)")
            i += 1
            last = "atom"
        elif c == "$":
            out.append("$" if multiline else "\\Z")
            i += 1
            last = "atom"
        elif c == "^":
            out.append("^")
            i += 1
            last = "atom"
        else:
            out.append(re.escape(c))
            i += 1
            last = "atom"
    if depth:
        raise RE2Error(f"missing ): {p}")
    return "".join(out)


@functools.lru_cache(maxsize=256)
def compile_re2(pattern: str) -> re.Pattern:
    """RE2 pattern `pattern` compiled by Python's re (RE2Error: RE2 refuses it)."""
    try:
        return re.compile(translate(pattern))
    except re.error as e:     # (what the translation let through and Python still refuses)
        raise RE2Error(str(e)) from None
