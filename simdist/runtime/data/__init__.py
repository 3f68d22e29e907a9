"""`tf.data` for simdist: a lazy pipeline of dataset nodes whose values are NumPy arrays.

Every transformation returns a new node that keeps its inputs (`.inputs`), TF's op name
(`.kind`, e.g. "BatchDatasetV2") and its parameters (`.params`), so the input pipeline can be
analysed and rewritten the way TF's graph rewrites do (compute_batch_size, auto-shard).
Nothing runs until the dataset is iterated; iteration is eager and single-threaded.

Elements are nested structures (tuple / namedtuple / dict / single) of `Tensor`s on the host CPU.
Dtype inference follows TF: Python ints -> int32, floats -> float32, NumPy arrays keep their dtype,
`Dataset.range` gives int64.

Deviations from TF, by design:
- `map`/`filter`/`reduce` functions run their Python once per input signature (element shapes and
  dtypes), recorded, and replay the recorded ops for later elements (`functions`, clause
  dataset.function-trace): once in all when the input spec is fully known, as TF; with None
  dims, once more per distinct element shape; every element when the call cannot be recorded.
  The output spec comes from two probe elements (unknown dims 2 and values 0, then dims 3 and
  values 1; output dims that differ become None), the first of which is the recorded call; if a
  probe raises, the spec comes from the first real element with every dim unknown. A shape that
  depends on values in a way both probes miss comes out static where TF's tracing would say None.
  `flat_map` functions still run per element (their returned datasets are not recorded).
- `shuffle` gives TF's order for a seed (TF's Philox words and seed generator: data/shuffle.py);
  an unseeded shuffle without a global seed (nondeterministic in TF) takes simdist's root-derived
  seed pair, the same for every such shuffle.

Layout (one module per kind of dataset, as TF's data/ops are laid out): `dataset` (the base node
and its methods), `iterators`, `options`, `elements` (conversion, argument checks, cardinality
constants), `functions` (tf.data functions traced once), `sources`, `batching`, `shard`,
`map_filter`, `counting` (repeat/take/skip), `scan` (scan, counter), `take_while`, `unique`,
`single_element` (get_single_element), `window`, `sampling` (random, sample/choose_from_datasets),
`ignore_errors`, `assert_cardinality`, `from_list`, `random_access` (experimental.at),
`group_by_reducer` (with Reducer), `rejection_resample`, `save_load`, `snapshot` and `snapshot_format`, `csv_reader` (experimental.CsvDataset), `make_csv` (make_csv_dataset), `lookup_init` (tables from datasets), `components` (SparseTensor elements as their three components), `sparse_batch`, `ragged_batch`, `parse_example_dataset`, `copy_to_device` (with prefetch_to_device), (Dataset.save/load in TF's format), `resumable` (iterators that continue after an element's error),
`readers` (TFRecordDataset, TextLineDataset, list_files, TFRecordWriter),
`buffering` (prefetch/cache), `shuffle`, `combine` (zip/concatenate), `rebatch` (tf.distribute's
rebatching, with its kernels' rules) and `pipeline` (utilities of tf.distribute's input pipeline).
"""

from __future__ import annotations

import types

# The base first: its module imports the kinds (which subclass it) once DatasetV2 is defined.
from simdist.runtime.data.dataset import Dataset, DatasetV2, _OptionsDataset, _UnaryDataset  # isort: skip
from simdist.runtime.data.batching import _BatchDataset, _PaddedBatchDataset, _stack, _UnbatchDataset
from simdist.runtime.data.buffering import _CacheDataset, _PrefetchDataset, _read_ahead
from simdist.runtime.data.combine import _ConcatenateDataset, _ZipDataset
from simdist.runtime.data.counting import _RepeatDataset, _SkipDataset, _TakeDataset
from simdist.runtime.data.elements import (AUTOTUNE, INFINITE_CARDINALITY, UNKNOWN_CARDINALITY, _zeros,
                                           host_device)
from simdist.runtime.data.iterators import Iterator, Optional, OwnedIterator
from simdist.runtime.data.iterators import _NumpyIterator as NumpyIterator
from simdist.runtime.data.map_filter import _FilterDataset, _MapDataset, _ParallelMapDataset
from simdist.runtime.data.options import (AutoShardPolicy, AutotuneOptions, DistributeOptions, ExternalStatePolicy,
                                          OptimizationOptions, Options, ThreadingOptions)
