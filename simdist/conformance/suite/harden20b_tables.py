"""The option factors of harden20b's trained grids: per class, each constructor option of its
signature in Keras 3.15's source (bool options at both values, enum options at each value, numeric
options at the default and one other value that moves the result; options Keras forbids together,
such as clipnorm/clipvalue/global_clipnorm, as one factor), plus the call options that pair with
them (a mask, a causal mask, sample_weight). harden20b_pairwise turns each into a pairwise covering
set of cases. SIGNATURE_EXCLUDED lists the signature options left out, each with why.

A value {"obj": NAMESPACE, "class": NAME, "config": {...}} is built as keras.NAMESPACE.NAME(**config).
Nothing here imports TensorFlow.
"""

from __future__ import annotations

import functools
from typing import Any

from simdist.conformance.suite import harden20b_pairwise as pairwise

#: Training steps per case.
STEPS = 4
#: The seed of every covering array (with the class's name).
SEED = 2020


def _obj(ns: str, cls: str, **config: Any) -> dict[str, Any]:
    return {"obj": ns, "class": cls, "config": config}


_CLIP = [{}, {"clipnorm": 0.5}, {"clipvalue": 0.3}, {"global_clipnorm": 0.4}]
#: The options every optimizer takes (keras.optimizers.Optimizer's signature).
_COMMON: list[tuple[str, list[Any]]] = [
    ("learning_rate", [0.01, 0.1]),
    ("weight_decay", [None, 0.05]),
    ("clip", _CLIP),
    ("use_ema", [False, True]),
    ("ema_momentum", [0.99, 0.5]),
    ("ema_overwrite_frequency", [None, 2]),
    ("loss_scale_factor", [None, 4.0]),
    ("gradient_accumulation_steps", [None, 2]),
]


def _opt(*own: tuple[str, list[Any]], drop: tuple[str, ...] = ()) -> list[tuple[str, list[Any]]]:
    return [f for f in _COMMON if f[0] not in drop] + list(own)


#: optimizer class -> factors.
OPTIMIZERS: dict[str, list[tuple[str, list[Any]]]] = {
    "Adadelta": _opt(("rho", [0.95, 0.5]), ("epsilon", [1e-7, 1e-2])),
    "Adafactor": _opt(("beta_2_decay", [-0.8, -0.5]), ("epsilon_1", [1e-30, 1e-3]), ("epsilon_2", [1e-3, 1e-1]),
                      ("clip_threshold", [1.0, 0.1]), ("relative_step", [True, False])),
    "Adagrad": _opt(("initial_accumulator_value", [0.1, 1.0]), ("epsilon", [1e-7, 1e-2])),
    "Adam": _opt(("beta_1", [0.9, 0.5]), ("beta_2", [0.999, 0.9]), ("epsilon", [1e-7, 1e-2]),
                 ("amsgrad", [False, True])),
    "AdamW": _opt(("beta_1", [0.9, 0.5]), ("beta_2", [0.999, 0.9]), ("epsilon", [1e-7, 1e-2]),
                  ("amsgrad", [False, True]), drop=("weight_decay",)) + [("weight_decay", [0.004, 0.2])],
    "Adamax": _opt(("beta_1", [0.9, 0.5]), ("beta_2", [0.999, 0.9]), ("epsilon", [1e-7, 1e-2])),
    "Ftrl": _opt(("learning_rate_power", [-0.5, -0.2]), ("initial_accumulator_value", [0.1, 1.0]),
                 ("l1_regularization_strength", [0.0, 0.01]), ("l2_regularization_strength", [0.0, 0.1]),
                 ("l2_shrinkage_regularization_strength", [0.0, 0.1]), ("beta", [0.0, 0.5])),
    "Lamb": _opt(("beta_1", [0.9, 0.5]), ("beta_2", [0.999, 0.9]), ("epsilon", [1e-7, 1e-2])),
    "Lion": _opt(("beta_1", [0.9, 0.5]), ("beta_2", [0.99, 0.8])),
    "Muon": _opt(("adam_beta_1", [0.9, 0.5]), ("adam_beta_2", [0.999, 0.9]), ("adam_weight_decay", [0.004, 0.1]),
                 ("epsilon", [1e-7, 1e-2]), ("exclude_embeddings", [True, False]),
                 ("adam_lr_ratio", [1, 0.5]), ("momentum", [0.95, 0.5]), ("ns_steps", [5, 2]),
                 ("nesterov", [True, False]), ("rms_rate", [0.2, None]),
                 drop=("weight_decay",)) + [("weight_decay", [0.004, 0.1])],
    "Nadam": _opt(("beta_1", [0.9, 0.5]), ("beta_2", [0.999, 0.9]), ("epsilon", [1e-7, 1e-2])),
    "RMSprop": _opt(("rho", [0.9, 0.5]), ("momentum", [0.0, 0.5]), ("epsilon", [1e-7, 1e-2]),
                    ("centered", [False, True])),
    "SGD": _opt(("momentum", [0.0, 0.5]), ("nesterov", [False, True])),
    "ScheduleFreeAdamW": _opt(("beta_1", [0.9, 0.5]), ("beta_2", [0.999, 0.9]), ("epsilon", [1e-8, 1e-2]),
                              ("warmup_steps", [0, 2])),
}

