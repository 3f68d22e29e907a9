"""The backend protocol: what the conformance suite needs from an implementation.

A backend adapts one implementation of the tf.distribute API (simdist, real TensorFlow,
a third party's) to the suite. Every test program is written against ``backend.tf`` using
TensorFlow's public names, so the same program runs on every backend; the backend only
*creates* things (strategies, simulated or real hosts and clusters) and converts values
to NumPy. It never computes an expected value: the suite does that on its own.

A backend is any object with the attributes below. Subclassing :class:`Backend` gives
sensible defaults, so a minimal backend is a ``tf`` property plus ``make_strategy``::

    class MyBackend(Backend):
        name, version = "mytf", "1.0"
        capabilities = frozenset()
        max_replicas = 1

        @property
        def tf(self):
            import mytf
            return mytf

        def make_strategy(self, kind, replicas=1, device_type="CPU"):
            ...

Capabilities (:class:`Capability`) say what a backend can do. A test that needs a
capability the backend lacks is *skipped* with that reason, never passed. A backend may
also raise :class:`Unsupported` from any factory method for a request it cannot serve (for
example more replicas than it has devices); the test is then skipped with the message.
"""

from __future__ import annotations

import unittest
from dataclasses import dataclass, field
from typing import Any, Iterable, Sequence

import numpy as np

#: Strategy kinds accepted by :meth:`Backend.make_strategy`.
STRATEGY_KINDS = ("default", "one_device", "mirrored", "central_storage")


class Capability:
    """Names of capabilities a backend may declare (plain strings; unknown names are kept)."""

    #: The backend can give its host GPUs (``configure_host(gpus=N)``, ``device_type="GPU"``).
    GPUS = "gpus"
    #: The backend can (re)configure the number of host CPUs: ``configure_host(cpus=N)``.
    HOST_CONFIG = "host_config"
    #: ParameterServerStrategy clusters: :meth:`Backend.make_ps_cluster`.
    MULTI_WORKER = "multi_worker"
    #: ``make_ps_cluster(..., faults=[WorkerPreemption(...), PSFailure(...)])`` works.
    FAULT_INJECTION = "fault_injection"
    #: ``tf.train.Checkpoint`` save/restore of (sharded) variables.
    CHECKPOINT = "checkpoint"
    #: ``run_multi_worker(program, num_workers, chief=, make_strategy=)``: a
    #: MultiWorkerMirroredStrategy program run by every client (process, or simulated client) of
    #: a cluster, each with its own TF_CONFIG (the mwms.* clauses, multi-worker input sharding).
    MULTI_CLIENT = "multi_client"

    ALL = (GPUS, HOST_CONFIG, MULTI_WORKER, FAULT_INJECTION, CHECKPOINT, MULTI_CLIENT)


class Unsupported(unittest.SkipTest):
    """Raised by a backend for a request it cannot serve; the test is skipped with the message.

    (A ``unittest.SkipTest``, so pytest reports a skip and hypothesis stops at once instead of
    shrinking.)"""


@dataclass(frozen=True)
class WorkerPreemption:
    """Worker ``worker`` is preempted *while it executes a scheduled function* — the
    ``during_closure``-th function scheduled, or the first one it runs after that — and comes
    back ``downtime`` seconds (real or simulated) later. The tensorflow backend kills the
    worker's process (SIGKILL) once every worker is busy and at least ``during_closure``
    functions were scheduled; simdist preempts it halfway through that function's compute."""

    worker: int = 0
    during_closure: int = 1
    downtime: float = 1.0


@dataclass(frozen=True)
class PSFailure:
    """Parameter server ``ps`` fails for good while the ``during_closure``-th scheduled function
    runs (its variables are lost; TF 2.21 does not recover)."""

    ps: int = 0
    during_closure: int = 1


class PSCluster:
    """A ParameterServerStrategy cluster made by :meth:`Backend.make_ps_cluster`.

    Attributes: ``strategy`` (a ``tf.distribute.experimental.ParameterServerStrategy`` connected
    as the chief/coordinator), ``cluster_resolver``, ``num_workers``, ``num_ps``, ``coordinator``
    (a ``ClusterCoordinator`` for ``strategy``, created on first access), and ``busy_steps``: how
    many iterations of a small matmul loop keep a worker busy long enough for a fault to hit a
    function mid-way (large on a real cluster, small on a simulated one).
    """

    busy_steps: int = 100

    def __init__(self, tf: Any, strategy: Any, cluster_resolver: Any, num_workers: int, num_ps: int):
        self._tf = tf
        self.strategy = strategy
        self.cluster_resolver = cluster_resolver
        self.num_workers = num_workers
        self.num_ps = num_ps
        self._coordinator = None

    @property
    def coordinator(self) -> Any:
        if self._coordinator is None:
            self._coordinator = self._tf.distribute.experimental.coordinator.ClusterCoordinator(self.strategy)
        return self._coordinator

    def faults_fired(self) -> list[str]:
        """The injected faults that actually happened, e.g. ``["preempt worker 0"]`` — so a
        fault test can tell a tolerated fault from one that never fired."""
        return []

    def close(self) -> None:
        """Release what the cluster holds (processes, threads). Called by the backend."""


