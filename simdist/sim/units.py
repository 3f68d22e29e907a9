"""Unit strings -> SI base units, and SI values -> human strings.

Every parser takes the value and a `field` naming where it came from (for error messages),
and returns a plain number in SI base units:

- ``parse_rate("312TFLOPS")``        -> FLOP/s (float)
- ``parse_bandwidth("10Gbps")``      -> bytes/s (float; bits are divided by 8)
- ``parse_time("50us")``             -> seconds (float)
- ``parse_bytes("16GiB")``           -> bytes (int)

Numbers (int/float, not bool) pass through unchanged as SI base units. Negative, NaN and
infinite values are rejected. Decimal prefixes (k, M, G, T, P, E) are powers of 1000, binary
prefixes (Ki, Mi, Gi, Ti, Pi) powers of 1024.
"""

from __future__ import annotations

import math
import re
from decimal import Decimal

__all__ = [
    "parse_rate",
    "parse_bandwidth",
    "parse_time",
    "parse_bytes",
    "format_bytes",
    "format_time",
    "format_rate",
    "format_bandwidth",
]

_NUM = re.compile(r"^\s*([+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?)\s*([^\s0-9.+-][^\s]*)?\s*$")
#: Longer strings are no unit strings (and a million digits would overflow Decimal's exponent).
MAX_UNIT_STRING = 64

# Multipliers are exact Decimals: a unit string is converted with one correctly rounded step,
# so "50us" is exactly the float 5e-05 (not 50 * 1e-06 = 4.9999999999999996e-05).
_DEC = {"": Decimal(1), "k": Decimal(10) ** 3, "K": Decimal(10) ** 3, "M": Decimal(10) ** 6,
        "G": Decimal(10) ** 9, "T": Decimal(10) ** 12, "P": Decimal(10) ** 15, "E": Decimal(10) ** 18}
_BIN = {"Ki": Decimal(2**10), "Mi": Decimal(2**20), "Gi": Decimal(2**30), "Ti": Decimal(2**40),
        "Pi": Decimal(2**50), "Ei": Decimal(2**60)}
_EIGHTH = Decimal("0.125")

_RATE_UNITS: dict[str, Decimal] = {}
for _p, _m in _DEC.items():
    for _u in ("FLOPS", "FLOP/s", "FLOPs", "flops", "flop/s"):
        _RATE_UNITS[_p + _u] = _m

_BW_UNITS: dict[str, Decimal] = {}
for _p, _m in _DEC.items():
    _BW_UNITS[_p + "bps"] = _m * _EIGHTH
    _BW_UNITS[_p + "b/s"] = _m * _EIGHTH
    _BW_UNITS[_p + "B/s"] = _m
    _BW_UNITS[_p + "Bps"] = _m
for _p, _m in _BIN.items():
    _BW_UNITS[_p + "B/s"] = _m
    _BW_UNITS[_p + "Bps"] = _m
    _BW_UNITS[_p + "b/s"] = _m * _EIGHTH
    _BW_UNITS[_p + "bps"] = _m * _EIGHTH

_TIME_UNITS = {"ns": Decimal("1e-9"), "us": Decimal("1e-6"), "\u00b5s": Decimal("1e-6"),
               "\u03bcs": Decimal("1e-6"), "ms": Decimal("1e-3"), "s": Decimal(1), "sec": Decimal(1),
               "min": Decimal(60), "h": Decimal(3600)}

_BYTE_UNITS: dict[str, Decimal] = {"B": Decimal(1), "": Decimal(1)}
for _p, _m in _DEC.items():
    if _p:
        _BYTE_UNITS[_p + "B"] = _m
for _p, _m in _BIN.items():
    _BYTE_UNITS[_p + "B"] = _m


def _fail(value: object, field: str | None, what: str, examples: str) -> ValueError:
    prefix = f"{field}: " if field else ""
    return ValueError(f"{prefix}{value!r} is not {what}; expected a number with a unit like {examples}")


def _number(value: object, field: str | None, what: str, examples: str) -> float | None:
    """A plain number passed through (validated), or None if `value` is a string to parse."""
    if isinstance(value, bool):
        raise _fail(value, field, what, examples)
    if isinstance(value, (int, float)):
        v = float(value)
        if math.isnan(v) or math.isinf(v) or v < 0:
            prefix = f"{field}: " if field else ""
            raise ValueError(f"{prefix}{value!r} is not {what}; expected a finite, non-negative number")
        return v
    if not isinstance(value, str):
        raise _fail(value, field, what, examples)
    return None