#: layer class -> (required kwargs, input spec, factors). Input specs: "vec" (4, 3); "seq" (4, 5, 3)
#: float sequences; "seq4" (4, 5, 4); "img" (4, 6, 4); "pair" two (4, 3, 4) and (4, 4, 3) tensors;
#: "qv" query (4, 3, 4) and value (4, 5, 4); "ids" (4, 5) integer ids in [0, 6) with zeros.
#: Factors named "call:X" go to the call as keyword X ("call:mask": a (4, 5) mask with trailing
#: steps off; "call:training" defaults to True).
_RNN_COMMON: list[tuple[str, list[Any]]] = [
    ("use_bias", [True, False]), ("return_sequences", [False, True]), ("return_state", [False, True]),
    ("go_backwards", [False, True]), ("stateful", [False, True]), ("unroll", [False, True]),
    ("dropout", [0.0, 0.3]), ("recurrent_dropout", [0.0, 0.3]), ("activation", ["tanh", "relu"]),
    ("call:mask", [False, True]),
]
LAYERS: dict[str, tuple[dict[str, Any], str, list[tuple[str, list[Any]]]]] = {
    "BatchNormalization": ({}, "seq", [
        ("axis", [-1, 1]), ("momentum", [0.99, 0.5]), ("epsilon", [1e-3, 0.1]), ("center", [True, False]),
        ("scale", [True, False]), ("renorm", [False, True]), ("renorm_momentum", [0.99, 0.5]),
        ("renorm_clipping", [None, {"rmax": 1.2, "rmin": 0.8, "dmax": 0.1}]),
        ("gamma_constraint", [None, _obj("constraints", "NonNeg")]), ("call:training", [True, False])]),
    "LayerNormalization": ({}, "seq", [
        ("axis", [-1, [1, 2]]), ("epsilon", [1e-3, 0.1]), ("center", [True, False]), ("scale", [True, False]),
        ("gamma_regularizer", [None, _obj("regularizers", "L2", l2=0.1)]),
        ("beta_constraint", [None, _obj("constraints", "MaxNorm", max_value=0.2, axis=0)])]),
    "GroupNormalization": ({}, "seq4", [
        ("groups", [1, 2]), ("epsilon", [1e-3, 0.1]), ("center", [True, False]), ("scale", [True, False]),
        ("beta_regularizer", [None, _obj("regularizers", "L1", l1=0.1)])]),
    "Dense": ({"units": 3}, "vec", [
        ("activation", [None, "relu", "tanh"]), ("use_bias", [True, False]),
        ("kernel_regularizer", [None, _obj("regularizers", "L1L2", l1=0.01, l2=0.1)]),
        ("bias_regularizer", [None, _obj("regularizers", "L2", l2=0.2)]),
        ("activity_regularizer", [None, _obj("regularizers", "L2", l2=0.05)]),
        ("kernel_constraint", [None, _obj("constraints", "MaxNorm", max_value=0.5)]),
        ("bias_constraint", [None, _obj("constraints", "NonNeg")]),
        ("lora_rank", [None, 2]), ("lora_alpha", [None, 6])]),
    "Conv1D": ({"filters": 4, "kernel_size": 2}, "img", [
        ("strides", [1, 2]), ("padding", ["valid", "same", "causal"]), ("dilation_rate", [1, 2]),
        ("groups", [1, 2]), ("activation", [None, "relu"]), ("use_bias", [True, False]),
        ("kernel_constraint", [None, _obj("constraints", "UnitNorm", axis=[0, 1])])]),
    "PReLU": ({}, "seq", [
        ("shared_axes", [None, [1]]), ("alpha_constraint", [None, _obj("constraints", "NonNeg")]),
        ("alpha_regularizer", [None, _obj("regularizers", "L2", l2=0.5)])]),
    "Dot": ({}, "pair", [("axes", [[2, 1], [1, 2]]), ("normalize", [False, True])]),
    "Attention": ({"seed": 7}, "qv", [
        ("use_scale", [False, True]), ("score_mode", ["dot", "concat"]), ("dropout", [0.0, 0.4]),
        ("call:use_causal_mask", [False, True]), ("call:training", [True, False])]),
    "AdditiveAttention": ({}, "qv", [
        ("use_scale", [True, False]), ("dropout", [0.0, 0.4]), ("call:use_causal_mask", [False, True])]),
    "MultiHeadAttention": ({"num_heads": 2, "key_dim": 2, "seed": 3}, "qv", [
        ("value_dim", [None, 3]), ("use_bias", [True, False]), ("output_shape", [None, 5]),
        ("dropout", [0.0, 0.4]), ("sliding_window", [None, 2]), ("use_gate", [False, True]),
        ("call:use_causal_mask", [False, True])]),
    "SimpleRNN": ({"units": 3, "seed": 11}, "seq", list(_RNN_COMMON)),
    "GRU": ({"units": 3, "seed": 11}, "seq", _RNN_COMMON + [("reset_after", [True, False]),
                                                        ("recurrent_activation", ["sigmoid", "hard_sigmoid"])]),
    "LSTM": ({"units": 3, "seed": 11}, "seq", _RNN_COMMON + [("recurrent_activation", ["sigmoid", "hard_sigmoid"])]),
    "Embedding": ({"input_dim": 6, "output_dim": 3}, "ids", [
        ("mask_zero", [False, True]), ("embeddings_regularizer", [None, _obj("regularizers", "L2", l2=0.1)]),
        ("embeddings_constraint", [None, _obj("constraints", "UnitNorm")]),
        ("pool", ["average", "lstm"]), ("lora_rank", [None, 2]), ("lora_alpha", [None, 6])]),
    "Dropout": ({}, "seq", [("rate", [0.3, 0.6]), ("noise_shape", [None, [4, 1, 3]]), ("seed", [1, 2])]),
    "SpatialDropout1D": ({}, "seq", [("rate", [0.3, 0.6]), ("seed", [1, 2])]),
    "GaussianNoise": ({}, "seq", [("stddev", [0.1, 0.5]), ("seed", [1, 2])]),
    "GaussianDropout": ({}, "seq", [("rate", [0.2, 0.5]), ("seed", [1, 2])]),
    "AlphaDropout": ({}, "seq", [("rate", [0.2, 0.5]), ("noise_shape", [None, [4, 1, 3]]), ("seed", [1, 2])]),
}

