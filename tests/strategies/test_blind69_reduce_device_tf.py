"""strategy.reduce places its result on the caller's device scope (clause reduce.result-device), found by the
sixty-ninth blind batch's probe of `strategy-reduce-ignores-device-scope` (fifty-fifth session, blind55b).

TF 2.21's StrategyExtended._reduce reduces to `device_util.current()` (the caller's `tf.device` scope, else the
worker's CPU:0), with or without an axis. simdist entered the strategy's scope before reading the current device,
and that scope's frame holds no device: under `tf.device("/cpu:1")` every reduce came back on CPU:0.

Each case is a list of [label, outcome]; an outcome is the result's device and value, or [error class]."""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import tf_programs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _try(out: list, label: str, fn: Callable[[], Any]) -> None:
    try:
        r = fn()
        out.append([label, [r.device, np.asarray(r.numpy()).tolist()]])
    except Exception as e:  # noqa: BLE001 - the class is what is compared
        out.append([label, [type(e).__name__]])


def _devices(tf: Any, out: list, workdir: str) -> None:
    t = lambda label, fn: _try(out, label, fn)   # noqa: E731
    for name, make in [("mirrored", lambda: tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])),
                       ("one device", lambda: tf.distribute.MirroredStrategy(
                           ["/cpu:0", "/cpu:1"], cross_device_ops=tf.distribute.ReductionToOneDevice())),
                       ("central storage", lambda: tf.distribute.experimental.CentralStorageStrategy(
                           ["/cpu:0", "/cpu:1"]))]:
        s = make()
        pr = s.run(lambda: tf.constant([1.0, 2.0]))
        with s.scope():
            v = tf.Variable(3.0)
        for dev in [None, "/cpu:0", "/cpu:1", "/cpu:2"]:
            where = f"{name} under {dev}"
            scope = tf.device(dev) if dev else _Null()
            with scope:
                for op in ["SUM", "MEAN"]:
                    t(f"{where} {op} axis None", lambda: s.reduce(op, pr, axis=None))
                    t(f"{where} {op} axis 0", lambda: s.reduce(op, pr, axis=0))
                t(f"{where} MEAN of a variable", lambda: s.reduce("MEAN", v, axis=None))
                t(f"{where} in a function", lambda: tf.function(lambda: s.reduce("SUM", s.run(
                    lambda: tf.constant(2.0)), axis=None))())


class _Null:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> None:
        return None


def program(tf: Any, case: dict, workdir: str) -> Any:
    out: list[Any] = []
    _devices(tf, out, workdir)
    return out


CASES: dict[str, dict] = {"devices": {"strategy": "mirrored2", "name": "devices"}}
NAMES = list(CASES)


@pytest.fixture(scope="module")
def tf_results(request: Any) -> dict[int, Any]:
    return tf_programs.spawn(__file__, CASES, tf_programs.selected(request, __file__))


@pytest.mark.clause("reduce.result-device")
@pytest.mark.parametrize("index", [NAMES.index("devices")])
def test_reduce_result_on_the_callers_device_scope(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    got, want = tf_programs.on_simdist(program, CASES["devices"], str(tmp_path)), tf_results[index]
    assert [g[0] for g in got] == [w[0] for w in want], "labels differ"
    bad = [f"{w[0]}: TF {w[1]!r}, simdist {g[1]!r}" for g, w in zip(got, want) if g[1] != w[1]]
    assert not bad, f"{len(bad)} of {len(want)} outcomes differ from TF 2.21:\n" + "\n".join(bad[:12])


if __name__ == "__main__":  # TF worker
    tf_workers.serve(tf_programs.worker(CASES, program))
