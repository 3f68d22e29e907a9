"""Compute kernels, drive(), memory, random streams, step breakdown, cost annotations."""

from __future__ import annotations

import json

import numpy as np
import pytest

from simdist import sim as simmod
from simdist.runtime import errors
from simdist.sim import Cluster, Device, Host, SimulationStalled, Simulator, presets

FLOPS = 2e12
OVH = 4e-6


def machine():
    return Cluster([Host(cpus=1, gpus=[Device("GPU", i, FLOPS, "16GiB", OVH) for i in range(2)],
                         pcie=("16GB/s", "1us"))])


def test_kernel_time_is_flops_over_rate_plus_launch_overhead():
    s = Simulator(machine())
    s.drive(s.compute("/gpu:0", 1e12, "k"))
    expected = 1e12 / FLOPS + OVH
    assert s.now == pytest.approx(expected, rel=1e-15), f"expected {expected}, got {s.now}"
    s2 = Simulator(machine())
    s2.drive(s2.compute("/gpu:0", 1e12, "k", overhead=False))
    assert s2.now == 1e12 / FLOPS, f"overhead=False: expected {1e12 / FLOPS}, got {s2.now}"


def test_kernels_on_one_device_run_fifo_and_devices_in_parallel():
    s = Simulator(machine())
    done = {}
    evs = {"a": s.compute("/gpu:0", 1e12, "a"), "b": s.compute("/gpu:0", 2e12, "b"),
           "c": s.compute("/gpu:1", 1e12, "c")}
    for k, ev in evs.items():
        ev.callbacks.append(lambda _e, k=k: done.__setitem__(k, s.now))
    s.run()
    ta = 1e12 / FLOPS + OVH
    tb = ta + 2e12 / FLOPS + OVH
    assert done["a"] == pytest.approx(ta, rel=1e-15), done
    assert done["b"] == pytest.approx(tb, rel=1e-15), f"b queues behind a: expected {tb}, got {done['b']}"
    assert done["c"] == pytest.approx(ta, rel=1e-15), f"c runs on another device: expected {ta}, got {done['c']}"
    m = s.metrics()["devices"]["/job:localhost/replica:0/task:0/device:GPU:0"]
    assert m["kernels"] == 2 and m["busy_s"] == pytest.approx(tb, rel=1e-15) and m["busy_fraction"] == 1.0, m


def test_busy_time_counts_only_elapsed_work():
    s = Simulator(machine())
    s.compute("/gpu:0", 4e12, "long", overhead=False)  # 2 s
    s.run(until=0.5)
    m = s.metrics()["devices"]["/job:localhost/replica:0/task:0/device:GPU:0"]
    assert m["busy_s"] == pytest.approx(0.5, rel=1e-12), f"busy up to now: expected 0.5, got {m['busy_s']}"


def test_compute_rejects_bad_flops_and_device():
    s = Simulator(machine())
    with pytest.raises(ValueError, match=r"compute\('k'\)\.flops: expected a number >= 0, got nan"):
        s.compute("/gpu:0", float("nan"), "k")
    with pytest.raises(KeyError, match="unknown device '/gpu:5'"):
        s.compute("/gpu:5", 1.0, "k")


def test_drive_returns_value_and_reraises():
    s = Simulator(machine())

    def proc():
        yield s.compute("/gpu:0", 1e9, "k")
        yield s.timeout("10us")
        return 42

    assert s.drive(proc()) == 42
    expected = 1e9 / FLOPS + OVH + 10e-6
    assert s.now == pytest.approx(expected, rel=1e-12), f"expected {expected}, got {s.now}"

    def failing():
        yield s.timeout(1e-3)
        raise errors.UnavailableError(None, None, "ps is gone")

    with pytest.raises(errors.UnavailableError, match="ps is gone"):
        s.drive(failing())
    ev = s.compute("/gpu:1", 0.0, "noop")
    s.drive(ev)
    assert s.drive(ev) is None, "driving an already processed event returns its value"


def test_drive_detects_a_stall():
    s = Simulator(machine())
    never = s.env.event()
    with pytest.raises(SimulationStalled, match="never happened"):
        s.drive(never)


def test_drive_inside_a_process_is_refused():
    s = Simulator(machine())

    def proc():
        s.drive(s.timeout(1.0))
        yield s.timeout(1.0)

    with pytest.raises(RuntimeError, match="inside a simulated process"):
        s.drive(proc())


def test_memory_oom_message():
    s = Simulator(presets.gpu_host(gpus=1))
    gpu = "/job:localhost/replica:0/task:0/device:GPU:0"
    s.allocate(gpu, 70 * 2**30, "activations")
    with pytest.raises(errors.ResourceExhaustedError) as e:
        s.allocate("/gpu:0", "20GiB", "w")
    want = f"OOM when allocating 20.00 GiB for 'w' on {gpu}: 70.00 GiB of 80.00 GiB in use"
    assert str(e.value) == want, f"expected {want!r}, got {str(e.value)!r}"
    assert s.free(gpu, 30 * 2**30, "activations") == 40 * 2**30
    s.allocate(gpu, "20GiB", "w")
    mem = s.metrics()["memory"][gpu]
    assert mem == {"capacity_bytes": 80 * 2**30, "in_use_bytes": 60 * 2**30, "peak_bytes": 70 * 2**30}, mem
    with pytest.raises(ValueError, match=r"free\('x'\): cannot free 100.00 GiB"):
        s.free(gpu, "100GiB", "x")
    with pytest.raises(ValueError, match=r"allocate\('y'\)\.nbytes: '1 parsec' is not a size"):
        s.allocate(gpu, "1 parsec", "y")


