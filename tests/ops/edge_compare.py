"""Comparing one edge case's outcome on simdist with TF 2.21's, for the golden-backed edge modules
(test_op_edges_tf.py, test_fuzz2_edges_tf.py, test_op_gap_tf.py). An outcome is ("ok", [(dtype
name, array), ...]) or ("err", exception class name): the same exception class, or the same
number of outputs with the same dtypes and values (`same_bits` unless the module passes its own
comparison)."""

from __future__ import annotations

from typing import Any, Callable

import numpy as np


def same_bits(a: np.ndarray, b: np.ndarray) -> bool:
    """Equal shapes, dtypes and bits (any NaN matches any NaN; -0.0 differs from 0.0)."""
    if a.shape != b.shape or a.dtype != b.dtype:
        return False
    if a.dtype.kind == "f":
        nan = np.isnan(a) & np.isnan(b)
        width = f"u{a.dtype.itemsize}"
        return bool(np.all(nan | (a.view(width) == b.view(width))))
    return bool(np.array_equal(a, b))


def _first_differences(ga: np.ndarray, wa: np.ndarray) -> str:
    if ga.shape != wa.shape or ga.dtype != wa.dtype or ga.dtype.kind != "f":
        return ""
    width = f"u{ga.dtype.itemsize}"
    bad = ~((np.isnan(ga) & np.isnan(wa)) | (ga.view(width) == wa.view(width)))
    return f"; first differences at {np.argwhere(bad)[:3].tolist()}"


def check_outcome(name: str, want: Any, got: Any,
                  same: Callable[[np.ndarray, np.ndarray], bool] = same_bits) -> None:
    """Assert that simdist's outcome `got` is TF's `want` for the case called `name`."""
    if want[0] == "err":
        assert got == want, f"simdist gives {got[0]} {got[1] if got[0] == 'err' else ''}, but TF 2.21 raises " \
                            f"{want[1]} [{name}]"
        return
    assert got[0] == "ok", f"simdist raises {got[1]}, but TF 2.21 returns {want[1]} [{name}]"
    assert len(got[1]) == len(want[1]), f"{len(got[1])} outputs, but TF 2.21 gives {len(want[1])} [{name}]"
    for j, ((gd, ga), (wd, wa)) in enumerate(zip(got[1], want[1])):
        assert gd == wd, f"out[{j}].dtype={gd}, but TF 2.21 gives {wd} [{name}]"
        assert same(ga, wa), f"out[{j}]={ga.ravel()[:8]} (shape {ga.shape}), but TF 2.21 gives {wa.ravel()[:8]} " \
                             f"(shape {wa.shape}){_first_differences(ga, wa)} [{name}]"