#: metric class -> (required kwargs, input kind, factors). "call:sample_weight": none, or seeded
#: weights in [0, 2) with a zero. Kinds as harden19_training.make_pair's, plus "logit" (labels 0/1,
#: scores in (-3, 3)) and "multi" (multi-label 0/1 and probabilities over 3 columns).
METRICS: dict[str, tuple[dict[str, Any], str, list[tuple[str, list[Any]]]]] = {
    "AUC": ({}, "multi", [
        ("num_thresholds", [200, 4]), ("curve", ["ROC", "PR"]),
        ("summation_method", ["interpolation", "minoring", "majoring"]), ("multi_label", [False, True]),
        ("from_logits", [False, True]), ("thresholds", [None, [0.25, 0.5, 0.75]]),
        ("label_weights", [None, [0.5, 1.0, 2.0]]), ("call:sample_weight", [False, True])]),
    "Precision": ({}, "multi", [
        ("thresholds", [None, 0.3, [0.3, 0.7]]), ("top_k", [None, 2]), ("class_id", [None, 1]),
        ("call:sample_weight", [False, True])]),
    "Recall": ({}, "multi", [
        ("thresholds", [None, 0.3, [0.3, 0.7]]), ("top_k", [None, 2]), ("class_id", [None, 1]),
        ("call:sample_weight", [False, True])]),
    "TruePositives": ({}, "multi", [("thresholds", [None, 0.3, [0.3, 0.7]]), ("call:sample_weight", [False, True])]),
    "FalseNegatives": ({}, "multi", [("thresholds", [None, 0.3, [0.3, 0.7]]), ("call:sample_weight", [False, True])]),
    "PrecisionAtRecall": ({}, "multi", [
        ("recall", [0.6, 0.3]), ("num_thresholds", [200, 5]), ("class_id", [None, 2]), ("call:sample_weight", [False, True])]),
    "SensitivityAtSpecificity": ({}, "multi", [
        ("specificity", [0.7, 0.4]), ("num_thresholds", [200, 5]), ("class_id", [None, 2]), ("call:sample_weight", [False, True])]),
    "BinaryAccuracy": ({}, "prob", [("threshold", [0.5, 0.7]), ("call:sample_weight", [False, True])]),
    "TopKCategoricalAccuracy": ({}, "cat7", [("k", [5, 2]), ("call:sample_weight", [False, True])]),
    "SparseTopKCategoricalAccuracy": ({}, "sparse7", [
        ("k", [5, 2]), ("from_sorted_ids", [False, True]), ("call:sample_weight", [False, True])]),
    "MeanIoU": ({"num_classes": 3}, "cat", [
        ("ignore_class", [None, 0]), ("sparse_y_true", [True, False]), ("sparse_y_pred", [True, False]),
        ("call:sample_weight", [False, True])]),
    "IoU": ({"num_classes": 3}, "cat", [
        ("target_class_ids", [[0, 2], [1]]), ("ignore_class", [None, 2]), ("sparse_y_true", [True, False]),
        ("sparse_y_pred", [True, False]), ("call:sample_weight", [False, True])]),
    "F1Score": ({}, "multi", [
        ("average", [None, "micro", "macro", "weighted"]), ("threshold", [None, 0.4]),
        ("call:sample_weight", [False, True])]),
    "FBetaScore": ({}, "multi", [
        ("average", [None, "micro", "macro", "weighted"]), ("beta", [1.0, 2.0]), ("threshold", [None, 0.4]),
        ("call:sample_weight", [False, True])]),
    "R2Score": ({}, "reg", [
        ("class_aggregation", ["uniform_average", "variance_weighted_average", None]),
        ("num_regressors", [0, 1]), ("call:sample_weight", [False, True])]),
    "BinaryCrossentropy": ({}, "logit", [
        ("from_logits", [False, True]), ("label_smoothing", [0.0, 0.2]), ("call:sample_weight", [False, True])]),
    "CategoricalCrossentropy": ({}, "cat", [
        ("from_logits", [False, True]), ("label_smoothing", [0.0, 0.2]), ("axis", [-1, 0]),
        ("call:sample_weight", [False, True])]),
    "SparseCategoricalCrossentropy": ({}, "sparse", [
        ("from_logits", [False, True]), ("ignore_class", [None, 1]), ("call:sample_weight", [False, True])]),
    "CosineSimilarity": ({}, "reg", [("axis", [-1, 0]), ("call:sample_weight", [False, True])]),
}

