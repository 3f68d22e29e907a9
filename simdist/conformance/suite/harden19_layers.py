"""The layer programs of ``test_harden19_defaults_layers.py``: every value-computing layer of
tf.keras built with only its required arguments (defaults everywhere else), its weights set from a
seeded NumPy generator (so values never depend on an initializer), called on inputs at two scales
(typical ~1 and tiny ~1e-3, where epsilons and thresholds show; index layers on indices), with
training=False and, where it differs deterministically, training=True: the outputs and the
gradient of sum(output * fixed random weights) w.r.t. the float inputs and the trainable weights.

The same functions run on the backend under test and, by the recorder
(``python -m simdist.conformance.suite.harden19_record``), on real TF 2.21 + Keras 3.15, whose
results are the expected values. Nothing here imports TensorFlow.
"""

from __future__ import annotations

import zlib
from typing import Any

import numpy as np

from simdist.conformance.suite import harden16_configs

#: keras.utils.set_random_seed's seed before each layer is built: its default initializers' draws are TF's.
INIT_SEED = 1919

#: The two input scales: typical, and tiny (1e-3: a variance ~1e-6 is where epsilons 1e-3..1e-7 show).
SCALES = {"typical": 1.0, "tiny": 1e-3}

_DENSE2 = {"obj": "layers", "class_name": "Dense", "config": {"units": 2, "name": "h19_inner"}}
_LSTM2 = {"obj": "layers", "class_name": "LSTM", "config": {"units": 2, "name": "h19_inner"}}
_CELL2 = {"obj": "layers", "class_name": "SimpleRNNCell", "config": {"units": 2, "name": "h19_cell"}}


def _c(cls: str, kwargs: dict[str, Any] | None = None, inputs: list | None = None, **opts: Any) -> dict[str, Any]:
    """One case: the class, its required kwargs, the inputs [(shape, kind)], options:
    call ("single", "list" one list argument, "args" positional, "cell" (x, states)),
    grad (differentiate; default True), train (also call with training=True; default False),
    scales (default both; index inputs have one)."""
    case = {"cls": cls, "kwargs": kwargs or {}, "inputs": inputs or [([2, 5], "float")],
            "call": opts.get("call", "single"), "grad": opts.get("grad", True), "train": opts.get("train", False)}
    if "scales" in opts:
        case["scales"] = opts["scales"]
    return case


#: The attention layers with projections run at the typical scale only: on inputs ~1e-3 their scores
#: are ~1e-6 apart, the softmax's gradient is a cancellation, and float32 gets it wrong by ~50% on
#: both TF and simdist (float64 shows it); they have no epsilon or threshold to show there.
_TYPICAL = ("typical",)


#: Every keras.activations function by name, each at its defaults (threshold has required arguments).
ACTIVATIONS = ("celu", "elu", "exponential", "gelu", "glu", "hard_shrink", "hard_sigmoid", "hard_silu", "hard_swish",
               "hard_tanh", "leaky_relu", "linear", "log_sigmoid", "log_softmax", "mish", "relu", "relu6", "selu",
               "sigmoid", "silu", "soft_shrink", "softmax", "softplus", "softsign", "sparse_plus", "sparse_sigmoid",
               "sparsemax", "squareplus", "swish", "tanh", "tanh_shrink")
