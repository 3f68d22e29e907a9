"""What Keras 3.15's keras/src/utils/file_utils.py took from keras.src, for its transcription
(simdist/keras/utils/file_utils.py): Keras's home directory, the progress bar, and `gfile` as
Keras's TensorFlow backend has it (tf.io.gfile, always available)."""

from __future__ import annotations

import os
from typing import Any

from simdist.keras import io_utils  # noqa: F401
from simdist.keras.ops.ops_shim import keras_export  # noqa: F401
from simdist.keras.utils.progbar import Progbar  # noqa: F401


class config:  # noqa: N801 - Keras's module name
    """keras.src.backend.config's `keras_home`: $KERAS_HOME, else ~/.keras (/tmp/.keras when the
    home directory is not writable), as Keras 3.15's backend/config.py chooses it."""

    @staticmethod
    def keras_home() -> str:
        if "KERAS_HOME" in os.environ:
            return os.environ["KERAS_HOME"]
        base = os.path.expanduser("~")
        if not os.access(base, os.W_OK):
            base = "/tmp"
        return os.path.join(base, ".keras")


class _GFile:
    """keras.src.utils.module_utils' `gfile` under the TensorFlow backend: tf.io.gfile."""

    available = True

    def __getattr__(self, name: str) -> Any:
        from simdist import tf
        return getattr(tf.io.gfile, name)


gfile = _GFile()
