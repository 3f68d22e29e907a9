"""File readers: `tf.data.TFRecordDataset`, `tf.data.TextLineDataset`, `Dataset.list_files` and
`tf.io.TFRecordWriter` (TF 2.21's data/ops/readers.py, lib/io/record_writer.cc, record_reader.cc,
inputbuffer.cc; clause dataset.readers).

A TFRecord file is a sequence of records: the data's length as a little-endian uint64, the masked
CRC-32C of those 8 bytes (uint32), the data, the masked CRC-32C of the data; masked(crc) =
((crc >> 15) | (crc << 17)) + 0xa282ead8 (mod 2**32). compression_type "GZIP" / "ZLIB" compress the
whole stream (zlib's gzip or zlib wrapper); None / "" none. A record whose checksum does not match
is DataLossError "corrupted record at <offset>" (the header's offset, or the data's for the data's
checksum); a file cut inside a record's data is DataLossError "truncated record at <record offset>'
failed with Read less bytes than requested", one cut inside a header ends the records silently. TextLineDataset yields each line without its "\\n" (and a "\\r"
before it); a last line without a newline is kept. Both are string scalars, files read in order,
cardinality UNKNOWN.
"""

from __future__ import annotations

import copy
import glob as _glob
import os
import struct
import zlib
from typing import Any, Iterator

import numpy as np

from simdist.runtime import dtypes, errors
from simdist.runtime.data.dataset import DatasetV2
from simdist.runtime.data.elements import UNKNOWN_CARDINALITY
from simdist.runtime.data.resumable import Steps
from simdist.runtime.spec import TensorSpec
from simdist.runtime.tensor import Tensor, convert_to_tensor

__all__ = ["TFRecordDataset", "TextLineDataset", "TFRecordWriter", "TFRecordOptions", "list_files", "masked_crc32c"]


def _crc_table() -> list[int]:
    table = []
    for i in range(256):
        c = i
        for _ in range(8):
            c = (c >> 1) ^ 0x82F63B78 if c & 1 else c >> 1
        table.append(c)
    return table


_TABLE = _crc_table()


def crc32c(data: bytes) -> int:
    """CRC-32C (Castagnoli), as TF's crc32c::Value."""
    c = 0xFFFFFFFF
    table = _TABLE
    for b in data:
        c = table[(c ^ b) & 0xFF] ^ (c >> 8)
    return c ^ 0xFFFFFFFF


def masked_crc32c(data: bytes) -> int:
    """crc32c::Mask of the data's CRC-32C."""
    crc = crc32c(data)
    return ((((crc >> 15) | (crc << 17)) & 0xFFFFFFFF) + 0xA282EAD8) & 0xFFFFFFFF


class TFRecordOptions:
    """`tf.io.TFRecordOptions(compression_type, ..., compression_level, mem_level, compression_strategy)`: "" (none),
    "GZIP" or "ZLIB", and zlib's deflate parameters (None: TF's ZlibCompressionOptions defaults, level
    Z_DEFAULT_COMPRESSION, mem_level 9, strategy Z_DEFAULT_STRATEGY)."""

    def __init__(self, compression_type: Any = None, flush_mode: Any = None, input_buffer_size: Any = None,
                 output_buffer_size: Any = None, window_bits: Any = None, compression_level: Any = None,
                 compression_method: Any = None, mem_level: Any = None, compression_strategy: Any = None) -> None:
        self.compression_type = _compression(compression_type)
        self.flush_mode = flush_mode
        self.input_buffer_size = input_buffer_size
        self.output_buffer_size = output_buffer_size
        self.window_bits = window_bits
        self.compression_level = compression_level
        self.compression_method = compression_method
        self.mem_level = mem_level
        self.compression_strategy = compression_strategy


def _compression(value: Any) -> str:
    if isinstance(value, TFRecordOptions):
        return value.compression_type
    if value is None:
        return ""
    if isinstance(value, Tensor):
        value = value.numpy()
    if isinstance(value, bytes):
        value = value.decode()
    if value not in ("", "GZIP", "ZLIB"):
        raise errors.InvalidArgumentError(None, None, f"Unsupported compression_type: {value}.")
    return value


def _reader_compression(value: Any) -> str:
    """A record reader's compression_type: TF's RecordReaderOptions::CreateRecordReaderOptions reads a name other
    than "", "ZLIB" and "GZIP" as no compression (it logs "Unsupported compression_type"; wsweep60)."""
    try:
        return _compression(value)
    except errors.InvalidArgumentError:
        return ""


