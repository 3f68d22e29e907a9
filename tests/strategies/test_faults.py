"""Fault injection on the simulated cluster: preemption, ps failure + checkpoint recovery,
stragglers, accounting (clauses coord.worker-failure, coord.ps-failure, coord.checkpoint,
pss.checkpoint-partitions), with hypothesis properties over random preemption schedules."""

from __future__ import annotations

import hashlib
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import simdist
from helpers import assert_value
from ps_helpers import coordinator, pss
from simdist import tf
from simdist.faults import FaultPlan, Preemption, PreemptionProcess, PSFailure, Straggler


def run_job(closures: int = 20, workers: int = 3, faults: FaultPlan | None = None, seed: int = 0,
            flops: float = 2e11):
    """assign_add(1.0) on a ps variable per closure, committed at its end; returns (final value,
    metrics, fetched results)."""
    s = pss(workers=workers, ps=2, faults=faults if faults is not None else FaultPlan(), seed=seed)
    with s.scope():
        v = tf.Variable(0.0)
        w = tf.Variable(tf.zeros([64, 64]))

    @tf.function
    @simdist.sim.flops(flops)
    def step():
        # (updates that depend on the step's compute, here a random draw times 0, commit with the
        # closure; constant ones would go out as soon as it starts and outlive its preemption:
        # clause optim.pss-updates)
        z = tf.random.uniform([]) * 0.0
        v.assign_add(1.0 + z)
        w.assign_add(tf.ones([64, 64]) + z)
        return 1
    c = coordinator(s)
    rvs = [c.schedule(step) for _ in range(closures)]
    c.join()
    return float(v.numpy()), c.metrics(), [rv.fetch() for rv in rvs]


@pytest.mark.clause("coord.worker-failure")
def test_preempted_closure_is_retried_elsewhere_and_nothing_is_lost():
    clean, m0, _ = run_job()
    value, m, results = run_job(faults=FaultPlan(preemptions=[Preemption(worker=1, at_time=0.05, downtime=0.2)]))
    assert clean == value == 20.0, (clean, value)
    assert results == [1] * 20
    assert m["preemptions"] == 1 and m["retries"] == 1, m
    # worker 1 started its first closure at t=0 and is preempted at t=0.05: 0.05 s of work lost
    assert m["lost_work_s"] == pytest.approx(0.05), m
    assert m["worker_downtime_s"] == pytest.approx(0.2), m
    assert m["closures"]["completed"] == 20 and m["closures"]["pending"] == 0
    assert m0["preemptions"] == m0["retries"] == 0 and m0["lost_work_s"] == 0.0


@pytest.mark.clause("coord.worker-failure")
def test_a_closure_preempted_during_compute_sends_no_writes():
    """Writes go out when the compute ends, only if that attempt is still running: a preempted
    attempt's writes are never sent."""
    value, m, _ = run_job(closures=6, workers=1,
                          faults=FaultPlan(preemptions=[Preemption(worker=0, at_time=0.1, downtime=0.05)]))
    per_closure = 4 + 64 * 64 * 4          # v and w, float32
    assert value == 6.0, f"v={value}, but should be 6.0 [6 closures, one retried]"
    assert m["retries"] == 1, f"retries={m['retries']}, but should be 1"
    assert m["ps_bytes_written"] == 6 * per_closure, \
        f"ps_bytes_written={m['ps_bytes_written']}, but should be {6 * per_closure} (6 completed attempts)"


def test_preemption_at_a_closure_count_mid_function():
    value, m, _ = run_job(faults=FaultPlan(preemptions=[Preemption(worker=0, at_closure=4, downtime=0.5)]))
    assert value == 20.0
    assert m["retries"] == 1 and m["preemptions"] == 1
    assert m["lost_work_s"] > 0, "half the closure's compute was thrown away"


def test_mtbf_process_is_deterministic_per_seed():
    plan = FaultPlan(process=PreemptionProcess(mtbf=2.0, downtime=0.5))  # closures take 0.4 s
    a = run_job(closures=40, faults=plan, seed=5)
    b = run_job(closures=40, faults=plan, seed=5)
    c = run_job(closures=40, faults=plan, seed=6)
    assert a == b, "same seed, same run"
    assert a[1]["preemptions"] > 0, a[1]
    assert a[1] != c[1], "another seed draws other preemptions"
    assert a[0] == c[0] == 40.0


