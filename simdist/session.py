"""The process's simulated machine: its topology, logical device split, and simulator clock.

`tf.config` reads devices from here; strategies charge time to `simulator()`. `configure()`
(public as `simdist.configure`) replaces the machine, e.g. to give the host GPUs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from simdist.runtime import context, devices, execution, runtime_config


@dataclass
class LogicalDeviceConfiguration:
    """`tf.config.LogicalDeviceConfiguration` (memory_limit is recorded, in MiB as in TF)."""

    memory_limit: int | None = None
    experimental_priority: int | None = None
    experimental_device_ordinal: int | None = None


@dataclass(frozen=True)
class PhysicalDevice:
    name: str
    device_type: str

    def __repr__(self) -> str:
        return f"PhysicalDevice(name='{self.name}', device_type='{self.device_type}')"


@dataclass(frozen=True)
class LogicalDevice:
    name: str
    device_type: str

    def __repr__(self) -> str:
        return f"LogicalDevice(name='{self.name}', device_type='{self.device_type}')"


@dataclass
class _Machine:
    cluster: Any = None                      # simdist.sim.Cluster
    seed: int = 0
    trace: Any = None
    local_job: str = "localhost"
    local_task: int = 0
    logical: dict[str, list[LogicalDeviceConfiguration]] = field(default_factory=dict)
    visible: list[str] | None = None         # physical short names tf.config.set_visible_devices left (None: all)
    sim: Any = None                          # simdist.sim.Simulator, built lazily
    faults: Any = None                       # simdist.faults.FaultPlan (hardware part: the simulator)
    collectives: str = "auto"                # the simulator's collective fidelity
    cost_model: str = "flops"                # the simulator's compute cost model (sim/roofline.py)
    cost_model_asked: str | None = None      # what configure() was given (None: `default_cost_model`)
    names: dict[tuple[str, str], str] = field(default_factory=dict)   # memo of canonical/sim_device
    task_names: dict[tuple[str, int], dict] = field(default_factory=dict)   # the memo of each task (enter_task)
    memory_growth: dict[str, Any] = field(default_factory=dict)   # tf.config.experimental.set_memory_growth, by short name


_m = _Machine()


def _build_default_cluster(cpus: int = 1, gpus: int = 0, gpu: str = "A100") -> Any:
    from simdist.sim import presets
    if gpus:
        return presets.gpu_host(gpus=gpus, gpu=gpu, cpus=cpus)
    return presets.cpu_host(cpus=cpus)


def configure(cpus: int = 1, gpus: int = 0, gpu: str = "A100", cluster: Any = None, seed: int = 0,
              trace: Any = None, faults: Any = None, collectives: str = "auto", cost_model: str | None = None) -> None:
    """Replace the simulated machine: `configure(gpus=4)` gives the local host 4 GPUs;
    `configure(cluster=presets.cpu_cluster(...), faults=FaultPlan(...), seed=7)` a cluster for
    ParameterServerStrategy, with faults to inject. ``cost_model``: how compute is timed,
    "roofline" (per precision and memory bandwidth, `simdist.sim.roofline`, the model
    docs/validation.md checks) or "flops" (every kernel at the device's FLOP/s); None (default):
    the scenarios' rule, `default_cost_model` (roofline on GPUs with their model's datasheet
    rates, flops on a CPU-only machine). `cost_model()` says which one runs.

    Resets the clock, the logical device split and the distribution context. Strategies made
    before the call keep referring to the old machine; make new ones after it.
    """
    if not isinstance(gpus, int) or gpus < 0:
        raise ValueError(f"configure(gpus={gpus!r}): gpus must be an int >= 0")
    if not isinstance(cpus, int) or cpus < 1:
        raise ValueError(f"configure(cpus={cpus!r}): cpus must be an int >= 1")
    global _m
    if faults is not None:
        from simdist.faults import FaultPlan
        if not isinstance(faults, FaultPlan):
            raise TypeError(f"configure(faults=...): expected a simdist.faults.FaultPlan, got {faults!r}")
    from simdist.sim.collectives import check_fidelity
    from simdist.sim.roofline import check_cost_model
    asked = None if cost_model is None else check_cost_model(cost_model, "configure(cost_model=...)")
    cl = cluster if cluster is not None else _build_default_cluster(cpus, gpus, gpu)
    machine = _Machine(cluster=cl, seed=int(seed), trace=trace, faults=faults,
                       collectives=check_fidelity(collectives, "configure(collectives=...)"),
                       cost_model=asked if asked is not None else default_cost_model(cl), cost_model_asked=asked)
    if faults is not None:
        faults.hardware_targets(machine.cluster)   # an unknown straggler device or link: an error now
    if _m.sim is not None:
        _m.sim.close()
    _m = machine
    _install_cost_model(machine)
    # The FLOP tally starts again with the machine. Every count the strategies take is a difference
    # of two tally readings, exact only while the tally stays below 2**53 (and, under the roofline
    # model's fractional entries, rounded at the tally's magnitude): a tally carried over from
    # earlier runs in the process would make a run's simulated times depend on what ran before it.
    from simdist.runtime import cost
    cost.tally.flops = cost.tally.backward = cost.tally.update = 0.0
    from simdist.runtime.ops import random as random_ops
    random_ops.reset(int(seed))
    from simdist.runtime import scalar_cache
    scalar_cache.clear()    # TF's eager scalar cache starts empty in a new process
    _refresh_default_device()
    # a new machine is a new TF process: its runtime not yet initialised, its settings TF's defaults
    execution.current().client.config = runtime_config.RuntimeConfig()
    execution.current().client.collective_abort = None   # (its eager collective executor not aborted)
    runtime_config.reset()


def default_cost_model(cluster: Any) -> str:
    """The cost model a machine gets when `configure` is not told one, the scenarios' rule
    (simdist/scenario/build.py ``cost_model``, docs/scenarios.md "Cost model and collectives"):
    "roofline" when a GPU of ``cluster`` has its model's datasheet rates (`hardware.ComputeRates`:
    the V100/A100/H100/H200 presets), else "flops" (a CPU-only machine, or GPUs given only a
    FLOP/s figure: nothing else to time them by)."""
    for d in cluster.devices():
        if str(d.kind).upper() == "GPU" and getattr(d, "rates", None) is not None:
            return "roofline"
    return "flops"


def cost_model() -> str:
    """The compute cost model this machine's simulator times kernels with: "roofline" or "flops"."""
    return _m.cost_model