_IMG = [([2, 4, 4, 3], "unit")]
_SEQ = [([2, 4, 3], "float")]
#: name -> case. Input kinds: float (uniform(-1, 1) x scale), unit (uniform(0, 1) x scale, images),
#: masked (float with whole time steps zero), index:N (ints in [0, N)), pos (uniform(0.5, 1.5) x scale).
LAYER_CASES: dict[str, dict[str, Any]] = {
    # activations and elementwise
    "Activation": _c("Activation", {"activation": "tanh"}),
    **{f"Activation[{a}]": _c("Activation", {"activation": a}, [([2, 6], "float2")]) for a in ACTIVATIONS},
    "ReLU": _c("ReLU"), "LeakyReLU": _c("LeakyReLU"), "ELU": _c("ELU"), "PReLU": _c("PReLU"),
    "Softmax": _c("Softmax"), "ThresholdedReLU": _c("ThresholdedReLU", {}, [([2, 5], "float2")]),
    # core
    "Dense": _c("Dense", {"units": 3}, [([2, 4], "float")]),
    "EinsumDense": _c("EinsumDense", {"equation": "ab,bc->ac", "output_shape": 4}, [([2, 3], "float")]),
    "Embedding": _c("Embedding", {"input_dim": 7, "output_dim": 5}, [([2, 3], "index:7")]),
    "ReversibleEmbedding": _c("ReversibleEmbedding", {"input_dim": 7, "output_dim": 5}, [([2, 3], "index:7")]),
    "Masking": _c("Masking", {}, [([2, 3, 4], "masked")]),
    "ActivityRegularization": _c("ActivityRegularization"),
    "Rescaling": _c("Rescaling", {"scale": 0.5}, _IMG),
    # convolutions
    "Conv1D": _c("Conv1D", {"filters": 4, "kernel_size": 2}, [([2, 5, 3], "float")]),
    "Conv2D": _c("Conv2D", {"filters": 4, "kernel_size": 2}, [([2, 4, 4, 3], "float")]),
    "Conv3D": _c("Conv3D", {"filters": 3, "kernel_size": 2}, [([2, 3, 3, 3, 2], "float")]),
    "Conv1DTranspose": _c("Conv1DTranspose", {"filters": 4, "kernel_size": 2}, [([2, 5, 3], "float")]),
    "Conv2DTranspose": _c("Conv2DTranspose", {"filters": 4, "kernel_size": 2}, [([2, 3, 3, 3], "float")]),
    "Conv3DTranspose": _c("Conv3DTranspose", {"filters": 3, "kernel_size": 2}, [([2, 2, 3, 3, 2], "float")]),
    "SeparableConv1D": _c("SeparableConv1D", {"filters": 4, "kernel_size": 2}, [([2, 5, 3], "float")]),
    "SeparableConv2D": _c("SeparableConv2D", {"filters": 4, "kernel_size": 2}, [([2, 4, 4, 3], "float")]),
    "DepthwiseConv1D": _c("DepthwiseConv1D", {"kernel_size": 2}, [([2, 5, 3], "float")]),
    "DepthwiseConv2D": _c("DepthwiseConv2D", {"kernel_size": 2}, [([2, 4, 4, 3], "float")]),
    # recurrent
    "SimpleRNN": _c("SimpleRNN", {"units": 3}, _SEQ), "GRU": _c("GRU", {"units": 3}, _SEQ),
    "LSTM": _c("LSTM", {"units": 3}, _SEQ),
    "SimpleRNNCell": _c("SimpleRNNCell", {"units": 3}, [([2, 4], "float"), ([2, 3], "float")], call="cell"),
    "GRUCell": _c("GRUCell", {"units": 3}, [([2, 4], "float"), ([2, 3], "float")], call="cell"),
    "LSTMCell": _c("LSTMCell", {"units": 3}, [([2, 4], "float"), ([2, 3], "float"), ([2, 3], "float")], call="cell"),
    "RNN": _c("RNN", {"cell": _CELL2}, _SEQ),
    "Bidirectional": _c("Bidirectional", {"layer": _LSTM2}, _SEQ),
    "TimeDistributed": _c("TimeDistributed", {"layer": _DENSE2}, [([2, 3, 4], "float")]),
    "ConvLSTM1D": _c("ConvLSTM1D", {"filters": 2, "kernel_size": 2}, [([2, 3, 4, 2], "float")]),
    "ConvLSTM2D": _c("ConvLSTM2D", {"filters": 2, "kernel_size": 2}, [([2, 2, 3, 3, 2], "float")]),
    "ConvLSTM3D": _c("ConvLSTM3D", {"filters": 2, "kernel_size": 2}, [([2, 2, 3, 3, 2, 1], "float")]),
    # normalization
    "BatchNormalization": _c("BatchNormalization", {}, [([4, 3], "float")], train=True),
    "LayerNormalization": _c("LayerNormalization"),
    "GroupNormalization": _c("GroupNormalization", {}, [([2, 2, 32], "float")]),
    "RMSNormalization": _c("RMSNormalization"),
    "UnitNormalization": _c("UnitNormalization"),
    "SpectralNormalization": _c("SpectralNormalization", {"layer": _DENSE2}, [([2, 4], "float")], train=True),
    # pooling
    **{f"{p}Pooling{r}D": _c(f"{p}Pooling{r}D", {"pool_size": 2} if p == "Average" else {}, [(s, "float")])
       for p in ("Max", "Average", "GlobalMax", "GlobalAverage")
       for r, s in ((1, [2, 6, 2]), (2, [2, 4, 4, 2]), (3, [2, 4, 4, 4, 1]))},
    **{f"Adaptive{p}Pooling{r}D": _c(f"Adaptive{p}Pooling{r}D", {"output_size": 2}, [(s, "float")])
       for p in ("Max", "Average") for r, s in ((1, [2, 5, 2]), (2, [2, 5, 4, 2]), (3, [2, 5, 4, 3, 1]))},
    # merging
    **{m: _c(m, {}, [([2, 4], "float"), ([2, 4], "float")], call="list")
       for m in ("Add", "Subtract", "Multiply", "Average", "Maximum", "Minimum", "Concatenate")},
    "Dot": _c("Dot", {"axes": 1}, [([2, 4], "float"), ([2, 4], "float")], call="list"),
    # attention
    "Attention": _c("Attention", {}, [([2, 3, 4], "float"), ([2, 5, 4], "float")], call="list"),
    "AdditiveAttention": _c("AdditiveAttention", {}, [([2, 3, 4], "float"), ([2, 5, 4], "float")], call="list",
                            scales=_TYPICAL),
    "MultiHeadAttention": _c("MultiHeadAttention", {"num_heads": 2, "key_dim": 3},
                             [([2, 3, 4], "float"), ([2, 5, 4], "float")], call="args", scales=_TYPICAL),
    "GroupQueryAttention": _c("GroupQueryAttention", {"head_dim": 3, "num_query_heads": 4, "num_key_value_heads": 2},
                              [([2, 3, 4], "float"), ([2, 5, 4], "float")], call="args", scales=_TYPICAL),
    # regularization layers (inference: deterministic)
    **{d: _c(d, {"rate": 0.3}, [(s, "float")])
       for d, s in (("Dropout", [2, 5]), ("AlphaDropout", [2, 5]), ("GaussianDropout", [2, 5]),
                    ("SpatialDropout1D", [2, 3, 2]), ("SpatialDropout2D", [2, 3, 3, 2]),
                    ("SpatialDropout3D", [2, 2, 2, 2, 2]))},
    "GaussianNoise": _c("GaussianNoise", {"stddev": 0.4}),
    # preprocessing (not differentiated)
    "Resizing": _c("Resizing", {"height": 4, "width": 5}, [([2, 3, 3, 2], "unit")], grad=False),
    "CenterCrop": _c("CenterCrop", {"height": 2, "width": 3}, [([2, 4, 5, 2], "unit")], grad=False),
    "RandomCrop": _c("RandomCrop", {"height": 2, "width": 3}, [([2, 4, 5, 2], "unit")], grad=False),
    **{r: _c(r, kw, _IMG, grad=False)
       for r, kw in (("RandomFlip", {}), ("RandomRotation", {"factor": 0.2}), ("RandomZoom", {"height_factor": 0.2}),
                     ("RandomTranslation", {"height_factor": 0.1, "width_factor": 0.2}),
                     ("RandomContrast", {"factor": 0.3}), ("RandomBrightness", {"factor": 0.3}),
                     ("RandomHeight", {"factor": 0.3}), ("RandomWidth", {"factor": 0.3}),
                     ("RandomHue", {"factor": 0.3}), ("RandomSaturation", {"factor": 0.3}),
                     ("RandomGrayscale", {}), ("RandomInvert", {}), ("Solarization", {}), ("AutoContrast", {}),
                     ("MixUp", {}), ("CutMix", {}))},
    "CategoryEncoding": _c("CategoryEncoding", {"num_tokens": 6}, [([2, 3], "index:6")], grad=False),
    "Hashing": _c("Hashing", {"num_bins": 5}, [([2, 3], "index:50")], grad=False),
    "HashedCrossing": _c("HashedCrossing", {"num_bins": 5}, [([3], "index:9"), ([3], "index:9")], call="tuple",
                         grad=False),
    "Discretization": _c("Discretization", {"bin_boundaries": [0.0, 0.5]}, grad=False),
    "IntegerLookup": _c("IntegerLookup", {"vocabulary": [4, 5, 6]}, [([2, 3], "index:8")], grad=False),
    "Normalization": _c("Normalization", {"mean": 0.5, "variance": 1e-16}),
}

