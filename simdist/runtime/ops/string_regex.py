"""tf.strings.regex_full_match and regex_replace (TF's StaticRegexFullMatch/RegexFullMatch and
StaticRegexReplace/RegexReplace kernels, RE2): the pattern a Python str or bytes makes the Static
op (compiled once), a tensor the other (a scalar string: InvalidArgumentError "Pattern must be
scalar, but received [1]", "Rewrite must be scalar, ..."). RE2's syntax, its refusals and what
simdist does not model: re2_syntax.py; a refused pattern is InvalidArgumentError "Invalid pattern:
<p>, error: <RE2's text>" (a pattern that is not UTF-8: UnicodeDecodeError, as TF's message
decoding fails).

- full match: the whole string matches (bool, the input's shape);
- replace: RE2::GlobalReplace (`replace_global`, the default) or RE2::Replace. The rewrite's
  "\\\\0".."\\\\9" insert groups (an unmatched group as b""), "\\\\\\\\" a backslash; a rewrite
  naming a group the pattern lacks replaces nothing; another escape ends the rewrite there (RE2's
  Rewrite fails: GlobalReplace keeps what it wrote of it, Replace leaves the string as it was).
  GlobalReplace takes no empty match where the previous match ended (re.sub does: "aaa" with
  "a*" and "X" is "X" in TF, "XX" in re.sub) and steps over a whole UTF-8 character.
Not differentiable (TF: NotDifferentiable RegexReplace; no gradient for the others: LookupError).
Clause ops.strings-regex.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import dtypes, errors
from simdist.runtime.ops import attr_rules, dispatch
from simdist.runtime.ops.args import dims
from simdist.runtime.ops.counting import no_tf_gradient
from simdist.runtime.ops.re2_syntax import RE2Error, compile_re2
from simdist.runtime.ops.registry import NotDifferentiable, lanes, register
from simdist.runtime.ops.string_args import STRING_COST, as_bytes, string_tensor, want_string
from simdist.runtime.tensor import Tensor

__all__ = ["regex_full_match", "regex_replace"]

_PER_STRING = lanes("matches each string in Python: no stacked form written")


def _text(b: bytes) -> str:
    return b.decode("utf-8", "surrogateescape")


def _compiled(pattern: bytes, op: str) -> Any:
    # (RE2's "invalid UTF-8" error holds the pattern's bytes: TF's Python fails to decode the
    # message, so UnicodeDecodeError is what a program sees)
    text = pattern.decode("utf-8")
    try:
        return compile_re2(text)
    except RE2Error as e:
        raise errors.InvalidArgumentError(None, None, f"Invalid pattern: {text}, error: {e} [Op:{op}]") from None


def _scalar(a: Any, what: str, op: str) -> bytes:
    a = np.asarray(a)
    if a.ndim:
        raise errors.InvalidArgumentError(None, None, f"{what} must be scalar, but received {dims(a.shape)} [Op:{op}]")
    return as_bytes(a.item())


def _full_match(x: np.ndarray, pattern: bytes, op: str) -> np.ndarray:
    rx = _compiled(pattern, op)
    flat = x.reshape(-1)
    out = np.empty(flat.shape, bool)
    for i, v in enumerate(flat):
        out[i] = rx.fullmatch(_text(as_bytes(v))) is not None
    return out.reshape(x.shape)


def _max_submatch(rewrite: bytes) -> int:
    """RE2::MaxSubmatch: the largest group number a rewrite names."""
    best, i = 0, 0
    while i < len(rewrite):
        if rewrite[i] == 0x5C and i + 1 < len(rewrite):
            if 0x30 <= rewrite[i + 1] <= 0x39:
                best = max(best, rewrite[i + 1] - 0x30)
            i += 2
        else:
            i += 1
    return best


def _rewrite(out: list[str], rewrite: str, m: Any) -> bool:
    """RE2::Rewrite of match m appended to out: False at a bad escape (what came before kept)."""
    i = 0
    while i < len(rewrite):
        c = rewrite[i]
        if c != "\\":
            out.append(c)
            i += 1
            continue
        nxt = rewrite[i + 1] if i + 1 < len(rewrite) else ""
        if nxt.isdigit() and nxt.isascii():
            out.append(m.group(int(nxt)) or "")
        elif nxt == "\\":
            out.append("\\")
        else:
            return False
        i += 2
    return True


def _replace_one(s: str, rx: Any, rewrite: str, global_: bool) -> str:
    if not global_:
        m = rx.search(s)
        if m is None:
            return s
        mid: list[str] = []
        return s if not _rewrite(mid, rewrite, m) else s[:m.start()] + "".join(mid) + s[m.end():]
    out: list[str] = []
    p, lastend, count = 0, -1, 0
    while p <= len(s):
        m = rx.search(s, p)
        if m is None:
            break
        if p < m.start():
            out.append(s[p:m.start()])
        if m.start() == lastend and m.end() == m.start():
            if p < len(s):
                out.append(s[p])
            p += 1
            continue
        _rewrite(out, rewrite, m)
        p = lastend = m.end()
        count += 1
    if count == 0:
        return s
    if p < len(s):
        out.append(s[p:])
    return "".join(out)


def _replace(x: np.ndarray, pattern: bytes, rewrite: bytes, replace_global: bool, op: str) -> np.ndarray:
    rx = _compiled(pattern, op)
    out = np.empty(x.shape, dtype=object)
    flat, res = x.reshape(-1), out.reshape(-1)
    applies = 1 + _max_submatch(rewrite) <= 1 + rx.groups
    rw = _text(rewrite)
    for i, v in enumerate(flat):
        s = as_bytes(v)
        res[i] = _replace_one(_text(s), rx, rw, replace_global).encode("utf-8", "surrogateescape") if applies else s
    return out


def _bool_rule(op: str) -> Any:
    def rule(dts: Any, attrs: Any) -> dtypes.DType:
        want_string(op, dts)
        for k in range(1, len(dts)):
            want_string(op, dts, k, "pattern")
        return dtypes.bool_
    return rule


def _string_rule(op: str) -> Any:
    def rule(dts: Any, attrs: Any) -> dtypes.DType:
        for k, arg in zip(range(len(dts)), ("input", "pattern", "rewrite")):
            want_string(op, dts, k, arg)
        return dtypes.string
    return rule


STATIC_FULL_MATCH = register(
    "StaticRegexFullMatch", lambda x, pattern=b"": _full_match(x, pattern, "StaticRegexFullMatch"),
    _bool_rule("StaticRegexFullMatch"), kind="elementwise", fusion=_PER_STRING, **STRING_COST)
FULL_MATCH = register(
    "RegexFullMatch", lambda x, p: _full_match(x, _scalar(p, "Pattern", "RegexFullMatch"), "RegexFullMatch"),
    _bool_rule("RegexFullMatch"), kind="elementwise", fusion=_PER_STRING, **STRING_COST)
STATIC_REPLACE = register(
    "StaticRegexReplace",
    lambda x, pattern=b"", rewrite=b"", replace_global=True: _replace(x, pattern, rewrite, replace_global,
                                                                      "StaticRegexReplace"),
    _string_rule("StaticRegexReplace"), kind="elementwise", fusion=_PER_STRING, **STRING_COST)
REPLACE = register(
    "RegexReplace",
    lambda x, p, r, replace_global=True: _replace(x, _scalar(p, "Pattern", "RegexReplace"),
                                                  _scalar(r, "Rewrite", "RegexReplace"), replace_global,
                                                  "RegexReplace"),
    _string_rule("RegexReplace"), kind="elementwise", fusion=_PER_STRING, **STRING_COST)
NotDifferentiable("RegexReplace")
for _name in ("StaticRegexFullMatch", "RegexFullMatch", "StaticRegexReplace"):
    no_tf_gradient(_name)


def _static(v: Any) -> bool:
    return isinstance(v, (str, bytes))


def _attr_bytes(v: Any) -> bytes:
    return v.encode("utf-8") if isinstance(v, str) else v


def _string_fallback(values: tuple, names: tuple, op: str) -> None:
    """The generated op's eager fallback, taken when not every input is an eager tensor: each string input
    converts in order with `convert_to_tensor(x, string)`, so a Python value that is no text is its TypeError and
    a tensor of another dtype the ValueError "Tensor conversion requested dtype string for Tensor with dtype
    int64" (not the kernel's InvalidArgumentError; fz43b, fz43_gen seed 43002)."""
    from simdist.runtime import context
    if context.in_function() or all(isinstance(v, Tensor) for v in values):
        return
    for v, n in zip(values, names):
        if isinstance(v, Tensor) or hasattr(v, "_as_tensor"):
            attr_rules.fallback_conversion(v, dtypes.string)
        else:
            string_tensor(v, op, n)


