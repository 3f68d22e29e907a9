"""The training fuzzer's kfuzz55 widening against TF 2.21 (tests/fuzz_train, `_widen15`; clause train.reference-grid):
the patterns people's training programs take that the generator now draws, each checked value by value.

Agreeing (a test that fails when one drifts): ARCHS15's layers (an LSTM with relu, hard_sigmoid and no unit forget
bias, a backward softsign GRU, an unrolled relu SimpleRNN, a Bidirectional with a backward layer of its own, a grouped
dilated Conv1D into a strided "same" MaxPooling1D, a Conv1DTranspose, a DepthwiseConv1D, Dense layers with gelu, silu,
mish, softsign and hard_silu, a Minimum merge into a thresholded ReLU, CategoryEncoding multi_hot) fit one epoch; a
loss and a metric as plain Python functions, a warmup callback assigning the learning rate each batch, optimizers by
their string names and a subclassed model branching on `training`, fit and evaluated.

Fixed (clause function.xla-resource-device): an XLA-compiled call reading a variable placed on another device of the
task. TF 2.21 compiles the call for the device it runs on and raises InvalidArgumentError "Trying to access resource
... located in device ... from device ..."; simdist ran it. The generator's grouped Conv1D met it under CentralStorage
(the training slice's program 7): Keras's TF backend jit-compiles a grouped convolution, whose kernel lives on the
parameter device while replica 1 runs on the second CPU."""

from __future__ import annotations

import os
import sys
from typing import Any

import numpy as np
import pytest

import tf_programs
import tf_workers

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "fuzz_train"))
from ftr_vocab import ARCHS15, LOSS_FN15, METRIC_FN15, WARMUP15  # noqa: E402

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _init(model: Any, seed: int) -> None:
    r = np.random.default_rng(seed)
    for v in model.weights:
        v.assign(r.uniform(-0.6, 0.6, tuple(v.shape)).astype(np.float32))


def _flat(model: Any) -> list[float]:
    return np.concatenate([np.ravel(w) for w in model.get_weights()]).astype(np.float64).tolist()


def _hist(h: Any) -> dict[str, list[float]]:
    return {k: [float(v) for v in h.history[k]] for k in sorted(h.history)}


def _layers(tf: Any) -> dict[str, Any]:
    """Each ARCHS15 model (the fuzzer's own lines) fit one epoch of two SGD steps: losses, weights, predictions."""
    out: dict[str, Any] = {}
    for name, (kind, shape, lines) in ARCHS15.items():
        tf.keras.backend.clear_session()
        r = np.random.default_rng(3)
        if kind == "int":
            x: Any = r.integers(0, 6, (8, *shape)).astype(np.int32)
            inp = tf.keras.Input(shape, dtype="int32")
        else:
            x = r.uniform(-1, 1, (8, *shape)).astype(np.float32)
            inp = tf.keras.Input(shape)
        y = r.uniform(-1, 1, (8, 2)).astype(np.float32)
        ns: dict[str, Any] = {"tf": tf, "inp": inp, "h": inp}
        for ln in lines:
            exec(ln, ns)  # noqa: S102 - the fuzzer's own layer lines
        model = tf.keras.Model(inp, tf.keras.layers.Dense(2)(ns["h"]))
        _init(model, 11)
        model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse")
        h = model.fit(x, y, batch_size=4, epochs=1, shuffle=False, verbose=0)
        out[name] = [[float(v) for v in h.history["loss"]], _flat(model),
                     np.asarray(model.predict(x[:5], batch_size=3, verbose=0), np.float64).ravel().tolist()]
    return out


