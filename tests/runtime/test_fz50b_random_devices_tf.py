"""A seeded stateful random op's eager kernel is cached per device (fz50b; fz50b_gen seed 50002 #26, #28; clause
random.op-seeds): under MirroredStrategy(["/cpu:0", "/cpu:1"]).run each replica's `tf.nn.dropout(x, 0.5, seed=s)`
runs on its own device, so replica 1 starts its own Philox stream where replica 0 goes on from the eager calls made
before on /cpu:0 (simdist shared one stream: replica 1 took the sample after replica 0's). The same under
`tf.device("/cpu:1")`. Each case: a list of [label, values]; the seeds differ between cases (TF's kernel cache
outlives a case in its worker process).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import tf_programs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _vals(t: Any) -> list:
    return np.round(np.asarray(t.numpy(), np.float64), 6).tolist()


def program(tf: Any, case: dict, workdir: str) -> Any:
    out: list[Any] = []
    s = case["seed"]
    x = tf.ones([8], tf.float64)
    if case["name"] == "replicas":
        strategy = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
        if case["before"]:
            out.append(["eager 1", _vals(tf.nn.dropout(x, rate=0.5, seed=s))])
            out.append(["function", _vals(tf.function(lambda: tf.nn.dropout(x, rate=0.5, seed=s))())])
            out.append(["eager 2", _vals(tf.nn.dropout(x, rate=0.5, seed=s))])
        for k in range(2):
            r = strategy.run(lambda: tf.nn.dropout(x, rate=0.5, seed=s))
            out.append([f"run {k}", [_vals(v) for v in strategy.experimental_local_results(r)]])
        r = strategy.run(lambda: tf.random.uniform([3], seed=s + 1))
        out.append(["uniform", [_vals(v) for v in strategy.experimental_local_results(r)]])
        r = strategy.run(lambda: tf.random.normal([3], seed=s + 1))
        out.append(["normal", [_vals(v) for v in strategy.experimental_local_results(r)]])
    else:
        out.append(["cpu:0", _vals(tf.random.uniform([3], seed=s))])
        with tf.device("/cpu:1"):
            out.append(["cpu:1", _vals(tf.random.uniform([3], seed=s))])
            out.append(["cpu:1 again", _vals(tf.random.uniform([3], seed=s))])
        out.append(["cpu:0 again", _vals(tf.random.uniform([3], seed=s))])
    return out


CASES: dict[str, dict] = {
    "replicas, eager draws before": {"strategy": "mirrored2", "name": "replicas", "before": True, "seed": 87},
    "replicas, first draws": {"strategy": "mirrored2", "name": "replicas", "before": False, "seed": 41},
    "device scope": {"strategy": "mirrored2", "name": "device", "seed": 23},
}
NAMES = list(CASES)


@pytest.fixture(scope="module")
def tf_results(request: Any) -> dict[int, Any]:
    return tf_programs.spawn(__file__, CASES, tf_programs.selected(request, __file__))


@pytest.mark.clause("ops.random-bits")
@pytest.mark.parametrize("index", range(len(NAMES)), ids=NAMES)
def test_random_kernel_per_device(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    name = NAMES[index]
    got, want = tf_programs.on_simdist(program, CASES[name], str(tmp_path)), tf_results[index]
    assert [g[0] for g in got] == [w[0] for w in want], f"{name}: labels differ"
    for g, w in zip(got, want):
        assert g == w, f"{name}: {w[0]}: simdist gives {g[1]}, TF 2.21 gives {w[1]}"


if __name__ == "__main__":  # TF worker
    tf_workers.serve(tf_programs.worker(CASES, program))
