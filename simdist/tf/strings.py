"""`tf.strings`: format (simdist/runtime/ops/string_format.py; clause ops.print), as_string and
to_hash_bucket_fast (simdist/runtime/ops/string_hash.py)."""

from simdist.runtime.ops.as_string import as_string  # noqa: F401
from simdist.runtime.ops.string_format import string_format as format  # noqa: F401,A001
from simdist.runtime.ops.string_hash import to_hash_bucket_fast  # noqa: F401
