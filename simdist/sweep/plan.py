"""A sweep: one scenario, a grid of parameter values, a list of seeds -> an ordered sequence of runs.

Run order is fixed by the plan (parameter combinations in the order given, then seeds
ascending), never by which executor finishes first. Each run has a stable id, derived from the
scenario's digest, its parameter values and its seed, so a resumed sweep recognises the runs
it already has.

The plan is lazy: run i is computed from i when asked for (its combination is i's mixed-radix
digits over the grid, its seed a position in the seed ranges), and a finished row is mapped back
to its index from its parameter values and seed. Nothing the plan holds grows with the number of
runs, so a sweep of 10^7 runs starts at once and one with --budget stops with what it finished;
there is no cap on a sweep's size (the journal and tables grow only with the runs that finish).
"""

from __future__ import annotations

import hashlib
import bisect
import itertools
import json
import math
from dataclasses import dataclass
from typing import Any, Iterator, Sequence, overload

from simdist.scenario.loader import Scenario, ScenarioError
from simdist.scenario.overrides import seed_ranges

__all__ = ["RunSpec", "SweepPlan", "Seeds", "Runs", "make_plan", "run_id"]


@dataclass(frozen=True)
class RunSpec:
    index: int                              # position in the plan (the table's row order)
    params: tuple[tuple[str, Any], ...]     # (key path, value) in grid order
    seed: int
    run_id: str

    def overrides(self) -> list[tuple[str, Any]]:
        return list(self.params)


@dataclass
class SweepPlan:
    scenario: Scenario
    grid: list[tuple[str, list[Any]]]
    seeds: "Seeds"
    runs: "Runs"

    @property
    def param_names(self) -> list[str]:
        return [p for p, _ in self.grid]

    def payload(self) -> tuple[str, str, list[tuple[str, Any]]]:
        """What a worker needs to rebuild the scenario: source text, file name, base overrides."""
        return (self.scenario.text, self.scenario.file, list(self.scenario.overrides))

    def manifest(self) -> dict[str, Any]:
        return {"scenario": self.scenario.name, "scenario_digest": self.scenario.digest,
                "params": {p: v for p, v in self.grid}, "seeds": self.seeds.text(), "runs": len(self.runs)}


def _canon(v: Any) -> str:
    return json.dumps(v, sort_keys=True, separators=(",", ":"))


def run_id(scenario_digest: str, params: Sequence[tuple[str, Any]], seed: int) -> str:
    h = hashlib.sha256(f"{scenario_digest}\0{_canon(sorted(params))}\0{seed}".encode())
    return h.hexdigest()[:20]


class Seeds(Sequence[int]):
    """Sorted unique seeds held as inclusive ranges: indexable, iterable, and able to tell a
    seed's position, without listing them."""

    def __init__(self, ranges: Sequence[tuple[int, int]]) -> None:
        self.ranges = [(int(a), int(b)) for a, b in ranges]
        self._starts: list[int] = []       # index of each range's first seed
        n = 0
        for a, b in self.ranges:
            self._starts.append(n)
            n += b - a + 1
        self._n = n

    def __len__(self) -> int:
        return self._n

    @overload
    def __getitem__(self, i: int) -> int: ...
    @overload
    def __getitem__(self, i: slice) -> list[int]: ...

    def __getitem__(self, i: int | slice) -> int | list[int]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(self._n))]
        j = i + self._n if i < 0 else i
        if not 0 <= j < self._n:
            raise IndexError(f"seed index {i} out of range 0..{self._n - 1}")
        k = bisect.bisect_right(self._starts, j) - 1
        return self.ranges[k][0] + (j - self._starts[k])

    def __iter__(self) -> Iterator[int]:
        for a, b in self.ranges:
            yield from range(a, b + 1)

    def position(self, seed: Any) -> int | None:
        """The index of ``seed``, or None when it is not one of these seeds."""
        if not isinstance(seed, int) or isinstance(seed, bool):
            return None
        k = bisect.bisect_right([a for a, _ in self.ranges], seed) - 1
        if k < 0 or seed > self.ranges[k][1]:
            return None
        return self._starts[k] + seed - self.ranges[k][0]

    def text(self) -> str:
        """As the manifest and --seeds write them: ``0..9,20``."""
        return ",".join(str(a) if a == b else f"{a}..{b}" for a, b in self.ranges)


