"""How the forty-eighth session's path modules (test_ops_paths48.py, test_feature_space_paths48.py) compare a call's
outcome with the answer TF 2.21 gave to the same probe call: the value normalized as the probes recorded it, or the
error class and a fragment of its message."""

from __future__ import annotations

import math

import numpy as np


def norm(x):
    """A result as the probes recorded it: [dtype, shape, values] (floats rounded to 6 decimals), a KerasTensor's
    ["KT", shape, dtype, sparse], nested lists/dicts of those, Python scalars as they are; more than 16 elements:
    [dtype, shape, "sum", s, "abs-sum", a] of the rounded values."""
    if isinstance(x, (list, tuple)):
        return [norm(v) for v in x]
    if isinstance(x, dict):
        return {k: norm(v) for k, v in sorted(x.items())}
    if type(x).__name__ == "KerasTensor":
        return ["KT", list(x.shape), str(x.dtype), bool(getattr(x, "sparse", False))]
    if x is None or isinstance(x, (bool, int, float, str)):
        return x
    if isinstance(x, np.dtype):
        return str(x)
    try:
        a = np.asarray(x)
    except Exception:  # noqa: BLE001 - an unconvertible result is recorded by its type
        return ["unconvertible", type(x).__name__]
    if a.dtype == object:
        return ["obj", repr(a.tolist())[:200]]
    v = a.tolist()
    if a.dtype.kind == "f":
        v = np.round(a.astype(np.float64), 6).tolist()
    elif a.dtype.kind == "c":
        v = [str(c) for c in a.ravel().tolist()]
    n = int(np.prod(a.shape)) if a.shape else 1
    if n > 16 and a.dtype.kind in "fiu":
        r = np.asarray(v, dtype="float64")
        return [str(a.dtype), list(a.shape), "sum", round(float(r.sum()), 4), "abs-sum",
                round(float(np.abs(r).sum()), 4)]
    return [str(a.dtype), list(a.shape), v]


def same(got, want):
    """Equal, floats within a relative 1e-5 or 1e-6 absolute (the last bits of transcendental and convolution
    kernels differ between CPUs), NaN equal to NaN."""
    if isinstance(want, float) and isinstance(got, (int, float)) and not isinstance(got, bool):
        if math.isnan(want):
            return math.isnan(got)
        return math.isclose(got, want, rel_tol=1e-5, abs_tol=1e-6)
    if isinstance(want, list) and isinstance(got, list):
        return len(got) == len(want) and all(same(g, w) for g, w in zip(got, want))
    if isinstance(want, dict) and isinstance(got, dict):
        return sorted(got) == sorted(want) and all(same(got[k], want[k]) for k in want)
    return got == want


def run_table(cases, table, what):
    """Each case's outcome against TF 2.21's (``table``): the value, or the error class and its message fragment."""
    assert sorted(cases) == sorted(table), \
        f"{what}: the cases and the recorded answers differ: {sorted(set(cases) ^ set(table))}"
    wrong = []
    for name in sorted(cases):
        want_cls, want = table[name]
        try:
            got_cls, got = "ok", norm(cases[name]())
        except Exception as e:  # noqa: BLE001 - the class is the observation
            got_cls, got = type(e).__name__, str(e)
        if got_cls != want_cls:
            wrong.append(f"{name}: expected {want_cls} {str(want)[:200]}, got {got_cls}: {str(got)[:200]}")
        elif want_cls == "ok" and not same(got, want):
            wrong.append(f"{name}: expected {str(want)[:300]}, got {str(got)[:300]}")
        elif want_cls != "ok" and want is not None and want not in got:
            wrong.append(f"{name}: expected {want_cls} with {want!r}, got {got[:300]!r}")
    assert not wrong, f"{len(wrong)} of {len(cases)} {what} calls differ from TF 2.21:\n" + "\n".join(wrong)
