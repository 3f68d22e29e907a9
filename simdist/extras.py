"""The optional extras of the base install: whether one is installed, and the one line that says
what it would add (every command works without them: docs/cli.md, "Without the extras")."""

from __future__ import annotations

import importlib

__all__ = ["have", "missing_note"]

_EXTRA = {"matplotlib": "plot", "pyarrow": "sweep", "dask": "sweep", "tensorflow": "tf"}


def have(module: str) -> bool:
    """Whether ``module`` can be imported (an extra's package is installed)."""
    try:
        importlib.import_module(module)
    except ImportError:
        return False
    return True


def missing_note(command: str, what: str, module: str) -> str:
    """``simdist COMMAND: WHAT skipped: it needs MODULE (pip install 'simdist[EXTRA]')``."""
    return f"simdist {command}: {what} skipped: it needs {module} (pip install 'simdist[{_EXTRA.get(module, module)}]')"
