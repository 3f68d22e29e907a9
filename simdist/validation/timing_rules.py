"""How nccl-tests times a call, and what LL128 delivers: the eleventh session's candidate rules for
the collective rows, measured on the table's fit half (docs/validation.md "Eleventh session").

nccl-tests (NVIDIA/nccl-tests `src/common.cu`, `BenchTime`) launches the ``-n`` iterations of its
timed loop back to back from the host and waits once (`completeColl` -> `testStreamSynchronize`,
which polls `cudaStreamQuery` on every GPU's stream), and reports the loop's wall time over the
iterations. A call timed that way costs either the host's launch work plus the kernel (what
simdist charges: `nccl.FACTORS.overhead` added to the kernel's time, the "sum" rule) or the longer
of the two when the host's next launch overlaps the running kernel (the "max" rule: a host time
``H`` per iteration, the kernel plus a GPU-side gap ``g`` between queued kernels). The wait is paid once per
loop and divided by ``-n`` (20 by default, 40 and 50 on the rows' command lines).

Every row here is one NCCL collective, so its simulated time is its `nccl.Choice`'s time; each rule
re-times that choice (the kernel's time is the choice's time less the overhead simdist added) and
the fit runs the table's documented procedure, the least mean |error| over the fit rows, on a grid.
`net_efficiency` and `nvls_efficiency` stay at `nccl.FACTORS` (no per-call or LL128 rule moves the
large messages they are fitted on); `ramp_bytes` and the host time are refitted with each rule.
``python -m simdist.validation.timing_rules`` prints the tables the doc shows (`report`): on the table as
the eleventh session had it (46 rows), then as the eleventh session (2) had it (51 rows). The twelfth
session's rows and refit came after: `docs/validation.md` "Twelfth session: collectives" weighs its own
per-launch rule.
"""

from __future__ import annotations

import itertools
import statistics
import sys
from dataclasses import dataclass, replace
from functools import lru_cache

from simdist.sim import Simulator, collectives as sim_collectives, nccl, presets

from . import collectives

__all__ = ["Row", "rows", "kernel_time", "busbw", "Rule", "SUM", "evaluate", "Fit", "fit", "HOST_GRID",
           "GAP_GRID", "RAMP_GRID", "LL128_GRID", "ELEVENTH_TABLE_ROWS", "ELEVENTH_2_TABLE_ROWS", "ll128_room",
           "report"]

# The grids: the documented `harness.FIT_GRID` for `overhead` and `ramp_bytes`, extended for the host
# time of the "max" rule (a host-bound loop of 8 launches: up to 55 us) and the GPU-side gap.
HOST_GRID = tuple(x / 1e6 for x in (10, 15, 20, 25, 30, 35, 40, 45, 50, 55))
GAP_GRID = tuple(x / 1e6 for x in (0, 5, 10, 15, 20, 25))
RAMP_GRID = (0.0, 262144.0, 524288.0, 1048576.0, 2097152.0)
LL128_GRID = (1.0, 0.75, 0.5, 0.4, 0.3, 0.25, 0.2, 0.15, 0.1, 0.0)
# The table's collective rows when the eleventh session fitted these rules (its doc section shows them);
# later rows follow them in table order.
ELEVENTH_TABLE_ROWS = 46
ELEVENTH_2_TABLE_ROWS = 51   # (the eleventh session (2)'s table: its second report)


@dataclass(frozen=True)
class Row:
    """A collective row of the table (or of the hidden set): its id, split, system, size and what
    the measurement forced, with the published busbw."""

    id: str
    split: str
    setup: collectives.Setup
    collective: str
    nbytes: int
    algorithm: str
    published: float


def rows(hidden: bool = False) -> tuple[Row, ...]:
    """The table's collective rows (``hidden``: the hidden set's), in table order with their splits."""
    ms = collectives.third_round_measurements() if hidden else collectives.measurements()
    src = collectives._HIDDEN_ROWS if hidden else collectives._ROWS
    out = []
    for m, (cit, setup, coll, nbytes, pub, algorithm) in zip(ms, src):
        setup = replace(setup, release=setup.release or collectives.release_of(cit))
        out.append(Row(m.id, m.split, setup, coll, nbytes, algorithm, pub))
    return tuple(out)


@lru_cache(maxsize=None)
def _choice(row: Row, ramp: float) -> nccl.Choice:
    s = row.setup
    cluster = presets.gpu_cluster(hosts=s.hosts, gpus_per_host=s.gpus, gpu=s.gpu, network=s.network, nics=s.nics,
                                  nvls=s.nvls, nccl_release=s.release)
    devs = [d for d in cluster.devices() if d.kind == "GPU"]
    factors = replace(nccl.FACTORS, overhead=0.0, ramp_bytes=ramp)
    with nccl.using(factors):
        return sim_collectives.nccl_choice(Simulator(cluster), row.collective, devs, row.nbytes, row.algorithm)


