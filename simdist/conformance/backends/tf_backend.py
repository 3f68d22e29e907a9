"""The ``tensorflow`` backend: real TensorFlow (2.21 is the reference) on logical CPU devices.

* Local strategies run on ``cpus`` logical CPUs (default 4) made with
  ``tf.config.set_logical_device_configuration`` before TensorFlow initialises.
* ParameterServerStrategy clusters are in-process gRPC servers on localhost (one
  ``tf.distribute.Server`` per worker and ps task, as TF's ``multi_worker_test_base`` does),
  cached per (workers, ps) shape because in-process servers cannot be stopped; this process
  connects to them as the chief. Consecutive strategies on the same servers share one
  connection; switching shapes resets the context and starts a new chief on a fresh port
  (an in-process chief server cannot be stopped either, and hundreds of them abort TF).
* Clusters with faults (``make_ps_cluster(..., faults=[...])``) run each worker/ps task in its own
  Python process on localhost so the suite can really kill it (SIGKILL) and restart it.
* ``run_multi_worker`` runs each client (TF_CONFIG set for its task) as a child of a TF zygote
  (tf_zygote.py), which imports TensorFlow once and forks a client per task before any TF op has
  run: a client costs its own work, not another 3.5-5 s TF import. ``SIMDIST_TF_ZYGOTE=0`` (or no
  fork) starts a fresh interpreter per client instead.

TensorFlow facts that shape this adapter:
* all MirroredStrategy objects of a context share collective group key 1 and instance keys
  from 100 up: a second strategy over other devices, or one gathering other shapes, fails
  and poisons the context. So the adapter hands out one MirroredStrategy per device set;
* a failed collective (e.g. a gather of mismatched shapes under MirroredStrategy on CPUs)
  poisons every later collective in the process ("Collective ops is aborted by ..."). The
  adapter resets the eager context (and re-creates the logical devices) before the next
  strategy when it has seen such an error;
* connecting to a cluster changes the process' eager context for good, so the adapter
  resets the context whenever it switches between local strategies and a cluster.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from typing import Any, Iterator, Sequence

import numpy as np

from simdist.conformance.protocol import (Backend, Capability, PSCluster, PSFailure, Unsupported,
                                          WorkerPreemption)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("localhost", 0))
        return s.getsockname()[1]


def start_in_process_servers(tf: Any, workers: int, ps: int,
                             inter_op_threads: int = 16) -> tuple[dict[str, list[str]], list[Any]]:
    """Start `workers` worker and `ps` ps gRPC servers of real TF in this process, on free
    localhost ports: (the cluster spec as a dict, the servers, to keep alive). They cannot be
    stopped. Generous inter-op pools: with too few threads, closures on several in-process
    workers deadlock on a small machine (TF's multi_worker_test_base does the same; b/172296720)."""
    spec = {"worker": [f"localhost:{_free_port()}" for _ in range(workers)],
            "ps": [f"localhost:{_free_port()}" for _ in range(ps)]}
    cs = tf.train.ClusterSpec(spec)
    cfg = tf.compat.v1.ConfigProto()
    cfg.inter_op_parallelism_threads = inter_op_threads
    servers = [tf.distribute.Server(cs, job_name=job, task_index=i, protocol="grpc", config=cfg, start=True)
               for job, n in (("worker", workers), ("ps", ps)) for i in range(n)]
    return spec, servers


def _poisons_collectives(exc: BaseException) -> bool:
    text = f"{type(exc).__name__}: {exc}"
    # (a failed multi-step fit under MirroredStrategy, clause keras.fit.spe-mirrored, leaves later collective
    # steps of the process failing: "different members of the collective op ... Restart your program")
    return "ollective" in text or "You must feed a value for placeholder tensor" in text


class _TaskProcess:
    """One worker/ps task in its own process (for real fault injection)."""

    def __init__(self, cluster: dict[str, list[str]], job: str, index: int):
        self.cluster, self.job, self.index = cluster, job, index
        self.proc: subprocess.Popen | None = None

    def start(self) -> None:
        env = dict(os.environ)
        env.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
        env["CUDA_VISIBLE_DEVICES"] = ""
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "simdist.conformance.backends._tf_task",
             json.dumps(self.cluster), self.job, str(self.index)],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, text=True)

    def wait_ready(self, timeout: float = 120.0) -> None:
        assert self.proc is not None and self.proc.stdout is not None
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            line = self.proc.stdout.readline()
            if line.strip() == "READY":
                return
            if not line and self.proc.poll() is not None:
                raise RuntimeError(f"{self.job}:{self.index} exited with {self.proc.returncode} before READY")
        raise TimeoutError(f"{self.job}:{self.index} not ready after {timeout}s")

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait()

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None


