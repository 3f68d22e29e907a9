"""`strategy.run` returning a variable's name against TF 2.21 (clause run.merged-result): TF's variables
give the same str object on every `.name` read, so replicas returning a MirroredVariable's name
(or a variable created inside the run, which every replica shares) regroup to that one str, not a
PerReplica (the rule: replicas returning the very same object give it back unwrapped).
Found beside the seed-3 sweep's shared_variables survivor (docs/conformance.md, twenty-sixth
session). Needs the `tf` extra."""

from __future__ import annotations

from typing import Any, Callable

import pytest

import tf_workers
from diff_helpers import make_strategy
from simdist import tf as sim_tf

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _describe(s: Any, r: Any) -> Any:
    if isinstance(r, (list, tuple)):
        return [_describe(s, x) for x in r]
    if isinstance(r, str):
        return ("str", r)
    return (type(r).__name__, [str(x) for x in s.experimental_local_results(r)])


def _mirrored_name(tf: Any, s: Any) -> Any:
    with s.scope():
        v = tf.Variable(1.0, name="w")
    return [v.name is v.name, _describe(s, s.run(lambda: v.name))]


def _created_in_run(tf: Any, s: Any) -> Any:
    def fn() -> Any:
        u = tf.Variable(1.0, name="u")
        return u.name, type(u).__name__
    return _describe(s, s.run(fn))


def _plain_name(tf: Any, s: Any) -> Any:
    p = tf.Variable(2.0, name="plain")
    return [p.name is p.name, _describe(s, s.run(lambda: p.name))]


CASES: list[tuple[str, Callable[[Any, Any], Any]]] = [
    ("a MirroredVariable's name", _mirrored_name),
    ("the name of a variable created in run", _created_in_run),
    ("a plain variable's name", _plain_name),
]


def run_case(tf: Any, k: int) -> Any:
    try:
        return CASES[k][1](tf, make_strategy(tf, "mirrored", 2))
    except Exception as e:  # noqa: BLE001 - the class is the result
        return ("error", type(e).__name__)


def _tf_worker(indices: list[int]) -> dict[int, Any]:
    import tensorflow as real_tf
    cpu = real_tf.config.list_physical_devices("CPU")[0]
    real_tf.config.set_logical_device_configuration(cpu, [real_tf.config.LogicalDeviceConfiguration()] * 4)
    return {i: run_case(real_tf, i) for i in indices}


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return tf_workers.spawn(__file__, list(range(len(CASES))))


@pytest.mark.clause("run.merged-result")
@pytest.mark.parametrize("index", range(len(CASES)), ids=[c[0] for c in CASES])
def test_run_returning_a_variables_name(index: int, tf_results: dict[int, Any]) -> None:
    got, want = run_case(sim_tf, index), tf_results[index]
    assert got == want, f"strategy.run result={got!r}, but TF 2.21 gives {want!r} [{CASES[index][0]}]"


if __name__ == "__main__":  # TF worker: python test_amut26_run_names_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(_tf_worker)