def regex_full_match(input: Any, pattern: Any, name: str | None = None) -> Tensor:  # noqa: A002
    """`tf.strings.regex_full_match`: whether each whole string matches RE2 `pattern` (bool)."""
    x = string_tensor(input, "StaticRegexFullMatch" if _static(pattern) else "RegexFullMatch")
    if _static(pattern):
        return dispatch.execute(STATIC_FULL_MATCH, (x,), {"pattern": _attr_bytes(pattern)})
    _string_fallback((input, pattern), ("input", "pattern"), "RegexFullMatch")
    return dispatch.execute(FULL_MATCH, (x, string_tensor(pattern, "RegexFullMatch", "pattern")))


def regex_replace(input: Any, pattern: Any, rewrite: Any, replace_global: bool = True,  # noqa: A002
                  name: str | None = None) -> Tensor:
    """`tf.strings.regex_replace`: RE2 `pattern`'s matches in each string replaced by `rewrite`."""
    from simdist.runtime.ops import attr_rules
    static = _static(pattern) and _static(rewrite)
    # (the wrapper's make_bool before any input converts: `replace_global=1` is TypeError; ops.attr-types,
    # fz14 seed 1420261219 #110)
    replace_global = attr_rules.make_bool(replace_global, "replace_global", "RegexReplace")
    x = string_tensor(input, "StaticRegexReplace" if static else "RegexReplace")
    if static:
        return dispatch.execute(STATIC_REPLACE, (x,), {"pattern": _attr_bytes(pattern),
                                                       "rewrite": _attr_bytes(rewrite),
                                                       "replace_global": bool(replace_global)})
    return dispatch.execute(REPLACE, (x, string_tensor(pattern, "RegexReplace", "pattern"),
                                      string_tensor(rewrite, "RegexReplace", "rewrite")),
                            {"replace_global": bool(replace_global)})
