"""When a fused replay may run: the mirrored copies the lanes read as one are equal."""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import variables


class Guard:
    """Whether the fused replay may run now: the mirrored copies read as one are equal, and no
    observer, transaction or fault would see the reads the fusion leaves out."""

    __slots__ = ("groups", "keeps", "seen", "all_vars")

    def __init__(self, groups: list[tuple[Any, ...]], keeps: list[bool]) -> None:
        self.groups = groups
        self.keeps = keeps        # per group: the replay's writes keep the copies equal
        self.seen: list[Any] = [None] * len(groups)   # versions after the last fused replay
        self.all_vars = [v for g in groups for v in g]

    def ok(self) -> bool:
        if variables.observers or variables.transactions():
            return False
        for v in self.all_vars:
            if v._fault is not None:
                return False
        for g, grp in enumerate(self.groups):
            if tuple([v._version for v in grp]) != self.seen[g]:
                a = grp[0]._value
                for v in grp[1:]:
                    b = v._value
                    if b is not a and not np.array_equal(a, b):
                        return False
        return True

    def done(self) -> None:
        """After a fused replay: the copies are known equal at these versions."""
        for g, grp in enumerate(self.groups):
            self.seen[g] = tuple([v._version for v in grp]) if self.keeps[g] else None
