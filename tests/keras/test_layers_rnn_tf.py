"""Differential tests of the recurrent layers (SimpleRNN, LSTM, GRU, their cells in RNN(cell),
Bidirectional) and of masking (Masking, Embedding(mask_zero=True), mask propagation): simdist vs
TF 2.21 + Keras 3.15 (clauses keras.rnn.* and keras.mask.* in docs/spec.md).

Every case is one program run on both backends (`run(tf, case)`):
- "layer": the layer built by a first call, its weights set from arrays drawn from the case's
  seed, then every output (return_state's states too) and the gradients of sum(out_i * r_i)
  with respect to the input and every trainable weight, and the weights' paths; optionally with
  a `mask=` (one sequence's first steps masked);
- "masked_model": Embedding(mask_zero=True) or Masking before the recurrent layer in a
  Sequential: the output, the Keras mask it carries, the gradients w.r.t. the weights;
- "config": get_config (without the name) and from_config(get_config()) round trip;
- "symbolic": the output shapes through keras.Input;
- "fit": a small Sequential (Embedding(mask_zero=True), a recurrent layer, Dense) trained by
  `model.fit` for 2 epochs under the default strategy, MirroredStrategy(2) and
  CentralStorageStrategy(2) from the same weights: History's losses and the weights after;
- "custom_loop": a tf.function training step run by strategy.run (MirroredStrategy(2),
  CentralStorageStrategy(2)) over a distributed dataset, or under ParameterServerStrategy (2
  workers, 1 ps) scheduled by a ClusterCoordinator: per-step losses and the weights after;
- "fit" under ParameterServerStrategy: the error Keras 3 raises (fit is not supported there);
- "construct"/errors: the error class and message.
TF runs in a subprocess (tf_workers.spawn; this module is its worker). Values agree to rtol 1e-5
(fit and custom loops 1e-4) with test_layers_conv_norm_tf's absolute floor.
"""

from __future__ import annotations

import json
import zlib
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

import tf_cases
import tf_workers
from test_layers_conv_norm_tf import _arr, _first_line, _wrapped, assert_same

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

LAYERS, BI, MASK = "keras.rnn.layers", "keras.rnn.bidirectional", "keras.mask.propagation"
CONFIG, SYM, ARGS, FIT = "keras.rnn.config", "keras.rnn.symbolic", "keras.rnn.arguments", "keras.rnn.fit"
FILES, PSS = "keras.rnn.weight-files", "keras.rnn.pss"


@dataclass(frozen=True)
class Case:
    name: str
    clause: str
    spec: Any = None                     # ("LSTM", (("units", 3), ...)); nested specs are layers
    shape: tuple = (2, 5, 3)
    program: str = "layer"
    mask: bool = False                   # layer: call with mask=
    mask_states: tuple = ()              # initial_state: (number of states, units)
    strategy: str = "default"
    rtol: float = 1e-5


def _seed(case: Case) -> int:
    return zlib.crc32(case.name.encode()) % (2 ** 31)


def build(tf: Any, spec: Any) -> Any:
    """A layer from its spec: (class name, ((arg, value), ...)); values that are specs are built."""
    cls_name, kwargs = spec
    args = {}
    for k, v in kwargs:
        args[k] = build(tf, v) if isinstance(v, tuple) and len(v) == 2 and isinstance(v[0], str) and \
            v[0][:1].isupper() and isinstance(v[1], tuple) else v
    return getattr(tf.keras.layers, cls_name)(**args)


def _weights(layer: Any, rng: np.random.Generator, scale: float = 0.5) -> list[np.ndarray]:
    return [(rng.standard_normal(tuple(int(d) for d in w.shape)) * scale).astype("float32") for w in layer.weights]