def test_straggler_slows_the_run():
    _, fast, _ = run_job()
    _, slow, _ = run_job(faults=FaultPlan(stragglers=[Straggler(worker=0, slowdown=4.0)]))
    assert slow["simulated_time_s"] > fast["simulated_time_s"], (slow, fast)


@pytest.mark.clause("coord.ps-failure")
@pytest.mark.clause("coord.checkpoint")
def test_ps_failure_is_unavailable_and_recovers_from_checkpoint(tmp_path):
    plan = FaultPlan(ps_failures=[PSFailure(ps=0, at_time=0.5, downtime=0.1)])
    s = pss(workers=2, ps=2, faults=plan)
    with s.scope():
        v = tf.Variable(0.0)   # on ps 0
        u = tf.Variable(0.0)   # on ps 1

    @tf.function
    @simdist.sim.flops(1e11)   # 0.2 s on a preset CPU (500 GFLOP/s sustained)
    def step():
        v.assign_add(1.0)
        u.assign_add(1.0)
    c = coordinator(s)
    ckpt = tf.train.Checkpoint(v=v, u=u)
    for _ in range(4):
        c.schedule(step)
    c.join()
    path = ckpt.save(str(tmp_path / "ckpt"))
    for _ in range(200):
        c.schedule(step)
    with pytest.raises(tf.errors.UnavailableError, match="/job:ps/replica:0/task:0"):
        c.join()
    with pytest.raises((tf.errors.UnavailableError, tf.errors.FailedPreconditionError)):
        v.numpy()
    simdist.session.simulator().run(until=simdist.now() + 0.2)   # the ps restarts, values lost
    with pytest.raises(tf.errors.FailedPreconditionError, match="restore a checkpoint|Restore a checkpoint"):
        v.numpy()
    ckpt.restore(path)
    assert_value(v, 4.0, "restored v")
    m = c.metrics()
    assert m["ps_failures"] == 1
    assert m["closures"]["completed"] + m["closures"]["failed"] + m["closures"]["cancelled"] == 204
    for _ in range(3):
        c.schedule(step)
    c.join()
    assert_value(v, 7.0, "training continues after the restore")


@pytest.mark.clause("pss.checkpoint-partitions")
def test_checkpoint_partitions_must_not_change(tmp_path):
    P = tf.distribute.experimental.partitioners
    s = pss(workers=1, ps=2, partitioner=P.FixedShardsPartitioner(2))
    with s.scope():
        w = tf.Variable(tf.reshape(tf.range(8, dtype=tf.float32), [4, 2]), name="w")
    path = tf.train.Checkpoint(w=w).save(str(tmp_path / "c"))
    w.assign(tf.zeros([4, 2]))
    tf.train.Checkpoint(w=w).restore(path)
    assert_value(w, [[0., 1.], [2., 3.], [4., 5.], [6., 7.]], "restore with the same partitions")
    s3 = pss(workers=1, ps=3, partitioner=P.FixedShardsPartitioner(3))
    with s3.scope():
        w3 = tf.Variable(tf.zeros([4, 2]), name="w")
    with pytest.raises(ValueError, match=r"saved in 2 partition\(s\) but the variable now has 3.*pss.checkpoint-partitions"):
        tf.train.Checkpoint(w=w3).restore(path)


def test_fault_plan_errors_name_the_entry():
    with pytest.raises(ValueError, match="exactly one of at_time or at_closure"):
        Preemption(worker=0)
    with pytest.raises(ValueError, match="Preemption.downtime"):
        Preemption(worker=0, at_time=1.0, downtime="soon")
    with pytest.raises(ValueError, match=r"FaultPlan.preemptions\[0\].worker=5: the cluster has 2 workers"):
        pss(workers=2, ps=1, faults=FaultPlan(preemptions=[Preemption(worker=5, at_time=1.0)]))


def _digest(x) -> str:
    return hashlib.sha256(json.dumps(x, sort_keys=True, default=str).encode()).hexdigest()


preemption_schedules = st.lists(
    st.tuples(st.integers(0, 2), st.floats(0.0, 2.0, allow_nan=False), st.floats(0.01, 1.0, allow_nan=False)),
    max_size=6)


