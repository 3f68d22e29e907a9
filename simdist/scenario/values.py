"""Scalar values of a scenario: FLOP counts and unit strings (via `simdist.sim.units`), and how
values and their types are named in messages."""

from __future__ import annotations

import json
import math
import re
from typing import Any


_FLOPS_RE = re.compile(r"^\s*([0-9]*\.?[0-9]+(?:[eE][+-]?[0-9]+)?)\s*([kKMGTPE]?)(FLOPs?|flops?|FLOP/s|FLOPS|flop/s)?"
                       r"\s*$")
_PREFIX = {"": 1.0, "k": 1e3, "K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12, "P": 1e15, "E": 1e18}


def _parse_flops(value: Any, field: str) -> float:
    if isinstance(value, bool):
        raise ValueError(f"{value!r} is not a FLOP count")
    if isinstance(value, (int, float)):
        v = float(value)
    elif isinstance(value, str):
        if len(value) > 64:
            raise ValueError(f"a string of {len(value)} characters is not a FLOP count (at most 64); expected a "
                             "number or a string like '2GFLOP'")
        m = _FLOPS_RE.match(value)
        if m is None or (m.group(2) and not m.group(3)):
            raise ValueError(f"{_show(value)} is not a FLOP count; expected a number or a string like '2GFLOP', "
                             "'1.5TFLOPs', '312TFLOPS'")
        v = float(m.group(1)) * _PREFIX[m.group(2)]
    else:
        raise ValueError(f"{value!r} is not a FLOP count")
    if math.isnan(v) or math.isinf(v) or v < 0:
        raise ValueError(f"{_show(value)} is not a FLOP count; expected a finite number >= 0")
    return v


def _unit_parser(kind: str) -> Any:
    from simdist.sim import units  # units.py is stdlib-only and cheap; imported lazily anyway
    return {"time": units.parse_time, "bandwidth": units.parse_bandwidth, "bytes": units.parse_bytes}[kind]


def _strip_field_prefix(msg: str, path: str) -> str:
    return msg[len(path) + 2:] if msg.startswith(path + ": ") else msg


_TYPE_NAMES = {"int": "an integer", "float": "a number", "bool": "true or false", "str": "a string",
               "list": "an array", "map": "a table", "table": "a table", "tables": "an array of tables",
               "time": "a duration (a number of seconds or a string like \"50us\")",
               "bandwidth": "a bandwidth (bytes/s or a string like \"25Gbps\")",
               "bytes": "a size (bytes or a string like \"16GiB\")",
               "flops": "a FLOP count (a number or a string like \"2GFLOP\")"}


def _tname(v: Any) -> str:
    if isinstance(v, bool):
        return "a boolean"
    if isinstance(v, int):
        return "an integer"
    if isinstance(v, float):
        return "a float"
    if isinstance(v, str):
        return "a string"
    if isinstance(v, list):
        return "an array"
    if isinstance(v, dict):
        return "a table"
    return type(v).__name__


def _show(v: Any) -> str:
    s = json.dumps(v, ensure_ascii=False, default=str) if isinstance(v, (str, list, dict, bool)) or v is None \
        else str(v)
    return s if len(s) <= 60 else s[:57] + "..."
