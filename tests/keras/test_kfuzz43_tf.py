"""The training fuzzer's kfuzz43 classes against Keras 3.15 on TF 2.21 (tests/fuzz_train; clause keras.fit.traced-shapes).

Keras 3.15's per-output loss trackers (CompileLoss: `metric.update_state(value, sample_weight=
tree.flatten(y_p)[0].shape[0])`) weigh a batch by the prediction's *static* batch size: None (each batch
counts once) in a trace over elements without a static batch, the batch's size in one with. Keras's TF trainer
calls its train or test function (`tf.function(reduce_retracing=True)`) with the iterator, so the trace a fit or
evaluate runs is the one for the iterator's element spec, for every batch of it: after validation batches of
a static size, an evaluate over arrays with a partial last batch runs with the batch dimension None, its full
batches as well (seed 4320261201 #7: two outputs, MirroredStrategy(2), validation 4 by 4s, evaluate 10 by 6s:
out0_loss 1.1032 on TF, simdist 1.1230, having replayed the validation's static recording for the batch of 4).
Each case returns the logs of each call and the weights.

The sample_weights cases (seed 4320261203 #8: a dict of targets with one sample-weight array against a list of
outputs; clause keras.compile.loss-weights): Keras 3.15's data adapter replicates one array over y's structure,
and CompileLoss.call maps a dict y onto the list of outputs but reads each output's sample weights by the loss's
path in the predictions (`resolve_path`): an index into a dict, KeyError: 0 (fit and evaluate)."""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import numpy as np
import pytest

import case_results
import tf_programs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _setup(tf: Any, replicas: int) -> Any:
    if "simdist" in tf.__name__:   # (TF's worker splits its CPU before TF initialises: _tf_worker)
        import simdist
        simdist.reset()
        tf_programs.four_cpus(tf)
    if replicas == 1:
        return tf.distribute.get_strategy()
    return tf.distribute.MirroredStrategy([f"/cpu:{i}" for i in range(replicas)])


def _two_outputs(tf: Any, strategy: Any, reduction: str) -> Any:
    keras = tf.keras
    with strategy.scope():
        inp = keras.Input((4,))
        o0 = keras.layers.Dense(2, activation="softplus", name="out0",
                                kernel_initializer=keras.initializers.Constant(0.3))(inp)
        o1 = keras.layers.Dense(2, activation="softplus", name="out1",
                                kernel_initializer=keras.initializers.Constant(-0.2))(inp)
        m = keras.Model(inp, [o0, o1])
        m.compile(keras.optimizers.SGD(0.1), [keras.losses.Poisson(reduction=reduction),
                                              keras.losses.MeanSquaredLogarithmicError(reduction=reduction)])
    return m


def _data(n: int) -> tuple[np.ndarray, list[np.ndarray]]:
    """Exact inputs (multiples of 1/16) and positive targets."""
    x = (np.arange(n * 4, dtype=np.float32).reshape(n, 4) % 7 - 3) / 16
    y0 = ((np.arange(n * 2, dtype=np.float32).reshape(n, 2) % 5) + 1) / 4
    y1 = ((np.arange(n * 2, dtype=np.float32).reshape(n, 2) % 3) + 1) / 2
    return x.astype(np.float32), [y0.astype(np.float32), y1.astype(np.float32)]


def _logs(d: dict[str, Any]) -> list[np.ndarray]:
    return [np.asarray(d[k], dtype=np.float64) for k in sorted(d)]


def _evaluate_after_validation(replicas: int, reduction: str, val: tuple[int, int], ev: tuple[int, int]) -> Callable:
    """fit one epoch by the validation batch size with validation data of val[0] samples by val[1]s (the test
    function's first trace), then evaluate ev[0] samples by ev[1]s: evaluate's logs."""
    def case(tf: Any) -> Any:
        strategy = _setup(tf, replicas)
        m = _two_outputs(tf, strategy, reduction)
        x, y = _data(16)
        xv, yv = x[:val[0]], [a[:val[0]] for a in y]
        hist = m.fit(xv, yv, batch_size=val[1], epochs=1, verbose=0, shuffle=False, validation_data=(xv, yv))
        out = m.evaluate(x[:ev[0]], [a[:ev[0]] for a in y], batch_size=ev[1], verbose=0, return_dict=True)
        return _logs(hist.history) + _logs(out) + [np.asarray(w, np.float64) for w in m.get_weights()]
    return case


def _fit_after_fit(replicas: int, first: tuple[int, int], second: tuple[int, int]) -> Callable:
    """fit first[0] samples by first[1]s (the train function's first trace), then second[0] by second[1]s:
    each fit's history (the per-output losses are the trackers' means over the batches)."""
    def case(tf: Any) -> Any:
        strategy = _setup(tf, replicas)
        m = _two_outputs(tf, strategy, "sum_over_batch_size")
        x, y = _data(16)
        out: list = []
        for n, bs in (first, second):
            hist = m.fit(x[:n], [a[:n] for a in y], batch_size=bs, epochs=1, verbose=0, shuffle=False)
            out += _logs(hist.history)
        return out + [np.asarray(w, np.float64) for w in m.get_weights()]
    return case


