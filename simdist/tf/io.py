"""`tf.io`: gfile (the file operations TF programs use around checkpoints, on the local disk), the
TFRecord writer, and the Example parsers (FixedLenFeature, VarLenFeature, FixedLenSequenceFeature,
SparseFeature, parse_example, parse_single_example: simdist/runtime/ops/example_parsing.py;
parse_sequence_example, parse_single_sequence_example: sequence_parsing.py),
serialize_tensor / parse_tensor (tensor_codec.py), decode_csv (decode_csv.py), decode_raw / encode_base64 / decode_base64
(raw_codecs.py), read_file / write_file / matching_files (file_io.py) and the image codecs
(image_codecs.py: decode_png, encode_png, decode_jpeg, encode_jpeg, decode_and_crop_jpeg,
extract_jpeg_shape, is_jpeg, decode_image).

TF's gfile reaches many filesystems; a simulated job has only this machine's: simdist/tf/_gfile.py
(GFile, copy, rename, stat, walk, ... with TF's local filesystem's errors; clause io.tensor-codec).
"""

from types import SimpleNamespace as _NS

from simdist.runtime.data.readers import TFRecordOptions, TFRecordWriter  # noqa: F401
from simdist.runtime.ops.decode_csv import decode_csv  # noqa: F401
from simdist.runtime.ops.example_parsing import parse_example, parse_single_example  # noqa: F401
from simdist.runtime.ops.file_io import matching_files, read_file, write_file  # noqa: F401
from simdist.runtime.ops.io_extras import match_filenames_once, write_graph  # noqa: F401
from simdist.runtime.ops.proto_ops import decode_proto, encode_proto  # noqa: F401
from simdist.runtime.ops.image_codecs import (decode_and_crop_jpeg, decode_bmp, decode_gif, decode_image,  # noqa: F401
                                              decode_jpeg, decode_jxl, decode_png, decode_webp, encode_jpeg,
                                              encode_png, extract_jpeg_shape, is_jpeg)
from simdist.runtime.ops.raw_codecs import decode_base64, decode_compressed, decode_raw, encode_base64  # noqa: F401
from simdist.runtime.ops.sequence_parsing import parse_sequence_example, parse_single_sequence_example  # noqa: F401
from simdist.runtime.ops.tensor_codec import parse_tensor, serialize_tensor  # noqa: F401
from simdist.tf._io_sparse import (decode_json_example, deserialize_many_sparse, serialize_many_sparse,  # noqa: F401
                                   serialize_sparse)
from simdist.runtime.ops.parsing_config import (  # noqa: F401
    FixedLenFeature, FixedLenSequenceFeature, RaggedFeature, SparseFeature, VarLenFeature)


from simdist.tf import _gfile  # noqa: E402
gfile = _NS(**{n: getattr(_gfile, n) for n in _gfile.__all__})   # (TF has these at tf.io.gfile only; clause io.tensor-codec)

from simdist.runtime.ops import ragged_dispatch as _ragged_dispatch  # noqa: E402
_ragged_dispatch.install(globals(), "io.")   # (RaggedTensor arguments: TF's ragged dispatch, clause ops.ragged)
