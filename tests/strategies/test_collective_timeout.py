"""CommunicationOptions(timeout_seconds) on simulated time (clause mwms.collective-timeout).

The program is docs/tools/mwms_facts/faults.py's worker: two workers run a tf.function step
(a GradientTape gradient all-reduced, then `strategy.reduce`), worker 1 misbehaves before step
4 (``kill``: it raises, as a killed process leaves; ``slow``: it spends ``delay`` simulated
seconds first), each worker records the error of the failing step and of one more step.
TF 2.21's answers (docs/reference/mwms-tf-2.21.md, facts A.1-A.3) are the constants below;
`test_tf_faults_script_still_observes_them` runs the fact script on real TF (tf, slow).
Simulated times are checked against reference launches of the same program that stop before
step 4 (where each worker stands when it reaches step 4's collective).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest

import simdist
from simdist import sim as simmod
from simdist import tf
from simdist.launch import launch
from simdist.sim import presets
from simdist.strategies import collective_timeout as ct

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# Observed on TF 2.21 (faults.py, facts A.1-A.3): error class and the message's own lines.
TF_TIMED_OUT = ("DeadlineExceededError", "Collective has timed out during execution.")
TF_ABORTED = ("DeadlineExceededError", "Collective ops is aborted by: Collective has timed out during execution. "
                                       "The error could be from a previous operation. Restart your program to reset.")
TF_ABORTED_LATE = ("DeadlineExceededError", "Collective ops is aborted by: Collective ops is aborted by: Collective "
                                            "has timed out during execution. The error could be from a previous "
                                            "operation. Restart your program to reset.")
TF_LOSSES = [2.0, 1.8432, 1.6987]   # steps 1-3 on both workers (faults.py)


def _program(mode: str, timeout, delay: float = 0.0, stop_before: int | None = None, steps: int = 5):
    cpu_flops = presets.cpu_cluster(jobs={"worker": 2}).hosts[0].cpus[0].flops

    def main():
        idx = json.loads(os.environ["TF_CONFIG"])["task"]["index"]
        opts = tf.distribute.experimental.CommunicationOptions(timeout_seconds=timeout)
        strategy = tf.distribute.MultiWorkerMirroredStrategy(communication_options=opts)
        with strategy.scope():
            w = tf.Variable(1.0)

        @tf.function
        def step():
            def fn():
                with tf.GradientTape() as tape:
                    loss = w * w
                g = tape.gradient(loss, w)
                g = tf.distribute.get_replica_context().all_reduce("SUM", g)
                w.assign_sub(0.01 * g)
                return loss
            return strategy.reduce("SUM", strategy.run(fn), axis=None)

        out = []
        for i in range(1, steps + 1):
            if idx == 1 and i == 4:
                if mode == "kill":
                    raise SystemExit(-9)   # the process is gone
                if mode == "slow":   # `delay` simulated seconds of work on worker 1 only
                    with simmod.flops(delay * cpu_flops):
                        strategy.run(lambda: tf.constant(0.0))
            if stop_before is not None and i == stop_before:
                return out
            try:
                out.append(round(float(step()), 4))
            except Exception as e:  # noqa: BLE001 - the observation
                out.append((type(e).__name__, str(e)))
                try:
                    step()
                    out.append("next step ok")
                except Exception as e2:  # noqa: BLE001
                    out.append((type(e2).__name__, str(e2)))
                return out
        return out
    return main


def _launch(main):
    simdist.configure(cluster=presets.cpu_cluster(jobs={"worker": 2}))
    return launch(main, workers=2)


def _step_time() -> float:
    """The simulated time of one whole step (compute, all-reduce, reduce) on a worker."""
    return _launch(_program("none", None, steps=4)).end_times[W0] - _launch(_program("none", None, steps=3)).end_times[W0]


def _waited(waited: float, timeout: float, what: str) -> None:
    """``waited``: from where the worker stood before step 4 to its end: the timeout, plus at
    most the step's own work before its collective."""
    step = _step_time()
    assert timeout <= waited <= timeout + step, f"{what} waited {waited}s at step 4, but should time out after " \
        f"timeout_seconds = {timeout}s (plus at most the step's own {step}s before its collective)"


W0, W1 = ("worker", 0), ("worker", 1)


@pytest.mark.clause("mwms.collective-timeout")
def test_a_dead_peer_times_out_after_T_then_the_executor_stays_aborted():
    """Fact A.2: worker 1 killed, timeout_seconds=3: worker 0's step 4 fails after 3.0 s with
    DeadlineExceededError, the next step at once with the aborted message."""
    ref = _launch(_program("kill", 3.0, stop_before=4))
    r = _launch(_program("kill", 3.0))
    got = r.results[W0]
    assert got == TF_LOSSES + [TF_TIMED_OUT, TF_ABORTED], f"worker 0 saw {got}, but TF 2.21's saw " \
        f"{TF_LOSSES + [TF_TIMED_OUT, TF_ABORTED]}"
    _waited(r.end_times[W0] - ref.end_times[W0], 3.0, "worker 0")


