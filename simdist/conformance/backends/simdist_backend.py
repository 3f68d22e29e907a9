"""The ``simdist`` backend: simdist's TF-shaped facade (``from simdist import tf``).

Hosts are simulated: ``simdist.configure(cpus=N, gpus=G)`` resets the simulated local host.
ParameterServerStrategy clusters are simulated too: a ``tf.train.ClusterSpec`` of made-up
addresses (no socket is opened) behind a ``SimpleClusterResolver``.

Capabilities are probed from what simdist provides, so the adapter keeps working while
simdist grows: ``multi_worker`` appears when the facade has ParameterServerStrategy and
ClusterCoordinator, ``fault_injection`` when ``simdist.faults`` (FaultPlan) exists,
``multi_client`` when the launcher ``simdist.launch`` is importable (``run_multi_worker`` runs
every client of a MultiWorkerMirroredStrategy program through ``simdist.launch.launch``, in this
process, on a simulated cluster).
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import linecache
import textwrap
from typing import Any, Sequence

import numpy as np

from simdist.conformance.protocol import (Backend, Capability, PSCluster, PSFailure, Unsupported,
                                          WorkerPreemption)


class SimdistPSCluster(PSCluster):
    """A simulated PS cluster; faults go through ``simdist.faults.FaultPlan``."""

    busy_steps = 20  # simulated time decides what "mid-function" means, not wall time

    def __init__(self, tf: Any, strategy: Any, resolver: Any, workers: int, ps: int, faults: tuple = ()):
        super().__init__(tf, strategy, resolver, workers, ps)
        self._faults = faults

    def faults_fired(self) -> list[str]:
        if self._coordinator is None or not self._faults:
            return []
        metrics = getattr(self._coordinator, "metrics", None)
        if not callable(metrics):
            return []
        m = metrics()
        fired: list[str] = []
        pre = [f for f in self._faults if isinstance(f, WorkerPreemption)]
        ps = [f for f in self._faults if isinstance(f, PSFailure)]
        fired += [f"preempt worker {f.worker}" for f in pre[: int(m.get("preemptions", 0))]]
        fired += [f"fail ps {f.ps}" for f in ps[: int(m.get("ps_failures", 0))]]
        return fired


def _fault_plan(faults: Sequence[Any]) -> Any:
    """Translate the protocol's faults into a simdist FaultPlan."""
    from simdist import faults as sf  # noqa: PLC0415

    preemptions, ps_failures = [], []
    for f in faults:
        if isinstance(f, WorkerPreemption):
            preemptions.append(sf.Preemption(worker=f.worker, at_closure=f.during_closure, downtime=f.downtime))
        elif isinstance(f, PSFailure):
            if f.during_closure != 1:
                raise Unsupported("simdist's PSFailure triggers at a simulated time only; "
                                  "PSFailure(during_closure>1) cannot be expressed")
            # At t=0 of the coordinator's clock: the first function that touches the ps fails.
            ps_failures.append(sf.PSFailure(ps=f.ps, at_time=0.0))
        else:
            raise Unsupported(f"unknown fault {f!r}")
    return sf.FaultPlan(preemptions=tuple(preemptions), ps_failures=tuple(ps_failures))


