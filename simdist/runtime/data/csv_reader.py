"""`tf.data.experimental.CsvDataset(filenames, record_defaults, compression_type=None, buffer_size=None,
header=False, field_delim=",", use_quote_delim=True, na_value="", select_cols=None, exclude_cols=None)`:
a tuple of scalars per CSV record (TF 2.21's experimental/ops/readers.py CsvDatasetV2 and CSVDatasetV2's
kernel, observed; clause dataset.csv).

record_defaults: a CSV dtype (float32, float64, int32, int64, string) makes its column required, a
value its default (readers.py tests `x in _ACCEPTABLE_CSV_TYPES`, which DType's equality answers for a
number that is one of those dtypes' enum values too: 9.0 is int64, required). Records end at "\n"
(a "\r" before it dropped, a last record without one kept; an empty line is a record of one empty
field); with use_quote_delim a field may be quoted ("" an escaped quote, delimiters and newlines
inside), an unquoted field may hold no quote. A field that is empty or na_value takes its default,
else InvalidArgumentError "Field 1 is required but missing in record!"; numbers parse as strtol /
strtod allow (surrounding spaces; float overflow inf), else "Field 1 in record is not a valid int32:
x"; a record of other length "Expect 3 fields but have 2 in record" / "Expect 2 fields but have more
in record"; an open quote at the end "Reached end of file without closing quoted field in record".
At build: both select_cols and exclude_cols "Either select_cols or exclude_cols should be empty",
unsorted select_cols "select_cols should be strictly increasing indices", a length other than
record_defaults' "select_cols should match output size". Errors are raised while iterating, as the
kernel's, and the next record follows (ignore_errors drops the bad records). Cardinality is UNKNOWN.
"""

from __future__ import annotations

import math
import re
from typing import Any, Iterator

import numpy as np

from simdist.runtime import dtypes, errors
from simdist.runtime.data.dataset import DatasetV2
from simdist.runtime.data.elements import UNKNOWN_CARDINALITY, _bool_arg
from simdist.runtime.data.readers import _compression, _filenames, _open_read
from simdist.runtime.data.resumable import Steps
from simdist.runtime.spec import TensorSpec
from simdist.runtime.tensor import Tensor, convert_to_tensor

__all__ = ["CsvDataset"]

_CSV_TYPES = ("float32", "float64", "int32", "int64", "string")
_ENUMS = {1: dtypes.float32, 2: dtypes.float64, 3: dtypes.int32, 7: dtypes.string, 9: dtypes.int64}
_INT = re.compile(r"\s*[+-]?\d+\s*")
_FLOAT = re.compile(r"\s*[+-]?((\d+\.?\d*|\.\d+)([eE][+-]?\d+)?|inf(inity)?|nan)\s*", re.IGNORECASE)


def _default(x: Any) -> tuple[dtypes.DType, Any]:
    """A record default: (dtype, default value or None when required)."""
    if isinstance(x, dtypes.DType):
        if x.name not in _CSV_TYPES:
            raise ValueError(f"Attempt to convert a value ({x!r}) with an unsupported type (<class '{type(x).__module__}."
                             f"{type(x).__name__}'>) to a Tensor.")
        return x, None
    if isinstance(x, (int, float)) and not isinstance(x, bool) and float(x).is_integer() and int(x) in _ENUMS:
        return _ENUMS[int(x)], None
    t = x if isinstance(x, Tensor) else convert_to_tensor(x)
    if t.dtype.name not in _CSV_TYPES:
        raise errors.InvalidArgumentError(None, None, f"Unsupported type {t.dtype.name} [Op:CSVDatasetV2]")
    v = np.asarray(t._v)
    return t.dtype, (None if v.size == 0 else v.reshape(-1)[0])


def _records(data: bytes, delim: bytes, quote: bool) -> Iterator[list[bytes]]:
    """The records of a file: lists of fields, quotes resolved."""
    pos, n = 0, len(data)
    while pos < n:
        fields: list[bytes] = []
        while True:
            if quote and pos < n and data[pos:pos + 1] == b'"':
                pos += 1
                buf = bytearray()
                while True:
                    if pos >= n:
                        raise errors.InvalidArgumentError(None, None, "Reached end of file without closing quoted "
                                                                      "field in record")
                    c = data[pos:pos + 1]
                    if c == b'"':
                        if data[pos + 1:pos + 2] == b'"':
                            buf += b'"'
                            pos += 2
                            continue
                        pos += 1
                        break
                    buf += c
                    pos += 1
                nxt = data[pos:pos + 1]
                if nxt not in (delim, b"\n", b"\r", b""):
                    raise errors.InvalidArgumentError(None, None, "Quoted field has to end with quote followed by "
                                                                  "delim or end")
                fields.append(bytes(buf))
            else:
                end = pos
                while end < n and data[end:end + 1] not in (delim, b"\n"):
                    end += 1
                field = data[pos:end]
                if field.endswith(b"\r") and data[end:end + 1] != delim:
                    field = field[:-1]
                if quote and b'"' in field:
                    raise errors.InvalidArgumentError(None, None, "Unquoted fields cannot have quotes inside")
                fields.append(field)
                pos = end
            if data[pos:pos + 1] == b"\r":
                pos += 1
            if pos >= n or data[pos:pos + 1] == b"\n":
                pos += 1
                yield fields
                break
            pos += 1   # (the delimiter)


