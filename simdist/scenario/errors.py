"""Scenario errors: every problem found in a scenario file (or its overrides), each with where
(file, line, key path) and what (the message states the rule)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

__all__ = ["Issue", "ScenarioError", "printable"]


@dataclass(frozen=True)
class Issue:
    """One problem: where (file, line, key path) and what (the message states the rule)."""

    file: str
    path: str
    message: str
    line: int | None = None
    origin: str | None = None   # "--param ..." when the value came from the command line

    def __str__(self) -> str:
        where = self.file + (f":{self.line}" if self.line else "")
        if self.origin:
            where += f" ({self.origin})"
        text = f"{where}: {self.path}: {self.message}" if self.path else f"{where}: {self.message}"
        return printable(text)


def printable(text: str) -> str:
    """``text`` with control and other unprintable characters escaped (``\\x1e``), so that a
    problem is always one line and a key typed with stray bytes shows what it holds."""
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else ch.encode("unicode_escape").decode("ascii") for ch in text)


class ScenarioError(ValueError):
    """A scenario file (or its overrides) is invalid; ``issues`` lists every problem found."""

    def __init__(self, issues: Sequence[Issue]) -> None:
        self.issues = list(issues)
        super().__init__(self._text())

    def _text(self) -> str:
        if len(self.issues) == 1:
            return str(self.issues[0])
        files = sorted({i.file for i in self.issues})
        head = f"{', '.join(files)}: {len(self.issues)} problems"
        return head + "".join(f"\n  {i}" for i in self.issues)
