"""Keras API arguments fed by kind, crossed by rule (sixty-fifth session, asweep65; test_asweep65.py): every
constructor argument of 90 keras.layers classes (each family of the simdist facade's registry, aliases once) given
None, its default spelled out, a value of the wrong type (str, float or bool for an int, a list for a tuple), out of
range (0, negative, too large), other case ('Relu', 'GLOROT_uniform', 'CHANNELS_LAST'), callables for names, every
tuple of axes (permutations, duplicates) and dtype options ('float64', 'mixed_float16', a DTypePolicy); losses,
metrics, optimizers, schedules and callbacks likewise; Layer.add_weight/add_variable's options; Inputs with a batch
size called at another; Model.summary's layouts. The observation: the refusal's error class, else the argument as the
config keeps it, the config's round trip and a small call's dtype, shape and bits (seeded). `python -m
simdist.conformance.suite.test_asweep65 --record` rewrites asweep65_reference.json.gz on TF 2.21."""

from __future__ import annotations

import hashlib
import json
import os
from typing import Any, Callable

import numpy as np

from simdist.conformance.suite.recorded_programs import (RecordedPrograms, avx512_with_onednn, error as _error,
                                                         reference_cpu, rng as _rng)

PATH = os.path.join(os.path.dirname(__file__), "asweep65_reference.json.gz")

#: programs whose TF 2.21 bits may follow the CPU's kernels (clause ops.host-cpu): the layers' calls (oneDNN's
#: convolutions and matrix products, Eigen's transcendental packets); the metrics' program too: AUC of 10^6
#: thresholds sums 999,999 areas on as many threads as the host's cores (sum_order.full_threads, fix66n)
HOST_DEPENDENT = ("ak-", "a-metric-arguments")

REF = RecordedPrograms(PATH, HOST_DEPENDENT, recording_host=avx512_with_onednn, recording_cpu=reference_cpu)

#: cases left out of the comparison (program -> whole case keys), each with its evidence in docs/conformance.md
#: ("Sixty-fifth session ... asweep65")
OPEN: dict[str, tuple[str, ...]] = {
    'ak-layers-conv': (
        'Conv3D data_format=first',   # (Keras compiles channels-first Conv3D with XLA: Eigen's contraction, fix66n)
    ),
}


def program(name: str, fn: Callable[[Any, Any], Any]) -> None:
    """Register program `name`: its result without the OPEN cases."""
    def run(tf: Any, mk: Any) -> Any:
        out = fn(tf, mk)
        for key in OPEN.get(name, ()):
            out.pop(key, None)
        return out
    REF.add(name, run)


def jv(v: Any) -> Any:
    """A config value as JSON: tuples tagged (a tuple and a list differ), floats by repr, objects by class name."""
    if isinstance(v, dict):
        return {str(k): jv(x) for k, x in sorted(v.items(), key=lambda kv: str(kv[0]))}
    if isinstance(v, tuple):
        return {"tuple": [jv(x) for x in v]}
    if isinstance(v, list):
        return [jv(x) for x in v]
    if isinstance(v, bool) or v is None or isinstance(v, str):
        return v
    if isinstance(v, int):
        return ["int", v]
    if isinstance(v, float):
        return ["float", repr(v)]
    if isinstance(v, (np.integer, np.floating)):
        return [type(v).__name__, repr(v.item())]
    return ["object", type(v).__name__]


def digest(t: Any) -> list:
    """A tensor's dtype, shape and the SHA-256 of its raw bytes (strings by their values)."""
    a = np.asarray(t.numpy() if hasattr(t, "numpy") else t)
    if a.dtype.kind in "OSU":
        body = json.dumps([x.decode() if isinstance(x, bytes) else str(x) for x in a.ravel().tolist()]).encode()
    else:
        body = np.ascontiguousarray(a).tobytes()
    return [str(a.dtype), list(a.shape), hashlib.sha256(body).hexdigest()[:20]]


def outputs(y: Any) -> Any:
    """A call's outputs (a tensor, or a list/tuple of them) as digests."""
    if isinstance(y, (list, tuple)):
        return [outputs(x) for x in y]
    if isinstance(y, dict):
        return {k: outputs(x) for k, x in sorted(y.items())}
    return digest(y)

