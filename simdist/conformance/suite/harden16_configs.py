"""The config round-trip cases of ``test_harden16_configs.py``: every Keras class simdist ships,
built with a non-default value for each constructor argument TF 2.21's Keras accepts.

The cases are generated once, against real TF 2.21 + Keras 3.15 (``python -m
simdist.conformance.suite.harden16_record``): for each class the generator reads the constructor's
signature, proposes a distinct non-default value per argument (by the argument's name, else by its
default's type: a bool flipped, a number moved by a per-argument offset, so that a field written
from another argument shows), keeps the arguments TF accepts one by one, and records the kwargs
(encoded below) with TF's ``get_config()`` of the object. The suite builds the same kwargs on its
backend and compares. Nothing here imports TensorFlow.
"""

from __future__ import annotations

import inspect
from typing import Any, Callable

#: The namespaces of tf.keras enumerated, with the kind of object each holds.
NAMESPACES = ("layers", "losses", "metrics", "optimizers", "optimizers.schedules", "initializers",
              "regularizers", "constraints")

#: Classes not round-tripped, with the reason (abstract bases, wrappers needing another object,
#: aliases of a class enumerated under its own name are dropped automatically).
SKIP: dict[str, str] = {
    "layers.Layer": "abstract base", "layers.InputSpec": "not a layer", "layers.Wrapper": "abstract base",
    "layers.Lambda": "config holds a Python function's bytecode",
    "layers.Pipeline": "its config is its layers' serialized configs (test_klayers21.py::test_klayers21_pipeline)",
    "layers.RandomShear": "Keras 3.15's from_config refuses its own config (x_factor kept as (-f, f), checked "
                          "against [0, 1]: TypeError on TF 2.21 and on simdist alike; tests/keras/test_klayers21_tf.py)",
    "layers.InputLayer": "built by keras.Input; its config is the input's shape",
    "losses.Loss": "abstract base", "losses.LossFunctionWrapper": "wraps a function",
    "losses.Reduction": "an enum, not a loss",
    "metrics.Metric": "abstract base", "metrics.MeanMetricWrapper": "wraps a function",
    "optimizers.Optimizer": "abstract base", "optimizers.LossScaleOptimizer": "wraps an optimizer",
    "optimizers.MultiOptimizer": "wraps optimizers", "optimizers.OptimizerMap": "not an optimizer",
    "optimizers.schedules.LearningRateSchedule": "abstract base",
    "initializers.Initializer": "abstract base", "initializers.RandomInitializer": "abstract base",
    "regularizers.Regularizer": "abstract base", "constraints.Constraint": "abstract base",
}

#: Required arguments, by name (a class's own entry in REQUIRED_BY_CLASS wins).
REQUIRED: dict[str, Any] = {
    "units": 3, "filters": 4, "kernel_size": 2, "rate": 0.3, "target_shape": [2, 3], "dims": [2, 1],
    "n": 3, "height": 5, "width": 6, "num_heads": 2, "key_dim": 3, "num_query_heads": 4,
    "num_key_value_heads": 2, "head_dim": 3, "input_dim": 7, "output_dim": 5, "stddev": 0.4,
    "equation": "ab,bc->ac", "output_shape": 4, "factor": 0.3, "num_tokens": 6, "num_bins": 4,
    "scale": 0.5, "value": 0.7, "initial_learning_rate": 0.05, "decay_steps": 10, "decay_rate": 0.9,
    "first_decay_steps": 7, "boundaries": [3, 7], "values": [0.3, 0.2, 0.1], "output_size": 2,
    "axes": 1, "max_number": 3, "max_value": 2.5, "threshold": 0.4, "num_classes": 3, "recall": 0.6, "precision": 0.7,
    "specificity": 0.8, "sensitivity": 0.75, "target_class_ids": [0, 2], "groups": 2,
    "value_range": [0.0, 1.0], "pool_size": 2, "hash_bucket_size": 11, "cropping": 1, "padding": 1, "size": 2,
    "lower": 0.2, "upper": 0.6,
}

