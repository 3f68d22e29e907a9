"""Ops and variables inside a strategy's scope under an enclosing tf.device, against TF 2.21 (clause scope.keeps-device).

TF 2.21's strategy scopes enter no device scope: an op made inside `with strategy.scope():` (eagerly, or a
tf.function's outputs) is placed by the caller's `tf.device`, on every strategy; only variables follow the
strategy (MirroredStrategy's MirroredVariable answers `device` with its component on the current device, falling
back to the primary; OneDeviceStrategy's and CentralStorageStrategy's on their device; the default strategy's on
the device scope). simdist's scope frame reset the device to the default (every op on CPU:0).

Each case is [label, [op device, variable device, function output device, variable op device]].
"""

from __future__ import annotations

from typing import Any

import pytest

import tf_programs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _program(tf: Any, case: dict, workdir: str) -> Any:
    kinds = {"mirrored": lambda: tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"]),
             "one_device": lambda: tf.distribute.OneDeviceStrategy("/cpu:2"),
             "central_storage": lambda: tf.distribute.experimental.CentralStorageStrategy(["/cpu:0", "/cpu:1"]),
             "default": lambda: tf.distribute.get_strategy()}
    out = []
    for kind, make in kinds.items():
        s = make()
        for outer in (None, "/cpu:1", "/cpu:3"):
            def go() -> Any:
                with s.scope():
                    x = tf.constant(1.0) + 1.0
                    v = tf.Variable(1.0)
                    f = tf.function(lambda: tf.constant(2.0) * 3.0)
                    return [x.device, v.device, f().device, (v * 2.0).device]
            if outer:
                with tf.device(outer):
                    got = go()
            else:
                got = go()
            out.append([f"{kind} under {outer}", got])
    return out


CASES: dict[str, dict] = {"devices": {"strategy": "mirrored4", "name": "devices"}}


@pytest.fixture(scope="module")
def tf_results(request: Any) -> dict[int, Any]:
    return tf_programs.spawn(__file__, CASES, tf_programs.selected(request, __file__))


@pytest.mark.clause("scope.keeps-device")
@pytest.mark.parametrize("index", [0])
def test_a_strategy_scope_keeps_the_callers_device(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    got, want = tf_programs.on_simdist(_program, CASES["devices"], str(tmp_path)), tf_results[index]
    bad = [f"{w[0]}: TF {w[1]!r}, simdist {g[1]!r}" for g, w in zip(got, want) if g != w]
    assert len(got) == len(want) and not bad, f"{len(bad)} of {len(want)} cases differ from TF 2.21:\n" + "\n".join(bad)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(tf_programs.worker(CASES, _program))
