"""The cost rules of the tf.strings ops (simdist/runtime/ops/string_args.py STRING_COST): no
floating-point work, and the bytes of the strings (their lengths summed, as TF's tstring data)
and of numeric arrays (their nbytes) read and written, for every op type the new tf.strings
functions register."""

from __future__ import annotations

import numpy as np
import pytest

import simdist.tf  # noqa: F401 - registers the ops
from simdist.runtime.ops import registry

clause = pytest.mark.clause

_WORDS = np.array([b"Ab c", b"", "\u00fc".encode(), b"x,y"], dtype=object)
_CASES = [  # (op type, inputs, attrs)
    ("StringLower", [_WORDS], {"encoding": ""}), ("StringUpper", [_WORDS], {"encoding": "utf-8"}),
    ("StringStrip", [_WORDS], {}), ("StringLength", [_WORDS], {"unit": "UTF8_CHAR"}),
    ("StringToHashBucket", [_WORDS], {"num_buckets": 5}), ("StringToHashBucketFast", [_WORDS], {"num_buckets": 5}),
    ("StringToHashBucketStrong", [_WORDS], {"num_buckets": 5, "key": (1, 2)}),
    ("StringJoin", [_WORDS, _WORDS], {"separator": b"-"}),
    ("ReduceJoin", [_WORDS, np.array([0], np.int32)], {"keep_dims": False, "separator": b""}),
    ("UnsortedSegmentJoin", [_WORDS, np.array([1, 0, 1, 0], np.int32), np.array(2, np.int32)], {"separator": b""}),
    ("Substr", [_WORDS, np.array(0, np.int32), np.array(2, np.int32)], {"unit": "BYTE"}),
    ("StringToNumber", [np.array([b"1.5", b" 2"], dtype=object)], {"out_type": "float64"}),
    ("StaticRegexFullMatch", [_WORDS], {"pattern": b"A.*"}),
    ("StaticRegexReplace", [_WORDS], {"pattern": b"c", "rewrite": b"XY", "replace_global": True}),
    ("UnicodeTranscode", [_WORDS], {"input_encoding": "UTF-8", "output_encoding": "UTF-16-BE", "errors": "replace",
                                    "replacement_char": 0xFFFD, "replace_control_characters": False}),
    ("UnicodeEncode", [np.array([[72, 252]], np.int32)], {"output_encoding": "UTF-8", "errors": "replace",
                                                          "replacement_char": 0xFFFD}),
    ("StringSplitV2", [_WORDS], {"sep": b"", "maxsplit": -1}), ("StringSplit", [_WORDS], {}),
    ("UnicodeDecodeWithOffsets", [_WORDS], {}), ("UnicodeDecode", [_WORDS], {}),
]


def _bytes(a: np.ndarray) -> int:
    return sum(len(v) for v in a.reshape(-1)) if a.dtype == object else int(a.nbytes)


@clause("ops.strings-case")
@pytest.mark.parametrize("case", _CASES, ids=[c[0] for c in _CASES])
def test_string_ops_charge_no_flops_and_their_bytes(case: tuple) -> None:
    name, arrays, attrs = case
    op = registry.get(name)
    out = op.forward(*arrays, **attrs)
    outs = out if isinstance(out, tuple) else (out,)
    flops, read, written = op.cost(arrays, out, attrs)
    want = (0.0, sum(_bytes(a) for a in arrays), sum(_bytes(np.asarray(o)) for o in outs))
    assert (flops, read, written) == want, f"cost={(flops, read, written)}, but should be {want} [{name}]"
