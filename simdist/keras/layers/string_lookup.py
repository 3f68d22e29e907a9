"""`keras.layers.StringLookup` (keras/src/layers/preprocessing/string_lookup.py): IndexLookup over a
string vocabulary (oov_token "[UNK]", FarmHash buckets for several OOV indices); tokens decoded
with `encoding` when the vocabulary is read back."""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist import tf
from simdist.keras.layers.index_lookup import IndexLookup

__all__ = ["StringLookup"]


class StringLookup(IndexLookup):
    """`keras.layers.StringLookup(max_tokens=None, num_oov_indices=1, mask_token=None, oov_token="[UNK]",
    vocabulary=None, idf_weights=None, invert=False, output_mode="int", pad_to_max_tokens=False,
    sparse=False, encoding="utf-8")`."""

    def __init__(self, max_tokens: int | None = None, num_oov_indices: int = 1, mask_token: Any = None,
                 oov_token: str = "[UNK]", vocabulary: Any = None, idf_weights: Any = None, invert: bool = False,
                 output_mode: str = "int", pad_to_max_tokens: bool = False, sparse: bool = False,
                 encoding: str = "utf-8", name: str | None = None, salt: Any = None, **kwargs: Any) -> None:
        self.encoding = encoding
        super().__init__(max_tokens=max_tokens, num_oov_indices=num_oov_indices, mask_token=mask_token,
                         oov_token=oov_token, vocabulary=vocabulary, idf_weights=idf_weights, invert=invert,
                         output_mode=output_mode, pad_to_max_tokens=pad_to_max_tokens, sparse=sparse, name=name,
                         salt=salt, vocabulary_dtype="string", **kwargs)

    def _tensor_vocab_to_numpy(self, vocabulary: Any) -> np.ndarray:
        vocabulary = vocabulary.numpy()
        return np.array([x.decode(self.encoding) if isinstance(x, bytes) else x for x in vocabulary])

    def get_config(self) -> dict[str, Any]:
        base_config = super().get_config()
        del base_config["vocabulary_dtype"]    # (strings have one dtype)
        return {**base_config, "encoding": self.encoding}

    def call(self, inputs: Any) -> Any:
        if isinstance(inputs, (np.ndarray, list, tuple)):
            inputs = tf.convert_to_tensor(inputs)
        return super().call(inputs)
