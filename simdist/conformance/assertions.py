"""Assertion helpers whose failure messages say what came back, what was expected, and the
call that produced it, e.g. ``out.shape=(2,), but should be (3,) [gather(axis=0)]``.

``call`` is a short description of the operation under test; ``what`` names the value
(default ``out``). Float comparisons use the tolerance declared for the current test's
clause (:mod:`simdist.conformance.tolerances`).
"""

from __future__ import annotations

import contextlib
import contextvars
import re
import unittest
from typing import Any, Iterator

import numpy as np

from simdist.conformance.tolerances import Tolerance, tolerance_for

#: The clause of the running test (set by the suite's conftest); picks the tolerance.
current_clause: contextvars.ContextVar[str | None] = contextvars.ContextVar("current_clause", default=None)
#: The backend of the running session (set by the suite's conftest); told about expected errors.
current_backend: contextvars.ContextVar[Any] = contextvars.ContextVar("current_backend", default=None)


class ConformanceFailure(AssertionError):
    """A conformance check failed; the message is the whole diagnosis."""


def _fmt(x: Any) -> str:
    if isinstance(x, np.ndarray):
        if x.ndim == 0:
            return repr(x.item())
        body = np.array2string(x, separator=", ", threshold=40)
        return body.replace("\n", "")
    return repr(x)


def _tail(call: str | None) -> str:
    return f" [{call}]" if call else ""


def fail(message: str, call: str | None = None) -> None:
    raise ConformanceFailure(message + _tail(call))


def to_numpy(value: Any) -> np.ndarray:
    backend = current_backend.get()
    if backend is not None:
        return np.asarray(backend.to_numpy(value))
    if hasattr(value, "numpy"):
        value = value.numpy()
    return np.asarray(value)


def assert_shape(got: Any, expected: tuple[int, ...], *, call: str | None = None, what: str = "out") -> None:
    shape = tuple(np.shape(to_numpy(got)) if not isinstance(got, tuple) else got)
    expected = tuple(int(d) for d in expected)
    if shape != expected:
        fail(f"{what}.shape={shape}, but should be {expected}", call)


def assert_dtype(got: Any, expected: Any, *, call: str | None = None, what: str = "out") -> None:
    g = np.dtype(to_numpy(got).dtype)
    e = np.dtype(expected)
    if g != e:
        fail(f"{what}.dtype={g}, but should be {e}", call)


def assert_equal(got: Any, expected: Any, *, call: str | None = None, what: str = "out",
                 check_shape: bool = True) -> None:
    """Exact equality of values (and shapes); works for numbers, arrays, strings, tuples."""
    if isinstance(expected, (str, bytes, type(None), bool)) or isinstance(got, (str, type(None))):
        if got != expected:
            fail(f"{what}={got!r}, but should be {expected!r}", call)
        return
    if isinstance(expected, (list, dict)) and isinstance(got, (list, tuple, dict)):
        g_py = _to_py(got)
        if g_py != _to_py(expected):
            fail(f"{what}={g_py!r}, but should be {_to_py(expected)!r}", call)
        return
    g, e = to_numpy(got), np.asarray(expected)
    if check_shape and g.shape != e.shape:
        fail(f"{what}.shape={g.shape}, but should be {e.shape} ({what}={_fmt(g)}, expected {_fmt(e)})", call)
    if g.shape != e.shape or not np.array_equal(g, e):
        fail(f"{what}={_fmt(g)}, but should be {_fmt(e)}", call)


def assert_same(got: Any, expected: Any, *, call: str | None = None, what: str = "out") -> None:
    """Python equality of nested lists, tuples and dicts of plain values (structures NumPy cannot
    hold as one array: a dataset's ragged elements, (spec, values) pairs)."""
    if got != expected:
        fail(f"{what}={got!r}, but should be {expected!r}", call)


