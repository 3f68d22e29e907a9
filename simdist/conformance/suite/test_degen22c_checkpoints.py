"""degen22c (issue 29, session 22): tf.train.CheckpointManager off its degenerate points. The earlier
programs saved more checkpoints than max_to_keep (never exactly as many) and never set
checkpoint_interval (the default None saves at every call). The expected names are computed in the test
from TF 2.21's rule (tensorflow/python/checkpoint/checkpoint_management.py, transcribed)."""

from __future__ import annotations

import os
import tempfile

import pytest

from simdist.conformance.assertions import assert_equal, raises

clause = pytest.mark.clause


@clause("checkpoint.manager", ref="tf221")
def test_degen22c_checkpoint_manager_max_to_keep_equal_to_the_saves(tf, budget):
    """CheckpointManager(max_to_keep=k) after exactly k saves keeps all k (the sweep deletes only while more
    than k are listed), after k + 1 the newest k: the manager's list, the state file's and the files left."""
    for k, saves in budget([(3, 3), (3, 4), (1, 1), (2, 2), (1, 2)]):
        d = tempfile.mkdtemp()
        ckpt = tf.train.Checkpoint(v=tf.Variable(0.0))
        manager = tf.train.CheckpointManager(ckpt, d, max_to_keep=k)
        for _ in range(saves):
            manager.save()
        want = [f"ckpt-{i}" for i in range(max(1, saves - k + 1), saves + 1)]
        call = f"CheckpointManager(max_to_keep={k}), {saves} saves"
        assert_equal([os.path.basename(str(p)) for p in manager.checkpoints], want, call=call, what="checkpoints")
        again = tf.train.CheckpointManager(tf.train.Checkpoint(v=tf.Variable(0.0)), d, max_to_keep=k)
        assert_equal([os.path.basename(str(p)) for p in again.checkpoints], want, call=call,
                     what="checkpoints of a new manager on the directory")
        stems = sorted({f.split(".")[0] for f in os.listdir(d) if f != "checkpoint"})
        assert_equal(stems, sorted(want), call=call, what="checkpoint files left (by prefix)")


def _interval_ref(steps: list[int], interval: int, checks: list[bool], last: int | None) -> list[int | None]:
    """CheckpointManager.save with checkpoint_interval: None when the step equals the last saved step, or
    (check_interval) is below last + interval; else the step is recorded and the checkpoint numbered by the
    save counter (1, 2, ...)."""
    out: list[int | None] = []
    n = 0
    for step, check in zip(steps, checks):
        if last is not None and (step == last or (check and step < last + interval)):
            out.append(None)
            continue
        last = step
        n += 1
        out.append(n)
    return out


@clause("checkpoint.manager", ref="tf221")
def test_degen22c_checkpoint_manager_checkpoint_interval(tf, budget):
    """CheckpointManager(step_counter, checkpoint_interval=n): save() returns None (no checkpoint, the save
    counter unchanged) until the step counter reaches the last saved step + n, and always at the last saved
    step itself; save(check_interval=False) saves at any new step; last_checkpoint_step sets the starting
    point. checkpoint_interval without step_counter is ValueError."""
    cases = [([0, 1, 2, 3, 4, 5, 6, 7, 8], 3, None, None), ([0, 0, 2, 2, 5, 6], 2, None, None),
             ([1, 2, 3, 3, 4, 9], 3, [True, False, False, True, True, True], None),
             ([0, 2, 4, 5, 7, 8], 3, None, 2)]
    for steps, interval, checks, last in budget(cases):
        checks = checks or [True] * len(steps)
        d = tempfile.mkdtemp()
        step = tf.Variable(0, dtype=tf.int64)
        ckpt = tf.train.Checkpoint(step=step)
        kwargs = {} if last is None else {"last_checkpoint_step": last}
        manager = tf.train.CheckpointManager(ckpt, d, max_to_keep=None, step_counter=step,
                                             checkpoint_interval=interval, **kwargs)
        got = []
        for s, check in zip(steps, checks):
            step.assign(s)
            p = manager.save(check_interval=check)
            got.append(None if p is None else int(os.path.basename(str(p)).split("-")[-1]))
        want = _interval_ref(steps, interval, checks, last)
        assert_equal(str(got), str(want), what="checkpoint numbers saved (None: skipped)",
                     call=f"CheckpointManager(checkpoint_interval={interval}, last_checkpoint_step={last}) over "
                          f"steps {steps}, check_interval {checks}")
        assert_equal(int(ckpt.save_counter), len([g for g in want if g is not None]), what="save_counter",
                     call=f"checkpoint_interval={interval} over steps {steps}")
    with raises(ValueError, match="step_counter", call="CheckpointManager(checkpoint_interval=2) without step_counter"):
        tf.train.CheckpointManager(tf.train.Checkpoint(v=tf.Variable(1.0)), tempfile.mkdtemp(), max_to_keep=1,
                                   checkpoint_interval=2)