#: each layer's constructor arguments fed by kind: (name, kind, the default or the base value)
PARAMS: dict[str, list[tuple[str, str, Any]]] = {
    "Activation": [('activation', 'act', None)],
    "ActivityRegularization": [('l1', 'float', 0.0), ('l2', 'float', 0.0)],
    "AdaptiveAveragePooling1D": [('output_size', 'int', 3), ('data_format', 'fmt', None)],
    "AdaptiveMaxPooling2D": [('output_size', 'int', 2), ('data_format', 'fmt', None)],
    "Add": [],
    "AdditiveAttention": [('use_scale', 'bool', True), ('dropout', 'float', 0.0)],
    "AlphaDropout": [('rate', 'float', 0.5), ('seed', 'int', None)],
    "Attention": [('use_scale', 'bool', False), ('score_mode', 'str', 'dot'), ('dropout', 'float', 0.0), ('seed', 'int', None)],
    "AveragePooling1D": [('pool_size', 'int', 2), ('strides', 'tuple', None), ('padding', 'str', 'valid'), ('data_format', 'fmt', None)],
    "AveragePooling2D": [('pool_size', 'tuple', (2, 2)), ('strides', 'tuple', None), ('padding', 'str', 'valid'), ('data_format', 'fmt', None)],
    "AveragePooling3D": [('pool_size', 'int', 2), ('strides', 'tuple', None), ('padding', 'str', 'valid'), ('data_format', 'fmt', None)],
    "BatchNormalization": [('axis', 'axis', -1), ('momentum', 'float', 0.99), ('epsilon', 'float', 0.001), ('center', 'bool', True), ('scale', 'bool', True), ('beta_initializer', 'init', 'zeros'), ('gamma_initializer', 'init', 'ones'), ('moving_mean_initializer', 'init', 'zeros'), ('moving_variance_initializer', 'init', 'ones'), ('renorm', 'bool', False), ('renorm_momentum', 'float', 0.99)],
    "CategoryEncoding": [('num_tokens', 'int', None), ('output_mode', 'str', 'multi_hot'), ('sparse', 'bool', False)],
    "CenterCrop": [('height', 'int', 4), ('width', 'int', 4), ('data_format', 'fmt', None)],
    "Concatenate": [('axis', 'axis', -1)],
    "Conv1D": [('filters', 'int', 2), ('kernel_size', 'int', 3), ('strides', 'int', 1), ('padding', 'str', 'valid'), ('data_format', 'fmt', None), ('dilation_rate', 'int', 1), ('groups', 'int', 1), ('activation', 'act', None), ('use_bias', 'bool', True), ('kernel_initializer', 'init', 'glorot_uniform'), ('bias_initializer', 'init', 'zeros')],
    "Conv1DTranspose": [('filters', 'int', 2), ('kernel_size', 'int', 3), ('strides', 'int', 1), ('padding', 'str', 'valid'), ('data_format', 'fmt', None), ('dilation_rate', 'int', 1), ('activation', 'act', None), ('use_bias', 'bool', True), ('kernel_initializer', 'init', 'glorot_uniform'), ('bias_initializer', 'init', 'zeros')],
    "Conv2D": [('filters', 'int', 2), ('kernel_size', 'tuple', (3, 3)), ('strides', 'tuple', (1, 1)), ('padding', 'str', 'valid'), ('data_format', 'fmt', None), ('dilation_rate', 'tuple', (1, 1)), ('groups', 'int', 1), ('activation', 'act', None), ('use_bias', 'bool', True), ('kernel_initializer', 'init', 'glorot_uniform'), ('bias_initializer', 'init', 'zeros')],
    "Conv2DTranspose": [('filters', 'int', 2), ('kernel_size', 'int', 3), ('strides', 'tuple', (1, 1)), ('padding', 'str', 'valid'), ('data_format', 'fmt', None), ('dilation_rate', 'tuple', (1, 1)), ('activation', 'act', None), ('use_bias', 'bool', True), ('kernel_initializer', 'init', 'glorot_uniform'), ('bias_initializer', 'init', 'zeros')],
    "Conv3D": [('filters', 'int', 2), ('kernel_size', 'int', 2), ('strides', 'tuple', (1, 1, 1)), ('padding', 'str', 'valid'), ('data_format', 'fmt', None), ('dilation_rate', 'tuple', (1, 1, 1)), ('groups', 'int', 1), ('activation', 'act', None), ('use_bias', 'bool', True), ('kernel_initializer', 'init', 'glorot_uniform'), ('bias_initializer', 'init', 'zeros')],
    "Cropping1D": [('cropping', 'tuple', (1, 1))],
    "Cropping2D": [('cropping', 'tuple', ((0, 0), (0, 0))), ('data_format', 'fmt', None)],
    "Cropping3D": [('cropping', 'tuple', ((1, 1), (1, 1), (1, 1))), ('data_format', 'fmt', None)],
    "Dense": [('units', 'int', 3), ('activation', 'act', None), ('use_bias', 'bool', True), ('kernel_initializer', 'init', 'glorot_uniform'), ('bias_initializer', 'init', 'zeros')],
    "DepthwiseConv1D": [('kernel_size', 'int', 3), ('strides', 'int', 1), ('padding', 'str', 'valid'), ('depth_multiplier', 'int', 1), ('data_format', 'fmt', None), ('dilation_rate', 'int', 1), ('activation', 'act', None), ('use_bias', 'bool', True), ('depthwise_initializer', 'init', 'glorot_uniform'), ('bias_initializer', 'init', 'zeros')],
    "DepthwiseConv2D": [('kernel_size', 'int', 3), ('strides', 'tuple', (1, 1)), ('padding', 'str', 'valid'), ('depth_multiplier', 'int', 1), ('data_format', 'fmt', None), ('dilation_rate', 'tuple', (1, 1)), ('activation', 'act', None), ('use_bias', 'bool', True), ('depthwise_initializer', 'init', 'glorot_uniform'), ('bias_initializer', 'init', 'zeros')],
    "Dot": [('axes', 'axis', None), ('normalize', 'bool', False)],
    "Dropout": [('rate', 'float', 0.5), ('seed', 'int', None)],
    "ELU": [('alpha', 'float', 1.0)],
    "EinsumDense": [('activation', 'act', None), ('kernel_initializer', 'init', 'glorot_uniform'), ('bias_initializer', 'init', 'zeros')],
    "Embedding": [('input_dim', 'int', 12), ('output_dim', 'int', 3), ('embeddings_initializer', 'init', 'uniform'), ('mask_zero', 'bool', False)],
    "Flatten": [('data_format', 'fmt', None)],
    "GRU": [('units', 'int', 3), ('activation', 'act', 'tanh'), ('recurrent_activation', 'act', 'sigmoid'), ('use_bias', 'bool', True), ('kernel_initializer', 'init', 'glorot_uniform'), ('recurrent_initializer', 'init', 'orthogonal'), ('bias_initializer', 'init', 'zeros'), ('dropout', 'float', 0.0), ('recurrent_dropout', 'float', 0.0), ('seed', 'int', None), ('return_sequences', 'bool', False), ('return_state', 'bool', False), ('go_backwards', 'bool', False), ('reset_after', 'bool', True)],
    "GaussianDropout": [('rate', 'float', 0.5), ('seed', 'int', None)],
    "GaussianNoise": [('stddev', 'float', 0.5), ('seed', 'int', None)],
    "GlobalAveragePooling1D": [('data_format', 'fmt', None), ('keepdims', 'bool', False)],
    "GlobalAveragePooling2D": [('data_format', 'fmt', None), ('keepdims', 'bool', False)],
    "GlobalMaxPooling1D": [('data_format', 'fmt', None), ('keepdims', 'bool', False)],
    "GlobalMaxPooling3D": [('data_format', 'fmt', None), ('keepdims', 'bool', False)],
    "GroupNormalization": [('groups', 'int', 32), ('axis', 'axis', -1), ('epsilon', 'float', 0.001), ('center', 'bool', True), ('scale', 'bool', True), ('beta_initializer', 'init', 'zeros'), ('gamma_initializer', 'init', 'ones')],
    "GroupQueryAttention": [('head_dim', 'int', 2), ('num_query_heads', 'int', 2), ('num_key_value_heads', 'int', 1), ('dropout', 'float', 0.0), ('use_bias', 'bool', True), ('kernel_initializer', 'init', 'glorot_uniform'), ('bias_initializer', 'init', 'zeros'), ('use_gate', 'bool', False), ('seed', 'int', None)],
    "Hashing": [('num_bins', 'int', 5), ('mask_value', 'any', None), ('salt', 'any', None), ('output_mode', 'str', 'int'), ('sparse', 'bool', False)],
    "Identity": [],
    "LSTM": [('units', 'int', 3), ('activation', 'act', 'tanh'), ('recurrent_activation', 'act', 'sigmoid'), ('use_bias', 'bool', True), ('kernel_initializer', 'init', 'glorot_uniform'), ('recurrent_initializer', 'init', 'orthogonal'), ('bias_initializer', 'init', 'zeros'), ('unit_forget_bias', 'bool', True), ('dropout', 'float', 0.0), ('recurrent_dropout', 'float', 0.0), ('seed', 'int', None), ('return_sequences', 'bool', False), ('return_state', 'bool', False), ('go_backwards', 'bool', False)],
    "LayerNormalization": [('axis', 'axis', -1), ('epsilon', 'float', 0.001), ('center', 'bool', True), ('scale', 'bool', True), ('beta_initializer', 'init', 'zeros'), ('gamma_initializer', 'init', 'ones')],
    "LeakyReLU": [('negative_slope', 'float', 0.3)],
    "Masking": [('mask_value', 'float', 0.0)],
    "MaxPooling1D": [('pool_size', 'int', 2), ('strides', 'tuple', None), ('padding', 'str', 'valid'), ('data_format', 'fmt', None)],
    "MaxPooling2D": [('pool_size', 'tuple', (2, 2)), ('strides', 'tuple', None), ('padding', 'str', 'valid'), ('data_format', 'fmt', None)],
    "MaxPooling3D": [('pool_size', 'tuple', (2, 2, 2)), ('strides', 'tuple', None), ('padding', 'str', 'valid'), ('data_format', 'fmt', None)],
    "Maximum": [],
    "MultiHeadAttention": [('num_heads', 'int', 2), ('key_dim', 'int', 2), ('value_dim', 'int', None), ('dropout', 'float', 0.0), ('use_bias', 'bool', True), ('attention_axes', 'axis', None), ('kernel_initializer', 'init', 'glorot_uniform'), ('bias_initializer', 'init', 'zeros'), ('use_gate', 'bool', False), ('seed', 'int', None)],
    "Normalization": [('axis', 'axis', -1), ('invert', 'bool', False)],
    "PReLU": [('alpha_initializer', 'init', 'Zeros'), ('shared_axes', 'axis', None)],
    "Permute": [('dims', 'tuple', (2, 1))],
    "RMSNormalization": [('axis', 'axis', -1), ('epsilon', 'float', 1e-06)],
    "RandomFlip": [('mode', 'str', 'horizontal_and_vertical'), ('seed', 'int', None), ('data_format', 'fmt', None)],
    "RandomRotation": [('factor', 'float', 0.1), ('fill_mode', 'str', 'reflect'), ('interpolation', 'str', 'bilinear'), ('seed', 'int', None), ('data_format', 'fmt', None)],
    "RandomZoom": [('height_factor', 'float', 0.1), ('width_factor', 'any', None), ('fill_mode', 'str', 'reflect'), ('interpolation', 'str', 'bilinear'), ('seed', 'int', None), ('data_format', 'fmt', None)],
    "RandomTranslation": [('height_factor', 'float', 0.1), ('width_factor', 'float', 0.1), ('fill_mode', 'str', 'reflect'), ('interpolation', 'str', 'bilinear'), ('seed', 'int', None), ('data_format', 'fmt', None)],
    "RandomContrast": [('factor', 'float', 0.1), ('seed', 'int', None)],
    "RandomBrightness": [('factor', 'float', 0.1), ('seed', 'int', None)],
    "RandomCrop": [('height', 'int', 4), ('width', 'int', 4), ('seed', 'int', None), ('data_format', 'fmt', None)],
    "ReLU": [('max_value', 'float', None), ('negative_slope', 'float', 0.0), ('threshold', 'float', 0.0)],
    "RepeatVector": [('n', 'int', 2)],
    "Rescaling": [('scale', 'float', 0.5), ('offset', 'float', 0.0)],
    "Reshape": [('target_shape', 'tuple', (2, 2))],
    "Resizing": [('height', 'int', 4), ('width', 'int', 4), ('interpolation', 'str', 'bilinear'), ('crop_to_aspect_ratio', 'bool', False), ('pad_to_aspect_ratio', 'bool', False), ('fill_mode', 'str', 'constant'), ('antialias', 'bool', False), ('data_format', 'fmt', None)],
    "SeparableConv1D": [('filters', 'int', 2), ('kernel_size', 'int', 3), ('strides', 'int', 1), ('padding', 'str', 'valid'), ('data_format', 'fmt', None), ('dilation_rate', 'int', 1), ('depth_multiplier', 'int', 1), ('activation', 'act', None), ('use_bias', 'bool', True), ('depthwise_initializer', 'init', 'glorot_uniform'), ('pointwise_initializer', 'init', 'glorot_uniform'), ('bias_initializer', 'init', 'zeros')],
    "SeparableConv2D": [('filters', 'int', 2), ('kernel_size', 'int', 3), ('strides', 'tuple', (1, 1)), ('padding', 'str', 'valid'), ('data_format', 'fmt', None), ('dilation_rate', 'tuple', (1, 1)), ('depth_multiplier', 'int', 1), ('activation', 'act', None), ('use_bias', 'bool', True), ('depthwise_initializer', 'init', 'glorot_uniform'), ('pointwise_initializer', 'init', 'glorot_uniform'), ('bias_initializer', 'init', 'zeros')],
    "SimpleRNN": [('units', 'int', 3), ('activation', 'act', 'tanh'), ('use_bias', 'bool', True), ('kernel_initializer', 'init', 'glorot_uniform'), ('recurrent_initializer', 'init', 'orthogonal'), ('bias_initializer', 'init', 'zeros'), ('dropout', 'float', 0.0), ('recurrent_dropout', 'float', 0.0), ('return_sequences', 'bool', False), ('return_state', 'bool', False), ('go_backwards', 'bool', False), ('seed', 'int', None)],
    "Softmax": [('axis', 'axis', -1)],
    "SpatialDropout1D": [('rate', 'float', 0.5), ('seed', 'int', None)],
    "SpatialDropout2D": [('rate', 'float', 0.5), ('data_format', 'fmt', None), ('seed', 'int', None)],
    "Subtract": [],
    "UnitNormalization": [('axis', 'axis', -1)],
    "UpSampling1D": [('size', 'int', 2)],
    "UpSampling2D": [('size', 'tuple', (2, 2)), ('data_format', 'fmt', None), ('interpolation', 'str', 'nearest')],
    "UpSampling3D": [('size', 'tuple', (2, 2, 2)), ('data_format', 'fmt', None)],
    "ZeroPadding1D": [('padding', 'int', 1), ('data_format', 'fmt', None)],
    "ZeroPadding2D": [('padding', 'tuple', (1, 1)), ('data_format', 'fmt', None)],
    "ZeroPadding3D": [('padding', 'tuple', ((1, 1), (1, 1), (1, 1))), ('data_format', 'fmt', None)],
    "Discretization": [('num_bins', 'int', None), ('epsilon', 'float', 0.01), ('output_mode', 'str', 'int'), ('sparse', 'bool', False)],
    "IntegerLookup": [('max_tokens', 'int', None), ('num_oov_indices', 'int', 1), ('mask_token', 'any', None), ('oov_token', 'int', -1), ('vocabulary_dtype', 'str', 'int64'), ('invert', 'bool', False), ('output_mode', 'str', 'int'), ('sparse', 'bool', False), ('pad_to_max_tokens', 'bool', False), ('oov_method', 'str', 'floormod'), ('salt', 'any', None)],
    "StringLookup": [('max_tokens', 'int', None), ('num_oov_indices', 'int', 1), ('mask_token', 'any', None), ('oov_token', 'str', '[UNK]'), ('invert', 'bool', False), ('output_mode', 'str', 'int'), ('pad_to_max_tokens', 'bool', False), ('sparse', 'bool', False), ('salt', 'any', None)],
    "TextVectorization": [('max_tokens', 'int', None), ('standardize', 'str', 'lower_and_strip_punctuation'), ('split', 'str', 'whitespace'), ('ngrams', 'any', None), ('output_mode', 'str', 'int'), ('output_sequence_length', 'int', None), ('pad_to_max_tokens', 'bool', False), ('sparse', 'bool', False), ('ragged', 'bool', False)],
    "HashedCrossing": [('num_bins', 'int', 5), ('output_mode', 'str', 'int'), ('sparse', 'bool', False)],
    "Multiply": [],
    "Average": [],
    "Minimum": [],
}

