"""`keras.config` (and `keras.backend`'s) global settings: `floatx`, `epsilon`,
`image_data_format`, the global dtype policy (`dtype_policy`/`set_dtype_policy`, kept in dtype_policies.py),
fit/evaluate/predict's debugging caps (`set_max_epochs`, `set_max_steps_per_epoch`), flash attention,
and re-exports of the switches kept beside what they switch: interactive logging (io_utils.py),
traceback filtering (traceback_utils.py), unsafe deserialization (safe_mode.py).
Clause keras.config.globals.

Keras 3.15 keeps them as module globals (keras/src/backend/config.py): floatx "float32", epsilon
1e-7, the fuzz factor the crossentropies clip probabilities with.
"""

from __future__ import annotations

import os

_FLOATX = "float32"
_EPSILON = 1e-7
_ACCEPTED_FLOATX = ("bfloat16", "float16", "float32", "float64")
_IMAGE_DATA_FORMAT = "channels_last"   # (keras.json is not read: simdist has no Keras config file)


def floatx() -> str:
    """The default float dtype, as a string ("float32" unless set)."""
    return _FLOATX


def set_floatx(value: str) -> None:
    """Set the default float dtype (Keras accepts bfloat16, float16, float32, float64)."""
    global _FLOATX
    if value not in _ACCEPTED_FLOATX:
        raise ValueError(f"Unknown `floatx` value: {value}. Expected one of {set(_ACCEPTED_FLOATX)}")
    _FLOATX = str(value)


def epsilon() -> float:
    """The fuzz factor used in numeric expressions (1e-7 unless set)."""
    return _EPSILON


def set_epsilon(value: float) -> None:
    """Set the fuzz factor."""
    global _EPSILON
    _EPSILON = value


def image_data_format() -> str:
    """The default data format of image layers ("channels_last" unless set)."""
    return _IMAGE_DATA_FORMAT


def set_image_data_format(data_format: str) -> None:
    """Set the default data format of image layers ("channels_first" or "channels_last")."""
    global _IMAGE_DATA_FORMAT
    data_format = str(data_format).lower()
    if data_format not in {"channels_first", "channels_last"}:
        raise ValueError("The `data_format` argument must be one of {'channels_first', 'channels_last'}. "
                         f"Received: data_format={data_format}")
    _IMAGE_DATA_FORMAT = data_format


def backend() -> str:
    """The backend's name: simdist's Keras is Keras on its TensorFlow facade."""
    return "tensorflow"


def dtype_policy() -> object:
    """The global dtype policy (`keras.config.dtype_policy`; dtype_policies.py holds it)."""
    from simdist.keras import dtype_policies
    return dtype_policies.dtype_policy()


def set_dtype_policy(policy: object) -> None:
    """Set the global dtype policy: a DTypePolicy or its name ("mixed_float16", "float32", ...)."""
    from simdist.keras import dtype_policies
    dtype_policies.set_dtype_policy(policy)


# -- debugging caps of fit/evaluate/predict (keras/src/backend/config.py; read from the environment at
# import, as Keras reads KERAS_MAX_EPOCHS / KERAS_MAX_STEPS_PER_EPOCH)
_MAX_EPOCHS: int | None = int(os.environ["KERAS_MAX_EPOCHS"]) if "KERAS_MAX_EPOCHS" in os.environ else None
_MAX_STEPS_PER_EPOCH: int | None = (int(os.environ["KERAS_MAX_STEPS_PER_EPOCH"])
                                    if "KERAS_MAX_STEPS_PER_EPOCH" in os.environ else None)


def set_max_epochs(max_epochs: int | None) -> None:
    """Cap the epochs of every `fit` (None: no cap); fit warns "Limiting epochs to N" when it caps."""
    global _MAX_EPOCHS
    _MAX_EPOCHS = max_epochs


def max_epochs() -> int | None:
    """The cap on fit's epochs, or None."""
    return _MAX_EPOCHS


def set_max_steps_per_epoch(max_steps_per_epoch: int | None) -> None:
    """Cap the steps of one epoch of fit, evaluate and predict (None: no cap)."""
    global _MAX_STEPS_PER_EPOCH
    _MAX_STEPS_PER_EPOCH = max_steps_per_epoch


def max_steps_per_epoch() -> int | None:
    """The cap on an epoch's steps, or None."""
    return _MAX_STEPS_PER_EPOCH


# -- flash attention: Keras keeps None ("use it where the backend can") after enable and False after
# disable; on the TensorFlow backend a layer that ends up asking for it fails at its call
_FLASH_ATTENTION: bool | None = None


def enable_flash_attention() -> None:
    """Let attention layers use flash attention where the backend has it (Keras stores None)."""
    global _FLASH_ATTENTION
    _FLASH_ATTENTION = None


def disable_flash_attention() -> None:
    """Never use flash attention (Keras stores False)."""
    global _FLASH_ATTENTION
    _FLASH_ATTENTION = False


def is_flash_attention_enabled() -> bool | None:
    """None (the default and after enable_flash_attention) or False (after disable_flash_attention)."""
    return _FLASH_ATTENTION


def is_nnx_enabled() -> bool:
    """False: Flax NNX is a setting of Keras's JAX backend, which simdist's Keras does not have."""
    return False


def set_backend(backend: str) -> None:
    """Keras reloads itself on another backend; simdist's Keras runs on its TensorFlow facade only, so
    "tensorflow" changes nothing and any other backend is NotImplementedError."""
    if backend != "tensorflow":
        raise NotImplementedError(f"keras.config.set_backend({backend!r}): simdist's Keras runs on simdist's "
                                  "TensorFlow facade only; 'tensorflow' is the one backend it can set")


from simdist.keras.traceback_utils import (disable_traceback_filtering, enable_traceback_filtering,  # noqa: E402
                                           is_traceback_filtering_enabled)
from simdist.keras.io_utils import (disable_interactive_logging, enable_interactive_logging,  # noqa: E402
                                          is_interactive_logging_enabled)
from simdist.keras.safe_mode import enable_unsafe_deserialization  # noqa: E402
from simdist.keras import _api  # noqa: E402

__all__ = [   # TF 2.21's tf.keras.config names simdist has (one a line; clause api.namespaces)
    "backend",
    "disable_flash_attention",
    "disable_interactive_logging",
    "disable_traceback_filtering",
    "dtype_policy",
    "enable_flash_attention",
    "enable_interactive_logging",
    "enable_traceback_filtering",
    "enable_unsafe_deserialization",
    "epsilon",
    "floatx",
    "image_data_format",
    "is_flash_attention_enabled",
    "is_interactive_logging_enabled",
    "is_nnx_enabled",
    "is_traceback_filtering_enabled",
    "max_epochs",
    "max_steps_per_epoch",
    "set_backend",
    "set_dtype_policy",
    "set_epsilon",
    "set_floatx",
    "set_image_data_format",
    "set_max_epochs",
    "set_max_steps_per_epoch",
]
__dir__ = _api.dir_of(__name__)