class _ProcessCluster:
    def __init__(self, workers: int, ps: int):
        self.spec = {
            "worker": [f"localhost:{_free_port()}" for _ in range(workers)],
            "ps": [f"localhost:{_free_port()}" for _ in range(ps)],
        }
        self.tasks = {("worker", i): _TaskProcess(self.spec, "worker", i) for i in range(workers)}
        self.tasks.update({("ps", i): _TaskProcess(self.spec, "ps", i) for i in range(ps)})
        self.broken = False
        for t in self.tasks.values():
            t.start()
        for t in self.tasks.values():
            t.wait_ready()

    def healthy(self) -> bool:
        return not self.broken and all(t.alive() for t in self.tasks.values())

    def stop(self) -> None:
        for t in self.tasks.values():
            t.kill()


class TensorFlowPSCluster(PSCluster):
    #: ~0.5 s of work per function on a 2-core machine: long enough to be caught mid-way.
    busy_steps = 4000

    def __init__(self, tf: Any, strategy: Any, resolver: Any, workers: int, ps: int,
                 procs: _ProcessCluster | None, faults: tuple = ()):
        super().__init__(tf, strategy, resolver, workers, ps)
        self._procs = procs
        self._faults = tuple(faults)
        self._fired: list[str] = []
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []

    @property
    def coordinator(self) -> Any:
        first = self._coordinator is None
        coord = super().coordinator
        if first and self._faults:
            original = coord.schedule

            def counting_schedule(*args: Any, **kwargs: Any) -> Any:
                self._scheduled += 1
                return original(*args, **kwargs)

            coord.schedule = counting_schedule  # type: ignore[method-assign]
            t = threading.Thread(target=self._inject, name="conformance-fault-injector", daemon=True)
            t.start()
            self._threads.append(t)
        return coord

    def faults_fired(self) -> list[str]:
        return list(self._fired)

    def _queue_state(self) -> tuple[int, int]:
        """(functions scheduled so far, functions in flight), from TF's coordinator."""
        cluster = getattr(self._coordinator, "_cluster", None)
        queue = getattr(cluster, "closure_queue", None)
        inflight = int(getattr(queue, "_inflight_closure_count", 0) or 0)
        return self._scheduled, inflight

    _scheduled = 0

    def _inject(self) -> None:
        assert self._procs is not None
        pending = list(self._faults)
        while pending and not self._stop.is_set():
            scheduled, inflight = self._queue_state()
            for f in list(pending):
                if scheduled < f.during_closure:
                    continue
                if isinstance(f, WorkerPreemption) and inflight >= self.num_workers:
                    task = self._procs.tasks[("worker", f.worker)]
                    task.kill()
                    self._fired.append(f"preempt worker {f.worker}")
                    pending.remove(f)
                    t = threading.Thread(target=self._restart, args=(task, f.downtime), daemon=True)
                    t.start()
                    self._threads.append(t)
                elif isinstance(f, PSFailure) and inflight >= 1:
                    self._procs.broken = True
                    self._procs.tasks[("ps", f.ps)].kill()
                    self._fired.append(f"fail ps {f.ps}")
                    pending.remove(f)
            time.sleep(0.02)

    def _restart(self, task: _TaskProcess, downtime: float) -> None:
        time.sleep(downtime)
        task.start()
        task.wait_ready()

    def close(self) -> None:
        self._stop.set()
        for t in self._threads:
            t.join(timeout=180)
        coord = self._coordinator
        if coord is not None:
            cluster = getattr(coord, "_cluster", None)
            try:
                if cluster is not None:
                    cluster.stop()
            except Exception:  # noqa: BLE001 - best effort cleanup of TF internals
                pass