def _parse(value: object, field: str | None, table: dict[str, Decimal], what: str, examples: str,
           default_unit: bool = True) -> float:
    v = _number(value, field, what, examples)
    if v is not None:
        return v
    if len(value) > MAX_UNIT_STRING:  # type: ignore[arg-type]
        prefix = f"{field}: " if field else ""
        raise ValueError(f"{prefix}a string of {len(value)} characters is not {what} (at most "  # type: ignore
                         f"{MAX_UNIT_STRING}); expected a number with a unit like {examples}")
    m = _NUM.match(value)  # type: ignore[arg-type]
    if m is None:
        raise _fail(value, field, what, examples)
    unit = m.group(2) or ""
    if unit == "" and not default_unit:
        raise _fail(value, field, what, examples)
    mult = table.get(unit)
    if mult is None:
        raise _fail(value, field, what, examples)
    out = float(Decimal(m.group(1)) * mult)
    if out < 0 or math.isinf(out):
        prefix = f"{field}: " if field else ""
        raise ValueError(f"{prefix}{value!r} is not {what}; expected a finite, non-negative amount")
    return out


def parse_rate(value: str | float, field: str | None = None) -> float:
    """Compute rate in FLOP/s: "312TFLOPS", "19.5 TFLOP/s", 1e12."""
    return _parse(value, field, _RATE_UNITS, "a compute rate", "'312TFLOPS', '19.5TFLOP/s'", False)


def parse_bandwidth(value: str | float, field: str | None = None) -> float:
    """Bandwidth in bytes/s: "10Gbps" (bits, /8), "32GB/s", "25GiB/s", 1.25e9."""
    return _parse(value, field, _BW_UNITS, "a bandwidth", "'10Gbps', '32GB/s'", False)


def parse_time(value: str | float, field: str | None = None) -> float:
    """Duration in seconds: "50us", "2ms", "1.5s", "10ns", 5e-5."""
    return _parse(value, field, _TIME_UNITS, "a duration", "'50us', '2ms'", False)


def parse_bytes(value: str | int | float, field: str | None = None) -> int:
    """Size in bytes (int): "16GiB", "512MB", "4KiB", "100B", "100", 1024."""
    v = _parse(value, field, _BYTE_UNITS, "a size", "'16GiB', '512MB'", True)
    r = round(v)
    if abs(v - r) > 1e-6 * max(1.0, abs(v)):
        prefix = f"{field}: " if field else ""
        raise ValueError(f"{prefix}{value!r} is not a whole number of bytes ({v!r} B)")
    return int(r)


def format_bytes(nbytes: float, precision: int = 2, sep: str = " ") -> str:
    """Binary-prefixed size: format_bytes(20 * 2**30) -> "20.00 GiB"."""
    n = float(nbytes)
    for unit, mult in (("TiB", 2.0**40), ("GiB", 2.0**30), ("MiB", 2.0**20), ("KiB", 2.0**10)):
        if abs(n) >= mult:
            return f"{n / mult:.{precision}f}{sep}{unit}"
    if n == int(n):
        return f"{int(n)}{sep}B"
    return f"{n:.{precision}f}{sep}B"


def format_time(seconds: float, precision: int = 3) -> str:
    """Human duration: format_time(5e-5) -> "50.000 us"."""
    s = float(seconds)
    for unit, mult in (("s", 1.0), ("ms", 1e-3), ("us", 1e-6)):
        if abs(s) >= mult:
            return f"{s / mult:.{precision}f} {unit}"
    return f"{s / 1e-9:.{precision}f} ns"


def format_rate(flops_per_s: float) -> str:
    """Human compute rate: format_rate(1.56e14) -> "156.00 TFLOP/s"."""
    r = float(flops_per_s)
    for unit, mult in (("PFLOP/s", 1e15), ("TFLOP/s", 1e12), ("GFLOP/s", 1e9), ("MFLOP/s", 1e6)):
        if abs(r) >= mult:
            return f"{r / mult:.2f} {unit}"
    return f"{r:.2f} FLOP/s"


def format_bandwidth(bytes_per_s: float) -> str:
    """Human bandwidth in bytes/s: format_bandwidth(3.2e10) -> "32.00 GB/s"."""
    r = float(bytes_per_s)
    for unit, mult in (("TB/s", 1e12), ("GB/s", 1e9), ("MB/s", 1e6), ("KB/s", 1e3)):
        if abs(r) >= mult:
            return f"{r / mult:.2f} {unit}"
    return f"{r:.2f} B/s"
