"""Hardware figures behind the presets (from /shared/reference/hardware.md), and the efficiency
factors that turn datasheet peaks into the sustained rates the simulator charges.

- Compute: a preset device runs at ``peak dense BF16/FP16 tensor rate x COMPUTE_EFFICIENCY``
  (0.5; well-tuned large-model training reaches 35-55% of peak, "MFU").
- Built-in links (NVLink, PCIe): ``nominal per-direction bandwidth x LINK_EFFICIENCY`` (0.8;
  nccl-tests reach ~80% of nominal on NVLink and PCIe). A bandwidth the user passes (e.g. a
  cluster's ``network="100Gbps"``) is taken literally.
- Memory: the datasheet size, read as GiB (what nvidia-smi reports for the 16/32/40/80 GB parts).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["COMPUTE_EFFICIENCY", "LINK_EFFICIENCY", "GPUSpec", "CPUSpec", "GPUS", "CPU", "PCIE",
           "ETHERNET_LATENCY", "RDMA_LATENCY", "NETWORKS"]

COMPUTE_EFFICIENCY = 0.5
LINK_EFFICIENCY = 0.8

GiB = 2**30


@dataclass(frozen=True)
class GPUSpec:
    """One GPU model: datasheet peaks and the derived sustained figures."""

    name: str
    peak_flops: float          # dense BF16/FP16 tensor FLOP/s
    memory: int                # bytes
    nvlink_per_direction: float  # bytes/s per GPU per direction (half the "both directions" figure)
    pcie_per_direction: float  # bytes/s per direction (x16 slot of the GPU's PCIe generation)
    launch_overhead: float = 5e-6  # seconds per kernel launch
    nvlink_latency: float = 2e-6   # GPU-to-GPU over NVLink, seconds
    pcie_latency: float = 2e-6     # one PCIe crossing, seconds

    @property
    def flops(self) -> float:
        """Sustained FLOP/s the simulator charges: peak x COMPUTE_EFFICIENCY."""
        return self.peak_flops * COMPUTE_EFFICIENCY

    @property
    def nvlink_bandwidth(self) -> float:
        return self.nvlink_per_direction * LINK_EFFICIENCY

    @property
    def pcie_bandwidth(self) -> float:
        return self.pcie_per_direction * LINK_EFFICIENCY


@dataclass(frozen=True)
class CPUSpec:
    """A host CPU as one TF device: a 16-core AVX-512 server socket, ~1 TFLOP/s FP32 peak."""

    peak_flops: float = 1.0e12
    memory: int = 64 * GiB
    launch_overhead: float = 2e-6  # per-op dispatch cost of TF's CPU executor

    @property
    def flops(self) -> float:
        return self.peak_flops * COMPUTE_EFFICIENCY


GPUS: dict[str, GPUSpec] = {
    # V100 SXM2: 125 TFLOP/s FP16 tensor, 32 GB, NVLink 2 300 GB/s both directions, PCIe 3.0
    # (~16 GB/s each way, half of PCIe 4.0).
    "V100": GPUSpec("V100", 125e12, 32 * GiB, 150e9, 16e9),
    # A100 SXM4 80GB: 312 TFLOP/s BF16, NVLink 3 600 GB/s both directions, PCIe 4.0 ~32 GB/s each way.
    "A100": GPUSpec("A100", 312e12, 80 * GiB, 300e9, 32e9),
    # H100 SXM5: 989 TFLOP/s BF16, 80 GB, NVLink 4 900 GB/s both directions, PCIe 5.0 ~64 GB/s.
    "H100": GPUSpec("H100", 989e12, 80 * GiB, 450e9, 64e9),
    # H200 SXM: as H100 with 141 GB HBM3e.
    "H200": GPUSpec("H200", 989e12, 141 * GiB, 450e9, 64e9),
}

CPU = CPUSpec()

# PCIe 4.0 x16 (the default host bus): ~32 GB/s each way, 2 us per crossing.
PCIE = (32e9 * LINK_EFFICIENCY, 2e-6)

# Host-to-host one-way latency of the network presets.
RDMA_LATENCY = 2e-6       # InfiniBand / RoCE RDMA: 1-3 us
ETHERNET_LATENCY = 50e-6  # kernel TCP in a datacenter: tens of us

# Named host networks (per NIC per direction, host-to-host latency): taken literally, as a
# bandwidth the caller passes is (NICs reach their line rate; the efficiency factor is for NVLink
# and PCIe).
NETWORKS: dict[str, tuple[str, float]] = {
    "infiniband_hdr": ("200Gbps", RDMA_LATENCY),
    "infiniband_ndr": ("400Gbps", RDMA_LATENCY),
    "ethernet_25g": ("25Gbps", ETHERNET_LATENCY),
    "ethernet_100g": ("100Gbps", ETHERNET_LATENCY),
    "ethernet_400g": ("400Gbps", ETHERNET_LATENCY),
    "roce_100g": ("100Gbps", RDMA_LATENCY),
}
