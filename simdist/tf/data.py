"""`tf.data`: TF 2.21's tf.data names, computed by simdist/runtime/data (the runtime module's other
exports, DatasetV2, OwnedIterator, Optional, TensorSpec, live elsewhere in TF: tf.experimental.Optional,
tf.TensorSpec; clause api.namespaces)."""

from simdist.runtime.data import (AUTOTUNE, INFINITE_CARDINALITY, UNKNOWN_CARDINALITY, Dataset,  # noqa: F401
                                  DatasetSpec, FixedLengthRecordDataset, Iterator, NumpyIterator, Options,
                                  TextLineDataset, TFRecordDataset, ThreadingOptions, experimental)
