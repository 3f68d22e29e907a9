"""`tf.keras.preprocessing.text`: Keras 1's text preprocessing as Keras 3.15 keeps it
(keras/src/legacy/preprocessing/text.py): `text_to_word_sequence`, `one_hot`, `hashing_trick`, `Tokenizer`
(word counts and document counts in first-seen order, the index by count with ties in first-seen order,
oov_token first, num_words applied when converting, the binary/count/freq/tfidf matrices, JSON configs) and
`tokenizer_from_json`. Pure Python and NumPy, transcribed; where Keras iterates a set of words (document
counts), simdist takes the words in first-seen order: the same counts, a deterministic key order. `one_hot` and `hashing_trick(hash_function=None)`
hash words with Python's `hash`, as Keras does: the same word gets the same index within a process, and
across processes only under one PYTHONHASHSEED (`hash_function="md5"` is stable). Clause
keras.preprocessing.legacy."""

from __future__ import annotations

import collections
import hashlib
import json
import warnings
from typing import Any, Callable, Iterator

import numpy as np

from simdist.keras import _api

__all__ = ["Tokenizer", "hashing_trick", "one_hot", "text_to_word_sequence", "tokenizer_from_json"]

_FILTERS = '!"#$%&()*+,-./:;<=>?@[\\]^_`{|}~\t\n'


def text_to_word_sequence(input_text: str, filters: str = _FILTERS, lower: bool = True, split: str = " ") -> list[str]:
    """The words of `input_text`: lower-cased, each filter character replaced by `split`, empty pieces dropped."""
    if lower:
        input_text = input_text.lower()
    translate_map = str.maketrans({c: split for c in filters})
    return [i for i in input_text.translate(translate_map).split(split) if i]


def one_hot(input_text: str, n: int, filters: str = _FILTERS, lower: bool = True, split: str = " ",
            analyzer: Callable[[str], list] | None = None) -> list[int]:
    """Each word's index in [1, n): `hashing_trick` with Python's `hash`."""
    return hashing_trick(input_text, n, hash_function=hash, filters=filters, lower=lower, split=split, analyzer=analyzer)


def hashing_trick(text: str, n: int, hash_function: Any = None, filters: str = _FILTERS, lower: bool = True,
                  split: str = " ", analyzer: Callable[[str], list] | None = None) -> list[int]:
    """Each word's `hash_function(word) % (n - 1) + 1` (None: Python's hash; "md5": the MD5 digest as an integer)."""
    if hash_function is None:
        hash_function = hash
    elif hash_function == "md5":
        def hash_function(w: str) -> int:
            return int(hashlib.md5(w.encode()).hexdigest(), 16)
    seq = text_to_word_sequence(text, filters=filters, lower=lower, split=split) if analyzer is None else analyzer(text)
    return [hash_function(w) % (n - 1) + 1 for w in seq]


