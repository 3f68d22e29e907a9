"""A host cost per GPU the benchmark's thread launches: the twelfth session's candidate rule for the
per-call collective rows, weighed on the table's fit half (docs/validation.md "Twelfth session:
collectives"; not adopted).

nccl-tests (NVIDIA/nccl-tests `src/common.cu`, `BenchTime`) issues its ``-n`` iterations back to back and
waits once; with ``-g N`` one thread launches the N GPUs' kernels of every iteration. So an iteration
could take the longer of the thread's launches and the GPU's kernel, ``max(N x h, kernel)``, instead of
simdist's ``kernel + overhead``. The rule applies to the rows (and hidden rows) whose benchmark is
nccl-tests with ``-g N`` timed per call (`LAUNCHERS`); every other row is timed as the table times it.
For each ``h`` of `H_GRID` the four factors are refitted by the table's documented procedure (least mean
|error| over the fit half on `harness.FIT_GRID`). ``python -m simdist.validation.launch_rule`` prints the
doc's table (`report`; the refits take minutes).
"""

from __future__ import annotations

import itertools
import statistics
import sys
from dataclasses import dataclass, fields, replace

from simdist.sim import nccl

from . import collectives, harness, timing_rules

__all__ = ["LAUNCHERS", "H_GRID", "Row", "rows", "busbw", "Point", "fit", "report"]

# GPUs one benchmark thread launches per timed iteration (nccl-tests `-g N`, per call): the rows' command lines
LAUNCHERS: dict[collectives.Citation, int] = {
    collectives.A100_SWEEP: 8, collectives.RV_H100: 8, collectives.OCI_A100_2NODE: 8, collectives.WH_G4: 4,
    collectives.WH_G2: 2, collectives.WH_G6: 6, collectives.AZ_H100: 8, collectives.AZ_H200: 8}
H_GRID = (5e-6, 5.5e-6, 6e-6, 6.5e-6, 7e-6, 7.5e-6, 8e-6)


@dataclass(frozen=True)
class Row(timing_rules.Row):
    """A collective row of timing_rules with the GPUs its benchmark's thread launches per iteration
    (0: not an nccl-tests `-g N` per-call row)."""

    launches: int = 0


def rows(hidden: bool = False) -> tuple[Row, ...]:
    """The table's collective rows (``hidden``: the hidden set's), in table order with their splits."""
    src = collectives._HIDDEN_ROWS if hidden else collectives._ROWS
    out = []
    for r, (cit, *_rest) in zip(timing_rules.rows(hidden), src):
        base = {f.name: getattr(r, f.name) for f in fields(timing_rules.Row)}
        out.append(Row(**base, launches=0 if r.setup.pipelined else LAUNCHERS.get(cit, 0)))
    return tuple(out)


def busbw(row: Row, h: float | None, factors: nccl.Factors) -> float:
    """The row's busbw (GB/s) with ``factors``: ``max(launches x h, kernel)`` for a `-g N` row (``h`` not
    None), else as the table simulates it."""
    with nccl.using(factors):
        if h is None or row.launches == 0:
            return collectives.simulate_busbw(row.setup, row.collective, row.nbytes, row.algorithm)
        kernel_bw = collectives.simulate_busbw(replace(row.setup, pipelined=True), row.collective, row.nbytes,
                                               row.algorithm)
    factor = nccl.bus_bandwidth_factor(row.collective, row.setup.gpus * row.setup.hosts)
    kernel = row.nbytes * factor / (kernel_bw * 1e9)
    return row.nbytes * factor / max(row.launches * h, kernel) / 1e9


@dataclass(frozen=True)
class Point:
    """One ``h`` (None: simdist's sum rule) with the factors the fit half chose for it: the fit half's mean
    |error|, (median, max) and rows over 25% on each half, the hidden set's collective rows, and every
    table row's signed error."""

    h: float | None
    factors: nccl.Factors
    fit_mean: float
    fit: tuple[float, float, int]
    holdout_mean: float
    holdout: tuple[float, float, int]
    hidden: tuple[float, float, int]
    errors: dict[str, float]


def _stats(errs: list[float]) -> tuple[float, float, int]:
    a = [abs(e) for e in errs]
    return statistics.median(a), max(a), sum(x > 0.25 for x in a)


def fit(h: float | None, table: tuple[Row, ...] | None = None) -> Point:
    """The documented refit with the rule at ``h`` (None: simdist's sum rule), and its errors."""
    table = rows() if table is None else table
    fit_rows = [r for r in table if r.split == "fit"]
    names = [f.name for f in fields(nccl.Factors) if f.name in harness.FIT_GRID]
    best: tuple[tuple[float, float], nccl.Factors] | None = None
    for values in itertools.product(*[harness.FIT_GRID[k] for k in names]):
        f = replace(nccl.FACTORS, **dict(zip(names, values)))
        a = [abs(busbw(r, h, f) / r.published - 1) for r in fit_rows]
        score = (round(statistics.fmean(a), 12), round(max(a), 12))
        if best is None or score < best[0]:
            best = (score, f)
    assert best is not None
    f = best[1]
    errors = {r.id: busbw(r, h, f) / r.published - 1 for r in table}
    fe = [errors[r.id] for r in table if r.split == "fit"]
    he = [errors[r.id] for r in table if r.split == "holdout"]
    hidden = [busbw(r, h, f) / r.published - 1 for r in rows(hidden=True)]
    return Point(h, f, statistics.fmean(abs(e) for e in fe), _stats(fe), statistics.fmean(abs(e) for e in he),
                 _stats(he), _stats(hidden), errors)


def _s(x: tuple[float, float, int], mean: float | None = None) -> str:
    lead = f"{mean:.2%}; " if mean is not None else ""
    return f"{lead}{x[0]:.1%} / {x[1]:.1%} ({x[2]})"


def report(points: list[Point] | None = None) -> str:
    """The doc's table: simdist's sum rule, then each ``h`` of `H_GRID`, each with its refitted factors."""
    pts = [fit(None)] + [fit(h) for h in H_GRID] if points is None else points
    out = ["| h, µs per launched GPU | refit (overhead, ramp) | fit mean; median / max (over 25%) "
           "| holdout mean; median / max (over 25%) | hidden, 10 collective rows (over 25%) |",
           "|---:|---|---|---|---|"]
    for p in pts:
        name = "— (sum, adopted)" if p.h is None else f"{p.h * 1e6:g}"
        out.append(f"| {name} | {p.factors.overhead * 1e6:.0f} µs, {p.factors.ramp_bytes / 1024:.0f} KiB "
                   f"| {_s(p.fit, p.fit_mean)} | {_s(p.holdout, p.holdout_mean)} | {_s(p.hidden)} |")
    return "\n".join(out)


if __name__ == "__main__":
    sys.stdout.write(report() + "\n")
