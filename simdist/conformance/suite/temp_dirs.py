"""A temporary directory for programs that save and restore files (checkpoints, weight files): created on entry,
removed on exit, and paths inside it given relative to it, so what a program records does not hold the run's
random directory name."""

from __future__ import annotations

import os
import shutil
import tempfile
from typing import Any


class TempDir:
    """`with TempDir("prefix") as d`: `d("a", "b")` is a path inside the directory, `d.rel(path)` a path (or a
    list of them, or None) relative to it."""

    def __init__(self, prefix: str = "suite") -> None:
        self.prefix = prefix

    def __enter__(self) -> "TempDir":
        self.path = tempfile.mkdtemp(prefix=f"{self.prefix}_")
        return self

    def __exit__(self, *exc: Any) -> None:
        shutil.rmtree(self.path, ignore_errors=True)

    def __call__(self, *parts: str) -> str:
        return os.path.join(self.path, *parts)

    def rel(self, p: Any) -> Any:
        if p is None:
            return None
        if isinstance(p, (list, tuple)):
            return [self.rel(q) for q in p]
        return os.path.relpath(str(p), self.path)
