"""Forced NVLS at small sizes: NCCL's NVLS path read per release against simdist's NVLS time, and four
source-read candidate rules for its floor weighed on the table's fit half (docs/validation.md
"Fifteenth session: the NVLS floor"; none adopted).

simdist times single-node NVLS as NCCL's tuner latency (`hwLat[NVLINK][NVLS][SIMPLE]`, 25 us from
2.21; the default release's whatever the row's) + bytes / NCCL's NVLS bandwidth x `nvls_efficiency`
+ `nccl.nvls_steps` chunk steps of `nccl.nvls_step_latency` each (loops x heads x 3.4 / 8 us), plus
the per-call `overhead` where the benchmark times one call at a time. The candidates change only the
NVLS choice's time (never NCCL's choice, which its own model makes):

- ``release_latency``: the NVLS latency of the row's release (tuning.cc: 40 us in 2.17, 23 us in
  2.18-2.20, 25 us from 2.21), the tenth session's per-release timing for NVLS alone;
- ``first_loop_in_latency``: NCCL's latency stands for one pass of the pipeline (as the ring's
  ``baseLat + nsteps x hwLat`` does), so chunk steps are charged for the loops after the first;
- ``nccl_floor``: both, so a message of one loop costs NCCL's own estimate (latency + bytes /
  bandwidth, the bandwidth at `nvls_efficiency`);
- ``nccl_step_count``: NCCL's own count of an NVLS channel's steps (enqueue.cc `computeCollSteps`:
  ``DIVUP(workCount, nHeads x chunkCount) x chunkSteps``, ``chunkSteps`` 1 for NVLS in
  `computeCollChunkInfo`: one step per loop), each a whole Simple NVLink step (3.4 us).

`evaluate` times the table and the hidden set under a candidate through the table's own path
(`harness.evaluate`); `refit` runs the documented refit (`harness.fit_factors` on `harness.FIT_GRID`)
under it. ``python -m simdist.validation.nvls_floor`` prints the doc's tables (`report`, `floors`).
"""

from __future__ import annotations

import contextlib
import dataclasses
import statistics
import sys
from dataclasses import dataclass
from typing import Iterator

from simdist.sim import nccl, nccl_release

from . import collectives, harness, timing_rules

__all__ = ["CANDIDATES", "applied", "nvls_latency", "Point", "evaluate", "refit", "Floor", "floors", "report",
           "floors_report", "moved_report"]

CANDIDATES = ("simdist", "release_latency", "first_loop_in_latency", "nccl_floor", "nccl_step_count")


def nvls_latency(release: str, intra: str = "nvlink") -> float:
    """NCCL ``release``'s single-node NVLS latency, seconds: baseLat + hwLat[intra] for NVLS/Simple
    (tuning.cc; 2.18 keeps it in baseLat, 2.19 on in hwLat)."""
    t = nccl_release.tuner(release)
    return (t.base_lat["nvls"][2] + t.hw_lat[intra]["nvls"][2]) * 1e-6