_RED = ["sum_over_batch_size", "sum"]
#: loss class -> (input kind, factors). Each case trains y_pred (a variable) STEPS SGD steps on the loss.
LOSSES: dict[str, tuple[str, list[tuple[str, list[Any]]]]] = {
    "BinaryCrossentropy": ("logit", [
        ("from_logits", [False, True]), ("label_smoothing", [0.0, 0.2]), ("axis", [-1, 0]),
        ("reduction", ["sum_over_batch_size", "sum", "mean", "none"]), ("call:sample_weight", [False, True])]),
    "BinaryFocalCrossentropy": ("logit", [
        ("apply_class_balancing", [False, True]), ("alpha", [0.25, 0.6]), ("gamma", [2.0, 0.5]),
        ("from_logits", [False, True]), ("label_smoothing", [0.0, 0.2]), ("axis", [-1, 0]),
        ("reduction", _RED), ("call:sample_weight", [False, True])]),
    "CategoricalCrossentropy": ("cat", [
        ("from_logits", [False, True]), ("label_smoothing", [0.0, 0.2]), ("axis", [-1, 0]),
        ("reduction", ["sum_over_batch_size", "sum"]), ("call:sample_weight", [False, True])]),
    "CategoricalFocalCrossentropy": ("cat", [
        ("alpha", [0.25, 0.6]), ("gamma", [2.0, 0.5]), ("from_logits", [False, True]),
        ("label_smoothing", [0.0, 0.2]), ("axis", [-1, 0]), ("reduction", _RED),
        ("call:sample_weight", [False, True])]),
    "SparseCategoricalCrossentropy": ("sparse", [
        ("from_logits", [False, True]), ("ignore_class", [None, 1]), ("reduction", _RED),
        ("call:sample_weight", [False, True])]),
    "Huber": ("reg", [("delta", [1.0, 0.3]), ("reduction", ["sum_over_batch_size", "sum"]),
                      ("call:sample_weight", [False, True])]),
    "CosineSimilarity": ("reg", [("axis", [-1, 0]), ("reduction", _RED), ("call:sample_weight", [False, True])]),
    "Tversky": ("prob", [("alpha", [0.5, 0.8]), ("beta", [0.5, 0.3]), ("axis", [None, 1]), ("reduction", _RED)]),
    "Dice": ("prob", [("axis", [None, 1]), ("reduction", ["sum_over_batch_size", "sum"])]),
    "CategoricalGeneralizedCrossEntropy": ("sparse", [("q", [0.5, 0.2]), ("reduction", _RED),
                                                      ("call:sample_weight", [False, True])]),
    "Circle": ("circle", [("gamma", [80.0, 10.0]), ("margin", [0.4, 0.1]), ("remove_diagonal", [True, False]),
                          ("reduction", _RED)]),
    "CategoricalHinge": ("cat", [("reduction", ["sum_over_batch_size", "sum"]), ("call:sample_weight", [False, True])]),
}