@pytest.mark.clause("mwms.collective-timeout")
@pytest.mark.parametrize("timeout", [None, 0, 15.0], ids=["none", "zero", "above-heartbeat"])
def test_a_dead_peer_without_a_shorter_timeout_is_the_heartbeats(timeout):
    """Fact A.1: no timeout (or one not shorter than the 10 s heartbeat): UnavailableError."""
    r = _launch(_program("kill", timeout))
    first, second = r.results[W0][3:]
    assert first[0] == "UnavailableError" and second[0] == "UnavailableError", \
        f"timeout_seconds={timeout}: worker 0 got {first[0]} then {second[0]}, but the heartbeat's " \
        "UnavailableError comes first when no timeout is armed below it"


@pytest.mark.clause("mwms.collective-timeout")
def test_a_straggler_later_than_T_fails_both_workers():
    """Fact A.3: worker 1 six seconds late, timeout_seconds=3: worker 0 times out after 3 s,
    worker 1 gets the abort the moment it arrives; both stay aborted."""
    ref0 = _launch(_program("slow", 3.0, stop_before=4))            # where worker 0 reaches step 4
    ref1 = _launch(_program("slow", 3.0, delay=6.0, stop_before=4))  # where worker 1 reaches it, late
    r = _launch(_program("slow", 3.0, delay=6.0))
    assert r.results[W0] == TF_LOSSES + [TF_TIMED_OUT, TF_ABORTED], f"worker 0 saw {r.results[W0]}"
    assert r.results[W1] == TF_LOSSES + [TF_ABORTED_LATE, TF_ABORTED_LATE], f"worker 1 saw {r.results[W1]}"
    _waited(r.end_times[W0] - ref0.end_times[W0], 3.0, "worker 0")
    late = ref1.end_times[W1] - ref0.end_times[W0]
    assert late > 6.0, f"worker 1 arrived {late}s after worker 0: the test needs it more than 6 s late"
    _waited(r.end_times[W1] - ref1.end_times[W1], 0.0, "worker 1 (late: aborted when it arrives)")


@pytest.mark.clause("mwms.collective-timeout")
@pytest.mark.parametrize("timeout,delay", [(None, 15.0), (0, 6.0), (-1.0, 6.0), (3.0, 2.0)],
                         ids=["no-timeout", "zero", "negative", "shorter-delay"])
def test_a_straggler_within_the_timeout_or_without_one_is_waited_for(timeout, delay):
    """Fact A.3 (no timeout: a 15 s straggler is waited for, training goes on with the same
    values); 0 disables the timeout (collective_util's docstring), below 0 never arms it."""
    r = _launch(_program("slow", timeout, delay=delay))
    plain = _launch(_program("none", timeout))
    assert not r.errors and r.results[W0] == r.results[W1] == plain.results[W0], \
        f"timeout_seconds={timeout}, worker 1 {delay}s late: {r.results}, but both should train as without " \
        f"a straggler: {plain.results[W0]}"
    assert r.results[W0][:3] == TF_LOSSES, f"losses {r.results[W0][:3]}, but TF 2.21 printed {TF_LOSSES}"
    assert r.end_times[W0] - plain.end_times[W0] > delay, "worker 0 should wait for the straggler"


@pytest.mark.clause("mwms.collective-timeout")
def test_a_timeout_before_the_group_is_resolved_is_waiting_for_other_workers():
    """The workers' first collective together (TF resolves their group in it): its timer says
    "waiting for other workers" (base_collective_executor.cc; observed by the conformance suite's
    test_mwms_collective_times_out_and_stays_aborted on TF 2.21), the abort repeats it."""
    cpu_flops = presets.cpu_cluster(jobs={"worker": 2}).hosts[0].cpus[0].flops

    def main():
        idx = json.loads(os.environ["TF_CONFIG"])["task"]["index"]
        opts = tf.distribute.experimental.CommunicationOptions(timeout_seconds=0.5)
        strategy = tf.distribute.MultiWorkerMirroredStrategy(communication_options=opts)
        if idx == 1:
            with simmod.flops(2.0 * cpu_flops):
                strategy.run(lambda: tf.constant(0.0))
        out = []
        for _ in range(2):
            try:
                strategy.run(lambda: tf.distribute.get_replica_context().all_reduce("SUM", tf.constant(1.0)))
                out.append("ok")
            except Exception as e:  # noqa: BLE001 - the observation
                out.append((type(e).__name__, str(e)))
        return out
    r = _launch(main)
    first = ("DeadlineExceededError", ct.WAITING)
    again = ("DeadlineExceededError", ct.aborted_by(ct.WAITING))
    assert r.results[W0] == [first, again], f"worker 0 saw {r.results[W0]}, but should see {[first, again]}"
    late = ("DeadlineExceededError", "Collective ops is aborted by: " + ct.aborted_by(ct.WAITING))
    assert r.results[W1] == [late, late], f"worker 1 (late) saw {r.results[W1]}, but should see {[late, late]}"


