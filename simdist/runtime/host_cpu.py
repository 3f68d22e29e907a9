"""The x86 CPU whose TensorFlow 2.21 kernels simdist reproduces (clause ops.host-cpu).

TF's CPU results depend on the CPU in two documented ways, and simdist follows both:

- **Which kernel runs.** TF's x86-64 wheel rewrites an op to oneDNN's kernel only for dtypes that
  `IsDataTypeSupportedByOneDNNOnThisCPU` accepts (tensorflow/core/util/util.cc): float32 always;
  bfloat16 with AVX512F or AVX-NE-CONVERT; float16 with AVX512BW and (AVX512-FP16 or AMX-FP16), or
  AVX-NE-CONVERT. Elsewhere float16 takes Eigen's kernels, which differ in values, NaN patterns,
  error classes and in what they accept (an NCHW float16 Conv2D is UnimplementedError).
- **The estimate instructions.** Eigen's float32 reciprocal and rsqrt packets start from the CPU's
  `vrcpps`/`vrsqrtps`, whose tables differ by vendor (rcp.py).

Models: `reference` is the host the goldens in tests/goldens were recorded on (an Intel Xeon with
AVX-512 and AVX512-FP16); `host` (the default) is the CPU simdist runs on, read from
/proc/cpuinfo as TF reads cpuid, so that `from simdist import tf` gives what TF gives on the same
machine. `SIMDIST_HOST_CPU=reference|host` chooses at import; `use()` in a program. Scenarios run
on the reference model, so their results are the same on every machine (scenario/runner.py)."""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import os
from dataclasses import dataclass
from typing import Iterator

__all__ = ["CPUModel", "REFERENCE", "detect", "parse_cpuinfo", "current", "use", "using", "MODELS"]


# DefaultOneDnnPolicy's CPU features (port.cc), as /proc/cpuinfo names them
_ONEDNN_DEFAULT_FLAGS = ("avx512_vnni", "avx512_bf16", "avx_vnni", "amx_tile", "amx_int8", "amx_bf16")


@dataclass(frozen=True)
class CPUModel:
    """A CPU as TF's kernel choice sees it: the vendor (vrcpps/vrsqrtps tables) and the cpuid
    feature flags, named as Linux's /proc/cpuinfo names them."""

    name: str
    vendor: str                  # "GenuineIntel" | "AuthenticAMD" | other
    flags: tuple[str, ...]       # sorted
    # the CPUs a process may run on (TF's port::MaxParallelism: what tf.data's AUTOTUNE cycle_length
    # becomes); the reference host is a 2-core machine, as every machine this project ran on
    parallelism: int = 2
    # TF_ENABLE_ONEDNN_OPTS as TF reads it (ReadBoolFromEnvVar: "1"/"true" or "0"/"false"), None when unset
    onednn_opts: bool | None = None
    # where oneDNN's forward convolution gives an output of no elements, whether TF returns it with the input's
    # shape (mkl_conv_ops.cc allocates it with the source's shape: read, and observed on the AMD EPYC host and on
    # the Intel Xeon (AVX-512, AMX) host of session 35) or the convolution's own empty shape (the goldens'
    # reference host, [1, 0, 3, 1] in tests/ops/test_shapefn21_tf.py; why that host does is not known)
    conv_empty_input_shaped: bool = True
    # the L2 cache of one core in bytes, as Eigen's CacheSizes reads it (cpuid): TF's oneDNN MatMul runs on one
    # thread when its operands and output fit in 1.01 times this (ExecuteSingleThreadedGemm), and oneDNN's threads
    # split k (onednn_matmul.gemv_k_bounds); the Xeon this project runs on has 2 MiB a core (onednn59)
    l2_bytes: int = 2 * 1024 * 1024

    def has(self, flag: str) -> bool:
        return flag in self.flags

    def onednn_supports(self, dtype_name: str) -> bool:
        """TF 2.21's `IsDataTypeSupportedByOneDNNOnThisCPU` (tensorflow/core/util/util.cc), where
        oneDNN is on at all (`onednn_enabled`)."""
        if not self.onednn_enabled:
            return False
        if dtype_name == "float32":
            return True
        if dtype_name == "bfloat16":
            return self.has("avx512f") or self.has("avx_ne_convert")
        if dtype_name == "float16":
            return (self.has("avx512bw") and (self.has("avx512_fp16") or self.has("amx_fp16"))) \
                or self.has("avx_ne_convert")
        return False

    @property
    def onednn_enabled(self) -> bool:
        """TF 2.21's `IsMklEnabled` on Linux x86 (tensorflow/core/util/util.cc, port.cc
        DefaultOneDnnPolicy): oneDNN's kernels are on by default only on a CPU with neural-network
        features (AVX512_VNNI, AVX512_BF16, AVX_VNNI, AMX_TILE, AMX_INT8 or AMX_BF16); elsewhere every
        op runs TF's own (Eigen) kernels (on an AVX2-only CPU an NCHW MaxPool is "Default
        MaxPoolingOp only supports NHWC", observed). TF_ENABLE_ONEDNN_OPTS overrides the default: read
        from the environment when the host is detected (`onednn_opts`), never for the reference model."""
        if self.onednn_opts is not None:
            return self.onednn_opts
        return any(self.has(f) for f in _ONEDNN_DEFAULT_FLAGS)

    def onednn(self, dtype_name: str, registered: tuple[str, ...]) -> bool:
        """True when TF runs an op whose oneDNN kernel is registered for ``registered`` dtypes
        through oneDNN at ``dtype_name`` on this CPU."""
        return dtype_name in registered and self.onednn_supports(dtype_name)

    @property
    def estimates(self) -> str:
        """Whose vrcpps/vrsqrtps tables this CPU has: "amd" on AMD CPUs, else "intel"."""
        return "amd" if self.vendor == "AuthenticAMD" else "intel"


