"""`tf.strings`: format (simdist/runtime/ops/string_format.py; clause ops.print) and as_string."""

from simdist.runtime.ops.as_string import as_string  # noqa: F401
from simdist.runtime.ops.string_format import string_format as format  # noqa: F401,A001
