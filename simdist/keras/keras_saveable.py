"""Keras 3.15's KerasSaveable (keras/src/saving/keras_saveable.py): a Keras object (layer, model,
metric, loss, optimizer) is pickled, and copied by `copy.copy` and `copy.deepcopy`, as a `.keras`
archive written to memory and read back (compile=True, safe_mode=False). So a copy is a new object
built from the original's config: a model keeps its compile state, weights and optimizer variables;
a layer its weights in new variables; a metric's state and an optimizer alone are not restored
(their variables are not in the archive, or not read into an unbuilt optimizer)."""

from __future__ import annotations

import io
from typing import Any

__all__ = ["KerasSaveable"]


class KerasSaveable:
    """The mixin: `__reduce__` saves the object to a `.keras` archive in memory."""

    # (a tf.function argument that is a layer, model, optimizer, loss or metric is keyed by identity, as TF 2.21's
    # weakref TraceType: runtime/graph/recording.py `_sig`, clause function.object-arguments)
    _simdist_traced_by_identity = True

    @classmethod
    def _unpickle_model(cls, bytesio: io.BytesIO) -> Any:
        from simdist.keras.models.keras_file import read_archive
        bytesio.seek(0)
        return read_archive(bytesio, custom_objects=None, compile=True, safe_mode=False)

    def __reduce__(self) -> tuple:
        from simdist.keras.models.keras_file import write_archive
        buf = io.BytesIO()
        write_archive(self, buf)
        return (self._unpickle_model, (buf,))
