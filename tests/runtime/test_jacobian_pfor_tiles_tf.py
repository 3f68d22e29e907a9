"""GradientTape.jacobian and batch_jacobian with parallel_iterations, against TF 2.21 (clause autodiff.jacobian).

TF 2.21's pfor (parallel_for/control_flow_ops.py `_pfor_impl`) calls the loop function once, then refuses
parallel_iterations below 2 and, for 2 <= parallel_iterations <= the loop's length (jacobian: the target's elements;
batch_jacobian: a row's), tiles the loop and calls the function again: on a non-persistent tape jacobian's second
gradient is None (pfor's ValueError, re-raised "Encountered an exception while vectorizing the jacobian
computation ..."), batch_jacobian's function refuses a second call (RuntimeError "... to compute the batch_jacobian
with parallel_iterations."); above the length pfor computes as without the argument; either way the first call
consumed the non-persistent tape (a later gradient is RuntimeError). simdist computed (blind60b's open item) and
left the tape usable after a refusal, and named batch_jacobian's refusal "jacobian computation".

Each case is a list of [label, outcome]; an outcome is a value's [dtype, shape, bytes] or [error class, message].
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import tf_programs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _outcome(fn: Any, message: bool = True) -> Any:
    try:
        v = fn()
        a = np.asarray(v.numpy())
        return [v.dtype.name, list(a.shape), a.tobytes().hex()]
    except Exception as e:  # noqa: BLE001 - the class (and message) is what is compared
        return [type(e).__name__, str(e) if message else ""]


def _program(tf: Any, case: dict, workdir: str) -> Any:
    out: list[Any] = []
    x = tf.constant([1.0, 2.0, 3.0, 4.0, -0.5, 6.0])
    shapes = {"jacobian": [6], "jacobian of a matrix": [2, 3], "batch_jacobian": [2, 3], "batch_jacobian of rows of 2": [3, 2]}
    for kind, shape in shapes.items():
        for p in (None, -1, 0, 1, 2, 3, 4, 6, 7):
            for persistent in (False, True):
                for traced in (False, True):
                    def go() -> Any:
                        with tf.GradientTape(persistent=persistent) as t:
                            t.watch(x)
                            xx = tf.reshape(x, shape)
                            y = tf.tanh(xx) * xx
                        if kind.startswith("batch"):
                            j = t.batch_jacobian(y, xx, parallel_iterations=p)
                        else:
                            j = t.jacobian(y, x, parallel_iterations=p)
                        if traced:   # (the tape's state after: eagerly only)
                            return j
                        return j, _outcome(lambda: t.gradient(y, x))
                    label = f"{kind} parallel_iterations={p} persistent={persistent} traced={traced}"
                    try:
                        r = (tf.function(go) if traced else go)()
                        j, after = (r, None) if traced else r
                        out.append([label, _outcome(lambda: j), after])
                    except Exception as e:  # noqa: BLE001
                        out.append([label, [type(e).__name__, "" if traced else str(e)]])
    return out


CASES: dict[str, dict] = {"tiles": {"strategy": "other", "name": "tiles"}}
NAMES = list(CASES)


@pytest.fixture(scope="module")
def tf_results(request: Any) -> dict[int, Any]:
    return tf_programs.spawn(__file__, CASES, tf_programs.selected(request, __file__))


@pytest.mark.clause("autodiff.jacobian")
@pytest.mark.parametrize("index", [0])
def test_jacobian_parallel_iterations_as_pfor_tiles_them(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    got, want = tf_programs.on_simdist(_program, CASES["tiles"], str(tmp_path)), tf_results[index]
    assert [g[0] for g in got] == [w[0] for w in want], "labels differ"
    bad = [f"{w[0]}: TF {w[1:]!r}, simdist {g[1:]!r}" for g, w in zip(got, want) if g[1:] != w[1:]]
    assert not bad, f"{len(bad)} of {len(want)} outcomes differ from TF 2.21:\n" + "\n".join(b[:400] for b in bad[:12])


if __name__ == "__main__":  # TF worker
    tf_workers.serve(tf_programs.worker(CASES, _program))