#: Layers not run, with the reason: they move or copy values (their shapes are harden16's), or need
#: a vocabulary of strings or an adapt() to compute anything.
STRUCTURAL: dict[str, str] = {
    **{n: "moves values only (shapes: harden16)" for n in (
        "Flatten", "Reshape", "Permute", "RepeatVector", "Identity", "Cropping1D", "Cropping2D", "Cropping3D",
        "ZeroPadding1D", "ZeroPadding2D", "ZeroPadding3D", "UpSampling1D", "UpSampling2D", "UpSampling3D")},
    "StackedRNNCells": "a container of cells (run inside RNN)",
    "StringLookup": "string inputs (the backends' string tensors differ in kind, not value)",
    "TextVectorization": "string inputs (the backends' string tensors differ in kind, not value)",
}


def _seed(name: str, salt: int = 0) -> int:
    return zlib.crc32(f"{name}/{salt}".encode())


def make_input(shape: list[int], kind: str, scale: float, seed: int) -> np.ndarray:
    """One seeded input of a kind, at a scale."""
    rng = np.random.default_rng(seed)
    if kind.startswith("index:"):
        return rng.integers(0, int(kind[6:]), shape).astype(np.int64)
    if kind == "unit":
        return (rng.uniform(0.0, 1.0, shape) * scale).astype(np.float32)
    if kind == "float2":   # around the thresholds 0 and 1 (ThresholdedReLU's theta is 1.0)
        return (rng.uniform(-2.0, 2.0, shape) * scale).astype(np.float32)
    x = (rng.uniform(-1.0, 1.0, shape) * scale).astype(np.float32)
    if kind == "masked":   # whole time steps of zeros (Masking's mask_value 0.0)
        x[0, 1, :] = 0.0
        x[1, 0, :] = 0.0
        x[1, 2, 0] = 0.0   # one zero alone: the step stays unmasked
    return x