def kernel_time(row: Row, ramp: float | None = None, ll128: float = 1.0) -> float:
    """Seconds of the row's collective without any host side: NCCL's choice timed by simdist's model
    (``ramp``: `ramp_bytes`, default the fitted one), its latency scaled by ``ll128`` when the choice
    is LL128 (1.0: NCCL's tuner latency, simdist's rule)."""
    c = _choice(row, nccl.FACTORS.ramp_bytes if ramp is None else ramp)
    return c.time - (1.0 - ll128) * c.latency if c.protocol == "LL128" else c.time


def busbw(row: Row, seconds: float) -> float:
    """The busbw (GB/s) nccl-tests prints for ``seconds`` per call."""
    ranks = row.setup.hosts * row.setup.gpus
    return row.nbytes / seconds * nccl.bus_bandwidth_factor(row.collective, ranks) / 1e9


@dataclass(frozen=True)
class Rule:
    """How a call is timed: "sum" (kernel + host, simdist's) or "max" (max(host, kernel + gap)) for
    rows timed per call (rows timed back to back: the kernel alone); ``host`` and ``gap`` in seconds,
    ``ramp`` the Simple ramp (bytes), ``ll128`` the share of NCCL's LL128 latency delivered."""

    kind: str = "sum"
    host: float = 25e-6
    gap: float = 0.0
    ramp: float = 262144.0
    ll128: float = 1.0

    def time(self, row: Row) -> float:
        k = kernel_time(row, self.ramp, self.ll128)
        if row.setup.pipelined:
            return k
        return k + self.host if self.kind == "sum" else max(self.host, k + self.gap)


SUM = Rule(host=nccl.FACTORS.overhead, ramp=nccl.FACTORS.ramp_bytes)   # simdist's rule, its fitted factors


def evaluate(rule: Rule, rs: tuple[Row, ...]) -> dict[str, float]:
    """Each row's signed error of busbw under ``rule`` (keyed by id)."""
    return {r.id: busbw(r, rule.time(r)) / r.published - 1.0 for r in rs}


@dataclass(frozen=True)
class Fit:
    """A rule fitted on the fit half: the rule, the fit rows' mean |error|, and the |error| median
    and max on the fit half, the holdout half and all rows (and how many rows are over 25%)."""

    rule: Rule
    fit_mean: float
    fit: tuple[float, float]
    holdout: tuple[float, float]
    all: tuple[float, float]
    over25: int


def _summary(rule: Rule, rs: tuple[Row, ...]) -> Fit:
    err = evaluate(rule, rs)
    f = [abs(err[r.id]) for r in rs if r.split == "fit"]
    h = [abs(err[r.id]) for r in rs if r.split == "holdout"]
    a = f + h

    def mm(v: list[float]) -> tuple[float, float]:
        return (statistics.median(v), max(v)) if v else (float("nan"), float("nan"))

    return Fit(rule, statistics.fmean(f) if f else float("nan"), mm(f), mm(h), mm(a), sum(e > 0.25 for e in a))


def fit(kind: str = "sum", gaps: tuple[float, ...] = (0.0,), ll128: tuple[float, ...] = (1.0,),
        hosts: tuple[float, ...] = HOST_GRID, table: tuple[Row, ...] | None = None) -> Fit:
    """The rule of ``kind`` with the least mean |error| over the fit rows of ``table`` (default: the
    whole table; ties: the smaller max, then grid order) over ``hosts`` x ``gaps`` x `RAMP_GRID` x ``ll128``."""
    if kind not in ("sum", "max"):
        raise ValueError(f"timing_rules.fit: kind must be 'sum' or 'max', got {kind!r}")
    table = rows() if table is None else table
    fit_rows = tuple(r for r in table if r.split == "fit")
    best: tuple[tuple[float, float], Rule] | None = None
    for host, gap, ramp, s in itertools.product(hosts, gaps, RAMP_GRID, ll128):
        rule = Rule(kind, host, gap, ramp, s)
        errs = [abs(e) for e in evaluate(rule, fit_rows).values()]
        score = (round(statistics.fmean(errs), 12), round(max(errs), 12))
        if best is None or score < best[0]:
            best = (score, rule)
    assert best is not None
    return _summary(best[1], table)


