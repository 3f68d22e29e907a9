"""The training fuzzer's kfuzz51 findings against TF 2.21 (tests/fuzz_train; clauses ops.conversion and
keras.metric.option-coverage): the device of a converted value, and the metric sets kfuzz51's widening draws.

Fixed: `tf.convert_to_tensor` of a NumPy array, a Python list or a scalar is placed as `tf.constant` places it,
on the innermost device scope's device, a replica's device inside `strategy.run`, and on the chief's CPU once a
ParameterServerStrategy has connected the process to its cluster (TF's convert_to_eager_tensor makes
`EagerTensor(value, ctx.device_name)`); simdist put every converted value on localhost's CPU:0, so a
MultiWorkerMirroredStrategy program run after a ParameterServerStrategy one in the same process (training fuzzer
seed 5120261201 #6 then #7) failed its train_on_batch with UnknownDeviceError: the input's localhost device is
no device of the cluster's machine.

Agreeing (a test that fails when one drifts): every metric of ftr_vocab.METRICS11 (AUC by PR and multi-label,
Precision/Recall with thresholds, top_k and class_id, F1Score/FBetaScore, BinaryIoU, OneHotMeanIoU, MeanIoU, IoU,
R2Score, the regression and probabilistic metrics, the confusion counts) updated twice, the second time with sample
weights.

Fixed: the float16 filter gradient of a convolution over no rows (an empty replica batch of a mixed_float16 fit
under MirroredStrategy(3), training fuzzer seed 5120261201 #20) is zeros, as TF 2.21's Eigen contraction gives;
simdist's half path reshaped the empty columns with a -1 dimension (NumPy's ValueError)."""

from __future__ import annotations

import os
import sys
from typing import Any

import numpy as np
import pytest

import tf_cases
import tf_programs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "fuzz_train"))


def _devices(tf: Any) -> list[Any]:
    a = np.ones(2, np.float32)
    out: list[Any] = [["default", [tf.convert_to_tensor(a).device, tf.convert_to_tensor([1, 2]).device,
                                   tf.convert_to_tensor(3.0).device]]]
    for dev in ("/cpu:1", "/cpu:3", "/job:localhost/replica:0/task:0/device:CPU:2"):
        with tf.device(dev):
            out.append([f"scope {dev}", [tf.convert_to_tensor(a).device, tf.convert_to_tensor([[1.0], [2.0]]).device,
                                         tf.convert_to_tensor(np.int64(7)).device, tf.constant(a).device,
                                         tf.convert_to_tensor(a, dtype=tf.float64).device]])
    s = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:2"])

    def fn() -> Any:
        return tf.convert_to_tensor(np.arange(3, dtype=np.float32)).device
    out.append(["replicas", list(s.experimental_local_results(s.run(fn)))])
    return out


def _cluster_devices(tf: Any) -> list[Any]:
    tf_cases.pss_strategy(tf)
    a = np.ones(2, np.float32)
    mw = tf.distribute.MultiWorkerMirroredStrategy()
    return [["after connecting", [tf.convert_to_tensor(a).device, tf.convert_to_tensor(2.0).device,
                                  tf.constant(a).device]],
            ["mwms replicas", list(mw.extended.worker_devices)]]


def _metrics(tf: Any) -> list[Any]:
    from ftr_vocab import METRICS11
    rng = np.random.default_rng(3)
    data = {
        "bin": (rng.integers(0, 2, (6, 2)).astype(np.float32), rng.uniform(-0.2, 1.2, (6, 2)).astype(np.float32)),
        "onehot": (np.eye(3, dtype=np.float32)[rng.integers(0, 3, 6)], rng.uniform(-1, 1, (6, 3)).astype(np.float32)),
        "sparse": (rng.integers(0, 3, (6,)).astype(np.int32), rng.uniform(-1, 1, (6, 3)).astype(np.float32)),
        "reg": (rng.uniform(-1, 1, (6, 2)).astype(np.float32), rng.uniform(-1, 1, (6, 2)).astype(np.float32)),
        "pos": (rng.uniform(0.05, 2, (6, 2)).astype(np.float32), rng.uniform(0.01, 2, (6, 2)).astype(np.float32)),
    }
    sw = np.round(rng.uniform(0, 2, 6), 2).astype(np.float32)
    out: list[Any] = []
    for kind, sets in METRICS11.items():
        for j, src in enumerate(sets):
            for k, m in enumerate(eval(src, {"tf": tf})):   # (the generator's source, as the programs compile it)
                if isinstance(m, str):
                    continue
                yt, yp = data[kind]
                label = f"{kind}/{j}/{k} {type(m).__name__}"
                try:
                    m.update_state(yt[:4], yp[:4])
                    m.update_state(yt[4:], yp[4:], sample_weight=sw[4:] if kind in ("sparse",) else sw[4:, None])
                    out.append([label, float(np.asarray(m.result()))])
                except Exception as e:  # noqa: BLE001 - the class is what is compared
                    out.append([label, [type(e).__name__]])
    return out


