"""`keras.config` (and `keras.backend`'s) global settings: `floatx`, `epsilon`,
`image_data_format` and the global dtype policy (`dtype_policy`/`set_dtype_policy`, kept in dtype_policies.py).

Keras 3.15 keeps them as module globals (keras/src/backend/config.py): floatx "float32", epsilon
1e-7, the fuzz factor the crossentropies clip probabilities with.
"""

from __future__ import annotations

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


from simdist.keras import _api  # noqa: E402

__all__ = [   # TF 2.21's tf.keras.config names simdist has (one a line; clause api.namespaces)
    "backend",
    "dtype_policy",
    "epsilon",
    "floatx",
    "image_data_format",
    "set_dtype_policy",
    "set_epsilon",
    "set_floatx",
    "set_image_data_format",
]
__dir__ = _api.dir_of(__name__)
