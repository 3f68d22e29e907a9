"""PreemptionCheckpointHandler on simulated time: the termination notice from the fault plan
(`Preemption(worker, at_time, notice)`), the kill at `at_time`, the grace period's final save,
workers of one cluster agreeing on the step, and a restart. TF cannot run these (its notice is a
real SIGTERM, its clock the wall clock); the expected steps are derived here from the simulated
times each run started at, by the rules of TF 2.21's failure_handling.py quoted in each test.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import pytest

import simdist
from simdist import tf
from simdist.faults import FaultPlan, Preemption
from simdist.strategies.preemption_handler import WorkerPreempted

PCH = tf.distribute.experimental.PreemptionCheckpointHandler
Config = tf.distribute.experimental.TerminationConfig


class Exit(Exception):
    pass


def _job(ckpt_dir: str, config: Any, resolver: Any = None, manager: bool = False) -> tuple[Any, Any, Any]:
    """A variable, a step that costs simulated time (a 256x256 matmul in a OneDeviceStrategy
    replica) and adds 1 to it, a handler."""
    v = tf.Variable(0.0)
    a = tf.ones((256, 256))
    strategy = tf.distribute.OneDeviceStrategy("/cpu:0")

    def step() -> Any:
        strategy.run(lambda: tf.linalg.matmul(a, a))
        v.assign_add(1.0)
        return v.read_value()

    ck = tf.train.Checkpoint(v=v)
    target = tf.train.CheckpointManager(ck, ckpt_dir, max_to_keep=None) if manager else ck
    handler = PCH(resolver, target, None if manager else ckpt_dir, config)
    return v, step, handler


def _step_time() -> float:
    simdist.reset()
    a = tf.ones((256, 256))
    t0 = simdist.now()
    tf.distribute.OneDeviceStrategy("/cpu:0").run(lambda: tf.linalg.matmul(a, a))
    tf.Variable(0.0).assign_add(1.0)
    d = simdist.now() - t0
    assert d > 0, "a 256x256 matmul should cost simulated time on the default machine"
    return d


def _saved_runs(ckpt_dir: str) -> int | None:
    latest = tf.train.latest_checkpoint(ckpt_dir)
    if latest is None:
        return None
    with np.load(latest + ".npz") as z:
        return int(z["checkpointed_runs"])


@pytest.mark.clause("pch.local-save-step")
def test_notice_from_the_fault_plan_saves_at_the_next_step_and_exits(tmp_path: Any) -> None:
    d = _step_time()
    at, notice = 10.5 * d, 4.0 * d
    simdist.configure(faults=FaultPlan(preemptions=[Preemption(worker=0, at_time=at, notice=notice)]))
    exits: list[int] = []
    starts: list[float] = []

    def exit_fn() -> None:
        exits.append(int(handler.total_run_calls))
        raise Exit()

    v, step, handler = _job(str(tmp_path), Config(exit_fn=exit_fn))
    with pytest.raises(Exit):
        for _ in range(20):
            starts.append(simdist.now())
            handler.run(step)
    # the notice is seen at the first run starting at or after at - notice (run count j): the
    # step to save at is j + 1 (TF: step_to_save_at = run_counter + 1), saved when run j + 1 begins
    j = next(i for i, t in enumerate(starts) if t >= at - notice)
    assert exits == [j + 1], f"exit_fn called at run counts {exits}, but should be at [{j + 1}] (notice at " \
                             f"{at - notice:g} s, runs started at {starts})"
    assert _saved_runs(str(tmp_path)) == j + 1, f"checkpointed_runs={_saved_runs(str(tmp_path))}, should be {j + 1}"
    assert float(v.numpy()) == j + 1, f"v={float(v.numpy())} after the exit, should be {j + 1} (one add a run)"
    assert simdist.now() < at, f"the save ended at {simdist.now():g} s, after the kill at {at:g} s"


@pytest.mark.clause("pch.local-save-step")
def test_without_notice_the_kill_loses_the_unsaved_work(tmp_path: Any) -> None:
    d = _step_time()
    at = 5.5 * d
    simdist.configure(faults=FaultPlan(preemptions=[Preemption(worker=0, at_time=at)]))
    v, step, handler = _job(str(tmp_path), Config(exit_fn=lambda: None))
    runs = 0
    with pytest.raises(WorkerPreempted) as info:
        for _ in range(20):
            handler.run(step)
            runs += 1
    assert info.value.code == 137, f"exit status {info.value.code}, should be 137 (SIGKILL)"
    assert runs == 6, f"{runs} runs before the kill, should be 6 (runs started at 0, d, ..., 5d < {at / d:g}d)"
    assert tf.train.latest_checkpoint(str(tmp_path)) is None, "nothing should have been saved without a notice"
    assert "preempted at simulated time" in str(info.value), f"unclear message: {info.value}"


@pytest.mark.clause("pch.grace-period")
def test_grace_period_saves_then_trains_on_then_saves_before_the_end(tmp_path: Any) -> None:
    d = _step_time()
    notice_at, grace = 2.5 * d, 20.0 * d
    simdist.configure(faults=FaultPlan(preemptions=[Preemption(worker=0, at_time=notice_at + grace, notice=grace)]))
    saves: list[tuple[float, int]] = []
    exits: list[int] = []
    starts: list[float] = []
    ends: list[float] = []

    def exit_fn() -> None:
        exits.append(int(handler.total_run_calls))
        raise Exit()

    v, step, handler = _job(str(tmp_path), Config(exit_fn=exit_fn, grace_period=grace,
                                                  save_fn=lambda: saves.append((simdist.now(),
                                                                                int(handler.total_run_calls)))))

    def timed() -> Any:
        starts.append(simdist.now())
        out = step()
        ends.append(simdist.now())
        return out

    with pytest.raises(Exit):
        for _ in range(40):
            handler.run(timed)
    j = next(i for i, t in enumerate(starts) if t >= notice_at)
    # TF: est = est + (run_time - est) / run_counter after each run; the final call comes at the
    # first run (count k) starting after notice + grace - 3 * est * 2, est as of the first save
    est = 0.0
    for n, (s, e) in enumerate(zip(starts[:j + 1], ends[:j + 1]), start=1):
        est += ((e - s) - est) / n
    target = notice_at + grace - 6 * est
    k = next(i for i, t in enumerate(starts) if i > j + 1 and t > target)
    assert [r for _, r in saves] == [j + 1, k + 1], \
        f"saves at run counts {[r for _, r in saves]}, should be [{j + 1}, {k + 1}] (target {target:g} s)"
    assert exits == [k + 1], f"exit_fn at {exits}, should be at [{k + 1}] (after the final save)"
    assert saves[-1][0] < notice_at + grace, f"the final save at {saves[-1][0]:g} s is after the termination"


@pytest.mark.clause("pch.local-save-step")
def test_termination_watcher_fn_on_simulated_time(tmp_path: Any) -> None:
    d = _step_time()
    exits: list[int] = []
    starts: list[float] = []

    def exit_fn() -> None:
        exits.append(int(handler.total_run_calls))
        raise Exit()

    v, step, handler = _job(str(tmp_path), Config(termination_watcher_fn=lambda: simdist.now() >= 3.5 * d,
                                                  exit_fn=exit_fn), manager=True)
    with pytest.raises(Exit):
        for _ in range(20):
            starts.append(simdist.now())
            handler.run(step)
    j = next(i for i, t in enumerate(starts) if t >= 3.5 * d)
    assert exits == [j + 1], f"exit_fn at {exits}, should be at [{j + 1}]"
    assert _saved_runs(str(tmp_path)) == j + 1


def _resolver(task: int) -> Any:
    spec = tf.train.ClusterSpec({"worker": ["localhost:2222", "localhost:2223"]})
    return tf.distribute.cluster_resolver.SimpleClusterResolver(spec, task_type="worker", task_id=task)


@pytest.mark.clause("pch.local-save-step")
@pytest.mark.parametrize("order", [(0, 1), (1, 0)], ids=["chief-first", "preempted-first"])
@pytest.mark.parametrize("noticed", [(1,), (1, 0)], ids=["one-notice", "both-noticed"])
def test_workers_of_a_cluster_save_at_the_same_step(tmp_path: Any, order: tuple[int, int],
                                                    noticed: tuple[int, ...]) -> None:
    d = _step_time()
    plan = [Preemption(worker=w, at_time=(20 + i) * d, notice=(15 - i) * d) for i, w in enumerate(noticed)]
    simdist.configure(faults=FaultPlan(preemptions=plan))
    ckpt_dir = str(tmp_path / "ckpt")
    exits: dict[int, int] = {}
    jobs = {}
    for w in (0, 1):
        def exit_fn(w: int = w) -> None:
            exits[w] = int(jobs[w][2].total_run_calls)
        jobs[w] = _job(ckpt_dir, Config(exit_fn=exit_fn), resolver=_resolver(w))
    assert os.path.isdir(str(tmp_path / "workertemp_1")), "the non-chief worker writes beside the directory"
    for _ in range(30):   # lockstep, as MultiWorkerMirroredStrategy's collectives keep the workers
        if len(exits) == 2:
            break
        for w in order:
            if w not in exits:
                jobs[w][2].run(jobs[w][1])
    assert len(exits) == 2 and exits[0] == exits[1], f"workers exited at run counts {exits}, should be one count"
    assert _saved_runs(ckpt_dir) == exits[0], f"the chief saved checkpointed_runs={_saved_runs(ckpt_dir)}, " \
                                              f"should be {exits[0]}"
    assert not os.path.exists(str(tmp_path / "workertemp_1")), "the non-chief's temporary directory should be gone"
    # a restart: new handlers restore the count and do not see the old round's keys
    restarted = {w: _job(ckpt_dir, Config(exit_fn=lambda: None), resolver=_resolver(w)) for w in (0, 1)}
    for w in (0, 1):
        v, step, handler = restarted[w]
        assert int(handler.total_run_calls) == exits[0], \
            f"worker {w} restored total_run_calls={handler.total_run_calls}, should be {exits[0]}"
        assert float(v.numpy()) == exits[0], f"worker {w} restored v={float(v.numpy())}, should be {exits[0]}"
        handler.run(step)
        handler.run(step)
    assert _saved_runs(ckpt_dir) == exits[0], "a restarted job saved again without a new notice"


@pytest.mark.clause("pch.errors")
def test_bad_input_is_refused_with_the_rule(tmp_path: Any) -> None:
    simdist.reset()
    ck = tf.train.Checkpoint(v=tf.Variable(1.0))
    with pytest.raises(TypeError, match="grace_period='1 hour'"):
        PCH(None, ck, str(tmp_path), Config(grace_period="1 hour"))
    with pytest.raises(TypeError, match="tf.train.Checkpoint or tf.train.CheckpointManager"):
        PCH(None, {"v": 1}, str(tmp_path))
    with pytest.raises(ValueError, match="notice=5 is longer than at_time=2"):
        Preemption(worker=0, at_time=2, notice=5)
    with pytest.raises(ValueError, match="needs at_time"):
        Preemption(worker=0, at_closure=3, notice=1)
