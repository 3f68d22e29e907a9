"""`tf.data.experimental.make_csv_dataset(file_pattern, batch_size, ...)`: TF 2.21's composition
(experimental/ops/readers.py make_csv_dataset_v2, _infer_column_names, _infer_column_defaults,
_infer_type, _get_sorted_col_indices), transcribed over simdist's datasets (clause dataset.csv).

The files matching the pattern (shuffled with the seed unless shuffle=False); column names from the
first file's header (every file's must agree) unless given; column defaults unless given inferred from
the first num_rows_for_inference rows with Python's csv module, each column the least permissive of
int32, int64, float32, float64, string that every value parses as (numpy's conversions; empty and
na_value skipped; a column never seen string), as `[0]` / `[""]` (optional columns); then
CsvDataset per file interleaved num_parallel_reads at a time (block 1), shuffle(shuffle_buffer_size,
shuffle_seed) if shuffle, repeat(num_epochs) unless 1, batch(batch_size, drop_remainder=num_epochs is
None), a map to an OrderedDict of columns (and `(features, label)` with label_name), prefetch.
Shuffled orders are TF's for a seed (clause dataset.shuffle). Differences: `sloppy` is accepted (simdist's
order is the deterministic one); `encoding` other than utf-8 is read as given by Python's codecs.
"""

from __future__ import annotations

import collections
import csv
import glob
import gzip
import io
from typing import Any

import numpy as np

from simdist.runtime import dtypes
from simdist.runtime.data.csv_reader import CsvDataset
from simdist.runtime.data.elements import AUTOTUNE
from simdist.runtime.tensor import Tensor, convert_to_tensor

__all__ = ["make_csv_dataset"]


def _is_int32(s: str) -> bool:
    try:
        return bool(np.int32(s) == np.int64(s))
    except (ValueError, OverflowError):
        return False


def _is_int64(s: str) -> bool:
    try:
        np.int64(s)
        return True
    except (ValueError, OverflowError):
        return False


def _is_float(s: str, np_type: Any) -> bool:
    try:
        with np.errstate(over="ignore"):
            return bool(np_type(s) < np.inf)
    except ValueError:
        return False


_TYPES = [(dtypes.int32, _is_int32), (dtypes.int64, _is_int64),
          (dtypes.float32, lambda s: _is_float(s, np.float32)), (dtypes.float64, lambda s: _is_float(s, np.float64)),
          (dtypes.string, lambda s: True)]


def _infer_type(value: str, na_value: str, prev: dtypes.DType | None) -> dtypes.DType | None:
    if value in ("", na_value):
        return prev
    allowed = [t for t, _ in _TYPES]
    for i, (t, valid) in enumerate(_TYPES):
        if valid(value) and (prev is None or prev in allowed[:i + 1]):
            return t
    return None


def _file_names(file_pattern: Any) -> list[str]:
    if isinstance(file_pattern, list):
        if not file_pattern:
            raise ValueError("Argument `file_pattern` should not be empty.")
        names = [n for entry in file_pattern for n in sorted(glob.glob(entry))]
    else:
        names = sorted(glob.glob(file_pattern))
    if not names:
        raise ValueError(f"No files match `file_pattern` {file_pattern}.")
    return names