#: The host tests/goldens were recorded on (float16 runs through oneDNN there; an AVX512-FP16 Xeon,
#: which has AVX512_VNNI, so oneDNN is on by default).
REFERENCE = CPUModel("reference", "GenuineIntel",
                     ("avx", "avx2", "avx512_bf16", "avx512_fp16", "avx512_vnni", "avx512bw", "avx512dq", "avx512f",
                      "avx512vl", "f16c", "fma"), conv_empty_input_shaped=False)


def parse_cpuinfo(text: str, name: str = "host") -> CPUModel:
    """The first processor of a /proc/cpuinfo text."""
    vendor, flags = "unknown", ()
    for line in text.splitlines():
        key, _, value = line.partition(":")
        key = key.strip()
        if key == "vendor_id" and vendor == "unknown":
            vendor = value.strip()
        elif key == "flags" and not flags:
            flags = tuple(sorted(value.split()))
        if vendor != "unknown" and flags:
            break
    return CPUModel(name, vendor, flags)


@functools.lru_cache(maxsize=None)
def detect(path: str = "/proc/cpuinfo") -> CPUModel:
    """The CPU this process runs on; the reference model where /proc/cpuinfo cannot be read (not
    Linux): simdist then says what it models rather than guess. Read once per path (the CPU does
    not change under a running process)."""
    try:
        with open(path, encoding="utf-8") as f:
            model = parse_cpuinfo(f.read())
    except OSError:
        return REFERENCE
    try:
        cpus = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cpus = os.cpu_count() or 1
    return dataclasses.replace(model, parallelism=cpus, onednn_opts=_onednn_opts(os.environ.get("TF_ENABLE_ONEDNN_OPTS")),
                               l2_bytes=_l2_bytes(model.l2_bytes))


def _l2_bytes(default: int, path: str = "/sys/devices/system/cpu/cpu0/cache") -> int:
    """The first CPU's level-2 cache size as Linux's sysfs gives it ("2048K"), `default` where it cannot be read."""
    try:
        for index in sorted(os.listdir(path)):
            base = os.path.join(path, index)
            with open(os.path.join(base, "level"), encoding="utf-8") as f:
                if f.read().strip() != "2":
                    continue
            with open(os.path.join(base, "size"), encoding="utf-8") as f:
                size = f.read().strip()
            scale = {"K": 1024, "M": 1024 * 1024}.get(size[-1:], 1)
            return int(size.rstrip("KM")) * scale
    except (OSError, ValueError):
        pass
    return default


def _onednn_opts(value: str | None) -> bool | None:
    """TF_ENABLE_ONEDNN_OPTS as ReadBoolFromEnvVar reads it: unset or unreadable keeps the default."""
    if value is None:
        return None
    v = value.strip().lower()
    return True if v in ("1", "true") else False if v in ("0", "false") else None



def _model(choice: str | CPUModel) -> CPUModel:
    if isinstance(choice, CPUModel):
        return choice
    if choice == "reference":
        return REFERENCE
    if choice == "host":
        return detect()
    raise ValueError(f"host CPU model {choice!r} is not one of {', '.join(MODELS)} (SIMDIST_HOST_CPU or "
                     "simdist.runtime.host_cpu.use): 'host' models the CPU simdist runs on, 'reference' the host "
                     "tests/goldens were recorded on")


MODELS = ("host", "reference")
_current: list[CPUModel] = []


def current() -> CPUModel:
    """The model in force (chosen once from SIMDIST_HOST_CPU, default "host")."""
    if not _current:
        _current.append(_model(os.environ.get("SIMDIST_HOST_CPU", "host") or "host"))
    return _current[0]


def use(choice: str | CPUModel) -> CPUModel:
    """Model ``choice`` ("host", "reference" or a CPUModel) from now on; returns the previous one."""
    previous = current()
    _current[0] = _model(choice)
    return previous


@contextlib.contextmanager
def using(choice: str | CPUModel) -> Iterator[CPUModel]:
    """Model ``choice`` within the block."""
    previous = use(choice)
    try:
        yield current()
    finally:
        use(previous)

