"""InputReplicationMode.PER_REPLICA on every strategy, against TF 2.21 (fifty-fifth session, dist55; clause
input.interface-types; fz55d seed 55302 #2): `experimental_distribute_dataset`, `distribute_datasets_from_function`
and its `experimental_` alias with InputOptions(experimental_replication_mode=PER_REPLICA) on OneDeviceStrategy,
MirroredStrategy, CentralStorageStrategy and the default strategy. Only MirroredStrategy's and
CentralStorageStrategy's datasets from a function take it; OneDeviceStrategy refuses both methods with
NotImplementedError in its own words (one_device_strategy.py: two spaces in one, sic), where simdist distributed
the datasets from a function; MirroredStrategy refuses a dataset; CentralStorageStrategy's dataset is its
AttributeError on `experimental_replication_moden` (sic); the default strategy returns the dataset or calls the
function.

Each case is a list of [label, outcome]; an outcome is the result's class and first element, or [error class,
message].
"""

from __future__ import annotations

from typing import Any

import pytest

import tf_programs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

MAKERS = {
    "one_device": lambda tf: tf.distribute.OneDeviceStrategy("/cpu:0"),
    "mirrored": lambda tf: tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"]),
    "central_storage": lambda tf: tf.distribute.experimental.CentralStorageStrategy(["/cpu:0", "/cpu:1"]),
    "default": lambda tf: tf.distribute.get_strategy(),
}


def program(tf: Any, case: dict, workdir: str) -> Any:
    s = MAKERS[case["name"]](tf)
    ds = tf.data.Dataset.range(8).batch(4)
    opt = tf.distribute.InputOptions(experimental_replication_mode=tf.distribute.InputReplicationMode.PER_REPLICA)
    out = []
    for label, call in [("experimental_distribute_dataset", lambda: s.experimental_distribute_dataset(ds, opt)),
                        ("distribute_datasets_from_function",
                         lambda: s.distribute_datasets_from_function(lambda ctx: ds, opt)),
                        ("experimental_distribute_datasets_from_function",
                         lambda: s.experimental_distribute_datasets_from_function(lambda ctx: ds, opt))]:
        try:
            d = call()
            first = next(iter(d))
            comps = s.experimental_local_results(first) if s is not tf.distribute.get_strategy() else (first,)
            out.append([label, [type(d).__name__.lstrip("_"), [c.numpy().tolist() for c in comps]]])
        except Exception as e:  # noqa: BLE001 - the class and message are what is compared
            out.append([label, [type(e).__name__, str(e)]])
    return out


CASES: dict[str, dict] = {name: {"strategy": "mirrored2" if name != "one_device" else "other", "name": name}
                          for name in MAKERS}
NAMES = list(CASES)


@pytest.fixture(scope="module")
def tf_results(request: Any) -> dict[int, Any]:
    return tf_programs.spawn(__file__, CASES, tf_programs.selected(request, __file__))


@pytest.mark.clause("input.interface-types")
@pytest.mark.parametrize("index", range(len(NAMES)), ids=NAMES)
def test_per_replica_input_mode_as_tf(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    name = NAMES[index]
    got, want = tf_programs.on_simdist(program, CASES[name], str(tmp_path)), tf_results[index]
    bad = [f"{w[0]}: TF {w[1]!r}, simdist {g[1]!r}" for g, w in zip(got, want) if g != w]
    assert len(got) == len(want) and not bad, f"{name}: outcomes differ from TF 2.21:\n" + "\n".join(bad)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(tf_programs.worker(CASES, program))
