"""A ClusterCoordinator closure's early writes (clause optim.pss-updates): a write whose value
comes from variable reads and constants only is sent as soon as its reads are back and commits
when it arrives at its ps; the other writes commit when the closure's writes arrive at its end."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from ps_helpers import coordinator, pss

import simdist
from simdist import tf
from simdist.faults import FaultPlan, Preemption, Straggler


def _step(s: Any, w: Any, c: Any, flops: float) -> Any:
    @tf.function
    @simdist.sim.flops(flops)
    def step() -> None:
        w.assign_add(tf.matmul(w, w) * 0.0 + 1.0)   # waits for the compute
        c.assign(c + 1.0)                           # read then assign: early
    return step


@pytest.mark.clause("optim.pss-updates")
def test_an_early_write_commits_when_it_arrives_and_the_others_at_the_end() -> None:
    s = pss(workers=1, ps=1)
    with s.scope():
        w = tf.Variable(np.zeros((8, 8), np.float32), name="w")
        c = tf.Variable(0.0, name="c")
    coord = coordinator(s)
    step = _step(s, w, c, 1e10)    # about 20 ms of compute on a CPU host
    for k in range(2):             # the first call records, the second replays: the same
        t0 = simdist.now()
        coord.schedule(step)
        assert coord.run_until(lambda: float(c.numpy()) == k + 1), f"c={c.numpy()}: the early write never came"
        t_early = simdist.now()
        assert float(w.numpy()[0, 0]) == k, \
            f"w[0,0]={w.numpy()[0, 0]} when c's write arrived at t={t_early}, but w's write waits for the compute"
        coord.join()
        t_end = simdist.now()
        assert float(w.numpy()[0, 0]) == k + 1, f"w[0,0]={w.numpy()[0, 0]} after the closure, but should be {k + 1}"
        assert t_early - t0 < 0.05 * (t_end - t0), \
            f"call {k}: c committed at {t_early - t0:.6g}s of a {t_end - t0:.6g}s closure, but should right " \
            "after its read"
    assert coord.metrics()["ps_bytes_written"] == 2 * (8 * 8 * 4 + 4), \
        f"ps_bytes_written={coord.metrics()['ps_bytes_written']}, but two closures send w and c once each"


def _counted(workers: int, steps: int, chain: int, n: int, straggler: float | None = None,
             flops: float | None = None) -> int:
    """The optimizer's iterations after `steps` SGD steps (a chain of `chain` n-by-n matmuls;
    `flops`: annotated instead) on `workers` workers, worker 0 `straggler` times slower."""
    plan = FaultPlan(stragglers=[Straggler(worker=0, slowdown=straggler)]) if straggler else None
    s = pss(workers=workers, ps=1, faults=plan, seed=1) if plan else pss(workers=workers, ps=1)
    with s.scope():
        w = tf.Variable(np.full((n, n), 1.0 / n, np.float32), name="w")
        opt = tf.keras.optimizers.SGD(0.01)
        opt.build([w])

    def step() -> None:
        def replica() -> None:
            with tf.GradientTape() as tape:
                x = w
                for _ in range(chain):
                    x = tf.matmul(x, w)
                loss = tf.reduce_sum(x)
            opt.apply_gradients([(tape.gradient(loss, w), w)])
        s.run(replica)
    fn = tf.function(simdist.sim.flops(flops)(step) if flops else step)
    coord = coordinator(s)
    for _ in range(steps):
        coord.schedule(fn)
    coord.join()
    return int(opt.iterations.numpy())


@pytest.mark.clause("optim.pss-updates")
def test_lockstep_workers_lose_every_overlapping_increment() -> None:
    """Symmetric workers start each round together and read `iterations` before any of them
    assigns it: every round counts once, the model's prediction (TF's counts lie above)."""
    got = [_counted(4, 20, 1, 32), _counted(4, 20, 1, 32)]
    assert got == [5, 5], f"iterations={got} after 20 steps on 4 lockstep workers, but should be 5 on every run"


@pytest.mark.clause("optim.pss-updates")
def test_workers_out_of_step_lose_fewer_increments() -> None:
    """A straggler, or a heavier step whose updates queue at the ps, puts the workers out of
    step: a closure then reads `iterations` after another's assign arrived, and the count lies
    between every round counted once and every step (as TF's counts do)."""
    for args, low, high in (((2, 20, 1, 32, 1.5, 1e9), 10, 20), ((4, 20, 30, 128), 5, 20)):
        got = [_counted(*args), _counted(*args)]
        assert got[0] == got[1], f"iterations={got} on two identical runs of {args}: must be deterministic"
        assert low < got[0] < high, f"iterations={got[0]} for (workers, steps, chain, n, straggler, flops)={args}, " \
                                    f"but should lie strictly between {low} and {high}"


@pytest.mark.clause("optim.pss-updates")
@pytest.mark.clause("coord.worker-failure")
def test_an_early_write_outlives_its_attempts_preemption() -> None:
    """A closure preempted during its compute: its early write had arrived and stays applied
    (TF's at-least-once: the ps ran the assign), the retry adds its own; its other writes were
    never sent, so they land once."""
    plan = FaultPlan(preemptions=[Preemption(worker=0, at_time=0.005, downtime=0.01)])
    s = pss(workers=1, ps=1, faults=plan, seed=1)
    with s.scope():
        w = tf.Variable(np.zeros((8, 8), np.float32), name="w")
        c = tf.Variable(0.0, name="c")
    coord = coordinator(s)
    coord.schedule(_step(s, w, c, 1e10))
    coord.join()
    m = coord.metrics()
    assert m["retries"] == 1, f"retries={m['retries']}, but the preemption at 5 ms should cut the 20 ms closure"
    assert (float(c.numpy()), float(w.numpy()[0, 0])) == (2.0, 1.0), \
        f"c={c.numpy()}, w[0,0]={w.numpy()[0, 0]}, but should be 2 (both attempts' early writes) and 1 (the retry's)"


@pytest.mark.clause("optim.pss-updates")
def test_a_closure_with_arguments_sends_the_same_early_writes() -> None:
    """A closure with arguments runs its Python every time; its function's first call with that
    signature ran under a recorder to see its dataflow: a write of an argument waits for the
    end, a read-then-assign does not."""
    s = pss(workers=1, ps=1)
    with s.scope():
        w = tf.Variable(np.zeros((8, 8), np.float32), name="w")
        c = tf.Variable(0.0, name="c")

    @tf.function
    @simdist.sim.flops(1e10)
    def step(x: Any) -> None:
        w.assign_add(x)          # an argument: waits
        c.assign(c + 1.0)        # early
    coord = coordinator(s)
    x = tf.ones([8, 8])
    for k in range(3):
        t0 = simdist.now()
        coord.schedule(step, args=(x,))
        assert coord.run_until(lambda: float(c.numpy()) == k + 1), f"c={c.numpy()}: the early write never came"
        t_early = simdist.now()
        assert float(w.numpy()[0, 0]) == k, f"call {k}: w[0,0]={w.numpy()[0, 0]} when c's write arrived, but the " \
                                            "write of the argument waits for the compute"
        coord.join()
        assert float(w.numpy()[0, 0]) == k + 1 and t_early - t0 < 0.05 * (simdist.now() - t0), \
            f"call {k}: w[0,0]={w.numpy()[0, 0]}, c committed at {t_early - t0:.6g}s of {simdist.now() - t0:.6g}s"
