"""The CPU whose kernels a backend runs, for suite tests whose TF 2.21 values depend on it (clause ops.host-cpu).

Real TensorFlow runs this machine's CPU; simdist runs the CPU model it was given (SIMDIST_HOST_CPU, else this
machine's). TF 2.21 turns oneDNN on by default only on CPUs with AVX512_VNNI, AVX512_BF16, AVX_VNNI or AMX, and
float16 through oneDNN needs more (AVX512_FP16/AMX_FP16 or AVX_NE_CONVERT): tests of oneDNN-only kernels or of
oneDNN's summation order ask here, one rule for every suite module.
"""
from __future__ import annotations

from typing import Any


def backend_cpu(tf: Any) -> Any:
    """The simdist.runtime.host_cpu.CPUModel of the CPU the backend's kernels run on."""
    from simdist.runtime import host_cpu
    return host_cpu.current() if tf.__name__.startswith("simdist") else host_cpu.detect()


def runs_onednn(tf: Any, dtype: str = "float32") -> bool:
    """Whether the backend's CPU runs ``dtype`` ops through oneDNN (TF 2.21's IsMklEnabled and the dtype's ISA)."""
    return bool(backend_cpu(tf).onednn(dtype, (dtype,)))
