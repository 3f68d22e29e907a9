"""The degeneracy audit of the API around training (degen22c, session 22): every call of an audited API
in the conformance suite's modules and case tables (simdist/conformance/suite/*.py, the degen22c modules
left out unless --with-new), each classified as sitting on the degenerate point where a plausible wrong
rule agrees with TF's, or off it. A call is found by its name and its argument text up to the matching
parenthesis (Python source, and code held in case-table strings alike); its arguments are read with
`ast` where they parse, else by keyword regexes.

    python benchmarks/degen22c_audit.py [--with-new]

Prints one row per API: calls, calls on the degenerate point, calls off it, and the point.
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path
from typing import Callable

SUITE = Path(__file__).resolve().parents[1] / "simdist" / "conformance" / "suite"


def _calls(text: str, name: str) -> list[str]:
    """The argument text of every `name(` call in `text` (up to its matching parenthesis)."""
    out = []
    for m in re.finditer(r"(?<![A-Za-z0-9_])" + re.escape(name) + r"\(", text):
        depth, i = 1, m.end()
        while i < len(text) and depth:
            depth += {"(": 1, ")": -1}.get(text[i], 0)
            i += 1
        out.append(text[m.end():i - 1])
    return out


def _args(arg_text: str) -> tuple[list[str], dict[str, str]]:
    """Positional and keyword argument texts (ast when it parses, else keyword regexes only)."""
    try:
        call = ast.parse(f"f({arg_text})", mode="eval").body
        assert isinstance(call, ast.Call)
        return [ast.unparse(a) for a in call.args], {k.arg: ast.unparse(k.value) for k in call.keywords if k.arg}
    except (SyntaxError, AssertionError):
        return [], dict(re.findall(r"(\w+)\s*=\s*([^,)]+)", arg_text))


def _window(a: str) -> bool:
    pos, kw = _args(a)
    size = pos[0] if pos else kw.get("size")
    shift = pos[1] if len(pos) > 1 else kw.get("shift")
    return shift is None or shift == size


def _interleave(a: str) -> bool:
    pos, kw = _args(a)
    block = pos[2] if len(pos) > 2 else kw.get("block_length")
    return block in (None, "1")


def _timeseries(a: str) -> bool:
    pos, kw = _args(a)
    stride = pos[3] if len(pos) > 3 else kw.get("sequence_stride", "1")
    rate = pos[4] if len(pos) > 4 else kw.get("sampling_rate", "1")
    return stride == rate or "1" in (stride, rate)


def _pad_sequences(a: str) -> bool:
    _, kw = _args(a)
    return kw.get("padding", "'pre'").replace('"', "'") == kw.get("truncating", "'pre'").replace('"', "'")


def _early_stopping(a: str) -> bool:
    _, kw = _args(a)
    return kw.get("baseline") in (None, "None") or kw.get("min_delta") in (None, "0", "0.0")


def _reduce_lr(a: str) -> bool:
    _, kw = _args(a)
    return kw.get("cooldown") in (None, "0")


def _category_count(a: str) -> bool:
    _, kw = _args(a)
    return "count" not in kw.get("output_mode", "")


def _lookup_oov(a: str) -> bool:
    _, kw = _args(a)
    n = kw.get("num_oov_indices", "1")
    return n in ("0", "1") or kw.get("mask_token") in (None, "None")


def _fan_initializer(a: str) -> bool:
    """Only the construction is visible statically: a fan-mode initializer built with mode fan_avg is
    on the point (Glorot); the kernel's shape is read by hand (see the audit table)."""
    _, kw = _args(a)
    return kw.get("mode", "'fan_in'").strip("'\"") == "fan_avg"


def _always(a: str) -> bool:
    return True


#: (API, the name searched, the test "on the degenerate point", the point in words)
AUDIT: list[tuple[str, str, Callable[[str], bool], str]] = [
    ("Dataset.window", ".window", _window, "shift omitted or equal to size"),
    ("Dataset.interleave", ".interleave", _interleave, "block_length 1 (no block can be cut short)"),
    ("timeseries_dataset_from_array", "timeseries_dataset_from_array", _timeseries,
     "sequence_stride == sampling_rate, or one of them 1"),
    ("pad_sequences", "pad_sequences", _pad_sequences, "padding == truncating"),
    ("EarlyStopping", "EarlyStopping", _early_stopping, "no baseline, or min_delta 0"),
    ("ReduceLROnPlateau", "ReduceLROnPlateau", _reduce_lr, "cooldown 0"),
    ("CategoryEncoding", "CategoryEncoding", _category_count, "output_mode not 'count'"),
    ("IntegerLookup", "IntegerLookup", _lookup_oov, "num_oov_indices <= 1 or no mask token"),
    ("StringLookup", "StringLookup", _lookup_oov, "num_oov_indices <= 1 or no mask token"),
    ("VarianceScaling", "VarianceScaling", _fan_initializer, "mode fan_avg"),
    ("Discretization", "Discretization", _always, "(inputs read by hand: values between boundaries)"),
    ("to_categorical", "to_categorical", _always, "(inputs read by hand: several labels)"),
]


def main(with_new: bool = False) -> None:
    files = sorted(p for p in SUITE.glob("*.py") if with_new or "degen22c" not in p.name)
    texts = {p.name: p.read_text(encoding="utf-8") for p in files}
    print(f"{'API':32} {'calls':>5} {'on':>4} {'off':>4}  degenerate point; files")
    for api, name, on_point, point in AUDIT:
        calls = [(f, a) for f, t in texts.items() for a in _calls(t, name)]
        on = [f for f, a in calls if on_point(a)]
        off = sorted({f for f, a in calls if not on_point(a)})
        print(f"{api:32} {len(calls):5} {len(on):4} {len(calls) - len(on):4}  {point}; off in: "
              f"{', '.join(off) if off else '-'}")


if __name__ == "__main__":
    main("--with-new" in sys.argv)
