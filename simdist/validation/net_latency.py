"""The network plugin's two latencies: the one NCCL's tuner ranks with (the plugin declares it) and the
one a transfer has (measured); four readings weighed on the table and the hidden set (docs/validation.md
"Nineteenth session: the rows still over 25%"; none adopted).

simdist prices every network crossing of a multi-node collective as NCCL's tuner does, with the latency
the network plugin declares added to each crossing, twice with Simple (`nccl_net`; tuning.cc
``interLat``), in NCCL's choice and in simdist's time alike. aws-ofi-nccl 1.8.1 declares 75 us on p4d,
p4de and p5, and says why in the commit that set it (aws/aws-ofi-nccl 40110dc0, 2023-05-31, "Variable
internode latency reported to NCCL"): "a value below 75us is slightly better for large deployments, but
makes NCCL choose the wrong algorithm for the 2 nodes case": a figure chosen for NCCL's ranking, not a
measured latency. The candidates keep NCCL's choice as it is (ranked with the declared figure) and change
only the latency simdist's time charges on each crossing:

- ``declared``: the declared figure (simdist as it is; the eighteenth session's rule);
- ``choice_only``: none (NCCL's own transports' 0): the plugin's figure ranks, the transfer has NCCL's
  InfiniBand-like hop (the eighteenth session's second reading);
- ``measured``: the platform's published EFA small-message latency where one exists: p5.48xlarge, 21.85 us
  (`MEASURED`); no p4d or p4de figure is published, so p4de keeps the declared one;
- ``measured_nearest``: as ``measured``, and p4de takes the nearest published EFA measurement, c5n.18xlarge's
  18.27 us (`NEAREST`: another instance type, a 100 Gb/s EFA device and libfabric's send/recv path as p4de's).

`evaluate` times the table and the whole hidden set under a candidate through the table's own path
(`harness.evaluate`); `sweep_report` sets the two AWS sweeps, size by size, against simdist under each
candidate; `oke_report` does the same for the OKE RoCE sweep (no plugin term there). ``python -m
simdist.validation.net_latency`` prints the doc's tables.
"""

from __future__ import annotations

import contextlib
import dataclasses
import statistics
import sys
from dataclasses import dataclass
from typing import Iterator

from simdist.sim import nccl, nccl_net

from . import collectives, harness

__all__ = ["CANDIDATES", "MEASURED", "NEAREST", "delivered", "applied", "Point", "evaluate", "report", "rows_report",
           "SWEEPS", "sweep_report", "oke_report"]

CANDIDATES = ("declared", "choice_only", "measured", "measured_nearest")

# Published EFA small-message latencies, microseconds at 8 B: AWS ParallelCluster's recorded OSU references
# (aws/aws-parallelcluster, tests/integration-tests/tests/efa/test_efa/test_efa/osu_benchmarks/results/...,
# osu_latency v5.7.1, one rank on each of two instances (`mpirun -np 2 --map-by ppr:1:node`, tests/integration-tests/
# tests/common/data/osu/osu_pt2pt_submit_openmpi.sh), Open MPI over libfabric's EFA provider, host memory).
# p5.48xlarge/openmpi/osu_latency at 3ac30076 (2023-08-29): 21.85 us (0 B: 20.42). (Its intelmpi file, 2.75 us
# and 18.5 GB/s at 4 MiB, beyond one 100 Gb/s EFA device, is not an inter-node run.) No p4d or p4de file exists.
MEASURED: dict[str, float] = {"aws-ofi-nccl-1.8.1/p5": 21.85}
# ubuntu2204/c5n.18xlarge/openmpi/osu_latency at dde8088a (2023-10-05): 18.27 us. c5n is another instance type,
# with one 100 Gb/s EFA device as each of p4de's four is; aws-ofi-nccl runs p4de's 4 EFA devices with its SENDRECV
# protocol, libfabric's send/recv as Open MPI's.
NEAREST: dict[str, float] = {"aws-ofi-nccl-1.8.1/p4de": 18.27}


def delivered(name: str, plugin: str) -> float:
    """The microseconds candidate ``name`` charges a crossing of ``plugin``'s network in simdist's time."""
    if name not in CANDIDATES:
        raise ValueError(f"net_latency: unknown candidate {name!r}; known: {', '.join(CANDIDATES)}")
    declared = nccl_net.plugin(plugin).latency
    if name == "choice_only":
        return 0.0
    if name == "measured":
        return MEASURED.get(plugin, declared)
    if name == "measured_nearest":
        return MEASURED.get(plugin, NEAREST.get(plugin, declared))
    return declared