REQUIRED_BY_CLASS: dict[str, dict[str, Any]] = {
    "layers.RandomCrop": {"height": 2, "width": 3},
    "layers.CenterCrop": {"height": 2, "width": 3},
    "layers.Resizing": {"height": 4, "width": 5},
    "layers.Reshape": {"target_shape": {"tuple": [2, 3]}},
    "layers.Permute": {"dims": {"tuple": [2, 1]}},
    "layers.RandomRotation": {"factor": 0.2},
    "layers.RandomZoom": {"height_factor": 0.2},
    "layers.RandomTranslation": {"height_factor": 0.1, "width_factor": 0.2},
    "layers.RandomContrast": {"factor": 0.3},
    "layers.RandomBrightness": {"factor": 0.3},
    "layers.RandomHeight": {"factor": 0.3},
    "layers.RandomWidth": {"factor": 0.3},
    "layers.RandomHue": {"factor": 0.3},
    "layers.RandomSaturation": {"factor": 0.3},
    "layers.RandomPosterization": {"factor": 4},   # (bits kept, in [1, 8])
    "layers.Solarization": {},
    "layers.MixUp": {},
    "layers.CutMix": {},
    "layers.Dot": {"axes": 1},
    "layers.EinsumDense": {"equation": "ab,bc->ac", "output_shape": 4},
    "layers.Rescaling": {"scale": 0.5},
    "layers.Activation": {"activation": "tanh"},
    "layers.TimeDistributed": {"layer": {"obj": "layers", "class_name": "Dense", "config": {"units": 2, "name": "h16_inner"}}},
    "layers.Bidirectional": {"layer": {"obj": "layers", "class_name": "LSTM", "config": {"units": 2, "name": "h16_inner"}}},
    "layers.SpectralNormalization": {"layer": {"obj": "layers", "class_name": "Dense", "config": {"units": 2, "name": "h16_inner"}}},
    "layers.RNN": {"cell": {"obj": "layers", "class_name": "SimpleRNNCell", "config": {"units": 2, "name": "h16_cell"}}},
    "layers.StackedRNNCells": {"cells": [{"obj": "layers", "class_name": "SimpleRNNCell", "config": {"units": 2, "name": "h16_c1"}},
                                         {"obj": "layers", "class_name": "GRUCell", "config": {"units": 3, "name": "h16_c2"}}]},
    "layers.GroupNormalization": {"groups": 2},
    "layers.Discretization": {"bin_boundaries": [0.0, 1.0, 2.5]},
    "layers.HashedCrossing": {"num_bins": 5},
    "layers.Hashing": {"num_bins": 5},
    "layers.CategoryEncoding": {"num_tokens": 6},
    "layers.StringLookup": {"vocabulary": ["a", "b", "c"]},
    "layers.TextVectorization": {"vocabulary": ["a", "b", "c"]},
    "layers.IntegerLookup": {"vocabulary": [4, 5, 6]},
    "layers.Normalization": {"mean": 0.5, "variance": 2.0},
    "layers.UpSampling1D": {"size": 3},
    "layers.ZeroPadding1D": {"padding": 2},
    "layers.Cropping1D": {"cropping": {"tuple": [1, 2]}},
    "optimizers.schedules.PiecewiseConstantDecay": {"boundaries": [3, 7], "values": [0.3, 0.2, 0.1]},
    "optimizers.schedules.CosineDecay": {"initial_learning_rate": 0.05, "decay_steps": 10},
    "metrics.IoU": {"num_classes": 3, "target_class_ids": [0, 2]},
    "metrics.BinaryIoU": {},
    "metrics.OneHotIoU": {"num_classes": 3, "target_class_ids": [0, 2]},
}

#: Optional arguments never set: they name the object (set separately), pick a dtype (its config
#: is a policy object either way) or take objects the generator cannot make.
NEVER = {"self", "name", "dtype", "kwargs", "args", "autocast", "input_dim", "input_shape", "batch_input_shape",
         "input_length", "sparse", "ragged", "vocabulary_dtype", "idf_weights", "mean", "variance",
         "invert", "layer", "cell", "cells", "backward_layer", "activity_regularizer", "loss_scale_factor",
         "gradient_accumulation_steps", "seed_generator", "quantization_config", "lora_rank", "lora_alpha",
         "bin_boundaries", "vocabulary", "pad_to_max_tokens", "output_mode", "tied_weights", "reverse_dtype",
         "logit_soft_cap", "weights", "embeddings_constraint"}

_INITIALIZERS = ["he_normal", "lecun_uniform", "ones", "glorot_normal", "random_uniform", "he_uniform",
                 "lecun_normal", "truncated_normal"]
_REGULARIZERS = [("L2", {"l2": 0.011}), ("L1", {"l1": 0.013}), ("L1L2", {"l1": 0.017, "l2": 0.019}),
                 ("L2", {"l2": 0.023}), ("L1", {"l1": 0.029}), ("L2", {"l2": 0.031})]
