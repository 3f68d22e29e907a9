"""`tf.keras` for simdist: Keras 3.15's API (TensorFlow backend) written against `simdist.tf`,
as Keras's TF backend is written against `tensorflow`. Never imports simdist's internals.
(One import line per name, so the Keras helpers' additions merge cleanly.)"""

from __future__ import annotations

from typing import Any

from simdist.keras import activations  # noqa: F401
from simdist.keras import backend  # noqa: F401
from simdist.keras import initializers  # noqa: F401
from simdist.keras import layers  # noqa: F401
from simdist.keras import optimizers  # noqa: F401
from simdist.keras import random  # noqa: F401
from simdist.keras.dtype_policies import DTypePolicy  # noqa: F401
from simdist.keras.dtype_policies import FloatDTypePolicy  # noqa: F401
from simdist.keras.keras_tensor import KerasTensor  # noqa: F401
from simdist.keras.layers.core import Input  # noqa: F401
from simdist.keras.layers.input_spec import InputSpec  # noqa: F401
from simdist.keras.layers.layer import Layer  # noqa: F401
from simdist.keras.naming import name_scope  # noqa: F401
from simdist.keras.variables import StatelessScope, Variable  # noqa: F401
from simdist.keras import config  # noqa: F401
from simdist.keras import losses  # noqa: F401
from simdist.keras import metrics  # noqa: F401
from simdist.keras import models  # noqa: F401
from simdist.keras.models.model import Model  # noqa: F401
from simdist.keras.models.sequential import Sequential  # noqa: F401
from simdist.keras import callbacks  # noqa: F401
from simdist.keras import utils  # noqa: F401
from simdist.keras import regularizers  # noqa: F401
from simdist.keras import constraints  # noqa: F401
from simdist.keras.regularizers import Regularizer  # noqa: F401
from simdist.keras import mixed_precision  # noqa: F401
from simdist.keras import preprocessing  # noqa: F401
# Keras 3's top-level names of its base classes (`class MyLoss(keras.Loss)`), the same objects
from simdist.keras.initializers import Initializer  # noqa: F401
from simdist.keras.losses.loss import Loss  # noqa: F401
from simdist.keras.metrics.metric import Metric  # noqa: F401
from simdist.keras.optimizers.base_optimizer import Optimizer  # noqa: F401


def device(device_name: str) -> Any:
    """`keras.device(name)`: on the TensorFlow backend, `tf.device(name)` (Keras 3.15's
    backend/tensorflow/core.py device_scope)."""
    from simdist import tf
    return tf.device(device_name)


def version() -> str:
    """`keras.version()`: the Keras release simdist follows (and writes into .keras files)."""
    from simdist.keras.models.keras_file import KERAS_VERSION
    return KERAS_VERSION


def __getattr__(name: str):   # noqa: ANN202 - PEP 562
    """`keras.ops` is imported on first use: its ~340 transcribed functions would double the
    import time of simdist.keras (about 0.18 s) for programs that never call them."""
    if name in ("ops", "tree", "applications"):   # (keras.tree imports optree, applications ~8,000 lines: on first use too)
        import importlib
        return importlib.import_module(f"simdist.keras.{name}")
    raise AttributeError(f"module 'simdist.keras' has no attribute {name!r}")


from simdist.keras import _api  # noqa: E402

__all__ = [   # TF 2.21's tf.keras names simdist has (one a line; clause api.namespaces)
    "applications",
    "DTypePolicy",
    "FloatDTypePolicy",
    "Initializer",
    "Input",
    "InputSpec",
    "KerasTensor",
    "Layer",
    "Loss",
    "Metric",
    "Model",
    "Optimizer",
    "Regularizer",
    "Sequential",
    "StatelessScope",
    "Variable",
    "activations",
    "backend",
    "callbacks",
    "config",
    "constraints",
    "device",
    "dtype_policies",
    "initializers",
    "layers",
    "losses",
    "metrics",
    "mixed_precision",
    "models",
    "name_scope",
    "ops",
    "optimizers",
    "preprocessing",
    "random",
    "regularizers",
    "tree",
    "utils",
    "version",
]
__dir__ = _api.dir_of(__name__)
