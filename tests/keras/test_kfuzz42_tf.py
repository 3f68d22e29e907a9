"""What user code in a custom train_step or test_step reads as the batch's static shape, against Keras 3.15 on
TF 2.21 (clause keras.fit.traced-shapes; the training fuzzer's open class of kfuzz41, tests/fuzz_train).

Keras 3.15's TF trainer calls `iterator.get_next()` inside its tf.function (multi_step_on_iterator), so the
step's inputs are dataset elements: their batch dimension is the element spec's, static (batch_size, or
batch_size / replicas per replica) for arrays without a partial last batch, None for arrays with one and for
any tf.data.Dataset batched without drop_remainder. The train and test functions are
`tf.function(reduce_retracing=True)`: a call whose element type no earlier trace (of the same element
structure) covers is traced with the common supertype, so once the function has traced batches of 4, fit or
evaluate by 6s runs with the batch dimension None, and by 4s again with the (4, 3) trace; compile makes new
functions. train_on_batch passes the batch itself: its own trace, concrete shapes. Each case returns the
distinct shapes the step's Python saw, per phase (-1 for None), in first-seen order, or per call the batch
dimension each batch's trace baked into the step's logs (a reused trace runs no Python), and the weights.

The loss_weights cases (the training fuzzer's seed 4220261202 #0 and #37: two outputs, np.float64 loss weights,
a kernel regularizer): Keras's CompileLoss weighs each output's loss by `ops.multiply(value, loss_weight)`,
where a Python float is weak but a NumPy scalar brings its dtype, so np.float64 weights make the compiled loss
float64; compute_loss sums it with the float32 regularization loss by `ops.sum(losses)`, whose conversion of
the list fails (TypeError traced, InvalidArgumentError eagerly); float32 and float64 weights fail in the sum of
the weighted losses (AddV2)."""

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


def _model(tf: Any, seen: list) -> Any:
    keras = tf.keras

    class M(keras.Model):
        def train_step(self, data: Any) -> Any:
            x, y = data[:2]
            seen.append(("train", tuple(x.shape), tuple(y.shape)))
            return {**super().train_step(data), "xdim": tf.constant(-1.0 if x.shape[0] is None else x.shape[0])}

        def test_step(self, data: Any) -> Any:
            x, y = data[:2]
            seen.append(("test", tuple(x.shape), tuple(y.shape)))
            return {**super().test_step(data), "xdim": tf.constant(-1.0 if x.shape[0] is None else x.shape[0])}

    inp = keras.Input((3,))
    out = keras.layers.Dense(2, kernel_initializer=keras.initializers.Constant(0.1), name="d")(inp)
    m = M(inp, out)
    m.compile(keras.optimizers.SGD(0.1), "mse")
    return m


def _distinct(seen: list) -> list[np.ndarray]:
    """The distinct (phase, x shape, y shape) entries in first-seen order, as int arrays (train 0, test 1;
    None -1). (simdist runs a step's Python once per concrete batch shape, TF once per trace: the counts
    differ, the shapes seen do not.)"""
    out: list[tuple] = []
    for entry in seen:
        if entry not in out:
            out.append(entry)
    return [np.asarray([0 if phase == "train" else 1] + [-1 if d is None else int(d) for d in xs + ys])
            for phase, xs, ys in out]


def _setup(tf: Any, replicas: int) -> Any:
    if "simdist" in tf.__name__:   # (TF's worker splits its CPU before TF initialises: _tf_worker)
        import simdist
        simdist.reset()
        tf_programs.four_cpus(tf)
    if replicas == 1:
        return tf.distribute.get_strategy()
    return tf.distribute.MirroredStrategy([f"/cpu:{i}" for i in range(replicas)])


def _fit(n: int, bs: int, replicas: int, feed: str) -> Callable[[Any], Any]:
    """fit with validation data (the training arrays) and evaluate by `bs`, on arrays or a Dataset."""
    def case(tf: Any) -> Any:
        strategy = _setup(tf, replicas)
        seen: list = []
        with strategy.scope():
            m = _model(tf, seen)
        x = (np.arange(n * 3, dtype=np.float32).reshape(n, 3) / 10).astype(np.float32)
        y = np.ones((n, 2), np.float32)
        if feed == "dataset":
            m.fit(tf.data.Dataset.from_tensor_slices((x, y)).batch(bs), epochs=1, verbose=0, validation_data=(x, y),
                  shuffle=False)
        else:
            m.fit(x, y, batch_size=bs, epochs=1, verbose=0, validation_data=(x, y), shuffle=False)
        m.evaluate(x, y, batch_size=bs, verbose=0)
        return _distinct(seen) + [np.asarray(w, dtype=np.float64) for w in m.get_weights()]
    return case