#: each layer's required arguments and the input of its small call (None: constructed, not called)
BASES: dict[str, tuple[dict[str, Any], str | None]] = {
    "Activation": ({"activation": "relu"}, "vec"), "ActivityRegularization": ({}, "vec"),
    "AdaptiveAveragePooling1D": ({"output_size": 3}, "seq"), "AdaptiveMaxPooling2D": ({"output_size": 2}, "img"),
    "Add": ({}, "pair_vec"), "AdditiveAttention": ({}, "pair_seq"), "AlphaDropout": ({"rate": 0.5}, "vec"),
    "Attention": ({}, "pair_seq"), "AveragePooling1D": ({"pool_size": 2}, "seq"),
    "AveragePooling2D": ({"pool_size": (2, 2)}, "img"), "AveragePooling3D": ({"pool_size": 2}, "vol"),
    "BatchNormalization": ({}, "img"), "CategoryEncoding": ({"num_tokens": 12}, "ids"),
    "CenterCrop": ({"height": 4, "width": 4}, "img"), "Concatenate": ({}, "pair_seq"),
    "Conv1D": ({"filters": 2, "kernel_size": 3}, "seq"), "Conv1DTranspose": ({"filters": 2, "kernel_size": 3}, "seq"),
    "Conv2D": ({"filters": 2, "kernel_size": (3, 3)}, "img"), "Conv2DTranspose": ({"filters": 2, "kernel_size": 3}, "img"),
    "Conv3D": ({"filters": 2, "kernel_size": 2}, "vol"), "Cropping1D": ({}, "seq"), "Cropping2D": ({}, "img"),
    "Cropping3D": ({}, "vol"), "Dense": ({"units": 3}, "vec"), "DepthwiseConv1D": ({"kernel_size": 3}, "seq"),
    "DepthwiseConv2D": ({"kernel_size": 3}, "img"), "Dot": ({"axes": -1}, "pair_vec"), "Dropout": ({"rate": 0.5}, "vec"),
    "ELU": ({}, "vec"), "EinsumDense": ({"equation": "ab,bc->ac", "output_shape": 3}, "vec"),
    "Embedding": ({"input_dim": 12, "output_dim": 3}, "ids"), "Flatten": ({}, "img"), "GRU": ({"units": 3}, "seq"),
    "GaussianDropout": ({"rate": 0.5}, "vec"), "GaussianNoise": ({"stddev": 0.5}, "vec"),
    "GlobalAveragePooling1D": ({}, "seq"), "GlobalAveragePooling2D": ({}, "img"), "GlobalMaxPooling1D": ({}, "seq"),
    "GlobalMaxPooling3D": ({}, "vol"), "GroupNormalization": ({"groups": 3}, "img"),
    "GroupQueryAttention": ({"head_dim": 2, "num_query_heads": 2, "num_key_value_heads": 1}, "pair_seq"),
    "Hashing": ({"num_bins": 5}, "ids"), "Identity": ({}, "vec"), "LSTM": ({"units": 3}, "seq"),
    "LayerNormalization": ({}, "img"), "LeakyReLU": ({}, "vec"), "Masking": ({}, "seq"),
    "MaxPooling1D": ({"pool_size": 2}, "seq"), "MaxPooling2D": ({"pool_size": (2, 2)}, "img"),
    "MaxPooling3D": ({"pool_size": 2}, "vol"), "Maximum": ({}, "pair_vec"),
    "MultiHeadAttention": ({"num_heads": 2, "key_dim": 2}, "pair_seq"),
    "Normalization": ({"mean": 0.5, "variance": 2.0}, "vec"), "PReLU": ({}, "seq"), "Permute": ({"dims": (2, 1)}, "seq"),
    "RMSNormalization": ({}, "vec"), "RandomFlip": ({}, "img255"), "RandomRotation": ({"factor": 0.1}, "img255"),
    "RandomZoom": ({"height_factor": 0.1}, "img255"),
    "RandomTranslation": ({"height_factor": 0.1, "width_factor": 0.1}, "img255"),
    "RandomContrast": ({"factor": 0.1}, "img255"), "RandomBrightness": ({"factor": 0.1}, "img255"),
    "RandomCrop": ({"height": 4, "width": 4}, "img255"), "ReLU": ({}, "vec"), "RepeatVector": ({"n": 2}, "vec"),
    "Rescaling": ({"scale": 0.5}, "vec"), "Reshape": ({"target_shape": (2, 2)}, "vec"),
    "Resizing": ({"height": 4, "width": 4}, "img"), "SeparableConv1D": ({"filters": 2, "kernel_size": 3}, "seq"),
    "SeparableConv2D": ({"filters": 2, "kernel_size": 3}, "img"), "SimpleRNN": ({"units": 3}, "seq"),
    "Softmax": ({}, "seq"), "SpatialDropout1D": ({"rate": 0.5}, "seq"), "SpatialDropout2D": ({"rate": 0.5}, "img"),
    "Subtract": ({}, "pair_vec"), "UnitNormalization": ({}, "vec"), "UpSampling1D": ({}, "seq"),
    "UpSampling2D": ({}, "img"), "UpSampling3D": ({}, "vol"), "ZeroPadding1D": ({}, "seq"),
    "ZeroPadding2D": ({}, "img"), "ZeroPadding3D": ({}, "vol"),
    "Discretization": ({"bin_boundaries": [0.0, 1.0]}, "vec"), "IntegerLookup": ({"vocabulary": [1, 2, 3]}, "ids"),
    "StringLookup": ({"vocabulary": ["a", "b"]}, "strs"), "TextVectorization": ({}, None),
    "HashedCrossing": ({"num_bins": 5}, None), "Multiply": ({}, "pair_vec"), "Average": ({}, "pair_vec"),
    "Minimum": ({}, "pair_vec"),
}

