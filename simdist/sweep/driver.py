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
              budget: float | None = None, limits: Any = None) -> SweepResult:
    """Run the plan's runs not yet in ``out``'s journal and write the tables. ``budget``: seconds
    of wall time after which no further result is taken (running workers are ended, finished
    runs kept): the tables then hold the finished runs, and the same command resumes. The
    budget decides how many runs finish, never what a run computes. ``limits``: the guard rails
    (`simdist.scenario.guard.Limits`) each worker checks before a run; None: the defaults."""
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
    # The plan's finished runs, by index: each journal row is mapped back through its values and
    # seed (the plan is lazy: nothing here is proportional to the runs not yet finished).
    kept: dict[int, dict[str, Any]] = {}
    for rid, row in have.items():
        spec = plan.runs.locate(row.get("params"), row.get("seed"))
        if spec is not None and spec.run_id == rid and not _retry(row):
            kept[spec.index] = row
    planned = len(plan.runs)
    skipped = len(kept)
    todo = (r for r in plan.runs if r.index not in kept)
    if progress is not None and skipped:
        progress(skipped)
    from simdist.scenario.interrupts import set_note

    def _note() -> None:
        set_note(f"{len(kept)} of {planned} runs are finished and kept in {out / 'runs.jsonl'}; rerun the same "
                 "command to resume (finished runs are skipped)")
    _note()
    deadline = None if budget is None else time.monotonic() + budget
    budget_hit = False
    ran = 0
    from simdist.scenario.guard import Limits
    payload = (*plan.payload(), limits if limits is not None else Limits())
    results = execute(payload, todo, executor, workers, batch_size, scheduler, total=planned - skipped)
    try:
        for rows in results:
            journal.append(rows)
            for r in rows:
                kept[r["run"]] = r
            ran += len(rows)
            _note()
            if progress is not None:
                progress(len(rows))
            if deadline is not None and time.monotonic() > deadline and len(kept) < planned:
                budget_hit = True
                break
    finally:
        results.close()     # (a pool's workers are ended, not waited for)
    final = [dict(kept[i], run=i) for i in sorted(kept)]   # run: the position in this plan
    files = write_tables(out, final, plan.param_names, parquet=parquet)
    return SweepResult(out, final, skipped, ran, files, planned=planned, budget_hit=budget_hit)


def _retry(row: dict[str, Any]) -> bool:
    """A journalled run to run again on resume: one the guard rails refused (it never ran; a
    rerun with a larger --memory-limit or --time-limit runs it)."""
    return row.get("status") == "refused"