_CONSTRAINTS = [("NonNeg", {}), ("MaxNorm", {"max_value": 1.7, "axis": 1}), ("UnitNorm", {"axis": 1}),
                ("MinMaxNorm", {"min_value": 0.2, "max_value": 1.3, "rate": 0.9, "axis": 1}),
                ("MaxNorm", {"max_value": 2.3, "axis": 0})]
_ACTIVATIONS = ["tanh", "sigmoid", "relu", "elu", "softplus", "selu"]

#: Candidate values by argument name (tried in order; the first TF accepts is kept).
BY_NAME: dict[str, list[Any]] = {
    "padding": ["same", "causal", "valid"], "data_format": ["channels_first"],
    "interpolation": ["bilinear", "nearest"], "fill_mode": ["nearest", "wrap", "constant"],
    "merge_mode": ["sum", "mul", "ave"], "reduction": ["sum", "none", "mean_with_sample_weight"],
    "curve": ["PR"], "summation_method": ["minoring", "majoring"], "average": ["macro", "weighted", "micro"],
    "distribution": ["uniform", "untruncated_normal"], "mode": ["fan_avg", "fan_out"],
    "score_mode": ["softmax"], "bias_axes": ["c"], "seed": [1234], "strides": [2, 3],
    "pool_size": [3], "dilation_rate": [2], "size": [3], "cropping": [2], "momentum": [0.77],
    "beta_1": [0.81], "beta_2": [0.973], "epsilon": [0.0021], "rho": [0.83], "dropout": [0.21],
    "recurrent_dropout": [0.13], "axis": [1, 0], "thresholds": [[0.3, 0.6]], "class_id": [1], "top_k": [2],
    "label_smoothing": [0.07], "delta": [1.7], "alpha": [0.31], "gamma": [1.9], "beta": [0.43],
    "order": [3], "implementation": [1], "threshold": [0.37], "clipnorm": [1.3], "clipvalue": [0.9],
    "global_clipnorm": [1.1], "use_ema": [True], "ema_momentum": [0.91], "ema_overwrite_frequency": [5],
    "weight_decay": [0.003], "learning_rate": [0.037], "initial_accumulator_value": [0.15],
    "learning_rate_power": [-0.6], "l1_regularization_strength": [0.011],
    "l2_regularization_strength": [0.012], "l2_shrinkage_regularization_strength": [0.013],
    "beta_2_decay": [-0.7], "epsilon_1": [2e-30], "epsilon_2": [0.002], "clip_threshold": [1.2],
    "relative_step": [False], "centered": [True], "nesterov": [True], "amsgrad": [True],
    "num_thresholds": [37], "multi_label": [True], "num_labels": [None], "from_logits": [True],
    "ignore_class": [2], "num_classes": [4], "k": [3], "group": [None], "activation": _ACTIVATIONS,
    "recurrent_activation": ["hard_sigmoid", "relu"], "output_padding": [None], "depth_multiplier": [2],
    "use_bias": [False], "unit_forget_bias": [False], "reset_after": [False], "return_sequences": [True],
    "return_state": [True], "go_backwards": [True], "stateful": [True], "unroll": [True], "center": [False],
    "scale": [False], "negative_slope": [0.12], "max_value": [3.3], "min_value": [0.14], "sample_weight": [None],
    "l1": [0.041], "l2": [0.043], "factor": [0.047], "mean": [0.051], "stddev": [0.53], "minval": [-0.57],
    "maxval": [0.59], "gain": [1.61], "value": [0.67], "max_norm": [1.71], "rate": [0.73],
    "max_tokens": [9], "num_oov_indices": [2], "mask_token": [None], "oov_token": [None],
}


def _distinct(kind: list, i: int) -> Any:
    return kind[i % len(kind)]


def candidates(pname: str, default: Any, i: int) -> list[Any]:
    """Encoded candidate values for one optional argument (its index i makes numbers distinct)."""
    if pname in NEVER:
        return []
    if pname.endswith("_initializer"):
        return [_distinct(_INITIALIZERS, i)]
    if pname.endswith("_regularizer"):
        cls, cfg = _distinct(_REGULARIZERS, i)
        return [{"obj": "regularizers", "class_name": cls, "config": cfg}]
    if pname.endswith("_constraint"):
        cls, cfg = _distinct(_CONSTRAINTS, i)
        return [{"obj": "constraints", "class_name": cls, "config": cfg}]
    out = [v for v in BY_NAME.get(pname, []) if v != default]
    if isinstance(default, bool):
        out.append(not default)
    elif isinstance(default, int) and default is not None:
        out += [default + 2 + i, default + 1]
    elif isinstance(default, float):
        out += [round(default * 1.5 + 0.01 * (i + 1), 6) if default else round(0.11 + 0.01 * i, 6)]
    elif isinstance(default, tuple) and default and all(isinstance(v, int) for v in default):
        out += [{"tuple": [v + 1 for v in default]}]
    return out