def _install_cost_model(machine: _Machine) -> None:
    """Under the roofline cost model every op's tally entry is its roofline time on its device
    (runtime/cost.py ``roofline``); under the FLOP model the tally counts FLOPs, as always."""
    from simdist.runtime import cost
    if machine.cost_model != "roofline":
        cost.roofline = None
        return
    from simdist.sim.roofline import op_charge

    def device_of(name: str) -> Any:
        try:
            return machine.cluster.device(sim_device(name))
        except (KeyError, ValueError):
            return None   # a device this machine does not simulate
    cost.roofline = op_charge(device_of, cost.op_kind, lambda: execution.current().client.config.tf32)


def faults() -> Any:
    return _m.faults


def seed() -> int:
    return _m.seed


def ensure_jobs(jobs: dict[str, int]) -> None:
    """Make the simulated cluster hold a host for every task of `jobs` (a ClusterSpec's task
    counts). A configured cluster that has them is kept; otherwise one CPU host per task on a
    25 Gb/s network (presets.cpu_cluster) replaces the machine, keeping seed, trace and faults."""
    cl = cluster()
    have = {(h.job, h.task) for h in cl.hosts}
    if all((job, t) in have for job, n in jobs.items() for t in range(n)):
        return
    from simdist.sim import presets
    new = presets.cpu_cluster(jobs=dict(jobs))
    # The process joins as the chief with its own CPUs and their logical split, as TF keeps the
    # local logical devices when it connects (MirroredStrategy(["CPU:0", "CPU:1"]) still builds).
    local = next((h for h in cl.hosts if (h.job, h.task) == (_m.local_job, _m.local_task)), None)
    logical = dict(_m.logical)
    if local is not None and jobs.get("chief") and len(local.cpus) > 1:
        from simdist.sim.topology import Cluster
        hosts = [presets.make_cpu_host(len(local.cpus), job="chief", task=0) if (h.job, h.task) == ("chief", 0)
                 else presets.make_cpu_host(len(h.cpus), job=h.job, task=h.task) for h in new.hosts]
        new = Cluster(hosts, network=new.network)
    configure(cluster=new, seed=_m.seed, trace=_m.trace, faults=_m.faults, collectives=_m.collectives,
              cost_model=_m.cost_model_asked)
    _m.logical = logical