def ll128_room(rs: tuple[Row, ...] | None = None) -> list[tuple[Row, float, float, float]]:
    """For every row whose choice is LL128 (default: the table's): the measured time per call, simdist's
    kernel time (NCCL's LL128 latency plus the data at simdist's bandwidth, no host side) and the
    latency that would leave room for the data alone (measured less the data term), in seconds."""
    out = []
    for r in rows() if rs is None else rs:
        c = _choice(r, nccl.FACTORS.ramp_bytes)
        if c.protocol != "LL128":
            continue
        measured = r.nbytes * nccl.bus_bandwidth_factor(r.collective, r.setup.hosts * r.setup.gpus) / (r.published * 1e9)
        out.append((r, measured, c.time, measured - (c.time - c.latency)))
    return out


def _pct(x: tuple[float, float]) -> str:
    return f"{x[0]:.1%} / {x[1]:.1%}"


def _line(name: str, f: Fit, hidden: Fit) -> str:
    r = f.rule
    params = (f"H {r.host * 1e6:.0f} us" + (f", g {r.gap * 1e6:.0f} us" if r.kind == "max" else "")
              + f", ramp {r.ramp / 1024:.0f} KiB" + (f", LL128 x{r.ll128:g}" if r.ll128 != 1.0 else ""))
    return (f"| {name} | {params} | {f.fit_mean:.2%} | {_pct(f.fit)} | {_pct(f.holdout)} | {_pct(f.all)} ({f.over25}) "
            f"| {_pct(hidden.all)} ({hidden.over25}) |")


def report(table: tuple[Row, ...] | None = None) -> str:
    """The doc's tables for ``table`` (default: the eleventh session's first `ELEVENTH_TABLE_ROWS` rows):
    each rule fitted on its fit half, then its errors on it and on the hidden set's collective rows; the
    rows each rule moves most; and the LL128 rows."""
    table = rows()[:ELEVENTH_TABLE_ROWS] if table is None else table
    hidden = rows(hidden=True)
    fits = [("sum (simdist)", fit("sum", table=table)),
            ("max, no gap", fit("max", table=table)),
            ("max, gap fitted", fit("max", gaps=GAP_GRID, table=table)),
            ("sum, LL128 latency fitted", fit("sum", ll128=LL128_GRID, table=table))]
    out = [f"| rule | fitted | fit mean \\|error\\| | fit median / max | holdout | table, {len(table)} rows (over 25%) "
           "| hidden, 10 collective rows (over 25%) |", "|---|---|---:|---|---|---|---|"]
    for name, f in fits:
        out.append(_line(name, f, _summary(f.rule, hidden)))
    watch = ("nccl-allreduce-a100-1x8-32KiB", "nccl-allreduce-a100-1x8-1MiB", "nccl-allreduce-h200-1x8-1MiB",
             "nccl-allreduce-h100-1x8-1MiB-nccl230-ring", "nccl-allreduce-h100-1x8-8MiB-nccl230-ring",
             "nccl-allreduce-h100-1x8-1MiB-nccl230-ring-simple", "nccl-allreduce-h100-1x8-32MiB-nccl230-ring",
             "nccl-allreduce-h100-1x8-32KiB-nvls", "nccl-allreduce-h200-1x8-32KiB-nvls",
             "nccl-allreduce-h200-1x8-1MiB-nvls", "nccl-allreduce-h100-1x8-32KiB-b2b",
             "nccl-allreduce-h100-1x8-32MiB-b2b")
    both = table + hidden
    errs = [{**evaluate(f.rule, both)} for _, f in fits]
    out += ["", "| row | split | " + " | ".join(n for n, _ in fits) + " |", "|---|---|" + "---:|" * len(fits)]
    for r in both:
        if r.id in watch:
            out.append(f"| `{r.id}` | {r.split} | " + " | ".join(f"{e[r.id]:+.1%}" for e in errs) + " |")
    out += ["", "| LL128 row | split | measured, us per call | simdist's kernel alone, us (NCCL's LL128 latency) "
            "| latency the measurement leaves with no host side, us |", "|---|---|---:|---:|---:|"]
    for r, measured, kernel, room in ll128_room(table):
        c = _choice(r, nccl.FACTORS.ramp_bytes)
        out.append(f"| `{r.id}` | {r.split} | {measured * 1e6:.1f} | {kernel * 1e6:.1f} ({c.latency * 1e6:.1f}) "
                   f"| {room * 1e6:.1f} |")
    return "\n".join(out)


if __name__ == "__main__":
    sys.stdout.write(report() + "\n\n" + report(rows()[:ELEVENTH_2_TABLE_ROWS]) + "\n")