def _open_read(path: str, compression: str) -> bytes:
    """The file's bytes, inflated as TF's ZlibInputStream does: a damaged stream is DataLossError, one cut short gives
    what inflated before the cut (the records whole in it are read, a record cut there is "truncated"; wsweep60)."""
    if not os.path.exists(path):
        raise errors.NotFoundError(None, None, f"{path}; No such file or directory")
    with open(path, "rb") as f:
        raw = f.read()
    if compression in ("GZIP", "ZLIB"):
        inflate = zlib.decompressobj(31 if compression == "GZIP" else 15)
        try:
            return inflate.decompress(raw)
        except zlib.error as e:
            raise errors.DataLossError(None, None, f"inflate() failed with error -3: {e}") from None
    return raw


class TFRecordWriter:
    """`tf.io.TFRecordWriter(path, options=None)`: writes records in TF's framing. A compressed file is one zlib
    stream as TF's ZlibOutputBuffer makes it (tsl/lib/io/zlib_outputbuffer.cc): deflateInit2 with the options' level
    (Z_DEFAULT_COMPRESSION), window bits 15 (ZLIB) or 31 (GZIP: zlib's own gzip header, mtime 0, no name), mem_level 9
    and the strategy; `flush()` deflates what was written with Z_PARTIAL_FLUSH, `close()` with Z_FINISH (clause
    dataset.readers; wsweep60)."""

    def __init__(self, path: Any, options: Any = None) -> None:
        self._path = os.fspath(path)
        if isinstance(options, (str, bytes)) and options not in ("", "GZIP", "ZLIB", b"", b"GZIP", b"ZLIB"):
            raise ValueError(f'Not a valid compression_type: "{options}"')
        self._compression = _compression(options)
        self._chunks: list[bytes] = []
        self._closed = False
        self._deflate: Any = None
        if self._compression:
            opts = options if isinstance(options, TFRecordOptions) else TFRecordOptions(self._compression)
            level = -1 if opts.compression_level is None else int(opts.compression_level)
            mem = 9 if opts.mem_level is None else int(opts.mem_level)
            strategy = 0 if opts.compression_strategy is None else int(opts.compression_strategy)
            self._deflate = zlib.compressobj(level, zlib.DEFLATED, 31 if self._compression == "GZIP" else 15, mem,
                                             strategy)
        open(self._path, "wb").close()

    def write(self, record: Any) -> None:
        if isinstance(record, Tensor):   # TF's pybind write(record: str) takes str or bytes only (wsweep60)
            raise TypeError("write(): incompatible function arguments. The following argument types are supported:\n"
                            "    1. (self: RecordWriter, record: str) -> None")
        if isinstance(record, str):
            record = record.encode()
        data = bytes(record)
        header = struct.pack("<Q", len(data))
        self._chunks.append(header + struct.pack("<I", masked_crc32c(header)) + data
                            + struct.pack("<I", masked_crc32c(data)))

    def _write_out(self, mode: int) -> None:
        raw = b"".join(self._chunks)
        self._chunks = []
        if self._deflate is not None:   # (no deflate call without input: zlib would not see a repeated flush as one)
            raw = (self._deflate.compress(raw) if raw else b"") + self._deflate.flush(mode)
        with open(self._path, "ab") as f:
            f.write(raw)

    def flush(self) -> None:
        self._write_out(zlib.Z_PARTIAL_FLUSH)

    def close(self) -> None:
        if not self._closed:
            self._write_out(zlib.Z_FINISH)
            self._closed = True

    def __enter__(self) -> "TFRecordWriter":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()



class DatasetTFRecordWriter:
    """`tf.data.experimental.TFRecordWriter(filename, compression_type=None)`: `write(dataset)` writes every element of
    a dataset of scalar strings as a record of `filename` (overwriting it), TF's DatasetToTFRecord; eagerly at once,
    returning None (TF 2.21's writers.py: a dataset's elements other than scalar strings, or no dataset, TypeError;
    clause dataset.readers)."""

    def __init__(self, filename: Any, compression_type: Any = None) -> None:
        from simdist.runtime.tensor import convert_to_tensor
        from simdist.runtime import dtypes
        name = convert_to_tensor(filename, dtype=dtypes.string)
        self._filename = name.numpy().decode() if isinstance(name.numpy(), bytes) else str(name.numpy())
        self._compression = _compression("" if compression_type is None else compression_type)

    def write(self, dataset: Any) -> None:
        from simdist.runtime.data.dataset import DatasetV2
        from simdist.runtime import dtypes
        if not isinstance(dataset, DatasetV2):
            raise TypeError(f"Invalid `dataset.` Expected a `tf.data.Dataset` object but got {type(dataset)}.")
        spec = dataset.element_spec
        if type(spec).__name__ != "TensorSpec" or spec.dtype != dtypes.string or not spec.shape.is_compatible_with([]):
            from simdist.runtime.data.experimental_forms import get_structure
            from simdist.runtime.nest import map_structure
            shapes = map_structure(lambda v: getattr(v, "shape", None), get_structure(dataset))
            types = map_structure(lambda v: getattr(v, "dtype", None), get_structure(dataset))
            raise TypeError("Invalid `dataset`. Expected a`dataset` that produces scalar `tf.string` elements, but got "
                            f"a dataset which produces elements with shapes {shapes} and types {types}.")
        with TFRecordWriter(self._filename, TFRecordOptions(self._compression)) as w:
            for element in dataset:
                w.write(element.numpy())