class Runs(Sequence[RunSpec]):
    """The plan's runs, computed on demand: combination-major (the last swept parameter varies
    fastest, as itertools.product), then seeds ascending."""

    def __init__(self, digest: str, grid: Sequence[tuple[str, Sequence[Any]]], seeds: Seeds) -> None:
        self.digest = digest
        self.names = [p for p, _ in grid]
        self.values = [list(v) for _, v in grid]
        self.seeds = seeds
        self.combos = math.prod(len(v) for v in self.values)
        # value -> its index per parameter, by canonical JSON (so 1, 1.0 and true stay apart)
        self._where = [{_canon(v): i for i, v in reversed(list(enumerate(vals)))} for vals in self.values]

    def __len__(self) -> int:
        return self.combos * len(self.seeds)

    @overload
    def __getitem__(self, i: int) -> RunSpec: ...
    @overload
    def __getitem__(self, i: slice) -> list[RunSpec]: ...

    def __getitem__(self, i: int | slice) -> RunSpec | list[RunSpec]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        n = len(self)
        j = i + n if i < 0 else i
        if not 0 <= j < n:
            raise IndexError(f"run {i} out of range 0..{n - 1}")
        c, s = divmod(j, len(self.seeds))
        return self._spec(j, self._combo(c), self.seeds[s])

    def __iter__(self) -> Iterator[RunSpec]:
        for j in range(len(self)):
            yield self[j]

    def _combo(self, c: int) -> tuple[tuple[str, Any], ...]:
        digits = []
        for vals in reversed(self.values):
            c, d = divmod(c, len(vals))
            digits.append(d)
        digits.reverse()
        return tuple((p, vals[d]) for p, vals, d in zip(self.names, self.values, digits))

    def _spec(self, index: int, pv: tuple[tuple[str, Any], ...], seed: int) -> RunSpec:
        return RunSpec(index, pv, seed, run_id(self.digest, pv, seed))

    def locate(self, params: dict[str, Any], seed: Any) -> RunSpec | None:
        """The run with these swept values (all of them, none other) and seed, or None."""
        if not isinstance(params, dict) or set(params) != set(self.names):
            return None
        s = self.seeds.position(seed)
        if s is None:
            return None
        c = 0
        for p, vals, where in zip(self.names, self.values, self._where):
            d = where.get(_canon(params[p]))
            if d is None:
                return None
            c = c * len(vals) + d
        return self[c * len(self.seeds) + s]

    def find(self, seed: int, fixed: dict[str, Any], limit: int = 7) -> list[RunSpec]:
        """Up to ``limit`` runs with ``seed`` whose swept values agree with ``fixed``, in plan order
        (a key of ``fixed`` that is not swept matches no run)."""
        s = self.seeds.position(seed)
        if s is None or any(k not in self.names for k in fixed):
            return []
        out: list[RunSpec] = []
        choices = [[d for d, v in enumerate(vals) if p not in fixed or _canon(v) == _canon(fixed[p])]
                   for p, vals in zip(self.names, self.values)]
        for digits in itertools.product(*choices):
            c = 0
            for vals, d in zip(self.values, digits):
                c = c * len(vals) + d
            out.append(self[c * len(self.seeds) + s])
            if len(out) >= limit:
                break
        return out


def make_plan(sc: Scenario, seeds: str | Sequence[int] | None = None,
              params: Sequence[tuple[str, list[Any]]] = ()) -> SweepPlan:
    """The runs of a sweep. ``seeds`` and ``params`` default to the scenario's [sweep] table;
    ``params`` given here replace the file's values for the same key and add new keys. Every
    value of every parameter is validated (all problems are reported together)."""
    sw = sc.config.get("sweep") or {}
    if seeds is None:
        seeds = sw.get("seeds")
    seed_list = Seeds([(sc.seed, sc.seed)] if seeds is None else seed_ranges(seeds))
    if not len(seed_list):
        raise ValueError("no seeds to run")
    grid: dict[str, list[Any]] = {k: list(v) for k, v in (sw.get("params") or {}).items()}
    for k, v in params:
        grid[k] = list(v)
    grid_list = list(grid.items())
    # validate each value on top of the base scenario; every problem at once
    issues = []
    for path, values in grid_list:
        for v in values:
            try:
                sc.with_overrides([(path, v)])
            except ScenarioError as e:
                issues.extend(e.issues)
    if issues:
        # One problem per key path and rule: a bad key is reported once, not once per value.
        seen, uniq = set(), []
        for i in issues:
            if (i.path, i.message) not in seen:
                seen.add((i.path, i.message))
                uniq.append(i)
        raise ScenarioError(uniq)
    return SweepPlan(sc, grid_list, seed_list, Runs(sc.digest, grid_list, seed_list))