@contextlib.contextmanager
def _absorb_teardown_noise() -> Iterator[int]:
    """Send fd 2 (TF's C++ log) to a temporary file and drop unraisable exceptions while the body
    runs; yields a counter object whose int value is the number of messages absorbed."""
    counter = _Count()
    old_hook = sys.unraisablehook
    sys.unraisablehook = lambda unraisable: counter.add()
    sys.stderr.flush()
    saved = os.dup(2)
    with tempfile.TemporaryFile() as tmp:
        os.dup2(tmp.fileno(), 2)
        try:
            yield counter
        finally:
            sys.stderr.flush()
            os.dup2(saved, 2)
            os.close(saved)
            sys.unraisablehook = old_hook
            tmp.seek(0)
            counter.n += sum(1 for line in tmp.read().decode("utf-8", "replace").splitlines()
                             if line.startswith(("E0000", "W0000", "F0000")))


class _Count:
    def __init__(self) -> None:
        self.n = 0

    def add(self) -> None:
        self.n += 1

    def __int__(self) -> int:
        return self.n

    def __bool__(self) -> bool:
        return self.n > 0

    def __format__(self, spec: str) -> str:
        return format(self.n, spec)


class _Client:
    """One multi-worker client process: `python *argv`, forked by a TF zygote or a fresh interpreter."""

    def __init__(self, zygote: Any, argv: list[str], env: dict[str, str], base: str):
        self.zygote, self.out, self.err = zygote, base + ".out", base + ".err"
        self.pid: int | None = None
        self.proc: subprocess.Popen | None = None
        if zygote is not None:
            self.pid = zygote.spawn(argv, os.getcwd(), env, self.out, self.err)
        else:
            self.proc = subprocess.Popen([sys.executable, *argv], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                         env=env, text=True)

    def finish(self, timeout: float) -> tuple[int, str, str]:
        """(exit code, stdout, stderr); subprocess.TimeoutExpired past `timeout` s."""
        if self.proc is not None:
            out, err = self.proc.communicate(timeout=timeout)
            return self.proc.returncode, out, err
        assert self.pid is not None
        pid, self.pid = self.pid, None
        code, _ = self.zygote.wait(pid, timeout)   # kills and reaps the child past the timeout
        with open(self.out, encoding="utf-8", errors="replace") as o, \
                open(self.err, encoding="utf-8", errors="replace") as e:
            return code, o.read(), e.read()

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        if self.pid is not None:
            pid, self.pid = self.pid, None
            os.kill(pid, signal.SIGKILL)
            self.zygote.wait(pid, 60)