def reconfigure(cluster: Any, seed: int) -> None:
    """A fresh machine on `cluster` with `seed`, keeping the trace, fault plan, collective
    fidelity and cost model configured now (the launcher's machine, simdist/launch; a cost model
    left to the default is the default of the new cluster)."""
    configure(cluster=cluster, seed=seed, trace=_m.trace, faults=_m.faults, collectives=_m.collectives,
              cost_model=_m.cost_model_asked)


def reset(seed: int = 0) -> None:
    """Back to the default machine (one host, one CPU) with a fresh clock."""
    configure(seed=seed)


def cluster() -> Any:
    if _m.cluster is None:
        _m.cluster = _build_default_cluster()
        _refresh_default_device()
    return _m.cluster


def simulator() -> Any:
    """The simulator of this machine (created on first use)."""
    if _m.sim is None:
        from simdist.sim import Simulator
        sim = Simulator(cluster(), seed=_m.seed, trace=_m.trace, collectives=_m.collectives,
                        cost_model=_m.cost_model)
        if _m.faults is not None:
            _m.faults.apply_hardware(sim)   # stragglers and degraded links, for every strategy
        _m.sim = sim
        runtime_config.mark()
    return _m.sim


def now() -> float:
    """Simulated seconds since the machine was configured."""
    return simulator().now


def local_spec() -> devices.DeviceSpec:
    return devices.DeviceSpec(_m.local_job, 0, _m.local_task, "CPU", 0)


def _local_host() -> Any:
    cl = cluster()
    for h in cl.hosts:
        if h.job == _m.local_job and h.task == _m.local_task:
            return h
    return cl.hosts[0]


def set_local_task(job: str, task: int) -> None:
    """Which host of the cluster this process is (the chief for ParameterServerStrategy)."""
    _m.local_job, _m.local_task = job, int(task)
    _m.names.clear()
    _m.task_names.clear()
    _refresh_default_device()


def local_task() -> tuple[str, int]:
    """(job, task) of the task this program is (its devices are named relative to it)."""
    return _m.local_job, _m.local_task


def enter_task(job: str, task: int) -> None:
    """Switch which task the running program is, keeping each task's memo of device names: the
    launcher (simdist/launch.py) runs N worker programs in one process and switches between them
    at every cross-worker collective, so this is the cheap form of `set_local_task`."""
    if (_m.local_job, _m.local_task) == (job, task):
        return
    memos = _m.task_names
    memos[(_m.local_job, _m.local_task)] = _m.names
    _m.local_job, _m.local_task = job, int(task)
    _m.names = memos.get((job, int(task))) or {}
    _refresh_default_device()


def _physical_kinds() -> dict[str, int]:
    h = _local_host()
    return {"CPU": len(h.cpus), "GPU": len(h.gpus)}


def list_physical_devices(device_type: str | None = None) -> list[PhysicalDevice]:
    out = []
    for kind, n in _physical_kinds().items():
        if device_type is None or device_type.upper() == kind:
            out.extend(PhysicalDevice(f"/physical_device:{kind}:{i}", kind) for i in range(n))
    return out


def get_visible_devices(device_type: str | None = None) -> list[PhysicalDevice]:
    """`tf.config.get_visible_devices`: the physical devices the runtime will use (all at start)."""
    return [d for d in list_physical_devices(device_type)
            if _m.visible is None or d.name.replace("/physical_device:", "") in _m.visible]


def set_visible_devices(devices: Any, device_type: str | None = None) -> None:
    """`tf.config.set_visible_devices`, as TF 2.21's context does it: each device must be one of
    the machine's PhysicalDevices (of `device_type`, when given: the others of other types stay
    visible); a change after the runtime initialised is RuntimeError (clause
    placement.visible-devices)."""
    if not isinstance(devices, list):
        devices = [devices]
    physical = list_physical_devices()
    for d in devices:
        if d not in physical or (device_type is not None and d.device_type != device_type):
            raise ValueError(f"Unrecognized device: {d!r}")
    now = get_visible_devices()
    new = [d for d in now if d.device_type != device_type] if device_type is not None else []
    new += devices
    if new == now:
        return
    if runtime_config.initialized():
        raise RuntimeError("Visible devices cannot be modified after being initialized")
    _m.visible = [d.name.replace("/physical_device:", "") for d in new]
    _m.names.clear()
    _m.task_names.clear()
    _refresh_default_device()