class SimdistBackend(Backend):
    name = "simdist"

    def __init__(self, max_replicas: int = 8):
        self.max_replicas = int(max_replicas)
        self._tf: Any = None
        self._simdist: Any = None

    # -- lifecycle ---------------------------------------------------------------------------
    def setup(self) -> None:
        if self._tf is None:
            import simdist  # noqa: PLC0415
            from simdist import tf  # noqa: PLC0415

            self._simdist, self._tf = simdist, tf

    def before_test(self, nodeid: str) -> None:
        """Each test starts on the fresh default machine (one host, one CPU, a new clock), as a new
        TF process would: a test that leaves a cluster configured (a multi-worker launch) must not
        decide the devices of the next one (`-k "multi_worker_mirrored or train_cov_callbacks"`
        failed ModelCheckpoint's tests with "unknown device /job:localhost/...")."""
        if self._simdist is not None:
            self._simdist.reset()

    @property
    def tf(self) -> Any:
        self.setup()
        return self._tf

    @property
    def version(self) -> str:  # type: ignore[override]
        self.setup()
        return str(getattr(self._simdist, "__version__", "unknown"))

    @property
    def capabilities(self) -> frozenset[str]:  # type: ignore[override]
        self.setup()
        caps = set()
        if callable(getattr(self._simdist, "configure", None)):
            caps |= {Capability.GPUS, Capability.HOST_CONFIG}
        dist = getattr(self._tf, "distribute", None)
        exp = getattr(dist, "experimental", None)
        if exp is not None and hasattr(exp, "ParameterServerStrategy") and hasattr(exp, "coordinator"):
            caps.add(Capability.MULTI_WORKER)
            try:
                from simdist import faults  # noqa: F401, PLC0415

                caps.add(Capability.FAULT_INJECTION)
            except ImportError:
                pass
        train = getattr(self._tf, "train", None)
        if train is not None and hasattr(train, "Checkpoint"):
            caps.add(Capability.CHECKPOINT)
        if _launcher() is not None and dist is not None and hasattr(dist, "MultiWorkerMirroredStrategy"):
            caps.add(Capability.MULTI_CLIENT)
        return frozenset(caps)

    def describe(self) -> dict[str, Any]:
        self.setup()
        return {"module": getattr(self._simdist, "__file__", None)}

    # -- host --------------------------------------------------------------------------------
    def configure_host(self, cpus: int = 1, gpus: int = 0) -> None:
        self.setup()
        configure = getattr(self._simdist, "configure", None)
        if not callable(configure):
            raise Unsupported("simdist.configure(cpus=, gpus=) is not available yet")
        configure(cpus=cpus, gpus=gpus)
        self._host_cpus = cpus

    _host_cpus = 1

    def make_strategy(self, kind: str, replicas: int = 1, device_type: str = "CPU") -> Any:
        self.setup()
        tf = self._tf
        dt = device_type.upper()
        if replicas > self.max_replicas:
            raise Unsupported(f"{replicas} replicas > max_replicas={self.max_replicas}")
        if callable(getattr(self._simdist, "configure", None)):
            if dt == "GPU":
                self.configure_host(cpus=1, gpus=replicas)
            else:
                self.configure_host(cpus=max(replicas, 1), gpus=0)
        elif dt == "GPU" or replicas > 1:
            raise Unsupported("simdist.configure() is not available yet: one CPU only")
        devices = self.device_names(replicas, dt)
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
            return tf.distribute.experimental.CentralStorageStrategy(compute_devices=devices)
        raise ValueError(f"unknown strategy kind {kind!r}")

    # -- clusters ----------------------------------------------------------------------------
    def make_ps_cluster(self, workers: int, ps: int, *, variable_partitioner: Any = None,
                        faults: Sequence[Any] = ()) -> PSCluster:
        if Capability.MULTI_WORKER not in self.capabilities:
            raise Unsupported("simdist's facade has no ParameterServerStrategy yet")
        if faults and Capability.FAULT_INJECTION not in self.capabilities:
            raise Unsupported("simdist has no fault-injection API yet")
        tf = self._tf
        # A fresh simulated machine for each cluster: the ClusterSpec below names its tasks.
        # (the local host keeps the CPUs configure_host gave it: it joins the cluster as the chief)
        self._simdist.configure(cpus=self._host_cpus, faults=_fault_plan(faults) if faults else None)
        spec = {
            "chief": ["chief0.sim:2222"],
            "worker": [f"worker{i}.sim:2222" for i in range(workers)],
            "ps": [f"ps{i}.sim:2222" for i in range(ps)],
        }
        resolver = tf.distribute.cluster_resolver.SimpleClusterResolver(
            tf.train.ClusterSpec(spec), rpc_layer="grpc", task_type="chief", task_id=0)
        strategy = tf.distribute.experimental.ParameterServerStrategy(
            resolver, variable_partitioner=variable_partitioner)
        return SimdistPSCluster(tf, strategy, resolver, workers, ps, tuple(faults))

    def run_multi_worker(self, program: str, num_workers: int, *, chief: bool = False,
                         make_strategy: bool = True, gpus_per_worker: int = 0) -> list[Any]:
        launch = _launcher()
        if launch is None:
            raise Unsupported("simdist has no multi-client launcher (simdist.launch) yet")
        tf = self.tf
        text = textwrap.dedent(program)
        # Registered in linecache, as the tensorflow backend's program files are readable: code whose
        # source can be read is code TF's AutoGraph converts (runtime/symbolic.py, function.symbolic-tensors).
        filename = f"<multi-worker conformance program {hashlib.sha256(text.encode()).hexdigest()[:12]}>"
        linecache.cache[filename] = (len(text), None, text.splitlines(True), filename)
        code = compile(text, filename, "exec")

        def client() -> Any:
            strategy = tf.distribute.MultiWorkerMirroredStrategy() if make_strategy else None
            ns: dict[str, Any] = {"tf": tf, "np": np, "backend": self, "strategy": strategy}
            exec(code, ns)  # noqa: S102 - the suite's own program
            # The same JSON round trip as the tensorflow backend's processes make.
            return json.loads(json.dumps(ns.get("result")))

        out = launch(client, workers=num_workers, chief=chief, seed=0, gpus_per_worker=gpus_per_worker)
        errors = getattr(out, "errors", None)
        if errors:
            raise RuntimeError(f"simdist.launch reported client errors: {errors!r}")
        order = ([("chief", 0)] if chief else []) + [("worker", i) for i in range(num_workers)]
        missing = [t for t in order if t not in out.results]
        if missing:
            raise RuntimeError(f"simdist.launch returned no result for {missing} (results for "
                               f"{sorted(out.results)})")
        return [out.results[t] for t in order]

    def to_numpy(self, value: Any) -> np.ndarray:
        if hasattr(value, "numpy"):
            value = value.numpy()
        return np.asarray(value)


def _launcher() -> Any:
    """``simdist.launch.launch`` when simdist has its multi-client launcher, else None (a launcher
    that exists but fails to import raises: that is a bug to see, not a capability to hide)."""
    if importlib.util.find_spec("simdist.launch") is None:
        return None
    from simdist.launch import launch  # noqa: PLC0415 - optional until the launcher lands
    return launch