#: the families (one program each) and their layers
FAMILIES: dict[str, tuple[str, ...]] = {
    "core": ("Activation", "ActivityRegularization", "Dense", "EinsumDense", "Embedding", "Identity", "Masking",
             "Flatten", "Permute", "RepeatVector", "Reshape", "Dropout", "AlphaDropout", "GaussianDropout",
             "GaussianNoise", "SpatialDropout1D", "SpatialDropout2D"),
    "conv": ("Conv1D", "Conv1DTranspose", "Conv2D", "Conv2DTranspose", "Conv3D", "DepthwiseConv1D", "DepthwiseConv2D",
             "SeparableConv1D", "SeparableConv2D"),
    "pool-shape": ("AdaptiveAveragePooling1D", "AdaptiveMaxPooling2D", "AveragePooling1D", "AveragePooling2D",
                   "AveragePooling3D", "MaxPooling1D", "MaxPooling2D", "MaxPooling3D", "GlobalAveragePooling1D",
                   "GlobalAveragePooling2D", "GlobalMaxPooling1D", "GlobalMaxPooling3D", "Cropping1D", "Cropping2D",
                   "Cropping3D", "UpSampling1D", "UpSampling2D", "UpSampling3D", "ZeroPadding1D", "ZeroPadding2D",
                   "ZeroPadding3D"),
    "norm-act": ("BatchNormalization", "LayerNormalization", "GroupNormalization", "RMSNormalization",
                 "UnitNormalization", "Normalization", "ELU", "LeakyReLU", "PReLU", "ReLU", "Softmax"),
    "rnn-attention-merge": ("SimpleRNN", "GRU", "LSTM", "Attention", "AdditiveAttention", "MultiHeadAttention",
                            "GroupQueryAttention", "Add", "Subtract", "Multiply", "Average", "Maximum", "Minimum",
                            "Concatenate", "Dot"),
    "preprocessing": ("CategoryEncoding", "CenterCrop", "Discretization", "Hashing", "HashedCrossing", "IntegerLookup",
                      "StringLookup", "TextVectorization", "RandomFlip", "RandomRotation", "RandomZoom",
                      "RandomTranslation", "RandomContrast", "RandomBrightness", "RandomCrop", "Rescaling",
                      "Resizing"),
}

#: layers also fed dtype options
DTYPE_LAYERS = ("Dense", "Embedding", "Conv2D", "BatchNormalization", "LayerNormalization", "Softmax", "Rescaling",
                "GRU", "MultiHeadAttention", "Normalization", "Add", "Dropout")


def _tuple_map(v: Any, f: Callable[[int], Any]) -> Any:
    return tuple(_tuple_map(x, f) for x in v) if isinstance(v, (tuple, list)) else f(v)


def variants(tf: Any, kind: str, d: Any) -> list[tuple[str, Any, bool]]:
    """The values fed to an argument of `kind` whose default (or base value) is `d`: (label, value, call it)."""
    k = tf.keras
    if kind == "int":
        v = 3 if d is None else d
        return [("None", None, True), ("valid", v, True), ("float", float(v), True), ("str", str(v), True),
                ("bool", True, True), ("list", [v], True), ("zero", 0, True), ("negative", -1, True),
                ("large", 10 ** 6, False)]
    if kind == "float":
        v = 0.25 if d is None else d
        return [("None", None, True), ("valid", v, True), ("str", str(v), True), ("int", int(round(v)), True),
                ("zero", 0.0, True), ("negative", -0.5, True), ("above-one", 1.5, True), ("bool", True, True),
                ("list", [v], True), ("numpy", np.float32(v), True)]
    if kind == "str":
        return [("None", None, True), ("valid", d, True), ("upper", d.upper(), True), ("title", d.title(), True),
                ("unknown", "bogus", True), ("empty", "", True), ("int", 1, True)]
    if kind == "fmt":
        return [("None", None, True), ("last", "channels_last", True), ("first", "channels_first", True),
                ("upper", "CHANNELS_LAST", True), ("title", "Channels_Last", True), ("unknown", "bogus", True)]
    if kind == "bool":
        return [("None", None, True), ("valid", d, True), ("other", not d, True), ("zero", 0, True),
                ("one", 1, True), ("str", "True", True), ("str-false", "false", True)]
    if kind == "tuple":
        d = 2 if d is None else d
        return [("None", None, True), ("valid", d, True), ("list", _tuple_map(d, lambda x: x) if not isinstance(d, tuple)
                                                         else [list(x) if isinstance(x, tuple) else x for x in d], True),
                ("scalar", _flat(d)[0], True), ("zeros", _tuple_map(d, lambda x: 0), True),
                ("negative", _tuple_map(d, lambda x: -1), True), ("floats", _tuple_map(d, float), True),
                ("too-long", _too_long(d), True), ("str", str(d), True), ("large", _tuple_map(d, lambda x: 10 ** 6), False)]
    if kind == "axis":
        return [("None", None, True), ("valid", d, True), ("0", 0, True), ("1", 1, True), ("2", 2, True),
                ("-1", -1, True), ("-2", -2, True), ("-4", -4, True), ("7", 7, True), ("(1, 2)", (1, 2), True),
                ("[1, 2]", [1, 2], True), ("(2, 1)", (2, 1), True), ("(1, 1)", (1, 1), True),
                ("(-1, 1)", (-1, 1), True), ("float", 1.0, True), ("str", "1", True), ("bool", True, True)]
    if kind == "act":
        return [("None", None, True), ("valid", "relu", True), ("title", "Relu", True), ("upper", "RELU", True),
                ("linear", "linear", True), ("keras-fn", k.activations.relu, True), ("tf-fn", tf.nn.relu, True),
                ("unknown", "bogus", True), ("int", 3, True)]
    if kind == "init":
        return [("None", None, True), ("valid", d, True), ("mixed-case", "GLOROT_uniform", True),
                ("class-name", "GlorotUniform", True), ("title", "Glorot_Uniform", True), ("he", "he_normal", True),
                ("instance", k.initializers.Constant(0.5), True),
                ("callable", quarter, True),
                ("unknown", "bogus", True), ("float", 0.5, True)]
    if kind == "dtype":
        return [("None", None, True), ("float64", "float64", True), ("upper", "FLOAT64", True),
                ("mixed_float16", "mixed_float16", True), ("mixed_bfloat16", "mixed_bfloat16", True),
                ("policy", k.DTypePolicy("mixed_float16"), True), ("float16", "float16", True),
                ("tf-dtype", tf.float64, True), ("int32", "int32", True), ("unknown", "bogus", True)]
    assert kind == "any", kind
    return [("None", None, True), ("zero", 0, True), ("one", 1, True), ("str", "a", True), ("float", 1.5, True),
            ("bool", True, True), ("tuple", (1, 2), True), ("negative", -1, True)]


def quarter(shape: Any, dtype: Any = None) -> Any:
    """An initializer written as a plain function (Keras serializes it by name): a quarter everywhere."""
    return np.full(shape, 0.25, dtype or "float32")


def _flat(d: Any) -> list:
    return [y for x in d for y in _flat(x)] if isinstance(d, (tuple, list)) else [d]


def _too_long(d: Any) -> Any:
    return tuple(d) + (d[0],) if isinstance(d, (tuple, list)) else (d, d, d, d)


def inputs(tf: Any, key: str) -> Any:
    """The small call's input of kind `key` (seeded values)."""
    r = _rng(f"asweep65-{key}")
    shapes = {"vec": (2, 4), "seq": (2, 6, 4), "img": (2, 6, 6, 3), "vol": (2, 4, 4, 4, 2), "img255": (2, 8, 8, 3)}
    if key in shapes:
        hi = 255.0 if key == "img255" else 1.0
        return tf.constant(r.uniform(-hi if hi == 1.0 else 0, hi, shapes[key]).astype(np.float32))
    if key == "ids":
        return tf.constant(r.randint(0, 10, (2, 5)).astype(np.int32))
    if key == "strs":
        return tf.constant([["a", "b", "c"], ["b", "z", "a"]])
    if key == "pair_vec":
        return [tf.constant(r.uniform(-1, 1, (2, 4)).astype(np.float32)) for _ in range(2)]
    assert key == "pair_seq", key
    return [tf.constant(r.uniform(-1, 1, (2, 6, 4)).astype(np.float32)) for _ in range(2)]