def _logical_table() -> list[tuple[str, str, str]]:
    """(logical short name, kind, physical short name) for the local host, in TF's order: the
    visible physical devices, each split into its logical devices."""
    rows = []
    for kind, n in _physical_kinds().items():
        k = 0
        for i in range(n):
            if _m.visible is not None and f"{kind}:{i}" not in _m.visible:
                continue
            cfgs = _m.logical.get(f"{kind}:{i}")
            for _ in range(len(cfgs) if cfgs else 1):
                rows.append((f"{kind}:{k}", kind, f"{kind}:{i}"))
                k += 1
    return rows


def list_logical_devices(device_type: str | None = None) -> list[LogicalDevice]:
    table = _logical_table()
    if not any(kind == "CPU" for _, kind, _ in table):
        from simdist.runtime import errors
        raise errors.NotFoundError(None, None, "No CPU devices are available in this process")
    runtime_config.mark()
    return [LogicalDevice(f"/device:{name}", kind) for name, kind, _ in table
            if device_type is None or device_type.upper() == kind]


def set_logical_device_configuration(device: PhysicalDevice, logical_devices: list[LogicalDeviceConfiguration]
                                     ) -> None:
    """Split a physical device into logical ones, with TF 2.21's checks in its order
    (context.set_logical_device_configuration): the device must be one of the machine's; a CPU's
    logical devices take no memory_limit, priority or ordinal, a GPU's need a memory_limit, other
    kinds are refused; the configuration it already has is accepted at any time; another one after
    the runtime initialised is RuntimeError (clause config.runtime-initialization). An empty list
    leaves the device unsplit."""
    if not isinstance(device, PhysicalDevice) or device not in list_physical_devices():
        raise ValueError(f"Unrecognized device: {device!r}")
    configs = list(logical_devices)   # None: TF's TypeError ('NoneType' object is not iterable)
    if device.device_type == "CPU":
        for c in configs:
            if c.memory_limit is not None:
                raise ValueError("Setting memory limit on CPU virtual devices is currently not supported")
            if c.experimental_priority is not None:
                raise ValueError("Setting experimental_priority on CPU virtual  devices is currently not supported")
            if c.experimental_device_ordinal is not None:
                raise ValueError("Setting experimental_device_ordinal on CPU virtual  devices is currently not supported")
    elif device.device_type == "GPU":
        for c in configs:
            if c.memory_limit is None:
                raise ValueError("Setting memory limit is required for GPU virtual devices")
    else:
        raise ValueError(f"Virtual devices are not supported for {device.device_type}")
    key = device.name.replace("/physical_device:", "")
    if _m.logical.get(key) == configs:
        return
    if runtime_config.initialized():
        raise RuntimeError("Virtual devices cannot be modified after being initialized")
    _m.logical[key] = configs
    _m.names.clear()
    _m.task_names.clear()
    _refresh_default_device()


def get_logical_device_configuration(device: PhysicalDevice) -> list[LogicalDeviceConfiguration] | None:
    return _m.logical.get(device.name.replace("/physical_device:", ""))


def set_memory_growth(device: PhysicalDevice, enable: Any) -> None:
    """`tf.config.experimental.set_memory_growth`, with TF 2.21's checks in its order
    (context.set_memory_growth): one of the machine's devices, not split into logical devices, a
    GPU; the value it already has is accepted at any time, another one after the runtime
    initialised is RuntimeError. simdist's simulated GPUs keep no allocator, so the setting
    changes no time or value; it is recorded and read back (clause config.runtime-initialization)."""
    if not isinstance(device, PhysicalDevice) or device not in list_physical_devices():
        raise ValueError(f"Unrecognized device: {device!r}")
    key = device.name.replace("/physical_device:", "")
    if key in _m.logical:
        raise ValueError("Cannot set memory growth on device when virtual devices configured")
    if device.device_type != "GPU":
        raise ValueError("Cannot set memory growth on non-GPU and non-Pluggable devices")
    if _m.memory_growth.get(key) == enable:
        return
    if runtime_config.initialized():
        raise RuntimeError("Physical devices cannot be modified after being initialized")
    _m.memory_growth[key] = enable