def decode(keras: Any, v: Any) -> Any:
    """An encoded argument as the backend's value: {"tuple": [...]} a tuple, {"obj": ns, ...} a Keras
    object of that namespace built from its config, lists element by element."""
    if isinstance(v, list):
        return [decode(keras, e) for e in v]
    if isinstance(v, dict) and "tuple" in v:
        return tuple(v["tuple"])
    if isinstance(v, dict) and "obj" in v:
        return resolve(keras, v["obj"], v["class_name"])(**{k: decode(keras, e) for k, e in v["config"].items()})
    return v


def resolve(keras: Any, namespace: str, name: str) -> Any:
    m = keras
    for part in namespace.split("."):
        m = getattr(m, part)
    return getattr(m, name)


def build(keras: Any, case: dict[str, Any]) -> Any:
    """The object of one recorded case, built on the backend's keras."""
    cls = resolve(keras, case["namespace"], case["class"])
    kw = {k: decode(keras, v) for k, v in case["kwargs"].items()}
    return cls(**kw)


def normalize(value: Any) -> Any:
    """A config as plain JSON values (tuples as lists, NumPy scalars as Python's, dict keys sorted)."""
    import numpy as np  # noqa: PLC0415

    if isinstance(value, dict):
        return {str(k): normalize(v) for k, v in sorted(value.items(), key=lambda kv: str(kv[0]))}
    if isinstance(value, (list, tuple)):
        return [normalize(v) for v in value]
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, np.ndarray):
        return normalize(value.tolist())
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return f"<{type(value).__name__}>"


def class_names(keras: Any, namespace: str) -> list[str]:
    """The public classes of one namespace, sorted."""
    m = resolve(keras, namespace.rsplit(".", 1)[0], namespace.rsplit(".", 1)[1]) if "." in namespace \
        else getattr(keras, namespace)
    return sorted(n for n in dir(m) if not n.startswith("_") and n != "Any" and inspect.isclass(getattr(m, n)))


def generate(keras: Any, namespace: str, name: str, log: Callable[[str], None] = print,
             reverse: bool = False) -> dict[str, Any] | None:
    """Record one class on TF: the kwargs kept (each argument tried in the signature's order, or in
    reverse so that of two exclusive arguments (strides and dilation_rate, clipnorm and
    global_clipnorm) the other is kept, added when TF accepts it with those kept before it and it
    changes the config) and TF's config."""
    cls = resolve(keras, namespace, name)
    params = [p for p in inspect.signature(cls.__init__).parameters.values()
              if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY) and p.name != "self"]
    key = f"{namespace}.{name}"
    base: dict[str, Any] = {}
    own = REQUIRED_BY_CLASS.get(key)
    for p in params:
        if p.default is p.empty:
            if own is not None and p.name in own:
                base[p.name] = own[p.name]
            elif p.name in REQUIRED:
                base[p.name] = REQUIRED[p.name]
            else:
                log(f"{key}: no value for required {p.name}")
                return None
    if own:
        base.update(own)
    named = namespace in ("layers", "losses", "metrics") or namespace == "optimizers"
    if named:
        base["name"] = f"h16_{name.lower()}"

    def config_of(kw: dict[str, Any]) -> dict[str, Any]:
        return normalize(cls(**{k: decode(keras, v) for k, v in kw.items()}).get_config())

    try:
        base_config = config_of(base)
    except Exception as e:  # noqa: BLE001 - TF refusing the base case drops the class
        log(f"{key}: base case refused: {type(e).__name__}: {e}")
        return None
    kept, kept_config = dict(base), base_config
    order = list(enumerate(params))
    for i, p in (order[::-1] if reverse else order):
        if p.name in base:
            continue
        for cand in candidates(p.name, p.default, i):
            trial = {**kept, p.name: cand}
            try:
                cfg = config_of(trial)
            except Exception:  # noqa: BLE001 - TF refuses this value: try the next
                continue
            if cfg != kept_config:   # the argument shows in the config
                kept, kept_config = trial, cfg
                break
    return {"namespace": namespace, "class": name, "kwargs": kept, "config": config_of(kept)}
