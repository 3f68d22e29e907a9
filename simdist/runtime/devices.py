"""TF device names: parsing, merging and canonical form (`/job:J/replica:R/task:T/device:K:I`)."""

from __future__ import annotations

import functools
from dataclasses import dataclass, replace


@dataclass(frozen=True)
class DeviceSpec:
    job: str | None = None
    replica: int | None = None
    task: int | None = None
    device_type: str | None = None
    device_index: int | None = None

    @classmethod
    def from_string(cls, spec: str) -> "DeviceSpec":
        if not isinstance(spec, str):
            raise TypeError(f"device name must be a string, got {type(spec).__name__} {spec!r}")
        job = replica = task = dtype = index = None
        for part in spec.strip().split("/"):
            if not part:
                continue
            key, _, val = part.partition(":")
            low = key.lower()
            if low == "job":
                job = val
            elif low == "replica":
                replica = int(val)
            elif low == "task":
                task = int(val)
            elif low == "device":
                kind, _, idx = val.partition(":")
                dtype = kind.upper()
                index = None if idx in ("", "*") else int(idx)
            elif low in ("cpu", "gpu", "tpu"):
                dtype = low.upper()
                index = None if val in ("", "*") else int(val)
            else:
                raise ValueError(f"Unknown attribute: '{key}' in '{spec}'")
        return cls(job, replica, task, dtype, index)

    def merge_onto(self, base: "DeviceSpec") -> "DeviceSpec":
        """Fields of self where set, else base's."""
        return DeviceSpec(
            self.job if self.job is not None else base.job,
            self.replica if self.replica is not None else base.replica,
            self.task if self.task is not None else base.task,
            self.device_type if self.device_type is not None else base.device_type,
            self.device_index if self.device_index is not None else base.device_index,
        )

    def to_string(self) -> str:
        out = ""
        if self.job is not None:
            out += f"/job:{self.job}"
        if self.replica is not None:
            out += f"/replica:{self.replica}"
        if self.task is not None:
            out += f"/task:{self.task}"
        if self.device_type is not None:
            out += f"/device:{self.device_type}:{'*' if self.device_index is None else self.device_index}"
        return out

    def replace(self, **kw: object) -> "DeviceSpec":
        return replace(self, **kw)  # type: ignore[arg-type]


LOCAL = DeviceSpec("localhost", 0, 0, "CPU", 0)


def canonicalize(name: str, default: DeviceSpec = LOCAL) -> str:
    """Full device name: "/cpu:1" -> "/job:localhost/replica:0/task:0/device:CPU:1"."""
    spec = DeviceSpec.from_string(name)
    if spec.job is not None and spec.job != default.job and spec.replica is None:
        spec = spec.replace(replica=0)
    if spec.job is not None and spec.job != default.job and spec.task is None:
        spec = spec.replace(task=0)
    if spec.device_type is not None and spec.device_index is None:
        spec = spec.replace(device_index=0)
    return spec.merge_onto(default).to_string()


@functools.lru_cache(maxsize=4096)
def host_cpu(device: str) -> str:
    """The CPU:0 device of the host (job/replica/task) that holds `device` (cached: datasets ask
    for every element they pack)."""
    spec = DeviceSpec.from_string(canonicalize(device))
    return spec.replace(device_type="CPU", device_index=0).to_string()


def short_name(device: str) -> str:
    """"/job:localhost/replica:0/task:0/device:GPU:1" -> "GPU:1"."""
    spec = DeviceSpec.from_string(device)
    return f"{spec.device_type}:{spec.device_index}"
