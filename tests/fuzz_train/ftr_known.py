"""Disagreement classes of the training fuzzer still open: counted by the campaign and the tests, not failed.

A key names a class; its entry is (the configuration levels every program of the class has, a text fragment
the first disagreement line contains, the reason): what TF 2.21 does, what simdist does and why the class is
left open. A program matches when its configuration has all the levels and some disagreement line contains
the fragment."""

from __future__ import annotations

from typing import Any

KNOWN_OPEN: dict[str, tuple[dict[str, str], str, str]] = {
}


def known_key(case: Any, problems: list[str]) -> str | None:
    for key, (levels, fragment, _why) in KNOWN_OPEN.items():
        if all(case.config.get(f) == v for f, v in levels.items()) and any(fragment in p for p in problems):
            return key
    return None
