"""A sweep: one scenario, a grid of parameter values, a list of seeds -> an ordered list of runs.

Run order is fixed by the plan (parameter combinations in the order given, then seeds
ascending), never by which executor finishes first. Each run has a stable id, derived from the
scenario's digest, its parameter values and its seed, so a resumed sweep recognises the runs
it already has.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import math
from dataclasses import dataclass
from typing import Any, Sequence

from simdist.scenario.loader import Scenario, ScenarioError, parse_seeds

__all__ = ["RunSpec", "SweepPlan", "make_plan", "MAX_RUNS", "TooManyRuns"]

MAX_RUNS = 1_000_000   # the plan lists its runs (ids, journal, table): a bound that keeps it in memory


class TooManyRuns(ValueError):
    """A sweep over MAX_RUNS runs (the message gives the count and the rule)."""


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
    seeds: list[int]
    runs: list[RunSpec]

    @property
    def param_names(self) -> list[str]:
        return [p for p, _ in self.grid]

    def payload(self) -> tuple[str, str, list[tuple[str, Any]]]:
        """What a worker needs to rebuild the scenario: source text, file name, base overrides."""
        return (self.scenario.text, self.scenario.file, list(self.scenario.overrides))

    def manifest(self) -> dict[str, Any]:
        return {"scenario": self.scenario.name, "scenario_digest": self.scenario.digest,
                "params": {p: v for p, v in self.grid}, "seeds": _ranges(self.seeds), "runs": len(self.runs)}


def _canon(v: Any) -> str:
    return json.dumps(v, sort_keys=True, separators=(",", ":"))


def run_id(scenario_digest: str, params: Sequence[tuple[str, Any]], seed: int) -> str:
    h = hashlib.sha256(f"{scenario_digest}\0{_canon(sorted(params))}\0{seed}".encode())
    return h.hexdigest()[:20]


def _ranges(seeds: list[int]) -> str:
    out, i = [], 0
    while i < len(seeds):
        j = i
        while j + 1 < len(seeds) and seeds[j + 1] == seeds[j] + 1:
            j += 1
        out.append(str(seeds[i]) if i == j else f"{seeds[i]}..{seeds[j]}")
        i = j + 1
    return ",".join(out)


def make_plan(sc: Scenario, seeds: str | Sequence[int] | None = None,
              params: Sequence[tuple[str, list[Any]]] = ()) -> SweepPlan:
    """The runs of a sweep. ``seeds`` and ``params`` default to the scenario's [sweep] table;
    ``params`` given here replace the file's values for the same key and add new keys. Every
    value of every parameter is validated (all problems are reported together)."""
    sw = sc.config.get("sweep") or {}
    if seeds is None:
        seeds = sw.get("seeds")
    seed_list = [sc.seed] if seeds is None else parse_seeds(seeds)
    if not seed_list:
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
    n_combos = math.prod(len(vals) for _, vals in grid_list)
    if n_combos * len(seed_list) > MAX_RUNS:
        raise TooManyRuns(f"{n_combos:,} parameter combination(s) x {len(seed_list):,} seed(s) = "
                         f"{n_combos * len(seed_list):,} runs, more than {MAX_RUNS:,} (rule: a sweep is at most "
                         f"{MAX_RUNS:,} runs; split it into several --out directories)")
    combos = list(itertools.product(*[vals for _, vals in grid_list])) if grid_list else [()]
    runs = []
    for combo in combos:
        pv = tuple(zip([p for p, _ in grid_list], combo))
        for s in seed_list:
            runs.append(RunSpec(len(runs), pv, s, run_id(sc.digest, pv, s)))
    return SweepPlan(sc, grid_list, seed_list, runs)