from simdist.runtime.data.pipeline import cardinality, component_shapes, replicate
from simdist.runtime.data.rebatch import _LegacyRebatchDataset, _RebatchDataset
from simdist.runtime.data.shard import SHARD_HINT, _ShardDataset
from simdist.runtime.data import experimental_forms, lookup_init, random_access, sampling, save_load
from simdist.runtime.data.assert_cardinality import _AssertCardinalityDataset, assert_cardinality
from simdist.runtime.data.from_list import _ListDataset, from_list
from simdist.runtime.data.group_by_reducer import _GroupByReducerDataset, Reducer, group_by_reducer
from simdist.runtime.data.ignore_errors import _IgnoreErrorsDataset, ignore_errors
from simdist.runtime.data.rejection_resample import experimental_rejection_resample
from simdist.runtime.data.snapshot import experimental_snapshot
from simdist.runtime.data.sparse_batch import _DenseToSparseBatchDataset, dense_to_sparse_batch
from simdist.runtime.data.ragged_batch import _DenseToRaggedDataset, dense_to_ragged_batch
from simdist.runtime.data.parse_example_dataset import parse_example_dataset
from simdist.runtime.data.copy_to_device import _CopyToDeviceDataset, copy_to_device, prefetch_to_device
from simdist.runtime.data.csv_reader import CsvDataset
from simdist.runtime.data.make_csv import make_csv_dataset
from simdist.runtime.data.readers import (DatasetTFRecordWriter, FixedLengthRecordDataset, TextLineDataset,
                                          TFRecordDataset, TFRecordWriter)
from simdist.runtime.data.window import DatasetSpec
from simdist.runtime.data.scan import _ScanDataset
from simdist.runtime.data.shuffle import _ShuffleDataset
from simdist.runtime.data.single_element import experimental_get_single_element
from simdist.runtime.data.take_while import _TakeWhileDataset
from simdist.runtime.data.unique import _UniqueDataset
from simdist.runtime.data.sources import _FlatMapDataset, _RangeDataset, _TensorDataset, _TensorSliceDataset
from simdist.runtime.spec import TensorSpec

__all__ = ["DatasetSpec", "NumpyIterator", "FixedLengthRecordDataset", "TFRecordDataset", "TextLineDataset", "AUTOTUNE", "INFINITE_CARDINALITY", "UNKNOWN_CARDINALITY", "Dataset", "DatasetV2", "Options",
           "Iterator", "OwnedIterator", "Optional", "TensorSpec", "ThreadingOptions", "experimental"]

experimental = types.SimpleNamespace(
    AUTOTUNE=AUTOTUNE,
    INFINITE_CARDINALITY=INFINITE_CARDINALITY,
    UNKNOWN_CARDINALITY=UNKNOWN_CARDINALITY,
    SHARD_HINT=SHARD_HINT,
    AutoShardPolicy=AutoShardPolicy,
    AutotuneOptions=AutotuneOptions,
    DistributeOptions=DistributeOptions,
    ExternalStatePolicy=ExternalStatePolicy,
    OptimizationOptions=OptimizationOptions,
    ThreadingOptions=ThreadingOptions,
    Optional=Optional,
    cardinality=cardinality,
    get_single_element=experimental_get_single_element,
    sample_from_datasets=experimental_forms.sample_from_datasets,
    scan=experimental_forms.scan,
    take_while=experimental_forms.take_while,
    unique=experimental_forms.unique,
    unbatch=experimental_forms.unbatch,
    enumerate_dataset=experimental_forms.enumerate_dataset,
    group_by_window=experimental_forms.group_by_window,
    bucket_by_sequence_length=experimental_forms.bucket_by_sequence_length,
    Counter=experimental_forms.Counter,
    RandomDataset=experimental_forms.RandomDataset,
    TFRecordWriter=DatasetTFRecordWriter,
    choose_from_datasets=experimental_forms.choose_from_datasets,
    ignore_errors=ignore_errors,
    assert_cardinality=assert_cardinality,
    from_list=from_list,
    at=random_access.at,
    get_structure=experimental_forms.get_structure,
    get_next_as_optional=experimental_forms.get_next_as_optional,
    pad_to_cardinality=experimental_forms.pad_to_cardinality,
    shuffle_and_repeat=experimental_forms.shuffle_and_repeat,
    map_and_batch=experimental_forms.map_and_batch,
    parallel_interleave=experimental_forms.parallel_interleave,
    group_by_reducer=group_by_reducer,
    Reducer=Reducer,
    rejection_resample=experimental_rejection_resample,
    snapshot=experimental_snapshot,
    CsvDataset=CsvDataset,
    make_csv_dataset=make_csv_dataset,
    dense_to_sparse_batch=dense_to_sparse_batch,
    dense_to_ragged_batch=dense_to_ragged_batch,
    parse_example_dataset=parse_example_dataset,
    copy_to_device=copy_to_device,
    prefetch_to_device=prefetch_to_device,
    DatasetInitializer=lookup_init.DatasetInitializer,
    table_from_dataset=lookup_init.table_from_dataset,
    index_table_from_dataset=lookup_init.index_table_from_dataset,
    save=save_load.save,
    load=lambda path, element_spec=None, compression=None, reader_func=None: save_load.load(
        path, element_spec, compression, reader_func),
)
