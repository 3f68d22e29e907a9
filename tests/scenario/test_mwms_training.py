"""multi_worker_mirrored scenarios with a training model (simdist/scenario/train/mwms.py): the
values engine equals the facade's MultiWorkerMirroredStrategy under `simdist.launch`, restores
bring back exactly the saved state, the lost-work accounting holds, and the shipped scenario
scenarios/train_mwms_zoo.toml runs deterministically across processes."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest
from scenario_helpers import ROOT

from simdist.scenario import load, loads
from simdist.scenario.errors import ScenarioError
from simdist.scenario.metrics import validate_metrics
from simdist.scenario.runner import run

SHIPPED = ROOT / "scenarios" / "train_mwms_zoo.toml"

# ------------------------------------------------------------------ value identity with the facade MWMS
N, D, C, GB, STEPS, WORKERS, GPUS = 96, 6, 3, 16, 4, 2, 2


def _data() -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(11)
    return rng.normal(size=(N, D)).astype(np.float32), rng.integers(0, C, size=N).astype(np.int32)


def _initial(tf) -> list[np.ndarray]:
    rng = np.random.default_rng(5)
    return [rng.normal(scale=0.4, size=s).astype(np.float32) for s in ((D, 8), (8,), (8, C), (C,))]


def _train(tf, strategy, iterator_of) -> dict:
    """The scenario's step (train.step.replica_step) for STEPS steps under ``strategy``."""
    from simdist.scenario.train import step as S
    from simdist.scenario.train.zoo import build
    x, y = _data()
    tf.keras.backend.clear_session()
    with strategy.scope():
        model = build(tf, {"zoo": "mlp", "hidden": [8]}, (D,), C, 0)
        opt = tf.keras.optimizers.Adam(learning_rate=0.05)
        variables = S.train_variables(model)
        opt.build(variables)
    model.set_weights(_initial(tf))
    ds = tf.data.Dataset.from_tensor_slices((x, y)).shuffle(N, seed=7).repeat().batch(GB, drop_remainder=True)
    it = iterator_of(strategy, ds)

    def replica(inputs, labels):
        return S.replica_step(tf, model, opt, variables, inputs, labels, GB)

    losses = []
    for _ in range(STEPS):
        loss, _c = strategy.run(replica, args=next(it))
        losses.append(float(strategy.reduce("SUM", loss, axis=None).numpy()))
    return {"losses": losses, "weights": [np.array(v.numpy()) for v in S.all_variables(model, opt)]}


def test_values_engine_equals_the_facade_mwms_under_launch():
    """The run's MirroredStrategy over every host's GPUs (values_strategy + distributed_iterator)
    gives the same losses and the same final weights and optimizer state, bit for bit, as
    MultiWorkerMirroredStrategy with WORKERS launched clients x GPUS GPUs on the same program."""
    import simdist
    from simdist import tf
    from simdist.launch import launch
    from simdist.scenario.train.mwms import distributed_iterator, values_strategy

    def program():
        from simdist import tf as tfw
        return _train(tfw, tfw.distribute.MultiWorkerMirroredStrategy(),
                      lambda s, ds: iter(s.experimental_distribute_dataset(ds)))

    try:
        r = launch(program, workers=WORKERS, gpus_per_worker=GPUS)
        assert r.ok, f"the MWMS launch failed: {r.errors}"
        mw = r.results[("worker", 0)]
        other = r.results[("worker", 1)]
    finally:
        simdist.reset()
    try:
        simdist.configure(cpus=1, gpus=WORKERS * GPUS)
        devs = [f"/job:localhost/replica:0/task:0/device:GPU:{i}" for i in range(WORKERS * GPUS)]
        mine = _train(tf, values_strategy(tf, devs), lambda s, ds: distributed_iterator(s, ds, WORKERS))
    finally:
        simdist.reset()
    assert mine["losses"] == mw["losses"], f"losses {mine['losses']}, but MWMS gives {mw['losses']}"
    assert len(mine["weights"]) == len(mw["weights"])
    for i, (a, b, c) in enumerate(zip(mine["weights"], mw["weights"], other["weights"])):
        assert np.array_equal(b, c), f"variable {i}: MWMS workers 0 and 1 disagree"
        assert a.dtype == b.dtype and np.array_equal(a, b), \
            f"variable {i}: {a.ravel()[:4]}, but MWMS gives {b.ravel()[:4]} (max diff {np.max(np.abs(a - b))})"
