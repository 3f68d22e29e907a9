"""Multi-GPU scaling of the published BERT pre-training tables, and what simdist's model spends on
communication in them (docs/validation.md "Eighth session: DGX-1 scaling").

A table's cells run the same micro-batch on 1, 4, 8 (16) GPUs, so each GPU's time per micro-batch,
``batch x GPUs / published``, would not move with the GPU count unless something in a micro-batch
depends on it (the optimizer step, once per 64 to 16,384 micro-batches, is in that time too; in
simdist's model it is under 0.1% of it on every single-node V100 row, `comm_share`).
`excess_rows` gives each multi-GPU cell's time per micro-batch less its table's 1-GPU cell's;
`comm_share` the share of simdist's optimizer step spent all-reducing the gradients;
`dgx1_ring_bandwidth` the NVLink bandwidth a ring all-reduce can use on a DGX-1, from its topology;
`candidates` what three source-backed rules would change on the hidden set's training rows.
``python -m simdist.validation.scaling`` prints the doc's two tables (`report`).
"""

from __future__ import annotations

import statistics
import sys
from dataclasses import dataclass
from functools import lru_cache

from .training import EXPERIMENTS, HIDDEN_EXPERIMENTS, Experiment, phases

__all__ = ["NVLINK2_LINK", "V100_LINKS", "DGX1_RINGS", "HOROVOD_CYCLE", "dgx1_ring_bandwidth", "micro_time",
           "Excess", "excess_rows", "v100_tf1_mean_excess", "comm_share", "candidates", "report"]

# NVIDIA DGX-1 With Tesla V100 System Architecture whitepaper (2017), section "DGX-1 NVLink
# Network Topology": "Each Tesla V100 GPU has six NVLink connection points, each providing a point-to-point
# connection to another GPU at a peak bandwidth of 25 GB/s in each direction"; the hybrid cube-mesh "can
# also be thought of as three interwoven rings of single NVLink connections".
NVLINK2_LINK = 25e9
V100_LINKS = 6
DGX1_RINGS = 3
# Horovod of the 20.06 NGC containers' time (the same in every tag from v0.18.2 to v0.20.3, v0.19.x included):
# horovod/common/operations.cc sets the background thread's cycle to 5 ms (`SetCycleTimeMs(5)`, unless
# HOROVOD_CYCLE_TIME is set; the TF1 BERT scripts do not set it) and `RunLoopOnce` sleeps until the
# cycle's end before it negotiates the tensors enqueued meanwhile.
HOROVOD_CYCLE = 5e-3


def dgx1_ring_bandwidth(gpus: int) -> float:
    """The NVLink bandwidth per GPU per direction (bytes/s, nominal) a ring all-reduce can use on
    ``gpus`` GPUs of a DGX-1 (V100). 8 GPUs: the three rings of single links, each run in both
    directions, use all six links: 6 x 25 GB/s, the preset's figure. 4 GPUs (one quad, GPUs 0-3 or
    4-7, the two fully connected faces): of the 24 links (8 x 6 / 2), each of the three rings crosses
    between the quads at least twice, so the quads are joined by >= 6 links over their 4 cube
    edges; an edge has at most two links, so at least one edge has two, and its GPUs keep 6 - 2 = 4
    links inside their quad. A ring through all four GPUs leaves each GPU on one link per channel,
    so its bandwidth is at most 4 x 25 = 100 GB/s per direction: 2/3 of the preset's."""
    if gpus == 8:
        return 2 * DGX1_RINGS * NVLINK2_LINK
    if gpus == 4:
        cross_links = 2 * DGX1_RINGS           # each ring crosses between the quads at least twice
        edges = 4                               # cube edges between the two faces, at most 2 links each
        doubled = max(0, cross_links - edges)   # edges that must carry two links
        return (V100_LINKS - (2 if doubled else 1)) * NVLINK2_LINK
    raise ValueError(f"dgx1_ring_bandwidth: gpus={gpus!r}; a DGX-1 ring is derived here for 4 (one quad) or 8 GPUs")


def micro_time(e: Experiment) -> float:
    """The published cell's seconds per micro-batch on each GPU (``batch x GPUs / published``)."""
    return e.batch * e.gpus / e.published


@dataclass(frozen=True)
class Excess:
    """A table line's time per micro-batch on 1 GPU and, per GPU count, how much longer it is."""

    program: str        # "tf1" or "tf2"
    table: str          # e.g. "DGX-1 16GB"
    seq: int
    mixed: bool
    batch: int
    one_gpu: float      # seconds per micro-batch on 1 GPU
    more: tuple[tuple[int, float], ...]   # (GPUs, seconds per micro-batch - one_gpu)


def _single_node_bert() -> list[Experiment]:
    return [e for e in HIDDEN_EXPERIMENTS + EXPERIMENTS if e.model == "bert" and e.hosts == 1]


def excess_rows() -> list[Excess]:
    """Every single-node BERT table line (program, table, seq, precision, batch) that has a 1-GPU
    cell, in first-seen order: its multi-GPU cells' excess time per micro-batch."""
    lines: dict[tuple, list[Experiment]] = {}
    for e in _single_node_bert():
        # (a multi-node table's 1-node cells are a line of their own: "Num Nodes 1")
        key = (e.program, e.table_row.split(",")[0], "Num Nodes" in e.table_row, e.seq, e.mixed, e.batch)
        lines.setdefault(key, []).append(e)
    out = []
    for (program, table, _, seq, mixed, batch), es in lines.items():
        ones = [e for e in es if e.gpus == 1]
        if not ones:
            continue
        t1 = micro_time(ones[0])
        more = tuple(sorted((e.gpus, micro_time(e) - t1) for e in es if e.gpus > 1))
        if more:
            out.append(Excess(program, table, seq, mixed, batch, t1, more))
    return out