def build_layer(keras: Any, case: dict[str, Any]) -> Any:
    return harden16_configs.build(keras, {"namespace": "layers", "class": case["cls"], "kwargs": case["kwargs"]})


def seed_weights(layer: Any, seed: int) -> list[list]:
    """Every float weight of the layer set from a seeded generator (variances positive); returns
    [name, shape] of each weight in order."""
    rng = np.random.default_rng(seed)
    seen = []
    for w in layer.weights:
        shape = [int(d) for d in w.shape]
        dtype = np.dtype(getattr(w.dtype, "name", str(w.dtype)))
        seen.append([w.name, shape])
        if dtype.kind != "f":
            continue
        if "variance" in w.name:
            value = rng.uniform(0.5, 1.5, shape)
        else:
            value = rng.uniform(-0.5, 0.5, shape)
        w.assign(value.astype(dtype))
    return seen


def _flat(y: Any) -> list:
    if isinstance(y, (list, tuple)):
        return [t for e in y for t in _flat(e)]
    if isinstance(y, dict):
        return [t for k in sorted(y) for t in _flat(y[k])]
    return [y]


def _call(layer: Any, case: dict[str, Any], xs: list, training: bool) -> Any:
    how = case["call"]
    if how == "single":
        return layer(xs[0], training=training)
    if how == "list":
        return layer(list(xs), training=training)
    if how == "tuple":
        return layer(tuple(xs))
    if how == "args":
        return layer(*xs, training=training)
    return layer(xs[0], list(xs[1:]), training=training)   # a cell: (inputs, states)


