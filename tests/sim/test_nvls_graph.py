"""NCCL ranks single-node NVLS by the graph its search builds (simdist.sim.nccl.nvls_graph): one channel
per GPU at a speed of the release's sm90SpeedArrayIntra that (n + 1) channels' worth fits a GPU's NVLink
(src/graph/search.cc), not by the GPU's whole NVLink; simdist's delivered NVLS time does not follow it.

Expected values are recomputed here from NCCL's code (search.cc ncclTopoCompute / ncclTopoSearchTryNvls,
tuning.cc ncclTopoTuneModel) and compared with the tuner tables NCCL 2.29.2 printed on an 8x H100 node
(waynehacking8/nccl-collectives-bench ec97f06, results/scaling_attributed/g{2,4,6}_auto.log,
NCCL_DEBUG_SUBSYS=TUNING: AllReduce bandwidth column, GB/s)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from simdist.sim import nccl, nccl_release

GiB = 2**30
H100 = nccl.System(nranks=8, nodes=1, intra_bw=360e9, arch="hopper", nvls=True)

# search.cc sm90SpeedArrayIntra at the tags (git show <tag>:src/graph/search.cc)
SPEEDS = {"2.18.5": (60.0, 40.0, 30.0, 24.0, 20.0, 15.0, 12.0, 6.0, 3.0),
          "2.20.5": (60.0, 50.0, 40.0, 30.0, 24.0, 20.0, 15.0, 12.0, 6.0, 3.0),
          "2.27.7": (60.0, 50.0, 40.0, 30.0, 24.0, 20.0, 15.0, 12.0, 11.0, 6.0, 3.0),
          "2.29.2": (60.0, 50.0, 40.0, 30.0, 24.0, 20.0, 15.0, 12.0, 11.0, 6.0, 3.0),
          "2.30.7": (60.0, 50.0, 40.0, 30.0, 24.0, 20.0, 15.0, 12.0, 11.0, 6.0, 3.0)}
LINK = 18 * 20.6   # H100/H200: 18 NVLinks x SM90_NVLINK_BW (topo.h)

# NCCL 2.29.2's printed tuner table on n GPUs of the node: AllReduce algorithm bandwidth, GB/s
PRINTED_2_29_2 = {2: {"nvls": 102.0, "ring": 360.0}, 4: {"nvls": 160.0, "ring": 240.0},
                  6: {"nvls": 216.0, "ring": 216.0}}


def _graph_from_search_cc(n: int, speeds: tuple[float, ...]) -> tuple[float, float]:
    """What the search settles on: the start speed skips those over maxBw or with s x n over totalBw x
    n/(n-1); a speed is kept when every GPU's NVSwitch link carries its channels (each GPU s per channel,
    the head 2s: (n+1) s in all); pass 2 raises bwInter a speed at a time while it is below 2 x bwIntra."""
    i = 0
    while speeds[i] > LINK or speeds[i] * n > LINK * n / (n - 1):
        i += 1
    while (n + 1) * speeds[i] > LINK:
        i += 1
    intra = inter = speeds[i]
    while i > 0 and inter < 2 * intra:
        i -= 1
        inter = speeds[i]
    return intra, inter


def _ranking_bw(system: nccl.System, algorithm: str) -> float:
    """NCCL's modelled algorithm bandwidth (GB/s) for ``algorithm``/Simple: the slope of its model time."""
    t = {}
    for nbytes in (1 * GiB, 2 * GiB):
        t[nbytes] = next(c.model_time for c in nccl.options("all_reduce", nbytes, system)
                         if (c.algorithm, c.protocol) == (algorithm, "Simple"))
    return GiB / (t[2 * GiB] - t[GiB]) / 1e9


@pytest.mark.parametrize("release", sorted(SPEEDS))
@pytest.mark.parametrize("n", [2, 3, 4, 5, 6, 7, 8])
def test_nvls_graph_is_search_cc(release: str, n: int) -> None:
    t = nccl_release.tuner(release)
    assert t.nvls_speeds == SPEEDS[release], \
        f"{release}: speeds {t.nvls_speeds}, but search.cc has {SPEEDS[release]}"
    got = nccl.nvls_graph(replace(H100, nranks=n, release=release), t)
    want = _graph_from_search_cc(n, SPEEDS[release])
    assert got == want, f"nvls_graph={got}, but should be {want} [{n} H100s, NCCL {release}]"


def test_the_2_17_search_is_not_modelled() -> None:
    got = nccl.nvls_graph(replace(H100, release="2.17.1"), nccl_release.tuner("2.17.1"))
    assert got is None, f"nvls_graph={got}, but should be None [2.17.1: no even pull from every GPU]"


@pytest.mark.parametrize("n", sorted(PRINTED_2_29_2))
def test_ranking_bandwidth_is_what_nccl_2_29_2_printed(n: int) -> None:
    system = replace(H100, nranks=n, release="2.29.2")
    for algorithm, printed in PRINTED_2_29_2[n].items():
        got = _ranking_bw(system, algorithm)
        assert got == pytest.approx(printed, abs=0.05), \
            f"{algorithm} bandwidth {got:.2f} GB/s, but NCCL 2.29.2 printed {printed} [{n} H100s]"


@pytest.mark.parametrize("release, picks", [
    # waynehacking8 g{2,4,6}_auto.log, NCCL 2.29.2, 256 MiB to 8 GiB: "Algo RING" on 2 and 4, "Algo NVLS" on 6
    ("2.29.2", {2: "ring", 4: "ring", 6: "nvls"}),
    # stas00/ml-engineering network/README.md, 'SHARP', 8 GiB on 4 to 8 of an 8x H200 node: 4 Ring, 5-8 NVLS
    # (the node's release in the page's other runs: 2.27.7)
    ("2.27.7", {4: "ring", 5: "nvls", 6: "nvls", 7: "nvls", 8: "nvls"}),
])
def test_large_message_choice_follows_the_gpu_count(release: str, picks: dict[int, str]) -> None:
    for n, want in picks.items():
        for nbytes in (256 * 2**20, 1 * GiB, 8 * GiB):
            got = nccl.choose("all_reduce", nbytes, replace(H100, nranks=n, release=release)).algorithm
            assert got == want, f"choice {got}, but should be {want} [{n} H100s, {nbytes} B, NCCL {release}]"


def test_the_graph_ranks_but_does_not_time(monkeypatch: pytest.MonkeyPatch) -> None:
    # The NVLS kernel runs its own 16 channels whatever speed the search settled on: the predicted time
    # of a forced NVLS is the same with the graph rule and without it.
    for n in (4, 6, 8):
        system = replace(H100, nranks=n)
        with_rule = nccl.choose("all_reduce", GiB, system, algorithm="nvls").time
        monkeypatch.setattr(nccl, "nvls_graph", lambda system, tuner: None)
        without = nccl.choose("all_reduce", GiB, system, algorithm="nvls").time
        monkeypatch.undo()
        assert with_rule == without, f"NVLS time {with_rule} s with the graph, {without} s without [{n} H100s]"