def observe(tf: Any, cls: Any, kwargs: dict[str, Any], arg: str, inp: Any, call: bool) -> Any:
    """Construct cls(**kwargs) (seeded), then: the argument as the config keeps it, the config's round trip through
    from_config, and a small call's outputs (and the layer's variable and compute dtypes); each refusal by its class."""
    tf.keras.utils.set_random_seed(65)
    try:
        layer = cls(**kwargs)
    except Exception as e:  # noqa: BLE001 - the class is the observation
        return f"raised {type(e).__name__}"
    out: dict[str, Any] = {}
    cfg = _error(layer.get_config)
    out["cfg"] = jv(cfg.get(arg, "<absent>")) if isinstance(cfg, dict) else cfg
    if isinstance(cfg, dict):
        out["rt"] = _error(lambda: jv(cls.from_config(cfg).get_config()) == jv(cfg))
    if call and inp is not None:
        out["call"] = _error(lambda: outputs(layer(inp)))
        out["dtypes"] = [str(layer.dtype), str(layer.compute_dtype)]
    return out


def layer_family(family: str) -> Callable[[Any, Any], Any]:
    """The program of one family: every layer's every listed argument × its kind's values (the rest at the base)."""
    def run(tf: Any, mk: Any) -> Any:
        out: dict[str, Any] = {}
        for name in FAMILIES[family]:
            cls = getattr(tf.keras.layers, name)
            base, key = BASES[name]
            inp = inputs(tf, key) if key else None
            params = list(PARAMS[name]) + ([("dtype", "dtype", None)] if name in DTYPE_LAYERS else [])
            for arg, kind, d in params:
                for label, value, call in variants(tf, kind, d):
                    kwargs = dict(base, **{arg: value})
                    out[f"{name} {arg}={label}"] = observe(tf, cls, kwargs, arg, inp, call)
        return out
    return run


for _family in FAMILIES:
    program(f"ak-layers-{_family}", layer_family(_family))


# -- Layer.add_weight / add_variable: every option by kind -------------------------------------------------------
#: (option, values by label): each fed alone, the other options at their defaults
WEIGHT_OPTIONS: dict[str, list[tuple[str, Any]]] = {
    "shape": [("int", 3), ("tuple", (3,)), ("list", [3]), ("None", None), ("scalar", ()), ("zero-size", (2, 0)),
              ("negative", (-1,)), ("float", (3.0,)), ("str", "3"), ("rank-2", (2, 3))],
    "initializer": [("zeros", "zeros"), ("title", "Ones"), ("mixed-case", "GLOROT_uniform"), ("None", None),
                    ("class-name", "RandomNormal"), ("callable", "quarter"), ("unknown", "bogus"), ("float", 0.5)],
    "trainable": [("True", True), ("False", False), ("None", None), ("zero", 0), ("str", "no")],
    "regularizer": [("None", None), ("l2", "l2"), ("upper", "L2"), ("instance", "L1"), ("unknown", "bogus")],
    "constraint": [("None", None), ("non_neg", "non_neg"), ("title", "NonNeg"), ("instance", "MaxNorm"),
                   ("unknown", "bogus")],
    "dtype": [("None", None), ("float64", "float64"), ("int32", "int32"), ("bool", "bool"), ("float16", "float16"),
              ("mixed", "mixed_float16"), ("upper", "FLOAT64"), ("unknown", "bogus")],
    "aggregation": [("none", "none"), ("mean", "mean"), ("sum", "sum"), ("first", "only_first_replica"),
                    ("upper", "MEAN"), ("None", None), ("unknown", "bogus")],
    "synchronization": [("auto", "auto"), ("on_read", "on_read"), ("on_write", "on_write"), ("none", "none"),
                        ("None", None), ("unknown", "bogus")],
    "autocast": [("True", True), ("False", False), ("None", None)],
    "name": [("None", None), ("plain", "w"), ("slash", "a/b"), ("empty", "")],
}


def _weight_value(tf: Any, label: str, value: Any) -> Any:
    k = tf.keras
    objects = {"quarter": quarter, "L1": k.regularizers.L1(0.1) if label == "instance" else None,
               "MaxNorm": k.constraints.MaxNorm(0.5)}
    if isinstance(value, str) and value in objects and (value != "L1" or label == "instance"):
        return objects[value]
    return value


def variable_options(tf: Any, mk: Any) -> Any:
    """Layer.add_weight and Layer.add_variable (and each positionally) with every option fed alone, under float32 and
    mixed_float16: the variable's shape, dtype, trainability, aggregation, synchronization, value digest, the layer's
    regularization losses and the dtype a call sees (autocast), or the error class."""
    k = tf.keras
    out: dict[str, Any] = {}
    for method in ("add_weight", "add_variable"):
        for option, values in WEIGHT_OPTIONS.items():
            for label, raw in values:
                for policy in ("float32", "mixed_float16"):
                    if policy != "float32" and option not in ("dtype", "autocast", "initializer", "regularizer"):
                        continue
                    value = _weight_value(tf, label, raw)
                    kwargs = {"shape": (3,), "initializer": "ones"}
                    kwargs[option] = value
                    out[f"{method} {option}={label} {policy}"] = _error(
                        lambda kwargs=kwargs, method=method, policy=policy: _one_weight(tf, method, kwargs, policy))
        out[f"{method} positional"] = _error(lambda method=method: _one_weight(
            tf, method, {}, "float32", args=((2,), "ones", "float64")))
    return out


def _one_weight(tf: Any, method: str, kwargs: dict[str, Any], policy: str, args: tuple = ()) -> Any:
    k = tf.keras
    k.mixed_precision.set_global_policy(policy)
    try:
        tf.keras.utils.set_random_seed(65)
        seen: list[Any] = []

        class Own(k.layers.Layer):
            def build(self, shape: Any) -> None:
                self.v = getattr(self, method)(*args, **kwargs)

            def call(self, x: Any) -> Any:
                seen.append(k.backend.standardize_dtype(self.v.dtype))
                return x

        layer = Own()
        layer(np.ones((2, 3), "float32"))
        v = layer.v
        return {"shape": list(v.shape), "dtype": k.backend.standardize_dtype(v.dtype), "trainable": bool(v.trainable),
                "aggregation": str(getattr(v, "aggregation", None)),
                "synchronization": str(getattr(v, "synchronization", None)),
                # (an unnamed variable's and its layer's names carry process-wide counters: given names only)
                "name": v.name if kwargs.get("name") else "<auto>",
                "path": v.path.split("/", 1)[-1] if kwargs.get("name") else "<auto>",
                "value": digest(v), "losses": len(layer.losses), "seen": seen,
                "weights": [len(layer.trainable_weights), len(layer.non_trainable_weights)]}
    finally:
        k.mixed_precision.set_global_policy("float32")


program("a-variable-options", variable_options)


# -- keras.Input / InputSpec arguments, and Inputs with a batch size called at another --------------------------------
def input_arguments(tf: Any, mk: Any) -> Any:
    """keras.Input's shape/batch_size/batch_shape/dtype/name fed by kind (the KerasTensor's shape and dtype);
    InputSpec's ndim/min_ndim/max_ndim/axes/shape checked against inputs of ranks 1-4; functional and Sequential
    models on Inputs with batch sizes or None dimensions called eagerly, predicted, evaluated and fitted at other batch
    sizes: the output shapes, losses' digests, or the error classes."""
    k = tf.keras
    L = k.layers
    out: dict[str, Any] = {}
    shapes = {"int": 3, "tuple": (3,), "list": [3], "None-dims": (None, 3), "empty": (), "None": None,
              "zero": (0,), "negative": (-1,), "float": (3.0,), "str": ("3",), "bool": (True,)}
    for label, shape in shapes.items():
        out[f"Input shape={label}"] = _error(lambda shape=shape: _kt(k.Input(shape)))
    for label, b in {"int": 4, "None": None, "zero": 0, "negative": -2, "float": 4.0, "str": "4", "bool": True}.items():
        out[f"Input batch_size={label}"] = _error(lambda b=b: _kt(k.Input((3,), batch_size=b)))
    for label, bs in {"tuple": (2, 3), "list": [2, None], "None-batch": (None, 3), "with-shape": "both"}.items():
        out[f"Input batch_shape={label}"] = _error(
            lambda bs=bs: _kt(k.Input((3,), batch_shape=(2, 3)) if bs == "both" else k.Input(batch_shape=bs)))
    for label, dt in {"None": None, "float64": "float64", "int32": "int32", "upper": "FLOAT64", "tf": tf.float16,
                      "mixed": "mixed_float16", "policy": k.DTypePolicy("float64"), "bool": "bool", "unknown": "bogus"
                      }.items():
        out[f"Input dtype={label}"] = _error(lambda dt=dt: _kt(k.Input((3,), dtype=dt)))
    for label, nm in {"None": None, "plain": "x", "empty": "", "slash": "a/b", "int": 3}.items():
        out[f"Input name={label}"] = _error(lambda nm=nm: [k.Input((3,), name=nm).name is not None])
    specs = {"ndim=2": dict(ndim=2), "min_ndim=3": dict(min_ndim=3), "max_ndim=2": dict(max_ndim=2),
             "axes={-1: 3}": dict(axes={-1: 3}), "axes={1: 3}": dict(axes={1: 3}), "axes={5: 3}": dict(axes={5: 3}),
             "shape=(None, 3)": dict(shape=(None, 3)), "shape=(2, None)": dict(shape=(2, None)),
             "dtype=int32": dict(dtype="int32"), "ndim+shape": dict(ndim=3, shape=(None, 3)),
             "allow_last_axis_squeeze": dict(shape=(None, 3, 1), allow_last_axis_squeeze=True)}
    for label, spec_kw in specs.items():
        for shape in ((3,), (2, 3), (2, 3, 1), (2, 4, 3)):
            out[f"InputSpec {label} at {shape}"] = _error(lambda spec_kw=spec_kw, shape=shape: _spec_call(
                tf, spec_kw, shape))
    f32 = np.float32
    x8, y8 = np.ones((8, 3), f32) * np.arange(8, dtype=f32)[:, None] / 8, np.ones((8, 2), f32)
    for label, inp in {"batch_size=4": lambda: k.Input((3,), batch_size=4),
                       "batch_shape=(4, 3)": lambda: k.Input(batch_shape=(4, 3)),
                       "shape=(None,)": lambda: k.Input((None,)), "shape=(3,)": lambda: k.Input((3,))}.items():
        for kind in ("functional", "sequential"):
            def build(inp: Any = inp, kind: str = kind) -> Any:
                k.utils.set_random_seed(65)
                i = inp()
                if kind == "sequential":
                    return k.Sequential([i, L.Dense(2, kernel_initializer="ones")])
                return k.Model(i, L.Dense(2, kernel_initializer="ones")(i))
            for b in (1, 4, 5):
                out[f"{label} {kind} call {b}"] = _error(lambda build=build, b=b: digest(build()(x8[:b])))
            out[f"{label} {kind} predict 8/3"] = _error(
                lambda build=build: digest(build().predict(x8, batch_size=3, verbose=0)))
            out[f"{label} {kind} fit 8/4, 8/3"] = _error(lambda build=build: _fit_twice(tf, build(), x8, y8))
            out[f"{label} {kind} evaluate 8/5"] = _error(lambda build=build: _evaluate(tf, build(), x8, y8))
            out[f"{label} {kind} output_shape"] = _error(lambda build=build: str(build().output_shape))
    return out


