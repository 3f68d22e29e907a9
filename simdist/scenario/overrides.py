"""Command-line overrides (``--param key.path=value``), swept value lists and seed ranges."""

from __future__ import annotations

import re
from typing import Any, Sequence

from .tomlread import MAX_DEPTH, tomllib

__all__ = ["parse_value", "split_values", "parse_override", "apply_override", "parse_seeds", "seed_ranges"]


def parse_value(text: str) -> Any:
    """A command-line value as TOML (``10``, ``1.5``, ``true``, ``[1, 2]``, ``"x"``); anything that is not
    valid TOML is taken as a bare string (``10s``, ``ring``)."""
    t = text.strip()
    try:
        return tomllib.loads(f"v = {t}")["v"]
    except tomllib.TOMLDecodeError:
        return t
    except RecursionError:
        raise ValueError(f"{_clip(t)}: arrays or inline tables nest too deeply (rule: values nest at most "
                         f"{MAX_DEPTH} levels)") from None
    except ValueError:   # more digits than Python converts
        raise ValueError(f"{_clip(t)}: an integer of thousands of digits (rule: TOML 1.0 integers are "
                         "64-bit)") from None


def _clip(text: str, n: int = 40) -> str:
    return text if len(text) <= n else text[: n - 3] + "..."


def split_values(text: str) -> list[str]:
    """Split ``v1,v2,[1,2],"a,b"`` on top-level commas."""
    out, depth, quote, cur = [], 0, None, []
    for ch in text:
        if quote:
            cur.append(ch)
            if ch == quote:
                quote = None
            continue
        if ch in "\"'":
            quote = ch
        elif ch in "[{":
            depth += 1
        elif ch in "]}":
            depth -= 1
        elif ch == "," and depth == 0:
            out.append("".join(cur).strip())
            cur = []
            continue
        cur.append(ch)
    out.append("".join(cur).strip())
    return [v for v in out if v != ""]


def parse_override(spec: str, many: bool = False) -> tuple[str, Any]:
    """``key.path=value`` -> (path, value); with ``many`` the value is a list of comma-separated values."""
    if "=" not in spec:
        raise ValueError(f"--param {spec!r}: expected key.path=value")
    path, _, text = spec.partition("=")
    path = path.strip()
    if not re.match(r"^[A-Za-z0-9_-]+(\[[0-9]+\])?(\.[A-Za-z0-9_-]+(\[[0-9]+\])?)*$", path):
        raise ValueError(f"--param {spec!r}: {path!r} is not a key path like model.global_batch or "
                         "model.variables[0].shape")
    if many:
        try:
            vals = [parse_value(v) for v in split_values(text)]
        except ValueError as e:
            raise ValueError(f"--param {path}: {e}") from None
        if not vals:
            raise ValueError(f"--param {spec!r}: no values after '='")
        return path, vals
    try:
        return path, parse_value(text)
    except ValueError as e:
        raise ValueError(f"--param {path}: {e}") from None


def apply_override(doc: dict, path: str, value: Any) -> None:
    """Set ``path`` (``a.b[1].c``) in a parsed TOML document, creating missing tables."""
    parts = path.split(".")
    cur: Any = doc
    for i, part in enumerate(parts):
        m = re.match(r"^([^\[]+)(?:\[([0-9]+)\])?$", part)
        if m is None:
            raise ValueError(f"{path!r} is not a key path like model.global_batch or model.variables[0].shape")
        key, idx = m.group(1), m.group(2)
        last = i == len(parts) - 1
        if not isinstance(cur, dict):
            raise ValueError(f"--param {path}: {'.'.join(parts[:i])} is not a table")
        if idx is not None:
            arr = cur.get(key)
            if not isinstance(arr, list) or int(idx) >= len(arr):
                n = len(arr) if isinstance(arr, list) else 0
                raise ValueError(f"--param {path}: {key} has {n} entries, no [{idx}]")
            if last:
                arr[int(idx)] = value
            else:
                cur = arr[int(idx)]
            continue
        if last:
            cur[key] = value
        else:
            if key not in cur:
                cur[key] = {}
            cur = cur[key]


def parse_seeds(text: str | Sequence[int]) -> list[int]:
    """``"0..999"`` (inclusive), ``"1,5,9"``, ``"0..9,20"`` or a list of ints -> sorted unique seeds."""
    return [s for a, b in seed_ranges(text) for s in range(a, b + 1)]


def seed_ranges(text: str | Sequence[int]) -> list[tuple[int, int]]:
    """The seeds of ``text`` (as `parse_seeds` reads it) as sorted, disjoint, non-adjacent inclusive
    ranges: a sweep over ``0..9999999`` holds one pair, not ten million ints."""
    if isinstance(text, (list, tuple)):
        items = list(text)
        if not all(isinstance(s, int) and not isinstance(s, bool) and s >= 0 for s in items):
            raise ValueError(f"seeds: expected ints >= 0, got {text!r}")
        return _merge([(s, s) for s in items])
    if not isinstance(text, str):
        raise ValueError(f"seeds: expected a string like \"0..99\", got {text!r}")
    ranges: list[tuple[int, int]] = []
    for part in text.split(","):
        part = part.strip()
        m = re.match(r"^([0-9]+)\s*\.\.\s*([0-9]+)$", part)
        if m:
            a, b = int(m.group(1)), int(m.group(2))
            if b < a:
                raise ValueError(f"seeds {text!r}: empty range {part!r} (end < start)")
            if b - a > 10_000_000:
                raise ValueError(f"seeds {text!r}: range {part!r} is too large")
            ranges.append((a, b))
        elif re.match(r"^[0-9]+$", part):
            ranges.append((int(part), int(part)))
        else:
            raise ValueError(f"seeds {text!r}: {part!r} is not N or A..B (inclusive, A <= B)")
    return _merge(ranges)


def _merge(ranges: list[tuple[int, int]]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for a, b in sorted(ranges):
        if out and a <= out[-1][1] + 1:
            out[-1] = (out[-1][0], max(out[-1][1], b))
        else:
            out.append((a, b))
    return out
