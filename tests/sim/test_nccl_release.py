"""NCCL's tuner constants by release (simdist.sim.nccl_release): each release chooses by its own
tuning.cc, simdist times the choice with its calibrated model, and published rows run the release
they name (or the newest one tagged before their date)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from simdist.sim import Simulator, collectives, nccl, nccl_release, presets
from simdist.validation import collectives as vcoll

A100 = nccl.System(nranks=8, nodes=1, intra_bw=240e9, arch="ampere")
H100 = nccl.System(nranks=8, nodes=1, intra_bw=360e9, arch="hopper", nvls=True)
MiB = 2**20


def _pick(system: nccl.System, nbytes: float, release: str, **kw: str) -> nccl.Choice:
    return nccl.choose("all_reduce", nbytes, replace(system, release=release), **kw)


def test_spans_are_ordered_and_disjoint():
    spans = nccl_release.SPANS
    for s in spans:
        assert nccl_release.parse(s.first) <= nccl_release.parse(s.last), f"span {s.first}-{s.last} is reversed"
    for a, b in zip(spans, spans[1:]):
        assert nccl_release.parse(a.last) < nccl_release.parse(b.first), \
            f"spans {a.first}-{a.last} and {b.first}-{b.last} overlap or are out of order"
    assert spans[-1].last == nccl_release.DEFAULT, \
        f"the newest span ends at {spans[-1].last}, but simdist's default release is {nccl_release.DEFAULT}"
    for s in spans:
        assert nccl_release.tuner(s.first) is s and nccl_release.tuner(s.last) is s, f"span {s.first}-{s.last}"


@pytest.mark.parametrize("bad, match", [("2.21", "major.minor.patch"), ("v2.21.5", "major.minor.patch"),
                                        ("2.12.12", "models NCCL's tuner"), ("2.18.1", "models NCCL's tuner"),
                                        ("2.31.0", "models NCCL's tuner")])
def test_unmodelled_or_malformed_release_is_a_clear_error(bad, match):
    with pytest.raises(ValueError, match=match):
        nccl_release.tuner(bad)
    with pytest.raises(ValueError, match=match):
        nccl.System(nranks=8, nodes=1, intra_bw=240e9, release=bad)
    with pytest.raises(ValueError, match=match):
        presets.gpu_cluster(gpu="A100", nccl_release=bad)


def test_ll_share_before_2_21_moves_the_ll_to_ll128_switch():
    # tuning.cc before 2.21: ring LL all-reduce gets min(llMaxBw, busBw / 4); since: busBw / 2. On 8
    # A100s (240 GB/s per GPU, 12 channels, llMaxBw 87.7) at 2 MiB, from the constants:
    #   LL    lat 6.6 + 14 x 0.6 = 15 us;  bus min(87.7, 60) = 60 (2.19) | min(87.7, 120) = 87.7 (2.30)
    #   LL128 lat 14 + 14 x 1.9 = 40.6 us; bus min(240 x 0.92, 12 x 20) = 220.8
    nbytes, alg = 2 * MiB, 8 / 14

    def t(lat, bus):
        return lat + nbytes / (bus * alg * 1e3)

    ll_219, ll_230, ll128 = t(15.0, 60.0), t(15.0, 87.7), t(40.6, 220.8)
    assert ll_219 > ll128 > ll_230, "the constants no longer put 2 MiB between the two releases' switches"
    old, new = _pick(A100, nbytes, "2.19.4"), _pick(A100, nbytes, "2.30.7")
    assert (old.protocol, new.protocol) == ("LL128", "LL"), \
        f"2 MiB on 8 A100s: expected 2.19.4 -> LL128, 2.30.7 -> LL, got {old.protocol}, {new.protocol}"
    assert old.model_time == pytest.approx(ll128 * 1e-6), f"2.19.4's LL128 model time {old.model_time}"
    assert new.model_time == pytest.approx(ll_230 * 1e-6), f"2.30.7's LL model time {new.model_time}"


def test_the_release_chooses_but_does_not_time():
    # One calibrated model times what was chosen: a forced (algorithm, protocol) takes the same time
    # whatever the release; only NCCL's own estimate (model_time) follows the release's constants.
    for proto in ("LL", "LL128", "Simple"):
        a, b = _pick(A100, 4 * MiB, "2.15.5", algorithm="ring", protocol=proto), \
            _pick(A100, 4 * MiB, "2.30.7", algorithm="ring", protocol=proto)
        assert a.time == b.time, f"ring/{proto}: predicted {a.time} under 2.15.5 but {b.time} under 2.30.7"
    a, b = _pick(A100, 4 * MiB, "2.15.5", algorithm="ring", protocol="LL"), \
        _pick(A100, 4 * MiB, "2.30.7", algorithm="ring", protocol="LL")
    assert a.model_time > b.model_time, f"ring/LL: 2.15.5's tuner (1/4 share) should rank it slower: {a}, {b}"


def test_nvls_exists_from_2_17_and_nvls_latency_follows_the_release():
    with pytest.raises(ValueError, match="no algorithm/protocol"):
        _pick(H100, 64 * MiB, "2.16.5", algorithm="nvls")
    assert _pick(H100, 64 * MiB, "2.16.5").algorithm == "ring", "2.16.5 has no NVLS: the ring must carry 64 MiB"
    # NVLS latency: baseLat 23 us (2.18.x), hwLat[NVLINK] 23 us (2.19-2.20), 25 us (2.21 on)
    for release, lat in (("2.18.5", 23.0), ("2.20.5", 23.0), ("2.21.5", 25.0), ("2.30.7", 25.0)):
        t = nccl_release.tuner(release)
        got = t.base_lat["nvls"][2] + t.hw_lat["nvlink"]["nvls"][2]
        assert got == lat, f"{release}: NVLS latency {got} us, expected {lat}"


def test_h100_walk_under_2_30_7_matches_the_logged_choices():
    # rakshithvasudev.github.io (page e4e008d, 'Watch it decide'): 8x H100, NCCL 2.30.7, free choice:
    # "ring with LL up to 1 MiB, then straight to the switch from 2 MiB on ... No LL128 window".
    for k in range(10, 31):
        c = _pick(H100, 2**k, "2.30.7")
        want = ("ring", "LL") if 2**k <= MiB else ("nvls", "Simple")
        assert (c.algorithm, c.protocol) == want, f"{2**k} B: expected {want}, got {c.algorithm}/{c.protocol}"


def test_h200_walk_under_2_27_7_matches_the_logged_switch():
    # stas00/ml-engineering network/README.md, SHARP (2026-08-04): NCCL 2.27.7 on 8x H200 logs ring/LL
    # up to 1 MiB and NVLS/Simple from 2 MiB.
    for nbytes, want in ((MiB, ("ring", "LL")), (2 * MiB, ("nvls", "Simple"))):
        c = _pick(H100, nbytes, "2.27.7")
        assert (c.algorithm, c.protocol) == want, f"{nbytes} B: expected {want}, got {c.algorithm}/{c.protocol}"


def test_release_at_is_the_newest_tag_on_or_before_the_date():
    tags = dict(nccl_release._TAGGED)
    for date in ("2022-11-17", "2023-12-15", "2024-05-06", "2026-08-04", "2024-06"):
        r = nccl_release.release_at(date)
        key = date if len(date) == 10 else date + "-31"
        assert tags[r] <= key, f"{date}: {r} was tagged {tags[r]}, after the date"
        later = [t for t, d in tags.items() if d <= key and nccl_release.parse(t) > nccl_release.parse(r)]
        assert not later, f"{date}: {r} chosen, but {later} were tagged by then too"
    with pytest.raises(ValueError, match="before the oldest"):
        nccl_release.release_at("2021-01-01")
    with pytest.raises(ValueError, match="YYYY-MM"):
        nccl_release.release_at("Dec 2023")


def test_validation_rows_run_their_release():
    assert vcoll.release_of(vcoll.AZ_H100) == "2.18.5" and vcoll.release_of(vcoll.RV_H100) == "2.30.7"
    assert vcoll.release_of(vcoll.A100_SWEEP) == nccl_release.release_at(vcoll.A100_SWEEP.date)
    rows = {m.id: m for m in vcoll.measurements() + vcoll.hidden_measurements()}
    assert "NCCL 2.18.5" in rows["nccl-allreduce-h100-1x8-32KiB-nvls"].derivation
    assert "NCCL 2.19.4" in rows["nccl-allreduce-a100-1x8-1MiB"].derivation


def test_a_preset_clusters_release_reaches_the_simulated_collective():
    cluster = presets.gpu_cluster(gpu="A100", nccl_release="2.19.4")
    devs = [d for d in cluster.devices() if d.kind == "GPU"]
    sim = Simulator(cluster)
    assert collectives.nccl_system(devs).release == "2.19.4"
    c = collectives.nccl_choice(sim, "all_reduce", devs, 2 * MiB)
    assert c.protocol == "LL128", f"2 MiB on a 2.19.4 A100 node: NCCL picks ring/LL128, simdist {c.protocol}"
    default = presets.gpu_cluster(gpu="A100")
    ddevs = [d for d in default.devices() if d.kind == "GPU"]
    assert collectives.nccl_system(ddevs).release == nccl_release.DEFAULT