def _parse(field: bytes, i: int, dt: dtypes.DType) -> Any:
    if dt is dtypes.string:
        return field
    text = field.decode("utf-8", "replace")
    if dt in (dtypes.int32, dtypes.int64):
        if _INT.fullmatch(text):
            v = int(text)
            bits = 31 if dt is dtypes.int32 else 63
            if -(1 << bits) <= v < (1 << bits):
                return v
        raise errors.InvalidArgumentError(None, None, f"Field {i} in record is not a valid {dt.name}: {text}")
    if _FLOAT.fullmatch(text):
        v = float(text)
        return v if math.isfinite(v) or dt is dtypes.float64 else v
    name = "float" if dt is dtypes.float32 else "double"
    raise errors.InvalidArgumentError(None, None, f"Field {i} in record is not a valid {name}: {text}")


class CsvDataset(DatasetV2):
    """tf.data.experimental.CsvDataset."""

    _KIND = "CSVDatasetV2"

    def __init__(self, filenames: Any, record_defaults: Any, compression_type: Any = None, buffer_size: Any = None,
                 header: Any = False, field_delim: Any = ",", use_quote_delim: Any = True, na_value: Any = "",
                 select_cols: Any = None, exclude_cols: Any = None) -> None:
        defaults = [_default(x) for x in record_defaults]
        select = [int(c) for c in np.asarray(select_cols if select_cols is not None else [], np.int64).reshape(-1)]
        exclude = [int(c) for c in np.asarray(exclude_cols if exclude_cols is not None else [], np.int64).reshape(-1)]
        if select and exclude:
            raise errors.InvalidArgumentError(None, None, "Either select_cols or exclude_cols should be empty "
                                                          "[Op:CSVDatasetV2]")
        if any(b <= a for a, b in zip(select, select[1:])):
            raise errors.InvalidArgumentError(None, None, "select_cols should be strictly increasing indices "
                                                          "[Op:CSVDatasetV2]")
        if select and len(select) != len(defaults):
            raise errors.InvalidArgumentError(None, None, "select_cols should match output size [Op:CSVDatasetV2]")
        if any(b <= a for a, b in zip(exclude, exclude[1:])):
            raise errors.InvalidArgumentError(None, None, "exclude_cols should be strictly increasing indices "
                                                          "[Op:CSVDatasetV2]")
        delim = field_delim.numpy() if isinstance(field_delim, Tensor) else field_delim
        na = na_value.numpy() if isinstance(na_value, Tensor) else na_value
        spec = tuple(TensorSpec([], dt) for dt, _ in defaults)
        super().__init__((), {"filenames": _filenames(filenames), "compression_type": _compression(compression_type),
                              "header": _bool_arg(header),
                              "field_delim": delim.encode() if isinstance(delim, str) else bytes(delim),
                              "use_quote_delim": _bool_arg(use_quote_delim),
                              "na_value": na.encode() if isinstance(na, str) else bytes(na),
                              "select_cols": select, "exclude_cols": exclude}, spec)
        self._defaults = defaults

    def _columns(self, fields: list[bytes]) -> list[tuple[int, bytes]]:
        """The (column, field) pairs the record keeps, checked against the expected count."""
        p, k = self._params, len(self._defaults)
        if p["select_cols"]:
            last = p["select_cols"][-1]
            if len(fields) <= last:
                raise errors.InvalidArgumentError(None, None, f"Expect {last + 1} fields but have {len(fields)} in "
                                                              "record")
            return [(c, fields[c]) for c in p["select_cols"]]
        total = k + len(p["exclude_cols"])
        if len(fields) < total:
            raise errors.InvalidArgumentError(None, None, f"Expect {total} fields but have {len(fields)} in record")
        if len(fields) > total:
            raise errors.InvalidArgumentError(None, None, f"Expect {total} fields but have more in record")
        skip = set(p["exclude_cols"])
        return [(c, f) for c, f in enumerate(fields) if c not in skip]

    def _all_records(self) -> Iterator[list[bytes]]:
        p = self._params
        for name in p["filenames"]:
            path = name.decode()
            records = _records(_open_read(path, p["compression_type"]), p["field_delim"], p["use_quote_delim"])
            if p["header"]:
                next(records, None)
            yield from records

    def _row(self, fields: list[bytes]) -> list[np.ndarray]:
        na = self._params["na_value"]
        row = []
        for i, ((col, field), (dt, default)) in enumerate(zip(self._columns(fields), self._defaults)):
            if field == b"" or field == na:
                if default is None:
                    raise errors.InvalidArgumentError(None, None, f"Field {i} is required but missing in record!")
                value = default
            else:
                value = _parse(field, i, dt)
            if dt is dtypes.string:
                arr = np.empty((), dtype=object)
                arr[()] = value if isinstance(value, bytes) else bytes(value)
            else:
                with np.errstate(over="ignore"):
                    arr = np.asarray(value, dtype=dt.np)
            row.append(arr)
        return row

    def _iter_flat(self) -> Iterator[list[np.ndarray]]:
        """A resumable iterator (resumable.Steps): a record's error is raised and the next call reads the
        next record, as the kernel does (a quoting error ends the file's records)."""
        records = self._all_records()
        return Steps(lambda: self._row(next(records)))

    def _card(self) -> int:
        return UNKNOWN_CARDINALITY
