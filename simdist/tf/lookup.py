"""`tf.lookup`: hash tables and their initializers (simdist/runtime/lookup_tables.py; clause ops.lookup)."""

from types import SimpleNamespace as _NS

from simdist.runtime.lookup_tables import (KeyValueTensorInitializer, StaticHashTable, TextFileIndex,  # noqa: F401
                                           TextFileInitializer)
from simdist.runtime.lookup_tables import MutableHashTable as _MutableHashTable
from simdist.runtime.vocabulary_table import StaticVocabularyTable  # noqa: F401

from simdist.runtime.dense_hash_table import DenseHashTable as _DenseHashTable  # noqa: E402

# (TF 2.21: tf.lookup.experimental only)
experimental = _NS(MutableHashTable=_MutableHashTable, DenseHashTable=_DenseHashTable)
