"""`tf.DeviceSpec` (TF 2.21's DeviceSpecV2, tensorflow/python/framework/device_spec.py, transcribed; clause
api.namespaces): an immutable job/replica/task/device_type/device_index record, parsed from and printed to a
device name. The device types a bare "/cpu:0" names are TF's valid ones (CPU, GPU, TPU, CUSTOM, EPU: a CPU
build lists no pluggable devices); "/device:<type>:<i>" takes any type. simdist's own device-name parser
(runtime/devices.py) is a separate, internal one."""

from __future__ import annotations

from typing import Any

__all__ = ["DeviceSpecV2", "is_device_spec"]

_VALID_DEVICE_TYPES = frozenset({"CPU", "GPU", "TPU", "CUSTOM", "EPU"})


def _as_str_or_none(inp: Any) -> str | None:
    return None if inp is None else str(inp)


def _as_int_or_none(inp: Any) -> int | None:
    return None if inp is None else int(inp)


def _as_device_str_or_none(device_type: Any) -> str | None:
    if device_type in ("cpu", "gpu"):   # (TF: lowercase cpu and gpu only, for backwards compatibility)
        return device_type.upper()
    return _as_str_or_none(device_type)


class DeviceSpecV2:
    """Represents a (possibly partial) specification for a TensorFlow device."""

    __slots__ = ("_job", "_replica", "_task", "_device_type", "_device_index", "_as_string", "_hash")

    def __init__(self, job: Any = None, replica: Any = None, task: Any = None, device_type: Any = None,
                 device_index: Any = None) -> None:
        self._job = _as_str_or_none(job)
        self._replica = _as_int_or_none(replica)
        self._task = _as_int_or_none(task)
        self._device_type = _as_device_str_or_none(device_type)
        self._device_index = _as_int_or_none(device_index)
        self._as_string = self._components_to_string(self._job, self._replica, self._task, self._device_type,
                                                     self._device_index)
        self._hash = hash(self._as_string)

    def to_string(self) -> str:
        return self._as_string

    @classmethod
    def from_string(cls, spec: Any) -> "DeviceSpecV2":
        return cls(*cls._string_to_components(spec))

    def parse_from_string(self, spec: Any) -> "DeviceSpecV2":
        """TF 2.x: a new DeviceSpec of `spec` (self is unchanged)."""
        return self.from_string(spec)

    def make_merged_spec(self, dev: "DeviceSpecV2") -> "DeviceSpecV2":
        """A new DeviceSpec: `dev`'s fields where set, else self's."""
        return self.__class__(*self._get_combined_properties(dev))

    def replace(self, **kwargs: Any) -> "DeviceSpecV2":
        init_kwargs = dict(job=self.job, replica=self.replica, task=self.task, device_type=self.device_type,
                           device_index=self.device_index)
        init_kwargs.update(kwargs)
        return self.__class__(**init_kwargs)

    @property
    def job(self) -> str | None:
        return self._job

    @property
    def replica(self) -> int | None:
        return self._replica

    @property
    def task(self) -> int | None:
        return self._task

    @property
    def device_type(self) -> str | None:
        return self._device_type

    @property
    def device_index(self) -> int | None:
        return self._device_index

    def _get_combined_properties(self, dev: "DeviceSpecV2") -> tuple:
        return (dev.job if dev.job is not None else self.job,
                dev.replica if dev.replica is not None else self.replica,
                dev.task if dev.task is not None else self.task,
                dev.device_type if dev.device_type is not None else self.device_type,
                dev.device_index if dev.device_index is not None else self.device_index)

    @staticmethod
    def _string_to_components(spec: Any = None) -> tuple:
        job = replica = task = device_type = device_index = None
        spec = spec or ""
        splits = [x.split(":") for x in spec.split("/")]
        for y in splits:
            ly = len(y)
            if y:
                if ly == 2 and y[0] == "job":
                    job = y[1]
                elif ly == 2 and y[0] == "replica":
                    replica = y[1]
                elif ly == 2 and y[0] == "task":
                    task = y[1]
                elif (ly == 1 or ly == 2) and y[0].upper() in _VALID_DEVICE_TYPES:
                    if device_type is not None:
                        raise ValueError(f"Multiple device types are not allowed while parsing the device spec: "
                                         f"{spec}.")
                    device_type = y[0].upper()
                    if ly == 2 and y[1] != "*":
                        device_index = int(y[1])
                elif ly == 3 and y[0] == "device":
                    if device_type is not None:
                        raise ValueError(f"Multiple device types are not allowed while parsing the device spec: "
                                         f"{spec}.")
                    device_type = y[1]
                    if y[2] != "*":
                        device_index = int(y[2])
                elif ly and y[0] != "":
                    raise ValueError(f"Unknown attribute '{y[0]}' is encountered while parsing the device spec: "
                                     f"'{spec}'.")
        return (job, replica, task, device_type, device_index)

    @staticmethod
    def _components_to_string(job: Any, replica: Any, task: Any, device_type: Any, device_index: Any) -> str:
        output = []
        if job is not None:
            output.append("/job:" + job)
        if replica is not None:
            output.append("/replica:" + str(replica))
        if task is not None:
            output.append("/task:" + str(task))
        if device_type is not None:
            output.append("/device:%s:%s" % (device_type, "*" if device_index is None else str(device_index)))
        return "".join(output)

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, self.__class__) and self.to_string() == other.to_string()

    def __hash__(self) -> int:
        return self._hash

    def __repr__(self) -> str:
        return (f"<DeviceSpec(job={self.job}, replica={self.replica}, task={self.task}, "
                f"device_type={self.device_type}, device_index={self.device_index})>")


def is_device_spec(obj: Any) -> bool:
    return isinstance(obj, DeviceSpecV2)
