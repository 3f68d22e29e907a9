"""One exploration: the fault-free baseline, N drawn plans on an executor, the determinism
sample, and one shrunk reproducer per broken invariant.

    from simdist.scenario import load
    from simdist.explore.driver import explore
    res = explore(load("scenarios/ps_failure_checkpoint.toml"), plans=200, executor="process")
    res.failures[0].minimal          # the smallest plan that breaks the first broken invariant

The plans, their rows and the shrunk plans depend only on the scenario, the seeds and the
settings (not on the executor, the number of workers or the order runs finish), unless the
wall-clock ``budget`` cuts the exploration short, which the result says.
"""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from . import config, plans
from .invariants import BUILTIN, CheckError, load_check, search_dirs
from .shrink import Shrunk, shrink
from .worker import Job, PlanSpec, fresh_digests, run_plan, run_plans

__all__ = ["Failure", "Exploration", "explore", "ExploreError"]


class ExploreError(ValueError):
    """Bad input found before the plans run (a check that cannot be imported, a metric the runs do
    not write): the message says what and how to fix it."""


@dataclass
class Failure:
    invariant: str
    plans: list[int]                 # every plan that broke it (0 = the fault-free baseline)
    first: PlanSpec                  # the plan the minimal plan was shrunk from
    message: str                     # what the first plan's run said
    shrunk: Shrunk | None = None
    shrink_runs: int = 0             # plans run while shrinking (from every starting plan)
    row: dict[str, Any] = field(default_factory=dict)     # the minimal plan's row
    metrics: dict[str, Any] | None = None                 # and its metrics document

    @property
    def minimal(self) -> tuple[plans.Event, ...]:
        return self.shrunk.events if self.shrunk is not None else self.first.events


@dataclass
class Exploration:
    scenario: Any
    job: Job
    settings: config.Settings
    specs: list[PlanSpec]
    rows: list[dict[str, Any]]           # plan order, the baseline (plan 0) first
    failures: list[Failure]
    determinism: dict[str, Any]
    wall_s: float
    budget_hit: bool

    @property
    def invariants(self) -> list[str]:
        """Every invariant checked, in report order."""
        return invariant_names(self.settings)

    def broken(self) -> dict[str, int]:
        out = {k: 0 for k in self.invariants}
        for r in self.rows:
            for name in sorted({v["invariant"] for v in r["violations"]}):
                out[name] = out.get(name, 0) + 1
        return out


def invariant_names(s: config.Settings) -> list[str]:
    """The built-in invariants, then the predicates and the checks in the order the file gives them."""
    return list(BUILTIN) + [p.id for p in config.predicates_of(list(s.invariants))] + [f"check: {c}" for c in s.checks]


def _preflight(job: Job) -> None:
    for ref in job.checks:
        try:
            load_check(ref, job.search)
        except CheckError as e:
            raise ExploreError(str(e)) from None


def _check_metrics(s: config.Settings, summary: dict[str, Any]) -> None:
    """Every metric a predicate reads, and the histogram's, must be one the runs write."""
    import difflib
    have = sorted(summary)
    wanted = [(f"[explore] invariants: {p.text!r}", m) for p in config.predicates_of(list(s.invariants))
              for m in p.metrics + p.baseline_metrics] + [("the histogram metric", s.metric)]
    for what, m in wanted:
        if m not in summary:
            close = difflib.get_close_matches(m, have, n=1, cutoff=0.5)
            raise ExploreError(f"{what}: this scenario's runs do not write {m!r} (they write {', '.join(have)})"
                               + (f"; did you mean '{close[0]}'?" if close else ""))


