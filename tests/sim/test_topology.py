"""Cluster construction, device naming and lookup, routes, presets."""

from __future__ import annotations

import pytest

from simdist.sim import Cluster, Device, Host, Link, UnknownDeviceError, hardware, presets


def two_gpu_hosts(nvlink=True):
    nv = ("300GB/s", "2us") if nvlink else None
    return Cluster([Host("worker", 0, cpus=1, gpus=2, pcie=("32GB/s", "2us"), nvlink=nv),
                    Host("worker", 1, cpus=1, gpus=2, pcie=("32GB/s", "2us"), nvlink=nv)],
                   network=("100Gbps", "10us"))


def test_devices_in_host_order_cpus_then_gpus():
    c = two_gpu_hosts()
    names = [d.name for d in c.devices()]
    assert names == [
        "/job:worker/replica:0/task:0/device:CPU:0", "/job:worker/replica:0/task:0/device:GPU:0",
        "/job:worker/replica:0/task:0/device:GPU:1", "/job:worker/replica:0/task:1/device:CPU:0",
        "/job:worker/replica:0/task:1/device:GPU:0", "/job:worker/replica:0/task:1/device:GPU:1",
    ], names


def test_device_lookup_canonical_and_partial_names():
    c = presets.gpu_host(gpus=2)
    gpu0 = "/job:localhost/replica:0/task:0/device:GPU:0"
    for alias in (gpu0, "/device:GPU:0", "GPU:0", "/gpu:0", "gpu:0", "/job:localhost/task:0/device:GPU:0",
                  "/job:localhost/replica:0/task:0/device:gpu:0"):
        got = c.device(alias).name
        assert got == gpu0, f"{alias!r}: expected {gpu0}, got {got}"
    assert c.device("/cpu:0").name == "/job:localhost/replica:0/task:0/device:CPU:0"
    assert c.device("/job:localhost").name == "/job:localhost/replica:0/task:0/device:CPU:0"


def test_partial_names_resolve_against_first_host():
    c = presets.cpu_cluster({"worker": 2, "ps": 1})
    first = c.hosts[0].name  # hosts sorted by job name: ps before worker
    assert first == "/job:ps/replica:0/task:0", first
    assert c.device("/cpu:0").name == first + "/device:CPU:0"
    assert c.device("/job:worker/task:1/device:CPU:0").name == "/job:worker/replica:0/task:1/device:CPU:0"


def test_unknown_device_lists_known_devices():
    c = presets.gpu_host(gpus=2)
    with pytest.raises(KeyError) as e:
        c.device("/device:GPU:7")
    msg = str(e.value)
    assert "'/device:GPU:7'" in msg and "/job:localhost/replica:0/task:0/device:GPU:1" in msg, msg
    with pytest.raises(UnknownDeviceError):
        c.device("/job:worker/task:3/device:CPU:0")
    with pytest.raises(UnknownDeviceError):
        c.device("/device:TPU:0")


def test_routes():
    c = two_gpu_hosts()
    r = lambda a, b: [ln.name for ln in c.route(a, b)]  # noqa: E731
    w0, w1 = "/job:worker/replica:0/task:0", "/job:worker/replica:0/task:1"
    assert r(f"{w0}/device:GPU:0", f"{w0}/device:GPU:0") == []
    assert r(f"{w0}/device:CPU:0", f"{w0}/device:GPU:1") == [f"{w0}/pcie:GPU:1"]
    assert r(f"{w0}/device:GPU:1", f"{w0}/device:CPU:0") == [f"{w0}/pcie:GPU:1"]
    assert r(f"{w0}/device:GPU:0", f"{w0}/device:GPU:1") == [f"{w0}/nvlink:GPU:0", f"{w0}/nvlink:GPU:1"]
    assert r(f"{w0}/device:GPU:0", f"{w1}/device:GPU:1") == [f"{w0}/pcie:GPU:0", f"{w0}/nic", f"{w1}/nic",
                                                              f"{w1}/pcie:GPU:1"]
    assert r(f"{w0}/device:CPU:0", f"{w1}/device:CPU:0") == [f"{w0}/nic", f"{w1}/nic"]
    no_nv = two_gpu_hosts(nvlink=False)
    got = [ln.name for ln in no_nv.route(f"{w0}/device:GPU:0", f"{w0}/device:GPU:1")]
    assert got == [f"{w0}/pcie:GPU:0", f"{w0}/pcie:GPU:1"], got


def test_route_latency_sums_to_specs():
    c = two_gpu_hosts()
    w0, w1 = "/job:worker/replica:0/task:0", "/job:worker/replica:0/task:1"
    nic = sum(ln.latency for ln in c.route(f"{w0}/device:CPU:0", f"{w1}/device:CPU:0"))
    assert nic == pytest.approx(10e-6, rel=1e-12), f"host-to-host latency: expected 10us, got {nic}"
    nv = sum(ln.latency for ln in c.route(f"{w0}/device:GPU:0", f"{w0}/device:GPU:1"))
    assert nv == pytest.approx(2e-6, rel=1e-12), f"GPU-to-GPU NVLink latency: expected 2us, got {nv}"
    assert c.route(f"{w0}/device:GPU:0", f"{w1}/device:GPU:0")[1].bandwidth == 100e9 / 8