def _mask(shape: tuple) -> np.ndarray:
    """Row 0 keeps every step but the last two; row 1 masks its first two steps and one inside."""
    m = np.ones(shape[:2], bool)
    m[0, -2:] = False
    if shape[0] > 1:
        m[1, :2] = False
        m[1, shape[1] // 2 + 1] = False
    return m


def _flat(y: Any) -> list:
    return list(y) if isinstance(y, (list, tuple)) else [y]


def run_layer(tf: Any, case: Case, rng: np.random.Generator) -> dict[str, Any]:
    x = rng.standard_normal(case.shape).astype("float32")
    layer = build(tf, case.spec)
    call = {"mask": tf.constant(_mask(case.shape))} if case.mask else {}
    layer(tf.constant(x), **call)
    layer.set_weights(_weights(layer, rng))
    xt = tf.constant(x)
    with tf.GradientTape() as tape:
        tape.watch(xt)
        outs = _flat(layer(xt, **call))
        rs = [tf.constant(rng.standard_normal(tuple(o.shape)).astype("float32")) for o in outs]
        loss = tf.add_n([tf.reduce_sum(o * r) for o, r in zip(outs, rs)])
    grads = tape.gradient(loss, [xt] + list(layer.trainable_weights))
    return {"outputs": [_arr(o) for o in outs], "grads": [None if g is None else _arr(tf.convert_to_tensor(g))
                                                          for g in grads],
            "names": [w.path for w in layer.weights]}


def _tokens(rng: np.random.Generator, n: int, steps: int, vocab: int) -> np.ndarray:
    """Token ids 1..vocab-1, each sequence right-padded with 0 to a random length >= 1 (one
    sequence is also left-padded: masked steps before the first real one)."""
    x = rng.integers(1, vocab, (n, steps))
    for i in range(n):
        x[i, rng.integers(1, steps + 1):] = 0
    x[0, :2] = 0
    x[0, 2] = max(int(x[0, 2]), 1)
    return x.astype("int32")


def run_masked_model(tf: Any, case: Case, rng: np.random.Generator) -> dict[str, Any]:
    kind = case.shape
    steps = 6
    if kind[0] == "embedding":
        x = _tokens(rng, 4, steps, 7)
        first = [tf.keras.Input((steps,), dtype="int32"), tf.keras.layers.Embedding(7, 3, mask_zero=True)]
    else:
        x = rng.standard_normal((4, steps, 3)).astype("float32")
        x[1, 3:] = 0.0
        x[2, :2] = -1.0
        first = [tf.keras.Input((steps, 3)), tf.keras.layers.Masking(mask_value=kind[1])]
    model = tf.keras.Sequential(first + [build(tf, case.spec)])
    model.set_weights(_weights(model, rng))
    with tf.GradientTape() as tape:
        y = model(tf.constant(x))
        loss = tf.reduce_sum(y * tf.constant(rng.standard_normal(tuple(y.shape)).astype("float32")))
    grads = tape.gradient(loss, model.trainable_weights)
    mask = getattr(y, "_keras_mask", None)
    if mask is None and type(y).__module__.startswith("simdist"):
        from simdist.keras.tensor_attributes import get_keras_mask   # simdist's tensors keep it aside
        mask = get_keras_mask(y)
    return {"y": _arr(y), "mask": None if mask is None else _arr(mask),
            "grads": [_arr(tf.convert_to_tensor(g)) for g in grads]}


def run_functional_mask(tf: Any, case: Case, rng: np.random.Generator) -> dict[str, Any]:
    """A functional model called with `mask=`: the mask reaches the recurrent layer inside."""
    inp = tf.keras.Input(case.shape[1:])
    model = tf.keras.Model(inp, build(tf, case.spec)(inp))
    model.set_weights(_weights(model, rng))
    x = rng.standard_normal(case.shape).astype("float32")
    return {"masked": _arr(model(tf.constant(x), mask=tf.constant(_mask(case.shape)))),
            "unmasked": _arr(model(tf.constant(x)))}


def run_merge_masks(tf: Any, case: Case, rng: np.random.Generator) -> dict[str, Any]:
    """Masks through Add and Concatenate into a recurrent layer (a functional model): the
    embedding's mask reaches the GRU only if both merge layers pass it on."""
    layers = tf.keras.layers
    inp = tf.keras.Input((6,), dtype="int32")
    e = layers.Embedding(9, 4, mask_zero=True)(inp)
    s = layers.Add()([layers.Dense(4)(e), layers.LSTM(4, return_sequences=True)(e)])
    out = build(tf, case.spec)(layers.Concatenate()([s, e]))
    model = tf.keras.Model(inp, out)
    model.set_weights(_weights(model, rng))
    return {"y": _arr(model(tf.constant(_tokens(rng, 4, 6, 9))))}


def _model(tf: Any, case: Case) -> Any:
    steps, vocab = 6, 9
    return tf.keras.Sequential([tf.keras.Input((steps,), dtype="int32"),
                                tf.keras.layers.Embedding(vocab, 4, mask_zero=True), build(tf, case.spec),
                                tf.keras.layers.Dense(3)])


def run_fit(tf: Any, case: Case, rng: np.random.Generator) -> dict[str, Any]:
    x = _tokens(rng, 16, 6, 9)
    y = rng.integers(0, 3, 16).astype("int32")
    strategy = tf_cases.strategy(tf, case.strategy)
    with strategy.scope():
        model = _model(tf, case)
        model.set_weights(_weights(model, rng))
        model.compile(optimizer=tf.keras.optimizers.SGD(0.1),
                      loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    history = model.fit(x, y, batch_size=8, epochs=2, shuffle=False, verbose=0)
    return {"loss": np.asarray(history.history["loss"], np.float32), "weights": [_arr(w) for w in model.weights]}


def run_custom_loop(tf: Any, case: Case, rng: np.random.Generator) -> dict[str, Any]:
    x = rng.standard_normal((16, 5, 3)).astype("float32")
    y = rng.standard_normal((16, 2)).astype("float32")
    strategy = tf_cases.strategy(tf, case.strategy)
    with strategy.scope():
        model = tf.keras.Sequential([tf.keras.Input((5, 3)), build(tf, case.spec), tf.keras.layers.Dense(2)])
        model.set_weights(_weights(model, rng))
        opt = tf.keras.optimizers.SGD(0.1)

    def replica(xr: Any, yr: Any) -> Any:
        with tf.GradientTape() as tape:
            per_example = tf.reduce_mean(tf.square(model(xr, training=True) - yr), axis=-1)
            loss = tf.nn.compute_average_loss(per_example, global_batch_size=8)
        grads = tape.gradient(loss, model.trainable_variables)
        opt.apply_gradients(zip(grads, model.trainable_variables))
        return loss

    losses = tf_cases.train_steps(tf, strategy, replica, x, y, 8, function=True)
    return {"losses": losses, "weights": [_arr(w) for w in model.weights]}


def _h5_layout(path: str) -> list:
    """(dataset path, shape) of every dataset in a .weights.h5 file, in file order."""
    import h5py
    out: list = []
    with h5py.File(path, "r") as f:
        f.visititems(lambda name, obj: out.append((name, tuple(obj.shape))) if isinstance(obj, h5py.Dataset) else None)
    return out


def run_weights_file(tf: Any, case: Case, rng: np.random.Generator) -> dict[str, Any]:
    """A model with the layer saved to .weights.h5: the file's bytes, its layout, and the
    model's output on a fixed input. (The simdist side loads TF's bytes instead; see
    test_weight_files_load_both_ways.)"""
    import os
    import tempfile
    model = tf.keras.Sequential([tf.keras.Input(case.shape[1:]), build(tf, case.spec), tf.keras.layers.Dense(2)])
    model.set_weights(_weights(model, rng))
    x = rng.standard_normal(case.shape).astype("float32")
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "m.weights.h5")
        model.save_weights(path)
        with open(path, "rb") as f:
            data = f.read()
        layout = _h5_layout(path)
    return {"file": data, "layout": layout, "y": _arr(model(tf.constant(x))), "x": x}


def run_config(tf: Any, case: Case) -> dict[str, Any]:
    layer = build(tf, case.spec)
    config = dict(layer.get_config())
    config.pop("name")
    again = type(layer).from_config(layer.get_config())
    return {"config": json.dumps(config, sort_keys=True, default=str),
            "round_trip": again.get_config() == layer.get_config()}


def run_initial_state(tf: Any, case: Case, rng: np.random.Generator) -> dict[str, Any]:
    """The layer called with `initial_state=` (one (batch, units) array per state; Bidirectional:
    the forward's then the backward's): outputs and the gradients w.r.t. the input, the initial
    states and the weights."""
    x = tf.constant(rng.standard_normal(case.shape).astype("float32"))
    layer = build(tf, case.spec)
    n_states, units = case.mask_states
    states = [tf.constant(rng.standard_normal((case.shape[0], units)).astype("float32")) for _ in range(n_states)]
    layer(x, initial_state=states)
    layer.set_weights(_weights(layer, rng))
    with tf.GradientTape() as tape:
        tape.watch([x] + states)
        outs = _flat(layer(x, initial_state=states))
        loss = tf.add_n([tf.reduce_sum(o * tf.constant(rng.standard_normal(tuple(o.shape)).astype("float32")))
                         for o in outs])
    grads = tape.gradient(loss, [x] + states + list(layer.trainable_weights))
    return {"outputs": [_arr(o) for o in outs], "grads": [_arr(tf.convert_to_tensor(g)) for g in grads]}


def run_custom_cell(tf: Any, case: Case, rng: np.random.Generator) -> dict[str, Any]:
    """RNN of a user's cell (Keras's MinimalRNNCell example): outputs, gradients, weight paths."""
    keras = tf.keras

    class MinimalRNNCell(keras.layers.Layer):
        def __init__(self, units: int, **kwargs: Any) -> None:
            super().__init__(**kwargs)
            self.units = units
            self.state_size = units

        def build(self, input_shape: Any) -> None:
            self.kernel = self.add_weight(shape=(input_shape[-1], self.units), name="kernel")
            self.recurrent_kernel = self.add_weight(shape=(self.units, self.units), name="recurrent_kernel")

        def call(self, inputs: Any, states: Any) -> Any:
            output = tf.matmul(inputs, self.kernel) + tf.tanh(tf.matmul(states[0], self.recurrent_kernel))
            return output, [output]

    layer = keras.layers.RNN(MinimalRNNCell(3), return_sequences=True, go_backwards=True)
    x = tf.constant(rng.standard_normal(case.shape).astype("float32"))
    layer(x)
    layer.set_weights(_weights(layer, rng))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = layer(x)
        loss = tf.reduce_sum(y * tf.constant(rng.standard_normal(tuple(y.shape)).astype("float32")))
    grads = tape.gradient(loss, [x] + list(layer.trainable_weights))
    return {"y": _arr(y), "grads": [_arr(g) for g in grads], "names": [w.path for w in layer.weights]}


def run_model_config(tf: Any, case: Case, rng: np.random.Generator) -> dict[str, Any]:
    """A Sequential with the layer: the layer's entry in the model's get_config (JSON; the
    "build_config" entries left out: simdist's serialization does not write them yet) and whether
    Sequential.from_config of it, given the same weights, computes the same outputs."""
    model = _model(tf, case)
    model.set_weights(_weights(model, rng))
    again = tf.keras.Sequential.from_config(model.get_config())
    again.set_weights(model.get_weights())
    x = tf.constant(_tokens(rng, 3, 6, 9))
    def strip(c: Any) -> Any:
        if isinstance(c, dict):
            return {k: strip(v) for k, v in c.items() if k != "build_config"}
        return [strip(v) for v in c] if isinstance(c, list) else c
    entry = strip(model.get_config()["layers"][2])
    return {"config": json.dumps(entry, sort_keys=True, default=str),
            "same_outputs": bool(np.allclose(_arr(model(x)), _arr(again(x)), rtol=1e-6, atol=1e-7))}


def run(tf: Any, case: Case) -> Any:
    tf.keras.backend.clear_session()
    rng = np.random.default_rng(_seed(case))
    try:
        if case.program == "construct":
            build(tf, case.spec)
            return {"constructed": True}
        if case.program == "config":
            return run_config(tf, case)
        if case.program == "initial_state":
            return run_initial_state(tf, case, rng)
        if case.program == "custom_cell":
            return run_custom_cell(tf, case, rng)
        if case.program == "model_config":
            return run_model_config(tf, case, rng)
        if case.program == "symbolic":
            out = build(tf, case.spec)(tf.keras.Input(case.shape[1:], batch_size=case.shape[0]))
            return {"shapes": [tuple(o.shape) for o in _flat(out)]}
        if case.program == "masked_model":
            return run_masked_model(tf, case, rng)
        if case.program == "fit":
            return run_fit(tf, case, rng)
        if case.program == "custom_loop":
            return run_custom_loop(tf, case, rng)
        if case.program == "functional_mask":
            return run_functional_mask(tf, case, rng)
        if case.program == "merge_masks":
            return run_merge_masks(tf, case, rng)
        if case.program == "weights_file":
            return run_weights_file(tf, case, rng)
        return run_layer(tf, case, rng)
    except Exception as e:  # noqa: BLE001 - the error is part of the result
        return ("error", type(e).__name__, _first_line(str(e)), _wrapped(str(e)))


def _lstm(**kw: Any) -> tuple:
    return ("LSTM", tuple(kw.items()))


def _gru(**kw: Any) -> tuple:
    return ("GRU", tuple(kw.items()))


def _simple(**kw: Any) -> tuple:
    return ("SimpleRNN", tuple(kw.items()))


def _bi(layer: tuple, **kw: Any) -> tuple:
    return ("Bidirectional", (("layer", layer),) + tuple(kw.items()))


def _cases() -> list[Case]:
    return [
        # the layers, forward and backward
        Case("simple-last", LAYERS, _simple(units=4)),
        Case("simple-seq-relu-nobias", LAYERS, _simple(units=3, activation="relu", use_bias=False,
                                                       return_sequences=True)),
        Case("simple-state-backwards", LAYERS, _simple(units=4, return_state=True, go_backwards=True)),
        Case("lstm-last", LAYERS, _lstm(units=4)),
        Case("lstm-seq-state", LAYERS, _lstm(units=3, return_sequences=True, return_state=True)),
        Case("lstm-backwards-seq", LAYERS, _lstm(units=3, go_backwards=True, return_sequences=True)),
        Case("lstm-nobias-no-forget-bias", LAYERS, _lstm(units=2, use_bias=False, unit_forget_bias=False)),
        Case("lstm-relu-hard-sigmoid", LAYERS, _lstm(units=3, activation="relu",
                                                     recurrent_activation="hard_sigmoid", return_sequences=True)),
        Case("lstm-implementation1", LAYERS, _lstm(units=3, implementation=1, return_sequences=True)),
        Case("lstm-unroll", LAYERS, _lstm(units=3, unroll=True, return_state=True)),
        Case("gru-last", LAYERS, _gru(units=4)),
        Case("gru-seq-state", LAYERS, _gru(units=3, return_sequences=True, return_state=True)),
        Case("gru-reset-before", LAYERS, _gru(units=3, reset_after=False, return_sequences=True)),
        Case("gru-reset-before-nobias-backwards", LAYERS, _gru(units=3, reset_after=False, use_bias=False,
                                                               go_backwards=True)),
        Case("gru-implementation1", LAYERS, _gru(units=3, implementation=1, return_state=True)),
        Case("rnn-lstmcell", LAYERS, ("RNN", (("cell", ("LSTMCell", (("units", 3),))), ("return_sequences", True)))),
        Case("rnn-grucell-state", LAYERS, ("RNN", (("cell", ("GRUCell", (("units", 2), ("reset_after", False)))),
                                                   ("return_state", True)))),
        Case("rnn-simplecell-backwards", LAYERS, ("RNN", (("cell", ("SimpleRNNCell", (("units", 3),))),
                                                          ("go_backwards", True), ("return_sequences", True)))),
        Case("rnn-user-cell", LAYERS, program="custom_cell"),
        # initial states
        Case("init-lstm-seq", LAYERS, _lstm(units=3, return_sequences=True), program="initial_state",
             mask_states=(2, 3)),
        Case("init-gru-state", LAYERS, _gru(units=2, return_state=True), program="initial_state", mask_states=(1, 2)),
        Case("init-bi-lstm", BI, _bi(_lstm(units=2)), program="initial_state", mask_states=(4, 2)),
        # explicit masks
        Case("mask-lstm-seq", MASK, _lstm(units=3, return_sequences=True), mask=True),
        Case("mask-lstm-last-state", MASK, _lstm(units=3, return_state=True), mask=True),
        Case("mask-gru-backwards-seq", MASK, _gru(units=3, go_backwards=True, return_sequences=True), mask=True),
        Case("mask-simple-zero-output", MASK, ("RNN", (("cell", ("SimpleRNNCell", (("units", 3),))),
                                                       ("return_sequences", True), ("zero_output_for_mask", True))),
             mask=True),
        Case("mask-bi-lstm-seq", MASK, _bi(_lstm(units=2, return_sequences=True)), mask=True),
        Case("mask-bi-gru-last-sum", MASK, _bi(_gru(units=3), merge_mode="sum"), mask=True),
        # masks from Embedding(mask_zero=True) and Masking, through a Sequential
        Case("embed-lstm-last", MASK, _lstm(units=3), shape=("embedding",), program="masked_model"),
        Case("embed-gru-seq", MASK, _gru(units=3, return_sequences=True), shape=("embedding",),
             program="masked_model"),
        Case("embed-bi-lstm-seq", MASK, _bi(_lstm(units=2, return_sequences=True), merge_mode="ave"),
             shape=("embedding",), program="masked_model"),
        Case("masking-simple-seq", MASK, _simple(units=3, return_sequences=True), shape=("masking", 0.0),
             program="masked_model"),
        Case("masking-value-gru", MASK, _gru(units=2), shape=("masking", -1.0), program="masked_model"),
        Case("functional-mask-argument", MASK, _gru(units=3, return_sequences=True), program="functional_mask"),
        Case("merge-add-concatenate-masks", MASK, _gru(units=3), program="merge_masks"),
        Case("embed-dense-keeps-mask", MASK, ("Dense", (("units", 2),)), shape=("embedding",),
             program="masked_model"),
        # Bidirectional
        Case("bi-lstm-concat", BI, _bi(_lstm(units=3))),
        Case("bi-lstm-seq-sum", BI, _bi(_lstm(units=2, return_sequences=True), merge_mode="sum")),
        Case("bi-gru-seq-mul", BI, _bi(_gru(units=2, return_sequences=True), merge_mode="mul")),
        Case("bi-gru-seq-none", BI, _bi(_gru(units=2, return_sequences=True), merge_mode=None)),
        Case("bi-simple-ave-state", BI, _bi(_simple(units=3, return_state=True), merge_mode="ave")),
        Case("bi-lstm-state-concat", BI, _bi(_lstm(units=2, return_state=True))),
        Case("bi-backward-layer", BI, _bi(_lstm(units=2, return_sequences=True),
                                          backward_layer=_gru(units=2, return_sequences=True, go_backwards=True))),
        # configs
        Case("config-simple", CONFIG, _simple(units=3, activation="relu", dropout=0.25, return_sequences=True)),
        Case("config-lstm", CONFIG, _lstm(units=4, go_backwards=True, unit_forget_bias=False, seed=3)),
        Case("config-gru", CONFIG, _gru(units=4, reset_after=False, return_state=True)),
        Case("config-rnn-cell", CONFIG, ("RNN", (("cell", ("LSTMCell", (("units", 3),))), ("unroll", True)))),
        Case("config-cell", CONFIG, ("GRUCell", (("units", 3), ("recurrent_dropout", 0.5)))),
        Case("config-bidirectional", CONFIG, _bi(_lstm(units=3, return_sequences=True), merge_mode="sum")),
        Case("config-masking", CONFIG, ("Masking", (("mask_value", -1.0),))),
        Case("config-embedding-mask-zero", CONFIG, ("Embedding", (("input_dim", 5), ("output_dim", 2),
                                                                  ("mask_zero", True)))),
        Case("model-config-bi-lstm", "keras.rnn.config-model", _bi(_lstm(units=3), merge_mode="ave"),
             program="model_config"),
        Case("model-config-gru", "keras.rnn.config-model", _gru(units=2, reset_after=False), program="model_config"),
        # symbolic calls
        Case("sym-lstm-seq-state", SYM, _lstm(units=3, return_sequences=True, return_state=True), shape=(None, 7, 2)),
        Case("sym-gru-last", SYM, _gru(units=5), shape=(4, 7, 2)),
        Case("sym-bi-none-state", SYM, _bi(_lstm(units=3, return_state=True), merge_mode=None), shape=(2, 7, 2)),
        Case("sym-bi-concat-seq", SYM, _bi(_gru(units=3, return_sequences=True)), shape=(2, 7, 2)),
        # argument errors
        Case("err-lstm-units-0", ARGS, _lstm(units=0), program="construct"),
        Case("err-gru-use-cudnn", ARGS, _gru(units=2, use_cudnn="yes"), program="construct"),
        Case("err-lstm-use-cudnn-true-cpu", ARGS, _lstm(units=2, use_cudnn=True)),
        Case("err-bi-merge-mode", ARGS, _bi(_lstm(units=2), merge_mode="max"), program="construct"),
        Case("err-bi-same-direction", ARGS, _bi(_lstm(units=2), backward_layer=_lstm(units=2)), program="construct"),
        Case("err-bi-not-a-layer", ARGS, ("Bidirectional", (("layer", 3),)), program="construct"),
        Case("err-lstm-rank2-input", ARGS, _lstm(units=2), shape=(2, 3)),
        # training
        Case("fit-lstm-default", FIT, _lstm(units=4), program="fit", rtol=1e-4),
        Case("fit-gru-mirrored2", FIT, _gru(units=4), program="fit", strategy="mirrored2", rtol=1e-4),
        Case("fit-bi-lstm-central2", FIT, _bi(_lstm(units=3)), program="fit", strategy="central2", rtol=1e-4),
        Case("fit-simple-mirrored2", FIT, _simple(units=4), program="fit", strategy="mirrored2", rtol=1e-4),
        Case("fit-bi-gru-default", FIT, _bi(_gru(units=2, reset_after=False), merge_mode="sum"), program="fit",
             rtol=1e-4),
        Case("loop-lstm-mirrored2", FIT, _lstm(units=3), program="custom_loop", strategy="mirrored2", rtol=1e-4),
        Case("file-lstm", FILES, _lstm(units=3, return_sequences=True), program="weights_file"),
        Case("file-bi-gru", FILES, _bi(_gru(units=2)), program="weights_file"),
        Case("file-rnn-simplecell", FILES, ("RNN", (("cell", ("SimpleRNNCell", (("units", 2),))),)),
             program="weights_file"),
        Case("loop-gru-central2", FIT, _gru(units=3, return_sequences=False), program="custom_loop",
             strategy="central2", rtol=1e-4),
        # ParameterServerStrategy: custom loops train (variables on the ps), fit is refused
        Case("loop-lstm-pss", PSS, _lstm(units=3), program="custom_loop", strategy="pss", rtol=1e-4),
        Case("loop-gru-pss", PSS, _gru(units=3), program="custom_loop", strategy="pss", rtol=1e-4),
        Case("loop-bi-simple-pss", PSS, _bi(_simple(units=2)), program="custom_loop", strategy="pss", rtol=1e-4),
        Case("fit-lstm-pss-refused", PSS, _lstm(units=4), program="fit", strategy="pss"),
    ]


def _program(case: Case) -> Case:
    """Config and symbolic cases run their program (by clause)."""
    from dataclasses import replace
    if case.clause == "keras.rnn.config-model":
        return replace(case, clause=CONFIG)
    return replace(case, program={CONFIG: "config", SYM: "symbolic"}.get(case.clause, case.program))


CASES = [_program(c) for c in _cases()]
assert len({c.name for c in CASES}) == len(CASES), "duplicate case names"


tf_results = tf_cases.results_fixture(__file__, CASES)


def _check(index: int, tf_results: dict[int, Any]) -> None:
    tf_cases.check(CASES, run, index, tf_results)


def _params(clause: str) -> list[Any]:
    return tf_cases.params(CASES, clause)


@pytest.mark.clause("keras.rnn.layers")
@pytest.mark.parametrize("index", _params(LAYERS))
def test_recurrent_layers(index: int, tf_results: dict[int, Any]) -> None:
    _check(index, tf_results)


@pytest.mark.clause("keras.rnn.bidirectional")
@pytest.mark.parametrize("index", _params(BI))
def test_bidirectional(index: int, tf_results: dict[int, Any]) -> None:
    _check(index, tf_results)


@pytest.mark.clause("keras.mask.propagation")
@pytest.mark.parametrize("index", _params(MASK))
def test_masks(index: int, tf_results: dict[int, Any]) -> None:
    _check(index, tf_results)


@pytest.mark.clause("keras.rnn.config")
@pytest.mark.parametrize("index", _params(CONFIG))
def test_configs(index: int, tf_results: dict[int, Any]) -> None:
    _check(index, tf_results)


@pytest.mark.clause("keras.rnn.symbolic")
@pytest.mark.parametrize("index", _params(SYM))
def test_output_shapes(index: int, tf_results: dict[int, Any]) -> None:
    _check(index, tf_results)


@pytest.mark.clause("keras.rnn.arguments")
@pytest.mark.parametrize("index", _params(ARGS))
def test_argument_errors(index: int, tf_results: dict[int, Any]) -> None:
    want = tf_results[index]
    assert isinstance(want, tuple) and want[0] == "error", f"{CASES[index].name}: TF 2.21 raised nothing ({want!r})"
    _check(index, tf_results)


@pytest.mark.clause("keras.rnn.fit")
@pytest.mark.parametrize("index", _params(FIT))
def test_training_under_strategies(index: int, tf_results: dict[int, Any]) -> None:
    _check(index, tf_results)


@pytest.mark.clause("keras.rnn.weight-files")
@pytest.mark.parametrize("index", _params(FILES))
def test_weight_files_load_both_ways(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    """TF's .weights.h5 loads into simdist's model and gives TF's output; simdist's own file
    has the same datasets (paths, shapes, order) as TF's, so TF loads it too."""
    import simdist
    from simdist import tf
    simdist.reset()
    case, want = CASES[index], tf_results[index]
    assert isinstance(want, dict), f"{case.name}: TF 2.21 failed: {want!r}"
    model = tf.keras.Sequential([tf.keras.Input(case.shape[1:]), build(tf, case.spec), tf.keras.layers.Dense(2)])
    theirs = tmp_path / "tf.weights.h5"
    theirs.write_bytes(want["file"])
    model.load_weights(str(theirs))
    assert_same(_arr(model(tf.constant(want["x"]))), want["y"], f"{case.name}: output after loading TF's file")
    ours = tmp_path / "simdist.weights.h5"
    model.save_weights(str(ours))
    assert _h5_layout(str(ours)) == want["layout"], \
        f"{case.name}: simdist writes {_h5_layout(str(ours))}, but TF 2.21 writes {want['layout']}"


@pytest.mark.clause("keras.rnn.pss")
@pytest.mark.parametrize("index", _params(PSS))
def test_parameter_server_custom_loops_and_refused_fit(index: int, tf_results: dict[int, Any]) -> None:
    _check(index, tf_results)


def test_pss_refusal_is_tf_own(tf_results: dict[int, Any]) -> None:
    """The refused-fit case is only meaningful if TF 2.21 + Keras 3 itself refused."""
    want = tf_results[next(i for i, c in enumerate(CASES) if c.name == "fit-lstm-pss-refused")]
    assert isinstance(want, tuple) and want[0] == "error" and want[1] == "ValueError", \
        f"TF 2.21 + Keras 3 now gives {str(want)[:300]} for fit under ParameterServerStrategy: update keras.rnn.pss"


def test_every_case_is_checked_under_its_clause() -> None:
    stray = sorted({c.clause for c in CASES} - {LAYERS, BI, MASK, CONFIG, SYM, ARGS, FIT, FILES, PSS})
    assert not stray, f"cases under clauses {stray} have no test function: add one"


if __name__ == "__main__":  # TF worker
    import os
    tf_workers.serve(tf_cases.worker(CASES, run))
    os._exit(0)  # (in-process servers and coordinator threads never shut down cleanly)