def _empty_half_filter_grad(tf: Any) -> list[Any]:
    """The float16 filter gradient over no rows (an empty MirroredStrategy(3) replica batch of a mixed_float16 fit):
    the raw op, and a Conv1D's tape under TimeDistributed."""
    g = tf.raw_ops.Conv2DBackpropFilter(input=np.zeros((0, 1, 3, 2), np.float16), filter_sizes=[1, 2, 2, 2],
                                        out_backprop=np.zeros((0, 1, 2, 2), np.float16), strides=[1, 1, 1, 1],
                                        padding="VALID")
    out: list[Any] = [["raw", [str(g.dtype.name), list(g.shape), np.asarray(g, np.float64).ravel().tolist()]]]
    layer = tf.keras.layers.TimeDistributed(tf.keras.layers.Conv1D(2, 2, dtype="mixed_float16"))
    x = tf.zeros((0, 2, 5, 2))
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.cast(layer(x), tf.float32))
    grads = tape.gradient(y, layer.trainable_variables)
    out.append(["layer", [[str(t.dtype.name), list(t.shape), np.asarray(t, np.float64).ravel().tolist()] for t in grads]])
    return out


def program(tf: Any, case: dict, workdir: str) -> Any:
    return {"devices": _devices, "cluster_devices": _cluster_devices, "metrics": _metrics,
            "empty_half_filter_grad": _empty_half_filter_grad}[case["name"]](tf)


CASES: dict[str, dict] = {"devices": {"strategy": "mirrored2", "name": "devices"},
                          "cluster_devices": {"strategy": "pss", "name": "cluster_devices"},
                          "metrics": {"strategy": "default", "name": "metrics"},
                          "empty_half_filter_grad": {"strategy": "default", "name": "empty_half_filter_grad"}}
NAMES = list(CASES)


@pytest.fixture(scope="module")
def tf_results(request: Any) -> dict[int, Any]:
    return tf_programs.spawn(__file__, CASES, tf_programs.selected(request, __file__))


@pytest.mark.clause("ops.conversion")
@pytest.mark.parametrize("index", [0, 1], ids=NAMES[:2])
def test_a_converted_value_is_placed_on_the_current_device(index: int, tf_results: dict[int, Any],
                                                           tmp_path: Any) -> None:
    name = NAMES[index]
    got, want = tf_programs.on_simdist(program, CASES[name], str(tmp_path)), tf_results[index]
    assert [g[0] for g in got] == [w[0] for w in want], f"{name}: labels differ"
    for g, w in zip(got, want):
        assert g == w, f"{name}: {w[0]}: simdist places on {g[1]}, TF 2.21 on {w[1]}"


@pytest.mark.clause("keras.metric.option-coverage")
@pytest.mark.parametrize("index", [2], ids=NAMES[2:3])
def test_the_widened_metric_sets_match_tf(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    got, want = tf_programs.on_simdist(program, CASES["metrics"], str(tmp_path)), tf_results[index]
    assert [g[0] for g in got] == [w[0] for w in want], "metrics: labels differ"
    for g, w in zip(got, want):
        if isinstance(w[1], list) or isinstance(g[1], list):
            assert g[1] == w[1], f"{w[0]}: simdist gives {g[1]}, TF 2.21 gives {w[1]}"
        else:
            tf_programs.close(g[1], w[1], w[0], rtol=1e-6, atol=1e-7)


@pytest.mark.clause("ops.conv-generic")
@pytest.mark.parametrize("index", [3], ids=NAMES[3:])
def test_a_half_filter_gradient_over_no_rows_is_zeros(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    from simdist.runtime import host_cpu
    with host_cpu.using(tf_workers.answers_model(__file__)):   # (TF's kernels follow the CPU: ops.host-cpu)
        got = tf_programs.on_simdist(program, CASES["empty_half_filter_grad"], str(tmp_path))
    want = tf_results[index]
    assert got == want, f"the float16 filter gradient over no rows: simdist gives {got}, TF 2.21 gives {want}"


if __name__ == "__main__":  # TF worker
    tf_workers.serve(tf_programs.worker(CASES, program))