def _options(tf: Any) -> dict[str, Any]:
    """A loss and a metric as Python functions, a warmup callback, optimizers by string and a subclassed model with a
    training branch: histories, weights, evaluate and predict."""
    ns: dict[str, Any] = {"tf": tf, "np": np}

    class _Backend:
        @staticmethod
        def to_numpy(v: Any) -> Any:
            return np.asarray(v)
    ns["backend"] = _Backend
    exec(LOSS_FN15 + METRIC_FN15 + WARMUP15, ns)  # noqa: S102 - the fuzzer's own sources
    L = tf.keras.layers
    r = np.random.default_rng(4)
    x = r.uniform(-1, 1, (10, 4)).astype(np.float32)
    yr = r.uniform(-1, 1, (10, 2)).astype(np.float32)
    sw = np.round(r.uniform(0.0, 2.0, 10), 2).astype(np.float32)
    out: dict[str, Any] = {}

    def functional() -> Any:
        inp = tf.keras.Input((4,))
        model = tf.keras.Model(inp, L.Dense(2)(L.Dense(3, activation="relu")(inp)))
        _init(model, 6)
        return model
    for red in ("sum_over_batch_size", "sum"):
        model = functional()
        loss = ns["scaled_log_cosh"] if red == "sum_over_batch_size" else tf.keras.losses.get(ns["scaled_log_cosh"])
        model.compile(optimizer=tf.keras.optimizers.Adam(0.05), loss=loss, metrics=["mae", ns["max_abs_pred"]])
        hist = model.fit(x, yr, batch_size=4, epochs=2, shuffle=False, verbose=0, sample_weight=sw,
                         callbacks=[ns["Warmup"](steps=3)])
        ev = model.evaluate(x, yr, batch_size=4, verbose=0, return_dict=True)
        out[f"fn {red}"] = {"history": _hist(hist), "weights": _flat(model),
                            "evaluate": {k: float(v) for k, v in sorted(ev.items())},
                            "lr": float(np.asarray(model.optimizer.learning_rate))}
    for name in ("sgd", "adam", "adamw", "adagrad", "rmsprop", "adadelta", "adamax", "nadam", "ftrl", "lion",
                 "adafactor"):
        model = functional()
        model.compile(optimizer=name, loss="mse")
        hist = model.fit(x, yr, batch_size=4, epochs=2, shuffle=False, verbose=0)
        out[f"string {name}"] = {"history": _hist(hist), "weights": _flat(model)}

    class Net(tf.keras.Model):
        def __init__(self) -> None:
            super().__init__()
            self.l0 = L.Dense(3, activation="tanh")
            self.l1 = L.Dense(2)

        def call(self, h: Any, training: Any = False) -> Any:
            h = self.l0(h)
            if training:
                h = 0.9 * h + 0.05
            return self.l1(h)
    model = Net()
    model(np.zeros((1, 4), np.float32))
    _init(model, 7)
    model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse")
    hist = model.fit(x, yr, batch_size=4, epochs=2, shuffle=False, verbose=0)
    out["subclassed training"] = {"history": _hist(hist), "weights": _flat(model),
                                  "predict": np.asarray(model.predict(x[:5], verbose=0), np.float64).ravel().tolist(),
                                  "train_call": np.asarray(model(x[:3], training=True), np.float64).ravel().tolist()}
    return out


def _outcome(fn: Any) -> Any:
    """The call's value, or its error class and the device part of TF's message (its resource uid left out)."""
    try:
        return ["ran", np.asarray(fn(), np.float64).ravel().tolist()]
    except Exception as e:  # noqa: BLE001 - the error class is the observable
        text = str(e)
        at = text.find("located in device")
        return [type(e).__name__, text[at:text.find("\n", at)] if at >= 0 else text[:80]]