def _sequence(steps: tuple[tuple[str, int, int, bool], ...]) -> Callable[[Any], Any]:
    """One model through a sequence of (what, samples, batch size, sample weights?) calls; what is fit,
    evaluate, fit_val6 (fit by the size with validation data of 6 samples), train_on_batch or compile. Per
    call, the batch dimension each batch's step saw as the trace baked it into its logs ("xdim": a constant of
    the traced graph, -1 for None; a call that reuses a trace runs no Python, so this is what it returns)."""
    def case(tf: Any) -> Any:
        _setup(tf, 1)
        seen: list = []
        xdims: list = []

        class Record(tf.keras.callbacks.Callback):
            def on_train_batch_end(self, batch: int, logs: Any = None) -> None:
                xdims.append(float(logs["xdim"]))

            def on_test_batch_end(self, batch: int, logs: Any = None) -> None:
                xdims.append(100 + float(logs["xdim"]))

        m = _model(tf, seen)
        x = (np.arange(72, dtype=np.float32).reshape(24, 3) / 50).astype(np.float32)
        y = np.ones((24, 2), np.float32)
        out: list = []
        for what, n, bs, weighted in steps:
            xdims.clear()
            sw = np.ones(n, np.float32) if weighted else None
            if what == "compile":
                m.compile(tf.keras.optimizers.SGD(0.1), "mse")
            elif what == "train_on_batch":
                logs = m.train_on_batch(x[:n], y[:n], return_dict=True)
                xdims.append(float(logs["xdim"]))
            elif what == "evaluate":
                m.evaluate(x[:n], y[:n], batch_size=bs, verbose=0, sample_weight=sw, callbacks=[Record()])
            else:
                val = (x[:6], y[:6]) if what == "fit_val6" else None
                m.fit(x[:n], y[:n], batch_size=bs, verbose=0, sample_weight=sw, validation_data=val, shuffle=False,
                      callbacks=[Record()])
            out.append(np.asarray(xdims, dtype=np.float64))
        return out + [np.asarray(w, dtype=np.float64) for w in m.get_weights()]
    return case


def _weighted(weights: tuple, regularizer: bool, outputs: int = 2, eager: bool = False,
              policy: str = "float32") -> Callable[[Any], Any]:
    """fit of a model of `outputs` outputs (mse each) with compile's loss_weights `weights` (Python floats or
    NumPy scalars) and an L2 kernel regularizer or none: each epoch's losses and the weights, or the error."""
    def case(tf: Any) -> Any:
        _setup(tf, 1)
        keras = tf.keras
        keras.mixed_precision.set_global_policy(policy)
        try:
            inp = keras.Input((3,))
            reg = keras.regularizers.L2(0.02) if regularizer else None
            h = keras.layers.Dense(2, kernel_initializer=keras.initializers.Constant(0.1), kernel_regularizer=reg,
                                   name="h")(inp)
            outs = [keras.layers.Dense(2, kernel_initializer=keras.initializers.Constant(0.2), name=f"o{i}")(h)
                    for i in range(outputs)]
            m = keras.Model(inp, outs if outputs > 1 else outs[0])
            m.compile(keras.optimizers.SGD(0.1), ["mse"] * outputs if outputs > 1 else "mse",
                      loss_weights=list(weights), run_eagerly=eager)
            x = (np.arange(24, dtype=np.float32).reshape(8, 3) / 10).astype(np.float32)
            y = [np.ones((8, 2), np.float32)] * outputs if outputs > 1 else np.ones((8, 2), np.float32)
            hist = m.fit(x, y, batch_size=4, epochs=2, verbose=0, shuffle=False)
            return [np.asarray(hist.history[k], dtype=np.float64) for k in sorted(hist.history)] + \
                [np.asarray(w, dtype=np.float64) for w in m.get_weights()]
        finally:
            keras.mixed_precision.set_global_policy("float32")
    return case


def _loss_weight_cases() -> dict[str, Callable[[Any], Any]]:
    f64, f32 = np.float64, np.float32
    return {
        "loss_weights/np.float64 weights and a regularizer": _weighted((f64(0.7), f64(0.9)), True),
        "loss_weights/np.float64 weights, no regularizer": _weighted((f64(0.7), f64(0.9)), False),
        "loss_weights/Python float weights and a regularizer": _weighted((0.7, 0.9), True),
        "loss_weights/np.float64 weights and a regularizer, run eagerly": _weighted((f64(0.7), f64(0.9)), True,
                                                                                   eager=True),
        "loss_weights/np.float32 and np.float64 weights": _weighted((f32(0.7), f64(0.9)), False),
        "loss_weights/np.float32 weights and a regularizer": _weighted((f32(0.7), f32(0.9)), True),
        "loss_weights/Python floats, mixed_float16, a regularizer": _weighted((0.7, 0.9), True,
                                                                             policy="mixed_float16"),
        "loss_weights/np.float64, mixed_float16, a regularizer": _weighted((f64(0.7), f64(0.9)), True,
                                                                          policy="mixed_float16"),
        "loss_weights/one output, np.float64 weight and a regularizer": _weighted((f64(0.7),), True, outputs=1),
    }