def _records(data: bytes, path: str) -> Iterator[bytes]:
    pos, n = 0, len(data)
    while pos < n:
        if pos + 12 > n:   # (a partial header reads as the file's end, as TF's reader gives)
            return
        header = data[pos:pos + 8]
        (length,) = struct.unpack("<Q", header)
        (crc,) = struct.unpack("<I", data[pos + 8:pos + 12])
        if crc != masked_crc32c(header):
            raise errors.DataLossError(None, None, f"corrupted record at {pos}")
        end = pos + 12 + length
        if end + 4 > n:
            raise errors.DataLossError(None, None, f"truncated record at {pos}' failed with Read less bytes than "
                                       "requested")
        body = data[pos + 12:end]
        (crc,) = struct.unpack("<I", data[end:end + 4])
        if crc != masked_crc32c(body):
            raise errors.DataLossError(None, None, f"corrupted record at {pos + 12}")
        yield body
        pos = end + 4


def _filenames(filenames: Any) -> Any:
    """A filename, a list of them, a string tensor or a dataset of string scalars."""
    if isinstance(filenames, DatasetV2):
        spec = filenames.element_spec
        if not (isinstance(spec, TensorSpec) and spec.dtype == dtypes.string and spec.shape.rank == 0):
            raise TypeError("The `filenames` argument must contain `tf.string` elements. Got a dataset of "
                            f"`{spec!r}` elements.")
        return filenames
    if isinstance(filenames, Tensor):
        filenames = filenames.numpy()
    arr = np.asarray(filenames, dtype=object).reshape(-1)
    names = [os.fspath(x).encode() if not isinstance(x, bytes) else x for x in arr.tolist()]
    return names


class _FileDataset(DatasetV2):
    """Records or lines of each file, in the files' order."""

    def __init__(self, filenames: Any, compression_type: Any, num_parallel_reads: Any = None) -> None:
        names = _filenames(filenames)
        inputs = (names,) if isinstance(names, DatasetV2) else ()
        reads = None if num_parallel_reads is None else int(convert_to_tensor(num_parallel_reads,
                                                                              dtype=dtypes.int64).numpy())
        super().__init__(inputs, {"filenames": None if inputs else names,
                                  "compression_type": _compression(compression_type),
                                  "num_parallel_reads": reads}, TensorSpec([], dtypes.string))

    def _one_file(self, name: Any) -> "_FileDataset":
        """This reader over one file (what TF's readers.py interleaves)."""
        node = copy.copy(self)
        node._inputs = ()
        node._params = dict(self._params, filenames=_filenames(name), num_parallel_reads=None)
        return node

    def _names(self) -> Iterator[bytes]:
        if self._inputs:
            for flat in self._inputs[0]._iter_flat():
                yield bytes(flat[0][()] if isinstance(flat[0], np.ndarray) else flat[0])
        else:
            yield from self._params["filenames"]

    def _iter_flat(self) -> Iterator[list[np.ndarray]]:
        reads = self._params["num_parallel_reads"]
        if reads is not None and reads != -1:   # (readers.py: an interleave of the files, block_length 1)
            return self._interleaved(reads)
        return self._read_files()

    def _interleaved(self, reads: int) -> Iterator[list[np.ndarray]]:
        from simdist.runtime.data.sources import _TensorSliceDataset
        names = _TensorSliceDataset(np.asarray(list(self._names()), dtype=object))
        yield from names.interleave(self._one_file, cycle_length=reads, block_length=1)._iter_flat()

    def _read_files(self) -> Iterator[list[np.ndarray]]:
        """The files' items, resumable (resumable.Steps): an error (a corrupted record's DataLossError)
        is raised and the next call reads the next file, as TF's TFRecordDataset moves on after it
        (observed: ignore_errors keeps the records before the corruption and the later files')."""
        names = self._names()
        current: list[Iterator[bytes]] = []

        def step() -> list[np.ndarray]:
            while True:
                if not current:
                    path = next(names).decode()
                    current.append(self._items(_open_read(path, self._params["compression_type"]), path))
                try:
                    item = next(current[0])
                except StopIteration:
                    current.clear()
                    continue
                except Exception:
                    current.clear()
                    raise
                out = np.empty((), dtype=object)
                out[()] = item
                return [out]
        return Steps(step)

    def _items(self, data: bytes, path: str) -> Iterator[bytes]:
        raise NotImplementedError

    def _card(self) -> int:
        return UNKNOWN_CARDINALITY


