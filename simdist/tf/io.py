"""`tf.io`: gfile (the file operations TF programs use around checkpoints, on the local disk), the
TFRecord writer, and the Example parsers (FixedLenFeature, VarLenFeature, FixedLenSequenceFeature,
SparseFeature, parse_example, parse_single_example: simdist/runtime/ops/example_parsing.py;
parse_sequence_example, parse_single_sequence_example: sequence_parsing.py),
serialize_tensor / parse_tensor (tensor_codec.py), decode_csv (decode_csv.py), decode_raw / encode_base64 / decode_base64
(raw_codecs.py), read_file / write_file / matching_files (file_io.py) and the image codecs
(image_codecs.py: decode_png, encode_png, decode_jpeg, encode_jpeg, decode_and_crop_jpeg,
extract_jpeg_shape, is_jpeg, decode_image).

TF's gfile reaches many filesystems; a simulated job has only this machine's, so these are
the os/shutil calls TF's local filesystem makes (makedirs creates parents and accepts an
existing directory; rmtree and remove raise NotFoundError for a missing path, as TF does).
"""

import glob as _globmod
import os as _os
import shutil as _shutil
from types import SimpleNamespace as _NS

from simdist.runtime import errors as _errors
from simdist.runtime.data.readers import TFRecordOptions, TFRecordWriter  # noqa: F401
from simdist.runtime.ops.decode_csv import decode_csv  # noqa: F401
from simdist.runtime.ops.example_parsing import parse_example, parse_single_example  # noqa: F401
from simdist.runtime.ops.file_io import matching_files, read_file, write_file  # noqa: F401
from simdist.runtime.ops.image_codecs import (decode_and_crop_jpeg, decode_bmp, decode_gif, decode_image,  # noqa: F401
                                              decode_jpeg, decode_png, encode_jpeg, encode_png,
                                              extract_jpeg_shape, is_jpeg)
from simdist.runtime.ops.raw_codecs import decode_base64, decode_compressed, decode_raw, encode_base64  # noqa: F401
from simdist.runtime.ops.sequence_parsing import parse_sequence_example, parse_single_sequence_example  # noqa: F401
from simdist.runtime.ops.tensor_codec import parse_tensor, serialize_tensor  # noqa: F401
from simdist.tf._io_sparse import (decode_json_example, deserialize_many_sparse, serialize_many_sparse,  # noqa: F401
                                   serialize_sparse)
from simdist.runtime.ops.parsing_config import (  # noqa: F401
    FixedLenFeature, FixedLenSequenceFeature, RaggedFeature, SparseFeature, VarLenFeature)


def _missing(path: str) -> _errors.NotFoundError:
    return _errors.NotFoundError(None, None, f"{path}; No such file or directory")


def _makedirs(path: str) -> None:
    """Create `path` and its missing parents (an existing directory is fine)."""
    _os.makedirs(_os.fspath(path), exist_ok=True)


def _rmtree(path: str) -> None:
    """Delete a directory and everything under it."""
    if not _os.path.exists(path):
        raise _missing(_os.fspath(path))
    _shutil.rmtree(path)


def _exists(path: str) -> bool:
    return _os.path.exists(path)


def _isdir(path: str) -> bool:
    return _os.path.isdir(path)


def _listdir(path: str) -> list[str]:
    if not _os.path.isdir(path):
        raise _missing(_os.fspath(path))
    return sorted(_os.listdir(path))


def _remove(path: str) -> None:
    if not _os.path.exists(path):
        raise _missing(_os.fspath(path))
    _os.remove(path)


def _glob(pattern: str) -> list[str]:
    return sorted(_globmod.glob(pattern))


gfile = _NS(makedirs=_makedirs, rmtree=_rmtree, exists=_exists, isdir=_isdir, listdir=_listdir, remove=_remove,
            glob=_glob)   # (TF has these at tf.io.gfile only)

from simdist.runtime.ops import ragged_dispatch as _ragged_dispatch  # noqa: E402
_ragged_dispatch.install(globals(), "io.")   # (RaggedTensor arguments: TF's ragged dispatch, clause ops.ragged)