class Backend:
    """Base class for conformance backends. Override ``tf`` and ``make_strategy`` at least.

    Attributes:
      name, version: shown in the report.
      capabilities: a set of :class:`Capability` names.
      max_replicas: the most replicas ``make_strategy`` accepts for mirrored/central_storage.
      xfail_file: the backend's own file of known deviations (used when ``--xfails`` is not
        given), or None.
    """

    name: str = "unnamed"
    version: str = "0"
    capabilities: frozenset[str] = frozenset()
    max_replicas: int = 1
    xfail_file: str | None = None

    # -- lifecycle -------------------------------------------------------------------------
    def setup(self) -> None:
        """Called once before the first test (import the implementation, configure devices)."""

    def teardown(self) -> None:
        """Called once after the last test."""

    def before_test(self, nodeid: str) -> None:
        """Called before each test."""

    def after_test(self, nodeid: str, failed_with: BaseException | None) -> None:
        """Called after each test, with the exception that failed it (or None)."""

    def notice_error(self, exc: BaseException) -> None:
        """Called when a test caught an error it expected (e.g. from pytest.raises); a backend
        whose runtime can be left in a bad state by some errors may recover here."""

    def describe(self) -> dict[str, Any]:
        """Extra facts for the report (device counts, versions of dependencies, ...)."""
        return {}

    # -- the implementation ----------------------------------------------------------------
    @property
    def tf(self) -> Any:
        """The module-like object with TensorFlow's public names (``tf.distribute``, ...)."""
        raise NotImplementedError

    def configure_host(self, cpus: int = 1, gpus: int = 0) -> None:
        """Reset the (simulated or real) local host to ``cpus`` logical CPUs and ``gpus`` GPUs.

        Tests call this before constructing strategies with default arguments
        (``tf.distribute.MirroredStrategy()``). Needs capability ``host_config`` (and ``gpus``
        when gpus > 0)."""
        raise Unsupported("this backend cannot reconfigure its host")

    def make_strategy(self, kind: str, replicas: int = 1, device_type: str = "CPU") -> Any:
        """A strategy of ``kind`` (one of :data:`STRATEGY_KINDS`) with ``replicas`` replicas on
        devices of ``device_type`` ("CPU" or "GPU"): ``default`` is
        ``tf.distribute.get_strategy()``; ``one_device`` is ``OneDeviceStrategy`` on device 0;
        ``mirrored`` is ``MirroredStrategy`` over devices 0..N-1; ``central_storage`` is
        ``CentralStorageStrategy(compute_devices=devices 0..N-1)`` with the default parameter
        device.

        A backend may hand out a strategy object it returned before for the same arguments
        (the tensorflow backend does for MirroredStrategy, whose collectives cannot be shared
        by two strategies in one TF context); tests never rely on identity between calls."""
        raise NotImplementedError

    def make_ps_cluster(self, workers: int, ps: int, *, variable_partitioner: Any = None,
                        faults: Sequence[WorkerPreemption | PSFailure] = ()) -> PSCluster:
        """A ParameterServerStrategy cluster with a chief (this process is the coordinator),
        ``workers`` workers and ``ps`` parameter servers, whose strategy was made with
        ``variable_partitioner``. ``faults`` (needs ``fault_injection``) are injected while the
        coordinator runs functions. Needs ``multi_worker``."""
        raise Unsupported("this backend has no ParameterServerStrategy clusters")

    def run_multi_worker(self, program: str, num_workers: int, *, chief: bool = False,
                         make_strategy: bool = True, gpus_per_worker: int = 0) -> list[Any]:
        """Run ``program`` on every client of a MultiWorkerMirroredStrategy cluster of
        ``num_workers`` workers (plus one chief when ``chief``), each client with its own
        ``TF_CONFIG`` in ``os.environ`` and with ``tf``, ``np``, ``backend`` and ``strategy``
        bound (``strategy`` is ``tf.distribute.MultiWorkerMirroredStrategy()``, or None when
        ``make_strategy`` is False: the program builds its own). Return each client's ``result``
        variable after a JSON round trip (tuples become lists), in task order: the chief first,
        then workers 0..N-1. A client that fails makes the call raise RuntimeError naming it.
        ``gpus_per_worker`` > 0 gives every task that many GPUs, so several replicas per worker
        (needs ``gpus`` too; Unsupported where the clients are CPU-only). Needs ``multi_client``."""
        raise Unsupported("this backend cannot run multi-client programs")

    def device_names(self, n: int, device_type: str = "CPU") -> list[str]:
        """Names for devices 0..n-1 of the host, as a user passes them to constructors."""
        return [f"/{device_type.lower()}:{i}" for i in range(n)]

    def to_numpy(self, value: Any) -> np.ndarray:
        """Convert a tensor/variable/Python value to a NumPy array (0-d for scalars)."""
        if hasattr(value, "numpy"):
            value = value.numpy()
        return np.asarray(value)


@dataclass
class BackendInfo:
    """What the report records about a backend."""

    name: str
    version: str
    capabilities: list[str]
    max_replicas: int
    spec: str
    details: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def of(cls, backend: Any, spec: str) -> "BackendInfo":
        details: dict[str, Any] = {}
        describe = getattr(backend, "describe", None)
        if callable(describe):
            try:
                details = dict(describe())
            except Exception as e:  # noqa: BLE001 - a report must still be written
                details = {"describe_error": f"{type(e).__name__}: {e}"}
        return cls(
            name=str(getattr(backend, "name", type(backend).__name__)),
            version=str(getattr(backend, "version", "unknown")),
            capabilities=sorted(str(c) for c in getattr(backend, "capabilities", ())),
            max_replicas=int(getattr(backend, "max_replicas", 1)),
            spec=spec,
            details=details,
        )


def missing_capabilities(backend: Any, names: Iterable[str]) -> list[str]:
    """The names in ``names`` that ``backend`` lacks."""
    caps = set(getattr(backend, "capabilities", ()))
    return [n for n in names if n not in caps]