def _add(a: Any, b: Any) -> Any:
    return a + b


def _framed(how: str) -> Callable[[Any], Any]:
    """A trace-time op error (AddV2 of float32 and float64) out of a tf.function: AutoGraph's "in user code:"
    frame when it converts the function, op_def_library's message as it is when autograph=False or the
    function is marked do_not_convert (as Keras's step functions are)."""
    def case(tf: Any) -> Any:
        _setup(tf, 1)
        fn = {"converted": lambda: tf.function(_add), "autograph=False": lambda: tf.function(_add, autograph=False),
              "do_not_convert": lambda: tf.function(tf.autograph.experimental.do_not_convert(_add))}[how]()
        try:
            return fn(tf.constant(1.0), tf.constant(1.0, tf.float64))
        except TypeError as e:   # (the frame names this file: where the checkout is, not a property of TF)
            raise TypeError(str(e).replace(os.path.dirname(os.path.abspath(__file__)), "tests/keras")) from None
    return case


def _pack_mixed(tf: Any) -> Any:
    """tf.convert_to_tensor of [float64 tensor, float32 tensor] eagerly: Pack's kernel error, named "packed"."""
    _setup(tf, 1)
    return tf.convert_to_tensor([tf.constant(1.0, tf.float64), tf.constant(2.0)])


def _cases() -> dict[str, Callable[[Any], Any]]:
    out: dict[str, Callable[[Any], Any]] = {}
    for n, bs, replicas, feed in ((8, 4, 1, "arrays"), (10, 4, 1, "arrays"), (8, 4, 2, "arrays"),
                                  (14, 4, 2, "arrays"), (12, 6, 2, "arrays"), (8, 4, 1, "dataset"),
                                  (8, 4, 2, "dataset")):
        out[f"elements/{n} by {bs}s over {replicas}, {feed}"] = _fit(n, bs, replicas, feed)
    out["retracing/fit by 4s, by 6s, by 4s, partial by 3s"] = _sequence(
        (("fit", 8, 4, False), ("fit", 12, 6, False), ("fit", 8, 4, False), ("fit", 9, 3, False)))
    out["retracing/fit by 4s with validation 6 by 4s, evaluate by 6s, by 4s"] = _sequence(
        (("fit_val6", 8, 4, False), ("evaluate", 12, 6, False), ("evaluate", 8, 4, False)))
    out["retracing/evaluate by 4s, by 6s, by 4s, 12 by 4s"] = _sequence(
        (("evaluate", 8, 4, False), ("evaluate", 12, 6, False), ("evaluate", 8, 4, False),
         ("evaluate", 12, 4, False)))
    out["retracing/another element structure (sample weights) traces apart"] = _sequence(
        (("fit", 8, 4, True), ("fit", 12, 6, False), ("fit", 12, 6, True)))
    out["retracing/train_on_batch traces apart; compile starts afresh"] = _sequence(
        (("train_on_batch", 4, 4, False), ("fit", 12, 6, False), ("fit", 8, 4, False), ("compile", 0, 0, False),
         ("fit", 12, 6, False)))
    out.update(_loss_weight_cases())
    for how in ("converted", "autograph=False", "do_not_convert"):
        out[f"frame/{how}"] = _framed(how)
    out["conversion/a list of a float64 and a float32 tensor, eagerly"] = _pack_mixed
    return out


_AUTO_NAME = re.compile(r"(functional_|input_layer_|sgd_|m_)_?\d+")
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
@pytest.mark.parametrize("prefix", ["elements/", "retracing/"])
def test_a_custom_step_reads_the_element_spec_batch_after_reduce_retracing(tf_results: dict[int, Any],
                                                                           prefix: str) -> None:
    TABLE.check(tf_results, lambda lab: lab.startswith(prefix))


@pytest.mark.clause("keras.compile.loss-weights")
def test_loss_weights_keep_their_dtype_and_the_losses_are_summed_as_one_tensor(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: lab.startswith("loss_weights/"))


@pytest.mark.clause("function.trace-time-errors")
def test_a_trace_error_is_framed_only_by_autograph(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: lab.startswith("frame/"))


@pytest.mark.clause("ops.conversion")
def test_an_eager_autopacked_list_names_its_pack(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: lab.startswith("conversion/"))


def _tf_worker(indices: list[int]) -> dict[int, Any]:
    import tensorflow as tf
    tf_programs.four_cpus(tf)   # (MirroredStrategy needs the logical CPUs before TF initialises)
    return TABLE.tf_worker(indices)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(_tf_worker)
    os._exit(0)