def _plugin_of(system: nccl.System) -> str | None:
    """The plugin of `nccl_net.PLUGINS` whose declared latency and protocols are ``system``'s (each modelled
    plugin's pair is its own)."""
    found = [n for n, p in nccl_net.PLUGINS.items()
             if p.latency == system.net_latency and tuple(p.protocols) == tuple(system.protocols)]
    return found[0] if len(found) == 1 else None


@contextlib.contextmanager
def applied(name: str) -> Iterator[None]:
    """Time network crossings by candidate ``name`` (one of `CANDIDATES`) inside the block: every option keeps
    NCCL's model time (its choice) and takes the time simdist predicts with the candidate's latency."""
    delivered(name, nccl_net.DEFAULT)   # (checks the name)
    if name == "declared":
        yield
        return
    original = nccl.options

    def options(collective: str, nbytes: float, system: nccl.System,
                factors: nccl.Factors | None = None) -> list[nccl.Choice]:
        out = original(collective, nbytes, system, factors)
        plugin = _plugin_of(system) if system.nodes > 1 and system.net_latency > 0 else None
        if plugin is None or delivered(name, plugin) == system.net_latency:
            return out
        moved = dataclasses.replace(system, net_latency=delivered(name, plugin))
        timed = {(c.algorithm, c.protocol): c.time for c in original(collective, nbytes, moved, factors)}
        return [dataclasses.replace(c, time=timed[(c.algorithm, c.protocol)]) for c in out]

    nccl.options = options   # type: ignore[assignment]
    try:
        yield
    finally:
        nccl.options = original   # type: ignore[assignment]




def _group(rid: str) -> str:
    if rid.endswith("-b2b-efa"):
        return "p4de" if rid.startswith("nccl-allreduce-a100-80gb-") else "p5"
    return "oke" if rid.endswith("-b2b-oke") else ""


@dataclass(frozen=True)
class Point:
    """The table and the hidden set under one candidate: every row's signed error (keyed by id), the table's
    collective fit and holdout halves and the hidden groups as (median, max, rows over 25%)."""

    candidate: str
    errors: dict[str, float]
    table_fit: tuple[float, float, int]
    table_holdout: tuple[float, float, int]
    p4de: tuple[float, float, int]
    p5: tuple[float, float, int]
    hidden_collective: tuple[float, float, int]
    hidden: tuple[float, float, int]


def _mm(errs: list[float]) -> tuple[float, float, int]:
    a = [abs(e) for e in errs]
    return statistics.median(a), max(a), sum(e > 0.25 for e in a)


def evaluate(name: str) -> Point:
    """The table's collective rows and the hidden set as the nineteenth session weighed it (88 rows: the eighth
    round's all-gather and reduce-scatter rows came later and are not part of this analysis), timed under
    candidate ``name``."""
    rows, _ = harness.collect(None, harness.HIDDEN_MODULES)
    rows = [m for m in rows if m.citation not in collectives.EIGHTH_ROUND_SOURCES]
    with applied(name):
        table = harness.evaluate(collectives.measurements())
        hidden = harness.evaluate(rows)
    hc = [r for r in hidden if r.m.kind == "collective"]
    return Point(name, {r.m.id: r.error for r in table + hidden},
                 _mm([r.error for r in table if r.m.split == "fit"]),
                 _mm([r.error for r in table if r.m.split == "holdout"]),
                 _mm([r.error for r in hc if _group(r.m.id) == "p4de"]),
                 _mm([r.error for r in hc if _group(r.m.id) == "p5"]),
                 _mm([r.error for r in hc]), _mm([r.error for r in hidden]))


def _p(x: tuple[float, float, int]) -> str:
    return f"{x[0]:.1%} / {x[1]:.1%} ({x[2]})"


def _lat(name: str) -> str:
    return ", ".join(f"{delivered(name, p):g}" for p in ("aws-ofi-nccl-1.8.1/p4de", "aws-ofi-nccl-1.8.1/p5"))


def report(points: list[Point] | None = None) -> str:
    """The doc's summary table: every candidate (``points``: `evaluate` of each, default all)."""
    pts = [evaluate(n) for n in CANDIDATES] if points is None else points
    out = ["| candidate | us a crossing in simdist's time: p4de, p5 | table, 63 collective rows: fit; holdout "
           "| hidden, p4de (5) | hidden, p5 (5) | hidden, collectives (25) | hidden, all 88 rows |",
           "|---|---|---|---|---|---|---|"]
    for p in pts:
        out.append(f"| `{p.candidate}` | {_lat(p.candidate)} | {_p(p.table_fit)}; {_p(p.table_holdout)} | {_p(p.p4de)} "
                   f"| {_p(p.p5)} | {_p(p.hidden_collective)} | {_p(p.hidden)} |")
    return "\n".join(out)