def _array(t: Any) -> np.ndarray:
    return np.asarray(t.numpy() if hasattr(t, "numpy") else t)


def _observe_call(tf: Any, layer: Any, case: dict[str, Any], name: str, arrays: list, training: bool) -> dict:
    xs = [tf.constant(a) for a in arrays]
    floats = [x for x, a in zip(xs, arrays) if a.dtype.kind == "f"] if case["grad"] else []
    if not case["grad"]:
        ys = _flat(_call(layer, case, xs, training))
        return {"outputs": [[str(_array(y).dtype), _array(y).tolist()] for y in ys]}
    with tf.GradientTape() as tape:
        for x in floats:
            tape.watch(x)
        ys = _flat(_call(layer, case, xs, training))
        total = None
        for i, y in enumerate(ys):
            w = np.random.default_rng(_seed(name, 100 + i)).uniform(-1.0, 1.0, tuple(y.shape)).astype(np.float32)
            term = tf.reduce_sum(tf.cast(y, "float32") * tf.constant(w))
            total = term if total is None else total + term
    weights = list(layer.trainable_weights)
    grads = tape.gradient(total, floats + weights)
    out: dict[str, Any] = {"outputs": [[str(_array(y).dtype), _array(y).tolist()] for y in ys]}
    out["grad_inputs"] = [None if g is None else _array(g).tolist() for g in grads[:len(floats)]]
    out["grad_weights"] = [[w.name, None if g is None else _array(tf.convert_to_tensor(g)).tolist()]
                           for w, g in zip(weights, grads[len(floats):])]
    return out


def observe_layer(tf: Any, name: str) -> dict[str, Any]:
    """The layer's weights' names and shapes, then per scale and training mode its outputs and
    gradients, its losses (ActivityRegularization) and finally its weights (BatchNormalization's
    moving statistics after the training calls)."""
    case = LAYER_CASES[name]
    tf.keras.backend.clear_session()
    tf.keras.utils.set_random_seed(INIT_SEED)
    layer = build_layer(tf.keras, case)
    first = [make_input(s, k, 1.0, _seed(name, i)) for i, (s, k) in enumerate(case["inputs"])]
    _call(layer, case, [tf.constant(a) for a in first], False)   # builds it
    initial = [a.tolist() if a.dtype.kind == "f" else None for a in map(_array, layer.weights)]
    out: dict[str, Any] = {"weights": seed_weights(layer, _seed(name, 50)), "initial_weights": initial}
    scales = ["typical"] if all(k.startswith("index:") for _, k in case["inputs"]) else case.get("scales", list(SCALES))
    for scale in scales:
        arrays = [make_input(s, k, SCALES[scale], _seed(name, i)) for i, (s, k) in enumerate(case["inputs"])]
        for training in ((False, True) if case["train"] else (False,)):
            key = f"{scale}/{'train' if training else 'infer'}"
            out[key] = _observe_call(tf, layer, case, name, arrays, training)
            if name == "ActivityRegularization":
                out[key]["losses"] = [_array(v).tolist() for v in layer.losses]
    out["final_weights"] = [a.tolist() if a.dtype.kind == "f" else None for a in map(_array, layer.weights)]
    return out