@settings(max_examples=20, deadline=None)
@given(schedule=preemption_schedules, seed=st.integers(0, 1000))
def test_property_random_preemptions(schedule, seed):
    """Every closure completes exactly once (retried as needed), commutative updates equal the
    fault-free run's, and the same seed gives the same run."""
    plan = FaultPlan(preemptions=[Preemption(worker=w, at_time=t, downtime=d) for w, t, d in schedule])
    clean_value, _, _ = run_job(closures=12, seed=seed)
    value, m, results = run_job(closures=12, faults=plan, seed=seed)
    assert results == [1] * 12
    assert m["closures"] == {"scheduled": 12, "completed": 12, "failed": 0, "cancelled": 0, "pending": 0}, m
    assert value == clean_value == 12.0
    assert m["retries"] <= m["preemptions"]
    again = run_job(closures=12, faults=plan, seed=seed)
    assert _digest(again[1]) == _digest(m)


def test_degraded_link_slows_ps_traffic():
    from simdist.faults import LinkDegradation

    def job(faults):
        s = pss(workers=2, ps=1, faults=faults)
        with s.scope():
            big = tf.Variable(tf.zeros([512, 1024]))   # 2 MiB written per closure (assign_add sends the delta)

        @tf.function
        def step():
            big.assign_add(tf.ones([512, 1024]))
        c = coordinator(s)
        for _ in range(4):
            c.schedule(step)
        c.join()
        return c.metrics()
    ok = job(FaultPlan())
    slow = job(FaultPlan(links=[LinkDegradation(link="/job:ps/replica:0/task:0/nic", bandwidth_factor=0.01)]))
    # 8 MiB cross the ps NIC: at 25 Gb/s (3.125 GB/s) about 2.7 ms, at 1% of it 100 times longer
    ratio = slow["simulated_time_s"] / ok["simulated_time_s"]
    assert ratio > 20, (slow["simulated_time_s"], ok["simulated_time_s"])
    assert slow["ps_bytes_written"] == ok["ps_bytes_written"] == 4 * 512 * 1024 * 4
    assert ok["ps_bytes_read"] == 0, "assign_add does not read the variable"


def test_timing_only_mode_with_placeholders_and_checkpoints(tmp_path):
    """Shape-only variables: closures charge reads/compute/writes, a ps outage fails them with
    UnavailableError, and a checkpoint restore brings the placeholders back."""
    plan = FaultPlan(ps_failures=[PSFailure(ps=1, at_time=1.0, downtime=0.5)],
                     preemptions=[Preemption(worker=0, at_time=0.3, downtime=0.2)])
    P = tf.distribute.experimental.partitioners
    s = pss(workers=2, ps=2, faults=plan, partitioner=P.FixedShardsPartitioner(2))
    with s.scope():
        emb = s.extended.placeholder_variable("emb", [1_000_000, 64], tf.float32)
        dense = s.extended.placeholder_variable("dense", [1024, 1024], tf.float32)
    assert [v.device for v in emb.variables] == ["/job:ps/replica:0/task:0/device:CPU:0",
                                                 "/job:ps/replica:0/task:1/device:CPU:0"]
    with pytest.raises(ValueError, match="shape-only placeholder"):
        emb.variables[0].numpy()
    c = coordinator(s)
    ckpt = tf.train.Checkpoint(emb=emb, dense=dense)
    path = ckpt.save(str(tmp_path / "ckpt"))
    rows = 4096 * 64 * 4   # a sparse lookup touches 4096 rows
    for _ in range(6):
        c.schedule_synthetic(flops=5e10, reads=[(emb, rows), dense], writes=[(emb, rows), dense])
    c.join()
    m = c.metrics()
    assert m["closures"]["completed"] == 6 and m["retries"] == 1, m
    # the preempted attempt read its inputs too: 7 attempts' worth of reads
    assert m["ps_bytes_read"] == (6 + m["retries"]) * (rows + 1024 * 1024 * 4), m
    with pytest.raises(tf.errors.UnavailableError):
        for _ in range(100):
            c.schedule_synthetic(flops=5e10, reads=[(emb, rows)], writes=[(emb, rows)])
        c.join()
    kinds = [e["kind"] for e in c.fault_events()]
    assert kinds == ["preemption", "ps_failure"], c.fault_events()
    simdist.session.simulator().run(until=simdist.now() + 1.0)
    ckpt.restore(path)
    c.schedule_synthetic(flops=5e10, reads=[(emb, rows)], writes=[(emb, rows)])
    c.join()