def _to_py(x: Any) -> Any:
    """Nested lists/dicts of plain Python values (tensors and arrays via .tolist())."""
    if isinstance(x, dict):
        return {k: _to_py(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_to_py(v) for v in x]
    if isinstance(x, (str, bytes, type(None))):
        return x
    return to_numpy(x).tolist()


def assert_close(got: Any, expected: Any, *, call: str | None = None, what: str = "out",
                 scale: Any = None, tolerance: Tolerance | None = None) -> None:
    """Float comparison with the current clause's tolerance. ``scale``: magnitude that was
    reduced (e.g. sum of |x|), used instead of |expected| when larger."""
    tol = tolerance or tolerance_for(current_clause.get())
    g = to_numpy(got).astype(np.float64)
    e = np.asarray(expected, dtype=np.float64)
    if g.shape != e.shape:
        fail(f"{what}.shape={g.shape}, but should be {e.shape} ({what}={_fmt(g)}, expected {_fmt(e)})", call)
    mag = np.abs(e) if scale is None else np.maximum(np.abs(e), np.asarray(scale, dtype=np.float64))
    with np.errstate(invalid="ignore", over="ignore"):
        # NaN agrees only with NaN and an infinity only with the same infinity (a difference
        # involving them is NaN or inf, which a bare `>` would let through or mis-report)
        finite = np.isfinite(g) & np.isfinite(e)
        close = (finite & (np.abs(g - e) <= tol.atol + tol.rtol * mag)) | (np.isnan(g) & np.isnan(e)) | \
            (np.isinf(g) & (g == e))
    if not np.all(close):
        err = np.where(np.isnan(g) != np.isnan(e), np.inf, np.abs(g - e))
        fail(f"{what}={_fmt(to_numpy(got))}, but should be {_fmt(np.asarray(expected))} "
             f"(within {tol}; max error {np.nanmax(np.where(close, 0.0, err)):.3g}"
             f"{'; NaN where a number was expected, or a number where NaN was' if np.any(np.isnan(g) != np.isnan(e)) else ''})",
             call)


def assert_true(cond: bool, message: str, *, call: str | None = None) -> None:
    if not cond:
        fail(message, call)


def assert_type_name(got: Any, names: str | tuple[str, ...], *, call: str | None = None, what: str = "out") -> None:
    """The value's class (or one of its bases) is named one of ``names`` (backend-neutral
    check for TF classes like PerReplica, Mirrored, ShardedVariable)."""
    names = (names,) if isinstance(names, str) else names
    mro = [c.__name__ for c in type(got).__mro__]
    if not any(n in mro for n in names):
        fail(f"type({what})={type(got).__name__}, but should be {' or '.join(names)}", call)


def assert_device(got: str, expected: str, *, call: str | None = None, what: str = "out.device") -> None:
    """Device names compared after canonicalisation of case and of the /cpu:N short form."""
    if _canon_device(got) != _canon_device(expected):
        fail(f"{what}={got!r}, but should be {expected!r}", call)


def _canon_device(name: str) -> str:
    name = name or ""
    name = re.sub(r"/(cpu|gpu):(\d+)", lambda m: f"/device:{m.group(1).upper()}:{m.group(2)}", name,
                  flags=re.I)
    return re.sub(r"device:(cpu|gpu)", lambda m: f"device:{m.group(1).upper()}", name, flags=re.I)


def device_matches(got: str, suffix: str) -> bool:
    """``got`` names the device ``suffix`` (e.g. "device:CPU:0"), whatever job/replica/task prefix."""
    return _canon_device(got).endswith(_canon_device(suffix))


@contextlib.contextmanager
def raises(expected: type[BaseException] | tuple[type[BaseException], ...], *, match: str | None = None,
           call: str | None = None) -> Iterator[dict[str, BaseException]]:
    """Like pytest.raises, with a message naming the call, and telling the backend about the
    error (some runtimes need to recover from an expected failure)."""
    expected_t = expected if isinstance(expected, tuple) else (expected,)
    names = " or ".join(t.__name__ for t in expected_t)
    box: dict[str, BaseException] = {}
    try:
        yield box
    except expected_t as e:  # type: ignore[misc]
        box["value"] = e
        _notice(e)
        if match is not None and not re.search(match, str(e), flags=re.S):
            fail(f"raised {type(e).__name__}({_short(e)!r}), but the message should match {match!r}", call)
        return
    except (ConformanceFailure, unittest.SkipTest):
        raise  # a backend's Unsupported is a skip, not a wrong error class
    except Exception as e:  # noqa: BLE001 - the wrong class is the finding (pytest's skip/xfail
        _notice(e)         # outcomes are BaseExceptions, so they pass through untouched)
        fail(f"raised {type(e).__name__}({_short(e)!r}), but should raise {names}", call)
    fail(f"returned normally, but should raise {names}" + (f" matching {match!r}" if match else ""), call)


def _short(e: BaseException, n: int = 300) -> str:
    s = str(e).strip()
    return s if len(s) <= n else s[: n - 3] + "..."


def _notice(e: BaseException) -> None:
    backend = current_backend.get()
    notice = getattr(backend, "notice_error", None)
    if callable(notice):
        notice(e)