def test_link_specs_and_errors():
    ln = Link("x", "32GB/s", "2us")
    assert (ln.bandwidth, ln.latency) == (32e9, 2e-6)
    with pytest.raises(ValueError, match=r"Link\('x'\)\.bandwidth: must be > 0"):
        Link("x", 0)
    with pytest.raises(ValueError, match=r"Cluster\.network\.bandwidth: '10 Gbq' is not a bandwidth"):
        Cluster([Host()], network=("10 Gbq", "1us"))
    with pytest.raises(ValueError, match=r"Cluster\.network: unknown key\(s\) \['bw'\]"):
        Cluster([Host()], network={"bw": "1Gbps"})
    with pytest.raises(ValueError, match=r"Device\.kind: expected 'CPU' or 'GPU', got 'TPU'"):
        Device("TPU", 0)
    with pytest.raises(ValueError, match=r"Device\(GPU:0\)\.memory: '80 GiBs' is not a size"):
        Device("GPU", 0, flops="100TFLOPS", memory="80 GiBs")
    with pytest.raises(ValueError, match=r"duplicate host job='worker' task=0"):
        Cluster([Host("worker", 0), Host("worker", 0)])
    with pytest.raises(ValueError, match=r"Host\.job"):
        Host("bad job")


def test_hosts_can_be_reused_across_clusters():
    h = Host("worker", 0, gpus=1)
    a = Cluster([h])
    b = Cluster([h, Host("worker", 1)])
    assert a.hosts[0] is h and b.hosts[0] is not h, "a host already in a cluster is copied"
    assert [d.name for d in b.devices()][:2] == [d.name for d in a.devices()]
    assert b.devices()[1].ordinal == 1 and a.devices()[1].ordinal == 1


def test_presets():
    c = presets.gpu_host(gpus=8, gpu="A100")
    gpus = [d for d in c.devices() if d.kind == "GPU"]
    spec = presets.GPUS["A100"]
    assert len(gpus) == 8
    assert gpus[0].flops == 312e12 * hardware.COMPUTE_EFFICIENCY, gpus[0].flops
    assert gpus[0].memory == 80 * 2**30
    h = c.hosts[0]
    assert h.nvlink is not None and h.nvlink[0].bandwidth == 300e9 * hardware.LINK_EFFICIENCY
    assert h.pcie[0].bandwidth == 32e9 * hardware.LINK_EFFICIENCY, "A100 preset is PCIe 4.0"
    assert spec.flops == 156e12
    assert set(presets.GPUS) >= {"V100", "A100", "H100"}
    with pytest.raises(ValueError, match="unknown GPU model 'Z80'; known models: A100, A100-40GB, A100-80GB, H100, H200, V100"):
        presets.gpu_host(gpu="Z80")

    g = presets.gpu_cluster(hosts=4, gpus_per_host=8, network="100Gbps")
    assert len(g.devices()) == 4 * 9 and g.hosts[3].name == "/job:worker/replica:0/task:3"
    assert g.hosts[0].nic.bandwidth == 12.5e9
    two = Cluster([presets.gpu_host(gpus=2, job="worker", task=0), presets.gpu_host(gpus=2, job="worker", task=1)])
    assert len(two.devices()) == 6

    pc = presets.cpu_cluster(jobs={"worker": 2, "ps": 1, "chief": 1}, network="25Gbps")
    names = [d.name for d in pc.devices()]
    assert names == ["/job:chief/replica:0/task:0/device:CPU:0", "/job:ps/replica:0/task:0/device:CPU:0",
                     "/job:worker/replica:0/task:0/device:CPU:0", "/job:worker/replica:0/task:1/device:CPU:0"], names
    same = presets.cpu_cluster(jobs={"chief": ["a:1"], "ps": ["b:1"], "worker": ["c:1", "d:1"]})
    assert [d.name for d in same.devices()] == names, "ClusterSpec-style address lists give the same cluster"


def test_gpu_cluster_pods_route_between_pods_over_their_uplinks():
    from simdist.sim import hardware, presets
    c = presets.gpu_cluster(hosts=6, gpus_per_host=8, network="infiniband_ndr", pod_size=4, oversubscription=2.0)
    nic = c.hosts[0].nic
    assert nic.bandwidth == 400e9 / 8 and 2 * nic.latency == hardware.RDMA_LATENCY, nic
    assert [u.bandwidth for u in c.uplinks] == [4 * nic.bandwidth / 2.0, 2 * nic.bandwidth / 2.0], \
        "an uplink carries pod_size x NIC / oversubscription (the last pod has 2 hosts)"
    inside = [ln.name.split("/")[-1] for ln in c.route("/job:worker/task:0/device:GPU:0", "/job:worker/task:3/device:GPU:1")]
    assert inside == ["pcie:GPU:0", "nic", "nic", "pcie:GPU:1"], inside
    across = [ln.name for ln in c.route("/job:worker/task:1/device:GPU:0", "/job:worker/task:4/device:GPU:1")]
    assert across[2:4] == ["/job:worker/replica:0/task:0/uplink:pod0", "/job:worker/replica:0/task:4/uplink:pod1"], across
    with pytest.raises(ValueError, match=r"Cluster.oversubscription: expected a factor >= 1, got 0.5"):
        presets.gpu_cluster(hosts=2, pod_size=1, oversubscription=0.5)