def test_preempted_kernel_frees_the_device():
    """The preempted closure's booked compute is cut at the preemption: device busy time counts
    only the work done, and lost work equals it."""
    plan = FaultPlan(preemptions=[Preemption(worker=0, at_time=0.1, downtime=5.0)])
    value, m, _ = run_job(closures=1, workers=2, faults=plan)   # one closure, its kernel cut at 0.1 s
    sim = simdist.session.simulator()
    busy = sim.metrics()["devices"]
    cpu1 = sim.cluster.device("/job:worker/replica:0/task:1/device:CPU:0")
    kernel = 2e11 / cpu1.flops + cpu1.launch_overhead   # run_job's @flops(2e11) on the preset CPU
    w0 = busy["/job:worker/replica:0/task:0/device:CPU:0"]["busy_s"]
    w1 = busy["/job:worker/replica:0/task:1/device:CPU:0"]["busy_s"]
    assert value == 1.0 and m["retries"] == 1, f"value={value}, retries={m['retries']}, but should be 1.0 and 1"
    assert w0 == pytest.approx(0.1, abs=1e-6), f"worker 0 busy {w0}, but it was preempted 0.1 s into its kernel"
    assert m["lost_work_s"] == pytest.approx(w0, abs=1e-9), f"lost_work_s={m['lost_work_s']}, but should be {w0}"
    assert w1 == pytest.approx(kernel, rel=1e-9), f"worker 1 busy {w1}, but the retried kernel takes {kernel}"


def test_assign_in_a_function_reinitialises_a_lost_variable():
    """After a ps restart its variables have no value: reading fails with FailedPreconditionError,
    but a scheduled function may assign the variable and then read its own write (as TF's
    AssignVariableOp creates the missing resource), and the assignment commits."""
    plan = FaultPlan(ps_failures=[PSFailure(ps=0, at_time=0.1, downtime=0.1)])
    s = pss(workers=1, ps=1, faults=plan)
    with s.scope():
        v = tf.Variable(3.0)
    c = coordinator(s)
    simdist.session.simulator().run(until=0.3)   # the ps fails and restarts, values lost
    with pytest.raises(tf.errors.FailedPreconditionError):
        v.numpy()

    @tf.function
    def reinit():
        v.assign(5.0)
        return v.read_value() + 1.0
    with pytest.raises(tf.errors.UnavailableError):
        c.schedule(reinit)   # the failure surfaces once, from the next schedule (TF 2.21)
    out = c.schedule(reinit)
    c.join()
    assert_value(out.fetch(), 6.0, "read after assign of a lost variable, in the same function")
    assert_value(v, 5.0, "v after the function committed its assign")


@pytest.mark.clause("coord.ps-failure-while-down")
def test_a_ps_failing_again_while_down_changes_nothing(tmp_path):
    """A second failure of ps 0 at t=0.55 s, while it is down (0.5 .. 0.6 s), is ignored: one failure
    counted, one fault window, and the ps is back at 0.6 s as the first failure said (not 0.65 s)."""
    plan = FaultPlan(ps_failures=[PSFailure(ps=0, at_time=0.5, downtime=0.1),
                                  PSFailure(ps=0, at_time=0.55, downtime=0.1)])
    s = pss(workers=2, ps=1, faults=plan)
    with s.scope():
        v = tf.Variable(0.0)

    @tf.function
    @simdist.sim.flops(1e11)   # 0.2 s on a preset CPU
    def step():
        v.assign_add(1.0)
    c = coordinator(s)
    for _ in range(20):
        c.schedule(step)
    with pytest.raises(tf.errors.UnavailableError, match="/job:ps/replica:0/task:0"):
        c.join()
    simdist.session.simulator().run(until=0.61)
    with pytest.raises(tf.errors.FailedPreconditionError):   # back (values lost), not still down
        v.numpy()
    m = c.metrics()
    assert m["ps_failures"] == 1, f"a failure while down was counted: ps_failures={m['ps_failures']}"
    windows = [f for f in c.fault_events() if f["kind"] == "ps_failure"]
    assert len(windows) == 1 and abs(windows[0]["end"] - 0.6) < 1e-9, windows


@pytest.mark.clause("coord.ps-failure-while-down")
def test_a_ps_failing_again_after_its_restart_is_a_new_failure():
    plan = FaultPlan(ps_failures=[PSFailure(ps=0, at_time=0.5, downtime=0.1),
                                  PSFailure(ps=0, at_time=0.7, downtime=0.1)])
    s = pss(workers=2, ps=1, faults=plan)
    with s.scope():
        tf.Variable(0.0)
    c = coordinator(s)
    simdist.session.simulator().run(until=1.0)
    windows = [(round(f["start"], 9), round(f["end"], 9)) for f in c.fault_events() if f["kind"] == "ps_failure"]
    assert windows == [(0.5, 0.6), (0.7, 0.8)], windows
    assert c.metrics()["ps_failures"] == 2
