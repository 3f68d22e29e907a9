"""The host side of nccl-tests' ``-g N`` loop, per channel: the fourteenth session's reading of the rows
over 25% (docs/validation.md "Fourteenth session: the host side of a `-g N` call"; not adopted).

nccl-tests (`src/common.cu`, `startColl` / `BenchTime`) has one thread call ``ncclAllReduce`` for each of
its N GPUs inside one ``ncclGroupStart/End`` per iteration, issues the ``-n`` iterations back to back and
waits once. NCCL's group launch (`src/group.cc`, `doLaunches`) then runs, in that thread and for every
GPU in turn, the plan (`ncclLaunchPrepare`: per channel, the work the kernel's block reads), the
stream dependencies, the kernel launch and `ncclLaunchFinish`. In steady state an iteration takes the
longer of the thread's work and the kernel: ``max(N x (h0 + c x hc), kernel)`` with ``c`` the channels
the kernel runs (NCCL's enqueue.cc trimming: simdist's `nccl.Choice.channels`), ``h0`` a launch per GPU
and ``hc`` the per-channel work. `SWEEPS` holds the published per-call ``-g N`` sweeps (µs per call,
copied from each page) and `host_line` fits ``h0``, ``hc`` to each host's host-bound points; `fit`
weighs the rule with one global (h0, hc) on the table's fit half. ``python -m
simdist.validation.launch_channels`` prints the doc's two tables (`report`).
"""

from __future__ import annotations

import itertools
import statistics
import sys
from dataclasses import dataclass, replace

from simdist.sim import Simulator, collectives as sim_collectives, nccl, presets

from . import harness, launch_rule, timing_rules

__all__ = ["Sweep", "SWEEPS", "channels", "kernel_us", "ISSUE_123", "per_gpu_slope", "HostLine", "LINE_MAX_BYTES", "host_line", "H0_GRID", "HC_GRID",
           "Candidate", "time", "Result", "evaluate", "fit", "Floor", "nvls_floor", "WATCH", "report"]

KiB, MiB = 2**10, 2**20


@dataclass(frozen=True)
class Sweep:
    """One host's published nccl-tests ``-g N`` sweep timed per call: µs per call at each size (the
    page's time column, or bytes x busbw factor / busbw where the page prints busbw only)."""

    name: str
    source: str
    gpu: str
    gpus: int
    release: str
    algorithm: str
    points: tuple[tuple[int, float], ...]


def _us(nbytes: int, busbw: float, gpus: int) -> float:
    return nbytes * 2 * (gpus - 1) / gpus / (busbw * 1e9) * 1e6


SWEEPS: tuple[Sweep, ...] = (
    Sweep("A100, stas00", "stas00/ml-engineering network/README.md 'Real network throughput', "
          "`all_reduce_perf -b 32k -e 16G -f 2 -g 8 -n 50`, time column", "A100", 8, "2.19.4", "nccl",
          ((32 * KiB, 43.83), (64 * KiB, 46.80), (128 * KiB, 51.76), (256 * KiB, 61.38), (512 * KiB, 80.40),
           (1 * MiB, 101.9), (2 * MiB, 101.4), (4 * MiB, 101.5), (8 * MiB, 133.5))),
    Sweep("A100, Azure ND A100 v4", "Azure/AI-benchmarking-guide Azure_Results/ND_A100_v4_results.md at 3bb66ca, "
          "`all_reduce_perf -b 8 -e 8G -f 2 -g 8`, busbw 1.37 / 36.22 / 53.54 / 71.43 GB/s", "A100", 8, "2.18.5",
          "nccl", ((32 * KiB, _us(32 * KiB, 1.37, 8)), (1 * MiB, _us(1 * MiB, 36.22, 8)),
                   (2 * MiB, _us(2 * MiB, 53.54, 8)), (4 * MiB, _us(4 * MiB, 71.43, 8)))),
    Sweep("4x H100, waynehacking8", "waynehacking8/nccl-collectives-bench results/quiet/all_reduce.txt at "
          "8ab7496, `-g 4 -n 50`, busbw 1.96 / 58.79 GB/s (the table's rows)", "H100", 4, "2.29.2", "nccl",
          ((32 * KiB, _us(32 * KiB, 1.96, 4)), (1 * MiB, _us(1 * MiB, 58.79, 4)))),
    Sweep("8x H100, rakshithvasudev", "rakshithvasudev.github.io 'Inside NCCL's all-reduce' e4e008d, "
          "`-g 8`, ring forced: 'the same ~50 microsecond launch floor' (64 KiB) and 61.0 µs (1 MiB)", "H100", 8,
          "2.30.7", "nccl:ring", ((64 * KiB, 50.0), (1 * MiB, 61.0))),
)


