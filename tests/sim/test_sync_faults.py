"""The preemption notices of a synchronous job (simdist.sim.sync_faults): exact times, the
seeded process, grace periods and replacements, and bad plans."""

from __future__ import annotations

import pytest

from simdist import faults as F
from simdist.sim.rng import derive
from simdist.sim.sync_faults import Notice, PreemptionTimeline


def _rng(seed: int = 0):
    return lambda name: derive(seed, name)


def _all(tl: PreemptionTimeline, limit: int = 100000) -> list[Notice]:
    out = []
    while tl.peek() is not None and len(out) < limit:
        out.append(tl.pop())
    return out


def test_exact_preemptions_in_time_order_with_grace_and_replacement():
    plan = F.FaultPlan(preemptions=[F.Preemption(worker=1, at_time=50.0, downtime=20.0),
                                    F.Preemption(worker=0, at_time=10.0, downtime=5.0),
                                    F.Preemption(worker=1, at_time=60.0, downtime=1.0),    # worker 1 is gone then
                                    F.Preemption(worker=1, at_time=90.0, downtime=0.0)])
    got = _all(PreemptionTimeline(_rng(), 2, plan, grace=3.0))
    want = [Notice(10.0, 0, 13.0, 18.0), Notice(50.0, 1, 53.0, 73.0), Notice(90.0, 1, 93.0, 93.0)]
    assert got == want, f"notices {got}, but should be {want} (the notice at 60 s falls while worker 1 is gone)"


def test_pop_until_takes_notices_before_a_time_only():
    plan = F.FaultPlan(preemptions=[F.Preemption(worker=0, at_time=t, downtime=0.0) for t in (1.0, 2.0, 3.0)])
    tl = PreemptionTimeline(_rng(), 1, plan)
    assert [n.at for n in tl.pop_until(2.0)] == [1.0]
    assert [n.at for n in tl.pop_until(3.5)] == [2.0, 3.0]
    assert tl.peek() is None and tl.pop_until(1e9) == []


def test_process_is_seeded_and_poisson_with_the_given_mean():
    plan = F.FaultPlan(process=F.PreemptionProcess(mtbf=30.0, downtime=0.0, workers=[0]))
    a = PreemptionTimeline(_rng(7), 4, plan).pop_until(300000.0)
    b = PreemptionTimeline(_rng(7), 4, plan).pop_until(300000.0)
    c = PreemptionTimeline(_rng(8), 4, plan).pop_until(300000.0)
    assert a == b, "the same seed gave different notices"
    assert a != c, "another seed gave the same notices"
    gaps = [y.at - x.at for x, y in zip(a, a[1:])]
    mean = sum(gaps) / len(gaps)
    assert len(gaps) > 9000 and abs(mean / 30.0 - 1) < 0.03, \
        f"{len(gaps)} gaps of mean {mean:.3f} s, but should be about 30 s (exponential, mean mtbf)"
    assert {n.worker for n in a} == {0}


def test_process_waits_for_the_replacement_and_draws_from_the_worker_stream():
    plan = F.FaultPlan(process=F.PreemptionProcess(mtbf=10.0, downtime=4.0, workers=[2]))
    got = PreemptionTimeline(_rng(3), 3, plan, grace=1.0).pop_until(200.0)
    rng = derive(3, "faults/worker2")
    t, want = 0.0, []
    while True:
        t += float(rng.exponential(10.0))
        if t >= 200.0:
            break
        want.append(Notice(t, 2, t + 1.0, t + 5.0))
        t += 5.0
    assert got == want, f"notices {got[:3]}..., but should be {want[:3]}... (up, notice, +grace kill, +downtime)"


def test_workers_of_a_process_merge_in_time_order():
    plan = F.FaultPlan(process=F.PreemptionProcess(mtbf=5.0, downtime=0.0))
    got = PreemptionTimeline(_rng(1), 3, plan).pop_until(500.0)
    assert [n.at for n in got] == sorted(n.at for n in got)
    assert {n.worker for n in got} == {0, 1, 2}


@pytest.mark.parametrize("plan,msg", [
    (F.FaultPlan(preemptions=[F.Preemption(worker=0, at_closure=3, downtime=1.0)]), "at_closure counts"),
    (F.FaultPlan(preemptions=[F.Preemption(worker=5, at_time=3.0, downtime=1.0)]), "5 is not a worker"),
    (F.FaultPlan(process=F.PreemptionProcess(mtbf=5.0, downtime=0.0, workers=[4])), "4 is not a worker"),
])
def test_bad_plans_are_refused_with_the_rule(plan, msg):
    with pytest.raises(ValueError, match=msg):
        PreemptionTimeline(_rng(), 2, plan)
    with pytest.raises(ValueError, match="grace"):
        PreemptionTimeline(_rng(), 2, None, grace=-1.0)
