"""A sweep's OPEN cases: simdist's answer is not TF 2.21's yet, so the comparison leaves them out by key.

Each sweep lists its OPEN cases beside their analysis in its *_cases.py (program name -> whole case keys; keys may
hold '/', unlike kpaths54_cases.without_open's `case/field` keys) and in docs/conformance.md; a case leaves the list
when a fix makes it agree, so the list is the sweep's record of what is not modelled.
"""

from __future__ import annotations

import json
from typing import Any, Callable, Mapping

from simdist.conformance.suite.recorded_programs import RecordedPrograms

Program = Callable[[Any, Any], Any]


def without_open_keys(name: str, out: dict[str, Any], open_cases: Mapping[str, tuple[str, ...]]) -> dict[str, Any]:
    """Program `name`'s result without its OPEN case keys (whole keys)."""
    for key in open_cases.get(name, ()):
        out.pop(key, None)
    return out


def registrar(ref: RecordedPrograms, open_cases: Mapping[str, tuple[str, ...]]) -> Callable[[str, Program], None]:
    """A `program(name, fn)` that registers fn in `ref`, its result as JSON values without the OPEN cases."""
    def program(name: str, fn: Program) -> None:
        ref.add(name, lambda tf, mk: without_open_keys(name, json.loads(json.dumps(fn(tf, mk))), open_cases))
    return program
