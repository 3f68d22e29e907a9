"""The TF 2.21 + Keras 3.15 recording ``test_kops23_*.py`` compare with (gzip'd JSON beside this
module, written by ``python -m simdist.conformance.suite.kops23_record``), and how they compare.

Exact: the kind of result (tensor, NumPy array, Python value, sequence, error), error classes,
dtypes, shapes (a KerasTensor's too), integer and boolean values, Python values. Float values
element-wise within RTOL = 1e-5 of the recorded value plus ATOL_FRAC = 1e-6 of the result's
largest finite recorded magnitude (as harden19_reference: float32 arithmetic in another order or
another host's rsqrt/reciprocal tables moves a value by a few ulps; a wrong axis, default or
formula moves it by far more); NaN only where NaN was recorded, infinities exactly. Nothing here
imports TensorFlow.
"""

from __future__ import annotations

import hashlib
import os
from typing import Any

import numpy as np

from simdist.conformance.suite import kops23_cases, reference_store

PATH = os.path.join(os.path.dirname(__file__), "kops23_reference.json.gz")
RECORD_COMMAND = "nice -n 10 python -m simdist.conformance.suite.kops23_record"
RTOL = 1e-5
ATOL_FRAC = 1e-6


def save(data: dict[str, Any], path: str = PATH) -> None:
    reference_store.save(data, path)


def load(path: str = PATH) -> dict[str, Any]:
    """The recording (cached); raises FileNotFoundError naming the command that writes it."""
    return reference_store.load(path, "kops23", RECORD_COMMAND)


def tables_hash() -> str:
    """The SHA-256 of the case table (a recording made from another table is stale)."""
    return hashlib.sha256(kops23_cases.table_text().encode()).hexdigest()


def _floats(values: Any) -> np.ndarray:
    if isinstance(values, dict):   # complex: {"re", "im"}
        return np.asarray(values["re"], np.float64) + 1j * np.asarray(values["im"], np.float64)
    return np.asarray(values, np.float64)


def _value_differences(got: Any, want: Any, dtype: str, path: str) -> list[str]:
    if not (dtype.startswith(("float", "complex")) or dtype == "bfloat16"):
        return [] if got == want else [f"{path}: values {str(got)[:160]}, but should be {str(want)[:160]}"]
    g, w = _floats(got), _floats(want)
    if g.shape != w.shape:
        return [f"{path}: values of shape {list(g.shape)}, but should be {list(w.shape)}"]
    finite = np.isfinite(w)
    scale = float(np.max(np.abs(w[finite]))) if finite.any() else 0.0
    with np.errstate(invalid="ignore"):
        close = (np.abs(g - w) <= RTOL * np.abs(w) + ATOL_FRAC * scale) & np.isfinite(g) & finite
        bad = ~(close | (g == w) | (np.isnan(g) & np.isnan(w)))
    if not bad.any():
        return []
    i = np.unravel_index(int(np.argmax(bad)), w.shape) if w.ndim else ()
    return [f"{path}: {int(bad.sum())} of {w.size} values differ, e.g. [{','.join(map(str, i))}] {g[i]!r}, "
            f"but should be {w[i]!r}"]


def differences(got: dict[str, Any], want: dict[str, Any], path: str = "") -> list[str]:
    """Where an observation (kops23_cases.encode) differs from the recorded one, as
    `path: got ..., but should be ...`."""
    if got.get("kind") != want.get("kind"):
        return [f"{path}: {_brief(got)}, but should be {_brief(want)}"]
    kind = want["kind"]
    if kind == "error":
        return [] if got["class"] == want["class"] else [f"{path}: raised {got['class']}, but should raise "
                                                         f"{want['class']}"]
    if kind in ("list", "tuple"):
        if len(got["items"]) != len(want["items"]):
            return [f"{path}: {len(got['items'])} items, but should be {len(want['items'])}"]
        return [d for i, (g, w) in enumerate(zip(got["items"], want["items"]))
                for d in differences(g, w, f"{path}[{i}]")]
    if kind in ("tensor", "ndarray", "spec"):
        for field in ("dtype", "shape"):
            if got[field] != want[field]:
                return [f"{path}: {field}={got[field]}, but should be {want[field]}"]
        return [] if kind == "spec" else _value_differences(got["values"], want["values"], want["dtype"], path)
    if kind == "float":
        return _value_differences(got["value"], want["value"], "float64", path)
    return [] if got == want else [f"{path}: {got}, but should be {want}"]


def _brief(obs: dict[str, Any]) -> str:
    kind = obs.get("kind")
    if kind == "error":
        return f"raised {obs['class']}"
    if kind in ("tensor", "ndarray", "spec"):
        return f"a {kind} {obs['dtype']}{obs['shape']}"
    if kind in ("list", "tuple"):
        return f"a {kind} of {len(obs['items'])}"
    return f"{kind} {obs.get('value', obs.get('type'))!r}"


def family_problems(keras: Any, family: str, mode: str, budget: Any = None) -> list[str]:
    """Every case of `family` observed in `mode` ("eager" or "symbolic") on the backend's keras,
    compared with the recording: one line per differing case (`call: got ..., but should be ...`)."""
    recorded = load()["cases"]
    cases = [c for c in kops23_cases.CASES if c.family == family and (mode == "eager" or c.symbolic)]
    if not cases:
        return [f"no kops23 cases of family {family} ({mode})"]
    problems = []
    for case in (budget(cases) if budget else cases):
        k = kops23_cases.key(case)
        want = recorded[k].get(mode)
        if want is None:
            problems.append(f"{kops23_cases.call_text(case)}: not recorded ({mode}): re-run `{RECORD_COMMAND}`")
            continue
        got = kops23_cases.observe(keras, case, (mode,))[mode]
        problems += [f"{kops23_cases.call_text(case)} [{mode}]{d}" for d in differences(got, want)[:1]]
    return problems
