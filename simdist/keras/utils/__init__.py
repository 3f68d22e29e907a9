"""`tf.keras.utils` (the parts the trainer needs): Progbar."""

from __future__ import annotations

from simdist.keras.utils.progbar import Progbar

__all__ = ["Progbar"]