class TensorFlowBackend(Backend):
    name = "tensorflow"
    capabilities = frozenset({Capability.HOST_CONFIG, Capability.MULTI_WORKER,
                              Capability.FAULT_INJECTION, Capability.CHECKPOINT, Capability.MULTI_CLIENT})

    def __init__(self, cpus: int = 4, max_replicas: int = 8):
        self.default_cpus = int(cpus)
        self.max_replicas = int(max_replicas)
        self._tf: Any = None
        self._cpus = 0
        self._mode = "uninitialised"   # "local" | "cluster"
        self._dirty = False             # collectives may be poisoned
        self._group: tuple[tuple[str, ...], Any] | None = None  # (devices, MirroredStrategy)
        self._servers: dict[tuple[int, int], tuple[dict, list]] = {}
        self._proc_clusters: dict[tuple[int, int], _ProcessCluster] = {}
        self._clusters: list[TensorFlowPSCluster] = []
        self._conn: tuple[tuple, dict] | None = None  # (cluster key, spec incl. chief) in use
        self.resets = 0
        self.connections = 0
        self._zygote: Any = None          # forks the multi-worker clients (_client_zygote)

    # -- lifecycle ---------------------------------------------------------------------------
    @property
    def version(self) -> str:  # type: ignore[override]
        return self.tf.__version__

    @property
    def tf(self) -> Any:
        if self._tf is None:
            self.setup()
        return self._tf

    def setup(self) -> None:
        if self._tf is not None:
            return
        os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
        # The PS docs ask for this so the coordinator sees worker/ps failures promptly.
        os.environ.setdefault("GRPC_FAIL_FAST", "use_caller")
        import tensorflow as tf  # noqa: PLC0415 - imported on first use only

        self._tf = tf
        try:
            tf.get_logger().setLevel("ERROR")
        except Exception:  # noqa: BLE001
            pass
        self._reset(self.default_cpus)

    def teardown(self) -> None:
        # Leaving a cluster whose tasks a fault test killed makes TF log gRPC errors from C++
        # ("Failed to remove function remotely ...") and its executors raise in __del__; both
        # would land after the suite's verdict. They are about servers the suite stopped on
        # purpose, so they are absorbed here and counted in one line.
        with _absorb_teardown_noise() as absorbed:
            for c in self._clusters:
                c.close()
            if self._tf is not None and self._mode == "cluster":
                # Leave the cluster while its servers are still up (else TF complains at exit).
                self._reset(self._cpus or self.default_cpus)
            for pc in self._proc_clusters.values():
                pc.stop()
            self._proc_clusters.clear()
            if self._zygote is not None:
                self._zygote.close()
                self._zygote = None
            import gc  # noqa: PLC0415
            gc.collect()
        if absorbed:
            print(f"tensorflow backend: {absorbed} gRPC/executor messages from stopped test servers absorbed at "
                  "teardown", file=sys.stderr)

    def before_test(self, nodeid: str) -> None:
        """Each test starts with TF's eager scalar cache empty, as in a new process and as the simdist
        backend's reset leaves it: a zero an earlier test converted must not give this test's zero
        its sign (clause ops.scalar-cache)."""
        if self._tf is not None:
            from tensorflow.python import pywrap_tfe  # noqa: PLC0415

            pywrap_tfe.TFE_ClearScalarCache()

    def describe(self) -> dict[str, Any]:
        tf = self.tf
        try:   # tf.keras's release: Keras 2 (TF <= 2.15) or Keras 3, whichever pip resolved beside TF
            # (TF 2.15's tf.keras, keras.api._v2.keras, has no __version__; the keras package does)
            import keras  # noqa: PLC0415
            keras_version = str(getattr(tf.keras, "__version__", None) or keras.__version__)
        except Exception:  # noqa: BLE001 - a TF without Keras
            keras_version = "none"
        return {"logical_cpus": self.default_cpus, "keras": keras_version, "context_resets": self.resets,
                "cluster_connections": self.connections,
                "physical_devices": [d.name for d in tf.config.list_physical_devices()]}

    def notice_error(self, exc: BaseException) -> None:
        if _poisons_collectives(exc):
            self._dirty = True

    def after_test(self, nodeid: str, failed_with: BaseException | None) -> None:
        if failed_with is not None and _poisons_collectives(failed_with):
            self._dirty = True
        while self._clusters:
            self._clusters.pop().close()

    # -- host --------------------------------------------------------------------------------
    def _reset(self, cpus: int) -> None:
        from tensorflow.python.eager import context  # noqa: PLC0415

        tf = self._tf
        if self._mode != "uninitialised":
            context._reset_context()  # noqa: SLF001 - the only way to clear poisoned collectives
            self.resets += 1
        cpu = tf.config.list_physical_devices("CPU")[0]
        try:
            tf.config.set_logical_device_configuration(
                cpu, [tf.config.LogicalDeviceConfiguration() for _ in range(cpus)])
        except RuntimeError:
            # TensorFlow was initialised before us (someone ran an op): start a fresh context.
            context._reset_context()  # noqa: SLF001
            self.resets += 1
            tf.config.set_logical_device_configuration(
                cpu, [tf.config.LogicalDeviceConfiguration() for _ in range(cpus)])
        self._cpus = cpus
        self._mode = "local"
        self._dirty = False
        self._group = None
        self._conn = None

    def _ensure_local(self, min_cpus: int) -> None:
        self.tf  # noqa: B018 - make sure TensorFlow is set up
        if self._mode != "local" or self._dirty or self._cpus < min_cpus:
            self._reset(max(min_cpus, self.default_cpus if self._cpus < min_cpus else self._cpus))

    def configure_host(self, cpus: int = 1, gpus: int = 0) -> None:
        if gpus:
            raise Unsupported("the tensorflow backend runs on CPUs only (tensorflow-cpu)")
        self.tf  # noqa: B018
        # Always a fresh context: the test will construct strategies itself.
        self._reset(cpus)

    def device_names(self, n: int, device_type: str = "CPU") -> list[str]:
        if device_type.upper() != "CPU":
            raise Unsupported("the tensorflow backend runs on CPUs only (tensorflow-cpu)")
        return [f"/cpu:{i}" for i in range(n)]

    def make_strategy(self, kind: str, replicas: int = 1, device_type: str = "CPU") -> Any:
        if device_type.upper() != "CPU":
            raise Unsupported("the tensorflow backend runs on CPUs only (tensorflow-cpu)")
        if replicas > self.max_replicas:
            raise Unsupported(f"{replicas} replicas > max_replicas={self.max_replicas}")
        devices = self.device_names(replicas)
        key = tuple(devices)
        if kind == "mirrored" and replicas > 1:
            # Every MirroredStrategy in a TF 2.21 context uses collective group key 1 and
            # instance keys from 100 up: a second strategy over other devices fails ("... is
            # joining a group with size3, but that group has size 2"), and one over the same
            # devices collides on instance keys ("Shape mismatch in the collective instance
            # 100"); either poisons the context. So: one strategy per context, handed out again.
            if self._group is not None and self._group[0] != key:
                self._dirty = True
        self._ensure_local(replicas)
        if kind == "mirrored" and replicas > 1:
            if self._group is None:
                tf = self._tf
                self._group = (key, tf.distribute.MirroredStrategy(devices))
            return self._group[1]
        tf = self._tf
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
    def _in_process_servers(self, workers: int, ps: int) -> dict[str, list[str]]:
        key = (workers, ps)
        if key not in self._servers:
            # These servers outlive many coordinators (each test connects a new chief).
            self._servers[key] = start_in_process_servers(self._tf, workers, ps)
        return self._servers[key][0]

    def _process_servers(self, workers: int, ps: int) -> _ProcessCluster:
        key = (workers, ps)
        pc = self._proc_clusters.get(key)
        if pc is None or not pc.healthy():
            if pc is not None:
                pc.stop()
            pc = self._proc_clusters[key] = _ProcessCluster(workers, ps)
        return pc

    def make_ps_cluster(self, workers: int, ps: int, *, variable_partitioner: Any = None,
                        faults: Sequence[WorkerPreemption | PSFailure] = ()) -> PSCluster:
        tf = self.tf
        procs = None
        for f in faults:
            if not isinstance(f, (WorkerPreemption, PSFailure)):
                raise Unsupported(f"unknown fault {f!r}")
        if faults:
            procs = self._process_servers(workers, ps)
            spec = dict(procs.spec)
        else:
            spec = dict(self._in_process_servers(workers, ps))
        key = (workers, ps, bool(faults))
        if (not faults and self._mode == "cluster" and not self._dirty and self._conn is not None
                and self._conn[0] == key):
            # Same servers as the last cluster: a new strategy over the same connection (as TF's
            # own tests do). No context reset, no new chief server.
            spec = dict(self._conn[1])
        else:
            # A fresh context and a fresh chief address: an in-process chief server cannot be
            # stopped, so each connection gets its own port (hundreds of them abort TF).
            self._reset(self._cpus or self.default_cpus)
            self._mode = "cluster"
            spec["chief"] = [f"localhost:{_free_port()}"]
            self._conn = (key, dict(spec))
            self.connections += 1
        resolver = tf.distribute.cluster_resolver.SimpleClusterResolver(
            tf.train.ClusterSpec(spec), rpc_layer="grpc", task_type="chief", task_id=0)
        strategy = tf.distribute.experimental.ParameterServerStrategy(
            resolver, variable_partitioner=variable_partitioner)
        cluster = TensorFlowPSCluster(tf, strategy, resolver, workers, ps, procs, tuple(faults))
        self._clusters.append(cluster)
        return cluster

    def run_multi_worker(self, program: str, num_workers: int, *, chief: bool = False,
                         make_strategy: bool = True, gpus_per_worker: int = 0) -> list[Any]:
        if gpus_per_worker:
            raise Unsupported("the tensorflow backend's multi-worker clients are CPU-only (CUDA_VISIBLE_DEVICES='')")
        import tempfile  # noqa: PLC0415
        import textwrap  # noqa: PLC0415

        cluster: dict[str, list[str]] = {}
        if chief:
            cluster["chief"] = [f"localhost:{_free_port()}"]
        cluster["worker"] = [f"localhost:{_free_port()}" for _ in range(num_workers)]
        tasks = [(job, i) for job in ("chief", "worker") for i in range(len(cluster.get(job, ())))]
        env = dict(os.environ)
        env["CUDA_VISIBLE_DEVICES"] = ""
        env.pop("TF_CONFIG", None)
        env.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")   # what _tf_mwms sets before importing TF
        with tempfile.TemporaryDirectory(prefix="mwms-") as tmp:
            path = os.path.join(tmp, "program.py")
            with open(path, "w", encoding="utf-8") as f:
                f.write(textwrap.dedent(program))
            clients = [_Client(self._client_zygote(env), ["-m", "simdist.conformance.backends._tf_mwms",
                               json.dumps(cluster), job, str(i), path, "1" if make_strategy else "0"],
                               env, os.path.join(tmp, f"{job}{i}")) for job, i in tasks]
            try:
                results = []
                deadline = time.monotonic() + 300
                for (job, i), c in zip(tasks, clients):
                    try:
                        code, out, err = c.finish(max(deadline - time.monotonic(), 1.0))
                    except subprocess.TimeoutExpired:
                        raise RuntimeError(f"{job} {i} did not finish within 300 s (the cluster was killed)") from None
                    lines = [ln for ln in out.splitlines() if ln.startswith("RESULT ")]
                    if code != 0 or not lines:
                        raise RuntimeError(f"{job} {i} failed (exit {code}): {err.strip()[-2000:]}")
                    results.append(json.loads(lines[-1][len("RESULT "):]))
                return results
            finally:
                for c in clients:  # every client is ended, by pid, whatever happened
                    c.kill()

    def _client_zygote(self, env: dict[str, str]) -> Any:
        """The TF zygote that forks this backend's multi-worker clients (tf_zygote.py: TF is imported
        once, not once per client), or None for a fresh interpreter per client: without fork, with
        SIMDIST_TF_ZYGOTE=0, or when `env` is not the one the zygote imported TF with."""
        from simdist.conformance.backends import tf_zygote  # noqa: PLC0415

        if not tf_zygote.FORK_OK or os.environ.get("SIMDIST_TF_ZYGOTE", "1") == "0":
            return None
        if self._zygote is None:
            self._zygote = tf_zygote.Zygote(env)
        return self._zygote if self._zygote.serves(env) else None

    def to_numpy(self, value: Any) -> np.ndarray:
        if hasattr(value, "numpy"):
            value = value.numpy()
        return np.asarray(value)
