"""Reading a scenario's TOML: the parser (tomllib, or tomli on Python 3.10), the limits TOML 1.0
sets and Python's parser does not enforce, and where each key path is defined in the source text
(for file:line in messages).

    doc = read_toml(text, "x.toml")      # ScenarioError on a syntax error or nesting too deep
    problems = limit_problems(doc)      # [(key path, message)]: 64-bit integers, nesting depth
"""

from __future__ import annotations

import re
from typing import Any

try:
    import tomllib
except ModuleNotFoundError:   # Python 3.10: the same parser, as the tomli package
    import tomli as tomllib  # type: ignore[no-redef]

__all__ = ["tomllib", "read_toml", "limit_problems", "locate_lines", "deep_line", "MAX_DEPTH", "INT_MIN", "INT_MAX"]

#: Arrays and tables nest at most this deep (the deepest scenario key, a swept shape such as
#: sweep.params."model.variables[0].shape" = [[1, 2]], is 5 levels down).
MAX_DEPTH = 16
#: TOML 1.0: "Arbitrary 64-bit signed integers should be accepted and handled losslessly. If an
#: integer cannot be represented losslessly, an error must be thrown." tomllib does not.
INT_MIN, INT_MAX = -(2**63), 2**63 - 1


def read_toml(text: str, file: str) -> dict[str, Any]:
    """Parse ``text``; a syntax error, or nesting deeper than Python's recursive parser can
    follow, is a ScenarioError naming the line."""
    from .errors import Issue, ScenarioError
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        msg = str(e)
        m = re.search(r"\(at line (\d+), column (\d+)\)", msg)
        line = int(m.group(1)) if m else None
        msg = re.sub(r"\s*\(at line \d+, column \d+\)|\s*\(at end of document\)", "", msg)
        # tomllib names keys as Python tuples ("Cannot declare ('training',) twice"): show them dotted
        msg = re.sub(r"\(((?:'[^']*'|\"[^\"]*\")(?:, (?:'[^']*'|\"[^\"]*\"))*),?\)",
                     lambda m: ".".join(x[1:-1] for x in re.findall(r"'[^']*'|\"[^\"]*\"", m.group(1))), msg)
        raise ScenarioError([Issue(file, "", f"TOML syntax error: {msg} (rule: the file must be valid TOML 1.0)",
                                   line)]) from None
    except RecursionError:
        raise ScenarioError([Issue(file, "", f"arrays or inline tables nest too deeply to parse (rule: values nest at "
                                             f"most {MAX_DEPTH} levels)", deep_line(text))]) from None
    except ValueError as e:   # int() of more than sys.get_int_max_str_digits() digits
        m = re.search(r"[0-9_]{4000,}", text)
        line = text.count("\n", 0, m.start()) + 1 if m else None
        if "digits" not in str(e):
            raise
        raise ScenarioError([Issue(file, "", f"an integer of thousands of digits (rule: TOML 1.0 integers are 64-bit, "
                                             f"{INT_MIN} .. {INT_MAX})", line)]) from None


def limit_problems(doc: Any) -> list[tuple[str, str]]:
    """(key path, message) for every integer outside 64 bits and every value nested deeper than
    MAX_DEPTH (reported once, at its outermost too-deep path). Iterative: any depth is safe."""
    out: list[tuple[str, str]] = []
    stack: list[tuple[str, Any, int]] = [("", doc, 0)]
    while stack:
        path, v, depth = stack.pop()
        if isinstance(v, bool):
            continue
        if isinstance(v, int):
            if not INT_MIN <= v <= INT_MAX:
                digits = len(str(abs(v))) if abs(v) < 10**4000 else "thousands of"
                out.append((path, f"an integer of {digits} digits does not fit in 64 bits (rule: TOML 1.0 "
                                  f"integers are {INT_MIN} .. {INT_MAX})"))
            continue
        if isinstance(v, (dict, list)):
            if depth > MAX_DEPTH:
                out.append((path, f"nested more than {MAX_DEPTH} levels deep (rule: values nest at most "
                                  f"{MAX_DEPTH} levels)"))
                continue
            if isinstance(v, dict):
                stack.extend((f"{path}.{k}" if path else str(k), x, depth + 1) for k, x in v.items())
            else:
                stack.extend((f"{path}[{k}]", x, depth + 1) for k, x in enumerate(v))
    out.sort()
    return out


def deep_line(text: str, limit: int = MAX_DEPTH) -> int | None:
    """The 1-based line where ``[``/``{`` nesting (outside strings and comments) first exceeds
    ``limit``; None if it never does. A cheap scan, for messages only."""
    depth, line, quote, i, n = 0, 1, "", 0, len(text)
    while i < n:
        ch = text[i]
        if ch == "\n":
            line += 1
        elif quote:
            if ch == "\\" and quote == '"':
                i += 1
            elif text.startswith(quote, i):
                i += len(quote) - 1
                quote = ""
        elif ch == "#":
            j = text.find("\n", i)
            i = n if j < 0 else j - 1
        elif ch in "\"'":
            quote = ch * 3 if text.startswith(ch * 3, i) else ch
            i += len(quote) - 1
        elif ch in "[{":
            depth += 1
            if depth > limit:
                return line
        elif ch in "]}":
            depth -= 1
        i += 1
    return None


def _locate_lines(text: str) -> dict[str, int]:
    """Key path -> 1-based line of its definition, from the source text (tables, arrays of tables,
    dotted and quoted keys; keys inside inline tables map to the line of the table's key)."""
    out: dict[str, int] = {}
    counters: dict[str, int] = {}
    prefix = ""
    key_re = re.compile(r'^\s*((?:[A-Za-z0-9_-]+|"[^"]*"|\'[^\']*\')(?:\s*\.\s*(?:[A-Za-z0-9_-]+|"[^"]*"|\'[^\']*\'))*)'
                        r'\s*=')
    in_multiline = None
    for no, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if in_multiline:
            if in_multiline in line:
                in_multiline = None
            continue
        if not line or line.startswith("#"):
            continue
        m = re.match(r"^\[\[\s*([^\]]+?)\s*\]\]", line)
        if m:
            name = _join_key(m.group(1))
            idx = counters.get(name, 0)
            counters[name] = idx + 1
            prefix = f"{name}[{idx}]"
            out.setdefault(prefix, no)
            out.setdefault(name, no)
            continue
        m = re.match(r"^\[\s*([^\]]+?)\s*\]", line)
        if m:
            prefix = _join_key(m.group(1))
            out.setdefault(prefix, no)
            continue
        m = key_re.match(line)
        if m:
            key = _join_key(m.group(1))
            path = f"{prefix}.{key}" if prefix else key
            out.setdefault(path, no)
            rest = line[m.end():]
            for q in ('"""', "'''"):
                if rest.count(q) == 1:
                    in_multiline = q
    return out


def _join_key(k: str) -> str:
    parts = re.findall(r'"([^"]*)"|\'([^\']*)\'|([A-Za-z0-9_-]+)', k)
    return ".".join(a or b or c for a, b, c in parts)


locate_lines = _locate_lines
