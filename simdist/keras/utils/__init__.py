"""`tf.keras.utils` (the parts the trainer and the guides need): Progbar, to_categorical."""

from __future__ import annotations

from simdist.keras.utils.numerical_utils import to_categorical
from simdist.keras.utils.progbar import Progbar

__all__ = ["Progbar", "to_categorical"]
