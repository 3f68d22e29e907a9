"""Keras's `IndexLookup` (keras/src/layers/preprocessing/index_lookup.py) on the TF backend, the base
of StringLookup and IntegerLookup: a vocabulary held in a `tf.lookup.StaticHashTable` (token ->
index, or index -> token when `invert`), indices laid out as [mask][OOV × num_oov_indices][tokens];
out-of-vocabulary inputs go to the one OOV index, to `floormod(x, num_oov_indices)` (integers) or
a FarmHash bucket (strings, or `oov_method="farmhash"`), or raise when `num_oov_indices=0`. `adapt`
counts tokens in a `tf.lookup.experimental.MutableHashTable` and keeps them by count, ties broken
by the token (both descending: NumPy's lexsort reversed), up to `max_tokens`. Output modes "int",
"one_hot", "multi_hot", "count", "tf_idf" (encode_categorical_inputs; tf_idf weights the counts by
the idf weights given or learned as log(1 + documents / (1 + document count))). Dense tensors,
SparseTensors and RaggedTensors (looked up through tf.ragged.map_flat_values, adapted from their
flat values, a row a document; TextVectorization's split tokens), sparse outputs (tf.SparseTensor, as Keras gives), OOV hashing with a salt by SipHash-2-4
(`tf.strings.to_hash_bucket_strong`)."""

from __future__ import annotations

import collections
import os
from typing import Any

import numpy as np

from simdist import tf
from simdist.keras import config as backend_config
from simdist.keras.keras_tensor import KerasTensor
from simdist.keras.layers.argument_validation import validate_string_arg
from simdist.keras.layers.category_encoding import encode_categorical_inputs
from simdist.keras.layers.layer import Layer

__all__ = ["IndexLookup", "listify_tensors"]


def listify_tensors(x: Any) -> Any:
    """Tensors and ndarrays to lists (for configs), as Keras's listify_tensors."""
    if tf.is_tensor(x):
        x = x.numpy()
    if isinstance(x, np.ndarray):
        x = x.tolist()
    return x


def ensure_tensor(inputs: Any, dtype: Any = None) -> Any:
    """Keras's tf_utils.ensure_tensor: a tensor (SparseTensor, RaggedTensor kept) of `dtype`, cast if it differs."""
    if not isinstance(inputs, (tf.Tensor, tf.SparseTensor, tf.RaggedTensor)):
        inputs = tf.convert_to_tensor(inputs, dtype)
    if dtype is not None and inputs.dtype != dtype:
        inputs = tf.cast(inputs, dtype)
    return inputs


class NullInitializer:
    """Keras's get_null_initializer: a table initializer that fills nothing (the table stays
    uninitialized until the layer replaces it)."""

    def __init__(self, key_dtype: Any, value_dtype: Any) -> None:
        self.key_dtype, self.value_dtype = tf.as_dtype(key_dtype), tf.as_dtype(value_dtype)

    def _contents(self) -> None:
        return None


