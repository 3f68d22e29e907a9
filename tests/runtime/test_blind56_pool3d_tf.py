"""MaxPool3D/AvgPool3D with a VALID window larger than the input where oneDNN does not run the dtype (this AMD
host, clause ops.nn-3d; helper blind49a): TF 2.21's Pooling3DOp returns an empty output along that axis, and
keras.ops.adaptive_*_pool / the AdaptiveAveragePooling3D and AdaptiveMaxPooling3D layers rely on it when an output
size exceeds an axis's length; simdist refused the window (InvalidArgumentError) on every host. Each case: a list
of [label, [shape, values] or [error class, first line]].
"""

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
        out.append([label, [list(r.shape), np.round(np.asarray(r, dtype=np.float64), 4).tolist()]])
    except BaseException as e:  # noqa: BLE001 - the class and first words are what is compared
        out.append([label, [type(e).__name__, str(e).split("\n")[0].split("[")[0].split("}}")[-1].strip()[:60]]])


def program(tf: Any, case: dict, workdir: str) -> Any:
    out: list[Any] = []
    x = tf.reshape(tf.range(16, dtype=tf.float32), (2, 2, 2, 2, 1))
    if case["name"] == "pools":
        for ptype in ["AVG", "MAX"]:
            for dt in ["float32", "bfloat16"]:
                for w, s, pad in [((3, 1, 1), (1, 1, 1), "VALID"), ((1, 3, 1), (1, 1, 1), "VALID"),
                                  ((1, 1, 3), (2, 1, 1), "VALID"), ((3, 3, 3), (1, 1, 1), "VALID"),
                                  ((4, 1, 1), (1, 1, 1), "VALID"), ((5, 1, 1), (2, 1, 1), "VALID"),
                                  ((3, 3, 1), (1, 1, 1), "SAME")]:
                    _try(out, f"{ptype} {dt} {w} {s} {pad}",
                         lambda: tf.nn.pool(tf.cast(x, dt), window_shape=w, pooling_type=ptype, strides=s,
                                            padding=pad, data_format="NDHWC"))

            def grad() -> Any:
                v = tf.Variable(x)
                with tf.GradientTape() as t:
                    r = tf.reduce_sum(tf.nn.pool(v, window_shape=(3, 1, 1), pooling_type=ptype, strides=(1, 1, 1),
                                                 padding="VALID"))
                return t.gradient(r, v)
            _try(out, f"{ptype} gradient", grad)
        _try(out, "max_pool3d", lambda: tf.nn.max_pool3d(x, (1, 1, 1, 3, 1), (1, 1, 1, 1, 1), "VALID"))
        _try(out, "avg_pool3d", lambda: tf.nn.avg_pool3d(x, (1, 3, 1, 1, 1), (1, 1, 1, 1, 1), "VALID"))
    else:
        K = tf.keras
        v0 = tf.reshape(tf.range(24, dtype=tf.float32) % 7, (1, 2, 3, 1, 4))
        for name in ["AdaptiveAveragePooling3D", "AdaptiveMaxPooling3D"]:
            for size, fmt in [((3, 1, 2), "channels_last"), ((2, 4, 3), "channels_last"), ((3, 2, 5), "channels_first")]:
                _try(out, f"{name} {size} {fmt}", lambda: getattr(K.layers, name)(size, data_format=fmt)(v0))

                def grad() -> Any:
                    v = tf.Variable(v0)
                    with tf.GradientTape() as t:
                        r = tf.reduce_sum(getattr(K.layers, name)(size, data_format=fmt)(v) ** 2)
                    return t.gradient(r, v)
                _try(out, f"{name} {size} {fmt} gradient", grad)
    return out


NAMES = ["pools", "adaptive_layers"]
CASES: dict[str, dict] = {n: {"strategy": "default", "name": n} for n in NAMES}


@pytest.fixture(scope="module")
def tf_results(request: Any) -> dict[int, Any]:
    return tf_programs.spawn(__file__, CASES, tf_programs.selected(request, __file__))


@pytest.mark.clause("ops.nn-3d")
@pytest.mark.parametrize("index", range(len(NAMES)), ids=NAMES)
def test_pool3d_windows_larger_than_the_input_as_tf(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    name = NAMES[index]
    from simdist.runtime import host_cpu
    want = tf_results[index]
    with host_cpu.using(tf_workers.answers_model(__file__)):   # (TF's answers follow the CPU: ops.host-cpu)
        got = tf_programs.on_simdist(program, CASES[name], str(tmp_path))
    assert [g[0] for g in got] == [w[0] for w in want], f"{name}: labels differ"
    for g, w in zip(got, want):
        assert g == w, f"{name}: {w[0]}: simdist gives {g[1]}, TF 2.21 gives {w[1]}"


if __name__ == "__main__":  # TF worker
    tf_workers.serve(tf_programs.worker(CASES, program))