def _choice(sweep: Sweep, nbytes: int) -> nccl.Choice:
    cluster = presets.gpu_cluster(hosts=1, gpus_per_host=sweep.gpus, gpu=sweep.gpu, nccl_release=sweep.release)
    devs = [d for d in cluster.devices() if d.kind == "GPU"]
    with nccl.using(replace(nccl.FACTORS, overhead=0.0)):
        return sim_collectives.nccl_choice(Simulator(cluster), "all_reduce", devs, nbytes, sweep.algorithm)


def channels(sweep: Sweep, nbytes: int) -> int:
    """Channels NCCL's kernel runs for this call (enqueue.cc's trimming, as simdist models it)."""
    return _choice(sweep, nbytes).channels


def kernel_us(sweep: Sweep, nbytes: int) -> float:
    """simdist's kernel alone for this call (no host side), µs."""
    return _choice(sweep, nbytes).time * 1e6


@dataclass(frozen=True)
class HostLine:
    """``T = N x (h0 + c x hc)`` fitted (least squares) to a sweep's host-bound points (µs per call above
    simdist's kernel alone); the largest |residual|, µs; the points used, as (bytes, c, µs)."""

    sweep: Sweep
    h0: float
    hc: float
    max_residual: float
    points: tuple[tuple[int, int, float], ...]


# NVIDIA/nccl-tests issue #123 (2022-12-14): `NCCL_ALGO=Ring NCCL_MAX_NCHANNELS=1 all_reduce_perf -b 8 -e 128 -f 2
# -n 100 -g N` on a DGX-A100, µs per call for N = 2..8 GPUs launched by one thread (the issue's "actual time" column):
# one channel, so the growth with N is the thread's per-GPU work plus NCCL's per-hop latency.
ISSUE_123: tuple[tuple[int, float], ...] = ((2, 10.0), (3, 13.76), (4, 16.88), (5, 20.8), (6, 25.2), (7, 29.5),
                                            (8, 33.7))


def per_gpu_slope(points: tuple[tuple[int, float], ...] = ISSUE_123) -> tuple[float, float, float]:
    """Least-squares ``T = a + s x N`` over (N, µs) points: (s, a, max |residual|), µs."""
    xs, ys = [float(n) for n, _ in points], [t for _, t in points]
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    s = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)
    a = my - s * mx
    return s, a, max(abs(y - a - s * x) for x, y in zip(xs, ys))


# The line is fitted on the regime of the rows over 25% (32 KiB to 1 MiB: NCCL's ring/LL on every sweep); above
# it LL128 and Simple kernels may bind, whose delivered rates are another question ("Eleventh session").
LINE_MAX_BYTES = 1 * MiB


def host_line(sweep: Sweep) -> HostLine:
    """The per-GPU launch ``h0`` and per-channel work ``hc`` (µs) that the sweep's host-bound points up to
    `LINE_MAX_BYTES` give (host-bound: the call takes longer than simdist's kernel alone)."""
    pts = tuple((b, channels(sweep, b), t) for b, t in sweep.points
                if b <= LINE_MAX_BYTES and t > kernel_us(sweep, b))
    n = sweep.gpus
    xs = [n * c for _, c, _ in pts]
    ys = [t for _, _, t in pts]
    if len(set(xs)) < 2:
        raise ValueError(f"{sweep.name}: host-bound points span one channel count {sorted(set(xs))}: no line")
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    hc = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)
    h0 = (my - hc * mx) / n
    res = max(abs(y - n * h0 - hc * x) for x, y in zip(xs, ys))
    return HostLine(sweep, h0, hc, res, pts)


# The candidate's grids: h0 around the per-GPU launches the sweeps give (µs), hc from none to the largest
# slope a sweep gives; `overhead` (rows timed per call by other benchmarks) and `ramp_bytes` as documented.
H0_GRID = tuple(x / 1e6 for x in (3.0, 3.5, 4.0, 4.5, 5.0, 5.5, 6.0, 6.5, 7.0))
HC_GRID = tuple(x / 1e6 for x in (0.0, 0.01, 0.02, 0.03, 0.04, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3))