def test_a_timeout_that_is_not_a_number_is_refused_at_the_collective():
    r = _launch(_program("none", "5"))
    e = r.errors.get(W0)
    assert isinstance(e, TypeError) and "timeout_seconds='5'" in str(e), \
        f"worker 0's error {e!r}, but should be a TypeError naming timeout_seconds='5'"


def test_timed_barrier_aborts_every_waiting_worker_at_the_first_timeout():
    """Three workers arrive at 0, 1 and 10 with T = 3: worker 0 times out at 3, worker 1 (still
    waiting) is aborted then, worker 2 is aborted the moment it arrives."""
    from simdist.sim.engine import Simulator
    s = Simulator(presets.cpu_cluster(jobs={"worker": 3}))
    b = ct.TimedBarrier(3, lambda sim: sim.timeout(0.5), [3.0, 3.0, 3.0])
    s.drive(s.all_of([s.process(_arrive(s, b, i, at)) for i, at in enumerate((0.0, 1.0, 10.0))]))
    assert b.outcome == ["timed_out", "aborted", "aborted"] and b.at == [3.0, 3.0, 10.0], \
        f"outcomes {b.outcome} at {b.at}, but should be timed_out at 3, aborted at 3 and at 10"
    ok = ct.TimedBarrier(2, lambda sim: sim.timeout(0.5), [3.0, None])   # 2 s apart, within 3 s
    s.drive(s.all_of([s.process(_arrive(s, ok, i, at)) for i, at in ((0, 11.0), (1, 13.0))]))
    assert ok.outcome == [None, None] and ok.at == [13.5, 13.5], f"{ok.outcome} at {ok.at}: both should complete"
    slow = ct.TimedBarrier(2, lambda sim: sim.timeout(5.0), [3.0, 3.0])  # both there, the collective too long
    s.drive(s.all_of([s.process(_arrive(s, slow, i, 20.0)) for i in (0, 1)]))
    assert slow.outcome == ["timed_out", "aborted"] and slow.at == [23.0, 23.0], \
        f"{slow.outcome} at {slow.at}: a collective still running T after it started times out"


def _arrive(s, barrier, i, at):
    yield s.timeout(at - s.now)
    yield barrier.arrive(s, i)


# --- real TF 2.21 ------------------------------------------------------------------------------------
def _tf_errors(text: str, worker: int) -> list[tuple[str, str]]:
    """(class, message lines) of the failing step and the next one, from faults.py's report."""
    block = text.split(f"=== worker:{worker}")[1].split("=== worker:")[0]
    out = []
    for m in re.finditer(r"(?:ERROR at step 4: \S+\.|NEXT STEP ERROR )(\w+Error) after [\d.]+s(?:;)? ?(?:message)?: ?"
                         r"(.*)", block):
        out.append((m.group(1), m.group(2)))
    return out


@pytest.mark.tf
@pytest.mark.slow
@pytest.mark.clause("mwms.collective-timeout")
@pytest.mark.parametrize("mode,args", [("kill", []), ("slow", ["--delay", "6"])])
def test_tf_faults_script_still_observes_them(mode, args):
    """faults.py on two real TF 2.21 processes: the error classes and message lines above."""
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3")
    p = subprocess.run([sys.executable, os.path.join(ROOT, "docs/tools/mwms_facts/faults.py"), "--mode", mode,
                        "--timeout-seconds", "3", *args], capture_output=True, text=True, timeout=600, env=env)
    w0 = _tf_errors(p.stdout, 0)
    assert [c for c, _ in w0] == ["DeadlineExceededError"] * 2, f"TF worker 0: {w0}\n{p.stdout[-3000:]}"
    assert TF_TIMED_OUT[1] in w0[0][1] and TF_ABORTED[1].split(" The error")[0] in w0[1][1], f"TF worker 0: {w0}"
    assert re.search(r"ERROR at step 4: .*after 3\.\ds", p.stdout), f"TF's step 4 should fail after ~3 s: {p.stdout}"
    if mode == "slow":
        w1 = _tf_errors(p.stdout, 1)
        assert [c for c, _ in w1] == ["DeadlineExceededError"] * 2 and \
            TF_ABORTED_LATE[1].split(" The error")[0] in w1[0][1], f"TF worker 1: {w1}"


def test_a_timeout_outside_a_launch_changes_nothing():
    """One worker (no TF_CONFIG): no peer can be late; the collectives run as without a timeout."""
    opts = tf.distribute.experimental.CommunicationOptions(timeout_seconds=0.001, bytes_per_pack=1)
    s = tf.distribute.MultiWorkerMirroredStrategy(communication_options=opts)
    got = s.run(lambda: tf.distribute.get_replica_context().all_reduce("SUM", [tf.constant(1.0), tf.constant(2.0)]))
    assert [float(x) for x in got] == [1.0, 2.0] and float(s.reduce("SUM", tf.constant(2.0), axis=None)) == 2.0
