"""What each NVLS chunk step costs, weighed as a fifth global factor on the table's fit half
(docs/validation.md "Eleventh session (2): LL128 rows").

Single-node NVLS steps through its own chunks (`nccl.nvls_steps`), each step costing
`nccl.nvls_step_latency` (a Simple step's NVLink latency over `NCCL_STEPS`: simdist's reading of NCCL's
constants, not a measured figure). `nccl.Factors.nvls_step` multiplies that cost; `FACTORS` keeps it at
1.0. `scan` times the table with each value of `GRID`, either with the four fitted factors held or with
them refitted by the table's documented procedure (`harness.fit_factors` on `harness.FIT_GRID`);
``python -m simdist.validation.nvls_step`` prints the doc's three tables (`report`: held, refitted, refitted
with `nvls_efficiency` on a finer grid; the refits take minutes). They are the eleventh session (2)'s record:
the table's first `TABLE_ROWS` collective rows and the four factors fitted on them then (`HELD`); rows and
refits added since do not rewrite them.
"""

from __future__ import annotations

import statistics
import sys
from dataclasses import dataclass, replace

from simdist.sim import nccl

from . import collectives, harness

__all__ = ["GRID", "FINE_NVLS_EFFICIENCY", "TABLE_ROWS", "HELD", "Point", "scan", "report"]

GRID = (0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0)
# `nvls_efficiency` on a finer grid than `harness.FIT_GRID`'s 0.05 steps: how much of a gain is the
# documented grid's resolution rather than the step factor.
FINE_NVLS_EFFICIENCY = (0.85, 0.875, 0.9, 0.925, 0.95, 0.975, 1.0)
# The table's collective rows when the eleventh session (2) weighed the factor, and the four factors then
# fitted on their fit half (the twelfth session's rows and refit, `overhead` 25 -> 20 us, came after).
TABLE_ROWS = 51
HELD = nccl.Factors(overhead=25e-6, net_efficiency=0.9, nvls_efficiency=0.9, ramp_bytes=262144.0)


@dataclass(frozen=True)
class Point:
    """The table timed with ``factors`` (its ``nvls_step`` the scanned value): the fit half's mean
    |error|, median and max |error| on the fit half, the holdout half and the hidden set's collective
    rows, the rows over 25%, and every row's signed error (keyed by id)."""

    factors: nccl.Factors
    fit_mean: float
    fit: tuple[float, float]
    holdout: tuple[float, float]
    hidden: tuple[float, float]
    over25: int
    errors: dict[str, float]


def _point(factors: nccl.Factors) -> Point:
    with nccl.using(factors):
        table = harness.evaluate(collectives.measurements()[:TABLE_ROWS])
        hidden = harness.evaluate(collectives.third_round_measurements())

    def mm(v: list[float]) -> tuple[float, float]:
        return statistics.median(v), max(v)

    f = [abs(r.error) for r in table if r.m.split == "fit"]
    h = [abs(r.error) for r in table if r.m.split == "holdout"]
    return Point(factors, statistics.fmean(f), mm(f), mm(h), mm([abs(r.error) for r in hidden]),
                 sum(e > 0.25 for e in f + h), {r.m.id: r.error for r in table})


def scan(refit: bool = False, grid: tuple[float, ...] = GRID, fine: bool = False) -> list[Point]:
    """The table (its first `TABLE_ROWS` rows) at each ``nvls_step`` of ``grid``: with the four factors
    fitted then (`HELD`) held, or (``refit``) with them refitted on its fit half for that value (``fine``:
    `nvls_efficiency` on `FINE_NVLS_EFFICIENCY`)."""
    rows = collectives.measurements()[:TABLE_ROWS]
    fit_grid = dict(harness.FIT_GRID, nvls_efficiency=FINE_NVLS_EFFICIENCY) if fine else dict(harness.FIT_GRID)
    out = []
    for k in grid:
        if refit:
            factors, _ = harness.fit_factors(rows, dict(fit_grid, nvls_step=(k,)))
        else:
            factors = replace(HELD, nvls_step=k)
        out.append(_point(factors))
    return out


def _pct(x: tuple[float, float]) -> str:
    return f"{x[0]:.1%} / {x[1]:.1%}"


def report(refit: bool = True, fine: bool = False, points: list[Point] | None = None) -> str:
    """The doc's table: each `GRID` value, the factors (held, refitted, or refitted with the finer
    `nvls_efficiency` grid), and the errors (``points``: a `scan` already run with those arguments)."""
    out = ["| NVLS step x | overhead, net, NVLS eff., ramp | fit mean \\|error\\| | fit median / max | holdout "
           "| over 25% | hidden, 10 collective rows |", "|---:|---|---:|---|---|---:|---|"]
    for p in scan(refit, fine=fine) if points is None else points:
        f = p.factors
        out.append(f"| {f.nvls_step:g} | {f.overhead * 1e6:.0f} us, {f.net_efficiency:g}, {f.nvls_efficiency:g}, "
                   f"{f.ramp_bytes / 1024:.0f} KiB | {p.fit_mean:.2%} | {_pct(p.fit)} | {_pct(p.holdout)} | {p.over25} "
                   f"| {_pct(p.hidden)} |")
    return "\n".join(out)


if __name__ == "__main__":
    sys.stdout.write(report(refit=False) + "\n\n" + report(refit=True) + "\n\n" + report(refit=True, fine=True) + "\n")