def _xla_resource(tf: Any) -> dict[str, Any]:
    """An XLA-compiled call reading a variable on another device (clause function.xla-resource-device): in a
    CentralStorage replica (the variable on the parameter device), outside any strategy (captured or an argument, the
    call under the variable's device or another), and Keras's grouped Conv1D (jit-compiled by Keras's TF backend) fit
    under CentralStorage, and a model compiled with jit_compile=True under CentralStorage (fit, evaluate and the batch
    APIs run; predict's per-replica XLA step refuses the parameter device's variables)."""
    out: dict[str, Any] = {}
    strategy = tf.distribute.experimental.CentralStorageStrategy(["/cpu:0", "/cpu:1"])
    with strategy.scope():
        v = tf.Variable(tf.ones((2, 2)), name="kern")

    def fn(x: Any) -> Any:
        @tf.function(jit_compile=True)
        def f() -> Any:
            return tf.reduce_sum(v * x)
        return f()
    out["central replica"] = _outcome(lambda: strategy.experimental_local_results(
        strategy.run(fn, args=(tf.constant(2.0),))))
    with tf.device("/cpu:1"):
        w = tf.Variable(tf.ones((2,)), name="w1")

    @tf.function(jit_compile=True)
    def g() -> Any:
        return tf.reduce_sum(w * 2.0)

    @tf.function(jit_compile=True)
    def h(var: Any) -> Any:
        return tf.reduce_sum(var * 2.0)
    for dev in ("/cpu:0", "/cpu:1"):
        with tf.device(dev):
            out[f"captured {dev}"] = _outcome(g)
            out[f"argument {dev}"] = _outcome(lambda: h(w))
    r = np.random.default_rng(5)
    x = r.uniform(-1, 1, (8, 8, 2)).astype(np.float32)
    y = r.uniform(-1, 1, (8, 2)).astype(np.float32)
    for kind in ("central", "default"):
        scope = strategy.scope() if kind == "central" else tf.distribute.get_strategy().scope()
        with scope:
            inp = tf.keras.Input((8, 2))
            hid = tf.keras.layers.Conv1D(4, 3, padding="same", groups=2)(inp)
            model = tf.keras.Model(inp, tf.keras.layers.Dense(2)(tf.keras.layers.Flatten()(hid)))
            _init(model, 8)
            model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse")
        out[f"grouped conv fit {kind}"] = _outcome(
            lambda: model.fit(x, y, batch_size=4, epochs=1, shuffle=False, verbose=0).history["loss"])
    xs = np.linspace(-1, 1, 32, dtype=np.float32).reshape(8, 4)
    ys = np.linspace(0, 1, 16, dtype=np.float32).reshape(8, 2)

    def jit_model() -> Any:   # (compile(jit_compile=True) under CentralStorage: predict's per-replica XLA step)
        with strategy.scope():
            inp = tf.keras.Input((4,))
            m = tf.keras.Model(inp, tf.keras.layers.Dense(2)(inp))
            _init(m, 10)
            m.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse", jit_compile=True)
        return m
    for name, fn in (("fit", lambda m: m.fit(xs, ys, batch_size=4, epochs=1, shuffle=False, verbose=0).history["loss"]),
                     ("evaluate", lambda m: m.evaluate(xs, ys, batch_size=4, verbose=0)),
                     ("predict", lambda m: m.predict(xs, batch_size=4, verbose=0)),
                     ("train_on_batch", lambda m: m.train_on_batch(xs[:4], ys[:4])),
                     ("test_on_batch", lambda m: m.test_on_batch(xs[:4], ys[:4])),
                     ("predict_on_batch", lambda m: m.predict_on_batch(xs[:4]))):
        out[f"jit_compile central {name}"] = _outcome(lambda: fn(jit_model()))
    return out


def _scratch_regularizer(tf: Any) -> dict[str, Any]:
    """A regularizer made in a sublayer's build() while a subclassed model's first call builds it (Keras runs the call
    in a scratch FuncGraph), then used: the losses read eagerly, under a tape, in a tf.function, by an eager and a
    traced fit; L1 and OrthogonalRegularizer keep a tensor (TF's TypeError), L2 a float (runs); a functional model's
    layer builds outside the scratch graph (runs). Each outcome: the value or the error class and TF's first words."""
    L = tf.keras.layers

    def make(reg: Any) -> Any:
        class RC(L.Layer):
            def build(self, input_shape: Any) -> None:
                self.gain = self.add_weight(shape=(input_shape[-1], input_shape[-1]), initializer="ones",
                                            regularizer=reg(), name="gain")

            def call(self, t: Any) -> Any:
                return tf.matmul(t, self.gain)
        return RC

    def subclassed(reg: Any) -> Any:
        rc = make(reg)

        class Net(tf.keras.Model):
            def __init__(self) -> None:
                super().__init__()
                self.a, self.b, self.c = L.Dense(3), rc(name="rc"), L.Dense(2)

            def call(self, h: Any) -> Any:
                return self.c(self.b(self.a(h)))
        m = Net()
        m(np.ones((4, 3), np.float32))
        _init(m, 9)
        return m
    x = np.linspace(-1, 1, 12, dtype=np.float32).reshape(4, 3)
    y = np.zeros((4, 2), np.float32)

    def uses(m: Any, kind: str) -> Any:
        if kind == "losses":
            return tf.add_n(m.losses)
        if kind == "tape":
            with tf.GradientTape() as t:
                loss = tf.add_n(m.losses) + tf.reduce_sum(m(x))
            return t.gradient(loss, m.trainable_variables)[0]
        if kind == "function":
            return tf.function(lambda: tf.add_n(m.losses))()
        m.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse", run_eagerly=kind == "eager_fit")
        return m.fit(x, y, batch_size=2, epochs=1, shuffle=False, verbose=0).history["loss"]
    regs = {"l1": lambda: tf.keras.regularizers.L1(0.01), "l2": lambda: tf.keras.regularizers.L2(0.01),
            "orthogonal": lambda: tf.keras.regularizers.OrthogonalRegularizer(0.02)}
    out: dict[str, Any] = {}
    for name, reg in regs.items():
        for kind in ("losses", "tape", "function", "eager_fit", "fit"):
            got = _outcome(lambda: uses(subclassed(reg), kind))
            out[f"{name} {kind}"] = [got[0], got[1].split(" is out of scope")[0]] if got[0] == "TypeError" else got
    inp = tf.keras.Input((3,))
    model = tf.keras.Model(inp, L.Dense(2)(make(regs["l1"])(name="rc_functional")(L.Dense(3)(inp))))
    _init(model, 9)
    out["l1 functional fit"] = _outcome(lambda: uses(model, "fit"))
    return out


