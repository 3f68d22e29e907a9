"""`tf.lookup`: hash tables and their initializers (simdist/runtime/lookup_tables.py; clause ops.lookup)."""

from types import SimpleNamespace as _NS

from simdist.runtime.lookup_tables import (KeyValueTensorInitializer, MutableHashTable, StaticHashTable,  # noqa: F401
                                           TextFileIndex, TextFileInitializer)

experimental = _NS(MutableHashTable=MutableHashTable)
