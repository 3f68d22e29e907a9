"""NCCL's tuner constants by release: the numbers src/graph/tuning.cc (`ncclTopoTuneModel`) ranks
algorithms and protocols by, as they were at each release tag of NVIDIA/nccl.

NCCL's tuner is not one model: its base and per-hop latencies, LL's bandwidth share and cap, the
NVLS bandwidth rule, the ring's count of network steps and the speeds its NVLS graph search tries
(src/graph/search.cc) changed between releases. A measured
collective ran one release, which chose the (algorithm, protocol) by that release's constants;
the release is a property of the measured system's software, like its GPU model. Each `Tuner`
below holds the constants of a span of consecutive tags over which they did not change (read with
``git show <tag>:src/graph/tuning.cc`` for every tag of the span); `tuner` finds a release's span.
What the spans do not vary is master's (`nccl`'s) in every span: the tree correction factors, the
channel-trimming thresholds and the per-channel LL128 and tree caps (which differ before 2.18 on
Hopper only: 20 GB/s per LL128 channel before 2.17, 33 GB/s per tree channel on >2 nodes in 2.17).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Tuner", "SPANS", "DEFAULT", "tuner", "parse", "release_at"]

Lat = tuple[float, float, float]   # (LL, LL128, Simple), microseconds


@dataclass(frozen=True)
class Tuner:
    """One span of NCCL releases with the same tuner constants (those simdist's model uses).

    ``first``/``last``: the span's first and last release tags (as "2.21.5"); ``base_lat`` and
    ``hw_lat``: baseLat[algorithm] and hwLat[nvlink|pci|net][algorithm] (algorithms ring, tree,
    nvls, nvls_tree); ``ll_max_bw_1node``: llMaxBws on one node by GPU generation (volta, ampere,
    hopper); ``ring_ll_share``: the share of the ring's bus bandwidth LL is given for all-reduce
    (1/4 before 2.21, 1/2 since); ``nvls_ratio``: NVLS's bus-to-algorithm bandwidth ratio where the
    release uses a constant one (0.75, 5/6), None for the rule of 2.28 on (nvlsEfficiency x
    (nCh-1)/nCh x 2 x nRanks/nSteps); ``inter_steps_2n``: the ring counts 2 x nNodes network steps
    for all-reduce (before 2.23; since: 2 x (nNodes - 1)); ``nvls`` / ``nvls_tree``: the release has NVLS
    (from 2.17) / NVLS-tree (from 2.18); ``ll_net_intra``: LL's intra-node hop latency is multiplied
    by it on several nodes (1.8 before 2.18); ``nvls_speeds``: the per-channel bandwidths (GB/s) the
    release's graph search tries on one Hopper node, fastest first (search.cc ``sm90SpeedArrayIntra``),
    None where simdist does not model the release's NVLS search (2.17: no even pull from every GPU)."""

    first: str
    last: str
    base_lat: dict[str, Lat]
    hw_lat: dict[str, dict[str, Lat]]
    ll_max_bw_1node: tuple[float, float, float]
    ring_ll_share: float
    nvls_ratio: float | None
    inter_steps_2n: bool
    nvls: bool = True
    nvls_tree: bool = True
    ll_net_intra: float = 1.0
    nvls_speeds: tuple[float, ...] | None = None


def _lat(tree: Lat, ring: Lat, nvls: Lat, nvls_tree: Lat) -> dict[str, Lat]:
    return {"tree": tree, "ring": ring, "nvls": nvls, "nvls_tree": nvls_tree}


_Z: Lat = (0.0, 0.0, 0.0)
_PCI_RING: Lat = (1.0, 2.5, 5.7)
_NVL_RING: Lat = (0.6, 1.9, 3.4)
# search.cc sm90SpeedArrayIntra (read at every tag): 2.18.1-2.18.6, 2.19.1-2.20.5, 2.21.5 to 2.30.7 and master.
_SPEEDS_218 = (60.0, 40.0, 30.0, 24.0, 20.0, 15.0, 12.0, 6.0, 3.0)
_SPEEDS_219 = (60.0, 50.0, 40.0, 30.0, 24.0, 20.0, 15.0, 12.0, 6.0, 3.0)
_SPEEDS_221 = (60.0, 50.0, 40.0, 30.0, 24.0, 20.0, 15.0, 12.0, 11.0, 6.0, 3.0)

_OLD_HW = {"nvlink": _lat((0.52, 1.25, 28.0), (0.47, 1.9, 3.4), _Z, _Z),
           "pci": _lat((1.0, 1.9, 28.0), _PCI_RING, _Z, _Z),
           "net": _lat((5.0, 8.5, 28.0), (2.7, 4.0, 9.6), _Z, _Z)}

SPANS: tuple[Tuner, ...] = (
    Tuner("2.14.3", "2.16.5",   # (no NVLS before 2.17)
          base_lat=_lat((4.4, 4.4, 0.0), (3.6, 10.0, 8.4), _Z, _Z), hw_lat=_OLD_HW,
          ll_max_bw_1node=(39.0, 87.7, 87.7), ring_ll_share=0.25, nvls_ratio=0.75, inter_steps_2n=True,
          nvls=False, nvls_tree=False, ll_net_intra=1.8),
    Tuner("2.17.1", "2.17.1",
          base_lat=_lat((4.4, 4.4, 0.0), (3.6, 10.0, 8.4), (0.0, 0.0, 40.0), (0.0, 0.0, 40.0)), hw_lat=_OLD_HW,
          ll_max_bw_1node=(39.0, 87.7, 87.7), ring_ll_share=0.25, nvls_ratio=0.75, inter_steps_2n=True,
          nvls_tree=False, ll_net_intra=1.8),
    Tuner("2.18.3", "2.18.6",
          base_lat=_lat((6.8, 14.0, 0.0), (6.6, 14.0, 8.4), (0.0, 0.0, 23.0), (0.0, 0.0, 23.0)),
          hw_lat={"nvlink": _lat((0.6, 1.25, 4.0), _NVL_RING, _Z, _Z),
                  "pci": _lat((1.0, 1.9, 6.0), _PCI_RING, _Z, _Z),
                  "net": _lat((5.0, 8.5, 14.0), (2.7, 4.0, 14.0), (0.0, 0.0, 18.0), (0.0, 0.0, 19.0))},
          ll_max_bw_1node=(39.0, 87.7, 87.7), ring_ll_share=0.25, nvls_ratio=5.0 / 6.0, inter_steps_2n=True,
          nvls_speeds=_SPEEDS_218),
    Tuner("2.19.1", "2.20.5",
          base_lat=_lat((6.8, 14.0, 0.0), (6.6, 14.0, 8.4), _Z, _Z),
          hw_lat={"nvlink": _lat((0.6, 1.25, 28.0), _NVL_RING, (0.0, 0.0, 23.0), (0.0, 0.0, 23.0)),
                  "pci": _lat((1.0, 1.9, 28.0), _PCI_RING, _Z, _Z),
                  "net": _lat((5.0, 8.5, 28.0), (2.7, 4.0, 14.0), (0.0, 0.0, 18.0), (0.0, 0.0, 14.0))},
          ll_max_bw_1node=(39.0, 87.7, 87.7), ring_ll_share=0.25, nvls_ratio=5.0 / 6.0, inter_steps_2n=True,
          nvls_speeds=_SPEEDS_219),
    Tuner("2.21.5", "2.22.3",
          base_lat=_lat((6.8, 14.0, 0.0), (6.6, 14.0, 8.4), _Z, _Z),
          hw_lat={"nvlink": _lat((0.6, 1.25, 28.0), _NVL_RING, (0.0, 0.0, 25.0), (0.0, 0.0, 25.0)),
                  "pci": _lat((1.0, 1.9, 28.0), _PCI_RING, _Z, _Z),
                  "net": _lat((5.0, 8.5, 28.0), (2.7, 4.0, 14.0), (0.0, 0.0, 18.0), (0.0, 0.0, 14.0))},
          ll_max_bw_1node=(39.0, 87.7, 141.0), ring_ll_share=0.5, nvls_ratio=5.0 / 6.0, inter_steps_2n=True,
          nvls_speeds=_SPEEDS_221),
    Tuner("2.23.4", "2.27.7",
          base_lat=_lat((6.8, 14.0, 8.4), (6.6, 14.0, 8.4), _Z, _Z),
          hw_lat={"nvlink": _lat((0.6, 1.25, 4.0), _NVL_RING, (0.0, 0.0, 25.0), (0.0, 0.0, 25.0)),
                  "pci": _lat((1.0, 1.9, 4.0), _PCI_RING, _Z, _Z),
                  "net": _lat((5.0, 8.5, 14.0), (2.7, 4.0, 14.0), (0.0, 0.0, 18.0), (0.0, 0.0, 14.0))},
          ll_max_bw_1node=(39.0, 87.7, 141.0), ring_ll_share=0.5, nvls_ratio=5.0 / 6.0, inter_steps_2n=False,
          nvls_speeds=_SPEEDS_221),
    Tuner("2.28.3", "2.28.7",
          base_lat=_lat((6.8, 14.0, 8.4), (6.6, 14.0, 8.4), _Z, _Z),
          hw_lat={"nvlink": _lat((0.6, 1.25, 4.0), _NVL_RING, (0.0, 0.0, 25.0), (0.0, 0.0, 25.0)),
                  "pci": _lat((1.0, 1.9, 4.0), _PCI_RING, _Z, _Z),
                  "net": _lat((5.0, 8.5, 14.0), (2.7, 4.0, 14.0), (0.0, 0.0, 18.0), (0.0, 0.0, 14.0))},
          ll_max_bw_1node=(39.0, 87.7, 141.0), ring_ll_share=0.5, nvls_ratio=None, inter_steps_2n=False,
          nvls_speeds=_SPEEDS_221),
    Tuner("2.28.9", "2.30.7",
          base_lat=_lat((6.8, 14.0, 8.4), (6.6, 14.0, 8.4), _Z, _Z),
          hw_lat={"nvlink": _lat((0.6, 1.25, 4.0), _NVL_RING, (0.0, 0.0, 25.0), (0.0, 0.0, 25.0)),
                  "pci": _lat((1.0, 1.9, 4.0), _PCI_RING, _Z, _Z),
                  "net": _lat((5.0, 8.5, 14.0), (2.7, 4.0, 14.0), (0.0, 0.0, 18.0), (0.0, 0.0, 20.9))},
          ll_max_bw_1node=(39.0, 87.7, 141.0), ring_ll_share=0.5, nvls_ratio=None, inter_steps_2n=False,
          nvls_speeds=_SPEEDS_221),
)

# Release tags of NVIDIA/nccl and their dates (git log -1 --format=%cd <tag>), for rows whose page
# prints no release: the newest release tagged on or before the page's date (`release_at`).
_TAGGED = (("2.14.3", "2022-08-18"), ("2.15.1", "2022-09-27"), ("2.15.5", "2022-10-25"), ("2.16.2", "2022-11-30"),
           ("2.16.5", "2023-02-02"), ("2.17.1", "2023-03-01"), ("2.18.3", "2023-06-14"), ("2.18.5", "2023-08-23"),
           ("2.19.3", "2023-09-26"), ("2.18.6", "2023-10-10"), ("2.19.4", "2023-11-13"), ("2.20.3", "2024-02-13"),
           ("2.20.5", "2024-02-26"), ("2.21.5", "2024-04-02"), ("2.22.3", "2024-06-19"), ("2.23.4", "2024-09-16"),
           ("2.24.3", "2025-01-07"), ("2.25.1", "2025-01-27"), ("2.26.2", "2025-03-12"), ("2.26.5", "2025-04-22"),
           ("2.26.6", "2025-05-20"), ("2.27.3", "2025-05-29"), ("2.27.5", "2025-06-18"), ("2.27.6", "2025-07-11"),
           ("2.27.7", "2025-07-24"), ("2.28.3", "2025-09-02"), ("2.28.7", "2025-10-17"), ("2.28.9", "2025-11-10"),
           ("2.29.2", "2025-12-24"), ("2.29.3", "2026-02-03"), ("2.29.7", "2026-02-27"), ("2.30.3", "2026-04-14"),
           ("2.30.4", "2026-04-22"), ("2.30.7", "2026-06-04"))

DEFAULT = "2.30.7"   # the release simdist's tuner follows unless a system says otherwise (master 5067397)


def parse(release: str) -> tuple[int, int, int]:
    """"2.21.5" -> (2, 21, 5); a clear error for anything else."""
    parts = release.split(".") if isinstance(release, str) else []
    if len(parts) != 3 or not all(p.isdigit() for p in parts):
        raise ValueError(f"nccl release: expected 'major.minor.patch' such as '2.21.5', got {release!r}")
    return int(parts[0]), int(parts[1]), int(parts[2])


def tuner(release: str) -> Tuner:
    """The constants NCCL ``release`` tuned with: the span holding it; an error for a release outside
    every span (before 2.14.3, 2.18.1, after 2.30.7)."""
    v = parse(release)
    for span in SPANS:
        if parse(span.first) <= v <= parse(span.last):
            return span
    raise ValueError(f"nccl release {release!r}: simdist models NCCL's tuner for releases "
                     f"{', '.join(f'{s.first}-{s.last}' for s in SPANS)}")


def release_at(date: str) -> str:
    """The newest modelled release tagged on or before ``date`` (ISO "YYYY-MM-DD", or "YYYY-MM"
    read as that month's last day): the release a measurement published that day could have run,
    for pages that do not print theirs."""
    if not isinstance(date, str) or len(date) not in (7, 10):
        raise ValueError(f"nccl.release_at: expected 'YYYY-MM-DD' or 'YYYY-MM', got {date!r}")
    key = date if len(date) == 10 else date + "-31"
    found = [r for r, d in _TAGGED if d <= key]
    if not found:
        raise ValueError(f"nccl.release_at({date!r}): before the oldest modelled release {_TAGGED[0][0]} "
                         f"({_TAGGED[0][1]})")
    return max(found, key=parse)
