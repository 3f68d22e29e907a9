"""`keras.layers.IntegerLookup` (keras/src/layers/preprocessing/integer_lookup.py): IndexLookup over an
int64 vocabulary (oov_token -1; several OOV indices by floormod, or FarmHash of the decimal
string with `oov_method="farmhash"`)."""

from __future__ import annotations

from typing import Any

from simdist.keras.layers.index_lookup import IndexLookup

__all__ = ["IntegerLookup"]


class IntegerLookup(IndexLookup):
    """`keras.layers.IntegerLookup(max_tokens=None, num_oov_indices=1, mask_token=None, oov_token=-1,
    vocabulary=None, vocabulary_dtype="int64", idf_weights=None, invert=False, output_mode="int",
    sparse=False, pad_to_max_tokens=False, oov_method="floormod")`."""

    def __init__(self, max_tokens: int | None = None, num_oov_indices: int = 1, mask_token: Any = None,
                 oov_token: int = -1, vocabulary: Any = None, vocabulary_dtype: str = "int64", idf_weights: Any = None,
                 invert: bool = False, output_mode: str = "int", sparse: bool = False,
                 pad_to_max_tokens: bool = False, oov_method: str = "floormod", salt: Any = None,
                 name: str | None = None, **kwargs: Any) -> None:
        if max_tokens is not None and max_tokens <= 1:
            raise ValueError("If `max_tokens` is set for `IntegerLookup`, it must be greater than 1. Received: "
                             f"max_tokens={max_tokens}")
        if num_oov_indices < 0:
            raise ValueError("The value of `num_oov_indices` argument for `IntegerLookup` must >= 0. Received: "
                             f"num_oov_indices={num_oov_indices}")
        if vocabulary_dtype != "int64":
            raise ValueError("Only `vocabulary_dtype='int64'` is supported at this time. Received: "
                             f"vocabulary_dtype={vocabulary_dtype}")
        super().__init__(max_tokens=max_tokens, num_oov_indices=num_oov_indices, mask_token=mask_token,
                         oov_token=oov_token, vocabulary=vocabulary, vocabulary_dtype=vocabulary_dtype,
                         idf_weights=idf_weights, invert=invert, output_mode=output_mode, sparse=sparse,
                         pad_to_max_tokens=pad_to_max_tokens, oov_method=oov_method, salt=salt, name=name, **kwargs)

    def get_config(self) -> dict[str, Any]:
        config = super().get_config()
        if config["oov_token"] is not None:
            config["oov_token"] = int(config["oov_token"])
        if config["mask_token"] is not None:
            config["mask_token"] = int(config["mask_token"])
        if config["vocabulary"] is not None:
            config["vocabulary"] = [int(v) for v in config["vocabulary"]]
        return config
