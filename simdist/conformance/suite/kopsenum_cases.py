"""keras.ops options (issue 29, kopsenum): every function of kops23's table, its first case as the base call, with each
option of its signature that the call leaves at its default set, one at a time, to the values that pick another
branch: a bool negated, a string to each value the function's docstring names for that argument
(kenum_cases.documented_values' rule: the words quoted in its entry of the Args section).

A planted bug in a keras.ops function often sits in the branch of one option: `padding="same"` of a transposed
convolution's output spec, `full_matrices` of an SVD's spec, the window of an STFT, `mode="reflect"` of a pad,
`interpolation="bicubic"` of an image resize. kops23's hand-written cases name some options; these come from the
reference's own signatures and docstrings (kopsenum_record writes the plan on TF 2.21), so nothing about the backend
under test chooses what is tried. Each variant is observed as kops23 observes (kops23_cases.observe: eagerly, and on
KerasTensors where the base case is symbolic; values, dtypes and shapes, or the error class). Nothing here imports
TensorFlow.
"""

from __future__ import annotations

import inspect
from typing import Any

from simdist.conformance.suite import kenum_cases, kops23_cases

#: Options never varied: labels and dtype arguments (the dtype tables are kops23's own cases).
SKIP = ("name", "dtype")
#: Functions left out, with why.
SKIP_FUNCTIONS = {
    "image.ssim": "its values near 0 (SSIM of unrelated images) carry the host's float32 depthwise-convolution order "
                  "(oneDNN's on the recording host, 3e-5 relative); kops23's base case was recorded on a host without",
}


def bases() -> dict[str, kops23_cases.Case]:
    """Each function's first case in kops23's table, by function."""
    out: dict[str, kops23_cases.Case] = {}
    for case in kops23_cases.CASES:
        if case.fn not in SKIP_FUNCTIONS:
            out.setdefault(case.fn, case)
    return out


def option_values(fn: Any, case: kops23_cases.Case) -> list[tuple[str, Any]]:
    """(option, value) of each variant of `fn` called as `case`: the options `case` leaves at their defaults, a bool
    negated, a string (or None) to each other value the docstring's entry names."""
    try:
        params = list(inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):
        return []
    doc = inspect.getdoc(fn) or ""
    given = {p.name for p in params[:len(case.args)]} | {k for k, _ in case.kwargs}
    names = {p.name for p in params}
    out: list[tuple[str, Any]] = []
    for p in params:
        if p.name in given or p.name in SKIP or p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) \
                or p.default is inspect.Parameter.empty:
            continue
        if isinstance(p.default, bool):
            out.append((p.name, not p.default))
        elif isinstance(p.default, str) or p.default is None:
            words = [w for w in dict.fromkeys(kenum_cases._QUOTED.findall(kenum_cases.arg_entry(doc, p.name)))
                     if w != p.default and w not in names and w not in kenum_cases.NOT_VALUES]
            if isinstance(p.default, str) or len(words) >= 2:
                out += [(p.name, w) for w in words]
    return out


def variant(entry: dict[str, Any]) -> kops23_cases.Case:
    """The kops23 case a planned entry ({"base": kops23 key, "option", "value"}) stands for."""
    base = {kops23_cases.key(c): c for c in bases().values()}[entry["base"]]
    return base._replace(label=f"{base.label}|{entry['option']}={entry['value']!r}",
                         kwargs=tuple(base.kwargs) + ((entry["option"], entry["value"]),))
