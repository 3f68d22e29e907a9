"""Reading a scenario's TOML: the parser (tomllib, or tomli on Python 3.10) and where each key
path is defined in the source text (for file:line in messages)."""

from __future__ import annotations

import re

try:
    import tomllib
except ModuleNotFoundError:   # Python 3.10: the same parser, as the tomli package
    import tomli as tomllib  # type: ignore[no-redef]

__all__ = ["tomllib", "locate_lines"]


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