@dataclass(frozen=True)
class Candidate:
    """The rule's constants (seconds): ``h0`` per launched GPU, ``hc`` per channel of each; ``overhead``
    and ``ramp`` as `nccl.Factors`. ``h0`` None: simdist's sum rule for every row."""

    h0: float | None
    hc: float
    overhead: float
    ramp: float


def time(row: launch_rule.Row, cand: Candidate) -> float:
    """Seconds per call of ``row`` under ``cand``: back-to-back rows the kernel alone; `-g N` rows timed
    per call ``max(N x (h0 + c x hc), kernel)``; other rows timed per call ``kernel + overhead``."""
    k = timing_rules.kernel_time(row, cand.ramp)
    if row.setup.pipelined:
        return k
    if cand.h0 is None or row.launches == 0:
        return k + cand.overhead
    c = timing_rules._choice(row, cand.ramp).channels
    return max(row.launches * (cand.h0 + c * cand.hc), k)


def _errors(rows: tuple[launch_rule.Row, ...], cand: Candidate) -> dict[str, float]:
    return {r.id: timing_rules.busbw(r, time(r, cand)) / r.published - 1.0 for r in rows}


def _stats(errs: list[float]) -> tuple[float, float, float, int]:
    a = [abs(e) for e in errs]
    return statistics.fmean(a), statistics.median(a), max(a), sum(x > 0.25 for x in a)


@dataclass(frozen=True)
class Result:
    """A candidate with its (mean, median, max, rows over 25%) on each half and on the hidden set's
    collective rows, and every table row's signed error."""

    cand: Candidate
    fit: tuple[float, float, float, int]
    holdout: tuple[float, float, float, int]
    hidden: tuple[float, float, float, int]
    errors: dict[str, float]


def evaluate(cand: Candidate) -> Result:
    """``cand``'s errors on the table's collective rows and the hidden set's."""
    table = launch_rule.rows()
    errs = _errors(table, cand)
    hidden = _errors(launch_rule.rows(hidden=True), cand)
    return Result(cand, _stats([errs[r.id] for r in table if r.split == "fit"]),
                  _stats([errs[r.id] for r in table if r.split == "holdout"]), _stats(list(hidden.values())), errs)


def fit(rule: bool = True) -> Result:
    """The documented refit on the table's fit half (least mean |error|, then least max): ``overhead`` and
    ``ramp_bytes`` on `harness.FIT_GRID`, with the rule's ``h0`` and ``hc`` on their grids (``rule`` False:
    simdist's sum rule); `net_efficiency` and `nvls_efficiency` stay (no per-call rule moves the large
    messages they rest on)."""
    table = launch_rule.rows()
    fit_rows = tuple(r for r in table if r.split == "fit")
    h0s: tuple[float | None, ...] = H0_GRID if rule else (None,)
    hcs = HC_GRID if rule else (0.0,)
    best: tuple[tuple[float, float], Candidate] | None = None
    for h0, hc, ov, ramp in itertools.product(h0s, hcs, harness.FIT_GRID["overhead"], harness.FIT_GRID["ramp_bytes"]):
        cand = Candidate(h0, hc, ov, ramp)
        a = [abs(e) for e in _errors(fit_rows, cand).values()]
        score = (round(statistics.fmean(a), 12), round(max(a), 12))
        if best is None or score < best[0]:
            best = (score, cand)
    assert best is not None
    return evaluate(best[1])


WATCH = ("nccl-allreduce-a100-1x8-1MiB", "nccl-allreduce-h100-1x4-1MiB", "nccl-allreduce-h100-1x8-1MiB-nccl230-ring",
         "nccl-allreduce-h100-1x4-32KiB", "nccl-allreduce-a100-1x8-32KiB", "nccl-allreduce-a100-1x8-32MiB",
         "nccl-allreduce-h100-1x8-8MiB-nccl230-ring", "nccl-allreduce-h100-1x8-1MiB-nccl230-ring-simple",
         "nccl-allreduce-h100-1x8-8MiB-nccl230-ring-simple", "nccl-allreduce-h100-1x8-32MiB-nccl230",
         "nccl-allreduce-h100-1x4-16MiB-b2b")


