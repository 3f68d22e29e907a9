"""`--backend partial`: simdist's conformance suite run against `partial_backend.impl`.

A backend says what it can do (capabilities, max_replicas), builds the strategies the tests ask
for, refuses what it cannot build (`Unsupported`: the test is skipped with the reason), and
names the file of deviations it knows about (`xfail_file`): those tests are expected to fail,
and the run fails if one of them passes, so the file stays honest.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from simdist.conformance import Backend, Unsupported


class PartialBackend(Backend):
    name = "partial"
    capabilities = frozenset()      # no GPUs, no host reconfiguration, no clusters, no faults
    max_replicas = 2
    xfail_file = str(Path(__file__).with_name("xfails.txt"))

    @property
    def version(self) -> str:  # type: ignore[override]
        from partial_backend import __version__

        return __version__

    @property
    def tf(self) -> Any:
        from partial_backend.impl import tf

        return tf

    def device_names(self, n: int, device_type: str = "CPU") -> list[str]:
        if device_type.upper() != "CPU":
            raise Unsupported("partial_backend runs on CPUs only")
        return [f"/cpu:{i}" for i in range(n)]

    def make_strategy(self, kind: str, replicas: int = 1, device_type: str = "CPU") -> Any:
        import simdist

        devices = self.device_names(replicas, device_type)
        if replicas > self.max_replicas:
            raise Unsupported(f"partial_backend has {self.max_replicas} CPUs")
        simdist.configure(cpus=2)   # a fresh simulated host for every strategy
        tf = self.tf
        if kind == "default":
            if replicas != 1:
                raise Unsupported("the default strategy has one replica")
            return tf.distribute.get_strategy()
        if kind == "one_device":
            if replicas != 1:
                raise Unsupported("OneDeviceStrategy has one replica")
            return tf.distribute.OneDeviceStrategy(devices[0])
        if kind == "mirrored":
            return tf.distribute.MirroredStrategy(devices)
        if kind == "central_storage":
            raise Unsupported("partial_backend has no CentralStorageStrategy")
        raise ValueError(f"unknown strategy kind {kind!r}")

    def to_numpy(self, value: Any) -> np.ndarray:
        return np.asarray(value.numpy() if hasattr(value, "numpy") else value)