def _kt(t: Any) -> Any:
    return [str(t.shape), str(t.dtype)]


def _spec_call(tf: Any, spec_kw: dict[str, Any], shape: tuple) -> Any:
    k = tf.keras

    class Checked(k.layers.Layer):
        def __init__(self) -> None:
            super().__init__()
            self.input_spec = k.InputSpec(**spec_kw)

        def call(self, x: Any) -> Any:
            return x

    return digest(Checked()(np.ones(shape, "float32")))


def _fit_twice(tf: Any, m: Any, x: Any, y: Any) -> Any:
    m.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse")
    h1 = m.fit(x, y, batch_size=4, epochs=1, verbose=0, shuffle=False).history["loss"]
    h2 = m.fit(x, y, batch_size=3, epochs=1, verbose=0, shuffle=False).history["loss"]
    return [np.float64(h1[0]).hex(), np.float64(h2[0]).hex(), digest(m.weights[0])]


def _evaluate(tf: Any, m: Any, x: Any, y: Any) -> Any:
    m.compile(optimizer="sgd", loss="mse")
    return np.float64(m.evaluate(x, y, batch_size=5, verbose=0)).hex()


program("a-input-arguments", input_arguments)


# -- Model.summary's layouts -------------------------------------------------------------------------------------
SUMMARY_LAYOUTS: dict[str, dict[str, Any]] = {
    "default": {}, "line_length=40": dict(line_length=40), "line_length=50": dict(line_length=50),
    "line_length=150": dict(line_length=150), "line_length=None": dict(line_length=None),
    "positions short fractions": dict(line_length=80, positions=[0.5]),
    "positions two fractions": dict(line_length=80, positions=[0.2, 0.4]),
    "positions long fractions": dict(line_length=80, positions=[0.1, 0.2, 0.3, 0.4, 0.5, 0.6]),
    "positions absolute short": dict(line_length=80, positions=[10, 20]),
    "positions absolute beyond": dict(line_length=60, positions=[30, 60, 90]),
    "positions absolute tight": dict(line_length=70, positions=[5, 10, 15]),
    "positions decreasing": dict(line_length=80, positions=[0.6, 0.3, 0.9]),
    "positions with trainable short": dict(line_length=90, positions=[0.4, 0.8], show_trainable=True),
    "positions with trainable long": dict(line_length=90, positions=[0.3, 0.5, 0.6, 0.7, 0.95],
                                          show_trainable=True),
    "expand_nested": dict(expand_nested=True), "expand_nested+trainable": dict(expand_nested=True,
                                                                               show_trainable=True),
    "layer_range names": dict(layer_range=["d1", "d2"]), "layer_range one": dict(layer_range=["d2", "d2"]),
    "layer_range reversed": dict(layer_range=["d2", "d1"]), "layer_range unknown": dict(layer_range=["d1", "zz"]),
    "layer_range three": dict(layer_range=["d1", "d2", "d2"]), "layer_range str": dict(layer_range="d1"),
    "layer_range nested": dict(layer_range=["inner", "d2"], expand_nested=True),
}


def summary_layouts(tf: Any, mk: Any) -> Any:
    """Model.summary of a Sequential model holding a nested model and of a functional model, under line lengths
    shorter and longer than the header's, positions as fractions and absolute ends, fewer and more than the columns,
    show_trainable, expand_nested and layer_range (names, reversed, unknown, a str): the printed text or the error
    class."""
    k = tf.keras
    L = k.layers
    inner = k.Sequential([k.Input((5,)), L.Dense(4, name="inner_dense")], name="inner")
    inner.layers[0].trainable = False
    seq = k.Sequential([k.Input((6,)), L.Dense(5, name="d1"), inner, L.Dense(2, name="d2")], name="seq")
    a = k.Input((6,), name="a")
    fn = k.Model(a, L.Dense(2, name="d2")(inner(L.Dense(5, name="d1")(a))), name="fn")
    out: dict[str, Any] = {}
    for mname, model in (("seq", seq), ("fn", fn)):
        for label, kw in SUMMARY_LAYOUTS.items():
            lines: list[str] = []
            out[f"{mname} {label}"] = _error(
                lambda model=model, kw=kw, lines=lines: model.summary(print_fn=lambda s, **_: lines.append(s), **kw)
                or "\n".join(lines))
    return out


program("a-summary-layouts", summary_layouts)


# -- softmax over tuples of axes ---------------------------------------------------------------------------------
def softmax_axes(tf: Any, mk: Any) -> Any:
    """keras.ops.softmax/log_softmax and layers.Softmax over every permutation of 2 and 3 axes of rank-3 and rank-4
    inputs, negative axes, duplicates, out of range and the full tuple, float32 and float64: the bits or the error
    class. (Keras moves the axes to the end by a permutation and back by its inverse.)"""
    import itertools
    k = tf.keras
    out: dict[str, Any] = {}
    for rank in (3, 4):
        for dt in ("float32", "float64"):
            shape = (2, 3, 4, 5)[:rank]
            x = tf.constant(_rng(f"asweep65-softmax-{rank}-{dt}").uniform(-3, 3, shape).astype(dt))
            axes_list: list[Any] = []
            for n in (2, 3):
                axes_list += [tuple(p) for p in itertools.permutations(range(rank), n)]
            axes_list += [(-1, -2), (-3, -1), (0, 0), (1, -rank + 1), (0, rank), tuple(range(rank)), [1, 2], -1]
            for axes in axes_list:
                out[f"softmax {rank} {dt} {axes}"] = _error(lambda x=x, axes=axes: digest(k.ops.softmax(x, axes)))
                if rank == 3:
                    out[f"log_softmax {rank} {dt} {axes}"] = _error(
                        lambda x=x, axes=axes: digest(k.ops.log_softmax(x, axes)))
                    out[f"Softmax layer {rank} {dt} {axes}"] = _error(
                        lambda x=x, axes=axes: digest(k.layers.Softmax(axis=axes)(x)))
    return out


program("ak-softmax-axes", softmax_axes)


# -- losses, metrics, optimizers, schedules, callbacks: constructor arguments by kind -------------------------------
def _feed(tf: Any, make: Callable[..., Any], base: dict[str, Any], arg: str, kind: str, d: Any,
          use: Callable[[Any], Any]) -> dict[str, Any]:
    """make(**base, arg=value) for each of the kind's values: the argument as get_config keeps it, the config's round
    trip, and `use(obj)`; or the error class."""
    out: dict[str, Any] = {}
    for label, value, _ in variants(tf, kind, d):
        def one(value: Any = value) -> Any:
            tf.keras.utils.set_random_seed(65)
            obj = make(**dict(base, **{arg: value}))
            cfg = _error(obj.get_config)
            res: dict[str, Any] = {"cfg": jv(cfg.get(arg, "<absent>")) if isinstance(cfg, dict) else cfg}
            if isinstance(cfg, dict):
                res["rt"] = _error(lambda: jv(type(obj).from_config(cfg).get_config()) == jv(cfg))
            res["use"] = _error(lambda: use(obj))
            return res
        out[f"{arg}={label}"] = _error(one)
    return out


