"""`tf.strings`: format (simdist/runtime/ops/string_format.py; clause ops.print), as_string;
to_hash_bucket_fast, to_hash_bucket, to_hash_bucket_strong (string_hash.py); lower, upper, strip,
length (string_case.py); join, reduce_join, unsorted_segment_join (string_join.py); to_number
(string_to_number.py); substr (string_substr.py); regex_full_match, regex_replace
(string_regex.py); unicode_encode, unicode_transcode (unicode_ops.py); split, bytes_split,
unicode_decode(_with_offsets), unicode_split(_with_offsets), ngrams (string_ragged.py:
RaggedTensor results); unicode_script (unicode_script.py: ICU 69's script codes from Unicode 13.0's
Scripts.txt)."""

from simdist.runtime.ops.as_string import as_string  # noqa: F401
from simdist.runtime.ops.string_case import length, lower, strip, upper  # noqa: F401
from simdist.runtime.ops.string_format import string_format as format  # noqa: F401,A001
from simdist.runtime.ops.string_hash import to_hash_bucket, to_hash_bucket_fast, to_hash_bucket_strong  # noqa: F401
from simdist.runtime.ops.string_join import join, reduce_join, unsorted_segment_join  # noqa: F401
from simdist.runtime.ops.string_ragged import (  # noqa: F401
    bytes_split, ngrams, split, unicode_decode, unicode_decode_with_offsets, unicode_split,
    unicode_split_with_offsets)
from simdist.runtime.ops.string_regex import regex_full_match, regex_replace  # noqa: F401
from simdist.runtime.ops.string_substr import substr  # noqa: F401
from simdist.runtime.ops.string_to_number import to_number  # noqa: F401
from simdist.runtime.ops.unicode_ops import unicode_encode, unicode_transcode  # noqa: F401
from simdist.runtime.ops.unicode_script import unicode_script  # noqa: F401

from simdist.runtime.ops import ragged_dispatch as _ragged_dispatch  # noqa: E402
_ragged_dispatch.install(globals(), "strings.")   # (RaggedTensor arguments: TF's ragged dispatch, clause ops.ragged)

from simdist.runtime.ops import ragged_rows as _ragged_rows  # noqa: E402
_ragged_rows.install(globals(), "strings")   # (row-wise ops of RaggedTensors: clause ops.ragged)
