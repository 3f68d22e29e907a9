"""The roofline cost model: how long one kernel takes on a GPU, from its FLOPs, the bytes it moves,
its dtype and its kind.

A kernel lasts ``max(flops / rate, bytes / (memory bandwidth x MEMORY_EFFICIENCY))`` (plus the
device's launch overhead, added by the kernel book), where ``rate`` is the device's datasheet peak
for the kernel's precision and kind times a global efficiency factor (`hardware`):

- ``kind="matmul"`` (matmul and convolution: what cuBLAS/cuDNN run on tensor cores):
  float16 on FP16 tensor cores; bfloat16 on BF16 tensor cores where the device has them (V100 has
  none: FP32 CUDA cores); float32 on TF32 tensor cores where the device has them and TF32 is on
  (TF 2.21's default: ``tf.config.experimental.tensor_float_32_execution_enabled()`` is True), else
  FP32 CUDA cores; float64 on FP64 CUDA cores. Tensor cores at `hardware.TENSOR_EFFICIENCY`, CUDA
  cores at `hardware.CUDA_EFFICIENCY`.
- ``kind="grouped"`` (grouped convolutions with few channels per group, e.g. ResNeXt's: cuDNN
  runs them as CUDA-core kernels, their per-group GEMM too narrow for a tensor-core tile): the
  CUDA cores' FP16 peak for float16 (`ComputeRates.fp16`), FP64 for float64, else FP32, at
  `hardware.GROUPED_EFFICIENCY`.
- ``kind="elementwise"`` (everything else: activations, normalisation, reductions, optimizer
  updates, casts): CUDA cores, FP64 for float64 and FP32 otherwise, at `hardware.CUDA_EFFICIENCY`;
  in practice bound by its bytes.

`Kernel` is the description a caller hands the simulator (`Simulator.compute_kernel`): the op
registry's FLOPs, and the bytes it reads and writes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from . import hardware
from .hardware import ComputeRates

__all__ = ["Kernel", "KINDS", "DTYPES", "COST_MODELS", "check_cost_model", "rate", "kernel_seconds", "seconds",
           "op_charge"]

KINDS = ("matmul", "elementwise", "grouped")
DTYPES = ("float16", "bfloat16", "float32", "float64", "int32", "int64", "int8", "uint8", "bool")
COST_MODELS = ("flops", "roofline")


def check_cost_model(value: object, where: str) -> str:
    """``value`` if it names a cost model, else a ValueError saying which ones exist."""
    if not isinstance(value, str) or value not in COST_MODELS:
        raise ValueError(f"{where}: unknown cost model {value!r}; expected one of {', '.join(COST_MODELS)}")
    return value


@dataclass(frozen=True)
class Kernel:
    """One kernel: its FLOPs, the bytes it reads and writes in device memory, its dtype (the
    precision its arithmetic runs at) and kind ("matmul": matmul/conv, "elementwise": the rest)."""

    flops: float
    bytes: float = 0.0
    dtype: str = "float32"
    kind: str = "matmul"

    def __post_init__(self) -> None:
        for name in ("flops", "bytes"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not v >= 0.0:
                raise ValueError(f"Kernel.{name}: expected a number >= 0, got {v!r}")
        if self.kind not in KINDS:
            raise ValueError(f"Kernel.kind: expected one of {', '.join(KINDS)}, got {self.kind!r}")
        if self.dtype not in DTYPES:
            raise ValueError(f"Kernel.dtype: expected one of {', '.join(DTYPES)}, got {self.dtype!r}")


def rate(rates: ComputeRates, dtype: str, kind: str, tf32: bool = True) -> float:
    """Sustained FLOP/s of a ``kind`` kernel at ``dtype`` on a device with ``rates`` (peak x the
    global efficiency of the unit that runs it); ``tf32``: float32 matmuls may use TF32."""
    if kind == "matmul":
        if dtype == "float16" or (dtype == "bfloat16" and rates.bf16):
            return rates.tensor16 * hardware.TENSOR_EFFICIENCY
        if dtype == "float32" and tf32 and rates.tensor_tf32 > 0.0:
            return rates.tensor_tf32 * hardware.TENSOR_EFFICIENCY
    elif kind == "grouped":
        if dtype == "float16" and rates.fp16 > 0.0:
            return rates.fp16 * hardware.GROUPED_EFFICIENCY
        return (rates.fp64 if dtype == "float64" else rates.fp32) * hardware.GROUPED_EFFICIENCY
    if dtype == "float64":
        return rates.fp64 * hardware.CUDA_EFFICIENCY
    return rates.fp32 * hardware.CUDA_EFFICIENCY


def kernel_seconds(rates: ComputeRates, k: Kernel, tf32: bool = True) -> float:
    """The roofline time of kernel ``k`` on a device with ``rates``, without launch overhead."""
    return seconds(rates, k.flops, k.bytes, k.dtype, k.kind, tf32)


def seconds(rates: ComputeRates, flops: float, nbytes: float, dtype: str, kind: str, tf32: bool = True) -> float:
    """`kernel_seconds` of an unchecked kernel (the per-op path: the caller's figures are valid)."""
    compute = flops / rate(rates, dtype, kind, tf32)
    memory = nbytes / (rates.memory_bandwidth * hardware.MEMORY_EFFICIENCY)
    return compute if compute >= memory else memory


def op_charge(device_of: Callable[[str], Any], kind_of: Callable[[Any], str],
              tf32: Callable[[], bool] = lambda: True) -> Callable[..., float]:
    """The per-op charge of the roofline for the FLOP tally (runtime/cost.py's ``roofline``):
    ``charge(op, flops, inputs, outputs, dtype, device)`` -> the op's roofline seconds on the
    device ``device_of(device)`` (a `topology.Device`, or None when the name is not simulated)
    times that device's nominal FLOP/s; the FLOPs themselves where the device has no rates. The
    op's bytes are its input and output arrays' (each read or written once); its kind is
    ``kind_of(op)``; its dtype the output's (a non-float output: float32); ``tf32()`` says, at each
    op, whether float32 matmuls may take TF32 tensor cores (the running client's
    tf.config.experimental.enable_tensor_float_32_execution).

    The charge is rounded to whole FLOPs: the tally is a running float sum read by differences
    (sections, replica phases, recorded graphs), and fractional entries made each reading depend
    on the sum's magnitude, i.e. on whatever ran earlier in the process (issue: a run in a fresh
    interpreter gave other last bits than the same run after another). Whole-number entries keep
    every partial sum exact (below 2**53), so a reading is the same wherever the tally stands;
    the rounding is at most half a FLOP per op (about 1e-14 s on a datacenter GPU)."""
    devices: dict[str, Any] = {}

    def charge(op: Any, flops: float, inputs: Any, outputs: Any, dtype: Any, device: str) -> float:
        d = devices.get(device)
        if d is None:
            d = devices[device] = device_of(device) or False
        if d is False or d.rates is None or not flops:
            return flops
        nbytes = 0
        for a in inputs:
            nbytes += getattr(a, "nbytes", 0)
        for a in outputs:
            nbytes += getattr(a, "nbytes", 0)
        name = getattr(dtype, "name", "float32")
        return float(round(seconds(d.rates, float(flops), float(nbytes), name if name in DTYPES else "float32",
                                   kind_of(op), tf32()) * d.flops))
    return charge
