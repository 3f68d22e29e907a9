"""Mutations of scenario documents for the fuzz tests: every leaf (and every key of the schema),
replaced by values of other types, extremes, deep nesting, huge strings; unknown keys; text-level
damage (bad UTF-8, TOML edge cases). Pure functions of their inputs (hypothesis draws them)."""

from __future__ import annotations

import copy
import math
from typing import Any, Iterator

import tomli_w

from simdist.scenario.schema import walk
from simdist.scenario.tomlread import tomllib

# Values that have broken simdist before, or that sit on a rule's boundary.
EXTREMES: list[Any] = [0, -1, 1, 2**63 - 1, -(2**63), 1e-300, 1e300, -1e300, math.nan, math.inf, -math.inf, 0.0,
                       5e-324, 1.7976931348623157e308, True, False, "", " ", "0", "1e-300GB/s", "1e300s",
                       "5ms", "\uff15ms", "NaNGB/s", "infs", "-5s", "10 min", "1e999GB/s", "9" * 4000 + "GB/s",
                       "x" * 100_000, "\u0000", "\ud7ff\ue000", "GPU:\uff10", "../..", "/", "a/b", "ring",
                       [], [1], [[1]], {}, {"a": 1}, [1.5, "x", True]]
# Written into the text as is (they are not Python values tomli_w can emit).
RAW_VALUES = ["1979-05-27T07:32:00Z", "1979-05-27", "07:32:00", "0x10", "0o17", "0b101", "1_000", "+inf", "-nan",
              "9" * 30, "-" + "9" * 25, "'''multi\nline'''", '"""a\nb"""', "'lit\\eral'", "1e400", "[" * 40 + "]" * 40,
              "{a = {b = {c = {d = 1}}}}", "[" * 700 + "]" * 700]


def leaves(doc: Any, prefix: str = "") -> Iterator[tuple[str, Any]]:
    """(key path, value) of every value of a parsed document, containers included."""
    if isinstance(doc, dict):
        for k, v in doc.items():
            p = f"{prefix}.{k}" if prefix else str(k)
            yield p, v
            yield from leaves(v, p)
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            p = f"{prefix}[{i}]"
            yield p, v
            yield from leaves(v, p)


def schema_paths() -> list[str]:
    """Every key path of the schema, arrays of tables at index 0."""
    return [p.replace("[]", "[0]") for p, _ in walk()]


def _split(path: str) -> list[Any]:
    out: list[Any] = []
    for part in path.split("."):
        while "[" in part:
            head, _, rest = part.partition("[")
            if head:
                out.append(head)
            idx, _, part = rest.partition("]")
            out.append(int(idx))
        if part:
            out.append(part)
    return out


def set_path(doc: dict, path: str, value: Any, delete: bool = False) -> dict:
    """A copy of ``doc`` with ``path`` set (missing tables created) or deleted."""
    doc = copy.deepcopy(doc)
    keys = _split(path)
    cur: Any = doc
    for i, k in enumerate(keys[:-1]):
        if isinstance(cur, dict) and not isinstance(k, int):
            nxt = cur.get(k)
            if not isinstance(nxt, (dict, list)):
                nxt = cur[k] = [{}] if isinstance(keys[i + 1], int) else {}
            cur = nxt
        elif isinstance(cur, list) and isinstance(k, int) and k < len(cur):
            cur = cur[k]
        else:
            return doc
    last = keys[-1]
    if isinstance(cur, dict):
        if delete:
            cur.pop(last, None)
        else:
            cur[last] = value
    elif isinstance(cur, list) and isinstance(last, int) and last < len(cur):
        if delete:
            del cur[last]
        else:
            cur[last] = value
    return doc


def emit(doc: dict, raw: tuple[str, str] | None = None) -> str:
    """TOML text of ``doc``; ``raw`` = (key path, text) writes that value verbatim (a value tomli_w cannot
    emit: datetimes, hex, a huge integer, deep nesting)."""
    if raw is None:
        return tomli_w.dumps(_clean(doc))
    path, text = raw
    marker = "__raw_marker__"
    body = tomli_w.dumps(_clean(set_path(doc, path, marker)))
    return body.replace(f'"{marker}"', text, 1)


def _clean(v: Any) -> Any:
    """Drop None values (TOML has no null; set_path never makes them, but be safe)."""
    if isinstance(v, dict):
        return {k: _clean(x) for k, x in v.items() if x is not None}
    if isinstance(v, list):
        return [_clean(x) for x in v if x is not None]
    return v


def parse(text: str) -> dict:
    return tomllib.loads(text)
