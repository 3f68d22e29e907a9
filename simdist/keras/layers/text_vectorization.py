"""`keras.layers.TextVectorization` (keras/src/layers/preprocessing/text_vectorization.py, Keras
3.15 on TF): strings to token indices or per-document token vectors, in five steps:
1. standardize: "lower_and_strip_punctuation" (tf.strings.lower, then tf.strings.regex_replace of
   DEFAULT_STRIP_REGEX by ""), "lower", "strip_punctuation", None, or a callable of the string tensor;
2. split: "whitespace" (tf.strings.split: runs of whitespace, ends stripped), "character"
   (tf.strings.unicode_split "UTF-8"), None, or a callable; an input of rank > 1 must have a last
   dimension of 1, which is squeezed out first (a ValueError otherwise);
3. ngrams: None, an int n (widths 1..n) or a tuple of widths (tf.strings.ngrams, separator " ");
4. a StringLookup (mask_token "", one OOV index "[UNK]") indexes the tokens; `adapt` counts them
   (by count, ties by the token, both descending; up to max_tokens);
5. output_mode "int": a ragged result goes dense through to_tensor(0, shape=[..., output_sequence_length])
   (unless ragged=True), a dense one (split=None, or a scalar's split) is cut to output_sequence_length
   and zero-padded to it (required_space_to_batch_paddings: an empty row stays empty, and set_shape
   refuses it); the other
   modes ("multi_hot", "count", "tf_idf", and "one_hot") are the lookup's encodings.
Saving: the vocabulary learned by adapt goes to the .keras file's assets as vocabulary.txt, the idf
weights as the layer's own variables (the lookup's save_assets / save_own_variables).
sparse=True is refused (simdist's lookups return dense tensors only)."""

from __future__ import annotations

from typing import Any

from simdist import tf
from simdist.keras import config as backend_config
from simdist.keras.keras_tensor import KerasTensor
from simdist.keras.layers.argument_validation import validate_string_arg
from simdist.keras.layers.index_lookup import adapt_batches, ensure_tensor, listify_tensors
from simdist.keras.layers.layer import Layer
from simdist.keras.layers.string_lookup import StringLookup

__all__ = ["TextVectorization", "DEFAULT_STRIP_REGEX"]

DEFAULT_STRIP_REGEX = r'[!"#$%&()\*\+,-\./:;<=>?@\[\\\]^_`{|}~\']'


