"""simdist.sim: a deterministic discrete-event model of a training cluster, on SimPy.

    from simdist import sim
    cluster = sim.presets.gpu_cluster(hosts=2, gpus_per_host=8)
    s = sim.Simulator(cluster, seed=0, trace="run.trace.json")
    s.drive(s.all_reduce([d.name for d in cluster.devices() if d.kind == "GPU"], 64 << 20))
    s.close(); print(s.now, s.metrics()["events"])

See docs/simulator.md for the cost model, tie-break rule and determinism contract.
"""

from __future__ import annotations

from . import _native

_native.check()   # (before any compiled module is imported: a stale build falls back to the sources)

from . import hardware, presets, units  # noqa: E402
from .annotate import annotated_flops, current_flops_override, flops  # noqa: E402
from .collectives import ALGORITHMS, FIDELITIES  # noqa: E402
from .determinism import DeterminismError, check_determinism  # noqa: E402
from .engine import SimulationStalled, Simulator  # noqa: E402
from .topology import Cluster, Device, Host, Link, UnknownDeviceError  # noqa: E402
from .trace import TraceRecorder  # noqa: E402

__all__ = [
    "units", "presets", "hardware",
    "Cluster", "Host", "Device", "Link", "UnknownDeviceError",
    "Simulator", "SimulationStalled", "TraceRecorder", "ALGORITHMS", "FIDELITIES",
    "check_determinism", "DeterminismError",
    "flops", "current_flops_override", "annotated_flops",
]