def _delta(name: str, c: nccl.Choice, nbytes: float, system: nccl.System, factors: nccl.Factors) -> float:
    """Seconds the candidate ``name`` adds to simdist's time for the NVLS choice ``c``."""
    step = nccl.nvls_step_latency() * factors.nvls_step
    heads = system.ppn
    steps = nccl.nvls_steps(nbytes, c.channels, heads)
    d = 0.0
    if name in ("release_latency", "nccl_floor"):
        d -= nvls_latency(nccl_release.DEFAULT, system.intra) - nvls_latency(system.release, system.intra)
    if name in ("first_loop_in_latency", "nccl_floor"):
        d -= heads * step
    if name == "nccl_step_count":
        d += (steps // heads) * nccl._NCCL_STEPS * step - steps * step
    return d


@contextlib.contextmanager
def applied(name: str) -> Iterator[None]:
    """Time single-node NVLS by candidate ``name`` (one of `CANDIDATES`) inside the block."""
    if name not in CANDIDATES:
        raise ValueError(f"nvls_floor: unknown candidate {name!r}; known: {', '.join(CANDIDATES)}")
    if name == "simdist":
        yield
        return
    original = nccl.options

    def options(collective: str, nbytes: float, system: nccl.System,
                factors: nccl.Factors | None = None) -> list[nccl.Choice]:
        f = nccl.FACTORS if factors is None else factors
        return [dataclasses.replace(c, time=c.time + _delta(name, c, nbytes, system, f)) if c.algorithm == "nvls"
                else c for c in original(collective, nbytes, system, factors)]

    nccl.options = options   # type: ignore[assignment]
    try:
        yield
    finally:
        nccl.options = original   # type: ignore[assignment]


@dataclass(frozen=True)
class Point:
    """The table and the hidden set's collective rows under one candidate and ``factors``: the fit and
    holdout halves' mean |error|, (median, max, rows over 25%) of the fit and holdout halves and of the
    hidden rows, and every row's signed error (keyed by id)."""

    candidate: str
    factors: nccl.Factors
    fit_mean: float
    holdout_mean: float
    fit: tuple[float, float, int]
    holdout: tuple[float, float, int]
    hidden: tuple[float, float, int]
    errors: dict[str, float]


def _mm(errs: list[float]) -> tuple[float, float, int]:
    return statistics.median(errs), max(errs), sum(e > 0.25 for e in errs)


def evaluate(name: str, factors: nccl.Factors | None = None) -> Point:
    """The table's collective rows and the hidden set's, timed under candidate ``name`` with
    ``factors`` (default `nccl.FACTORS`)."""
    f = nccl.FACTORS if factors is None else factors
    with applied(name), nccl.using(f):
        table = harness.evaluate(collectives.measurements())
        hidden = harness.evaluate(collectives.third_round_measurements())
    fit = [abs(r.error) for r in table if r.m.split == "fit"]
    hold = [abs(r.error) for r in table if r.m.split == "holdout"]
    return Point(name, f, statistics.fmean(fit), statistics.fmean(hold), _mm(fit), _mm(hold), _mm([abs(r.error) for r in hidden]),
                 {r.m.id: r.error for r in table + hidden})


def refit(name: str) -> Point:
    """Candidate ``name`` with the four factors refitted on the table's fit half by the documented
    procedure (`harness.fit_factors`, `harness.FIT_GRID`)."""
    with applied(name):
        factors, _ = harness.fit_factors(collectives.measurements())
    return evaluate(name, factors)


@dataclass(frozen=True)
class Floor:
    """One forced-NVLS row below 32 MiB timed per call: published seconds per call, the longest call
    within 25% of its busbw, that less simdist's `overhead` (the kernel the row allows), NCCL's own
    estimate for the call under the row's release (its tuner: latency + bytes / bandwidth), that
    release's NVLS latency, and simdist's kernel (its time less the overhead)."""

    id: str
    release: str
    published: float
    bound: float
    kernel_bound: float
    nccl_estimate: float
    nccl_latency: float
    simdist_kernel: float


def floors() -> list[Floor]:
    """The hidden set's forced-NVLS rows below 32 MiB (every such row is timed per call)."""
    out = []
    for row in timing_rules.rows(hidden=True):
        if row.algorithm != "nccl:nvls" or row.nbytes >= 32 * 2**20 or row.setup.pipelined:
            continue
        c = timing_rules._choice(row, nccl.FACTORS.ramp_bytes)
        t = row.nbytes * nccl.bus_bandwidth_factor(row.collective, row.setup.gpus) / (row.published * 1e9)
        bound = t / 0.75
        out.append(Floor(row.id, row.setup.release or "", t, bound, bound - nccl.FACTORS.overhead, c.model_time,
                         nvls_latency(row.setup.release or nccl_release.DEFAULT), c.time))
    return out


def _p(x: tuple[float, float, int]) -> str:
    return f"{x[0]:.1%} / {x[1]:.1%} ({x[2]})"


def report(points: list[Point] | None = None) -> str:
    """The doc's table: every candidate (``points``: `evaluate` or `refit` of each, default `evaluate`)."""
    pts = [evaluate(n) for n in CANDIDATES] if points is None else points
    out = ["| candidate | overhead, net, NVLS eff., ramp | fit: mean; median / max (over 25%) | holdout: the same "
           "| hidden, 10 collective rows |", "|---|---|---|---|---|"]
    for p in pts:
        f = p.factors
        out.append(f"| `{p.candidate}` | {f.overhead * 1e6:.0f} us, {f.net_efficiency:g}, {f.nvls_efficiency:g}, "
                   f"{f.ramp_bytes / 1024:.0f} KiB | {p.fit_mean:.2%}; {_p(p.fit)} | {p.holdout_mean:.2%}; "
                   f"{_p(p.holdout)} | {_p(p.hidden)} |")
    return "\n".join(out)


def moved_report(points: list[Point] | None = None) -> str:
    """The doc's table of every row (table and hidden set) whose signed error moves by 0.05 points or more
    under some candidate (``points``: `evaluate` of each of `CANDIDATES`, in order)."""
    pts = [evaluate(n) for n in CANDIDATES] if points is None else points
    splits = {m.id: ("hidden " if hidden else "") + m.split
              for hidden, ms in ((False, collectives.measurements()), (True, collectives.third_round_measurements()))
              for m in ms}
    out = ["| row | split | " + " | ".join(f"`{p.candidate}`" for p in pts) + " |",
           "|---|---|" + "---:|" * len(pts)]
    for rid, base in pts[0].errors.items():
        if any(abs(p.errors[rid] - base) >= 0.0005 for p in pts[1:]):
            out.append(f"| `{rid}` | {splits[rid]} | " + " | ".join(f"{p.errors[rid]:+.1%}" for p in pts) + " |")
    return "\n".join(out)


def floors_report() -> str:
    """The doc's table of the forced-NVLS floors (`floors`), microseconds."""
    out = [f"| hidden row | NCCL | published, us | within 25% needs <= | less the {nccl.FACTORS.overhead * 1e6:.0f} us "
           "overhead | NCCL's estimate | its NVLS latency | simdist kernel |", "|---|---|---:|---:|---:|---:|---:|---:|"]
    for f in floors():
        out.append(f"| `{f.id}` | {f.release} | {f.published * 1e6:.1f} | {f.bound * 1e6:.1f} | "
                   f"{f.kernel_bound * 1e6:.1f} | {f.nccl_estimate * 1e6:.1f} | {f.nccl_latency * 1e6:.0f} | "
                   f"{f.simdist_kernel * 1e6:.1f} |")
    return "\n".join(out)


if __name__ == "__main__":
    held = [evaluate(n) for n in CANDIDATES]
    sys.stdout.write("\n\n".join([floors_report(), report(held), moved_report(held),
                                   report([refit(n) for n in CANDIDATES])]) + "\n")
