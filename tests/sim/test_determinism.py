"""Same inputs + seed => byte-identical metrics and trace, in any process, under any PYTHONHASHSEED."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import simtest_workloads as w
from simdist.sim import DeterminismError, check_determinism

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]


def trace_in_subprocess(workload: str, hash_seed: str) -> bytes:
    env = dict(os.environ, PYTHONHASHSEED=hash_seed, PYTHONPATH=os.pathsep.join([str(ROOT), str(HERE)]))
    code = f"import sys, simtest_workloads as w; sys.stdout.buffer.write(w.trace_bytes({workload!r}))"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, env=env, cwd=str(ROOT))
    assert proc.returncode == 0, proc.stderr.decode()
    return proc.stdout


def test_same_seed_same_bytes_in_process():
    a, b = w.training_steps(seed=5), w.training_steps(seed=5)
    a.close(), b.close()
    assert a.metrics() == b.metrics()
    assert a.trace.getvalue() == b.trace.getvalue(), "trace bytes differ between two identical runs"
    c = w.training_steps(seed=6)
    c.close()
    assert c.trace.getvalue() != a.trace.getvalue(), "the seed must matter (jitter stream)"


def test_engine_does_not_leak_set_order_across_hash_seeds():
    """The workload hands sets of device names to all_reduce. Under PYTHONHASHSEED=0 and =1 the sets
    iterate in different orders (the control below proves it); the traces must still be identical,
    which fails if the engine scheduled in set order."""
    t0 = trace_in_subprocess("set_of_devices", "0")
    t1 = trace_in_subprocess("set_of_devices", "1")
    assert t0 and t0 == t1, "trace bytes differ between PYTHONHASHSEED=0 and 1"


def test_control_user_set_order_does_change_the_trace():
    t0 = trace_in_subprocess("user_set_order", "0")
    t1 = trace_in_subprocess("user_set_order", "1")
    assert t0 != t1, "control: set iteration order should differ between these hash seeds"


def test_check_determinism_passes_and_returns_a_stable_hash():
    h1 = check_determinism(w.training_steps, 3)
    h2 = check_determinism(w.training_steps, 3)
    assert h1 == h2 and len(h1) == 64, (h1, h2)
    assert check_determinism(w.training_steps, 4) != h1


def test_check_determinism_in_a_fresh_process():
    h = check_determinism(w.training_steps, 1, fresh_process=True)
    assert h == check_determinism("simtest_workloads:training_steps", 1)


def test_check_determinism_catches_a_global_counter():
    with pytest.raises(DeterminismError) as e:
        check_determinism(w.global_counter)
    msg = str(e.value)
    assert "run 2 differs from run 1" in msg and "metrics differ at $['devices']" in msg, msg


def test_check_determinism_catches_hash_order_in_a_fresh_process():
    with pytest.raises(DeterminismError) as e:
        check_determinism(w.user_set_order, fresh_process=True)
    assert "fresh process (PYTHONHASHSEED=" in str(e.value) and "trace" in str(e.value), str(e.value)


def test_check_determinism_takes_the_callers_first_run():
    """`first=` is the result of a run the caller made: it counts as run 1 (one call fewer), and a first run that
    differs from the later ones is caught like any other."""
    calls = [0]

    def fn(steps):
        calls[0] += 1
        return w.training_steps(steps)

    mine = w.training_steps(3)
    h = check_determinism(fn, 3, first=mine)
    assert calls[0] == 1, f"fn ran {calls[0]} times, but should run once beside the caller's first run"
    assert h == check_determinism(w.training_steps, 3), "the digest with first= should equal a plain check's"
    with pytest.raises(DeterminismError) as e:
        check_determinism(fn, 3, first=w.training_steps(4))
    assert "run 2 differs from run 1" in str(e.value), str(e.value)


def test_check_determinism_names_trace_difference():
    calls = [0]

    def fn():
        calls[0] += 1
        sim = w.training_steps(steps=1)
        sim.transfer("/job:worker/task:0/device:CPU:0", "/job:worker/task:1/device:CPU:0", 1e6, f"x{calls[0]}")
        sim.run()
        return sim

    with pytest.raises(DeterminismError) as e:
        check_determinism(fn)
    assert "trace differs, first difference at byte" in str(e.value), str(e.value)


def test_check_determinism_rejects_local_functions_for_fresh_process():
    with pytest.raises(ValueError, match="module-level function"):
        check_determinism(lambda: b"x", fresh_process=True)
