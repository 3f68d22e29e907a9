"""Context flags and small namespaces against TF 2.21 (the forty-first session; clause
api.namespaces): tf.config.experimental's device policy, synchronous execution, memory info / usage /
reset on CPU, device details and the MLIR bridge switches; tf.debugging's log-device-placement flag;
tf.autograph.set_verbosity, trace, experimental.Feature and set_loop_options.

Each case is one program, the same on both backends (TF's in its worker process, live or from the
golden); each program puts back the flags it changed.
"""

from __future__ import annotations

import contextlib
import io
import os
from typing import Any, Callable

import pytest

import tf_programs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def attempt(f: Callable[[], Any]) -> Any:
    try:
        return ["ok", f()]
    except Exception as e:  # noqa: BLE001 - the class and message are the observable
        return ["error", type(e).__name__, str(e).split("\n")[0].split("Invoked with")[0]]


def config_flags(tf: Any) -> Any:
    E = tf.config.experimental
    out: dict[str, Any] = {"policy at start": E.get_device_policy()}
    for p in ("warn", "explicit", "silent_for_int32", None, "bogus", "silent"):
        out[f"policy {p!r}"] = [attempt(lambda: E.set_device_policy(p)), E.get_device_policy()]
    out["sync at start"] = E.get_synchronous_execution()
    for v in (False, None, 0, True):
        out[f"sync {v!r}"] = [attempt(lambda: E.set_synchronous_execution(v)), E.get_synchronous_execution()]
    for d in ("CPU:0", "/device:CPU:0", "cpu:0", "GPU:0", "CPU:7", "bogus", "CPU"):
        out[f"memory info {d}"] = attempt(lambda: E.get_memory_info(d))
        out[f"reset {d}"] = attempt(lambda: E.reset_memory_stats(d))
    out["memory usage"] = attempt(lambda: E.get_memory_usage("CPU:0"))
    cpu = tf.config.list_physical_devices("CPU")[0]
    out["details"] = [attempt(lambda: E.get_device_details(cpu)), attempt(lambda: E.get_device_details("CPU:0"))]
    out["mlir"] = [attempt(E.enable_mlir_bridge), attempt(E.disable_mlir_bridge)]
    D = tf.debugging
    out["log placement"] = [D.get_log_device_placement(), attempt(lambda: D.set_log_device_placement(True)),
                            D.get_log_device_placement(), attempt(lambda: D.set_log_device_placement("x")),
                            attempt(lambda: D.set_log_device_placement(1)), D.get_log_device_placement()]
    D.set_log_device_placement(False)
    out["log placement after"] = D.get_log_device_placement()
    return out


def autograph_names(tf: Any) -> Any:
    A = tf.autograph
    out: dict[str, Any] = {"verbosity": [attempt(lambda: A.set_verbosity(3)),
                                         attempt(lambda: A.set_verbosity(0))]}
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        r = A.trace(1, "a", [2.5])
    out["trace"] = [r, buf.getvalue()]
    F = A.experimental.Feature
    out["Feature"] = [[m.name for m in F], [m.value for m in F], F.ALL is F("ALL"), type(F.LISTS).__name__]
    out["loop options"] = [attempt(lambda: A.experimental.set_loop_options()),
                           attempt(lambda: A.experimental.set_loop_options(parallel_iterations=3, swap_memory=True,
                                                                          maximum_iterations=5))]
    return out


PROGRAMS: dict[str, Callable[[Any], Any]] = {"config-flags": config_flags, "autograph-names": autograph_names}
CASES: dict[str, dict] = {n: {"strategy": "default", "name": n} for n in PROGRAMS}


def program(tf: Any, case: dict, workdir: str) -> Any:
    return PROGRAMS[case["name"]](tf)


@pytest.fixture(scope="module")
def tf_results(request: Any) -> dict[int, Any]:
    return tf_programs.spawn(__file__, CASES, tf_programs.selected(request, __file__))


@pytest.mark.clause("api.namespaces")
@pytest.mark.parametrize("index", range(len(PROGRAMS)), ids=list(PROGRAMS))
def test_flags_as_tf(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    name = list(CASES)[index]
    got, want = tf_programs.on_simdist(program, CASES[name], str(tmp_path)), tf_results[index]
    bad = [k for k in want if got.get(k) != want[k]]
    assert not bad, "; ".join(f"{name}: {k}: simdist gives {got.get(k)!r}, but TF 2.21 gives {want[k]!r}" for k in bad)
    assert sorted(got) == sorted(want), f"{name}: simdist's keys {sorted(got)}, TF 2.21's {sorted(want)}"


if __name__ == "__main__":  # TF worker
    tf_workers.serve(tf_programs.worker(CASES, program))
    os._exit(0)