class TextVectorization(Layer):
    """`keras.layers.TextVectorization(max_tokens=None, standardize="lower_and_strip_punctuation",
    split="whitespace", ngrams=None, output_mode="int", output_sequence_length=None,
    pad_to_max_tokens=False, vocabulary=None, idf_weights=None, sparse=False, ragged=False,
    encoding="utf-8")`."""

    def __init__(self, max_tokens: int | None = None, standardize: Any = "lower_and_strip_punctuation",
                 split: Any = "whitespace", ngrams: Any = None, output_mode: str = "int",
                 output_sequence_length: int | None = None, pad_to_max_tokens: bool = False, vocabulary: Any = None,
                 idf_weights: Any = None, sparse: bool = False, ragged: bool = False, encoding: str = "utf-8",
                 name: str | None = None, **kwargs: Any) -> None:
        validate_string_arg(standardize, allowable_strings=("lower_and_strip_punctuation", "lower",
                                                            "strip_punctuation"),
                            caller_name=self.__class__.__name__, arg_name="standardize", allow_none=True,
                            allow_callables=True)
        validate_string_arg(split, allowable_strings=("whitespace", "character"), caller_name=self.__class__.__name__,
                            arg_name="split", allow_none=True, allow_callables=True)
        if output_mode == "binary":
            output_mode = "multi_hot"
        if output_mode == "tf-idf":
            output_mode = "tf_idf"
        validate_string_arg(output_mode, allowable_strings=("int", "one_hot", "multi_hot", "count", "tf_idf"),
                            caller_name=self.__class__.__name__, arg_name="output_mode")
        if not (ngrams is None or isinstance(ngrams, int)
                or isinstance(ngrams, tuple) and all(isinstance(item, int) for item in ngrams)):
            raise ValueError(f"`ngrams` must be None, an integer, or a tuple of integers. Received: ngrams={ngrams}")
        if output_mode == "int" and not (isinstance(output_sequence_length, int) or output_sequence_length is None):
            raise ValueError("`output_sequence_length` must be either None or an integer when `output_mode` is "
                             f"'int'. Received: output_sequence_length={output_sequence_length}")
        if output_mode != "int" and output_sequence_length is not None:
            raise ValueError("`output_sequence_length` must not be set if `output_mode` is not 'int'. Received "
                             f"output_sequence_length={output_sequence_length}.")
        if ragged and output_mode != "int":
            raise ValueError(f"`ragged` must not be true if `output_mode` is `'int'`. Received: ragged={ragged} and "
                             f"output_mode={output_mode}")
        self._max_tokens = max_tokens
        self._standardize = standardize
        self._split = split
        self._ngrams_arg = ngrams
        self._ngrams = tuple(range(1, ngrams + 1)) if isinstance(ngrams, int) else ngrams
        self._ragged = ragged
        self._output_mode = output_mode
        self._output_sequence_length = output_sequence_length
        self._encoding = encoding
        # (a layer made with a vocabulary, or from the config of one, cannot adapt)
        self._has_input_vocabulary = kwargs.pop("has_input_vocabulary", vocabulary is not None)
        vocabulary_size = kwargs.pop("vocabulary_size", None)
        super().__init__(name=name, **kwargs)
        self._lookup_layer = StringLookup(max_tokens=max_tokens, vocabulary=vocabulary, idf_weights=idf_weights,
                                          pad_to_max_tokens=pad_to_max_tokens, mask_token="", output_mode=output_mode,
                                          sparse=sparse, has_input_vocabulary=self._has_input_vocabulary,
                                          encoding=encoding, vocabulary_size=vocabulary_size)
        self._convert_input_args = False
        self._allow_non_tensor_positional_args = True
        self.supports_jit = False

    @property
    def compute_dtype(self) -> str:
        return "string"

    @property
    def variable_dtype(self) -> str:
        return "string"

    def build(self, input_shape: Any = None) -> None:
        pass

    def compute_output_shape(self, input_shape: Any) -> tuple:
        if self._output_mode == "int":
            return (input_shape[0], self._output_sequence_length)
        if self._split is None:
            if len(input_shape) <= 1:
                input_shape = tuple(input_shape) + (1,)
        else:
            input_shape = tuple(input_shape) + (None,)
        return self._lookup_layer.compute_output_shape(input_shape)

    def compute_output_spec(self, inputs: Any) -> KerasTensor:
        output_dtype = "int64" if self._output_mode == "int" else backend_config.floatx()
        return KerasTensor(self.compute_output_shape(inputs.shape), dtype=output_dtype)

    # --- vocabulary --------------------------------------------------------------------------------------------
    def adapt(self, data: Any, batch_size: int | None = None, steps: int | None = None) -> None:
        """Learn the vocabulary (by count, ties by the token, both descending) from a Dataset of
        string batches, an iterable of batches, or an array/list of strings (`steps` batches at most)."""
        adapt_batches(self, data, steps, "string")

    def update_state(self, data: Any) -> None:
        self._lookup_layer.update_state(self._preprocess(data))

    def finalize_state(self) -> None:
        self._lookup_layer.finalize_state()

    def reset_state(self) -> None:
        self._lookup_layer.reset_state()

    def get_vocabulary(self, include_special_tokens: bool = True) -> list:
        """The vocabulary (with the mask "" and OOV "[UNK]" tokens first unless not asked for)."""
        return self._lookup_layer.get_vocabulary(include_special_tokens)

    def vocabulary_size(self) -> int:
        """The vocabulary's size, mask and OOV indices included."""
        return self._lookup_layer.vocabulary_size()

    def set_vocabulary(self, vocabulary: Any, idf_weights: Any = None) -> None:
        """Set the vocabulary (tokens or a text file's path) and, for tf_idf, the idf weights."""
        self._lookup_layer.set_vocabulary(vocabulary, idf_weights=idf_weights)

    # --- config ------------------------------------------------------------------------------------------------
    def get_config(self) -> dict[str, Any]:
        config = {"max_tokens": self._lookup_layer.max_tokens, "standardize": self._standardize,
                  "split": self._split, "ngrams": self._ngrams_arg, "output_mode": self._output_mode,
                  "output_sequence_length": self._output_sequence_length,
                  "pad_to_max_tokens": self._lookup_layer.pad_to_max_tokens, "sparse": self._lookup_layer.sparse,
                  "ragged": self._ragged, "vocabulary": listify_tensors(self._lookup_layer.input_vocabulary),
                  "idf_weights": listify_tensors(self._lookup_layer.input_idf_weights), "encoding": self._encoding,
                  "vocabulary_size": self.vocabulary_size()}
        return {**super().get_config(), **config}

    @classmethod
    def from_config(cls, config: dict[str, Any]) -> "TextVectorization":
        from simdist.keras.utils.keras_object_serialization import deserialize_keras_object
        # (the caller's dict itself is rewritten, as Keras 3.15's from_config does: its ngrams list becomes a tuple)
        if not isinstance(config["standardize"], str) and config["standardize"] is not None:
            config["standardize"] = deserialize_keras_object(config["standardize"])
        if not isinstance(config["split"], str) and config["split"] is not None:
            config["split"] = deserialize_keras_object(config["split"])
        if isinstance(config["ngrams"], list):
            config["ngrams"] = tuple(config["ngrams"])
        return super().from_config(config)

    # --- saving (Keras's saving_lib: own variables and assets) ---------------------------------------------------
    def save_own_variables(self, store: Any) -> None:
        self._lookup_layer.save_own_variables(store)

    def load_own_variables(self, store: Any) -> None:
        self._lookup_layer.load_own_variables(store)

    def save_assets(self, dir_path: str) -> None:
        self._lookup_layer.save_assets(dir_path)

    def load_assets(self, dir_path: str) -> None:
        self._lookup_layer.load_assets(dir_path)

    # --- call ----------------------------------------------------------------------------------------------------
    def _preprocess(self, inputs: Any) -> Any:
        """Standardize, split and make ngrams of a batch of strings (ragged after a split)."""
        inputs = ensure_tensor(inputs, dtype=tf.string)
        if self._standardize in ("lower", "lower_and_strip_punctuation"):
            inputs = tf.strings.lower(inputs)
        if self._standardize in ("strip_punctuation", "lower_and_strip_punctuation"):
            inputs = tf.strings.regex_replace(inputs, DEFAULT_STRIP_REGEX, "")
        if callable(self._standardize):
            inputs = self._standardize(inputs)
        if self._split is not None:
            # the last axis (of 1) squeezed before splitting, as Keras does it
            if inputs.shape.rank > 1:
                if inputs.shape[-1] != 1:
                    raise ValueError("When using `TextVectorization` to tokenize strings, the input rank must be 1 "
                                     f"or the last shape dimension must be 1. Received: inputs.shape={inputs.shape} "
                                     f"with rank={inputs.shape.rank}")
                inputs = tf.squeeze(inputs, axis=-1)
            if self._split == "whitespace":
                inputs = tf.strings.split(inputs)
            elif self._split == "character":
                inputs = tf.strings.unicode_split(inputs, "UTF-8")
            elif callable(self._split):
                inputs = self._split(inputs)
        if self._ngrams is not None:
            inputs = tf.strings.ngrams(inputs, ngram_width=self._ngrams, separator=" ")
        return inputs

    def call(self, inputs: Any) -> Any:
        lookup_data = self._lookup_layer.call(self._preprocess(inputs))
        if self._output_mode != "int":
            return lookup_data
        if isinstance(lookup_data, tf.RaggedTensor) and not self._ragged:
            shape = lookup_data.shape.as_list()
            shape[-1] = self._output_sequence_length   # (None: the longest row)
            return lookup_data.to_tensor(default_value=0, shape=shape)
        if self._output_sequence_length is not None:
            if isinstance(lookup_data, tf.RaggedTensor):   # ragged=True: cut only
                rows = [r[:self._output_sequence_length] for r in lookup_data.to_list()]
                return tf.RaggedTensor.from_row_lengths(
                    tf.constant([t for r in rows for t in r], dtype=lookup_data.dtype), [len(r) for r in rows])
            outputs = lookup_data[..., :self._output_sequence_length]
            # padded "to a multiple" of output_sequence_length (an empty row stays empty), then the
            # static shape set: an empty row is set_shape's ValueError, as in Keras
            shape = tf.shape(outputs)
            padded_shape = tf.concat((shape[:-1], [self._output_sequence_length]), 0)
            padding, _ = tf.required_space_to_batch_paddings(shape, padded_shape)
            outputs = tf.pad(outputs, padding)
            static_padded_shape = lookup_data.shape.as_list()
            static_padded_shape[-1] = self._output_sequence_length
            outputs.set_shape(static_padded_shape)
            return outputs
        return lookup_data