#: Signature options left out of the factors, with why (checked against Keras's signatures by the
#: coverage test on the tensorflow backend).
SIGNATURE_EXCLUDED: dict[str, str] = {
    "name": "a label", "dtype": "the float32 policy throughout (mixed precision is harden19b's)",
    "synchronized": "a replica-context option: one replica here computes the same as False",
    "use_cudnn": "a GPU kernel choice: CPU only", "data_format": "channels_last only (NCW needs oneDNN)",
    "seed": "a required argument of the case (fixed)", "units": "required", "filters": "required",
    "kernel_size": "required", "input_dim": "required", "output_dim": "required", "num_heads": "required",
    "key_dim": "required", "axes": "required", "rate": "required", "stddev": "required",
    "unit_forget_bias": "an initializer choice: the weights are set from seeded values",
    "kernel_initializer": "the weights are set from seeded values",
    "recurrent_initializer": "the weights are set from seeded values",
    "bias_initializer": "the weights are set from seeded values",
    "beta_initializer": "the weights are set from seeded values",
    "gamma_initializer": "the weights are set from seeded values",
    "moving_mean_initializer": "the weights are set from seeded values",
    "moving_variance_initializer": "the weights are set from seeded values",
    "embeddings_initializer": "the weights are set from seeded values",
    "alpha_initializer": "the weights are set from seeded values",
    "weights": "initial weights: set from seeded values",
    "lora_rank": "covered on Dense and Embedding",
    "lora_alpha": "covered on Dense and Embedding",
    "quantization_config": "quantized inference, not training",
    "kernel_regularizer": "covered on Dense", "recurrent_regularizer": "covered as kernel_regularizer is on Dense",
    "activity_regularizer": "covered on Dense", "bias_regularizer": "covered on Dense",
    "recurrent_constraint": "covered as kernel_constraint is on Dense", "kernel_constraint": "covered on Dense and Conv1D",
    "bias_constraint": "covered on Dense", "beta_regularizer": "covered on GroupNormalization",
    "gamma_regularizer": "covered on LayerNormalization", "beta_constraint": "covered on LayerNormalization",
    "gamma_constraint": "covered on BatchNormalization", "attention_axes": "one attention axis here",
    "kernel_initializer_mha": "", "flash_attention": "a kernel choice (the default path)",
    "exclude_layers": "a list of variable-path patterns (exclude_embeddings covers the mechanism)",
    "muon_a": "Newton-Schulz coefficients (ns_steps covers the iteration)", "muon_b": "as muon_a",
    "muon_c": "as muon_a", "num_classes": "required", "num_labels": "set from the data under multi_label",
    "layers.GroupNormalization.axis": "the channels axis -1 (groups 1 and 2 of its 4 channels)",
    "metrics.MeanIoU.axis": "the class axis of one-hot inputs: -1 (2-D inputs)", "metrics.IoU.axis": "as MeanIoU's",
    "metrics.SparseCategoricalCrossentropy.axis": "the class axis: -1 (integer labels of 2-D scores)",
    "losses.SparseCategoricalCrossentropy.axis": "as the metric's", "clipnorm": "one factor `clip` with clipvalue and global_clipnorm (Keras: only one)",
    "clipvalue": "in `clip`", "global_clipnorm": "in `clip`",
}


