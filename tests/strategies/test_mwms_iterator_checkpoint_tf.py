"""Differential test (clause mwms.iterator-checkpoint): a tf.train.Checkpoint cannot hold the
iterator of a MultiWorkerMirroredStrategy's distributed dataset on TF 2.21 (ValueError when the
Checkpoint is made: input_lib.DistributedIterator is not Trackable), nor on simdist, so a restarted
MWMS job rebuilds its dataset (what the multi_worker_mirrored training scenarios do,
simdist/scenario/train/mwms.py). TF runs in a subprocess (tf_workers.spawn; this module is its worker)."""

from __future__ import annotations

import os
from typing import Any

import pytest

import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

CASES = ["mwms", "mirrored"]


def _program(tf: Any, kind: str, directory: str) -> dict:
    strategy = tf.distribute.MultiWorkerMirroredStrategy() if kind == "mwms" else tf.distribute.MirroredStrategy()
    ds = tf.data.Dataset.range(8).batch(2)
    it = iter(strategy.experimental_distribute_dataset(ds))
    next(it)
    try:
        ckpt = tf.train.Checkpoint(iterator=it)
        ckpt.save(os.path.join(directory, "ckpt"))
    except Exception as e:   # (what is compared: the class, and when it is raised)
        return {"error": type(e).__name__, "at": "Checkpoint" if "ckpt" not in locals() else "save"}
    return {"error": None, "at": None}


def _tf_worker(indices: list[int]) -> dict[int, Any]:
    import tempfile

    import tensorflow as tf
    out = {}
    for i in indices:
        with tempfile.TemporaryDirectory() as d:
            out[i] = _program(tf, CASES[i], d)
    return out


@pytest.mark.clause("mwms.iterator-checkpoint", ref="tf221")
@pytest.mark.parametrize("i", range(len(CASES)), ids=CASES)
def test_distributed_iterator_is_not_checkpointable(i, tmp_path):
    import simdist
    from simdist import tf
    want = tf_workers.spawn(__file__, [i])[i]
    try:
        simdist.configure(cpus=2)
        got = _program(tf, CASES[i], str(tmp_path))
    finally:
        simdist.reset()
    assert want == {"error": "ValueError", "at": "Checkpoint"}, f"TF 2.21 gave {want}"
    assert got == want, f"simdist: {got}, but TF 2.21 gives {want} [tf.train.Checkpoint(iterator=<distributed iterator>)]"


@pytest.mark.clause("mwms.iterator-checkpoint")
def test_multi_worker_iterator_is_not_checkpointable_under_launch(tmp_path):
    """With two launched workers (a real multi-worker MWMS) simdist refuses it the same way."""
    import simdist
    from simdist.launch import launch

    def main():
        from simdist import tf
        return _program(tf, "mwms", str(tmp_path))

    try:
        r = launch(main, workers=2)
    finally:
        simdist.reset()
    assert r.ok, r.errors
    for task, got in r.results.items():
        assert got == {"error": "ValueError", "at": "Checkpoint"}, f"{task}: {got}, but should refuse the iterator"


if __name__ == "__main__":  # TF worker
    tf_workers.serve(_tf_worker)
    os._exit(0)