def comm_share(e: Experiment) -> float:
    """The share of simdist's optimizer step (``accumulation`` micro-batches, the all-reduce, the
    update) that the gradients' all-reduce takes."""
    micro, reduce, update = phases(e)
    return reduce / (micro * e.accumulation + reduce + update)


def _throughput(e: Experiment, micro: float, reduce: float, update: float) -> float:
    return e.batch * e.gpus * e.accumulation / (micro * e.accumulation + reduce + update)


def _is_dgx1(e: Experiment) -> bool:
    return e.table_row.startswith("DGX-1")


# Each candidate: (name, what it changes) -> the phases it gives a row's (micro, reduce, update).
def _dgx1_quad(e: Experiment, p: tuple[float, float, float]) -> tuple[float, float, float]:
    if _is_dgx1(e) and e.gpus == 4:   # a bandwidth-bound ring: time x preset bandwidth / the quad's
        return p[0], p[1] * 2 * DGX1_RINGS * NVLINK2_LINK / dgx1_ring_bandwidth(4), p[2]
    return p


def _fp16_compression(e: Experiment, p: tuple[float, float, float]) -> tuple[float, float, float]:
    if e.program == "tf1" and e.mixed and e.gpus > 1:   # float16 on the wire: half the bytes
        return p[0], p[1] / 2, p[2]
    return p


def _horovod_cycle(e: Experiment, p: tuple[float, float, float]) -> tuple[float, float, float]:
    if e.program == "tf1" and e.mixed and e.gpus > 1:   # half a cycle's wait, exposed every micro-batch
        return p[0] + HOROVOD_CYCLE / 2, p[1], p[2]
    return p


@lru_cache(maxsize=None)
def v100_tf1_mean_excess() -> float:
    """The mean excess per micro-batch (seconds) over every multi-GPU cell of the TF1 README's V100
    tables (DGX-1 16GB and 32GB, DGX-2): what the diagnostic below adds."""
    return statistics.fmean(d for x in excess_rows() if x.program == "tf1" and x.table.startswith("DGX-")
                            for _, d in x.more)


def _v100_excess(e: Experiment, p: tuple[float, float, float]) -> tuple[float, float, float]:
    if e.program == "tf1" and e.gpu == "V100" and e.gpus > 1:
        return p[0] + v100_tf1_mean_excess(), p[1], p[2]
    return p


CANDIDATES = (
    ("none (main's model)", lambda e, p: p),
    ("DGX-1 4-GPU ring at the quad's 100 GB/s", _dgx1_quad),
    ("Horovod fp16 compression (TF1, mixed precision)", _fp16_compression),
    ("Horovod half-cycle exposed per micro-batch (TF1, mixed precision)", _horovod_cycle),
    ("diagnostic, not a rule: the V100 TF1 tables' own mean excess per micro-batch on their multi-GPU rows",
     _v100_excess),
)


def _summary(errs: list[float]) -> str:
    a = [abs(x) for x in errs]
    return f"{statistics.median(a):.1%} / {max(a):.1%} ({sum(x > 0.25 for x in a)})"


def candidates() -> list[tuple[str, str, str, str]]:
    """Per candidate rule (each alone): median / max |error| (rows over 25%) on the hidden set's 63
    training rows, on its 12 DGX-1 16GB rows, and the largest |change| of any row's throughput."""
    base = {e.id: phases(e) for e in HIDDEN_EXPERIMENTS}
    out = []
    for name, rule in CANDIDATES:
        errs, g16, moved = [], [], 0.0
        for e in HIDDEN_EXPERIMENTS:
            p = base[e.id]
            got = _throughput(e, *rule(e, p))
            moved = max(moved, abs(got / _throughput(e, *p) - 1.0))
            err = got / e.published - 1.0
            errs.append(err)
            if e.table_row.startswith("DGX-1 16GB"):
                g16.append(err)
        out.append((name, _summary(errs), _summary(g16), f"{moved:.2%}"))
    return out


def report(cands: list[tuple[str, str, str, str]] | None = None) -> str:
    """docs/validation.md's two generated tables: the published excess per micro-batch, and the
    candidates' figures (``cands``: `candidates`' result, computed if not given)."""
    lines = ["| program | table | seq | precision | batch/GPU | 1 GPU, ms per micro-batch | excess at 4 / 8 / 16 GPUs, ms |",
             "|---|---|---:|---|---:|---:|---|"]
    for x in excess_rows():
        more = {g: d for g, d in x.more}
        cells = " / ".join(f"{more[g] * 1e3:+.1f}" if g in more else "–" for g in (4, 8, 16))
        lines.append(f"| {x.program} | {x.table} | {x.seq} | {'mixed' if x.mixed else 'FP32/TF32'} | {x.batch} | "
                     f"{x.one_gpu * 1e3:.1f} | {cells} |")
    lines += ["", "| rule (alone) | hidden, 63 training rows | hidden, DGX-1 16GB (12) | largest change of a row |",
              "|---|---|---|---:|"]
    for name, all_rows, g16, moved in (candidates() if cands is None else cands):
        lines.append(f"| {name} | {all_rows} | {g16} | {moved} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    print(report(), end="")
    worst = max((e for e in HIDDEN_EXPERIMENTS if e.gpu == "V100" and e.gpus > 1), key=comm_share)
    print(f"\nlargest all-reduce share of a V100 TF1 row: {comm_share(worst):.4%} ({worst.id}); "
          f"the V100 TF1 tables' mean excess per micro-batch: {v100_tf1_mean_excess() * 1e3:.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