def test_rng_streams_are_named_and_stable():
    a, b = Simulator(machine(), seed=7), Simulator(machine(), seed=7)
    x = a.rng("faults").random(4)
    a.rng("other").random(100)  # another stream does not shift "faults"
    y = b.rng("faults").random(4)
    assert np.array_equal(x, y), f"same seed+name must give the same numbers: {x} vs {y}"
    assert a.rng("faults") is a.rng("faults"), "one Generator per name"
    assert not np.array_equal(Simulator(machine(), seed=8).rng("faults").random(4), x), "seed changes the stream"
    assert not np.array_equal(b.rng("faulty").random(4), x), "name changes the stream"
    # pinned values: a change in derivation would silently change every seeded scenario
    got = Simulator(machine(), seed=0).rng("x").integers(0, 1000, 3).tolist()
    assert got == simmod.rng.derive(0, "x").integers(0, 1000, 3).tolist()
    with pytest.raises(ValueError, match=r"Simulator\.seed: expected an int >= 0, got -1"):
        Simulator(machine(), seed=-1)


def test_step_breakdown():
    """compute = some device computes; communication = a transfer in flight and no compute; idle = rest."""
    s = Simulator(machine())
    k = 1e12 / FLOPS + OVH          # kernel time
    x = 1e-6 + 8e6 / 16e9           # transfer time (latency + bytes/bw)
    with s.step("s0"):
        s.drive(s.all_of([s.compute("/gpu:0", 1e12, "fwd"), s.compute("/gpu:1", 1e12, "fwd")]))
        s.drive(s.transfer("/gpu:0", "/cpu:0", 8e6, "grad"))
        s.drive(s.timeout(1e-3))
    st = s.metrics()["steps"][0]
    assert st["name"] == "s0" and st["start"] == 0.0
    assert st["compute_s"] == pytest.approx(k, rel=1e-12), st
    assert st["communication_s"] == pytest.approx(x, rel=1e-9), st
    assert st["idle_s"] == pytest.approx(1e-3, rel=1e-9), st
    total = st["compute_s"] + st["communication_s"] + st["idle_s"]
    assert total == pytest.approx(st["end"] - st["start"], rel=1e-12), st


def test_overlapping_transfer_counts_as_compute_time():
    s = Simulator(machine())
    with s.step("overlap"):
        s.drive(s.all_of([s.compute("/gpu:0", 2e12, "k", overhead=False),   # 1 s
                          s.transfer("/cpu:0", "/gpu:1", 8e9, "x")]))          # 1us + 0.5 s
    st = s.metrics()["steps"][0]
    assert (st["compute_s"], st["communication_s"], st["idle_s"]) == (1.0, 0.0, 0.0), st


def test_metrics_are_json_with_sorted_keys():
    s = Simulator(machine(), seed=3)
    s.drive(s.all_reduce(["/gpu:0", "/gpu:1"], 2**20))
    m = s.metrics()
    text = json.dumps(m)
    assert json.dumps(json.loads(text), sort_keys=True) == text, "keys must already be sorted"
    assert m["seed"] == 3 and m["collectives"] == {"ring": 1} and m["events"] > 0
    assert m["simulated_time_s"] == s.now


def test_flops_annotation():
    @simmod.flops(2e9)
    def f(x):
        return x

    assert f.__simdist_flops__ == 2e9 and simmod.annotated_flops(f) == 2e9
    assert simmod.current_flops_override() is None
    with simmod.flops(1e9):
        assert simmod.current_flops_override() == 1e9
        with simmod.flops(5.0):
            assert simmod.current_flops_override() == 5.0
        assert simmod.current_flops_override() == 1e9
    assert simmod.current_flops_override() is None
    with pytest.raises(ValueError, match="flops: expected a finite number >= 0, got -1"):
        simmod.flops(-1)
    with pytest.raises(TypeError, match="flops: expected a number of FLOPs, got str"):
        simmod.flops("lots")


def test_simulator_accepts_a_host():
    s = Simulator(Host(gpus=1))
    assert [d.name for d in s.cluster.devices()][-1] == "/job:localhost/replica:0/task:0/device:GPU:0"


def test_step_counts_work_issued_before_it():
    """A kernel booked before the step still runs in it (compute); a transfer issued before the step
    and in flight during it is communication."""
    s = Simulator(machine())
    s.compute("/gpu:0", 2e12, "early", overhead=False)        # runs 0 .. 1 s
    s.transfer("/cpu:0", "/gpu:1", 16e9, "early copy")         # 1us + 1 s
    s.run(until=0.25)
    with s.step("late"):
        s.drive(s.timeout(2.0))
    st = s.metrics()["steps"][0]
    assert st["compute_s"] == pytest.approx(0.75, rel=1e-12), st
    assert st["communication_s"] == pytest.approx(1e-6, rel=1e-6), st
    assert st["idle_s"] == pytest.approx(2.0 - 0.75 - 1e-6, rel=1e-9), st