def get_memory_growth(device: PhysicalDevice) -> Any:
    """`tf.config.experimental.get_memory_growth`: what `set_memory_growth` set, None for a GPU it
    never set, and TF's KeyError (the device) for a CPU."""
    if not isinstance(device, PhysicalDevice) or device not in list_physical_devices():
        raise ValueError(f"Unrecognized device: {device!r}")
    if device.device_type != "GPU":
        raise KeyError(device)
    return _m.memory_growth.get(device.name.replace("/physical_device:", ""))


def canonical(name: str) -> str:
    """Full device name relative to the local task ("/gpu:1" -> "/job:localhost/.../device:GPU:1")."""
    key = ("c", name)
    out = _m.names.get(key)
    if out is None:
        out = _m.names[key] = devices.canonicalize(name, local_spec())
    return out


def sim_device(name: str) -> str:
    """The simulator device that runs a (logical) device: logical CPU:k of a split CPU runs on CPU:0."""
    key = ("s", name)
    out = _m.names.get(key)
    if out is None:
        out = _m.names[key] = _sim_device(name)
    return out


def _sim_device(name: str) -> str:
    full = canonical(name)
    spec = devices.DeviceSpec.from_string(full)
    if spec.job == _m.local_job and spec.task == _m.local_task:
        for logical, _kind, physical in _logical_table():
            if logical == f"{spec.device_type}:{spec.device_index}":
                return spec.replace(device_type=physical.split(":")[0],
                                    device_index=int(physical.split(":")[1])).to_string()
    return full


def placed(full: str, soft: bool) -> str:
    """The device an op under `tf.device(full)` runs on, as TF 2.21's eager placer picks it
    (EagerContext::SelectDevice, observed; clause placement.soft-placement): the device itself
    when it exists; else, with soft placement, the best device of the same job/replica/task with
    type and index dropped (a GPU before a CPU, the lowest index first); else TF's
    InvalidArgumentError. A task the machine does not have is TF's "unknown device" error."""
    key = ("p" if soft else "h", full)
    out = _m.names.get(key)   # (memo of placements, cleared with the machine's names)
    if out is None:
        out = _m.names[key] = _placed(full, soft)
    return out


def _placed(full: str, soft: bool) -> str:
    if logical_exists(full):
        return full
    from simdist.runtime import errors
    spec = devices.DeviceSpec.from_string(full)
    if spec.job == _m.local_job and spec.task == _m.local_task:
        names = [logical for logical, _, _ in _logical_table()]
    else:
        host = next((h for h in cluster().hosts if h.job == spec.job and h.task == spec.task), None)
        if host is None:
            raise errors.InvalidArgumentError(None, None, f"{full} unknown device.")
        names = [d.name.rsplit("device:", 1)[1] for d in list(host.cpus) + list(host.gpus)]
    if soft:
        ranked = sorted(names, key=lambda n: (n.split(":")[0] != "GPU", n.split(":")[0], int(n.split(":")[1])))
        kind, index = ranked[0].split(":")
        return spec.replace(device_type=kind, device_index=int(index)).to_string()
    base = full.rsplit("/device:", 1)[0]
    types = sorted({n.split(":")[0] for n in names}, key=lambda k: (k != "GPU", k))
    listing = ", ".join(f"{base}/device:{n}" for n in names)
    raise errors.InvalidArgumentError(
        None, None, f"Could not satisfy device specification '{full}'. enable_soft_placement=0. Supported device "
        f"types [{', '.join(types)}]. All available devices [{listing}].")


def logical_exists(name: str) -> bool:
    full = canonical(name)
    spec = devices.DeviceSpec.from_string(full)
    if spec.job == _m.local_job and spec.task == _m.local_task:
        return any(logical == f"{spec.device_type}:{spec.device_index}" for logical, _, _ in _logical_table())
    try:
        cluster().device(full)
        return True
    except (KeyError, ValueError):
        return False


def local_compute_devices() -> tuple[list[str], list[str]]:
    """(logical GPUs, logical CPUs) of the local host as canonical names."""
    gpus, cpus = [], []
    for name, kind, _ in _logical_table():
        (gpus if kind == "GPU" else cpus).append(canonical("/device:" + name))
    runtime_config.mark()
    return gpus, cpus


def _refresh_default_device() -> None:
    if _m.cluster is None:
        return
    gpus = [n for n, k, _ in _logical_table() if k == "GPU"]
    context.set_default_device(canonical("/device:GPU:0" if gpus else "/device:CPU:0"))