def _valid_layer(name: str) -> pairwise.Valid:
    def valid(case: dict[str, Any]) -> bool:
        # Keras refuses strides > 1 with dilation_rate > 1
        return not (name == "Conv1D" and case.get("strides") == 2 and case.get("dilation_rate") == 2)
    return valid


def _valid_metric_or_loss(name: str) -> pairwise.Valid:
    def valid(case: dict[str, Any]) -> bool:
        if name in ("Precision", "Recall") and case.get("top_k") is not None and isinstance(
                case.get("thresholds"), list):
            return False   # Keras: top_k with several thresholds is refused
        # a loss or metric reduced along axis 0 has one value per column: per-row weights cannot apply
        return not (case.get("axis") == 0 and case.get("call:sample_weight"))
    return valid


@functools.lru_cache(maxsize=None)
def optimizer_cases(name: str) -> list[dict[str, Any]]:
    return pairwise.covering(OPTIMIZERS[name], f"{SEED}/opt/{name}")


@functools.lru_cache(maxsize=None)
def layer_cases(name: str) -> list[dict[str, Any]]:
    return pairwise.covering(LAYERS[name][2], f"{SEED}/layer/{name}", _valid_layer(name))


@functools.lru_cache(maxsize=None)
def metric_cases(name: str) -> list[dict[str, Any]]:
    return pairwise.covering(METRICS[name][2], f"{SEED}/metric/{name}", _valid_metric_or_loss(name))


@functools.lru_cache(maxsize=None)
def loss_cases(name: str) -> list[dict[str, Any]]:
    return pairwise.covering(LOSSES[name][1], f"{SEED}/loss/{name}", _valid_metric_or_loss(name))


def all_cases() -> dict[str, dict[str, list[dict[str, Any]]]]:
    """Every grid: kind -> class -> cases."""
    return {"optimizers": {n: optimizer_cases(n) for n in OPTIMIZERS},
            "layers": {n: layer_cases(n) for n in LAYERS},
            "metrics": {n: metric_cases(n) for n in METRICS},
            "losses": {n: loss_cases(n) for n in LOSSES}}