def make_csv_dataset(file_pattern: Any, batch_size: int, column_names: Any = None, column_defaults: Any = None,
                     label_name: Any = None, select_columns: Any = None, field_delim: str = ",",
                     use_quote_delim: bool = True, na_value: str = "", header: bool = True, num_epochs: Any = None,
                     shuffle: bool = True, shuffle_buffer_size: int = 10000, shuffle_seed: Any = None,
                     prefetch_buffer_size: Any = None, num_parallel_reads: Any = None, sloppy: bool = False,
                     num_rows_for_inference: Any = 100, compression_type: Any = None, ignore_errors: bool = False,
                     encoding: str = "utf-8") -> Any:
    """tf.data.experimental.make_csv_dataset (make_csv_dataset_v2)."""
    from simdist.runtime.data.dataset import DatasetV2
    num_parallel_reads = 1 if num_parallel_reads is None else num_parallel_reads
    prefetch_buffer_size = AUTOTUNE if prefetch_buffer_size is None else prefetch_buffer_size
    filenames = _file_names(file_pattern)
    dataset = DatasetV2.from_tensor_slices(np.asarray(filenames, dtype=object))
    if shuffle:
        dataset = dataset.shuffle(len(filenames), shuffle_seed)
    comp = compression_type.numpy().decode() if isinstance(compression_type, Tensor) else compression_type

    def open_text(name: str) -> Any:
        if comp == "GZIP":
            return gzip.open(name, "rt", encoding=encoding, newline="")
        return io.open(name, "r", encoding=encoding, newline="")
    if (column_names is None or column_defaults is None) and comp not in (None, "", "GZIP"):
        if comp == "ZLIB":
            raise ValueError(f"`compression_type` {compression_type} is not supported for probing columns.")
        raise ValueError(f"Received unknown `compression_type` {compression_type}. Expected: GZIP, ZLIB or "
                         " (empty string).")
    quoting = csv.QUOTE_MINIMAL if use_quote_delim else csv.QUOTE_NONE
    if column_names is None:
        if not header:
            raise ValueError("Expected `column_names` or `header` arguments. Neither is provided.")
        heads = []
        for name in filenames:
            with open_text(name) as f:
                try:
                    heads.append(next(csv.reader(f, delimiter=field_delim, quoting=quoting)))
                except StopIteration:
                    raise ValueError(f"Failed when reading the header line of {name}. Is it an empty file?") from None
            if heads[-1] != heads[0]:
                raise ValueError("All input CSV files should have the same column names in the header row. File "
                                 f"{name} has different column names.")
        column_names = heads[0]
    column_names = list(column_names)
    if len(column_names) != len(set(column_names)):
        s = sorted(column_names)
        dup = set(a for a, b in zip(s[:-1], s[1:]) if a == b)
        raise ValueError("Either `column_names` argument or CSV header row contains duplicate column names: "
                         f"{dup}.")
    if select_columns is not None:
        index = {n: i for i, n in enumerate(column_names)}
        picked = []
        for v in select_columns:
            if isinstance(v, int):
                if v < 0 or v >= len(column_names):
                    raise ValueError(f"Column index {v} specified in `select_columns` should be > 0  and <= "
                                     f"{len(column_names)}, which is the number of columns.")
                picked.append(v)
            elif v not in index:
                raise ValueError(f"Column {v} specified in `select_columns` must be of one of the columns: "
                                 f"{index.keys()}.")
            else:
                picked.append(index[v])
        if len(set(picked)) != len(select_columns):
            raise ValueError(f"The `select_columns` argument contains duplicate columns: {set()}.")
        select_columns = sorted(set(picked))
    if column_defaults is None:
        cols = select_columns if select_columns is not None else list(range(len(column_names)))
        inferred: list[dtypes.DType | None] = [None] * len(cols)
        seen = 0
        for name in filenames:
            if num_rows_for_inference is not None and seen >= num_rows_for_inference:
                break
            with open_text(name) as f:
                reader = csv.reader(f, delimiter=field_delim, quoting=quoting)
                row_num = 1
                if header:
                    next(reader, None)
                    row_num += 1
                for row in reader:
                    if num_rows_for_inference is not None and seen >= num_rows_for_inference:
                        break
                    if len(row) != len(column_names):
                        raise ValueError(f"Problem inferring types: CSV row {row_num} has {len(row)} number of "
                                         f"fields. Expected: {len(column_names)}.")
                    row_num += 1
                    seen += 1
                    for j, c in enumerate(cols):
                        inferred[j] = _infer_type(row[c], na_value, inferred[j])
        column_defaults = [convert_to_tensor(np.asarray([""], dtype=object) if (t or dtypes.string) is dtypes.string
                                             else np.asarray([0], dtype=t.np)) for t in inferred]
    column_defaults = list(column_defaults)
    if select_columns is not None and len(column_defaults) != len(select_columns):
        raise ValueError("If specified, `column_defaults` and `select_columns` must have the same length: "
                         f"`column_defaults` has length {len(column_defaults)}, `select_columns` has length "
                         f"{len(select_columns)}.")
    if select_columns is not None and len(column_names) > len(select_columns):
        column_names = [column_names[i] for i in select_columns]
    if label_name is not None and label_name not in column_names:
        raise ValueError(f"`label_name` provided must be one of the columns: {column_names}. Received: {label_name}.")

    def filename_to_dataset(filename: Any) -> Any:
        ds = CsvDataset(filename, record_defaults=column_defaults, field_delim=field_delim,
                        use_quote_delim=use_quote_delim, na_value=na_value, select_cols=select_columns,
                        header=header, compression_type=compression_type)
        return ds.ignore_errors() if ignore_errors else ds

    names = list(column_names)

    def map_fn(*columns: Any) -> Any:
        features = collections.OrderedDict(zip(names, columns))
        if label_name is not None:
            label = features.pop(label_name)
            return features, label
        return features
    if num_parallel_reads == AUTOTUNE:
        dataset = dataset.interleave(filename_to_dataset, num_parallel_calls=num_parallel_reads)
    else:
        dataset = dataset.interleave(filename_to_dataset, cycle_length=num_parallel_reads, block_length=1)
    if shuffle:
        dataset = dataset.shuffle(shuffle_buffer_size, shuffle_seed)
    if num_epochs != 1:
        dataset = dataset.repeat(num_epochs)
    dataset = dataset.batch(batch_size, drop_remainder=num_epochs is None)
    return dataset.map(map_fn).prefetch(prefetch_buffer_size)