def rows_report(points: list[Point] | None = None) -> str:
    """The doc's table of the AWS rows' signed errors under each candidate (``points`` as in `report`)."""
    pts = [evaluate(n) for n in CANDIDATES] if points is None else points
    ids = [m.id for m in collectives.hidden_measurements() if _group(m.id) in ("p4de", "p5")]
    out = ["| hidden row | " + " | ".join(f"`{p.candidate}`" for p in pts) + " |", "|---|" + "---:|" * len(pts)]
    for rid in ids:
        out.append(f"| `{rid}` | " + " | ".join(f"{p.errors[rid]:+.1%}" for p in pts) + " |")
    return "\n".join(out)


KiB, MiB, GiB = 2**10, 2**20, 2**30
# The three sweeps' out-of-place time column (us per call), at the sizes shown; the sources of the hidden rows
# (collectives.AWS_P4DE, AWS_P5: aws-samples/awsome-distributed-training 88c2e71, micro-benchmarks/nccl-tests/
# README.md; collectives.OKE_A100: oracle-quickstart/oci-hpc-oke 1402938, README.md).
SWEEPS: dict[str, dict[int, float]] = {
    "p4de": {8: 164.3, 32 * KiB: 224.6, 1 * MiB: 309.4, 4 * MiB: 533.9, 16 * MiB: 1191.8, 32 * MiB: 1540.2,
             128 * MiB: 3912.9, 1 * GiB: 26217.0},
    "p5": {8: 69.12, 32 * KiB: 111.7, 1 * MiB: 123.2, 4 * MiB: 168.6, 16 * MiB: 298.1, 32 * MiB: 439.7,
           128 * MiB: 870.3, 1 * GiB: 4607.6},
    "oke": {8: 36.47, 1 * KiB: 41.97, 8 * KiB: 48.16, 32 * KiB: 49.66, 128 * KiB: 54.86, 512 * KiB: 73.94,
            1 * MiB: 85.58, 4 * MiB: 127.0, 32 * MiB: 452.3, 1 * GiB: 9187.8},
}
_SETUPS = {"p4de": (collectives.P4DE_EFA, collectives.AWS_P4DE), "p5": (collectives.P5_EFA, collectives.AWS_P5),
           "oke": (collectives.OKE_ROCE, collectives.OKE_A100)}


def _setup(which: str) -> collectives.Setup:
    setup, cit = _SETUPS[which]
    return dataclasses.replace(setup, release=setup.release or collectives.release_of(cit))


def per_call_us(which: str, nbytes: int) -> float:
    """simdist's microseconds for one all-reduce of ``nbytes`` on sweep ``which``'s system (under whatever
    candidate is applied)."""
    setup = _setup(which)
    busbw = collectives.simulate_busbw(setup, "all_reduce", nbytes)
    return nbytes * nccl.bus_bandwidth_factor("all_reduce", setup.hosts * setup.gpus) / (busbw * 1e9) * 1e6


def _size(n: int) -> str:
    return collectives._size(n)


def sweep_report() -> str:
    """The doc's table: the two AWS sweeps, published us per call against simdist's under each candidate."""
    out = ["| sweep | size | published, us | " + " | ".join(f"`{n}`" for n in CANDIDATES) + " | NCCL's choice |",
           "|---|---|---:|" + "---:|" * len(CANDIDATES) + "---|"]
    for which in ("p4de", "p5"):
        setup = _setup(which)
        for n, t in SWEEPS[which].items():
            cells = []
            for name in CANDIDATES:
                with applied(name):
                    cells.append(f"{per_call_us(which, n):.1f}")
            choice = collectives._choice(setup, "all_reduce", n, "nccl")
            out.append(f"| {which} | {_size(n)} | {t:g} | " + " | ".join(cells) + f" | {choice} |")
    return "\n".join(out)


def oke_report() -> str:
    """The doc's table: the OKE RoCE sweep, published us per call against simdist's (no plugin term)."""
    setup = _setup("oke")
    out = ["| size | published, us | simdist, us | published less simdist, us | NCCL's choice |",
           "|---|---:|---:|---:|---|"]
    for n, t in SWEEPS["oke"].items():
        s = per_call_us("oke", n)
        out.append(f"| {_size(n)} | {t:g} | {s:.1f} | {t - s:+.1f} | {collectives._choice(setup, 'all_reduce', n, 'nccl')} |")
    return "\n".join(out)


if __name__ == "__main__":
    held = [evaluate(n) for n in CANDIDATES]
    sys.stdout.write("\n\n".join([report(held), rows_report(held), sweep_report(), oke_report()]) + "\n")
