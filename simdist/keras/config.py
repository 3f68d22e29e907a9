"""`keras.config`'s global numeric settings: `floatx` (kept by dtype_policies) and `epsilon`.

Keras 3.15 keeps them as module globals (keras/src/backend/config.py): floatx "float32", epsilon
1e-7, the fuzz factor the crossentropies clip probabilities with.
"""

from __future__ import annotations

from simdist.keras.dtype_policies import dtype_policy, floatx, set_dtype_policy, set_floatx  # noqa: F401

_EPSILON = 1e-7


def epsilon() -> float:
    """The fuzz factor used in numeric expressions (1e-7 unless set)."""
    return _EPSILON


def set_epsilon(value: float) -> None:
    """Set the fuzz factor."""
    global _EPSILON
    _EPSILON = value


def backend() -> str:
    """The backend's name: simdist's Keras is Keras on its TensorFlow facade."""
    return "tensorflow"
