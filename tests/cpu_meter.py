"""`--cpu-report FILE.json` (tests/conftest.py): the CPU seconds each test file costs.

Per file: user+system time of this process and of the subprocesses it waited for
(resource.getrusage RUSAGE_SELF + RUSAGE_CHILDREN) around each of its tests, set-up and teardown
included, plus the CPU of the TF zygote's children (tests/tf_workers.py `stats["cpu"]`: the zygote
reaps them, so they are not this process' children). The zygote's own start (importing TF once)
is reported as "<tf zygote start>" when it ends with the session (a zygote replaced for another
environment adds its start to the file whose request replaced it). A measurement for budgeting the
default run on a loaded machine, where wall time says little; no test reads it. Under xdist each worker
writes FILE.<worker>.json and the controller, which runs no test, writes FILE.json as their sum (the workers
it saw finish, by id).
"""

from __future__ import annotations

import json
import os
import resource
from typing import Any, Iterator

import pytest


def _cpu() -> float:
    import tf_workers
    total = tf_workers.stats["cpu"]
    for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN):
        r = resource.getrusage(who)
        total += r.ru_utime + r.ru_stime
    return total


class CpuMeter:
    def __init__(self, path: str):
        self.path = path
        self.files: dict[str, float] = {}
        self.workers: list[str] = []   # xdist workers seen finishing (the controller's view)

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_protocol(self, item: pytest.Item, nextitem: Any) -> Iterator[None]:
        start = _cpu()
        yield
        key = item.location[0]
        self.files[key] = self.files.get(key, 0.0) + _cpu() - start

    @pytest.hookimpl(optionalhook=True)
    def pytest_testnodedown(self, node: Any, error: Any) -> None:
        self.workers.append(node.gateway.id)

    def _worker_path(self, worker: str) -> str:
        return f"{os.path.splitext(self.path)[0]}.{worker}.json"

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        import tf_workers
        if self.workers:   # the xdist controller: the sum of its workers' reports
            files: dict[str, float] = {}
            zygote: dict[str, float] = {}
            missing = []   # a worker that died before its sessionfinish wrote nothing
            for worker in sorted(self.workers):
                if not os.path.exists(self._worker_path(worker)):
                    missing.append(worker)
                    continue
                with open(self._worker_path(worker)) as f:
                    part = json.load(f)
                for name, cpu in part["files"].items():
                    files[name] = files.get(name, 0.0) + cpu
                for key, value in part["zygote"].items():
                    zygote[key] = zygote.get(key, 0) + value
            with open(self.path, "w") as f:
                json.dump({"files": dict(sorted(files.items())), "zygote": dict(sorted(zygote.items())),
                           "total": sum(files.values()), "workers": sorted(self.workers), "missing": missing}, f,
                          indent=1)
            return
        if tf_workers._zygote is not None:
            before = _cpu()
            tf_workers.close_zygote()   # its own CPU (importing TF) lands here; its children's stay per file
            self.files["<tf zygote start>"] = _cpu() - before
        worker = os.environ.get("PYTEST_XDIST_WORKER")
        path = self.path if worker is None else self._worker_path(worker)
        with open(path, "w") as f:
            json.dump({"files": dict(sorted(self.files.items())), "zygote": dict(tf_workers.stats),
                       "total": sum(self.files.values())}, f, indent=1)