def _link_level_all_reduce(sc: Any) -> tuple[tuple[str, Any], ...]:
    """``(("strategy.all_reduce", "ring"),)`` when the plans may degrade links and the scenario's
    all-reduce is NCCL's model by default only (docs/scenarios.md "Cost model and collectives"):
    a plan with a link fault would run the link-level ring, the baseline NCCL's model, and the NCCL
    model loads no link, so the baseline and every plan run the ring. Else ()."""
    if sc.plan.get("all_reduce") != "nccl" or any(p == "strategy.all_reduce" for p, _ in sc.overrides):
        return ()
    from simdist.scenario.tomlread import read_toml
    st = read_toml(sc.text, sc.file).get("strategy") or {}
    if "all_reduce" in st or config.settings(sc, 1.0).rates.get("links", 0.0) <= 0.0:
        return ()
    return (("strategy.all_reduce", "ring"),)


def explore(sc: Any, *, plans_n: int | None = None, seed: int | None = None, metric: str | None = None,
            executor: str = "process", workers: int | None = None, batch_size: int | None = None,
            scheduler: str | None = None, budget: float | None = None,
            progress: Callable[[int], None] | None = None, shrink_tests: int = 300) -> Exploration:
    """Explore ``sc`` (a loaded Scenario, [quick] pairs included when loaded with quick=True):
    ``plans_n``/``seed``/``metric`` override its [explore] table; ``budget`` is wall seconds."""
    t0 = time.monotonic()
    ex = sc.config.get("explore") or {}
    job = Job(text=sc.text, file=sc.file, base_overrides=tuple(sc.overrides) + _link_level_all_reduce(sc), seed=sc.seed,
              base=plans.base_events(sc.config), base_faults=ex.get("base_faults", "keep"),
              steps=int(sc.config["training"]["steps"]), predicates=tuple(ex.get("invariants") or ()),
              checks=tuple(ex.get("checks") or ()), search=tuple(search_dirs(sc.file)),
              max_wall_time=float(ex.get("max_wall_time", 60.0)))
    _preflight(job)
    # the fault-free baseline (the file's faults only, as base_faults says), with no simulated-time limit yet
    empty = PlanSpec(0, ())
    row0, _ = run_plan(job, empty, user=False)
    base_summary = row0["summary"]
    if not base_summary:
        raise ExploreError(f"the baseline run (no drawn faults) did not produce metrics: {row0['error']}")
    s = config.settings(sc, float(base_summary["simulated_time_s"]), plans_n, seed, metric)
    _check_metrics(s, base_summary)
    job = dataclasses.replace(job, baseline=base_summary, max_simulated_time=s.max_simulated_time)
    row0, _ = run_plan(job, empty)

    from simdist.sweep.executors import execute
    rows: dict[int, dict[str, Any]] = {0: row0}
    deadline = None if budget is None else t0 + 0.8 * budget
    budget_hit = False
    ran: list[PlanSpec] = []
    # Plans are drawn a window at a time (plan i from its own stream, so the windows change
    # nothing): --plans 10**9 with a budget draws only what the budget lets run.
    window = _window(s.plans, executor, workers, batch_size)
    first = 1
    while first <= s.plans and not budget_hit:
        specs = [PlanSpec(i, plans.draw(s, i)) for i in range(first, min(s.plans, first + window - 1) + 1)]
        first += len(specs)
        gen = execute(job, specs, executor, workers, batch_size, scheduler, fn=run_plans)
        try:
            for batch in gen:
                for r in batch:
                    rows[r["plan"]] = r
                if progress is not None:
                    progress(len(batch))
                if deadline is not None and time.monotonic() > deadline and len(rows) <= s.plans:
                    budget_hit = True
                    break
        finally:
            gen.close()
        ran += [spec for spec in specs if spec.index in rows]
    ordered = [rows[0]] + [rows[spec.index] for spec in ran]

    det = _determinism(job, s, ran, rows)
    by_index = {spec.index: spec for spec in [empty] + ran}
    failures = _failures(ordered, by_index, invariant_names(s))
    end = None if budget is None else t0 + budget
    for f in failures:
        _shrink(job, f, by_index, shrink_tests, (lambda: time.monotonic() > end) if end is not None else None)
    return Exploration(sc, job, s, ran, ordered, failures, det, time.monotonic() - t0, budget_hit)