#: loss classes and their arguments fed by kind (reduction and dtype for all, the rest per class)
LOSSES: dict[str, list[tuple[str, str, Any]]] = {
    "MeanSquaredError": [], "MeanAbsoluteError": [], "Huber": [("delta", "float", 1.0)],
    "BinaryCrossentropy": [("from_logits", "bool", False), ("label_smoothing", "float", 0.0), ("axis", "axis", -1)],
    "CategoricalCrossentropy": [("from_logits", "bool", False), ("label_smoothing", "float", 0.0),
                                ("axis", "axis", -1)],
    "SparseCategoricalCrossentropy": [("from_logits", "bool", False), ("ignore_class", "int", None)],
    "BinaryFocalCrossentropy": [("gamma", "float", 2.0), ("alpha", "float", 0.25),
                                ("apply_class_balancing", "bool", False)],
    "CosineSimilarity": [("axis", "axis", -1)], "LogCosh": [], "Tversky": [("alpha", "float", 0.5)],
    "Dice": [("axis", "axis", None)], "KLDivergence": [], "Hinge": [], "Poisson": [],
}
REDUCTIONS = [("None", None), ("sum", "sum"), ("upper", "SUM"), ("mean", "mean"), ("sum_over_batch_size",
              "sum_over_batch_size"), ("mean_with_sample_weight", "mean_with_sample_weight"), ("none", "none"),
              ("auto", "auto"), ("unknown", "bogus")]


def loss_arguments(tf: Any, mk: Any) -> Any:
    """Every loss class listed with reduction (every name, other case, None, unknown), dtype options and its own
    arguments fed by kind: the loss of a small batch (bits), the config and its round trip, or the error class."""
    k = tf.keras
    r = _rng("asweep65-losses")
    yp = r.uniform(0.05, 0.95, (3, 4)).astype(np.float32)
    yt = (r.uniform(0, 1, (3, 4)) > 0.5).astype(np.float32)
    ys = np.array([0, 3, 1], np.int32)
    out: dict[str, Any] = {}
    for name, params in LOSSES.items():
        cls = getattr(k.losses, name)
        y_true = ys if name.startswith("Sparse") else yt

        def use(loss: Any, y_true: Any = y_true) -> Any:
            return digest(loss(y_true, yp)) + [digest(loss(y_true, yp, sample_weight=np.array([1.0, 0.0, 2.0],
                                                                                                np.float32)))]
        for label, value in REDUCTIONS:
            out[f"{name} reduction={label}"] = _error(lambda value=value, cls=cls, use=use: _feed(
                tf, cls, {}, "reduction", "any", None, use) if False else _loss_one(tf, cls, {"reduction": value}, use))
        for label, value, _ in variants(tf, "dtype", None):
            out[f"{name} dtype={label}"] = _error(lambda value=value, cls=cls, use=use: _loss_one(
                tf, cls, {"dtype": value}, use))
        for arg, kind, d in params:
            for key, res in _feed(tf, cls, {}, arg, kind, d, use).items():
                out[f"{name} {key}"] = res
    return out


def _loss_one(tf: Any, cls: Any, kwargs: dict[str, Any], use: Callable[[Any], Any]) -> Any:
    obj = cls(**kwargs)
    cfg = _error(obj.get_config)
    res: dict[str, Any] = {"cfg": jv({a: cfg.get(a, "<absent>") for a in kwargs}) if isinstance(cfg, dict) else cfg}
    if isinstance(cfg, dict):
        res["rt"] = _error(lambda: jv(cls.from_config(cfg).get_config()) == jv(cfg))
    res["use"] = _error(lambda: use(obj))
    return res


program("a-loss-arguments", loss_arguments)

#: metric classes and their arguments fed by kind
METRICS: dict[str, tuple[dict[str, Any], list[tuple[str, str, Any]]]] = {
    "Accuracy": ({}, []), "BinaryAccuracy": ({}, [("threshold", "float", 0.5)]),
    "AUC": ({}, [("num_thresholds", "int", 200), ("curve", "str", "ROC"), ("summation_method", "str", "interpolation"),
                 ("from_logits", "bool", False), ("multi_label", "bool", False)]),
    "Precision": ({}, [("thresholds", "float", None), ("top_k", "int", None)]),
    "Recall": ({}, [("thresholds", "float", None), ("class_id", "int", None)]),
    "MeanIoU": ({"num_classes": 4}, [("num_classes", "int", 4), ("axis", "axis", -1)]),
    "TopKCategoricalAccuracy": ({}, [("k", "int", 5)]), "Mean": ({}, []), "Sum": ({}, []),
    "F1Score": ({}, [("average", "str", "macro"), ("threshold", "float", None)]),
    "R2Score": ({}, [("class_aggregation", "str", "uniform_average"), ("num_regressors", "int", 0)]),
    "MeanSquaredError": ({}, []), "CategoricalAccuracy": ({}, []),
}


def metric_arguments(tf: Any, mk: Any) -> Any:
    """Metric classes with name and dtype options and their own arguments fed by kind: the result after two updates
    (bits), the config and its round trip, or the error class."""
    k = tf.keras
    r = _rng("asweep65-metrics")
    yp = r.uniform(0.05, 0.95, (6, 4)).astype(np.float32)
    yt = (r.uniform(0, 1, (6, 4)) > 0.5).astype(np.float32)
    out: dict[str, Any] = {}
    for name, (base, params) in METRICS.items():
        cls = getattr(k.metrics, name)

        def use(m: Any, name: str = name) -> Any:
            if name in ("Mean", "Sum"):
                m.update_state(yp)
                m.update_state(yt, sample_weight=np.ones((6, 4), np.float32) * 0.5)
            elif name == "MeanIoU":
                m.update_state(np.argmax(yt, -1), np.argmax(yp, -1))
            else:
                m.update_state(yt, yp)
                m.update_state(yt[:3], yp[3:])
            return outputs(m.result())
        for label, value, _ in variants(tf, "dtype", None):
            out[f"{name} dtype={label}"] = _error(lambda value=value, cls=cls, use=use, base=base: _loss_one(
                tf, cls, dict(base, dtype=value), use))
        for label, value in (("None", None), ("plain", "m"), ("empty", ""), ("int", 3)):
            out[f"{name} name={label}"] = _error(lambda value=value, cls=cls, use=use, base=base: _loss_one(
                tf, cls, dict(base, name=value), use))
        for arg, kind, d in params:
            for key, res in _feed(tf, cls, base, arg, kind, d, use).items():
                out[f"{name} {key}"] = res
    return out


program("a-metric-arguments", metric_arguments)

#: optimizers and their arguments fed by kind
OPTIMIZERS: dict[str, list[tuple[str, str, Any]]] = {
    "SGD": [("learning_rate", "float", 0.01), ("momentum", "float", 0.0), ("nesterov", "bool", False)],
    "Adam": [("beta_1", "float", 0.9), ("epsilon", "float", 1e-07), ("amsgrad", "bool", False)],
    "RMSprop": [("rho", "float", 0.9), ("centered", "bool", False)],
    "Adagrad": [("initial_accumulator_value", "float", 0.1)],
    "AdamW": [("weight_decay", "float", 0.004)], "Lion": [("beta_2", "float", 0.99)],
    "Adadelta": [("rho", "float", 0.95)], "Ftrl": [("learning_rate_power", "float", -0.5)],
}
COMMON_OPTIMIZER_ARGS: list[tuple[str, str, Any]] = [
    ("clipnorm", "float", None), ("clipvalue", "float", None), ("global_clipnorm", "float", None),
    ("use_ema", "bool", False), ("ema_momentum", "float", 0.99), ("loss_scale_factor", "float", None),
    ("gradient_accumulation_steps", "int", None), ("weight_decay", "float", None)]


def five_hundredths() -> float:
    """A learning rate written as a plain function (Keras serializes it by name)."""
    return 0.05


