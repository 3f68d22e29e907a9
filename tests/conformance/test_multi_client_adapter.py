"""The simdist backend's multi-client entry (run_multi_worker through simdist.launch).

The launcher itself comes with the MultiWorkerMirroredStrategy work; these tests pin the
adapter's side of the contract with a stand-in ``launch`` that has the launcher's signature and
result shape: every client's TF_CONFIG task, the order of the results (chief first, then the
workers), the JSON round trip the tensorflow backend's processes make, and client errors.
"""

from __future__ import annotations

import importlib.util
import os
from dataclasses import dataclass, field

import pytest

from simdist.conformance.backends import simdist_backend
from simdist.conformance.protocol import Capability, Unsupported


@dataclass
class _Result:
    results: dict = field(default_factory=dict)
    stdout: str = ""
    sim_time: float = 0.0
    errors: dict = field(default_factory=dict)


def _fake_launch(calls: list):
    """A stand-in with simdist.launch.launch's signature: runs ``main`` once per task, in task
    order, with the task's TF_CONFIG in os.environ, and collects results and errors."""
    import json

    def launch(main, *, workers: int, gpus_per_worker: int = 0, chief: bool = False, args=(), seed: int = 0):
        calls.append({"workers": workers, "chief": chief, "seed": seed})
        tasks = ([("chief", 0)] if chief else []) + [("worker", i) for i in range(workers)]
        cluster = {**({"chief": ["chief0:2222"]} if chief else {}),
                   "worker": [f"worker{i}:2222" for i in range(workers)]}
        out = _Result()
        saved = os.environ.get("TF_CONFIG")
        for t in tasks:
            os.environ["TF_CONFIG"] = json.dumps({"cluster": cluster, "task": {"type": t[0], "index": t[1]}})
            try:
                out.results[t] = main()
            except Exception as e:  # noqa: BLE001 - the launcher reports client errors
                out.errors[t] = e
        if saved is None:
            os.environ.pop("TF_CONFIG", None)
        else:
            os.environ["TF_CONFIG"] = saved
        return out

    return launch


PROGRAM = """
import json, os
task = json.loads(os.environ["TF_CONFIG"])["task"]
result = {"task": (task["type"], task["index"]), "strategy": strategy, "arr": backend.to_numpy(np.arange(2)).tolist()}
"""


def test_results_in_task_order_after_a_json_round_trip(monkeypatch):
    calls: list = []
    monkeypatch.setattr(simdist_backend, "_launcher", lambda: _fake_launch(calls))
    b = simdist_backend.SimdistBackend()
    assert Capability.MULTI_CLIENT in b.capabilities, f"capabilities={sorted(b.capabilities)}, but should have multi_client"
    out = b.run_multi_worker(PROGRAM, 2, chief=True, make_strategy=False)
    expected = [{"task": ["chief", 0], "strategy": None, "arr": [0, 1]},
                {"task": ["worker", 0], "strategy": None, "arr": [0, 1]},
                {"task": ["worker", 1], "strategy": None, "arr": [0, 1]}]
    assert out == expected, f"run_multi_worker(chief=True) gave {out}, but should give {expected}"
    assert calls == [{"workers": 2, "chief": True, "seed": 0}], f"launch was called with {calls}"


def test_a_failed_client_is_reported_by_task(monkeypatch):
    monkeypatch.setattr(simdist_backend, "_launcher", lambda: _fake_launch([]))
    b = simdist_backend.SimdistBackend()
    program = 'import json, os\nif json.loads(os.environ["TF_CONFIG"])["task"]["index"] == 1:\n    raise ValueError("boom")\nresult = 1\n'
    with pytest.raises(RuntimeError, match=r"\('worker', 1\).*ValueError\('boom'\)"):
        b.run_multi_worker(program, 2, make_strategy=False)


def test_without_the_launcher_the_capability_is_absent(monkeypatch):
    monkeypatch.setattr(simdist_backend, "_launcher", lambda: None)
    b = simdist_backend.SimdistBackend()
    assert Capability.MULTI_CLIENT not in b.capabilities, f"capabilities={sorted(b.capabilities)} should lack multi_client"
    with pytest.raises(Unsupported, match="simdist.launch"):
        b.run_multi_worker("result = 1", 2)


def test_the_probe_follows_simdist_launch():
    """_launcher() is None exactly when simdist.launch cannot be found."""
    found = importlib.util.find_spec("simdist.launch") is not None
    got = simdist_backend._launcher()  # noqa: SLF001 - the probe under test
    assert (got is not None) == found, f"_launcher() gave {got!r}, but simdist.launch found={found}"
