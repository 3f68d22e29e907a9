"""Programs whose expected results are TF 2.21's own, recorded: the harness the bit-exact gaps modules share
(test_blind61_gaps.py, test_blind63_gaps.py).

A module registers named programs `fn(tf, make_strategy)`; each returns plain JSON-able values (floats as the hex of
their exact value, `bits`). `python -m simdist.conformance.suite.<module> --record` runs every program on real TF
2.21 with two logical CPUs (or the module's `replicas`) and writes the module's `<name>_reference.json.gz`; the tests run the same program on
the backend under test and compare with the recording exactly. Programs whose TF bits follow the CPU's kernels
(clause ops.host-cpu) are named by prefix: a backend runs them on a CPU that runs them as the recording host did, and
simdist on any CPU under its model of the recording host (`emulating`)."""

from __future__ import annotations

import contextlib
import gzip
import json
from typing import Any, Callable

import numpy as np
import pytest

from simdist.conformance.suite.host_model import backend_cpu

Program = Callable[[Any, Callable[[], Any]], Any]


def bits(t: Any) -> list[Any]:
    """A tensor's (or array's) values: floats as the hex of their exact value, others as Python numbers."""
    a = np.asarray(t.numpy() if hasattr(t, "numpy") else t)
    if a.dtype.kind == "f" or a.dtype.name == "bfloat16":
        return [float(v).hex() for v in a.astype(np.float64).ravel()]
    return a.ravel().tolist()


def plain(v: Any) -> Any:
    """A config value as JSON (floats as hex, so a default's last digit shows)."""
    if isinstance(v, bool) or v is None or isinstance(v, str):
        return v
    if isinstance(v, (int, np.integer)):
        return int(v)
    if isinstance(v, (float, np.floating)):
        return float(v).hex()
    if isinstance(v, (list, tuple)):
        return [plain(x) for x in v]
    if isinstance(v, dict):
        return {str(k): plain(x) for k, x in sorted(v.items())}
    return type(v).__name__


def rng(name: str) -> np.random.RandomState:
    """A NumPy generator seeded from a program's name (the same inputs on every backend and run)."""
    return np.random.RandomState(sum(ord(c) * (i + 1) for i, c in enumerate(name)) % (2**31))


def error(fn: Callable[[], Any]) -> Any:
    """fn's result, or "raised <class>" (the class is the observation)."""
    try:
        return fn()
    except Exception as e:  # noqa: BLE001 - the class is the observation
        return f"raised {type(e).__name__}"


def avx2_without_onednn(cpu: Any) -> bool:
    """The recording host of blind61/63's references: TF 2.21 on an AMD EPYC (Zen 3), AVX2 without AVX-512, oneDNN
    off (2026-12-06)."""
    return not cpu.has("avx512f") and not cpu.onednn_enabled


def avx2_recording_cpu() -> Any:
    """That recording host as simdist models it (simdist.runtime.host_cpu reads the vendor, for the vrcpps/vrsqrtps
    tables, and the AVX-512/oneDNN flags; the other flags change no kernel simdist models)."""
    from simdist.runtime import host_cpu
    return host_cpu.CPUModel("amd-epyc-avx2", "AuthenticAMD", ("avx", "avx2", "f16c", "fma"))


def avx512_with_onednn(cpu: Any) -> bool:
    """A recording host of this kind: TF 2.21 on an Intel Xeon with AVX-512 and oneDNN on (the Xeon of 2026-12-06:
    AVX512-FP16 and AMX too), the kind the tests' reference model is."""
    return cpu.has("avx512f") and cpu.onednn_enabled and cpu.vendor == "GenuineIntel"


def reference_cpu() -> Any:
    """simdist's model of an AVX-512 oneDNN Xeon recording host: its reference model (simdist.runtime.host_cpu)."""
    from simdist.runtime import host_cpu
    return host_cpu.REFERENCE


def emulating(tf: Any, recording_host: Callable[[Any], bool],
              model: Callable[[], Any] | None) -> contextlib.AbstractContextManager[Any] | None:
    """Where a host-dependent program runs: a backend whose CPU is the recording host's kind runs it as it is; simdist
    on another CPU runs it under the recording host's model (`model`), since it claims TF's bits on every CPU it
    models (ops.host-cpu), so a planted kernel bug shows on any machine; another backend on another CPU cannot say
    (None: the caller skips)."""
    if recording_host(backend_cpu(tf)):
        return contextlib.nullcontext()
    if tf.__name__.startswith("simdist") and model is not None:
        from simdist.runtime import host_cpu
        return host_cpu.using(model())
    return None


class RecordedPrograms:
    """A module's named programs and TF 2.21's recorded answers to them (`path`, a gzip'd JSON object)."""

    def __init__(self, path: str, host_dependent: tuple[str, ...] = (),
                 recording_host: Callable[[Any], bool] = avx2_without_onednn, replicas: int = 2,
                 recording_cpu: Callable[[], Any] | None = avx2_recording_cpu) -> None:
        self.path = path
        self.recording_cpu = recording_cpu   # simdist's model of the recording host (None: skip elsewhere)
        self.replicas = replicas   # the mirrored strategy's replicas (and the recording's logical CPUs, at least 2)
        self.host_dependent = host_dependent
        self.recording_host = recording_host
        self.programs: dict[str, Program] = {}
        self._ref: dict[str, Any] = {}

    def add(self, name: str, fn: Program) -> None:
        assert name not in self.programs, f"program {name!r} registered twice"
        self.programs[name] = fn

    def ids(self, prefix: str) -> list[str]:
        """The programs whose names start with `prefix`, in registration order (a test's parameters)."""
        return [n for n in self.programs if n.startswith(prefix)]

    def check(self, backend: Any, name: str) -> None:
        """Run program `name` on the backend and compare with TF 2.21's recorded result exactly."""
        if not self._ref:
            with gzip.open(self.path, "rt") as f:
                self._ref.update(json.load(f))
        tf = backend.tf
        where = contextlib.nullcontext()
        if name.startswith(self.host_dependent):
            where = emulating(tf, self.recording_host, self.recording_cpu)
            if where is None:
                pytest.skip(f"{name}: TF 2.21's bits depend on the CPU (ops.host-cpu), and the backend's CPU is not "
                            f"of the recording host's kind ({self.recording_host.__name__})")
        with where:
            got = json.loads(json.dumps(self.programs[name](
                tf, lambda: backend.make_strategy("mirrored", replicas=self.replicas))))
        want = self._ref[name]
        assert got == want, f"{name}: TF 2.21 gives {str(want)[:900]}\n got {str(got)[:900]}"

    def record(self) -> None:
        """Run every program on TF 2.21 (`replicas` logical CPUs, at least two) and write the reference file."""
        import tensorflow as tf
        cpus = tf.config.list_physical_devices("CPU")
        tf.config.set_logical_device_configuration(cpus[0], [tf.config.LogicalDeviceConfiguration()] * max(2, self.replicas))
        made: list[Any] = []

        def mk() -> Any:
            if not made:
                made.append(tf.distribute.MirroredStrategy([f"/cpu:{i}" for i in range(self.replicas)]))
            return made[0]
        out = {name: json.loads(json.dumps(fn(tf, mk))) for name, fn in self.programs.items()}
        with gzip.open(self.path, "wt") as f:
            json.dump(out, f, sort_keys=True)
        print(f"wrote {self.path}: {len(out)} programs")