class TFRecordDataset(_FileDataset):
    """`tf.data.TFRecordDataset(filenames, compression_type=None, buffer_size=None, num_parallel_reads=None)`."""

    _KIND = "TFRecordDataset"

    def __init__(self, filenames: Any, compression_type: Any = None, buffer_size: Any = None,
                 num_parallel_reads: Any = None, name: str | None = None) -> None:
        super().__init__(filenames, _reader_compression(compression_type), num_parallel_reads)

    def _items(self, data: bytes, path: str) -> Iterator[bytes]:
        return _records(data, path)


class TextLineDataset(_FileDataset):
    """`tf.data.TextLineDataset(filenames, compression_type=None, buffer_size=None, num_parallel_reads=None)`."""

    _KIND = "TextLineDataset"

    def __init__(self, filenames: Any, compression_type: Any = None, buffer_size: Any = None,
                 num_parallel_reads: Any = None, name: str | None = None) -> None:
        super().__init__(filenames, compression_type, num_parallel_reads)

    def _items(self, data: bytes, path: str) -> Iterator[bytes]:
        lines = data.split(b"\n")
        if lines and lines[-1] == b"":
            lines.pop()
        for line in lines:
            yield line.replace(b"\r", b"")   # (InputBuffer::ReadLine appends no '\r' to a line, wherever it is)


def list_files(file_pattern: Any, shuffle: Any = None, seed: Any = None) -> DatasetV2:
    """`Dataset.list_files`: the files matching the pattern(s), sorted (matching_files), shuffled with
    the whole list as buffer unless `shuffle=False` (TF's shuffle order for a seed: clause dataset.shuffle)."""
    from simdist.runtime.data.sources import _TensorSliceDataset
    patterns = _filenames(file_pattern)
    if isinstance(patterns, DatasetV2):
        raise TypeError("simdist's list_files takes a pattern or a list of patterns (not a dataset)")
    names = sorted(m.encode() for p in patterns for m in _glob.glob(p.decode()))
    if not names:
        raise errors.InvalidArgumentError(None, None, "Expected 'tf.Tensor(False, shape=(), dtype=bool)' to be true. "
                                          f"Summarized data: b'No files matched pattern: "
                                          f"{', '.join(p.decode() for p in patterns)}'")
    ds = _TensorSliceDataset(np.asarray(names, dtype=object))
    if shuffle is None or shuffle:
        ds = ds.shuffle(len(names), seed=seed)
    return ds


class FixedLengthRecordDataset(_FileDataset):
    """`tf.data.FixedLengthRecordDataset(filenames, record_bytes, header_bytes=None, footer_bytes=None,
    buffer_size=None, compression_type=None, num_parallel_reads=None)`: each file's body (after
    `header_bytes`, before `footer_bytes`) cut into records of `record_bytes`. Checked when read, as
    TF's kernel does: record_bytes > 0 and header/footer >= 0 (InvalidArgumentError); an
    uncompressed body that is not a multiple of record_bytes is InvalidArgumentError."""

    _KIND = "FixedLengthRecordDataset"

    def __init__(self, filenames: Any, record_bytes: Any, header_bytes: Any = None, footer_bytes: Any = None,
                 buffer_size: Any = None, compression_type: Any = None, num_parallel_reads: Any = None,
                 name: str | None = None) -> None:
        super().__init__(filenames, compression_type, num_parallel_reads)
        self._sizes = (int(record_bytes), int(header_bytes or 0), int(footer_bytes or 0))

    def _items(self, data: bytes, path: str) -> Iterator[bytes]:
        record, header, footer = self._sizes
        if record <= 0:
            raise errors.InvalidArgumentError(None, None, "`record_bytes` must be > 0")
        if header < 0:
            raise errors.InvalidArgumentError(None, None, "`header_bytes` must be >= 0")
        if footer < 0:
            raise errors.InvalidArgumentError(None, None, "`footer_bytes` must be >= 0")
        body = data[header:max(header, len(data) - footer)]
        if len(body) % record and not self._params["compression_type"]:
            raise errors.InvalidArgumentError(
                None, None, f"Excluding the header ({header} bytes) and footer ({footer} bytes), input file \"{path}\" "
                f"has body length {len(body)} bytes, which is not an exact multiple of the record length "
                f"({record} bytes).")
        for i in range(0, len(body) - record + 1, record):
            yield body[i:i + record]


__all__ += ["FixedLengthRecordDataset"]
