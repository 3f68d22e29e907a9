"""Run a sweep into a directory: plan, skip finished runs, execute, journal, write tables."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any, Callable

from .executors import execute
from .plan import SweepPlan
from simdist.scenario.table import Journal, write_tables

__all__ = ["run_sweep", "SweepResult", "SWEEP_FILES"]

SWEEP_FILES = ("sweep.json", "runs.jsonl", "results.csv", "results.parquet", "summary.csv")


class SweepResult:
    def __init__(self, out: Path, rows: list[dict[str, Any]], skipped: int, ran: int, files: list[Path],
                 planned: int = 0, budget_hit: bool = False) -> None:
        self.out = out
        self.rows = rows                # the finished runs of the plan (all of them unless budget_hit)
        self.skipped = skipped
        self.ran = ran
        self.files = files
        self.planned = planned          # the plan's runs
        self.budget_hit = budget_hit    # the wall-clock budget ended the sweep before every run finished

    @property
    def counts(self) -> dict[str, int]:
        c: dict[str, int] = {"ok": 0, "failed": 0, "error": 0}
        for r in self.rows:
            c[r["status"]] = c.get(r["status"], 0) + 1
        return c


def check_resumable(out: Path, plan: SweepPlan, force: bool) -> None:
    """An existing sweep directory may be resumed only for the same scenario (by digest)."""
    from simdist.scenario.outputs import MARKER, usage_error
    manifest = out / "sweep.json"
    if not out.exists() or not any(out.iterdir()):
        return
    if force:
        if not (out / MARKER).exists():
            raise usage_error(f"--out {out}: not a simdist output directory (no {MARKER} file); refusing to "
                              "overwrite it even with --force")
        for name in SWEEP_FILES:
            f = out / name
            if f.is_file():
                f.unlink()
        return
    if not manifest.exists():
        raise usage_error(f"--out {out}: directory exists and is not a sweep directory; choose another --out "
                          "(or --force to overwrite a previous simdist result there)")
    old = json.loads(manifest.read_text(encoding="utf-8"))
    if old.get("scenario_digest") != plan.scenario.digest:
        raise usage_error(f"--out {out}: holds a sweep of a different scenario (sha256 "
                          f"{str(old.get('scenario_digest'))[:12]} vs {plan.scenario.digest[:12]} now); pass --force "
                          "to start over, or choose another --out")


def run_sweep(plan: SweepPlan, out: str | Path, executor: str = "serial", workers: int | None = None,
              batch_size: int | None = None, scheduler: str | None = None, force: bool = False,
              progress: Callable[[int], None] | None = None, parquet: bool = True,
              budget: float | None = None) -> SweepResult:
    """Run the plan's runs not yet in ``out``'s journal and write the tables. ``budget``: seconds
    of wall time after which no further result is taken (running workers are ended, finished
    runs kept): the tables then hold the finished runs, and the same command resumes. The
    budget decides how many runs finish, never what a run computes."""
    from simdist.scenario.outputs import MARKER, write_text
    out = Path(out)
    if out.exists() and not out.is_dir():
        from simdist.scenario.outputs import usage_error
        raise usage_error(f"--out {out}: exists and is not a directory")
    check_resumable(out, plan, force)
    from simdist.scenario.outputs import make_dir
    make_dir(out, "--out")
    (out / MARKER).write_text("sweep\n", encoding="utf-8")
    write_text(out / "sweep.json", json.dumps(plan.manifest(), indent=2, sort_keys=True) + "\n")
    journal = Journal(out / "runs.jsonl")
    have = journal.read()
    wanted = {r.run_id for r in plan.runs}
    todo = [r for r in plan.runs if r.run_id not in have]
    skipped = len(plan.runs) - len(todo)
    skipped_ids = {r.run_id for r in plan.runs if r.run_id in have}
    if progress is not None and skipped:
        progress(skipped)
    from simdist.scenario.interrupts import set_note
    done = len(wanted.intersection(have))

    def _note() -> None:
        set_note(f"{done} of {len(plan.runs)} runs are finished and kept in {out / 'runs.jsonl'}; rerun the same "
                 "command to resume (finished runs are skipped)")
    _note()
    deadline = None if budget is None else time.monotonic() + budget
    budget_hit = False
    results = execute(plan.payload(), todo, executor, workers, batch_size, scheduler)
    try:
        for rows in results:
            journal.append(rows)
            for r in rows:
                done += r["run_id"] not in have and r["run_id"] in wanted
                have[r["run_id"]] = r
            _note()
            if progress is not None:
                progress(len(rows))
            if deadline is not None and time.monotonic() > deadline and done < len(wanted):
                budget_hit = True
                break
    finally:
        results.close()     # (a pool's workers are ended, not waited for)
    index = {r.run_id: r for r in plan.runs}
    final = []
    for rid, row in have.items():
        if rid in wanted:
            row = dict(row)
            spec = index[rid]
            row["run"] = spec.index  # the position in this plan (a resumed plan may be larger)
            final.append(row)
    final.sort(key=lambda r: r["run"])
    files = write_tables(out, final, plan.param_names, parquet=parquet)
    ran = len(todo) if not budget_hit else sum(1 for r in final if r["run_id"] not in skipped_ids)
    return SweepResult(out, final, skipped, ran, files, planned=len(plan.runs), budget_hit=budget_hit)