WINDOW_BATCHES = 16   # batches per worker drawn at a time


def _window(n_plans: int, executor: str, workers: int | None, batch_size: int | None) -> int:
    """How many plans to draw and hand to the executor at a time: enough batches to keep every
    worker busy (as one call with every plan would), never all of a huge --plans up front."""
    import os
    from simdist.sweep.executors import default_batch_size
    n = 1 if executor == "serial" else (workers or os.cpu_count() or 1)
    size = batch_size or default_batch_size(n_plans, n)
    return max(1, size * n * WINDOW_BATCHES)


def _determinism(job: Job, s: config.Settings, ran: list[PlanSpec], rows: dict[int, dict[str, Any]]
                 ) -> dict[str, Any]:
    """Re-run a sample of plans (evenly spaced, runs that produced metrics) in a fresh process."""
    cands = [spec for spec in ran if rows[spec.index]["digest"]]
    k = min(s.determinism_sample, len(cands))
    if k == 0:
        return {"sample": [], "hash_seed": None, "mismatches": []}
    sample = [cands[(i * len(cands)) // k] for i in range(k)]
    got, hash_seed = fresh_digests(job, sample)
    bad = []
    for spec in sample:
        r = rows[spec.index]
        if got.get(spec.index) != r["digest"]:
            bad.append(spec.index)
            r["violations"].append({"invariant": "determinism", "message": (
                f"a fresh process (PYTHONHASHSEED={hash_seed}) gave sha256 {str(got.get(spec.index))[:16]}, this "
                f"run {r['digest'][:16]}")})
    return {"sample": [spec.index for spec in sample], "hash_seed": hash_seed, "mismatches": bad}


def _failures(rows: list[dict[str, Any]], specs: dict[int, PlanSpec], names: list[str]) -> list[Failure]:
    """One Failure per broken invariant (in ``names`` order), shrunk from the first plan that broke it."""
    seen: dict[str, Failure] = {}
    for r in rows:
        for v in r["violations"]:
            f = seen.get(v["invariant"])
            if f is None:
                seen[v["invariant"]] = Failure(v["invariant"], [r["plan"]], specs[r["plan"]], v["message"])
            elif r["plan"] not in f.plans:
                f.plans.append(r["plan"])
    return sorted(seen.values(), key=lambda f: names.index(f.invariant) if f.invariant in names else len(names))


def _shrink(job: Job, f: Failure, specs: dict[int, PlanSpec], max_tests: int,
            deadline: Callable[[], bool] | None) -> None:
    """Shrink from the first plan that broke ``f``'s invariant and from its plan with the fewest
    events (a timing failure may need other events to move a fault into place in one plan and
    not in another); keep the smaller result (then the one from the earlier plan)."""
    if f.invariant == "determinism":
        def fails(evs: tuple[plans.Event, ...]) -> bool:
            spec = PlanSpec(-1, evs)
            row, _ = run_plan(job, spec, user=False)
            got, _ = fresh_digests(job, [spec])
            return bool(row["digest"]) and got.get(-1) != row["digest"]
    else:
        def fails(evs: tuple[plans.Event, ...]) -> bool:
            row, _ = run_plan(job, PlanSpec(-1, evs), user=f.invariant.startswith(("predicate:", "check:")))
            return any(v["invariant"] == f.invariant for v in row["violations"])
    fewest = min((specs[i] for i in f.plans), key=lambda sp: (len(sp.events), sp.index))
    best: tuple[PlanSpec, Shrunk] | None = None
    for start in dict.fromkeys([f.first, fewest]):
        got = shrink(start.events, fails, max_tests=max_tests, deadline=deadline)
        f.shrink_runs += got.tests
        if best is None or len(got.events) < len(best[1].events):
            best = (start, got)
    assert best is not None
    f.first, f.shrunk = best
    f.row, f.metrics = run_plan(job, PlanSpec(-1, f.minimal))