class IndexLookup(Layer):
    """Keras's IndexLookup: maps tokens to indices (or back, `invert=True`) through a vocabulary."""

    def __init__(self, max_tokens: int | None, num_oov_indices: int, mask_token: Any, oov_token: Any,
                 vocabulary_dtype: Any, vocabulary: Any = None, idf_weights: Any = None, invert: bool = False,
                 output_mode: str = "int", sparse: bool = False, pad_to_max_tokens: bool = False,
                 oov_method: str = "floormod", name: str | None = None, salt: Any = None, **kwargs: Any) -> None:
        if max_tokens is not None and max_tokens <= 1:
            raise ValueError(f"If set, `max_tokens` must be greater than 1. Received: max_tokens={max_tokens}")
        if pad_to_max_tokens and max_tokens is None:
            raise ValueError(f"If pad_to_max_tokens is True, must set `max_tokens`. Received: max_tokens={max_tokens}")
        if num_oov_indices < 0:
            raise ValueError("`num_oov_indices` must be greater than or equal to 0. Received: "
                             f"num_oov_indices={num_oov_indices}")
        validate_string_arg(oov_method, allowable_strings=("floormod", "farmhash"),
                            caller_name=self.__class__.__name__, arg_name="oov_method")
        if salt is not None:
            if tf.as_dtype(vocabulary_dtype).is_integer and oov_method != "farmhash":
                raise ValueError(f"`salt` can only be used when `oov_method='farmhash'`. Received: oov_method="
                                 f"{oov_method}")
            if isinstance(salt, (tuple, list)) and len(salt) == 2:
                salt = list(salt)
            elif isinstance(salt, int):
                salt = [salt, salt]
            else:
                raise ValueError("The `salt` argument for `IndexLookup` can only be a tuple of 2 integers, or a single "
                                 f"integer. Received: salt={salt}.")
        if output_mode == "binary":
            output_mode = "multi_hot"
        if output_mode == "tf-idf":
            output_mode = "tf_idf"
        validate_string_arg(output_mode, allowable_strings=("int", "one_hot", "multi_hot", "count", "tf_idf"),
                            caller_name=self.__class__.__name__, arg_name="output_mode")
        if invert and output_mode != "int":
            raise ValueError(f"`output_mode` must be `'int'` when `invert` is true. Received: output_mode={output_mode}")
        if sparse and output_mode == "int":
            raise ValueError("`sparse` may only be true if `output_mode` is `'one_hot'`, `'multi_hot'`, `'count'` or "
                             f"`'tf_idf'`. Received: sparse={sparse} and output_mode={output_mode}")
        if idf_weights is not None and output_mode != "tf_idf":
            raise ValueError("`idf_weights` should only be set if `output_mode` is `'tf_idf'`. Received: "
                             f"idf_weights={idf_weights} and output_mode={output_mode}")
        super().__init__(name=name)
        self._convert_input_args = False
        self._allow_non_tensor_positional_args = True
        self.supports_jit = False

        self.invert = invert
        self.max_tokens = max_tokens
        self.num_oov_indices = num_oov_indices
        self.mask_token = mask_token
        self.oov_token = oov_token
        self.output_mode = output_mode
        self.sparse = sparse
        self.pad_to_max_tokens = pad_to_max_tokens
        self.vocabulary_dtype = tf.as_dtype(vocabulary_dtype).name
        self.oov_method = oov_method
        self.salt = salt
        self._frozen_vocab_size = kwargs.pop("vocabulary_size", None)
        self.input_vocabulary = vocabulary if not isinstance(vocabulary, str) else None
        self.input_idf_weights = idf_weights
        self._has_input_vocabulary = kwargs.pop("has_input_vocabulary", (vocabulary is not None))
        kwargs.pop("trainable", None)
        kwargs.pop("dtype", None)
        if kwargs:
            raise ValueError(f"Unrecognized keyword argument(s): {kwargs}")

        if invert:
            self._key_dtype, self._value_dtype = "int64", self.vocabulary_dtype
            mask_key, mask_value = 0, mask_token
            self._default_value = self.oov_token
        else:
            self._key_dtype, self._value_dtype = self.vocabulary_dtype, "int64"
            mask_key = mask_token
            # masks map to 0 for int output and are dropped otherwise (bincount drops int64's max)
            mask_value = 0 if self.output_mode == "int" else tf.as_dtype(self._value_dtype).max
            if self.num_oov_indices == 0:
                self._default_value = -1       # (an error at call)
            elif self.num_oov_indices == 1:
                self._default_value = self._oov_start_index()
            else:
                self._default_value = -1       # (hashed to an OOV index at call)
        if self.mask_token is not None:
            self._mask_key = tf.convert_to_tensor(mask_key, self._key_dtype)
            self._mask_value = tf.convert_to_tensor(mask_value, self._value_dtype)

        if self.output_mode == "tf_idf":
            if self._has_input_vocabulary and idf_weights is None:
                raise ValueError("When specifying the `vocabulary` argument, in TF-IDF output mode, the `idf_weights` "
                                 "argument must also be provided.")
            if idf_weights is not None:
                self.idf_weights = tf.Variable(idf_weights, dtype=backend_config.floatx(), trainable=False)
                self.idf_weights_const = self.idf_weights.value()

        if vocabulary is not None:
            self.set_vocabulary(vocabulary, idf_weights)
        else:
            self.lookup_table = self._uninitialized_lookup_table()

        if not self._has_input_vocabulary:
            self.token_counts = tf.lookup.experimental.MutableHashTable(key_dtype=vocabulary_dtype,
                                                                       value_dtype="int64", default_value=0)
            if self.output_mode == "tf_idf":
                self.token_document_counts = tf.lookup.experimental.MutableHashTable(
                    key_dtype=vocabulary_dtype, value_dtype="int64", default_value=0)
                self.num_documents = tf.Variable(0, dtype="int64", trainable=False)

    # --- vocabulary ------------------------------------------------------------------------------------
    def get_vocabulary(self, include_special_tokens: bool = True) -> list:
        """The vocabulary, index i holding the token that maps to i (mask and OOV tokens first)."""
        if int(self.lookup_table.size().numpy()) == 0:
            vocab, indices = [], []
        else:
            keys, values = self.lookup_table.export()
            vocab, indices = (values, keys) if self.invert else (keys, values)
            vocab, indices = self._tensor_vocab_to_numpy(vocab), indices.numpy()
        lookup = collections.defaultdict(lambda: self.oov_token, zip(indices, vocab))
        vocab = [lookup[x] for x in range(self.vocabulary_size())]
        if self.mask_token is not None and self.output_mode == "int":
            vocab[0] = self.mask_token
        if not include_special_tokens:
            vocab = vocab[self._token_start_index():]
        if self.vocabulary_dtype == "string":
            return [i.decode("utf-8") if isinstance(i, bytes) else i for i in vocab]
        return vocab

    def vocabulary_size(self) -> int:
        """The vocabulary's size, mask and OOV indices included."""
        return int(self.lookup_table.size().numpy()) + self._token_start_index()

    def set_vocabulary(self, vocabulary: Any, idf_weights: Any = None) -> None:
        """Set the vocabulary (an array-like of tokens or a text file's path; idf weights for tf_idf)."""
        if self.output_mode == "tf_idf":
            if idf_weights is None:
                raise ValueError("`idf_weights` must be set if output_mode is 'tf_idf'.")
        elif idf_weights is not None:
            raise ValueError("`idf_weights` should only be set if output_mode is `'tf_idf'`. Received: output_mode="
                             f"{self.output_mode} and idf_weights={idf_weights}")
        if isinstance(vocabulary, str):
            import os
            if not os.path.exists(vocabulary):
                raise ValueError(f"Vocabulary file {vocabulary} does not exist.")
            if self.output_mode == "tf_idf":
                raise ValueError("output_mode `'tf_idf'` does not support loading a vocabulary from file.")
            self.lookup_table = self._lookup_table_from_file(vocabulary)
            self._record_vocabulary_size()
            return
        if not tf.executing_eagerly() and (tf.is_tensor(vocabulary) or tf.is_tensor(idf_weights)):
            raise RuntimeError(f"Cannot set a tensor vocabulary on layer {self.name} when not executing eagerly. "
                               "Create this layer or call `set_vocabulary()` outside of any traced function.")
        if tf.is_tensor(vocabulary):
            vocabulary = self._tensor_vocab_to_numpy(vocabulary)
        elif isinstance(vocabulary, (list, tuple)):
            vocabulary = np.array(vocabulary)
        if tf.is_tensor(idf_weights):
            idf_weights = idf_weights.numpy()
        elif isinstance(idf_weights, (list, tuple)):
            idf_weights = np.array(idf_weights)
        if vocabulary.size == 0:
            raise ValueError(f"Cannot set an empty vocabulary. Received: vocabulary={vocabulary}")

        oov_start = self._oov_start_index()
        token_start = self._token_start_index()
        special_tokens = [self.mask_token] * oov_start + [self.oov_token] * self.num_oov_indices
        found_special_tokens = np.array_equal(special_tokens, vocabulary[:token_start])
        tokens = vocabulary[token_start:] if found_special_tokens else vocabulary

        repeated_tokens = self._find_repeated_tokens(tokens)
        if repeated_tokens:
            raise ValueError("The passed vocabulary has at least one repeated term. Please uniquify your dataset. The "
                             f"repeated terms are: {repeated_tokens}")
        if self.mask_token is not None and self.mask_token in tokens:
            mask_index = np.argwhere(vocabulary == self.mask_token)[-1]
            raise ValueError("Found reserved mask token at unexpected location in `vocabulary`. Note that passed "
                             "`vocabulary` does not need to include the OOV and mask tokens. Either remove all mask "
                             "and OOV tokens, or include them only at the start of the vocabulary in precisely this "
                             f"order: {special_tokens}. Received: mask_token={self.mask_token} at vocabulary index "
                             f"{mask_index}")
        if self.oov_token is not None and self.invert and self.oov_token in tokens:
            oov_index = np.argwhere(vocabulary == self.oov_token)[-1]
            raise ValueError("Found reserved OOV token at unexpected location in `vocabulary`. Note that passed "
                             "`vocabulary` does not need to include the OOV and mask tokens. Either remove all mask "
                             "and OOV tokens, or include them only at the start of the vocabulary in precisely this "
                             f"order: {special_tokens}. Received: oov_token={self.oov_token} at vocabulary index "
                             f"{oov_index}")
        new_vocab_size = token_start + len(tokens)
        if self.max_tokens is not None and (new_vocab_size > self.max_tokens):
            raise ValueError("Attempted to set a vocabulary larger than the maximum vocab size. Received vocabulary "
                             f"size is {new_vocab_size}; `max_tokens` is {self.max_tokens}.")
        self.lookup_table = self._lookup_table_from_tokens(tokens)
        self._record_vocabulary_size()

        if self.output_mode == "tf_idf" and idf_weights is not None:
            if len(vocabulary) != len(idf_weights):
                raise ValueError("`idf_weights` must be the same length as vocabulary. len(idf_weights) is "
                                 f"{len(idf_weights)}; len(vocabulary) is {len(vocabulary)}")
            idf_weights = np.array(idf_weights) if isinstance(idf_weights, (list, tuple)) else idf_weights
            if idf_weights.ndim != 1:
                raise ValueError(f"TF-IDF data must be a 1-index array. Received: type(idf_weights)={type(idf_weights)}")
            # no real document frequencies for the special tokens: the average idf weight
            front_padding, front_padding_value = (0, 0) if found_special_tokens else (token_start,
                                                                                      np.average(idf_weights))
            back_padding = (self.max_tokens - front_padding - len(idf_weights)
                            if self.pad_to_max_tokens and self.max_tokens is not None else 0)
            weights = np.pad(idf_weights, (front_padding, back_padding), "constant",
                             constant_values=(front_padding_value, 0))
            self.idf_weights = tf.Variable(tf.convert_to_tensor(weights, dtype=backend_config.floatx()),
                                           trainable=False)
            self.idf_weights_const = self.idf_weights.value()

    def _record_vocabulary_size(self) -> None:
        self._ensure_vocab_size_unchanged()
        self._frozen_vocab_size = self.vocabulary_size()

    # --- config, shapes --------------------------------------------------------------------------------
    def get_config(self) -> dict[str, Any]:
        config = {"invert": self.invert, "max_tokens": self.max_tokens, "num_oov_indices": self.num_oov_indices,
                  "oov_token": self.oov_token, "mask_token": self.mask_token, "output_mode": self.output_mode,
                  "sparse": self.sparse, "pad_to_max_tokens": self.pad_to_max_tokens,
                  "vocabulary_dtype": self.vocabulary_dtype, "idf_weights": listify_tensors(self.input_idf_weights),
                  "vocabulary": listify_tensors(self.input_vocabulary), "vocabulary_size": self._frozen_vocab_size,
                  "oov_method": self.oov_method, "salt": self.salt}
        return {**super().get_config(), **config}

    def get_build_config(self) -> dict[str, Any]:
        return {}

    def build_from_config(self, config: dict[str, Any] | None) -> None:
        self.build(None)

    @property
    def compute_dtype(self) -> str:
        return self.vocabulary_dtype

    @property
    def variable_dtype(self) -> str:
        return self.vocabulary_dtype

    def compute_output_shape(self, input_shape: Any) -> tuple:
        if self.output_mode == "int":
            return input_shape
        depth = self.max_tokens if self.pad_to_max_tokens else self._frozen_vocab_size
        input_shape = tuple(input_shape)
        if self.output_mode == "one_hot":
            if len(input_shape) > 1 and input_shape[-1] == 1:
                return input_shape[:-1] + (depth,)
            return input_shape + (depth,)
        return input_shape[:-1] + (depth,)

    def compute_output_spec(self, inputs: Any) -> KerasTensor:
        output_dtype = "int64" if self.output_mode == "int" else backend_config.floatx()
        return KerasTensor(self.compute_output_shape(inputs.shape), dtype=output_dtype)

    # --- adapt -----------------------------------------------------------------------------------------
    def adapt(self, data: Any, steps: int | None = None) -> None:
        """Learn the vocabulary (and idf weights) from a Dataset, an iterable of batches or an array."""
        adapt_batches(self, data, steps, self.vocabulary_dtype)

    def update_state(self, data: Any) -> None:
        if self._has_input_vocabulary:
            raise ValueError(f"Cannot adapt layer '{self.name}' after setting a static vocabulary via `vocabulary` "
                             "argument or `set_vocabulary()` method.")
        data = ensure_tensor(data, dtype=self.vocabulary_dtype)
        if data.shape.rank == 0:
            data = tf.expand_dims(data, 0)
        if data.shape.rank == 1:
            data = tf.expand_dims(data, 0)     # (a 1-D tensor is one document)
        tokens, counts = self._num_tokens(data)
        self.token_counts.insert(tokens, counts + self.token_counts.lookup(tokens))
        if self.output_mode == "tf_idf":
            if isinstance(data, tf.RaggedTensor):   # (Keras: tf.map_fn of tf.unique over the rows)
                rows = data.to_list()
                deduped_doc_data = tf.constant([t for row in rows for t in dict.fromkeys(row)],
                                               dtype=self.vocabulary_dtype)
            else:
                deduped_doc_data = tf.concat([tf.unique(x)[0] for x in data], axis=0)
            tokens, counts = self._num_tokens(deduped_doc_data)
            self.token_document_counts.insert(tokens, counts + self.token_document_counts.lookup(tokens))
            if isinstance(data, tf.RaggedTensor):
                self.num_documents.assign_add(data.nrows(out_type="int64"))
            else:
                self.num_documents.assign_add(tf.shape(data, out_type="int64")[0])

    def finalize_state(self) -> None:
        if self._has_input_vocabulary or int(self.token_counts.size().numpy()) == 0:
            if self.output_mode == "tf_idf":
                self.idf_weights_const = self.idf_weights.value()
            self._record_vocabulary_size()
            return
        if self.mask_token is not None:
            self.token_counts.remove(tf.convert_to_tensor([self.mask_token], self.vocabulary_dtype))
        if self.oov_token is not None:
            self.token_counts.remove(tf.convert_to_tensor([self.oov_token], self.vocabulary_dtype))
        tokens, counts = self.token_counts.export()
        # by count, ties by the token itself (both descending), as Keras sorts with NumPy
        sorted_indices = np.lexsort((tokens.numpy(), counts.numpy()))[::-1]
        token_start = self._token_start_index()
        if self.max_tokens:
            sorted_indices = sorted_indices[:self.max_tokens - token_start]
        tokens = tf.gather(tokens, sorted_indices)
        self.lookup_table = self._lookup_table_from_tokens(tokens)
        if self.output_mode == "tf_idf":
            token_document_counts = self.token_document_counts.lookup(tokens)
            idf_weights = self._inverse_document_frequency(token_document_counts, self.num_documents)
            idf_weights = tf.cast(idf_weights, backend_config.floatx())
            # the OOV tokens' weight: the average (their document frequency is unknown)
            idf_weights = tf.pad(idf_weights, [[self._token_start_index(), 0]],
                                 constant_values=tf.reduce_mean(idf_weights))
            if self.pad_to_max_tokens and self.max_tokens is not None:
                idf_weights = tf.pad(idf_weights, [[0, self.max_tokens - tf.size(idf_weights)]], constant_values=0)
            self.idf_weights = tf.Variable(idf_weights, dtype=backend_config.floatx(), trainable=False)
            self.idf_weights_const = self.idf_weights.value()
        self.reset_state()
        self._record_vocabulary_size()

    def reset_state(self) -> None:
        if self._has_input_vocabulary:
            return
        self.token_counts.remove(self.token_counts.export()[0])
        if self.output_mode == "tf_idf":
            self.token_document_counts.remove(self.token_document_counts.export()[0])
            self.num_documents.assign(0)

    # --- saving (Keras's saving_lib hooks) ----------------------------------------------------------------
    def save_own_variables(self, store: Any) -> None:
        """The idf weights (tf_idf) under the key "idf_weights" (no other variable is saved)."""
        if self.output_mode == "tf_idf":
            store["idf_weights"] = self.idf_weights_const.numpy()

    def load_own_variables(self, store: Any) -> None:
        if self.output_mode == "tf_idf":
            idf_weights = store["idf_weights"]
            if hasattr(self, "idf_weights"):
                self.idf_weights.assign(idf_weights)
            else:
                self.idf_weights = tf.Variable(idf_weights, trainable=False)
            self.idf_weights_const = self.idf_weights.value()

    def save_assets(self, dir_path: str) -> None:
        """An adapted (or set) vocabulary, special tokens included, as `dir_path`/vocabulary.txt, one
        token a line (none for a vocabulary given to the constructor: the config holds it)."""
        if self.input_vocabulary is not None:
            return
        vocabulary = self.get_vocabulary(include_special_tokens=True)
        with open(os.path.join(dir_path, "vocabulary.txt"), "w") as f:
            f.write("\n".join([str(w) for w in vocabulary]))

    def load_assets(self, dir_path: str) -> None:
        """The vocabulary save_assets wrote (trailing empty lines dropped), with the loaded idf weights."""
        if self.input_vocabulary is not None:
            return
        with open(os.path.join(dir_path, "vocabulary.txt")) as f:
            lines = f.read().splitlines()
        while lines and lines[-1] == "":
            lines.pop()
        values: list = [str(line) for line in lines] if self.vocabulary_dtype == "string" \
            else [int(line) for line in lines]
        if self.output_mode == "tf_idf":
            self.set_vocabulary(values, idf_weights=self.idf_weights_const.numpy())
        else:
            self.set_vocabulary(values)

    # --- call ------------------------------------------------------------------------------------------
    def call(self, inputs: Any) -> Any:
        self._ensure_known_vocab_size()
        inputs = ensure_tensor(inputs, dtype=self._key_dtype)
        original_rank = inputs.shape.rank
        if original_rank == 0:
            inputs = self._expand_dims(inputs, -1)
        if isinstance(inputs, tf.SparseTensor):
            lookups = tf.SparseTensor(inputs.indices, self._lookup_dense(inputs.values), inputs.dense_shape)
        elif isinstance(inputs, tf.RaggedTensor):
            lookups = tf.ragged.map_flat_values(self._lookup_dense, inputs)
        else:
            lookups = self._lookup_dense(inputs)
        if self.output_mode == "int":
            if original_rank == 0:
                lookups = tf.squeeze(lookups, -1)
            return lookups
        depth = self.max_tokens if self.pad_to_max_tokens else self._frozen_vocab_size
        idf_weights = self.idf_weights_const if self.output_mode == "tf_idf" else None
        output = encode_categorical_inputs(lookups, output_mode="count" if self.output_mode == "tf_idf"
                                           else self.output_mode, depth=depth, dtype=self._value_dtype,
                                           sparse=self.sparse)
        if self.output_mode == "tf_idf":
            from simdist.keras.ops import tf_numpy  # noqa: PLC0415 - the Keras backend's multiply (a sparse count)

            output = tf_numpy.multiply(tf.cast(output, idf_weights.dtype), idf_weights)
        return output

    def _lookup_dense(self, inputs: Any) -> Any:
        """Table values for a dense tensor: masks, then the OOV rule."""
        lookups = self.lookup_table.lookup(inputs)
        if self.mask_token is not None:
            mask_locations = tf.equal(inputs, self._mask_key)
            lookups = tf.where(mask_locations, self._mask_value, lookups)
        if self.invert:
            return lookups
        lookup_checks = []
        if self.num_oov_indices == 0:
            oov_indices = tf.where(tf.equal(lookups, -1))
            oov_inputs = tf.gather_nd(inputs, oov_indices)
            msg = tf.strings.format("When `num_oov_indices=0` all inputs should be in vocabulary, found OOV values {}, "
                                    "consider setting `num_oov_indices=1`.", (oov_inputs,))
            lookup_checks.append(tf.Assert(tf.equal(tf.size(oov_indices), 0), [msg]))
        elif self.num_oov_indices > 1:
            if tf.as_dtype(self._key_dtype).is_integer and self.oov_method != "farmhash":
                oov_indices = tf.math.floormod(inputs, self.num_oov_indices)
            else:
                hash_inputs = inputs
                if tf.as_dtype(self._key_dtype).is_integer:
                    hash_inputs = tf.strings.as_string(inputs)
                if self.salt is not None:   # SipHash-2-4 keyed by the salt
                    oov_indices = tf.strings.to_hash_bucket_strong(hash_inputs, num_buckets=self.num_oov_indices,
                                                                   key=self.salt)
                else:
                    oov_indices = tf.strings.to_hash_bucket_fast(hash_inputs, num_buckets=self.num_oov_indices)
            oov_indices = oov_indices + self._oov_start_index()
            oov_locations = tf.equal(lookups, self._default_value)
            lookups = tf.where(oov_locations, oov_indices, lookups)
        with tf.control_dependencies(lookup_checks):
            return tf.identity(lookups)

    # --- tables ----------------------------------------------------------------------------------------
    def _uninitialized_lookup_table(self) -> Any:
        """Keras's placeholder table before a vocabulary is set: size 0, lookups raise
        FailedPreconditionError ("Table not initialized.") as TF's uninitialized table does."""
        return tf.lookup.StaticHashTable(NullInitializer(self._key_dtype, self._value_dtype), self._default_value)

    def _lookup_table_from_tokens(self, tokens: Any) -> Any:
        """A StaticHashTable of tokens -> token_start, token_start + 1, … (inverted when `invert`)."""
        with tf.init_scope():
            token_start = self._token_start_index()
            token_end = token_start + int(tf.size(tokens).numpy())
            indices_dtype = self._key_dtype if self.invert else self._value_dtype
            indices = tf.range(token_start, token_end, dtype=indices_dtype)
            keys, values = (indices, tokens) if self.invert else (tokens, indices)
            initializer = tf.lookup.KeyValueTensorInitializer(keys, values, self._key_dtype, self._value_dtype)
            return tf.lookup.StaticHashTable(initializer, self._default_value)

    def _lookup_table_from_file(self, filename: str) -> Any:
        if self.invert:
            key_index, value_index = tf.lookup.TextFileIndex.LINE_NUMBER, tf.lookup.TextFileIndex.WHOLE_LINE
        else:
            key_index, value_index = tf.lookup.TextFileIndex.WHOLE_LINE, tf.lookup.TextFileIndex.LINE_NUMBER
        with tf.init_scope():
            initializer = tf.lookup.TextFileInitializer(filename=filename, key_dtype=self._key_dtype,
                                                        key_index=key_index, value_dtype=self._value_dtype,
                                                        value_index=value_index,
                                                        value_index_offset=self._token_start_index())
            return tf.lookup.StaticHashTable(initializer, self._default_value)

    def _expand_dims(self, inputs: Any, axis: int) -> Any:
        if isinstance(inputs, tf.SparseTensor):
            return tf.sparse.expand_dims(inputs, axis)
        return tf.expand_dims(inputs, axis)

    def _oov_start_index(self) -> int:
        return 1 if self.mask_token is not None and self.output_mode == "int" else 0

    def _token_start_index(self) -> int:
        return self._oov_start_index() + self.num_oov_indices

    def _ensure_known_vocab_size(self) -> None:
        if self.output_mode == "int" or self.pad_to_max_tokens:
            return
        if self._frozen_vocab_size is None:
            raise RuntimeError(f"When using `output_mode={self.output_mode}` and `pad_to_max_tokens=False`, you must "
                               "set the layer's vocabulary before calling it. Either pass a `vocabulary` argument to "
                               "the layer, or call `adapt` with some sample data.")

    def _ensure_vocab_size_unchanged(self) -> None:
        if self.output_mode == "int" or self.pad_to_max_tokens:
            return
        new_vocab_size = self.vocabulary_size()
        if self._frozen_vocab_size is not None and new_vocab_size != self._frozen_vocab_size:
            raise RuntimeError(f"When using `output_mode={self.output_mode}` and `pad_to_max_tokens=False`, the "
                               "vocabulary size cannot be changed after the layer is called. Old vocab size is "
                               f"{self._frozen_vocab_size}, new vocab size is {new_vocab_size}")

    def _find_repeated_tokens(self, vocabulary: Any) -> list:
        counts = collections.Counter(vocabulary)
        return [item for item, count in counts.items() if count > 1]

    def _num_tokens(self, data: Any) -> tuple[Any, Any]:
        if isinstance(data, tf.SparseTensor):
            flat_values = data.values
        elif isinstance(data, tf.RaggedTensor):
            flat_values = data.flat_values
        else:
            flat_values = tf.reshape(data, [-1])
        tokens, _, counts = tf.unique_with_counts(flat_values, out_idx="int64")
        return tokens, counts

    def _inverse_document_frequency(self, token_document_counts: Any, num_documents: Any) -> Any:
        return tf.math.log(1 + num_documents / (1 + token_document_counts))

    def _tensor_vocab_to_numpy(self, vocabulary: Any) -> np.ndarray:
        return vocabulary.numpy()


def adapt_batches(layer: Any, data: Any, steps: int | None, dtype: str) -> None:
    """Keras's PreprocessingLayer.adapt: reset, `update_state` per batch of a Dataset (its first `steps`)
    or of another iterable, or once with an array/list/tensor (a vector as a column of `dtype`), finalize."""
    layer.reset_state()
    if isinstance(data, tf.data.Dataset):
        if steps is not None:
            data = data.take(steps)
        for batch in data:
            layer.update_state(batch)
    elif hasattr(data, "__iter__") and not (isinstance(data, (list, tuple, np.ndarray)) or tf.is_tensor(data)):
        for i, batch in enumerate(data):
            if steps is not None and i >= steps:
                break
            layer.update_state(batch)
    else:
        data = ensure_tensor(data, dtype=dtype)
        if data.shape.rank == 1:
            data = tf.expand_dims(data, -1)
        layer.update_state(data)
    layer.finalize_state()
