"""Compiled (mypyc) builds of the simulator's hot modules, and the guard against stale ones.

setup.py compiles `COMPILED` with mypyc when it can (mypy installed at build time, a working C
compiler): each becomes an extension module beside its .py source, which Python then imports
instead of the source. The .py files stay the source of truth: a build records each one's
SHA-256 in ``_native.json``, and this module (imported by ``simdist.sim`` before any of them)
checks the sources still match. If one was edited since the build (an editable install's .so
would otherwise shadow the edit), or ``SIMDIST_PURE_PYTHON=1`` is set, every module of the group
is imported from its .py source instead (one group: the compiled modules call each other
directly, so they are used all together or not at all), with a warning for a stale build.
Results are identical either way (tests/sim/test_native.py); only the speed differs.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import json
import os
import sys
import warnings
from typing import Any

__all__ = ["COMPILED", "MANIFEST", "state", "check"]

PACKAGE = "simdist.sim"
# The modules setup.py compiles, in this package (names without .py; setup.py's list must equal
# this one: tests/sim/test_native.py).
COMPILED = ("clock", "sharing", "flows", "batches", "pools", "network", "chunked", "metrics", "kernels", "trace")
MANIFEST = "_native.json"
GROUP_RUNTIME = "simdist_sim__mypyc"   # the shared module mypyc builds for the group (setup.py's group name)
_HERE = os.path.dirname(os.path.abspath(__file__))
_state: dict[str, Any] = {}


def _extension(name: str) -> str | None:
    """The path of module ``name``'s extension file in this package, if there is one."""
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        p = os.path.join(_HERE, name + suffix)
        if os.path.exists(p):
            return p
    return None


def _sha256(path: str) -> str:
    with open(path, "rb") as fh:
        return hashlib.sha256(fh.read()).hexdigest()


class _SourceFinder:
    """Imports the listed modules from their .py sources, whatever extension files sit beside them."""

    def __init__(self, names: set[str]) -> None:
        self.names = names

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> Any:
        if fullname not in self.names:
            return None
        src = os.path.join(_HERE, fullname.rsplit(".", 1)[1] + ".py")
        return importlib.util.spec_from_file_location(fullname, src)


def check() -> dict[str, Any]:
    """Decide once, before any compiled module is imported, whether the compiled build is used:
    returns `state`'s dict (``compiled``: used or not; ``reason``)."""
    if _state:
        return _state
    found = {name: _extension(name) for name in COMPILED}
    if not any(found.values()):
        _state.update(compiled=False, reason="no compiled build")
        return _state
    reason = ""
    if os.environ.get("SIMDIST_PURE_PYTHON", "") not in ("", "0"):
        reason = "SIMDIST_PURE_PYTHON is set"
    else:
        try:
            with open(os.path.join(_HERE, MANIFEST), encoding="utf-8") as fh:
                built = json.load(fh)
        except (OSError, ValueError):
            built = {}
        stale = [name for name in COMPILED
                 if found[name] is None or built.get(name) != _sha256(os.path.join(_HERE, name + ".py"))]
        if not stale and importlib.util.find_spec(GROUP_RUNTIME) is None:
            # the extensions were built for another environment sharing this source tree (a second
            # editable install, a venv): their shared runtime module is not importable here
            reason = (f"the compiled build's runtime module {GROUP_RUNTIME} is not importable in this environment "
                      "(built by another installation of this source tree)")
            warnings.warn(f"simdist.sim: {reason}; using the pure-Python sources. Rebuild with "
                          f"`pip install -e .` in this environment.", RuntimeWarning, stacklevel=3)
        elif stale:
            reason = (f"compiled modules out of date with their sources ({', '.join(stale)} changed since the "
                      f"build, or the build is incomplete)")
            warnings.warn(f"simdist.sim: {reason}; using the pure-Python sources. Rebuild with "
                          f"`pip install -e .` (or remove the .so files).", RuntimeWarning, stacklevel=3)
    if reason:
        already = [n for n in COMPILED if f"{PACKAGE}.{n}" in sys.modules]
        if already:   # (only if something imported them before simdist.sim: not the normal order)
            raise ImportError(f"simdist.sim: {', '.join(already)} already imported compiled; cannot fall back "
                              f"to the sources ({reason})")
        sys.meta_path.insert(0, _SourceFinder({f"{PACKAGE}.{n}" for n in COMPILED}))
        _state.update(compiled=False, reason=reason)
    else:
        _state.update(compiled=True, reason="compiled build up to date")
    return _state


def state() -> dict[str, Any]:
    """Whether the compiled build is in use, and why (for benchmarks and bug reports)."""
    return dict(check())