def _weighted_outputs(outputs: str, y_form: str, sw_form: str, what: str = "fit") -> Callable:
    """A model of two outputs (a list or a dict of them) fit or evaluated with targets as a list or a dict and
    sample weights as one array, a list or a dict: the losses and weights, or Keras's error (CompileLoss
    resolves each output's weights by the loss's path in the predictions: an index for a list of outputs)."""
    def case(tf: Any) -> Any:
        _setup(tf, 1)
        keras = tf.keras
        inp = keras.Input((4,))
        o0 = keras.layers.Dense(2, name="out0", kernel_initializer=keras.initializers.Constant(0.25))(inp)
        o1 = keras.layers.Dense(2, name="out1", kernel_initializer=keras.initializers.Constant(-0.5))(inp)
        m = keras.Model(inp, {"out0": o0, "out1": o1} if outputs == "dict" else [o0, o1])
        m.compile(keras.optimizers.SGD(0.1), {"out0": "mse", "out1": "mae"} if outputs == "dict" else ["mse", "mae"])
        x, (y0, y1) = _data(8)
        sw = np.linspace(0.5, 1.5, 8).astype(np.float32)
        y = {"out0": y0, "out1": y1} if y_form == "dict" else [y0, y1]
        s = {"out0": sw, "out1": sw} if sw_form == "dict" else [sw, sw] if sw_form == "list" else sw
        if what == "evaluate":
            return _logs(m.evaluate(x, y, sample_weight=s, batch_size=4, verbose=0, return_dict=True))
        hist = m.fit(x, y, sample_weight=s, batch_size=4, epochs=2, verbose=0, shuffle=False)
        return _logs(hist.history) + [np.asarray(w, np.float64) for w in m.get_weights()]
    return case


def _cases() -> dict[str, Callable[[Any], Any]]:
    out: dict[str, Callable[[Any], Any]] = {}
    for replicas in (1, 2):
        for reduction in ("sum_over_batch_size", "mean_with_sample_weight"):
            out[f"trackers/evaluate 10 by 6s after validation 4 by 4s, {replicas} replica(s), {reduction}"] = \
                _evaluate_after_validation(replicas, reduction, (4, 4), (10, 6))
        out[f"trackers/evaluate 12 by 4s after validation 4 by 4s, {replicas} replica(s)"] = \
            _evaluate_after_validation(replicas, "sum_over_batch_size", (4, 4), (12, 4))
        out[f"trackers/evaluate 12 by 4s after validation 6 by 4s, {replicas} replica(s)"] = \
            _evaluate_after_validation(replicas, "sum_over_batch_size", (6, 4), (12, 4))
        out[f"trackers/fit 10 by 4s after fit 8 by 4s, {replicas} replica(s)"] = _fit_after_fit(replicas, (8, 4), (10, 4))
        out[f"trackers/fit 8 by 4s after fit 10 by 4s, {replicas} replica(s)"] = _fit_after_fit(replicas, (10, 4), (8, 4))
    for outputs, y_form, sw_form, what in (("list", "dict", "array", "fit"), ("list", "list", "array", "fit"),
                                           ("list", "dict", "dict", "fit"), ("list", "list", "list", "fit"),
                                           ("list", "dict", "array", "evaluate"), ("dict", "dict", "array", "fit"),
                                           ("dict", "list", "list", "fit"), ("dict", "dict", "dict", "evaluate")):
        out[f"sample_weights/{what}: {outputs} outputs, {y_form} targets, {sw_form} sample weights"] = \
            _weighted_outputs(outputs, y_form, sw_form, what)
    return out


_AUTO_NAME = re.compile(r"(functional_|input_layer_|sgd_)_?\d+")
TABLE = case_results.Table(__file__, _cases(), _AUTO_NAME)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.fixture(scope="module", autouse=True)
def _fresh_keras_session_after() -> Any:
    yield
    from simdist import tf
    tf.keras.backend.clear_session()


@pytest.mark.clause("keras.fit.traced-shapes")
def test_loss_trackers_weigh_every_batch_by_the_trace_of_the_element_spec(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: lab.startswith("trackers/"))


@pytest.mark.clause("keras.compile.loss-weights")
def test_each_outputs_sample_weights_are_read_by_the_losss_path_in_the_predictions(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: lab.startswith("sample_weights/"))


def _tf_worker(indices: list[int]) -> dict[int, Any]:
    import tensorflow as tf
    tf_programs.four_cpus(tf)   # (MirroredStrategy needs the logical CPUs before TF initialises)
    return TABLE.tf_worker(indices)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(_tf_worker)
    os._exit(0)
