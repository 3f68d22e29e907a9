"""`tf.train.ClusterSpec` and the cluster resolvers (`SimpleClusterResolver`, `TFConfigClusterResolver`).

A cluster spec only names tasks; simdist simulates them (no socket is opened).
"""

from __future__ import annotations

import json
import os
from typing import Any


class ClusterSpec:
    """Jobs and their task addresses (`tf.train.ClusterSpec`)."""

    def __init__(self, cluster: Any) -> None:
        if isinstance(cluster, ClusterSpec):
            # (TF copies it through its ClusterDef proto, whose jobs are sorted by name)
            d = cluster.as_dict()
            cluster = {job: d[job] for job in sorted(d)}
        if not isinstance(cluster, dict):
            raise TypeError("`cluster` must be a dictionary mapping one or more job names to lists of network "
                            "addresses, or a `ClusterDef` protocol buffer")
        self._jobs: dict[str, dict[int, str]] = {}
        for job, tasks in cluster.items():
            if isinstance(tasks, (list, tuple)):
                self._jobs[job] = {i: str(a) for i, a in enumerate(tasks)}
            elif isinstance(tasks, dict) and all(isinstance(k, int) for k in tasks):
                self._jobs[job] = {int(k): str(v) for k, v in sorted(tasks.items())}
            else:
                raise TypeError(f"The tasks for job '{job}' must be a list or a dictionary from integers to strings.")

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for job, tasks in self._jobs.items():
            idx = sorted(tasks)
            out[job] = [tasks[i] for i in idx] if idx == list(range(len(idx))) else dict(tasks)
        return out

    @property
    def jobs(self) -> list[str]:
        return list(self._jobs)

    def _job(self, job_name: str) -> dict[int, str]:
        if job_name not in self._jobs:
            raise ValueError(f"No such job in cluster: {job_name!r}")
        return self._jobs[job_name]

    def num_tasks(self, job_name: str) -> int:
        return len(self._job(job_name))

    def task_indices(self, job_name: str) -> list[int]:
        return sorted(self._job(job_name))

    def task_address(self, job_name: str, task_index: int) -> str:
        tasks = self._job(job_name)
        if task_index not in tasks:
            raise ValueError(f"No task with index {task_index!r} in job {job_name!r}")
        return tasks[task_index]

    def job_tasks(self, job_name: str) -> list[str]:
        tasks = self._job(job_name)
        return [tasks[i] for i in sorted(tasks)]

    def __bool__(self) -> bool:
        return bool(self._jobs)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ClusterSpec) and other.as_dict() == self.as_dict()

    def __hash__(self) -> int:
        return hash(json.dumps(self.as_dict(), sort_keys=True, default=str))

    def __repr__(self) -> str:
        return "ClusterSpec(" + repr({k: self.as_dict()[k] for k in sorted(self._jobs)}) + ")"


class ClusterResolver:
    """Base: `cluster_spec()`, `master()`, `task_type`, `task_id`, `rpc_layer`, `num_accelerators()`."""

    task_type: Any = None
    task_id: Any = None
    rpc_layer: Any = None

    def cluster_spec(self) -> ClusterSpec:
        raise NotImplementedError

    def num_accelerators(self, task_type: Any = None, task_id: Any = None, config_proto: Any = None) -> dict:
        return {}

    @property
    def environment(self) -> str:
        return ""


class SimpleClusterResolver(ClusterResolver):
    def __init__(self, cluster_spec: ClusterSpec, master: str = "", task_type: str | None = None,
                 task_id: int | None = None, environment: str = "", num_accelerators: Any = None,
                 rpc_layer: str | None = None) -> None:
        if not isinstance(cluster_spec, ClusterSpec):
            raise TypeError("cluster_spec must be a `tf.train.ClusterSpec`.")
        self._cluster_spec = cluster_spec
        self._master = master
        self.task_type = task_type
        self.task_id = task_id
        self._environment = environment
        self._num_accelerators = num_accelerators
        self.rpc_layer = rpc_layer

    def cluster_spec(self) -> ClusterSpec:
        return self._cluster_spec

    def master(self, task_type: str | None = None, task_id: int | None = None, rpc_layer: str | None = None) -> str:
        if task_type is not None and task_id is not None:
            addr = self._cluster_spec.task_address(task_type, task_id)
        else:
            addr = self._master
        layer = rpc_layer or self.rpc_layer
        return f"{layer}://{addr}" if layer else addr

    def num_accelerators(self, task_type: Any = None, task_id: Any = None, config_proto: Any = None) -> dict:
        return dict(self._num_accelerators or {})

    @property
    def environment(self) -> str:
        return self._environment


class TFConfigClusterResolver(ClusterResolver):
    """Reads the `TF_CONFIG` environment variable (JSON with `cluster` and `task`) at each use."""

    def __init__(self, task_type: str | None = None, task_id: int | None = None, rpc_layer: str | None = None,
                 environment: str | None = None) -> None:
        self._task_type = task_type
        self._task_id = task_id
        self._rpc_layer = rpc_layer
        self._environment = environment

    @staticmethod
    def _config() -> dict:
        raw = os.environ.get("TF_CONFIG")
        return json.loads(raw) if raw else {}

    @property
    def task_type(self) -> str | None:  # type: ignore[override]
        if self._task_type is not None:
            return str(self._task_type)
        t = self._config().get("task", {}).get("type")
        return None if t is None else str(t)

    @task_type.setter
    def task_type(self, value: str) -> None:
        self._task_type = value

    @property
    def task_id(self) -> int | None:  # type: ignore[override]
        if self._task_id is not None:
            return int(self._task_id)
        i = self._config().get("task", {}).get("index")
        return None if i is None else int(i)

    @task_id.setter
    def task_id(self, value: int) -> None:
        self._task_id = value

    @property
    def rpc_layer(self) -> str | None:  # type: ignore[override]
        return self._rpc_layer if self._rpc_layer is not None else self._config().get("rpc_layer")

    @rpc_layer.setter
    def rpc_layer(self, value: str) -> None:
        self._rpc_layer = value

    def cluster_spec(self) -> ClusterSpec:
        return ClusterSpec(self._config().get("cluster", {}))

    def master(self, task_type: str | None = None, task_id: int | None = None, rpc_layer: str | None = None) -> str:
        """TF 2.21's TFConfigClusterResolver.master: TF_CONFIG's `session_master` whatever the
        arguments; "" for a cluster of one task; else the task's address (ValueError "No such
        job in cluster: None" without a task), prefixed by the rpc layer (an explicit "" drops it)."""
        cfg = self._config()
        if cfg.get("session_master") is not None:
            return cfg["session_master"]
        spec = self.cluster_spec()
        jobs = spec.jobs
        if not jobs or (len(jobs) == 1 and spec.num_tasks(jobs[0]) == 1):
            return ""
        task_type = self.task_type if task_type is None else task_type
        task_id = self.task_id if task_id is None else task_id
        layer = self.rpc_layer if rpc_layer is None else rpc_layer
        addr = spec.task_address(task_type, task_id)
        return f"{layer}://{addr}" if layer else addr

    @property
    def environment(self) -> str | None:
        """The `environment` given to the constructor (TF 2.21 does not read TF_CONFIG's)."""
        return self._environment
