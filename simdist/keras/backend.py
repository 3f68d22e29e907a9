"""`tf.keras.backend`: the backend's name, floatx, epsilon, uids and `clear_session`, which
restarts Keras's global state (object names, the global seed generator); and, on first use, the
legacy functions tf.keras.backend also exports (`K.mean`, `K.int_shape`, `K.batch_dot`, ...),
Keras 3.15's keras/src/legacy/backend.py transcribed onto simdist.tf (simdist/keras/legacy_backend.py)."""

from __future__ import annotations

import random as _pyrandom
from typing import Any

import numpy as np

from simdist import tf
from simdist.keras import dtype_policies, naming, random
from simdist.keras.config import epsilon, image_data_format, set_epsilon, set_image_data_format  # noqa: F401
from simdist.keras.dtype_policies import floatx, set_floatx, standardize_dtype  # noqa: F401
from simdist.keras.dtype_promotion import result_type  # noqa: F401
from simdist.keras.naming import get_uid  # noqa: F401


from simdist.keras.keras_tensor import is_keras_tensor  # noqa: E402,F401


def is_float_dtype(dtype: Any) -> bool:
    return standardize_dtype(dtype).startswith(("float", "bfloat"))


def is_int_dtype(dtype: Any) -> bool:
    return standardize_dtype(dtype).startswith(("int", "uint"))


def __getattr__(name: str) -> Any:
    """tf.keras.backend's legacy functions, imported on first use."""
    from simdist.keras.legacy_names import LEGACY_NAMES
    if name in LEGACY_NAMES:
        from simdist.keras import legacy_backend
        return getattr(legacy_backend, name)
    raise AttributeError(f"module 'simdist.keras.backend' has no attribute {name!r}")


def backend() -> str:
    return "tensorflow"


def clear_session(free_memory: bool = True) -> None:
    """Forget Keras's global state: names start again at "dense", the global seed generator is
    made afresh, the global dtype policy is forgotten (the next layer takes floatx's again), as
    Keras's clear_session empties its global state."""
    dtype_policies._config["policy"] = None
    naming.reset_uids()
    naming.name_scope._stack.clear()
    random.reset_global_generator()


def set_random_seed(seed: Any) -> None:
    """`keras.utils.set_random_seed` (keras/src/utils/rng_utils.py): seeds Python's `random`,
    NumPy's global generator and TF's streams, and drops the global seed generator; unseeded
    Keras objects then draw their seeds from Python's `random`, as Keras's (simdist/keras/random.py)."""
    if not isinstance(seed, int):
        raise ValueError(f"Expected `seed` argument to be an integer. Received: seed={seed} (of type {type(seed)})")
    random.reset_global_generator()
    _pyrandom.seed(seed)
    np.random.seed(seed)
    tf.random.set_seed(seed)
    random.seed_from_python()


from simdist.keras import _api  # noqa: E402

__all__ = [   # TF 2.21's tf.keras.backend names simdist has (one a line; clause api.namespaces)
    "abs",
    "all",
    "any",
    "arange",
    "argmax",
    "argmin",
    "backend",
    "batch_dot",
    "batch_flatten",
    "batch_get_value",
    "batch_normalization",
    "batch_set_value",
    "bias_add",
    "binary_crossentropy",
    "binary_focal_crossentropy",
    "cast",
    "cast_to_floatx",
    "categorical_crossentropy",
    "categorical_focal_crossentropy",
    "clear_session",
    "clip",
    "concatenate",
    "constant",
    "conv1d",
    "conv2d",
    "conv2d_transpose",
    "conv3d",
    "cos",
    "count_params",
    "ctc_batch_cost",
    "ctc_decode",
    "ctc_label_dense_to_sparse",
    "cumprod",
    "cumsum",
    "depthwise_conv2d",
    "dot",
    "dropout",
    "dtype",
    "elu",
    "epsilon",
    "equal",
    "eval",
    "exp",
    "expand_dims",
    "eye",
    "flatten",
    "floatx",
    "foldl",
    "foldr",
    "gather",
    "get_uid",
    "get_value",
    "gradients",
    "greater",
    "greater_equal",
    "hard_sigmoid",
    "image_data_format",
    "in_top_k",
    "int_shape",
    "is_float_dtype",
    "is_int_dtype",
    "is_keras_tensor",
    "is_sparse",
    "l2_normalize",
    "less",
    "less_equal",
    "log",
    "map_fn",
    "max",
    "maximum",
    "mean",
    "min",
    "minimum",
    "moving_average_update",
    "name_scope",
    "ndim",
    "not_equal",
    "one_hot",
    "ones",
    "ones_like",
    "permute_dimensions",
    "pool2d",
    "pool3d",
    "pow",
    "prod",
    "random_bernoulli",
    "random_normal",
    "random_normal_variable",
    "random_uniform",
    "random_uniform_variable",
    "relu",
    "repeat",
    "repeat_elements",
    "reshape",
    "resize_images",
    "resize_volumes",
    "result_type",
    "reverse",
    "rnn",
    "round",
    "separable_conv2d",
    "set_epsilon",
    "set_floatx",
    "set_image_data_format",
    "set_value",
    "shape",
    "sigmoid",
    "sign",
    "sin",
    "softmax",
    "softplus",
    "softsign",
    "sparse_categorical_crossentropy",
    "spatial_2d_padding",
    "spatial_3d_padding",
    "sqrt",
    "square",
    "squeeze",
    "stack",
    "standardize_dtype",
    "std",
    "stop_gradient",
    "sum",
    "switch",
    "tanh",
    "temporal_padding",
    "tile",
    "to_dense",
    "transpose",
    "truncated_normal",
    "update",
    "update_add",
    "update_sub",
    "var",
    "variable",
    "zeros",
    "zeros_like",
]
__dir__ = _api.dir_of(__name__)