def optimizer_arguments(tf: Any, mk: Any) -> Any:
    """Every optimizer listed with its own arguments and the common ones (clipping, EMA, loss scale, gradient
    accumulation, weight decay) fed by kind, and learning rates as schedules, callables and tensors: two steps on a
    float32 variable (bits), the config and its round trip, or the error class; schedules' arguments by kind
    (decay_steps 0, negative, float, str; boundaries and values of other lengths)."""
    k = tf.keras
    out: dict[str, Any] = {}
    g = np.array([0.3, -2.0, 0.7], np.float32)

    def use(opt: Any) -> Any:
        v = k.Variable(np.array([1.0, -1.0, 0.5], np.float32))
        for _ in range(2):
            opt.apply_gradients([(tf.constant(g), v)])
        return [digest(v), int(opt.iterations.numpy())]
    for name, params in OPTIMIZERS.items():
        cls = getattr(k.optimizers, name)
        for arg, kind, d in params + ([] if name != "SGD" else COMMON_OPTIMIZER_ARGS):
            for key, res in _feed(tf, cls, {}, arg, kind, d, use).items():
                out[f"{name} {key}"] = res
    lrs = {"schedule": lambda: k.optimizers.schedules.ExponentialDecay(0.1, 1, 0.5),
           "callable": lambda: five_hundredths, "tensor": lambda: tf.constant(0.05),
           "variable": lambda: tf.Variable(0.05), "int": lambda: 1, "numpy": lambda: np.float64(0.05)}
    for label, lr in lrs.items():
        out[f"SGD learning_rate={label}"] = _error(lambda lr=lr: _loss_one(tf, k.optimizers.SGD,
                                                                           {"learning_rate": lr()}, use))
    S = k.optimizers.schedules
    scheds = {"ExponentialDecay": (S.ExponentialDecay, {"initial_learning_rate": 0.1, "decay_steps": 2,
                                                         "decay_rate": 0.5}, [("decay_steps", "int", 2),
                                                                              ("staircase", "bool", False)]),
              "PolynomialDecay": (S.PolynomialDecay, {"initial_learning_rate": 0.1, "decay_steps": 4},
                                  [("decay_steps", "int", 4), ("power", "float", 1.0), ("cycle", "bool", False)]),
              "CosineDecay": (S.CosineDecay, {"initial_learning_rate": 0.1, "decay_steps": 4},
                              [("decay_steps", "int", 4), ("alpha", "float", 0.0), ("warmup_steps", "int", 0)]),
              "InverseTimeDecay": (S.InverseTimeDecay, {"initial_learning_rate": 0.1, "decay_steps": 2,
                                                         "decay_rate": 0.5}, [("decay_rate", "float", 0.5)]),
              "PiecewiseConstantDecay": (S.PiecewiseConstantDecay, {"boundaries": [2, 4], "values": [0.1, 0.05, 0.01]},
                                         [("boundaries", "tuple", (2, 4))])}

    def use_s(s: Any) -> Any:
        return [outputs(s(step)) for step in (0, 3, 5, np.int64(7))]
    for name, (cls, base, params) in scheds.items():
        for arg, kind, d in params:
            for key, res in _feed(tf, cls, base, arg, kind, d, use_s).items():
                out[f"{name} {key}"] = res
    return out


program("a-optimizer-arguments", optimizer_arguments)


def callback_fit_arguments(tf: Any, mk: Any) -> Any:
    """Callbacks' string and number options (mode, monitor, patience, factor, min_delta, save_freq) fed by kind and
    run through a short fit; compile's loss/metrics/steps_per_execution/run_eagerly/jit_compile/loss_weights and
    fit/evaluate/predict's batch_size/epochs/verbose/validation_split/initial_epoch/steps/shuffle fed by kind: the
    history's losses and learning rates (bits), the logs' keys, or the error class."""
    k = tf.keras
    L = k.layers
    f32 = np.float32
    r = _rng("asweep65-fit")
    x, y = r.uniform(-1, 1, (12, 3)).astype(f32), r.uniform(-1, 1, (12, 2)).astype(f32)
    out: dict[str, Any] = {}

    def model() -> Any:
        k.utils.set_random_seed(65)
        m = k.Sequential([k.Input((3,)), L.Dense(2, name="d")])
        return m

    def run(compile_kw: dict[str, Any] | None = None, fit_kw: dict[str, Any] | None = None,
            callbacks: list | None = None, then: str = "") -> Any:
        m = model()
        m.compile(**dict({"optimizer": k.optimizers.SGD(0.1), "loss": "mse"}, **(compile_kw or {})))
        kw = dict({"batch_size": 4, "epochs": 3, "verbose": 0, "shuffle": False}, **(fit_kw or {}))
        h = m.fit(x, y, callbacks=callbacks, **kw)
        res = {"history": {kk: [np.float64(v).hex() for v in vs] for kk, vs in sorted(h.history.items())},
               "epochs": list(h.epoch), "weights": digest(m.weights[0]),
               "stop": bool(getattr(m, "stop_training", False))}
        if then == "evaluate":
            res["evaluate"] = _error(lambda: outputs(m.evaluate(x, y, verbose=0, **(fit_kw or {}).get("ev", {}))))
        return res
    C = k.callbacks
    cb = {"EarlyStopping": (C.EarlyStopping, {"patience": 1, "min_delta": 10.0}, [
              ("monitor", "str", "loss"), ("mode", "str", "auto"), ("patience", "int", 1), ("min_delta", "float", 10.0),
              ("baseline", "float", None), ("restore_best_weights", "bool", False), ("start_from_epoch", "int", 0)]),
          "ReduceLROnPlateau": (C.ReduceLROnPlateau, {"patience": 0, "min_delta": 10.0}, [
              ("monitor", "str", "loss"), ("mode", "str", "auto"), ("factor", "float", 0.1), ("patience", "int", 0),
              ("min_lr", "float", 0.0), ("cooldown", "int", 0)]),
          "LearningRateScheduler": (C.LearningRateScheduler, {"schedule": lambda e, lr: lr * 0.5}, [
              ("verbose", "int", 0)])}
    for name, (cls, base, params) in cb.items():
        for arg, kind, d in params:
            for label, value, _ in variants(tf, kind, d):
                out[f"{name} {arg}={label}"] = _error(
                    lambda cls=cls, base=base, arg=arg, value=value: run(callbacks=[cls(**dict(base, **{arg: value}))]))
    compile_args = {"loss": [("None", None), ("name", "mse"), ("upper", "MSE"), ("class-name", "MeanSquaredError"),
                             ("alias", "mean_squared_error"), ("fn", k.losses.mse),
                             ("instance", k.losses.MeanAbsoluteError()), ("list", ["mse"]), ("dict", {"d": "mse"}),
                             ("unknown", "bogus")],
                    "metrics": [("None", None), ("str", "mae"), ("list", ["mae", "mse"]), ("upper", ["MAE"]),
                                ("accuracy", ["accuracy"]), ("dict", {"d": ["mae"]}), ("unknown", ["bogus"]),
                                ("instance", [k.metrics.MeanAbsoluteError(name="m")])],
                    "steps_per_execution": [("1", 1), ("2", 2), ("0", 0), ("-1", -1), ("float", 2.0), ("str", "2"),
                                            ("auto", "auto")],
                    "run_eagerly": [("True", True), ("None", None), ("str", "yes")],
                    "jit_compile": [("auto", "auto"), ("False", False), ("None", None)],
                    "loss_weights": [("None", None), ("float", 0.5), ("list", [0.5]), ("dict", {"d": 2.0})]}
    for arg, values in compile_args.items():
        for label, value in values:
            out[f"compile {arg}={label}"] = _error(lambda arg=arg, value=value: run(compile_kw={arg: value}))
    fit_args = {"batch_size": [("None", None), ("float", 4.0), ("zero", 0), ("negative", -1), ("large", 100),
                               ("str", "4")],
                "epochs": [("zero", 0), ("float", 2.0), ("negative", -1)],
                "verbose": [("auto", "auto"), ("upper", "AUTO"), ("3", 3), ("None", None), ("bool", True)],
                "validation_split": [("0.25", 0.25), ("zero", 0.0), ("one", 1.0), ("negative", -0.1), ("str", "0.25")],
                "initial_epoch": [("1", 1), ("equal", 3), ("beyond", 5), ("negative", -1), ("float", 1.0)],
                "steps_per_epoch": [("2", 2), ("zero", 0), ("large", 10), ("float", 2.0), ("None", None)],
                "shuffle": [("batch", "batch"), ("True", True), ("None", None), ("str", "bogus")],
                "validation_freq": [("2", 2), ("list", [1, 3]), ("zero", 0)]}
    for arg, values in fit_args.items():
        for label, value in values:
            out[f"fit {arg}={label}"] = _error(lambda arg=arg, value=value: run(fit_kw={arg: value}))
    m = model()
    m.compile(optimizer="sgd", loss="mse")
    for arg, values in {"batch_size": [("None", None), ("float", 5.0), ("zero", 0), ("large", 100)],
                        "steps": [("1", 1), ("zero", 0), ("None", None), ("large", 9)],
                        "verbose": [("auto", "auto"), ("2", 2), ("str", "bogus")]}.items():
        for label, value in values:
            out[f"evaluate {arg}={label}"] = _error(lambda arg=arg, value=value: outputs(m.evaluate(
                x, y, **dict({"verbose": 0}, **{arg: value}))))
            out[f"predict {arg}={label}"] = _error(lambda arg=arg, value=value: outputs(m.predict(
                x, **dict({"verbose": 0}, **{arg: value}))))
    return out


program("a-callback-fit-arguments", callback_fit_arguments)