class Tokenizer:
    """Keras 1's text tokenizer: fit on texts (or sequences), then texts to index sequences or matrices."""

    def __init__(self, num_words: int | None = None, filters: str = _FILTERS, lower: bool = True, split: str = " ",
                 char_level: bool = False, oov_token: Any = None, analyzer: Callable[[str], list] | None = None,
                 **kwargs: Any) -> None:
        if "nb_words" in kwargs:
            warnings.warn("The `nb_words` argument in `Tokenizer` has been renamed `num_words`.")
            num_words = kwargs.pop("nb_words")
        document_count = kwargs.pop("document_count", 0)
        if kwargs:
            raise TypeError(f"Unrecognized keyword arguments: {str(kwargs)}")
        self.word_counts: Any = collections.OrderedDict()
        self.word_docs: Any = collections.defaultdict(int)
        self.filters = filters
        self.split = split
        self.lower = lower
        self.num_words = num_words
        self.document_count = document_count
        self.char_level = char_level
        self.oov_token = oov_token
        self.index_docs: Any = collections.defaultdict(int)
        self.word_index: dict = {}
        self.index_word: dict = {}
        self.analyzer = analyzer

    def _sequence(self, text: Any) -> Any:
        if self.char_level or isinstance(text, list):
            if self.lower:
                text = [t.lower() for t in text] if isinstance(text, list) else text.lower()
            return text
        if self.analyzer is None:
            return text_to_word_sequence(text, filters=self.filters, lower=self.lower, split=self.split)
        return self.analyzer(text)

    def fit_on_texts(self, texts: Any) -> None:
        """Count words and the documents holding them, and index the words by count (descending; ties
        in first-seen order), after the oov_token."""
        for text in texts:
            self.document_count += 1
            seq = self._sequence(text)
            for w in seq:
                self.word_counts[w] = self.word_counts[w] + 1 if w in self.word_counts else 1
            # (Keras iterates set(seq), whose order of strings changes with PYTHONHASHSEED; the counts do not
            # depend on it, only word_docs' key order in get_config: simdist takes first-seen order)
            for w in dict.fromkeys(seq):
                self.word_docs[w] += 1
        wcounts = list(self.word_counts.items())
        wcounts.sort(key=lambda x: x[1], reverse=True)
        sorted_voc = [] if self.oov_token is None else [self.oov_token]
        sorted_voc.extend(wc[0] for wc in wcounts)
        self.word_index = dict(zip(sorted_voc, list(range(1, len(sorted_voc) + 1))))
        self.index_word = {c: w for w, c in self.word_index.items()}
        for w, c in list(self.word_docs.items()):
            self.index_docs[self.word_index[w]] = c

    def fit_on_sequences(self, sequences: Any) -> None:
        """Count, per index, the sequences holding it (for tfidf)."""
        self.document_count += len(sequences)
        for seq in sequences:
            for i in dict.fromkeys(seq):   # (Keras: set(seq); first-seen order here, the same counts)
                self.index_docs[i] += 1

    def texts_to_sequences(self, texts: Any) -> list[list[int]]:
        return list(self.texts_to_sequences_generator(texts))

    def texts_to_sequences_generator(self, texts: Any) -> Iterator[list[int]]:
        """Each text's word indices; words at or past num_words and unknown words become the oov_token's
        index, or are dropped without one."""
        num_words = self.num_words
        oov_token_index = self.word_index.get(self.oov_token)
        for text in texts:
            vect = []
            for w in self._sequence(text):
                i = self.word_index.get(w)
                if i is not None:
                    if num_words and i >= num_words:
                        if oov_token_index is not None:
                            vect.append(oov_token_index)
                    else:
                        vect.append(i)
                elif self.oov_token is not None:
                    vect.append(oov_token_index)
            yield vect

    def sequences_to_texts(self, sequences: Any) -> list[str]:
        return list(self.sequences_to_texts_generator(sequences))

    def sequences_to_texts_generator(self, sequences: Any) -> Iterator[str]:
        """Each sequence's words joined by spaces (the same num_words and oov rules)."""
        num_words = self.num_words
        oov_token_index = self.word_index.get(self.oov_token)
        for seq in sequences:
            vect = []
            for num in seq:
                word = self.index_word.get(num)
                if word is not None:
                    if num_words and num >= num_words:
                        if oov_token_index is not None:
                            vect.append(self.index_word[oov_token_index])
                    else:
                        vect.append(word)
                elif self.oov_token is not None:
                    vect.append(self.index_word[oov_token_index])
            yield " ".join(vect)

    def texts_to_matrix(self, texts: Any, mode: str = "binary") -> np.ndarray:
        return self.sequences_to_matrix(self.texts_to_sequences(texts), mode=mode)

    def sequences_to_matrix(self, sequences: Any, mode: str = "binary") -> np.ndarray:
        """A (len(sequences), num_words) float64 matrix: binary, count, freq or tfidf
        ((1 + log c) · log(1 + docs / (1 + docs holding the index)))."""
        if not self.num_words:
            if self.word_index:
                num_words = len(self.word_index) + 1
            else:
                raise ValueError("Specify a dimension (`num_words` argument), or fit on some text data first.")
        else:
            num_words = self.num_words
        if mode == "tfidf" and not self.document_count:
            raise ValueError("Fit the Tokenizer on some data before using tfidf mode.")
        x = np.zeros((len(sequences), num_words))
        for i, seq in enumerate(sequences):
            if not seq:
                continue
            counts: Any = collections.defaultdict(int)
            for j in seq:
                if j >= num_words:
                    continue
                counts[j] += 1
            for j, c in list(counts.items()):
                if mode == "count":
                    x[i][j] = c
                elif mode == "freq":
                    x[i][j] = c / len(seq)
                elif mode == "binary":
                    x[i][j] = 1
                elif mode == "tfidf":
                    tf = 1 + np.log(c)
                    idf = np.log(1 + self.document_count / (1 + self.index_docs.get(j, 0)))
                    x[i][j] = tf * idf
                else:
                    raise ValueError("Unknown vectorization mode:", mode)
        return x

    def get_config(self) -> dict[str, Any]:
        return {"num_words": self.num_words, "filters": self.filters, "lower": self.lower, "split": self.split,
                "char_level": self.char_level, "oov_token": self.oov_token, "document_count": self.document_count,
                "word_counts": json.dumps(self.word_counts), "word_docs": json.dumps(self.word_docs),
                "index_docs": json.dumps(self.index_docs), "index_word": json.dumps(self.index_word),
                "word_index": json.dumps(self.word_index)}

    def to_json(self, **kwargs: Any) -> str:
        return json.dumps({"class_name": self.__class__.__name__, "config": self.get_config()}, **kwargs)


def tokenizer_from_json(json_string: str) -> Tokenizer:
    """The Tokenizer `Tokenizer.to_json()` wrote (integer keys of the index maps restored)."""
    config = json.loads(json_string).get("config")
    word_counts = json.loads(config.pop("word_counts"))
    word_docs = json.loads(config.pop("word_docs"))
    index_docs = {int(k): v for k, v in json.loads(config.pop("index_docs")).items()}
    index_word = {int(k): v for k, v in json.loads(config.pop("index_word")).items()}
    word_index = json.loads(config.pop("word_index"))
    tokenizer = Tokenizer(**config)
    tokenizer.word_counts = word_counts
    tokenizer.word_docs = word_docs
    tokenizer.index_docs = index_docs
    tokenizer.word_index = word_index
    tokenizer.index_word = index_word
    return tokenizer


__dir__ = _api.dir_of(__name__)
