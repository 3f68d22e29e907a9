"""Hardware figures behind the presets (from /shared/reference/hardware.md and NVIDIA's datasheets),
and the efficiency factors that turn datasheet peaks into the sustained rates the simulator charges.

- Compute, FLOP-only cost model (``cost_model="flops"``, a bare Simulator's default): a preset device runs every
  kernel at ``peak dense BF16/FP16 tensor rate x COMPUTE_EFFICIENCY`` (0.5; well-tuned large-model
  training reaches 35-55% of peak, "MFU").
- Compute, roofline cost model (``cost_model="roofline"``, `roofline`): each GPU model's
  `ComputeRates` (dense tensor-core FP16/BF16 and TF32, FP32 and FP64 CUDA cores, memory
  bandwidth, from the datasheets cited at `GPUS`) times four global efficiency factors,
  `TENSOR_EFFICIENCY`, `CUDA_EFFICIENCY`, `MEMORY_EFFICIENCY` and `GROUPED_EFFICIENCY` (grouped
  convolutions, on the CUDA cores), fitted once on the "fit" rows of
  the training-throughput validation table (simdist/validation/training.py; docs/validation.md)
  and the same for every device and model; the tensor efficiency is the TensorFlow software
  stack's (the validation's llm.c rows, hand-fused CUDA kernels, fit one of their own).
- Built-in links (NVLink, PCIe): ``nominal per-direction bandwidth x LINK_EFFICIENCY`` (0.8;
  nccl-tests reach ~80% of nominal on NVLink and PCIe). A bandwidth the user passes (e.g. a
  cluster's ``network="100Gbps"``) is taken literally.
- Memory: the datasheet size, read as GiB (what nvidia-smi reports for the 16/32/40/80 GB parts).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["COMPUTE_EFFICIENCY", "LINK_EFFICIENCY", "TENSOR_EFFICIENCY", "CUDA_EFFICIENCY", "MEMORY_EFFICIENCY",
           "GROUPED_EFFICIENCY", "ComputeRates", "GPUSpec", "CPUSpec", "GPUS", "CPU", "PCIE",
           "ETHERNET_LATENCY", "RDMA_LATENCY", "NETWORKS"]

COMPUTE_EFFICIENCY = 0.5
LINK_EFFICIENCY = 0.8

# The roofline's global efficiency factors (fraction of the datasheet peak a kernel sustains), fitted
# by least squares on log error over the "fit" rows of simdist/validation/training.py
# (`python -m simdist.validation.training --fit` prints the fit; tests/validation/test_validation_training.py
# checks these values are that fit: a local minimum of its loss at the search's last step, 0.005).
# TENSOR_EFFICIENCY is the TensorFlow stack's (TF/XLA kernels, the programs simdist runs); the
# validation's llm.c rows (hand-fused CUDA) have their own, `validation.training.STACK_TENSOR_EFFICIENCY`.
TENSOR_EFFICIENCY = 0.45   # tensor-core matmul/conv (FP16/BF16/TF32)
CUDA_EFFICIENCY = 0.795   # FP32/FP64 CUDA-core arithmetic (matmul without tensor cores, elementwise)
MEMORY_EFFICIENCY = 0.805   # HBM bandwidth
# Grouped convolutions (few channels per group: ResNeXt's 32 groups of 4-32 channels) run as cuDNN's own
# CUDA-core kernels, not as tensor-core GEMMs: their per-group GEMM is too narrow to fill a tensor-core
# tile. Share of the CUDA cores' peak at the kernel's precision (FP16 for float16/bfloat16, else FP32)
# they sustain; fitted with the others.
GROUPED_EFFICIENCY = 0.175

GiB = 2**30


@dataclass(frozen=True)
class ComputeRates:
    """Datasheet peaks of one GPU model for the roofline cost model: dense (no sparsity) FLOP/s of
    its tensor cores at FP16/BF16 and TF32 (0: none), of its CUDA cores at FP32 and FP64, and its
    memory bandwidth in bytes/s. ``bf16``: whether its tensor cores take BF16 (V100's do not).
    ``fp16``: the CUDA cores' (not the tensor cores') FP16/BF16 peak (0: as FP32)."""

    tensor16: float
    tensor_tf32: float
    fp32: float
    fp64: float
    memory_bandwidth: float
    bf16: bool = True
    fp16: float = 0.0


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
    rates: ComputeRates | None = None  # the roofline's per-precision peaks and memory bandwidth

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


# Datasheet figures (dense; the datasheets' "with sparsity" figures are twice these):
# - V100 SXM2: NVIDIA Tesla V100 datasheet (2018): 125 TFLOP/s tensor (FP16), 15.7 FP32, 7.8 FP64,
#   900 GB/s HBM2; no TF32 or BF16 tensor cores.
# - A100 SXM4: NVIDIA A100 datasheet (nvidia-a100-datasheet-us-nvidia-1758950-r4-web.pdf, 2021):
#   312 TFLOP/s BF16/FP16 tensor, 156 TF32 tensor, 19.5 FP32, 9.7 FP64; 1,555 GB/s (40GB HBM2),
#   2,039 GB/s (80GB HBM2e).
# - H100 SXM5: NVIDIA H100 datasheet (2023): 989 TFLOP/s BF16/FP16 tensor (1,979 with sparsity),
#   494.7 TF32 tensor (989 sparse), 67 FP32, 34 FP64; 3.35 TB/s HBM3.
# - H200 SXM: NVIDIA H200 datasheet (2024): H100's compute, 141 GB HBM3e at 4.8 TB/s.
# FP16 on the CUDA cores (not the tensor cores; `ComputeRates.fp16`), from the architecture whitepapers'
# "Peak FP16 TFLOPS (non-Tensor)": V100 31.4 (Volta whitepaper, 2017), A100 78 (Ampere GA100
# whitepaper, 2020), H100 SXM5 133.8 (Hopper whitepaper, 2022).
_V100 = ComputeRates(tensor16=125e12, tensor_tf32=0.0, fp32=15.7e12, fp64=7.8e12, memory_bandwidth=900e9, bf16=False,
                     fp16=31.4e12)
_A100_40 = ComputeRates(tensor16=312e12, tensor_tf32=156e12, fp32=19.5e12, fp64=9.7e12, memory_bandwidth=1555e9,
                        fp16=78e12)
_A100_80 = ComputeRates(tensor16=312e12, tensor_tf32=156e12, fp32=19.5e12, fp64=9.7e12, memory_bandwidth=2039e9,
                        fp16=78e12)
_H100 = ComputeRates(tensor16=989e12, tensor_tf32=494.7e12, fp32=67e12, fp64=34e12, memory_bandwidth=3.35e12,
                     fp16=133.8e12)
_H200 = ComputeRates(tensor16=989e12, tensor_tf32=494.7e12, fp32=67e12, fp64=34e12, memory_bandwidth=4.8e12,
                     fp16=133.8e12)

GPUS: dict[str, GPUSpec] = {
    # V100 SXM2: 125 TFLOP/s FP16 tensor, 32 GB, NVLink 2 300 GB/s both directions, PCIe 3.0
    # (~16 GB/s each way, half of PCIe 4.0).
    "V100": GPUSpec("V100", 125e12, 32 * GiB, 150e9, 16e9, rates=_V100),
    # A100 SXM4 80GB: 312 TFLOP/s BF16, NVLink 3 600 GB/s both directions, PCIe 4.0 ~32 GB/s each way.
    "A100": GPUSpec("A100", 312e12, 80 * GiB, 300e9, 32e9, rates=_A100_80),
    # The two A100 SXM4 parts by name: 40 GB HBM2 (1,555 GB/s) and 80 GB HBM2e (2,039 GB/s).
    "A100-40GB": GPUSpec("A100-40GB", 312e12, 40 * GiB, 300e9, 32e9, rates=_A100_40),
    "A100-80GB": GPUSpec("A100-80GB", 312e12, 80 * GiB, 300e9, 32e9, rates=_A100_80),
    # H100 SXM5: 989 TFLOP/s BF16, 80 GB, NVLink 4 900 GB/s both directions, PCIe 5.0 ~64 GB/s.
    "H100": GPUSpec("H100", 989e12, 80 * GiB, 450e9, 64e9, rates=_H100),
    # H200 SXM: as H100 with 141 GB HBM3e.
    "H200": GPUSpec("H200", 989e12, 141 * GiB, 450e9, 64e9, rates=_H200),
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