def _s(x: tuple[float, float, float, int]) -> str:
    return f"{x[0]:.2%}; {x[1]:.1%} / {x[2]:.1%} ({x[3]})"


def report(results: tuple[Result, Result] | None = None) -> str:
    """The doc's tables: each sweep's host line; then simdist's sum rule against the refitted candidate,
    on both halves, the hidden rows and the rows it moves."""
    out = ["| host (`-g N`, NCCL) | points: size, channels, µs per call (host-bound) | h0, µs per GPU | hc, µs per "
           "channel per GPU | max residual, µs |", "|---|---|---:|---:|---:|"]
    for s in SWEEPS:
        ln = host_line(s)
        pts = ", ".join(f"{_size(b)} {c} ch {t:.1f}" for b, c, t in ln.points)
        out.append(f"| {s.name} (`-g {s.gpus}`, {s.release}) | {pts} | {ln.h0 * 1:.2f} | {ln.hc:.3f} "
                   f"| {ln.max_residual:.1f} |")
    sl, a, res = per_gpu_slope()
    out += ["", f"nccl-tests issue #123 (DGX-A100, one channel, `-g 2` to `-g 8`): T = {a:.2f} + {sl:.2f} x N µs "
            f"(max residual {res:.2f} µs)"]
    base, cand = (fit(False), fit(True)) if results is None else results
    out += ["", "| rule (refit on the fit half) | h0, hc | overhead, ramp | fit: mean; median / max (over 25%) "
            "| holdout | hidden, 10 collective rows |", "|---|---|---|---|---|---|"]
    for name, r in (("sum (simdist)", base), ("max(N x (h0 + c x hc), kernel)", cand)):
        c = r.cand
        hh = "—" if c.h0 is None else f"{c.h0 * 1e6:g} µs, {c.hc * 1e6:g} µs"
        out.append(f"| {name} | {hh} | {c.overhead * 1e6:g} µs, {c.ramp / 1024:g} KiB | {_s(r.fit)} "
                   f"| {_s(r.holdout)} | {_s(r.hidden)} |")
    split = {r.id: r.split for r in launch_rule.rows()}
    out += ["", "| row | split | sum (simdist) | candidate |", "|---|---|---:|---:|"]
    for rid in WATCH:
        out.append(f"| `{rid}` | {split[rid]} | {base.errors[rid]:+.1%} | {cand.errors[rid]:+.1%} |")
    out += ["", "| hidden row (forced NVLS, `-g 8`) | NCCL | NCCL's estimate, µs | simdist kernel, µs | simdist per call, µs "
            "| published, µs |", "|---|---|---:|---:|---:|---:|"]
    for f in nvls_floor():
        out.append(f"| `{f.id}` | {f.release} | {f.nccl_estimate:.1f} | {f.kernel:.1f} | {f.per_call:.1f} "
                   f"| {f.published:.1f} |")
    return "\n".join(out)


@dataclass(frozen=True)
class Floor:
    """A forced-NVLS hidden row at a latency-bound size: NCCL's own estimate under the row's release (its
    tuner: latency + bytes / bandwidth), simdist's kernel alone and per call (µs), the published µs per call."""

    id: str
    release: str
    nccl_estimate: float
    kernel: float
    per_call: float
    published: float


def nvls_floor(max_bytes: int = LINE_MAX_BYTES) -> tuple[Floor, ...]:
    """The hidden set's forced-NVLS rows up to ``max_bytes``: is simdist's floor above NCCL's estimate?"""
    out = []
    for r in launch_rule.rows(hidden=True):
        if r.nbytes > max_bytes:
            continue
        c = timing_rules._choice(r, nccl.FACTORS.ramp_bytes)
        pub = r.nbytes * nccl.bus_bandwidth_factor(r.collective, r.setup.gpus) / (r.published * 1e9) * 1e6
        out.append(Floor(r.id, r.setup.release or "", c.model_time * 1e6, c.time * 1e6,
                         (c.time + nccl.FACTORS.overhead) * 1e6, pub))
    return tuple(out)


def _size(n: int) -> str:
    return f"{n // MiB} MiB" if n >= MiB else f"{n // KiB} KiB"


if __name__ == "__main__":
    sys.stdout.write(report() + "\n")