def test_union_length():
    from simdist.sim.metrics import union_length
    got = union_length([0, 1, 5, 2, 10], [2, 3, 6, 2.5, 11], 0.5, 10.5)
    expected = (3 - 0.5) + (6 - 5) + (10.5 - 10)
    assert got == expected, f"expected {expected}, got {got}"
    assert union_length([], []) == 0.0


def test_non_numbers_are_rejected_clearly():
    s = Simulator(machine())
    with pytest.raises(ValueError, match=r"compute\('k'\)\.flops: expected a number >= 0, got '1e9'"):
        s.compute("/gpu:0", "1e9", "k")
    with pytest.raises(ValueError, match=r"transfer\('t'\)\.nbytes: expected a number >= 0, got None"):
        s.transfer("/cpu:0", "/gpu:0", None, "t")


def test_union_small_and_large_paths_agree():
    from simdist.sim.metrics import _union_small, union_length
    rng = np.random.default_rng(0)
    a = rng.random(300)
    b = a + rng.random(300) * 0.01
    assert _union_small(a.tolist(), b.tolist(), 0.1, 0.9) == union_length(a, b, 0.1, 0.9)


def test_simulating_relaxes_the_cyclic_gc_and_restores_it():
    """While the simulator runs, the GC's first threshold is at least clock.GC_GEN0 (its full
    passes over a large run's live flows cost ~40% of the CPU time); afterwards it is the
    caller's again."""
    import gc

    from simdist.sim import clock, presets

    sim = Simulator(presets.cpu_host())
    before = gc.get_threshold()
    seen = []

    def proc():
        seen.append(gc.get_threshold()[0])
        yield sim.timeout(1.0)

    sim.drive(proc())
    assert seen == [max(before[0], clock.GC_GEN0)], f"threshold while simulating: {seen}, before: {before}"
    assert gc.get_threshold() == before, f"thresholds after drive: {gc.get_threshold()}, expected {before}"


def test_kernel_arguments_of_other_numeric_types_book_as_their_float_value():
    """``overhead`` is any truth value and FLOPs any number >= 0 (NumPy scalars, ints): the same
    kernel as the float/bool given, in a compiled build as in pure Python (the kernel book's
    arithmetic is compiled; simdist/sim/kernels.py)."""
    from fractions import Fraction
    ends = {}
    for label, flops, overhead in [("float", 1e12, True), ("int", 10**12, 1), ("np.int64", np.int64(10**12), True),
                                   ("np.float32", np.float32(1e12), np.bool_(True)),
                                   ("Fraction", Fraction(10**12), 1), ("no overhead", 1e12, 0)]:
        s = Simulator(machine())
        booked = s.kernel("/gpu:1", flops, "k2", overhead=overhead)
        s.drive(s.compute("/gpu:0", flops, "k", overhead=overhead))
        ends[label] = (s.now, booked)
    want = (float(np.float32(1e12)) / FLOPS + OVH, float(np.float32(1e12)) / FLOPS + OVH)
    assert ends["np.float32"] == want, f"np.float32 FLOPs: expected {want}, got {ends['np.float32']}"
    for label in ("int", "np.int64", "Fraction"):
        assert ends[label] == ends["float"], f"{label} FLOPs: expected {ends['float']} (as 1e12), got {ends[label]}"
    want = (1e12 / FLOPS, 1e12 / FLOPS)
    assert ends["no overhead"] == want, f"overhead=0: expected {want}, got {ends['no overhead']}"


def test_step_intervals_merged_as_they_come_give_the_union_of_all():
    """A step record folds a kernel interval that meets or overlaps the last one into it; its
    breakdown must equal the union of every interval given, in any order, clipped to the step."""
    from simdist.sim.metrics import StepRecord, union_length
    rng = np.random.default_rng(1)
    for trial in range(200):
        n = int(rng.integers(1, 60))
        starts = np.round(rng.random(n) * 10, 1)   # (coarse grid: many intervals meet exactly)
        ends = starts + np.round(rng.random(n) * rng.choice([0.0, 0.5, 3.0]), 1)
        if trial % 3 == 0:   # lockstep kernels, as a strategy's replicas issue them
            order = np.argsort(starts, kind="stable")
            starts, ends = starts[order], ends[order]
        lo, hi = sorted(np.round(rng.random(2) * 12 - 1, 1).tolist())
        rec = StepRecord("s", lo)
        for a, b in zip(starts.tolist(), ends.tolist()):
            rec.add_compute(a, b)
        rec.end = hi
        got = rec.summary()["compute_s"]
        want = union_length(starts, ends, lo, hi)
        assert got == want, f"trial {trial}: expected compute_s {want} (union of {n} intervals), got {got}"