def program(tf: Any, case: dict, workdir: str) -> Any:
    return {"layers": _layers, "options": _options, "xla_resource": _xla_resource,
            "scratch_regularizer": _scratch_regularizer}[case["name"]](tf)


CASES: dict[str, dict] = {"options": {"strategy": "default", "name": "options"},
                          "layers": {"strategy": "default", "name": "layers"},
                          "xla_resource": {"strategy": "central", "name": "xla_resource"},
                          "scratch_regularizer": {"strategy": "default", "name": "scratch_regularizer"}}
NAMES = list(CASES)


@pytest.fixture(scope="module")
def tf_results(request: Any) -> dict[int, Any]:
    return tf_programs.spawn(__file__, CASES, tf_programs.selected(request, __file__))


def _same(got: Any, want: Any, where: str, rtol: float, atol: float) -> None:
    """Strings and structure exactly, numbers within the tolerance, recursively."""
    if isinstance(want, dict):
        assert isinstance(got, dict) and sorted(got) == sorted(want), f"{where}: keys {sorted(got)}, TF 2.21 {sorted(want)}"
        for k in want:
            _same(got[k], want[k], f"{where}/{k}", rtol, atol)
    elif isinstance(want, (list, tuple)) and not all(isinstance(v, (int, float)) for v in want):
        assert isinstance(got, (list, tuple)) and len(got) == len(want), f"{where}: simdist {got}, TF 2.21 {want}"
        for i, (g, w) in enumerate(zip(got, want)):
            _same(g, w, f"{where}[{i}]", rtol, atol)
    elif isinstance(want, str):
        assert got == want, f"{where}: simdist {got!r}, TF 2.21 {want!r}"
    else:
        tf_programs.close(got, want, where, rtol=rtol, atol=atol)


def _check(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    from simdist.runtime import host_cpu
    name = NAMES[index]
    with host_cpu.using(tf_workers.answers_model(__file__)):   # (TF's kernels follow the CPU: ops.host-cpu)
        got = tf_programs.on_simdist(program, CASES[name], str(tmp_path))
    _same(got, tf_results[index], name, rtol=1e-5, atol=1e-6)


@pytest.mark.clause("train.reference-grid")
@pytest.mark.parametrize("index", [0], ids=NAMES[:1])
def test_the_widened_options_match_tf(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    """A loss and a metric as functions, a warmup callback, optimizers by string, a training branch."""
    _check(index, tf_results, tmp_path)


@pytest.mark.clause("function.xla-resource-device")
@pytest.mark.parametrize("index", [2], ids=NAMES[2:3])
def test_an_xla_call_reads_only_its_own_devices_variables(index: int, tf_results: dict[int, Any],
                                                          tmp_path: Any) -> None:
    """A jit-compiled call refuses a variable on another device (CentralStorage's grouped Conv1D fit among them)."""
    _check(index, tf_results, tmp_path)


@pytest.mark.clause("keras.reg.scratch-graph-constant")
@pytest.mark.parametrize("index", [3], ids=NAMES[3:])
def test_a_regularizer_made_in_the_scratch_graph_is_out_of_scope(index: int, tf_results: dict[int, Any],
                                                                 tmp_path: Any) -> None:
    """A subclassed model's sublayer makes L1/Orthogonal in build(): every later use is TF's TypeError."""
    _check(index, tf_results, tmp_path)


@pytest.mark.slow
@pytest.mark.clause("train.reference-grid")
@pytest.mark.parametrize("index", [1], ids=NAMES[1:2])
def test_the_widened_layers_match_tf(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    """ARCHS15's ten models (slow: several seconds of simdist each on a loaded host)."""
    _check(index, tf_results, tmp_path)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(tf_programs.worker(CASES, program))
